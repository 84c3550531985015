//! The Rook Mania rules engine: the hourglass board as static tables, a compact board
//! (mailbox of 63 cells plus per-colour occupancy masks), move generation, making moves,
//! immobilization and the attack test.
//!
//! Squares are indexed `rank * 7 + file` (0..63); the 20 cells of the 7 x 9 rectangle that are
//! not part of the hourglass are holes and never appear in the step tables.

// Directions are indices 0..4 (N, E, S, W; the opposite of `d` is `d ^ 2`) into the step
// tables: index loops say that more plainly than iterator chains.
#![allow(clippy::needless_range_loop)]

use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{Cell, Color, Move, MoveFlags, Position, Square};

/// Board width.
pub const FILES: u8 = 7;
/// Board height.
pub const RANKS: u8 = 9;
/// Cells of the rectangle.
pub const NSQ: usize = 63;
/// "No square" in the tables.
pub const NONE: u8 = 255;

/// Piece kinds (index into the piece table): K R C S B T H P.
pub mod kind {
    /// King.
    pub const KING: u8 = 0;
    /// Rook.
    pub const ROOK: u8 = 1;
    /// Pao (cannon).
    pub const PAO: u8 = 2;
    /// Slip Rook.
    pub const SLIP: u8 = 3;
    /// Basilisk.
    pub const BASILISK: u8 = 4;
    /// Twostep.
    pub const TWOSTEP: u8 = 5;
    /// Threestep.
    pub const THREESTEP: u8 = 6;
    /// Pawn.
    pub const PAWN: u8 = 7;
}

/// `Move::special` code of a pistol shot.
pub const SHOT: u16 = 1;

/// Half-width of each rank of the hourglass (rank 1 first): rank r spans files
/// `3 - HALF[r] ..= 3 + HALF[r]`.
const HALF: [i32; 9] = [1, 2, 3, 2, 1, 2, 3, 2, 1];

/// Whether file `f`, rank `r` (0-based) is a square of the hourglass.
pub const fn on_board_fr(f: i32, r: i32) -> bool {
    if f < 0 || r < 0 || f >= FILES as i32 || r >= RANKS as i32 {
        return false;
    }
    let h = HALF[r as usize];
    f >= 3 - h && f <= 3 + h
}

/// The four orthogonal directions: N, E, S, W (the opposite of `d` is `d ^ 2`).
pub const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

const fn build_on_board() -> [bool; NSQ] {
    let mut t = [false; NSQ];
    let mut i = 0;
    while i < NSQ {
        t[i] = on_board_fr((i % 7) as i32, (i / 7) as i32);
        i += 1;
    }
    t
}

const fn build_steps(n: i32) -> [[u8; 4]; NSQ] {
    let mut t = [[NONE; 4]; NSQ];
    let mut i = 0;
    while i < NSQ {
        let f = (i % 7) as i32;
        let r = (i / 7) as i32;
        if on_board_fr(f, r) {
            let mut d = 0;
            while d < 4 {
                let nf = f + DIRS[d].0 * n;
                let nr = r + DIRS[d].1 * n;
                if on_board_fr(nf, nr) {
                    t[i][d] = (nr * 7 + nf) as u8;
                }
                d += 1;
            }
        }
        i += 1;
    }
    t
}

const fn build_squares() -> [u8; 43] {
    let mut t = [0u8; 43];
    let mut n = 0;
    let mut i = 0;
    while i < NSQ {
        if on_board_fr((i % 7) as i32, (i / 7) as i32) {
            t[n] = i as u8;
            n += 1;
        }
        i += 1;
    }
    t
}

/// Whether a cell index is a square of the board.
pub static ON_BOARD: [bool; NSQ] = build_on_board();
/// One orthogonal step (holes and the edge give [`NONE`]).
pub static STEP: [[u8; 4]; NSQ] = build_steps(1);
/// A two-square leap (passes over anything; the landing square must be on the board).
pub static LEAP2: [[u8; 4]; NSQ] = build_steps(2);
/// The 43 squares of the board, a1 side first.
pub static SQUARES: [u8; 43] = build_squares();

