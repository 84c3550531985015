//! The position type, state accessors and move execution.

use super::attacks::*;
use super::{bit, ChessMove, MoveList, Role, Side, F_CASTLE, F_DOUBLE, F_EP, F_PROMO, NO_SQUARE};

const ROLE_PAWN: usize = Role::Pawn as usize;
const ROLE_KNIGHT: usize = Role::Knight as usize;
const ROLE_BISHOP: usize = Role::Bishop as usize;
const ROLE_ROOK: usize = Role::Rook as usize;
const ROLE_QUEEN: usize = Role::Queen as usize;
const ROLE_KING: usize = Role::King as usize;

const RANK_1: u64 = 0xff;
const RANK_8: u64 = 0xff << 56;
const DARK_SQUARES: u64 = 0xAA55_AA55_AA55_AA55;

/// A chess position.
///
/// Plain data: `Copy`, `#[repr(C)]`, no pointers, 80 bytes, alignment 8,
/// and no implicit padding (the trailing `_pad` bytes are always zero), so it
/// can be stored as ten raw `u64` words.
///
/// Field semantics:
/// * `by_role[r]` / `by_side[s]`: piece bitboards.
/// * `castle[0]`/`castle[1]`: white king-side / queen-side castling rook
///   square, `castle[2]`/`castle[3]` the same for black; 64 = no right.
///   King-side means the rook is on a higher file than the king. Any files
///   are supported (Chess960, X-FEN, Shredder-FEN).
/// * `ep`: en passant target square (the square skipped by the double push)
///   or 64. [`Board::play`] sets it only when an en passant capture is
///   actually *legal* for the side to move (the FIDE repetition notion);
///   [`Board::set_ep_square`] stores whatever it is given (generation copes
///   with any value) and [`Board::normalize_ep`] applies the same rule.
/// * `side`: 0 white, 1 black to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(C)]
pub struct Board {
    pub(crate) by_role: [u64; 6],
    pub(crate) by_side: [u64; 2],
    pub(crate) castle: [u8; 4],
    pub(crate) ep: u8,
    pub(crate) side: u8,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    _pad: [u8; 6],
}

const _: () = {
    assert!(std::mem::size_of::<Board>() <= 128);
    assert!(std::mem::size_of::<Board>() == 80);
    assert!(std::mem::align_of::<Board>() <= 8);
};

impl Default for Board {
    fn default() -> Self {
        Board::empty()
    }
}

