//! A game in progress: position, moves played, repetition history, and the host's n-move and
//! n-fold rules on top of the pipeline's results.
//!
//! Repetition facts cost the same at every ply, whatever the game's length: occurrences are
//! counted per position hash, and "every move of a side since the first occurrence gave check"
//! (perpetual check, `OWN_REPETITION` variants) comes from running counts of moves and of
//! checking moves per colour, read at the first occurrence and now. The counts are cleared
//! after a move that makes every earlier position unreachable: on a pipeline without presets,
//! a capture after which fewer pieces are on the board and in the hands than before (the
//! captured piece is gone for good; with drops it went to a hand and nothing is cleared). Other irreversible moves (a pawn push, a castling right
//! lost) are not used: what is irreversible is the variant's knowledge, not the host's, and
//! a count kept too long costs memory, never a wrong answer. A variant whose repetition rules
//! look back only to the clock's last reset (`REPETITION_SINCE_CLOCK_RESET`, Fairy-Stockfish's
//! rule) has the counts cleared after every move that leaves the halfmove clock at 0: there
//! that is the rule, not a saving.

use crate::error::HostError;
use crate::history::{self, HistoryFacts, MarkedPly};
use crate::pipeline::Pipeline;
use abi_stable::std_types::RVec;
use houserules_plugin_api::{
    Color, Event, Move, MoveEffects, Outcome, Position, ReplayedLine, Square, SquareSet,
    VariantFlags,
};
use std::cell::RefCell;
use std::collections::HashMap;

/// Where a game stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    /// The result, if the game is over.
    pub outcome: Option<Outcome>,
    /// A draw that may be claimed here (`n-move-rule`, `n-fold-repetition`) while the game
    /// goes on.
    pub claimable: Option<String>,
    /// Whether the side to move has a royal attacked.
    pub in_check: bool,
}

/// A game: the pipeline's rules applied move by move.
#[derive(Clone)]
pub struct Game<'p> {
    pipeline: &'p Pipeline,
    /// The position the game started from.
    pub start: Position,
    /// The current position.
    pub position: Position,
    /// Moves played (`None`: a null move, the side to move passed).
    pub moves: Vec<Option<Move>>,
    /// Repetition facts since the last clearing point.
    repetition: Repetition,
    /// Whether a rule reads the per-ply check facts (perpetual check, preset results).
    track_checks: bool,
    /// Whether the counts may be cleared after a move that loses material (no presets).
    may_clear: bool,
    /// Whether the counts start again after every move that leaves the halfmove clock at 0
    /// (the variant's rule, [`VariantFlags::REPETITION_SINCE_CLOCK_RESET`]).
    since_clock_reset: bool,
    /// Whether the variant marks its moves (API 1.5): the history keeps the marks.
    marks_moves: bool,
}

/// Hashes a position key for an occurrence map (here, and the engine's search path): the
/// keys are hashes already (mixed words), so one multiply spreads them; SipHash's guard
/// against chosen keys buys nothing here and cost about 2% of a replay and 3% of a search.
#[derive(Clone, Copy, Default)]
pub(crate) struct KeyHasher;

impl std::hash::BuildHasher for KeyHasher {
    type Hasher = KeyHash;
    fn build_hasher(&self) -> KeyHash {
        KeyHash(0)
    }
}

/// The hasher of [`KeyHasher`].
pub(crate) struct KeyHash(u64);

impl std::hash::Hasher for KeyHash {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, k: u64) {
        self.0 = (self.0 ^ k).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Occurrence counts of positions, and running move and check counts per colour.
#[derive(Clone, Default)]
struct Repetition {
    /// How often each position occurred, counted from the plies a query found (see
    /// [`Occurrences`]).
    occurrences: RefCell<Occurrences>,
    /// The current position's hash.
    current: u64,
    /// Per ply since the clearing point (the position after `k` plies is `marks[k]`): moves
    /// made by each colour, and moves of each colour that gave no check, before it.
    marks: Vec<[u32; 4]>,
    /// Pieces on the board and in the hands now (clearing points are where this drops).
    material: u32,
    /// The move that led to the clearing point (`None`: the game's start), with its mark.
    incoming: Option<MarkedPly>,
    /// Whether the side to move is in check at the clearing point (`None`: not known, the
    /// game's start).
    start_check: Option<bool>,
    /// Per ply since the clearing point, the move and its mark (`marked[k - 1]` led to the
    /// position `marks[k]`), kept for variants that mark their moves.
    marked: Vec<MarkedPly>,
}

/// The positions since the clearing point: every ply's hash in order, and for the first
/// `counted` of them, per hash, how often it occurred and the ply of its first occurrence.
///
/// Hashes are counted lazily: a query scans the plies not yet counted and counts them only
/// after a few queries. A game played move by move asks after every move, so the uncounted
/// plies stay a handful (time per ply independent of the game's length); a batch that
/// replays a whole line asks once or twice at its end, and a scan of the line's hashes
/// costs a fraction of counting them in the map.
#[derive(Clone, Default)]
struct Occurrences {
    keys: Vec<u64>,
    counted: usize,
    seen: HashMap<u64, (u32, u32), KeyHasher>,
    /// Queries since the last count.
    queries: u32,
}

impl Occurrences {
    /// Queries that may scan the uncounted plies before they are counted.
    const SCANS: u32 = 4;

