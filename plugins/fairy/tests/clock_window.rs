//! Fairy-Stockfish's repetition looks back only to the last reset of the halfmove clock
//! (`VariantFlags::REPETITION_SINCE_CLOCK_RESET`), through the BUILT plugin and the host
//! library: in `andersanti` a side whose only piece is a blocked pawn passes with it
//! (`e4e4`), a pawn move that resets the clock and moves nothing, so the position before it
//! can come back without counting. Every expected result is pyffish 0.0.90's
//! (`is_optional_game_end` after each ply, with `fsf-variants.ini` loaded).

use houserules_host::engine::{Engine, EngineConfig, Score};
use houserules_host::{Game, Pipeline, Registry};
use houserules_tests::play_text;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

const SECTIONS: &str = "[andersanti:antichess]\npassOnStalemate = true\n";

/// White's only piece is the blocked pawn: its pass is White's one legal move.
const PASSING: &str = "k7/8/8/4p3/4P3/8/8/8 w - - 0 1";
/// The same with a white king, which moves instead: no pass, no reset.
const SHUFFLING: &str = "k7/8/8/4p3/4P3/8/8/7K w - - 0 1";

/// The built plugins, the fairy plugin also reading `SECTIONS` (set once, before the plugin
/// first loads in this process).
fn pipeline() -> &'static Pipeline {
    static REG: OnceLock<Registry> = OnceLock::new();
    static P: OnceLock<Pipeline> = OnceLock::new();
    P.get_or_init(|| {
        let reg = REG.get_or_init(|| {
            let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("clock_window.ini");
            std::fs::write(&path, SECTIONS).expect("write ini");
            std::env::set_var(houserules_fairy::PATH_VAR, &path);
            houserules_tests::registry()
        });
        Pipeline::build(reg, "andersanti", None, &[]).expect("andersanti loads")
    })
}

/// The ply after which each position of `moves` from `fen` has a result (draw or not).
fn results(fen: &str, moves: &[&str]) -> Vec<Option<String>> {
    let p = pipeline();
    let mut game = Game::new(p, p.game_start(fen).expect("fen"));
    let mut out = Vec::new();
    for m in moves {
        play_text(&mut game, m).expect("legal");
        let s = game.status().expect("status");
        out.push(
            s.outcome
                .map(|o| format!("{} {}", o.winner.pgn(), o.reason))
                .or(s.claimable),
        );
    }
    out
}

#[test]
fn a_pass_that_resets_the_clock_starts_the_repetition_count_again() {
    // Black's king goes a8-b8-a8 three times while White passes: the position with the
    // king on a8 and White to move occurs four times, each after a reset of the clock.
    let cycle = ["e4e4", "a8b8", "e4e4", "b8a8"];
    let moves: Vec<&str> = cycle.iter().cycle().take(12).copied().collect();
    assert_eq!(results(PASSING, &moves), vec![None; 12]);
}

#[test]
fn without_the_pass_the_same_cycle_is_a_threefold_repetition() {
    let cycle = ["h1g1", "a8b8", "g1h1", "b8a8"];
    let moves: Vec<&str> = cycle.iter().cycle().take(8).copied().collect();
    let mut want = vec![None; 8];
    want[7] = Some("1/2-1/2 n-fold-repetition".to_string());
    assert_eq!(results(SHUFFLING, &moves), want);
}

#[test]
fn the_engine_sees_no_repetition_across_the_reset() {
    // Black to move, its king on b8, the eval against it: Kb8-a8 would make the third
    // occurrence of the a8 position if the passes did not restart the count. The engine
    // must not score that move as the draw it is not.
    let p = pipeline();
    let mut game = Game::new(p, p.game_start(PASSING).expect("fen"));
    for m in ["e4e4", "a8b8", "e4e4", "b8a8", "e4e4", "a8b8", "e4e4"] {
        play_text(&mut game, m).expect("legal");
    }
    let mut engine = Engine::new(p, EngineConfig::default()).expect("engine");
    let stop = AtomicBool::new(false);
    for depth in 1..=3 {
        let limits = format!("depth={depth}").parse().expect("limits");
        let r = engine
            .search(&game, &limits, &stop, &mut |_| {})
            .expect("search");
        assert_ne!(r.score, Score::Cp(0), "depth {depth}: {r:?}");
    }
}