impl Board {
    /// Empty board, white to move, no castling rights, no ep, clocks 0 / 1.
    pub const fn empty() -> Board {
        Board {
            by_role: [0; 6],
            by_side: [0; 2],
            castle: [NO_SQUARE; 4],
            ep: NO_SQUARE,
            side: 0,
            halfmove: 0,
            fullmove: 1,
            _pad: [0; 6],
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Board {
        let mut b = Board::empty();
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for f in 0..8u8 {
            b.put(f, Side::White, back[f as usize]);
            b.put(8 + f, Side::White, Role::Pawn);
            b.put(48 + f, Side::Black, Role::Pawn);
            b.put(56 + f, Side::Black, back[f as usize]);
        }
        b.castle = [7, 0, 63, 56];
        b
    }

    /// Places a piece (replacing whatever stood on `sq`).
    pub fn put(&mut self, sq: u8, side: Side, role: Role) {
        self.remove(sq);
        self.add(sq, side, role);
    }

    /// Places a piece on a square known to be empty (no other piece's bits to clear, as
    /// [`Board::put`] does): a board built square by square from nothing.
    #[inline]
    pub fn add(&mut self, sq: u8, side: Side, role: Role) {
        let b = bit(sq);
        self.by_role[role as usize] |= b;
        self.by_side[side as usize] |= b;
    }

    /// Clears a square.
    pub fn remove(&mut self, sq: u8) {
        let nb = !bit(sq);
        for r in &mut self.by_role {
            *r &= nb;
        }
        self.by_side[0] &= nb;
        self.by_side[1] &= nb;
    }

    /// Piece on `sq`.
    pub fn piece_at(&self, sq: u8) -> Option<(Side, Role)> {
        let b = bit(sq);
        let side = if self.by_side[0] & b != 0 {
            Side::White
        } else if self.by_side[1] & b != 0 {
            Side::Black
        } else {
            return None;
        };
        let r = self.by_role.iter().position(|&x| x & b != 0)?;
        Some((side, Role::ALL[r]))
    }

    /// Bitboard of all pieces of `role` (both colours).
    #[inline(always)]
    pub fn by_role(&self, role: Role) -> u64 {
        self.by_role[role as usize]
    }

    /// Bitboard of all pieces of `side`.
    #[inline(always)]
    pub fn by_side(&self, side: Side) -> u64 {
        self.by_side[side as usize]
    }

    /// Bitboard of `side`'s pieces of `role`.
    #[inline(always)]
    pub fn pieces(&self, side: Side, role: Role) -> u64 {
        self.by_side[side as usize] & self.by_role[role as usize]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.by_side[0] | self.by_side[1]
    }

    /// King square of `side` (64 if there is no king).
    #[inline(always)]
    pub fn king_square(&self, side: Side) -> u8 {
        (self.by_role[ROLE_KING] & self.by_side[side as usize]).trailing_zeros() as u8
    }

    /// Side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Side {
        Side::from_index(self.side as usize)
    }

    /// Sets the side to move.
    #[inline]
    pub fn set_side_to_move(&mut self, side: Side) {
        self.side = side as u8;
    }

    /// Castling rook square of `side` on the king side (`kingside == true`,
    /// rook on a higher file than the king) or queen side.
    #[inline]
    pub fn castling_rook(&self, side: Side, kingside: bool) -> Option<u8> {
        let s = self.castle[side as usize * 2 + (!kingside) as usize];
        (s < 64).then_some(s)
    }

    /// Sets / clears a castling right by rook square (validity is checked by
    /// [`Board::validate`], not here).
    #[inline]
    pub fn set_castling_rook(&mut self, side: Side, kingside: bool, rook: Option<u8>) {
        self.castle[side as usize * 2 + (!kingside) as usize] = match rook {
            Some(s) if s < 64 => s,
            _ => NO_SQUARE,
        };
    }

    /// Bitboard of all castling rook squares.
    pub fn castling_rooks(&self) -> u64 {
        self.castle
            .iter()
            .filter(|&&s| s < 64)
            .fold(0, |a, &s| a | bit(s))
    }

    /// En passant target square (see the type docs for the convention).
    #[inline]
    pub fn ep_square(&self) -> Option<u8> {
        (self.ep < 64).then_some(self.ep)
    }

    /// Sets the raw en passant square (any value; use [`Board::normalize_ep`]
    /// afterwards to apply the "only if legal" convention of `play`).
    #[inline]
    pub fn set_ep_square(&mut self, sq: Option<u8>) {
        self.ep = match sq {
            Some(s) if s < 64 => s,
            _ => NO_SQUARE,
        };
    }

    /// Clears the ep square unless an en passant capture is legal.
    pub fn normalize_ep(&mut self) {
        if self.ep < 64 && !self.ep_capture_legal(self.ep) {
            self.ep = NO_SQUARE;
        }
    }

    /// The ep square if an en passant capture is legal, else `None`
    /// (independent of whether the stored ep square was normalised).
    pub fn legal_ep_square(&self) -> Option<u8> {
        (self.ep < 64 && self.ep_capture_legal(self.ep)).then_some(self.ep)
    }

    /// Halfmove clock (plies since the last capture or pawn move).
    #[inline]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// Sets the halfmove clock.
    #[inline]
    pub fn set_halfmove_clock(&mut self, v: u16) {
        self.halfmove = v;
    }

    /// Fullmove number (starts at 1, incremented after Black moves).
    #[inline]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// Sets the fullmove number.
    #[inline]
    pub fn set_fullmove_number(&mut self, v: u16) {
        self.fullmove = v;
    }

    /// Same position for repetition purposes: pieces, side to move,
    /// castling rights and ep square (clocks ignored). Compare boards whose ep
    /// squares follow the `play` convention (or call `normalize_ep`).
    pub fn same_position(&self, other: &Board) -> bool {
        self.by_role == other.by_role
            && self.by_side == other.by_side
            && self.castle == other.castle
            && self.ep == other.ep
            && self.side == other.side
    }

    /// Pieces of side `by` (restricted to `occupied`) attacking `sq`, with
    /// sliders blocked by `occupied`.
    #[inline]
    pub fn attackers_to(&self, sq: u8, by: Side, occupied: u64) -> u64 {
        self.attackers_idx(sq, by as usize, occupied)
    }

    #[inline(always)]
    pub(crate) fn attackers_idx(&self, sq: u8, by: usize, occupied: u64) -> u64 {
        let r = &self.by_role;
        let them = self.by_side[by & 1] & occupied;
        ((pawn_attacks_idx(by ^ 1, sq) & r[ROLE_PAWN])
            | (knight_attacks(sq) & r[ROLE_KNIGHT])
            | (king_attacks(sq) & r[ROLE_KING])
            | (bishop_attacks(sq, occupied) & (r[ROLE_BISHOP] | r[ROLE_QUEEN]))
            | (rook_attacks(sq, occupied) & (r[ROLE_ROOK] | r[ROLE_QUEEN])))
            & them
    }

    /// Is `sq` attacked by `by` (current occupancy)?
    #[inline]
    pub fn is_attacked(&self, sq: u8, by: Side) -> bool {
        self.attackers_to(sq, by, self.occupied()) != 0
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> u64 {
        let us = self.side as usize & 1;
        let k = (self.by_role[ROLE_KING] & self.by_side[us]).trailing_zeros() as u8;
        if k >= 64 {
            return 0;
        }
        self.attackers_idx(k, us ^ 1, self.occupied())
    }

    /// Is the side to move in check?
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers() != 0
    }

    /// FIDE dead position by material: K v K, K+N v K, and any number of
    /// bishops (either side) all on squares of one colour, without other
    /// material (covers K+B v K and K+B(s) v K+B(s)).
    pub fn has_insufficient_material(&self) -> bool {
        let r = &self.by_role;
        if r[ROLE_PAWN] | r[ROLE_ROOK] | r[ROLE_QUEEN] != 0 {
            return false;
        }
        let knights = r[ROLE_KNIGHT];
        let bishops = r[ROLE_BISHOP];
        if bishops == 0 {
            return knights.count_ones() <= 1;
        }
        knights == 0 && (bishops & DARK_SQUARES == 0 || bishops & !DARK_SQUARES == 0)
    }

    /// Is an en passant capture onto `e` legal for the side to move?
    pub(crate) fn ep_capture_legal(&self, e: u8) -> bool {
        let us = self.side as usize & 1;
        let them = us ^ 1;
        if e >= 64 {
            return false;
        }
        let c = e ^ 8; // square of the pawn that double-pushed
        let r = &self.by_role;
        let occ = self.occupied();
        let expected_rank = if us == 0 { 5 } else { 2 };
        if e >> 3 != expected_rank
            || occ & bit(e) != 0
            || r[ROLE_PAWN] & self.by_side[them] & bit(c) == 0
        {
            return false;
        }
        let kbb = r[ROLE_KING] & self.by_side[us];
        if kbb == 0 {
            return false;
        }
        let k = kbb.trailing_zeros() as u8;
        let mut cands = pawn_attacks_idx(them, e) & r[ROLE_PAWN] & self.by_side[us];
        while cands != 0 {
            let p = cands.trailing_zeros() as u8;
            cands &= cands - 1;
            let occ2 = (occ ^ bit(p) ^ bit(c)) | bit(e);
            // After the capture the pawn on `c` is gone; everything else of
            // theirs stays. Check all attackers with the new occupancy.
            if self.attackers_idx(k, them, occ2 & !bit(c)) == 0 {
                return true;
            }
        }
        false
    }

    #[inline(always)]
    fn role_index_at(&self, b: u64) -> usize {
        let r = &self.by_role;
        if r[ROLE_PAWN] & b != 0 {
            ROLE_PAWN
        } else if r[ROLE_KNIGHT] & b != 0 {
            ROLE_KNIGHT
        } else if r[ROLE_BISHOP] & b != 0 {
            ROLE_BISHOP
        } else if r[ROLE_ROOK] & b != 0 {
            ROLE_ROOK
        } else if r[ROLE_QUEEN] & b != 0 {
            ROLE_QUEEN
        } else {
            ROLE_KING
        }
    }

    /// Plays a move, which must be legal in this position (as produced by
    /// [`Board::legal_moves`]); updates castling rights, ep square, clocks
    /// and side to move.
    pub fn play(&mut self, m: ChessMove) {
        let us = self.side as usize & 1;
        let them = us ^ 1;
        let from = m.from();
        let to = m.to();
        let fb = bit(from);
        let tb = bit(to);
        let flag = m.flag();

        self.ep = NO_SQUARE;
        self.halfmove = self.halfmove.saturating_add(1);

        if flag == F_CASTLE {
            let kingside = to > from;
            let base = from & 56;
            let kd = base + if kingside { 6 } else { 2 };
            let rd = base + if kingside { 5 } else { 3 };
            self.by_role[ROLE_KING] ^= fb ^ bit(kd);
            self.by_role[ROLE_ROOK] ^= tb ^ bit(rd);
            self.by_side[us] = (self.by_side[us] & !(fb | tb)) | bit(kd) | bit(rd);
            self.castle[us * 2] = NO_SQUARE;
            self.castle[us * 2 + 1] = NO_SQUARE;
        } else {
            let role = self.role_index_at(fb);
            if self.by_side[them] & tb != 0 {
                let ntb = !tb;
                for r in &mut self.by_role {
                    *r &= ntb;
                }
                self.by_side[them] &= ntb;
                self.halfmove = 0;
            }
            self.by_side[us] ^= fb | tb;
            if flag & F_PROMO != 0 {
                self.by_role[ROLE_PAWN] ^= fb;
                self.by_role[(flag & 3) as usize + 1] |= tb;
            } else {
                self.by_role[role] ^= fb | tb;
            }
            if role == ROLE_PAWN {
                self.halfmove = 0;
                if flag == F_EP {
                    let cb = bit(to ^ 8);
                    self.by_role[ROLE_PAWN] &= !cb;
                    self.by_side[them] &= !cb;
                } else if flag == F_DOUBLE {
                    let e = (from + to) >> 1;
                    if pawn_attacks_idx(us, e) & self.by_role[ROLE_PAWN] & self.by_side[them] != 0 {
                        self.ep = e;
                    }
                }
            } else if role == ROLE_KING {
                self.castle[us * 2] = NO_SQUARE;
                self.castle[us * 2 + 1] = NO_SQUARE;
            }
            for c in &mut self.castle {
                if *c == from || *c == to {
                    *c = NO_SQUARE;
                }
            }
        }

        if us == 1 {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them as u8;
        if self.ep != NO_SQUARE && !self.ep_capture_legal(self.ep) {
            self.ep = NO_SQUARE;
        }
    }

    /// All legal moves into `out` (cleared first).
    #[inline]
    pub fn legal_moves(&self, out: &mut MoveList) {
        out.clear();
        self.generate(out);
    }

    /// Number of legal moves, without materialising them (popcounts).
    #[inline]
    pub fn count_legal(&self) -> usize {
        #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
        {
            if std::is_x86_feature_detected!("popcnt") {
                // SAFETY: the CPU supports `popcnt` (checked just above).
                return unsafe { count_legal_popcnt(self) };
            }
        }
        self.count_legal_inline()
    }

    #[inline(always)]
    fn count_legal_inline(&self) -> usize {
        let mut n = super::movegen::Counter(0);
        self.generate(&mut n);
        n.0
    }

    /// Finds the legal move matching `from`, `to`, `promotion`. Castling is
    /// accepted both as king-to-rook and as the king's destination square.
    pub fn find_move(&self, from: u8, to: u8, promotion: Option<Role>) -> Option<ChessMove> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        let exact = list
            .iter()
            .copied()
            .find(|m| m.from() == from && m.to() == to && m.promotion() == promotion);
        exact.or_else(|| {
            list.iter().copied().find(|m| {
                m.is_castle()
                    && promotion.is_none()
                    && m.from() == from
                    && m.castle_king_to() == Some(to)
                    && m.from().abs_diff(to) == 2
            })
        })
    }

    /// Parses a UCI move (e2e4, e7e8q, castling as e1g1 or e1h1) against the
    /// legal moves of this position.
    pub fn parse_uci(&self, s: &str) -> Option<ChessMove> {
        let b = s.as_bytes();
        if b.len() != 4 && b.len() != 5 {
            return None;
        }
        let sq = |f: u8, r: u8| -> Option<u8> {
            ((b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r))
                .then(|| (r - b'1') * 8 + (f - b'a'))
        };
        let from = sq(b[0], b[1])?;
        let to = sq(b[2], b[3])?;
        let promo = match b.get(4) {
            None => None,
            Some(c) => Some(match c.to_ascii_lowercase() {
                b'n' => Role::Knight,
                b'b' => Role::Bishop,
                b'r' => Role::Rook,
                b'q' => Role::Queen,
                _ => return None,
            }),
        };
        self.find_move(from, to, promo)
    }

    /// Leaf-node count of the legal move tree of depth `depth` (bulk
    /// counting at depth 1).
    pub fn perft(&self, depth: u32) -> u64 {
        #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
        {
            if std::is_x86_feature_detected!("popcnt") {
                // SAFETY: the CPU supports `popcnt` (checked just above).
                return unsafe { perft_popcnt(self, depth) };
            }
        }
        perft_portable(self, depth)
    }

    /// Sanity check of the position.
    pub fn validate(&self) -> Result<(), &'static str> {
        if self.side > 1 {
            return Err("invalid side to move");
        }
        if self._pad != [0; 6] {
            return Err("nonzero padding");
        }
        let occ = self.occupied();
        if self.by_side[0] & self.by_side[1] != 0 {
            return Err("square occupied by both colours");
        }
        let mut union = 0u64;
        for r in &self.by_role {
            if union & r != 0 {
                return Err("square occupied by two roles");
            }
            union |= r;
        }
        if union != occ {
            return Err("role and colour bitboards disagree");
        }
        for s in 0..2 {
            if (self.by_role[ROLE_KING] & self.by_side[s]).count_ones() != 1 {
                return Err("each side needs exactly one king");
            }
        }
        if self.by_role[ROLE_PAWN] & (RANK_1 | RANK_8) != 0 {
            return Err("pawn on the first or last rank");
        }
        let us = self.side as usize;
        let them = us ^ 1;
        let their_king = (self.by_role[ROLE_KING] & self.by_side[them]).trailing_zeros() as u8;
        if self.attackers_idx(their_king, us, occ) != 0 {
            return Err("side not to move is in check");
        }
        for s in 0..2usize {
            let k = (self.by_role[ROLE_KING] & self.by_side[s]).trailing_zeros() as u8;
            let back = if s == 0 { 0 } else { 7 };
            for i in 0..2 {
                let r = self.castle[s * 2 + i];
                if r == NO_SQUARE {
                    continue;
                }
                if r >= 64 {
                    return Err("invalid castling rook square");
                }
                if k >> 3 != back {
                    return Err("castling right but king not on its back rank");
                }
                if r >> 3 != back || self.by_role[ROLE_ROOK] & self.by_side[s] & bit(r) == 0 {
                    return Err("castling right without a rook on the back rank");
                }
                let kingside = i == 0;
                if kingside != (r > k) {
                    return Err("castling rook on the wrong side of the king");
                }
            }
        }
        if self.ep != NO_SQUARE {
            let e = self.ep;
            if e >= 64 {
                return Err("invalid en passant square");
            }
            let (rank, pawn_sq, origin) = if us == 0 {
                (5, e.wrapping_sub(8), e + 8)
            } else {
                (2, e + 8, e.wrapping_sub(8))
            };
            if e >> 3 != rank {
                return Err("en passant square on the wrong rank");
            }
            if occ & (bit(e) | bit(origin)) != 0 {
                return Err("en passant square or origin square occupied");
            }
            if self.by_role[ROLE_PAWN] & self.by_side[them] & bit(pawn_sq) == 0 {
                return Err("en passant square without a pawn that double-pushed");
            }
        }
        Ok(())
    }
}

