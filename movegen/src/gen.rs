//! Attack tests, pins and check masks, and move generation (listing or bulk counting) from
//! the compiled tables.
//!
//! Legality, when every attack of the model is a "first piece blocks" attack (leaps, rider
//! lines on any topology, lame leaps, two-leg leaps, warps): each royal is scanned once for
//! checkers (with the squares that block each) and pinned pieces (with the squares they may
//! still go to); a non-royal move is legal when its destination is in the check mask and the
//! pin mask; a royal move when its destination is not attacked with the royal lifted (and it
//! respects the pins and checks of the other royals). En passant and castling are made on the
//! bitboards and tested. Models with hoppers (a screen can be added or removed) or the
//! "all royals" check rule test every move that way ("trial legality").

use crate::bitboard::Bits;
use crate::rules::{CheckRule, DropRules};
use crate::state::State;
use crate::tables::{
    family, Bulk, Compiled, CompiledPromotion, KindTables, Mode, Shape, MAX_KINDS,
};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{Color, Move, MoveFlags, Position, Square};

/// Where generated moves go.
pub trait Sink {
    /// Whether the sink only counts (then whole target sets are counted at once).
    const COUNT: bool;
    /// One move.
    fn push(&mut self, m: Move);
    /// `n` moves (counting sinks only).
    fn add(&mut self, n: u64);
}

/// Counts moves.
pub struct Count(pub u64);

impl Sink for Count {
    const COUNT: bool = true;
    #[inline(always)]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn add(&mut self, n: u64) {
        self.0 += n;
    }
}

/// Appends moves to a list.
pub struct List<'a>(pub &'a mut RVec<Move>);

impl Sink for List<'_> {
    const COUNT: bool = false;
    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.0.push(m);
    }
    fn add(&mut self, _n: u64) {}
}

/// Stops at the first move.
pub struct Any(pub bool);

impl Sink for Any {
    const COUNT: bool = true;
    #[inline(always)]
    fn push(&mut self, _m: Move) {
        self.0 = true;
    }
    #[inline(always)]
    fn add(&mut self, n: u64) {
        self.0 |= n > 0;
    }
}

const MAX_ROYALS: usize = 16;
const MAX_PINS: usize = 32;

/// Checks and pins around the mover's royals.
struct Analysis<B: Bits> {
    royals: [u8; MAX_ROYALS],
    n_royals: usize,
    /// Per royal: the squares that resolve its check (capture or block), when in check.
    block: [B; MAX_ROYALS],
    /// Per royal: whether it is in check.
    checked: u32,
    /// AND of `block` over royals in check.
    check_all: B,
    pinned: B,
    pins: [(u8, u8, B); MAX_PINS],
    n_pins: usize,
}

/// Pieces pinned to royals by sliders ([`Ctx::slider_pins`]).
pub(crate) struct Pins<B: Bits> {
    pinned: B,
    /// (pinned square, the squares it may move to).
    list: [(u8, B); MAX_PINS],
    n: usize,
}

impl<B: Bits> Pins<B> {
    /// Whether a move from `from` to `to` keeps every line `from` blocks blocked.
    #[inline(always)]
    pub(crate) fn allows(&self, from: usize, to: usize) -> bool {
        !self.pinned.has(from)
            || self.list[..self.n]
                .iter()
                .all(|&(sq, mask)| sq as usize != from || mask.has(to))
    }
}

/// See [`Ctx::check_squares`].
struct CheckSquares<B: Bits> {
    /// Per kind of the mover: where a piece of it attacks the other side's royal.
    direct: [B; MAX_KINDS],
    /// The mover's pieces nearest the royal on one of its lines: a move of one of them may
    /// uncover a slider behind it, or open the line for itself (a pawn stepping on along it
    /// and promoting), which the direct squares, taken with the piece in place, do not show;
    /// such moves are made on the bitboards. Any other move leaves every line as it is.
    blockers: B,
}

/// The board after a move that is tried, not made ([`Ctx::trial_board`]): what the other
/// side's attacks see of it.
#[derive(Clone, Copy, Debug)]
pub struct TrialBoard<B> {
    /// Occupied squares.
    pub occ: B,
    /// The other side's pieces whose attacks do not count: those the move takes (and those
    /// the caller silences, see `Generator::retain_tried`).
    pub gone: B,
    /// The mover's royal pieces.
    pub royals: B,
    /// Pieces of both sides whose kinds hop as janggi cannons.
    pub janggi: B,
}

/// One generation over one position.
pub struct Ctx<'a, B: Bits> {
    /// Tables.
    pub c: &'a Compiled<B>,
    /// The position.
    pub pos: &'a Position,
    /// Its bitboards.
    pub st: State<B>,
    /// Mover.
    pub us: usize,
    /// The other side.
    pub them: usize,
    /// Pieces that carry the `Moved` attribute (no initial moves).
    pub moved: B,
    /// `fam[family]`: the other side's pieces of the family's full kinds (attackers along its
    /// rays wherever they stand).
    fam: [B; family::COUNT],
    /// Empty squares of the board.
    empty: B,
    /// Pieces of the other side that may be captured.
    capturable: B,
    /// The all-royals check rule (weak dual king) is in force.
    all_rule: bool,
    /// Pieces of both sides whose kinds hop as janggi cannons (they are no screens for one
    /// another and cannot take one another).
    janggi: B,
    /// The other side's candidates of every capture family against the mover's first royal
    /// (see [`Ctx::royal_candidates`]), found at the first trial move that asks.
    royal_cands: std::cell::OnceCell<(usize, [B; family::COUNT])>,
}

impl<'a, B: Bits> Ctx<'a, B> {
    /// A context for `side`'s moves.
    #[inline(always)]
    pub fn new(c: &'a Compiled<B>, pos: &'a Position, st: State<B>, side: Color) -> Self {
        let mut moved = B::ZERO;
        if c.rules.initial_needs_unmoved && pos.has_attributes() {
            for a in pos.attributes() {
                if a.name == houserules_plugin_api::attr::MOVED && a.value != 0 {
                    if let Some(s) = c.geo.compact(a.square) {
                        moved |= B::bit(s);
                    }
                }
            }
        }
        let fam = Self::full_family_pieces(c, &st, 1 - side.index());
        let immune = st.of_kinds(c.immune_kinds);
        let janggi = st.of_kinds(c.janggi_kinds);
        Ctx {
            janggi,
            c,
            pos,
            st,
            us: side.index(),
            them: 1 - side.index(),
            moved,
            fam,
            empty: !st.occ & c.geo.board,
            capturable: st.color[1 - side.index()] & !immune,
            all_rule: c.rules.check == CheckRule::All,
            royal_cands: std::cell::OnceCell::new(),
        }
    }

    /// The other side's pieces of every capture family that may attack `sq` along the
    /// family's lines ([`Ctx::family_attackers`]), where `sq` is the mover's first royal:
    /// every trial move of a position that leaves the royal where it is asks about the same
    /// square, and hoppers (all of them partial kinds) cost a loop over their kinds each.
    #[inline]
    fn royal_candidates(&self, sq: usize) -> Option<&[B; family::COUNT]> {
        let (at, cands) = self.royal_cands.get_or_init(|| {
            let royals = self.royals_of(self.us);
            let mut cands = [B::ZERO; family::COUNT];
            if royals.is_empty() {
                return (usize::MAX, cands);
            }
            let r = royals.lsb();
            let mut f = self.c.families_by[self.them];
            while f != 0 {
                let i = f.trailing_zeros() as usize;
                f &= f - 1;
                cands[i] = self.family_attackers(i, r);
            }
            (r, cands)
        });
        (*at == sq).then_some(cands)
    }

    /// Per slider family, the pieces of `color` whose kind rides its whole rays.
    #[inline(always)]
    fn full_family_pieces(c: &Compiled<B>, st: &State<B>, color: usize) -> [B; family::COUNT] {
        let mut fam = [B::ZERO; family::COUNT];
        let mut f = c.families_by[color] & family::SLIDERS;
        while f != 0 {
            let i = f.trailing_zeros() as usize;
            f &= f - 1;
            for &k in &c.full_kinds[color][i] {
                fam[i] |= st.kind[k as usize];
            }
            fam[i] &= st.color[color];
        }
        fam
    }

