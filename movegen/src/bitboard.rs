//! Bitboards over the compact square index (`rank * files + file`): `u64` for boards of at
//! most 64 squares, `u128` for up to 128 (Fairy-Stockfish's 12 x 10 included). All
//! generator code is generic over [`Bits`], so each board size gets its own monomorphised
//! hot path.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// The operations the generator needs from a bitboard word.
pub trait Bits:
    Copy
    + Eq
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// No square.
    const ZERO: Self;
    /// Number of squares this word can hold.
    const CAPACITY: usize;
    /// The single square `sq`.
    fn bit(sq: usize) -> Self;
    /// Lowest square (the word must not be zero).
    fn lsb(self) -> usize;
    /// Highest square (the word must not be zero).
    fn msb(self) -> usize;
    /// Number of squares.
    fn count(self) -> u32;
    /// Every square up to and including `sq`.
    fn upto(sq: usize) -> Self;
    /// Every square from `sq` on (inclusive).
    fn from_sq(sq: usize) -> Self;
    /// The word as 16 bytes, little-endian (for the position cache).
    fn to_words(self) -> [u64; 2];
    /// Inverse of [`Bits::to_words`].
    fn from_words(w: [u64; 2]) -> Self;
    /// Words a bitboard takes in the cache.
    const WORDS: usize;
    /// Shift towards higher squares.
    fn shl(self, n: u32) -> Self;
    /// Shift towards lower squares.
    fn shr(self, n: u32) -> Self;

    /// Whether no square is set.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    /// Whether `sq` is set.
    #[inline(always)]
    fn has(self, sq: usize) -> bool {
        self & Self::bit(sq) != Self::ZERO
    }
    /// Removes and returns the lowest square.
    #[inline(always)]
    fn pop(&mut self) -> usize {
        let s = self.lsb();
        *self ^= Self::bit(s);
        s
    }
    /// Whether more than one square is set.
    #[inline(always)]
    fn several(self) -> bool {
        let lo = self.lsb();
        self != Self::bit(lo)
    }
    /// The squares, lowest first.
    #[inline(always)]
    fn squares(self) -> SquareIter<Self> {
        SquareIter(self)
    }
}

/// Iterator over the squares of a bitboard.
pub struct SquareIter<B>(B);

impl<B: Bits> Iterator for SquareIter<B> {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            None
        } else {
            Some(self.0.pop())
        }
    }
}

impl Bits for u64 {
    const ZERO: u64 = 0;
    const CAPACITY: usize = 64;
    const WORDS: usize = 1;
    #[inline(always)]
    fn bit(sq: usize) -> u64 {
        1u64 << (sq & 63)
    }
    #[inline(always)]
    fn lsb(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline(always)]
    fn msb(self) -> usize {
        63 - self.leading_zeros() as usize
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn upto(sq: usize) -> u64 {
        u64::MAX >> (63 - (sq & 63))
    }
    #[inline(always)]
    fn from_sq(sq: usize) -> u64 {
        u64::MAX << (sq & 63)
    }
    fn to_words(self) -> [u64; 2] {
        [self, 0]
    }
    fn from_words(w: [u64; 2]) -> u64 {
        w[0]
    }
    #[inline(always)]
    fn shl(self, n: u32) -> u64 {
        self << n
    }
    #[inline(always)]
    fn shr(self, n: u32) -> u64 {
        self >> n
    }
}

impl Bits for u128 {
    const ZERO: u128 = 0;
    const CAPACITY: usize = 128;
    const WORDS: usize = 2;
    #[inline(always)]
    fn bit(sq: usize) -> u128 {
        1u128 << (sq & 127)
    }
    #[inline(always)]
    fn lsb(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline(always)]
    fn msb(self) -> usize {
        127 - self.leading_zeros() as usize
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn upto(sq: usize) -> u128 {
        u128::MAX >> (127 - (sq & 127))
    }
    #[inline(always)]
    fn from_sq(sq: usize) -> u128 {
        u128::MAX << (sq & 127)
    }
    fn to_words(self) -> [u64; 2] {
        [self as u64, (self >> 64) as u64]
    }
    fn from_words(w: [u64; 2]) -> u128 {
        w[0] as u128 | ((w[1] as u128) << 64)
    }
    #[inline(always)]
    fn shl(self, n: u32) -> u128 {
        self << n
    }
    #[inline(always)]
    fn shr(self, n: u32) -> u128 {
        self >> n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<B: Bits>() {
        let n = B::CAPACITY;
        for s in [0, 1, n / 2, n - 1] {
            assert!(B::bit(s).has(s));
            assert_eq!(B::bit(s).lsb(), s);
            assert_eq!(B::bit(s).msb(), s);
            assert_eq!(B::upto(s).count() as usize, s + 1);
            assert_eq!(B::from_sq(s).count() as usize, n - s);
            assert_eq!(B::from_words(B::bit(s).to_words()), B::bit(s));
        }
        let mut b = B::bit(3) | B::bit(n - 2);
        assert!(b.several());
        assert_eq!(b.squares().collect::<Vec<_>>(), vec![3, n - 2]);
        assert_eq!(b.pop(), 3);
        assert!(!b.several());
    }

    #[test]
    fn both_words() {
        check::<u64>();
        check::<u128>();
    }
}
