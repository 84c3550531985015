//! Fairy-Stockfish's built-in variants (`variants/fsf-builtins.ini`) against Fairy-Stockfish's
//! own C++ built-ins of the same names: start FEN and perft recorded by
//! `tools/fsf-diff/builtin_perft.py` into `tests/data/builtin-perft.json` (no Python needed).
//!
//! A section that does not build yet (a key this plugin does not implement) is listed with its
//! error; a section that builds must agree at every recorded depth, unless it is a named
//! [`KNOWN_DISAGREEMENTS`] entry (a defect of the engine, not of the translation).

use houserules_fairy::{Fairy, Registry, BUILTIN};
use houserules_plugin_api::{Position, VariantRules};
use serde_json::Value;
use std::collections::BTreeMap;

/// How many sections build and agree with Fairy-Stockfish on this branch: fewer is a
/// regression. Raise it when more keys are implemented.
const FLOOR: usize = 118;

/// Sections that build but disagree with Fairy-Stockfish because of the engine (name, why).
const KNOWN_DISAGREEMENTS: &[(&str, &str)] = &[];

const FILE: &str = "builtin:variants/fsf-builtins.ini";

fn perft(v: &Fairy, pos: &Position, depth: u32) -> u64 {
    v.perft(pos, depth)
}

/// Where `v` disagrees with the recorded answer of Fairy-Stockfish (empty: it agrees).
fn disagreement(v: &Fairy, rec: &Value) -> Option<String> {
    let want_fen = rec["fen"].as_str().unwrap_or("");
    let pos = match v.parse(&v.start_fen) {
        Ok(p) => p,
        Err(e) => return Some(format!("start FEN {}: {}", v.start_fen, e.message)),
    };
    let fen = v.write_fen(&pos);
    if fen != want_fen {
        return Some(format!("start FEN: houserules {fen} / FSF {want_fen}"));
    }
    for (d, n) in rec["perft"].as_array().into_iter().flatten().enumerate() {
        let want = n.as_u64().unwrap_or(0);
        let got = perft(v, &pos, d as u32 + 1);
        if got != want {
            return Some(format!("perft {}: houserules {got} / FSF {want}", d + 1));
        }
    }
    None
}

/// The key an error names (`...: key `K`: ...`), for the summary.
fn blocking_key(err: &str) -> String {
    err.split("key `")
        .nth(1)
        .and_then(|r| r.split('`').next())
        .unwrap_or("(no key)")
        .to_string()
}

#[test]
fn builtins_match_fairy_stockfish() {
    let text = BUILTIN
        .iter()
        .find(|(name, _)| *name == FILE)
        .map(|(_, t)| t.to_string())
        .expect("fsf-builtins.ini is a built-in file");
    let reg = Registry::from_sources(&[(FILE.to_string(), text)]);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/builtin-perft.json");
    let data: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("recording")).expect("json");
    let recs = data["sections"].as_array().expect("sections");

    // The recording and the file name the same sections.
    let recorded: Vec<&str> = recs.iter().filter_map(|r| r["variant"].as_str()).collect();
    let ids: Vec<&str> = reg.ids().collect();
    assert_eq!(
        recorded, ids,
        "builtin-perft.json is out of date: run tools/fsf-diff/builtin_perft.py"
    );

    let mut agree = Vec::new();
    let mut bad = Vec::new();
    let mut known = Vec::new();
    let mut unbuilt: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for rec in recs {
        let name = rec["variant"].as_str().unwrap_or("");
        let known_why = KNOWN_DISAGREEMENTS.iter().find(|(n, _)| *n == name);
        match reg.get(name).expect("section exists") {
            Err(e) => {
                println!("does not build: {name}: {e}");
                unbuilt.entry(blocking_key(&e)).or_default().push(name);
            }
            Ok(v) => match (disagreement(&v, rec), known_why) {
                (None, None) => agree.push(name),
                (None, Some((_, why))) => bad.push(format!(
                    "{name} agrees now: remove it from KNOWN_DISAGREEMENTS ({why})"
                )),
                (Some(d), Some((_, why))) => known.push(format!("{name}: {d} (known: {why})")),
                (Some(d), None) => bad.push(format!("{name}: {d}")),
            },
        }
    }
    println!(
        "agree with Fairy-Stockfish ({}): {}",
        agree.len(),
        agree.join(" ")
    );
    for k in &known {
        println!("known disagreement: {k}");
    }
    let mut keys: Vec<_> = unbuilt.iter().collect();
    keys.sort_by_key(|(k, v)| (std::cmp::Reverse(v.len()), k.to_string()));
    for (key, names) in keys {
        println!(
            "first unsupported key `{key}` stops {}: {}",
            names.len(),
            names.join(" ")
        );
    }
    assert!(
        bad.is_empty(),
        "{} section(s) disagree with Fairy-Stockfish:\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert!(
        agree.len() >= FLOOR,
        "only {} sections build and agree, the floor is {FLOOR}: {}",
        agree.len(),
        agree.join(" ")
    );
}
