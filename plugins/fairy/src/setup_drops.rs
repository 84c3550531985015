//! Fairy-Stockfish's rules for placing the pieces before play (its `placement` variant):
//! `dropOppositeColoredBishop` (a side's bishops must end up on squares of both colours) and
//! `castlingDroppedPiece` (a king or rook dropped on its castling square gains the castling
//! right). A side whose king is still in hand has no royal piece: it cannot be in check
//! and has not lost it (the variant reports its royals itself while kings can be in hand).

use crate::engine::Fairy;
use crate::spec;
use houserules_plugin_api::{Color, Move, Position, Square, SquareSet};

/// Fairy-Stockfish's dark squares (a1 is dark).
fn dark(sq: Square) -> bool {
    (sq.file() + sq.rank()).is_multiple_of(2)
}

/// What `dropOppositeColoredBishop` needs of a position: the side's bishops on board and in
/// hand, and by square colour (index 1: dark) its bishops and the empty squares of its drop
/// region.
pub(crate) struct BishopBudget {
    total: u32,
    region: Option<SquareSet>,
    bishops: [u32; 2],
    free: [u32; 2],
}

impl Fairy {
    /// `dropOppositeColoredBishop`, counted once for all of a position's moves (the
    /// filter asks at every node, a board scan a move was most of screen's search time).
    pub(crate) fn bishop_budget(&self, pos: &Position) -> BishopBudget {
        let us = pos.side_to_move;
        let region = self.spec.drop_region[us.index()];
        let mut budget = BishopBudget {
            total: self.count_with_hand(pos, us, spec::BISHOP),
            region,
            bishops: [0; 2],
            free: [0; 2],
        };
        for sq in self.board_squares() {
            let cell = pos.get(sq);
            let shade = usize::from(dark(sq));
            if cell.is_empty() {
                if region.is_none_or(|r| r.contains(sq)) {
                    budget.free[shade] += 1;
                }
            } else if cell.is_color(us)
                && cell
                    .kind()
                    .is_some_and(|k| self.kinds[k as usize].ty == spec::BISHOP)
            {
                budget.bishops[shade] += 1;
            }
        }
        budget
    }

    /// Whether `m` keeps to the budget: a drop of another piece must leave enough empty
    /// squares of each colour in the bishops' drop region for the bishops in hand; a bishop
    /// may not be dropped on the colour that already has its half of the side's bishops.
    pub(crate) fn opposite_bishops_allow(
        &self,
        pos: &Position,
        budget: &BishopBudget,
        m: &Move,
    ) -> bool {
        if !m.is_drop() {
            return true;
        }
        let to = usize::from(dark(m.to));
        let total = budget.total;
        if self.kinds.get(m.piece as usize).map(|k| k.ty) == Some(spec::BISHOP) {
            return budget.bishops[to] < total.div_ceil(2);
        }
        // The squares of each colour a bishop could still stand on once `m` is made: the
        // bishops' own and the empty ones of the region but `m.to`.
        let mut room = [0, 1].map(|shade| budget.bishops[shade] + budget.free[shade]);
        if pos.get(m.to).is_empty() && budget.region.is_none_or(|r| r.contains(m.to)) {
            room[to] -= 1;
        }
        room.iter().all(|&n| n >= total / 2)
    }

    /// A royal piece may not be dropped where the enemy attacks it (the generator's legality
    /// knows only royals already on the board).
    pub(crate) fn royal_drop_safe(&self, pos: &Position, m: &Move) -> bool {
        !(m.is_drop()
            && self.kinds.get(m.piece as usize).is_some_and(|k| k.royal)
            && self.attacked(pos, m.to, pos.side_to_move.opposite()))
    }

    /// `castlingDroppedPiece`: after `m`, a drop by `us`, the castling rights it creates.
    pub(crate) fn castling_rights_of_drop(&self, pos: &mut Position, m: &Move, us: Color) {
        let Some((king, rooks)) = self.castle.clone() else {
            return;
        };
        let rank = self.castling_rank(us.index());
        if !m.is_drop() || m.to.rank() != rank {
            return;
        }
        let king_sq = Square::new(self.spec.castling_king_file, rank);
        let last = self.files - 1;
        let rook_at = |pos: &Position, sq: Square| {
            pos.get(sq).is_color(us) && pos.get(sq).kind().is_some_and(|k| rooks.contains(&k))
        };
        let set = |pos: &mut Position, rook: Square| {
            let side = usize::from(rook.file() < king_sq.file());
            pos.castling[us.index() * 2 + side] = rook;
        };
        if m.piece == king && m.to == king_sq {
            for f in [0, last] {
                let sq = Square::new(f, rank);
                if rook_at(pos, sq) {
                    set(pos, sq);
                }
            }
        } else if rooks.contains(&m.piece)
            && (m.to.file() == 0 || m.to.file() == last)
            && pos.get(king_sq).is_color(us)
            && pos.get(king_sq).kind() == Some(king)
        {
            set(pos, m.to);
        }
    }
}
