//! The public face of the crate: a [`Generator`] compiled from [`Rules`], run on the host's
//! [`Position`]s.

use crate::apply::apply;
use crate::bitboard::Bits;
use crate::gen::{Any, Count, Ctx, List};
use crate::rules::{CheckRule, Rules};
use crate::tables::{CompileError, Compiled};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{Color, Move, MoveEffects, MoveFlags, Position, Square, SquareSet};

enum Engine {
    Small(Box<Compiled<u64>>),
    Large(Box<Compiled<u128>>),
}

/// A move generator for one rules model. Cheap to share between threads (`Sync`); every
/// method takes the position it is about.
pub struct Generator {
    engine: Engine,
    tag: u64,
    /// The CPU has `popcnt` (the hot paths are compiled twice, see [`fast`]).
    popcnt: bool,
}

impl std::fmt::Debug for Generator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Generator({:#x})", self.tag)
    }
}

/// Runs `$body` with `$c` bound to the compiled tables, whatever the bitboard width.
macro_rules! dispatch {
    ($self:expr, $c:ident => $body:expr) => {
        match &$self.engine {
            Engine::Small($c) => $body,
            Engine::Large($c) => $body,
        }
    };
}

#[inline(always)]
fn ctx<'a, B: Bits>(c: &'a Compiled<B>, pos: &'a Position, side: Color, tag: u64) -> Ctx<'a, B> {
    Ctx::new(c, pos, c.state(pos, tag), side)
}

impl Generator {
    /// Compiles `rules`: 64-bit bitboards for boards of at most 64 squares, 128-bit ones
    /// for up to 128.
    pub fn new(rules: &Rules) -> Result<Generator, CompileError> {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        format!("{rules:?}").hash(&mut h);
        let tag = h.finish() | 1;
        let n = rules.files as usize * rules.ranks as usize;
        let engine = if n <= 64 {
            Engine::Small(Box::new(Compiled::new(rules)?))
        } else {
            Engine::Large(Box::new(Compiled::new(rules)?))
        };
        #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
        let popcnt = std::is_x86_feature_detected!("popcnt");
        #[cfg(not(all(target_arch = "x86_64", not(target_feature = "popcnt"))))]
        let popcnt = false;
        Ok(Generator {
            engine,
            tag,
            popcnt,
        })
    }

    /// The rules this generator runs.
    pub fn rules(&self) -> &Rules {
        dispatch!(self, c => &c.rules)
    }

    /// The fingerprint this generator writes into the position cache.
    pub fn cache_tag(&self) -> u64 {
        self.tag
    }

