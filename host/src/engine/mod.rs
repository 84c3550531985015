//! The search engine over a pipeline: `houserules plays` any rule set the plugins assemble.
//!
//! # API
//!
//! ```text
//! Engine::new(&pipeline, EngineConfig { threads, hash_mb })   // Default: 1 thread, 16 MB
//! engine.new_game()                                           // clears the TT and history
//! engine.search(&game, &limits, &stop, &mut |info| ..)       // -> SearchResult
//! engine.analyse(&game, &limits, &focus, &stop, &mut |info| ..)  // several lines, chosen moves
//! "depth=8,movetime=1000".parse::<Limits>()                   // also nodes=, time=, inc=,
//!                                                             // movestogo=, mate=, infinite
//! ```
//!
//! - [`Score`] is from the side to move: `Cp(centipawns)` or `Mate(n)` (mate in `n` moves of
//!   the side to move; negative: it gets mated). Moves are counted as turns, so a double-move
//!   turn is one move.
//! - `on_info` is called after every completed depth of the main thread ([`SearchInfo`]).
//! - [`SearchResult::best`] is `None` only when the side to move has no legal move; a search
//!   stopped by `stop` (or any limit) returns the best move found so far.
//! - Lazy SMP: `threads` threads share the transposition table and the `&Pipeline` (it is
//!   `Sync`: plugins' rule objects are `Send + Sync` by the plugin API).
//! - Results inside the tree are the pipeline's (royals, the variant, presets, with the
//!   game's repetition counts and perpetual-check facts), then the host's n-fold and n-move
//!   rules as [`Game::status`] applies them; a claimable draw counts as a draw, and a position
//!   repeated within the search as the draw it can be made into.
//!
//! The search itself (`houserules-search`) knows no rules; `adapter` is its view of a
//! pipeline and [`eval`] the static evaluation.

mod adapter;
pub mod bench;
pub mod eval;
pub mod player;
pub mod skill;

use crate::error::HostError;
use crate::game::Game;
use crate::pipeline::Pipeline;
use adapter::PipelineGame;
use eval::Evaluation;
use houserules_plugin_api::Move;
use houserules_search::{mate_in, Budget, Report, Searcher};

/// What a search looks at beyond the best move (UCI `MultiPV`, `go searchmoves`): how many
/// best lines, and which root moves (empty: all).
pub type Focus = houserules_search::Focus<Move>;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How the engine is set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineConfig {
    /// Search threads (lazy SMP), at least 1.
    pub threads: usize,
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            threads: 1,
            hash_mb: 16,
        }
    }
}

/// A score from the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in `n` moves (negative: the side to move gets mated in `-n`).
    Mate(i32),
}

impl Score {
    fn from_search(s: i32) -> Score {
        match mate_in(s) {
            Some(n) => Score::Mate(n),
            None => Score::Cp(s),
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Score::Cp(cp) => write!(f, "{:+.2}", cp as f64 / 100.0),
            Score::Mate(n) if n >= 0 => write!(f, "#{n}"),
            Score::Mate(n) => write!(f, "#-{}", -n),
        }
    }
}

/// Time on the clock of the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub remaining: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves to the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// When to stop searching. With nothing set the search goes on until stopped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Nodes (all threads).
    pub nodes: Option<u64>,
    /// Time for this move.
    pub movetime: Option<Duration>,
    /// Clock time (the engine chooses how much to use).
    pub clock: Option<Clock>,
    /// Search until stopped (other limits still apply, as in UCI `go infinite depth`).
    pub infinite: bool,
    /// Stop once a mate in this many moves or fewer is found (UCI `go mate N`).
    pub mate: Option<u32>,
}

/// A `Limits` text that does not parse: the field and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("engine limits: field `{field}`: {reason}")]
pub struct LimitsError {
    /// The field as written.
    pub field: String,
    /// What is wrong.
    pub reason: String,
}

impl std::str::FromStr for Limits {
    type Err = LimitsError;

