//! The bitboards of a [`Position`]: read from the position's cache when it holds this
//! generator's, rebuilt from the cells otherwise.
//!
//! Cache layout (`Accel::words`): colour bitboards, then one bitboard per kind (both colours),
//! each [`Bits::WORDS`] words, and the generator's fingerprint in the last word. It is only
//! used when everything fits (kinds ≤ 13 on boards of 64 squares, ≤ 5 on larger ones).

use crate::bitboard::Bits;
use crate::tables::{Compiled, MAX_KINDS};
use houserules_plugin_api::{Cell, Position};

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
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// One bitboard every [`Bits::WORDS`] words.
    Words,
    /// Bitboards of 128 bits packed at `n` bits each (boards of 65 to 128 squares use the
    /// low `n` bits only): xiangqi's and janggi's seven kinds on 90 squares fit this way,
    /// not word by word.
    Packed(usize),
    /// They do not fit.
    None,
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
            Layout::None
        }
    }

    /// Whether this generator's bitboards fit the position cache.
    pub fn cacheable(&self) -> bool {
        self.layout() != Layout::None
    }

    /// Bitboard `i` of the cache's words (colours, then kinds).
    #[inline(always)]
    fn slot(layout: Layout, w: &[u64; CACHE_WORDS], i: usize) -> B {
        match layout {
            Layout::Packed(n) => {
                let v = bits_at(w, i * n, n);
                B::from_words([v as u64, (v >> 64) as u64])
            }
            _ => {
                let o = i * B::WORDS;
                B::from_words([w[o], if B::WORDS > 1 { w[o + 1] } else { 0 }])
            }
        }
    }

    /// The cache's words, where they hold this generator's bitboards.
    #[inline(always)]
    fn cached<'p>(&self, pos: &'p Position, tag: u64) -> Option<(Layout, &'p [u64; CACHE_WORDS])> {
        let a = pos.accel()?;
        let layout = self.layout();
        (a.words[CACHE_WORDS - 1] == tag && layout != Layout::None).then_some((layout, &a.words))
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
                color: [Self::slot(layout, w, 0), Self::slot(layout, w, 1)],
                kind: [B::ZERO; MAX_KINDS],
                occ: B::ZERO,
            };
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
            let mut b = B::ZERO;
            let mut m = kinds;
            while m != 0 {
                let k = m.trailing_zeros() as usize;
                m &= m - 1;
                if k < self.n_kinds {
                    b |= Self::slot(layout, w, 2 + k);
                }
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
        if layout == Layout::None {
            pos.invalidate_accel();
            return;
        }
        let w = &mut pos.accel_mut().words;
        let slots = std::iter::once(st.color[0])
            .chain(std::iter::once(st.color[1]))
            .chain(st.kind[..self.n_kinds].iter().copied());
        match layout {
            Layout::Packed(n) => {
                w.fill(0);
                for (i, b) in slots.enumerate() {
                    let x = b.to_words();
                    put_bits_at(w, i * n, x[0] as u128 | (x[1] as u128) << 64);
                }
            }
            _ => {
                for (i, b) in slots.enumerate() {
                    let x = b.to_words();
                    let o = i * B::WORDS;
                    w[o] = x[0];
                    if B::WORDS > 1 {
                        w[o + 1] = x[1];
                    }
                }
            }
        }
        w[CACHE_WORDS - 1] = tag;
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
    use super::{bits_at, put_bits_at, CACHE_WORDS};

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
