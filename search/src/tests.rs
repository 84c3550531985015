//! The search against exhaustive minimax on small games, single-move and multi-move turns.

use super::*;

/// Take-away: a pile of stones, each half-move takes 1 to 3; whoever takes the last stone
/// wins. With `per_turn` half-moves per turn the side changes every `per_turn` takes (or
/// when the pile is empty).
#[derive(Clone)]
struct TakeAway {
    pile: u32,
    per_turn: u8,
    side: u8,
    phase: u8,
    history: Vec<(u32, u8, u8)>,
}

impl TakeAway {
    fn new(pile: u32, per_turn: u8) -> TakeAway {
        TakeAway {
            pile,
            per_turn,
            side: 0,
            phase: 0,
            history: Vec::new(),
        }
    }
}

impl SearchGame for TakeAway {
    type Move = u32;
    type Error = ();
    fn side_to_move(&self) -> u8 {
        self.side
    }
    fn hash(&self) -> u64 {
        (self.pile as u64) << 16 | (self.side as u64) << 8 | self.phase as u64 | 1 << 40
    }
    fn legal_moves(&mut self, out: &mut Vec<u32>) -> Result<(), ()> {
        out.clear();
        out.extend((1..=3).filter(|&k| k <= self.pile));
        Ok(())
    }
    fn make(&mut self, m: u32) -> Result<(), ()> {
        self.history.push((self.pile, self.side, self.phase));
        self.pile -= m;
        if self.pile == 0 {
            // The taker wins: the game ends with the loser to move.
            self.side ^= 1;
            self.phase = 0;
        } else {
            self.phase += 1;
            if self.phase == self.per_turn {
                self.phase = 0;
                self.side ^= 1;
            }
        }
        Ok(())
    }
    fn unmake(&mut self) {
        let (p, s, ph) = self.history.pop().expect("a move to take back");
        self.pile = p;
        self.side = s;
        self.phase = ph;
    }
    fn terminal(&mut self, _has: bool) -> Result<Option<Terminal>, ()> {
        Ok((self.pile == 0).then_some(Terminal::Loss))
    }
    fn in_check(&mut self) -> Result<bool, ()> {
        Ok(false)
    }
    fn is_capture(&self, _m: u32) -> bool {
        false
    }
    fn capture_order(&self, _m: u32) -> i32 {
        0
    }
    fn evaluate(&mut self) -> Result<i32, ()> {
        Ok(0)
    }
    fn move_bits(&self, m: u32) -> u64 {
        m as u64
    }
    fn history_slot(&self, m: u32) -> usize {
        m as usize
    }
}

/// Exhaustive negamax with the same sign rule, as the reference: +1 win, -1 loss.
fn solve(g: &mut TakeAway) -> i32 {
    if g.pile == 0 {
        return -1;
    }
    let mut best = -2;
    let mut moves = Vec::new();
    g.legal_moves(&mut moves).unwrap();
    for m in moves {
        let side = g.side;
        g.make(m).unwrap();
        let s = if g.side != side { -solve(g) } else { solve(g) };
        g.unmake();
        best = best.max(s);
    }
    best
}

fn search(g: &TakeAway, threads: usize, depth: u32) -> Found<u32> {
    let mut s = Searcher::new(threads, 1);
    let stop = AtomicBool::new(false);
    let budget = Budget {
        depth: Some(depth),
        ..Budget::default()
    };
    s.search(g, &budget, &stop, &mut |_| {}).unwrap()
}

/// One thread's search of `g` within `budget`, never stopped from outside.
fn search_within<G: SearchGame>(g: &G, budget: Budget) -> Found<G::Move>
where
    G::Error: std::fmt::Debug,
{
    let stop = AtomicBool::new(false);
    Searcher::new(1, 1)
        .search(g, &budget, &stop, &mut |_| {})
        .unwrap()
}

#[test]
fn agrees_with_minimax_one_move_per_turn() {
    for pile in 1..=14 {
        let g = TakeAway::new(pile, 1);
        let truth = solve(&mut g.clone());
        let f = search(&g, 1, 20);
        assert_eq!(f.score.signum(), truth, "pile {pile}: {f:?}");
        if truth > 0 {
            // The winning take leaves a multiple of four.
            assert_eq!((pile - f.best.unwrap()) % 4, 0, "pile {pile}");
            assert!(f.score >= MATE_BOUND);
        }
    }
}

#[test]
fn multi_move_turns_never_mis_sign() {
    for per_turn in [2, 3] {
        for pile in 1..=16 {
            let g = TakeAway::new(pile, per_turn);
            let truth = solve(&mut g.clone());
            for threads in [1, 2] {
                let f = search(&g, threads, 24);
                assert_eq!(
                    f.score.signum(),
                    truth,
                    "pile {pile}, {per_turn} per turn, {threads} threads: {f:?}"
                );
                // The best move keeps the win.
                if truth > 0 {
                    let mut h = g.clone();
                    h.make(f.best.unwrap()).unwrap();
                    let after = if h.side != g.side {
                        -solve(&mut h)
                    } else {
                        solve(&mut h)
                    };
                    assert_eq!(after, 1, "pile {pile}, {per_turn} per turn: {f:?}");
                }
            }
        }
    }
}

