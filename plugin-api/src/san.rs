//! Plain SAN as the host reads it (`Nf3`, `exd5`, `R1a3`, `e8=Q`, `O-O`), resolved against a
//! list of legal moves without writing the SAN of every move.
//!
//! The host resolves record moves with this reader, and a variant that replays whole lines
//! itself ([`crate::VariantRules::replay_line`], API 1.6) uses the same one, so that both
//! read every token alike: a token this reader does not take, or that names no single move,
//! is left to the host, which also reads coordinate forms, looser spellings and explains
//! errors.

use crate::{Move, MoveFlags, PieceType, Position, Role, Square};

/// A move token read as plain SAN ([`SanReader::read`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SanToken {
    /// `O-O` (`Some(false)`) or `O-O-O` (`Some(true)`); `None` for other moves.
    pub castle: Option<bool>,
    /// The destination ([`Square::NONE`] for castling).
    pub dest: Square,
    /// The piece letter (upper case); none for a pawn move.
    pub piece: Option<u8>,
    /// The origin file the token names (`Nbd2`, `exd5`).
    pub hint_file: Option<u8>,
    /// The origin rank the token names, from 0 (`R1a3`).
    pub hint_rank: Option<u32>,
    /// The promotion letter (upper case).
    pub promo: Option<u8>,
}

impl SanToken {
    /// Whether [`SanReader::names`] reads [`SanCandidate::capture`]: a pawn token without a
    /// file (`d5`, which names a step, never a capture).
    #[inline]
    pub fn capture_matters(&self) -> bool {
        self.piece.is_none() && self.hint_file.is_none()
    }
}

/// What SAN can say of a move that is not a castle (see [`SanReader::names`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SanCandidate {
    /// The origin file, from 0.
    pub file: u8,
    /// The origin rank, from 0.
    pub rank: u8,
    /// The moving piece's kind.
    pub kind: u8,
    /// Whether it captures (on its destination or elsewhere, as en passant does); read only
    /// where [`SanToken::capture_matters`].
    pub capture: bool,
    /// The kind it promotes to, if it does.
    pub promotion: Option<u8>,
}

/// Reads plain SAN for one piece table: the SAN letter of each piece kind (0 for a letter
/// beyond ASCII, which this reader never matches) and which kinds are pawns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SanReader {
    letters: Vec<u8>,
    pawns: Vec<bool>,
}

impl SanReader {
    /// A reader for the piece table `pieces` (index = piece kind).
    pub fn new(pieces: &[PieceType]) -> SanReader {
        SanReader {
            letters: pieces
                .iter()
                .map(|t| if t.letter.is_ascii() { t.letter } else { 0 })
                .collect(),
            pawns: pieces.iter().map(|t| t.role == Role::PAWN).collect(),
        }
    }

    /// The SAN letter (upper case) of piece kind `kind`, 0 if none.
    #[inline]
    pub fn letter(&self, kind: u8) -> u8 {
        self.letters.get(kind as usize).copied().unwrap_or(0)
    }

    /// The piece kinds `t` can name, as a [`crate::GenRequest::of_kinds`] mask (bit `k`: kind
    /// `k`); 0 when kinds beyond 31 exist (no filter).
    pub fn kinds(&self, t: &SanToken) -> u32 {
        let mut mask = 0u32;
        for (k, (&letter, &pawn)) in self.letters.iter().zip(&self.pawns).enumerate() {
            let named = match t.piece {
                Some(l) => letter == l,
                None => pawn,
            };
            if named {
                if k >= 32 {
                    return 0;
                }
                mask |= 1 << k;
            }
        }
        mask
    }