    fn restart(&mut self, h: u64) {
        self.keys.clear();
        self.seen.clear();
        self.counted = 0;
        self.queries = 0;
        self.keys.push(h);
    }

    /// How often `h` occurred, and the ply of its first occurrence (`None`: never).
    fn get(&mut self, h: u64) -> Option<(u32, u32)> {
        self.queries += 1;
        if self.queries > Self::SCANS {
            self.count_all();
        }
        // One pass over the uncounted plies: how often `h` is among them, and where first.
        let (mut later, mut at) = (0u32, None);
        for (i, &k) in self.keys[self.counted..].iter().enumerate() {
            if k == h {
                later += 1;
                at.get_or_insert(self.counted + i);
            }
        }
        match self.seen.get(&h) {
            Some(&(n, first)) => Some((n + later, first)),
            None => at.map(|at| (later, at as u32)),
        }
    }

    fn count_all(&mut self) {
        self.queries = 0;
        for (ply, &k) in self.keys.iter().enumerate().skip(self.counted) {
            self.seen
                .entry(k)
                .and_modify(|e| e.0 += 1)
                .or_insert((1, ply as u32));
        }
        self.counted = self.keys.len();
    }
}

impl Repetition {
    fn new(pos: &Position) -> Repetition {
        let mut r = Repetition {
            material: material(pos),
            ..Repetition::default()
        };
        r.restart(pos.repetition_hash(), None, None);
        r
    }

    fn restart(&mut self, h: u64, incoming: Option<MarkedPly>, start_check: Option<bool>) {
        self.occurrences.get_mut().restart(h);
        self.marks.clear();
        self.marked.clear();
        self.incoming = incoming;
        self.start_check = start_check;
        self.marks.push([0; 4]);
        self.current = h;
    }

    fn record(&mut self, h: u64, mover: Color, check: bool, marked: Option<MarkedPly>) {
        self.marked.extend(marked);
        let mut m = *self.marks.last().unwrap_or(&[0; 4]);
        m[mover.index()] += 1;
        if !check {
            m[2 + mover.index()] += 1;
        }
        self.marks.push(m);
        self.occurrences.get_mut().keys.push(h);
        self.current = h;
    }

    /// How often the current position occurred, and the ply of its first occurrence.
    fn current_occurrences(&self) -> Option<(u32, u32)> {
        self.occurrences.borrow_mut().get(self.current)
    }

    fn reserve(&mut self, plies: usize) {
        self.marks.reserve(plies);
        self.occurrences.get_mut().keys.reserve(plies);
    }

    fn count(&self) -> usize {
        self.current_occurrences().map_or(0, |e| e.0 as usize)
    }

    fn checks_in_cycle(&self) -> [bool; 2] {
        let Some((_, first)) = self.current_occurrences() else {
            return [false; 2];
        };
        let (Some(a), Some(b)) = (self.marks.get(first as usize), self.marks.last()) else {
            return [false; 2];
        };
        let mut out = [false; 2];
        for (c, o) in out.iter_mut().enumerate() {
            let moves = b[c] - a[c];
            let quiet = b[2 + c] - a[2 + c];
            *o = moves > 0 && quiet == 0;
        }
        out
    }

