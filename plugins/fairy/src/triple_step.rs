//! Fairy-Stockfish's `tripleStepRegionWhite/Black`: a pawn (the type `pawn`) standing in the
//! region may step three squares straight ahead over two empty squares onto an empty one
//! (`wildebeest`). Each passed square on which an enemy pawn could take is an en passant
//! square (in the region of the side that may take): a pawn taking on either removes the
//! pawn that stepped. The FEN lists them in board order (`c3c4`).
//!
//! The generator knows one en passant square per position: the plugin adds the triple steps
//! to its moves, keeps the farther passed square as the position's (`ep_passed`, with the
//! stepped pawn as `ep_victim`, two squares away) and adds the captures on the nearer one
//! (the generator's en passant captures with that square as the position's).

use crate::engine::Fairy;
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{Color, Move, MoveEffects, MoveFlags, Position, Square, SquareSet};

/// The triple-step rule of a variant.
#[derive(Debug, Clone)]
pub struct TripleStep {
    /// Where pawns may triple-step, by colour.
    pub region: [SquareSet; 2],
    /// Where en passant rights may be, by the colour that may take (`None`: everywhere).
    ep_region: [Option<SquareSet>; 2],
}

impl TripleStep {
    /// The rule of a variant (`None` without triple-step squares); `pawn_kinds` are the kinds
    /// of the type `pawn`.
    pub fn new(
        region: [SquareSet; 2],
        ep_region: [Option<SquareSet>; 2],
        walling: bool,
        promotion_region: [SquareSet; 2],
        ranks: u8,
    ) -> Result<Option<TripleStep>, String> {
        if region.iter().all(SquareSet::is_empty) {
            return Ok(None);
        }
        if walling {
            return Err("triple steps with a walling rule are not supported".into());
        }
        // A triple step onto the promotion zone would promote (not supported).
        for (c, reg) in region.iter().enumerate() {
            let fwd: i8 = if c == 0 { 3 } else { -3 };
            if reg.iter().any(|sq| {
                sq.offset_within(0, fwd, 16, ranks)
                    .is_some_and(|to| promotion_region[c].contains(to))
            }) {
                return Err(
                    "a triple step onto the promotion region (a promoting triple step) is not \
                     supported"
                        .into(),
                );
            }
        }
        Ok(Some(TripleStep { region, ep_region }))
    }

    /// Whether `mv` (on `pos`, before it is made) is a triple step.
    pub fn is_triple(&self, v: &Fairy, pos: &Position, mv: &Move) -> bool {
        !mv.is_drop()
            && !mv.is_capture()
            && mv.from.file() == mv.to.file()
            && mv.from.rank().abs_diff(mv.to.rank()) == 3
            && is_pawn(v, pos, mv.from)
    }

    /// Appends the legal triple steps of the side to move and the en passant captures on the
    /// nearer passed square of an opponent's triple step.
    pub fn moves(&self, v: &Fairy, pos: &Position, out: &mut RVec<Move>) {
        let us = pos.side_to_move;
        let fwd = us.forward();
        for from in self.region[us.index()].iter() {
            if !is_pawn(v, pos, from) || !pos.get(from).is_color(us) {
                continue;
            }
            let path: Vec<Square> = (1..=3)
                .filter_map(|n| from.offset_within(0, fwd * n, v.files, v.ranks))
                .collect();
            if path.len() < 3 || path.iter().any(|&sq| !pos.get(sq).is_empty()) {
                continue;
            }
            let m = Move::new(from, path[2], MoveFlags::NONE);
            let mut after = pos.clone();
            v.gen.apply(&mut after, m, &mut MoveEffects::new(us, false));
            if !v.gen.in_check(&after, us) {
                out.push(m);
            }
        }
        if let Some(near) = self.near_square(pos) {
            let mut there = pos.clone();
            there.ep_passed = near;
            let mut all = RVec::new();
            v.gen.legal_moves(&there, &mut all);
            out.extend(
                all.iter()
                    .filter(|m| m.flags.contains(MoveFlags::EN_PASSANT) && m.to == near)
                    .copied(),
            );
        }
    }

    /// After a triple step of `mover` from `from` to `to` (made): its en passant squares.
    pub fn after_step(&self, v: &Fairy, pos: &mut Position, mover: Color, to: Square) {
        let back = -mover.forward();
        let (Some(near), Some(far)) = (
            to.offset_within(0, back, v.files, v.ranks),
            to.offset_within(0, 2 * back, v.files, v.ranks),
        ) else {
            return;
        };
        self.record(v, pos, near, far, to);
    }

    /// Sets the position's en passant right from the squares a triple step passed (`near`
    /// next to the pawn on `victim`), as Fairy-Stockfish records them.
    fn record(&self, v: &Fairy, pos: &mut Position, near: Square, far: Square, victim: Square) {
        let (n, f) = (self.recorded(v, pos, near), self.recorded(v, pos, far));
        (pos.ep_passed, pos.ep_victim) = match (n, f) {
            (_, true) => (far, victim),
            (true, false) => (near, victim),
            _ => (Square::NONE, Square::NONE),
        };
    }

