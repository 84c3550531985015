//! Static evaluation for rules nobody has seen: material by the values the variant declares,
//! pieces in hand, and centrality. Everything is read from the pipeline's description, never
//! from knowledge of a particular game.

use crate::pipeline::Pipeline;
use houserules_plugin_api::{Color, Position, Square};

/// The evaluation terms of one pipeline, prepared once.
pub struct Evaluation {
    /// Value per piece kind (royal pieces: 0, they are never traded).
    values: Vec<i32>,
    /// Per cell: centrality bonus (0 at the rim).
    center: Vec<i32>,
    least: i32,
}

/// Value of a piece whose variant declares none (a pawn's worth).
const DEFAULT_VALUE: i32 = 100;

impl Evaluation {
    /// The terms for `pipeline`.
    pub fn new(pipeline: &Pipeline) -> Evaluation {
        let info = &pipeline.info;
        let values: Vec<i32> = info
            .pieces
            .iter()
            .map(|p| {
                if p.royal {
                    0
                } else if p.value > 0 {
                    p.value
                } else {
                    DEFAULT_VALUE
                }
            })
            .collect();
        let least = values
            .iter()
            .copied()
            .filter(|&v| v > 0)
            .min()
            .unwrap_or(DEFAULT_VALUE);
        let (files, ranks) = (info.files as i32, info.ranks as i32);
        let mut center = vec![0; 256];
        for r in 0..ranks {
            for f in 0..files {
                // Distance to the centre in half-squares, turned into a bonus.
                let df = (2 * f - (files - 1)).abs();
                let dr = (2 * r - (ranks - 1)).abs();
                let bonus = (files + ranks - 2 - df - dr).max(0);
                center[Square::new(f as u8, r as u8).index()] = bonus;
            }
        }
        Evaluation {
            values,
            center,
            least,
        }
    }

    /// Value of a piece kind.
    pub fn value(&self, kind: u8) -> i32 {
        self.values
            .get(kind as usize)
            .copied()
            .unwrap_or(DEFAULT_VALUE)
    }

    /// The smallest value of a non-royal piece (the victim of an en passant capture).
    pub fn least_value(&self) -> i32 {
        self.least
    }

    /// The position's value for White, in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut score = 0;
        for (sq, cell) in pos.cells().iter().enumerate() {
            let (Some(kind), Some(color)) = (cell.kind(), cell.color()) else {
                continue;
            };
            let v = self.value(kind) + self.center[sq] * 2;
            score += if color == Color::White { v } else { -v };
        }
        for (c, hand) in pos.hands.iter().enumerate() {
            let v: i32 = hand
                .iter()
                .enumerate()
                .map(|(k, &n)| n as i32 * self.value(k as u8))
                .sum();
            score += if c == 0 { v } else { -v };
        }
        score
    }
}
