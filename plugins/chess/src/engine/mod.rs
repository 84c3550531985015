//! Fast, exact FIDE chess move generation (with Chess960 / X-FEN castling).
//!
//! * Squares are `u8` 0..63, a1 = 0, b1 = 1, ..., h8 = 63 (`rank * 8 + file`).
//! * Bitboards are `u64` with bit `sq` set for square `sq`.
//! * Move generation is strictly legal (pin masks and check masks; no
//!   make/unmake legality test).  Sliding attacks use magic bitboards whose
//!   tables are generated at build time by `build.rs` (no runtime init).
//! * No allocation anywhere; std only.
//!
//! Castling moves are encoded king-from -> castling ROOK square (Chess960
//! style), see [`ChessMove::castle_king_to`] / [`ChessMove::castle_rook_to`].

// This module is a library used piecemeal by the host crate: not every
// helper is necessarily used there.
#![allow(dead_code)]

mod attacks;
mod board;
mod movegen;
#[cfg(test)]
mod tests;

// Attack lookups, useful to the host (e.g. SAN disambiguation).
#[allow(unused_imports)]
pub use attacks::{
    between, bishop_attacks, bishop_rays, king_attacks, knight_attacks, pawn_attacks,
    queen_attacks, rook_attacks, rook_rays,
};
pub use board::Board;
pub(crate) use movegen::Wanted;

use std::fmt;

/// "No square" sentinel used in the raw encodings (castling rooks, ep square).
pub const NO_SQUARE: u8 = 64;

/// Bitboard of a single square.
#[inline(always)]
pub const fn bit(sq: u8) -> u64 {
    1u64 << (sq & 63)
}

/// File 0..7 (a..h) of a square.
#[inline(always)]
pub const fn file_of(sq: u8) -> u8 {
    sq & 7
}

/// Rank 0..7 (1..8) of a square.
#[inline(always)]
pub const fn rank_of(sq: u8) -> u8 {
    sq >> 3
}

/// Kind of chess piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Role {
    Pawn = 0,
    Knight = 1,
    Bishop = 2,
    Rook = 3,
    Queen = 4,
    King = 5,
}

impl Role {
    /// All roles, indexed by their discriminant.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// Role from its discriminant (0..=5).
    #[inline]
    pub fn from_index(i: usize) -> Option<Role> {
        Role::ALL.get(i).copied()
    }

    /// Lower-case letter: p n b r q k.
    pub fn char(self) -> char {
        b"pnbrqk"[self as usize] as char
    }
}

/// Colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Side {
    White = 0,
    Black = 1,
}

impl Side {
    /// The other side.
    #[inline(always)]
    pub fn opposite(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    #[inline(always)]
    fn from_index(i: usize) -> Side {
        if i & 1 == 0 {
            Side::White
        } else {
            Side::Black
        }
    }
}

/// Move kind, as reported by [`ChessMove::kind`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum MoveKind {
    Quiet,
    DoublePush,
    Capture,
    EnPassant,
    /// Castling; `to()` is the castling rook's square.
    Castle,
    Promotion,
    PromotionCapture,
}

// Raw 4-bit flags stored in bits 12..16 of a move.
pub(crate) const F_QUIET: u16 = 0;
pub(crate) const F_DOUBLE: u16 = 1;
pub(crate) const F_CAPTURE: u16 = 2;
pub(crate) const F_EP: u16 = 3;
pub(crate) const F_CASTLE: u16 = 4;
/// Promotion flags: `F_PROMO | (role - 1)` (knight..queen), plus `F_PROMO_CAP` bit.
pub(crate) const F_PROMO: u16 = 8;
pub(crate) const F_PROMO_CAP: u16 = 12;

/// A chess move packed into 16 bits: from (6) | to (6) << 6 | flag (4) << 12.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct ChessMove(u16);

impl ChessMove {
    /// The all-zero "null" value (a1a1 quiet); never produced by generation.
    pub const NULL: ChessMove = ChessMove(0);

    #[inline(always)]
    pub(crate) const fn raw_new(from: u8, to: u8, flag: u16) -> ChessMove {
        ChessMove((from as u16 & 63) | ((to as u16 & 63) << 6) | (flag << 12))
    }