    /// See [`houserules_plugin_api::OutcomeContext::marked_in_cycle`]: the moves that led to
    /// the positions from the current one's first occurrence on.
    fn marked_in_cycle(&self) -> [bool; 2] {
        let Some((count, first)) = self.current_occurrences() else {
            return [false; 2];
        };
        if count < 2 {
            return [false; 2];
        }
        let first = first as usize;
        let newest = self.marked[first.saturating_sub(1)..].iter().rev();
        if first == 0 {
            history::marked_in_cycle(newest.chain(self.incoming.iter()))
        } else {
            history::marked_in_cycle(newest)
        }
    }

    /// Checking moves per colour in the last `window` plies (at most the plies recorded),
    /// the window, and whether the position it starts from is in check (`None`: the game's
    /// start, which the caller asks the rules about).
    fn checks_since(&self, window: usize) -> ([u32; 2], u32, Option<bool>) {
        let n = self.marks.len() - 1;
        let w = window.min(n);
        let (a, b) = (self.marks[n - w], self.marks[n]);
        let checks = [0, 1].map(|c| (b[c] - b[2 + c]) - (a[c] - a[2 + c]));
        let k = n - w;
        let start_check = if k == 0 {
            self.start_check
        } else {
            let (p, q) = (self.marks[k - 1], self.marks[k]);
            // The move into `k`: its mover's move count rose and its quiet count did not.
            Some((0..2).any(|c| q[c] > p[c] && q[2 + c] == p[2 + c]))
        };
        (checks, w as u32, start_check)
    }
}

/// Pieces on the board and in both hands.
fn material(pos: &Position) -> u32 {
    // The used ranks only (16 cells each): the rest of the array is always empty.
    // Eight cells at a time: a piece cell is 2 or more (0 empty, 1 a hole), and the count
    // is taken at every game's start and after every replayed line.
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let used = pos.ranks() as usize * 16;
    let mut board = 0;
    for eight in pos.cells()[..used].chunks_exact(8) {
        let w = u64::from_le_bytes(std::array::from_fn(|j| eight[j].0)) & 0xfefe_fefe_fefe_fefe;
        // The high bit of each byte that is not zero.
        board += (((w & LOW7).wrapping_add(LOW7) | w) & !LOW7).count_ones();
    }
    let hands: u32 = pos.hands.iter().flatten().map(|&n| n as u32).sum();
    board + hands
}

impl<'p> Game<'p> {
    /// A game from `start`.
    pub fn new(pipeline: &'p Pipeline, start: Position) -> Game<'p> {
        Game {
            pipeline,
            repetition: Repetition::new(&start),
            position: start.clone(),
            start,
            moves: Vec::new(),
            track_checks: pipeline.reads_check_history(),
            may_clear: pipeline.presets.is_empty(),
            since_clock_reset: pipeline.repetition_since_clock_reset(),
            marks_moves: pipeline.marks_moves(),
        }
    }

    /// The rules.
    pub fn pipeline(&self) -> &'p Pipeline {
        self.pipeline
    }

    /// Legal moves now.
    pub fn legal_moves(&self) -> Result<Vec<Move>, HostError> {
        let mut v = RVec::new();
        self.pipeline.legal_moves(&self.position, &mut v)?;
        Ok(v.into_vec())
    }

    /// Plays a legal move; returns what happened (events).
    pub fn play(&mut self, m: Move) -> Result<Vec<Event>, HostError> {
        self.play_recording(m, true)
    }

    /// Plays a legal move, recording analysis events only when `events`.
    pub fn play_recording(&mut self, m: Move, events: bool) -> Result<Vec<Event>, HostError> {
        let mover = self.position.side_to_move;
        let mut fx = MoveEffects::new(mover, events);
        let before = self.marks_moves.then(|| self.position.clone());
        self.pipeline.apply(&mut self.position, m, &mut fx)?;
        let check = self.track_checks
            && self
                .pipeline
                .royal_attacked(&self.position, mover.opposite())?;
        let marked = match &before {
            Some(before) => Some(MarkedPly {
                mover,
                mv: Some(m),
                mark: self.pipeline.move_mark(before, m, &self.position)?,
            }),
            None => None,
        };
        self.moves.push(Some(m));
        let h = self.position.repetition_hash();
        let mut restart = self.since_clock_reset && self.position.halfmove_clock == 0;
        if self.may_clear && m.is_capture() {
            let now = material(&self.position);
            restart |= now < self.repetition.material;
            self.repetition.material = now;
        }
        if restart {
            self.repetition.restart(h, marked, Some(check));
        } else {
            self.repetition.record(h, mover, check, marked);
        }
        Ok(fx.events.into_vec())
    }

