//! Chess FEN: reading with field-level errors (standard, Shredder-FEN and X-FEN castling),
//! writing in standard form (Shredder letters only where KQkq cannot say which rook).

use crate::{kind, sq16};
use houserules_plugin_api::{
    castle_slot, geometry, Cell, Color, FenError, PieceType, Position, Square,
};

/// The files of `color`'s rooks on rank `back` (bit `f`: file `f`).
fn rook_files(pos: &Position, color: Color, back: u8) -> u8 {
    let rook = Cell::piece(kind::ROOK, color);
    (0..8u8)
        .filter(|&f| pos.get(Square::new(f, back)) == rook)
        .fold(0, |m, f| m | 1 << f)
}

/// The outermost of the rooks on files `rook_files` on one side of the king on `king_file`:
/// the highest file above it (`king_side`), else the lowest below it. A castling right
/// written `K`/`Q` (`k`/`q`) is this rook's.
fn outermost_rook(rook_files: u8, king_file: u8, king_side: bool) -> Option<u8> {
    if king_side {
        let above = rook_files & !((2u16 << king_file) - 1) as u8;
        (above != 0).then(|| 7 - above.leading_zeros() as u8)
    } else {
        let below = rook_files & ((1u16 << king_file) - 1) as u8;
        (below != 0).then(|| below.trailing_zeros() as u8)
    }
}

/// How many kings of `color` stand on the board.
fn king_count(pos: &Position, color: Color) -> usize {
    pos.pieces_of(color)
        .filter(|(_, k)| *k == kind::KING)
        .count()
}

/// Reads a chess FEN. The clocks may be omitted (0 and 1).
pub fn parse(text: &str, pieces: &[PieceType]) -> Result<Position, FenError> {
    read(text, pieces, true)
}

/// Reads a FEN of the chess board without FIDE's assumptions about pawns and en passant (for
/// rules models that presets changed: pawns may go back to their first rank, sprints and
/// slanting steps leave en passant squares elsewhere). The en passant square only needs to be
/// empty with an enemy piece right behind it; the rules in force decide whether it stays.
pub fn parse_setup(text: &str, pieces: &[PieceType]) -> Result<Position, FenError> {
    read(text, pieces, false)
}

