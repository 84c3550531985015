//! Compiling [`Rules`] into per-square tables.
//!
//! A piece's moves of one modality are computed as Fairy-Stockfish computes them:
//! `leaps | (rider families ∩ pseudo)`, where *pseudo* is everything the piece reaches on an
//! empty board (its direction tables with their ranges) and the rider families are whole
//! families of rays (rook files, rook ranks, bishop diagonals, nightrider lines, cannon and
//! grasshopper lines, the four lame-leaper families) evaluated against the occupancy. That is
//! why `DD` rides nowhere (no family has dabbaba lines) while `W2` or `fR` are riders cut by
//! their pseudo set. The houserules extensions (two-leg leaps, warps) are added after the
//! mask. Every table is built on the board's topology (wrapped files, bounced diagonals,
//! holes), so every piece obeys it.

#![allow(clippy::needless_range_loop)] // per-square tables are filled by index

use crate::betza::{Movement, Vector, CAPTURE, QUIET};
use crate::bitboard::Bits;
use crate::geometry::{Geometry, Ray};
use crate::rules::{EnPassantCapture, Promotion, Rules};
use houserules_plugin_api::SquareSet;

/// Most piece kinds a rules model may have.
pub const MAX_KINDS: usize = 32;

/// Families of riders (Fairy-Stockfish's rider types, plus bounced diagonals).
pub mod family {
    /// Rook along the rank.
    pub const ROOK_H: u32 = 1 << 0;
    /// Rook along the file.
    pub const ROOK_V: u32 = 1 << 1;
    /// Bishop.
    pub const BISHOP: u32 = 1 << 2;
    /// Bishop whose diagonals bounce off the edges (topology).
    pub const BISHOP_BOUNCED: u32 = 1 << 3;
    /// Nightrider.
    pub const NIGHTRIDER: u32 = 1 << 4;
    /// Cannon (hop one screen, then ride) along the rank.
    pub const CANNON_H: u32 = 1 << 5;
    /// Cannon along the file.
    pub const CANNON_V: u32 = 1 << 6;
    /// Cannon along diagonals.
    pub const CANNON_D: u32 = 1 << 7;
    /// Grasshopper (land right behind the first piece) along the rank.
    pub const GRASS_H: u32 = 1 << 8;
    /// Grasshopper along the file.
    pub const GRASS_V: u32 = 1 << 9;
    /// Grasshopper along diagonals.
    pub const GRASS_D: u32 = 1 << 10;
    /// Lame dabbaba (blocked on the square between).
    pub const LAME_DABBABA: u32 = 1 << 11;
    /// Xiangqi horse (lame knight).
    pub const HORSE: u32 = 1 << 12;
    /// Xiangqi elephant (lame alfil).
    pub const ELEPHANT: u32 = 1 << 13;
    /// Janggi elephant (lame (2,3) leaper).
    pub const JANGGI_ELEPHANT: u32 = 1 << 14;
    /// Every slider family.
    pub const SLIDERS: u32 = ROOK_H | ROOK_V | BISHOP | BISHOP_BOUNCED | NIGHTRIDER;
    /// Every hopper family.
    pub const HOPPERS: u32 = CANNON_H | CANNON_V | CANNON_D | GRASS_H | GRASS_V | GRASS_D;
    /// Every lame family.
    pub const LAME: u32 = LAME_DABBABA | HORSE | ELEPHANT | JANGGI_ELEPHANT;
    /// Number of families.
    pub const COUNT: usize = 15;
}

