//! Safe helpers for plugin authors: rays, leaps and the board part of FEN.
//!
//! ```
//! use houserules_plugin_api::abi_stable::std_types::RVec;
//! use houserules_plugin_api::{geometry, Cell, Color, PieceType, Role, Square};
//!
//! // A rook and a pawn: the piece table's index is the piece kind.
//! let pieces = [PieceType::new('R', "rook", Role::ROOK, 500), PieceType::new('P', "pawn", Role::PAWN, 100)];
//! let pos = geometry::parse_fen_board("8/8/8/8/8/8/p7/R7", 0, 8, 8, &pieces).unwrap();
//! assert_eq!(pos.get(Square::parse("a2").unwrap()), Cell::piece(1, Color::Black));
//! let mut moves = RVec::new();
//! for d in geometry::ORTHOGONAL {
//!     geometry::slide(&pos, Square::parse("a1").unwrap(), d, Color::White, &mut moves);
//! }
//! // b1..h1 and the capture on a2.
//! assert_eq!(moves.len(), 8);
//! assert_eq!(moves.iter().filter(|m| m.is_capture()).count(), 1);
//! assert_eq!(geometry::write_fen_board(&pos, &pieces, false), "8/8/8/8/8/8/p7/R7");
//! ```

use crate::board::{Cell, Color, Position, Square};
use crate::manifest::PieceType;
use crate::moves::{Move, MoveFlags};
use crate::outcome::FenError;
use abi_stable::std_types::RVec;

/// The four orthogonal directions (file step, rank step): N, E, S, W.
pub const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
/// The four diagonal directions: NE, SE, SW, NW.
pub const DIAGONAL: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
/// The eight king directions clockwise from N (N, NE, E, SE, S, SW, W, NW), as the catalogue
/// searches adjacent squares.
pub const CLOCKWISE: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
/// The eight knight leaps.
pub const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// The king's distance between two squares: the steps a king needs on an empty board (the
/// larger of the file and rank differences).
pub fn king_distance(a: Square, b: Square) -> i32 {
    let files = (a.file() as i32 - b.file() as i32).abs();
    let ranks = (a.rank() as i32 - b.rank() as i32).abs();
    files.max(ranks)
}

/// Pushes the moves of a piece of `color` sliding from `from` in direction `d`: quiet moves to
/// empty squares, then a capture of the first enemy; stops at friends and holes.
pub fn slide(pos: &Position, from: Square, d: (i8, i8), color: Color, out: &mut RVec<Move>) {
    let mut sq = from;
    while let Some(to) = pos.offset(sq, d.0, d.1) {
        let c = pos.get(to);
        if c.is_empty() {
            out.push(Move::new(from, to, MoveFlags::NONE));
        } else {
            if c.is_color(color.opposite()) {
                out.push(Move::new(from, to, MoveFlags::CAPTURE));
            }
            break;
        }
        sq = to;
    }
}

/// Pushes the move of a piece of `color` leaping from `from` by `d`, if the target is empty
/// (quiet) or an enemy (capture).
pub fn leap(pos: &Position, from: Square, d: (i8, i8), color: Color, out: &mut RVec<Move>) {
    if let Some(to) = pos.offset(from, d.0, d.1) {
        let c = pos.get(to);
        if c.is_empty() {
            out.push(Move::new(from, to, MoveFlags::NONE));
        } else if c.is_color(color.opposite()) {
            out.push(Move::new(from, to, MoveFlags::CAPTURE));
        }
    }
}

/// The first square along `d` from `from` that is not empty, if any (holes and the edge end
/// the ray).
pub fn first_piece(pos: &Position, from: Square, d: (i8, i8)) -> Option<Square> {
    let mut sq = from;
    while let Some(to) = pos.offset(sq, d.0, d.1) {
        if pos.get(to).is_piece() {
            return Some(to);
        }
        sq = to;
    }
    None
}

/// The kind (index in `pieces`) whose letter is `letter` (case-insensitive).
pub fn kind_of_letter(pieces: &[PieceType], letter: char) -> Option<u8> {
    let up = letter.to_ascii_uppercase();
    pieces
        .iter()
        .position(|p| p.letter() == up)
        .map(|i| i as u8)
}

