//! Explosions on capture (Fairy-Stockfish's `blastOnCapture`, atomic chess): the legality of
//! a move for pseudo-royal pieces, judged on bitboards.
//!
//! A capture blows up the capturer, the captured piece and every piece on the eight squares
//! around the destination but pawns and immune kinds. A move is legal when none of the
//! mover's pseudo-royal pieces is blown up, and either one of the other side's is gone or
//! each of the mover's stands beside one of the other side's (no capture can reach it
//! without blowing up both) or is not attacked. The owner of the rules (the Fairy plugin)
//! says which pieces are pseudo-royal; this module only makes the move on the bitboards,
//! instead of on a copy of the position.

use crate::bitboard::Bits;
use crate::gen::{Ctx, Pins};
use houserules_plugin_api::{Move, MoveFlags};

/// Which pieces an explosion spares, as kind bit masks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Blast {
    /// Kinds no explosion removes (`blastImmuneTypes`), not even the capturer.
    pub immune_kinds: u64,
    /// Kinds only the capture itself removes: an explosion spares them on the squares around
    /// (the pawn type).
    pub pawn_kinds: u64,
}

/// A position's pieces that explosions spare, as bitboards (from [`Blast`]'s kind masks,
/// found once per position rather than per square of each explosion).
#[derive(Clone, Copy, Debug)]
pub struct Spared<B: Bits> {
    /// Pieces of the immune kinds.
    pub immune: B,
    /// Pieces of the immune kinds and of the pawn kinds.
    pub around: B,
    /// The immune kinds (a promotion's piece is judged by its new kind).
    pub immune_kinds: u64,
}

/// The pseudo-royal pieces of both sides, as bitboards.
#[derive(Clone, Copy, Debug)]
pub struct Royals<B: Bits> {
    /// The mover's.
    pub ours: B,
    /// The other side's.
    pub theirs: B,
}

impl<B: Bits> Ctx<'_, B> {
    /// The eight squares around `s` (no wrap: explosions do not cross the board's edge).
    #[inline(always)]
    fn around(&self, s: usize) -> B {
        self.c.around.get(s).copied().unwrap_or(B::ZERO)
    }

    /// The pieces of this position that `blast`'s explosions spare.
    pub fn spared(&self, blast: &Blast) -> Spared<B> {
        let immune = self.st.of_kinds(blast.immune_kinds);
        Spared {
            immune,
            around: immune | self.st.of_kinds(blast.pawn_kinds),
            immune_kinds: blast.immune_kinds,
        }
    }

    /// What decides the quiet moves of pieces that are not pseudo-royal under the blast rule
    /// ([`Ctx::quiet_pins`]): nothing explodes in a quiet move, and a royal beside one of
    /// theirs cannot be attacked (module docs), so nothing pins to it.
    pub(crate) fn blast_quiet_pins(&self, royals: Royals<B>) -> Option<Pins<B>> {
        let exposed = royals
            .ours
            .squares()
            .filter(|&r| (self.around(r) & royals.theirs).is_empty())
            .fold(B::ZERO, |set, r| set | B::bit(r));
        self.quiet_pins(royals.ours, exposed)
    }

    /// Whether the pseudo-legal move `m` (neither a drop nor a castle) of the side to move
    /// keeps `royals` safe under the blast rule (module docs); `spared` is
    /// [`Ctx::spared`] of this position.
    pub fn blast_ok(&self, m: Move, royals: Royals<B>, spared: Spared<B>) -> bool {
        let g = &self.c.geo;
        let (Some(from), Some(to)) = (g.compact(m.from), g.compact(m.to)) else {
            return false;
        };
        let (from_b, to_b) = (B::bit(from), B::bit(to));
        let mut taken = B::ZERO;
        if m.flags.contains(MoveFlags::EN_PASSANT) {
            if let Some(v) = g.compact(self.pos.ep_victim) {
                taken = B::bit(v);
            }
        } else if self.st.color[self.them].has(to) {
            taken = to_b;
        }
        let mut occ = (self.st.occ & !from_b & !taken) | to_b;
        // What the explosion removes (pieces of both sides; an immune capturer stays).
        let mut blown = B::ZERO;
        if m.is_capture() {
            // The capturer (a promotion's piece is of its new kind) unless immune.
            let immune = if m.is_promotion() {
                let centre = m.piece as usize;
                centre < 64 && spared.immune_kinds & (1 << centre) != 0
            } else {
                spared.immune.has(from)
            };
            if !immune {
                blown |= to_b;
            }
            blown |= self.around(to) & occ & !spared.around;
            occ &= !blown;
        }
        let ours = if royals.ours.has(from) {
            (royals.ours & !from_b) | to_b
        } else {
            royals.ours
        };
        if !(ours & blown).is_empty() {
            return false;
        }
        if !(royals.theirs & !occ).is_empty() {
            return true;
        }
        // The other side's pieces taken or blown up attack no more.
        let gone = taken | blown;
        let beside_theirs = |s: usize| !(self.around(s) & royals.theirs).is_empty();
        ours.squares()
            .all(|s| beside_theirs(s) || !self.attacked(s, occ, self.them, gone))
    }
}
