//! Fairy-Stockfish's `pieceDemotion` (kyoto shogi, chennis): a piece promoted shogi-style
//! (`promotedPieceType`) demotes back to its unpromoted type by a move starting or ending
//! in the promotion zone, as an unpromoted piece promotes there; with
//! `mandatoryPiecePromotion` the demotion is compulsory as the promotion is. The move is the
//! generator's shogi-style promotion of the promoted kind to its unpromoted one, written
//! `e5e6p` (Fairy-Stockfish's UCI: `e5e6-`) and `Re6=P` in SAN (the unpromoted letter).
//! Neither a promotion nor a demotion resets the n-move counter then, and a demotion is no
//! promotion to its type for `promotionLimit`.

use crate::engine::Kind;
use crate::spec::Spec;
use houserules_plugin_api::{Move, Position};

/// Gives the shogi-style promoted kinds (those in `kinds` when it is called) their
/// demotion: the promoted kind "promotes" to its unpromoted kind.
pub fn link(spec: &Spec, kinds: &mut [Kind]) {
    if !spec.piece_demotion {
        return;
    }
    for k in kinds.iter_mut().filter(|k| k.promoted) {
        k.promo = Some(k.demoted);
    }
}

/// What Fairy-Stockfish would play wrong: its demotion applies to every promoted piece,
/// pawns promoted chess-style too, which have no unpromoted piece to become.
pub fn contradiction(spec: &Spec) -> Option<(&'static str, String)> {
    if !spec.piece_demotion {
        return None;
    }
    let pawn_promotes = spec.pieces.keys().any(|&ty| {
        spec.pawn_type_colours(ty).contains(&true)
            && spec.promotion_choices(ty).iter().any(|c| !c.is_empty())
    });
    pawn_promotes.then(|| {
        (
            "pieceDemotion",
            "pieceDemotion with chess-style pawn promotions (promotionPieceTypes) is not \
             supported: Fairy-Stockfish would demote a promoted pawn to no piece"
                .to_string(),
        )
    })
}

/// Whether `m` demotes the piece it moves.
pub fn is_demotion(kinds: &[Kind], pos: &Position, m: Move) -> bool {
    m.is_promotion()
        && !m.is_drop()
        && pos
            .get(m.from)
            .kind()
            .and_then(|k| kinds.get(k as usize))
            .is_some_and(|k| k.promoted)
}

/// Whether the promotion `m` resets the n-move counter: a chess-style one always, a
/// shogi-style one (or a demotion) unless pieces demote (Fairy-Stockfish: such promotions
/// are reversible).
pub fn promotion_resets_counter(spec: &Spec, m: Move) -> bool {
    !(spec.piece_demotion && m.is_special())
}
