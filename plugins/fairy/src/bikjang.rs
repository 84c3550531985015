//! Fairy-Stockfish's `bikjangRule` (janggi): the two kings face each other on a rank or file
//! with nothing between ("bikjang"). A side to move in bikjang must break it or pass (it may
//! pass even in check, and no other move may leave the kings facing); when the position after
//! a move is in bikjang and the one before it was too, the game ends as a draw that material
//! counting may decide (janggi's counting gives it to the side with more points).
//!
//! Whether the position before the last move was in bikjang is kept in the position
//! (`variant_state[2]`, above the count of passes); a position read from a FEN has no move
//! before it, as Fairy-Stockfish's test needs a previous position.

use crate::engine::Fairy;
use houserules_plugin_api::{Color, Position, Square};

/// The slot and bit of the flag.
const STATE: usize = 2;
const BEFORE: u32 = 1 << 16;

/// Whether the kings face each other in `pos` (with the rule on).
pub fn facing(v: &Fairy, pos: &Position) -> bool {
    v.spec.bikjang_rule && v.kings_face(pos)
}

/// Records, after a move, whether the position before it was in bikjang.
pub fn record(pos: &mut Position, before: bool) {
    let s = pos.variant_state[STATE] & !BEFORE;
    pos.variant_state[STATE] = if before { s | BEFORE } else { s };
}

/// Whether the game ends by bikjang: this position and the one before in bikjang.
pub fn ends(v: &Fairy, pos: &Position) -> bool {
    pos.variant_state[STATE] & BEFORE != 0 && facing(v, pos)
}

impl Fairy {
    /// Whether White's king sees Black's along a rank or file.
    pub(crate) fn kings_face(&self, pos: &Position) -> bool {
        self.king_sees_king(pos, self.king_square(pos, Color::White), Color::White)
    }

    /// Whether the king of `color`, on `king` (found by the caller), sees the other king
    /// along a rank or file.
    pub(crate) fn king_sees_king(
        &self,
        pos: &Position,
        king: Option<Square>,
        color: Color,
    ) -> bool {
        king.is_some_and(|k| self.sees_king(pos, k, color.opposite(), None, None))
    }
}
