//! Fairy-Stockfish's `piecePromotionOnCapture` (micro shogi, cetus): a shogi-style promotion
//! (and with `pieceDemotion` a demotion) happens only on a capture starting or ending in the
//! promotion zone; quiet moves never promote. With `mandatoryPiecePromotion` such captures
//! must promote, quiet moves stay free. The shared generator plays it
//! (`PieceRules::promotes_on_capture`).

use crate::spec::{Spec, PAWN};
use houserules_movegen::Rules;

/// Marks every piece of the generator's rules when the key is set (only shogi-style
/// promotions read the mark).
pub fn apply(on: bool, rules: &mut Rules) {
    if on {
        for p in &mut rules.pieces {
            p.promotes_on_capture = true;
        }
    }
}

/// What this plugin does not play as Fairy-Stockfish does: its pawn's shogi-style promotion
/// on captures only goes with pawn rules of its own (a compulsory promotion keeps the pawn's
/// quiet steps out of the zone).
pub fn contradiction(spec: &Spec) -> Option<(&'static str, String)> {
    let pawn_promotes = spec
        .promoted_piece_type
        .iter()
        .any(|&(from, _)| from == PAWN)
        && spec.pieces.contains_key(&PAWN);
    (spec.piece_promotion_on_capture && pawn_promotes).then(|| {
        (
            "piecePromotionOnCapture",
            "piecePromotionOnCapture with a shogi-style promotion of the piece type `pawn` is \
             not supported"
                .to_string(),
        )
    })
}
