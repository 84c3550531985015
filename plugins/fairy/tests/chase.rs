//! Xiangqi's chase rule (`chasingRule = axf`) against Fairy-Stockfish, through the BUILT
//! plugin and the host library.
//!
//! * `chased_pieces_agree`: after every move of recorded random games, the pieces the move
//!   chases (the variant's move mark, API 1.5) equal the `Chased:` squares of Fairy-Stockfish's
//!   `d` command (`tools/fsf-diff/chased.py` records them into `tests/data/xiangqi_chased.json`).
//!   Drops (`xiangqihouse`) are left out: Fairy-Stockfish reads a drop's origin square past
//!   its tables (`crate::chasing` in the plugin; the unit tests there fix what a drop chases),
//!   but the other moves of those games, with pieces in hand, are compared.
//! * `repetitions_end_as_fairy_stockfish_says`: whole games ending by repetition (perpetual
//!   chase, mutual chase, chase and check, a chase of a protected piece, a cycle in which the
//!   chased piece changes), with the results pyffish 0.0.90 gives for them.

use houserules_host::notation::parse_move;
use houserules_host::{Game, Pipeline, Registry};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::OnceLock;

fn fixture() -> &'static Value {
    static DATA: OnceLock<Value> = OnceLock::new();
    DATA.get_or_init(|| {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/xiangqi_chased.json"
        );
        let text = std::fs::read_to_string(path).expect("xiangqi_chased.json");
        serde_json::from_str(&text).expect("json")
    })
}

/// The built plugins, the fairy plugin also reading the fixture's sections (set once, before
/// the plugin first loads in this process).
fn registry() -> Registry {
    static INI: OnceLock<PathBuf> = OnceLock::new();
    INI.get_or_init(|| {
        let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("xiangqi_chased.ini");
        std::fs::write(&path, fixture()["ini"].as_str().unwrap_or("")).expect("write ini");
        std::env::set_var(houserules_fairy::PATH_VAR, &path);
        path
    });
    houserules_tests::registry()
}

#[test]
fn chased_pieces_agree() {
    let reg = registry();
    let mut bad = Vec::new();
    let (mut plies, mut marked, mut drops) = (0, 0, 0);
    let games = fixture()["games"].as_array().expect("games");
    assert!(!games.is_empty());
    let mut pipelines = std::collections::HashMap::new();
    for (g, rec) in games.iter().enumerate() {
        let variant = rec["variant"].as_str().expect("variant");
        let p = pipelines
            .entry(variant.to_string())
            .or_insert_with(|| Pipeline::build(&reg, variant, None, &[]).expect("variant loads"));
        let mut pos = p.start_position().expect("start");
        let legal_of = |pos: &houserules_plugin_api::Position| {
            let mut v = houserules_plugin_api::abi_stable::std_types::RVec::new();
            p.legal_moves(pos, &mut v).expect("legal moves");
            v
        };
        let moves = rec["moves"].as_array().expect("moves");
        for (i, m) in moves.iter().enumerate() {
            let text = m.as_str().expect("move");
            let legal = legal_of(&pos);
            let mv = parse_move(p, &pos, text, &legal).expect("legal move");
            let before = pos.clone();
            let mut fx = houserules_plugin_api::MoveEffects::new(pos.side_to_move, false);
            p.apply(&mut pos, mv, &mut fx).expect("apply");
            let mark = p.move_mark(&before, mv, &pos).expect("mark");
            let mut ours: Vec<String> = mark.iter().map(|s| s.to_string()).collect();
            ours.sort();
            let mut fsf: Vec<String> = rec["chased"][i]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect();
            fsf.sort();
            if mv.is_drop() {
                drops += 1;
                continue;
            }
            plies += 1;
            marked += !fsf.is_empty() as usize;
            if ours != fsf {
                bad.push(format!(
                    "{variant} game {g} ply {} ({text}): houserules {ours:?} / FSF {fsf:?}",
                    i + 1
                ));
            }
        }
    }
    assert!(marked > 50, "too few chases recorded ({marked})");
    assert!(drops > 20, "too few drops played ({drops})");
    assert!(
        bad.is_empty(),
        "{} of {plies} plies disagree:\n{}",
        bad.len(),
        bad.iter().take(20).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Plays `moves` from `fen` in `variant`; the status at the end (the game must not end
/// before).
fn end_of(
    reg: &Registry,
    variant: &str,
    fen: &str,
    moves: &str,
) -> (Option<String>, Option<String>) {
    let p = Pipeline::build(reg, variant, None, &[]).expect("variant loads");
    let mut game = Game::new(&p, p.parse_fen(fen).expect("fen"));
    let list: Vec<&str> = moves.split_whitespace().collect();
    for (i, m) in list.iter().enumerate() {
        let st = game.status().expect("status");
        assert!(
            st.outcome.is_none(),
            "{variant}: game over before ply {} ({m}): {:?}",
            i + 1,
            st.outcome
        );
        houserules_tests::play_text(&mut game, m).expect("move");
    }
    let st = game.status().expect("status");
    (
        st.outcome.as_ref().map(|o| o.winner.pgn().to_string()),
        st.outcome.as_ref().map(|o| o.reason.to_string()),
    )
}

#[test]
fn repetitions_end_as_fairy_stockfish_says() {
    let reg = registry();
    for case in fixture()["repetitions"].as_array().expect("repetitions") {
        let variant = case["variant"].as_str().expect("variant");
        let name = case["name"].as_str().expect("name");
        let (result, reason) = end_of(
            &reg,
            variant,
            case["fen"].as_str().expect("fen"),
            case["moves"].as_str().expect("moves"),
        );
        let want = case["result"].as_str().map(str::to_string);
        assert_eq!(result, want, "{name}: result ({reason:?})");
        if let Some(r) = case["reason"].as_str() {
            assert_eq!(reason.as_deref(), Some(r), "{name}: reason");
        }
    }
}
