//! The board as the generator sees it: compact square index (`rank * files + file`), the
//! conversion to and from the host's [`Square`], steps with the topology applied, and rays
//! split into runs that are monotonic in the compact index (so that the first piece on a run
//! is one bit scan away, whatever the topology).

use crate::bitboard::Bits;
use crate::rules::Topology;
use houserules_plugin_api::{Square, SquareSet};

/// Most runs a ray is split into (a wrapped rank: 2; two rank reflections: 3).
pub const MAX_RUNS: usize = 4;

/// A ray from a square: its squares in order, as monotonic runs.
#[derive(Debug, Clone, Copy)]
pub struct Ray<B: Bits> {
    /// The runs, in order; unused ones are zero.
    pub runs: [B; MAX_RUNS],
    /// Whether run `i` goes towards higher indices.
    pub up: [bool; MAX_RUNS],
    /// Every square of the ray.
    pub all: B,
    /// The ray is one run (no wrap or bounce on it): the common, fast case.
    pub single: bool,
    /// Direction of the single run.
    pub single_up: bool,
}

impl<B: Bits> Default for Ray<B> {
    fn default() -> Self {
        Ray {
            runs: [B::ZERO; MAX_RUNS],
            up: [true; MAX_RUNS],
            all: B::ZERO,
            single: true,
            single_up: true,
        }
    }
}

impl<B: Bits> Ray<B> {
    /// The squares of the ray up to and including the first occupied one.
    #[inline(always)]
    pub fn blocked(&self, occ: B) -> B {
        let hit = self.all & occ;
        if hit.is_empty() {
            return self.all;
        }
        if self.single {
            return if self.single_up {
                self.all & B::upto(hit.lsb())
            } else {
                self.all & B::from_sq(hit.msb())
            };
        }
        let mut acc = B::ZERO;
        for i in 0..MAX_RUNS {
            let run = self.runs[i];
            let h = run & occ;
            if !h.is_empty() {
                return acc
                    | if self.up[i] {
                        run & B::upto(h.lsb())
                    } else {
                        run & B::from_sq(h.msb())
                    };
            }
            acc |= run;
        }
        acc
    }
    /// The first occupied square of the ray, if any.
    #[inline(always)]
    pub fn first(&self, occ: B) -> Option<usize> {
        let hit = self.all & occ;
        if hit.is_empty() {
            return None;
        }
        if self.single {
            return Some(if self.single_up { hit.lsb() } else { hit.msb() });
        }
        for i in 0..MAX_RUNS {
            let h = self.runs[i] & occ;
            if !h.is_empty() {
                return Some(if self.up[i] { h.lsb() } else { h.msb() });
            }
        }
        None
    }
}

/// Board shape and topology, compiled.
#[derive(Debug, Clone)]
pub struct Geometry<B: Bits> {
    /// Files.
    pub files: usize,
    /// Ranks.
    pub ranks: usize,
    /// Squares of the rectangle (`files * ranks`).
    pub n: usize,
    /// Squares of the board (holes excluded).
    pub board: B,
    /// Compact index → host square byte.
    pub to_host: [u8; 128],
    /// Host square byte → compact index (0xFF off the board).
    pub from_host: [u8; 256],
    /// Edges.
    pub topology: Topology,
}

impl<B: Bits> Geometry<B> {
    /// The geometry of `files` x `ranks` with `holes`.
    pub fn new(files: u8, ranks: u8, holes: &SquareSet, topology: Topology) -> Geometry<B> {
        let (files, ranks) = (files as usize, ranks as usize);
        let n = files * ranks;
        let mut to_host = [0xFFu8; 128];
        let mut from_host = [0xFFu8; 256];
        let mut board = B::ZERO;
        for r in 0..ranks {
            for f in 0..files {
                let i = r * files + f;
                let h = Square::new(f as u8, r as u8);
                to_host[i] = h.0;
                if !holes.contains(h) {
                    from_host[h.index()] = i as u8;
                    board |= B::bit(i);
                }
            }
        }
        Geometry {
            files,
            ranks,
            n,
            board,
            to_host,
            from_host,
            topology,
        }
    }

