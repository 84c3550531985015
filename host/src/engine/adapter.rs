//! [`SearchGame`] over a [`Pipeline`]: copy-make on [`Position`]s, the game's repetition
//! history carried into the tree, results from the pipeline's outcome and the host's n-move
//! and n-fold rules (as [`crate::game::Game::status`] applies them).

use super::eval::Evaluation;
use crate::error::HostError;
use crate::game::Game;
use crate::game::KeyHasher;
use crate::history::{self, HistoryFacts, MarkedPly};
use crate::pipeline::Pipeline;
use abi_stable::std_types::RVec;
use houserules_plugin_api::{Color, Move, MoveEffects, Position, VariantFlags, Winner};
use houserules_search::{SearchGame, Terminal};
use std::collections::HashMap;

/// One ply of the history: the position's hash after it, who moved, whether it gave check,
/// the checking moves of each colour up to it (this one included), the move (`None`: a pass).
#[derive(Clone, Copy)]
struct Ply {
    hash: u64,
    mover: Color,
    check: bool,
    checks: [u32; 2],
    mv: Option<Move>,
}

impl Ply {
    fn after(prev: Option<&Ply>, hash: u64, mover: Color, check: bool, mv: Option<Move>) -> Ply {
        let mut checks = prev.map_or([0; 2], |p| p.checks);
        checks[mover.index()] += check as u32;
        Ply {
            hash,
            mover,
            check,
            checks,
            mv,
        }
    }
}

/// What [`PipelineGame::unmake`] restores.
#[derive(Clone)]
struct Undo {
    pos: Position,
    hash: u64,
    mobility: [Option<u32>; 2],
    check_now: Option<bool>,
}

/// A game as the search sees it.
#[derive(Clone)]
pub(crate) struct PipelineGame<'p> {
    pipeline: &'p Pipeline,
    eval: &'p Evaluation,
    pos: Position,
    hash: u64,
    /// Positions before each move made in the search (copy-make), with their hash,
    /// mobility and check.
    undo: Vec<Undo>,
    /// Whether the side to move is in check in `pos`, where known: from the move that led
    /// here (under rules that read the check history, [`PipelineGame::make`] asks anyway),
    /// or asked already at this node. The search asks at every node, and the outcome asks
    /// again; with several royals each answer is a call of the variant per royal.
    check_now: Option<bool>,
    /// Legal moves of each colour, as last counted on the path to here (mobility term).
    mobility: [Option<u32>; 2],
    /// Hashes of the game since its start and of the search path, with the check facts.
    plies: Vec<Ply>,
    /// Where the search path starts in `plies`.
    root_plies: usize,
    /// Occurrences per hash over `plies` and the start.
    seen: HashMap<u64, u32, KeyHasher>,
    buf: RVec<Move>,
    /// Hash of the game's first position.
    start_hash: u64,
    /// Whether the side to move is in check in the game's first position.
    start_check: bool,
    /// The move that led to the root (the game's last), for results that depend on it.
    root_last_move: Option<Move>,
    /// The moves of `plies` and their marks, for variants that mark their moves (API 1.5).
    /// The marks of the search's moves are asked for only when a repetition needs them
    /// (`marked_in_cycle`): xiangqi's chase rule cost most of a node's time when every move
    /// was marked as it was made.
    marked: Vec<MarkedPly>,
    /// How many entries of `marked` hold their move's mark (those after are still to ask).
    marks_known: usize,
    marks_moves: bool,
    track_checks: bool,
    own_repetition: bool,
    /// Whether only the positions since the clock's last reset count (the variant's rule,
    /// [`VariantFlags::REPETITION_SINCE_CLOCK_RESET`]).
    since_clock_reset: bool,
    /// Whether moves that differ only in `special` are one family (the variant's
    /// `search-move-detail`: a duck or arrow square).
    detail_in_special: bool,
}