fn read(text: &str, pieces: &[PieceType], fide: bool) -> Result<Position, FenError> {
    let fs = geometry::fen_fields(text);
    if fs.is_empty() {
        return Err(FenError::new(0, 0, "empty FEN"));
    }
    if fs.len() > 6 {
        return Err(FenError::new(
            6,
            fs[6].column as u32,
            format!("unexpected extra field `{}`", fs[6].text),
        ));
    }
    let mut pos = geometry::parse_fen_board(fs[0].text, fs[0].column, 8, 8, pieces)?;
    if pos.hands.iter().flatten().any(|&n| n > 0) {
        return Err(FenError::new(
            0,
            fs[0].column as u32,
            "chess has no pockets",
        ));
    }
    // Side to move.
    let side = fs
        .get(1)
        .ok_or_else(|| FenError::new(1, text.len() as u32, "missing side to move (`w` or `b`)"))?;
    pos.side_to_move = match side.text {
        "w" | "W" => Color::White,
        "b" | "B" => Color::Black,
        other => {
            return Err(FenError::new(
                1,
                side.column as u32,
                format!("side to move must be `w` or `b`, not `{other}`"),
            ))
        }
    };
    // Pawns on their promotion rank cannot exist. (A pawn on its own first rank can, under
    // pawns-move-backward; FIDE positions never have one.)
    for f in (0..8).filter(|_| fide) {
        for (r, color) in [(7u8, Color::White), (0u8, Color::Black)] {
            let s = Square::new(f, r);
            if pos.get(s) == Cell::piece(kind::PAWN, color) {
                return Err(FenError::new(
                    0,
                    fs[0].column as u32,
                    format!("{} pawn on {s}, its promotion rank", color.name()),
                ));
            }
        }
    }
    // Castling.
    if let Some(c) = fs.get(2) {
        if c.text != "-" {
            for (j, ch) in c.text.char_indices() {
                let col = (c.column + j) as u32;
                let color = if ch.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                let back = if color == Color::White { 0 } else { 7 };
                let king = crate::castling_king(&pos, color).ok_or_else(|| {
                    FenError::new(
                        2,
                        col,
                        format!(
                            "castling right `{ch}` but no {} king on its back rank",
                            color.name()
                        ),
                    )
                })?;
                let rooks = rook_files(&pos, color, back);
                let file = match ch.to_ascii_lowercase() {
                    'k' => outermost_rook(rooks, king.file(), true),
                    'q' => outermost_rook(rooks, king.file(), false),
                    l @ 'a'..='h' => {
                        let f = l as u8 - b'a';
                        (rooks >> f & 1 == 1).then_some(f)
                    }
                    _ => {
                        return Err(FenError::new(
                            2,
                            col,
                            format!("`{ch}` is not a castling right (KQkq or a file letter)"),
                        ))
                    }
                }
                .ok_or_else(|| {
                    FenError::new(
                        2,
                        col,
                        format!(
                            "castling right `{ch}` but no {} rook to castle with",
                            color.name()
                        ),
                    )
                })?;
                let king_side = file > king.file();
                let slot = match (color, king_side) {
                    (Color::White, true) => castle_slot::WHITE_KING_SIDE,
                    (Color::White, false) => castle_slot::WHITE_QUEEN_SIDE,
                    (Color::Black, true) => castle_slot::BLACK_KING_SIDE,
                    (Color::Black, false) => castle_slot::BLACK_QUEEN_SIDE,
                };
                if !pos.castling[slot].is_none() {
                    return Err(FenError::new(
                        2,
                        col,
                        format!("castling right `{ch}` given twice"),
                    ));
                }
                pos.castling[slot] = Square::new(file, back);
            }
        }
    }
    // En passant.
    if let Some(e) = fs.get(3) {
        if e.text != "-" {
            let sq = Square::parse(e.text)
                .filter(|s| s.file() < 8 && s.rank() < 8)
                .ok_or_else(|| {
                    FenError::new(3, e.column as u32, format!("`{}` is not a square", e.text))
                })?;
            let (rank, dir) = match pos.side_to_move {
                Color::White => (5, -1i8),
                Color::Black => (2, 1i8),
            };
            let victim = pos.offset(sq, 0, dir);
            let origin = pos.offset(sq, 0, -dir);
            let them = pos.side_to_move.opposite();
            let ok = if fide {
                sq.rank() == rank
                    && pos.get(sq).is_empty()
                    && origin.is_some_and(|o| pos.get(o).is_empty())
                    && victim.is_some_and(|v| pos.get(v) == Cell::piece(kind::PAWN, them))
            } else {
                pos.get(sq).is_empty() && victim.is_some_and(|v| pos.get(v).is_color(them))
            };
            if !ok {
                return Err(FenError::new(
                    3,
                    e.column as u32,
                    format!(
                        "en passant square {sq} does not follow a double step of a {} pawn",
                        pos.side_to_move.opposite().name()
                    ),
                ));
            }
            pos.ep_passed = sq;
            pos.ep_victim = victim.unwrap_or(Square::NONE);
        }
    }
    geometry::parse_fen_clocks(&mut pos, fs.get(4), fs.get(5), 4)?;
    // Whether the side not to move is in check is the host's test, through the rules in force
    // (royalty may belong to presets). The en passant square is kept only where a capture is
    // legal in chess, as the engine records it after a double step.
    // (Without an en passant field there is nothing to drop: most FENs.)
    if fide
        && !pos.ep_passed.is_none()
        && king_count(&pos, Color::White) == 1
        && king_count(&pos, Color::Black) == 1
    {
        let mut b = crate::board_of(&pos);
        b.normalize_ep();
        if b.ep_square().is_none() {
            pos.ep_passed = Square::NONE;
            pos.ep_victim = Square::NONE;
        }
    }
    Ok(pos)
}

