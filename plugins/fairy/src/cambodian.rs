//! Fairy-Stockfish's `cambodianMoves` (Ouk Khmer: `cambodian`, `karouk`), with `gating` for
//! the rights: while the king still stands on its first square (its gate, see
//! [`crate::gating`]) and is not in check, it may leap like a knight to the rank in front of
//! it (`d1b2`, `d1f2`); a met (fers) on its first square may step two squares straight
//! forward to an empty square (`e1e3`). Moving the piece takes the right away, as does a
//! rook move of the opponent that lines up with the king on its first square (rank or file,
//! whatever stands between: Fairy-Stockfish's empty-board rook lines) (movegen.cpp "Special
//! moves", position.cpp `do_move`). The moves are plain moves of the piece (SAN `Kb2`).

use crate::engine::Fairy;
use crate::gating::gates;
use crate::spec::{FERS, KING, ROOK};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{Color, Move, MoveEffects, MoveFlags, Position, Square};

/// Appends the side to move's legal king leaps and met double steps.
pub fn moves(v: &Fairy, pos: &Position, out: &mut RVec<Move>) {
    let us = pos.side_to_move;
    let files = gates(pos, us);
    if files == 0 {
        return;
    }
    let rank = v.castling_rank(us.index());
    let fwd = us.forward();
    let in_check = v.gen.in_check(pos, us);
    let mut push = |from: Square, to: Option<Square>| {
        let Some(to) = to.filter(|&t| pos.get(t).is_empty()) else {
            return;
        };
        let m = Move::new(from, to, MoveFlags::NONE);
        let mut after = pos.clone();
        v.gen.apply(&mut after, m, &mut MoveEffects::new(us, false));
        if !v.gen.in_check(&after, us) {
            out.push(m);
        }
    };
    for f in (0..v.files).filter(|f| files & (1 << f) != 0) {
        let from = Square::new(f, rank);
        if v.holds(pos, from, us, KING) && !in_check {
            for df in [-2, 2] {
                push(from, from.offset_within(df, fwd, v.files, v.ranks));
            }
        }
        if v.holds(pos, from, us, FERS) {
            push(from, from.offset_within(0, 2 * fwd, v.files, v.ranks));
        }
    }
}

/// After `m` by `us` (made): a rook of `us` that now lines up with the enemy king on its
/// gate takes that king's leap away.
pub fn after_move(v: &Fairy, pos: &mut Position, m: &Move, us: Color) {
    if m.is_drop() || m.is_castle() || !v.holds(pos, m.to, us, ROOK) {
        return;
    }
    let them = us.opposite();
    let rank = v.castling_rank(them.index());
    let before = gates(pos, them);
    let mut theirs = before;
    for f in (0..v.files).filter(|f| before & (1 << f) != 0) {
        let king = Square::new(f, rank);
        if v.holds(pos, king, them, KING)
            && (king.file() == m.to.file() || king.rank() == m.to.rank())
        {
            theirs &= !(1 << f);
        }
    }
    crate::gating::set_gates(pos, them, theirs);
}
