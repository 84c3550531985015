//! Fairy-Stockfish's `shogiPawnDropMateIllegal`: a checkmate given by dropping a shogi pawn
//! is a foul that loses. Fairy-Stockfish lists the drop among the legal moves and scores the
//! mate as a win for the mated side (`checkmate_value`, position.h: the checkers are shogi
//! pawns only, nothing was captured, the material changed, and a move led there), as shogi's
//! rules have a foul lose the game.
//!
//! The position alone cannot tell a dropped pawn from one that stepped there, so the rule
//! reads the move that led to the position from the host ([`OutcomeContext::last_move`], API
//! 1.8). A position set up from a FEN has none: an ordinary checkmate, as Fairy-Stockfish's
//! "a move led there".

use crate::engine::Kind;
use crate::spec;
use houserules_plugin_api::OutcomeContext;

/// Whether the move that led to the position dropped an (unpromoted) shogi pawn. Called for a
/// checkmate: only the dropped pawn can give that check, as a drop uncovers no line and the
/// dropper's opponent was not in check before it.
pub fn by_pawn_drop(kinds: &[Kind], ctx: &OutcomeContext) -> bool {
    ctx.last_move().is_some_and(|m| {
        m.is_drop()
            && kinds
                .get(m.piece as usize)
                .is_some_and(|k| k.ty == spec::SHOGI_PAWN && !k.promoted)
    })
}