/// The API square of a cell index.
#[inline]
pub fn square_of(i: u8) -> Square {
    Square::new(i % 7, i / 7)
}

/// The cell index of an API square ([`NONE`] outside the board or on a hole).
#[inline]
pub fn index_of(sq: Square) -> u8 {
    if sq.is_none() || sq.file() >= FILES || sq.rank() >= RANKS {
        return NONE;
    }
    let i = sq.rank() * 7 + sq.file();
    if ON_BOARD[i as usize] {
        i
    } else {
        NONE
    }
}

/// The cell byte of a piece (as [`Cell`]).
#[inline]
pub const fn code(k: u8, color: usize) -> u8 {
    2 + (k << 1) + color as u8
}
#[inline]
fn kind_of(cell: u8) -> u8 {
    (cell - 2) >> 1
}
#[inline]
fn color_of(cell: u8) -> usize {
    ((cell - 2) & 1) as usize
}
#[inline]
fn is_color(cell: u8, color: usize) -> bool {
    cell >= 2 && ((cell - 2) & 1) as usize == color
}
#[inline]
fn file(i: usize) -> i32 {
    (i % 7) as i32
}
#[inline]
fn rank(i: usize) -> i32 {
    (i / 7) as i32
}

/// The direction from `a` to `b` when they share a file or rank (and differ).
#[inline]
fn line_dir(a: usize, b: usize) -> Option<usize> {
    if a == b {
        None
    } else if file(a) == file(b) {
        Some(if rank(b) > rank(a) { 0 } else { 2 })
    } else if rank(a) == rank(b) {
        Some(if file(b) > file(a) { 1 } else { 3 })
    } else {
        None
    }
}

/// Pieces captured by one move (at most 4: custodian captures take at most three).
#[derive(Clone, Copy, Debug, Default)]
pub struct Captures {
    /// Number of entries.
    pub n: u8,
    /// Squares (cell indices).
    pub sq: [u8; 4],
    /// What stood there.
    pub cell: [u8; 4],
}

impl Captures {
    fn push(&mut self, sq: u8, cell: u8) {
        if (self.n as usize) < 4 {
            self.sq[self.n as usize] = sq;
            self.cell[self.n as usize] = cell;
            self.n += 1;
        }
    }
    /// The captures as (index, cell) pairs.
    pub fn iter(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        (0..self.n as usize).map(move |i| (self.sq[i], self.cell[i]))
    }
}

/// A compact board: cells, occupancy per colour, king squares, pawn counts and shots left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Cell bytes ([`Cell`] values; holes are never read).
    pub cells: [u8; 64],
    /// Occupied squares per colour (bit = cell index).
    pub occ: [u64; 2],
    /// King square per colour, or [`NONE`].
    pub king: [u8; 2],
    /// Number of pawns per colour.
    pub pawns: [u8; 2],
    /// Pistol shots left per colour.
    pub shots: [u8; 2],
}

impl Board {
    /// The board of a position.
    pub fn from_position(pos: &Position) -> Board {
        let mut b = Board {
            cells: [0; 64],
            occ: [0; 2],
            king: [NONE; 2],
            pawns: [0; 2],
            shots: [
                pos.variant_state[0].min(9) as u8,
                pos.variant_state[1].min(9) as u8,
            ],
        };
        for i in 0..NSQ {
            if !ON_BOARD[i] {
                b.cells[i] = Cell::HOLE.0;
            }
        }
        for &i in SQUARES.iter() {
            let c = pos.get(square_of(i)).0;
            if c >= 2 {
                b.put(i as usize, c);
            }
        }
        b
    }

    #[inline]
    fn put(&mut self, i: usize, c: u8) {
        self.cells[i] = c;
        let col = color_of(c);
        self.occ[col] |= 1u64 << i;
        match kind_of(c) {
            kind::KING => self.king[col] = i as u8,
            kind::PAWN => self.pawns[col] += 1,
            _ => {}
        }
    }

