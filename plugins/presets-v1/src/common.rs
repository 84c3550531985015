//! Helpers shared by the presets: the variant's piece table by role, hit points, pushes,
//! castling-slot hygiene.

use houserules_plugin_api::{
    attr, castle_slot, geometry, Cell, Color, Position, Role, Square, VariantInfo,
};

/// Maps piece kinds of the variant to roles, and roles to the first kind that has them.
#[derive(Debug, Clone)]
pub struct Kinds {
    role_of: [Role; 128],
    first: [u8; 8],
}

const NONE: u8 = 0xFF;

impl Kinds {
    /// The chess piece table: P N B R Q K = kinds 0..5 (used until the host binds a variant).
    pub fn chess() -> Kinds {
        Kinds::from_roles(&[
            Role::PAWN,
            Role::KNIGHT,
            Role::BISHOP,
            Role::ROOK,
            Role::QUEEN,
            Role::KING,
        ])
    }

    /// From the roles of a piece table (index = kind).
    pub fn from_roles(roles: &[Role]) -> Kinds {
        let mut role_of = [Role::OTHER; 128];
        let mut first = [NONE; 8];
        for (k, r) in roles.iter().enumerate().take(127) {
            role_of[k] = *r;
            if (r.0 as usize) < 8 && first[r.0 as usize] == NONE {
                first[r.0 as usize] = k as u8;
            }
        }
        Kinds { role_of, first }
    }

    /// The role of the piece on a cell (`None` for empty squares and holes).
    #[inline]
    pub fn role(&self, c: Cell) -> Option<Role> {
        c.kind().map(|k| self.role_of[(k & 127) as usize])
    }

    /// The role of a kind.
    #[inline]
    pub fn kind_role(&self, kind: u8) -> Role {
        self.role_of[(kind & 127) as usize]
    }

    /// Whether the cell holds a piece of `role` and `color`.
    #[inline]
    pub fn is(&self, c: Cell, role: Role, color: Color) -> bool {
        c.is_color(color) && self.role(c) == Some(role)
    }

    /// Whether the cell holds a piece of `role` (either colour).
    #[inline]
    pub fn is_any(&self, c: Cell, role: Role) -> bool {
        self.role(c) == Some(role)
    }

    /// The first kind with `role`.
    pub fn kind(&self, role: Role) -> Option<u8> {
        let k = *self.first.get(role.0 as usize)?;
        (k != NONE).then_some(k)
    }
}

/// The piece table a preset works with: the variant's, handed over when the preset is
/// created for a pipeline.
#[derive(Debug, Clone)]
pub struct Bound(Kinds);

impl Default for Bound {
    fn default() -> Self {
        Bound(Kinds::chess())
    }
}

impl Bound {
    /// The kinds of the variant `info` describes.
    pub fn of(info: &VariantInfo) -> Bound {
        let roles: Vec<Role> = info.pieces.iter().map(|p| p.role).collect();
        Bound(Kinds::from_roles(&roles))
    }
    /// The kinds in use.
    #[inline]
    pub fn get(&self) -> &Kinds {
        &self.0
    }
}

/// Hit points of the piece on `sq`; absent = the default (kings 1, others 2).
pub fn hp(pos: &Position, k: &Kinds, sq: Square) -> i32 {
    pos.attribute(sq, attr::HP)
        .unwrap_or_else(|| default_hp(k, pos.get(sq)))
}

/// Starting hit points of a piece: kings (and every royal-role piece) 1, others 2.
pub fn default_hp(k: &Kinds, c: Cell) -> i32 {
    if k.is_any(c, Role::KING) {
        1
    } else {
        2
    }
}

/// The first empty square around `sq` in the clockwise order N, NE, E, SE, S, SW, W, NW.
pub fn first_empty_around(pos: &Position, sq: Square) -> Option<Square> {
    geometry::CLOCKWISE
        .iter()
        .find_map(|&(df, dr)| pos.offset(sq, df, dr).filter(|&to| pos.get(to).is_empty()))
}

/// Forgets castling rights that depend on a piece that left or vanished from `sq`: a rook
/// slot naming `sq`, or both slots of a side whose king stood there.
pub fn drop_castling(pos: &mut Position, k: &Kinds, sq: Square, was: Cell) {
    let mut changed = false;
    for slot in 0..4 {
        if pos.castling[slot] == sq {
            pos.castling[slot] = Square::NONE;
            changed = true;
        }
    }
    if k.is_any(was, Role::KING) {
        let base = if was.is_color(Color::White) {
            castle_slot::WHITE_KING_SIDE
        } else {
            castle_slot::BLACK_KING_SIDE
        };
        for slot in [base, base + 1] {
            if !pos.castling[slot].is_none() {
                pos.castling[slot] = Square::NONE;
                changed = true;
            }
        }
    }
    if changed {
        pos.invalidate_accel();
    }
}

/// Removes the piece on `sq` by an effect (not a capture): cell, attributes, castling rights
/// and an en passant square that pointed at it.
pub fn remove_piece(pos: &mut Position, k: &Kinds, sq: Square) -> Cell {
    let was = pos.clear(sq);
    drop_castling(pos, k, sq, was);
    if pos.ep_victim == sq {
        pos.ep_victim = Square::NONE;
        pos.ep_passed = Square::NONE;
    }
    was
}

/// After a double step, sets the en passant square when an enemy pawn could take: the
/// passed square and the landing square (for pawn moves the variant's own rule does not
/// cover). `wrap` also counts capturers across the a/h seam.
pub fn set_ep_after_double(pos: &mut Position, k: &Kinds, from: Square, to: Square, wrap: bool) {
    let Some(mover) = pos.get(to).color() else {
        return;
    };
    if from.file() != to.file() || from.rank().abs_diff(to.rank()) != 2 {
        return;
    }
    let passed = Square::new(to.file(), (from.rank() + to.rank()) / 2);
    let enemy = mover.opposite();
    // An enemy pawn captures onto `passed` from one rank "behind" it in its own direction.
    let files = pos.files() as i16;
    let mut any = false;
    for df in [-1i16, 1] {
        let mut f = to.file() as i16 + df;
        if wrap {
            f = (f + files) % files;
        }
        if f < 0 || f >= files {
            continue;
        }
        let s = Square::new(f as u8, to.rank());
        if k.is(pos.get(s), Role::PAWN, enemy) {
            any = true;
        }
    }
    if any {
        pos.ep_passed = passed;
        pos.ep_victim = to;
        pos.invalidate_accel();
    }
}

/// Appends `betza` (houserules dialect) to the movement of every piece of `role` in the
/// model (a preset that adds moves).
pub fn add_movement(model: &mut houserules_plugin_api::RulesModel, role: Role, betza: &str) {
    for p in model.pieces.iter_mut().filter(|p| p.role == role) {
        p.add_movement(betza);
    }
}