#[test]
fn mate_distance_counts_turns() {
    // Pile 5, one take per turn: take 1 (leaving 4) wins in three turns of ours at most.
    let f = search(&TakeAway::new(5, 1), 1, 20);
    assert_eq!(mate_in(f.score), Some(2), "{f:?}");
    // Pile 3: take all, mate in 1.
    let f = search(&TakeAway::new(3, 1), 1, 20);
    assert_eq!(mate_in(f.score), Some(1));
    // Pile 4: lost; the opponent takes the last stone on its first turn.
    let f = search(&TakeAway::new(4, 1), 1, 20);
    assert_eq!(mate_in(f.score), Some(-1), "{f:?}");
    // Two takes per turn, pile 5: two takes of ours cannot empty it only if 3+3 < 5 — they can
    // (3 then 2): a win within our first turn.
    let f = search(&TakeAway::new(5, 2), 1, 20);
    assert_eq!(mate_in(f.score), Some(1), "{f:?}");
}

#[test]
fn a_set_stop_flag_still_returns_a_move() {
    let g = TakeAway::new(40, 1);
    let mut s = Searcher::new(2, 1);
    let stop = AtomicBool::new(true);
    let f = s
        .search(&g, &Budget::default(), &stop, &mut |_| {})
        .unwrap();
    assert!(f.best.is_some());
}

#[test]
fn a_win_at_once_is_played_whatever_the_budget() {
    // Take-away from 3: taking 3 wins now, and it is the last root move in order. A budget
    // of one node ends the first iteration inside the first move's subtree.
    for per_turn in [1, 2] {
        let g = TakeAway::new(3, per_turn);
        let mut s = Searcher::new(1, 1);
        let stop = AtomicBool::new(false);
        let budget = Budget {
            nodes: Some(1),
            ..Budget::default()
        };
        let mut reports = 0;
        let f = s.search(&g, &budget, &stop, &mut |_| reports += 1).unwrap();
        assert_eq!(f.best, Some(3), "{per_turn} takes a turn");
        assert_eq!(mate_in(f.score), Some(1));
        assert_eq!(f.pv, vec![3]);
        assert_eq!(reports, 1, "a GUI hears the score once");
    }
    // With stones left after every take no move wins at once: the search decides as before.
    let f = search(&TakeAway::new(6, 1), 1, 8);
    assert_eq!(f.best, Some(2));
}

#[test]
fn node_limit_is_kept() {
    let g = TakeAway::new(60, 1);
    let mut s = Searcher::new(1, 1);
    let stop = AtomicBool::new(false);
    let budget = Budget {
        nodes: Some(500),
        ..Budget::default()
    };
    let f = s.search(&g, &budget, &stop, &mut |_| {}).unwrap();
    assert!(f.nodes <= 501, "{}", f.nodes);
    assert!(f.best.is_some());
}

#[test]
fn clock_budget_leaves_time() {
    let (soft, hard) = Budget::for_clock(Duration::from_secs(60), Duration::from_secs(1), None);
    assert!(soft < Duration::from_secs(4) && soft > Duration::from_secs(1));
    assert!(hard >= soft && hard < Duration::from_secs(48));
    let (soft, hard) = Budget::for_clock(Duration::from_millis(100), Duration::ZERO, Some(1));
    assert!(soft <= Duration::from_millis(50) && hard <= Duration::from_millis(80));
}

/// A wide game of quiet moves: eight moves at every node, no end, and a static evaluation
/// that is a hash of the moves so far (so no two lines transpose), with passes allowed.
#[derive(Clone)]
struct Wide {
    line: Vec<u8>,
    pruning_depth: i32,
    /// [`SearchGame::prunes_quiet_moves`].
    quiet_pruning: bool,
    /// Sets a stop flag once the legal moves have been asked for this many times.
    stop_at: Option<StopAt>,
    /// [`SearchGame::checks_possible`] (no move of `Wide` ever gives check).
    checks_possible: bool,
    /// How many moves were made, over every clone.
    makes: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

/// When [`Wide`] sets a stop flag.
#[derive(Clone)]
struct StopAt {
    calls: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    after: usize,
    stop: std::sync::Arc<AtomicBool>,
}

impl Wide {
    fn new(line: Vec<u8>, pruning_depth: i32) -> Wide {
        Wide {
            line,
            pruning_depth,
            quiet_pruning: true,
            stop_at: None,
            checks_possible: true,
            makes: Default::default(),
        }
    }