    /// File of a compact square.
    #[inline(always)]
    pub fn file(&self, s: usize) -> usize {
        s % self.files
    }
    /// Rank of a compact square.
    #[inline(always)]
    pub fn rank(&self, s: usize) -> usize {
        s / self.files
    }
    /// Whether compact square `s` is on the board.
    #[inline(always)]
    pub fn on(&self, s: usize) -> bool {
        s < self.n && self.board.has(s)
    }
    /// The host square of `s`.
    #[inline(always)]
    pub fn host(&self, s: usize) -> Square {
        Square(self.to_host[s])
    }
    /// The compact square of a host square, if it is on the board.
    #[inline(always)]
    pub fn compact(&self, sq: Square) -> Option<usize> {
        let c = self.from_host[sq.index()];
        (c != 0xFF).then_some(c as usize)
    }
    /// A host square set as a bitboard (squares off the board dropped).
    pub fn set(&self, s: &SquareSet) -> B {
        let mut b = B::ZERO;
        for sq in s.iter() {
            if let Some(c) = self.compact(sq) {
                b |= B::bit(c);
            }
        }
        b
    }
    /// A bitboard as a host square set.
    #[inline]
    pub fn host_set(&self, b: B) -> SquareSet {
        // Rank by rank: a compact rank is `files` bits in a row, a host rank the low bits
        // of a 16-bit lane (amazons turns thousands of arrow sets a node).
        let w = b.to_words();
        let mut bits = u128::from(w[0]) | u128::from(w[1]) << 64;
        let row = (1u128 << self.files) - 1;
        let mut s = SquareSet::EMPTY;
        let mut r = 0;
        while bits != 0 {
            s.0[r >> 2] |= ((bits & row) as u64) << ((r & 3) * 16);
            bits >>= self.files;
            r += 1;
        }
        s
    }

    /// The square `(df, dr)` from `s` with the topology's wrap (no bounce), if on the board.
    #[inline]
    pub fn step(&self, s: usize, df: i32, dr: i32) -> Option<usize> {
        let mut f = self.file(s) as i32 + df;
        let r = self.rank(s) as i32 + dr;
        if r < 0 || r >= self.ranks as i32 {
            return None;
        }
        if self.topology.wrap_files {
            f = f.rem_euclid(self.files as i32);
        } else if f < 0 || f >= self.files as i32 {
            return None;
        }
        let t = r as usize * self.files + f as usize;
        self.on(t).then_some(t)
    }

    /// The squares a rider leaves `s` through in direction `(df, dr)` on an empty board, in
    /// order: it stops at the edge, before a hole and before returning to `s`; with `bounce`
    /// its diagonal reflects off the edges the topology says.
    pub fn ray_squares(&self, s: usize, df: i32, dr: i32, bounce: bool) -> Vec<usize> {
        let t = self.topology;
        let bounce = bounce && df.abs() == 1 && dr.abs() == 1;
        let (mut df, mut dr) = (df, dr);
        let mut out = Vec::new();
        let mut cur = s;
        let mut used = 0u8;
        loop {
            let mut nf = self.file(cur) as i32 + df;
            let nr = self.rank(cur) as i32 + dr;
            if t.wrap_files {
                nf = nf.rem_euclid(self.files as i32);
            }
            let off_f = nf < 0 || nf >= self.files as i32;
            let off_r = nr < 0 || nr >= self.ranks as i32;
            if off_f || off_r {
                if !bounce || (off_f && off_r) || used >= t.max_reflections {
                    break;
                }
                if (off_f && !t.bounce_files) || (off_r && !t.bounce_ranks) {
                    break;
                }
                used += 1;
                if off_f {
                    df = -df;
                } else {
                    dr = -dr;
                }
                continue;
            }
            let to = nr as usize * self.files + nf as usize;
            if to == s || !self.on(to) || out.contains(&to) {
                break;
            }
            out.push(to);
            cur = to;
        }
        out
    }