    /// Reads `text` as plain SAN (check marks and `!`/`?` glyphs at the end ignored);
    /// `None` when it is not plain SAN on the board of `pos`.
    pub fn read(&self, pos: &Position, text: &str) -> Option<SanToken> {
        let mut b = text.as_bytes();
        while let Some((&last, rest)) = b.split_last() {
            if matches!(last, b'+' | b'#' | b'!' | b'?') {
                b = rest;
            } else {
                break;
            }
        }
        if b.is_empty() {
            return None;
        }
        if matches!(b, b"O-O" | b"0-0" | b"O-O-O" | b"0-0-0") {
            return Some(SanToken {
                castle: Some(b.len() == 5),
                dest: Square::NONE,
                piece: None,
                hint_file: None,
                hint_rank: None,
                promo: None,
            });
        }
        // Promotion suffix: `=Q` or `Q`.
        let mut promo = None;
        if let Some((&last, rest)) = b.split_last() {
            if last.is_ascii_alphabetic() {
                promo = Some(last.to_ascii_uppercase());
                b = rest.strip_suffix(b"=").unwrap_or(rest);
            }
        }
        // Destination: file letter and rank number.
        let digits = b.iter().rev().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 || digits > 2 || b.len() < digits + 1 {
            return None;
        }
        let rank = number(&b[b.len() - digits..])?;
        let file = b[b.len() - digits - 1];
        if !(b'a'..=b'p').contains(&file) || rank == 0 || rank > pos.ranks() as u32 {
            return None;
        }
        let dest = Square::new(file - b'a', rank as u8 - 1);
        let prefix = &b[..b.len() - digits - 1];
        // Prefix: [piece][file][rank][x].
        let mut i = 0;
        let piece = match prefix.first() {
            Some(&c) if c.is_ascii_uppercase() => {
                i = 1;
                Some(c)
            }
            _ => None,
        };
        let mut hint_file = None;
        if let Some(&c) = prefix.get(i) {
            if (b'a'..=b'p').contains(&c) {
                hint_file = Some(c - b'a');
                i += 1;
            }
        }
        let mut hint_rank = None;
        let rd = prefix[i..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if rd > 0 {
            let n = number(&prefix[i..i + rd])?;
            if n == 0 {
                return None;
            }
            hint_rank = Some(n - 1);
            i += rd;
        }
        if matches!(prefix.get(i), Some(b'x' | b':')) {
            i += 1;
        }
        if i != prefix.len() {
            return None;
        }
        Some(SanToken {
            castle: None,
            dest,
            piece,
            hint_file,
            hint_rank,
            promo,
        })
    }

    /// The one move of `legal` that `t` names in `pos`, if exactly one. `legal` may be only
    /// the legal moves to `t.dest` of the kinds [`SanReader::kinds`] names (castling: all
    /// legal moves): the answer is the same.
    pub fn matching(&self, pos: &Position, t: &SanToken, legal: &[Move]) -> Option<Move> {
        if let Some(long) = t.castle {
            let mut found = None;
            for m in legal {
                // The side is the rook's (a Chess960 king may stay, or move the other way).
                if m.is_castle() && (m.to.file() < m.from.file()) == long {
                    if found.is_some() {
                        return None;
                    }
                    found = Some(*m);
                }
            }
            return found;
        }
        let them = pos.side_to_move.opposite();
        let mut found = None;
        for m in legal {
            if m.is_drop() || m.is_castle() || m.is_special() || m.destination() != t.dest {
                continue;
            }
            let Some(kind) = pos.get(m.from).kind() else {
                continue;
            };
            let candidate = SanCandidate {
                file: m.from.file(),
                rank: m.from.rank(),
                kind,
                capture: m.is_capture() || pos.get(t.dest).is_color(them),
                promotion: m.is_promotion().then_some(m.piece),
            };
            if !self.names(t, &candidate) {
                continue;
            }
            if found.is_some() {
                return None;
            }
            found = Some(*m);
        }
        found
    }

    /// Whether `t` (not a castle) names a move of `c` to `t.dest`: the piece letter (or a pawn,
    /// which names a capture only with its file), the origin hints and the promotion. The one
    /// rule for [`SanReader::matching`] and for variants that match SAN on their own move
    /// lists.
    #[inline]
    pub fn names(&self, t: &SanToken, c: &SanCandidate) -> bool {
        let piece = match t.piece {
            Some(l) => self.letter(c.kind) == l,
            None => {
                self.pawns.get(c.kind as usize).copied().unwrap_or(false)
                    && !(t.capture_matters() && c.capture)
            }
        };
        piece
            && t.hint_file.is_none_or(|f| f == c.file)
            && t.hint_rank.is_none_or(|r| r == c.rank as u32)
            && match (t.promo, c.promotion) {
                (Some(l), Some(p)) => self.letter(p) == l,
                (None, None) => true,
                _ => false,
            }
    }
}

/// What SAN writes of a move that is neither a castle nor a drop ([`write_san`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SanMove {
    /// Origin square.
    pub from: Square,
    /// Destination square ([`Move::destination`]).
    pub dest: Square,
    /// The moving piece's letter (upper case, as in its [`PieceType`]).
    pub letter: char,
    /// Whether the moving piece is a pawn ([`Role::PAWN`]).
    pub pawn: bool,
    /// Whether it captures (its flag, or an enemy piece on its destination).
    pub capture: bool,
    /// The letter of the piece it promotes to, if it does.
    pub promotion: Option<char>,
}