impl<'p> PipelineGame<'p> {
    /// The search's view of `game` (its moves are replayed for the repetition history).
    pub fn new(
        pipeline: &'p Pipeline,
        eval: &'p Evaluation,
        game: &Game<'_>,
    ) -> Result<PipelineGame<'p>, HostError> {
        let track_checks = pipeline.reads_check_history();
        let mut pos = game.start.clone();
        let start_hash = pos.repetition_hash();
        let mut seen = HashMap::default();
        seen.insert(start_hash, 1);
        let mut plies: Vec<Ply> = Vec::with_capacity(game.moves.len() + 64);
        let marks_moves = pipeline.marks_moves();
        let mut marked = Vec::new();
        let mut start_check = track_checks && pipeline.royal_attacked(&pos, pos.side_to_move)?;
        for m in &game.moves {
            let mover = pos.side_to_move;
            let before = marks_moves.then(|| pos.clone());
            match m {
                Some(m) => {
                    let mut fx = MoveEffects::new(mover, false);
                    pipeline.apply(&mut pos, *m, &mut fx)?;
                }
                None => crate::game::pass_position(&mut pos),
            }
            let check = track_checks && pipeline.royal_attacked(&pos, mover.opposite())?;
            if let Some(before) = before {
                let mark = match m {
                    Some(m) => pipeline.move_mark(&before, *m, &pos)?,
                    None => houserules_plugin_api::SquareSet::EMPTY,
                };
                marked.push(MarkedPly {
                    mover,
                    mv: *m,
                    mark,
                });
            }
            let hash = pos.repetition_hash();
            *seen.entry(hash).or_insert(0) += 1;
            plies.push(Ply::after(plies.last(), hash, mover, check, *m));
        }
        // The replay must arrive where the game is; if a rule made it differ, start the
        // history at the current position rather than search from a wrong one.
        if !pos.same_for_repetition(&game.position) {
            pos = game.position.clone();
            plies.clear();
            marked.clear();
            start_check = track_checks && pipeline.royal_attacked(&pos, pos.side_to_move)?;
            seen.clear();
            seen.insert(pos.repetition_hash(), game.repetitions().max(1) as u32);
        }
        let start_hash = if plies.is_empty() {
            game.position.repetition_hash()
        } else {
            start_hash
        };
        let hash = game.position.repetition_hash();
        Ok(PipelineGame {
            pipeline,
            eval,
            pos: game.position.clone(),
            hash,
            undo: Vec::with_capacity(128),
            check_now: None,
            mobility: [None; 2],
            root_plies: plies.len(),
            plies,
            seen,
            buf: RVec::new(),
            start_hash,
            start_check,
            root_last_move: game.moves.last().copied().flatten(),
            marks_known: marked.len(),
            marked,
            marks_moves,
            track_checks,
            own_repetition: pipeline.info.flags.contains(VariantFlags::OWN_REPETITION),
            since_clock_reset: pipeline.repetition_since_clock_reset(),
            detail_in_special: pipeline.search_move_detail_in_special(),
        })
    }

    /// The first of the positions that count for repetition (position `k` is the one after
    /// `k` plies of `plies`, position 0 the start): the clock's window where the variant's
    /// rule says so, else all.
    fn counted_from(&self) -> usize {
        if self.since_clock_reset {
            self.plies.len() - self.clock_window()
        } else {
            0
        }
    }

    /// The plies since the clock's last reset (at most the plies recorded).
    fn clock_window(&self) -> usize {
        (self.pos.halfmove_clock as usize).min(self.plies.len())
    }

    fn repetitions(&self) -> u32 {
        let all = self.seen.get(&self.hash).copied().unwrap_or(1);
        let from = self.counted_from();
        if all < 2 || from == 0 {
            return all;
        }
        // Position `k >= 1` is `plies[k - 1]`'s.
        self.plies[from - 1..]
            .iter()
            .filter(|p| p.hash == self.hash)
            .count() as u32
    }

    /// The current position's first occurrence among the positions that count, if it is
    /// repeated.
    fn first_occurrence(&self) -> Option<usize> {
        let n = self.plies.len();
        let from = self.counted_from();
        if from == 0 && n > 0 && self.start_hash == self.hash {
            return Some(0);
        }
        (from.max(1)..n).find(|&k| self.plies[k - 1].hash == self.hash)
    }

    /// Whether the current position occurred before on the search path (not only in the
    /// game before the root).
    fn repeated_in_search(&self) -> bool {
        self.plies[self.root_plies..self.plies.len().saturating_sub(1)]
            .iter()
            .any(|p| p.hash == self.hash)
    }

    /// For a repeated position: whether every move of each colour since its first occurrence
    /// gave check.
    fn checks_in_cycle(&self) -> [bool; 2] {
        if !self.track_checks {
            return [false; 2];
        }
        let Some(first) = self.first_occurrence() else {
            return [false; 2];
        };
        let mut moved = [false; 2];
        let mut quiet = [false; 2];
        for p in &self.plies[first..] {
            moved[p.mover.index()] = true;
            quiet[p.mover.index()] |= !p.check;
        }
        [moved[0] && !quiet[0], moved[1] && !quiet[1]]
    }

    /// The repetition facts of the current position (see [`Game::history_facts`]).
    fn history_facts(&mut self) -> Result<HistoryFacts, HostError> {
        let marked_in_cycle = self.marked_in_cycle()?;
        let side_in_check = Some(self.in_check()?);
        let mut facts = HistoryFacts {
            side_in_check,
            repetitions: self.repetitions(),
            checks_in_cycle: self.checks_in_cycle(),
            marked_in_cycle,
            last_move: if self.plies.len() > self.root_plies {
                self.plies.last().and_then(|p| p.mv)
            } else {
                self.root_last_move
            },
            ..HistoryFacts::default()
        };
        if self.track_checks {
            let n = self.plies.len();
            let w = self.clock_window();
            let now = self.plies.last().map_or([0; 2], |p| p.checks);
            let then = if w < n {
                self.plies[n - w - 1].checks
            } else {
                [0; 2]
            };
            facts.checks_since_clock_reset = [now[0] - then[0], now[1] - then[1]];
            facts.clock_window = w as u32;
            facts.clock_start_in_check = if w < n {
                self.plies[n - w - 1].check
            } else {
                self.start_check
            };
        }
        Ok(facts)
    }

    /// For a repeated position: whether a mark held through every move of each colour in
    /// the cycle, the move into its first occurrence included.
    fn marked_in_cycle(&mut self) -> Result<[bool; 2], HostError> {
        if !self.marks_moves || self.repetitions() < 2 {
            return Ok([false; 2]);
        }
        self.ask_marks()?;
        // `plies[i]` led to position `i + 1`; the first position has no move.
        Ok(match self.first_occurrence() {
            Some(first) => {
                history::marked_in_cycle(self.marked[first.saturating_sub(1)..].iter().rev())
            }
            None => [false; 2],
        })
    }

    /// Asks the variant for the marks of the search's moves not marked yet: the search
    /// move `k` was made in `undo[k]`'s position and led to `undo[k + 1]`'s (the current
    /// one for the last). Every search move (a null move too) adds one entry to `undo` and
    /// one to `marked`, so the game's entries are the first `marked.len() - undo.len()`.
    fn ask_marks(&mut self) -> Result<(), HostError> {
        let game_plies = self.marked.len() - self.undo.len();
        for i in self.marks_known..self.marked.len() {
            let k = i - game_plies;
            let Some(mv) = self.marked[i].mv else {
                continue;
            };
            let before = &self.undo[k].pos;
            let after = self.undo.get(k + 1).map_or(&self.pos, |u| &u.pos);
            self.marked[i].mark = self.pipeline.move_mark(before, mv, after)?;
        }
        self.marks_known = self.marked.len();
        Ok(())
    }
}

