//! Scenarios of `tripleStepRegionWhite/Black` (see `crate::triple_step`) on Fairy-Stockfish's
//! section `wildebeest` (11 x 10; pawns step three squares from their first rank, two from
//! the second). Every expected FEN and move list is Fairy-Stockfish's (pyffish 0.0.90,
//! `get_fen` and `legal_moves` with its variants.ini loaded).

use crate::rule_tests::{fen_and_moves, strings as moves};
use crate::tests::from_ini;
use crate::Fairy;
use std::sync::Arc;

/// Fairy-Stockfish's section.
const WILDEBEEST: &str = "
[wildebeest:chess]
maxRank = 10
maxFile = k
customPiece1 = c:C
customPiece2 = w:NC
doubleStepRegionWhite = *2 *3
doubleStepRegionBlack = *9 *8
tripleStepRegionWhite = *2
tripleStepRegionBlack = *9
pieceToCharTable = PNBRQ.......C....WKpnbrq.......c....wk
startFen = rnccwkqbbnr/ppppppppppp/11/11/11/11/11/11/PPPPPPPPPPP/RNBBQKWCCNR w KQkq - 0 1
promotionPieceTypes = qw
promotionRegionWhite = *9 *10
promotionRegionBlack = *2 *1
mandatoryPawnPromotion = false
";

fn wildebeest() -> Arc<Fairy> {
    from_ini(WILDEBEEST, "wildebeest").unwrap_or_else(|e| panic!("wildebeest: {e}"))
}

/// FEN and sorted legal moves after `moves` from `fen`.
fn answer(fen: &str, moves: &[&str]) -> (String, Vec<String>) {
    fen_and_moves(&wildebeest(), fen, moves)
}

/// Black pawns on b4 and d5 watch both squares a triple step from c2 passes.
const WATCHED: &str = "5k5/11/11/11/11/3p7/1p9/11/2P8/5K5 w - - 0 1";

#[test]
fn a_pawn_steps_one_two_or_three_squares_from_its_first_rank() {
    let (_, legal) = answer(WATCHED, &[]);
    assert_eq!(
        legal,
        moves(&["c2c3", "c2c4", "c2c5", "f1e1", "f1e2", "f1f2", "f1g1", "f1g2"])
    );
    // A blocked passed square stops it.
    let (_, legal) = answer("5k5/11/11/11/11/11/2p8/11/2P8/5K5 w - - 0 1", &[]);
    assert_eq!(
        legal,
        moves(&["c2c3", "f1e1", "f1e2", "f1f2", "f1g1", "f1g2"])
    );
}

#[test]
fn both_passed_squares_may_be_taken_en_passant() {
    let black = [
        "b4b3", "b4c3", "d5c4", "d5d4", "f10e10", "f10e9", "f10f9", "f10g10", "f10g9",
    ];
    assert_eq!(
        answer(WATCHED, &["c2c5"]),
        (
            "5k5/11/11/11/11/2Pp7/1p9/11/11/5K5 b - c3c4 0 1".into(),
            moves(&black)
        )
    );
    let king = ["f1e1", "f1e2", "f1f2", "f1g1", "f1g2"];
    assert_eq!(
        answer(WATCHED, &["c2c5", "b4c3"]),
        (
            "5k5/11/11/11/11/3p7/11/2p8/11/5K5 w - - 0 2".into(),
            moves(&king)
        )
    );
    assert_eq!(
        answer(WATCHED, &["c2c5", "d5c4"]),
        (
            "5k5/11/11/11/11/11/1pp8/11/11/5K5 w - - 0 2".into(),
            moves(&king)
        )
    );
    // The double step from the same square passes one square only.
    assert_eq!(
        answer(WATCHED, &["c2c4"]).0,
        "5k5/11/11/11/11/3p7/1pP8/11/11/5K5 b - c3 0 1"
    );
}

#[test]
fn only_watched_squares_are_recorded() {
    // Black's triple step i9i6: the white pawn on h6 takes on i7; nothing watches i8.
    let fen = "5k5/8p2/11/11/7P3/9P1/11/11/11/5K5 b - - 0 1";
    let (fen_after, legal) = answer(fen, &["i9i6"]);
    assert_eq!(fen_after, "5k5/11/11/11/7Pp2/9P1/11/11/11/5K5 w - i7 0 2");
    assert_eq!(
        legal,
        moves(&["f1e1", "f1e2", "f1f2", "f1g1", "f1g2", "h6h7", "h6i7", "j5i6", "j5j6"])
    );
    assert_eq!(
        answer(fen, &["i9i6", "h6i7"]).0,
        "5k5/11/11/8P2/11/9P1/11/11/11/5K5 b - - 0 2"
    );
}

#[test]
fn triple_step_rights_are_read_from_a_fen() {
    let after_step = "5k5/11/11/11/11/2Pp7/1p9/11/11/5K5 b";
    let both = format!("{after_step} - c3c4 0 1");
    let (fen, legal) = answer(&both, &[]);
    assert_eq!(fen, both);
    assert!(legal.contains(&"b4c3".into()) && legal.contains(&"d5c4".into()));
    let near = format!("{after_step} - c4 0 1");
    let (fen, legal) = answer(&near, &[]);
    assert_eq!(fen, near);
    assert!(legal.contains(&"d5c4".into()) && !legal.contains(&"b4c3".into()));
    // Fairy-Stockfish would keep c3 alone, which this plugin cannot hold: an error.
    let v = wildebeest();
    assert!(v.parse(&format!("{after_step} - c3 0 1")).is_err());
}