    /// Takes the plies a variant replayed itself ([`Pipeline::replay_line`]) as played: the
    /// same history as playing them one by one, except that the repetition counts are not
    /// cleared inside the line for lost material (kept longer: memory, never an answer);
    /// where the variant's rule restarts them at the clock's reset, they restart at the last
    /// one in the line (each ply resets the clock or adds one to it). Refused (`false`, the
    /// game unchanged) when the game keeps per-move facts a line does not carry (move marks)
    /// or the line's keys are not this host's repetition hashes (a plugin built with another
    /// one).
    pub fn extend_replayed(&mut self, line: ReplayedLine) -> bool {
        if self.marks_moves {
            return false;
        }
        let Some(last) = line.plies.last() else {
            return true;
        };
        if last.key != line.position.repetition_hash() {
            return false;
        }
        let n = line.plies.len();
        let clock = line.position.halfmove_clock as usize;
        // The ply after which the clock was last 0, if in the line.
        let reset = (self.since_clock_reset && clock < n).then(|| n - 1 - clock);
        self.moves.reserve(n);
        self.repetition.reserve(n);
        for (i, ply) in line.plies.iter().enumerate() {
            self.moves.push(Some(ply.mv));
            let check = self.track_checks && ply.mark != 0;
            if reset == Some(i) {
                self.repetition.restart(ply.key, None, Some(check));
            } else {
                self.repetition.record(ply.key, ply.mover, check, None);
            }
        }
        self.repetition.material = material(&line.position);
        self.position = line.position;
        true
    }

    /// A null move: the side to move passes (records written by engines use `Z0` / `--`).
    pub fn pass(&mut self) {
        let mover = self.position.side_to_move;
        pass_position(&mut self.position);
        self.moves.push(None);
        let marked = self.marks_moves.then_some(MarkedPly {
            mover,
            mv: None,
            mark: SquareSet::EMPTY,
        });
        self.repetition
            .record(self.position.repetition_hash(), mover, false, marked);
    }

    /// How often the current position has occurred (including now).
    pub fn repetitions(&self) -> usize {
        self.repetition.count()
    }

    /// For a repeated position: whether every move of each side since the position's first
    /// occurrence gave check (always `false` for a side when no rule reads check facts).
    pub fn checks_in_cycle(&self) -> [bool; 2] {
        if !self.track_checks {
            return [false; 2];
        }
        self.repetition.checks_in_cycle()
    }

    /// For a repeated position of a variant that marks its moves: whether some mark held
    /// through every move of each side in the cycle (see
    /// [`houserules_plugin_api::OutcomeContext::marked_in_cycle`]).
    pub fn marked_in_cycle(&self) -> [bool; 2] {
        if !self.marks_moves {
            return [false; 2];
        }
        self.repetition.marked_in_cycle()
    }

    /// What the history says about the current position (repetitions, checks and marks of
    /// the cycle, checks since the clock's reset), as the outcome context carries it.
    pub fn history_facts(&self) -> Result<HistoryFacts, HostError> {
        let mut facts = HistoryFacts {
            repetitions: self.repetitions() as u32,
            checks_in_cycle: self.checks_in_cycle(),
            marked_in_cycle: self.marked_in_cycle(),
            last_move: self.moves.last().copied().flatten(),
            ..HistoryFacts::default()
        };
        if self.track_checks {
            let clock = self.position.halfmove_clock as usize;
            let (checks, window, start_check) = self.repetition.checks_since(clock);
            facts.checks_since_clock_reset = checks;
            facts.clock_window = window;
            facts.clock_start_in_check = match start_check {
                Some(c) => c,
                None => self
                    .pipeline
                    .royal_attacked(&self.start, self.start.side_to_move)?,
            };
        }
        Ok(facts)
    }

    /// The result by the rules (royals, variant, presets, with the game's repetition facts),
    /// given whether the side to move has a legal move; n-move and n-fold rules excluded.
    pub fn outcome(&self, has_legal_moves: bool) -> Result<Option<Outcome>, HostError> {
        self.pipeline.outcome_in_game(
            &self.position,
            has_legal_moves,
            false,
            &self.history_facts()?,
        )
    }

    /// The result or claimable draw now.
    pub fn status(&self) -> Result<Status, HostError> {
        let legal = self.legal_moves()?;
        self.status_with(!legal.is_empty())
    }

