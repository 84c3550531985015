//! The variant's terms for the engine's evaluation (`VariantRules::evaluate`): what material
//! and mobility do not say about Rook Mania.
//!
//! Depth 4 against depth 2 drew 28 of 40 games by the ply limit without them: the records
//! show both sides shuffling pawns (a pawn moves like a rook and resets the 50-move clock, so
//! nothing ends such a game) with no plan, and, when one side was far ahead, no way to build a
//! mate. A King steps one square orthogonally and is mated by covering at most four squares,
//! so the terms are about the King's four neighbours:
//!
//! - **flight squares**: an empty neighbour no enemy piece could capture on (the King taken
//!   off its square first, so that a line it blocks counts through it), and the neighbours
//!   the enemy attacks, count for and against the King's side;
//! - **a frozen King** (seen by an enemy Basilisk) cannot step at all: any check it cannot
//!   shoot, block or capture is mate;
//! - **attackers nearby**: pieces other than pawns count more the nearer (orthogonal
//!   distance) they stand to the enemy King;
//! - **pistol shots** left: each one removes a checker, which is what keeps a King alive;
//! - **a side ahead trades down**: its lead counts more the less material is left, so that
//!   captures, not shuffles, convert it.

use crate::engine::{code, kind, Board, NONE, SQUARES, STEP};
use houserules_plugin_api::Position;

/// Per empty neighbour of the King no enemy piece could capture on.
const FLIGHT: i32 = 12;
/// Per neighbour of the King an enemy piece could capture on.
const ATTACKED_NEAR: i32 = 14;
/// A King an enemy Basilisk sees (it cannot step).
const FROZEN_KING: i32 = 40;
/// Per orthogonal step nearer the enemy King (from `TROPISM_RANGE`), per piece but pawns.
const TROPISM: i32 = 3;
/// Distances from the enemy King at and beyond which a piece earns no tropism.
const TROPISM_RANGE: i32 = 8;
/// Per pistol shot left.
const SHOT: i32 = 40;
/// Material (without pawns and Kings) of one side at the start: 250 + 400 + 500 + 450 +
/// 350 + 250 + 600.
const START_PIECES: i32 = 2800;
/// Material lead from which trading down is rewarded.
const TRADE_LEAD: i32 = 200;

fn file(i: usize) -> i32 {
    (i % 7) as i32
}

fn rank(i: usize) -> i32 {
    (i / 7) as i32
}

/// The terms for White, in centipawns; `values` per piece kind (the piece table's).
pub fn evaluate(pos: &Position, values: &[i32; 8]) -> i32 {
    let b = Board::from_position(pos);
    let mut material = [0i32; 2];
    let mut pieces = [0i32; 2];
    for &i in SQUARES.iter() {
        let c = b.cells[i as usize];
        if c < 2 {
            continue;
        }
        let (k, col) = ((c - 2) >> 1, ((c - 2) & 1) as usize);
        material[col] += values[k as usize];
        if k != kind::PAWN {
            pieces[col] += values[k as usize];
        }
    }
    let mut score = king_terms(&b, 0) - king_terms(&b, 1);
    score += SHOT * (b.shots[0] as i32 - b.shots[1] as i32);
    let lead = material[0] - material[1];
    if lead.abs() >= TRADE_LEAD {
        // Up to a quarter of the lead again as the pieces come off.
        let gone = (2 * START_PIECES - pieces[0] - pieces[1]).clamp(0, 2 * START_PIECES);
        score += lead * gone / (8 * START_PIECES);
    }
    score
}

/// The King terms of side `c` (positive: good for `c`): its own King's safety, and the
/// pressure of its pieces on the enemy King.
fn king_terms(b: &Board, c: usize) -> i32 {
    let mut score = 0;
    let k = b.king[c];
    if k != NONE {
        let k = k as usize;
        let e = c ^ 1;
        if b.frozen(c) >> k & 1 != 0 {
            score -= FROZEN_KING;
        }
        // The King off its square, so that a line through it counts.
        let mut without = *b;
        without.cells[k] = 0;
        without.occ[c] &= !(1u64 << k);
        let stand_in = code(kind::ROOK, c);
        for &n in &STEP[k] {
            if n == NONE {
                continue;
            }
            let n = n as usize;
            if b.cells[n] != 0 {
                continue;
            }
            let mut probe = without;
            probe.cells[n] = stand_in;
            probe.occ[c] |= 1u64 << n;
            if probe.attacked(n, e) {
                score -= ATTACKED_NEAR;
            } else {
                score += FLIGHT;
            }
        }
    }
    let enemy_king = b.king[c ^ 1];
    if enemy_king != NONE {
        let ek = enemy_king as usize;
        let mut bb = b.occ[c];
        while bb != 0 {
            let p = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            let kd = (b.cells[p] - 2) >> 1;
            if kd == kind::KING {
                continue;
            }
            if kd == kind::PAWN {
                continue;
            }
            let dist = (file(p) - file(ek)).abs() + (rank(p) - rank(ek)).abs();
            score += TROPISM * (TROPISM_RANGE - dist).max(0);
        }
    }
    score
}