/// Writes a chess FEN. The en passant square is written only when an en passant capture is
/// legal (as Stockfish and Fairy-Stockfish do), so equal positions have equal FENs.
/// `board` is the engine's board (its en passant test decides the field); `None` writes the
/// field as the position stores it (a rules model decided it).
/// `board_is_cells`: the board is the engine's cache of these very cells (not rebuilt from
/// them), so the board field may be written from its bitboards.
pub fn write(
    pos: &Position,
    pieces: &[PieceType],
    board: Option<&engine_board::Board>,
    board_is_cells: bool,
) -> String {
    // Written as bytes into one buffer of the final size (every part is ASCII but the board
    // field of a piece table with other letters, copied from a `String`).
    let mut s: Vec<u8> = Vec::with_capacity(96);
    let cells_board = board.filter(|_| board_is_cells);
    match cells_board {
        Some(b) => board_field(b, pieces, &mut s),
        None => s.extend_from_slice(geometry::write_fen_board(pos, pieces, false).as_bytes()),
    }
    state_fields(pos, board, cells_board, &mut s);
    // Only ASCII was pushed besides the text of a `String`: always UTF-8.
    String::from_utf8(s).unwrap_or_default()
}

/// The fields after the board: side to move, castling rights, en passant square, clocks.
/// `cells_board`: the engine's board when it is the cache of the position's cells.
fn state_fields(
    pos: &Position,
    board: Option<&engine_board::Board>,
    cells_board: Option<&engine_board::Board>,
    s: &mut Vec<u8>,
) {
    let mut t = StateText::default();
    t.write(pos, board, cells_board);
    s.extend_from_slice(t.as_bytes());
}

/// The castling slots in FEN order (`KQkq`) and whose they are.
const CASTLE_SLOTS: [(usize, Color); 4] = [
    (castle_slot::WHITE_KING_SIDE, Color::White),
    (castle_slot::WHITE_QUEEN_SIDE, Color::White),
    (castle_slot::BLACK_KING_SIDE, Color::Black),
    (castle_slot::BLACK_QUEEN_SIDE, Color::Black),
];

/// The text of [`state_fields`], on the stack: at most 23 bytes (` w KQkq e3 65535 65535`).
#[derive(Default)]
struct StateText {
    bytes: [u8; 32],
    len: usize,
}

impl StateText {
    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len.min(32)]
    }

    #[inline]
    fn push(&mut self, c: u8) {
        // Never full (see the type); the mask spares the bounds check (a byte past the end
        // would wrap around, never panic).
        self.bytes[self.len & 31] = c;
        self.len += 1;
    }

    /// Appends `n` in decimal.
    fn push_number(&mut self, n: u16) {
        // Clocks and ranks are almost always one or two digits.
        if n < 10 {
            self.push(b'0' + n as u8);
            return;
        }
        if n < 100 {
            self.push(b'0' + (n / 10) as u8);
            self.push(b'0' + (n % 10) as u8);
            return;
        }
        let mut digits = [0u8; 5];
        let mut i = digits.len();
        let mut n = n;
        loop {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        for &d in &digits[i..] {
            self.push(d);
        }
    }

    fn write(
        &mut self,
        pos: &Position,
        board: Option<&engine_board::Board>,
        cells_board: Option<&engine_board::Board>,
    ) {
        self.push(b' ');
        self.push(pos.side_to_move.fen_char() as u8);
        self.push(b' ');
        let rights_at = self.len;
        let rights = pos.castling;
        // No right left (most plies of a game): nothing to look up.
        let none = rights.iter().all(|r| r.is_none());
        for (slot, color) in if none { [].iter() } else { CASTLE_SLOTS.iter() } {
            let (slot, color) = (*slot, *color);
            let Some(&rook) = rights.get(slot) else {
                continue;
            };
            if rook.is_none() {
                continue;
            }
            let back = rook.rank();
            let king_side = slot % 2 == 0;
            // KQkq when the right's rook is the outermost rook on its side of the king.
            let (king_file, rook_files) = match cells_board {
                Some(b) => back_rank_of(b, color, back),
                None => {
                    let king = crate::castling_king(pos, color).map(|k| k.file());
                    (king.unwrap_or(4), self::rook_files(pos, color, back))
                }
            };
            let outermost = outermost_rook(rook_files, king_file, king_side);
            let ch = if outermost == Some(rook.file()) {
                if king_side {
                    b'k'
                } else {
                    b'q'
                }
            } else {
                b'a' + rook.file()
            };
            self.push(if color == Color::White {
                ch.to_ascii_uppercase()
            } else {
                ch
            });
        }
        if self.len == rights_at {
            self.push(b'-');
        }
        self.push(b' ');
        // No double step just played (most plies): nothing to look up.
        let ep = match board {
            _ if pos.ep_passed.is_none() => None,
            Some(b) => b.legal_ep_square().map(sq16),
            None => pos.ep_passed.to_option(),
        };
        match ep {
            Some(e) => {
                self.push(b'a' + e.file());
                self.push_number(e.rank() as u16 + 1);
            }
            None => self.push(b'-'),
        }
        self.push(b' ');
        self.push_number(pos.halfmove_clock);
        self.push(b' ');
        self.push_number(pos.fullmove_number);
    }
}

