//! Fairy-Stockfish's sittuyin keys (Burmese chess).
//!
//! - `sittuyinRookDrop`: rooks are placed (dropped) on their side's first rank only.
//! - `sittuyinPromotion`: the ordinary promotion zone is off; instead a pawn on a square of
//!   its promotion region — any pawn, when it is its side's only one — may become a piece of
//!   the promotion types (within `promotionLimit`) on its own square, or on an empty square
//!   that piece attacks from there, as long as the new piece attacks no enemy piece from
//!   where it stands (movegen.cpp, "Sittuyin promotions"). Such a promotion may not give
//!   check (position.cpp `legal()`), and it is never compulsory.
//! - The rule of the draw (3.9 c.7 of the rules Fairy-Stockfish follows): a side left with
//!   its king and one pawn, not in check, whose only legal moves are such promotions, may
//!   decline them: the game is drawn (Fairy-Stockfish's `is_optional_game_end`; the host
//!   ends the game there, as for Fairy-Stockfish's other optional ends).
//!
//! Written in coordinates as Fairy-Stockfish's UCI does (`e5e5f` on its own square,
//! `e5d4f` onto a neighbour) and in SAN `e5=F`, `e5d4=F`.

use crate::engine::Fairy;
use crate::spec::PAWN;
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{Cell, Move, MoveEffects, MoveFlags, Position, Square};

/// Appends the side to move's legal sittuyin promotions to `out`.
pub fn moves(v: &Fairy, pos: &Position, out: &mut RVec<Move>) {
    let us = pos.side_to_move;
    let them = us.opposite();
    let pawns: Vec<Square> = v
        .board_squares()
        .filter(|&sq| v.holds(pos, sq, us, PAWN))
        .collect();
    let zone = v.spec.promotion_region[us.index()];
    let promoting = pawns
        .iter()
        .copied()
        .filter(|&sq| pawns.len() == 1 || zone.contains(sq));
    let targets: Vec<u8> = v.spec.promotion_choices(PAWN)[us.index()]
        .iter()
        .filter_map(|&ty| {
            v.kinds
                .iter()
                .position(|k| k.ty == ty && !k.promoted)
                .map(|k| k as u8)
        })
        .collect();
    let enemies: Vec<Square> = v
        .board_squares()
        .filter(|&sq| pos.get(sq).is_color(them))
        .collect();
    for from in promoting {
        for &kind in &targets {
            // The new piece on the pawn's square: the squares it attacks from there.
            let mut placed = pos.clone();
            placed.set(from, Cell::piece(kind, us));
            let dests = std::iter::once(from).chain(v.board_squares().filter(|&sq| {
                pos.get(sq).is_empty() && v.gen.attackers(&placed, sq, us).contains(from)
            }));
            for to in dests {
                let m = Move::promotion(from, to, kind, false);
                let mut after = pos.clone();
                v.gen.apply(&mut after, m, &mut MoveEffects::new(us, false));
                let attacks_enemy = enemies
                    .iter()
                    .any(|&e| v.gen.attackers(&after, e, us).contains(to));
                if !attacks_enemy && !v.gen.in_check(&after, us) && !v.gen.in_check(&after, them) {
                    out.push(m);
                }
            }
        }
    }
}

/// Whether `m` is a sittuyin promotion (a pawn's promotion: the generator makes none).
pub fn is_promotion(m: &Move) -> bool {
    m.is_promotion() && !m.is_drop() && !m.flags.contains(MoveFlags::SPECIAL)
}

/// The rule of the draw: `pos`'s side to move has its king and one pawn, is not in check, and
/// every one of its legal moves (`legal`, not empty) is a promotion.
pub fn only_promotions_left(v: &Fairy, pos: &Position, legal: &[Move]) -> bool {
    let us = pos.side_to_move;
    let ours: Vec<Square> = v
        .board_squares()
        .filter(|&sq| pos.get(sq).is_color(us))
        .collect();
    let pawns = ours
        .iter()
        .filter(|&&sq| v.holds(pos, sq, us, PAWN))
        .count();
    ours.len() == 2
        && pawns == 1
        && !legal.is_empty()
        && legal.iter().all(is_promotion)
        && !v.gen.in_check(pos, us)
}
