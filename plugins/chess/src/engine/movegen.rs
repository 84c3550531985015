//! Legal move generation with pin masks and check masks.
//!
//! One generic generator drives a [`Sink`]: [`MoveList`] materialises the
//! moves, [`Counter`] only adds popcounts (used by `count_legal`).

use super::attacks::*;
use super::board::Board;
use super::{
    bit, ChessMove, MoveList, Role, F_CAPTURE, F_CASTLE, F_DOUBLE, F_EP, F_PROMO, F_PROMO_CAP,
    F_QUIET,
};

const ROLE_PAWN: usize = Role::Pawn as usize;
const ROLE_KNIGHT: usize = Role::Knight as usize;
const ROLE_BISHOP: usize = Role::Bishop as usize;
const ROLE_ROOK: usize = Role::Rook as usize;
const ROLE_QUEEN: usize = Role::Queen as usize;
const ROLE_KING: usize = Role::King as usize;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const RANK_3: u64 = 0xff << 16;
const RANK_6: u64 = 0xff << 40;
const RANK_1: u64 = 0xff;
const RANK_8: u64 = 0xff << 56;

/// Receiver of generated moves.
pub(crate) trait Sink {
    /// Moves of a non-pawn piece from `from` to every square of `targets`;
    /// those in `enemy` are captures.
    fn piece(&mut self, from: u8, targets: u64, enemy: u64);
    /// Pawn moves to every square of `targets`, coming from `to - delta`,
    /// all with the same `flag`.
    fn pawns(&mut self, targets: u64, delta: i8, flag: u16);
    /// Promotions (4 moves per target), `flag` is `F_PROMO` or `F_PROMO_CAP`.
    fn promotions(&mut self, targets: u64, delta: i8, flag: u16);
    /// A single move (castling, en passant).
    fn one(&mut self, m: ChessMove);
}

/// Counting sink.
pub(crate) struct Counter(pub usize);

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, _from: u8, targets: u64, _enemy: u64) {
        self.0 += targets.count_ones() as usize;
    }
    #[inline(always)]
    fn pawns(&mut self, targets: u64, _delta: i8, _flag: u16) {
        self.0 += targets.count_ones() as usize;
    }
    #[inline(always)]
    fn promotions(&mut self, targets: u64, _delta: i8, _flag: u16) {
        self.0 += 4 * targets.count_ones() as usize;
    }
    #[inline(always)]
    fn one(&mut self, _m: ChessMove) {
        self.0 += 1;
    }
}

impl Sink for MoveList {
    #[inline(always)]
    fn piece(&mut self, from: u8, targets: u64, enemy: u64) {
        let mut t = targets & enemy;
        while t != 0 {
            self.push(ChessMove::raw_new(
                from,
                t.trailing_zeros() as u8,
                F_CAPTURE,
            ));
            t &= t - 1;
        }
        let mut t = targets & !enemy;
        while t != 0 {
            self.push(ChessMove::raw_new(from, t.trailing_zeros() as u8, F_QUIET));
            t &= t - 1;
        }
    }
    #[inline(always)]
    fn pawns(&mut self, mut targets: u64, delta: i8, flag: u16) {
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            self.push(ChessMove::raw_new(to.wrapping_sub(delta as u8), to, flag));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, mut targets: u64, delta: i8, flag: u16) {
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            let from = to.wrapping_sub(delta as u8);
            // Queen first: the most useful order for move ordering.
            for p in [3, 0, 2, 1] {
                self.push(ChessMove::raw_new(from, to, flag | p));
            }
        }
    }
    #[inline(always)]
    fn one(&mut self, m: ChessMove) {
        self.push(m);
    }
}

#[inline(always)]
fn pop_lsb(b: &mut u64) -> u8 {
    let s = b.trailing_zeros() as u8;
    *b &= b.wrapping_sub(1);
    s
}

/// Which legal moves a generation wants: those ending on a square of `to` (castling: the
/// king's destination) made by a piece whose role bit (`1 << role`) is in `roles`.
#[derive(Clone, Copy)]
pub(crate) struct Wanted {
    pub to: u64,
    pub roles: u8,
}