/// Appends the SAN of `m` without a check mark: `Nf3`, `exd5`, `R1a3`, `Qh4xe1`, `e8=Q`.
/// `rivals` are the origins of the other legal moves of the same piece (kind and colour) to
/// the same destination, castles and drops left out; the origin is named by its file, else
/// its rank, else both, as far as they tell the move from its rivals. A pawn names its file
/// only on a capture; where that does not single the move out (berolina pawns: `a2-b3` and
/// `c2-b3`) it is written as a piece move, `Pab3`, as Fairy-Stockfish does. Castles are
/// `O-O` (towards the higher files) and `O-O-O`. The one SAN writer of the host and of
/// variants that describe whole lines ([`crate::VariantRules::describe_line`]).
pub fn write_san(out: &mut String, m: &SanMove, rivals: &[Square]) {
    let file_tells = rivals.iter().all(|r| r.file() != m.from.file());
    let pawn_plain = m.pawn
        && if m.capture {
            file_tells
        } else {
            rivals.is_empty()
        };
    if pawn_plain {
        if m.capture {
            out.push((b'a' + m.from.file()) as char);
            out.push('x');
        }
    } else {
        out.push(m.letter);
        if !rivals.is_empty() {
            if file_tells {
                out.push((b'a' + m.from.file()) as char);
            } else if rivals.iter().all(|r| r.rank() != m.from.rank()) {
                // Ranks run to 16 at most (a square's four bits).
                let n = m.from.rank() + 1;
                if n >= 10 {
                    out.push((b'0' + n / 10) as char);
                }
                out.push((b'0' + n % 10) as char);
            } else {
                m.from.push_name(out);
            }
        }
        if m.capture {
            out.push('x');
        }
    }
    m.dest.push_name(out);
    if let Some(p) = m.promotion {
        out.push('=');
        out.push(p);
    }
}

/// Appends the SAN of `mv` (not a drop) in `pos` without a check mark, in the letters of the
/// piece table `pieces`: `O-O`/`O-O-O` for a castle, else [`write_san`] over `rivals` (see
/// [`is_san_rival`]). The host writes table SAN with it, and so does a variant's
/// [`crate::VariantRules::describe_line`].
pub fn write_move_san(
    out: &mut String,
    pos: &Position,
    mv: &Move,
    pieces: &[PieceType],
    rivals: &[Square],
) {
    if mv.is_castle() {
        // The rook's side names it: a Chess960 king may stay where it is, or move the
        // other way (from b1 to c1 in O-O-O).
        out.push_str(if mv.to.file() > mv.from.file() {
            "O-O"
        } else {
            "O-O-O"
        });
        return;
    }
    let letter = |k: u8| letter_of(pieces, k);
    let kind = pos.get(mv.from).kind().unwrap_or(0);
    let dest = mv.destination();
    let m = SanMove {
        from: mv.from,
        dest,
        letter: letter(kind),
        pawn: pieces
            .get(kind as usize)
            .is_some_and(|t| t.role == Role::PAWN),
        capture: mv.is_capture() || pos.get(dest).is_color(pos.side_to_move.opposite()),
        promotion: mv.is_promotion().then(|| letter(mv.piece)),
    };
    write_san(out, &m, rivals);
}