const ORTH_H: [Vector; 2] = [(1, 0), (-1, 0)];
const ORTH_V: [Vector; 2] = [(0, 1), (0, -1)];
const DIAG: [Vector; 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const KNIGHT: [Vector; 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const DABBABA: [Vector; 4] = [(2, 0), (-2, 0), (0, 2), (0, -2)];
const ALFIL: [Vector; 4] = [(2, 2), (-2, 2), (2, -2), (-2, -2)];
const JANGGI: [Vector; 8] = [
    (2, 3),
    (3, 2),
    (3, -2),
    (2, -3),
    (-2, -3),
    (-3, -2),
    (-3, 2),
    (-2, 3),
];

/// The ray directions of a slider or hopper family, and whether its diagonals bounce.
fn family_rays(f: u32) -> (&'static [Vector], bool) {
    use family::*;
    match f {
        ROOK_H | CANNON_H | GRASS_H => (&ORTH_H, false),
        ROOK_V | CANNON_V | GRASS_V => (&ORTH_V, false),
        BISHOP | CANNON_D | GRASS_D => (&DIAG, false),
        BISHOP_BOUNCED => (&DIAG, true),
        NIGHTRIDER => (&KNIGHT, false),
        _ => (&[], false),
    }
}

fn lame_family_vectors(f: u32) -> &'static [Vector] {
    use family::*;
    match f {
        LAME_DABBABA => &DABBABA,
        HORSE => &KNIGHT,
        ELEPHANT => &ALFIL,
        JANGGI_ELEPHANT => &JANGGI,
        _ => &[],
    }
}

/// One family's rays from every square (slider and hopper families), with the squares in
/// order for hoppers.
#[derive(Debug, Clone)]
pub struct FamilyRays<B: Bits> {
    /// Directions of the family.
    pub dirs: usize,
    /// `flat[s * dirs + d]`: the ray from `s` in direction `d`.
    pub flat: Vec<Ray<B>>,
    /// The same rays as square lists (for hoppers), `lists[s][d]`.
    pub lists: Vec<Vec<Vec<u8>>>,
    /// `reach[s]`: every square of the rays from `s` (an attack test looks at no ray of
    /// the family where no candidate stands on any).
    pub reach: Vec<B>,
}

impl<B: Bits> FamilyRays<B> {
    /// The rays from `s`.
    #[inline(always)]
    pub fn at(&self, s: usize) -> &[Ray<B>] {
        &self.flat[s * self.dirs..(s + 1) * self.dirs]
    }
}

/// A lame family: from every square, each (target, squares that must be empty).
#[derive(Debug, Clone)]
pub struct LameTable<B: Bits> {
    /// `moves[s]`.
    pub moves: Vec<Vec<(u8, B)>>,
    /// `reverse[t]`: (from, path) of every lame move that lands on `t`.
    pub reverse: Vec<Vec<(u8, B)>>,
}

/// A two-leg leap of one colour.
#[derive(Debug, Clone)]
pub struct DoubleTable<B: Bits> {
    /// `mid[s]`: where the first leg lands.
    pub mid: Vec<B>,
    /// `land[m]`: where the second leg lands from `m`.
    pub land: Vec<B>,
    /// `rev_mid[t]`: the `m` whose `land` contains `t`.
    pub rev_mid: Vec<B>,
    /// `rev_from[m]`: the `s` whose `mid` contains `m`.
    pub rev_from: Vec<B>,
    /// Quiet / capture.
    pub quiet: bool,
    /// See `quiet`.
    pub capture: bool,
}

/// A warp direction of one colour: squares to the edge that must be empty, and the square it
/// lands on.
#[derive(Debug, Clone)]
pub struct WarpTable<B: Bits> {
    /// `path[s]`.
    pub path: Vec<B>,
    /// `land[s]` (0xFF: none).
    pub land: Vec<u8>,
    /// `reverse[t]`: (from, path) of every warp landing on `t`.
    pub reverse: Vec<Vec<(u8, B)>>,
    /// Quiet / capture.
    pub quiet: bool,
    /// See `quiet`.
    pub capture: bool,
}

/// One modality of one piece kind and colour.
#[derive(Debug, Clone)]
pub struct Mode<B: Bits> {
    /// Plain leaps, per square.
    pub leap: Vec<B>,
    /// Everything reachable on an empty board, per square (the family mask).
    pub pseudo: Vec<B>,
    /// Rider families (see [`family`]).
    pub families: u32,
    /// The slider families' rays, flattened: `rays[s * per_square ..][..per_square]`.
    pub rays: Vec<Ray<B>>,
    /// Rays per square.
    pub per_square: usize,
    /// Hops neither jump nor take pieces of the janggi-hop kinds
    /// ([`crate::PieceRules::janggi_hops`]).
    pub janggi: bool,
}

impl<B: Bits> Mode<B> {
    fn empty(n: usize) -> Mode<B> {
        Mode {
            leap: vec![B::ZERO; n],
            pseudo: vec![B::ZERO; n],
            families: 0,
            rays: Vec::new(),
            per_square: 0,
            janggi: false,
        }
    }
    /// The slider rays from `s`.
    #[inline(always)]
    pub fn rays_at(&self, s: usize) -> &[Ray<B>] {
        &self.rays[s * self.per_square..(s + 1) * self.per_square]
    }
    /// Whether the mode has any move at all.
    pub fn is_empty(&self) -> bool {
        self.families == 0 && self.pseudo.iter().all(|b| b.is_empty())
    }
}

/// One piece kind of one colour, compiled.
#[derive(Debug, Clone)]
pub struct KindTables<B: Bits> {
    /// Quiet moves.
    pub quiet: Mode<B>,
    /// Captures.
    pub capture: Mode<B>,
    /// Quiet and capture tables are the same.
    pub same: bool,
    /// Initial (quiet) moves, if any.
    pub initial: Option<Mode<B>>,
    /// Indices into [`Compiled::doubles`].
    pub doubles: Vec<usize>,
    /// Indices into [`Compiled::warps`].
    pub warps: Vec<usize>,
    /// Squares whose capture leaps may take en passant (per square, the ep-capable targets).
    pub ep: Vec<B>,
    /// `rev_leap[t]`: squares from which a capture leap of this kind reaches `t`.
    pub rev_leap: Vec<B>,
    /// `rev_pseudo[t]`: squares whose capture pseudo set contains `t`.
    pub rev_pseudo: Vec<B>,
    /// Squares from which the piece can move on an empty board (immobility rule).
    pub mobile: B,
    /// Squares where its initial moves apply.
    pub initial_region: B,
    /// Whether some capture reaches beyond plain leaps (rider, hopper, two legs, warp).
    pub capture_beyond_leaps: bool,
    /// Which fast path computes its moves.
    pub shape: Shape,
    /// Whole-set shifts for pawn-like pieces (see [`Bulk`]).
    pub bulk: Option<Bulk<B>>,
    /// `rev_ep[t]`: squares from which it may take en passant on `t`.
    pub rev_ep: Vec<B>,
}

/// A kind's squares, as bitboards of one colour: its mobility region
/// ([`crate::PieceRules::region`]), the zone of its zone leaps and the lines of its line
/// moves, each with its movement.
struct Places<'m, B: Bits> {
    region: Option<B>,
    zone: Option<(&'m Movement, B)>,
    lines: Option<(&'m Movement, B)>,
}

/// How a kind's moves are computed, fastest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Only plain leaps (knight, king, ferz ...): table lookups.
    Leap,
    /// Leaps and slider families, the same for quiet moves and captures (rook, queen ...).
    Rider,
    /// Anything else.
    General,
}

/// A bitboard shifted by `delta` squares after masking with `mask` (the squares whose
/// destination exists).
#[derive(Debug, Clone, Copy)]
pub struct Shift<B: Bits> {
    /// Sources that land on the board.
    pub mask: B,
    /// Index difference.
    pub delta: i32,
}

impl<B: Bits> Shift<B> {
    /// `b` moved by this shift.
    #[inline(always)]
    pub fn apply(&self, b: B) -> B {
        let x = b & self.mask;
        if x.is_empty() {
            x
        } else if self.delta >= 0 {
            B::shl(x, self.delta as u32)
        } else {
            B::shr(x, (-self.delta) as u32)
        }
    }
    /// Where the pieces that land on `t` came from.
    #[inline(always)]
    pub fn back(&self, t: B) -> B {
        if self.delta >= 0 {
            B::shr(t, self.delta as u32)
        } else {
            B::shl(t, (-self.delta) as u32)
        }
    }
}

/// One vector as shifts (two on wrapped boards: the part that crosses the seam).
#[derive(Debug, Clone)]
pub struct VecShift<B: Bits> {
    /// The shifts.
    pub parts: Vec<Shift<B>>,
}

impl<B: Bits> VecShift<B> {
    /// All pieces of `b` moved by the vector.
    #[inline(always)]
    pub fn apply(&self, b: B) -> B {
        let mut t = B::ZERO;
        for p in &self.parts {
            t |= p.apply(b);
        }
        t
    }
}

/// Moves of every piece of a kind at once, for pieces whose moves are a few plain or lame
/// leaps with no promotion of shogi style (pawns): each vector is one or two shifts of the
/// whole set.
#[derive(Debug, Clone)]
pub struct Bulk<B: Bits> {
    /// Quiet leaps.
    pub quiet: Vec<VecShift<B>>,
    /// Capturing leaps.
    pub capture: Vec<VecShift<B>>,
    /// Quiet lame leaps: (to the passed square, from there to the target).
    pub lame: Vec<(VecShift<B>, VecShift<B>)>,
    /// Initial quiet leaps.
    pub initial: Vec<VecShift<B>>,
    /// Initial quiet lame leaps.
    pub initial_lame: Vec<(VecShift<B>, VecShift<B>)>,
}

/// Per-kind properties the hot path reads.
#[derive(Debug, Clone)]
pub struct KindInfo<B: Bits> {
    /// Royal.
    pub royal: bool,
    /// Cannot be captured.
    pub immune: bool,
    /// Its passing moves may be taken en passant.
    pub ep_victim: bool,
    /// Resets the halfmove clock.
    pub resets_clock: bool,
    /// Hand kind when captured.
    pub hand_kind: u8,
    /// Promotion.
    pub promotion: CompiledPromotion<B>,
    /// Moves count one each (no promotion, no immobility rule): a popcount.
    pub plain_count: bool,
    /// It may promote to a royal kind (coregal): such promotions are tested one by one.
    pub promotes_to_royal: bool,
    /// Its shogi-style promotion applies to captures only.
    pub promotes_on_capture: bool,
}

/// A promotion rule with its zone as bitboards.
#[derive(Debug, Clone)]
pub enum CompiledPromotion<B: Bits> {
    /// None.
    None,
    /// Chess style.
    Choice {
        /// Zone per colour.
        zone: [B; 2],
        /// Kinds, per colour.
        choices: [Vec<u8>; 2],
        /// Compulsory.
        mandatory: bool,
    },
    /// Shogi style.
    Shogi {
        /// Zone per colour.
        zone: [B; 2],
        /// Promoted kind.
        promoted: u8,
        /// Compulsory.
        mandatory: bool,
    },
}

/// A rules model that cannot be compiled.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// The board is too large.
    #[error("a {files}x{ranks} board has more than 128 squares")]
    BoardTooLarge {
        /// Files.
        files: u8,
        /// Ranks.
        ranks: u8,
    },
    /// Too many piece kinds.
    #[error("{0} piece kinds (at most {MAX_KINDS})")]
    TooManyKinds(usize),
    /// A kind refers to a kind that does not exist.
    #[error("piece `{letter}`: {what} names kind {kind}, which does not exist")]
    BadKind {
        /// The piece's letter.
        letter: char,
        /// Which property.
        what: &'static str,
        /// The kind.
        kind: u8,
    },
}

