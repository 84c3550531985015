//! Fairy-Stockfish's `makpongRule` (makpong, Makruk's defensive tie-break game): a king in
//! check may not step away; its only king move is the capture of its one checker
//! (position.cpp `legal()`: a king move while in check is refused unless the checkers are
//! exactly its destination). Blocks and other captures of the checker stay legal.

use crate::engine::Fairy;
use houserules_plugin_api::{Move, Position, SquareSet};

/// Removes from `moves` (legal but for this rule) the king moves this rule forbids.
pub fn filter(v: &Fairy, pos: &Position, moves: &mut Vec<Move>) {
    let us = pos.side_to_move;
    let mut checkers = SquareSet::EMPTY;
    for royal in v.gen.royals(pos, us).iter() {
        for sq in v.gen.attackers(pos, royal, us.opposite()).iter() {
            checkers.insert(sq);
        }
    }
    if checkers.is_empty() {
        return;
    }
    let only = {
        let mut it = checkers.iter();
        match (it.next(), it.next()) {
            (Some(sq), None) => Some(sq),
            _ => None,
        }
    };
    moves.retain(|m| {
        let king = !m.is_drop()
            && pos
                .get(m.from)
                .kind()
                .is_some_and(|k| v.kinds[k as usize].royal);
        !king || Some(m.to) == only
    });
}