impl Wanted {
    /// Every legal move.
    pub const ALL: Wanted = Wanted {
        to: !0,
        roles: 0x3f,
    };

    #[inline(always)]
    fn has(self, role: usize) -> bool {
        self.roles & (1 << role) != 0
    }
}

impl Board {
    /// Generates all legal moves into `sink`.
    #[inline(always)]
    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        self.generate_wanted(sink, Wanted::ALL)
    }

    /// Generates the legal moves `w` asks for into `sink` (pins and checks are still
    /// computed in full; only the pieces and targets asked for are visited).
    #[inline(always)]
    pub(crate) fn generate_wanted<S: Sink>(&self, sink: &mut S, w: Wanted) {
        if self.side == 0 {
            self.gen::<S, true>(sink, w)
        } else {
            self.gen::<S, false>(sink, w)
        }
    }

    #[inline(always)]
    fn gen<S: Sink, const WHITE: bool>(&self, sink: &mut S, w: Wanted) {
        let us = if WHITE { 0 } else { 1 };
        let them = us ^ 1;
        let r = &self.by_role;
        let our = self.by_side[us];
        let their = self.by_side[them];
        let occ = our | their;
        let king_bb = r[ROLE_KING] & our;
        if king_bb == 0 {
            return; // not a valid position; nothing sensible to generate
        }
        let k = king_bb.trailing_zeros() as u8;

        let their_pawns = r[ROLE_PAWN] & their;
        let their_knights = r[ROLE_KNIGHT] & their;
        let their_diag = (r[ROLE_BISHOP] | r[ROLE_QUEEN]) & their;
        let their_orth = (r[ROLE_ROOK] | r[ROLE_QUEEN]) & their;
        let their_king = r[ROLE_KING] & their;

        // A generation for one destination (a SAN's square) finds slider moves and attacks by
        // rays and the `between` table (small, cache-resident) instead of magic lookups into
        // the large attack table, which miss the cache when positions come one at a time.
        let single = w.to.count_ones() == 1;
        let to_sq = w.to.trailing_zeros() as u8;

        // Is `sq` attacked by a slider of them with occupancy `o`? (by rays: few sliders)
        let slider_hits = |sq: u8, o: u64| -> bool {
            let mut sn = rook_rays(sq) & their_orth;
            while sn != 0 {
                if between(sq, pop_lsb(&mut sn)) & o == 0 {
                    return true;
                }
            }
            let mut sn = bishop_rays(sq) & their_diag;
            while sn != 0 {
                if between(sq, pop_lsb(&mut sn)) & o == 0 {
                    return true;
                }
            }
            false
        };

        // Is `sq` attacked by them with occupancy `o`?
        let attacked = |sq: u8, o: u64| -> bool {
            (pawn_attacks_idx(us, sq) & their_pawns) != 0
                || (knight_attacks(sq) & their_knights) != 0
                || (king_attacks(sq) & their_king) != 0
                || if single {
                    slider_hits(sq, o)
                } else {
                    (bishop_attacks(sq, o) & their_diag) != 0
                        || (rook_attacks(sq, o) & their_orth) != 0
                }
        };

        // King moves (king removed from the occupancy so it cannot hide
        // behind itself along a checking ray).
        if w.has(ROLE_KING) {
            let occ_nk = occ ^ king_bb;
            let mut t = king_attacks(k) & !our & w.to;
            let mut ok = 0u64;
            while t != 0 {
                let s = pop_lsb(&mut t);
                if !attacked(s, occ_nk) {
                    ok |= bit(s);
                }
            }
            sink.piece(k, ok, their);
        }

        // Checkers, and pin masks (union of rays (king, pinner] for orthogonal and diagonal
        // pins), from the enemy sliders on the king's empty-board rays: a slider with nothing
        // between it and the king checks, one with exactly one piece of ours between pins it.
        let mut checkers =
            (pawn_attacks_idx(us, k) & their_pawns) | (knight_attacks(k) & their_knights);
        let mut pin_hv = 0u64;
        let mut pin_d = 0u64;
        let mut snipers = rook_rays(k) & their_orth;
        while snipers != 0 {
            let s = pop_lsb(&mut snipers);
            let b = between(k, s);
            let blockers = b & occ;
            if blockers == 0 {
                checkers |= bit(s);
            } else if blockers & our == blockers && blockers & (blockers - 1) == 0 {
                pin_hv |= b | bit(s);
            }
        }
        let mut snipers = bishop_rays(k) & their_diag;
        while snipers != 0 {
            let s = pop_lsb(&mut snipers);
            let b = between(k, s);
            let blockers = b & occ;
            if blockers == 0 {
                checkers |= bit(s);
            } else if blockers & our == blockers && blockers & (blockers - 1) == 0 {
                pin_d |= b | bit(s);
            }
        }

        if checkers & checkers.wrapping_sub(1) != 0 {
            return; // double check: only king moves
        }

        let check_mask = if checkers != 0 {
            between(k, checkers.trailing_zeros() as u8) | checkers
        } else {
            !0u64
        };

        let pinned = pin_hv | pin_d;

        let target = !our & check_mask & w.to;
        // Our pieces of the wanted roles.
        let mut wanted_pieces = 0u64;
        for (role, &bb) in r.iter().enumerate() {
            if w.has(role) {
                wanted_pieces |= bb;
            }
        }
        let our_wanted = our & wanted_pieces;
        // Where a slider on `s` goes: by its ray to the one destination when there is one.
        let rook_reach = |s: u8| -> u64 {
            if !single {
                rook_attacks(s, occ)
            } else if rook_rays(s) & w.to != 0 && between(s, to_sq) & occ == 0 {
                w.to
            } else {
                0
            }
        };
        let bishop_reach = |s: u8| -> u64 {
            if !single {
                bishop_attacks(s, occ)
            } else if bishop_rays(s) & w.to != 0 && between(s, to_sq) & occ == 0 {
                w.to
            } else {
                0
            }
        };

        // Knights (a pinned knight can never move).
        let mut knights = r[ROLE_KNIGHT] & our_wanted & !pinned;
        while knights != 0 {
            let s = pop_lsb(&mut knights);
            sink.piece(s, knight_attacks(s) & target, their);
        }

        // Diagonal sliders.
        let diag = (r[ROLE_BISHOP] | r[ROLE_QUEEN]) & our_wanted & !pin_hv;
        let mut free = diag & !pin_d;
        while free != 0 {
            let s = pop_lsb(&mut free);
            sink.piece(s, bishop_reach(s) & target, their);
        }
        let mut pinned_d = diag & pin_d;
        while pinned_d != 0 {
            let s = pop_lsb(&mut pinned_d);
            sink.piece(s, bishop_reach(s) & target & pin_d, their);
        }

        // Orthogonal sliders.
        let orth = (r[ROLE_ROOK] | r[ROLE_QUEEN]) & our_wanted & !pin_d;
        let mut free = orth & !pin_hv;
        while free != 0 {
            let s = pop_lsb(&mut free);
            sink.piece(s, rook_reach(s) & target, their);
        }
        let mut pinned_hv = orth & pin_hv;
        while pinned_hv != 0 {
            let s = pop_lsb(&mut pinned_hv);
            sink.piece(s, rook_reach(s) & target & pin_hv, their);
        }

        // Pawns.
        let pawns = r[ROLE_PAWN] & our_wanted;
        let empty = !occ;
        let last_rank = if WHITE { RANK_8 } else { RANK_1 };
        let third_rank = if WHITE { RANK_3 } else { RANK_6 };
        let up = |b: u64| if WHITE { b << 8 } else { b >> 8 };
        let up_delta: i8 = if WHITE { 8 } else { -8 };

        // Pushes: diagonally pinned pawns cannot push; vertically pinned
        // ones stay on their pin ray.
        let push = pawns & !pin_d;
        let single = (up(push & !pin_hv) | (up(push & pin_hv) & pin_hv)) & empty;
        let double = up(single & third_rank) & empty & check_mask & w.to;
        let single = single & check_mask & w.to;
        sink.pawns(single & !last_rank, up_delta, F_QUIET);
        sink.promotions(single & last_rank, up_delta, F_PROMO);
        sink.pawns(double, 2 * up_delta, F_DOUBLE);

        // Captures: orthogonally pinned pawns cannot capture; diagonally
        // pinned ones only along their pin ray.
        let cap = pawns & !pin_hv;
        let cap_free = cap & !pin_d;
        let cap_pinned = cap & pin_d;
        let cap_target = their & check_mask & w.to;
        // "left" = towards the a-file, "right" = towards the h-file.
        let (left, right, dl, dr) = if WHITE {
            let l = ((cap_free & !FILE_A) << 7) | (((cap_pinned & !FILE_A) << 7) & pin_d);
            let rr = ((cap_free & !FILE_H) << 9) | (((cap_pinned & !FILE_H) << 9) & pin_d);
            (l & cap_target, rr & cap_target, 7i8, 9i8)
        } else {
            let l = ((cap_free & !FILE_A) >> 9) | (((cap_pinned & !FILE_A) >> 9) & pin_d);
            let rr = ((cap_free & !FILE_H) >> 7) | (((cap_pinned & !FILE_H) >> 7) & pin_d);
            (l & cap_target, rr & cap_target, -9i8, -7i8)
        };
        sink.pawns(left & !last_rank, dl, F_CAPTURE);
        sink.pawns(right & !last_rank, dr, F_CAPTURE);
        sink.promotions(left & last_rank, dl, F_PROMO_CAP);
        sink.promotions(right & last_rank, dr, F_PROMO_CAP);

        // En passant (rare): test legality exactly by recomputing slider
        // attacks on the king with both pawns moved.
        let e = self.ep;
        if e < 64 && w.to & bit(e) != 0 {
            let c = e ^ 8;
            let expected_rank = if WHITE { 5 } else { 2 };
            if e >> 3 == expected_rank && their_pawns & bit(c) != 0 && occ & bit(e) == 0 {
                let mut cands = pawn_attacks_idx(them, e) & pawns;
                // Non-slider checkers other than the ep pawn cannot be resolved.
                if checkers & !bit(c) & (their_pawns | their_knights) != 0 {
                    cands = 0;
                }
                while cands != 0 {
                    let p = pop_lsb(&mut cands);
                    let occ2 = (occ ^ bit(p) ^ bit(c)) | bit(e);
                    if bishop_attacks(k, occ2) & their_diag == 0
                        && rook_attacks(k, occ2) & their_orth == 0
                    {
                        sink.one(ChessMove::raw_new(p, e, F_EP));
                    }
                }
            }
        }

        // Castling (Chess960-general): king k -> g/c file, rook -> f/d file.
        if checkers == 0 && w.has(ROLE_KING) {
            let base: u8 = if WHITE { 0 } else { 56 };
            if k & 56 == base {
                let our_rooks = r[ROLE_ROOK] & our;
                for i in 0..2 {
                    let rs = self.castle[us * 2 + i];
                    if rs >= 64 || our_rooks & bit(rs) == 0 {
                        continue;
                    }
                    let kingside = i == 0;
                    let (kd, rd) = if kingside {
                        (base + 6, base + 5)
                    } else {
                        (base + 2, base + 3)
                    };
                    if w.to & bit(kd) == 0 {
                        continue;
                    }
                    let kr = king_bb | bit(rs);
                    let must_be_empty =
                        (between(k, kd) | bit(kd) | between(rs, rd) | bit(rd)) & !kr;
                    if occ & must_be_empty != 0 {
                        continue;
                    }
                    let occ2 = occ ^ kr;
                    let mut path = (between(k, kd) | bit(kd)) & !king_bb;
                    let mut safe = true;
                    while path != 0 {
                        let s = pop_lsb(&mut path);
                        if attacked(s, occ2) {
                            safe = false;
                            break;
                        }
                    }
                    // The king stays on its square (kd == k): it is not in
                    // check, but the rook leaving might open a line to it.
                    if safe && kd == k && attacked(k, occ2 | bit(rd)) {
                        safe = false;
                    }
                    if safe {
                        sink.one(ChessMove::raw_new(k, rs, F_CASTLE));
                    }
                }
            }
        }
    }
}