    /// The side to move's evaluation of `line`: a hash of it, -500..500.
    fn score(line: &[u8]) -> i32 {
        let mut h: u64 = 0x9E37_79B9_7F4A_7C15;
        for &m in line {
            h = (h ^ m as u64).wrapping_mul(0x100_0000_01B3);
            h ^= h >> 29;
        }
        (h % 1001) as i32 - 500
    }
}

impl SearchGame for Wide {
    type Move = u8;
    type Error = ();
    fn side_to_move(&self) -> u8 {
        (self.line.len() % 2) as u8
    }
    fn hash(&self) -> u64 {
        let mut h: u64 = 1;
        for &m in &self.line {
            h = h.wrapping_mul(31).wrapping_add(m as u64 + 1);
        }
        h | 1 << 63
    }
    fn legal_moves(&mut self, out: &mut Vec<u8>) -> Result<(), ()> {
        if let Some(at) = &self.stop_at {
            if at.calls.fetch_add(1, Ordering::Relaxed) + 1 == at.after {
                at.stop.store(true, Ordering::Relaxed);
            }
        }
        out.clear();
        out.extend(0..8);
        Ok(())
    }
    fn make(&mut self, m: u8) -> Result<(), ()> {
        self.makes.fetch_add(1, Ordering::Relaxed);
        self.line.push(m);
        Ok(())
    }
    fn unmake(&mut self) {
        self.line.pop();
    }
    fn terminal(&mut self, _has: bool) -> Result<Option<Terminal>, ()> {
        Ok(None)
    }
    fn in_check(&mut self) -> Result<bool, ()> {
        Ok(false)
    }
    fn checks_possible(&mut self) -> Result<bool, ()> {
        Ok(self.checks_possible)
    }
    fn is_capture(&self, _m: u8) -> bool {
        false
    }
    fn capture_order(&self, _m: u8) -> i32 {
        0
    }
    fn evaluate(&mut self) -> Result<i32, ()> {
        Ok(Wide::score(&self.line))
    }
    fn move_bits(&self, m: u8) -> u64 {
        m as u64 + 1
    }
    fn history_slot(&self, m: u8) -> usize {
        m as usize
    }
    fn make_null(&mut self) -> bool {
        // A pass: a move no legal list holds.
        self.line.push(100);
        true
    }
    fn pruning_depth(&self) -> i32 {
        self.pruning_depth
    }
    fn prunes_quiet_moves(&self) -> bool {
        self.quiet_pruning
    }
}

/// Plain negamax to `depth` over [`Wide`], the reference.
fn negamax(g: &mut Wide, depth: u32) -> i32 {
    if depth == 0 {
        return Wide::score(&g.line);
    }
    let mut best = i32::MIN;
    for m in 0..8 {
        g.make(m).unwrap();
        best = best.max(-negamax(g, depth - 1));
        g.unmake();
    }
    best
}

#[test]
fn a_pruning_depth_beyond_the_search_gives_the_exact_minimax() {
    let mut pruned_differs = false;
    for opening in 0..6u8 {
        let line = vec![opening, 7 - opening];
        let exact = Wide::new(line.clone(), 64);
        let truth = negamax(&mut exact.clone(), 4);
        let mut s = Searcher::new(1, 1);
        let stop = AtomicBool::new(false);
        let budget = Budget {
            depth: Some(4),
            ..Budget::default()
        };
        let full = s.search(&exact, &budget, &stop, &mut |_| {}).unwrap();
        assert_eq!(full.score, truth, "opening {opening}: {full:?}");
        // The default prunes from 3 plies left, and so (on these lines) does not always
        // find the exact score.
        let pruned = Wide::new(line, PRUNING_DEPTH);
        let mut s = Searcher::new(1, 1);
        let cut = s.search(&pruned, &budget, &stop, &mut |_| {}).unwrap();
        pruned_differs |= cut.score != truth;
    }
    assert!(pruned_differs, "the default pruning never changed a score");
}

/// A search of `g` to depth 5, one thread.
fn to_depth_five(g: &Wide) -> Found<u8> {
    let budget = Budget {
        depth: Some(5),
        ..Budget::default()
    };
    let stop = AtomicBool::new(false);
    Searcher::new(1, 1)
        .search(g, &budget, &stop, &mut |_| {})
        .unwrap()
}

/// Near the leaves quiet moves are pruned (reverse futility, futility, late moves) unless the
/// game says no: the same searches then take fewer nodes. (With a pruning depth beyond the
/// search nothing is pruned whatever the game says: the test above, whose games allow it.)
#[test]
fn quiet_moves_are_pruned_near_the_leaves_unless_the_game_says_no() {
    let nodes = |quiet_pruning: bool| -> u64 {
        (0..6u8)
            .map(|opening| {
                let mut g = Wide::new(vec![opening, 7 - opening], PRUNING_DEPTH);
                g.quiet_pruning = quiet_pruning;
                let found = to_depth_five(&g);
                assert_eq!(found.depth, 5);
                found.nodes
            })
            .sum()
    };
    let (pruned, full) = (nodes(true), nodes(false));
    assert!(pruned < full, "pruned {pruned} nodes, not pruned {full}");
}

/// Where the game says no move can give check, the quiet moves pruned near the leaves are
/// left out without being played: the same search, fewer moves made (here 1,774 against
/// 2,071: eight moves a node; amazons has about two thousand).
#[test]
fn pruned_moves_are_not_played_where_no_move_can_check() {
    let run = |checks_possible: bool| {
        let mut g = Wide::new(vec![2, 5], PRUNING_DEPTH);
        g.checks_possible = checks_possible;
        let found = to_depth_five(&g);
        let makes = g.makes.load(Ordering::Relaxed);
        ((found.best, found.score, found.nodes), makes)
    };
    let (looked, looked_makes) = run(true);
    let (left, left_makes) = run(false);
    assert_eq!(looked, left);
    assert!(
        left_makes < looked_makes,
        "{left_makes} moves made, {looked_makes} when each pruned move is played"
    );
}

#[test]
fn a_search_cut_short_plays_the_best_move_of_a_first_look() {
    // A budget of one node ends the first iteration at once: the move played is the best by
    // the static evaluation after each root move, not the first move generated.
    let mut first_was_worse = false;
    for opening in 0..8u8 {
        let mut g = Wide::new(vec![opening], PRUNING_DEPTH);
        let best_value = negamax(&mut g.clone(), 1);
        let budget = Budget {
            nodes: Some(1),
            ..Budget::default()
        };
        let f = search_within(&g, budget);
        let m = f.best.expect("a move");
        g.make(m).unwrap();
        assert_eq!(-Wide::score(&g.line), best_value, "opening {opening}");
        g.unmake();
        g.make(0).unwrap();
        first_was_worse |= -Wide::score(&g.line) < best_value;
    }
    assert!(
        first_was_worse,
        "the first move was always the best: the test shows nothing"
    );
}

#[test]
fn the_first_look_stops_with_the_search() {
    // The stop flag is set while the look makes the second of eight root moves (the root's
    // own move list is the first call): the look makes no further move, and a move is
    // still played.
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let g = Wide {
        stop_at: Some(StopAt {
            calls: calls.clone(),
            after: 3,
            stop: stop.clone(),
        }),
        ..Wide::new(vec![3], PRUNING_DEPTH)
    };
    let mut s = Searcher::new(1, 1);
    let f = s
        .search(&g, &Budget::default(), &stop, &mut |_| {})
        .unwrap();
    assert!(f.best.is_some());
    assert_eq!(calls.load(Ordering::Relaxed), 3);
}

/// Take-away where every move counts as a capture and the evaluation favours the side that
/// leaves a multiple of 4; `deepest` records the most moves made on any line.
#[derive(Clone)]
struct AllCaptures {
    game: TakeAway,
    deepest: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl SearchGame for AllCaptures {
    type Move = u32;
    type Error = ();
    fn side_to_move(&self) -> u8 {
        self.game.side_to_move()
    }
    fn hash(&self) -> u64 {
        self.game.hash()
    }
    fn legal_moves(&mut self, out: &mut Vec<u32>) -> Result<(), ()> {
        self.game.legal_moves(out)
    }
    fn make(&mut self, m: u32) -> Result<(), ()> {
        self.game.make(m)?;
        let made = self.game.history.len();
        self.deepest
            .fetch_max(made, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }
    fn unmake(&mut self) {
        self.game.unmake()
    }
    fn terminal(&mut self, has: bool) -> Result<Option<Terminal>, ()> {
        self.game.terminal(has)
    }
    fn in_check(&mut self) -> Result<bool, ()> {
        Ok(false)
    }
    fn is_capture(&self, _m: u32) -> bool {
        true
    }
    fn capture_order(&self, m: u32) -> i32 {
        m as i32
    }
    fn evaluate(&mut self) -> Result<i32, ()> {
        Ok(if self.game.pile.is_multiple_of(4) {
            -50
        } else {
            50
        })
    }
    fn move_bits(&self, m: u32) -> u64 {
        m as u64
    }
    fn history_slot(&self, m: u32) -> usize {
        m as usize
    }
}

/// Where every move is a capture, quiescence stands pat: a depth-2 search makes no line
/// longer than two moves (not the game played out capture by capture, up to 12 more), and
/// still finds the move that leaves a multiple of 4.
#[test]
fn quiescence_stands_pat_where_every_move_is_a_capture() {
    let deepest = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let g = AllCaptures {
        game: TakeAway::new(41, 1),
        deepest: deepest.clone(),
    };
    let budget = Budget {
        depth: Some(2),
        ..Budget::default()
    };
    let f = search_within(&g, budget);
    assert_eq!(f.best, Some(1));
    let deepest = deepest.load(std::sync::atomic::Ordering::Relaxed);
    assert!(deepest <= 2, "a line of {deepest} moves");
}

/// The search of `g` with `focus` to `depth`, one thread, with every line it reported at the
/// last depth.
fn search_lines(g: &Wide, focus: &Focus<u8>, budget: Budget) -> (Found<u8>, Vec<Report<u8>>) {
    let stop = AtomicBool::new(false);
    let mut last: Vec<Report<u8>> = Vec::new();
    let found = Searcher::new(1, 1)
        .search_focused(g, &budget, focus, &stop, &mut |r| {
            if r.line == 1 {
                last.clear();
            }
            last.push(r.clone());
        })
        .unwrap();
    (found, last)
}

#[test]
fn several_lines_are_the_best_moves_each_with_its_exact_score() {
    for opening in 0..4u8 {
        let g = Wide::new(vec![opening, 5 - opening], 64);
        // Each root move's exact value at depth 3: the negamax of its child at depth 2.
        let mut exact: Vec<(i32, u8)> = (0..8u8)
            .map(|m| {
                let mut child = g.clone();
                child.make(m).unwrap();
                (-negamax(&mut child, 2), m)
            })
            .collect();
        exact.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        let focus = Focus {
            lines: 3,
            moves: Vec::new(),
        };
        let budget = Budget {
            depth: Some(3),
            ..Budget::default()
        };
        let (found, lines) = search_lines(&g, &focus, budget);
        assert_eq!(lines.len(), 3, "opening {opening}");
        let ranks: Vec<u32> = lines.iter().map(|r| r.line).collect();
        assert_eq!(ranks, [1, 2, 3]);
        for (k, r) in lines.iter().enumerate() {
            assert_eq!(r.depth, 3);
            assert_eq!(r.score, exact[k].0, "opening {opening}, line {}", k + 1);
            let first = r.pv[0];
            let mut child = g.clone();
            child.make(first).unwrap();
            assert_eq!(
                -negamax(&mut child, 2),
                r.score,
                "line {} plays its score",
                k + 1
            );
        }
        let firsts: std::collections::HashSet<u8> = lines.iter().map(|r| r.pv[0]).collect();
        assert_eq!(firsts.len(), 3, "three different first moves");
        assert_eq!(found.score, exact[0].0);
        assert_eq!(found.best, Some(lines[0].pv[0]));
    }
}

#[test]
fn more_lines_than_moves_reports_every_move_once() {
    let g = Wide::new(vec![1], 64);
    let focus = Focus {
        lines: 50,
        moves: Vec::new(),
    };
    let budget = Budget {
        depth: Some(2),
        ..Budget::default()
    };
    let (_, lines) = search_lines(&g, &focus, budget);
    let mut firsts: Vec<u8> = lines.iter().map(|r| r.pv[0]).collect();
    assert!(lines.windows(2).all(|w| w[0].score >= w[1].score));
    firsts.sort();
    assert_eq!(firsts, (0..8).collect::<Vec<u8>>());
}

#[test]
fn only_the_chosen_root_moves_are_searched() {
    let g = Wide::new(vec![2, 6], 64);
    let value = |m: u8| {
        let mut child = g.clone();
        child.make(m).unwrap();
        -negamax(&mut child, 2)
    };
    let best_of_all = (0..8u8).max_by_key(|&m| value(m)).unwrap();
    // The chosen moves leave the best move out.
    let chosen: Vec<u8> = (0..8u8).filter(|&m| m != best_of_all).take(3).collect();
    let budget = Budget {
        depth: Some(3),
        ..Budget::default()
    };
    let focus = Focus {
        lines: 1,
        moves: chosen.clone(),
    };
    let (found, _) = search_lines(&g, &focus, budget);
    let best = found.best.unwrap();
    assert!(chosen.contains(&best), "{best} is not among {chosen:?}");
    assert_eq!(found.score, chosen.iter().map(|&m| value(m)).max().unwrap());
    // A choice with no legal move in it searches every move.
    let focus = Focus {
        lines: 1,
        moves: vec![42],
    };
    let (found, _) = search_lines(&g, &focus, budget);
    assert_eq!(found.best, Some(best_of_all));
}

#[test]
fn a_mate_limit_ends_the_search_once_the_mate_is_found() {
    // Take-away from 9: taking 1 wins. With two lines the search does not stop at a mate by
    // itself (the second line may still change), so without a mate limit it goes to the
    // deepest depth; with one, it stops at the first depth that sees the mate.
    let g = TakeAway::new(9, 1);
    let focus = Focus {
        lines: 2,
        moves: Vec::new(),
    };
    let stop = AtomicBool::new(false);
    let run = |budget: Budget| {
        Searcher::new(1, 1)
            .search_focused(&g, &budget, &focus, &stop, &mut |_| {})
            .unwrap()
    };
    let unlimited = run(Budget::default());
    assert_eq!(unlimited.depth, MAX_PLY as u32 - 1);
    let limited = run(Budget {
        mate: Some(5),
        ..Budget::default()
    });
    assert_eq!(mate_in(limited.score), Some(3), "{limited:?}");
    assert_eq!(limited.best, Some(1));
    assert!(limited.depth < 10, "{limited:?}");
    // A mate further than the limit does not stop it.
    let too_far = run(Budget {
        mate: Some(2),
        ..Budget::default()
    });
    assert_eq!(too_far.depth, MAX_PLY as u32 - 1);
}

/// The rules of [`CheckGame`].
#[derive(Clone, Copy)]
enum Checks {
    /// Checks without end: the checker (to move at an even ply) has a capture that gives
    /// check (`CHECKING_CAPTURE`) and two quiet moves; the side in check has `EVASIONS` quiet
    /// answers, after each of which the capture gives check again. Every capture is worth 100
    /// to the checker, so quiescence always takes it. With `fatal`, every answer but the last
    /// lets the next capture mate.
    Chain { fatal: bool },
    /// Kings side by side that may not take each other (petrified's commoners): both sides
    /// are in check at every node, and every one of `WIDTH` quiet moves leaves them so.
    Ever,
}

/// A game of checks, its position the line of move numbers played.
#[derive(Clone)]
struct CheckGame {
    rules: Checks,
    line: Vec<u32>,
}

const CHECKING_CAPTURE: u32 = 100;
const EVASIONS: u32 = 20;
const WIDTH: u32 = 6;

impl CheckGame {
    fn new(rules: Checks) -> CheckGame {
        CheckGame {
            rules,
            line: Vec::new(),
        }
    }
    fn key(&self) -> u64 {
        self.line.iter().fold(0x9e37_79b9_7f4a_7c15, |h, &m| {
            (h ^ (m as u64 + 1))
                .wrapping_mul(0x0100_0000_01b3)
                .rotate_left(17)
        })
    }
    fn checked(&self) -> bool {
        match self.rules {
            Checks::Chain { .. } => self.line.last() == Some(&CHECKING_CAPTURE),
            Checks::Ever => true,
        }
    }
    fn mated(&self) -> bool {
        let n = self.line.len();
        matches!(self.rules, Checks::Chain { fatal: true })
            && self.checked()
            && n >= 2
            && self.line[n - 2] < EVASIONS - 1
    }
}

/// The moves, turns, key and end of a game whose position is the line of move numbers played
/// (`line: Vec<u32>`, hashed by its `key()`), sides alternating, where the side without a move
/// has lost.
macro_rules! line_of_moves {
    () => {
        type Move = u32;
        type Error = ();
        fn side_to_move(&self) -> u8 {
            (self.line.len() % 2) as u8
        }
        fn hash(&self) -> u64 {
            self.key()
        }
        fn make(&mut self, m: u32) -> Result<(), ()> {
            self.line.push(m);
            Ok(())
        }
        fn unmake(&mut self) {
            self.line.pop();
        }
        fn terminal(&mut self, has: bool) -> Result<Option<Terminal>, ()> {
            Ok((!has).then_some(Terminal::Loss))
        }
    };
}

impl SearchGame for CheckGame {
    line_of_moves!();
    fn legal_moves(&mut self, out: &mut Vec<u32>) -> Result<(), ()> {
        out.clear();
        if self.mated() {
            return Ok(());
        }
        match self.rules {
            Checks::Ever => out.extend(0..WIDTH),
            Checks::Chain { .. } if self.line.len().is_multiple_of(2) => {
                out.extend([CHECKING_CAPTURE, 101, 102])
            }
            Checks::Chain { .. } if self.checked() => out.extend(0..EVASIONS),
            Checks::Chain { .. } => out.extend([0, 1]),
        }
        Ok(())
    }
    fn in_check(&mut self) -> Result<bool, ()> {
        Ok(self.checked())
    }
    fn check_persists(&mut self) -> Result<bool, ()> {
        Ok(matches!(self.rules, Checks::Ever) && !self.line.is_empty())
    }
    fn is_capture(&self, m: u32) -> bool {
        matches!(self.rules, Checks::Chain { .. }) && m == CHECKING_CAPTURE
    }
    fn capture_order(&self, _m: u32) -> i32 {
        0
    }
    fn evaluate(&mut self) -> Result<i32, ()> {
        Ok(match self.rules {
            Checks::Chain { .. } => {
                let captures = self.line.iter().filter(|&&m| m == CHECKING_CAPTURE).count();
                let checker = if self.line.len().is_multiple_of(2) {
                    1
                } else {
                    -1
                };
                checker * 100 * captures as i32
            }
            // Scores that differ from position to position, so that cut-offs are not free.
            Checks::Ever => (self.key() % 101) as i32 - 50,
        })
    }
    fn move_bits(&self, m: u32) -> u64 {
        m as u64 + 1
    }
    fn history_slot(&self, m: u32) -> usize {
        m as usize
    }
}

/// A rule set whose checks leave many quiet answers (Fairy-Stockfish's petrified: a commoner
/// king among walls) grew quiescence's check-and-capture chains to every answer of every
/// check, 20^6 lines a quiescence search here (a depth-3 search in petrified ran for
/// minutes; here depth 2 takes 80,000 nodes, and over 1,000,000 without). Once a check is
/// known not to mate, two quiet answers are searched.
#[test]
fn a_chain_of_checks_with_many_answers_stays_narrow_in_quiescence() {
    let g = CheckGame::new(Checks::Chain { fatal: false });
    let budget = Budget {
        depth: Some(2),
        nodes: Some(1_000_000),
        ..Budget::default()
    };
    let f = search_within(&g, budget);
    assert_eq!(f.depth, 2);
    assert!(f.nodes < 200_000, "{} nodes", f.nodes);
    assert_eq!(f.best, Some(CHECKING_CAPTURE));
}

/// ... but a check whose first answers are all mated is searched until an answer is not:
/// quiescence does not call a check mate while an answer is left unsearched.
#[test]
fn quiescence_calls_a_check_mate_only_when_every_answer_loses() {
    let g = CheckGame::new(Checks::Chain { fatal: true });
    let budget = Budget {
        depth: Some(2),
        nodes: Some(1_000_000),
        ..Budget::default()
    };
    let f = search_within(&g, budget);
    assert!(f.score.abs() < MATE_BOUND, "score {}", f.score);
    assert!(f.score >= 100, "score {}", f.score);
}

/// Where both sides stay in check, a check that was there before the last move is not
/// extended, and quiescence stops answering checks after a few quiet answers: before, every
/// node was extended (depth 4 searched eight plies at full width) and every quiescence node
/// answered the check (a depth-4 search in petrified ran for minutes). Here depth 4 takes
/// 13,712 nodes; with every check extended it does not end within 5,000,000, and with every
/// check answered in quiescence it takes 415,311.
#[test]
fn checks_that_never_end_are_not_extended_at_every_node() {
    let g = CheckGame::new(Checks::Ever);
    let budget = Budget {
        depth: Some(4),
        nodes: Some(5_000_000),
        ..Budget::default()
    };
    let f = search_within(&g, budget);
    assert_eq!(f.depth, 4);
    assert!(f.nodes < 50_000, "{} nodes", f.nodes);
}

/// An exchange game whose every move comes with a detail that changes nothing (the duck's
/// square of duck chess): each side may capture one of [`VICTIMS`] pieces of growing value,
/// each capture once per detail, or play one of two quiet moves; a position's score is the
/// material won along the line. With `families`, the moves of one capture are one family
/// ([`SearchGame::family`]).
#[derive(Clone)]
struct DetailGame {
    families: bool,
    line: Vec<u32>,
}

const VICTIMS: u32 = 3;
const DETAILS: u32 = 4;
/// Quiet moves are numbered after the captures.
const QUIET_BASE: u32 = VICTIMS * DETAILS;

impl DetailGame {
    fn key(&self) -> u64 {
        // The detail stays on the board (the duck where it was put), so it is part of the
        // position, and lines that differ in details do not transpose.
        self.line.iter().fold(0x51_7cc1_b727_220a, |h, &m| {
            (h ^ (m as u64 + 1))
                .wrapping_mul(0x0100_0000_01b3)
                .rotate_left(23)
        })
    }
}

impl SearchGame for DetailGame {
    line_of_moves!();
    fn legal_moves(&mut self, out: &mut Vec<u32>) -> Result<(), ()> {
        out.clear();
        out.extend(0..QUIET_BASE + 2);
        Ok(())
    }
    fn in_check(&mut self) -> Result<bool, ()> {
        Ok(false)
    }
    fn is_capture(&self, m: u32) -> bool {
        m < QUIET_BASE
    }
    fn capture_order(&self, m: u32) -> i32 {
        (m / DETAILS) as i32
    }
    fn evaluate(&mut self) -> Result<i32, ()> {
        // Material from the side to move: a capture of victim v wins 100 * (v + 1), and a
        // capture is answered by a capture, so exchanges run on to quiescence's limit.
        let mut score = 0;
        for (i, &m) in self.line.iter().enumerate().rev() {
            let gain = if m < QUIET_BASE {
                100 * (m / DETAILS + 1) as i32
            } else {
                (m - QUIET_BASE) as i32
            };
            let mine = (self.line.len() - i).is_multiple_of(2);
            score += if mine { gain } else { -gain };
        }
        Ok(score)
    }
    fn move_bits(&self, m: u32) -> u64 {
        m as u64 + 1
    }
    fn history_slot(&self, m: u32) -> usize {
        m as usize
    }
    fn family(&self, m: u32) -> Option<u64> {
        self.families
            .then_some(if m < QUIET_BASE { m / DETAILS } else { m } as u64)
    }
}

/// Quiescence searches one capture of each family: an exchange of captures that each come
/// once per duck square was DETAILS^k lines deep in duck chess (a depth-2 search took 30
/// million nodes in a middlegame). The score is the same, since the details change no
/// material, and the search is far smaller: depth 2 here takes 1,807 nodes, against 2,895,769
/// with every detail searched.
#[test]
fn quiescence_settles_an_exchange_once_per_family() {
    let budget = Budget {
        depth: Some(2),
        nodes: Some(20_000_000),
        ..Budget::default()
    };
    let run = |families| {
        let g = DetailGame {
            families,
            line: Vec::new(),
        };
        search_within(&g, budget)
    };
    let (with, without) = (run(true), run(false));
    assert_eq!(with.depth, 2);
    assert_eq!(
        without.depth, 2,
        "the search without families ran out of nodes"
    );
    assert_eq!(with.score, without.score);
    assert!(
        with.nodes * 20 < without.nodes,
        "{} nodes with families, {} without",
        with.nodes,
        without.nodes
    );
}

/// A check answered only by moves of one family, of which only the last saves the king (a
/// wall that blocks the check, where walls are the detail): the first side's one move is
/// answered by a capture that checks, and every member of the answer but the last loses at
/// once.
#[derive(Clone)]
struct WallCheck {
    line: Vec<u32>,
}

const WALL_MEMBERS: u32 = 4;

impl SearchGame for WallCheck {
    type Move = u32;
    type Error = ();
    fn side_to_move(&self) -> u8 {
        (self.line.len() % 2) as u8
    }
    fn hash(&self) -> u64 {
        self.line.iter().fold(7, |h, &m| h * 31 + m as u64 + 1)
    }
    fn legal_moves(&mut self, out: &mut Vec<u32>) -> Result<(), ()> {
        out.clear();
        match self.line.len() {
            0 => out.push(50),
            1 => out.extend([60, 100]),
            2 if self.line[1] == 100 => out.extend(0..WALL_MEMBERS),
            _ => out.extend([200, 201]),
        }
        Ok(())
    }
    fn make(&mut self, m: u32) -> Result<(), ()> {
        self.line.push(m);
        Ok(())
    }
    fn unmake(&mut self) {
        self.line.pop();
    }
    fn terminal(&mut self, _has: bool) -> Result<Option<Terminal>, ()> {
        // The checker takes the king after every answer but the last member.
        Ok(match self.line.as_slice() {
            [_, 100, m] if *m + 1 < WALL_MEMBERS => Some(Terminal::Win),
            _ => None,
        })
    }
    fn in_check(&mut self) -> Result<bool, ()> {
        Ok(self.line.get(1) == Some(&100) && self.line.len() == 2)
    }
    fn is_capture(&self, m: u32) -> bool {
        m == 100
    }
    fn capture_order(&self, _m: u32) -> i32 {
        0
    }
    fn evaluate(&mut self) -> Result<i32, ()> {
        Ok(0)
    }
    fn move_bits(&self, m: u32) -> u64 {
        m as u64 + 1
    }
    fn history_slot(&self, m: u32) -> usize {
        m as usize
    }
    fn family(&self, m: u32) -> Option<u64> {
        Some(if m < WALL_MEMBERS { 0 } else { m as u64 })
    }
}

/// In check, quiescence searches the members of a family until one is not mated: the check
/// that the reply's capture gives (in quiescence, below a depth-1 search) is no mate while
/// the last member saves the king.
#[test]
fn in_check_quiescence_searches_a_family_until_an_answer_survives() {
    let budget = Budget {
        depth: Some(1),
        ..Budget::default()
    };
    let f = search_within(&WallCheck { line: Vec::new() }, budget);
    assert_eq!(f.best, Some(50));
    assert!(f.score.abs() < MATE_BOUND, "score {}", f.score);
}

/// Exchanges on many fronts at once, like doublearmy's two rows of pawns in contact: on each
/// of [`FRONTS`] fronts the side to move may capture while the front has pieces left
/// ([`FRONT_DEPTH`]), each capture wins 100, and two quiet moves change nothing. With
/// `squares`, a capture tells its square (its front); with `transposes`, the same captures in
/// another order reach the same position (else every line is a position of its own).
#[derive(Clone)]
struct Fronts {
    squares: bool,
    transposes: bool,
    line: Vec<u32>,
}

const FRONTS: u32 = 8;
const FRONT_DEPTH: u32 = 2;

impl Fronts {
    fn taken(&self, front: u32) -> u32 {
        self.line.iter().filter(|&&m| m == front).count() as u32
    }

    /// Captures made by the side to move less those made by the other side.
    fn balance(&self) -> i32 {
        let n = self.line.len();
        self.line
            .iter()
            .enumerate()
            .filter(|&(_, &m)| m < FRONTS)
            .map(|(i, _)| if (n - i).is_multiple_of(2) { 1 } else { -1 })
            .sum()
    }

    fn key(&self) -> u64 {
        if !self.transposes {
            return self.line.iter().fold(0x51_7cc1_b727_220a, |h, &m| {
                (h ^ (m as u64 + 1))
                    .wrapping_mul(0x0100_0000_01b3)
                    .rotate_left(23)
            });
        }
        // The position: what is left on each front, the material and the side to move (the
        // order of the captures is not part of it).
        let mut h = 0x2545_f491_4f6c_dd1d_u64 ^ (self.line.len() as u64 % 2);
        for f in 0..FRONTS {
            h = (h ^ u64::from(self.taken(f))).wrapping_mul(0x0100_0000_01b3);
        }
        (h ^ self.balance() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}

impl SearchGame for Fronts {
    line_of_moves!();
    fn legal_moves(&mut self, out: &mut Vec<u32>) -> Result<(), ()> {
        out.clear();
        out.extend((0..FRONTS).filter(|&f| self.taken(f) < FRONT_DEPTH));
        out.extend([FRONTS, FRONTS + 1]);
        Ok(())
    }
    fn in_check(&mut self) -> Result<bool, ()> {
        Ok(false)
    }
    fn is_capture(&self, m: u32) -> bool {
        m < FRONTS
    }
    fn capture_order(&self, _m: u32) -> i32 {
        0
    }
    fn capture_square(&self, m: u32) -> Option<u32> {
        self.squares.then_some(m)
    }
    fn evaluate(&mut self) -> Result<i32, ()> {
        Ok(100 * self.balance())
    }
    fn move_bits(&self, m: u32) -> u64 {
        m as u64 + 1
    }
    fn history_slot(&self, m: u32) -> usize {
        m as usize
    }
}

/// Two searches of [`Fronts`] to depth 2, the first as `a`, the second as `b`: both must end
/// the iteration with the same score, and the first in a twentieth of the second's nodes.
fn fronts_searched(a: (bool, bool), b: (bool, bool)) {
    let budget = Budget {
        depth: Some(2),
        nodes: Some(20_000_000),
        ..Budget::default()
    };
    let run = |(squares, transposes)| {
        let g = Fronts {
            squares,
            transposes,
            line: Vec::new(),
        };
        search_within(&g, budget)
    };
    let (a, b) = (run(a), run(b));
    assert_eq!(a.depth, 2);
    assert_eq!(b.depth, 2, "the larger search ran out of nodes");
    assert!(
        a.nodes * 20 < b.nodes,
        "{} nodes against {}",
        a.nodes,
        b.nodes
    );
    assert_eq!(a.score, b.score);
}

/// Deep in quiescence only recaptures are searched: with an exchange possible on every front,
/// every capture in every order was searched to quiescence's depth limit (doublearmy took
/// 10.6 million nodes at depth 2). The exchanges here are even, so the score is the same.
#[test]
fn deep_quiescence_searches_recaptures_only() {
    fronts_searched((true, false), (false, false));
}

/// Quiescence reads and writes the transposition table: captures made in another order
/// reach a position searched already.
#[test]
fn quiescence_reads_the_transposition_table() {
    fronts_searched((false, true), (false, false));
}
