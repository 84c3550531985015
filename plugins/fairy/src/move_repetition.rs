//! Fairy-Stockfish's `moveRepetitionIllegal` (Kakao Janggi's rule, `janggimodern`): a side
//! that moves one piece back and forth loses. As Fairy-Stockfish's `is_optional_game_end`
//! judges it, the side that just moved loses when its last moves were an *anchor* (a move of
//! the piece its previous move put on that square, that previous move no capture) and then
//! three exact reversals (`b→a`, `a→b`, `b→a`, `a→b`), one pass of its own allowed just before
//! its last move; it was in check before none of them (nor before the anchor's previous move,
//! if the n-move counter reaches back to it); the piece's mobility region meets the enemy
//! king's (janggi's advisors and kings are exempt); no capture or pawn move in between (the
//! n-move counter at least 8 plies, 10 with the pass); and the n-fold rule is on.
//!
//! The chain is kept per side in the position (`variant_state[color]`; refused together with
//! `checkCounting` and `shatarMateRule`, which use the same slots). A FEN starts with no chain,
//! as Fairy-Stockfish's walk back stops at the first position it knows.

use crate::engine::Fairy;
use houserules_plugin_api::{Color, Move, Outcome, Position, Square};

/// The last move's origin and destination (raw squares).
const FROM: u32 = 0;
const TO: u32 = 8;
/// The chain's length: 1 for the anchor, one more per reversal.
const LEN: u32 = 16;
const LEN_MASK: u32 = 0b111 << LEN;
/// The side passed after its last move (a pass may stand just before the chain's last move).
const PASSED: u32 = 1 << 19;
/// The last move captured.
const CAPTURED: u32 = 1 << 20;
/// The side was in check before its last move.
const CHECKED: u32 = 1 << 21;
/// The side was in check before the move the anchor continued.
const ANCHOR_PRED_CHECKED: u32 = 1 << 22;
/// A last move is recorded.
const KNOWN: u32 = 1 << 23;
/// The chain bridged a pass.
const BRIDGED: u32 = 1 << 24;

fn sq(state: u32, at: u32) -> u8 {
    ((state >> at) & 0xFF) as u8
}

/// Records `mv`, about to be made by the side to move of `before` (whether that side is in
/// check there is `checked`).
pub fn record(pos: &mut Position, mover: Color, mv: &Move, checked: bool) {
    let slot = mover.index();
    let s = pos.variant_state[slot];
    if crate::pass::is_pass(mv) {
        // A second pass, or a pass in check, breaks the chain.
        pos.variant_state[slot] = if s & PASSED != 0 || checked {
            0
        } else {
            s | PASSED
        };
        return;
    }
    let normal = !mv.is_drop() && !mv.is_castle() && !mv.is_promotion();
    let (from, to) = (mv.from.index() as u8, mv.to.index() as u8);
    let known = s & KNOWN != 0;
    let continues = known && from == sq(s, TO);
    let reverses = continues && to == sq(s, FROM);
    let len = (s & LEN_MASK) >> LEN;
    // After a bridged pass the chain cannot reach past it again: only a new anchor.
    let extends = reverses && len >= 1 && s & BRIDGED == 0;
    let mut next = 0;
    let mut new_len = 0;
    if normal && !checked {
        if extends {
            new_len = len + 1;
            next |= s & ANCHOR_PRED_CHECKED;
            if s & PASSED != 0 {
                next |= BRIDGED;
            }
        } else if continues && s & CAPTURED == 0 && s & PASSED == 0 {
            new_len = 1;
            if s & CHECKED != 0 {
                next |= ANCHOR_PRED_CHECKED;
            }
        }
    }
    next |= KNOWN | (u32::from(from) << FROM) | (u32::from(to) << TO) | (new_len.min(7) << LEN);
    if mv.is_capture() {
        next |= CAPTURED;
    }
    if checked {
        next |= CHECKED;
    }
    pos.variant_state[slot] = next;
}

/// The result when the side that just moved has repeated its moves (see the module).
pub fn outcome(v: &Fairy, pos: &Position) -> Option<Outcome> {
    let mover = pos.side_to_move.opposite();
    let s = pos.variant_state[mover.index()];
    if (s & LEN_MASK) >> LEN < 4 || s & KNOWN == 0 {
        return None;
    }
    let bridged = s & BRIDGED != 0;
    let reach = if bridged { 10 } else { 8 };
    let clock = u32::from(pos.halfmove_clock);
    if !v.spec.captures_to_hand && clock < reach {
        return None;
    }
    if s & ANCHOR_PRED_CHECKED != 0 && (v.spec.captures_to_hand || clock > reach) {
        return None;
    }
    let at = Square::new(sq(s, TO) & 15, sq(s, TO) >> 4);
    let kind = pos.get(at).kind()?;
    v.meets_enemy_palace(kind, mover)
        .then(|| Outcome::win(pos.side_to_move, "move-repetition"))
}