impl Board {
    /// The legal moves to `to` by our pieces of the roles in `roles` (bit `1 << role`), as
    /// [`Board::generate_wanted`] gives them for that one destination but without castling,
    /// found from the destination: the pieces of those roles that reach it, each tested by
    /// whether our king is attacked once it has moved (no pin or check analysis of the whole
    /// board). `false` (nothing written) where it leaves the answer to the generator: a pawn
    /// to the last rank (promotions) or to the en passant square.
    pub(crate) fn moves_to(&self, to: u8, roles: u8, out: &mut MoveList) -> bool {
        let us = self.side as usize & 1;
        let them = us ^ 1;
        let r = &self.by_role;
        let our = self.by_side[us];
        let their = self.by_side[them];
        let occ = our | their;
        let tb = bit(to);
        let king_bb = r[ROLE_KING] & our;
        if king_bb == 0 || to >= 64 {
            return true; // the generator gives nothing either
        }
        if our & tb != 0 {
            return true;
        }
        let has = |role: usize| roles & (1 << role) != 0;
        let pawn_role = has(ROLE_PAWN);
        if pawn_role && (tb & (RANK_1 | RANK_8) != 0 || to == self.ep) {
            return false;
        }
        let k = king_bb.trailing_zeros() as u8;
        let flag = if their & tb != 0 { F_CAPTURE } else { F_QUIET };
        // Is `sq` attacked by their pieces other than one on `to` (taken), with occupancy
        // `o`? (Their king never attacks ours, so it may be counted for every move.)
        let attacked = |sq: u8, o: u64| self.attackers_idx(sq, them, o) & !tb != 0;
        // A move of a piece other than the king from `s`: legal when our king is not
        // attacked afterwards.
        let safe = |s: u8| !attacked(k, (occ ^ bit(s)) | tb);
        let push_from = |mut from: u64, flag: u16, out: &mut MoveList| {
            while from != 0 {
                let s = pop_lsb(&mut from);
                if safe(s) {
                    out.push(ChessMove::raw_new(s, to, flag));
                }
            }
        };
        if has(ROLE_KING) && king_attacks(to) & king_bb != 0 && !attacked(to, occ ^ king_bb) {
            out.push(ChessMove::raw_new(k, to, flag));
        }
        if has(ROLE_KNIGHT) {
            push_from(knight_attacks(to) & r[ROLE_KNIGHT] & our, flag, out);
        }
        let mut diag = 0u64;
        let mut orth = 0u64;
        if has(ROLE_BISHOP) {
            diag |= r[ROLE_BISHOP];
        }
        if has(ROLE_ROOK) {
            orth |= r[ROLE_ROOK];
        }
        if has(ROLE_QUEEN) {
            diag |= r[ROLE_QUEEN];
            orth |= r[ROLE_QUEEN];
        }
        let mut reach = 0u64;
        let mut sn = bishop_rays(to) & diag & our;
        while sn != 0 {
            let s = pop_lsb(&mut sn);
            if between(s, to) & occ == 0 {
                reach |= bit(s);
            }
        }
        let mut sn = rook_rays(to) & orth & our;
        while sn != 0 {
            let s = pop_lsb(&mut sn);
            if between(s, to) & occ == 0 {
                reach |= bit(s);
            }
        }
        push_from(reach, flag, out);
        if pawn_role {
            let pawns = r[ROLE_PAWN] & our;
            if flag == F_CAPTURE {
                push_from(pawn_attacks_idx(them, to) & pawns, F_CAPTURE, out);
            } else {
                let (one, two, fourth) = if us == 0 {
                    (to.wrapping_sub(8), to.wrapping_sub(16), 3)
                } else {
                    (to + 8, to + 16, 4)
                };
                if one < 64 && pawns & bit(one) != 0 {
                    push_from(bit(one), F_QUIET, out);
                } else if to >> 3 == fourth && occ & bit(one) == 0 && pawns & bit(two) != 0 {
                    push_from(bit(two), F_DOUBLE, out);
                }
            }
        }
        true
    }
}
