//! One search thread: iterative deepening over a principal variation search.

use crate::history::HISTORY_BOUND;
use crate::spread::FamilySpread;
use crate::tt::{Bound, Table};
use crate::{Budget, Focus, Found, Report, SearchGame, Terminal, MATE, MATE_BOUND, MAX_PLY};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

const INFINITY: i32 = MATE + 1;
/// Quiescence plies at most beyond the main search.
const MAX_QUIESCENCE: usize = 12;
/// Quiet check evasions searched in quiescence once one answer is known not to be mated.
const QUIET_EVASIONS: usize = 2;
/// Quiet answers to check on one quiescence line after which a check stands pat.
const QUIET_ANSWER_PLIES: usize = 4;
/// Quiescence plies after which only recaptures (captures on the square of the last
/// capture) are searched, out of check (as in Stockfish's quiescence of some years, its
/// `DEPTH_QS_RECAPTURES`).
const RECAPTURES_ONLY: usize = 5;

/// Where a quiescence node is on its line: moves since the main search, and how many of
/// them were quiet answers to check.
#[derive(Clone, Copy, Default)]
struct QuiescenceLine {
    moves: usize,
    quiet_answers: usize,
    /// The square the last move captured on, where the game tells it.
    last_square: Option<u32>,
}

/// What every thread shares.
pub(crate) struct Shared<'a> {
    pub start: Instant,
    pub budget: Budget,
    /// Set by the caller.
    pub external: &'a AtomicBool,
    /// Set when the main thread is done (helpers stop) or a limit is reached.
    pub internal: AtomicBool,
    pub nodes: AtomicU64,
}

impl Shared<'_> {
    fn stopped(&self) -> bool {
        self.internal.load(Ordering::Relaxed) || self.external.load(Ordering::Relaxed)
    }

    /// Whether the hard time limit, if any, has passed.
    fn past_hard_time(&self) -> bool {
        self.budget
            .hard_time
            .is_some_and(|t| self.start.elapsed() >= t)
    }
}

/// Raised inside the tree when the search must stop; unwinds to the root.
enum Halt<E> {
    Stop,
    Error(E),
}

impl<E> From<E> for Halt<E> {
    fn from(e: E) -> Self {
        Halt::Error(e)
    }
}

type Res<T, E> = Result<T, Halt<E>>;

pub(crate) struct Worker<'a, G: SearchGame> {
    game: G,
    tt: &'a Table,
    shared: &'a Shared<'a>,
    id: usize,
    histories: &'a mut crate::history::Histories,
    killers: Vec<[u64; 2]>,
    pv: Vec<Vec<G::Move>>,
    moves: Vec<Vec<G::Move>>,
    scores: Vec<Vec<i32>>,
    /// Per ply: the indexes of the quiet moves searched at the node (their history is lowered
    /// when a later quiet move cuts off); kept, not allocated at every node.
    quiets: Vec<Vec<usize>>,
    /// Per ply: the move families quiescence has searched at the node
    /// ([`SearchGame::family`]).
    families: Vec<Vec<u64>>,
    nodes: u64,
    seldepth: usize,
    root_depth: i32,
    /// No two null moves in a row.
    null_ok: bool,
    /// [`SearchGame::pruning_depth`], read once.
    pruning_depth: i32,
    /// Room for [`sort_by_score`] (used within one node, never across a child's search).
    keyed: Vec<(i32, G::Move)>,
    /// Whether quiet moves may be pruned at shallow depths, read once: the game allows it
    /// ([`SearchGame::prunes_quiet_moves`]) and does not ask for a full-width search below a
    /// later depth than the default (its gains come from quiet moves, which the static
    /// evaluation does not foresee).
    quiet_pruning: bool,
    /// The order of a shallow node's moves where they come in families.
    spread: FamilySpread<G::Move>,
}

fn terminal_score(t: Terminal, turns: i32) -> i32 {
    match t {
        Terminal::Win => MATE - turns,
        Terminal::Loss => -(MATE - turns),
        Terminal::Draw => 0,
    }
}

/// Mate scores are stored relative to the node, so that a transposition at another distance
/// from the root reads the right distance.
fn to_tt(score: i32, turns: i32) -> i32 {
    if score >= MATE_BOUND {
        score + turns
    } else if score <= -MATE_BOUND {
        score - turns
    } else {
        score
    }
}