    /// A ray as monotonic runs.
    pub fn ray(&self, squares: &[usize]) -> Ray<B> {
        let mut ray: Ray<B> = Ray::default();
        let (mut k, mut len, mut last) = (0usize, 0usize, 0usize);
        for &sq in squares {
            if len == 1 {
                ray.up[k] = sq > last;
            } else if len >= 2 && ray.up[k] != (sq > last) {
                k += 1;
                len = 0;
                if k >= MAX_RUNS {
                    break;
                }
            }
            ray.runs[k] |= B::bit(sq);
            ray.all |= B::bit(sq);
            len += 1;
            last = sq;
        }
        ray.single = ray.runs[1].is_empty();
        ray.single_up = ray.up[0];
        ray
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geo(wrap: bool) -> Geometry<u64> {
        Geometry::new(
            8,
            8,
            &SquareSet::EMPTY,
            Topology {
                wrap_files: wrap,
                ..Default::default()
            },
        )
    }

    #[test]
    fn rays_and_runs() {
        let g = geo(false);
        let e4 = 3 * 8 + 4;
        let north = g.ray_squares(e4, 0, 1, false);
        assert_eq!(north, vec![36, 44, 52, 60]);
        let r = g.ray(&north);
        assert_eq!(r.blocked(1u64 << 44), (1 << 36) | (1 << 44));
        assert_eq!(r.first(1u64 << 52), Some(52));
        // Wrapped rank: east from e4 goes f4 g4 h4 a4 b4 c4 d4: two rising runs.
        let g = geo(true);
        let east = g.ray_squares(e4, 1, 0, false);
        assert_eq!(east, vec![29, 30, 31, 24, 25, 26, 27]);
        let r = g.ray(&east);
        assert_eq!(
            r.blocked(1u64 << 25),
            (0b111u64 << 29) | (1 << 24) | (1 << 25)
        );
        assert_eq!(r.first((1u64 << 25) | (1 << 26)), Some(25));
        let west = g.ray_squares(e4, -1, 0, false);
        let r = g.ray(&west);
        assert_eq!(r.first((1u64 << 30) | (1 << 26)), Some(26));
        assert_eq!(r.first(1u64 << 30), Some(30));
    }

    #[test]
    fn bounced_rays() {
        let t = Topology {
            bounce_files: true,
            bounce_ranks: true,
            max_reflections: 2,
            ..Default::default()
        };
        let g: Geometry<u64> = Geometry::new(8, 8, &SquareSet::EMPTY, t);
        let d4 = 3 * 8 + 3;
        // NW: c5 b6 a7, off the a-file: b8, off rank 8: c7 d6 e5 f4 g3 h2.
        let sq = |s: &str| {
            let b = s.as_bytes();
            ((b[1] - b'1') as usize) * 8 + (b[0] - b'a') as usize
        };
        let want: Vec<usize> = ["c5", "b6", "a7", "b8", "c7", "d6", "e5", "f4", "g3", "h2"]
            .iter()
            .map(|s| sq(s))
            .collect();
        let got = g.ray_squares(d4, -1, 1, true);
        assert_eq!(got, want);
        let r = g.ray(&got);
        assert_eq!(r.first(1u64 << sq("e5")), Some(sq("e5")));
        assert_eq!(
            r.first((1u64 << sq("e5")) | (1 << sq("c7"))),
            Some(sq("c7"))
        );
        // A corner stops the ray: NE from d4 ends on h8.
        assert_eq!(g.ray_squares(d4, 1, 1, true).last(), Some(&63));
    }

    /// Host sets from bitboards, rank by rank, are the sets of their squares one by one,
    /// on boards from 1 to 16 files, narrow and wide bitboards, holes included; and back.
    #[test]
    fn host_sets_hold_each_square_of_the_bitboard() {
        fn check<B: Bits>(files: u8, ranks: u8, random: &mut impl FnMut() -> u64) {
            let mut holes = SquareSet::EMPTY;
            holes.insert(Square::new(files / 2, ranks / 2));
            let g: Geometry<B> = Geometry::new(files, ranks, &holes, Topology::default());
            for _ in 0..50 {
                let b = B::from_words([random(), random()]) & g.board;
                let mut want = SquareSet::EMPTY;
                for c in b.squares() {
                    want.insert(g.host(c));
                }
                let got = g.host_set(b);
                assert_eq!(got, want, "{files}x{ranks}");
                assert!(g.set(&got) == b, "{files}x{ranks}");
            }
        }
        let mut random = crate::xorshift(0x9E37_79B9_7F4A_7C15);
        for (files, ranks) in [(8, 8), (1, 8), (7, 9), (4, 16)] {
            check::<u64>(files, ranks, &mut random);
        }
        for (files, ranks) in [(10, 10), (12, 10), (16, 8), (9, 10), (11, 11)] {
            check::<u128>(files, ranks, &mut random);
        }
    }
}
