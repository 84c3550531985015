//! A game in progress: position, moves played, repetition history, and the host's n-move and
//! n-fold rules on top of the pipeline's results.

use crate::error::HostError;
use crate::pipeline::Pipeline;
use abi_stable::std_types::RVec;
use houserules_plugin_api::{
    Color, Event, Move, MoveEffects, Outcome, Position, Square, VariantFlags,
};

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
    history: Vec<u64>,
    /// Per ply: the colour that moved and whether the move gave check.
    checks: Vec<(Color, bool)>,
    /// Whether a rule reads the per-ply check facts (perpetual check, preset results).
    track_checks: bool,
}

impl<'p> Game<'p> {
    /// A game from `start`.
    pub fn new(pipeline: &'p Pipeline, start: Position) -> Game<'p> {
        let h = start.repetition_hash();
        Game {
            pipeline,
            position: start.clone(),
            start,
            moves: Vec::new(),
            history: vec![h],
            checks: Vec::new(),
            track_checks: pipeline.info.flags.contains(VariantFlags::OWN_REPETITION)
                || pipeline.results_need_check(),
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
        self.pipeline.apply(&mut self.position, m, &mut fx)?;
        let check = self.track_checks
            && self
                .pipeline
                .royal_attacked(&self.position, mover.opposite())?;
        self.moves.push(Some(m));
        self.history.push(self.position.repetition_hash());
        self.checks.push((mover, check));
        Ok(fx.events.into_vec())
    }

    /// A null move: the side to move passes (records written by engines use `Z0` / `--`).
    pub fn pass(&mut self) {
        let pos = &mut self.position;
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
        self.moves.push(None);
        self.history.push(self.position.repetition_hash());
        self.checks.push((mover, false));
    }

    /// How often the current position has occurred (including now).
    pub fn repetitions(&self) -> usize {
        let h = *self.history.last().unwrap_or(&0);
        self.history.iter().filter(|&&x| x == h).count()
    }

    /// For a repeated position: whether every move of each side since the position's first
    /// occurrence gave check.
    pub fn checks_in_cycle(&self) -> [bool; 2] {
        let h = *self.history.last().unwrap_or(&0);
        let Some(first) = self.history.iter().position(|&x| x == h) else {
            return [false; 2];
        };
        if first + 1 >= self.history.len() {
            return [false; 2];
        }
        let mut all = [true, true];
        let mut any = [false, false];
        for &(c, check) in &self.checks[first..] {
            any[c.index()] = true;
            all[c.index()] &= check;
        }
        [all[0] && any[0], all[1] && any[1]]
    }

    /// The result by the rules (royals, variant, presets, with the game's repetition facts),
    /// given whether the side to move has a legal move; n-move and n-fold rules excluded.
    pub fn outcome(&self, has_legal_moves: bool) -> Result<Option<Outcome>, HostError> {
        self.pipeline.outcome_in_game(
            &self.position,
            has_legal_moves,
            false,
            self.repetitions() as u32,
            self.checks_in_cycle(),
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
