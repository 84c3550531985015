//! Helpers shared by the gallery presets: piece roles through the variant's piece table,
//! counting pieces, en passant bookkeeping.

use houserules_plugin_api::{
    preset_object, Cell, Color, Move, MoveFlags, Position, PresetBox, PresetRules, Role,
    RulesModel, Square, VariantInfo,
};

/// A preset whose whole rule is which roles are royal (coregal, knightmate-rules,
/// weak-dual-king): a transform of the rules model (API 1.2) that makes exactly the pieces of
/// those roles royal, with a check rule.
pub(crate) struct RoyalRoles {
    roles: &'static [Role],
    check_rule: u8,
}

impl RoyalRoles {
    /// The preset `id`, for a variant that must have a piece of role `needed`.
    pub(crate) fn preset(
        id: &str,
        k: Kinds,
        needed: Role,
        roles: &'static [Role],
        check_rule: u8,
    ) -> Result<PresetBox, String> {
        k.require(id, needed)?;
        Ok(preset_object(RoyalRoles { roles, check_rule }))
    }
}

impl PresetRules for RoyalRoles {
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        for p in model.pieces.iter_mut() {
            p.royal = self.roles.contains(&p.role);
        }
        model.check = self.check_rule;
        Ok(())
    }
}

/// The variant's piece table reduced to what the presets need: the role of every kind.
#[derive(Debug, Clone)]
pub struct Kinds {
    roles: Vec<Role>,
}

impl Kinds {
    /// The roles of `variant`'s piece kinds.
    pub fn of(variant: &VariantInfo) -> Kinds {
        Kinds {
            roles: variant.pieces.iter().map(|p| p.role).collect(),
        }
    }

    /// The role of a piece kind (`OTHER` for unknown kinds).
    #[inline]
    pub fn role(&self, kind: u8) -> Role {
        self.roles
            .get(kind as usize)
            .copied()
            .unwrap_or(Role::OTHER)
    }

    /// Whether `cell` holds a piece of `role` (any colour).
    #[inline]
    pub fn is(&self, cell: Cell, role: Role) -> bool {
        cell.kind().is_some_and(|k| self.role(k) == role)
    }

    /// The first kind of `role`, if the variant has one.
    pub fn first(&self, role: Role) -> Option<u8> {
        self.roles.iter().position(|r| *r == role).map(|i| i as u8)
    }

    /// Errors unless the variant has a piece of `role` (for presets that need one).
    pub fn require(&self, preset: &str, role: Role) -> Result<u8, String> {
        self.first(role).ok_or_else(|| {
            format!(
                "preset `{preset}` needs a piece with the role `{}` in the variant",
                role.name()
            )
        })
    }

    /// Number of `color`'s pieces of `role`.
    pub fn count(&self, pos: &Position, color: Color, role: Role) -> usize {
        pos.pieces_of(color)
            .filter(|(_, k)| self.role(*k) == role)
            .count()
    }
}

/// The side that made the last move in `pos`: the side to move in the middle of a multi-move
/// turn (`turn_phase > 0`), the other side otherwise.
pub fn last_mover(pos: &Position) -> Color {
    if pos.turn_phase > 0 {
        pos.side_to_move
    } else {
        pos.side_to_move.opposite()
    }
}

/// The square a double step passed over: `via` when the generator set it, else the midpoint.
pub fn passed_square(mv: Move) -> Square {
    if !mv.via.is_none() {
        return mv.via;
    }
    Square::new(
        (mv.from.file() + mv.to.file()) / 2,
        (mv.from.rank() + mv.to.rank()) / 2,
    )
}

/// Sets (or clears) the en passant fields after a double step: they are kept only when some
/// pawn of the other side could capture en passant — `orthogonal(color)` says whether that
/// side's pawns capture straight forward (Berolina) or diagonally (FIDE). Keeping the fields
/// only when a capture exists keeps FENs and repetition canonical, as the chess plugin does.
pub fn set_en_passant(
    pos: &mut Position,
    k: &Kinds,
    mv: Move,
    mover: Color,
    orthogonal: impl Fn(Color) -> bool,
) {
    let passed = passed_square(mv);
    let victim = mv.to;
    let them = mover.opposite();
    let back = -them.forward();
    let capturer_files: &[i8] = if orthogonal(them) { &[0] } else { &[-1, 1] };
    let capturable = capturer_files.iter().any(|&df| {
        pos.offset(passed, df, back)
            .map(|s| pos.get(s))
            .is_some_and(|c| c.is_color(them) && k.is(c, Role::PAWN))
    });
    if capturable && pos.get(passed).is_empty() {
        pos.ep_passed = passed;
        pos.ep_victim = victim;
    } else {
        pos.ep_passed = Square::NONE;
        pos.ep_victim = Square::NONE;
    }
    pos.invalidate_accel();
}

/// Whether `mv` is a pawn's double step (the flag the chess plugin and Berolina set).
#[inline]
pub fn is_double_step(mv: Move) -> bool {
    mv.flags.contains(MoveFlags::DOUBLE_STEP)
}
