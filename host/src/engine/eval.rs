//! Static evaluation for rules nobody has seen. Every term is read from the pipeline's
//! description or asked of its plugins, never from knowledge of a particular game:
//!
//! - **material**: the values the variant's piece table declares ([`PieceType::value`]);
//!   where a piece declares none (0), a value from its mobility on an empty board, as
//!   Fairy-Stockfish values custom pieces; royal pieces count nothing (they are never traded);
//! - **hit points** ([`attr::HP`]): a piece that survives more hits is worth more (up to 3);
//! - **pieces in hand** at their value plus a little (a drop can go anywhere);
//! - **centrality**: a small bonus per piece for standing near the centre;
//! - **mobility**: legal moves of each side, as the search last counted them;
//! - **plugin terms**: what the variant ([`VariantFlags::EVALUATES`]) and the presets
//!   ([`HookSet::EVALUATE`]) add through the evaluation hook (API 1.3).
//!
//! [`PieceType::value`]: houserules_plugin_api::PieceType::value
//! [`VariantFlags::EVALUATES`]: houserules_plugin_api::VariantFlags::EVALUATES
//! [`HookSet::EVALUATE`]: houserules_plugin_api::HookSet::EVALUATE

use crate::error::HostError;
use crate::pipeline::{cell_word, Pipeline};
use abi_stable::std_types::RVec;
use houserules_plugin_api::{attr, Cell, Color, Position, Role, Square};

/// The evaluation terms of one pipeline, prepared once.
pub struct Evaluation {
    /// Value per piece kind (royal pieces: 0).
    values: Vec<i32>,
    /// Per piece kind: royal (a capture of it is ordered first).
    royal: Vec<bool>,
    /// Per cell: centrality bonus (0 at the rim).
    center: Vec<i32>,
    /// Per cell byte ([`Cell`]'s 256 values): the piece's value for White (negative for a
    /// black piece) and its side's sign (1 White, -1 Black, 0 an empty square, a hole or a
    /// wall), so that the material sum reads one table entry a piece.
    cell_worth: Vec<(i32, i32)>,
    least: i32,
    plugin_terms: bool,
}

/// Value of a piece that declares none and whose mobility cannot be measured.
const DEFAULT_VALUE: i32 = 100;
/// A royal victim in move ordering: above every piece's value (and small enough that the
/// search's ordering key, victim times 16, stays within its capture band).
const ROYAL_VICTIM: i32 = 100_000;
/// Centipawns per legal move more than the opponent.
const MOBILITY: i32 = 4;
/// Mobility counts at most this many moves of difference.
const MOBILITY_CAP: i32 = 40;
/// Centipawns per step towards the centre (in half-squares).
const CENTRALITY: i32 = 2;