/// Where a move could change an attack on a royal, for [`Compiled::sensitive`]: the royal's
/// own square, the legs of the other side's lame leaps that land on it, and along each line
/// on which the other side slides or hops, the squares up to the second piece on it. A
/// slider's attack along a line is decided by the line's first piece and a hopper's by its
/// first two (the screen and the hopper), so a move beyond the second piece changes neither.
#[derive(Clone, Debug)]
pub struct Sensitive<B: Bits> {
    /// Per colour of a royal and per square: the square and the legs of the lame leaps of the
    /// other side that land there.
    near: [Vec<B>; 2],
    /// Per colour of a royal: the directions (indices into `lines`) along which the other
    /// side slides or hops.
    dirs: [Vec<u8>; 2],
    /// Per square and direction: the ray from the square (without it).
    lines: Vec<[Ray<B>; 8]>,
}

impl<B: Bits> Sensitive<B> {
    /// The eight directions of `lines`: along the rank, along the file, the diagonals.
    fn directions() -> impl Iterator<Item = &'static Vector> {
        ORTH_H.iter().chain(&ORTH_V).chain(&DIAG)
    }

    /// The squares where a piece arriving or leaving could change an attack on a royal of
    /// `color` on `sq`, with the board occupied as `occ`.
    #[inline]
    pub fn around(&self, color: usize, sq: usize, occ: B) -> B {
        let mut mask = self.near[color][sq];
        let rays = &self.lines[sq];
        for &d in &self.dirs[color] {
            let ray = &rays[d as usize];
            // The line's first two pieces, as a hopper's attack reads them.
            let second = ray
                .first(occ)
                .and_then(|first| ray.first(occ & !B::bit(first)));
            mask |= match second {
                Some(second) => ray.all & !self.lines[second][d as usize].all,
                None => ray.all,
            };
        }
        mask
    }
}

/// The compiled rules.
#[derive(Debug, Clone)]
pub struct Compiled<B: Bits> {
    /// Board.
    pub geo: Geometry<B>,
    /// Number of kinds.
    pub n_kinds: usize,
    /// `kinds[color][kind]`.
    pub kinds: [Vec<KindTables<B>>; 2],
    /// Per-kind properties.
    pub info: Vec<KindInfo<B>>,
    /// Rays of every slider/hopper family in use (index = family bit position).
    pub rays: Vec<Option<FamilyRays<B>>>,
    /// Lame families in use (index = family bit position).
    pub lame: Vec<Option<LameTable<B>>>,
    /// Two-leg leaps, per colour.
    pub doubles: [Vec<DoubleTable<B>>; 2],
    /// Warps, per colour.
    pub warps: [Vec<WarpTable<B>>; 2],
    /// `families_by[color]`: union of every kind's capture families.
    pub families_by: [u32; 2],
    /// Kinds with capture leaps, per colour.
    pub leapers: [Vec<u8>; 2],
    /// `leap_reach[color][t]`: the squares from which any of `color`'s capture leaps reaches
    /// `t` (the union of the leapers' `rev_leap[t]`): an attack test looks at no leaper
    /// where no piece of that colour stands there.
    pub leap_reach: [Vec<B>; 2],
    /// Kinds per capture family, per colour: `[color][family index]`.
    pub family_kinds: [Vec<Vec<u8>>; 2],
    /// Kinds with two-leg captures / warp captures, per colour (kind, table index).
    pub double_kinds: [Vec<(u8, usize)>; 2],
    /// See `double_kinds`.
    pub warp_kinds: [Vec<(u8, usize)>; 2],
    /// Pins and check masks are not enough (hoppers, or the "all royals" rule): legality is
    /// tested by making each move.
    pub trial_legality: bool,
    /// With trial legality: where a piece arriving or leaving could change an attack of the
    /// other side on a royal (see [`Sensitive`]). A move out of check that neither leaves nor
    /// enters those squares keeps the royal safe, so it needs no trial. `None` where that does
    /// not hold (two-leg leaps, warps, nightriders, wrapped or bouncing boards, the all-royals
    /// rule).
    pub sensitive: Option<Sensitive<B>>,
    /// Royal kinds as a bit mask.
    pub royal_kinds: u64,
    /// Immune kinds as a bit mask.
    pub immune_kinds: u64,
    /// Kinds whose hops follow the janggi cannon's rule, as a bit mask.
    pub janggi_kinds: u64,
    /// The rules compiled from.
    pub rules: Rules,
    /// Drop regions per kind per colour (board if unrestricted).
    pub drop_region: Vec<[B; 2]>,
    /// Some kind may capture en passant.
    pub any_en_passant: bool,
    /// Each colour's castling rank (the first and last rank unless the rules say otherwise).
    pub back_rank: [B; 2],
    /// Files as bitboards.
    pub file_bb: Vec<B>,
    /// Shifts one square along E, N, NE and NW on the plain board (connect-N).
    pub line_shifts: Vec<Shift<B>>,
    /// Per square, the eight squares around it on the plain board (no wrap): explosions
    /// ([`crate::blast`]).
    pub around: Vec<B>,
    /// `full_kinds[color][family]`: kinds of that family whose empty-board reach covers the
    /// family's whole rays (their attackers need no per-square mask).
    pub full_kinds: [Vec<Vec<u8>>; 2],
    /// The other kinds of each family (masked by their reverse reach).
    pub partial_kinds: [Vec<Vec<u8>>; 2],
}

