//! Agreement with Fairy-Stockfish, through the BUILT plugin and the host library.
//!
//! * `recorded_fixture_agrees`: positions and Fairy-Stockfish's answers recorded by
//!   `tools/fsf-diff/fsf_diff.py --record` (no Python needed).
//! * `recorded_variants_fixture_agrees`: the same for sections of Fairy-Stockfish's own
//!   variants.ini (`fsf_diff.py --ini FILE --record`): every recorded section still loads,
//!   its perft from the start agrees, and every recorded position of its games agrees.
//! * `batch` (ignored): the batch mode of the differential tester: reads cases from the file
//!   in `FSF_DIFF_IN`, writes houserules' answers to `FSF_DIFF_OUT`. A case is
//!   `{variant, fen, moves}` (the answer after the moves), with `"game": true` (the answers
//!   at every ply), `{variant, "probe": true}` (whether it loads) or `{variant, fen,
//!   "perft": [depths]}`.

use houserules_host::notation::{coordinate, san};
use houserules_host::{perft, Game, Pipeline, Registry};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::OnceLock;

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
            houserules_tests::play_text(&mut game, m.as_str().unwrap_or(""))?;
        }
        position_answer(&game)
    };
    run().unwrap_or_else(|e| json!({ "error": e }))
}

/// houserules' answers at every position of the game `{variant, fen, moves}`: after 0, 1,
/// ... all the moves (an error ends the list).
fn game_answers(reg: &Registry, case: &Value) -> Vec<Value> {
    let variant = case["variant"].as_str().unwrap_or("");
    let mut out = Vec::new();
    let mut run = || -> Result<(), String> {
        let p = Pipeline::build(reg, variant, None, &[]).map_err(|e| e.to_string())?;
        let start = p
            .parse_fen(case["fen"].as_str().unwrap_or(""))
            .map_err(|e| e.to_string())?;
        let mut game = Game::new(&p, start);
        out.push(position_answer(&game)?);
        for m in case["moves"].as_array().into_iter().flatten() {
            houserules_tests::play_text(&mut game, m.as_str().unwrap_or(""))?;
            out.push(position_answer(&game)?);
        }
        Ok(())
    };
    if let Err(e) = run() {
        out.push(json!({ "error": e }));
    }
    out
}

/// Whether `variant` loads: `{"start": FEN}` of its start position, or `{"error": why}`.
fn probe(reg: &Registry, variant: &str) -> Value {
    let run = || -> Result<Value, String> {
        let p = Pipeline::build(reg, variant, None, &[]).map_err(|e| e.to_string())?;
        let start = p.start_position().map_err(|e| e.to_string())?;
        Ok(json!({ "start": p.write_fen(&start).map_err(|e| e.to_string())? }))
    };
    run().unwrap_or_else(|e| json!({ "error": e }))
}

/// Perft of `variant` from `fen` at each depth of `depths`: `{"perft": [n, ...]}`.
fn perfts(reg: &Registry, variant: &str, fen: &str, depths: &[u32]) -> Value {
    let run = || -> Result<Value, String> {
        let p = Pipeline::build(reg, variant, None, &[]).map_err(|e| e.to_string())?;
        let pos = p.parse_fen(fen).map_err(|e| e.to_string())?;
        let mut counts = Vec::new();
        for &d in depths {
            counts.push(
                perft(&p, &pos, d, 1, false)
                    .map_err(|e| e.to_string())?
                    .nodes,
            );
        }
        Ok(json!({ "perft": counts }))
    };
    run().unwrap_or_else(|e| json!({ "error": e }))
}

/// The answer at the game's current position.
fn position_answer(game: &Game) -> Result<Value, String> {
    let p = game.pipeline();
    let legal = game.legal_moves().map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    for &m in &legal {
        rows.push((
            coordinate(p, &game.position, m).map_err(|e| e.to_string())?,
            san(p, &game.position, m, &legal).map_err(|e| e.to_string())?,
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
        "dynamic_royals": p.info.flags.contains(houserules_plugin_api::VariantFlags::DYNAMIC_ROYALS),
    }))
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
        // Fairy-Stockfish's SAN marks checks of the king only, not of pseudo-royal pieces
        // (docs/fairy.md): for such variants SAN is compared without the check mark.
        let plain = |s: &str| -> String {
            if ours["dynamic_royals"] == true {
                s.trim_end_matches(['+', '#']).to_string()
            } else {
                s.to_string()
            }
        };
        for (m, s) in fsf["san"].as_object().into_iter().flatten() {
            if let Some((_, ours_san)) = ours_moves.iter().find(|(x, _)| x == m) {
                if plain(ours_san) != plain(s.as_str().unwrap_or("")) {
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
    let reg = fixture_registry();
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

/// Fairy-Stockfish's answers for sections of its own variants.ini, recorded by
/// `tools/fsf-diff/fsf_diff.py --ini FILE --record` (the recorded sections' text included):
/// every `tests/data/fsf_variants_fixture*.json`, in name order (one file per recording, so
/// sections added later are recorded without re-recording the others).
fn variants_fixtures() -> &'static [Value] {
    static DATA: OnceLock<Vec<Value>> = OnceLock::new();
    DATA.get_or_init(|| {
        let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data"));
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("tests/data")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("fsf_variants_fixture") && n.ends_with(".json"))
            })
            .collect();
        paths.sort();
        paths
            .iter()
            .map(|p| {
                let text = std::fs::read_to_string(p).expect("fixture");
                serde_json::from_str(&text).expect("json")
            })
            .collect()
    })
}

