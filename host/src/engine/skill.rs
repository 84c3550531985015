//! Playing below full strength: a skill level from 0 to 20 (20, the default, is the plain
//! search), for people who want an opponent they can beat.
//!
//! At a level below 20 the engine scores every legal move with a shallow search after it
//! (`2 + level / 4` plies in all, so 2 at level 0 and 6 at level 19), keeps the best four, and
//! picks among them as Stockfish's `Skill Level` does: each candidate's score gets a push
//! toward the best one's, `weakness × (best − score) + delta × random(weakness)`, divided by
//! 128, with `weakness = 120 − 2 × level` and `delta` the spread of the four capped at a pawn;
//! the highest sum is played. A lower level thus searches less deep and lets a worse move win
//! more often, but a move that is far worse (a lost piece at higher levels, a missed mate at
//! any level) is never chosen over the best: its push cannot make up a deficit of more than
//! about `128 × delta / (128 − weakness)`.
//!
//! The scoring needs nothing of the rules but the pipeline's moves, so it works for every
//! rule set; a multi-move turn (the mover still to move after the move) is scored from the
//! mover's side without a sign change.

use super::{Engine, Limits, Score, SearchResult};
use crate::error::HostError;
use crate::game::Game;
use crate::play::Rng;
use houserules_plugin_api::Move;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Full strength: the plain search.
pub const FULL: u8 = 20;

/// How many of the best moves a level below [`FULL`] chooses among.
const CANDIDATES: usize = 4;

/// A score as one number, mates beyond every evaluation (sooner mates higher).
fn comparable(s: Score) -> i64 {
    match s {
        Score::Cp(cp) => cp as i64,
        Score::Mate(n) if n > 0 => 1_000_000 - n as i64,
        Score::Mate(n) => -1_000_000 - n as i64,
    }
}

/// Depth of the whole choice at `level` (the move and the search after it).
pub fn depth(level: u8) -> u32 {
    2 + level.min(FULL - 1) as u32 / 4
}

/// Picks among `scored` (best first, at least one) as the module describes: the index of
/// the move played.
pub fn pick(level: u8, scored: &[(Move, i64)], rng: &mut Rng) -> usize {
    let n = scored.len().min(CANDIDATES);
    let weakness = 120 - 2 * level.min(FULL) as i64;
    let top = scored[0].1;
    let delta = (top - scored[n - 1].1).min(100);
    let mut best = (0, i64::MIN);
    for (i, &(_, s)) in scored[..n].iter().enumerate() {
        let push = (weakness * (top - s) + delta * rng.below(weakness as usize) as i64) / 128;
        if s + push >= best.1 {
            best = (i, s + push);
        }
    }
    best.0
}

impl Engine<'_> {
    /// Chooses a move at `level` (below [`FULL`]) within `limits`: every legal move scored by
    /// a search of [`depth`]` - 1` plies after it (each at most its share of the time and
    /// nodes `limits` allow), then [`pick`]. The result's score and line are the chosen
    /// move's.
    pub fn choose_at_level(
        &mut self,
        game: &Game,
        limits: &Limits,
        level: u8,
        rng: &mut Rng,
        stop: &AtomicBool,
    ) -> Result<SearchResult, HostError> {
        let legal = game.legal_moves()?;
        let mover = game.position.side_to_move;
        let child_depth = limits.depth.map_or(depth(level), |d| d.min(depth(level))) - 1;
        let share = legal.len().max(1) as u32;
        let budget = limits.budget();
        let time = budget.soft_time.or(budget.hard_time);
        let child_limits = Limits {
            depth: Some(child_depth.max(1)),
            nodes: limits.nodes.map(|n| (n / share as u64).max(1)),
            movetime: time.map(|t| (t / share).max(Duration::from_millis(1))),
            clock: None,
            infinite: false,
            mate: None,
        };
        let mut scored: Vec<(Move, i64)> = Vec::with_capacity(legal.len());
        let mut nodes = 0;
        for &m in &legal {
            let mut child = game.clone();
            child.play(m)?;
            let after = child.status()?;
            let s = if let Some(o) = after.outcome {
                // Decided by the move: a win or a loss outright, a draw as 0.
                match o.winner.winning_color() {
                    Some(c) if c == mover => 999_999,
                    Some(_) => -999_999,
                    None => 0,
                }
            } else {
                let r = self.search(&child, &child_limits, stop, &mut |_| {})?;
                nodes += r.nodes;
                sign(&child, mover) * comparable(r.score)
            };
            scored.push((m, s));
        }
        // Stable: equal scores keep the pipeline's move order.
        scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        if scored.is_empty() {
            return Ok(SearchResult {
                best: None,
                ponder: None,
                score: Score::Cp(0),
                depth: 0,
                nodes,
                pv: Vec::new(),
            });
        }
        let (chosen, s) = scored[pick(level, &scored, rng)];
        Ok(SearchResult {
            best: Some(chosen),
            ponder: None,
            score: from_comparable(s),
            depth: child_depth + 1,
            nodes,
            pv: vec![chosen],
        })
    }
}