    #[inline]
    fn remove(&mut self, i: usize) -> u8 {
        let c = self.cells[i];
        if c < 2 {
            return c;
        }
        let col = color_of(c);
        self.cells[i] = 0;
        self.occ[col] &= !(1u64 << i);
        match kind_of(c) {
            kind::KING if self.king[col] as usize == i => self.king[col] = NONE,
            kind::PAWN => self.pawns[col] -= 1,
            _ => {}
        }
        c
    }

    /// Pieces of `victims` immobilized by the Basilisks of the other colour: in each direction
    /// a Basilisk freezes the first piece it sees (holes block sight) if that piece is an
    /// enemy other than a Basilisk.
    pub fn frozen(&self, victims: usize) -> u64 {
        let bas = code(kind::BASILISK, victims ^ 1);
        let mut out = 0u64;
        let mut bb = self.occ[victims ^ 1];
        while bb != 0 {
            let s = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            if self.cells[s] != bas {
                continue;
            }
            for d in 0..4 {
                let mut t = STEP[s][d];
                while t != NONE {
                    let c = self.cells[t as usize];
                    if c != 0 {
                        if is_color(c, victims) && kind_of(c) != kind::BASILISK {
                            out |= 1u64 << t;
                        }
                        break;
                    }
                    t = STEP[t as usize][d];
                }
            }
        }
        out
    }

    /// What a pawn of `c` moving from `from` to the empty square `to` captures (a mask):
    /// custodian captures with another pawn of `c` as the anvil, or, when `c` has exactly one
    /// pawn, coordinator captures with `c`'s King.
    pub fn pawn_captures(&self, c: usize, from: usize, to: usize) -> u64 {
        let mut m = 0u64;
        if self.pawns[c] == 1 {
            let k = self.king[c];
            if k == NONE {
                return 0;
            }
            let k = k as usize;
            for (f, r) in [(file(k), rank(to)), (file(to), rank(k))] {
                if on_board_fr(f, r) {
                    let i = (r * 7 + f) as usize;
                    if is_color(self.cells[i], c ^ 1) {
                        m |= 1u64 << i;
                    }
                }
            }
        } else {
            let anvil = code(kind::PAWN, c);
            for d in 0..4 {
                let a = STEP[to][d];
                if a != NONE && is_color(self.cells[a as usize], c ^ 1) {
                    let b = STEP[a as usize][d];
                    if b != NONE && b as usize != from && self.cells[b as usize] == anvil {
                        m |= 1u64 << a;
                    }
                }
            }
        }
        m
    }

