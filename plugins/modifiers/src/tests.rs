//! Every example descriptor played from a concrete FEN, the dispatch order, check edges and
//! the rejection of bad descriptors. In-process: chess, the v1 presets (piece-hp) and this
//! plugin, with `tests/fixtures/` on the descriptor path.

use crate::{Modifiers, Registry};
use houserules_chess::ChessPlugin;
use houserules_host::{HostError, Pipeline, PresetSpec};
use houserules_plugin_api::{root_module, Name, Position};
use houserules_plugin_api::{Event, EventKind, MoveEffects};
use houserules_presets_v1::PresetsV1;
use houserules_tests::kit::{at, find, hp_of, kinds, legal_at, sq};

fn host_registry() -> houserules_host::Registry {
    static ENV: std::sync::Once = std::sync::Once::new();
    ENV.call_once(|| {
        // The plugin reads its path once, on first use: point it at the test fixtures.
        std::env::set_var(
            crate::PATH_VAR,
            concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures"),
        );
    });
    let mut r = houserules_host::Registry::default();
    r.add_builtin(root_module::<ChessPlugin>()).unwrap();
    r.add_builtin(root_module::<PresetsV1>()).unwrap();
    r.add_builtin(root_module::<Modifiers>()).unwrap();
    r
}

fn try_pipe(presets: &[&str]) -> Result<Pipeline, HostError> {
    let specs: Vec<PresetSpec> = presets.iter().map(|s| s.parse().unwrap()).collect();
    Pipeline::build(&host_registry(), "chess", None, &specs)
}

fn pipe(presets: &[&str]) -> Pipeline {
    try_pipe(presets).unwrap_or_else(|e| panic!("{presets:?}: {e}"))
}

