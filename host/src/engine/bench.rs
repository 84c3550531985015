//! `houserules bench --search`: the engine's speed (nodes per second) at a fixed depth on
//! standard positions, with one thread and more, beside Fairy-Stockfish's when its binary is
//! given (its `go depth N` on the same positions).

use super::{Engine, EngineConfig, Limits};
use crate::error::HostError;
use crate::game::Game;
use crate::pipeline::Pipeline;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Chess positions of the search benchmark: the start, Kiwipete, and positions 3, 4 and 5 of
/// the Chess Programming Wiki's perft suite (an endgame, a tactical middlegame, promotions).
pub const CHESS_POSITIONS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBPNP3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
];

/// One search of the benchmark.
#[derive(Debug, Clone)]
pub struct BenchRow {
    /// The position.
    pub fen: String,
    /// Threads.
    pub threads: usize,
    /// Depth searched.
    pub depth: u32,
    /// Nodes.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
}

impl BenchRow {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        super::nps(self.nodes, self.time)
    }
}

/// Searches each of `fens` to `depth` with a fresh engine of `threads` threads.
pub fn search_bench(
    p: &Pipeline,
    fens: &[String],
    depth: u32,
    threads: usize,
) -> Result<Vec<BenchRow>, HostError> {
    let mut rows = Vec::new();
    for f in fens {
        let pos = p.game_start(f)?;
        let game = Game::new(p, pos);
        let mut engine = Engine::new(
            p,
            EngineConfig {
                threads,
                hash_mb: 64,
            },
        )?;
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let stop = AtomicBool::new(false);
        let start = Instant::now();
        let r = engine.search(&game, &limits, &stop, &mut |_| {})?;
        rows.push(BenchRow {
            fen: f.clone(),
            threads,
            depth: r.depth,
            nodes: r.nodes,
            time: start.elapsed(),
        });
    }
    Ok(rows)
}

/// Fairy-Stockfish's `go depth N` on `fen` (one thread, `variant` as `UCI_Variant`):
/// nodes and nodes per second of its last report, or why it could not be run.
pub fn fsf_search(
    binary: &Path,
    variant: &str,
    fen: &str,
    depth: u32,
) -> Result<(u64, u64), String> {
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", binary.display()))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let script = format!(
        "uci\nsetoption name Threads value 1\nsetoption name Hash value 64\nsetoption name UCI_Variant value {variant}\nisready\nucinewgame\nposition fen {fen}\ngo depth {depth}\n"
    );
    stdin
        .write_all(script.as_bytes())
        .map_err(|e| e.to_string())?;
    stdin.flush().map_err(|e| e.to_string())?;
    let mut last = None;
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| e.to_string())?;
        if line.starts_with("info") && line.contains(" nps ") {
            let words: Vec<&str> = line.split_whitespace().collect();
            let field = |k: &str| {
                words
                    .iter()
                    .position(|w| *w == k)
                    .and_then(|i| words.get(i + 1))
                    .and_then(|v| v.parse::<u64>().ok())
            };
            if let (Some(n), Some(s)) = (field("nodes"), field("nps")) {
                last = Some((n, s));
            }
        }
        if line.starts_with("bestmove") {
            break;
        }
    }
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    let _ = child.wait();
    last.ok_or_else(|| "no `info ... nps` line".to_string())
}
