//! Fairy-Stockfish's `dropPromoted` (kyoto shogi, chennis): a piece in hand whose type has a
//! shogi-style promoted type (`promotedPieceType`) may also be dropped as that promoted
//! piece, wherever it may be dropped itself (the promotion zone plays no part). The promoted
//! piece goes back to hand unpromoted when captured. Written `+P@c3` in coordinate form (as
//! Fairy-Stockfish's UCI writes it) and with the promoted type's letter in SAN (`R@c3`).

use crate::engine::Kind;
use crate::spec::Spec;
use houserules_plugin_api::Move;

/// The generator's promoted drops: `(kind in hand, kind dropped)` for every unpromoted kind
/// with a shogi-style promoted form.
pub fn pairs(spec: &Spec, kinds: &[Kind]) -> Vec<(u8, u8)> {
    if !spec.drop_promoted {
        return Vec::new();
    }
    kinds
        .iter()
        .enumerate()
        .filter(|(_, k)| !k.promoted)
        .filter_map(|(i, k)| Some((i as u8, k.promo?)))
        .collect()
}

/// Whether `m` drops a piece promoted (the generator marks such drops `SPECIAL`).
pub fn is_promoted_drop(m: &Move) -> bool {
    m.is_drop() && m.is_special()
}

/// The coordinate form of a promoted drop: `+` and the letter of the piece in hand.
pub fn coordinate(kinds: &[Kind], m: &Move) -> String {
    let letter = kinds
        .get(m.piece as usize)
        .map_or('?', |k| k.letter.to_ascii_uppercase());
    format!("+{letter}@{}", m.to)
}