/// The position a game from `fen` starts in (presets' and modifiers' setup applied).
fn start(p: &Pipeline, fen: &str) -> Position {
    p.game_start(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Plays moves; returns the position and the events of every move.
fn play(p: &Pipeline, mut position: Position, moves: &[&str]) -> (Position, Vec<Vec<Event>>) {
    let mut all = Vec::new();
    for mv in moves {
        let m = find(p, &position, mv);
        let mut fx = MoveEffects::new(position.side_to_move, true);
        p.apply(&mut position, m, &mut fx).unwrap();
        all.push(fx.events.into_vec());
    }
    (position, all)
}

fn attr(position: &Position, s: &str, name: &str) -> Option<i32> {
    position.attribute(sq(s), Name::new(name).unwrap())
}

fn triggers(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e.kind == EventKind::TRIGGER)
        .map(|e| format!("{}@{}", e.note.as_str(), e.square.name()))
        .collect()
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn berserker_counts_every_move_of_the_piece() {
    let p = pipe(&["berserker"]);
    let (pos, ev) = play(&p, start(&p, START), &["Nf3", "e5", "Ng1", "e4"]);
    assert_eq!(attr(&pos, "g1", "AttackBonus"), Some(2));
    assert_eq!(attr(&pos, "e4", "AttackBonus"), Some(2));
    assert_eq!(attr(&pos, "b1", "AttackBonus"), None);
    assert_eq!(triggers(&ev[0]), ["berserker:on-move@f3"]);
}

#[test]
fn berserker_fires_on_the_castling_rook_too() {
    let p = pipe(&["berserker"]);
    let (pos, ev) = play(
        &p,
        start(&p, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
        &["O-O"],
    );
    assert_eq!(attr(&pos, "g1", "AttackBonus"), Some(1));
    assert_eq!(attr(&pos, "f1", "AttackBonus"), Some(1));
    assert_eq!(attr(&pos, "a1", "AttackBonus"), None);
    assert_eq!(
        triggers(&ev[0]),
        ["berserker:on-move@f1", "berserker:on-move@g1"]
    );
}

#[test]
fn berserker_fires_on_an_en_passant_capture() {
    let p = pipe(&["berserker"]);
    let (pos, _) = play(
        &p,
        start(&p, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1"),
        &["d5", "exd6"],
    );
    assert_eq!(attr(&pos, "d6", "AttackBonus"), Some(1));
    assert_eq!(attr(&pos, "d5", "AttackBonus"), None);
    assert_eq!(at(&p, &pos, "d5"), '.');
}

#[test]
fn nomad_heals_one_per_step() {
    let p = pipe(&["piece-hp", "nomad"]);
    let (pos, ev) = play(&p, start(&p, START), &["Nf3", "Nc6", "Ng5"]);
    assert_eq!(hp_of(&pos, "g5"), Some(4));
    assert_eq!(hp_of(&pos, "c6"), Some(3));
    assert_eq!(hp_of(&pos, "b1"), Some(2));
    assert!(kinds(&ev[2]).contains(&"heal"));
}

#[test]
fn nomad_requires_piece_hp() {
    let e = try_pipe(&["nomad"])
        .err()
        .expect("nomad alone must be refused");
    assert!(e.to_string().contains("requires preset `piece-hp`"), "{e}");
}

#[test]
fn decay_takes_one_hp_from_both_queens_at_every_turn_end() {
    let p = pipe(&["piece-hp", "decay"]);
    let (pos, _) = play(&p, start(&p, START), &["e4"]);
    assert_eq!(hp_of(&pos, "d1"), Some(1));
    assert_eq!(hp_of(&pos, "d8"), Some(1));
    assert_eq!(hp_of(&pos, "e4"), Some(2));
    let (pos, ev) = play(&p, pos, &["e5"]);
    // Second turn end: both queens reach 0 and leave the board.
    assert_eq!(at(&p, &pos, "d1"), '.');
    assert_eq!(at(&p, &pos, "d8"), '.');
    assert_eq!(kinds(&ev[0]).iter().filter(|k| **k == "remove").count(), 2);
}

#[test]
fn re_arm_disarms_a_capturer_for_its_next_turn() {
    let p = pipe(&["re-arm"]);
    let s = start(&p, "4k3/8/3p4/3p4/8/8/8/3RK3 w - - 0 1");
    let (pos, _) = play(&p, s, &["Rxd5"]);
    assert_eq!(attr(&pos, "d5", "CaptureFlag"), Some(1));
    assert_eq!(attr(&pos, "d5", "Reload"), Some(1));
    let (pos, _) = play(&p, pos, &["Kf7"]);
    // Disarmed: the rook may not take d6 this turn, but still moves.
    assert!(!legal_at(&p, &pos).contains(&"d5d6".to_string()));
    assert!(legal_at(&p, &pos).contains(&"d5c5".to_string()));
    let (pos, _) = play(&p, pos, &["Ke2"]);
    // Re-armed at the end of White's turn.
    assert_eq!(attr(&pos, "d5", "CaptureFlag"), None);
    assert_eq!(attr(&pos, "d5", "Reload"), None);
    let (pos, _) = play(&p, pos, &["Ke8"]);
    assert!(legal_at(&p, &pos).contains(&"d5d6".to_string()));
}

#[test]
fn re_arm_leaves_black_alone() {
    let p = pipe(&["re-arm"]);
    let s = start(&p, "4k3/8/8/3r4/8/3P4/8/4K3 b - - 0 1");
    let (pos, _) = play(&p, s, &["Rxd3"]);
    assert_eq!(attr(&pos, "d3", "CaptureFlag"), None);
}

#[test]
fn promotion_feast_gives_five_hp_on_promotion() {
    let p = pipe(&["piece-hp", "promotion-feast"]);
    let (pos, ev) = play(&p, start(&p, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"), &["a8=Q"]);
    assert_eq!(at(&p, &pos, "a8"), 'Q');
    assert_eq!(hp_of(&pos, "a8"), Some(5));
    assert_eq!(triggers(&ev[0]), ["promotion-feast:on-promotion@a8"]);
}

#[test]
fn stay_as_pawn_turns_the_promoted_piece_back() {
    let p = pipe(&["stay-as-pawn"]);
    let (pos, ev) = play(&p, start(&p, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"), &["a8=Q"]);
    assert_eq!(at(&p, &pos, "a8"), 'P');
    assert!(kinds(&ev[0]).contains(&"promotion"));
    assert!(kinds(&ev[0]).contains(&"transform"));
    // The pawn keeps its seeded trigger (it is the same piece).
    assert_eq!(attr(&pos, "a8", "stay-as-pawn"), Some(1));
}

#[test]
fn stay_as_pawn_reverts_underpromotion_too() {
    let p = pipe(&["stay-as-pawn"]);
    let (pos, _) = play(&p, start(&p, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"), &["a8=N"]);
    assert_eq!(at(&p, &pos, "a8"), 'P');
}

#[test]
fn panic_mode_fires_once_per_fresh_check() {
    let p = pipe(&["panic-mode"]);
    let s = start(&p, "4k3/8/8/8/8/8/8/R5K1 w - - 0 1");
    let (pos, ev) = play(&p, s, &["Ra8+"]);
    assert_eq!(attr(&pos, "e8", "Shield"), Some(2));
    assert_eq!(triggers(&ev[0]), ["panic-mode:on-check-received@e8"]);
    // Out of check, then checked anew: a new edge.
    let (pos, ev) = play(&p, pos, &["Kd7", "Ra7+"]);
    assert_eq!(attr(&pos, "d7", "Shield"), Some(4));
    assert_eq!(triggers(&ev[0]), Vec::<String>::new());
    // White's king is never checked: no shield.
    assert_eq!(attr(&pos, "g1", "Shield"), None);
}

#[test]
fn panic_mode_does_not_refire_while_the_king_stays_in_check() {
    // piece-hp: a king with 2 HP or more may stay attacked.
    let p = pipe(&["piece-hp", "panic-mode"]);
    let s = start(&p, "4k3/7p/8/8/8/8/8/R5K1 w - - 0 1 {Hp:e8=3}");
    let (pos, _) = play(&p, s, &["Ra8+"]);
    assert_eq!(attr(&pos, "e8", "Shield"), Some(2));
    // Black ignores the check; White keeps it with another move: no new edge.
    let (pos, ev) = play(&p, pos, &["h6", "Kg2"]);
    assert!(triggers(&ev[0]).is_empty() && triggers(&ev[1]).is_empty());
    assert_eq!(attr(&pos, "e8", "Shield"), Some(2));
    // Broken and given anew: fires again.
    let (pos, ev) = play(&p, pos, &["h5", "Ra7", "h4", "Ra8+"]);
    assert_eq!(triggers(&ev[3]), ["panic-mode:on-check-received@e8"]);
    assert_eq!(attr(&pos, "e8", "Shield"), Some(4));
}

#[test]
fn berserker_king_counts_fresh_checks() {
    let p = pipe(&["berserker-king"]);
    let s = start(&p, "4k3/8/8/8/8/8/8/R5K1 w - - 0 1");
    let (pos, _) = play(&p, s, &["Ra8+", "Kd7", "Ra7+", "Kd6", "Ra6+"]);
    assert_eq!(attr(&pos, "d6", "DamageBonus"), Some(3));
}

#[test]
fn vampire_gains_hp_for_a_fresh_check() {
    let p = pipe(&["piece-hp", "vampire"]);
    let s = start(&p, "4k3/8/8/8/8/8/8/R5K1 w - - 0 1");
    let (pos, ev) = play(&p, s, &["Ra8+"]);
    assert_eq!(hp_of(&pos, "a8"), Some(3));
    assert_eq!(triggers(&ev[0]), ["vampire:on-check-delivered@a8"]);
}

#[test]
fn stun_counter_double_check_fires_on_both_checkers() {
    let p = pipe(&["stun-counter"]);
    let s = start(&p, "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1");
    let (pos, ev) = play(&p, s, &["Nf6+"]);
    assert_eq!(attr(&pos, "f6", "StunCounter"), Some(1));
    assert_eq!(attr(&pos, "e1", "StunCounter"), Some(1));
    // The checked royal: one counter per checker (target "defender").
    assert_eq!(attr(&pos, "e8", "StunCounter"), Some(2));
    assert_eq!(
        triggers(&ev[0]),
        [
            "stun-counter:on-check-delivered@e1",
            "stun-counter:on-check-delivered@e1",
            "stun-counter:on-check-delivered@f6",
            "stun-counter:on-check-delivered@f6"
        ]
    );
}

#[test]
fn stun_counter_discovered_check_is_the_revealed_sliders() {
    let p = pipe(&["stun-counter"]);
    let s = start(&p, "4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1");
    let (pos, _) = play(&p, s, &["Nc5+"]);
    assert_eq!(attr(&pos, "e1", "StunCounter"), Some(1));
    assert_eq!(
        attr(&pos, "c5", "StunCounter"),
        None,
        "the knight gives no check"
    );
    assert_eq!(attr(&pos, "e8", "StunCounter"), Some(1));
}

#[test]
fn center_bonus_heals_on_entering_the_centre() {
    let p = pipe(&["piece-hp", "center-bonus"]);
    let (pos, _) = play(&p, start(&p, START), &["e4", "Nf6", "d4", "Nd5"]);
    assert_eq!(hp_of(&pos, "e4"), Some(3));
    assert_eq!(hp_of(&pos, "d4"), Some(3));
    assert_eq!(hp_of(&pos, "d5"), Some(3));
    let (pos, _) = play(&p, start(&p, START), &["Nf3"]);
    assert_eq!(hp_of(&pos, "f3"), Some(2));
}

#[test]
fn king_row_projects_an_aura_that_follows_the_board() {
    let p = pipe(&["king-row"]);
    let s = start(&p, "4k3/1N6/8/8/8/8/8/R3K3 w - - 0 1");
    let (pos, _) = play(&p, s, &["Ra8+"]);
    assert_eq!(attr(&pos, "b7", "HpBonus"), Some(1));
    assert_eq!(
        attr(&pos, "a8", "HpBonus"),
        None,
        "an aura does not affect its source"
    );
    let (pos, _) = play(&p, pos, &["Ke7"]);
    assert_eq!(attr(&pos, "b7", "HpBonus"), Some(1));
    assert_eq!(
        attr(&pos, "e7", "HpBonus"),
        None,
        "enemies are not affected"
    );
    let (pos, _) = play(&p, pos, &["Nc5"]);
    assert_eq!(
        attr(&pos, "c5", "HpBonus"),
        None,
        "recomputed: out of reach"
    );
}

#[test]
fn kamikaze_hurts_the_attacker_when_it_dies() {
    let p = pipe(&["piece-hp", "kamikaze"]);
    let s = start(&p, "4k3/8/8/8/8/8/3p4/3QK3 w - - 0 1 {Hp:d2=1}");
    let (pos, ev) = play(&p, s, &["Qxd2"]);
    // The pawn dies (1 HP); its death rattle takes the queen's 2 HP: the queen is removed.
    assert_eq!(at(&p, &pos, "d2"), '.');
    assert_eq!(triggers(&ev[0]), ["kamikaze:on-captured@d2"]);
    assert!(kinds(&ev[0]).contains(&"remove"));
}

#[test]
fn kamikaze_does_not_fire_on_a_survivor() {
    let p = pipe(&["piece-hp", "kamikaze"]);
    let s = start(&p, "4k3/8/8/8/8/8/3p4/3QK3 w - - 0 1");
    let (pos, ev) = play(&p, s, &["Qxd2"]);
    assert_eq!(at(&p, &pos, "d2"), 'Q');
    assert_eq!(hp_of(&pos, "d2"), Some(2));
    assert!(triggers(&ev[0]).is_empty());
}

#[test]
fn martyr_heals_the_allied_queens_on_death() {
    let p = pipe(&["piece-hp", "martyr"]);
    let s = start(&p, "3qk3/8/8/8/8/8/3p4/3QK3 w - - 0 1 {Hp:d2=1}");
    let (pos, ev) = play(&p, s, &["Qxd2"]);
    assert_eq!(hp_of(&pos, "d8"), Some(3), "the dead pawn's allied queen");
    assert_eq!(hp_of(&pos, "d2"), Some(2), "the enemy queen is not an ally");
    assert_eq!(triggers(&ev[0]), ["martyr:on-captured@d2"]);
}

#[test]
fn turn_end_decay_runs_before_turn_start_heal() {
    let p = pipe(&["piece-hp", "order-decay-heal"]);
    // 1 HP: the end-of-turn decay removes the rook before any heal can save it.
    let s = start(&p, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 {Hp:a1=1}");
    let (pos, _) = play(&p, s, &["Kd2"]);
    assert_eq!(at(&p, &pos, "a1"), '.');
    // 2 HP: decay to 1, then heal back to 2.
    let s = start(&p, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    let (pos, ev) = play(&p, s, &["Kd2"]);
    assert_eq!(hp_of(&pos, "a1"), Some(2));
    let order: Vec<&str> = kinds(&ev[0])
        .into_iter()
        .filter(|k| *k == "damage" || *k == "heal")
        .collect();
    assert_eq!(order, ["damage", "heal"]);
}

#[test]
fn on_damaged_sees_capture_damage() {
    let p = pipe(&["piece-hp", "thorns"]);
    let s = start(&p, "4k3/8/8/8/8/8/3r4/3QK3 w - - 0 1");
    let (pos, ev) = play(&p, s, &["Qxd2"]);
    // The rook survives with 1 HP, pushed off d2; the damage is seen at stage 2.
    let rook = pos
        .squares()
        .find(|&s| at(&p, &pos, &s.name()) == 'r')
        .unwrap();
    assert_eq!(
        pos.attribute(rook, houserules_plugin_api::attr::HP),
        Some(1)
    );
    assert_eq!(pos.attribute(rook, Name::new("Wounds").unwrap()), Some(1));
    assert_eq!(
        triggers(&ev[0]),
        [format!("thorns:on-damaged@{}", rook.name())]
    );
}

#[test]
fn nested_trigger_is_seeded_when_its_parent_fires() {
    let p = pipe(&["veteran"]);
    let s = start(&p, "4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1");
    let (pos, _) = play(&p, s, &["Kf2"]);
    assert_eq!(
        attr(&pos, "d1", "Steps"),
        None,
        "no capture yet: no step counter"
    );
    let (pos, _) = play(&p, pos, &["Kd7", "Rxd5+"]);
    // Seeded at stage 3, the on-move trigger fires at stage 6 of the same move.
    assert_eq!(attr(&pos, "d5", "Steps"), Some(1));
    assert_eq!(attr(&pos, "d5", "Veteran"), None);
    let (pos, _) = play(&p, pos, &["Ke7", "Rd4"]);
    assert_eq!(attr(&pos, "d4", "Steps"), Some(2));
    // The top-level conditional (stage 10) marks it.
    assert_eq!(attr(&pos, "d4", "Veteran"), Some(1));
    assert_eq!(attr(&pos, "f2", "Steps"), None);
}

#[test]
fn seeding_happens_once_and_round_trips_through_fen() {
    let p = pipe(&["berserker"]);
    let pos = start(&p, START);
    let fen = p.write_fen(&pos).unwrap();
    assert!(fen.contains("@berserker.seeded=1"), "{fen}");
    assert!(fen.contains("berserker:a1=1"), "{fen}");
    let again = start(&p, &fen);
    assert_eq!(p.write_fen(&again).unwrap(), fen);
}

#[test]
fn applies_to_selects_by_role_colour_and_square() {
    let p = pipe(&["re-arm"]);
    let pos = start(&p, START);
    assert_eq!(attr(&pos, "a1", "re-arm"), Some(3));
    assert_eq!(attr(&pos, "a8", "re-arm"), None);
    let p = pipe(&["piece-hp", "decay"]);
    let pos = start(&p, START);
    assert!(attr(&pos, "d1", "decay").is_some() && attr(&pos, "d8", "decay").is_some());
    assert_eq!(attr(&pos, "e1", "decay"), None);
}

#[test]
fn perft_with_a_modifier_matches_plain_chess() {
    // Counting moves is unchanged by a modifier that only counts (berserker).
    let p = pipe(&["berserker"]);
    let n = houserules_host::perft(&p, &start(&p, START), 3, 1, false)
        .unwrap()
        .nodes;
    assert_eq!(n, 8902);
}

#[test]
fn pacman_style_wraps_the_board_as_wrap_board_does() {
    // The modifier sibling of wrap-board: the same rules model, the same moves and counts.
    let m = pipe(&["pacman-style"]);
    let w = pipe(&["wrap-board"]);
    assert!(m.is_plain() && m.model().is_some_and(|x| x.topology.wrap_files));
    let f = "4k3/8/8/8/R7/8/8/4K3 w - - 0 1";
    let l = legal_at(&m, &start(&m, f));
    assert!(l.contains(&"a4h4".to_string()), "{l:?}");
    for fen in [
        START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ] {
        let a = houserules_host::perft(&m, &start(&m, fen), 3, 1, false)
            .unwrap()
            .nodes;
        let b = houserules_host::perft(&w, &start(&w, fen), 3, 1, false)
            .unwrap()
            .nodes;
        assert_eq!(a, b, "{fen}");
    }
    // Check across the seam, and it combines with a counting modifier and with piece-hp.
    let p = pipe(&["pacman-style", "berserker"]);
    let pos = start(&p, "8/8/8/8/Rp5k/8/8/4K3 b - - 0 1");
    assert!(p
        .royal_attacked(&pos, houserules_plugin_api::Color::Black)
        .unwrap());
    let p = pipe(&["piece-hp", "pacman-style"]);
    let (after, _) = play(&p, start(&p, "4k3/8/8/8/R6r/8/8/4K3 w - - 0 1"), &["a4h4"]);
    // Captured across the seam: the attacker lands, the survivor is pushed north.
    assert_eq!(at(&p, &after, "h4"), 'R');
    assert_eq!(at(&p, &after, "h5"), 'r');
}

#[test]
fn set_board_topology_only_at_the_top_level() {
    let nested = r#"{"version":1,"id":"x","primitives":[{"kind":"on-move","params":{"primitives":[
        {"kind":"set-board-topology","params":{"topology":"wrap-files"}}]}}]}"#;
    let r = Registry::from_sources(&[("n.json".into(), Ok(nested.to_string()))]);
    let e = r.entries[0].descriptor.as_ref().unwrap_err();
    assert!(
        e.contains("$.primitives[0].params.primitives[0]") && e.contains("top-level"),
        "{e}"
    );
    let unknown = r#"{"version":1,"id":"x","primitives":[
        {"kind":"set-board-topology","params":{"topology":"torus"}}]}"#;
    let r = Registry::from_sources(&[("u.json".into(), Ok(unknown.to_string()))]);
    let e = r.entries[0].descriptor.as_ref().unwrap_err();
    assert!(
        e.contains("$.primitives[0].params.topology") && e.contains("`torus`"),
        "{e}"
    );
}

#[test]
fn every_example_is_in_the_manifest_with_its_needs() {
    let r = Registry::from_env();
    let info = |id: &str| Registry::preset_info(r.entries.iter().find(|e| e.id == id).unwrap());
    use houserules_plugin_api::HookSet;
    assert!(info("panic-mode").hooks.contains(HookSet::AFTER_MOVE_QUERY));
    assert!(!info("berserker").hooks.contains(HookSet::AFTER_MOVE_QUERY));
    assert!(info("re-arm").hooks.contains(HookSet::FILTER_LEGAL_MOVES));
    assert_eq!(info("nomad").requires.len(), 1);
    assert!(info("berserker").requires.is_empty());
    assert!(info("pacman-style")
        .hooks
        .contains(HookSet::TRANSFORM_MODEL));
    assert!(!info("berserker").hooks.contains(HookSet::TRANSFORM_MODEL));
    assert_eq!(crate::parse::EXAMPLES.len(), 15);
    for (id, _) in crate::parse::EXAMPLES {
        let i = info(id);
        assert_eq!(i.category.as_str(), "Custom Modifier");
        assert_eq!(i.extra_value("error"), None, "{id}");
    }
}

const BAD: &[(&str, &str, &str)] = &[
    (
        "too-deep",
        r#"{"version":1,"id":"x","primitives":[{"kind":"on-move","params":{"primitives":[
            {"kind":"conditional","params":{"if":{"inCheck":true},"then":[
              {"kind":"conditional","params":{"if":{"inCheck":true},"then":[
                {"kind":"add-to-attribute","params":{"attr":"A","delta":1}}]}}]}}]}}]}"#,
        "$.primitives[0].params.primitives[0].params.then[0].params.then[0]",
    ),
    (
        "unknown-kind",
        r#"{"version":1,"id":"x","primitives":[{"kind":"on-move","params":{"primitives":[
            {"kind":"add-hp","params":{}}]}}]}"#,
        "$.primitives[0].params.primitives[0].kind",
    ),
    (
        "wrong-type",
        r#"{"version":1,"id":"x","primitives":[{"kind":"on-move","params":{"primitives":[
            {"kind":"add-to-attribute","params":{"attr":"Hp","delta":"one"}}]}}]}"#,
        "$.primitives[0].params.primitives[0].params.delta",
    ),
    (
        "version-2",
        r#"{"version":2,"id":"x","primitives":[]}"#,
        "$.version",
    ),
];

