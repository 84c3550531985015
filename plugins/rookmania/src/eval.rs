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
//!   captures, not shuffles, convert it;
//! - **a side ahead boxes the enemy King in** (`box_terms`): the squares that King can walk
//!   to without crossing a square the side ahead attacks count against it, and the side
//!   ahead's King comes nearer. Depth 4 against depth 2 left games with a lead of a Rook or
//!   more (up to a lone King and pawn against ten pieces) drawn at the ply limit: at depth 4
//!   no mate is in sight, the flight squares next to the King say nothing about the way to
//!   one, and the pawns (rook moves that reset the 50-move clock) shuffle forever. A box
//!   that shrinks is the gradient a search of any depth can follow to the mate. Measured
//!   over 80 games (depth 4 against depth 2, `engine_sweeps`): 68.1% without the terms,
//!   74.4% with them; 20 per square instead of 6 and 24 for the King's nearness instead of
//!   12 were no better (71.3%, 71.9%; one game in 80 is 0.6 points, so a few points are
//!   noise).

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
/// Per square the enemy King's box leaves out, for a side ahead (see `box_terms`).
pub(crate) const BOX_SQUARE: i32 = 6;
/// Per orthogonal step the side ahead's King is nearer the enemy King (from `TROPISM_RANGE`).
pub(crate) const BOX_KING_NEAR: i32 = 12;

fn file(i: usize) -> i32 {
    (i % 7) as i32
}

fn rank(i: usize) -> i32 {
    (i / 7) as i32
}

/// Orthogonal steps between two squares (a King's distance: it steps orthogonally).
fn steps(a: usize, b: usize) -> i32 {
    (file(a) - file(b)).abs() + (rank(a) - rank(b)).abs()
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
    // The box counts from half the trade lead, in full from one and a half: a capture
    // that crosses a threshold should not change the score by more than it gains.
    let weight = (lead.abs() - TRADE_LEAD / 2).clamp(0, TRADE_LEAD);
    if weight > 0 {
        let (ahead, sign) = if lead > 0 { (0, 1) } else { (1, -1) };
        score += sign * box_terms(&b, ahead) * weight / TRADE_LEAD;
    }
    score
}

/// The board with `side`'s King off its square, so that a line it blocks counts through it.
fn without_king(b: &Board, side: usize) -> Board {
    let mut without = *b;
    if b.king[side] != NONE {
        let k = b.king[side] as usize;
        without.cells[k] = 0;
        without.occ[side] &= !(1u64 << k);
    }
    without
}

/// Whether a piece of `side` on the empty square `n` would be attacked (a stand-in on it, so
/// that a capture move there counts; `board` without `side`'s King, so that lines through
/// the King's square count too).
fn attacked_if_there(board: &Board, n: usize, side: usize) -> bool {
    let mut probe = *board;
    probe.cells[n] = code(kind::ROOK, side);
    probe.occ[side] |= 1u64 << n;
    probe.attacked(n, side ^ 1)
}

/// For `ahead`, the side with the larger material: the fewer squares the enemy King can
/// reach and the nearer `ahead`'s King stands to it, the better (never negative).
///
/// The box is every square the enemy King could walk to one step at a time without stepping
/// on a square `ahead` attacks (empty squares, and `ahead`'s pieces it could take there); its
/// own pieces wall it in. A King an enemy Basilisk sees cannot step: its box is its square.
pub(crate) fn box_terms(b: &Board, ahead: usize) -> i32 {
    let enemy = ahead ^ 1;
    let k = b.king[enemy];
    if k == NONE {
        return 0;
    }
    let k = k as usize;
    let without = without_king(b, enemy);
    let mut region = 1u64 << k;
    if b.frozen(enemy) >> k & 1 == 0 {
        // Squares reached whose neighbours are still to look at (each square is pushed once:
        // at most the 43 of the board).
        let mut frontier = [0usize; SQUARES.len()];
        frontier[0] = k;
        let mut pending = 1;
        while pending > 0 {
            pending -= 1;
            let s = frontier[pending];
            for &n in &STEP[s] {
                if n == NONE || region >> n & 1 != 0 {
                    continue;
                }
                let n = n as usize;
                if b.occ[enemy] >> n & 1 != 0 {
                    continue;
                }
                // A piece of `ahead` there: whether it is defended; an empty square: whether
                // the King would be attacked there (a stand-in of its colour in its place).
                let attacked = if b.cells[n] != 0 {
                    without.attacked(n, ahead)
                } else {
                    attacked_if_there(&without, n, enemy)
                };
                if attacked {
                    continue;
                }
                region |= 1u64 << n;
                frontier[pending] = n;
                pending += 1;
            }
        }
    }
    // Counted as the squares denied, so that the terms only ever add to a lead.
    let mut score = BOX_SQUARE * (SQUARES.len() as i32 - region.count_ones() as i32);
    let own = b.king[ahead];
    if own != NONE {
        let own = own as usize;
        score += BOX_KING_NEAR * (TROPISM_RANGE - steps(own, k)).max(0);
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
        if b.frozen(c) >> k & 1 != 0 {
            score -= FROZEN_KING;
        }
        let without = without_king(b, c);
        for &n in &STEP[k] {
            if n == NONE {
                continue;
            }
            let n = n as usize;
            if b.cells[n] != 0 {
                continue;
            }
            if attacked_if_there(&without, n, c) {
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
            score += TROPISM * (TROPISM_RANGE - steps(p, ek)).max(0);
        }
    }
    score
}