fn adjust(v: Vector, color: usize) -> (i32, i32) {
    if color == 0 {
        (v.0 as i32, v.1 as i32)
    } else {
        (-(v.0 as i32), -(v.1 as i32))
    }
}

/// `m` with every slide limited to `limit` squares (0: unchanged).
fn limit_slides(m: &Movement, limit: u8) -> Movement {
    let mut m = m.clone();
    if limit > 0 {
        for t in m.slider.iter_mut().flatten() {
            for e in t.entries.iter_mut() {
                if e.1 == 0 || e.1 > limit as i32 {
                    e.1 = limit as i32;
                }
            }
        }
    }
    m
}

/// Fairy-Stockfish's lame-leaper path: the squares passed on the way to `(df, dr)`.
fn lame_path(df: i32, dr: i32) -> Vec<(i32, i32)> {
    let (sf, sr) = (df.signum(), dr.signum());
    let (mut f, mut r) = (0, 0);
    let mut out = Vec::new();
    while (f, r) != (df, dr) {
        let diff = (df - f).abs() - (dr - r).abs();
        if diff > 0 {
            f += sf;
        } else if diff < 0 {
            r += sr;
        } else {
            f += sf;
            r += sr;
        }
        if (f, r) != (df, dr) {
            out.push((f, r));
        }
    }
    out
}

