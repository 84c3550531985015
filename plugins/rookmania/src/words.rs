//! Rook Mania in words, for `houserules describe` (API 1.2 `extra` keys `details` and
//! `layout:<id>`; the rules are docs/rookmania.md and the rulings).

use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    OptionValue, EXTRA_DETAILS, EXTRA_LAYOUT_PREFIX, EXTRA_SEARCH_PRUNING_DEPTH,
};

const DETAILS: &str = "Every piece moves orthogonally; except for the pieces and the board, \
     the rules are FIDE chess. Rook (R): slides. Pao (C): moves as a rook, captures by jumping \
     exactly one screen. Slip Rook (S): one step, then optionally further two-square leaps in \
     the same direction while each landing square is empty; it captures on any landing \
     square. Twostep (T) and Threestep (H): exactly 2 or 3 orthogonal steps, turning allowed, \
     no square twice, every square before the last empty, capturing only on the last step. \
     Basilisk (B): moves as a rook and never captures; it immobilizes the first enemy piece it \
     sees in each direction (not another Basilisk): an immobilized piece cannot move, capture \
     or give check, but still screens for a Pao.\n\n\
     Pawns (P) move as rooks and capture only by moving: each enemy piece next to the landing \
     square with a friendly pawn right behind it is pinched off (the King too). A player's \
     only pawn captures as an Ultima coordinator instead. Pawns do not promote and have no \
     double step. The King (K) steps one square orthogonally and twice per game may shoot an \
     enemy piece (not a King, not a Basilisk) that checks it along its rank or file with \
     nothing between; a shot is written `K*d7` (coordinate form `d1*d7`). Holes are off the \
     board: slides, steps and a Basilisk's sight stop at them; only the Slip Rook's leaps \
     pass over them.\n\n\
     Checkmate wins, stalemate draws; 50/75-move and 3/5-fold rules; no castling, no en \
     passant, no promotion.";

/// The `extra` entries of the Rook Mania variant's info: its words, and the engine's pruning
/// depth (docs/benchmarks.md: its gains are quiet moves, which the engine's default
/// reductions hid from a depth-4 search).
pub(crate) fn extra() -> RVec<OptionValue> {
    vec![
        OptionValue {
            key: EXTRA_SEARCH_PRUNING_DEPTH.into(),
            value: "4".into(),
        },
        OptionValue {
            key: EXTRA_DETAILS.into(),
            value: DETAILS.into(),
        },
        OptionValue {
            key: format!("{EXTRA_LAYOUT_PREFIX}classic").as_str().into(),
            value: "The published setup on the 43-square hourglass (files a-g, ranks 1-9): \
                    Basilisk, King and Threestep on the narrow first rank, Pao, Twostep, Rook, \
                    Slip Rook and Twostep on the second, seven pawns on the third."
                .into(),
        },
    ]
    .into()
}
