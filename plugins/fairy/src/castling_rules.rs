//! Fairy-Stockfish's castling rules beyond castling itself: `castlingWins` (castling on a
//! listed side wins; losing every listed right of a colour loses) and `oppositeCastling`
//! (castling on one side takes the opponent's right on that side).

use houserules_plugin_api::{Color, Move, Position};

/// Where a winning castling move is marked (`Position::variant_state`; 0 and 1 hold check
/// counting's checks, 2 the passes in a row).
const CASTLED_TO_WIN: usize = 3;

/// The castling rights of `castlingWins` (`KQkq` letters), as castling slots (colour * 2 +
/// side, 0 king side, 1 queen side).
pub fn parse_rights(v: &str) -> Result<[bool; 4], String> {
    let mut out = [false; 4];
    for c in v.chars().filter(|c| !c.is_whitespace()) {
        match c {
            '-' => break,
            'K' => out[0] = true,
            'Q' => out[1] = true,
            'k' => out[2] = true,
            'q' => out[3] = true,
            _ => return Err(format!("`{c}` is not a castling right (K, Q, k, q)")),
        }
    }
    Ok(out)
}

/// The castling slot of castling move `m` by `color`.
fn slot(m: &Move, color: Color) -> usize {
    color.index() * 2 + usize::from(m.to.file() < m.from.file())
}

/// After `m` by `mover` was played on `pos`: marks a winning castling move, and with
/// `opposite` takes the opponent's right on the side castled to.
pub fn after_move(pos: &mut Position, m: &Move, mover: Color, wins: &[bool; 4], opposite: bool) {
    if wins.contains(&true) {
        pos.variant_state[CASTLED_TO_WIN] = u32::from(m.is_castle() && wins[slot(m, mover)]);
    }
    if opposite && m.is_castle() {
        let theirs = slot(m, mover.opposite());
        pos.castling[theirs] = houserules_plugin_api::Square::NONE;
    }
}

/// The winner by `castlingWins` in `pos` (the side to move just answered `mover`'s move):
/// the mover castled to win; else a colour that lost all its listed rights loses (the
/// mover's opponent first, as in Fairy-Stockfish).
pub fn winner(pos: &Position, wins: &[bool; 4]) -> Option<Color> {
    let stm = pos.side_to_move;
    if pos.variant_state[CASTLED_TO_WIN] != 0 {
        return Some(stm.opposite());
    }
    for c in [stm.opposite(), stm] {
        let listed: Vec<usize> = (0..2)
            .map(|s| c.index() * 2 + s)
            .filter(|&s| wins[s])
            .collect();
        if !listed.is_empty() && listed.iter().all(|&s| pos.castling[s].is_none()) {
            return Some(c.opposite());
        }
    }
    None
}
