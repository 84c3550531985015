//! An en passant right that no capture can use, after a custom piece's initial double step
//! (`dragon-chess`'s `p:KifmnD`). Fairy-Stockfish writes such a right in the FEN after every
//! double step (`b3b4` after `b2b4`) but does not tell the position apart by it for
//! repetition, and neither does FIDE's rule (9.2.3: the same position is the same possible
//! moves). So the position keeps it as its landing square alone: `ep_victim` set,
//! `ep_passed` not. The FEN writes it as Fairy-Stockfish does, and repetition, which compares
//! `ep_passed` ([`Position::same_for_repetition`]), does not see it.
//!
//! Where a capture can use the right, Fairy-Stockfish still counts the position as the same
//! (its hash key adds the file of each recorded square, the passed and the landing one, which
//! cancel) where houserules and FIDE's rule do not: a known difference (docs/fairy.md).

use crate::engine::Fairy;
use houserules_plugin_api::{Move, MoveFlags, Position, Square};

/// After `mv`, a double step of the piece of `kind`: Fairy-Stockfish records a custom piece's
/// initial double step whether or not a capture could use it (position.cpp `do_move`), where
/// the generator's policy (set for the pawns beside it) may have dropped it: kept here as the
/// landing square alone, for [`set_aside`] and the FEN.
pub fn record_custom_step(v: &Fairy, pos: &mut Position, mv: &Move, kind: Option<u8>) {
    let custom = kind
        .and_then(|k| v.kinds.get(k as usize))
        .is_some_and(|k| k.ep_victim && !k.pawn);
    if !custom
        || !mv.flags.contains(MoveFlags::DOUBLE_STEP)
        || mv.via.is_none()
        || !pos.ep_victim.is_none()
    {
        return;
    }
    let taker = pos.side_to_move.index();
    if v.spec.en_passant_region[taker].is_some_and(|r| !r.contains(mv.via)) {
        return;
    }
    pos.ep_victim = mv.to;
}

/// After a move or a FEN: sets a custom piece's double-step right aside when no legal en
/// passant capture can use it.
pub fn set_aside(v: &Fairy, pos: &mut Position) {
    if !v.custom_double_step(pos) || passed_square(v, pos) != Some(pos.ep_passed) {
        return;
    }
    if !v.gen.has_legal_en_passant(pos) {
        pos.ep_passed = Square::NONE;
    }
}

/// The squares of a custom piece's double-step right, passed and landing, whether set aside
/// ([`set_aside`]) or not: what the FEN writes.
pub fn custom_right_squares(v: &Fairy, pos: &Position) -> Option<(Square, Square)> {
    if !v.custom_double_step(pos) {
        return None;
    }
    if pos.ep_passed.is_none() {
        Some((passed_square(v, pos)?, pos.ep_victim))
    } else {
        Some((pos.ep_passed, pos.ep_victim))
    }
}

/// The square a double step to `ep_victim` passed: one behind it for the side that moved.
fn passed_square(v: &Fairy, pos: &Position) -> Option<Square> {
    let mover = pos.side_to_move.opposite();
    pos.ep_victim
        .offset_within(0, -mover.forward(), v.files, v.ranks)
}
