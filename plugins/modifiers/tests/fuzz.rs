//! Mutated descriptors never crash anything: each mutation of the fourteen examples is either
//! refused by the parser (with a JSON path) or, when valid, plays random games through the
//! real pipeline (with piece-hp, which many of them require) without a plugin panic. Its own
//! test binary, because the plugin reads its descriptor path once per process.

use houserules_chess::ChessPlugin;
use houserules_host::{HostError, Pipeline, PresetSpec, Registry};
use houserules_modifiers::{parse, Modifiers};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{root_module, MoveEffects};
use houserules_presets_v1::PresetsV1;
use houserules_tests::Rng;
use serde_json::{json, Value};

const KINDS: &[&str] = &[
    "on-turn-start",
    "on-capture",
    "on-damaged",
    "on-move",
    "on-turn-end",
    "on-promotion",
    "on-check-received",
    "on-check-delivered",
    "on-moved-onto-square",
    "on-captured",
    "add-to-attribute",
    "seed-attribute",
    "add-aura",
    "set-capture-flag",
    "conditional",
];

/// Replacement values: other kinds, boundaries, wrong types, names of pieces and attributes.
fn random_value(rng: &mut Rng) -> Value {
    match rng.below(14) {
        0 => json!(KINDS[rng.below(KINDS.len())]),
        1 => json!(-1),
        2 => json!(0),
        3 => json!(i64::from(i32::MAX) + 1),
        4 => json!(63),
        5 => json!("Hp"),
        6 => json!("PieceType"),
        7 => json!("queen"),
        8 => json!(null),
        9 => json!(true),
        10 => json!([]),
        11 => json!({}),
        12 => json!("self"),
        _ => json!({"relation": "enemy"}),
    }
}

/// Every path into `v` (object keys and array indices).
fn paths(v: &Value, at: Vec<Value>, out: &mut Vec<Vec<Value>>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let mut p = at.clone();
                p.push(json!(k));
                paths(x, p, out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let mut p = at.clone();
                p.push(json!(i));
                paths(x, p, out);
            }
        }
        _ => {}
    }
}

fn at_mut<'a>(v: &'a mut Value, path: &[Value]) -> Option<&'a mut Value> {
    let mut cur = v;
    for step in path {
        cur = match step {
            Value::String(k) => cur.get_mut(k.as_str())?,
            Value::Number(i) => cur.get_mut(i.as_u64()? as usize)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// One to three structural edits: replace a value, drop a key, duplicate a node.
fn mutate(rng: &mut Rng, doc: &Value) -> Value {
    let mut v = doc.clone();
    for _ in 0..1 + rng.below(3) {
        let mut all = Vec::new();
        paths(&v, Vec::new(), &mut all);
        let path = all[rng.below(all.len())].clone();
        match rng.below(3) {
            0 => {
                if let Some(x) = at_mut(&mut v, &path) {
                    *x = random_value(rng);
                }
            }
            1 => {
                if let (Some((last, parent)), true) = (path.split_last(), !path.is_empty()) {
                    if let (Some(Value::Object(m)), Value::String(k)) =
                        (at_mut(&mut v, parent), last)
                    {
                        m.remove(k.as_str());
                    }
                }
            }
            _ => {
                if let Some(Value::Array(a)) = at_mut(&mut v, &path) {
                    if let Some(first) = a.first().cloned() {
                        a.push(first);
                    }
                }
            }
        }
    }
    v
}

#[test]
fn mutated_descriptors_are_errors_or_playable_never_panics() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let dir = tempfile::tempdir().unwrap();
    let mut valid = Vec::new();
    let mut refused = 0;
    for round in 0..40 {
        for (id, text) in parse::EXAMPLES {
            let doc: Value = serde_json::from_str(text).unwrap();
            let mut m = mutate(&mut rng, &doc);
            let new_id = format!("fz{round}-{id}");
            if let Some(o) = m.as_object_mut() {
                if o.get("id").is_some_and(|x| x.as_str() == Some(id)) {
                    o.insert("id".into(), json!(new_id));
                }
            }
            let text = serde_json::to_string_pretty(&m).unwrap();
            match parse::parse("fuzz.json", &text) {
                Err(e) => {
                    assert!(
                        e.to_string().starts_with("fuzz.json"),
                        "errors name the file: {e}"
                    );
                    refused += 1;
                }
                Ok(d) if d.id == new_id => {
                    std::fs::write(dir.path().join(format!("{new_id}.json")), &text).unwrap();
                    valid.push(new_id);
                }
                Ok(_) => {}
            }
        }
    }
    assert!(
        refused > 100,
        "the mutations reach the validator ({refused})"
    );
    assert!(valid.len() > 50, "and some stay valid ({})", valid.len());

    // The plugin reads its path on first use, in this process only.
    std::env::set_var(houserules_modifiers::PATH_VAR, dir.path());
    let mut reg = Registry::default();
    reg.add_builtin(root_module::<ChessPlugin>()).unwrap();
    reg.add_builtin(root_module::<PresetsV1>()).unwrap();
    reg.add_builtin(root_module::<Modifiers>()).unwrap();
    let mut played = 0;
    for id in &valid {
        let specs: Vec<PresetSpec> = ["piece-hp", id.as_str()]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let p = match Pipeline::build(&reg, "chess", None, &specs) {
            Ok(p) => p,
            // A valid descriptor may name a piece chess does not have: refused, by name.
            Err(HostError::Plugin { message, .. }) => {
                assert!(!message.contains("panicked"), "{id}: {message}");
                continue;
            }
            Err(e) => panic!("{id}: {e}"),
        };
        let mut pos = p.start_position().unwrap();
        let mut moves = RVec::new();
        for _ in 0..30 {
            p.legal_moves(&pos, &mut moves)
                .unwrap_or_else(|e| panic!("{id}: {e}"));
            if moves.is_empty() || p.outcome(&pos, true, false).unwrap().is_some() {
                break;
            }
            let m = moves[rng.below(moves.len())];
            let mut fx = MoveEffects::new(pos.side_to_move, true);
            p.apply(&mut pos, m, &mut fx)
                .unwrap_or_else(|e| panic!("{id}: {e}"));
            p.write_fen(&pos).unwrap();
        }
        played += 1;
    }
    eprintln!("{refused} refused, {} valid, {played} played", valid.len());
    assert!(played > 40, "games played: {played}");
}