impl Evaluation {
    /// The terms for `pipeline`.
    pub fn new(pipeline: &Pipeline) -> Evaluation {
        let info = &pipeline.info;
        let values: Vec<i32> = info
            .pieces
            .iter()
            .enumerate()
            .map(|(kind, p)| {
                if p.royal || p.role == Role::WALL {
                    0
                } else if p.value > 0 {
                    p.value
                } else {
                    mobility_value(pipeline, kind as u8).unwrap_or(DEFAULT_VALUE)
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
                let df = (2 * f - (files - 1)).abs();
                let dr = (2 * r - (ranks - 1)).abs();
                let bonus = (files + ranks - 2 - df - dr).max(0) / 2;
                center[Square::new(f as u8, r as u8).index()] = bonus;
            }
        }
        // A wall ([`Role::WALL`]) is no side's material and has no placement.
        let wall: Vec<bool> = info.pieces.iter().map(|p| p.role == Role::WALL).collect();
        let cell_worth = (0..=u8::MAX)
            .map(|b| {
                let cell = Cell(b);
                match (cell.kind(), cell.color()) {
                    (Some(kind), Some(color))
                        if !wall.get(kind as usize).copied().unwrap_or(false) =>
                    {
                        let sign = if color == Color::White { 1 } else { -1 };
                        let v = values.get(kind as usize).copied().unwrap_or(DEFAULT_VALUE);
                        (sign * v, sign)
                    }
                    _ => (0, 0),
                }
            })
            .collect();
        Evaluation {
            values,
            royal: info.pieces.iter().map(|p| p.royal).collect(),
            center,
            cell_worth,
            least,
            plugin_terms: pipeline.has_evaluation_terms(),
        }
    }

    /// Value of a piece kind.
    pub fn value(&self, kind: u8) -> i32 {
        self.values
            .get(kind as usize)
            .copied()
            .unwrap_or(DEFAULT_VALUE)
    }

    /// What a capture of a piece kind is worth in move ordering: its value, and a royal piece
    /// (where rules let it be captured, that ends the game or costs it a life) above any.
    pub fn victim_value(&self, kind: u8) -> i32 {
        if self.royal.get(kind as usize).copied().unwrap_or(false) {
            ROYAL_VICTIM
        } else {
            self.value(kind)
        }
    }

    /// The smallest value of a non-royal piece (the victim of an en passant capture).
    pub fn least_value(&self) -> i32 {
        self.least
    }

    /// Material and placement of `pos` for White (no mobility, no plugin terms).
    pub fn material(&self, pos: &Position) -> i32 {
        let hp_in_use = pos.has_attributes();
        let mut score = 0;
        // Eight cells at a time: most of the 256 are empty (a board uses 16 per rank at
        // most, few of them full), and an empty group costs one test.
        let occupied = pos
            .cells()
            .chunks_exact(8)
            .enumerate()
            .filter(|(_, chunk)| cell_word(chunk) != 0)
            .flat_map(|(w, chunk)| chunk.iter().enumerate().map(move |(j, c)| (w * 8 + j, c)));
        for (sq, cell) in occupied {
            // Walls are stored as pieces of a colour (the fairy plugin's are White's): counted,
            // every wall put was a pawn won, and in atlantis, where a turn may put a wall
            // instead of moving, the engine walled the board up instead of playing. Their
            // sign is 0, as an empty square's.
            let (mut v, sign) = self.cell_worth[cell.0 as usize];
            if sign == 0 {
                continue;
            }
            if hp_in_use {
                // A piece that takes n hits to remove is worth more, by half a piece per
                // extra hit point (it still moves like one piece), up to 3: no shipped rule
                // that only takes hit points away gives more, and where rules hand them out
                // as pieces move (nomad) more are worth nothing; counted, every move and
                // every capture "won" material and quiescence never settled.
                if let Some(hp) = pos.attribute(Square(sq as u8), attr::HP) {
                    v += v * (hp.clamp(1, 3) - 1) / 2;
                }
            }
            score += v + sign * self.center[sq] * CENTRALITY;
        }
        for (c, hand) in pos.hands.iter().enumerate() {
            if hand.iter().all(|&n| n == 0) {
                continue;
            }
            let v: i32 = hand
                .iter()
                .enumerate()
                .map(|(k, &n)| n as i32 * (self.value(k as u8) * 11 / 10))
                .sum();
            score += if c == 0 { v } else { -v };
        }
        score
    }

    /// The evaluation for White: material and placement, mobility from the latest legal
    /// move counts of each side (`None`: not known), and the plugins' terms.
    pub fn evaluate(
        &self,
        pipeline: &Pipeline,
        pos: &Position,
        mobility: [Option<u32>; 2],
    ) -> Result<i32, HostError> {
        let mut score = self.material(pos);
        if let [Some(w), Some(b)] = mobility {
            let diff = (w as i32 - b as i32).clamp(-MOBILITY_CAP, MOBILITY_CAP);
            score += diff * MOBILITY;
        }
        if self.plugin_terms {
            score = score.saturating_add(pipeline.evaluation_terms(pos)?);
        }
        Ok(score.clamp(-20000, 20000))
    }
}

/// A value from the piece's average number of moves on an empty board (alone with nothing
/// to capture), for pieces that declare none: about 35 centipawns per move, so that a knight
/// (5.25 moves on 8x8) is worth about 230 and a rook (14) about 540.
fn mobility_value(p: &Pipeline, kind: u8) -> Option<i32> {
    let (files, ranks) = (p.info.files, p.info.ranks);
    let mut total = 0usize;
    let mut squares = 0usize;
    let mut out = RVec::new();
    for r in 0..ranks {
        for f in 0..files {
            let sq = Square::new(f, r);
            let mut pos = Position::empty(files, ranks);
            pos.set(sq, Cell::piece(kind, Color::White));
            if p.pseudo_moves(&pos, Color::White, &mut out).is_err() {
                return None;
            }
            total += out.iter().filter(|m| m.from == sq).count();
            squares += 1;
        }
    }
    if squares == 0 || total == 0 {
        return None;
    }
    Some((35 * total / squares) as i32 + 50)
}