    /// `key=value` fields separated by commas: `depth=N`, `nodes=N`, `movetime=MS`,
    /// `time=MS`, `inc=MS`, `movestogo=N`, `mate=N`, and `infinite`.
    fn from_str(s: &str) -> Result<Limits, LimitsError> {
        let mut limits = Limits::default();
        let mut time = None;
        let mut inc = None;
        let mut to_go = None;
        for field in s.split(',').map(str::trim).filter(|f| !f.is_empty()) {
            let err = |reason: &str| LimitsError {
                field: field.to_string(),
                reason: reason.to_string(),
            };
            if field == "infinite" {
                limits.infinite = true;
                continue;
            }
            let Some((key, value)) = field.split_once('=') else {
                return Err(err(
                    "expected key=value (depth, nodes, movetime, time, inc, movestogo, mate) or infinite",
                ));
            };
            let number = |what: &str| -> Result<u64, LimitsError> {
                value
                    .trim()
                    .parse::<u64>()
                    .map_err(|_| err(&format!("`{value}` is not a whole number of {what}")))
            };
            match key.trim() {
                "depth" => {
                    let d = number("plies")?;
                    if d == 0 || d > 100 {
                        return Err(err("depth must be 1 to 100"));
                    }
                    limits.depth = Some(d as u32);
                }
                "nodes" => {
                    let n = number("nodes")?;
                    if n == 0 {
                        return Err(err("nodes must be at least 1"));
                    }
                    limits.nodes = Some(n);
                }
                "mate" => {
                    let n = number("moves")?;
                    if n == 0 || n > 500 {
                        return Err(err("mate must be 1 to 500 moves"));
                    }
                    limits.mate = Some(n as u32);
                }
                "movetime" => limits.movetime = Some(Duration::from_millis(number("ms")?)),
                "time" => time = Some(Duration::from_millis(number("ms")?)),
                "inc" => inc = Some(Duration::from_millis(number("ms")?)),
                "movestogo" => {
                    let n = number("moves")?;
                    if n == 0 || n > u32::MAX as u64 {
                        return Err(err("movestogo must be at least 1"));
                    }
                    to_go = Some(n as u32);
                }
                _ => return Err(err(
                    "unknown field (depth, nodes, movetime, time, inc, movestogo, mate, infinite)",
                )),
            }
        }
        if let Some(remaining) = time {
            limits.clock = Some(Clock {
                remaining,
                increment: inc.unwrap_or_default(),
                moves_to_go: to_go,
            });
        } else if inc.is_some() || to_go.is_some() {
            return Err(LimitsError {
                field: if inc.is_some() { "inc" } else { "movestogo" }.to_string(),
                reason: "needs time=MS (the clock's remaining time)".to_string(),
            });
        }
        Ok(limits)
    }
}

impl std::fmt::Display for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(t) = self.movetime {
            parts.push(format!("movetime={}", t.as_millis()));
        }
        if let Some(c) = self.clock {
            parts.push(format!("time={}", c.remaining.as_millis()));
            if !c.increment.is_zero() {
                parts.push(format!("inc={}", c.increment.as_millis()));
            }
            if let Some(m) = c.moves_to_go {
                parts.push(format!("movestogo={m}"));
            }
        }
        if let Some(m) = self.mate {
            parts.push(format!("mate={m}"));
        }
        if self.infinite {
            parts.push("infinite".to_string());
        }
        write!(f, "{}", parts.join(","))
    }
}

impl Limits {
    fn budget(&self) -> Budget {
        let mut b = Budget {
            depth: self.depth,
            nodes: self.nodes,
            soft_time: None,
            hard_time: None,
            mate: self.mate,
        };
        if self.infinite {
            return b;
        }
        if let Some(t) = self.movetime {
            b.hard_time = Some(t);
        }
        if let Some(c) = self.clock {
            let (soft, hard) = Budget::for_clock(c.remaining, c.increment, c.moves_to_go);
            b.soft_time = Some(soft);
            b.hard_time = Some(b.hard_time.map_or(hard, |t| t.min(hard)));
        }
        b
    }
}

/// A report after each completed depth (one per line when several are asked for).
#[derive(Debug, Clone)]
pub struct SearchInfo {
    /// The line's rank from 1, the best (UCI `multipv`); 1 with one line.
    pub line: u32,
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score from the side to move.
    pub score: Score,
    /// Nodes (all threads).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct SearchResult {
    /// Best move (`None` only without a legal move).
    pub best: Option<Move>,
    /// Expected reply.
    pub ponder: Option<Move>,
    /// Score from the side to move.
    pub score: Score,
    /// Deepest depth completed.
    pub depth: u32,
    /// Nodes (all threads).
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
}

fn nps(nodes: u64, time: Duration) -> u64 {
    let us = time.as_micros().max(1) as u64;
    nodes.saturating_mul(1_000_000) / us
}

/// The engine of one pipeline.
pub struct Engine<'p> {
    pipeline: &'p Pipeline,
    eval: Evaluation,
    searcher: Searcher,
}

