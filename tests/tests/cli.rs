//! The CLI through the built binary: notation, results, error messages and exit codes.

use houserules_tests::{houserules, houserules_ok};
use serde_json::Value;

fn moves_json(fen: &str) -> Value {
    serde_json::from_str(&houserules_ok(["moves", "--fen", fen, "--json"])).unwrap()
}

fn sans(v: &Value) -> Vec<String> {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap().to_string())
        .collect()
}

/// SANs without the check suffix.
fn plain_sans(v: &Value) -> Vec<String> {
    sans(v)
        .into_iter()
        .map(|s| s.trim_end_matches(['+', '#']).to_string())
        .collect()
}

fn fails(args: &[&str]) -> String {
    let out = houserules(args);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{args:?} should fail with exit code 2"
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn fen_prints_the_start_position() {
    assert_eq!(
        houserules_ok(["fen", "--variant", "chess"]).trim(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(
        houserules_ok(["fen", "--moves", "e4 c5 Nf3"]).trim(),
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
}

#[test]
fn san_disambiguates_by_file_rank_or_square() {
    // Knights on b1 and f3 both reach d2; rooks on a1 and a5 both reach a3; queens on
    // h4, e4 and h1 all reach e1.
    let v = moves_json("2k5/8/8/R7/4Q2Q/3K1N2/8/RN5Q w - - 0 1");
    let s = plain_sans(&v);
    for want in ["Nbd2", "Nfd2", "R1a3", "R5a3", "Qh4e1", "Qee1", "Q1e1"] {
        assert!(s.contains(&want.to_string()), "missing {want} in {s:?}");
    }
}

#[test]
fn san_for_castling_promotion_en_passant_check_and_mate() {
    let s = sans(&moves_json("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"));
    assert!(s.contains(&"O-O".to_string()) && s.contains(&"O-O-O".to_string()));
    let s = sans(&moves_json("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1"));
    for want in ["a8=Q", "axb8=N", "axb8=R+", "axb8=Q+"] {
        assert!(s.contains(&want.to_string()), "missing {want} in {s:?}");
    }
    let s = sans(&moves_json("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"));
    assert!(s.contains(&"exd6".to_string()), "{s:?}");
    let s = sans(&moves_json("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1"));
    assert!(s.contains(&"Ra8#".to_string()), "{s:?}");
}

#[test]
fn results_checkmate_stalemate_and_dead_positions() {
    let v = moves_json("R5k1/5ppp/8/8/8/8/8/4K3 b - - 1 1");
    assert_eq!(v["result"]["result"], "1-0");
    assert_eq!(v["result"]["termination"], "checkmate");
    assert_eq!(v["check"], true);
    let v = moves_json("k7/2Q5/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(v["result"]["result"], "1/2-1/2");
    assert_eq!(v["result"]["termination"], "stalemate");
    let v = moves_json("k7/8/8/8/8/8/8/4KB2 b - - 0 1");
    assert_eq!(v["result"]["termination"], "insufficient-material");
    let v = moves_json("k7/8/8/8/8/8/8/R3K3 b - - 100 80");
    assert_eq!(v["result"], Value::Null);
    assert_eq!(v["claimable_draw"], "n-move-rule");
    let v = moves_json("k7/8/8/8/8/8/8/R3K3 b - - 150 80");
    assert_eq!(v["result"]["termination"], "n-move-rule");
}

#[test]
fn threefold_is_claimable_and_fivefold_ends_the_game() {
    let shuffle = "Nf3 Nf6 Ng1 Ng8 ";
    let v: Value = serde_json::from_str(&houserules_ok([
        "moves",
        "--moves",
        &shuffle.repeat(2),
        "--json",
    ]))
    .unwrap();
    assert_eq!(v["claimable_draw"], "n-fold-repetition");
    assert_eq!(v["result"], Value::Null);
    let v: Value = serde_json::from_str(&houserules_ok([
        "moves",
        "--moves",
        &shuffle.repeat(4),
        "--json",
    ]))
    .unwrap();
    assert_eq!(v["result"]["termination"], "n-fold-repetition");
}

#[test]
fn coordinate_and_san_input_both_work() {
    let a = houserules_ok(["fen", "--moves", "e2e4 e7e5 g1f3"]);
    let b = houserules_ok(["fen", "--moves", "e4 e5 Nf3"]);
    let c = houserules_ok(["fen", "--moves", "e4 e5 Ng1f3"]);
    assert_eq!(a, b);
    assert_eq!(a, c);
    // Castling as king to destination, king takes rook, and O-O / 0-0.
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let want = houserules_ok(["fen", "--fen", fen, "--moves", "O-O"]);
    for m in ["e1g1", "e1h1", "0-0", "O-O+"] {
        assert_eq!(
            houserules_ok(["fen", "--fen", fen, "--moves", m]),
            want,
            "{m}"
        );
    }
}

#[test]
fn errors_are_clear_and_exit_with_2() {
    let e = fails(&["perft", "--variant", "chezz", "--depth", "1"]);
    assert!(
        e.contains("unknown variant `chezz` (did you mean `chess`?)"),
        "{e}"
    );
    let e = fails(&[
        "moves",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
    ]);
    assert!(e.contains("FEN field 4 (en passant), column 52"), "{e}");
    let e = fails(&["moves", "--fen", "4k2R/8/8/8/8/8/8/4K3 w - - 0 1"]);
    assert!(e.contains("FEN field 2 (side to move)"), "{e}");
    assert!(
        e.contains("black is in check but it is white's move"),
        "{e}"
    );
    let e = fails(&["fen", "--moves", "e4 e5 Ke3"]);
    assert!(
        e.contains("move `Ke3`: ply 3: not a legal move here"),
        "{e}"
    );
    let e = fails(&[
        "fen",
        "--fen",
        "k7/8/8/8/8/8/K7/R6R w - - 0 1",
        "--moves",
        "Rd1",
    ]);
    assert!(e.contains("move `Rd1`"), "{e}");
    assert!(houserules_ok([
        "fen",
        "--fen",
        "k7/8/8/8/8/8/K7/R6R w - - 0 1",
        "--moves",
        "Rhd1"
    ])
    .starts_with("k7/8/8/8/8/8/K7/R2R4 b"));
    let e = fails(&["perft", "--depth", "1", "--preset", "no-such-preset"]);
    assert!(e.contains("unknown preset `no-such-preset`"), "{e}");
    let out = houserules(["perft"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "missing --depth is a usage error"
    );
    // No games asked is a usage error, not one game played.
    let play = fails(&["play", "--games", "0"]);
    let matched = fails(&["match", "--games", "0", "--engine", "a", "--engine", "b"]);
    for e in [play, matched] {
        assert!(e.contains("invalid value '0' for '--games"), "{e}");
    }
}

#[test]
fn list_shows_plugins_variants_and_layouts() {
    let v: Value = serde_json::from_str(&houserules_ok(["list", "--json"])).unwrap();
    let chess = v["variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == "chess")
        .expect("chess listed");
    assert_eq!(chess["layouts"][0]["id"], "classic");
    assert_eq!(chess["pieces"].as_array().unwrap().len(), 6);
    assert!(v["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["id"] == "chess"
            && p["api_version"] == houserules_plugin_api::API_VERSION.to_string()));
    let text = houserules_ok(["list"]);
    assert!(
        text.contains("Variants:") && text.contains("chess"),
        "{text}"
    );
}

#[test]
fn threads_give_the_same_count() {
    let one = houserules_ok(["perft", "--depth", "4", "--threads", "1"]);
    let two = houserules_ok(["perft", "--depth", "4", "--threads", "2"]);
    assert_eq!(one, two);
    assert!(one.trim_end().ends_with("Nodes searched: 197281"));
}

/// piece-hp works through roles, so it runs on a variant other than chess: in mixedchess_v5
/// (a Fairy-Stockfish variant with drops) a capture damages and pushes instead of removing,
/// and nothing goes to the capturer's hand while the victim survives.
#[test]
fn piece_hp_runs_on_mixedchess() {
    let with = houserules_ok([
        "fen",
        "--variant",
        "mixedchess_v5",
        "--preset",
        "piece-hp",
        "--moves",
        "b3b4 b6b5 b4b5",
    ]);
    assert!(
        with.starts_with("ynfckfny/1r4b1/pppppppp/1P6/8/P1PPPPPP/1B4R1/YNFKCFNY[] b"),
        "{with}"
    );
    assert!(with.contains("b5=2") && with.contains("b6=1"), "{with}");
    let without = houserules_ok([
        "fen",
        "--variant",
        "mixedchess_v5",
        "--moves",
        "b3b4 b6b5 b4b5",
    ]);
    assert!(
        without.starts_with("ynfckfny/1r4b1/p1pppppp/1P6/8/P1PPPPPP/1B4R1/YNFKCFNY[P] b"),
        "{without}"
    );
}