    /// The position cache's words where they hold this generator's bitboards of `pos`
    /// (every piece of every kind it tracks, by colour, and its fingerprint): a key for
    /// facts about the pieces on the board, equal only for the same pieces on the same
    /// squares.
    pub fn board_key<'p>(&self, pos: &'p Position) -> Option<&'p [u64; 16]> {
        dispatch!(self, c => c.cache_words(pos, self.tag))
    }

    /// Appends the legal moves of the side to move.
    pub fn legal_moves(&self, pos: &Position, out: &mut RVec<Move>) {
        #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
        if self.popcnt {
            // SAFETY: the CPU supports `popcnt` (detected when the generator was built).
            return unsafe { fast::legal_moves(self, pos, out) };
        }
        self.legal_moves_inline(pos, out)
    }

    #[inline(always)]
    fn legal_moves_inline(&self, pos: &Position, out: &mut RVec<Move>) {
        dispatch!(self, c => ctx(c, pos, pos.side_to_move, self.tag).legal(&mut List(out)))
    }

    /// Number of legal moves of the side to move (bulk counting: no move is made).
    pub fn count_legal(&self, pos: &Position) -> u64 {
        #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
        if self.popcnt {
            // SAFETY: the CPU supports `popcnt` (detected when the generator was built).
            return unsafe { fast::count_legal(self, pos) };
        }
        self.count_legal_inline(pos)
    }

    #[inline(always)]
    fn count_legal_inline(&self, pos: &Position) -> u64 {
        dispatch!(self, c => {
            let mut n = Count(0);
            ctx(c, pos, pos.side_to_move, self.tag).legal(&mut n);
            n.0
        })
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self, pos: &Position) -> bool {
        dispatch!(self, c => {
            let mut a = Any(false);
            ctx(c, pos, pos.side_to_move, self.tag).legal(&mut a);
            a.0
        })
    }

    /// Appends the pseudo-legal moves of `side` (which may be the side not to move), every
    /// rule but leaving royals attacked and castling out of or through attacked squares,
    /// skipping the pieces on `skip`.
    pub fn pseudo_moves(
        &self,
        pos: &Position,
        side: Color,
        skip: &SquareSet,
        out: &mut RVec<Move>,
    ) {
        dispatch!(self, c => {
            let skip = c.geo.set(skip);
            ctx(c, pos, side, self.tag).pseudo(skip, &mut List(out))
        })
    }

    /// Whether the pseudo-legal move `mv` of the side to move leaves its royals safe (the
    /// check rule's self-check filter).
    pub fn leaves_royals_safe(&self, pos: &Position, mv: Move) -> bool {
        dispatch!(self, c => {
            let x = ctx(c, pos, pos.side_to_move, self.tag);
            c.rules.check == CheckRule::Off || x.trial_ok(mv)
        })
    }

    /// Makes `mv` and hands the turn over (see [`crate::apply`]).
    pub fn apply(&self, pos: &mut Position, mv: Move, fx: &mut MoveEffects) {
        #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
        if self.popcnt {
            // SAFETY: the CPU supports `popcnt` (detected when the generator was built).
            return unsafe { fast::apply(self, pos, mv, fx) };
        }
        self.apply_inline(pos, mv, fx)
    }

    #[inline(always)]
    fn apply_inline(&self, pos: &mut Position, mv: Move, fx: &mut MoveEffects) {
        dispatch!(self, c => apply(c, pos, mv, fx, self.tag))
    }

    /// Clears the position's en passant right unless the rules' en passant policy keeps it
    /// (an en passant capture exists for the side to move: pseudo-legal or legal, as the
    /// policy says). For positions read from a FEN.
    pub fn normalize_ep(&self, pos: &mut Position) {
        if pos.ep_passed.is_none() {
            return;
        }
        let keep = dispatch!(self, c => {
            let x = ctx(c, pos, pos.side_to_move, self.tag);
            match c.rules.en_passant {
                crate::rules::EnPassantPolicy::Always => {
                    c.geo.compact(pos.ep_passed).is_some_and(|p| !x.st.occ.has(p))
                        && c.geo.compact(pos.ep_victim).is_some()
                }
                crate::rules::EnPassantPolicy::Pseudo => c.geo.compact(pos.ep_passed).is_some_and(|p| {
                    Ctx::new(c, pos, x.st, pos.side_to_move.opposite()).ep_capturable(p)
                }),
                crate::rules::EnPassantPolicy::Legal => x.has_legal_en_passant(),
            }
        });
        if !keep {
            pos.ep_passed = Square::NONE;
            pos.ep_victim = Square::NONE;
        }
    }

    /// Whether the side to move has a legal en passant capture (under the check rule).
    pub fn has_legal_en_passant(&self, pos: &Position) -> bool {
        if pos.ep_passed.is_none() {
            return false;
        }
        dispatch!(self, c => ctx(c, pos, pos.side_to_move, self.tag).has_legal_en_passant())
    }

    /// Fills the position's cache where it does not hold this generator's bitboards now
    /// (cells changed outside the generator's moves): the next calls then need not read
    /// the cells, each on its own.
    pub fn refresh(&self, pos: &mut Position) {
        let stale = dispatch!(self, c => c.cache_words(pos, self.tag).is_none());
        if stale {
            self.prime(pos);
        }
    }

    /// Fills the position's cache (so that the next calls need not read the cells).
    pub fn prime(&self, pos: &mut Position) {
        dispatch!(self, c => {
            let st = c.rebuild(pos);
            c.store(pos, &st, self.tag)
        })
    }

    /// Whether a piece of `by` could capture a piece standing on `sq`.
    pub fn is_attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        dispatch!(self, c => {
            let Some(s) = c.geo.compact(sq) else { return false };
            let x = ctx(c, pos, by.opposite(), self.tag);
            x.attacked(s, x.st.occ, by.index(), Default::default())
        })
    }

    /// The squares of `by`'s pieces that attack `sq`.
    pub fn attackers(&self, pos: &Position, sq: Square, by: Color) -> SquareSet {
        dispatch!(self, c => {
            let Some(s) = c.geo.compact(sq) else { return SquareSet::EMPTY };
            let x = ctx(c, pos, by.opposite(), self.tag);
            c.geo.host_set(x.attackers(s, x.st.occ, by.index(), Default::default()))
        })
    }

    /// For each of `squares` in order, the squares of `by`'s pieces that attack it, handed
    /// to `visit` while it returns `true`; whether every visit did. The cells are read once
    /// for all the squares, where [`Generator::attackers`] reads them at every call (a
    /// position changed outside the generator's moves has no bitboards cached).
    pub fn attackers_each(
        &self,
        pos: &Position,
        squares: &[Square],
        by: Color,
        mut visit: impl FnMut(Square, SquareSet) -> bool,
    ) -> bool {
        dispatch!(self, c => {
            let x = ctx(c, pos, by.opposite(), self.tag);
            squares.iter().all(|&sq| {
                let set = match c.geo.compact(sq) {
                    Some(s) => c.geo.host_set(x.attackers(s, x.st.occ, by.index(), Default::default())),
                    None => SquareSet::EMPTY,
                };
                visit(sq, set)
            })
        })
    }

    /// For each of `moves` (moves of the side to move in `pos`), the squares the moved piece
    /// could reach with a quiet move from the move's destination, its origin left empty and
    /// the destination taken, handed to `visit` (empty for a drop): the arrows of amazons,
    /// read from one state of the cells for all the moves instead of a generation per move.
    pub fn quiet_reach_after_each(
        &self,
        pos: &Position,
        moves: &[Move],
        mut visit: impl FnMut(Move, SquareSet),
    ) {
        dispatch!(self, c => {
            let x = ctx(c, pos, pos.side_to_move, self.tag);
            for &m in moves {
                let reach = x.quiet_reach_after(m).map_or(SquareSet::EMPTY, |b| c.geo.host_set(b));
                visit(m, reach);
            }
        })
    }

    /// The royal pieces of `color`.
    pub fn royals(&self, pos: &Position, color: Color) -> SquareSet {
        dispatch!(self, c => {
            let x = ctx(c, pos, color, self.tag);
            c.geo.host_set(x.royals_of(color.index()))
        })
    }

    /// Whether `color` is in check under the check rule (any royal attacked; with the "all
    /// royals" rule every one).
    pub fn in_check(&self, pos: &Position, color: Color) -> bool {
        dispatch!(self, c => {
            let x = ctx(c, pos, color, self.tag);
            let royals = x.royals_of(color.index());
            let them = color.opposite().index();
            let hit = |r: usize| x.attacked(r, x.st.occ, them, Default::default());
            match c.rules.check {
                CheckRule::All => !royals.is_empty() && royals.squares().all(hit),
                _ => royals.squares().any(hit),
            }
        })
    }

    /// Whether `color` has `n` pieces of the kinds in `kinds` (bit mask) in a row along a
    /// rank, file or diagonal of the plain board (connect-N; files do not wrap).
    pub fn in_a_row(&self, pos: &Position, color: Color, kinds: u64, n: u32) -> bool {
        dispatch!(self, c => c.in_a_row(c.pieces_of(pos, self.tag, color.index(), kinds), n))
    }

    /// Keeps the moves of the side to move that leave its pseudo-royal pieces safe under the
    /// blast rule ([`crate::blast`]): `ours` and `theirs` are the pseudo-royal pieces of the
    /// side to move and of the other side. `judge` gives the verdict on the moves its caller
    /// judges itself (drops, castles, moves that change which pieces are pseudo-royal);
    /// `None` leaves a move (which must be neither a drop nor a castle) to the bitboards.
    pub fn retain_blast_safe(
        &self,
        pos: &Position,
        moves: &mut Vec<Move>,
        ours: &SquareSet,
        theirs: &SquareSet,
        blast: &crate::blast::Blast,
        mut judge: impl FnMut(&Move) -> Option<bool>,
    ) {
        dispatch!(self, c => {
            let x = ctx(c, pos, pos.side_to_move, self.tag);
            let royals = crate::blast::Royals {
                ours: c.geo.set(ours),
                theirs: c.geo.set(theirs),
            };
            // Quiet moves of pieces that are not pseudo-royal are judged by the pins alone
            // (see `blast_quiet_pins`).
            let pins = x.blast_quiet_pins(royals);
            let spared = x.spared(blast);
            let quiet = |m: &Move| -> Option<bool> {
                let pins = pins.as_ref()?;
                if m.is_capture() {
                    return None;
                }
                let (from, to) = (c.geo.compact(m.from)?, c.geo.compact(m.to)?);
                (!royals.ours.has(from)).then(|| pins.allows(from, to))
            };
            moves.retain(|m| {
                judge(m)
                    .or_else(|| quiet(m))
                    .unwrap_or_else(|| x.blast_ok(*m, royals, spared))
            });
        })
    }

    /// Keeps the moves of `moves` (pseudo-legal moves of the side to move) that `judge`
    /// keeps. With each move `judge` gets a look at the board after it, tried on the
    /// bitboards and not made: `attacked(sq)`, whether the other side attacks `sq` there
    /// (`None` where the move cannot be tried: a square beyond the tables). The position is
    /// read once for all the moves; a copy of it made each move before (mandala, spartan).
    ///
    /// With `unpinned`, the pseudo-royal pieces `ours`, for rules in which a move only moves
    /// a piece and takes the one on its destination (no explosion, no piece added or
    /// changed): a plain move (no promotion, drop, castle, en passant, second leg or special
    /// move) of a piece not among `ours` is kept or not by the pins to `ours` alone, without
    /// asking `judge`, where none of `ours` is attacked and the other side attacks only by
    /// leaps and slides: the mover only blocks where it lands, and a piece it takes attacks
    /// no more. (Taking one of the other side's pseudo-royal pieces excuses nothing here: the
    /// taker stands on its square.)
    ///
    /// `silent`: pieces of the other side that block but whose attacks do not count in
    /// `attacked` (Fairy-Stockfish's petrifying pseudo-royal pieces, which could not take
    /// without turning to stone).
    pub fn retain_tried(
        &self,
        pos: &Position,
        moves: &mut Vec<Move>,
        unpinned: Option<&SquareSet>,
        silent: &SquareSet,
        mut judge: impl FnMut(&Move, &dyn Fn(Square) -> Option<bool>) -> bool,
    ) {
        dispatch!(self, c => {
            let x = ctx(c, pos, pos.side_to_move, self.tag);
            let silent = c.geo.set(silent);
            let royals = unpinned.map(|ours| c.geo.set(ours));
            let pins = royals.and_then(|r| x.quiet_pins(r, r));
            let plain = |m: &Move| -> Option<bool> {
                let (pins, royals) = (pins.as_ref()?, royals?);
                if m.flags.0 & !(MoveFlags::DOUBLE_STEP.0 | MoveFlags::CAPTURE.0) != 0 {
                    return None;
                }
                let (from, to) = (c.geo.compact(m.from)?, c.geo.compact(m.to)?);
                (!royals.has(from) && from != to).then(|| pins.allows(from, to))
            };
            moves.retain(|m| {
                plain(m).unwrap_or_else(|| {
                    let attacked = |sq: Square| -> Option<bool> {
                        let mut t = x.trial_board(*m)?;
                        t.gone |= silent;
                        Some(c.geo.compact(sq).is_some_and(|s| x.attacked_after(s, &t)))
                    };
                    judge(m, &attacked)
                })
            });
        })
    }

    /// For each pseudo-legal move of the side to move that `wanted` asks about, whether it
    /// leaves the other side in check (as [`Generator::in_check`] judges it after
    /// [`Generator::apply`]), from the bitboards alone: `out[i]` for `moves[i]`, `None` where
    /// not asked, and for a castle or a piece beyond the tables (make those moves to know).
    pub fn checks_given(
        &self,
        pos: &Position,
        moves: &[Move],
        wanted: impl Fn(&Move) -> bool,
        out: &mut Vec<Option<bool>>,
    ) {
        out.clear();
        dispatch!(self, c => ctx(c, pos, pos.side_to_move, self.tag).checks_given(moves, wanted, out))
    }

    /// Whether this generator's bitboards hold every kind of `kinds` (bit mask).
    pub fn tracks_kinds(&self, kinds: u64) -> bool {
        let n = dispatch!(self, c => c.n_kinds);
        n >= 64 || kinds >> n == 0
    }

    /// The squares of `color`'s pieces of the kinds in `kinds` (bit mask); `None` where the
    /// mask names a kind this generator does not track.
    pub fn pieces_of_kinds(&self, pos: &Position, color: Color, kinds: u64) -> Option<SquareSet> {
        if !self.tracks_kinds(kinds) {
            return None;
        }
        dispatch!(self, c => Some(c.geo.host_set(c.pieces_of(pos, self.tag, color.index(), kinds))))
    }

    /// Both sides' pieces of the kinds in `kinds` (bit mask), White's then Black's, from one
    /// reading of the bitboards (where they do not fit the position's cache, each reading
    /// rebuilds them from the cells); `None` where the mask names a kind this generator does
    /// not track.
    pub fn pieces_of_kinds_both(&self, pos: &Position, kinds: u64) -> Option<[SquareSet; 2]> {
        if !self.tracks_kinds(kinds) {
            return None;
        }
        dispatch!(self, c => {
            let st = c.state(pos, self.tag);
            let of = st.of_kinds(kinds);
            Some([c.geo.host_set(of & st.color[0]), c.geo.host_set(of & st.color[1])])
        })
    }

    /// The number of `color`'s pieces of the kinds in `kinds` (bit mask); `None` where the
    /// mask names a kind this generator does not track.
    pub fn count_of_kinds(&self, pos: &Position, color: Color, kinds: u64) -> Option<u32> {
        if !self.tracks_kinds(kinds) {
            return None;
        }
        dispatch!(self, c => Some(c.pieces_of(pos, self.tag, color.index(), kinds).count()))
    }

    /// Squares from which a piece of `kind` and `color` can move on an empty board.
    pub fn mobile(&self, kind: u8, color: Color) -> SquareSet {
        dispatch!(self, c => {
            c.kinds[color.index()]
                .get(kind as usize)
                .map(|k| c.geo.host_set(k.mobile))
                .unwrap_or_default()
        })
    }
}

/// The hot entry points compiled with the `popcnt` instruction (the baseline x86-64 target
/// lacks it, and bit counting is most of bulk counting).
#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
mod fast {
    use super::*;

    /// # Safety
    /// The CPU must support `popcnt`.
    #[target_feature(enable = "popcnt")]
    pub(super) unsafe fn count_legal(g: &Generator, pos: &Position) -> u64 {
        g.count_legal_inline(pos)
    }

    /// # Safety
    /// The CPU must support `popcnt`.
    #[target_feature(enable = "popcnt")]
    pub(super) unsafe fn legal_moves(g: &Generator, pos: &Position, out: &mut RVec<Move>) {
        g.legal_moves_inline(pos, out)
    }

    /// # Safety
    /// The CPU must support `popcnt`.
    #[target_feature(enable = "popcnt")]
    pub(super) unsafe fn apply(g: &Generator, pos: &mut Position, mv: Move, fx: &mut MoveEffects) {
        g.apply_inline(pos, mv, fx)
    }
}
