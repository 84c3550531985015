//! Perft: the number of legal move paths of a given length, through the pipeline.
//!
//! On a plain pipeline the last ply is counted by the variant's bulk counter; nothing is
//! allocated per node (move buffers are reused per depth). A position decided by a rule of
//! the variant or a preset has no legal moves; n-move and n-fold draws do not stop perft.

use crate::error::HostError;
use crate::notation::coordinate_among;
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
    /// The root moves of `divide`, in its order (for writers of another form).
    pub divide_moves: Vec<Move>,
}

struct Counter<'a> {
    pipeline: &'a Pipeline,
    check_results: bool,
    buffers: Vec<RVec<Move>>,
    /// The depth of the count's root (buffers are indexed by ply from it).
    root: u32,
}

impl Counter<'_> {
    fn count(&mut self, pos: &Position, depth: u32) -> Result<u64, HostError> {
        if depth == 0 {
            return Ok(1);
        }
        if self.check_results && self.pipeline.outcome(pos, true, true)?.is_some() {
            return Ok(0);
        }
        // One buffer per ply from the root, made as the count goes deeper (a count that ends
        // early allocates little, whatever depth was asked for).
        let level = self.root.saturating_sub(depth) as usize;
        while self.buffers.len() <= level {
            self.buffers.push(RVec::with_capacity(64));
        }
        let mut buf = std::mem::take(&mut self.buffers[level]);
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
        self.buffers[level] = buf;
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
        buffers: Vec::new(),
        root: depth,
    };
    if depth == 0 {
        return Ok(PerftResult {
            nodes: 1,
            divide: Vec::new(),
            divide_moves: Vec::new(),
        });
    }
    if !divide && (threads <= 1 || depth <= 2) {
        let nodes = new_counter().count(pos, depth)?;
        return Ok(PerftResult {
            nodes,
            divide: Vec::new(),
            divide_moves: Vec::new(),
        });
    }
    if check_results && pipeline.outcome(pos, true, true)?.is_some() {
        return Ok(PerftResult {
            nodes: 0,
            divide: Vec::new(),
            divide_moves: Vec::new(),
        });
    }
    let mut root = RVec::new();
    pipeline.legal_moves(pos, &mut root)?;
    // Work items: the children of the root, or (deep enough) the grandchildren, so that two
    // threads get an even share even when one root move owns a big subtree.
    let split_deeper = threads > 1 && depth >= 3;
    let mut items: Vec<(usize, Position, u32)> = Vec::new();
    let mut leaf_counts = vec![0u64; root.len()];
    for (i, &m) in root.iter().enumerate() {
        let mut child = pos.clone();
        let mut fx = MoveEffects::new(pos.side_to_move, false);
        pipeline.apply(&mut child, m, &mut fx)?;
        if split_deeper {
            if check_results && pipeline.outcome(&child, true, true)?.is_some() {
                continue;
            }
            let mut replies = RVec::new();
            pipeline.legal_moves(&child, &mut replies)?;
            for &r in replies.iter() {
                let mut grand = child.clone();
                let mut fx = MoveEffects::new(child.side_to_move, false);
                pipeline.apply(&mut grand, r, &mut fx)?;
                items.push((i, grand, depth - 2));
            }
        } else {
            items.push((i, child, depth - 1));
        }
    }
    let results: Vec<Mutex<Option<Result<u64, HostError>>>> =
        items.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let work = || {
        let mut c = new_counter();
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            if k >= items.len() {
                break;
            }
            let (_, p, d) = &items[k];
            let r = c.count(p, *d);
            if let Ok(mut slot) = results[k].lock() {
                *slot = Some(r);
            }
        }
    };
    let threads = threads.clamp(1, items.len().max(1));
    std::thread::scope(|s| {
        for _ in 1..threads {
            s.spawn(work);
        }
        work();
    });
    for (k, slot) in results.into_iter().enumerate() {
        let n = slot.into_inner().ok().flatten().unwrap_or(Ok(0))?;
        leaf_counts[items[k].0] += n;
    }
    let nodes = leaf_counts.iter().sum();
    let mut per_move = Vec::new();
    let mut divide_moves = Vec::new();
    if divide {
        for (i, n) in leaf_counts.iter().enumerate() {
            per_move.push((coordinate_among(pipeline, pos, root[i], &root)?, *n));
        }
        divide_moves = root.to_vec();
    }
    Ok(PerftResult {
        nodes,
        divide: per_move,
        divide_moves,
    })
}
