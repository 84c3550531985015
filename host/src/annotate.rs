//! `analyze --engine LIMITS`: per ply an evaluation from White's side, the engine's best move
//! and a classification of the move played.
//!
//! Each position of the main line is searched with the same limits (`movetime=200`,
//! `depth=8` ...). A move is judged by what it costs the mover in *winning chances*: a score
//! of `cp` centipawns (mover's view) is worth `W(cp) = 2 / (1 + e^(-0.00368208 cp)) - 1`
//! (from -1, lost, to +1, won; mates count as ±1), and the move's cost is `W` of the position
//! before it minus `W` of the position after it, both from the mover's side:
//!
//! | cost        | class      | NAG  |
//! |-------------|------------|------|
//! | ≥ 0.3       | blunder    | `??` |
//! | ≥ 0.2       | mistake    | `?`  |
//! | ≥ 0.1       | inaccuracy | `?!` |
//!
//! (the thresholds and the curve are Lichess's). The engine's own choice is never marked. A
//! position the rules have ended is scored by its result, not searched.

use crate::analyze::Plies;
use crate::engine::{Engine, EngineConfig, Limits, Score};
use crate::error::HostError;
use crate::game::Game;
use crate::notation::san;
use crate::pgn::WrittenMove;
use crate::pipeline::Pipeline;
use houserules_plugin_api::{Color, Move, Position};
use houserules_search::Searcher;
use serde::Serialize;
use std::sync::atomic::AtomicBool;

/// An evaluation from White's side, as in `[%eval ...]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Eval {
    /// Centipawns.
    Cp(i32),
    /// Mate in N moves (negative: Black mates).
    Mate(i32),
}

impl Eval {
    /// From a score of the side to move.
    pub fn white_view(s: Score, side: Color) -> Eval {
        let sign = if side == Color::White { 1 } else { -1 };
        match s {
            Score::Cp(n) => Eval::Cp(n * sign),
            Score::Mate(n) => Eval::Mate(n * sign),
        }
    }

    /// `0.35`, `#-3` (the `%eval` command's forms); `None` for a game over by a decisive
    /// result (`Mate(0)`, which has no side in `%eval`).
    pub fn pgn_text(self) -> Option<String> {
        match self {
            Eval::Cp(n) => Some(format!("{:.2}", n as f64 / 100.0)),
            Eval::Mate(0) => None,
            Eval::Mate(n) => Some(format!("#{n}")),
        }
    }

    /// Winning chances of `color`, -1 to 1.
    pub fn chances(self, color: Color) -> f64 {
        let white = match self {
            Eval::Cp(n) => 2.0 / (1.0 + (-0.003_682_08 * n as f64).exp()) - 1.0,
            Eval::Mate(n) if n > 0 => 1.0,
            Eval::Mate(n) if n < 0 => -1.0,
            // Mate on the board: the side to move (whoever it is) is mated; the caller scores
            // finished games by their result instead.
            Eval::Mate(_) => 0.0,
        };
        if color == Color::White {
            white
        } else {
            -white
        }
    }
}

/// How a move is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// Cost ≥ 0.1.
    Inaccuracy,
    /// Cost ≥ 0.2.
    Mistake,
    /// Cost ≥ 0.3.
    Blunder,
}

impl Class {
    /// The move's cost in winning chances → its class, if any.
    pub fn of_cost(cost: f64) -> Option<Class> {
        if cost >= 0.3 {
            Some(Class::Blunder)
        } else if cost >= 0.2 {
            Some(Class::Mistake)
        } else if cost >= 0.1 {
            Some(Class::Inaccuracy)
        } else {
            None
        }
    }

    /// `??`, `?`, `?!`.
    pub fn nag(self) -> &'static str {
        match self {
            Class::Blunder => "??",
            Class::Mistake => "?",
            Class::Inaccuracy => "?!",
        }
    }
}

/// The engine's view of one ply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlyEval {
    /// The position after the move, from White's side.
    pub eval: Eval,
    /// The engine's best move in the position before it (SAN), if it had one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<String>,
    /// What the move cost the mover in winning chances, in thousandths (0 when it was the
    /// best move).
    #[serde(serialize_with = "thousandths")]
    pub loss: i32,
    /// Its class, if it cost enough.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<Class>,
    /// The class's NAG.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nag: Option<&'static str>,
}

fn thousandths<S: serde::Serializer>(v: &i32, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(*v as f64 / 1000.0)
}

/// Scores a position: searched, or by its result when the rules ended the game there.
fn score(
    engine: &mut Engine<'_>,
    game: &Game<'_>,
    limits: &Limits,
) -> Result<(Eval, Option<Move>), HostError> {
    let side = game.position.side_to_move;
    let status = game.status()?;
    if let Some(o) = status.outcome {
        // A decided game is `Mate(0)` (its winner comes from the result, see
        // `chances_white`); a drawn one 0.
        let e = match o.winner.winning_color() {
            Some(_) => Eval::Mate(0),
            None => Eval::Cp(0),
        };
        return Ok((e, None));
    }
    let stop = AtomicBool::new(false);
    let r = engine.search(game, limits, &stop, &mut |_| {})?;
    Ok((Eval::white_view(r.score, side), r.best))
}

