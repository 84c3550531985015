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
}

impl<B: Bits> Compiled<B> {
    /// Whether this generator's bitboards fit the position cache.
    pub fn cacheable(&self) -> bool {
        (2 + self.n_kinds) * B::WORDS < CACHE_WORDS
    }

    /// The bitboards of `pos`.
    #[inline]
    pub fn state(&self, pos: &Position, tag: u64) -> State<B> {
        if let Some(a) = pos.accel() {
            if a.words[CACHE_WORDS - 1] == tag && self.cacheable() {
                let w = &a.words;
                let get = |i: usize| {
                    let o = i * B::WORDS;
                    B::from_words([w[o], if B::WORDS > 1 { w[o + 1] } else { 0 }])
                };
                let mut st = State {
                    color: [get(0), get(1)],
                    kind: [B::ZERO; MAX_KINDS],
                    occ: B::ZERO,
                };
                for k in 0..self.n_kinds {
                    st.kind[k] = get(2 + k);
                }
                st.occ = st.color[0] | st.color[1];
                return st;
            }
        }
        self.rebuild(pos)
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
        if !self.cacheable() {
            pos.invalidate_accel();
            return;
        }
        let w = &mut pos.accel_mut().words;
        let mut put = |i: usize, b: B| {
            let x = b.to_words();
            let o = i * B::WORDS;
            w[o] = x[0];
            if B::WORDS > 1 {
                w[o + 1] = x[1];
            }
        };
        put(0, st.color[0]);
        put(1, st.color[1]);
        for k in 0..self.n_kinds {
            put(2 + k, st.kind[k]);
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
