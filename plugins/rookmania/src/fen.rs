//! Rook Mania FEN: `board side shots halfmove fullmove`, e.g. the start position
//! `**bkh**/*ctrst*/ppppppp/*5*/**3**/*5*/PPPPPPP/*CTRST*/**BKH** w 22 0 1`.
//!
//! The board lists ranks 9 to 1 over all seven files with the holes of the hourglass written
//! `*` (exactly where the board has them). `shots` gives the pistol shots left for White and
//! Black as two digits (0, 1 or 2 each). The clocks may be omitted (0 and 1); so may the shots
//! field when the clocks are omitted too (22).

use crate::engine::{self, kind, Board, ON_BOARD};
use houserules_plugin_api::{geometry, Color, FenError, PieceType, Position, Square};

/// The column (within the whole FEN) of the character that describes `sq` in the board
/// field starting at `offset`; the start of the field if it cannot be found.
fn column_of(board: &str, offset: usize, sq: Square) -> u32 {
    let want_row = (engine::RANKS - 1 - sq.rank()) as usize;
    let mut col = offset;
    for (i, row) in board.split('/').enumerate() {
        if i == want_row {
            let mut f = 0u32;
            for (j, ch) in row.char_indices() {
                let n = if ch.is_ascii_digit() {
                    ch.to_digit(10).unwrap_or(1)
                } else if ch == '+' {
                    continue;
                } else {
                    1
                };
                if f + n > sq.file() as u32 {
                    return (col + j) as u32;
                }
                f += n;
            }
            return col as u32;
        }
        col += row.len() + 1;
    }
    offset as u32
}

/// Reads a Rook Mania FEN.
pub fn parse(text: &str, pieces: &[PieceType]) -> Result<Position, FenError> {
    let fs = geometry::fen_fields(text);
    if fs.is_empty() {
        return Err(FenError::new(0, 0, "empty FEN"));
    }
    if fs.len() > 5 {
        return Err(FenError::new(
            5,
            fs[5].column as u32,
            format!(
                "unexpected extra field `{}` (a Rook Mania FEN is: board, side, shots, \
                 halfmove clock, fullmove number)",
                fs[5].text
            ),
        ));
    }
    let bf = &fs[0];
    if bf.text.contains('[') {
        return Err(FenError::new(
            0,
            (bf.column + bf.text.find('[').unwrap_or(0)) as u32,
            "Rook Mania has no pockets",
        ));
    }
    if bf.text.contains('+') {
        return Err(FenError::new(
            0,
            (bf.column + bf.text.find('+').unwrap_or(0)) as u32,
            "Rook Mania has no promoted pieces (`+`)",
        ));
    }
    let mut pos =
        geometry::parse_fen_board(bf.text, bf.column, engine::FILES, engine::RANKS, pieces)?;
    // Holes exactly where the hourglass has them.
    for r in 0..engine::RANKS {
        for f in 0..engine::FILES {
            let sq = Square::new(f, r);
            let hole = !ON_BOARD[(r * 7 + f) as usize];
            let cell = pos.get(sq);
            if hole && !cell.is_hole() {
                return Err(FenError::new(
                    0,
                    column_of(bf.text, bf.column, sq),
                    format!("{sq} is not a square of the hourglass board: write `*` there"),
                ));
            }
            if !hole && cell.is_hole() {
                return Err(FenError::new(
                    0,
                    column_of(bf.text, bf.column, sq),
                    format!("{sq} is a square of the board, not a hole"),
                ));
            }
        }
    }
    // At most one King per side.
    for color in [Color::White, Color::Black] {
        let kings: Vec<Square> = pos
            .pieces_of(color)
            .filter(|(_, k)| *k == kind::KING)
            .map(|(s, _)| s)
            .collect();
        if kings.len() > 1 {
            return Err(FenError::new(
                0,
                column_of(bf.text, bf.column, kings[1]),
                format!(
                    "{} has more than one King ({} and {})",
                    color.name(),
                    kings[0],
                    kings[1]
                ),
            ));
        }
    }
    // Side to move.
    let side = fs
        .get(1)
        .ok_or_else(|| FenError::new(1, text.len() as u32, "missing side to move (`w` or `b`)"))?;
    pos.side_to_move = match side.text {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return Err(FenError::new(
                1,
                side.column as u32,
                format!("side to move must be `w` or `b`, not `{other}`"),
            ))
        }
    };
    // Pistol shots left.
    pos.variant_state = [2, 2, 0, 0];
    if let Some(s) = fs.get(2) {
        let b = s.text.as_bytes();
        if b.len() != 2 {
            return Err(FenError::new(
                2,
                s.column as u32,
                format!(
                    "pistol shots: `{}` must be two digits, the shots left for White and Black \
                     (e.g. `22`)",
                    s.text
                ),
            ));
        }
        for (j, &ch) in b.iter().enumerate() {
            if !(b'0'..=b'2').contains(&ch) {
                return Err(FenError::new(
                    2,
                    (s.column + j) as u32,
                    format!(
                        "pistol shots: `{}` for {} is not 0, 1 or 2",
                        ch as char,
                        Color::from_index(j).name()
                    ),
                ));
            }
            pos.variant_state[j] = (ch - b'0') as u32;
        }
    }
    geometry::parse_fen_clocks(&mut pos, fs.get(3), fs.get(4), 3)?;
    // The side that just moved may not have left its King attacked.
    let b = Board::from_position(&pos);
    let them = pos.side_to_move.opposite();
    if b.in_check(them.index()) {
        return Err(FenError::new(
            1,
            side.column as u32,
            format!(
                "{} is in check but it is {}'s move",
                them.name(),
                pos.side_to_move.name()
            ),
        ));
    }
    Ok(pos)
}

/// Writes a Rook Mania FEN.
pub fn write(pos: &Position, pieces: &[PieceType]) -> String {
    format!(
        "{} {} {}{} {} {}",
        geometry::write_fen_board(pos, pieces, false),
        pos.side_to_move.fen_char(),
        pos.variant_state[0].min(9),
        pos.variant_state[1].min(9),
        pos.halfmove_clock,
        pos.fullmove_number
    )
}