#[test]
fn bad_descriptors_are_refused_with_their_json_path() {
    for (name, text, path) in BAD {
        let r = Registry::from_sources(&[(format!("{name}.json"), Ok(text.to_string()))]);
        let e = r.entries[0].descriptor.as_ref().expect_err(name);
        assert!(e.contains(path), "{name}: {e}");
        assert!(e.starts_with(&format!("{name}.json: ")), "{name}: {e}");
        let info = Registry::preset_info(&r.entries[0]);
        assert!(info.extra_value("error").is_some());
    }
    // Too many nodes.
    let many: Vec<String> = (0..51)
        .map(|_| r#"{"kind":"set-capture-flag","params":{"flag":0}}"#.to_string())
        .collect();
    let text = format!(
        r#"{{"version":1,"id":"x","primitives":[{}]}}"#,
        many.join(",")
    );
    let r = Registry::from_sources(&[("many.json".into(), Ok(text))]);
    let e = r.entries[0].descriptor.as_ref().err().unwrap();
    assert!(e.contains("51") && e.contains("50"), "{e}");
}

#[test]
fn a_duplicate_id_is_an_error_entry() {
    let d = r#"{"version":1,"id":"dup","primitives":[{"kind":"set-capture-flag","params":{"flag":0}}]}"#;
    let r = Registry::from_sources(&[
        ("a.json".into(), Ok(d.to_string())),
        ("b.json".into(), Ok(d.to_string())),
    ]);
    assert!(r.entries[0].descriptor.is_ok());
    let e = r.entries[1].descriptor.as_ref().err().unwrap();
    assert!(e.contains("already the id of a.json"), "{e}");
    assert_ne!(r.entries[0].id, r.entries[1].id);
}

#[test]
fn a_descriptor_naming_a_missing_piece_cannot_start_a_game() {
    let d = r#"{"version":1,"id":"wazir-fan","appliesTo":{"pieces":["wazir"]},"primitives":[{"kind":"set-capture-flag","params":{"flag":0}}]}"#;
    let r = Registry::from_sources(&[("w.json".into(), Ok(d.to_string()))]);
    let desc = r.entries[0].descriptor.clone().unwrap();
    let info = pipe(&[]).info;
    let e = crate::engine::Modifier::new(desc, &info).err().unwrap();
    assert!(
        e.contains("$.appliesTo.pieces") && e.contains("wazir"),
        "{e}"
    );
}

#[test]
fn on_captured_reads_the_defender_as_it_was() {
    let p = pipe(&["bounty"]);
    let s = start(&p, "4k3/8/8/8/8/2p5/3p4/3QK3 w - - 0 1 {Bounty:d2=1}");
    let (pos, ev) = play(&p, s.clone(), &["Qxd2"]);
    assert_eq!(
        attr(&pos, "d2", "Gold"),
        Some(1),
        "the dead pawn had a bounty"
    );
    assert_eq!(triggers(&ev[0]), ["bounty:on-captured@d2"]);
    let s2 = start(&p, "4k3/8/8/8/8/2p5/3Q4/4K3 w - - 0 1 {Bounty:d2=1}");
    let (pos, _) = play(&p, s2, &["Qxc3"]);
    assert_eq!(attr(&pos, "c3", "Gold"), None, "no bounty on c3");
}

#[test]
fn check_edges_see_attacks_of_other_presets() {
    // On a cylinder the rook on h4 checks the king on a4 across the seam (the b4 pawn blocks
    // the rank the other way): the check is the
    // pipeline's, not plain chess's.
    let p = pipe(&["wrap-board", "stun-counter"]);
    let s = start(&p, "8/8/8/8/kp6/8/8/4K2R w - - 0 1");
    let (pos, ev) = play(&p, s, &["Rh4+"]);
    assert_eq!(attr(&pos, "h4", "StunCounter"), Some(1));
    assert_eq!(attr(&pos, "a4", "StunCounter"), Some(1));
    assert_eq!(
        triggers(&ev[0]),
        [
            "stun-counter:on-check-delivered@h4",
            "stun-counter:on-check-delivered@h4"
        ]
    );
    let p = pipe(&["stun-counter"]);
    let s = start(&p, "8/8/8/8/kp6/8/8/4K2R w - - 0 1");
    let (pos, _) = play(&p, s, &["Rh4"]);
    assert_eq!(
        attr(&pos, "h4", "StunCounter"),
        None,
        "no seam in plain chess"
    );
}