/// The FEN character of a piece cell (upper case for White).
pub fn piece_char(pieces: &[PieceType], cell: Cell) -> Option<char> {
    let kind = cell.kind()? as usize;
    let letter = pieces.get(kind)?.letter();
    Some(if cell.color() == Some(Color::White) {
        letter.to_ascii_uppercase()
    } else {
        letter.to_ascii_lowercase()
    })
}

/// Reads the board field of a FEN (ranks from the top, `/`-separated, digits for empty runs,
/// `*` for holes, `+X` for promoted pieces) and, if present, a pocket `[...]` right after it.
/// `offset` is the column of the field within the whole FEN (for error columns).
pub fn parse_fen_board(
    text: &str,
    offset: usize,
    files: u8,
    ranks: u8,
    pieces: &[PieceType],
) -> Result<Position, FenError> {
    let mut pos = Position::empty(files, ranks);
    let (board, pocket) = match text.find('[') {
        Some(i) => {
            if !text.ends_with(']') {
                return Err(FenError::new(
                    0,
                    (offset + text.chars().count()) as u32,
                    "pocket `[` is not closed by `]`",
                ));
            }
            (
                &text[..i],
                Some((text[..i].chars().count(), &text[i + 1..text.len() - 1])),
            )
        }
        None => (text, None),
    };
    let by_letter = letter_table(pieces);
    if !plain_board(board.as_bytes(), files, ranks, &by_letter, &mut pos) {
        // Read again, character by character, with the error that stops it (a field the
        // quick reader takes has exactly `ranks` ranks).
        let rows = board.bytes().filter(|&b| b == b'/').count() + 1;
        if rows != ranks as usize {
            return Err(FenError::new(
                0,
                offset as u32,
                format!("the board has {rows} ranks, expected {ranks}"),
            ));
        }
        pos = Position::empty(files, ranks);
        read_board(board, offset, files, ranks, pieces, &by_letter, &mut pos)?;
    }
    if let Some((start, pocket)) = pocket {
        for (j, ch) in pocket.chars().enumerate() {
            if ch == '-' {
                continue;
            }
            let kind = kind_of_letter(pieces, ch)
                .filter(|k| *k < 32)
                .ok_or_else(|| {
                    FenError::new(
                        0,
                        (offset + start + 1 + j) as u32,
                        format!("unknown piece `{ch}` in the pocket"),
                    )
                })?;
            let color = if ch.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let n = &mut pos.hands[color.index()][kind as usize];
            *n = n.checked_add(1).ok_or_else(|| {
                FenError::new(
                    0,
                    (offset + start + 1 + j) as u32,
                    format!("more than 255 of `{ch}` in the pocket"),
                )
            })?;
        }
    }
    Ok(pos)
}

/// Writes the board field of a FEN; with `pockets`, appends the hands as `[...]` (White's
/// pieces first, in piece-table order).
pub fn write_fen_board(pos: &Position, pieces: &[PieceType], pockets: bool) -> String {
    // A run of empty squares, without a temporary string (a FEN is written every ply).
    fn push_count(s: &mut String, n: u32) {
        if n >= 10 {
            push_count(s, n / 10);
        }
        s.push((b'0' + (n % 10) as u8) as char);
    }
    let mut s = String::with_capacity(pos.ranks() as usize * (pos.files() as usize + 1) + 8);
    for rank in (0..pos.ranks()).rev() {
        let mut empty = 0;
        for file in 0..pos.files() {
            let c = pos.get(Square::new(file, rank));
            if c.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                push_count(&mut s, empty);
                empty = 0;
            }
            if c.is_hole() {
                s.push('*');
            } else {
                if c.kind()
                    .and_then(|k| pieces.get(k as usize))
                    .is_some_and(|p| p.promoted_prefix)
                {
                    s.push('+');
                }
                s.push(piece_char(pieces, c).unwrap_or('?'));
            }
        }
        if empty > 0 {
            push_count(&mut s, empty);
        }
        if rank > 0 {
            s.push('/');
        }
    }
    if pockets {
        s.push('[');
        for color in [Color::White, Color::Black] {
            for (k, p) in pieces.iter().enumerate().take(32) {
                for _ in 0..pos.hands[color.index()][k] {
                    s.push(if color == Color::White {
                        p.letter().to_ascii_uppercase()
                    } else {
                        p.letter().to_ascii_lowercase()
                    });
                }
            }
        }
        s.push(']');
    }
    s
}