/// The mover's sign for a score of `child`'s side to move.
fn sign(child: &Game, mover: houserules_plugin_api::Color) -> i64 {
    if child.position.side_to_move == mover {
        1
    } else {
        -1
    }
}

fn from_comparable(s: i64) -> Score {
    if s >= 900_000 {
        Score::Mate((1_000_000 - s) as i32)
    } else if s <= -900_000 {
        Score::Mate((-1_000_000 - s) as i32)
    } else {
        Score::Cp(s as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use houserules_plugin_api::{MoveFlags, Square};

    fn mv(i: u8) -> Move {
        Move::new(Square(i), Square(i + 1), MoveFlags::NONE)
    }

    #[test]
    fn levels_deepen_and_full_strength_is_the_plain_search() {
        assert_eq!(depth(0), 2);
        assert_eq!(depth(8), 4);
        assert_eq!(depth(19), 6);
        assert_eq!(depth(FULL), 6);
    }

    #[test]
    fn a_far_worse_move_is_never_picked_a_close_one_sometimes() {
        let mut rng = Rng::new(1);
        // A mate against moves that do not mate: never anything but the mate.
        let mating = [(mv(1), 999_999), (mv(2), 30), (mv(3), 20), (mv(4), 10)];
        for level in 0..FULL {
            for _ in 0..200 {
                assert_eq!(mating[pick(level, &mating, &mut rng)].0, mv(1));
            }
        }
        // Four moves within a pawn: at level 0 each of them is played now and then.
        let close = [(mv(1), 50), (mv(2), 30), (mv(3), 10), (mv(4), -40)];
        let mut seen = [0; 4];
        for _ in 0..2000 {
            seen[pick(0, &close, &mut rng)] += 1;
        }
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
        // At level 19 the best move is played far more often than at level 0.
        let best_at = |level, rng: &mut Rng| {
            (0..2000)
                .filter(|_| close[pick(level, &close, rng)].0 == mv(1))
                .count()
        };
        let (low, high) = (best_at(0, &mut rng), best_at(19, &mut rng));
        assert!(high > low + 200, "level 0: {low}, level 19: {high}");
        // A piece behind (300) at level 19 is out of reach.
        let piece = [(mv(1), 50), (mv(2), -250)];
        assert!((0..500).all(|_| piece[pick(19, &piece, &mut rng)].0 == mv(1)));
    }

    #[test]
    fn scores_convert_both_ways() {
        for s in [
            Score::Cp(-35),
            Score::Cp(0),
            Score::Mate(3),
            Score::Mate(-2),
        ] {
            assert_eq!(from_comparable(comparable(s)), s);
        }
        assert!(comparable(Score::Mate(1)) > comparable(Score::Mate(4)));
        assert!(comparable(Score::Mate(-1)) < comparable(Score::Mate(-4)));
        assert!(comparable(Score::Mate(-9)) < comparable(Score::Cp(-5000)));
    }
}
