//! Pipeline assembly and the generic (hook-driven) path, with plugins linked in-process.

use houserules_chess::ChessPlugin;
use houserules_host::{perft, HostError, Pipeline, PresetSpec, Registry};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    preset_object, root_module, Color, Decision, HookSet, Move, OptionKind, OptionSpec, Options,
    Plugin, PluginManifest, Position, PresetBox, PresetInfo, PresetRules, SquareSet, VariantInfo,
    API_VERSION,
};

/// A preset that implements hooks but never changes anything: it forces the pipeline off
/// the variant's fast path, so the generic path can be checked against perft references.
struct Neutral;

impl PresetRules for Neutral {
    fn should_filter_self_check(&self, _: &Position, _: Color) -> Decision {
        Decision::DEFER
    }
    fn override_piece_moves(&self, _: &Position, _: Color, _: &mut SquareSet, _: &mut RVec<Move>) {}
}

struct Panicky;

impl PresetRules for Panicky {
    fn get_extra_moves(&self, _: &Position, _: Color, _: &mut RVec<Move>) {
        panic!("deliberate failure");
    }
}

fn info(id: &str, requires: &[&str], incompatible: &[&str], hooks: HookSet) -> PresetInfo {
    PresetInfo {
        id: id.into(),
        name: id.into(),
        category: "Test".into(),
        mode: "hooks".into(),
        description: "test preset".into(),
        requires: requires.iter().map(|s| (*s).into()).collect(),
        incompatible_with: incompatible.iter().map(|s| (*s).into()).collect(),
        scope_aware: false,
        options: RVec::new(),
        hooks,
        ..Default::default()
    }
}

struct TestPack;

impl Plugin for TestPack {
    fn manifest() -> PluginManifest {
        let mut counted = info("counted", &[], &[], HookSet::default());
        counted.options.push(OptionSpec {
            key: "count".into(),
            kind: OptionKind::INT,
            default: "2".into(),
            choices: RVec::new(),
            min: 1,
            max: 9,
            description: "a number".into(),
        });
        counted.options.push(OptionSpec::scope("both"));
        PluginManifest {
            api_version: API_VERSION,
            id: "test-pack".into(),
            version: "0.0.0".into(),
            description: "presets for host tests".into(),
            variants: RVec::new(),
            presets: vec![
                info(
                    "neutral",
                    &[],
                    &[],
                    HookSet::SHOULD_FILTER_SELF_CHECK.with(HookSet::OVERRIDE_PIECE_MOVES),
                ),
                info("needs-neutral", &["neutral"], &[], HookSet::default()),
                info("hates-neutral", &[], &["neutral"], HookSet::default()),
                info("panicky", &[], &[], HookSet::GET_EXTRA_MOVES),
                counted,
            ]
            .into_iter()
            .collect(),
        }
    }
    fn new_preset(
        id: &str,
        _options: &Options,
        _variant: &VariantInfo,
    ) -> Result<PresetBox, String> {
        match id {
            "neutral" | "needs-neutral" | "hates-neutral" | "counted" => Ok(preset_object(Neutral)),
            "panicky" => Ok(preset_object(Panicky)),
            _ => Err(format!("no preset {id}")),
        }
    }
}

fn registry() -> Registry {
    let mut r = Registry::default();
    r.add_builtin(root_module::<ChessPlugin>()).unwrap();
    r.add_builtin(root_module::<TestPack>()).unwrap();
    r
}

fn build(presets: &[&str]) -> Result<Pipeline, HostError> {
    let specs: Vec<PresetSpec> = presets.iter().map(|s| s.parse().unwrap()).collect();
    Pipeline::build(&registry(), "chess", None, &specs)
}

