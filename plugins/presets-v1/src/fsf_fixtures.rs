//! Differential fixtures recorded from Fairy-Stockfish by `tools/fsf-presets/gen_fixtures.py`
//! (positions of seeded random games, with FSF's legal moves and results): every position is
//! replayed through the chess variant + the preset and must agree.

use crate::testkit::*;
use houserules_plugin_api::Winner;
use serde_json::Value;

fn fixtures() -> Value {
    let text = include_str!("../tests/data/fsf_presets.json");
    serde_json::from_str(text).expect("the fixture is JSON")
}

fn check(preset: &str) -> usize {
    let all = fixtures();
    let case = all["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["preset"] == preset)
        .unwrap_or_else(|| panic!("no fixture for {preset}"));
    let p = pipe(&[preset]);
    let mut n = 0;
    let mut bad = Vec::new();
    for r in case["records"].as_array().unwrap() {
        let fen = r["fen"].as_str().unwrap();
        let mut want: Vec<String> = r["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        want.sort();
        let position = match p.parse_fen(fen) {
            Ok(x) => x,
            Err(e) => {
                bad.push(format!("{fen}: {e}"));
                continue;
            }
        };
        let got = sorted(legal_at(&p, &position));
        if got != want {
            let extra: Vec<_> = got.iter().filter(|m| !want.contains(m)).collect();
            let missing: Vec<_> = want.iter().filter(|m| !got.contains(m)).collect();
            bad.push(format!("{fen}: extra {extra:?} missing {missing:?}"));
        }
        if let Some(v) = r.get("result").and_then(Value::as_i64) {
            let out = p.outcome(&position, false, false).unwrap();
            let mine = match out.map(|o| o.winner) {
                Some(Winner::DRAW) | None => 0,
                Some(w) if w.winning_color() == Some(position.side_to_move) => 1,
                Some(_) => -1,
            };
            if mine != v {
                bad.push(format!("{fen}: result {mine}, FSF {v}"));
            }
        }
        n += 1;
    }
    assert!(
        bad.is_empty(),
        "{} differences:\n{}",
        bad.len(),
        bad.join("\n")
    );
    n
}

#[test]
fn fsf_bishops_ignore_color() {
    assert!(check("bishops-ignore-color") > 500);
}

#[test]
fn fsf_last_piece_standing() {
    assert!(check("last-piece-standing") > 500);
}