/// The FENs of the positions along a line of plain chess moves, written rank by rank: each
/// rank's text is kept and rewritten only where the caller says a move changed it (a move
/// changes at most two ranks: its origin's and its destination's, where a castling rook and
/// an en passant victim stand too).
#[derive(Default)]
pub struct LineFens {
    /// Per rank: its text and the text's length.
    ranks: [([u8; 8], u8); 8],
    /// Whether `ranks` holds the ranks of some position already.
    started: bool,
    /// The letter of each cell value (`Cell::piece`: 2 + 2 * kind + colour); 0 for none.
    letters: [u8; 16],
}

impl LineFens {
    /// Appends the FEN of `pos`, a chess position on 8x8 whose engine board is `b` (the
    /// position's cells mirror it), to `out`, where only the ranks of bits `changed` (bit `r`:
    /// rank `r`, from 0) may differ from the position of the last call (`0xff`: any); `false`
    /// (`out` unchanged) where [`write`] must write it (another board, letters beyond ASCII).
    ///
    /// Written straight into `out`'s spare capacity: no buffer of its own that would be read
    /// back right after its bytes were stored (a load over bytes still being stored stalls),
    /// and every byte ASCII by construction (the letters are checked when the first FEN is
    /// written; the rest is digits, slashes and the state fields), which the owner of `out`
    /// checks once for a whole line.
    pub fn write_into(
        &mut self,
        pos: &Position,
        pieces: &[PieceType],
        b: &engine_board::Board,
        changed: u8,
        out: &mut Vec<u8>,
    ) -> bool {
        if pos.files() != 8 || pos.ranks() != 8 {
            return false;
        }
        // The state fields first: their bytes are stored by the time they are copied.
        let mut state = StateText::default();
        state.write(pos, Some(b), Some(b));
        let mut changed = changed;
        if !self.started {
            for (k, t) in pieces.iter().take(6).enumerate() {
                if !t.letter.is_ascii_alphabetic() {
                    return false;
                }
                self.letters[2 + 2 * k] = t.letter.to_ascii_uppercase();
                self.letters[3 + 2 * k] = t.letter.to_ascii_lowercase();
            }
            changed = 0xff;
        }
        let cells = pos.cells();
        while changed != 0 {
            let rank = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            let Some(row) = cells.get(rank * 16..rank * 16 + 8) else {
                self.started = false;
                return false;
            };
            let row: [u8; 8] = std::array::from_fn(|f| row[f].0);
            let (text, len) = &mut self.ranks[rank];
            let Some(k) = rank_text(&row, &self.letters, text) else {
                // The texts kept may be half written: start again next time.
                self.started = false;
                return false;
            };
            *len = k;
        }
        self.started = true;
        // The board field (at most 71 bytes, and an 8-byte rank copy may reach 7 past it),
        // then the state fields (at most 23, copied 32 at a time).
        const ROOM: usize = 80 + 32;
        out.reserve(ROOM);
        let start = out.len();
        let Some(spare) = out.spare_capacity_mut().get_mut(..ROOM) else {
            return false;
        };
        // Eight whole rank texts copied (fixed-size copies), each followed by its slash, the
        // position advanced by the text's length. (Seven ranks take at most 63 bytes with
        // their slashes: the masks only tell the compiler so, which drops the bounds checks.)
        let mut n = 0;
        for (text, len) in self.ranks.iter().rev() {
            let at = n & 63;
            // At most 8 (a rank's text), and so within the 8 bytes copied.
            let len = (*len as usize).min(8);
            spare[at..at + 8].write_copy_of_slice(text);
            spare[at + len].write(b'/');
            n = at + len + 1;
        }
        // Over the last slash.
        let n = n.saturating_sub(1).min(72);
        spare[n..n + 32].write_copy_of_slice(&state.bytes);
        let end = n + state.as_bytes().len();
        // SAFETY: every byte of `spare[..end]` was written above (the ranks' texts and
        // slashes up to `n`, then 32 bytes of state text from `n`, of which the first
        // `end - n` are the fields), and `spare` is the spare capacity right after `start`.
        unsafe { out.set_len(start + end) };
        true
    }
}

