//! FIDE chess and its layouts in words, for `houserules describe` (API 1.2 `extra` keys
//! `details` and `layout:<id>`).

use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{OptionValue, EXTRA_DETAILS, EXTRA_LAYOUT_PREFIX};

const DETAILS: &str = "The FIDE Laws of Chess. Castling with king and rook unmoved, the squares \
     between empty and the king not in check, not passing through or landing on an attacked \
     square; en passant on the next move only; promotion to queen, rook, bishop or knight. \
     Checkmate wins, stalemate draws, and a position where neither side can mate by any \
     sequence of moves (king against king, king and minor piece against king, bishops all on \
     one colour) is a dead draw.\n\n\
     A draw may be claimed after 50 moves without a capture or pawn move and at the third \
     occurrence of a position; it is automatic after 75 moves and at the fifth occurrence. \
     FEN is read and written with X-FEN and Shredder castling fields, so Chess960 positions \
     (give them with --fen or a record's FEN tag) play with Chess960 castling.";

const LAYOUTS: [(&str, &str); 5] = [
    ("classic", "The standard starting position of FIDE chess."),
    (
        "dual-classic",
        "FIDE's start with each queen replaced by a second king (d1 and d8): two kings per \
         side, for dual-king and weak-dual-king. Castling rights belong to the king on the \
         e-file.",
    ),
    (
        "knightmate",
        "FIDE's start with each queen replaced by a knight (back rank `rnbnkbnr`): three \
         knights per side, for knightmate-rules, where every knight is royal.",
    ),
    (
        "monster",
        "White has only the king on e1 and four pawns c2-f2; Black has the full army. For \
         monster-rules, where White plays two half-moves per turn.",
    ),
    (
        "pawns-only",
        "Kings on e1 and e8 and eight pawns each on their usual squares: a race to promote, \
         for first-promotion-wins.",
    ),
];

/// The `extra` entries of the chess variant's info.
pub(crate) fn extra() -> RVec<OptionValue> {
    let mut v = vec![OptionValue {
        key: EXTRA_DETAILS.into(),
        value: DETAILS.into(),
    }];
    for (id, words) in LAYOUTS {
        v.push(OptionValue {
            key: format!("{EXTRA_LAYOUT_PREFIX}{id}").as_str().into(),
            value: words.into(),
        });
    }
    v.into()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_layout_has_words() {
        for (id, _, _) in crate::LAYOUTS {
            assert!(super::LAYOUTS.iter().any(|(l, _)| *l == id), "{id}");
        }
    }
}
