//! Fairy-Stockfish's `mutuallyImmuneTypes` (atomar's "diplomacy": the kings of no-check atomic
//! may stand side by side, and here they cannot take each other): a piece of these types
//! cannot capture a piece of its own type (position.cpp `legal()`: a capture whose mover and
//! victim have the same type in the set is refused). Attacks are unchanged, as in
//! Fairy-Stockfish: a royal of such a type still may not step next to its like, the square
//! counts as attacked. An en passant capture takes no piece on its destination, so it is never
//! refused.

use crate::engine::Fairy;
use crate::spec::ALL_PIECES;
use houserules_plugin_api::{Move, Position};

/// Removes from `moves` (legal but for this rule) the captures this rule forbids.
pub fn filter(v: &Fairy, pos: &Position, moves: &mut Vec<Move>) {
    let set = &v.spec.mutually_immune_types;
    let immune = |ty: u16| set.contains(&ty) || set.contains(&ALL_PIECES);
    moves.retain(|m| {
        if m.is_drop() || !m.is_capture() {
            return true;
        }
        let (Some(mover), Some(victim)) = (pos.get(m.from).kind(), pos.get(m.to).kind()) else {
            return true;
        };
        let (mover, victim) = (v.kinds[mover as usize].ty, v.kinds[victim as usize].ty);
        !(mover == victim && immune(mover))
    });
}
