//! A game-tree search that knows no rules: iterative deepening, alpha-beta with principal
//! variation search, quiescence over captures, a lockless transposition table, move ordering
//! (hash move, captures by MVV-LVA, killers, history), check extension, late-move reductions,
//! aspiration windows, mate scores, limits (depth, nodes, time, mate) and a stop flag, lazy SMP
//! over N threads, and for analysis several best lines (multi-PV) and a chosen set of root
//! moves ([`Focus`]).
//!
//! Everything about the game comes through [`SearchGame`]. Two facts shape the code:
//!
//! - **The side to move may not change with every move** (double-move turns, passes that keep
//!   the turn, monster chess). Scores are from the side to move, and a child's score is
//!   negated only when the child's side to move differs from the parent's, never by ply parity.
//! - **Mate distances count turns** (changes of the side to move), not plies, so "mate in n"
//!   means the same thing whether a turn has one move or two.

mod history;
mod spread;
mod tt;
mod worker;

pub use tt::{Bound, Table};

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use worker::{Shared, Worker};

/// Score of a win now (at zero turns from the root); a win `t` turns away scores `MATE - t`.
pub const MATE: i32 = 30000;
/// Scores at or beyond this magnitude are wins or losses.
pub const MATE_BOUND: i32 = MATE - 1000;
/// Deepest ply the search goes (main search and quiescence together).
pub const MAX_PLY: usize = 128;
/// Number of history slots a [`SearchGame::history_slot`] may use.
pub const HISTORY_SLOTS: usize = 1 << 16;

/// A game's result at a node, for the side to move there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Terminal {
    /// The side to move has won.
    Win,
    /// The side to move has lost.
    Loss,
    /// Drawn.
    Draw,
}

/// What the search needs of a game. Implementations keep their own undo stack
/// ([`SearchGame::make`] / [`SearchGame::unmake`]; copy-make is fine).
pub trait SearchGame: Clone + Send {
    /// A move.
    type Move: Copy + Eq + Send + Sync + std::fmt::Debug;
    /// What can go wrong inside the game (a plugin's error).
    type Error: Send;

    /// Whose turn it is (any two distinct values; only changes are read).
    fn side_to_move(&self) -> u8;
    /// A hash of the position: everything that decides the legal moves and the result.
    fn hash(&self) -> u64;
    /// The legal moves now, into `out` (cleared first).
    fn legal_moves(&mut self, out: &mut Vec<Self::Move>) -> Result<(), Self::Error>;
    /// Plays a legal move.
    fn make(&mut self, m: Self::Move) -> Result<(), Self::Error>;
    /// Takes back the last move made.
    fn unmake(&mut self);
    /// The result now (repetitions and move counts included), for the side to move, given
    /// whether it has a legal move; `None` while the game goes on.
    fn terminal(&mut self, has_legal_moves: bool) -> Result<Option<Terminal>, Self::Error>;
    /// Whether the side to move is in check (extends the search; no stand-pat in quiescence).
    fn in_check(&mut self) -> Result<bool, Self::Error>;
    /// Whether the side to move, in check now, was in check already before the last move
    /// (asked only when [`SearchGame::in_check`] holds): the check is then not the last
    /// move's doing, as with kings side by side that may not take each other, and is not
    /// extended. Default: never (the rules never leave the side that moved in check).
    fn check_persists(&mut self) -> Result<bool, Self::Error> {
        Ok(false)
    }
    /// Whether the move captures (quiescence searches only these).
    fn is_capture(&self, m: Self::Move) -> bool;
    /// Ordering key of a capture: most valuable victim first, then least valuable attacker.
    fn capture_order(&self, m: Self::Move) -> i32;
    /// Static evaluation in centipawns, from the side to move.
    fn evaluate(&mut self) -> Result<i32, Self::Error>;
    /// The move as a non-zero number, distinct among the legal moves of a position (the
    /// transposition table stores it).
    fn move_bits(&self, m: Self::Move) -> u64;
    /// Slot of the move in the history table (below [`HISTORY_SLOTS`]), e.g. from and to.
    fn history_slot(&self, m: Self::Move) -> usize;
    /// Passes the turn for null-move pruning, if passing is sound here (the side to move has
    /// pieces enough that zugzwang is unlikely); `false`: nothing was done. Undone by
    /// [`SearchGame::unmake`]. Default: never.
    fn make_null(&mut self) -> bool {
        false
    }
    /// The remaining depth from which null-move pruning and late-move reductions apply (at
    /// least 2; default [`PRUNING_DEPTH`]). A game whose gains come from quiet moves may ask
    /// for more: below it every move is searched to full depth.
    fn pruning_depth(&self) -> i32 {
        PRUNING_DEPTH
    }
    /// Whether quiet moves may be left out near the leaves (reverse futility, futility and
    /// late-move pruning, below 4 plies left, never in check or on the principal variation,
    /// never a move after which the side to move is in check). Sound where a position in which the side to move must answer a threat
    /// shows as [`SearchGame::in_check`]: say `false` where a piece whose loss decides the
    /// game can be attacked without check (king capture, extinction) or where gains come
    /// from quiet moves. A game that asks for a [`SearchGame::pruning_depth`] above the
    /// default is never pruned so, whatever this says. Default: yes.
    fn prunes_quiet_moves(&self) -> bool {
        true
    }
    /// The move's family, where the game's moves come in families that differ only in a
    /// detail chosen after the move itself (the duck's square in duck chess, the arrow of
    /// amazons): quiescence searches the first capture of each family in its order and
    /// leaves the others, which settle the same exchange dozens of times over. Default: no
    /// families.
    fn family(&self, _m: Self::Move) -> Option<u64> {
        None
    }
    /// Slot of the move's detail (below [`HISTORY_SLOTS`]) in a history of its own, where the
    /// moves come in families ([`SearchGame::family`]): the arrow's square, the duck's. A
    /// family's members share one [`SearchGame::history_slot`]; where quiet moves are pruned
    /// near the leaves, this history orders them among themselves, and the search keeps the
    /// best member of each family before a second member of any. Default: none.
    fn detail_slot(&self, _m: Self::Move) -> Option<usize> {
        None
    }
    /// The square a capture lands on, if the game can tell: deep in quiescence only captures
    /// on the square of the last capture (recaptures) are searched, and a capture whose
    /// square is unknown always is. Default: unknown.
    fn capture_square(&self, _m: Self::Move) -> Option<u32> {
        None
    }
    /// Whether a move from this position could leave a side in check; asked once a node,
    /// before the first quiet move that the pruning near the leaves would leave out. `false`
    /// (no side has a royal piece, as in amazons) lets the search leave such moves out
    /// without playing each to look for a check, which is most of a node's work where a
    /// node has hundreds of moves. Default: yes.
    fn checks_possible(&mut self) -> Result<bool, Self::Error> {
        Ok(true)
    }
}