    /// Whether the (not immobilized) piece on `p` has a move that captures a piece on `t`.
    pub fn can_capture(&self, p: usize, t: usize) -> bool {
        let c = self.cells[p];
        let col = color_of(c);
        match kind_of(c) {
            kind::KING => (0..4).any(|d| STEP[p][d] as usize == t),
            kind::ROOK => match line_dir(p, t) {
                Some(d) => self.first_piece(p, d) == t as u8,
                None => false,
            },
            kind::PAO => match line_dir(p, t) {
                Some(d) => {
                    let screen = self.first_piece(p, d);
                    screen != NONE && self.first_piece(screen as usize, d) == t as u8
                }
                None => false,
            },
            kind::SLIP => match line_dir(p, t) {
                Some(d) => {
                    let mut s = STEP[p][d];
                    while s != NONE {
                        if s as usize == t {
                            return true;
                        }
                        if self.cells[s as usize] != 0 {
                            return false;
                        }
                        s = LEAP2[s as usize][d];
                    }
                    false
                }
                None => false,
            },
            kind::BASILISK => false,
            kind::TWOSTEP => {
                if (file(p) - file(t)).abs() + (rank(p) - rank(t)).abs() != 2 {
                    return false;
                }
                for d1 in 0..4 {
                    let a = STEP[p][d1];
                    if a == NONE || self.cells[a as usize] != 0 {
                        continue;
                    }
                    for d2 in 0..4 {
                        if d2 != d1 ^ 2 && STEP[a as usize][d2] as usize == t {
                            return true;
                        }
                    }
                }
                false
            }
            kind::THREESTEP => {
                let dist = (file(p) - file(t)).abs() + (rank(p) - rank(t)).abs();
                if dist != 1 && dist != 3 {
                    return false;
                }
                for d1 in 0..4 {
                    let a = STEP[p][d1];
                    if a == NONE || self.cells[a as usize] != 0 {
                        continue;
                    }
                    for d2 in 0..4 {
                        if d2 == d1 ^ 2 {
                            continue;
                        }
                        let b = STEP[a as usize][d2];
                        if b == NONE || self.cells[b as usize] != 0 {
                            continue;
                        }
                        for d3 in 0..4 {
                            if d3 != d2 ^ 2 && STEP[b as usize][d3] as usize == t {
                                return true;
                            }
                        }
                    }
                }
                false
            }
            _ => {
                // Pawn: some slide ends where the capture rule takes the piece on `t`.
                if self.pawns[col] == 1 {
                    let k = self.king[col];
                    if k == NONE || (file(k as usize) != file(t) && rank(k as usize) != rank(t)) {
                        return false;
                    }
                } else {
                    // Quick test: a friendly pawn must stand next to `t` as the anvil.
                    let anvil = code(kind::PAWN, col);
                    if !(0..4).any(|d| {
                        let a = STEP[t][d];
                        a != NONE && self.cells[a as usize] == anvil
                    }) {
                        return false;
                    }
                }
                for d in 0..4 {
                    let mut s = STEP[p][d];
                    while s != NONE && self.cells[s as usize] == 0 {
                        if self.pawn_captures(col, p, s as usize) >> t & 1 != 0 {
                            return true;
                        }
                        s = STEP[s as usize][d];
                    }
                }
                false
            }
        }
    }

    /// The first non-empty square from `p` in direction `d` (holes end the line), or NONE.
    #[inline]
    fn first_piece(&self, p: usize, d: usize) -> u8 {
        let mut s = STEP[p][d];
        while s != NONE && self.cells[s as usize] == 0 {
            s = STEP[s as usize][d];
        }
        s
    }

    /// Whether a piece of `by` (not immobilized) could capture a piece standing on `t`.
    pub fn attacked(&self, t: usize, by: usize) -> bool {
        let frozen = self.frozen(by);
        let pawn = code(kind::PAWN, by);
        if self.pawns[by] >= 2 {
            // Custodian threats, seen from the target: an empty landing square L next to `t`,
            // a pawn of `by` behind `t` opposite L, and a free pawn of `by` sliding to L.
            for d in 0..4 {
                let l = STEP[t][d];
                let a = STEP[t][d ^ 2];
                if l == NONE
                    || a == NONE
                    || self.cells[l as usize] != 0
                    || self.cells[a as usize] != pawn
                {
                    continue;
                }
                for e in 0..4 {
                    let p = self.first_piece(l as usize, e);
                    if p != NONE && self.cells[p as usize] == pawn && frozen >> p & 1 == 0 {
                        return true;
                    }
                }
            }
        }
        let mut bb = self.occ[by] & !frozen;
        while bb != 0 {
            let p = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            if (self.pawns[by] >= 2 && self.cells[p] == pawn) || !self.can_capture(p, t) {
                continue;
            }
            return true;
        }
        false
    }

    /// Whether `c`'s King is attacked (false without a King).
    #[inline]
    pub fn in_check(&self, c: usize) -> bool {
        let k = self.king[c];
        k != NONE && self.attacked(k as usize, c ^ 1)
    }

