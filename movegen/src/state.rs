//! The bitboards of a [`Position`]: read from the position's cache when it holds this
//! generator's, rebuilt from the cells otherwise.
//!
//! Cache layout (`Accel::words`), the generator's fingerprint in the last word before it:
//! - where they fit, the colour bitboards, then one bitboard per kind (both colours), each
//!   [`Bits::WORDS`] words or, on boards of 65 to 128 squares, packed at one bit a square;
//! - else, *sliced*: the first colour's bitboard, then the bits of each square's kind number
//!   plus one (0 for an empty square), one bitboard per bit. Decoding a kind costs a few
//!   operations a bit, far less than reading every cell: mandala's nine kinds on 100
//!   squares take five bitboards, not eleven.
//!
//! Every board the generator takes (up to 128 squares, 32 kinds) fits one of the two.

use crate::bitboard::Bits;
use crate::tables::{Compiled, MAX_KINDS};
use houserules_plugin_api::{Cell, Color, Position};

/// Bitboards of a position.
#[derive(Clone, Copy)]
pub struct State<B: Bits> {
    /// Pieces by colour.
    pub color: [B; 2],
    /// Pieces by kind (both colours).
    pub kind: [B; MAX_KINDS],
    /// Every piece.
    pub occ: B,
}

/// Words of the cache.
const CACHE_WORDS: usize = 16;

impl<B: Bits> State<B> {
    /// The pieces of `color` and `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: usize, kind: usize) -> B {
        self.color[color] & self.kind[kind]
    }

    /// The pieces of both colours of the kinds in `kinds` (bit mask; kinds beyond the
    /// tables are none).
    #[inline]
    pub fn of_kinds(&self, kinds: u64) -> B {
        let mut b = B::ZERO;
        let mut m = kinds;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            if let Some(&bb) = self.kind.get(k) {
                b |= bb;
            }
        }
        b
    }
}

/// How a generator's bitboards sit in the cache's words.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Layout {
    /// One bitboard every [`Bits::WORDS`] words.
    Words,
    /// Bitboards of 128 bits packed at `n` bits each (boards of 65 to 128 squares use the
    /// low `n` bits only): xiangqi's and janggi's seven kinds on 90 squares fit this way,
    /// not word by word.
    Packed(usize),
    /// The first colour's bitboard and `planes` bitboards of the kind numbers' bits (kind
    /// plus one), one every [`Bits::WORDS`] words: seven at most, so they need no packing.
    Sliced { planes: usize },
}

/// The low `n` bits (`n` ≤ 128) at bit `at` of `w`.
#[inline(always)]
fn bits_at(w: &[u64; CACHE_WORDS], at: usize, n: usize) -> u128 {
    let (word, shift) = (at / 64, at % 64);
    let lo = w[word] as u128 | (w.get(word + 1).copied().unwrap_or(0) as u128) << 64;
    let mut v = lo >> shift;
    if shift > 0 && n > 128 - shift {
        v |= (w.get(word + 2).copied().unwrap_or(0) as u128) << (128 - shift);
    }
    if n < 128 {
        v & ((1u128 << n) - 1)
    } else {
        v
    }
}

/// Sets the bits of `v` (`n` bits at most) at bit `at` of `w`, whose bits there are clear.
#[inline(always)]
fn put_bits_at(w: &mut [u64; CACHE_WORDS], at: usize, v: u128) {
    let (word, shift) = (at / 64, at % 64);
    w[word] |= (v << shift) as u64;
    if let Some(x) = w.get_mut(word + 1) {
        *x |= ((v << shift) >> 64) as u64;
    }
    if shift > 0 {
        if let Some(x) = w.get_mut(word + 2) {
            *x |= (v >> (128 - shift)) as u64;
        }
    }
}

impl<B: Bits> Compiled<B> {
    fn layout(&self) -> Layout {
        let slots = 2 + self.n_kinds;
        if slots * B::WORDS < CACHE_WORDS {
            Layout::Words
        } else if B::WORDS == 2 && slots * self.geo.n <= (CACHE_WORDS - 1) * 64 {
            Layout::Packed(self.geo.n)
        } else {
            // Kind numbers 1..=n_kinds (at most 32: six bits), one colour: at most seven
            // bitboards of 128 bits, within the fifteen words.
            let planes = (usize::BITS - self.n_kinds.leading_zeros()) as usize;
            Layout::Sliced { planes }
        }
    }