/// Whether the legal move `other` is a rival of `mv` in `pos` for SAN: another move of the
/// same piece (kind and colour) to the same square, not a castle or a drop.
#[inline]
pub fn is_san_rival(pos: &Position, mv: &Move, other: &Move) -> bool {
    !other.is_drop()
        && !other.is_castle()
        && other.from != mv.from
        && other.destination() == mv.destination()
        && pos.get(other.from) == pos.get(mv.from)
}

/// Appends the coordinate form of `m` when it is neither a drop nor a special move:
/// origin and destination (`e2e4`), the intermediate square of a two-leg move between them
/// (`b1a3c4`), a castle as the king's origin and target (`e1g1`; king takes rook, `g1h1`,
/// where the king does not move, as in some Chess960 castles), a promotion's letter from
/// the piece table `pieces` in lower case (`e7e8q`). Writers that know the legal moves use
/// [`write_coordinate_among`], which also tells a castle from a plain king move of the same
/// squares.
pub fn write_coordinate(out: &mut String, m: &Move, pieces: &[PieceType]) {
    write_coordinate_among(out, m, pieces, &[]);
}

/// [`write_coordinate`] of `m`, one of the legal moves `legal` (all of them when `m` is a
/// castle): a castle whose king-target form is also another of them is written as king takes
/// rook ([`castle_shadowed`]), so that every legal move has a form of its own. The one writer
/// of the host and of variants that describe lines.
pub fn write_coordinate_among(out: &mut String, m: &Move, pieces: &[PieceType], legal: &[Move]) {
    m.from.push_name(out);
    if m.is_castle() {
        castle_second_square(m, legal).push_name(out);
        return;
    }
    if m.flags.contains(MoveFlags::MULTI_LEG) && !m.via.is_none() {
        m.via.push_name(out);
    }
    m.to.push_name(out);
    if m.is_promotion() {
        out.push(letter_of(pieces, m.piece).to_ascii_lowercase());
    }
}

/// Whether the coordinate form of the castle `castle` as king origin and target (`e1g1`) is
/// also the form of another of the legal moves `legal`: a king that steps two squares (the
/// god-kings preset) or slides (trans-rights) may go to the castling king's target by a
/// plain move. Such a castle is written as king takes rook (`e1h1`, the form Chess960 tools
/// use, which readers accept for every castle), so that each legal move has a form of its own.
pub fn castle_shadowed(castle: &Move, legal: &[Move]) -> bool {
    castle.is_castle()
        && legal.iter().any(|o| {
            // A move written as its origin and `to` and nothing else.
            let two_squares = !(o.is_castle()
                || o.is_drop()
                || o.is_special()
                || o.is_promotion()
                || (o.flags.contains(MoveFlags::MULTI_LEG) && !o.via.is_none()));
            two_squares && o.from == castle.from && o.to == castle.via
        })
}

/// The square a castle's coordinate form names after the king's origin: the king's target
/// (`e1g1`), or the rook's (king takes rook, `e1h1`) where the king does not move (some
/// Chess960 castles) or where the target form is another of the legal moves `legal`
/// ([`castle_shadowed`]).
fn castle_second_square(castle: &Move, legal: &[Move]) -> Square {
    if castle.via == castle.from || castle_shadowed(castle, legal) {
        castle.to
    } else {
        castle.via
    }
}

/// A move written in coordinate form, as read: two square names and an optional promotion
/// letter (`e2e4`, `e7e8q`, `E1G1`, `a10p16`; any case, the letter lower-cased). The one
/// reader of the host and of variants that replay lines, so that both resolve a coordinate
/// token to the same move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoordinateMove {
    /// The first square.
    pub from: Square,
    /// The second square.
    pub to: Square,
    /// The promotion letter, lower case.
    pub promotion: Option<u8>,
}

