//! Agreement with Fairy-Stockfish, through the BUILT plugin and the host library.
//!
//! * `recorded_fixture_agrees`: positions and Fairy-Stockfish's answers recorded by
//!   `tools/fsf-diff/fsf_diff.py --record` (no Python needed).
//! * `batch` (ignored): the batch mode of the differential tester: reads cases from the file
//!   in `FSF_DIFF_IN`, writes houserules' answers to `FSF_DIFF_OUT`.

use houserules_host::notation::{coordinate, parse_move, san};
use houserules_host::{Game, Pipeline, Registry};
use serde_json::{json, Value};

/// houserules' answer for one case `{variant, fen, moves}`: the FEN reached, the legal moves
/// (coordinate form and SAN, sorted by coordinate), check, and the result.
fn answer(reg: &Registry, case: &Value) -> Value {
    let variant = case["variant"].as_str().expect("variant");
    let run = || -> Result<Value, String> {
        let p = Pipeline::build(reg, variant, None, &[]).map_err(|e| e.to_string())?;
        let start = p
            .parse_fen(case["fen"].as_str().unwrap_or(""))
            .map_err(|e| e.to_string())?;
        let mut game = Game::new(&p, start);
        for m in case["moves"].as_array().into_iter().flatten() {
            let text = m.as_str().unwrap_or("");
            let legal = game.legal_moves().map_err(|e| e.to_string())?;
            let mv =
                parse_move(&p, &game.position, text, &legal).map_err(|e| format!("{text}: {e}"))?;
            game.play(mv).map_err(|e| e.to_string())?;
        }
        let legal = game.legal_moves().map_err(|e| e.to_string())?;
        let mut rows = Vec::new();
        for &m in &legal {
            rows.push((
                coordinate(&p, &game.position, m).map_err(|e| e.to_string())?,
                san(&p, &game.position, m, &legal).map_err(|e| e.to_string())?,
            ));
        }
        rows.sort();
        let status = game.status().map_err(|e| e.to_string())?;
        Ok(json!({
            "fen": p.write_fen(&game.position).map_err(|e| e.to_string())?,
            "moves": rows.iter().map(|(m, s)| json!([m, s])).collect::<Vec<_>>(),
            "check": status.in_check,
            "result": status.outcome.as_ref().map(|o| o.winner.pgn().to_string()),
            "termination": status.outcome_reason(),
        }))
    };
    run().unwrap_or_else(|e| json!({ "error": e }))
}

trait Reason {
    fn outcome_reason(&self) -> Option<String>;
}

impl Reason for houserules_host::Status {
    fn outcome_reason(&self) -> Option<String> {
        self.outcome.as_ref().map(|o| o.reason.to_string())
    }
}

/// Differences between houserules' answer and Fairy-Stockfish's recorded one.
fn differences(ours: &Value, fsf: &Value) -> Vec<String> {
    let mut d = Vec::new();
    if let Some(e) = ours.get("error") {
        d.push(format!("houserules error: {e}"));
        return d;
    }
    if ours["fen"] != fsf["fen"] {
        d.push(format!(
            "FEN: houserules {} / FSF {}",
            ours["fen"], fsf["fen"]
        ));
    }
    if ours["result"] != fsf["result"] {
        d.push(format!(
            "result: houserules {} ({}) / FSF {}",
            ours["result"], ours["termination"], fsf["result"]
        ));
    }
    if fsf["result"].is_null() || !fsf["moves"].as_array().is_some_and(|m| m.is_empty()) {
        let ours_moves: Vec<(String, String)> = ours["moves"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|x| {
                (
                    x[0].as_str().unwrap_or("").to_string(),
                    x[1].as_str().unwrap_or("").to_string(),
                )
            })
            .collect();
        let a: Vec<&str> = ours_moves.iter().map(|(m, _)| m.as_str()).collect();
        let b: Vec<&str> = fsf["moves"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|x| x.as_str())
            .collect();
        let only_ours: Vec<_> = a.iter().filter(|x| !b.contains(x)).collect();
        let only_fsf: Vec<_> = b.iter().filter(|x| !a.contains(x)).collect();
        if !only_ours.is_empty() || !only_fsf.is_empty() {
            d.push(format!(
                "moves: only houserules {only_ours:?}, only FSF {only_fsf:?}"
            ));
        }
        for (m, s) in fsf["san"].as_object().into_iter().flatten() {
            if let Some((_, ours_san)) = ours_moves.iter().find(|(x, _)| x == m) {
                if Some(ours_san.as_str()) != s.as_str() {
                    d.push(format!("SAN of {m}: houserules {ours_san} / FSF {s}"));
                }
            }
        }
        if ours["check"] != fsf["check"] {
            d.push(format!(
                "check: houserules {} / FSF {}",
                ours["check"], fsf["check"]
            ));
        }
    }
    d
}

#[test]
fn recorded_fixture_agrees() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fsf_fixture.json");
    let data: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("json");
    let reg = houserules_tests::registry();
    let cases = data["cases"].as_array().expect("cases");
    assert!(cases.len() >= 200, "the fixture is too small");
    let mut bad = Vec::new();
    for (i, c) in cases.iter().enumerate() {
        let d = differences(&answer(&reg, c), &c["fsf"]);
        if !d.is_empty() {
            bad.push(format!(
                "case {i} {} {} {:?}: {}",
                c["variant"],
                c["fen"],
                c["moves"],
                d.join("; ")
            ));
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {} cases disagree:\n{}",
        bad.len(),
        cases.len(),
        bad.join("\n")
    );
}

#[test]
#[ignore = "batch mode of tools/fsf-diff/fsf_diff.py (needs FSF_DIFF_IN and FSF_DIFF_OUT)"]
fn batch() {
    let input = std::env::var("FSF_DIFF_IN").expect("FSF_DIFF_IN");
    let output = std::env::var("FSF_DIFF_OUT").expect("FSF_DIFF_OUT");
    let cases: Value =
        serde_json::from_str(&std::fs::read_to_string(input).expect("input")).expect("json");
    let reg = houserules_tests::registry();
    let answers: Vec<Value> = cases
        .as_array()
        .expect("list")
        .iter()
        .map(|c| answer(&reg, c))
        .collect();
    std::fs::write(output, serde_json::to_string(&answers).expect("json")).expect("write");
}