/// The built plugins, the fairy plugin also reading the sections of the variants fixtures.
/// The plugin reads `HOUSERULES_VARIANTS_PATH` once, when this process first loads it: every
/// recorded test comes here, so the variable is set (once) before any of them loads it.
fn fixture_registry() -> Registry {
    static INI: OnceLock<Vec<PathBuf>> = OnceLock::new();
    INI.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        let paths: Vec<PathBuf> = variants_fixtures()
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let path = dir.join(format!("fsf_variants_fixture_{i}.ini"));
                let text = f["ini"].as_str().expect("ini");
                std::fs::write(&path, text).expect("write the recorded sections");
                path
            })
            .collect();
        let joined = std::env::join_paths(&paths).expect("paths");
        std::env::set_var(houserules_fairy::PATH_VAR, joined);
        paths
    });
    houserules_tests::registry()
}

/// Every recorded section still loads (it was recorded because it did), its perft from the
/// start equals Fairy-Stockfish's at every recorded depth (3, or 2 where 3 is over a million
/// nodes), and every position of its recorded games agrees.
#[test]
fn recorded_variants_fixture_agrees() {
    let reg = fixture_registry();
    let fixtures = variants_fixtures();
    assert!(!fixtures.is_empty(), "no variants fixture");
    let mut bad = Vec::new();
    let mut positions = 0;
    let mut section_count = 0;
    for data in fixtures {
        let (b, p, s) = fixture_disagreements(&reg, data);
        bad.extend(b);
        positions += p;
        section_count += s;
    }
    assert!(
        bad.is_empty(),
        "{} disagreements ({} sections, {} positions):\n{}",
        bad.len(),
        section_count,
        positions,
        bad.join("\n")
    );
}

/// One fixture's disagreements, with its position and section counts.
fn fixture_disagreements(reg: &Registry, data: &Value) -> (Vec<String>, usize, usize) {
    let sections = data["sections"].as_array().expect("sections");
    let games = data["games"].as_array().expect("games");
    assert!(!sections.is_empty(), "a fixture records no section");
    let mut bad = Vec::new();
    let mut positions = 0;
    for s in sections {
        let v = s["variant"].as_str().expect("variant");
        if let Some(e) = probe(reg, v).get("error") {
            bad.push(format!("[{v}] no longer loads: {e}"));
            continue;
        }
        let recorded = s["perft"].as_array().expect("perft");
        let depths: Vec<u32> = (1..=recorded.len() as u32).collect();
        let ours = perfts(reg, v, s["fen"].as_str().expect("fen"), &depths);
        if ours.get("perft") != Some(&s["perft"]) {
            bad.push(format!(
                "[{v}] perft 1..{}: houserules {} / FSF {}",
                depths.len(),
                ours,
                s["perft"]
            ));
        }
        if !games.iter().any(|g| g["variant"] == s["variant"]) {
            bad.push(format!("[{v}] has no recorded game"));
        }
    }
    for (i, g) in games.iter().enumerate() {
        let ours = game_answers(reg, g);
        let moves = g["moves"].as_array().expect("moves");
        for (ply, fsf) in g["answers"].as_array().expect("answers").iter().enumerate() {
            positions += 1;
            let o = ours.get(ply).or(ours.last()).expect("an answer");
            let d = differences(o, fsf);
            if !d.is_empty() {
                let played: Vec<&str> = moves[..ply].iter().filter_map(|m| m.as_str()).collect();
                bad.push(format!(
                    "game {i} [{}] {} moves {}: {}",
                    g["variant"].as_str().unwrap_or(""),
                    g["fen"],
                    played.join(" "),
                    d.join("; ")
                ));
            }
            if o.get("error").is_some() {
                break;
            }
        }
    }
    (bad, positions, sections.len())
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
        .map(|c| {
            let v = c["variant"].as_str().unwrap_or("");
            if c.get("probe").is_some() {
                probe(&reg, v)
            } else if let Some(depths) = c["perft"].as_array() {
                let depths: Vec<u32> = depths
                    .iter()
                    .filter_map(|d| d.as_u64())
                    .map(|d| d as u32)
                    .collect();
                perfts(&reg, v, c["fen"].as_str().unwrap_or(""), &depths)
            } else if c.get("game").is_some() {
                Value::Array(game_answers(&reg, c))
            } else {
                answer(&reg, c)
            }
        })
        .collect();
    std::fs::write(output, serde_json::to_string(&answers).expect("json")).expect("write");
}