impl CoordinateMove {
    /// `text` read as a whole; `None` for any other shape (a check mark, glyphs, a dash, a
    /// rank 0 or past 16).
    pub fn read(text: &str) -> Option<CoordinateMove> {
        let b = text.as_bytes();
        let square = |i: usize| -> Option<(Square, usize)> {
            let file = b.get(i)?.to_ascii_lowercase();
            if !(b'a'..=b'p').contains(&file) {
                return None;
            }
            let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits == 0 || digits > 2 || b[i + 1] == b'0' {
                return None;
            }
            let rank = b[i + 1..i + 1 + digits]
                .iter()
                .fold(0u32, |n, d| n * 10 + (d - b'0') as u32);
            if rank > 16 {
                return None;
            }
            Some((Square::new(file - b'a', rank as u8 - 1), i + 1 + digits))
        };
        let (from, i) = square(0)?;
        let (to, i) = square(i)?;
        let promotion = match &b[i..] {
            [] => None,
            [l] if l.is_ascii_alphabetic() => Some(l.to_ascii_lowercase()),
            _ => return None,
        };
        Some(CoordinateMove {
            from,
            to,
            promotion,
        })
    }

    /// The index of the first of the legal moves `legal` that [`write_coordinate_among`] writes
    /// as this (castles as king origin and target, or king takes rook where that form is
    /// another move's, [`castle_shadowed`], or the king stays; promotions with `letter(kind)`
    /// in lower case);
    /// `None` when none is, or when a special move is among them (its form is the variant's
    /// own, not this one). Drops and three-square moves never are.
    pub fn find(&self, legal: &[Move], letter: impl Fn(u8) -> u8) -> Option<usize> {
        let mut found = None;
        for (i, m) in legal.iter().enumerate() {
            if m.is_special() {
                return None;
            }
            if found.is_some() || m.is_drop() {
                continue;
            }
            let (origin, target, promotion) = if m.is_castle() {
                (m.from, castle_second_square(m, legal), None)
            } else if m.flags.contains(MoveFlags::MULTI_LEG) && !m.via.is_none() {
                continue;
            } else {
                let l = m
                    .is_promotion()
                    .then(|| letter(m.piece).to_ascii_lowercase());
                (m.from, m.to, l)
            };
            if origin == self.from && target == self.to && promotion == self.promotion {
                found = Some(i);
            }
        }
        found
    }
}

/// The letter of piece kind `kind` in `pieces`, `?` for a kind it lacks.
fn letter_of(pieces: &[PieceType], kind: u8) -> char {
    pieces.get(kind as usize).map_or('?', |t| t.letter())
}