/// Body of `perft`, parameterised by the recursive call.
macro_rules! perft_body {
    ($b:expr, $depth:expr, $recurse:expr) => {{
        let b: &Board = $b;
        match $depth {
            0 => 1,
            1 => b.count_legal_inline() as u64,
            d => {
                let mut list = MoveList::new();
                b.generate(&mut list);
                let mut n = 0;
                for &m in list.iter() {
                    let mut c = *b;
                    c.play(m);
                    n += $recurse(&c, d - 1);
                }
                n
            }
        }
    }};
}

fn perft_portable(b: &Board, depth: u32) -> u64 {
    perft_body!(b, depth, perft_portable)
}

/// `count_legal` compiled with the `popcnt` instruction enabled.
///
/// # Safety
/// The CPU must support `popcnt`.
#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
#[target_feature(enable = "popcnt")]
unsafe fn count_legal_popcnt(b: &Board) -> usize {
    b.count_legal_inline()
}

/// `perft` compiled with the `popcnt` instruction enabled.
///
/// # Safety
/// The CPU must support `popcnt`.
#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
#[target_feature(enable = "popcnt")]
unsafe fn perft_popcnt(b: &Board, depth: u32) -> u64 {
    // SAFETY: same precondition as this function.
    perft_body!(b, depth, |c: &Board, d| unsafe { perft_popcnt(c, d) })
}