    /// Bitboard `i` of the cache's words (colours, then kinds; or the colour, then planes).
    #[inline(always)]
    fn slot(layout: Layout, w: &[u64; CACHE_WORDS], i: usize) -> B {
        match layout {
            Layout::Packed(n) => {
                let v = bits_at(w, i * n, n);
                B::from_words([v as u64, (v >> 64) as u64])
            }
            Layout::Words | Layout::Sliced { .. } => {
                let o = i * B::WORDS;
                B::from_words([w[o], if B::WORDS > 1 { w[o + 1] } else { 0 }])
            }
        }
    }

    /// The pieces of kind `k` from the sliced cache's planes (`occ`: every piece).
    #[inline(always)]
    fn sliced_kind(planes: &[B; 6], occ: B, k: usize) -> B {
        // Without branches: a bit of the number that is 0 takes the complement (the planes
        // past the layout's are empty, and the number's bits there 0).
        let code = k + 1;
        let mut b = occ;
        for (j, &p) in planes.iter().enumerate() {
            let flip = if code >> j & 1 == 1 {
                B::ZERO
            } else {
                !B::ZERO
            };
            b &= p ^ flip;
        }
        b
    }

    /// The planes of a sliced cache, and every piece (their union).
    #[inline(always)]
    fn planes(layout: Layout, w: &[u64; CACHE_WORDS]) -> ([B; 6], B) {
        let mut planes = [B::ZERO; 6];
        let mut occ = B::ZERO;
        if let Layout::Sliced { planes: n } = layout {
            for (j, p) in planes.iter_mut().enumerate().take(n) {
                *p = Self::slot(layout, w, 1 + j);
                occ |= *p;
            }
        }
        (planes, occ)
    }

