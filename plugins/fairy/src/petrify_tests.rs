//! Scenarios of `petrifyOnCaptureTypes` and `enPassantRegion` (see `crate::petrify`,
//! `crate::en_passant_region`) on Fairy-Stockfish's section `nuclear` (atomic chess where a
//! capturer turns to stone; its pawns are custom pieces, which explosions destroy too, and it
//! has no en passant). Every expected FEN and move list is Fairy-Stockfish's (pyffish 0.0.90,
//! `get_fen` and `legal_moves` with its variants.ini loaded).

use crate::rule_tests::{fen_and_moves, strings as moves};
use crate::tests::from_ini;
use crate::Fairy;
use std::sync::Arc;

/// Fairy-Stockfish's section (comments left out); its parent `atomic` is a built-in.
pub(crate) const NUCLEAR: &str = "
[nuclear:atomic]
pawn = -
customPiece1 = p:fmWfceFifmnD
pawnTypes = p
petrifyOnCaptureTypes = pnbrq
enPassantRegion = -
";

fn nuclear() -> Arc<Fairy> {
    crate::tests::over_builtins(&[("nuclear.ini", NUCLEAR)], "nuclear")
        .unwrap_or_else(|e| panic!("nuclear: {e}"))
}

/// FEN and sorted legal moves after `moves` from `fen`.
fn answer(fen: &str, moves: &[&str]) -> (String, Vec<String>) {
    fen_and_moves(&nuclear(), fen, moves)
}

#[test]
fn a_capturer_explodes_and_turns_to_stone() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let (fen, legal) = answer(start, &["e2e4", "d7d5", "e4d5"]);
    assert_eq!(
        fen,
        "rnbqkbnr/ppp1pppp/8/3*4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2"
    );
    assert_eq!(legal.len(), 27);
    // The queen may not enter the wall.
    assert!(!legal.contains(&"d8d5".to_string()));
}

#[test]
fn stones_block_riders_not_leapers_and_survive_explosions() {
    let (_, legal) = answer("4k3/8/8/3*4/8/8/8/R2RK1N1 w - - 0 1", &[]);
    assert_eq!(
        legal,
        moves(&[
            "a1a2", "a1a3", "a1a4", "a1a5", "a1a6", "a1a7", "a1a8", "a1b1", "a1c1", "d1b1", "d1c1",
            "d1d2", "d1d3", "d1d4", "e1d2", "e1e2", "e1f1", "e1f2", "g1e2", "g1f3", "g1h3",
        ])
    );
    // A knight takes next to a stone: the stone stays, the knight becomes one.
    let (fen, legal) = answer("4k3/8/8/3*4/2n5/8/1N6/4K3 w - - 0 1", &["b2c4"]);
    assert_eq!(fen, "4k3/8/8/3*4/2*5/8/8/4K3 b - - 0 1");
    assert_eq!(legal, moves(&["e8d7", "e8d8", "e8e7", "e8f7", "e8f8"]));
}

#[test]
fn the_empty_en_passant_region_records_and_reads_no_right() {
    let fen = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1";
    let (fen_after, legal) = answer(fen, &["e2e4"]);
    assert_eq!(fen_after, "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
    assert_eq!(
        legal,
        moves(&["d4d3", "e8d7", "e8d8", "e8e7", "e8f7", "e8f8"])
    );
    assert_eq!(
        answer("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", &[]).0,
        "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1"
    );
}

#[test]
fn petrifying_pseudo_royal_types_may_not_capture() {
    // As Fairy-Stockfish's `petrified`: the king would turn to stone, so it may not take the
    // queen beside it (nor does that queen's king-type neighbour count as a guard).
    let v = from_ini(
        "[stone:chess]\nking = -\ncommoner = k\ncastlingKingPiece = k\nextinctionValue = loss\n\
         extinctionPieceTypes = k\nextinctionPseudoRoyal = true\npetrifyOnCaptureTypes = kq\n",
        "stone",
    )
    .expect("builds");
    let (_, moves) = fen_and_moves(&v, "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", &[]);
    assert!(!moves.contains(&"e1d2".to_string()), "{moves:?}");
    assert!(moves.contains(&"e1f1".to_string()), "{moves:?}");
}
