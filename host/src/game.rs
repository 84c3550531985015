//! A game in progress: position, moves played, repetition history, and the host's n-move and
//! n-fold rules on top of the pipeline's results.

use crate::error::HostError;
use crate::pipeline::Pipeline;
use abi_stable::std_types::RVec;
use houserules_plugin_api::{Color, Event, Move, MoveEffects, Outcome, Position, VariantFlags};

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
pub struct Game<'p> {
    pipeline: &'p Pipeline,
    /// The position the game started from.
    pub start: Position,
    /// The current position.
    pub position: Position,
    /// Moves played.
    pub moves: Vec<Move>,
    history: Vec<u64>,
    /// Per ply: the colour that moved and whether the move gave check.
    checks: Vec<(Color, bool)>,
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
        let mover = self.position.side_to_move;
        let mut fx = MoveEffects::new(mover, true);
        self.pipeline.apply(&mut self.position, m, &mut fx)?;
        let check = self
            .pipeline
            .royal_attacked(&self.position, mover.opposite())?;
        self.moves.push(m);
        self.history.push(self.position.repetition_hash());
        self.checks.push((mover, check));
        Ok(fx.events.into_vec())
    }

    /// How often the current position has occurred (including now).
    pub fn repetitions(&self) -> usize {
        let h = self.position.repetition_hash();
        self.history.iter().filter(|&&x| x == h).count()
    }

    /// For a repeated position: whether every move of each side since the position's first
    /// occurrence gave check.
    pub fn checks_in_cycle(&self) -> [bool; 2] {
        let h = self.position.repetition_hash();
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

    /// The result or claimable draw now.
    pub fn status(&self) -> Result<Status, HostError> {
        let legal = self.legal_moves()?;
        let p = self.pipeline;
        let reps = self.repetitions() as u32;
        let mut outcome = p.outcome_in_game(
            &self.position,
            !legal.is_empty(),
            false,
            reps,
            self.checks_in_cycle(),
        )?;
        let in_check = p.royal_attacked(&self.position, self.position.side_to_move)?;
        let info = &p.info;
        let own_repetition = info.flags.contains(VariantFlags::OWN_REPETITION);
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
