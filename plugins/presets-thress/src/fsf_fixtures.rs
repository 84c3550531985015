//! Differential test against Fairy-Stockfish, from recorded fixtures
//! (`tests/data/fsf-*.json`, written by `tools/fsf-gallery/generate.py`; no Python needed here).
//!
//! Every fixture is a set of games in a variant that expresses a ThressGame preset exactly (the
//! ini sections are in the generator): random games, and games of the houserules engine
//! against a random mover, which end (checkmates by pawn-moving pieces, stalemates), with
//! Fairy-Stockfish's answers at every ply; each game is replayed
//! through chess with the preset, and at every ply the legal moves, the result and the FEN
//! must agree (`houserules_tests::kit::check_fsf_fixture`). god-kings and trans-rights have no
//! exact Fairy-Stockfish form (a king that cannot be captured and is never in check; a royal
//! queen-mover that castles), and are checked against the Python reference model instead
//! (`tools/rules-ref`).

use crate::testkit::*;

fn check(section: &str, presets: &[&str]) -> (usize, usize) {
    check_fsf_fixture(&pipe(presets), env!("CARGO_MANIFEST_DIR"), section)
}

#[test]
fn fsf_proletariat_matches_fairy_stockfish_with_pawn_moving_pieces() {
    let (n, decided) = check("proletariat", &["proletariat"]);
    assert!(n >= 7000 && decided >= 8, "{n} {decided}");
}

#[test]
fn fsf_short_stop_matches_fairy_stockfish_with_one_step_pieces() {
    let (n, decided) = check("short-stop", &["short-stop"]);
    assert!(n >= 4000 && decided >= 8, "{n} {decided}");
}

#[test]
fn fsf_early_promotion_matches_fairy_stockfish_with_promotion_from_the_sixth_rank() {
    let (n, decided) = check("early-promotion", &["early-promotion"]);
    assert!(n >= 3000 && decided >= 12, "{n} {decided}");
}
