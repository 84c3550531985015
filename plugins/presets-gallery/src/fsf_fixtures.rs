//! Differential test against Fairy-Stockfish, from recorded fixtures
//! (`tests/data/fsf-*.json`, written by `tools/fsf-gallery/generate.py`; no Python needed here).
//!
//! Every fixture is a set of random games Fairy-Stockfish played in a variant that expresses a
//! gallery preset exactly. Each game is replayed through the houserules pipeline; at every ply
//! the legal moves (coordinate form, as FSF writes them) and the result must agree, and the FEN
//! Fairy-Stockfish wrote (two-square en passant fields included) must read into a position with
//! the same legal moves.

use crate::testkit::*;

/// Replays every game of a section (`check_fsf_fixture`) through chess with `presets`;
/// returns (positions compared, decided games).
fn check(section: &str, presets: &[&str]) -> (usize, usize) {
    check_fsf_fixture(
        &pipe_layout("classic", presets),
        env!("CARGO_MANIFEST_DIR"),
        section,
    )
}

#[test]
fn fsf_berolina_pawns_scope_both_matches_fairy_stockfish_berolina() {
    let (n, _) = check("berolina", &["berolina-pawns"]);
    assert!(n >= 1000, "{n}");
}

#[test]
fn fsf_extinction_chess_target_pawn_matches_fairy_stockfish() {
    let (n, decided) = check("extinction-pawn", &["extinction-chess"]);
    assert!(n >= 1000 && decided >= 10, "{n} {decided}");
}

#[test]
fn fsf_suicide_chess_matches_fairy_stockfish_giveaway_qrbn() {
    let (n, decided) = check("suicide", &["suicide-chess"]);
    assert!(n >= 1000 && decided >= 10, "{n} {decided}");
}

#[test]
fn fsf_coregal_matches_fairy_stockfish_coregal() {
    let (n, _) = check("coregal", &["coregal"]);
    assert!(n >= 1000, "{n}");
}