    /// [`Game::status`] when the caller already knows whether a legal move exists.
    pub fn status_with(&self, has_legal_moves: bool) -> Result<Status, HostError> {
        let p = self.pipeline;
        let mut outcome = self.outcome(has_legal_moves)?;
        let in_check = p.royal_attacked(&self.position, self.position.side_to_move)?;
        let info = &p.info;
        let own_repetition = info.flags.contains(VariantFlags::OWN_REPETITION);
        let reps = self.repetitions() as u32;
        let clock = self.position.halfmove_clock as u32;
        let mut claimable = None;
        if outcome.is_none() {
            if !own_repetition && info.n_fold_automatic > 0 && reps >= info.n_fold_automatic {
                outcome = Some(Outcome::draw("n-fold-repetition"));
            } else if info.n_move_automatic > 0 && clock >= 2 * info.n_move_automatic {
                outcome = Some(Outcome::draw("n-move-rule"));
            } else if !own_repetition && info.n_fold_rule > 0 && reps >= info.n_fold_rule {
                claimable = Some("n-fold-repetition".to_string());
            } else if info.n_move_rule > 0 && clock >= 2 * info.n_move_rule {
                claimable = Some("n-move-rule".to_string());
            }
        }
        Ok(Status {
            outcome,
            claimable,
            in_check,
        })
    }
}

/// A null move on a position: the turn goes to the other side, en passant lapses, the
/// halfmove clock counts it (what [`Game::pass`] and the engine's null move share).
pub(crate) fn pass_position(pos: &mut Position) {
    let mover = pos.side_to_move;
    if mover == Color::Black {
        pos.fullmove_number = pos.fullmove_number.saturating_add(1);
    }
    pos.side_to_move = mover.opposite();
    pos.turn_phase = 0;
    pos.ep_passed = Square::NONE;
    pos.ep_victim = Square::NONE;
    pos.halfmove_clock = pos.halfmove_clock.saturating_add(1);
    pos.invalidate_accel();
}

#[cfg(test)]
mod tests {
    use super::*;
    use houserules_plugin_api::{Cell, Color, MoveFlags, Square};

    #[test]
    fn material_counts_pieces_and_hands_not_holes() {
        // Boards of several sizes, pieces of many kinds (cell values up to 255), holes and
        // empty squares in a pseudo-random mix: the count a cell-by-cell scan gives.
        let mut x = 99u64;
        for (files, ranks) in [(8u8, 8u8), (9, 10), (16, 12), (1, 1), (5, 3)] {
            for _ in 0..50 {
                let mut pos = Position::empty(files, ranks);
                let mut want = 0;
                for r in 0..pos.ranks() {
                    for f in 0..pos.files() {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        let cell = match (x >> 40) % 4 {
                            0 => Cell::EMPTY,
                            1 => Cell::HOLE,
                            _ => Cell::piece(((x >> 20) % 127) as u8, Color::Black),
                        };
                        want += u32::from(cell.kind().is_some());
                        pos.set(Square::new(f, r), cell);
                    }
                }
                pos.hands[1][3] = (x % 5) as u8;
                want += (x % 5) as u32;
                assert_eq!(material(&pos), want, "{files}x{ranks}");
            }
        }
    }

    #[test]
    fn occurrences_count_alike_however_often_they_are_asked() {
        // A pseudo-random walk over a few keys, asked after every ply, after every few, or
        // only at the end: the counts and first occurrences a scan of all keys gives.
        for every in [1usize, 3, 7, 1000] {
            let mut o = Occurrences::default();
            o.restart(0);
            let mut keys = vec![0u64];
            let mut x = 12345u64;
            for ply in 1..600usize {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let k = (x >> 33) % 9;
                o.keys.push(k);
                keys.push(k);
                if ply % every == 0 || ply == 599 {
                    for q in 0..10u64 {
                        let n = keys.iter().filter(|&&c| c == q).count() as u32;
                        let first = keys.iter().position(|&c| c == q).map(|i| i as u32);
                        let want = first.map(|f| (n, f));
                        assert_eq!(o.get(q), want, "every {every}, ply {ply}, key {q}");
                    }
                    // Asked this often, the uncounted tail is counted in the meantime (a
                    // query's scan stays short however long the game).
                    if every == 1 {
                        assert!(o.keys.len() - o.counted <= 1, "ply {ply}");
                    }
                }
            }
        }
    }

