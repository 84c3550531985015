//! Fairy-Stockfish's `dupleCheck` (spartan, whose Black has two kings): with pseudo-royal
//! pieces (`extinctionPseudoRoyal`), a side whose pieces of the extinction types are *all*
//! attacked is in check, whether or not any of them is pseudo-royal (two kings are not: a
//! type is pseudo-royal only while a side has at most `extinctionPieceCount + 1` of it). No
//! move may leave them all attacked, even one that takes an enemy pseudo-royal piece
//! (position.cpp `legal()`), and a side without moves in such a check is mated
//! (`checked_pseudo_royals`, `stalemate_value`). A piece touching an enemy pseudo-royal piece
//! where captures explode counts as not attacked, as for pseudo-royal pieces.

use crate::engine::Fairy;
use houserules_plugin_api::{Color, Move, Position, Square, SquareSet};

/// `color`'s pieces of the extinction types (Fairy-Stockfish's pseudo-royal candidates).
pub fn candidates(v: &Fairy, pos: &Position, color: Color) -> Vec<Square> {
    v.board_squares()
        .filter(|&sq| {
            let c = pos.get(sq);
            c.color() == Some(color)
                && c.kind()
                    .is_some_and(|k| v.extinction_type(v.kinds[k as usize].ty))
        })
        .collect()
}

/// Whether `squares` is not empty and every one is attacked by `by` in `pos` (`theirs`: the
/// enemy pseudo-royal pieces, for the touching exception).
fn every_one_attacked(
    v: &Fairy,
    pos: &Position,
    squares: &[Square],
    by: Color,
    theirs: &SquareSet,
    for_safety: bool,
) -> bool {
    if squares.is_empty() || squares.iter().any(|&s| v.touches(s, theirs)) {
        return false;
    }
    if for_safety {
        // One look at the cells for all of them (`after` has no bitboards cached).
        v.gen
            .attackers_each(pos, squares, by, |_, a| v.attacks_for_safety(pos, a))
    } else {
        squares.iter().all(|&s| v.gen.is_attacked(pos, s, by))
    }
}

/// `color`'s candidates when all of them are attacked (a duple check), else none.
pub fn all_attacked(v: &Fairy, pos: &Position, color: Color, theirs: &SquareSet) -> Vec<Square> {
    let c = candidates(v, pos, color);
    if every_one_attacked(v, pos, &c, color.opposite(), theirs, false) {
        c
    } else {
        Vec::new()
    }
}

/// Whether the move `m` of the side to move in `pos` (reaching `after`) leaves all of its
/// candidates attacked ([`after`] of `before`).
pub fn leaves_all_attacked(
    v: &Fairy,
    pos: &Position,
    before: &[Square],
    m: Move,
    after: &Position,
    theirs: &SquareSet,
) -> bool {
    let by = pos.side_to_move.opposite();
    every_one_attacked(v, after, &self::after(v, pos, before, m), by, theirs, true)
}

/// The mover's candidates after `m`: `before`, its [`candidates`] in `pos`, the position the
/// move is made in, with the moved one on its destination, and a chess-style promotion to an
/// extinction type (as Fairy-Stockfish's `legal()` has it).
pub fn after(v: &Fairy, pos: &Position, before: &[Square], m: Move) -> Vec<Square> {
    let dest = if m.is_castle() { m.via } else { m.to };
    let mut c: Vec<Square> = before
        .iter()
        .map(|&s| if !m.is_drop() && s == m.from { dest } else { s })
        .collect();
    let promoted_to_candidate = m.is_promotion()
        && !m.is_drop()
        && v.is_chess_style_promotion(pos, &m)
        && v.kinds
            .get(m.piece as usize)
            .is_some_and(|k| v.extinction_type(k.ty));
    if promoted_to_candidate && !c.contains(&dest) {
        c.push(dest);
    }
    c
}