/// The default [`SearchGame::pruning_depth`]: 3 (at 4 tictacrook_v1's depth 4 against depth
/// 2 fell from 95% to 82.5%, and proletariat against the random mover at 1000 nodes a move
/// lost about 3 points: fewer cuts, a shallower search for the same nodes).
pub const PRUNING_DEPTH: i32 = 3;

/// How long and how deep to search. Unset fields do not limit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Budget {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Nodes over all threads.
    pub nodes: Option<u64>,
    /// Do not start an iteration after half of this time.
    pub soft_time: Option<Duration>,
    /// Stop searching at this time.
    pub hard_time: Option<Duration>,
    /// Stop once the side to move is found to mate in this many of its moves or fewer (UCI
    /// `go mate N`).
    pub mate: Option<u32>,
}

impl Budget {
    /// The time to use with `remaining` on the clock, `increment` per move and, if known,
    /// `moves_to_go` moves to the next time control.
    pub fn for_clock(
        remaining: Duration,
        increment: Duration,
        moves_to_go: Option<u32>,
    ) -> (Duration, Duration) {
        // Keep a margin for the host's own overhead and the time between moves.
        let margin = Duration::from_millis(30).min(remaining / 10);
        let left = remaining.saturating_sub(margin);
        let moves = moves_to_go.unwrap_or(30).clamp(1, 60);
        let soft = left / moves + increment * 3 / 4;
        let soft = soft.min(left / 2);
        let hard = (soft * 4).min(left * 4 / 5).max(soft);
        (soft, hard)
    }
}

/// What a search looks at beyond the best move: for analysis (UCI `MultiPV` and `go
/// searchmoves`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Focus<M> {
    /// How many best lines to find and report, each with its own first move (at least 1;
    /// more than the root has moves means all of them). Each extra line costs about one more
    /// search of the root at every depth.
    pub lines: usize,
    /// The root moves to search; empty, or none of them legal: every legal move.
    pub moves: Vec<M>,
}

impl<M> Default for Focus<M> {
    fn default() -> Self {
        Focus {
            lines: 1,
            moves: Vec::new(),
        }
    }
}