    #[inline(always)]
    fn kt(&self, color: usize, k: usize) -> &'a KindTables<B> {
        &self.c.kinds[color][k]
    }

    /// Royal pieces of `color`.
    #[inline(always)]
    pub fn royals_of(&self, color: usize) -> B {
        self.st.of_kinds(self.c.royal_kinds) & self.st.color[color]
    }

    /// Family rays and lame leaps of `fams` from `s` (before the pseudo mask); hops never
    /// jump a piece of `no_screen`.
    #[inline(always)]
    fn families(&self, fams: u32, s: usize, occ: B, no_screen: B) -> B {
        let mut acc = B::ZERO;
        let mut f = fams;
        while f != 0 {
            let i = f.trailing_zeros() as usize;
            f &= f - 1;
            let bit = 1u32 << i;
            if bit & family::SLIDERS != 0 {
                if let Some(r) = &self.c.rays[i] {
                    for ray in r.at(s) {
                        acc |= ray.blocked(occ);
                    }
                }
            } else if bit & family::LAME != 0 {
                if let Some(l) = &self.c.lame[i] {
                    for &(to, path) in &l.moves[s] {
                        if (path & occ).is_empty() {
                            acc |= B::bit(to as usize);
                        }
                    }
                }
            } else if let Some(r) = &self.c.rays[i] {
                let grass = bit & (family::GRASS_H | family::GRASS_V | family::GRASS_D) != 0;
                for list in &r.lists[s] {
                    let Some(screen) = list.iter().position(|&x| occ.has(x as usize)) else {
                        continue;
                    };
                    if no_screen.has(list[screen] as usize) {
                        continue;
                    }
                    if grass {
                        if let Some(&t) = list.get(screen + 1) {
                            acc |= B::bit(t as usize);
                        }
                    } else {
                        for &t in &list[screen + 1..] {
                            acc |= B::bit(t as usize);
                            if occ.has(t as usize) {
                                break;
                            }
                        }
                    }
                }
            }
        }
        acc
    }

    #[inline(always)]
    fn mode_targets(&self, m: &Mode<B>, s: usize, occ: B) -> B {
        let mut t = m.leap[s];
        if m.families != 0 {
            let mut r = B::ZERO;
            for ray in m.rays_at(s) {
                r |= ray.blocked(occ);
            }
            let other = m.families & !family::SLIDERS;
            if other != 0 {
                let no_screen = if m.janggi { self.janggi } else { B::ZERO };
                r |= self.families(other, s, occ, no_screen);
            }
            t |= r & m.pseudo[s];
        }
        if m.janggi {
            t &= !self.janggi;
        }
        t
    }

    /// Quiet targets, capture targets, and the quiet targets that pass a square (en passant
    /// victims), of the piece of `kind` on `s`.
    #[inline(always)]
    fn targets(&self, kind: usize, s: usize) -> (B, B, B) {
        self.targets_on(kind, s, self.st.occ, self.empty, self.capturable)
    }

    /// [`Ctx::targets`] on the occupancy `occ` (its empty squares `empty`, the pieces that
    /// may be taken `capturable`) instead of this context's.
    #[inline(always)]
    fn targets_on(&self, kind: usize, s: usize, occ: B, empty: B, capturable: B) -> (B, B, B) {
        let kt = self.kt(self.us, kind);
        match kt.shape {
            Shape::Leap => {
                return (
                    kt.quiet.leap[s] & empty,
                    kt.capture.leap[s] & capturable,
                    B::ZERO,
                );
            }
            Shape::Rider => {
                let t = self.mode_targets(&kt.quiet, s, occ);
                return (t & empty, t & capturable, B::ZERO);
            }
            Shape::General => {}
        }
        let (mut q, mut c) = if kt.same {
            let t = self.mode_targets(&kt.quiet, s, occ);
            (t & empty, t & capturable)
        } else {
            (
                self.mode_targets(&kt.quiet, s, occ) & empty,
                self.mode_targets(&kt.capture, s, occ) & capturable,
            )
        };
        let mut passing = B::ZERO;
        let info = &self.c.info[kind];
        if info.ep_victim && kt.quiet.families & family::LAME != 0 {
            passing |= self.families(kt.quiet.families & family::LAME, s, occ, B::ZERO)
                & kt.quiet.pseudo[s]
                & empty;
        }
        if let Some(init) = &kt.initial {
            if kt.initial_region.has(s) && !self.moved.has(s) {
                let t = self.mode_targets(init, s, occ) & empty;
                q |= t;
                if info.ep_victim {
                    passing |= t;
                }
            }
        }
        for &d in &kt.doubles {
            let t = &self.c.doubles[self.us][d];
            for m in (t.mid[s] & empty).squares() {
                let land = t.land[m] & !B::bit(s);
                if t.quiet {
                    q |= land & empty;
                }
                if t.capture {
                    c |= land & capturable;
                }
            }
        }
        for &w in &kt.warps {
            let t = &self.c.warps[self.us][w];
            let l = t.land[s];
            if l != 0xFF && (t.path[s] & occ).is_empty() {
                let lb = B::bit(l as usize);
                if t.quiet {
                    q |= lb & empty;
                }
                if t.capture {
                    c |= lb & capturable;
                }
            }
        }
        (q, c, passing & q)
    }

    /// The live en passant square and victim for the mover, if any.
    #[inline(always)]
    fn ep(&self) -> Option<(usize, usize)> {
        if !self.c.any_en_passant || self.pos.ep_passed.is_none() {
            return None;
        }
        if self.pos.side_to_move.index() != self.us {
            return None;
        }
        let p = self.c.geo.compact(self.pos.ep_passed)?;
        let v = self.c.geo.compact(self.pos.ep_victim)?;
        (!self.st.occ.has(p) && self.st.color[self.them].has(v)).then_some((p, v))
    }

    /// The pieces of `by` that attack `sq` with occupancy `occ`, the pieces on `gone`
    /// removed.
    pub fn attackers(&self, sq: usize, occ: B, by: usize, gone: B) -> B {
        self.attack_scan::<false>(sq, occ, by, gone, self.janggi)
    }

    /// Whether a piece of `by` attacks `sq`.
    #[inline(always)]
    pub fn attacked(&self, sq: usize, occ: B, by: usize, gone: B) -> bool {
        !self
            .attack_scan::<true>(sq, occ, by, gone, self.janggi)
            .is_empty()
    }

    /// The attack scan; `janggi`: where the janggi-hop pieces stand (after a trial move).
    #[inline(always)]
    fn attack_scan<const FIRST: bool>(
        &self,
        sq: usize,
        occ: B,
        by: usize,
        gone: B,
        janggi: B,
    ) -> B {
        let own = (by == self.them).then_some(&self.fam);
        self.attack_scan_in::<FIRST>(&self.st, own, false, sq, occ, by, gone, janggi, None)
    }

    /// [`Ctx::attack_scan`] by the other side on the square of one of the mover's royals
    /// after a trial move (`occ`, `gone`, `janggi`); `through`: see [`Ctx::attack_scan_in`].
    #[inline(always)]
    fn royal_attacked(&self, sq: usize, occ: B, gone: B, janggi: B, through: Option<B>) -> bool {
        let (fam, exact) = match self.royal_candidates(sq) {
            Some(cands) => (cands, true),
            None => (&self.fam, false),
        };
        !self
            .attack_scan_in::<true>(
                &self.st,
                Some(fam),
                exact,
                sq,
                occ,
                self.them,
                gone,
                janggi,
                through,
            )
            .is_empty()
    }

    /// Where the other side's royal can be checked by the mover, once per position
    /// (Fairy-Stockfish's check squares): per kind of the mover, the squares from which a
    /// piece of that kind attacks the royal now, and the mover's pieces nearest the royal on
    /// its lines, whose moves are made instead. `None` where that is not enough: more than
    /// one royal, or the mover attacks by hops, lame leaps, two legs or warps, which a move's
    /// own squares can open or close.
    fn check_squares(&self) -> Option<CheckSquares<B>> {
        let c = self.c;
        let (us, them) = (self.us, self.them);
        let f = c.families_by[us];
        if f & !family::SLIDERS != 0
            || !c.double_kinds[us].is_empty()
            || !c.warp_kinds[us].is_empty()
        {
            return None;
        }
        let royals = self.royals_of(them);
        let mut cs = CheckSquares {
            direct: [B::ZERO; MAX_KINDS],
            blockers: B::ZERO,
        };
        if royals.is_empty() {
            return Some(cs);
        }
        if royals.count() != 1 {
            return None;
        }
        let king = royals.lsb();
        let occ = self.st.occ;
        for &k in &c.leapers[us] {
            cs.direct[k as usize] |= c.kinds[us][k as usize].rev_leap[king];
        }
        let mut fams = f;
        while fams != 0 {
            let i = fams.trailing_zeros() as usize;
            fams &= fams - 1;
            let Some(rays) = &c.rays[i] else { continue };
            for ray in rays.at(king) {
                let reach = ray.blocked(occ);
                for &k in &c.full_kinds[us][i] {
                    cs.direct[k as usize] |= reach;
                }
                for &k in &c.partial_kinds[us][i] {
                    cs.direct[k as usize] |= reach & c.kinds[us][k as usize].rev_pseudo[king];
                }
                if let Some(first) = ray.first(occ).filter(|&f| self.st.color[us].has(f)) {
                    cs.blockers |= B::bit(first);
                }
            }
        }
        Some(cs)
    }

    /// Whether `m` (neither a castle nor en passant, nor a move of one of `cs.blockers`)
    /// gives check, from `cs`; `None` for a piece beyond the tables.
    fn gives_check_by(&self, cs: &CheckSquares<B>, m: Move) -> Option<bool> {
        let g = &self.c.geo;
        let to = g.compact(m.to)?;
        let placed = if m.is_drop() || m.is_promotion() {
            m.piece as usize
        } else {
            self.st_kind(g.compact(m.from)?)?
        };
        Some(cs.direct.get(placed)?.has(to))
    }

    /// For each move of `moves` that `wanted` asks about, whether it leaves the other side
    /// in check (see [`crate::Generator::checks_given`]): each move made on a copy of the
    /// bitboards and unmade, the mover's full-family pieces patched rather than gathered
    /// again.
    pub fn checks_given(
        &self,
        moves: &[Move],
        wanted: impl Fn(&Move) -> bool,
        out: &mut Vec<Option<bool>>,
    ) {
        let c = self.c;
        let (us, them) = (self.us, self.them);
        let squares = self.check_squares();
        // For the moves made: per kind, the families in which it is one of the mover's
        // full-family kinds, and those pieces before the move (found at the first such move).
        let mut patch: Option<([u32; MAX_KINDS], [B; family::COUNT])> = None;
        let mut st = self.st;
        out.extend(moves.iter().map(|m| {
            if !wanted(m) {
                return None;
            }
            let simple = !m.is_castle()
                && !m.flags.contains(MoveFlags::EN_PASSANT)
                && !squares.as_ref().is_some_and(|cs| {
                    !m.is_drop() && c.geo.compact(m.from).is_some_and(|f| cs.blockers.has(f))
                });
            if let Some(cs) = squares.as_ref().filter(|_| simple) {
                return self.gives_check_by(cs, *m);
            }
            let touched = self.make_on(&mut st, *m)?;
            let [moved, placed, _] = touched;
            let (fams_of, base) = patch.get_or_insert_with(|| {
                let mut fams_of = [0u32; MAX_KINDS];
                for (i, kinds) in c.full_kinds[us].iter().enumerate() {
                    for &k in kinds {
                        if let Some(f) = fams_of.get_mut(k as usize) {
                            *f |= 1 << i;
                        }
                    }
                }
                (fams_of, Self::full_family_pieces(c, &self.st, us))
            });
            let mut fam = *base;
            if let Some(from) = self.c.geo.compact(m.from).filter(|_| !m.is_drop()) {
                let mut f = fams_of[moved] & c.families_by[us];
                while f != 0 {
                    let i = f.trailing_zeros() as usize;
                    f &= f - 1;
                    fam[i] &= !B::bit(from);
                }
            }
            if let Some(to) = self.c.geo.compact(m.to) {
                let mut f = fams_of[placed] & c.families_by[us];
                while f != 0 {
                    let i = f.trailing_zeros() as usize;
                    f &= f - 1;
                    fam[i] |= B::bit(to);
                }
            }
            let janggi = st.of_kinds(c.janggi_kinds);
            let royals = st.of_kinds(c.royal_kinds) & st.color[them];
            let hit = |r: usize| {
                !self
                    .attack_scan_in::<true>(
                        &st,
                        Some(&fam),
                        false,
                        r,
                        st.occ,
                        us,
                        B::ZERO,
                        janggi,
                        None,
                    )
                    .is_empty()
            };
            let check = match c.rules.check {
                CheckRule::All => !royals.is_empty() && royals.squares().all(hit),
                _ => royals.squares().any(hit),
            };
            self.unmake_on(&mut st, touched);
            Some(check)
        }));
    }

    /// The attack scan over the bitboards `st`; `fam`: the full-family pieces of `by` in
    /// them, where known, or (`exact`) every candidate of each family against `sq`.
    /// `through`: where `sq` was not attacked before a move that changed only these squares
    /// (and not `sq`), an attack after it must run through one of them: leaps are left out,
    /// and only the lines and lame legs that hold one of them are looked at.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn attack_scan_in<const FIRST: bool>(
        &self,
        st: &State<B>,
        fam: Option<&[B; family::COUNT]>,
        exact: bool,
        sq: usize,
        occ: B,
        by: usize,
        gone: B,
        janggi: B,
        through: Option<B>,
    ) -> B {
        let c = self.c;
        let mut acc = B::ZERO;
        let keep = st.color[by] & !gone;
        let on_line = |line: B| through.is_none_or(|t| !(line & t).is_empty());
        let other;
        let fam = match fam {
            Some(f) => f,
            None => {
                other = Self::full_family_pieces(c, st, by);
                &other
            }
        };
        if through.is_none() && !(c.leap_reach[by][sq] & keep).is_empty() {
            for &k in &c.leapers[by] {
                acc |= c.kinds[by][k as usize].rev_leap[sq] & st.kind[k as usize] & keep;
                if FIRST && !acc.is_empty() {
                    return acc;
                }
            }
        }
        let mut f = c.families_by[by];
        while f != 0 {
            let i = f.trailing_zeros() as usize;
            f &= f - 1;
            let bit = 1u32 << i;
            let mut cand = fam[i];
            if !exact {
                for &k in &c.partial_kinds[by][i] {
                    cand |= st.kind[k as usize] & c.kinds[by][k as usize].rev_pseudo[sq];
                }
            }
            cand &= keep;
            if cand.is_empty() {
                continue;
            }
            if bit & family::LAME != 0 {
                if let Some(l) = &c.lame[i] {
                    for &(a, path) in &l.reverse[sq] {
                        if cand.has(a as usize) && (path & occ).is_empty() && on_line(path) {
                            acc |= B::bit(a as usize);
                            if FIRST {
                                return acc;
                            }
                        }
                    }
                }
                continue;
            }
            // Sliders and hoppers: none of the family's rays from `sq` holds a candidate.
            let Some(r) = &c.rays[i] else { continue };
            if (r.reach[sq] & cand).is_empty() {
                continue;
            }
            if bit & family::SLIDERS != 0 {
                for ray in r.at(sq) {
                    if (ray.all & cand).is_empty() || !on_line(ray.all) {
                        continue;
                    }
                    if let Some(b) = ray.first(occ) {
                        if cand.has(b) {
                            acc |= B::bit(b);
                            if FIRST {
                                return acc;
                            }
                        }
                    }
                }
            } else {
                let grass = bit & (family::GRASS_H | family::GRASS_V | family::GRASS_D) != 0;
                for (list, ray) in r.lists[sq].iter().zip(r.at(sq)) {
                    if (ray.all & cand).is_empty() || !on_line(ray.all) {
                        continue;
                    }
                    let mut it = list.iter().map(|&x| x as usize);
                    let attacker = if grass {
                        // The square next to `sq` is the screen; the attacker is the first
                        // piece beyond it.
                        match it.next() {
                            Some(h) if occ.has(h) => it.find(|&x| occ.has(x)),
                            _ => None,
                        }
                    } else {
                        // One screen, then the attacker: on a straight ray both read from the
                        // ray's bitboard, else square by square. A janggi-hop attacker does
                        // not jump another.
                        let hop = if ray.single {
                            ray.first(occ).and_then(|screen| {
                                Some((screen, ray.first(occ & !B::bit(screen))?))
                            })
                        } else {
                            it.by_ref()
                                .find(|&x| occ.has(x))
                                .and_then(|screen| Some((screen, it.find(|&x| occ.has(x))?)))
                        };
                        hop.filter(|&(screen, a)| !(janggi.has(a) && janggi.has(screen)))
                            .map(|(_, a)| a)
                    };
                    if let Some(a) = attacker {
                        if cand.has(a) {
                            acc |= B::bit(a);
                            if FIRST {
                                return acc;
                            }
                        }
                    }
                }
            }
        }
        for &(k, d) in &c.double_kinds[by] {
            let p = st.kind[k as usize] & keep & !B::bit(sq);
            if p.is_empty() {
                continue;
            }
            let t = &c.doubles[by][d];
            for m in (t.rev_mid[sq] & !occ & c.geo.board).squares() {
                acc |= t.rev_from[m] & p;
                if FIRST && !acc.is_empty() {
                    return acc;
                }
            }
        }
        for &(k, w) in &c.warp_kinds[by] {
            let p = st.kind[k as usize] & keep;
            if p.is_empty() {
                continue;
            }
            for &(a, path) in &c.warps[by][w].reverse[sq] {
                if p.has(a as usize) && (path & occ).is_empty() {
                    acc |= B::bit(a as usize);
                    if FIRST {
                        return acc;
                    }
                }
            }
        }
        acc
    }

    /// The other side's pieces of capture family `i` that may attack `r` along its lines:
    /// those of its full kinds wherever they stand, those of the others where their reach
    /// on an empty board covers `r`.
    #[inline(always)]
    fn family_attackers(&self, i: usize, r: usize) -> B {
        let (c, them) = (self.c, self.them);
        let mut cand = self.fam[i];
        for &k in &c.partial_kinds[them][i] {
            cand |= self.st.pieces(them, k as usize) & c.kinds[them][k as usize].rev_pseudo[r];
        }
        cand
    }

    /// What decides the quiet moves of the mover's pieces that are not among `ours` (its
    /// pseudo-royal pieces) where none of `ours` is attacked and the other side attacks only
    /// by leaps and slides: such a move can only uncover an attack on a royal by taking a
    /// pinned piece off its line (a leap's reach does not depend on what stands between, and
    /// a piece moved in front of a royal only blocks). The pins are those to `exposed`, the
    /// royals that attacks can reach. `None` where every move needs a look of its own.
    pub(crate) fn quiet_pins(&self, ours: B, exposed: B) -> Option<Pins<B>> {
        let c = self.c;
        let them = self.them;
        if c.families_by[them] & !family::SLIDERS != 0
            || !c.double_kinds[them].is_empty()
            || !c.warp_kinds[them].is_empty()
        {
            return None;
        }
        if ours
            .squares()
            .any(|r| self.attacked(r, self.st.occ, them, B::ZERO))
        {
            return None;
        }
        self.slider_pins(exposed)
    }

    /// The mover's pieces that alone stand between one of `royals` and a slider of the
    /// other side on its line, each with the squares it may move to and still stand between
    /// (the line up to the slider and the slider's square). `None` with more pins than
    /// tracked.
    pub(crate) fn slider_pins(&self, royals: B) -> Option<Pins<B>> {
        let c = self.c;
        let (us, them) = (self.us, self.them);
        let occ = self.st.occ;
        let own = self.st.color[us];
        let mut pins = Pins {
            pinned: B::ZERO,
            list: [(0, B::ZERO); MAX_PINS],
            n: 0,
        };
        for r in royals.squares() {
            let mut f = c.families_by[them] & family::SLIDERS;
            while f != 0 {
                let i = f.trailing_zeros() as usize;
                f &= f - 1;
                let Some(rays) = &c.rays[i] else { continue };
                let cand = self.family_attackers(i, r);
                if (rays.reach[r] & cand).is_empty() {
                    continue;
                }
                for ray in rays.at(r) {
                    if (ray.all & cand).is_empty() {
                        continue;
                    }
                    let Some(b1) = ray.first(occ) else { continue };
                    if !own.has(b1) {
                        continue;
                    }
                    let o2 = occ ^ B::bit(b1);
                    if ray.first(o2).is_some_and(|b2| cand.has(b2)) {
                        if pins.n >= MAX_PINS {
                            return None;
                        }
                        pins.list[pins.n] = (b1 as u8, ray.blocked(o2));
                        pins.n += 1;
                        pins.pinned |= B::bit(b1);
                    }
                }
            }
        }
        Some(pins)
    }

    /// Checkers and pins around the mover's royals; `None` with more royals than tracked.
    #[inline(always)]
    fn analyze(&self) -> Option<Analysis<B>> {
        let c = self.c;
        let (us, them) = (self.us, self.them);
        let royals = self.royals_of(us);
        let mut an = Analysis {
            royals: [0; MAX_ROYALS],
            n_royals: 0,
            block: [!B::ZERO; MAX_ROYALS],
            checked: 0,
            check_all: !B::ZERO,
            pinned: B::ZERO,
            pins: [(0, 0, B::ZERO); MAX_PINS],
            n_pins: 0,
        };
        if royals.count() as usize > MAX_ROYALS {
            return None;
        }
        let occ = self.st.occ;
        let own = self.st.color[us];
        for (ri, r) in royals.squares().enumerate() {
            an.royals[ri] = r as u8;
            an.n_royals = ri + 1;
            // (checker, block) pairs found so far for this royal.
            let mut checker: Option<usize> = None;
            let mut block = !B::ZERO;
            let mut double = false;
            let mut found =
                |a: usize, b: B, checker: &mut Option<usize>, block: &mut B| match *checker {
                    None => {
                        *checker = Some(a);
                        *block = b;
                    }
                    Some(x) if x == a => *block &= b,
                    Some(_) => double = true,
                };
            let mut pins_ok = true;
            let mut pin = |sq: usize, mask: B, an: &mut Analysis<B>| {
                if an.n_pins >= MAX_PINS {
                    pins_ok = false;
                    return;
                }
                an.pins[an.n_pins] = (sq as u8, ri as u8, mask);
                an.n_pins += 1;
                an.pinned |= B::bit(sq);
            };
            for &k in &c.leapers[them] {
                let hits = c.kinds[them][k as usize].rev_leap[r] & self.st.pieces(them, k as usize);
                for a in hits.squares() {
                    found(a, B::bit(a), &mut checker, &mut block);
                }
            }
            let mut f = c.families_by[them];
            while f != 0 {
                let i = f.trailing_zeros() as usize;
                f &= f - 1;
                let bit = 1u32 << i;
                let cand = self.family_attackers(i, r);
                if cand.is_empty() {
                    continue;
                }
                if bit & family::SLIDERS != 0 {
                    let Some(rays) = &c.rays[i] else { continue };
                    for ray in rays.at(r) {
                        if (ray.all & cand).is_empty() {
                            continue;
                        }
                        let Some(b1) = ray.first(occ) else { continue };
                        if cand.has(b1) {
                            found(b1, ray.blocked(occ), &mut checker, &mut block);
                        } else if own.has(b1) {
                            let o2 = occ ^ B::bit(b1);
                            if let Some(b2) = ray.first(o2) {
                                if cand.has(b2) {
                                    pin(b1, ray.blocked(o2), &mut an);
                                }
                            }
                        }
                    }
                } else if bit & family::LAME != 0 {
                    let Some(l) = &c.lame[i] else { continue };
                    for &(a, path) in &l.reverse[r] {
                        let a = a as usize;
                        if !cand.has(a) {
                            continue;
                        }
                        let blk = path & occ;
                        if blk.is_empty() {
                            found(a, path | B::bit(a), &mut checker, &mut block);
                        } else if !blk.several() && own.has(blk.lsb()) {
                            pin(blk.lsb(), path | B::bit(a), &mut an);
                        }
                    }
                } else {
                    // Hoppers use trial legality; never reached.
                    return None;
                }
            }
            for &(k, d) in &c.double_kinds[them] {
                let p = self.st.pieces(them, k as usize) & !B::bit(r);
                if p.is_empty() {
                    continue;
                }
                let t = &c.doubles[them][d];
                for m in (t.rev_mid[r] & c.geo.board).squares() {
                    let att = t.rev_from[m] & p;
                    for a in att.squares() {
                        let mask = B::bit(a) | B::bit(m);
                        if !occ.has(m) {
                            found(a, mask, &mut checker, &mut block);
                        } else if own.has(m) {
                            pin(m, mask, &mut an);
                        }
                    }
                }
            }
            for &(k, w) in &c.warp_kinds[them] {
                let p = self.st.pieces(them, k as usize);
                if p.is_empty() {
                    continue;
                }
                for &(a, path) in &c.warps[them][w].reverse[r] {
                    let a = a as usize;
                    if !p.has(a) {
                        continue;
                    }
                    let blk = path & occ;
                    if blk.is_empty() {
                        found(a, path | B::bit(a), &mut checker, &mut block);
                    } else if !blk.several() && own.has(blk.lsb()) {
                        pin(blk.lsb(), path | B::bit(a), &mut an);
                    }
                }
            }
            if !pins_ok {
                return None;
            }
            if checker.is_some() {
                an.checked |= 1 << ri;
                an.block[ri] = if double { B::ZERO } else { block };
                an.check_all &= an.block[ri];
            }
        }
        Some(an)
    }

    /// Pin mask of the piece on `s`, ignoring pins towards royal `except`.
    #[inline(always)]
    fn pin_mask(an: &Analysis<B>, s: usize, except: usize) -> B {
        let mut m = !B::ZERO;
        if an.pinned.has(s) {
            for &(sq, ri, mask) in &an.pins[..an.n_pins] {
                if sq as usize == s && ri as usize != except {
                    m &= mask;
                }
            }
        }
        m
    }

    /// The destinations of a move from `s` (`usize::MAX`: a piece pinned to nothing, a drop)
    /// after which the royals other than `except` are safe enough for the check rule: every
    /// one of them (any rule: the AND of their check and pin masks) or at least one
    /// (all-royals rule: the OR; empty with no other royal).
    #[inline(always)]
    fn safe_mask(&self, an: &Analysis<B>, s: usize, except: usize) -> B {
        if !self.all_rule {
            let pins = if s == usize::MAX {
                !B::ZERO
            } else {
                Self::pin_mask(an, s, except)
            };
            return Self::check_mask_except(an, except) & pins;
        }
        let mut any = B::ZERO;
        for ri in 0..an.n_royals {
            if ri == except {
                continue;
            }
            let mut m = if an.checked & (1 << ri) != 0 {
                an.block[ri]
            } else {
                !B::ZERO
            };
            if s != usize::MAX && an.pinned.has(s) {
                for &(sq, r, mask) in &an.pins[..an.n_pins] {
                    if sq as usize == s && r as usize == ri {
                        m &= mask;
                    }
                }
            }
            any |= m;
        }
        any
    }

    /// Every square `by` attacks with occupancy `occ` (the royal that moves lifted).
    #[inline(always)]
    fn attack_map(&self, by: usize, occ: B) -> B {
        let c = self.c;
        let mut acc = B::ZERO;
        for k in 0..c.n_kinds {
            let bb = self.st.pieces(by, k);
            if bb.is_empty() {
                continue;
            }
            let kt = &c.kinds[by][k];
            if let Some(b) = &kt.bulk {
                if kt.capture.families == 0 {
                    for v in &b.capture {
                        acc |= v.apply(bb);
                    }
                    continue;
                }
            }
            for s in bb.squares() {
                acc |= self.mode_targets(&kt.capture, s, occ);
                for &d in &kt.doubles {
                    let t = &c.doubles[by][d];
                    if t.capture {
                        for m in (t.mid[s] & !occ & c.geo.board).squares() {
                            acc |= t.land[m] & !B::bit(s);
                        }
                    }
                }
                for &w in &kt.warps {
                    let t = &c.warps[by][w];
                    if t.capture && t.land[s] != 0xFF && (t.path[s] & occ).is_empty() {
                        acc |= B::bit(t.land[s] as usize);
                    }
                }
            }
        }
        acc
    }

    /// Check mask for a move of royal `except` (the other royals' checks).
    #[inline(always)]
    fn check_mask_except(an: &Analysis<B>, except: usize) -> B {
        let mut m = !B::ZERO;
        for ri in 0..an.n_royals {
            if ri != except && an.checked & (1 << ri) != 0 {
                m &= an.block[ri];
            }
        }
        m
    }

    #[inline(always)]
    fn mobile_count(&self, b: B, kind: usize) -> u64 {
        if self.c.rules.immobility_illegal {
            (b & self.kt(self.us, kind).mobile).count() as u64
        } else {
            b.count() as u64
        }
    }

    #[inline]
    fn mobile_ok(&self, kind: usize, t: usize) -> bool {
        !self.c.rules.immobility_illegal || self.kt(self.us, kind).mobile.has(t)
    }

    /// Counts the moves of the piece of `kind` on `from` to `t` (promotions multiply).
    #[inline(always)]
    fn count_set(&self, from: usize, kind: usize, t: B) -> u64 {
        if self.c.info[kind].plain_count {
            return t.count() as u64;
        }
        match &self.c.info[kind].promotion {
            CompiledPromotion::None => self.mobile_count(t, kind),
            CompiledPromotion::Choice {
                choices, mandatory, ..
            } => {
                let inz = t & self.promotion_squares(kind, from, B::ZERO);
                let mut n = self.mobile_count(t & !inz, kind);
                if !inz.is_empty() {
                    // A promotion is no normal move: the immobility rule spares it.
                    n += inz.count() as u64 * choices[self.us].len() as u64;
                    if !mandatory {
                        n += self.mobile_count(inz, kind);
                    }
                }
                n
            }
            CompiledPromotion::Shogi { mandatory, .. } => {
                let pz = t & self.promotion_squares(kind, from, self.st.color[self.them]);
                let mut n = self.mobile_count(t & !pz, kind);
                if !pz.is_empty() {
                    n += pz.count() as u64;
                    if !mandatory {
                        n += self.mobile_count(pz, kind);
                    }
                }
                n
            }
        }
    }

    /// Where a move of the piece of `kind` from `from` promotes (by choice or compulsorily):
    /// a chess promotion's zone; for a shogi promotion the zone, or every square once the
    /// piece stands in it, and only on `captures` for a kind that promotes by capturing.
    /// The one rule that counting, emitting and the reach after a move share.
    #[inline(always)]
    fn promotion_squares(&self, kind: usize, from: usize, captures: B) -> B {
        match &self.c.info[kind].promotion {
            CompiledPromotion::None => B::ZERO,
            CompiledPromotion::Choice { zone, .. } => zone[self.us],
            CompiledPromotion::Shogi { zone, .. } => {
                let z = if zone[self.us].has(from) {
                    !B::ZERO
                } else {
                    zone[self.us]
                };
                if self.c.info[kind].promotes_on_capture {
                    z & captures
                } else {
                    z
                }
            }
        }
    }

    /// Emits the moves of the piece of `kind` from `from` to `to` (promotions expanded).
    #[inline]
    fn emit<S: Sink>(
        &self,
        from: usize,
        to: usize,
        capture: bool,
        kind: usize,
        base: Move,
        sink: &mut S,
    ) {
        let g = &self.c.geo;
        let (hf, ht) = (g.host(from), g.host(to));
        let cap = if capture {
            MoveFlags::CAPTURE
        } else {
            MoveFlags::NONE
        };
        let captures = if capture { B::bit(to) } else { B::ZERO };
        let promotes = self.promotion_squares(kind, from, captures).has(to);
        match &self.c.info[kind].promotion {
            CompiledPromotion::Choice {
                choices, mandatory, ..
            } if promotes => {
                for &p in &choices[self.us] {
                    sink.push(Move::promotion(hf, ht, p, capture));
                }
                if !mandatory && self.mobile_ok(kind, to) {
                    sink.push(Move::new(hf, ht, cap));
                }
            }
            CompiledPromotion::Shogi {
                promoted,
                mandatory,
                ..
            } if promotes => {
                let mut m = Move::promotion(hf, ht, *promoted, capture);
                m.flags = m.flags | MoveFlags::SPECIAL;
                sink.push(m);
                if !mandatory && self.mobile_ok(kind, to) {
                    sink.push(Move::new(hf, ht, cap));
                }
            }
            _ => {
                if self.mobile_ok(kind, to) {
                    let mut m = base;
                    m.from = hf;
                    m.to = ht;
                    m.flags = m.flags | cap;
                    sink.push(m);
                }
            }
        }
    }

    /// The square a passing move from `from` to `to` passes (the one next to `to`).
    fn passed(&self, from: usize, to: usize) -> Option<usize> {
        let g = &self.c.geo;
        let kind = self.st_kind(from);
        if let Some(kind) = kind {
            let kt = self.kt(self.us, kind);
            let fams = kt.quiet.families & family::LAME;
            let mut f = fams;
            while f != 0 {
                let i = f.trailing_zeros() as usize;
                f &= f - 1;
                if let Some(l) = &self.c.lame[i] {
                    for &(t, path) in &l.moves[from] {
                        if t as usize == to && !path.is_empty() {
                            return Some(self.nearest(path, to));
                        }
                    }
                }
            }
        }
        // Straight (or diagonal) initial moves: the squares between.
        let (ff, fr) = (g.file(from) as i32, g.rank(from) as i32);
        let (tf, tr) = (g.file(to) as i32, g.rank(to) as i32);
        let (df, dr) = (tf - ff, tr - fr);
        let n = df.abs().max(dr.abs());
        if n < 2 || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return None;
        }
        g.step(to, -df.signum(), -dr.signum())
    }

    fn nearest(&self, path: B, to: usize) -> usize {
        let g = &self.c.geo;
        let d = |s: usize| {
            let df = (g.file(s) as i32 - g.file(to) as i32).abs();
            let dr = (g.rank(s) as i32 - g.rank(to) as i32).abs();
            df.max(dr)
        };
        path.squares().min_by_key(|&s| d(s)).unwrap_or(to)
    }

    #[inline(always)]
    fn st_kind(&self, s: usize) -> Option<usize> {
        let cell = self.c.cell(self.pos, s);
        cell.kind()
            .map(|k| k as usize)
            .filter(|&k| k < self.c.n_kinds)
    }

    /// Emits (or counts) the moves to `q` (quiet) and `cap` (captures) of the piece on `s`.
    #[inline(always)]
    fn piece_moves<S: Sink>(&self, s: usize, kind: usize, q: B, cap: B, passing: B, sink: &mut S) {
        if S::COUNT {
            sink.add(self.count_set(s, kind, q | cap));
            return;
        }
        for t in (q & !passing).squares() {
            self.emit(
                s,
                t,
                false,
                kind,
                Move::new(Square::NONE, Square::NONE, MoveFlags::NONE),
                sink,
            );
        }
        for t in passing.squares() {
            let mut m = Move::new(Square::NONE, Square::NONE, MoveFlags::DOUBLE_STEP);
            if let Some(p) = self.passed(s, t) {
                m.via = self.c.geo.host(p);
            } else {
                m.flags = MoveFlags::NONE;
            }
            self.emit(s, t, false, kind, m, sink);
        }
        for t in cap.squares() {
            self.emit(
                s,
                t,
                true,
                kind,
                Move::new(Square::NONE, Square::NONE, MoveFlags::NONE),
                sink,
            );
        }
    }

    /// Pseudo-legal moves (every rule but leaving royals attacked and castling through
    /// attacked squares), skipping the pieces in `skip`.
    pub fn pseudo<S: Sink>(&self, skip: B, sink: &mut S) {
        self.pseudo_with(skip, false, sink)
    }

    /// [`Ctx::pseudo`]; with `legal`, castling and drops follow their own legality rules
    /// (castling path not attacked, drop-mate rule).
    #[inline(always)]
    fn pseudo_with<S: Sink>(&self, skip: B, legal: bool, sink: &mut S) {
        let ep = self.ep();
        let own = self.st.color[self.us] & !skip;
        for kind in 0..self.c.n_kinds {
            let mut bb = own & self.st.kind[kind];
            if let Some(bulk) = self.bulk_for(kind, bb) {
                self.bulk_moves(kind, bulk, bb, !B::ZERO, ep, legal, sink);
                bb = B::ZERO;
            }
            for s in bb.squares() {
                let (mut q, c, passing) = self.targets(kind, s);
                if let Some((p, _)) = ep {
                    if self.kt(self.us, kind).ep[s].has(p) {
                        q &= !B::bit(p);
                        self.emit_ep(s, p, sink);
                    }
                }
                self.piece_moves(s, kind, q, c, passing, sink);
            }
        }
        self.castling(sink, legal, skip);
        self.drops(!B::ZERO, sink);
    }

    /// Where a move of the piece of `kind` on `from` may promote.
    fn promotion_zone(&self, kind: usize, from: usize) -> B {
        match &self.c.info[kind].promotion {
            CompiledPromotion::None => B::ZERO,
            CompiledPromotion::Choice { zone, .. } => zone[self.us],
            CompiledPromotion::Shogi { zone, .. } => {
                if zone[self.us].has(from) {
                    !B::ZERO
                } else {
                    zone[self.us]
                }
            }
        }
    }

    /// The bulk tables of `kind`, when they apply to these pieces.
    #[inline(always)]
    fn bulk_for(&self, kind: usize, bb: B) -> Option<&'a Bulk<B>> {
        let b = self.kt(self.us, kind).bulk.as_ref()?;
        if !bb.several()
            || self.c.info[kind].promotes_to_royal
            || matches!(self.c.info[kind].promotion, CompiledPromotion::Shogi { .. })
        {
            return None;
        }
        Some(b)
    }

    /// Emits `t` (moves of `kind` by one shift `part` from their sources).
    #[inline(always)]
    fn bulk_emit<S: Sink>(
        &self,
        kind: usize,
        t: B,
        back: impl Fn(B) -> B,
        capture: bool,
        passing: bool,
        sink: &mut S,
    ) {
        if t.is_empty() {
            return;
        }
        if S::COUNT {
            sink.add(self.count_set(0, kind, t));
            return;
        }
        let g = &self.c.geo;
        for to in t.squares() {
            let from = back(B::bit(to)).lsb();
            let mut base = Move::new(Square::NONE, Square::NONE, MoveFlags::NONE);
            if passing {
                if let Some(p) = self.passed(from, to) {
                    base.flags = MoveFlags::DOUBLE_STEP;
                    base.via = g.host(p);
                }
            }
            self.emit(from, to, capture, kind, base, sink);
        }
    }

    /// All moves of the pieces `src` of `kind` at once (pawns), within `mask`; en passant
    /// captures are tried one by one.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn bulk_moves<S: Sink>(
        &self,
        kind: usize,
        b: &Bulk<B>,
        src: B,
        mask: B,
        ep: Option<(usize, usize)>,
        legal: bool,
        sink: &mut S,
    ) {
        let kt = self.kt(self.us, kind);
        let ep_victim = self.c.info[kind].ep_victim;
        let empty = self.empty & mask;
        let capt = self.capturable & mask;
        // A quiet move onto the en passant square by a piece that may take en passant there
        // is that capture.
        let mut ep_src = B::ZERO;
        let mut ep_bit = B::ZERO;
        if let Some((p, _)) = ep {
            ep_src = kt.rev_ep[p] & src;
            ep_bit = B::bit(p);
            for s in ep_src.squares() {
                let m = Move::new(
                    self.c.geo.host(s),
                    self.c.geo.host(p),
                    MoveFlags::CAPTURE | MoveFlags::EN_PASSANT,
                );
                if !legal || self.trial_ok(m) {
                    sink.push(m);
                }
            }
        }
        let init_src = src & kt.initial_region & !self.moved;
        for (list, from, lame_list, passing) in [
            (&b.quiet, src, &b.lame, false),
            (&b.initial, init_src, &b.initial_lame, ep_victim),
        ] {
            if from.is_empty() {
                continue;
            }
            for v in list {
                for part in &v.parts {
                    let mut t = part.apply(from) & empty;
                    if !ep_src.is_empty() {
                        t &= !(part.apply(ep_src) & ep_bit);
                    }
                    self.bulk_emit(kind, t, |x| part.back(x), false, passing, sink);
                }
            }
            for (a, r) in lame_list {
                for pa in &a.parts {
                    let mid = pa.apply(from) & self.empty;
                    if mid.is_empty() {
                        continue;
                    }
                    for pr in &r.parts {
                        let t = pr.apply(mid) & empty;
                        self.bulk_emit(kind, t, |x| pa.back(pr.back(x)), false, ep_victim, sink);
                    }
                }
            }
        }
        for v in &b.capture {
            for part in &v.parts {
                let t = part.apply(src) & capt;
                self.bulk_emit(kind, t, |x| part.back(x), true, false, sink);
            }
        }
    }

    fn emit_ep<S: Sink>(&self, from: usize, to: usize, sink: &mut S) {
        let g = &self.c.geo;
        sink.push(Move::new(
            g.host(from),
            g.host(to),
            MoveFlags::CAPTURE | MoveFlags::EN_PASSANT,
        ));
    }

    /// Legal moves of the side to move.
    #[inline(always)]
    pub fn legal<S: Sink>(&self, sink: &mut S) {
        let royals = self.royals_of(self.us);
        if self.c.rules.check == CheckRule::Off || royals.is_empty() {
            self.pseudo(B::ZERO, sink);
            return;
        }
        let an = if self.c.trial_legality {
            None
        } else {
            self.analyze()
        };
        let Some(an) = an else {
            // Out of check, a move that neither leaves nor enters a royal's lines keeps it
            // safe (see `Compiled::sensitive`): only the others are tried.
            let safe_unless = self.c.sensitive.as_ref().and_then(|sens| {
                let mut mask = B::ZERO;
                for r in royals.squares() {
                    if self.attacked(r, self.st.occ, self.them, B::ZERO) {
                        return None;
                    }
                    mask |= sens.around(self.us, r, self.st.occ);
                }
                Some(mask)
            });
            let mut t = Trial {
                ctx: self,
                inner: sink,
                safe_unless,
                royals,
            };
            self.pseudo_with(B::ZERO, true, &mut t);
            return;
        };
        let ep = self.ep();
        let occ = self.st.occ;
        let own = self.st.color[self.us];
        let double_all = !self.all_rule && an.check_all.is_empty();
        for kind in 0..self.c.n_kinds {
            let bb = own & self.st.kind[kind];
            if bb.is_empty() {
                continue;
            }
            let royal = self.c.info[kind].royal;
            if double_all && !royal {
                continue;
            }
            let mut bb = bb;
            if let Some(bulk) = self.bulk_for(kind, bb).filter(|_| !royal) {
                let free = bb & !an.pinned;
                let mask = self.safe_mask(&an, usize::MAX, usize::MAX);
                self.bulk_moves(kind, bulk, free, mask, ep, true, sink);
                bb &= an.pinned;
            }
            for s in bb.squares() {
                let (mut q, mut c, passing) = self.targets(kind, s);
                if let Some((p, _)) = ep {
                    if self.kt(self.us, kind).ep[s].has(p) {
                        q &= !B::bit(p);
                        let m = Move::new(
                            self.c.geo.host(s),
                            self.c.geo.host(p),
                            MoveFlags::CAPTURE | MoveFlags::EN_PASSANT,
                        );
                        if self.trial_ok(m) {
                            sink.push(m);
                        }
                    }
                }
                if royal {
                    let ri = an.royals[..an.n_royals]
                        .iter()
                        .position(|&r| r as usize == s)
                        .unwrap_or(usize::MAX);
                    let others = self.safe_mask(&an, s, ri);
                    let from = B::bit(s);
                    // Destinations still to test: the any-rule needs the others safe and this
                    // royal too; the all-rule is content with either.
                    let (todo, free) = if self.all_rule {
                        ((q | c) & !others, (q | c) & others)
                    } else {
                        ((q | c) & others, B::ZERO)
                    };
                    let mut ok = free;
                    if todo.count() > 3 {
                        // Many destinations: one map of the attacks with this royal lifted.
                        ok |= todo & !self.attack_map(self.them, occ ^ from);
                    } else {
                        for t in todo.squares() {
                            let tb = B::bit(t);
                            if !self.attacked(t, (occ ^ from) | tb, self.them, tb) {
                                ok |= tb;
                            }
                        }
                    }
                    self.piece_moves(s, kind, q & ok, c & ok, passing & ok, sink);
                } else {
                    let mask = self.safe_mask(&an, s, usize::MAX);
                    q &= mask;
                    c &= mask;
                    if self.c.info[kind].promotes_to_royal {
                        // Promotions that create a royal must leave it unattacked.
                        let z = self.promotion_zone(kind, s);
                        for t in ((q | c) & z).squares() {
                            let mut list = Vec::new();
                            self.emit(
                                s,
                                t,
                                c.has(t),
                                kind,
                                Move::new(Square::NONE, Square::NONE, MoveFlags::NONE),
                                &mut VecSink(&mut list),
                            );
                            for m in list {
                                let royal_after = m.is_promotion()
                                    && self.c.info.get(m.piece as usize).is_some_and(|i| i.royal);
                                if !royal_after || self.trial_ok(m) {
                                    sink.push(m);
                                }
                            }
                        }
                        q &= !z;
                        c &= !z;
                    }
                    self.piece_moves(s, kind, q, c, passing & q, sink);
                }
            }
        }
        self.castling(sink, true, B::ZERO);
        let drop_mask = if self.all_rule {
            self.safe_mask(&an, usize::MAX, usize::MAX)
        } else {
            an.check_all
        };
        self.drops(drop_mask, sink);
    }

    /// Whether `m` (pseudo-legal) leaves the mover's royals safe under the check rule.
    #[inline(always)]
    pub fn trial_ok(&self, m: Move) -> bool {
        let Some(t) = self.trial_board(m) else {
            return false;
        };
        match self.c.rules.check {
            CheckRule::Off => true,
            CheckRule::Any => !t.royals.squares().any(|r| self.attacked_after(r, &t)),
            CheckRule::All => {
                t.royals.is_empty() || t.royals.squares().any(|r| !self.attacked_after(r, &t))
            }
        }
    }

    /// [`Ctx::trial_ok`] for a move made out of check that changes only the squares
    /// `changed` and moves no royal (the rule is `CheckRule::Any`): an attack on a royal after
    /// it runs through one of those squares (see [`Ctx::attack_scan_in`]).
    #[inline(always)]
    fn trial_ok_through(&self, m: Move, changed: B) -> bool {
        let Some(t) = self.trial_board(m) else {
            return false;
        };
        !t.royals
            .squares()
            .any(|r| self.royal_attacked(r, t.occ, t.gone, t.janggi, Some(changed)))
    }

    /// The board after the pseudo-legal move `m`, as far as the other side's attacks see
    /// it, without making the move; `None` for a square beyond the tables.
    #[inline(always)]
    pub fn trial_board(&self, m: Move) -> Option<TrialBoard<B>> {
        let c = self.c;
        let g = &c.geo;
        let them = self.them;
        let mut t = TrialBoard {
            occ: self.st.occ,
            gone: B::ZERO,
            royals: self.royals_of(self.us),
            janggi: self.janggi,
        };
        let to = g.compact(m.to)?;
        if m.is_drop() {
            t.occ |= B::bit(to);
            if (m.piece as usize) < c.n_kinds && c.janggi_kinds & (1 << m.piece) != 0 {
                t.janggi |= B::bit(to);
            }
            if (m.piece as usize) < c.n_kinds && c.info[m.piece as usize].royal {
                t.royals |= B::bit(to);
            }
            return Some(t);
        }
        let from = g.compact(m.from)?;
        let kind = self.st_kind(from).unwrap_or(0);
        let was_royal = t.royals.has(from);
        if m.is_castle() {
            let kd = g.compact(m.via)?;
            let rd = self.rook_dest(from, to);
            t.occ ^= B::bit(from) | B::bit(to);
            t.occ |= B::bit(kd) | B::bit(rd);
            if was_royal {
                t.royals ^= B::bit(from);
                t.royals |= B::bit(kd);
            }
            return Some(t);
        }
        t.occ ^= B::bit(from);
        if m.flags.contains(MoveFlags::EN_PASSANT) {
            if let Some(v) = g.compact(self.pos.ep_victim) {
                t.occ &= !B::bit(v);
                t.gone |= B::bit(v);
            }
        } else if self.st.color[them].has(to) {
            t.gone |= B::bit(to);
        }
        t.occ |= B::bit(to);
        let after = if m.is_promotion() && (m.piece as usize) < c.n_kinds {
            m.piece as usize
        } else {
            kind
        };
        if was_royal {
            t.royals ^= B::bit(from);
        }
        if c.info[after].royal {
            t.royals |= B::bit(to);
        }
        t.janggi &= !(B::bit(from) | B::bit(to));
        if c.janggi_kinds & (1 << after) != 0 {
            t.janggi |= B::bit(to);
        }
        Some(t)
    }

    /// Whether the other side attacks `sq` on the board `t` after a trial move.
    #[inline(always)]
    pub fn attacked_after(&self, sq: usize, t: &TrialBoard<B>) -> bool {
        self.royal_attacked(sq, t.occ, t.gone, t.janggi, None)
    }

    /// The squares the piece that `m` moves could reach with a quiet move from `m`'s
    /// destination, its origin left empty and the destination taken (an arrow of amazons);
    /// `None` for a drop, or a square or piece beyond the tables.
    pub fn quiet_reach_after(&self, m: Move) -> Option<B> {
        let g = &self.c.geo;
        let (from, to) = (g.compact(m.from)?, g.compact(m.to)?);
        let kind = self.st_kind(from)?;
        let occ = (self.st.occ & !B::bit(from)) | B::bit(to);
        let empty = !occ & g.board;
        let mut reach = self.targets_on(kind, to, occ, empty, B::ZERO).0;
        if self.c.rules.immobility_illegal {
            // As `emit` keeps them: a square where the piece could not move again only
            // with a promotion there.
            reach &= self.kt(self.us, kind).mobile | self.promotion_squares(kind, to, B::ZERO);
        }
        Some(reach)
    }

    /// Makes the pseudo-legal move `m` of the side to move on `st` (this context's
    /// bitboards, or a copy of them) as [`crate::apply`] leaves the bitboards; the kinds it
    /// changed, for [`Ctx::unmake_on`]. `None` (and `st` unchanged) for a castle or a piece
    /// beyond the tables.
    pub fn make_on(&self, st: &mut State<B>, m: Move) -> Option<[usize; 3]> {
        let c = self.c;
        let g = &c.geo;
        let (us, them) = (self.us, self.them);
        let to = g.compact(m.to)?;
        if m.is_drop() {
            let placed = m.piece as usize;
            if placed >= c.n_kinds {
                return None;
            }
            st.color[us] |= B::bit(to);
            st.kind[placed] |= B::bit(to);
            st.occ = st.color[0] | st.color[1];
            return Some([placed; 3]);
        }
        if m.is_castle() {
            return None;
        }
        let from = g.compact(m.from)?;
        let kind = self.st_kind(from)?;
        let placed = if m.is_promotion() {
            m.piece as usize
        } else {
            kind
        };
        if placed >= c.n_kinds {
            return None;
        }
        let taken = if m.flags.contains(MoveFlags::EN_PASSANT) {
            g.compact(self.pos.ep_victim).unwrap_or(to)
        } else {
            to
        };
        let mut victim = kind;
        if st.color[them].has(taken) {
            victim = self.st_kind(taken)?;
            st.color[them] &= !B::bit(taken);
            st.kind[victim] &= !B::bit(taken);
        }
        st.color[us] &= !B::bit(from);
        st.kind[kind] &= !B::bit(from);
        st.color[us] |= B::bit(to);
        st.kind[placed] |= B::bit(to);
        st.occ = st.color[0] | st.color[1];
        Some([kind, placed, victim])
    }

    /// Undoes [`Ctx::make_on`]: the bitboards it changed back to this context's.
    pub fn unmake_on(&self, st: &mut State<B>, touched: [usize; 3]) {
        st.color = self.st.color;
        st.occ = self.st.occ;
        for k in touched {
            st.kind[k] = self.st.kind[k];
        }
    }

    fn rook_dest(&self, king: usize, rook: usize) -> usize {
        let g = &self.c.geo;
        let Some(cr) = &self.c.rules.castling else {
            return rook;
        };
        let side = if g.file(rook) > g.file(king) { 0 } else { 1 };
        g.rank(king) * g.files + cr.rook_dest[side] as usize
    }

    /// The piece that castles for `color` (see [`castling_king`]).
    #[inline(always)]
    pub fn castling_king(&self, color: usize) -> Option<usize> {
        castling_king(self.c, &self.st, color)
    }

    #[inline(always)]
    fn castling<S: Sink>(&self, sink: &mut S, legal: bool, skip: B) {
        let Some(cr) = &self.c.rules.castling else {
            return;
        };
        if self.pos.side_to_move.index() != self.us && legal {
            return;
        }
        let base = self.us * 2;
        if self.pos.castling[base].is_none() && self.pos.castling[base + 1].is_none() {
            return;
        }
        let Some(king) = self.castling_king(self.us) else {
            return;
        };
        if skip.has(king) {
            return;
        }
        let g = &self.c.geo;
        let back = g.rank(king);
        let royal = self.c.info[cr.king as usize].royal;
        for slot in [base, base + 1] {
            let rsq = self.pos.castling[slot];
            let Some(rook) = g.compact(rsq) else { continue };
            let partner = self.st.pieces(self.us, cr.rook as usize).has(rook)
                || cr
                    .other_rooks
                    .iter()
                    .any(|&k| self.st.pieces(self.us, k as usize).has(rook));
            if g.rank(rook) != back || !partner {
                continue;
            }
            let side = if g.file(rook) > g.file(king) { 0 } else { 1 };
            let kf = cr.king_dest[side] as usize;
            let rf = cr.rook_dest[side] as usize;
            let (kfile, rfile) = (g.file(king), g.file(rook));
            let lo = back * g.files + kfile.min(rfile).min(kf).min(rf);
            let hi = back * g.files + kfile.max(rfile).max(kf).max(rf);
            // The squares from lo to hi are one run of the rank in the compact index.
            let path = B::upto(hi) & B::from_sq(lo) & !B::bit(king) & !B::bit(rook);
            if !(path & (self.st.occ | !g.board)).is_empty() {
                continue;
            }
            let kd = back * g.files + kf;
            let m = Move::castle(g.host(king), g.host(rook), g.host(kd));
            if legal {
                if royal {
                    // Not out of, through or into check: the king stands on each square in
                    // turn, the rook lifted.
                    let base_occ = self.st.occ & !B::bit(king) & !B::bit(rook);
                    let step: i32 = if kf > kfile { 1 } else { -1 };
                    let mut f = kfile as i32;
                    let mut safe = !self.attacked(king, self.st.occ, self.them, B::ZERO);
                    while safe && f != kf as i32 {
                        f += step;
                        let s = back * g.files + f as usize;
                        safe = !self.attacked(s, base_occ | B::bit(s), self.them, B::ZERO);
                    }
                    if !safe {
                        continue;
                    }
                }
                if !self.trial_ok(m) {
                    continue;
                }
            }
            sink.push(m);
        }
    }

    #[inline(always)]
    fn drops<S: Sink>(&self, mask: B, sink: &mut S) {
        let Some(dr) = &self.c.rules.drops else {
            return;
        };
        let g = &self.c.geo;
        let empty = !self.st.occ & g.board & mask;
        if empty.is_empty() {
            return;
        }
        let hand = &self.pos.hands[self.us];
        for (k, &count_in_hand) in hand.iter().enumerate().take(self.c.n_kinds.min(32)) {
            if count_in_hand == 0 {
                continue;
            }
            let mut t = empty & self.c.drop_region[k][self.us];
            if let Some((nk, count)) = dr.no_doubled {
                if nk as usize == k {
                    let mine = self.st.pieces(self.us, k);
                    for &file in &self.c.file_bb {
                        if (mine & file).count() >= count {
                            t &= !file;
                        }
                    }
                }
            }
            if !dr.promoted.is_empty() {
                self.promoted_drops(dr, k, t, sink);
            }
            if self.c.rules.immobility_illegal {
                t &= self.kt(self.us, k).mobile;
            }
            if S::COUNT {
                sink.add(t.count() as u64);
            } else {
                for s in t.squares() {
                    sink.push(Move::drop(k as u8, g.host(s)));
                }
            }
        }
    }

    /// The drops of the piece of `kind` in hand as its promoted kinds ([`DropRules::promoted`])
    /// on `t`, the squares where it may be dropped itself (Fairy-Stockfish's drop region of
    /// the piece in hand); the immobility rule concerns the dropped kind.
    #[inline(always)]
    fn promoted_drops<S: Sink>(&self, dr: &DropRules, kind: usize, t: B, sink: &mut S) {
        for &(_, p) in dr.promoted.iter().filter(|&&(h, _)| h as usize == kind) {
            let mut tp = t;
            if self.c.rules.immobility_illegal {
                tp &= self.kt(self.us, p as usize).mobile;
            }
            let drop = |s: usize| {
                let mut m = Move::drop(p, self.c.geo.host(s));
                m.flags = m.flags | MoveFlags::SPECIAL;
                m
            };
            if S::COUNT {
                sink.add(tp.count() as u64);
            } else {
                for s in tp.squares() {
                    sink.push(drop(s));
                }
            }
        }
    }

    /// Whether the mover has a legal en passant capture.
    pub fn has_legal_en_passant(&self) -> bool {
        let mut any = Any(false);
        self.en_passant_legal(&mut any);
        any.0
    }

    /// The legal en passant captures of the mover.
    pub fn en_passant_legal<S: Sink>(&self, sink: &mut S) {
        let Some((p, _)) = self.ep() else {
            return;
        };
        let free = self.c.rules.check == CheckRule::Off || self.royals_of(self.us).is_empty();
        for k in 0..self.c.n_kinds {
            let kt = self.kt(self.us, k);
            for s in self.st.pieces(self.us, k).squares() {
                if kt.ep[s].has(p) {
                    let m = Move::new(
                        self.c.geo.host(s),
                        self.c.geo.host(p),
                        MoveFlags::CAPTURE | MoveFlags::EN_PASSANT,
                    );
                    if free || self.trial_ok(m) {
                        sink.push(m);
                    }
                }
            }
        }
    }

    /// Whether some piece of the other side could take en passant on `passed` (pins and
    /// checks aside).
    pub fn ep_capturable(&self, passed: usize) -> bool {
        let them = self.them;
        (0..self.c.n_kinds)
            .any(|k| !(self.c.kinds[them][k].rev_ep[passed] & self.st.pieces(them, k)).is_empty())
    }
}