    fn ply(mover: Color, from: u8, to: u8, mark: &[u8]) -> MarkedPly {
        MarkedPly {
            mover,
            mv: Some(Move::new(Square(from), Square(to), MoveFlags::NONE)),
            mark: mark.iter().map(|&s| Square(s)).collect(),
        }
    }

    /// A history of hashes 1, 2, 3, 4, 1, 2, 3, 4, 1 (a cycle of four plies, twice) whose
    /// White moves check at plies 1 and 5 only, with marks on one black piece (square 40,
    /// moving to 41 and back) by every White move.
    fn cycle() -> Repetition {
        let mut r = Repetition::default();
        r.restart(1, None, Some(false));
        for (i, h) in [2u64, 3, 4, 1, 2, 3, 4, 1].into_iter().enumerate() {
            let mover = if i % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let check = mover == Color::White && i % 4 == 0;
            let m = match i % 4 {
                0 => ply(Color::White, 0, 1, &[40]),
                1 => ply(Color::Black, 40, 41, &[]),
                2 => ply(Color::White, 1, 0, &[41]),
                _ => ply(Color::Black, 41, 40, &[]),
            };
            r.record(h, mover, check, Some(m));
        }
        r
    }

    #[test]
    fn marks_follow_the_chased_piece_through_the_cycle() {
        let r = cycle();
        assert_eq!(r.count(), 3);
        assert_eq!(r.marked_in_cycle(), [true, false]);
        // Not every White move checked.
        assert_eq!(r.checks_in_cycle(), [false, false]);
    }

    #[test]
    fn checks_since_the_clock_reset_count_the_window() {
        let r = cycle();
        // The last 8 plies: White checked twice, Black never; the window starts at the
        // clearing point (not in check).
        assert_eq!(r.checks_since(8), ([2, 0], 8, Some(false)));
        // A clock larger than the history: the history's length.
        assert_eq!(r.checks_since(50), ([2, 0], 8, Some(false)));
        // The last 4 plies start after ply 4 (a quiet Black move).
        assert_eq!(r.checks_since(4), ([1, 0], 4, Some(false)));
        // The last 3 plies start at the position after ply 5, White's check.
        assert_eq!(r.checks_since(3), ([0, 0], 3, Some(true)));
    }

    /// Plays `line` (SAN) in `game`, move by move or in one replayed line.
    fn play_line(game: &mut Game<'_>, line: &[&str], whole: bool) {
        if whole {
            let replayed = game
                .pipeline
                .replay_line(&game.position, line)
                .unwrap()
                .unwrap();
            assert_eq!(replayed.plies.len(), line.len());
            assert!(game.extend_replayed(replayed));
            return;
        }
        for text in line {
            let legal = game.legal_moves().unwrap();
            let m =
                crate::notation::parse_move(game.pipeline, &game.position, text, &legal).unwrap();
            game.play(m).unwrap();
        }
    }

    #[test]
    fn counts_restart_where_the_clock_does_move_by_move_and_in_a_replayed_line() {
        // Chess (whose replay_line the host uses) with the counts restarting at the clock's
        // resets: the positions kept are those since the last one, d5 (ply 4), whichever
        // way the line is played; the knights' cycle after it repeats the position twice.
        let mut reg = crate::Registry::default();
        reg.add_builtin(houserules_plugin_api::root_module::<
            houserules_chess::ChessPlugin,
        >())
        .unwrap();
        let p = Pipeline::build(&reg, "chess", None, &[]).unwrap();
        let line = [
            "Nf3", "Nf6", "Ng1", "d5", "Nf3", "Nc6", "Ng1", "Nb8", "Nf3", "Nc6", "Ng1", "Nb8",
        ];
        for whole in [false, true] {
            for since_clock_reset in [false, true] {
                let mut game = Game::new(&p, p.start_position().unwrap());
                game.since_clock_reset = since_clock_reset;
                play_line(&mut game, &line, whole);
                assert_eq!(game.position.halfmove_clock, 8);
                assert_eq!(game.repetitions(), 3, "whole {whole}");
                let kept = game.repetition.occurrences.borrow().keys.len();
                let want = if since_clock_reset { 9 } else { 13 };
                assert_eq!(kept, want, "whole {whole}, since reset {since_clock_reset}");
            }
        }
    }
}