    /// The piece `c`'s King may shoot in direction `d`, if any: the first piece along the
    /// line, an enemy other than a King or Basilisk, not immobilized, that gives check.
    fn shot_target(&self, c: usize, k: usize, d: usize, enemy_frozen: u64) -> Option<usize> {
        let t = self.first_piece(k, d);
        if t == NONE {
            return None;
        }
        let t = t as usize;
        let cell = self.cells[t];
        if !is_color(cell, c ^ 1)
            || matches!(kind_of(cell), kind::KING | kind::BASILISK)
            || enemy_frozen >> t & 1 != 0
            || !self.can_capture(t, k)
        {
            return None;
        }
        Some(t)
    }

    /// Pseudo-legal moves of `c` (everything but the self-check filter), skipping the
    /// pieces on the squares of `skip` (a mask of cell indices).
    pub fn pseudo_moves(&self, c: usize, skip: u64, out: &mut RVec<Move>) {
        let frozen = self.frozen(c);
        let mut bb = self.occ[c] & !skip;
        while bb != 0 {
            let from = bb.trailing_zeros() as usize;
            bb &= bb - 1;
            let k = kind_of(self.cells[from]);
            if k == kind::KING && self.shots[c] > 0 {
                let enemy_frozen = self.frozen(c ^ 1);
                for d in 0..4 {
                    if let Some(t) = self.shot_target(c, from, d, enemy_frozen) {
                        out.push(Move {
                            from: square_of(from as u8),
                            to: square_of(t as u8),
                            flags: MoveFlags::SPECIAL | MoveFlags::CAPTURE,
                            piece: Move::NO_PIECE,
                            via: Square::NONE,
                            special: SHOT,
                        });
                    }
                }
            }
            if frozen >> from & 1 != 0 {
                continue;
            }
            match k {
                kind::KING => {
                    for d in 0..4 {
                        let t = STEP[from][d];
                        if t != NONE {
                            self.target(c, from, t as usize, out);
                        }
                    }
                }
                kind::ROOK => {
                    for d in 0..4 {
                        let t = self.slide_quiet(c, from, d, out);
                        if t != NONE {
                            self.target(c, from, t as usize, out);
                        }
                    }
                }
                kind::BASILISK => {
                    for d in 0..4 {
                        self.slide_quiet(c, from, d, out);
                    }
                }
                kind::PAO => {
                    for d in 0..4 {
                        let screen = self.slide_quiet(c, from, d, out);
                        if screen != NONE {
                            let t = self.first_piece(screen as usize, d);
                            if t != NONE && is_color(self.cells[t as usize], c ^ 1) {
                                push(out, from, t as usize, true);
                            }
                        }
                    }
                }
                kind::SLIP => {
                    for d in 0..4 {
                        let mut s = STEP[from][d];
                        while s != NONE {
                            let cell = self.cells[s as usize];
                            if cell == 0 {
                                push(out, from, s as usize, false);
                            } else {
                                if is_color(cell, c ^ 1) {
                                    push(out, from, s as usize, true);
                                }
                                break;
                            }
                            s = LEAP2[s as usize][d];
                        }
                    }
                }
                kind::TWOSTEP => {
                    let mut seen = 0u64;
                    for d1 in 0..4 {
                        let a = STEP[from][d1];
                        if a == NONE || self.cells[a as usize] != 0 {
                            continue;
                        }
                        for d2 in 0..4 {
                            if d2 == d1 ^ 2 {
                                continue;
                            }
                            let t = STEP[a as usize][d2];
                            if t != NONE && seen >> t & 1 == 0 {
                                seen |= 1u64 << t;
                                self.target(c, from, t as usize, out);
                            }
                        }
                    }
                }
                kind::THREESTEP => {
                    let mut seen = 0u64;
                    for d1 in 0..4 {
                        let a = STEP[from][d1];
                        if a == NONE || self.cells[a as usize] != 0 {
                            continue;
                        }
                        for d2 in 0..4 {
                            if d2 == d1 ^ 2 {
                                continue;
                            }
                            let b = STEP[a as usize][d2];
                            if b == NONE || self.cells[b as usize] != 0 {
                                continue;
                            }
                            for d3 in 0..4 {
                                if d3 == d2 ^ 2 {
                                    continue;
                                }
                                let t = STEP[b as usize][d3];
                                if t != NONE && seen >> t & 1 == 0 {
                                    seen |= 1u64 << t;
                                    self.target(c, from, t as usize, out);
                                }
                            }
                        }
                    }
                }
                _ => {
                    // Pawn: rook moves to empty squares; captures by what the landing does.
                    for d in 0..4 {
                        let mut s = STEP[from][d];
                        while s != NONE && self.cells[s as usize] == 0 {
                            let caps = self.pawn_captures(c, from, s as usize);
                            push(out, from, s as usize, caps != 0);
                            s = STEP[s as usize][d];
                        }
                    }
                }
            }
        }
    }

