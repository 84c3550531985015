//! Fairy-Stockfish's `shogiPawnDropMateIllegal`: a checkmate given by dropping a shogi pawn
//! is a foul that loses. Fairy-Stockfish lists the drop as a legal move and scores the mate as
//! a win for the mated side (`checkmate_value`, position.h: the checkers are shogi pawns only,
//! nothing was captured, the material changed, and the position was not set up that way), as
//! shogi's rules have a foul lose the game.
//!
//! The position alone cannot tell a dropped pawn from one that stepped there, so the move
//! marks it: bit [`DROPPED_CHECK`] of `Position::variant_state[SLOT]` is set after a shogi
//! pawn's drop that gives check, and cleared by every other move. A position read from a FEN
//! has it clear, as Fairy-Stockfish's "not set up that way".

use houserules_plugin_api::{Move, Position};

/// The slot that holds the mark (its low bits count `passOnStalemate`'s passes, see
/// [`crate::pass`]).
const SLOT: usize = 2;
/// The mark: the last move dropped a shogi pawn that gives check.
pub const DROPPED_CHECK: u32 = 1 << 31;

/// After `m` was played on `pos`: marks a shogi pawn's drop (`pawn_drop`) that gives check
/// (`check`), clears the mark otherwise.
pub fn after_move(pos: &mut Position, m: &Move, pawn_drop: bool, check: bool) {
    let marked = m.is_drop() && pawn_drop && check;
    let s = &mut pos.variant_state[SLOT];
    *s = if marked {
        *s | DROPPED_CHECK
    } else {
        *s & !DROPPED_CHECK
    };
}

/// Whether the side to move, checkmated, was mated by a shogi pawn's drop (it wins).
pub fn mated_by_pawn_drop(pos: &Position) -> bool {
    pos.variant_state[SLOT] & DROPPED_CHECK != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use houserules_plugin_api::{MoveFlags, Square};

    #[test]
    fn the_mark_shares_its_slot_with_the_passes_in_a_row() {
        let mut pos = Position::empty(5, 6);
        let drop = Move::drop(0, Square::new(3, 2));
        after_move(&mut pos, &drop, true, true);
        assert!(mated_by_pawn_drop(&pos));
        // Passes are counted beside the mark, and the mark alone is no double pass.
        assert!(!crate::pass::double_pass(&pos));
        let pass = crate::pass::pass_move(Square::new(4, 0));
        crate::pass::count(&mut pos, &pass);
        assert!(mated_by_pawn_drop(&pos) && !crate::pass::double_pass(&pos));
        crate::pass::count(&mut pos, &pass);
        assert!(crate::pass::double_pass(&pos));
        // Any other move clears it; a drop without check does not set it.
        after_move(&mut pos, &pass, false, false);
        assert!(!mated_by_pawn_drop(&pos) && crate::pass::double_pass(&pos));
        after_move(&mut pos, &drop, true, false);
        assert!(!mated_by_pawn_drop(&pos));
        let step = Move::new(Square::new(3, 1), Square::new(3, 2), MoveFlags::NONE);
        after_move(&mut pos, &step, true, true);
        assert!(!mated_by_pawn_drop(&pos));
    }
}