/// The value of ASCII digits; `None` past `u32`.
fn number(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0u32, |n, d| {
        n.checked_mul(10)?.checked_add((d - b'0') as u32)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cell, Color};

    #[test]
    fn a_coordinate_move_finds_the_move_written_so() {
        let sq = Square::new;
        let letter = |k: u8| b"PNBRQK"[k as usize];
        let read = |t| CoordinateMove::read(t).expect(t);
        let castle = Move::castle(sq(4, 0), sq(7, 0), sq(6, 0));
        let step = Move::new(sq(4, 0), sq(5, 0), MoveFlags::NONE);
        let knight = Move::promotion(sq(0, 6), sq(0, 7), 1, false);
        let queen = Move::promotion(sq(0, 6), sq(0, 7), 4, false);
        let legal = [step, castle, knight, queen, Move::drop(1, sq(6, 0))];
        // A castle is its king's origin and target; the king's own step is not that.
        assert_eq!(read("e1g1").find(&legal, letter), Some(1));
        assert_eq!(read("E1F1").find(&legal, letter), Some(0));
        // A promotion needs its letter; the first of the moves written so wins.
        assert_eq!(read("a7a8q").find(&legal, letter), Some(3));
        assert_eq!(read("a7a8N").find(&legal, letter), Some(2));
        assert_eq!(read("a7a8").find(&legal, letter), None);
        // Rook square and drops are not this form.
        assert_eq!(read("e1h1").find(&legal, letter), None);
        // A special move anywhere among them: the variant writes its own form.
        let special = Move::new(sq(0, 0), sq(0, 1), MoveFlags::SPECIAL);
        assert_eq!(read("e1f1").find(&[step, special], letter), None);
    }

    #[test]
    fn coordinate_moves_are_read_whole() {
        let sq = Square::new;
        let read = |t| CoordinateMove::read(t).map(|c| (c.from, c.to, c.promotion));
        assert_eq!(read("e2e4"), Some((sq(4, 1), sq(4, 3), None)));
        assert_eq!(read("E7E8Q"), Some((sq(4, 6), sq(4, 7), Some(b'q'))));
        assert_eq!(read("a10p16"), Some((sq(0, 9), sq(15, 15), None)));
        for not in [
            "", "e2", "e2e", "e2-e4", "e2e4+", "e2e4qq", "e0e4", "e2e17", "q2e4", "Nf3", "e2e4=Q",
        ] {
            assert_eq!(read(not), None, "{not}");
        }
    }

    fn table() -> Vec<PieceType> {
        vec![
            PieceType::new('P', "pawn", Role::PAWN, 100),
            PieceType::new('N', "knight", Role::KNIGHT, 300),
            PieceType::new('K', "king", Role::KING, 0),
        ]
    }

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        Square::new(b[0] - b'a', b[1] - b'1')
    }

    fn position() -> Position {
        let mut pos = Position::empty(8, 8);
        pos.set_raw(sq("b1"), Cell::piece(1, Color::White));
        pos.set_raw(sq("f1"), Cell::piece(1, Color::White));
        pos.set_raw(sq("e4"), Cell::piece(0, Color::White));
        pos.set_raw(sq("d5"), Cell::piece(0, Color::Black));
        pos
    }

    #[test]
    fn write_san_names_the_origin_only_as_far_as_the_rivals_need() {
        let sq = |name: &str| Square::parse(name).expect("a square");
        let san =
            |from: &str, dest: &str, letter: char, pawn: bool, capture: bool, rivals: &[&str]| {
                let m = SanMove {
                    from: sq(from),
                    dest: sq(dest),
                    letter,
                    pawn,
                    capture,
                    promotion: None,
                };
                let rivals: Vec<Square> = rivals.iter().map(|r| sq(r)).collect();
                let mut out = String::new();
                write_san(&mut out, &m, &rivals);
                out
            };
        assert_eq!(san("g1", "f3", 'N', false, false, &[]), "Nf3");
        assert_eq!(san("b1", "d2", 'N', false, false, &["f3"]), "Nbd2");
        assert_eq!(san("a1", "a3", 'R', false, false, &["a5"]), "R1a3");
        assert_eq!(san("h4", "e1", 'Q', false, true, &["e4", "h1"]), "Qh4xe1");
        assert_eq!(san("e4", "d5", 'P', true, true, &["c4"]), "exd5");
        assert_eq!(san("e2", "e4", 'P', true, false, &[]), "e4");
        // Berolina pawns: a2-b3 and c2-b3 are told apart as piece moves.
        assert_eq!(san("a2", "b3", 'P', true, false, &["c2"]), "Pab3");
        assert_eq!(san("a9", "a11", 'R', false, false, &["a13"]), "R9a11");
        let mut out = String::new();
        let m = SanMove {
            from: sq("e7"),
            dest: sq("e8"),
            letter: 'P',
            pawn: true,
            capture: false,
            promotion: Some('Q'),
        };
        write_san(&mut out, &m, &[]);
        assert_eq!(out, "e8=Q");
        let mut out = String::new();
        let mut mv = Move::new(sq("e7"), sq("e8"), MoveFlags::PROMOTION);
        mv.piece = 1;
        write_coordinate(&mut out, &mv, &table());
        assert_eq!(
            out, "e7e8n",
            "the promotion's letter from the table, in lower case"
        );
    }

    #[test]
    fn a_castle_whose_king_target_is_a_plain_move_is_found_as_king_takes_rook() {
        let castle = Move::castle(sq("e1"), sq("h1"), sq("g1"));
        let step = Move::new(sq("e1"), sq("g1"), MoveFlags::NONE);
        let other = Move::new(sq("e1"), sq("f1"), MoveFlags::NONE);
        let letter = |_| b'q';
        let find = |text: &str, legal: &[Move]| {
            CoordinateMove::read(text)
                .and_then(|c| c.find(legal, letter))
                .map(|i| legal[i])
        };
        // Plain chess: the castle is `e1g1`, as ever.
        let plain = [other, castle];
        assert!(!castle_shadowed(&castle, &plain));
        assert_eq!(find("e1g1", &plain), Some(castle));
        assert_eq!(find("e1h1", &plain), None);
        // A king that steps two squares (god-kings): `e1g1` is the step, `e1h1` the castle,
        // whatever the order of the list.
        for legal in [[castle, step], [step, castle]] {
            assert!(castle_shadowed(&castle, &legal));
            assert!(!castle_shadowed(&step, &legal), "only castles are shadowed");
            assert_eq!(find("e1g1", &legal), Some(step));
            assert_eq!(find("e1h1", &legal), Some(castle));
        }
    }

    #[test]
    fn reads_the_parts_of_plain_san() {
        let r = SanReader::new(&table());
        let pos = position();
        let t = r.read(&pos, "Nbd2+!?").expect("SAN");
        assert_eq!(
            (t.piece, t.hint_file, t.hint_rank, t.dest),
            (Some(b'N'), Some(1), None, sq("d2"))
        );
        let t = r.read(&pos, "e8=N").expect("SAN");
        assert_eq!((t.promo, t.dest), (Some(b'N'), sq("e8")));
        assert_eq!(r.read(&pos, "O-O-O").map(|t| t.castle), Some(Some(true)));
        // Off the board, not SAN, a rank past any number.
        for text in ["e9", "e2-e4", "N99999999999a3", "", "+"] {
            assert_eq!(r.read(&pos, text), None, "{text}");
        }
    }

    #[test]
    fn names_one_move_or_none() {
        let r = SanReader::new(&table());
        let pos = position();
        let legal = [
            Move::new(sq("b1"), sq("d2"), MoveFlags::NONE),
            Move::new(sq("f1"), sq("d2"), MoveFlags::NONE),
            Move::new(sq("e4"), sq("d5"), MoveFlags::CAPTURE),
            Move::new(sq("e4"), sq("e5"), MoveFlags::NONE),
        ];
        let named = |text: &str| r.matching(&pos, &r.read(&pos, text)?, &legal);
        assert_eq!(named("Nd2"), None, "two knights reach d2");
        assert_eq!(named("Nbd2"), Some(legal[0]));
        assert_eq!(named("Nfd2"), Some(legal[1]));
        assert_eq!(named("exd5"), Some(legal[2]));
        assert_eq!(named("d5"), None, "a pawn capture names its file");
        assert_eq!(named("e5"), Some(legal[3]));
        assert_eq!(r.kinds(&r.read(&pos, "Nd2").expect("SAN")), 0b10);
        assert_eq!(r.kinds(&r.read(&pos, "e5").expect("SAN")), 0b1);
    }

    #[test]
    fn names_checks_letter_hints_and_promotion() {
        let r = SanReader::new(&table());
        let pos = position();
        let token = |text: &str| r.read(&pos, text).expect("SAN");
        let knight = SanCandidate {
            file: 1,
            rank: 0,
            kind: 1,
            capture: false,
            promotion: None,
        };
        assert!(r.names(&token("Nd2"), &knight));
        assert!(r.names(&token("N1d2"), &knight));
        assert!(!r.names(&token("N2d2"), &knight), "another rank");
        assert!(!r.names(&token("Kd2"), &knight), "another letter");
        assert!(!r.names(&token("d2"), &knight), "not a pawn");
        let pawn = SanCandidate {
            file: 4,
            rank: 6,
            kind: 0,
            capture: false,
            promotion: Some(1),
        };
        assert!(r.names(&token("e8=N"), &pawn));
        assert!(!r.names(&token("e8"), &pawn), "the promotion must be named");
        assert!(!r.names(&token("e8=K"), &pawn), "another promotion");
        let step = SanCandidate {
            promotion: None,
            ..pawn
        };
        assert!(!r.names(&token("e8=N"), &step), "no promotion made");
        let capture = SanCandidate {
            capture: true,
            ..step
        };
        assert!(!r.names(&token("d8"), &capture), "a capture names its file");
        assert!(r.names(&token("ed8"), &capture));
    }
}