fn from_tt(score: i32, turns: i32) -> i32 {
    if score >= MATE_BOUND {
        score - turns
    } else if score <= -MATE_BOUND {
        score + turns
    } else {
        score
    }
}

/// What [`Worker::first_look`] found.
enum FirstLook<M> {
    /// This move wins at once, with this score.
    Win(M, i32),
    /// Per root move, its score by a look one move deep.
    Scores(Vec<i32>),
}

/// Whether a move's bits are the transposition table's move (`hash_move`, 0 for none).
fn is_hash_move(bits: u64, hash_move: u64) -> bool {
    hash_move != 0 && bits == hash_move
}

/// Remaining depths at which quiet moves may be pruned (reverse futility, futility, late
/// moves).
const SHALLOW_DEPTH: i32 = 3;
/// Remaining depths at which futility pruning applies.
const FUTILITY_DEPTH: i32 = 2;
/// Centipawns a ply of search is expected to change the score by, at most, in quiet play.
const FUTILITY_MARGIN: i32 = 120;
/// Per remaining depth (0 to [`SHALLOW_DEPTH`]), the quiet moves searched at a shallow node
/// before the rest are pruned.
const LATE_MOVES: [usize; 4] = [usize::MAX, 6, 12, 22];
/// Moves picked one by one (best remaining first) before the rest are sorted at once.
const SELECTED_MOVES: usize = 6;

/// Sorts `moves` by `scores`, highest first (ties keep their order), moving both together;
/// `keyed` is room for the pairs, kept by the caller (a sort at every node of the search
/// allocates nothing).
fn sort_by_score<M: Copy>(moves: &mut [M], scores: &mut [i32], keyed: &mut Vec<(i32, M)>) {
    keyed.clear();
    keyed.extend(scores.iter().copied().zip(moves.iter().copied()));
    keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
    for ((s, m), &(ks, km)) in scores.iter_mut().zip(moves.iter_mut()).zip(keyed.iter()) {
        *s = ks;
        *m = km;
    }
}

const TT_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
/// Where quiet moves are pruned and a game's moves have details
/// ([`SearchGame::detail_slot`]), a quiet move's order is its history times this plus its
/// detail's history over 16: the detail breaks ties between moves of the same history (a
/// family's members) and never overturns a difference.
const DETAIL_WEIGHT: i32 = 2048;