fn err(presets: &[&str]) -> String {
    match build(presets) {
        Ok(_) => panic!("expected an error for {presets:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn unknown_variant_suggests_the_nearest() {
    let e = Pipeline::build(&registry(), "chees", None, &[])
        .err()
        .unwrap();
    assert_eq!(
        e.to_string(),
        "unknown variant `chees` (did you mean `chess`?)"
    );
}

#[test]
fn unknown_preset_suggests_the_nearest() {
    assert_eq!(
        err(&["nuetral"]),
        "unknown preset `nuetral` (did you mean `neutral`?)"
    );
}

#[test]
fn unknown_layout_suggests_the_nearest() {
    let e = Pipeline::build(&registry(), "chess", Some("clasic"), &[])
        .err()
        .unwrap();
    assert_eq!(
        e.to_string(),
        "unknown layout `clasic` (did you mean `classic`?)"
    );
}

#[test]
fn missing_requirement_is_refused() {
    assert_eq!(
        err(&["needs-neutral"]),
        "preset `needs-neutral` requires preset `neutral`: add --preset neutral"
    );
}

#[test]
fn requirements_come_first_in_the_pipeline() {
    let p = build(&["needs-neutral", "neutral"]).unwrap();
    let ids: Vec<&str> = p.presets.iter().map(|x| x.info.id.as_str()).collect();
    assert_eq!(ids, ["neutral", "needs-neutral"]);
}

#[test]
fn incompatible_pair_is_refused() {
    assert_eq!(
        err(&["neutral", "hates-neutral"]),
        "presets `neutral` and `hates-neutral` are incompatible"
    );
}

#[test]
fn duplicate_preset_is_refused() {
    assert_eq!(
        err(&["neutral", "neutral"]),
        "preset `neutral` is given twice"
    );
}

#[test]
fn bad_options_are_refused() {
    assert_eq!(
        err(&["counted:count=12"]),
        "preset `counted`: option `count`: 12 is outside 1..=9"
    );
    assert_eq!(
        err(&["counted:count=two"]),
        "preset `counted`: option `count`: `two` is not a whole number"
    );
    assert_eq!(
        err(&["counted:scope=grey"]),
        "preset `counted`: option `scope`: `grey` is not one of white, black, both"
    );
    assert_eq!(
        err(&["counted:cout=3"]),
        "preset `counted`: option `cout`: unknown option (did you mean `count`?)"
    );
    assert_eq!(
        err(&["neutral:x=1"]),
        "preset `neutral`: option `x`: unknown option (this preset takes none)"
    );
    let e = "counted:count"
        .parse::<PresetSpec>()
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "bad preset argument `counted:count`: `count` is not key=value"
    );
}

#[test]
fn options_get_their_defaults() {
    let p = build(&["counted:scope=white"]).unwrap();
    let opts = &p.presets[0].options;
    assert!(opts.contains(&("scope".to_string(), "white".to_string())));
    assert!(opts.contains(&("count".to_string(), "2".to_string())));
}

#[test]
fn a_panicking_preset_is_an_error_not_a_crash() {
    let p = build(&["panicky"]).unwrap();
    let mut moves = RVec::new();
    let e = p
        .start_position()
        .and_then(|pos| p.legal_moves(&pos, &mut moves))
        .unwrap_err()
        .to_string();
    assert!(e.contains("plugin panicked in get_extra_moves"), "{e}");
    assert!(e.contains("deliberate failure"), "{e}");
}

/// The generic path (pseudo-legal generation, every candidate made and tested through the
/// pipeline's attack test, castling paths checked by the host) must agree with the variant's
/// own legal generator on the standard perft suite.
#[test]
fn generic_pipeline_matches_the_fast_path() {
    let plain = build(&[]).unwrap();
    let generic = build(&["neutral"]).unwrap();
    assert!(plain.is_plain());
    assert!(!generic.is_plain());
    for (fen, depth, nodes) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            3,
            8902,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            3,
            97862,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            3,
            9467,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            3,
            62379,
        ),
        (
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            2,
            2079,
        ),
    ] {
        let pos = generic.parse_fen(fen).unwrap();
        assert_eq!(
            perft(&generic, &pos, depth, 1, false).unwrap().nodes,
            nodes,
            "{fen}"
        );
        let pos = plain.parse_fen(fen).unwrap();
        assert_eq!(
            perft(&plain, &pos, depth, 1, false).unwrap().nodes,
            nodes,
            "{fen}"
        );
    }
}

