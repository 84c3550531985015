//! Perft: the number of legal move paths of a given length, through the pipeline.
//!
//! On a plain pipeline the last ply is counted by the variant's bulk counter; nothing is
//! allocated per node (move buffers are reused per depth). A position decided by a rule of
//! the variant or a preset has no legal moves; n-move and n-fold draws do not stop perft.

use crate::error::HostError;
use crate::notation::coordinate;
use crate::pipeline::Pipeline;
use abi_stable::std_types::RVec;
use houserules_plugin_api::{Move, MoveEffects, Position};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The answer of [`perft`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftResult {
    /// Leaf count.
    pub nodes: u64,
    /// Per root move (coordinate form), in the order of the root moves, when asked for.
    pub divide: Vec<(String, u64)>,
}

struct Counter<'a> {
    pipeline: &'a Pipeline,
    check_results: bool,
    buffers: Vec<RVec<Move>>,
}

impl Counter<'_> {
    fn count(&mut self, pos: &Position, depth: u32) -> Result<u64, HostError> {
        if depth == 0 {
            return Ok(1);
        }
        if self.check_results && self.pipeline.outcome(pos, true, true)?.is_some() {
            return Ok(0);
        }
        let mut buf = std::mem::take(&mut self.buffers[depth as usize]);
        let result = if depth == 1 {
            self.pipeline.legal_move_count(pos, &mut buf)
        } else {
            self.pipeline.legal_moves(pos, &mut buf).and_then(|()| {
                let mut total = 0;
                for &m in buf.iter() {
                    let mut child = pos.clone();
                    let mut fx = MoveEffects::new(pos.side_to_move, false);
                    self.pipeline.apply(&mut child, m, &mut fx)?;
                    total += self.count(&child, depth - 1)?;
                }
                Ok(total)
            })
        };
        self.buffers[depth as usize] = buf;
        result
    }
}

/// Counts move paths of length `depth` from `pos`, on `threads` threads (root moves shared
/// out), with a per-root-move breakdown when `divide`.
pub fn perft(
    pipeline: &Pipeline,
    pos: &Position,
    depth: u32,
    threads: usize,
    divide: bool,
) -> Result<PerftResult, HostError> {
    let check_results = pipeline.results_need_check();
    let new_counter = || Counter {
        pipeline,
        check_results,
        buffers: (0..=depth).map(|_| RVec::with_capacity(256)).collect(),
    };
    if depth == 0 {
        return Ok(PerftResult {
            nodes: 1,
            divide: Vec::new(),
        });
    }
    if !divide && (threads <= 1 || depth <= 2) {
        let nodes = new_counter().count(pos, depth)?;
        return Ok(PerftResult {
            nodes,
            divide: Vec::new(),
        });
    }
    if check_results && pipeline.outcome(pos, true, true)?.is_some() {
        return Ok(PerftResult {
            nodes: 0,
            divide: Vec::new(),
        });
    }
    let mut root = RVec::new();
    pipeline.legal_moves(pos, &mut root)?;
    let counts: Vec<Mutex<Option<Result<u64, HostError>>>> =
        root.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let work = || {
        let mut c = new_counter();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= root.len() {
                break;
            }
            let m = root[i];
            let mut child = pos.clone();
            let mut fx = MoveEffects::new(pos.side_to_move, false);
            let r = pipeline
                .apply(&mut child, m, &mut fx)
                .and_then(|()| c.count(&child, depth - 1));
            if let Ok(mut slot) = counts[i].lock() {
                *slot = Some(r);
            }
        }
    };
    let threads = threads.clamp(1, root.len().max(1));
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(work);
        }
        work();
    });
    let mut nodes = 0;
    let mut per_move = Vec::new();
    for (i, slot) in counts.into_iter().enumerate() {
        let n = slot.into_inner().ok().flatten().unwrap_or(Ok(0))?;
        nodes += n;
        if divide {
            per_move.push((coordinate(pipeline, pos, root[i])?, n));
        }
    }
    Ok(PerftResult {
        nodes,
        divide: per_move,
    })
}