    /// Pushes quiet moves along `d` and returns the first occupied square (or NONE).
    #[inline]
    fn slide_quiet(&self, _c: usize, from: usize, d: usize, out: &mut RVec<Move>) -> u8 {
        let mut s = STEP[from][d];
        while s != NONE && self.cells[s as usize] == 0 {
            push(out, from, s as usize, false);
            s = STEP[s as usize][d];
        }
        s
    }

    /// Pushes a move to `t` if it is empty (quiet) or holds an enemy (capture).
    #[inline]
    fn target(&self, c: usize, from: usize, t: usize, out: &mut RVec<Move>) {
        let cell = self.cells[t];
        if cell == 0 {
            push(out, from, t, false);
        } else if is_color(cell, c ^ 1) {
            push(out, from, t, true);
        }
    }

    /// Makes a move generated for this board; returns what it removed.
    pub fn make(&mut self, m: Move) -> Captures {
        let mut caps = Captures::default();
        let from = index_of(m.from);
        let to = index_of(m.to);
        if from == NONE || to == NONE {
            return caps;
        }
        let (from, to) = (from as usize, to as usize);
        let mover = self.cells[from];
        if mover < 2 {
            return caps;
        }
        let c = color_of(mover);
        if m.flags.contains(MoveFlags::SPECIAL) && m.special == SHOT {
            let cell = self.remove(to);
            if cell >= 2 {
                caps.push(to as u8, cell);
            }
            self.shots[c] = self.shots[c].saturating_sub(1);
            return caps;
        }
        if kind_of(mover) == kind::PAWN {
            let mut mask = self.pawn_captures(c, from, to);
            self.remove(from);
            self.put(to, mover);
            while mask != 0 {
                let s = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let cell = self.remove(s);
                caps.push(s as u8, cell);
            }
        } else {
            if self.cells[to] >= 2 {
                let cell = self.remove(to);
                caps.push(to as u8, cell);
            }
            self.remove(from);
            self.put(to, mover);
        }
        caps
    }

    /// Legal moves of `c`: pseudo-legal moves that do not leave `c`'s King attacked.
    pub fn legal_moves(&self, c: usize, out: &mut RVec<Move>) {
        let start = out.len();
        self.pseudo_moves(c, 0, out);
        let mut keep = start;
        for i in start..out.len() {
            let m = out[i];
            let mut b = *self;
            b.make(m);
            if !b.in_check(c) {
                out[keep] = m;
                keep += 1;
            }
        }
        out.truncate(keep);
    }

    /// Whether the piece on `i` is a pawn.
    #[inline]
    pub fn is_pawn(&self, i: usize) -> bool {
        self.cells[i] >= 2 && kind_of(self.cells[i]) == kind::PAWN
    }
}

#[inline]
fn push(out: &mut RVec<Move>, from: usize, to: usize, capture: bool) {
    out.push(Move::new(
        square_of(from as u8),
        square_of(to as u8),
        if capture {
            MoveFlags::CAPTURE
        } else {
            MoveFlags::NONE
        },
    ));
}

/// The colour index of a [`Color`].
#[inline]
pub fn ci(c: Color) -> usize {
    c.index()
}