impl<B: Bits> Compiled<B> {
    /// Compiles `rules` (the caller checked that the board fits `B`).
    pub fn new(rules: &Rules) -> Result<Compiled<B>, CompileError> {
        let n = rules.files as usize * rules.ranks as usize;
        if n > B::CAPACITY || rules.files > 16 || rules.ranks > 15 {
            return Err(CompileError::BoardTooLarge {
                files: rules.files,
                ranks: rules.ranks,
            });
        }
        if rules.pieces.len() > MAX_KINDS {
            return Err(CompileError::TooManyKinds(rules.pieces.len()));
        }
        let nk = rules.pieces.len();
        for p in &rules.pieces {
            let check = |k: u8, what: &'static str| {
                if (k as usize) < nk {
                    Ok(())
                } else {
                    Err(CompileError::BadKind {
                        letter: p.letter,
                        what,
                        kind: k,
                    })
                }
            };
            check(p.hand_kind, "hand kind")?;
            match &p.promotion {
                Promotion::None => {}
                Promotion::Choice { choices, .. } => {
                    for &c in choices.iter().flatten() {
                        check(c, "promotion choice")?;
                    }
                }
                Promotion::Shogi { promoted, .. } => check(*promoted, "promoted kind")?,
            }
        }
        if let Some(d) = &rules.drops {
            for &(hand, dropped) in &d.promoted {
                for k in [hand, dropped] {
                    if k as usize >= nk {
                        return Err(CompileError::BadKind {
                            letter: rules.pieces.get(hand as usize).map_or('?', |p| p.letter),
                            what: "promoted drop",
                            kind: k,
                        });
                    }
                }
            }
        }
        let geo: Geometry<B> =
            Geometry::new(rules.files, rules.ranks, &rules.holes, rules.topology);
        let mut c = Compiled {
            geo,
            n_kinds: nk,
            kinds: [Vec::new(), Vec::new()],
            info: Vec::new(),
            rays: vec![None; family::COUNT],
            lame: vec![None; family::COUNT],
            doubles: [Vec::new(), Vec::new()],
            warps: [Vec::new(), Vec::new()],
            families_by: [0; 2],
            leapers: [Vec::new(), Vec::new()],
            leap_reach: [Vec::new(), Vec::new()],
            family_kinds: [
                vec![Vec::new(); family::COUNT],
                vec![Vec::new(); family::COUNT],
            ],
            double_kinds: [Vec::new(), Vec::new()],
            warp_kinds: [Vec::new(), Vec::new()],
            trial_legality: false,
            sensitive: None,
            royal_kinds: 0,
            immune_kinds: 0,
            janggi_kinds: 0,
            rules: rules.clone(),
            drop_region: Vec::new(),
            any_en_passant: false,
            back_rank: [B::ZERO; 2],
            file_bb: Vec::new(),
            line_shifts: Vec::new(),
            around: Vec::new(),
            full_kinds: [
                vec![Vec::new(); family::COUNT],
                vec![Vec::new(); family::COUNT],
            ],
            partial_kinds: [
                vec![Vec::new(); family::COUNT],
                vec![Vec::new(); family::COUNT],
            ],
        };
        c.around = (0..c.geo.n)
            .map(|s| {
                let (f, r) = (c.geo.file(s) as i32, c.geo.rank(s) as i32);
                let mut b = B::ZERO;
                for (df, dr) in [
                    (-1, -1),
                    (0, -1),
                    (1, -1),
                    (-1, 0),
                    (1, 0),
                    (-1, 1),
                    (0, 1),
                    (1, 1),
                ] {
                    let (nf, nr) = (f + df, r + dr);
                    if nf >= 0
                        && nr >= 0
                        && (nf as usize) < c.geo.files
                        && (nr as usize) < c.geo.ranks
                    {
                        let t = nr as usize * c.geo.files + nf as usize;
                        if c.geo.on(t) {
                            b |= B::bit(t);
                        }
                    }
                }
                b
            })
            .collect();
        for f in 0..c.geo.files {
            let mut b = B::ZERO;
            for r in 0..c.geo.ranks {
                b |= B::bit(r * c.geo.files + f);
            }
            c.file_bb.push(b & c.geo.board);
        }
        for (df, dr) in [(1i32, 0i32), (0, 1), (1, 1), (-1, 1)] {
            let (files, ranks) = (c.geo.files as i32, c.geo.ranks as i32);
            let mut mask = B::ZERO;
            for s in 0..c.geo.n {
                let (f, r) = ((s % c.geo.files) as i32 + df, (s / c.geo.files) as i32 + dr);
                if f >= 0 && f < files && r < ranks {
                    mask |= B::bit(s);
                }
            }
            c.line_shifts.push(Shift {
                mask,
                delta: df + dr * files,
            });
        }
        let castling_rank = rules
            .castling
            .as_ref()
            .map_or(0, |cr| (cr.rank as usize).min(c.geo.ranks - 1));
        for f in 0..c.geo.files {
            c.back_rank[0] |= B::bit(castling_rank * c.geo.files + f);
            c.back_rank[1] |= B::bit((c.geo.ranks - 1 - castling_rank) * c.geo.files + f);
        }
        for (k, p) in rules.pieces.iter().enumerate() {
            if p.royal {
                c.royal_kinds |= 1 << k;
            }
            if p.immune {
                c.immune_kinds |= 1 << k;
            }
            if p.janggi_hops {
                c.janggi_kinds |= 1 << k;
            }
            let promotes_to_royal = match &p.promotion {
                Promotion::None => false,
                Promotion::Choice { choices, .. } => choices
                    .iter()
                    .flatten()
                    .any(|&k| rules.pieces.get(k as usize).is_some_and(|q| q.royal)),
                Promotion::Shogi { promoted, .. } => rules
                    .pieces
                    .get(*promoted as usize)
                    .is_some_and(|q| q.royal),
            };
            c.info.push(KindInfo {
                promotes_to_royal,
                promotes_on_capture: p.promotes_on_capture,
                plain_count: p.promotion == Promotion::None && !rules.immobility_illegal,
                royal: p.royal,
                immune: p.immune,
                ep_victim: p.ep_victim,
                resets_clock: p.resets_clock,
                hand_kind: p.hand_kind,
                promotion: match &p.promotion {
                    Promotion::None => CompiledPromotion::None,
                    Promotion::Choice {
                        zone,
                        choices,
                        mandatory,
                    } => CompiledPromotion::Choice {
                        zone: [c.geo.set(&zone[0]), c.geo.set(&zone[1])],
                        choices: choices.clone(),
                        mandatory: *mandatory,
                    },
                    Promotion::Shogi {
                        zone,
                        promoted,
                        mandatory,
                    } => CompiledPromotion::Shogi {
                        zone: [c.geo.set(&zone[0]), c.geo.set(&zone[1])],
                        promoted: *promoted,
                        mandatory: *mandatory,
                    },
                },
            });
        }
        for color in 0..2 {
            for (k, p) in rules.pieces.iter().enumerate() {
                let mv = match (&p.movement_black, color) {
                    (Some(b), 1) => b,
                    _ => &p.movement,
                };
                let mv = limit_slides(mv, rules.slide_limit);
                let region = p.region.as_ref().map(|r| c.geo.set(&r[color]));
                let zone = p
                    .zone_leaps
                    .as_ref()
                    .map(|(m, z)| (m, c.geo.set(&z[color])));
                let lines = p.line_moves.as_ref().map(|(m, l)| (m, c.geo.set(l)));
                let mut t = c.kind_tables(
                    &mv,
                    p.bounce,
                    p.ep_capture,
                    &p.initial_region,
                    color,
                    Places {
                        region,
                        zone,
                        lines,
                    },
                );
                // Pins and check masks know nothing of moves kept to lines.
                if lines.is_some() {
                    c.trial_legality = true;
                }
                if p.janggi_hops {
                    t.quiet.janggi = true;
                    t.capture.janggi = true;
                    if let Some(i) = &mut t.initial {
                        i.janggi = true;
                    }
                }
                let cap = &t.capture;
                if cap.leap.iter().any(|b| !b.is_empty()) {
                    c.leapers[color].push(k as u8);
                }
                for f in 0..family::COUNT {
                    if cap.families & (1 << f) != 0 {
                        c.family_kinds[color][f].push(k as u8);
                    }
                }
                c.families_by[color] |= cap.families;
                if cap.families & family::HOPPERS != 0 {
                    c.trial_legality = true;
                }
                for &d in &t.doubles {
                    if c.doubles[color][d].capture {
                        c.double_kinds[color].push((k as u8, d));
                    }
                }
                for &w in &t.warps {
                    if c.warps[color][w].capture {
                        c.warp_kinds[color].push((k as u8, w));
                    }
                }
                if t.ep.iter().any(|b| !b.is_empty()) {
                    c.any_en_passant = true;
                }
                c.kinds[color].push(t);
            }
        }
        for color in 0..2 {
            for f in 0..family::COUNT {
                for &k in &c.family_kinds[color][f].clone() {
                    let kt = &c.kinds[color][k as usize];
                    let full = match &c.rays[f] {
                        Some(r) if (1u32 << f) & (family::SLIDERS) != 0 => (0..c.geo.n).all(|s| {
                            r.at(s)
                                .iter()
                                .all(|ray| ray.all.squares().all(|t| kt.capture.pseudo[s].has(t)))
                        }),
                        _ => false,
                    };
                    if full {
                        c.full_kinds[color][f].push(k);
                    } else {
                        c.partial_kinds[color][f].push(k);
                    }
                }
            }
        }
        for color in 0..2 {
            c.leap_reach[color] = (0..c.geo.n)
                .map(|t| {
                    c.leapers[color].iter().fold(B::ZERO, |acc, &k| {
                        acc | c.kinds[color][k as usize].rev_leap[t]
                    })
                })
                .collect();
        }
        let board = c.geo.board;
        for k in 0..nk {
            let mut r = [board; 2];
            if let Some(d) = &rules.drops {
                if let Some(Some(reg)) = d.region.get(k) {
                    r = [c.geo.set(&reg[0]), c.geo.set(&reg[1])];
                }
            }
            c.drop_region.push(r);
        }
        c.sensitive = c.sensitive_squares();
        Ok(c)
    }

    /// See [`Compiled::sensitive`].
    fn sensitive_squares(&self) -> Option<Sensitive<B>> {
        use family::*;
        let t = self.geo.topology;
        let plain = !t.wrap_files && !t.bounce_files && !t.bounce_ranks;
        let simple = (0..2).all(|c| {
            self.doubles[c].is_empty()
                && self.warps[c].is_empty()
                && self.families_by[c] & (NIGHTRIDER | BISHOP_BOUNCED) == 0
        });
        if !self.trial_legality
            || !plain
            || !simple
            || self.rules.check != crate::rules::CheckRule::Any
        {
            return None;
        }
        let g = &self.geo;
        let mut lines = vec![[Ray::default(); 8]; g.n];
        for (s, rays) in lines.iter_mut().enumerate() {
            if !g.on(s) {
                continue;
            }
            for (ray, &(df, dr)) in rays.iter_mut().zip(Sensitive::<B>::directions()) {
                *ray = g.ray(&g.ray_squares(s, df.into(), dr.into(), false));
            }
        }
        let for_colour = |color: usize| {
            let theirs = self.families_by[1 - color];
            let mut dirs = Vec::new();
            if theirs & (ROOK_H | CANNON_H | GRASS_H) != 0 {
                dirs.extend([0u8, 1]);
            }
            if theirs & (ROOK_V | CANNON_V | GRASS_V) != 0 {
                dirs.extend([2u8, 3]);
            }
            if theirs & (BISHOP | CANNON_D | GRASS_D) != 0 {
                dirs.extend([4u8, 5, 6, 7]);
            }
            let mut near = vec![B::ZERO; g.n];
            for (s, mask) in near.iter_mut().enumerate() {
                if !g.on(s) {
                    continue;
                }
                *mask |= B::bit(s);
                // The legs of every lame leap that lands here (from the tables the attack
                // scan reads; a family without one attacks nothing there either).
                let mut lame = theirs & LAME;
                while lame != 0 {
                    let i = lame.trailing_zeros() as usize;
                    lame &= lame - 1;
                    if let Some(table) = &self.lame[i] {
                        for &(_, path) in &table.reverse[s] {
                            *mask |= path;
                        }
                    }
                }
            }
            (near, dirs)
        };
        let (white, black) = (for_colour(0), for_colour(1));
        Some(Sensitive {
            near: [white.0, black.0],
            dirs: [white.1, black.1],
            lines,
        })
    }

    fn ensure_rays(&mut self, f: u32) {
        let idx = f.trailing_zeros() as usize;
        if self.rays[idx].is_some() {
            return;
        }
        let (vecs, bounce) = family_rays(f);
        let n = self.geo.n;
        let mut flat = Vec::with_capacity(n * vecs.len());
        let mut lists = Vec::with_capacity(n);
        for s in 0..n {
            let mut ls = Vec::new();
            for &(df, dr) in vecs {
                let sq = if self.geo.on(s) {
                    self.geo.ray_squares(s, df as i32, dr as i32, bounce)
                } else {
                    Vec::new()
                };
                flat.push(self.geo.ray(&sq));
                ls.push(sq.iter().map(|&x| x as u8).collect());
            }
            lists.push(ls);
        }
        let dirs = vecs.len();
        let reach = (0..self.geo.n)
            .map(|s| {
                flat[s * dirs..(s + 1) * dirs]
                    .iter()
                    .fold(B::ZERO, |acc, ray| acc | ray.all)
            })
            .collect();
        self.rays[idx] = Some(FamilyRays {
            dirs,
            flat,
            lists,
            reach,
        });
    }

    fn ensure_lame(&mut self, f: u32) {
        let idx = f.trailing_zeros() as usize;
        if self.lame[idx].is_some() {
            return;
        }
        let n = self.geo.n;
        let mut moves = vec![Vec::new(); n];
        let mut reverse = vec![Vec::new(); n];
        for s in 0..n {
            if !self.geo.on(s) {
                continue;
            }
            for &(df, dr) in lame_family_vectors(f) {
                let (df, dr) = (df as i32, dr as i32);
                let Some(to) = self.geo.step(s, df, dr) else {
                    continue;
                };
                let mut path = B::ZERO;
                let mut ok = true;
                for (pf, pr) in lame_path(df, dr) {
                    match self.geo.step(s, pf, pr) {
                        Some(p) => path |= B::bit(p),
                        None => ok = false,
                    }
                }
                if ok {
                    moves[s].push((to as u8, path));
                    reverse[to].push((s as u8, path));
                }
            }
        }
        self.lame[idx] = Some(LameTable { moves, reverse });
    }

    /// FSF's `sliding_attack` on an empty board along the topology: squares of `v` up to
    /// `limit` (0 = unlimited); `hop_range` treats limit 1 as unlimited.
    fn empty_ray(&self, s: usize, v: (i32, i32), limit: i32, bounce: bool, hop_range: bool) -> B {
        let mut b = B::ZERO;
        let sq = self.geo.ray_squares(s, v.0, v.1, bounce);
        for (i, &t) in sq.iter().enumerate() {
            b |= B::bit(t);
            if limit > 0 && !(hop_range && limit == 1) && i as i32 + 1 >= limit {
                break;
            }
        }
        b
    }

    fn mode(
        &mut self,
        m: &Movement,
        initial: usize,
        md: usize,
        bounce: bool,
        color: usize,
    ) -> Mode<B> {
        use family::*;
        let n = self.geo.n;
        let mut mode = Mode::empty(n);
        let steps = &m.steps[initial][md];
        let slider = &m.slider[initial][md];
        let hopper = &m.hopper[initial][md];
        let mut fam = 0u32;
        for &(v, limit) in &steps.entries {
            if limit != 0 {
                let w = (v.0.abs(), v.1.abs());
                let a = (w.0.max(w.1), w.0.min(w.1));
                fam |= match a {
                    (2, 0) => LAME_DABBABA,
                    (2, 1) => HORSE,
                    (2, 2) => ELEPHANT,
                    (3, 2) => JANGGI_ELEPHANT,
                    _ => 0,
                };
            }
        }
        for &(v, _) in &slider.entries {
            let is_diag = v.0.abs() == 1 && v.1.abs() == 1;
            if is_diag {
                fam |= if bounce && self.geo.topology.max_reflections > 0 {
                    BISHOP_BOUNCED
                } else {
                    BISHOP
                };
            } else if v.1 == 0 && v.0.abs() == 1 {
                fam |= ROOK_H;
            } else if v.0 == 0 && v.1.abs() == 1 {
                fam |= ROOK_V;
            } else if KNIGHT.contains(&v) {
                fam |= NIGHTRIDER;
            }
        }
        for &(v, limit) in &hopper.entries {
            let g = limit == 1;
            if v.1 == 0 && v.0.abs() == 1 {
                fam |= if g { GRASS_H } else { CANNON_H };
            } else if v.0 == 0 && v.1.abs() == 1 {
                fam |= if g { GRASS_V } else { CANNON_V };
            } else if v.0.abs() == 1 && v.1.abs() == 1 {
                fam |= if g { GRASS_D } else { CANNON_D };
            }
        }
        for s in 0..n {
            if !self.geo.on(s) {
                continue;
            }
            let mut leap = B::ZERO;
            let mut pseudo = B::ZERO;
            for &(v, limit) in &steps.entries {
                let (df, dr) = adjust(v, color);
                if let Some(t) = self.geo.step(s, df, dr) {
                    pseudo |= B::bit(t);
                    if limit == 0 {
                        leap |= B::bit(t);
                    }
                }
            }
            for &(v, limit) in &slider.entries {
                let d = adjust(v, color);
                let diag = v.0.abs() == 1 && v.1.abs() == 1;
                pseudo |= self.empty_ray(s, d, limit, bounce && diag, false);
            }
            for &(v, limit) in &hopper.entries {
                pseudo |= self.empty_ray(s, adjust(v, color), limit, false, true);
            }
            mode.leap[s] = leap;
            mode.pseudo[s] = pseudo;
        }
        mode.families = fam;
        for f in 0..COUNT {
            let bit = 1u32 << f;
            if fam & bit != 0 {
                if bit & LAME != 0 {
                    self.ensure_lame(bit);
                } else {
                    self.ensure_rays(bit);
                }
            }
        }
        // Flatten the slider families' rays for this piece.
        let sl: Vec<usize> = (0..COUNT)
            .filter(|&f| fam & (1 << f) & SLIDERS != 0)
            .collect();
        let per: usize = sl
            .iter()
            .map(|&f| self.rays[f].as_ref().map_or(0, |r| r.dirs))
            .sum();
        mode.per_square = per;
        if per > 0 {
            for s in 0..n {
                for &f in &sl {
                    if let Some(r) = &self.rays[f] {
                        mode.rays.extend_from_slice(r.at(s));
                    }
                }
            }
        }
        mode
    }

    /// Whether `b` has `n` squares in a row (rank, file, diagonal).
    pub fn in_a_row(&self, b: B, n: u32) -> bool {
        if n == 0 {
            return false;
        }
        for sh in &self.line_shifts {
            let mut run = b;
            for _ in 1..n {
                // Squares starting a run one longer: the next square starts a run too.
                run &= sh.back(run) & sh.mask;
                if run.is_empty() {
                    break;
                }
            }
            if !run.is_empty() {
                return true;
            }
        }
        false
    }

    /// The shifts of vector `v` of `color` (None if it cannot be expressed as shifts).
    fn vec_shift(&self, v: (i32, i32)) -> VecShift<B> {
        let g = &self.geo;
        let mut parts: Vec<Shift<B>> = Vec::new();
        for s in 0..g.n {
            let Some(t) = g.step(s, v.0, v.1) else {
                continue;
            };
            let delta = t as i32 - s as i32;
            match parts.iter_mut().find(|p| p.delta == delta) {
                Some(p) => p.mask |= B::bit(s),
                None => parts.push(Shift {
                    mask: B::bit(s),
                    delta,
                }),
            }
        }
        VecShift { parts }
    }

    #[allow(clippy::too_many_arguments)]
    fn bulk(
        &self,
        m: &Movement,
        quiet: &Mode<B>,
        capture: &Mode<B>,
        initial: Option<&Mode<B>>,
        doubles: &[usize],
        warps: &[usize],
        color: usize,
    ) -> Option<Bulk<B>> {
        use family::*;
        if !doubles.is_empty() || !warps.is_empty() || capture.families != 0 {
            return None;
        }
        let no_riders =
            |i: usize, md: usize| m.slider[i][md].is_empty() && m.hopper[i][md].is_empty();
        if !no_riders(0, QUIET) || !no_riders(0, CAPTURE) || !no_riders(1, QUIET) {
            return None;
        }
        if (quiet.families | initial.map_or(0, |i| i.families)) & !(LAME_DABBABA | HORSE | ELEPHANT)
            != 0
        {
            return None;
        }
        let mut b = Bulk {
            quiet: Vec::new(),
            capture: Vec::new(),
            lame: Vec::new(),
            initial: Vec::new(),
            initial_lame: Vec::new(),
        };
        let mut total = 0;
        for (init, md) in [(0usize, QUIET), (0, CAPTURE), (1, QUIET)] {
            for &(v, limit) in &m.steps[init][md].entries {
                // An initial move that is also a move from anywhere is that one move.
                if init == 1 && m.steps[0][QUIET].entries.contains(&(v, limit)) {
                    continue;
                }
                let d = adjust(v, color);
                total += 1;
                if limit == 0 {
                    let vs = self.vec_shift(d);
                    match (init, md) {
                        (0, QUIET) => b.quiet.push(vs),
                        (0, _) => b.capture.push(vs),
                        _ => b.initial.push(vs),
                    }
                } else if md == QUIET {
                    let w = (v.0.abs(), v.1.abs());
                    if !matches!((w.0.max(w.1), w.0.min(w.1)), (2, 0) | (2, 1) | (2, 2)) {
                        // Lame leaps of other shapes move nowhere (as in Fairy-Stockfish).
                        continue;
                    }
                    let path = lame_path(d.0, d.1);
                    let p = path[0];
                    let pair = (self.vec_shift(p), self.vec_shift((d.0 - p.0, d.1 - p.1)));
                    if init == 0 {
                        b.lame.push(pair);
                    } else {
                        b.initial_lame.push(pair);
                    }
                }
            }
        }
        // Few vectors: shifting the set beats a lookup per piece. Distinct vectors must never
        // meet (a narrow wrapped board could make two vectors one square).
        if total > 8 {
            return None;
        }
        for s in 0..self.geo.n {
            let sb = B::bit(s);
            for (list, t) in [(&b.quiet, quiet.leap[s]), (&b.capture, capture.leap[s])] {
                let sum: u32 = list.iter().map(|v| v.apply(sb).count()).sum();
                if sum != t.count() {
                    return None;
                }
            }
        }
        Some(b)
    }

    fn kind_tables(
        &mut self,
        m: &Movement,
        bounce: bool,
        ep: EnPassantCapture,
        initial_region: &[SquareSet; 2],
        color: usize,
        places: Places<'_, B>,
    ) -> KindTables<B> {
        let Places {
            region,
            zone,
            lines,
        } = places;
        let n = self.geo.n;
        let mut quiet = self.mode(m, 0, QUIET, bounce, color);
        let mut capture = self.mode(m, 0, CAPTURE, bounce, color);
        let mut initial = {
            let i = self.mode(m, 1, QUIET, bounce, color);
            (!i.is_empty()).then_some(i)
        };
        // Zone leaps join the plain leaps of the zone's squares.
        if let Some((zm, zone)) = zone {
            for (mode, md) in [(&mut quiet, QUIET), (&mut capture, CAPTURE)] {
                let z = self.mode(zm, 0, md, bounce, color);
                for s in zone.squares() {
                    mode.leap[s] |= z.leap[s];
                    mode.pseudo[s] |= z.leap[s];
                }
            }
        }
        // Moves along lines: from a square of the set, kept to the set. The tables of the
        // joined movement give the rays; its per-square masks are the piece's own and, on
        // the lines, the line moves'.
        if let Some((lm, lines)) = lines {
            let joined = m.joined(lm);
            for (mode, md) in [(&mut quiet, QUIET), (&mut capture, CAPTURE)] {
                let l = self.mode(lm, 0, md, bounce, color);
                let mut j = self.mode(&joined, 0, md, bounce, color);
                for s in 0..n {
                    j.leap[s] = mode.leap[s];
                    j.pseudo[s] = mode.pseudo[s];
                    if lines.has(s) {
                        j.leap[s] |= l.leap[s] & lines;
                        j.pseudo[s] |= (l.leap[s] | l.pseudo[s]) & lines;
                    }
                }
                *mode = j;
            }
        }
        // Fairy-Stockfish's immobility test ignores the mobility region.
        let reach: Vec<bool> = (0..n)
            .map(|s| !(quiet.pseudo[s] | capture.pseudo[s]).is_empty())
            .collect();
        if let Some(region) = region {
            for mode in [&mut quiet, &mut capture]
                .into_iter()
                .chain(initial.as_mut())
            {
                for s in 0..n {
                    mode.leap[s] &= region;
                    mode.pseudo[s] &= region;
                }
            }
        }
        let same = quiet.leap == capture.leap
            && quiet.pseudo == capture.pseudo
            && quiet.families == capture.families;
        let mut doubles = Vec::new();
        for d in &m.double_leaps {
            let mut t = DoubleTable {
                mid: vec![B::ZERO; n],
                land: vec![B::ZERO; n],
                rev_mid: vec![B::ZERO; n],
                rev_from: vec![B::ZERO; n],
                quiet: d.quiet,
                capture: d.capture,
            };
            for s in 0..n {
                if !self.geo.on(s) {
                    continue;
                }
                for &v in &d.first {
                    let (df, dr) = adjust(v, color);
                    if let Some(mid) = self.geo.step(s, df, dr) {
                        t.mid[s] |= B::bit(mid);
                        t.rev_from[mid] |= B::bit(s);
                    }
                }
                for &v in &d.second {
                    let (df, dr) = adjust(v, color);
                    if let Some(to) = self
                        .geo
                        .step(s, df, dr)
                        .filter(|&to| region.is_none_or(|r| r.has(to)))
                    {
                        t.land[s] |= B::bit(to);
                        t.rev_mid[to] |= B::bit(s);
                    }
                }
            }
            doubles.push(self.doubles[color].len());
            self.doubles[color].push(t);
        }
        let mut warps = Vec::new();
        for (md, list) in m.warps.iter().enumerate() {
            for &v in list {
                let (df, dr) = adjust(v, color);
                // A warp crosses the edge of the plain rectangle, whatever the topology.
                let plain = |s: usize, df: i32, dr: i32| -> Option<usize> {
                    let f = self.geo.file(s) as i32 + df;
                    let r = self.geo.rank(s) as i32 + dr;
                    if f < 0 || r < 0 || f >= self.geo.files as i32 || r >= self.geo.ranks as i32 {
                        return None;
                    }
                    let t = r as usize * self.geo.files + f as usize;
                    self.geo.on(t).then_some(t)
                };
                let mut t = WarpTable {
                    path: vec![B::ZERO; n],
                    land: vec![0xFF; n],
                    reverse: vec![Vec::new(); n],
                    quiet: md == QUIET,
                    capture: md == CAPTURE,
                };
                for s in 0..n {
                    if !self.geo.on(s) {
                        continue;
                    }
                    let mut path = B::ZERO;
                    let mut cur = s;
                    while let Some(nx) = plain(cur, df, dr) {
                        path |= B::bit(nx);
                        cur = nx;
                    }
                    let mut land = s;
                    while let Some(nx) = plain(land, -df, -dr) {
                        land = nx;
                    }
                    if land != s && region.is_none_or(|r| r.has(land)) {
                        t.path[s] = path;
                        t.land[s] = land as u8;
                        t.reverse[land].push((s as u8, path));
                    }
                }
                // Quiet and capture warps of the same direction share nothing but geometry.
                warps.push(self.warps[color].len());
                self.warps[color].push(t);
            }
        }
        let mut epb = vec![B::ZERO; n];
        for s in 0..n {
            if !self.geo.on(s) {
                continue;
            }
            match ep {
                EnPassantCapture::None => {}
                EnPassantCapture::Marked => {
                    for &v in &m.en_passant {
                        let (df, dr) = adjust(v, color);
                        if let Some(t) = self.geo.step(s, df, dr) {
                            epb[s] |= B::bit(t);
                        }
                    }
                }
                EnPassantCapture::CaptureOnly => {
                    epb[s] = capture.pseudo[s] & !quiet.pseudo[s];
                }
            }
            if let Some(r) = region {
                epb[s] &= r;
            }
        }
        let mut rev_leap = vec![B::ZERO; n];
        let mut rev_pseudo = vec![B::ZERO; n];
        let mut mobile = B::ZERO;
        for s in 0..n {
            for t in capture.leap[s].squares() {
                rev_leap[t] |= B::bit(s);
            }
            for t in capture.pseudo[s].squares() {
                rev_pseudo[t] |= B::bit(s);
            }
            let mut any = reach[s];
            for &d in &doubles {
                let dt = &self.doubles[color][d];
                any |= dt.mid[s]
                    .squares()
                    .any(|mid| !(dt.land[mid] & !B::bit(s)).is_empty());
            }
            for &w in &warps {
                any |= self.warps[color][w].land[s] != 0xFF;
            }
            if any && self.geo.on(s) {
                mobile |= B::bit(s);
            }
        }
        let capture_beyond_leaps = capture.families != 0
            || doubles.iter().any(|&d| self.doubles[color][d].capture)
            || warps.iter().any(|&w| self.warps[color][w].capture);
        let plain = doubles.is_empty() && warps.is_empty() && initial.is_none();
        let shape = if plain && same && quiet.families == 0 {
            Shape::Leap
        } else if plain && same && quiet.families & !family::SLIDERS == 0 {
            Shape::Rider
        } else if plain && quiet.families == 0 && capture.families == 0 {
            Shape::Leap
        } else {
            Shape::General
        };
        let mut rev_ep = vec![B::ZERO; n];
        for s in 0..n {
            for t in epb[s].squares() {
                rev_ep[t] |= B::bit(s);
            }
        }
        // Shifting whole sets knows nothing of regions and zones.
        let bulk = if region.is_some() || zone.is_some() || lines.is_some() {
            None
        } else {
            self.bulk(
                m,
                &quiet,
                &capture,
                initial.as_ref(),
                &doubles,
                &warps,
                color,
            )
        };
        KindTables {
            shape,
            bulk,
            rev_ep,
            same,
            quiet,
            capture,
            initial,
            doubles,
            warps,
            ep: epb,
            rev_leap,
            rev_pseudo,
            mobile,
            initial_region: self.geo.set(&initial_region[color]),
            capture_beyond_leaps,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lame_paths_as_fairy_stockfish() {
        assert_eq!(lame_path(1, 2), vec![(0, 1)]);
        assert_eq!(lame_path(2, -1), vec![(1, 0)]);
        assert_eq!(lame_path(2, 2), vec![(1, 1)]);
        assert_eq!(lame_path(0, 2), vec![(0, 1)]);
        assert_eq!(lame_path(2, 3), vec![(0, 1), (1, 2)]);
        assert_eq!(lame_path(-3, 2), vec![(-1, 0), (-2, 1)]);
    }

    #[test]
    fn unused_betza_import_guard() {
        // The tables read Movement as `betza` parses it.
        let m = crate::betza::parse("DD", crate::betza::Dialect::Fsf).unwrap();
        let r = Rules::new(8, 8, vec![crate::rules::PieceRules::with_movement('D', m)]);
        let c: Compiled<u64> = Compiled::new(&r).unwrap();
        // Fairy-Stockfish rides only W, F and N lines: a dabbaba rider has no family.
        assert_eq!(c.kinds[0][0].quiet.families, 0);
        assert!(c.kinds[0][0].quiet.leap.iter().all(|b| b.is_empty()));
    }
}