/// A report of one line after an iteration (one report per line with several lines).
#[derive(Debug, Clone)]
pub struct Report<M> {
    /// The line's rank, from 1 (the best); always 1 with one line.
    pub line: u32,
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached (quiescence included).
    pub seldepth: u32,
    /// Score from the side to move at the root.
    pub score: i32,
    /// Nodes over all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Principal variation.
    pub pv: Vec<M>,
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct Found<M> {
    /// Best move (`None` only without a legal move).
    pub best: Option<M>,
    /// Expected reply.
    pub ponder: Option<M>,
    /// Score from the side to move.
    pub score: i32,
    /// Deepest iteration completed.
    pub depth: u32,
    /// Nodes over all threads.
    pub nodes: u64,
    /// Principal variation.
    pub pv: Vec<M>,
}

impl<M: Copy> Found<M> {
    /// Takes `pv` as the main line: its first move is the best (kept when `pv` is empty),
    /// its second the expected reply.
    fn follow(&mut self, pv: &[M]) {
        self.pv = pv.to_vec();
        self.best = pv.first().copied().or(self.best);
        self.ponder = pv.get(1).copied();
    }
}

/// Mate distance of a score in moves of the side to move at the root: `Some(n)` mates in
/// `n`, `Some(-n)` gets mated in `n`; `None` for other scores.
pub fn mate_in(score: i32) -> Option<i32> {
    if score >= MATE_BOUND {
        let turns = MATE - score;
        Some((turns + 1) / 2)
    } else if score <= -MATE_BOUND {
        let turns = MATE + score;
        Some(-((turns + 1) / 2).max(1))
    } else {
        None
    }
}

/// Per-thread tables kept between searches (cleared by [`Searcher::clear`]).
pub(crate) struct ThreadTables {
    pub(crate) histories: history::Histories,
}

impl ThreadTables {
    fn new() -> ThreadTables {
        ThreadTables {
            histories: history::Histories::new(),
        }
    }
}

/// A searcher: the transposition table and per-thread tables, kept between searches.
pub struct Searcher {
    tt: Table,
    threads: Vec<ThreadTables>,
}

impl Searcher {
    /// A searcher with `threads` threads (at least one) and a table of `hash_mb` megabytes.
    pub fn new(threads: usize, hash_mb: usize) -> Searcher {
        Searcher {
            tt: Table::new(hash_mb),
            threads: (0..threads.max(1)).map(|_| ThreadTables::new()).collect(),
        }
    }

    /// Number of threads.
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        for t in &mut self.threads {
            t.histories.forget();
        }
    }

    /// Searches `root` within `budget` or until `stop` is set; `on_report` hears of every
    /// completed iteration of the main thread.
    pub fn search<G: SearchGame>(
        &mut self,
        root: &G,
        budget: &Budget,
        stop: &AtomicBool,
        on_report: &mut dyn FnMut(&Report<G::Move>),
    ) -> Result<Found<G::Move>, G::Error> {
        self.search_focused(root, budget, &Focus::default(), stop, on_report)
    }

    /// [`Searcher::search`] over the root moves of `focus`, finding its number of best lines:
    /// `on_report` hears of each line of every completed iteration, best first; the result is
    /// the best line's.
    pub fn search_focused<G: SearchGame>(
        &mut self,
        root: &G,
        budget: &Budget,
        focus: &Focus<G::Move>,
        stop: &AtomicBool,
        on_report: &mut dyn FnMut(&Report<G::Move>),
    ) -> Result<Found<G::Move>, G::Error> {
        self.tt.next_age();
        // Histories from the previous search still order moves, at a smaller weight.
        for t in &mut self.threads {
            t.histories.fade();
        }
        let shared = Shared {
            start: Instant::now(),
            budget: *budget,
            external: stop,
            internal: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        };
        let tt = &self.tt;
        let (main, helpers) = self.threads.split_at_mut(1);
        let shared = &shared;
        std::thread::scope(|scope| {
            for (i, t) in helpers.iter_mut().enumerate() {
                let game = root.clone();
                scope.spawn(move || {
                    let mut w = Worker::new(game, tt, shared, i + 1, t);
                    // A helper's error or result is not needed: the main thread decides.
                    let _ = w.iterate(focus, &mut |_| {});
                });
            }
            let mut w = Worker::new(root.clone(), tt, shared, 0, &mut main[0]);
            let found = w.iterate(focus, on_report);
            shared.internal.store(true, Ordering::Relaxed);
            found
        })
    }
}

#[cfg(test)]
mod tests;
