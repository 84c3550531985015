//! A game in progress: position, moves played, repetition history, and the host's n-move and
//! n-fold rules on top of the pipeline's results.

use crate::error::HostError;
use crate::pipeline::Pipeline;
use abi_stable::std_types::RVec;
use houserules_plugin_api::{Event, Move, MoveEffects, Outcome, Position};

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
        let mut fx = MoveEffects::new(self.position.side_to_move, true);
        self.pipeline.apply(&mut self.position, m, &mut fx)?;
        self.moves.push(m);
        self.history.push(self.position.repetition_hash());
        Ok(fx.events.into_vec())
    }

    /// How often the current position has occurred (including now).
    pub fn repetitions(&self) -> usize {
        let h = self.position.repetition_hash();
        self.history.iter().filter(|&&x| x == h).count()
    }

    /// The result or claimable draw now.
    pub fn status(&self) -> Result<Status, HostError> {
        let legal = self.legal_moves()?;
        let p = self.pipeline;
        let mut outcome = p.outcome(&self.position, !legal.is_empty(), false)?;
        let in_check = p.royal_attacked(&self.position, self.position.side_to_move)?;
        let info = &p.info;
        let reps = self.repetitions() as u32;
        let clock = self.position.halfmove_clock as u32;
        let mut claimable = None;
        if outcome.is_none() {
            if info.n_fold_automatic > 0 && reps >= info.n_fold_automatic {
                outcome = Some(Outcome::draw("n-fold-repetition"));
            } else if info.n_move_automatic > 0 && clock >= 2 * info.n_move_automatic {
                outcome = Some(Outcome::draw("n-move-rule"));
            } else if info.n_fold_rule > 0 && reps >= info.n_fold_rule {
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