/// The ranks (bit `r`: rank `r`) whose cells a plain chess move `mv` changes: its origin's
/// and its destination's (a castle's rook, an en passant victim and a promoted piece stand
/// on one of them).
pub fn ranks_changed(mv: &houserules_plugin_api::Move) -> u8 {
    (1u8 << (mv.from.rank() & 7)) | (1u8 << (mv.to.rank() & 7))
}

/// Per pattern of occupied files on a rank (bit `f`: file `f`), the rank's FEN text as
/// indexes into a rank's sources (`[letter of file 0 .. letter of file 7, '1' ..= '8']`), and
/// the text's length. Built at compile time: 2 KiB.
const RANK_PATTERNS: [([u8; 8], u8); 256] = rank_patterns();

const fn rank_patterns() -> [([u8; 8], u8); 256] {
    let mut table = [([0u8; 8], 0u8); 256];
    let mut occupied = 0;
    while occupied < 256 {
        let mut text = [0u8; 8];
        let (mut n, mut gap, mut f) = (0, 0u8, 0u8);
        while f < 8 {
            if occupied >> f & 1 == 1 {
                if gap > 0 {
                    text[n] = 7 + gap;
                    n += 1;
                    gap = 0;
                }
                text[n] = f;
                n += 1;
            } else {
                gap += 1;
            }
            f += 1;
        }
        if gap > 0 {
            text[n] = 7 + gap;
            n += 1;
        }
        table[occupied] = (text, n as u8);
        occupied += 1;
    }
    table
}