/// Collects moves into a `Vec` (rare paths).
struct VecSink<'a>(&'a mut Vec<Move>);

impl Sink for VecSink<'_> {
    const COUNT: bool = false;
    fn push(&mut self, m: Move) {
        self.0.push(m);
    }
    fn add(&mut self, _n: u64) {}
}

/// Filters pushed moves by [`Ctx::trial_ok`].
struct Trial<'x, 'a, B: Bits, S: Sink> {
    ctx: &'x Ctx<'a, B>,
    inner: &'x mut S,
    /// Out of check: the squares a move must leave or enter to need a trial.
    safe_unless: Option<B>,
    /// The mover's royals.
    royals: B,
}

impl<B: Bits, S: Sink> Sink for Trial<'_, '_, B, S> {
    const COUNT: bool = false;
    #[inline]
    fn push(&mut self, m: Move) {
        if let Some(mask) = self.safe_unless {
            let ctx = self.ctx;
            let g = &ctx.c.geo;
            let royal_kind = |k: u8| ctx.c.info.get(k as usize).is_none_or(|i| i.royal);
            // The squares the move changes, where it neither moves a royal nor brings one:
            // a drop only fills its square (it can close a line or make a screen there);
            // a plain move empties one and fills another.
            let changed = if m.is_drop() {
                (!royal_kind(m.piece))
                    .then(|| g.compact(m.to))
                    .flatten()
                    .map(B::bit)
            } else if m.is_castle()
                || m.flags.contains(MoveFlags::EN_PASSANT)
                || (m.is_promotion() && royal_kind(m.piece))
            {
                None
            } else {
                match (g.compact(m.from), g.compact(m.to)) {
                    (Some(f), Some(t)) if !self.royals.has(f) => Some(B::bit(f) | B::bit(t)),
                    _ => None,
                }
            };
            if let Some(changed) = changed {
                if (changed & mask).is_empty() || ctx.trial_ok_through(m, changed) {
                    self.inner.push(m);
                }
                return;
            }
        }
        if self.ctx.trial_ok(m) {
            self.inner.push(m);
        }
    }
    fn add(&mut self, _n: u64) {}
}

/// The piece that castles for `color`: the only castling piece on its back rank, or the one on
/// the king file when there are several.
#[inline(always)]
pub fn castling_king<B: Bits>(c: &Compiled<B>, st: &State<B>, color: usize) -> Option<usize> {
    let cr = c.rules.castling.as_ref()?;
    let g = &c.geo;
    let kings = st.pieces(color, cr.king as usize) & c.back_rank[color];
    if kings.is_empty() {
        return None;
    }
    if !kings.several() {
        return Some(kings.lsb());
    }
    kings
        .squares()
        .find(|&s| g.file(s) == cr.king_file as usize)
}