    /// Builds a move. For `Promotion`/`PromotionCapture` pass the promotion
    /// role (Knight..Queen; defaults to Queen if `None` or invalid).
    /// For `Castle`, `to` must be the castling rook's square.
    pub fn new(from: u8, to: u8, kind: MoveKind, promotion: Option<Role>) -> ChessMove {
        let promo = match promotion {
            Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) => r as u16 - 1,
            _ => 3,
        };
        let flag = match kind {
            MoveKind::Quiet => F_QUIET,
            MoveKind::DoublePush => F_DOUBLE,
            MoveKind::Capture => F_CAPTURE,
            MoveKind::EnPassant => F_EP,
            MoveKind::Castle => F_CASTLE,
            MoveKind::Promotion => F_PROMO | promo,
            MoveKind::PromotionCapture => F_PROMO_CAP | promo,
        };
        ChessMove::raw_new(from, to, flag)
    }

    /// Raw 16-bit encoding (for storage across an ABI).
    #[inline(always)]
    pub const fn to_raw(self) -> u16 {
        self.0
    }

    /// Inverse of [`ChessMove::to_raw`].
    #[inline(always)]
    pub const fn from_raw(raw: u16) -> ChessMove {
        ChessMove(raw)
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> u8 {
        (self.0 & 63) as u8
    }

    /// Destination square (the ROOK square for castling).
    #[inline(always)]
    pub const fn to(self) -> u8 {
        ((self.0 >> 6) & 63) as u8
    }

    #[inline(always)]
    pub(crate) const fn flag(self) -> u16 {
        self.0 >> 12
    }

    /// Promotion piece, if any.
    #[inline(always)]
    pub fn promotion(self) -> Option<Role> {
        let f = self.flag();
        if f & F_PROMO != 0 {
            Role::from_index((f & 3) as usize + 1)
        } else {
            None
        }
    }

    /// The move's kind.
    pub fn kind(self) -> MoveKind {
        match self.flag() {
            F_QUIET => MoveKind::Quiet,
            F_DOUBLE => MoveKind::DoublePush,
            F_CAPTURE => MoveKind::Capture,
            F_EP => MoveKind::EnPassant,
            F_CASTLE => MoveKind::Castle,
            f if f >= F_PROMO_CAP => MoveKind::PromotionCapture,
            f if f >= F_PROMO => MoveKind::Promotion,
            _ => MoveKind::Quiet, // unused flags 5..7
        }
    }

    /// Captures something (including en passant).
    #[inline]
    pub fn is_capture(self) -> bool {
        let f = self.flag();
        f == F_CAPTURE || f == F_EP || f >= F_PROMO_CAP
    }

    /// Is castling.
    #[inline]
    pub fn is_castle(self) -> bool {
        self.flag() == F_CASTLE
    }

    /// Is en passant.
    #[inline]
    pub fn is_en_passant(self) -> bool {
        self.flag() == F_EP
    }

    /// Castling side: `Some(true)` king-side (rook on a higher file than the
    /// king), `Some(false)` queen-side, `None` if not castling.
    #[inline]
    pub fn castle_is_kingside(self) -> Option<bool> {
        if self.is_castle() {
            Some(self.to() > self.from())
        } else {
            None
        }
    }

    /// For castling: the king's destination (g- or c-file of its rank).
    #[inline]
    pub fn castle_king_to(self) -> Option<u8> {
        self.castle_is_kingside()
            .map(|k| (self.from() & 56) + if k { 6 } else { 2 })
    }

    /// For castling: the rook's destination (f- or d-file of its rank).
    #[inline]
    pub fn castle_rook_to(self) -> Option<u8> {
        self.castle_is_kingside()
            .map(|k| (self.from() & 56) + if k { 5 } else { 3 })
    }

    /// Square the moving piece ends up on (king destination for castling).
    #[inline]
    pub fn king_aware_to(self) -> u8 {
        self.castle_king_to().unwrap_or(self.to())
    }

    /// UCI notation. With `chess960 == false`, castling is written as the
    /// king's two-square move (e1g1); with `true` as king-takes-rook (e1h1).
    pub fn uci(self, chess960: bool) -> Uci {
        Uci { m: self, chess960 }
    }
}

/// Display helper returned by [`ChessMove::uci`] (no allocation).
#[derive(Clone, Copy, Debug)]
pub struct Uci {
    m: ChessMove,
    chess960: bool,
}

impl fmt::Display for Uci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sqname = |s: u8| [(b'a' + file_of(s)) as char, (b'1' + rank_of(s)) as char];
        let to = if self.chess960 {
            self.m.to()
        } else {
            self.m.king_aware_to()
        };
        let [a, b] = sqname(self.m.from());
        let [c, d] = sqname(to);
        write!(f, "{a}{b}{c}{d}")?;
        if let Some(p) = self.m.promotion() {
            write!(f, "{}", p.char())?;
        }
        Ok(())
    }
}

/// Maximum number of moves a [`MoveList`] holds (max legal moves is 218).
pub const MAX_MOVES: usize = 256;

/// Fixed-capacity move list (no heap). Derefs to `[ChessMove]`.
#[derive(Clone)]
pub struct MoveList {
    len: usize,
    moves: [ChessMove; MAX_MOVES],
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl MoveList {
    /// Empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [ChessMove::NULL; MAX_MOVES],
        }
    }

    /// Removes all moves.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a move (silently ignored if full, which cannot happen for
    /// legal chess positions).
    #[inline(always)]
    pub fn push(&mut self, m: ChessMove) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = m;
            self.len += 1;
        }
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[ChessMove] {
        &self.moves[..self.len]
    }
}

impl std::ops::Deref for MoveList {
    type Target = [ChessMove];
    #[inline(always)]
    fn deref(&self) -> &[ChessMove] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a ChessMove;
    type IntoIter = std::slice::Iter<'a, ChessMove>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

const _: () = assert!(std::mem::size_of::<ChessMove>() == 2);
