//! Passing. Fairy-Stockfish's `passOnStalemate` (`passOnStalemateWhite`, `passOnStalemateBlack`):
//! a side with no legal move that is not in check passes instead of being stalemated. Its
//! `pass` (`passWhite`, `passBlack`, janggi's): a side may pass at any time when not in check
//! (in bikjang, even in check: see [`crate::bikjang`]). The pass is
//! written as a move of one piece onto its own square (`a2a2`): the king's, or without a king
//! the piece on the lowest square (rank by rank from a1, Fairy-Stockfish's `lsb`). Two passes
//! in a row end the game in a draw (Fairy-Stockfish's "double passing" rule).

use houserules_plugin_api::{Color, Move, MoveFlags, Position, Square};

/// The `special` code of a pass.
const PASS: u16 = 1;

/// Where the consecutive passes are counted (`Position::variant_state`; 0 and 1 hold check
/// counting's checks), in the low half ([`crate::bikjang`] keeps a flag above it).
const PASSES: usize = 2;
/// The bits of the count.
const COUNT: u32 = 0xFFFF;

/// Whether `m` is a pass.
pub fn is_pass(m: &Move) -> bool {
    m.flags.contains(MoveFlags::SPECIAL) && m.special == PASS && m.from == m.to && !m.is_drop()
}

/// The pass of a side whose piece on `sq` passes.
pub fn pass_move(sq: Square) -> Move {
    let mut m = Move::new(sq, sq, MoveFlags::SPECIAL);
    m.special = PASS;
    m
}

/// Plays a pass: the turn goes to the other side, en passant lapses, the halfmove clock
/// counts it (the caller resets it as for any move of the passing piece).
pub fn play(pos: &mut Position) {
    let mover = pos.side_to_move;
    if mover == Color::Black {
        pos.fullmove_number = pos.fullmove_number.saturating_add(1);
    }
    pos.side_to_move = mover.opposite();
    pos.ep_passed = Square::NONE;
    pos.ep_victim = Square::NONE;
    pos.halfmove_clock = pos.halfmove_clock.saturating_add(1);
    pos.invalidate_accel();
}

/// Counts the passes in a row after `m` was played.
pub fn count(pos: &mut Position, m: &Move) {
    let state = pos.variant_state[PASSES];
    let n = if is_pass(m) {
        ((state & COUNT) + 1).min(COUNT)
    } else {
        0
    };
    pos.variant_state[PASSES] = (state & !COUNT) | n;
}

/// Whether the last two moves were passes (the game is drawn).
pub fn double_pass(pos: &Position) -> bool {
    pos.variant_state[PASSES] & COUNT >= 2
}
