//! The BUILT plugin through the host binary: perft, `moves --json`, extra variant files.

use houserules_tests::{houserules, houserules_ok};
use serde_json::Value;

fn nodes(out: &str) -> u64 {
    out.lines()
        .last()
        .and_then(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no node count in {out}"))
}

#[test]
fn perft_matches_fairy_stockfish() {
    for (v, d, n) in [
        ("mixedchess_v5", "3", 18846),
        ("mixedchess_v5", "4", 487175),
        ("tictacrook_v1", "3", 303744),
    ] {
        let out = houserules_ok(["perft", "--variant", v, "--depth", d]);
        assert_eq!(nodes(&out), n, "{v} depth {d}");
    }
}

#[test]
#[ignore = "deep: tictacrook depth 4 and mixedchess depth 5 (seconds in release)"]
fn perft_deep() {
    for (v, d, n) in [
        ("tictacrook_v1", "4", 22478400u64),
        ("mixedchess_v5", "5", 12603592),
    ] {
        let out = houserules_ok(["perft", "--variant", v, "--depth", d, "--threads", "2"]);
        assert_eq!(nodes(&out), n, "{v} depth {d}");
    }
}

fn moves(v: &str, fen: &str) -> Value {
    serde_json::from_str(&houserules_ok([
        "moves",
        "--variant",
        v,
        "--fen",
        fen,
        "--json",
    ]))
    .expect("json")
}

#[test]
fn moves_json_promotion_drop_and_results() {
    let j = moves("mixedchess_v5", "4k3/8/8/2P5/8/8/8/4K3[P] w - - 0 1");
    let list = j["moves"].as_array().unwrap();
    assert!(list
        .iter()
        .any(|m| m["move"] == "c5c6c" && m["san"] == "Pc6=C"));
    assert!(
        !list.iter().any(|m| m["move"] == "c5c6"),
        "promotion is compulsory"
    );
    assert!(list.iter().any(|m| m["move"] == "P@a1"));
    assert!(
        !list.iter().any(|m| m["move"] == "P@a8"),
        "a pawn may not be dropped where it cannot move"
    );
    assert!(j["result"].is_null());
    // Stalemate is a loss for the stalemated side.
    let j = moves("mixedchess_v5", "k7/8/1K6/4B3/8/8/8/8[] b - - 0 1");
    assert_eq!(j["result"]["result"], "1-0");
    assert_eq!(j["result"]["termination"], "stalemate");
    // Connect-5 ends the game for the side that just moved.
    let j = moves("tictacrook_v1", "8/8/8/8/8/8/8/PPPPP3[PPPpppp] b - - 0 1");
    assert_eq!(j["result"]["result"], "1-0");
    assert!(j["moves"].as_array().unwrap().is_empty());
}

/// `moves --json` after the coordinate moves `mv` (space-separated) from `fen`.
fn moves_after(v: &str, fen: &str, mv: &str) -> Value {
    serde_json::from_str(&houserules_ok([
        "moves",
        "--variant",
        v,
        "--fen",
        fen,
        "--moves",
        mv,
        "--json",
    ]))
    .expect("json")
}

#[test]
fn repetition_and_perpetual_check_through_a_game() {
    let play = |fen: &str, mv: &str| moves_after("mixedchess_v5", fen, mv);
    let quiet = ["e1d1 e8d8 d1e1 d8e8"; 3].join(" ");
    let j = play("4k3/8/8/8/8/8/8/4K3[] w - - 0 1", &quiet);
    assert_eq!(
        j["result"]["result"], "0-1",
        "4-fold: absolute loss for White"
    );
    let j = play("4k3/8/8/8/8/8/8/4K3[] w - - 0 1", &format!("{quiet} e1d1"));
    assert_eq!(
        j["result"]["result"], "0-1",
        "Black to move: still a loss for White"
    );
    let eleven = quiet.split(' ').take(11).collect::<Vec<_>>().join(" ");
    let j = play("4k3/8/8/8/8/8/8/4K3[] w - - 0 1", &eleven);
    assert!(j["result"].is_null(), "only three occurrences so far");
    let perpetual = ["h8h7 a8a7 h7h8 a7a8"; 3].join(" ");
    let j = play("R6k/8/8/8/8/8/8/4K3[] b - - 0 1", &perpetual);
    assert_eq!(j["result"]["result"], "0-1", "the checking side loses");
    assert_eq!(j["result"]["termination"], "perpetual-check");
}

/// minishogi (`shogiPawnDropMateIllegal`): the pawn drop P@e4 is the only move that ends the
/// game, a checkmate that loses (Fairy-Stockfish 0.0.90: 33 legal moves, P@e4 among them,
/// `game_result` +mate for the mated side after it, -mate from the same position's FEN).
const DROP_MATE: &str = "p3k/5/5/2B2/K2R1[P] w 0 1";

#[test]
fn a_mating_pawn_drop_is_played_and_loses_through_the_host() {
    let j = moves("minishogi", DROP_MATE);
    let list = j["moves"].as_array().unwrap();
    assert_eq!(list.len(), 33);
    assert!(list.iter().any(|m| m["move"] == "P@e4"), "{j}");
    let j = moves_after("minishogi", DROP_MATE, "P@e4");
    assert_eq!(j["result"]["result"], "0-1", "{j}");
    assert_eq!(j["result"]["termination"], "pawn-drop-mate", "{j}");
    // The same position from its FEN: no drop led there, an ordinary checkmate.
    let j = moves("minishogi", "p3k/4P/5/2B2/K2R1[] b - - 0 1");
    assert_eq!(j["result"]["result"], "1-0", "{j}");
    assert_eq!(j["result"]["termination"], "checkmate", "{j}");
    // A batch replays it with the same result.
    let pgn = std::env::temp_dir().join(format!("fairy-drop-mate-{}.pgn", std::process::id()));
    std::fs::write(
        &pgn,
        format!(
            "[Variant \"minishogi\"]\n[FEN \"{DROP_MATE}\"]\n[Result \"0-1\"]\n\n1. P@e4 0-1\n"
        ),
    )
    .unwrap();
    let out = houserules_ok(["analyze", "--jsonl", "--no-plies", pgn.to_str().unwrap()]);
    let _ = std::fs::remove_file(&pgn);
    let r: Value = serde_json::from_str(out.lines().next().unwrap()).expect("json");
    assert_eq!(r["result"]["computed"], "0-1", "{r}");
    assert_eq!(r["result"]["termination"], "pawn-drop-mate", "{r}");
}

#[test]
fn an_unusable_en_passant_right_does_not_hide_a_repetition() {
    // dragon-chess (Fairy-Stockfish's example variants file): its custom pawns double-step
    // and nothing can take them en passant. The position after b2b4 (FEN `b3b4`) comes
    // back twice; Fairy-Stockfish (pyffish 0.0.90) sees the repetition after the ninth ply.
    let ini = std::env::temp_dir().join(format!("fairy-dragon-{}.ini", std::process::id()));
    std::fs::write(
        &ini,
        "[dragon-chess:chess]\ncustomPiece1 = b:BK\ncustomPiece2 = n:NK\n\
         customPiece3 = p:KifmnD\ncustomPiece4 = r:RK\ncastlingRookPieces = r\npawnTypes = p\n",
    )
    .unwrap();
    let line = "b2b4 a7b6 g2g3 b6a7 g3g2 a7b6 g2g3 b6a7 g3g2";
    let play = |plies: usize| -> Value {
        let mv = line.split(' ').take(plies).collect::<Vec<_>>().join(" ");
        let args = [
            "moves",
            "--variants",
            ini.to_str().unwrap(),
            "--variant",
            "dragon-chess",
        ];
        serde_json::from_str(&houserules_ok(
            args.into_iter().chain(["--moves", &mv, "--json"]),
        ))
        .expect("json")
    };
    let first = play(1);
    assert_eq!(
        first["fen"],
        "rnbqkbnr/pppppppp/8/8/1P6/8/P1PPPPPP/RNBQKBNR b KQkq b3b4 0 1"
    );
    assert!(play(8)["result"].is_null());
    let j = play(9);
    let _ = std::fs::remove_file(&ini);
    assert_eq!(j["result"]["termination"], "n-fold-repetition", "{j}");
}

#[test]
fn a_side_that_starts_without_a_king_has_no_king_to_lose() {
    // horde: White has pawns and no king; its game goes on until it has no pieces left
    // (extinction), and the start is no royal-lost win for Black (Fairy-Stockfish: no result).
    let j = moves(
        "horde",
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
    );
    assert!(j["result"].is_null(), "{j}");
    assert_eq!(j["moves"].as_array().map(Vec::len), Some(8));
    // White's last piece taken: Black wins by extinction.
    let j = moves_after("horde", "4k3/8/8/8/8/8/3q4/4P3 b - - 0 1", "d2e1");
    assert_eq!(j["fen"], "4k3/8/8/8/8/8/8/4q3 w - - 0 2", "{j}");
    assert_eq!(j["result"]["result"], "0-1", "{j}");
}

#[test]
fn extra_variant_files_and_precise_errors() {
    let dir = std::env::temp_dir().join(format!("fairy-ini-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("extra.ini");
    std::fs::write(
        &file,
        "[minixiang:chess]\nmaxRank = 6\nmaxFile = 6\nstartFen = rnbkqr/pppppp/6/6/PPPPPP/RNBKQR w - - 0 1\ncastling = false\ndoubleStep = false\n\n[broken]\nrook = r\nbogusKey = 3\n",
    )
    .unwrap();
    let f = file.to_str().unwrap();
    let out = houserules_ok([
        "perft",
        "--variants",
        f,
        "--variant",
        "minixiang",
        "--depth",
        "2",
    ]);
    assert!(nodes(&out) > 0);
    let list = houserules_ok(["list", "--variants", f]);
    assert!(list.contains("broken"));
    let out = houserules([
        "perft",
        "--variants",
        f,
        "--variant",
        "broken",
        "--depth",
        "1",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("extra.ini:10") && err.contains("bogusKey"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