#[test]
fn generic_and_plain_paths_make_the_same_positions() {
    // Walk a few plies of every line and compare the positions both paths produce.
    let plain = build(&[]).unwrap();
    let generic = build(&["neutral"]).unwrap();
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let start = plain.parse_fen(fen).unwrap();
    let mut frontier = vec![start];
    for _ in 0..2 {
        let mut next = Vec::new();
        for pos in &frontier {
            let (mut a, mut b) = (RVec::new(), RVec::new());
            plain.legal_moves(pos, &mut a).unwrap();
            generic.legal_moves(pos, &mut b).unwrap();
            let mut sa: Vec<_> = a
                .iter()
                .map(|m| (m.from, m.to, m.piece, m.flags.0))
                .collect();
            let mut sb: Vec<_> = b
                .iter()
                .map(|m| (m.from, m.to, m.piece, m.flags.0))
                .collect();
            sa.sort();
            sb.sort();
            assert_eq!(sa, sb);
            for &m in a.iter() {
                let mut x = pos.clone();
                let mut y = pos.clone();
                let mut fx = houserules_plugin_api::MoveEffects::new(pos.side_to_move, false);
                plain.apply(&mut x, m, &mut fx).unwrap();
                generic.apply(&mut y, m, &mut fx).unwrap();
                assert_eq!(plain.write_fen(&x).unwrap(), generic.write_fen(&y).unwrap());
                next.push(x);
            }
        }
        frontier = next;
    }
}

/// Layouts with several kings (dual-classic): the chess plugin's own legality (every king
/// royal) and the host's generic path must agree, and only the e-file king castles.
#[test]
fn dual_classic_two_kings_agree_between_paths() {
    let plain = Pipeline::build(&registry(), "chess", Some("dual-classic"), &[]).unwrap();
    let generic = Pipeline::build(
        &registry(),
        "chess",
        Some("dual-classic"),
        &["neutral".parse().unwrap()],
    )
    .unwrap();
    let start = plain.start_position().unwrap();
    for depth in 1..=3 {
        assert_eq!(
            perft(&plain, &start, depth, 1, false).unwrap().nodes,
            perft(&generic, &start, depth, 1, false).unwrap().nodes,
            "depth {depth}"
        );
    }
    // Castling: the e-file king only; moving the d-file king keeps the rights.
    let pos = plain
        .parse_fen("r2kk2r/8/8/8/8/8/8/R2KK2R w KQkq - 0 1")
        .unwrap();
    let mut moves = RVec::new();
    plain.legal_moves(&pos, &mut moves).unwrap();
    let castles: Vec<_> = moves.iter().filter(|m| m.is_castle()).collect();
    assert_eq!(
        castles.len(),
        1,
        "only O-O: the d-file king stands in the way of O-O-O"
    );
    assert_eq!(castles[0].from.file(), 4);
    let d1 = houserules_plugin_api::Square::new(3, 0);
    let kd2 = *moves
        .iter()
        .find(|m| m.from == d1 && m.to == houserules_plugin_api::Square::new(3, 1))
        .unwrap();
    let mut after = pos.clone();
    let mut fx = houserules_plugin_api::MoveEffects::new(Color::White, false);
    plain.apply(&mut after, kd2, &mut fx).unwrap();
    assert_eq!(
        plain.write_fen(&after).unwrap(),
        "r2kk2r/8/8/8/8/8/3K4/R3K2R b KQkq - 1 1"
    );
}

#[test]
fn every_layout_loads() {
    let p = Pipeline::build(&registry(), "chess", None, &[]).unwrap();
    let ids: Vec<String> = p.info.layouts.iter().map(|l| l.id.to_string()).collect();
    assert_eq!(
        ids,
        [
            "classic",
            "dual-classic",
            "knightmate",
            "monster",
            "pawns-only"
        ]
    );
    for id in &ids {
        let p = Pipeline::build(&registry(), "chess", Some(id), &[]).unwrap();
        let pos = p.start_position().unwrap();
        let mut moves = RVec::new();
        p.legal_moves(&pos, &mut moves).unwrap();
        assert!(!moves.is_empty(), "{id}");
        assert_eq!(p.write_fen(&pos).unwrap(), p.layout.fen.as_str(), "{id}");
    }
}