/// One whitespace-separated field of a FEN, with the character column where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FenField<'a> {
    /// The field's text.
    pub text: &'a str,
    /// Its start within the whole FEN (byte offset; FENs are ASCII).
    pub column: usize,
}

/// Per ASCII letter (upper case), the first kind of that letter without the promoted prefix
/// (what a scan of `pieces` finds for it), `u8::MAX` for none: a FEN of a long game's
/// position is read per record, one lookup a piece instead of a scan of the piece table.
fn letter_table(pieces: &[PieceType]) -> [u8; 128] {
    let mut by_letter = [u8::MAX; 128];
    for (k, p) in pieces.iter().enumerate().rev() {
        if !p.promoted_prefix && p.letter < 128 && k < u8::MAX as usize {
            by_letter[p.letter as usize] = k as u8;
        }
    }
    by_letter
}

/// The board field of [`parse_fen_board`] read into `pos` when it holds only ASCII piece
/// letters of `by_letter`, single digits and slashes, every rank exactly `files` wide (nearly
/// every FEN); `false` for anything else, which [`read_board`] reads again.
fn plain_board(
    board: &[u8],
    files: u8,
    ranks: u8,
    by_letter: &[u8; 128],
    pos: &mut Position,
) -> bool {
    let (mut rank, mut file) = (ranks.saturating_sub(1), 0u8);
    let mut after_digit = false;
    for &c in board {
        match c {
            b'/' => {
                if file != files || rank == 0 {
                    return false;
                }
                rank -= 1;
                file = 0;
                after_digit = false;
            }
            // A run of two digits or more (boards wider than 9) is read the long way.
            b'1'..=b'9' if !after_digit => {
                file += c - b'0';
                if file > files {
                    return false;
                }
                after_digit = true;
            }
            _ if c.is_ascii_alphabetic() => {
                let k = by_letter[c.to_ascii_uppercase() as usize];
                if k == u8::MAX || file >= files {
                    return false;
                }
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                pos.set(Square::new(file, rank), Cell::piece(k, color));
                file += 1;
                after_digit = false;
            }
            _ => return false,
        }
    }
    file == files && rank == 0
}

/// The board field of [`parse_fen_board`] (`offset`: its column), read character by
/// character into `pos`: the first error found, with its column.
fn read_board(
    board: &str,
    offset: usize,
    files: u8,
    ranks: u8,
    pieces: &[PieceType],
    by_letter: &[u8; 128],
    pos: &mut Position,
) -> Result<(), FenError> {
    let mut col = offset;
    for (i, row) in board.split('/').enumerate() {
        let rank = ranks - 1 - i as u8;
        let mut file: u32 = 0;
        // Columns count characters (an error points where an editor shows it).
        let mut chars = row.chars().enumerate().peekable();
        let mut promoted = false;
        while let Some((j, ch)) = chars.next() {
            let here = (col + j) as u32;
            if ch.is_ascii_digit() {
                let mut n = ch.to_digit(10).unwrap_or(0);
                while let Some(&(_, d)) = chars.peek() {
                    if let Some(v) = d.to_digit(10) {
                        // Saturating: a run of a billion squares is too long, not a wrap.
                        n = n.saturating_mul(10).saturating_add(v);
                        chars.next();
                    } else {
                        break;
                    }
                }
                if n == 0 {
                    return Err(FenError::new(0, here, "an empty run of 0 squares"));
                }
                file = file.saturating_add(n);
            } else if ch == '+' {
                promoted = true;
                continue;
            } else {
                if file >= files as u32 {
                    return Err(FenError::new(
                        0,
                        here,
                        format!("rank {} has more than {} files", rank + 1, files),
                    ));
                }
                let sq = Square::new(file as u8, rank);
                if ch == '*' {
                    pos.set(sq, Cell::HOLE);
                } else {
                    let looked_up = match by_letter.get(ch.to_ascii_uppercase() as usize) {
                        Some(&k) if !promoted && k != u8::MAX => Some(k as usize),
                        // Promoted pieces, letters beyond ASCII and letters of no piece: the
                        // piece table itself.
                        _ => pieces.iter().position(|p| {
                            p.letter() == ch.to_ascii_uppercase() && p.promoted_prefix == promoted
                        }),
                    };
                    let kind = looked_up.ok_or_else(|| {
                        FenError::new(
                            0,
                            here,
                            format!(
                                "unknown piece letter `{}{ch}`",
                                if promoted { "+" } else { "" }
                            ),
                        )
                    })?;
                    let color = if ch.is_ascii_uppercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    pos.set(sq, Cell::piece(kind as u8, color));
                }
                file += 1;
            }
            promoted = false;
            if file > files as u32 {
                return Err(FenError::new(
                    0,
                    here,
                    format!("rank {} has more than {} files", rank + 1, files),
                ));
            }
        }
        if file != files as u32 {
            return Err(FenError::new(
                0,
                (col + row.chars().count()) as u32,
                format!("rank {} has {} files, expected {}", rank + 1, file, files),
            ));
        }
        col += row.chars().count() + 1;
    }
    Ok(())
}