    /// Whether Fairy-Stockfish records `sq` as an en passant square for the side to move: in
    /// its region, attacked by one of its pawns.
    fn recorded(&self, v: &Fairy, pos: &Position, sq: Square) -> bool {
        let us = pos.side_to_move;
        if self.ep_region[us.index()].is_some_and(|r| !r.contains(sq)) {
            return false;
        }
        // Its pawns that take on `sq` stand diagonally behind it (from its side).
        [-1i8, 1].iter().any(|&df| {
            sq.offset_within(df, -us.forward(), v.files, v.ranks)
                .is_some_and(|s| pos.get(s).is_color(us) && is_pawn(v, pos, s))
        })
    }

    /// The nearer passed square of a triple step (its farther one is `ep_passed`), when an
    /// en passant capture there is recorded.
    fn near_square(&self, pos: &Position) -> Option<Square> {
        let (p, vic) = (pos.ep_passed, pos.ep_victim);
        if p.is_none()
            || vic.is_none()
            || p.file() != vic.file()
            || p.rank().abs_diff(vic.rank()) != 2
        {
            return None;
        }
        let near = Square::new(p.file(), (p.rank() + vic.rank()) / 2);
        Some(near)
    }

    /// The en passant field: the recorded squares in board order.
    pub fn fen_field(&self, v: &Fairy, pos: &Position) -> Option<String> {
        let near = self.near_square(pos)?;
        let far = pos.ep_passed;
        let mut squares = vec![far];
        if self.recorded(v, pos, near) {
            squares.push(near);
        }
        squares.sort_by_key(|s| (s.rank(), s.file()));
        Some(squares.iter().map(|s| s.name()).collect())
    }

    /// Corrects a FEN's en passant right (`field`, read as a double step's) where it belongs
    /// to a triple step: the pawn to take stands two squares beyond the farther square. Each
    /// square named counts if Fairy-Stockfish would record it; naming only the farther one
    /// while the nearer would be recorded too is refused (Fairy-Stockfish then has the farther
    /// one only, which this plugin cannot hold).
    pub fn fix_parsed(&self, v: &Fairy, pos: &mut Position, field: &str) -> Result<(), String> {
        let (p, vic) = (pos.ep_passed, pos.ep_victim);
        if p.is_none() || vic.is_none() || !pos.get(vic).is_empty() {
            return Ok(());
        }
        // The stepping side's forward direction; both squares (or the one) are empty.
        let fwd = -pos.side_to_move.forward();
        let progress = |s: Square| i16::from(s.rank()) * i16::from(fwd);
        let far = if p.file() == vic.file() && progress(vic) < progress(p) {
            vic
        } else {
            p
        };
        (pos.ep_passed, pos.ep_victim) = (Square::NONE, Square::NONE);
        let (Some(near), Some(victim)) = (
            far.offset_within(0, fwd, v.files, v.ranks),
            far.offset_within(0, 2 * fwd, v.files, v.ranks),
        ) else {
            return Ok(());
        };
        if !piece_is_enemy_pawn(v, pos, victim) || !pos.get(near).is_empty() {
            return Ok(());
        }
        // The squares named: a file letter and its rank digits each.
        let mut names: Vec<String> = Vec::new();
        for c in field.chars() {
            match names.last_mut() {
                Some(n) if !c.is_ascii_lowercase() => n.push(c),
                _ => names.push(c.to_string()),
            }
        }
        let named = |sq: Square| names.iter().any(|n| Square::parse(n) == Some(sq));
        let rec_far = named(far) && self.recorded(v, pos, far);
        let rec_near = named(near) && self.recorded(v, pos, near);
        if rec_far && !rec_near && self.recorded(v, pos, near) {
            let (a, b) = if (far.rank(), far.file()) < (near.rank(), near.file()) {
                (far, near)
            } else {
                (near, far)
            };
            return Err(format!(
                "en passant `{field}` after a triple step without {near}, where a pawn could take \
                 too, is not supported (Fairy-Stockfish writes `{a}{b}`)"
            ));
        }
        (pos.ep_passed, pos.ep_victim) = match (rec_far, rec_near) {
            (true, _) => (far, victim),
            (false, true) => (near, victim),
            _ => (Square::NONE, Square::NONE),
        };
        Ok(())
    }
}

/// Whether a pawn of the side not to move stands on `sq`.
fn piece_is_enemy_pawn(v: &Fairy, pos: &Position, sq: Square) -> bool {
    pos.get(sq).is_color(pos.side_to_move.opposite()) && is_pawn(v, pos, sq)
}

/// Whether a piece of the type `pawn` stands on `sq`.
fn is_pawn(v: &Fairy, pos: &Position, sq: Square) -> bool {
    pos.get(sq)
        .kind()
        .is_some_and(|k| v.kinds.get(k as usize).is_some_and(|k| k.pawn))
}