impl<'p> Engine<'p> {
    /// An engine playing by `pipeline`'s rules.
    pub fn new(pipeline: &'p Pipeline, config: EngineConfig) -> Result<Engine<'p>, HostError> {
        let searcher = Searcher::new(config.threads.max(1), config.hash_mb.max(1));
        Ok(Engine::with_searcher(pipeline, searcher))
    }

    /// An engine playing by `pipeline`'s rules with the tables of an earlier engine (whose
    /// game is over: [`Engine::into_searcher`]), forgotten as by [`Engine::new_game`].
    /// Allocating a table of 16 MB for each record analysed cost more than the searches of
    /// a record at depth 1 (the allocator zeroes memory it hands out again).
    pub fn with_searcher(pipeline: &'p Pipeline, mut searcher: Searcher) -> Engine<'p> {
        searcher.clear();
        Engine {
            pipeline,
            eval: Evaluation::new(pipeline),
            searcher,
        }
    }

    /// The engine's tables, for [`Engine::with_searcher`].
    pub fn into_searcher(self) -> Searcher {
        self.searcher
    }

    /// Forgets what earlier searches learned (transposition table, history).
    pub fn new_game(&mut self) {
        self.searcher.clear();
    }

    /// The evaluation terms in use.
    pub fn evaluation(&self) -> &Evaluation {
        &self.eval
    }

    /// Searches the game's current position.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<SearchResult, HostError> {
        self.analyse(game, limits, &Focus::default(), stop, on_info)
    }

    /// Searches the game's current position for `focus`'s lines over its root moves:
    /// `on_info` hears of every line of every completed depth, best first; the result is the
    /// best line's.
    pub fn analyse(
        &mut self,
        game: &Game,
        limits: &Limits,
        focus: &Focus,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Result<SearchResult, HostError> {
        let root = PipelineGame::new(self.pipeline, &self.eval, game)?;
        let budget = limits.budget();
        let mut report = |r: &Report<Move>| {
            on_info(&SearchInfo {
                line: r.line,
                depth: r.depth,
                seldepth: r.seldepth,
                score: Score::from_search(r.score),
                nodes: r.nodes,
                nps: nps(r.nodes, r.time),
                time: r.time,
                pv: r.pv.clone(),
            })
        };
        let found = self
            .searcher
            .search_focused(&root, &budget, focus, stop, &mut report)?;
        Ok(SearchResult {
            best: found.best,
            ponder: found.ponder,
            score: Score::from_search(found.score),
            depth: found.depth,
            nodes: found.nodes,
            pv: found.pv,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_parse_and_name_the_bad_field() {
        let l: Limits = "depth=8,movetime=1000".parse().unwrap();
        assert_eq!(l.depth, Some(8));
        assert_eq!(l.movetime, Some(Duration::from_millis(1000)));
        let l: Limits = "nodes=20000".parse().unwrap();
        assert_eq!(l.nodes, Some(20000));
        let l: Limits = "time=60000,inc=500,movestogo=20".parse().unwrap();
        let c = l.clock.unwrap();
        assert_eq!(c.remaining, Duration::from_secs(60));
        assert_eq!(c.increment, Duration::from_millis(500));
        assert_eq!(c.moves_to_go, Some(20));
        assert_eq!(l.to_string(), "time=60000,inc=500,movestogo=20");
        assert!("infinite".parse::<Limits>().unwrap().infinite);
        let e = "depth=8,movetim=10".parse::<Limits>().unwrap_err();
        assert_eq!(e.field, "movetim=10");
        let e = "depth=x".parse::<Limits>().unwrap_err();
        assert_eq!(e.field, "depth=x");
        assert!(e.to_string().contains("depth=x"));
        assert_eq!("inc=5".parse::<Limits>().unwrap_err().field, "inc");
        assert!("depth=0".parse::<Limits>().is_err());
        let l: Limits = "mate=3".parse().unwrap();
        assert_eq!(l.mate, Some(3));
        assert_eq!(l.to_string(), "mate=3");
        assert_eq!("mate=0".parse::<Limits>().unwrap_err().field, "mate=0");
    }

    #[test]
    fn an_engine_can_move_to_another_thread() {
        // The protocols search on a thread of their own while reading commands.
        fn send<T: Send>() {}
        send::<Engine<'static>>();
        send::<SearchResult>();
    }

    #[test]
    fn scores_display() {
        assert_eq!(Score::Cp(35).to_string(), "+0.35");
        assert_eq!(Score::Cp(-120).to_string(), "-1.20");
        assert_eq!(Score::Mate(2).to_string(), "#2");
        assert_eq!(Score::Mate(-1).to_string(), "#-1");
    }
}