/// Splits a FEN into its fields, keeping where each starts (for error columns).
pub fn fen_fields(text: &str) -> Vec<FenField<'_>> {
    // Six fields in a chess FEN, a few more in some variants': one allocation.
    let mut out = Vec::with_capacity(8);
    if text.is_ascii() {
        // A byte at a time: each is a character.
        let blanks = text
            .bytes()
            .enumerate()
            .map(|(i, b)| (i, char::from(b).is_whitespace()));
        split_fields(text, blanks, &mut out);
    } else {
        split_fields(
            text,
            text.char_indices().map(|(i, c)| (i, c.is_whitespace())),
            &mut out,
        );
    }
    out
}

/// The fields of `text` between the blanks that `blanks` marks (byte offset, blank or not,
/// for each character), appended to `out`.
fn split_fields<'a>(
    text: &'a str,
    blanks: impl Iterator<Item = (usize, bool)>,
    out: &mut Vec<FenField<'a>>,
) {
    let mut start = None;
    for (i, blank) in blanks {
        match (blank, start) {
            (true, Some(s)) => {
                out.push(FenField {
                    text: &text[s..i],
                    column: s,
                });
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(FenField {
            text: &text[s..],
            column: s,
        });
    }
}

/// Reads the halfmove clock and fullmove number fields (each optional: 0 and 1 by default)
/// into `pos`. `index` is the field index of the halfmove clock, for errors.
pub fn parse_fen_clocks(
    pos: &mut Position,
    halfmove: Option<&FenField<'_>>,
    fullmove: Option<&FenField<'_>>,
    index: u32,
) -> Result<(), FenError> {
    if let Some(h) = halfmove {
        pos.halfmove_clock = h.text.parse().map_err(|_| {
            FenError::new(
                index,
                h.column as u32,
                format!("halfmove clock `{}` is not a number", h.text),
            )
        })?;
    }
    if let Some(f) = fullmove {
        pos.fullmove_number = match f.text.parse::<u16>() {
            Ok(0) | Err(_) => {
                return Err(FenError::new(
                    index + 1,
                    f.column as u32,
                    format!("fullmove number `{}` is not a positive number", f.text),
                ))
            }
            Ok(n) => n,
        };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Role;

    /// A number below `n` from the linear congruential generator of state `x` (the tests'
    /// pseudo-random inputs, the same on every run).
    fn random_below(x: &mut u64, n: usize) -> usize {
        *x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*x >> 33) as usize % n
    }

    /// A piece table with two letters of one kind of piece and a promoted form, as variants
    /// have them.
    fn pieces() -> Vec<PieceType> {
        let mut promoted = PieceType::new('P', "tokin", Role::OTHER, 5);
        promoted.promoted_prefix = true;
        vec![
            PieceType::new('P', "pawn", Role::PAWN, 1),
            PieceType::new('N', "knight", Role::OTHER, 3),
            PieceType::new('K', "king", Role::KING, 0),
            PieceType::new('N', "second knight", Role::OTHER, 3),
            promoted,
        ]
    }

    #[test]
    fn the_quick_board_reader_agrees_with_the_full_one() {
        // Board fields of pseudo-random characters (letters of pieces and of none, digits
        // 0-9, slashes, `*`, `+`, a letter beyond ASCII), on boards of several sizes: wherever
        // the quick reader takes a field, the full reader reads the same position from it.
        let pieces = pieces();
        let by_letter = letter_table(&pieces);
        // Well-formed fields, then one character in three of them replaced by another.
        let letters: Vec<char> = "pPnNkKxQ".chars().collect();
        let noise: Vec<char> = "pPnNkKxQ0123456789/*+é".chars().collect();
        let mut x = 7u64;
        let mut next = move |n: usize| random_below(&mut x, n);
        let mut taken = 0;
        for (files, ranks) in [(3u8, 2u8), (8, 8), (10, 4), (1, 1)] {
            for _ in 0..20_000 {
                let mut rows = Vec::new();
                for _ in 0..ranks {
                    let mut row = String::new();
                    let mut left = files as usize;
                    while left > 0 {
                        if next(2) == 0 {
                            let run = next(left) + 1;
                            row.push_str(&run.to_string());
                            left -= run;
                        } else {
                            row.push(letters[next(letters.len())]);
                            left -= 1;
                        }
                    }
                    rows.push(row);
                }
                let mut field: Vec<char> = rows.join("/").chars().collect();
                if next(3) == 0 {
                    let at = next(field.len());
                    field[at] = noise[next(noise.len())];
                }
                let field: String = field.into_iter().collect();
                let mut quick = Position::empty(files, ranks);
                if !plain_board(field.as_bytes(), files, ranks, &by_letter, &mut quick) {
                    continue;
                }
                taken += 1;
                let mut full = Position::empty(files, ranks);
                read_board(&field, 0, files, ranks, &pieces, &by_letter, &mut full)
                    .unwrap_or_else(|e| panic!("{field}: {e:?}"));
                assert_eq!(quick, full, "{field}");
            }
        }
        // The quick reader took some of them (the test compares something).
        assert!(taken > 10_000, "{taken}");
        // And whole fields through the public reader: full ranks, runs and both colours.
        for field in [
            "nnknpppp/pppppppp/8/8/8/8/PPPPPPPP/NNKNPPPP",
            "k7/8/3p4/8/1N6/8/8/7K",
        ] {
            let quick = parse_fen_board(field, 0, 8, 8, &pieces).expect(field);
            let mut full = Position::empty(8, 8);
            read_board(field, 0, 8, 8, &pieces, &by_letter, &mut full).expect(field);
            assert_eq!(quick, full, "{field}");
        }
    }

    #[test]
    fn fields_keep_their_columns() {
        let f = fen_fields("  8/8 w  - 0 1 ");
        let got: Vec<(&str, usize)> = f.iter().map(|x| (x.text, x.column)).collect();
        assert_eq!(got, [("8/8", 2), ("w", 6), ("-", 9), ("0", 11), ("1", 13)]);
    }

    #[test]
    fn fields_of_ascii_text_split_as_characters_do() {
        // Every ASCII blank `char::is_whitespace` knows (vertical tab included), runs of
        // them, at both ends: the byte loop gives the fields the character loop gives.
        let parts = [
            "8/8", "w", "-", "0", "1", " ", "\t", "\n", "\x0b", "\x0c", "\r", "  ",
        ];
        let mut x = 3u64;
        for _ in 0..5_000 {
            let mut text = String::new();
            for _ in 0..8 {
                text.push_str(parts[random_below(&mut x, parts.len())]);
            }
            let mut want = Vec::new();
            split_fields(
                &text,
                text.char_indices().map(|(i, c)| (i, c.is_whitespace())),
                &mut want,
            );
            let got = fen_fields(&text);
            let pairs = |f: &[FenField<'_>]| -> Vec<(String, usize)> {
                f.iter().map(|f| (f.text.to_string(), f.column)).collect()
            };
            assert_eq!(pairs(&got), pairs(&want), "{text:?}");
        }
    }

    #[test]
    fn clocks_default_and_errors() {
        let mut pos = Position::empty(8, 8);
        let f = fen_fields("x 7 12");
        parse_fen_clocks(&mut pos, f.get(1), f.get(2), 4).unwrap();
        assert_eq!((pos.halfmove_clock, pos.fullmove_number), (7, 12));
        let f = fen_fields("x 7 0");
        let e = parse_fen_clocks(&mut pos, f.get(1), f.get(2), 4).unwrap_err();
        assert_eq!((e.field, e.column), (5, 4));
        let f = fen_fields("x y");
        let e = parse_fen_clocks(&mut pos, f.get(1), None, 3).unwrap_err();
        assert_eq!((e.field, e.column), (3, 2));
    }
}
