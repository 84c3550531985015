//! Differential test against Fairy-Stockfish, from recorded fixtures
//! (`tests/data/fsf-*.json`, written by `tools/fsf-gallery/generate.py`; no Python needed here).
//!
//! Every fixture is a set of random games Fairy-Stockfish played in a variant that expresses a
//! gallery preset exactly. Each game is replayed through the houserules pipeline; at every ply
//! the legal moves (coordinate form, as FSF writes them) and the result must agree, and the FEN
//! Fairy-Stockfish wrote (two-square en passant fields included) must read into a position with
//! the same legal moves.

use crate::testkit::*;
use houserules_host::Pipeline;
use houserules_plugin_api::{Move, Position};
use serde_json::Value;

fn load(section: &str) -> Value {
    let path = format!(
        "{}/tests/data/fsf-{section}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap()
}

fn sorted(mut v: Vec<String>) -> String {
    v.sort();
    v.join(" ")
}

/// The result by the rules (results that take the moves away, as perft sees them), from
/// White's point of view.
fn result(p: &Pipeline, position: &Position) -> Option<String> {
    let has_moves = !legal_at(p, position).is_empty();
    p.outcome(position, has_moves, true)
        .unwrap()
        .map(|o| o.winner.pgn().to_string())
}

/// Replays every game of a section; returns (positions compared, decided games).
fn check(section: &str, presets: &[&str]) -> (usize, usize) {
    let data = load(section);
    let p = pipe_layout("classic", presets);
    let mut positions = 0;
    let mut decided = 0;
    for (g, game) in data["games"].as_array().unwrap().iter().enumerate() {
        let mut position = pos(&p, game["start"].as_str().unwrap());
        let moves: Vec<&str> = game["moves"].as_str().unwrap().split_whitespace().collect();
        let plies = game["plies"].as_array().unwrap();
        for (i, ply) in plies.iter().enumerate() {
            let fsf_fen = ply["fen"].as_str().unwrap();
            let want_result = ply["result"].as_str().map(str::to_string);
            let ctx = || {
                format!(
                    "{section} game {g} ply {i}: {fsf_fen} (ours {})",
                    fen(&p, &position)
                )
            };
            assert_eq!(result(&p, &position), want_result, "result, {}", ctx());
            if want_result.is_some() {
                decided += 1;
            } else {
                let want = ply["legal"].as_str().unwrap();
                assert_eq!(
                    sorted(legal_at(&p, &position)),
                    want,
                    "legal moves, {}",
                    ctx()
                );
                // The FEN Fairy-Stockfish wrote reads into the same position.
                let read = pos(&p, fsf_fen);
                assert_eq!(
                    sorted(legal_at(&p, &read)),
                    want,
                    "legal moves of the FSF FEN, {}",
                    ctx()
                );
                let ours = fen(&p, &position);
                let fields = |s: &str| s.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
                assert_eq!(
                    fields(&ours),
                    fields(fsf_fen),
                    "board, side, castling, {}",
                    ctx()
                );
            }
            positions += 1;
            if let Some(mv) = moves.get(i) {
                let m: Move = find(&p, &position, mv);
                let mut fx = houserules_plugin_api::MoveEffects::new(position.side_to_move, false);
                p.apply(&mut position, m, &mut fx).unwrap();
            }
        }
    }
    (positions, decided)
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
