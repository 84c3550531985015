//! Fairy-Stockfish's `shatarMateRule` (shatar, Mongolian chess): not every checkmate wins.
//!
//! - A mate given by knights alone is a foul: the mated side wins (`checkmate_value`,
//!   position.h: no checker but knights).
//! - Otherwise the mate wins only if the series of checks that ended in it held a *shak*: a
//!   check by a knight, a rook or a bers. Fairy-Stockfish walks back two plies at a time
//!   through the positions that were in check, from the mate itself, and finds a shak or
//!   declares the game drawn (*niol*).
//!
//! The position keeps what that walk would find, per side, in `Position::variant_state` (the
//! slots check counting uses; the two rules are not combined, see `Spec::contradictions`):
//! after each of a side's moves, whether its checks since its last quiet move (this one
//! included) held a shak, reset by a move that gives no check. A position set up from a FEN has
//! no history: the check on the board counts for the side that gives it, as Fairy-Stockfish's
//! walk stops at the first position it knows.
//!
//! The flags are part of the position and so of its repetition key, where Fairy-Stockfish's key
//! leaves them out: a position reached again in the same series of checks, once without and once
//! with a shak behind it, is no repetition here (docs/fairy.md).

use crate::engine::Fairy;
use crate::spec::{BERS, KNIGHT, ROOK};
use houserules_plugin_api::{Color, Outcome, Position};

/// Where a side's flag is kept: `variant_state[color.index()]`.
fn slot(color: Color) -> usize {
    color.index()
}

/// The Fairy-Stockfish types of `by`'s pieces that give check to `color` now.
fn checker_types(v: &Fairy, pos: &Position, color: Color) -> Vec<u16> {
    let by = color.opposite();
    let royals = v.gen.royals(pos, color);
    let mut types = Vec::new();
    for royal in royals.iter() {
        for sq in v.gen.attackers(pos, royal, by).iter() {
            if let Some(k) = pos.get(sq).kind() {
                types.push(v.kinds[k as usize].ty);
            }
        }
    }
    types
}

/// Whether the checks on `color` now include a shak.
fn shak(types: &[u16]) -> bool {
    types.iter().any(|t| matches!(*t, KNIGHT | ROOK | BERS))
}

/// After `mover`'s move: its series of checks goes on (a shak now or before keeps the flag)
/// or ends (no check).
pub fn after_move(v: &Fairy, pos: &mut Position, mover: Color) {
    let types = checker_types(v, pos, mover.opposite());
    pos.variant_state[slot(mover)] = if types.is_empty() {
        0
    } else {
        u32::from(pos.variant_state[slot(mover)] != 0 || shak(&types))
    };
}

/// A position read from a FEN: the check on the board (if any) starts its giver's series.
pub fn read_fen(v: &Fairy, pos: &mut Position) {
    let stm = pos.side_to_move;
    pos.variant_state[slot(stm)] = 0;
    pos.variant_state[slot(stm.opposite())] = u32::from(shak(&checker_types(v, pos, stm)));
}

/// The result of a checkmate of the side to move where the rule changes it: the foul of a
/// mate by knights alone, or the draw without a shak in the series; `None`: an ordinary
/// checkmate.
pub fn mate_outcome(v: &Fairy, pos: &Position) -> Option<Outcome> {
    let stm = pos.side_to_move;
    let types = checker_types(v, pos, stm);
    if !types.is_empty() && types.iter().all(|&t| t == KNIGHT) {
        return Some(Outcome::win(stm, "knight-mate"));
    }
    (pos.variant_state[slot(stm.opposite())] == 0).then(|| Outcome::draw("niol"))
}