impl<'a, G: SearchGame> Worker<'a, G> {
    pub fn new(
        game: G,
        tt: &'a Table,
        shared: &'a Shared<'a>,
        id: usize,
        tables: &'a mut crate::ThreadTables,
    ) -> Worker<'a, G> {
        let n = MAX_PLY + 2;
        let pruning_depth = game.pruning_depth().max(2);
        let quiet_pruning = game.prunes_quiet_moves() && pruning_depth <= crate::PRUNING_DEPTH;
        Worker {
            game,
            tt,
            shared,
            id,
            histories: &mut tables.histories,
            killers: vec![[0; 2]; n],
            pv: (0..n).map(|_| Vec::new()).collect(),
            moves: (0..n).map(|_| Vec::new()).collect(),
            scores: (0..n).map(|_| Vec::new()).collect(),
            quiets: (0..n).map(|_| Vec::new()).collect(),
            families: (0..n).map(|_| Vec::new()).collect(),
            nodes: 0,
            seldepth: 0,
            root_depth: 1,
            null_ok: true,
            pruning_depth,
            keyed: Vec::new(),
            quiet_pruning,
            spread: FamilySpread::new(),
        }
    }

    /// Counts a node and says whether to stop (limits, flags).
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        let total = self.shared.nodes.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(n) = self.shared.budget.nodes {
            if total >= n {
                self.shared.internal.store(true, Ordering::Relaxed);
            }
        }
        if self.nodes.is_multiple_of(64) && self.shared.past_hard_time() {
            self.shared.internal.store(true, Ordering::Relaxed);
        }
        self.shared.stopped()
    }

    /// Iterative deepening. The main thread (id 0) reports and decides; helpers start at
    /// staggered depths so that threads spread over the tree (lazy SMP). With several lines
    /// ([`Focus::lines`]) every iteration searches the root once per line, each time without
    /// the first moves of the lines before it (as Stockfish's multi-PV does).
    pub fn iterate(
        &mut self,
        focus: &Focus<G::Move>,
        on_report: &mut dyn FnMut(&Report<G::Move>),
    ) -> Result<Found<G::Move>, G::Error> {
        let mut root_moves = Vec::new();
        self.game.legal_moves(&mut root_moves)?;
        let mut found = Found {
            best: None,
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        if root_moves.is_empty() {
            let t = self.game.terminal(false)?;
            found.score = t.map_or(0, |t| terminal_score(t, 0));
            return Ok(found);
        }
        if root_moves.iter().any(|m| focus.moves.contains(m)) {
            root_moves.retain(|m| focus.moves.contains(m));
        }
        let lines = focus.lines.clamp(1, root_moves.len());
        // First look: every root move made once and scored by the result or the static
        // evaluation after it. A move that wins at once is played without a search (unless
        // several lines are asked for: analysis wants them all); the rest order the first
        // iteration (the hash move first). A node budget can end that iteration before it
        // has searched every move (in a slow pipeline quiescence below the first moves may
        // take all of it): the move played is then at least the best by this look, never a
        // move taken blindly by its place in the capture order, and never a repetition when
        // anything else looks better.
        let static_scores = match self.first_look(&root_moves, lines == 1)? {
            FirstLook::Scores(scores) => scores,
            FirstLook::Win(m, score) => {
                found.best = Some(m);
                found.score = score;
                found.depth = 1;
                found.pv = vec![m];
                found.nodes = self.shared.nodes.load(Ordering::Relaxed);
                if self.id == 0 {
                    on_report(&Report {
                        line: 1,
                        depth: 1,
                        seldepth: 1,
                        score,
                        nodes: found.nodes,
                        time: self.shared.start.elapsed(),
                        pv: found.pv.clone(),
                    });
                }
                return Ok(found);
            }
        };
        let key = self.game.hash();
        let hash_move = self.tt.probe(key).map_or(0, |h| h.mv);
        let mut keyed: Vec<(i32, G::Move)> = root_moves
            .iter()
            .zip(&static_scores)
            .map(|(&m, &s)| {
                let first = is_hash_move(self.game.move_bits(m), hash_move);
                (if first { TT_MOVE } else { s }, m)
            })
            .collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        let mut root_moves: Vec<G::Move> = keyed.into_iter().map(|(_, m)| m).collect();
        found.best = Some(root_moves[0]);
        let max_depth = self
            .shared
            .budget
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1) as i32;
        let mut depth = 1 + (self.id as i32 & 1);
        // Per line, its score at the last completed depth (the next aspiration window's
        // centre) and its moves.
        let mut scores = vec![0; lines];
        let mut pvs: Vec<Vec<G::Move>> = vec![Vec::new(); lines];
        'deepening: while depth <= max_depth {
            self.root_depth = depth;
            self.seldepth = 0;
            for line in 0..lines {
                let result =
                    self.aspiration(depth, scores[line], &mut root_moves[line..], line == 0);
                match result {
                    Ok(s) => {
                        scores[line] = s;
                        pvs[line] = self.pv[0].clone();
                        if line == 0 {
                            found.score = s;
                            found.depth = depth as u32;
                            found.follow(&self.pv[0]);
                        }
                    }
                    Err(Halt::Error(e)) => return Err(e),
                    Err(Halt::Stop) => {
                        // A root move that beat the previous best within the stopped
                        // iteration is already first in `root_moves` and in the main line
                        // (only while the first line was being searched: later lines leave
                        // their own moves there).
                        if let (0, Some(&m)) = (line, self.pv[0].first()) {
                            if Some(m) != found.best {
                                found.follow(&self.pv[0]);
                            }
                        }
                        break 'deepening;
                    }
                }
            }
            if lines > 1 {
                // A later line may have come out better than an earlier one (each was
                // searched in its own window): best first, and the root moves in that order.
                let mut order: Vec<usize> = (0..lines).collect();
                order.sort_by_key(|&k| std::cmp::Reverse(scores[k]));
                scores = order.iter().map(|&k| scores[k]).collect();
                pvs = order.iter().map(|&k| std::mem::take(&mut pvs[k])).collect();
                for (k, pv) in pvs.iter().enumerate() {
                    if let Some(&m) = pv.first() {
                        if let Some(at) = root_moves.iter().position(|&r| r == m) {
                            root_moves.swap(k, at);
                        }
                    }
                }
                found.score = scores[0];
                found.follow(&pvs[0]);
            }
            let score = scores[0];
            if self.id == 0 {
                let nodes = self.shared.nodes.load(Ordering::Relaxed);
                for line in 0..lines {
                    on_report(&Report {
                        line: line as u32 + 1,
                        depth: depth as u32,
                        seldepth: self.seldepth as u32,
                        score: scores[line],
                        nodes,
                        time: self.shared.start.elapsed(),
                        pv: pvs[line].clone(),
                    });
                }
                // A forced mate found within the depth needs no deeper search (with one line:
                // the others may still be improving).
                if lines == 1 && score.abs() >= MATE_BOUND && (MATE - score.abs()) < depth {
                    break;
                }
                if let Some(n) = self.shared.budget.mate {
                    if crate::mate_in(score).is_some_and(|m| m > 0 && m <= n as i32) {
                        break;
                    }
                }
                if let Some(soft) = self.shared.budget.soft_time {
                    if self.shared.start.elapsed() >= soft / 2 {
                        break;
                    }
                }
                if root_moves.len() == 1 && (self.shared.budget.soft_time.is_some()) && depth >= 4 {
                    break;
                }
            }
            if self.shared.stopped() {
                break;
            }
            depth += 1;
        }
        found.nodes = self.shared.nodes.load(Ordering::Relaxed);
        Ok(found)
    }

    /// Each of `root_moves` made once: with `stop_at_win`, the first after which the side to
    /// move has won, with its score (a win one turn away, or none when the move keeps the
    /// turn); else, or when none wins, each move's score from the side to move by the result
    /// or the static evaluation after it. Each move made counts as a node; the look goes past
    /// a node budget (by at most the root moves) but not past the stop flag or the time: the
    /// moves it did not reach score below every move it did, in their order.
    fn first_look(
        &mut self,
        root_moves: &[G::Move],
        stop_at_win: bool,
    ) -> Result<FirstLook<G::Move>, G::Error> {
        let side = self.game.side_to_move();
        let mut replies = Vec::new();
        let mut scores = Vec::with_capacity(root_moves.len());
        for &m in root_moves {
            if self.shared.past_hard_time() || self.shared.stopped() {
                scores.resize(root_moves.len(), -INFINITY);
                break;
            }
            self.nodes += 1;
            self.shared.nodes.fetch_add(1, Ordering::Relaxed);
            self.game.make(m)?;
            let flip = self.game.side_to_move() != side;
            let child = match self.settle(&mut replies, i32::from(flip)) {
                Ok(None) => self.game.evaluate().map(|s| (s, false)),
                Ok(Some(s)) => Ok((s, true)),
                Err(e) => Err(e),
            };
            self.game.unmake();
            // The child's score is from its side to move; an ended game's is a win (above
            // 0), a loss or a draw.
            let (child, over) = child?;
            let score = if flip { -child } else { child };
            if over && score > 0 && stop_at_win {
                return Ok(FirstLook::Win(m, score));
            }
            scores.push(score);
        }
        Ok(FirstLook::Scores(scores))
    }

    /// The legal moves into `moves`, and the score of the node if the game is over there
    /// (its result, or a draw without a legal move), `turns` from the root.
    fn settle(&mut self, moves: &mut Vec<G::Move>, turns: i32) -> Result<Option<i32>, G::Error> {
        self.game.legal_moves(moves)?;
        if let Some(t) = self.game.terminal(!moves.is_empty())? {
            return Ok(Some(terminal_score(t, turns)));
        }
        Ok(moves.is_empty().then_some(0))
    }

    /// A root search in a window around the last score, widened on failure.
    fn aspiration(
        &mut self,
        depth: i32,
        last: i32,
        root_moves: &mut [G::Move],
        first_line: bool,
    ) -> Res<i32, G::Error> {
        if depth < 4 || last.abs() >= MATE_BOUND {
            return self.root(depth, -INFINITY, INFINITY, root_moves, first_line);
        }
        let mut delta = 30;
        let mut alpha = (last - delta).max(-INFINITY);
        let mut beta = (last + delta).min(INFINITY);
        loop {
            let s = self.root(depth, alpha, beta, root_moves, first_line)?;
            if s <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INFINITY);
            } else if s >= beta {
                beta = (s + delta).min(INFINITY);
            } else {
                return Ok(s);
            }
            delta += delta / 2 + 10;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// The root's moves searched; the best of them is moved first. Only the first line's
    /// search (over every root move) stores the root in the transposition table: a later
    /// line's best is not the position's.
    fn root(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        root_moves: &mut [G::Move],
        first_line: bool,
    ) -> Res<i32, G::Error> {
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_index = 0;
        let side = self.game.side_to_move();
        let key = self.game.hash();
        for (i, &m) in root_moves.iter().enumerate() {
            self.pv[1].clear();
            self.game.make(m)?;
            let flip = self.game.side_to_move() != side;
            let s = if i == 0 {
                self.child(flip, depth - 1, alpha, beta, 1, 0, true)
            } else {
                match self.child(flip, depth - 1, alpha, alpha + 1, 1, 0, false) {
                    Ok(s) if s > alpha && s < beta => {
                        self.child(flip, depth - 1, alpha, beta, 1, 0, true)
                    }
                    r => r,
                }
            };
            self.game.unmake();
            let s = s?;
            if s > best {
                best = s;
                best_index = i;
                if s > alpha {
                    alpha = s;
                    self.set_pv(0, m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        // The best move leads the next iteration.
        root_moves[..=best_index].rotate_right(1);
        let bound = Bound::of(best, alpha0, beta);
        if first_line {
            let bits = self.game.move_bits(root_moves[0]);
            self.tt.store(key, bits, to_tt(best, 0), depth, bound);
        }
        Ok(best)
    }

    fn set_pv(&mut self, ply: usize, m: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// Searches the child just made: negated when the side to move changed.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        flip: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        turns: i32,
        pv_node: bool,
    ) -> Res<i32, G::Error> {
        if flip {
            Ok(-self.search(depth, -beta, -alpha, ply, turns + 1, pv_node)?)
        } else {
            self.search(depth, alpha, beta, ply, turns, pv_node)
        }
    }

    /// The move's slot in the detail history ([`SearchGame::detail_slot`]), kept and read
    /// only where quiet moves are pruned: where every quiet move is searched (duck chess),
    /// the order of a board move's details was better left as generated (a history keyed by
    /// the whole move lost about 50 Elo there, docs/benchmarks.md).
    fn detail_slot(&self, m: G::Move) -> Option<usize> {
        self.game.detail_slot(m).filter(|_| self.quiet_pruning)
    }

    fn order_key(&self, m: G::Move, hash_move: u64, ply: usize) -> i32 {
        let bits = self.game.move_bits(m);
        if is_hash_move(bits, hash_move) {
            TT_MOVE
        } else if self.game.is_capture(m) {
            CAPTURE + self.game.capture_order(m)
        } else if self.killers[ply][0] == bits {
            KILLER + 1
        } else if self.killers[ply][1] == bits {
            KILLER
        } else {
            let h = self.histories.history(self.game.history_slot(m));
            match self.detail_slot(m) {
                None => h.min(KILLER - 1),
                Some(d) => {
                    let detail = self.histories.detail(d);
                    h.clamp(-HISTORY_BOUND, HISTORY_BOUND) * DETAIL_WEIGHT
                        + (detail.clamp(1 - HISTORY_BOUND, HISTORY_BOUND - 1) >> 4)
                }
            }
        }
    }

    fn search(
        &mut self,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        turns: i32,
        pv_node: bool,
    ) -> Res<i32, G::Error> {
        if self.tick() {
            return Err(Halt::Stop);
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let r = self.search_inner(depth, &mut alpha, beta, ply, turns, pv_node, &mut moves);
        self.moves[ply] = moves;
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn search_inner(
        &mut self,
        depth: i32,
        alpha: &mut i32,
        beta: i32,
        ply: usize,
        turns: i32,
        pv_node: bool,
        moves: &mut Vec<G::Move>,
    ) -> Res<i32, G::Error> {
        if let Some(score) = self.settle(moves, turns)? {
            return Ok(score);
        }
        if ply >= MAX_PLY - MAX_QUIESCENCE - 1 {
            return Ok(self.game.evaluate()?);
        }
        let in_check = self.game.in_check()?;
        // A check is extended unless it was there before the last move: where the rules
        // let both sides stay in check (commoner kings side by side that may not take each
        // other, in petrified) every node would be extended, and depth 4 would search eight
        // plies at full width.
        let depth =
            if in_check && ply < 2 * self.root_depth as usize && !self.game.check_persists()? {
                depth + 1
            } else {
                depth
            };
        if depth <= 0 {
            let line = QuiescenceLine::default();
            return self.quiesce_moves(*alpha, beta, ply, turns, in_check, line, moves);
        }
        let key = self.game.hash();
        let mut hash_move = 0;
        if let Some(h) = self.tt.probe(key) {
            hash_move = h.mv;
            let s = from_tt(h.score, turns);
            if !pv_node && h.depth >= depth && h.bound.settles(s, *alpha, beta) {
                return Ok(s);
            }
        }
        // Shallow pruning of quiet moves ([`SearchGame::prunes_quiet_moves`]) reads the static
        // evaluation; so does the null move.
        let shallow = !pv_node
            && !in_check
            && depth <= SHALLOW_DEPTH
            && self.quiet_pruning
            && beta.abs() < MATE_BOUND
            && alpha.abs() < MATE_BOUND;
        let mut static_eval = None;
        if shallow {
            let stand = self.game.evaluate()?;
            static_eval = Some(stand);
            // Reverse futility: so far above beta that no reply at this depth is expected
            // to bring it back.
            if stand - FUTILITY_MARGIN * depth >= beta {
                // Never a mate score, whatever an evaluation hook returns.
                return Ok((stand - FUTILITY_MARGIN * depth).min(MATE_BOUND - 1));
            }
        }
        // Null move: if passing still fails high at a reduced depth, so would a real move.
        if !pv_node
            && !in_check
            && depth >= self.pruning_depth
            && beta.abs() < MATE_BOUND
            && self.null_ok
        {
            let stand = match static_eval {
                Some(s) => s,
                None => self.game.evaluate()?,
            };
            if stand >= beta {
                let side = self.game.side_to_move();
                if self.game.make_null() {
                    let flip = self.game.side_to_move() != side;
                    let r = 2 + depth / 4;
                    self.null_ok = false;
                    let s = self.child(flip, depth - 1 - r, beta - 1, beta, ply + 1, turns, false);
                    self.null_ok = true;
                    self.game.unmake();
                    let s = s?;
                    if s >= beta {
                        return Ok(if s >= MATE_BOUND { beta } else { s });
                    }
                }
            }
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        scores.clear();
        for &m in moves.iter() {
            scores.push(self.order_key(m, hash_move, ply));
        }
        // Late-move pruning: quiet moves past this many at a shallow node are not searched.
        let late = LATE_MOVES[depth.clamp(0, SHALLOW_DEPTH) as usize];
        let spread = shallow && moves.len() > late && self.game.family(moves[0]).is_some();
        if spread {
            let game = &self.game;
            let family = |m| game.family(m).unwrap_or_else(|| game.move_bits(m));
            self.spread.order(moves, &mut scores, KILLER, late, family);
        }
        let side = self.game.side_to_move();
        let alpha0 = *alpha;
        let mut best = -INFINITY;
        let mut best_bits = 0;
        let mut quiets_tried = std::mem::take(&mut self.quiets[ply]);
        quiets_tried.clear();
        let mut result = Ok(());
        // Futility: a quiet move that would need more than this margin to reach alpha is
        // not searched at the frontier.
        let futile = static_eval
            .filter(|_| depth <= FUTILITY_DEPTH)
            .is_some_and(|e| e + FUTILITY_MARGIN * (depth + 1) <= *alpha);
        let mut checks_possible = None;
        for i in 0..moves.len() {
            if spread {
                // Ordered already ([`FamilySpread::order`]).
            } else if i < SELECTED_MOVES {
                // Selection sort for the first moves (a cut-off usually comes early)...
                let mut j = i;
                for k in i + 1..moves.len() {
                    if scores[k] > scores[j] {
                        j = k;
                    }
                }
                moves.swap(i, j);
                scores.swap(i, j);
            } else if i == SELECTED_MOVES {
                // ... then the rest sorted once: selecting each of hundreds of moves (a duck
                // move is a move and a square) would cost their square.
                sort_by_score(&mut moves[i..], &mut scores[i..], &mut self.keyed);
            }
            let m = moves[i];
            let capture = self.game.is_capture(m);
            let order = scores[i];
            let prunable = shallow
                && i > 0
                && !capture
                && order < KILLER
                && best > -MATE_BOUND
                && (futile || quiets_tried.len() >= late);
            if prunable {
                // Asked once a node, at its first prunable move.
                let possible = match checks_possible {
                    Some(c) => Ok(c),
                    None => self.game.checks_possible(),
                };
                match possible {
                    Ok(c) => checks_possible = Some(c),
                    Err(e) => {
                        result = Err(Halt::Error(e));
                        break;
                    }
                }
                if checks_possible == Some(false) {
                    continue;
                }
            }
            if let Err(e) = self.game.make(m) {
                result = Err(Halt::Error(e));
                break;
            }
            if prunable {
                // A check is searched whatever its order: a quiet mate (or the threat the
                // evaluation does not see) is what these prunings would miss.
                match self.game.in_check() {
                    Ok(true) => {}
                    Ok(false) => {
                        self.game.unmake();
                        continue;
                    }
                    Err(e) => {
                        self.game.unmake();
                        result = Err(Halt::Error(e));
                        break;
                    }
                }
            }
            let flip = self.game.side_to_move() != side;
            let s = if i == 0 {
                self.child(flip, depth - 1, *alpha, beta, ply + 1, turns, pv_node)
            } else {
                // Late quiet moves are searched shallower first.
                let reduce = if depth >= self.pruning_depth
                    && i >= 3
                    && !capture
                    && !in_check
                    && order < KILLER
                {
                    1 + (depth >= 6 && i >= 8) as i32
                } else {
                    0
                };
                let mut r = self.child(
                    flip,
                    depth - 1 - reduce,
                    *alpha,
                    *alpha + 1,
                    ply + 1,
                    turns,
                    false,
                );
                if reduce > 0 && matches!(r, Ok(s) if s > *alpha) {
                    r = self.child(flip, depth - 1, *alpha, *alpha + 1, ply + 1, turns, false);
                }
                match r {
                    Ok(s) if s > *alpha && s < beta && pv_node => {
                        self.child(flip, depth - 1, *alpha, beta, ply + 1, turns, true)
                    }
                    r => r,
                }
            };
            self.game.unmake();
            let s = match s {
                Ok(s) => s,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            if s > best {
                best = s;
                best_bits = self.game.move_bits(m);
                if s > *alpha {
                    *alpha = s;
                    if pv_node {
                        self.set_pv(ply, m);
                    }
                    if s >= beta {
                        if !capture {
                            self.reward(m, depth, ply, &quiets_tried, moves);
                        }
                        break;
                    }
                }
            }
            if !capture {
                quiets_tried.push(i);
            }
        }
        self.scores[ply] = scores;
        self.quiets[ply] = quiets_tried;
        result?;
        let bound = Bound::of(best, alpha0, beta);
        let stored = if bound == Bound::Upper { 0 } else { best_bits };
        self.tt.store(key, stored, to_tt(best, turns), depth, bound);
        Ok(best)
    }

    /// A quiet move that caused a cut-off becomes a killer and gains history; the quiet
    /// moves tried before it lose some.
    fn reward(&mut self, m: G::Move, depth: i32, ply: usize, tried: &[usize], moves: &[G::Move]) {
        let bits = self.game.move_bits(m);
        let k = &mut self.killers[ply];
        if k[0] != bits {
            k[1] = k[0];
            k[0] = bits;
        }
        let bonus = (depth * depth).min(400);
        self.histories.gain(self.game.history_slot(m), bonus);
        if let Some(d) = self.detail_slot(m) {
            self.histories.gain_detail(d, bonus);
        }
        for &i in tried {
            self.histories
                .gain(self.game.history_slot(moves[i]), -bonus);
            if let Some(d) = self.detail_slot(moves[i]) {
                self.histories.gain_detail(d, -bonus);
            }
        }
    }

    fn quiesce(
        &mut self,
        alpha: i32,
        beta: i32,
        ply: usize,
        turns: i32,
        line: QuiescenceLine,
    ) -> Res<i32, G::Error> {
        if self.tick() {
            return Err(Halt::Stop);
        }
        self.seldepth = self.seldepth.max(ply);
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let r = (|| {
            if let Some(score) = self.settle(&mut moves, turns)? {
                return Ok(score);
            }
            let in_check = self.game.in_check()?;
            self.quiesce_moves(alpha, beta, ply, turns, in_check, line, &mut moves)
        })();
        self.moves[ply] = moves;
        r
    }

    /// Quiescence at a node whose moves are known and that is not over: stand pat unless in
    /// check, then captures (every move when in check) by MVV-LVA; out of check, a node whose
    /// moves are all captures stands pat.
    #[allow(clippy::too_many_arguments)]
    fn quiesce_moves(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        turns: i32,
        in_check: bool,
        line: QuiescenceLine,
        moves: &mut Vec<G::Move>,
    ) -> Res<i32, G::Error> {
        if line.moves >= MAX_QUIESCENCE || ply >= MAX_PLY - 1 {
            return Ok(self.game.evaluate()?);
        }
        // The table, as in the main search: an entry's depth is minus its node's distance
        // from the main search, so an entry serves a node with as many quiescence plies
        // left or fewer (one stored nearer the limit saw a shorter horizon), and every entry
        // of the main search serves. Probed before the static evaluation, which a cut
        // does not need.
        let key = self.game.hash();
        let qdepth = -(line.moves as i32);
        let mut hash_move = 0;
        if let Some(h) = self.tt.probe(key) {
            hash_move = h.mv;
            let s = from_tt(h.score, turns);
            if h.depth >= qdepth && h.bound.settles(s, alpha, beta) {
                return Ok(s);
            }
        }
        let stand = self.game.evaluate()?;
        let alpha0 = alpha;
        // A check that quiet answers keep coming back to (kings side by side that may not
        // take each other, in petrified) is no threat quiescence can settle: past
        // QUIET_ANSWER_PLIES such answers on the line, a check stands pat like any node.
        let in_check = in_check && line.quiet_answers < QUIET_ANSWER_PLIES;
        let mut best = -INFINITY;
        if !in_check {
            if stand >= beta {
                return Ok(stand);
            }
            best = stand;
            alpha = alpha.max(stand);
            let all = moves.len();
            moves.retain(|&m| self.game.is_capture(m));
            if moves.len() == all {
                // Every move is a capture (Clobber, a forced capture of giveaway): captures
                // are the game's moves here, not an exchange to settle, and searching them
                // would play the game out in quiescence.
                return Ok(stand);
            }
            // Deep in quiescence, recaptures only: where exchanges are open on many squares
            // at once (doublearmy's pawns in contact), every capture in every order reached
            // the depth limit.
            if let Some(sq) = line.last_square.filter(|_| line.moves >= RECAPTURES_ONLY) {
                moves.retain(|&m| self.game.capture_square(m).is_none_or(|t| t == sq));
            }
        }
        let mut keyed: Vec<(i32, G::Move)> = moves
            .iter()
            .map(|&m| {
                let k = if is_hash_move(self.game.move_bits(m), hash_move) {
                    TT_MOVE
                } else if self.game.is_capture(m) {
                    CAPTURE + self.game.capture_order(m)
                } else {
                    self.histories
                        .history(self.game.history_slot(m))
                        .min(KILLER - 1)
                };
                (k, m)
            })
            .collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        let side = self.game.side_to_move();
        let mut quiets = 0;
        let mut best_bits = 0;
        let mut families = std::mem::take(&mut self.families[ply]);
        families.clear();
        for (_, m) in keyed {
            if let Some(f) = self.game.family(m) {
                // One capture of a family settles the exchange (SearchGame::family); in check
                // every member is searched until one is known not to be mated (where walls
                // block checks, the detail may be what saves the king).
                if families.contains(&f) && best > -MATE_BOUND {
                    continue;
                }
                families.push(f);
            }
            let quiet = !self.game.is_capture(m);
            if quiet {
                // A quiet evasion (captures come first). Once the check is known not to
                // mate, two of them say enough: a rule set whose checks leave many quiet
                // answers (a commoner king, walls) would otherwise grow a check-and-capture
                // chain as wide as the whole game tree in quiescence.
                if quiets >= QUIET_EVASIONS && best > -MATE_BOUND {
                    break;
                }
                quiets += 1;
            }
            self.game.make(m)?;
            let flip = self.game.side_to_move() != side;
            let next = QuiescenceLine {
                moves: line.moves + 1,
                quiet_answers: line.quiet_answers + usize::from(quiet),
                last_square: if quiet {
                    None
                } else {
                    self.game.capture_square(m)
                },
            };
            let s = if flip {
                self.quiesce(-beta, -alpha, ply + 1, turns + 1, next)
                    .map(|s| -s)
            } else {
                self.quiesce(alpha, beta, ply + 1, turns, next)
            };
            self.game.unmake();
            let s = s?;
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    best_bits = self.game.move_bits(m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.families[ply] = families;
        if best == -INFINITY {
            // In check with every evasion searched and none better: cannot happen (the
            // moves are legal and non-empty), but keep a defined value.
            best = stand;
        }
        let bound = Bound::of(best, alpha0, beta);
        self.tt
            .store(key, best_bits, to_tt(best, turns), qdepth, bound);
        Ok(best)
    }
}