    /// The cache's words, where they hold this generator's bitboards.
    #[inline(always)]
    fn cached<'p>(&self, pos: &'p Position, tag: u64) -> Option<(Layout, &'p [u64; CACHE_WORDS])> {
        let a = pos.accel()?;
        (a.words[CACHE_WORDS - 1] == tag).then(|| (self.layout(), &a.words))
    }

    /// The cache's words of `pos` where they hold this generator's bitboards (`tag`).
    #[inline]
    pub(crate) fn cache_words<'p>(
        &self,
        pos: &'p Position,
        tag: u64,
    ) -> Option<&'p [u64; CACHE_WORDS]> {
        self.cached(pos, tag).map(|(_, words)| words)
    }

    /// The bitboards of `pos`.
    #[inline]
    pub fn state(&self, pos: &Position, tag: u64) -> State<B> {
        if let Some((layout, w)) = self.cached(pos, tag) {
            let mut st = State {
                color: [B::ZERO; 2],
                kind: [B::ZERO; MAX_KINDS],
                occ: B::ZERO,
            };
            if let Layout::Sliced { .. } = layout {
                let (planes, occ) = Self::planes(layout, w);
                for k in 0..self.n_kinds {
                    st.kind[k] = Self::sliced_kind(&planes, occ, k);
                }
                st.color[0] = Self::slot(layout, w, 0);
                st.color[1] = occ & !st.color[0];
                st.occ = occ;
                return st;
            }
            st.color = [Self::slot(layout, w, 0), Self::slot(layout, w, 1)];
            for k in 0..self.n_kinds {
                st.kind[k] = Self::slot(layout, w, 2 + k);
            }
            st.occ = st.color[0] | st.color[1];
            return st;
        }
        self.rebuild(pos)
    }

    /// The pieces of `color` of the kinds in `kinds` (bit mask), read from the position's
    /// cache without the rest of its bitboards where it holds this generator's.
    #[inline]
    pub fn pieces_of(&self, pos: &Position, tag: u64, color: usize, kinds: u64) -> B {
        if let Some((layout, w)) = self.cached(pos, tag) {
            // Kinds beyond the tables are none (n_kinds ≤ 32).
            let mut m = kinds & ((1u64 << self.n_kinds) - 1);
            let mut b = B::ZERO;
            if let Layout::Sliced { .. } = layout {
                let (planes, occ) = Self::planes(layout, w);
                while m != 0 {
                    let k = m.trailing_zeros() as usize;
                    m &= m - 1;
                    b |= Self::sliced_kind(&planes, occ, k);
                }
                let first = Self::slot(layout, w, 0);
                return if color == 0 { b & first } else { b & !first };
            }
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                m &= m - 1;
                b |= Self::slot(layout, w, 2 + k);
            }
            return b & Self::slot(layout, w, color);
        }
        let st = self.rebuild(pos);
        st.of_kinds(kinds) & st.color[color]
    }

    /// The bitboards of `pos` from its cells.
    pub fn rebuild(&self, pos: &Position) -> State<B> {
        let mut st = State {
            color: [B::ZERO; 2],
            kind: [B::ZERO; MAX_KINDS],
            occ: B::ZERO,
        };
        let cells = pos.cells();
        for s in self.geo.board.squares() {
            let c = cells[self.geo.to_host[s] as usize];
            if c.0 >= 2 {
                let k = ((c.0 - 2) >> 1) as usize;
                if k < self.n_kinds {
                    let b = B::bit(s);
                    st.color[((c.0 - 2) & 1) as usize] |= b;
                    st.kind[k] |= b;
                }
            }
        }
        st.occ = st.color[0] | st.color[1];
        st
    }

    /// Writes `st` into the position's cache (when it fits).
    #[inline]
    pub fn store(&self, pos: &mut Position, st: &State<B>, tag: u64) {
        let layout = self.layout();
        let w = &mut pos.accel_mut().words;
        let put = |w: &mut [u64; CACHE_WORDS], i: usize, b: B| {
            let x = b.to_words();
            match layout {
                Layout::Packed(n) => put_bits_at(w, i * n, x[0] as u128 | (x[1] as u128) << 64),
                Layout::Words | Layout::Sliced { .. } => {
                    let o = i * B::WORDS;
                    w[o] = x[0];
                    if B::WORDS > 1 {
                        w[o + 1] = x[1];
                    }
                }
            }
        };
        if layout != Layout::Words {
            w.fill(0);
        }
        match layout {
            Layout::Sliced { planes: n } => {
                put(w, 0, st.color[0]);
                for j in 0..n {
                    let plane = (0..self.n_kinds)
                        .filter(|k| (k + 1) >> j & 1 == 1)
                        .fold(B::ZERO, |p, k| p | st.kind[k]);
                    put(w, 1 + j, plane);
                }
            }
            _ => {
                let slots = [st.color[0], st.color[1]]
                    .into_iter()
                    .chain(st.kind[..self.n_kinds].iter().copied());
                for (i, b) in slots.enumerate() {
                    put(w, i, b);
                }
            }
        }
        w[CACHE_WORDS - 1] = tag;
    }

    /// Whether the position's cache holds this generator's bitboards sliced, so that a move
    /// may [`Compiled::patch`] them square by square instead of decoding and encoding them
    /// whole.
    #[inline]
    pub(crate) fn patchable(&self, pos: &Position, tag: u64) -> bool {
        matches!(self.cached(pos, tag), Some((Layout::Sliced { .. }, _)))
    }

    /// Changes square `s` of a sliced cache (see [`Compiled::patchable`]) from what it held
    /// to `cell`: its bit in the colour's bitboard and in each bit's.
    #[inline]
    pub(crate) fn patch(&self, pos: &mut Position, s: usize, cell: Cell) {
        let Layout::Sliced { planes } = self.layout() else {
            return;
        };
        let code = match (cell.kind(), cell.color()) {
            (Some(k), Some(col)) if (k as usize) < self.n_kinds => Some((k as usize + 1, col)),
            _ => None,
        };
        let w = &mut pos.accel_mut().words;
        let mut put = |slot: usize, on: bool| {
            let at = slot * B::WORDS * 64 + s;
            let bit = 1u64 << (at % 64);
            if on {
                w[at / 64] |= bit;
            } else {
                w[at / 64] &= !bit;
            }
        };
        put(0, matches!(code, Some((_, Color::White))));
        for j in 0..planes {
            put(1 + j, code.is_some_and(|(k, _)| k >> j & 1 == 1));
        }
    }

    /// The cell on compact square `s`.
    #[inline(always)]
    pub fn cell(&self, pos: &Position, s: usize) -> Cell {
        pos.cells()[self.geo.to_host[s] as usize]
    }

    /// The kind of the piece on `s` (which must hold one).
    #[inline(always)]
    pub fn kind_at(&self, pos: &Position, s: usize) -> usize {
        ((self.cell(pos, s).0.wrapping_sub(2)) >> 1) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::{bits_at, put_bits_at, Layout, CACHE_WORDS};
    use crate::bitboard::Bits;
    use crate::rules::{PieceRules, Rules};
    use crate::tables::Compiled;
    use houserules_plugin_api::{Cell, Color, Position, Square};

    /// Rules of `kinds` kinds of wazirs on a `files` x `ranks` board.
    fn wazirs<B: Bits>(files: u8, ranks: u8, kinds: usize) -> Compiled<B> {
        let pieces = (0..kinds)
            .map(|k| PieceRules::new((b'A' + k as u8) as char, "W").expect("betza"))
            .collect();
        Compiled::new(&Rules::new(files, ranks, pieces)).expect("rules")
    }

    /// What the cache gives back is what the cells say, in each of its layouts: every
    /// bitboard of `state`, and `pieces_of` for both colours and random sets of kinds (some
    /// beyond the tables), on random boards.
    fn reads_back<B: Bits>(files: u8, ranks: u8, kinds: usize, layout: Layout) {
        let c = wazirs::<B>(files, ranks, kinds);
        assert_eq!(c.layout(), layout, "{files}x{ranks}, {kinds} kinds");
        let mut next = crate::xorshift(0x2545_F491_4F6C_DD1D ^ kinds as u64);
        let tag = 0x5EED;
        for _ in 0..200 {
            let mut pos = Position::empty(files, ranks);
            for f in 0..files {
                for r in 0..ranks {
                    let x = next();
                    if !x.is_multiple_of(3) {
                        let colour = if x & 8 == 0 {
                            Color::White
                        } else {
                            Color::Black
                        };
                        let kind = ((x >> 8) % kinds as u64) as u8;
                        pos.set(Square::new(f, r), Cell::piece(kind, colour));
                    }
                }
            }
            let cells = c.rebuild(&pos);
            c.store(&mut pos, &cells, tag);
            let read = c.state(&pos, tag);
            assert!(
                read.color == cells.color && read.occ == cells.occ,
                "{layout:?}"
            );
            assert!(read.kind == cells.kind, "{layout:?}");
            for _ in 0..4 {
                let mask = next() >> (next() % 64);
                for colour in 0..2 {
                    assert!(
                        c.pieces_of(&pos, tag, colour, mask)
                            == cells.of_kinds(mask) & cells.color[colour],
                        "{layout:?}, kinds {mask:#x}"
                    );
                }
            }
        }
    }

    /// Mandala's nine kinds on 100 squares, chak's twelve on 81 and 32 kinds on 128 do not
    /// fit a bitboard a kind: they are sliced; xiangqi's seven on 90 and chess's six are not.
    #[test]
    fn every_layout_of_the_cache_reads_back_as_the_cells_say() {
        reads_back::<u64>(8, 8, 6, Layout::Words);
        reads_back::<u64>(8, 8, 14, Layout::Sliced { planes: 4 });
        reads_back::<u128>(9, 10, 7, Layout::Packed(90));
        reads_back::<u128>(10, 10, 9, Layout::Sliced { planes: 4 });
        reads_back::<u128>(9, 9, 12, Layout::Sliced { planes: 4 });
        reads_back::<u128>(16, 8, 32, Layout::Sliced { planes: 6 });
    }

    /// Bitboards of every width from 65 to 128 squares, packed as many as fit before the
    /// tag's word, read back unchanged, and the tag's word untouched.
    #[test]
    fn packed_bitboards_read_back_as_written() {
        let mut next = crate::xorshift(0x9E37_79B9_7F4A_7C15);
        for n in 65..=128usize {
            let slots = (CACHE_WORDS - 1) * 64 / n;
            let mask = if n == 128 {
                u128::MAX
            } else {
                (1u128 << n) - 1
            };
            let values: Vec<u128> = (0..slots)
                .map(|_| (next() as u128 | (next() as u128) << 64) & mask)
                .collect();
            let mut w = [0u64; CACHE_WORDS];
            for (i, &v) in values.iter().enumerate() {
                put_bits_at(&mut w, i * n, v);
            }
            assert_eq!(w[CACHE_WORDS - 1], 0, "width {n}: the tag's word");
            for (i, &v) in values.iter().enumerate() {
                assert_eq!(bits_at(&w, i * n, n), v, "width {n}, slot {i}");
            }
        }
    }
}