/// The eight bytes of a move as one number.
pub(crate) fn move_bits(m: Move) -> u64 {
    let b = (m.from.0 as u64)
        | (m.to.0 as u64) << 8
        | (m.flags.0 as u64) << 16
        | (m.piece as u64) << 32
        | (m.via.0 as u64) << 40
        | (m.special as u64) << 48;
    // Zero means "no move" in the table; no generator lists a1-a1 without flags.
    b.max(1)
}

impl SearchGame for PipelineGame<'_> {
    type Move = Move;
    type Error = HostError;

    fn side_to_move(&self) -> u8 {
        self.pos.side_to_move as u8
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn legal_moves(&mut self, out: &mut Vec<Move>) -> Result<(), HostError> {
        self.pipeline.legal_moves(&self.pos, &mut self.buf)?;
        out.clear();
        out.extend_from_slice(&self.buf);
        self.mobility[self.pos.side_to_move.index()] = Some(out.len() as u32);
        Ok(())
    }

    fn make(&mut self, m: Move) -> Result<(), HostError> {
        let mover = self.pos.side_to_move;
        let before = self.pos.clone();
        let mut fx = MoveEffects::new(mover, false);
        if let Err(e) = self.pipeline.apply(&mut self.pos, m, &mut fx) {
            self.pos = before;
            return Err(e);
        }
        let check = self.track_checks
            && match self.pipeline.royal_attacked(&self.pos, mover.opposite()) {
                Ok(c) => c,
                Err(e) => {
                    self.pos = before;
                    return Err(e);
                }
            };
        if self.marks_moves {
            // Marked when a repetition asks (`ask_marks`).
            self.marked.push(MarkedPly {
                mover,
                mv: Some(m),
                mark: houserules_plugin_api::SquareSet::EMPTY,
            });
        }
        self.undo.push(Undo {
            pos: before,
            hash: self.hash,
            mobility: self.mobility,
            check_now: self.check_now,
        });
        self.check_now =
            (self.track_checks && self.pos.side_to_move == mover.opposite()).then_some(check);
        self.hash = self.pos.repetition_hash();
        *self.seen.entry(self.hash).or_insert(0) += 1;
        self.plies.push(Ply::after(
            self.plies.last(),
            self.hash,
            mover,
            check,
            Some(m),
        ));
        Ok(())
    }

    fn unmake(&mut self) {
        if let Some(Undo {
            pos,
            hash,
            mobility,
            check_now,
        }) = self.undo.pop()
        {
            self.mobility = mobility;
            self.check_now = check_now;
            if let Some(c) = self.seen.get_mut(&self.hash) {
                *c -= 1;
                if *c == 0 {
                    self.seen.remove(&self.hash);
                }
            }
            self.plies.pop();
            if self.marks_moves {
                self.marked.pop();
                self.marks_known = self.marks_known.min(self.marked.len());
            }
            self.pos = pos;
            self.hash = hash;
        }
    }

    fn terminal(&mut self, has_legal_moves: bool) -> Result<Option<Terminal>, HostError> {
        let reps = self.repetitions();
        let facts = self.history_facts()?;
        let out = self
            .pipeline
            .outcome_in_game(&self.pos, has_legal_moves, false, &facts)?;
        let side = self.pos.side_to_move;
        if let Some(o) = out {
            return Ok(Some(match o.winner {
                Winner::DRAW => Terminal::Draw,
                w if w.winning_color() == Some(side) => Terminal::Win,
                _ => Terminal::Loss,
            }));
        }
        let info = &self.pipeline.info;
        if !self.own_repetition {
            let n_fold = [info.n_fold_automatic, info.n_fold_rule]
                .into_iter()
                .filter(|&n| n > 0)
                .min();
            if let Some(n) = n_fold {
                // A position repeated within the search can be repeated again until the
                // rule applies: score it as the draw it can be made into.
                if reps >= n || (reps >= 2 && self.repeated_in_search()) {
                    return Ok(Some(Terminal::Draw));
                }
            }
        }
        let n_move = [info.n_move_automatic, info.n_move_rule]
            .into_iter()
            .filter(|&n| n > 0)
            .min();
        if let Some(n) = n_move {
            if self.pos.halfmove_clock as u32 >= 2 * n && has_legal_moves {
                return Ok(Some(Terminal::Draw));
            }
        }
        Ok(None)
    }

    fn in_check(&mut self) -> Result<bool, HostError> {
        if let Some(known) = self.check_now {
            return Ok(known);
        }
        let check = self
            .pipeline
            .royal_attacked(&self.pos, self.pos.side_to_move)?;
        self.check_now = Some(check);
        Ok(check)
    }

    fn checks_possible(&mut self) -> Result<bool, HostError> {
        // The presets' protection only takes royals away, so the royals themselves are
        // a bound: a side without one cannot be in check after any move.
        for color in [Color::White, Color::Black] {
            if self
                .pipeline
                .royals(&self.pos, color)?
                .is_some_and(|r| !r.is_empty())
            {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn check_persists(&mut self) -> Result<bool, HostError> {
        match self.undo.last() {
            Some(u) => self.pipeline.royal_attacked(&u.pos, self.pos.side_to_move),
            None => Ok(false),
        }
    }

    fn is_capture(&self, m: Move) -> bool {
        m.is_capture()
    }

    fn capture_square(&self, m: Move) -> Option<u32> {
        Some(u32::from(m.to.0))
    }

    fn capture_order(&self, m: Move) -> i32 {
        let victim = self
            .pos
            .get(m.to)
            .kind()
            .map_or(self.eval.least_value(), |k| self.eval.victim_value(k));
        let attacker = if m.from.is_none() {
            0
        } else {
            self.pos
                .get(m.from)
                .kind()
                .map_or(0, |k| self.eval.value(k))
        };
        victim * 16 - attacker / 16
    }

    fn evaluate(&mut self) -> Result<i32, HostError> {
        let white = self
            .eval
            .evaluate(self.pipeline, &self.pos, self.mobility)?;
        Ok(if self.pos.side_to_move == Color::White {
            white
        } else {
            -white
        })
    }

    fn move_bits(&self, m: Move) -> u64 {
        move_bits(m)
    }

    fn make_null(&mut self) -> bool {
        // Zugzwang is likely with only the weakest kind of piece (pawns) left, and a pass
        // must not leave a capturable royal behind (the mover is not in check here).
        let side = self.pos.side_to_move;
        let least = self.eval.least_value();
        let strong = self
            .pos
            .cells()
            .iter()
            .any(|c| c.is_color(side) && c.kind().is_some_and(|k| self.eval.value(k) > least));
        if !strong {
            return false;
        }
        let before = self.pos.clone();
        crate::game::pass_position(&mut self.pos);
        self.undo.push(Undo {
            pos: before,
            hash: self.hash,
            mobility: self.mobility,
            check_now: self.check_now.take(),
        });
        self.hash = self.pos.repetition_hash();
        *self.seen.entry(self.hash).or_insert(0) += 1;
        self.plies
            .push(Ply::after(self.plies.last(), self.hash, side, false, None));
        if self.marks_moves {
            self.marked.push(MarkedPly {
                mover: side,
                mv: None,
                mark: houserules_plugin_api::SquareSet::EMPTY,
            });
        }
        true
    }

    fn prunes_quiet_moves(&self) -> bool {
        self.pipeline.search_quiet_pruning()
    }

    fn pruning_depth(&self) -> i32 {
        self.pipeline
            .search_pruning_depth()
            .unwrap_or(houserules_search::PRUNING_DEPTH)
    }

    fn family(&self, m: Move) -> Option<u64> {
        self.detail_in_special.then(|| {
            let mut base = m;
            base.special = 0;
            move_bits(base)
        })
    }

    fn detail_slot(&self, m: Move) -> Option<usize> {
        self.detail_in_special.then_some(m.special as usize)
    }

    fn history_slot(&self, m: Move) -> usize {
        let from = if m.from.is_none() {
            // Drops: one row per dropped kind (up to 16 kinds apart).
            0xF0 | (m.piece as usize & 0x0F)
        } else {
            m.from.0 as usize
        };
        from << 8 | m.to.0 as usize
    }
}
