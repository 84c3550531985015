//! Custom modifier descriptors through the built binary: `list`, `--modifier FILE` (good and
//! bad), the `Modifiers` record tag, and modifier effects as `analyze` events.

use houserules_tests::{houserules, houserules_ok};
use serde_json::Value;
use std::io::Write;

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    let mut f = std::fs::File::create(&path).unwrap();
    f.write_all(text.as_bytes()).unwrap();
    path.to_str().unwrap().to_string()
}

const WANDERER: &str = r#"{
  "version": 1,
  "id": "wanderer",
  "name": "Wanderer",
  "description": "Knights count their steps.",
  "appliesTo": { "pieces": ["knight"] },
  "primitives": [
    { "kind": "on-move", "params": { "primitives": [
      { "kind": "add-to-attribute", "params": { "attr": "Steps", "delta": 1 } } ] } }
  ]
}"#;

#[test]
fn list_shows_the_built_in_descriptors() {
    let out = houserules_ok(["list"]);
    let section = out
        .split("Custom modifiers")
        .nth(1)
        .expect("a custom modifiers section");
    for id in [
        "berserker",
        "nomad",
        "decay",
        "re-arm",
        "promotion-feast",
        "stay-as-pawn",
        "panic-mode",
        "berserker-king",
        "vampire",
        "stun-counter",
        "center-bonus",
        "king-row",
        "kamikaze",
        "martyr",
    ] {
        assert!(section.contains(id), "{id} missing from:\n{section}");
    }
    let presets = out.split("Custom modifiers").next().unwrap();
    assert!(
        !presets.contains("berserker"),
        "descriptors are listed apart"
    );
}

#[test]
fn a_modifier_file_is_loaded_listed_and_used() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(&dir, "wanderer.json", WANDERER);
    let out = houserules_ok(["--modifier", &f, "list"]);
    assert!(out.contains("wanderer") && out.contains("Knights count their steps."));
    let fen = houserules_ok(["--modifier", &f, "fen", "--moves", "Nf3 Nc6 Ng5"]);
    assert!(fen.contains("Steps:g5=2,c6=1"), "{fen}");
}

#[test]
fn a_bad_modifier_file_stops_the_command_with_the_json_path() {
    let dir = tempfile::tempdir().unwrap();
    let bad = WANDERER.replace("add-to-attribute", "add-hp");
    let f = write(&dir, "bad.json", &bad);
    for cmd in [
        vec!["list"],
        vec!["fen"],
        vec!["play", "--moves", "e4", "--quiet"],
    ] {
        let mut args = vec!["--modifier", f.as_str()];
        args.extend(cmd.iter().copied());
        let out = houserules(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd:?}: {err}");
        assert!(
            err.contains("$.primitives[0].params.primitives[0].kind") && err.contains("add-hp"),
            "{cmd:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let f = write(
        &dir,
        "v2.json",
        &WANDERER.replace("\"version\": 1", "\"version\": 2"),
    );
    let out = houserules(["--modifier", f.as_str(), "fen"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        err.contains("$.version") && err.contains("version 2"),
        "{err}"
    );
    let f = write(&dir, "broken.json", "{\"version\": 1,\n  \"id\": }");
    let out = houserules(["--modifier", f.as_str(), "fen"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("broken.json:2:"), "{err}");
}

#[test]
fn records_carry_a_modifiers_tag_and_analyze_shows_the_effects() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(&dir, "wanderer.json", WANDERER);
    let rec = dir.path().join("game.pgn");
    let rec = rec.to_str().unwrap();
    houserules_ok([
        "--modifier",
        &f,
        "play",
        "--preset",
        "piece-hp",
        "--preset",
        "nomad",
        "--moves",
        "Nf3 Nc6 Ng5",
        "--out",
        rec,
        "--quiet",
    ]);
    let text = std::fs::read_to_string(rec).unwrap();
    assert!(text.contains("[Presets \"piece-hp\"]"), "{text}");
    assert!(text.contains("[Modifiers \"nomad, wanderer\"]"), "{text}");

    let out = houserules_ok(["--modifier", &f, "analyze", "--jsonl", rec]);
    let g: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(g["errors"].as_array().map(|a| a.len()), Some(0), "{g}");
    let events = g["plies"][2]["events"].as_array().unwrap();
    let notes: Vec<&str> = events.iter().filter_map(|e| e["note"].as_str()).collect();
    assert!(notes.contains(&"wanderer:on-move"), "{events:?}");
    assert!(notes.contains(&"nomad:on-move"), "{events:?}");
    assert!(notes.contains(&"Steps"), "{events:?}");
    assert!(events.iter().any(|e| e["kind"] == "heal"), "{events:?}");
    assert!(g["plies"][2]["fen"]
        .as_str()
        .unwrap()
        .contains("Steps:g5=2,c6=1"));

    // Without the file, the record names a descriptor nobody knows: an error at its tag.
    let out = houserules(["analyze", "--jsonl", rec]);
    assert_eq!(out.status.code(), Some(1));
    let g: Value = serde_json::from_slice(&out.stdout).unwrap();
    let msg = g["errors"][0]["message"].as_str().unwrap();
    assert!(msg.contains("wanderer"), "{msg}");
    let line = g["errors"][0]["line"].as_u64().unwrap() as usize;
    assert!(text
        .lines()
        .nth(line - 1)
        .unwrap()
        .starts_with("[Modifiers"));
}

#[test]
fn a_built_in_descriptor_in_a_record_needs_no_flag() {
    let dir = tempfile::tempdir().unwrap();
    let rec = write(
        &dir,
        "b.pgn",
        "[Modifiers \"berserker\"]\n[Result \"*\"]\n\n1. Nf3 Nc6 2. Ng1 *\n",
    );
    let out = houserules_ok(["analyze", "--jsonl", &rec]);
    let g: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert!(g["plies"][2]["fen"]
        .as_str()
        .unwrap()
        .contains("AttackBonus:g1=2,c6=1"));
}