/// Evaluates every ply of a main line (`steps` from `start`; `None`: a null move) with the
/// tables of `tables` (made there if there are none; left there for the next line).
pub fn evaluate_line(
    p: &Pipeline,
    start: &Position,
    steps: &[Option<Move>],
    limits: &Limits,
    tables: &mut Option<Searcher>,
) -> Result<Vec<PlyEval>, HostError> {
    let mut engine = match tables.take() {
        Some(searcher) => Engine::with_searcher(p, searcher),
        None => Engine::new(
            p,
            EngineConfig {
                threads: 1,
                ..EngineConfig::default()
            },
        )?,
    };
    let evals = evaluate_with(&mut engine, p, start, steps, limits);
    *tables = Some(engine.into_searcher());
    evals
}

fn evaluate_with(
    engine: &mut Engine<'_>,
    p: &Pipeline,
    start: &Position,
    steps: &[Option<Move>],
    limits: &Limits,
) -> Result<Vec<PlyEval>, HostError> {
    let mut game = Game::new(p, start.clone());
    // Winning chances of White per position, and the engine's move there.
    let (first, mut best) = score(engine, &game, limits)?;
    let mut before_chances = chances_white(&game, first)?;
    let mut out = Vec::with_capacity(steps.len());
    for step in steps {
        let mover = game.position.side_to_move;
        let legal = game.legal_moves()?;
        let best_san = match best {
            Some(b) => Some(san(p, &game.position, b, &legal)?),
            None => None,
        };
        match *step {
            Some(m) => {
                game.play_recording(m, false)?;
            }
            None => game.pass(),
        }
        let (after, next_best) = score(engine, &game, limits)?;
        let after_chances = chances_white(&game, after)?;
        let sign = if mover == Color::White { 1.0 } else { -1.0 };
        let played_best = step.is_some() && *step == best;
        let loss = if played_best {
            0.0
        } else {
            ((before_chances - after_chances) * sign).max(0.0)
        };
        let class = Class::of_cost(loss);
        out.push(PlyEval {
            eval: after,
            best: best_san,
            loss: (loss * 1000.0).round() as i32,
            class,
            nag: class.map(Class::nag),
        });
        before_chances = after_chances;
        best = next_best;
    }
    Ok(out)
}

/// White's winning chances in `game` scored `e`: a finished game by its result.
fn chances_white(game: &Game<'_>, e: Eval) -> Result<f64, HostError> {
    if let Eval::Mate(0) = e {
        let status = game.status()?;
        return Ok(
            match status.outcome.and_then(|o| o.winner.winning_color()) {
                Some(Color::White) => 1.0,
                Some(Color::Black) => -1.0,
                None => 0.0,
            },
        );
    }
    Ok(e.chances(Color::White))
}

/// Annotates a replayed main line: the engine's view into each ply report, and the NAG and
/// `[%eval ...]` comment into each written move. `tables`: the search tables of the line
/// before, if any (see [`evaluate_line`]).
pub fn annotate(
    p: &Pipeline,
    start: &Position,
    steps: &[Option<Move>],
    limits: &str,
    plies: Option<&mut Plies>,
    written: Option<&mut Vec<WrittenMove>>,
    tables: &mut Option<Searcher>,
) -> Result<(), HostError> {
    let limits = parse_limits(limits).map_err(|reason| HostError::BadMove {
        text: limits.to_string(),
        reason,
    })?;
    let evals = evaluate_line(p, start, steps, &limits, tables)?;
    if let Some(w) = written {
        for (m, e) in w.iter_mut().zip(&evals) {
            if let Some(nag) = e.nag {
                m.san.push_str(nag);
            }
            if let Some(t) = e.eval.pgn_text() {
                m.san.push_str(&format!(" {{[%eval {t}]}}"));
            }
        }
    }
    if let Some(plies) = plies {
        for (r, e) in plies.reports_mut().iter_mut().zip(evals) {
            r.engine = Some(Box::new(e));
        }
    }
    Ok(())
}

/// Reads the limits of `--engine` (`movetime=200`, `depth=8`, `nodes=20000` ...).
pub fn parse_limits(text: &str) -> Result<Limits, String> {
    text.parse::<Limits>()
        .map_err(|e| format!("--engine `{text}`: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_and_texts() {
        assert_eq!(Class::of_cost(0.35), Some(Class::Blunder));
        assert_eq!(Class::of_cost(0.25), Some(Class::Mistake));
        assert_eq!(Class::of_cost(0.1), Some(Class::Inaccuracy));
        assert_eq!(Class::of_cost(0.05), None);
        assert_eq!(Eval::Cp(35).pgn_text().as_deref(), Some("0.35"));
        assert_eq!(Eval::Cp(-250).pgn_text().as_deref(), Some("-2.50"));
        assert_eq!(Eval::Mate(-3).pgn_text().as_deref(), Some("#-3"));
        assert_eq!(Eval::Mate(0).pgn_text(), None);
        assert_eq!(Eval::white_view(Score::Cp(50), Color::Black), Eval::Cp(-50));
        // A queen lost in an even position costs more than a blunder's worth.
        let cost = Eval::Cp(0).chances(Color::White) - Eval::Cp(-900).chances(Color::White);
        assert!(cost > 0.3, "{cost}");
        // A pawn lost in a won position costs little.
        let cost = Eval::Cp(900).chances(Color::White) - Eval::Cp(800).chances(Color::White);
        assert!(cost < 0.1, "{cost}");
    }
}
