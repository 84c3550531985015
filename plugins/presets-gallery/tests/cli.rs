//! The gallery pack as the built `houserules` binary loads it: incompatibilities with the v1
//! pack's wrap-board, perft through the library boundary, and a scripted game per preset
//! written by `play` and checked by `analyze`.

use houserules_tests::{houserules, houserules_ok};
use serde_json::Value;

#[test]
fn gallery_bouncing_presets_are_refused_with_wrap_board() {
    for (a, b) in [
        ("bouncing-pieces", "wrap-board"),
        ("bouncing-pieces-2", "wrap-board"),
        ("wrap-board", "bouncing-pieces"),
        ("bouncing-pieces", "bouncing-pieces-2"),
    ] {
        let out = houserules(["perft", "--depth", "1", "--preset", a, "--preset", b]);
        assert!(!out.status.success(), "{a} + {b} accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("presets `{a}` and `{b}` are incompatible")),
            "{a} + {b}: {err}"
        );
    }
}

#[test]
fn gallery_perft_through_the_built_library() {
    for (preset, depth, nodes) in [
        ("coregal", "3", 8882u64),
        ("berolina-pawns", "1", 30),
        ("monster-rules", "1", 10),
        ("dual-king", "1", 20),
    ] {
        let out = houserules_ok(["perft", "--depth", depth, "--preset", preset, "--json"]);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["nodes"].as_u64(), Some(nodes), "{preset}: {out}");
    }
}

/// A short scripted game per preset: (preset, moves, computed result).
const GAMES: [(&str, &str, &str); 14] = [
    ("knightmate-rules", "e2e4 e7e5 d1e3 d8e6", "*"),
    ("coregal", "f2f3 e7e5 g2g4 d8h4", "0-1"),
    ("dual-king", "e2e4 e7e5 d1e2 d8e7", "*"),
    ("weak-dual-king", "e2e4 e7e5 d1e2 d8e7", "*"),
    ("double-move", "e2e4 d2d4 e7e5 d7d5 e4d5", "*"),
    ("monster-rules", "e2e4 d2d4 e7e5 e1e2 f2f3 e5d4", "*"),
    (
        "first-promotion-wins",
        "a2a4 h7h5 a4a5 h5h4 a5a6 h4h3 a6b7 h3g2 b7b8q",
        "1-0",
    ),
    ("suicide-chess", "e2e4 d7d5 e4d5 d8d5", "*"),
    ("capture-all", "e2e4 d7d5 e4d5 g8f6", "*"),
    ("extinction-chess", "e2e4 d7d5 e4d5 c7c6", "*"),
    ("berolina-pawns", "b2a3 g7h6 g2h3 b7a6", "*"),
    ("berolina-pawns-2", "b2a3 g7h6 g2h3 b7a6", "*"),
    ("bouncing-pieces", "e2e4 e7e5 f1c4 g8f6", "*"),
    ("bouncing-pieces-2", "d2d4 e7e5 c1g5 d8g5", "*"),
];

#[test]
fn gallery_play_and_analyze_a_scripted_game_per_preset() {
    let dir = tempfile::tempdir().unwrap();
    for (preset, moves, result) in GAMES {
        let path = dir.path().join(format!("{preset}.pgn"));
        let path = path.to_str().unwrap();
        houserules_ok([
            "play", "--preset", preset, "--moves", moves, "-q", "--out", path,
        ]);
        let record = std::fs::read_to_string(path).unwrap();
        assert!(record.contains(&format!("[Presets \"{preset}")), "{record}");
        let out = houserules_ok(["analyze", path, "--json", "--no-plies"]);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            v["summary"]["valid"].as_u64(),
            Some(1),
            "{preset}: {out}\n{record}"
        );
        let g = &v["games"][0];
        assert_eq!(
            g["ply_count"].as_u64(),
            Some(moves.split_whitespace().count() as u64),
            "{preset}: {out}"
        );
        assert_eq!(
            g["result"]["computed"].as_str(),
            Some(result),
            "{preset}: {out}"
        );
    }
}