/// The FEN text of one rank of eight cells (`letters` as in [`LineFens`]) into `out`; its
/// length, `None` for a cell that is no chess piece. No branch on the cells (a rank's pattern
/// of pieces and gaps is what a branch would mispredict on) and no step per cell for the
/// digits: the rank's pattern of occupied files picks the text's shape from a table.
fn rank_text(row: &[u8; 8], letters: &[u8; 16], out: &mut [u8; 8]) -> Option<u8> {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut sources = *b"\x00\x00\x00\x00\x00\x00\x00\x0012345678";
    for (source, &c) in sources.iter_mut().zip(row) {
        *source = letters[c as usize & 15];
    }
    // The high bit of each byte that is not zero.
    let nonzero = |x: u64| ((x & LOW7).wrapping_add(LOW7) | x) & HIGH;
    let cells = u64::from_le_bytes(*row);
    let pieces = nonzero(cells);
    let mut first = [0u8; 8];
    first.copy_from_slice(&sources[..8]);
    let lettered = nonzero(u64::from_le_bytes(first));
    // A cell beyond the table, or a piece with no letter.
    let unknown = cells & 0xf0f0_f0f0_f0f0_f0f0 != 0 || pieces & !lettered != 0;
    // One bit per file, gathered from the bytes' high bits.
    let occupied = ((pieces >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
    let (text, len) = &RANK_PATTERNS[occupied & 255];
    for (o, &i) in out.iter_mut().zip(text) {
        *o = sources[i as usize & 15];
    }
    (!unknown).then_some(*len)
}

/// The file of `color`'s castling king on rank `back` (as [`crate::castling_king`] finds it:
/// the one king there, else the e-file) and the files of its rooks there, from the bitboards.
fn back_rank_of(b: &engine_board::Board, color: Color, back: u8) -> (u8, u8) {
    use crate::engine::{Role, Side};
    let side = match color {
        Color::White => Side::White,
        Color::Black => Side::Black,
    };
    let row = |role| (b.pieces(side, role) >> (back as u32 * 8)) as u8;
    let kings = row(Role::King);
    let king_file = if kings.count_ones() == 1 {
        kings.trailing_zeros() as u8
    } else {
        4
    };
    (king_file, row(Role::Rook))
}

/// The board field of a FEN from the engine's bitboards: the same text as
/// [`geometry::write_fen_board`] on the cells they mirror (the chess piece table has no
/// promoted prefixes, the board no holes), without reading the 64 cells one by one.
fn board_field(b: &engine_board::Board, pieces: &[PieceType], s: &mut Vec<u8>) {
    use crate::engine::{Role, Side};
    let mut letters = [0u8; 64];
    for role in Role::ALL {
        let letter = pieces.get(role as usize).map_or('?', |p| p.letter());
        // A letter beyond ASCII (no chess table has one) is written as `?`.
        let letter = if letter.is_ascii() {
            letter as u8
        } else {
            b'?'
        };
        for (side, l) in [
            (Side::White, letter.to_ascii_uppercase()),
            (Side::Black, letter.to_ascii_lowercase()),
        ] {
            let mut bb = b.pieces(side, role);
            while bb != 0 {
                letters[bb.trailing_zeros() as usize] = l;
                bb &= bb - 1;
            }
        }
    }
    // Per rank, the occupied files by bit scan: one step per piece, not per square. Into a
    // local buffer first (at most 8 bytes a rank and 7 slashes), then one append.
    let occupied = b.occupied();
    let mut out = [0u8; 71];
    let mut n = 0;
    for rank in (0..8usize).rev() {
        let mut row = ((occupied >> (rank * 8)) & 0xff) as u32;
        let mut next_file = 0u32;
        while row != 0 {
            let file = row.trailing_zeros();
            row &= row - 1;
            if file > next_file {
                out[n] = b'0' + (file - next_file) as u8;
                n += 1;
            }
            out[n] = letters[(rank * 8 + file as usize) & 63];
            n += 1;
            next_file = file + 1;
        }
        if next_file < 8 {
            out[n] = b'0' + (8 - next_file) as u8;
            n += 1;
        }
        if rank > 0 {
            out[n] = b'/';
            n += 1;
        }
    }
    s.extend_from_slice(&out[..n]);
}

/// The engine's board type, named for this module's signature.
pub mod engine_board {
    pub use crate::engine::Board;
}

#[cfg(test)]
mod tests {
    use crate::Chess;
    use houserules_plugin_api::abi_stable::std_types::RVec;
    use houserules_plugin_api::{GenRequest, MoveEffects, SquareSet, VariantRules};

    /// The FENs a line writes rank by rank are the FENs `write` gives, along random games
    /// with castling, en passant and promotions near.
    #[test]
    fn line_fens_are_the_fens_of_each_position() {
        let chess = Chess::default();
        let starts = [
            crate::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut compared = 0;
        for start in starts {
            for _ in 0..20 {
                let mut pos = chess.parse_fen(start).expect("a FEN");
                let mut fens = super::LineFens::default();
                // The first call writes every rank; then only those the move changed.
                let mut changed = 0;
                for _ in 0..80 {
                    let b = crate::board_of(&pos);
                    let want = super::write(&pos, &chess.pieces, Some(&b), true);
                    // After what an earlier ply left in the buffer.
                    let mut out = b"e2e4".to_vec();
                    assert!(fens.write_into(&pos, &chess.pieces, &b, changed, &mut out));
                    assert_eq!(std::str::from_utf8(&out[4..]), Ok(want.as_str()));
                    compared += 1;
                    let mut moves = RVec::new();
                    let req = GenRequest::new(pos.side_to_move, true, SquareSet::EMPTY);
                    chess.generate(&pos, &req, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let m = moves[(seed % moves.len() as u64) as usize];
                    let mut fx = MoveEffects::new(pos.side_to_move, false);
                    chess.apply(&mut pos, m, &mut fx);
                    changed = super::ranks_changed(&m);
                }
            }
        }
        assert!(compared > 2000, "{compared} positions");
    }

    fn round_trip(fen: &str) -> String {
        let c = Chess::default();
        let pos = c.parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        c.write_fen(&pos)
    }

    #[test]
    fn a_hole_is_refused_where_it_stands() {
        // The engine's bitboards have no holes: read as empty, `*` would let the rook pass.
        let c = Chess::default();
        for fen in [
            "4k3/8/8/8/8/8/8/R*2K3 w - - 0 1",
            "rnbq1k1r/p*1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        ] {
            let e = c.parse_fen(fen).expect_err(fen);
            assert_eq!(e.field, 0, "{fen}");
            assert_eq!(
                fen.chars().nth(e.column as usize),
                Some('*'),
                "{fen}: column {}",
                e.column
            );
            assert!(c.parse_setup(fen).is_err(), "{fen}");
        }
    }

    #[test]
    fn standard_fens_round_trip() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/8/8/8/8/8/K6k b - - 99 120",
        ] {
            assert_eq!(round_trip(fen), fen);
        }
    }

    #[test]
    fn clocks_may_be_omitted() {
        assert_eq!(
            round_trip("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
    }

    #[test]
    fn shredder_and_xfen_castling() {
        // Shredder letters for the standard rooks are written back as KQkq.
        assert_eq!(
            round_trip("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"),
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
        );
        // An inner rook needs its file letter (X-FEN).
        assert_eq!(
            round_trip("1r2k2r/8/8/8/8/8/8/RR2K3 w Bk - 0 1"),
            "1r2k2r/8/8/8/8/8/8/RR2K3 w Bk - 0 1"
        );
    }

    #[test]
    fn en_passant_written_only_when_capturable() {
        // After 1.e4 no black pawn can take: the field is `-`.
        assert_eq!(
            round_trip("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
    }

    fn error(fen: &str) -> (u32, u32, String) {
        let e = Chess::default().parse_fen(fen).unwrap_err();
        (e.field, e.column, e.message.to_string())
    }

    #[test]
    fn errors_name_field_and_column() {
        let (f, c, m) = error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1");
        assert_eq!((f, c), (0, 42));
        assert!(m.contains("unknown piece letter `X`"), "{m}");
        let (f, _, m) = error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1");
        assert_eq!(f, 0);
        assert!(m.contains("7 ranks, expected 8"), "{m}");
        let (f, c, m) = error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1");
        assert_eq!((f, c), (1, 44));
        assert!(m.contains("`w` or `b`"), "{m}");
        let (f, c, m) = error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1");
        assert_eq!((f, c), (2, 49));
        assert!(m.contains("`z`"), "{m}");
        let (f, _, m) = error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1");
        assert_eq!(f, 2);
        assert!(m.contains("no white rook"), "{m}");
        let (f, c, m) = error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1");
        assert_eq!((f, c), (3, 51));
        assert!(m.contains("`e9` is not a square"), "{m}");
        let (f, _, m) = error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1");
        assert_eq!(f, 3);
        assert!(m.contains("does not follow a double step"), "{m}");
        let (f, _, m) = error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1");
        assert_eq!(f, 4);
        assert!(m.contains("halfmove clock"), "{m}");
        let (f, _, m) = error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0");
        assert_eq!(f, 5);
        assert!(m.contains("fullmove"), "{m}");
        let (_, _, m) = error("P3k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert!(m.contains("white pawn on a8, its promotion rank"), "{m}");
    }
}
