//! Fairy-Stockfish's `chasingRule = axf`: the Asian xiangqi rules on perpetual chase, as its
//! `Position::chased()` and `is_optional_game_end` have them.
//!
//! Every move marks the opponent's pieces it chases ([`Chasing::chased`], the host keeps the
//! marks: API 1.5 `move_mark`): a piece the moved piece (or a piece it uncovered) newly
//! attacks that is stronger (a rook attacked by a horse or cannon; a rook, cannon or horse
//! by an elephant or advisor) or not protected (no defender but pinned ones, or only the
//! king where taking back would face the other king), kings and unpromoted soldiers
//! exempt, an attack on a piece of the same type only when that piece is pinned or cannot
//! attack back; plus pieces whose defender just became pinned, and pieces uncovered by a
//! discovered check. A repetition in which one side chased the same piece with every move
//! of the cycle ([`houserules_plugin_api::OutcomeContext::marked_in_cycle`]) is lost by
//! that side, by both a draw; perpetual check comes first. The n-move rule waits two plies
//! for every check beyond the tenth of either side since the clock's reset.
//!
//! Attacks are Fairy-Stockfish's: the moved or uncovered piece attacks only inside its
//! mobility region, what defends a square counts only the types that may stand there, but
//! the raw patterns (the uncovered attacks, a pinned defender's reach) ignore regions. Only xiangqi's pieces are
//! known to the rule (the C++ names them), so a section with other pieces is refused.
//!
//! Drops (`xiangqihouse`): Fairy-Stockfish reads a drop's origin, `SQ_NONE`, from its
//! tables, past their end, so what it calls the chase of a drop is whatever memory lies
//! there. Here a drop is a piece that attacked nothing before: every attack of the dropped
//! piece is new, and the only piece it can uncover is a cannon that gains it as a screen.

use crate::spec::{self, Spec};
use houserules_plugin_api::{Color, Move, Outcome, OutcomeContext, Position, Square, SquareSet};

/// Bitboard over `rank * files + file` (boards up to 128 squares).
type Bb = u128;

/// Xiangqi's piece types, as indexes.
const ROOK: usize = 0;
const HORSE: usize = 1;
const ELEPHANT: usize = 2;
const FERS: usize = 3;
const CANNON: usize = 4;
const SOLDIER: usize = 5;
const KING: usize = 6;

/// Fairy-Stockfish's type numbers of [`ROOK`] ... [`KING`], with the Betza they must have.
const TYPES: [(u16, &str); 7] = [
    (spec::ROOK, "R"),
    (30, "nN"),
    (31, "nA"),
    (6, "F"),
    (27, "mRcpR"),
    (spec::SOLDIER, "fsW"),
    (spec::KING, "W"),
];

/// Why a section with `chasingRule = axf` cannot be played, if it cannot.
pub fn unsupported(spec: &Spec) -> Option<String> {
    for (ty, p) in &spec.pieces {
        match TYPES.iter().find(|(t, _)| t == ty) {
            None => {
                return Some(format!(
                    "`axf` knows xiangqi's pieces only, not `{}` (Fairy-Stockfish's chase \
                     rule names the xiangqi types)",
                    p.key
                ))
            }
            Some((_, betza)) if p.betza != *betza => {
                return Some(format!(
                    "`axf` needs xiangqi's `{}` (`{betza}`), not `{}`",
                    p.key, p.betza
                ))
            }
            _ => {}
        }
    }
    if !spec.pieces.contains_key(&spec::KING) {
        return Some("`axf` needs the kings".into());
    }
    if !spec.promoted_piece_type.is_empty() || spec.max_file as usize * spec.max_rank as usize > 128
    {
        return Some("`axf` needs a xiangqi board without promotions".into());
    }
    None
}

/// The chase rule compiled for a variant.
#[derive(Debug, Clone)]
pub struct Chasing {
    files: u8,
    ranks: u8,
    /// Per kind of the host's table: its xiangqi type.
    kind_types: Vec<Option<usize>>,
    /// Per type and colour: where the type may stand (the whole board without a region).
    regions: [[Bb; 2]; 7],
    /// Soldiers of each colour from here on are promoted (move and attack sideways).
    promoted_zone: [Bb; 2],
    flying_general: bool,
    /// Wazir, fers, knight-pattern and alfil steps.
    board: Bb,
}

/// A position as bitboards.
struct Board {
    occ: Bb,
    color: [Bb; 2],
    types: [Bb; 7],
}

impl Board {
    fn pieces(&self, c: usize, t: usize) -> Bb {
        self.color[c] & self.types[t]
    }
    fn type_at(&self, s: usize) -> Option<usize> {
        (0..7).find(|&t| self.types[t] & bit(s) != 0)
    }
    fn king(&self, c: usize) -> Option<usize> {
        squares(self.pieces(c, KING)).next()
    }
}

fn bit(s: usize) -> Bb {
    1 << s
}

fn squares(mut b: Bb) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let s = b.trailing_zeros() as usize;
            b &= b - 1;
            s
        })
    })
}

fn more_than_one(b: Bb) -> bool {
    b & b.wrapping_sub(1) != 0
}

const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

impl Chasing {
    /// The rule for `spec` (checked by [`unsupported`]) and the host's kinds, given as their
    /// Fairy-Stockfish types.
    pub fn new(spec: &Spec, kind_types: impl Iterator<Item = u16>) -> Chasing {
        let (files, ranks) = (spec.max_file, spec.max_rank);
        let mut c = Chasing {
            files,
            ranks,
            kind_types: kind_types
                .map(|ty| TYPES.iter().position(|(t, _)| *t == ty))
                .collect(),
            regions: [[0; 2]; 7],
            promoted_zone: [0; 2],
            flying_general: spec.flying_general,
            board: 0,
        };
        for r in 0..ranks {
            for f in 0..files {
                c.board |= bit(c.index(f, r));
            }
        }
        for (t, (ty, _)) in TYPES.iter().enumerate() {
            for color in 0..2 {
                let r = spec.mobility_region.get(ty).map(|r| c.bits(&r[color]));
                c.regions[t][color] = match r {
                    Some(r) if r != 0 => r & c.board,
                    _ => c.board,
                };
            }
        }
        for r in 0..ranks {
            for f in 0..files {
                let s = bit(c.index(f, r));
                if r >= spec.soldier_promotion_rank {
                    c.promoted_zone[0] |= s;
                }
                if ranks - 1 - r >= spec.soldier_promotion_rank {
                    c.promoted_zone[1] |= s;
                }
            }
        }
        c
    }

    fn index(&self, f: u8, r: u8) -> usize {
        r as usize * self.files as usize + f as usize
    }

    fn bits(&self, set: &SquareSet) -> Bb {
        set.iter()
            .filter(|s| s.file() < self.files && s.rank() < self.ranks)
            .fold(0, |b, s| b | bit(self.index(s.file(), s.rank())))
    }

    fn square(&self, s: usize) -> Square {
        let files = self.files as usize;
        Square::new((s % files) as u8, (s / files) as u8)
    }

    fn step(&self, s: usize, df: i32, dr: i32) -> Option<usize> {
        let files = self.files as i32;
        let (f, r) = ((s as i32) % files + df, (s as i32) / files + dr);
        (f >= 0 && f < files && r >= 0 && r < self.ranks as i32).then(|| (r * files + f) as usize)
    }

    fn board_of(&self, pos: &Position) -> Board {
        let mut b = Board {
            occ: 0,
            color: [0; 2],
            types: [0; 7],
        };
        for r in 0..self.ranks {
            for f in 0..self.files {
                let cell = pos.get(Square::new(f, r));
                let (Some(k), Some(c)) = (cell.kind(), cell.color()) else {
                    continue;
                };
                let s = bit(self.index(f, r));
                b.occ |= s;
                b.color[c.index()] |= s;
                if let Some(Some(t)) = self.kind_types.get(k as usize) {
                    b.types[*t] |= s;
                }
            }
        }
        b
    }

    /// Fairy-Stockfish's `attacks_bb(c, t, s, occ)`: the squares a piece of type `t` and
    /// colour `c` on `s` attacks (regions ignored; the soldier with its sideways steps).
    fn attacks(&self, c: usize, t: usize, s: usize, occ: Bb) -> Bb {
        let fwd = if c == 0 { 1 } else { -1 };
        let mut b = 0;
        match t {
            ROOK | CANNON => {
                for (df, dr) in ORTHO {
                    let mut hurdle = false;
                    let mut at = s;
                    while let Some(n) = self.step(at, df, dr) {
                        at = n;
                        if t == ROOK || hurdle {
                            b |= bit(n);
                        }
                        if occ & bit(n) != 0 {
                            if t == CANNON && !hurdle {
                                hurdle = true;
                            } else {
                                break;
                            }
                        }
                    }
                }
            }
            HORSE => {
                for (df, dr) in ORTHO {
                    let Some(leg) = self.step(s, df, dr) else {
                        continue;
                    };
                    if occ & bit(leg) != 0 {
                        continue;
                    }
                    for side in [-1, 1] {
                        let (tf, tr) = if df != 0 {
                            (2 * df, side)
                        } else {
                            (side, 2 * dr)
                        };
                        if let Some(to) = self.step(s, tf, tr) {
                            b |= bit(to);
                        }
                    }
                }
            }
            ELEPHANT => {
                for (df, dr) in DIAG {
                    if let (Some(eye), Some(to)) =
                        (self.step(s, df, dr), self.step(s, 2 * df, 2 * dr))
                    {
                        if occ & bit(eye) == 0 {
                            b |= bit(to);
                        }
                    }
                }
            }
            FERS => b = self.steps(s, &DIAG),
            SOLDIER => {
                for (df, dr) in [(0, fwd), (1, 0), (-1, 0)] {
                    b |= self.step(s, df, dr).map_or(0, bit);
                }
            }
            _ => b = self.steps(s, &ORTHO), // the king moves as a wazir (kingType)
        }
        b
    }

    fn steps(&self, s: usize, dirs: &[(i32, i32)]) -> Bb {
        dirs.iter()
            .filter_map(|&(df, dr)| self.step(s, df, dr))
            .fold(0, |b, n| b | bit(n))
    }

    /// Fairy-Stockfish's `attacks_from`: [`Chasing::attacks`] within the type's mobility
    /// region, an unpromoted soldier's sideways steps removed.
    fn attacks_from(&self, c: usize, t: usize, s: usize, occ: Bb) -> Bb {
        let b = self.attacks(c, t, s, occ) & self.regions[t][c];
        if t == SOLDIER && self.promoted_zone[c] & bit(s) == 0 {
            let fwd = if c == 0 { 1 } else { -1 };
            return b & self.step(s, 0, fwd).map_or(0, bit);
        }
        b
    }

    /// Fairy-Stockfish's `attackers_to(s, occ, c)`: the pieces of `c` attacking `s`, each
    /// type only where it may stand.
    fn attackers_to(&self, b: &Board, s: usize, occ: Bb, c: usize) -> Bb {
        let them = 1 - c;
        let mut a = 0;
        for t in 0..7 {
            if self.regions[t][c] & bit(s) == 0 {
                continue;
            }
            let mine = b.pieces(c, t);
            if mine == 0 {
                continue;
            }
            if t == HORSE {
                // Asymmetric: each horse's own leg decides.
                for s2 in squares(self.knight_pattern(s) & mine) {
                    if self.attacks(c, HORSE, s2, occ) & bit(s) != 0 {
                        a |= bit(s2);
                    }
                }
            } else {
                a |= self.attacks(them, t, s, occ) & mine;
            }
        }
        // Unpromoted soldiers attack only forwards.
        if a & b.types[SOLDIER] != 0 && self.promoted_zone[c] & bit(s) == 0 {
            let back = if c == 0 { -1 } else { 1 };
            let behind = self.step(s, 0, back).map_or(0, bit);
            a &= !(b.types[SOLDIER] & !behind);
        }
        a
    }

    fn knight_pattern(&self, s: usize) -> Bb {
        let mut b = 0;
        for (df, dr) in houserules_plugin_api::geometry::KNIGHT {
            b |= self.step(s, df.into(), dr.into()).map_or(0, bit);
        }
        b
    }

    /// Fairy-Stockfish's `blockers_for_king(c)`: pieces of either side whose removal would
    /// let a piece of the other side attack `c`'s king (a rook, horse or elephant blocked
    /// by one piece, a cannon with two screens).
    fn blockers_for_king(&self, b: &Board, c: usize) -> Bb {
        let Some(k) = b.king(c) else {
            return 0;
        };
        let them = 1 - c;
        let mut snipers = 0;
        let mut sliding = 0;
        for t in [ROOK, HORSE, ELEPHANT, CANNON] {
            let theirs = b.pieces(them, t);
            let mut found = 0;
            if t == HORSE {
                for s2 in squares(self.knight_pattern(k) & theirs) {
                    if self.attacks_from(them, HORSE, s2, b.occ) & bit(k) == 0 {
                        found |= bit(s2);
                    }
                }
            } else {
                // On an empty board (a cannon's range is the rook's lines).
                let range = if t == CANNON { ROOK } else { t };
                let pseudo = self.attacks(c, range, k, 0) & theirs;
                found = pseudo & !self.attacks(c, t, k, b.occ);
            }
            snipers |= found;
            if t != CANNON {
                sliding |= found;
            }
        }
        let occupancy = b.occ ^ sliding;
        let mut blockers = 0;
        for sn in squares(snipers) {
            let hopper = b.types[CANNON] & bit(sn) != 0;
            let between = self.between(k, sn, b.type_at(sn) == Some(HORSE))
                & if hopper { b.occ ^ bit(sn) } else { occupancy };
            if between != 0 && (!more_than_one(between) || (hopper && between.count_ones() == 2)) {
                blockers |= between;
            }
        }
        blockers
    }

    /// Fairy-Stockfish's `between_bb(s1, s2, type)`: for a horse its leg (beside `s2`),
    /// else the squares from `s1` (excluded) to `s2` (included) on a line, or `s2`.
    fn between(&self, s1: usize, s2: usize, horse: bool) -> Bb {
        if horse {
            return self.steps(s2, &ORTHO) & self.steps(s1, &DIAG);
        }
        let files = self.files as i32;
        let (f1, r1) = (s1 as i32 % files, s1 as i32 / files);
        let (f2, r2) = (s2 as i32 % files, s2 as i32 / files);
        let (df, dr) = (f2 - f1, r2 - r1);
        if !(df == 0 || dr == 0 || df.abs() == dr.abs()) || (df == 0 && dr == 0) {
            return bit(s2);
        }
        let (sf, sr) = (df.signum(), dr.signum());
        let mut b = 0;
        let mut at = s1;
        while at != s2 {
            match self.step(at, sf, sr) {
                Some(n) => at = n,
                None => return bit(s2),
            }
            b |= bit(at);
        }
        b
    }

    /// Fairy-Stockfish's `Position::chased()`: the pieces of the side to move in `after`
    /// that `mv` (made in `before`) chases, as host squares.
    pub fn chased(&self, before: &Position, mv: Move, after: &Position) -> SquareSet {
        if crate::pass::is_pass(&mv) {
            return SquareSet::EMPTY;
        }
        let a = self.board_of(after);
        let prev = self.board_of(before);
        let stm = after.side_to_move.index();
        let mover = 1 - stm;
        let Some(to) = self.index_of(mv.destination()) else {
            return SquareSet::EMPTY;
        };
        // A drop has no origin: every attack of the dropped piece is new, and it uncovers
        // nothing (it can only give a cannon a screen, on `to`).
        let from = if mv.is_drop() {
            None
        } else {
            match self.index_of(mv.from) {
                Some(f) => Some(f),
                None => return SquareSet::EMPTY,
            }
        };
        let captured = mv.is_capture();
        let mut chased: Bb = 0;
        let mut pins = self.blockers_for_king(&a, stm);
        if self.flying_general {
            if let Some(k) = a.king(mover) {
                let file = self.file_mask(k);
                let on_file = file & a.color[stm];
                let non_kings = on_file & !a.types[KING];
                if on_file & a.pieces(stm, KING) != 0 && !more_than_one(non_kings) {
                    pins |= non_kings;
                }
            }
        }
        let exempt = (a.pieces(stm, KING) | a.pieces(stm, SOLDIER))
            ^ (a.pieces(stm, SOLDIER) & self.promoted_zone[stm]);
        let add = |chased: &mut Bb, attacker: usize, t: usize, mut attacks: Bb| {
            if attacks & !*chased == 0 {
                return;
            }
            attacks &= !exempt;
            if t == HORSE || t == CANNON {
                *chased |= attacks & a.pieces(stm, ROOK);
            }
            if t == ELEPHANT || t == FERS {
                *chased |=
                    attacks & (a.pieces(stm, ROOK) | a.pieces(stm, CANNON) | a.pieces(stm, HORSE));
            }
            if t == HORSE && self.steps(attacker, &DIAG) & a.occ != 0 {
                for s in squares(attacks & a.pieces(stm, HORSE)) {
                    if self.attacks(stm, HORSE, s, a.occ) & bit(attacker) != 0 {
                        attacks ^= bit(s);
                    }
                }
            } else {
                attacks &= !a.pieces(stm, t) | pins;
            }
            let their_king = a.king(mover);
            for s in squares(attacks) {
                let occ = a.occ ^ bit(attacker);
                let roots = self.attackers_to(&a, s, occ, stm) & !pins;
                let king_only_facing = self.flying_general
                    && roots != 0
                    && roots == a.pieces(stm, KING)
                    && their_king.is_some_and(|k| self.attacks(stm, ROOK, k, occ) & bit(s) != 0);
                if roots == 0 || king_only_facing {
                    *chased |= bit(s);
                }
            }
        };

        // Direct attacks of the moved piece: only the new ones.
        if let Some(moved) = a.type_at(to) {
            if moved != KING && moved != SOLDIER {
                let mut direct = self.attacks_from(mover, moved, to, a.occ) & a.color[stm];
                if let (Some(from), ROOK | CANNON) = (from, moved) {
                    direct &= !self.line(from, to);
                }
                add(&mut chased, to, moved, direct);
            }
        }

        // Discovered attacks.
        let through_from = from.map_or(0, |from| {
            (self.steps(from, &ORTHO) & a.pieces(mover, HORSE))
                | (self.steps(from, &DIAG) & a.pieces(mover, ELEPHANT))
                | (self.attacks(0, ROOK, from, 0)
                    & (a.pieces(mover, CANNON) | a.pieces(mover, ROOK)))
        });
        let candidates = through_from | (self.attacks(0, ROOK, to, 0) & a.pieces(mover, CANNON));
        let old_occ = if captured { a.occ } else { a.occ ^ bit(to) } ^ from.map_or(0, bit);
        for s in squares(candidates) {
            let Some(t) = a.type_at(s) else { continue };
            let discoveries = a.color[stm]
                & self.attacks(mover, t, s, a.occ)
                & !self.attacks(mover, t, s, old_occ);
            add(&mut chased, s, t, discoveries);
        }

        // Defenders newly pinned ("fake roots"), and discovered checks.
        let new_blockers = self.blockers_for_king(&a, stm) & !self.blockers_for_king(&prev, stm);
        let their_blockers = self.blockers_for_king(&a, mover);
        for s in squares(new_blockers & a.color[stm]) {
            let Some(t) = a.type_at(s) else { continue };
            let fake_rooted = a.color[stm] & !exempt & self.attacks(stm, t, s, a.occ);
            for s2 in squares(fake_rooted) {
                if self.attackers_to(&a, s2, a.occ, mover) & !their_blockers != 0 {
                    chased |= bit(s2);
                }
            }
        }
        if let Some(king) = a.king(stm) {
            let around = self.attacks_from(stm, KING, king, a.occ);
            for s in squares(new_blockers & a.color[mover]) {
                let Some(t) = a.type_at(s) else { continue };
                let attacks = self.attacks_from(mover, t, s, a.occ) & a.color[stm];
                chased |= attacks & !around;
                for s2 in squares(attacks & around) {
                    let occ = a.occ ^ bit(s) ^ bit(king);
                    if self.attackers_to(&a, s2, occ, mover) & !bit(s) != 0 {
                        chased |= bit(s2);
                    }
                }
            }
        }
        squares(chased).map(|s| self.square(s)).collect()
    }

    fn index_of(&self, sq: Square) -> Option<usize> {
        (!sq.is_none() && sq.file() < self.files && sq.rank() < self.ranks)
            .then(|| self.index(sq.file(), sq.rank()))
    }

    fn file_mask(&self, s: usize) -> Bb {
        let f = s % self.files as usize;
        (0..self.ranks as usize).fold(0, |b, r| b | bit(r * self.files as usize + f))
    }

    /// Fairy-Stockfish's `line_bb`: the whole rank, file or diagonal through both squares
    /// (empty when they share none).
    fn line(&self, s1: usize, s2: usize) -> Bb {
        let files = self.files as i32;
        let (f1, r1) = (s1 as i32 % files, s1 as i32 / files);
        let (f2, r2) = (s2 as i32 % files, s2 as i32 / files);
        let (df, dr) = (f2 - f1, r2 - r1);
        if (df == 0 && dr == 0) || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
            return 0;
        }
        let (sf, sr) = (df.signum(), dr.signum());
        let mut b = bit(s1);
        for dir in [1, -1] {
            let mut at = s1;
            while let Some(n) = self.step(at, sf * dir, sr * dir) {
                at = n;
                b |= bit(n);
            }
        }
        b
    }

    /// The n-move rule's extension (`rule50 - offset`): two plies per check beyond the tenth
    /// of the side that checked more since the clock's reset, once 20 plies were played.
    /// `checks`: per colour, as the host counts them; `start_in_check`: the window's first
    /// position (Fairy-Stockfish counts it when the window is odd).
    pub fn n_move_offset(stm: Color, checks: [u32; 2], window: u32, start_in_check: bool) -> u32 {
        if window < 20 {
            return 0;
        }
        let us = stm.index();
        let mut counts = checks;
        if window % 2 == 1 && start_in_check {
            // The window's first position had the side to move then (not now) in check:
            // given by the side to move now.
            counts[us] += 1;
        }
        2 * (counts[0].max(counts[1]).saturating_sub(10))
    }
}

/// The n-move rule with the chase rule's extension (Fairy-Stockfish checks it before
/// repetitions): a draw once the clock, less the extension, passed `2 * n_move - 1` plies,
/// unless the side to move is checkmated.
pub fn n_move_draw(pos: &Position, ctx: &OutcomeContext, n_move: u32) -> Option<Outcome> {
    let clock = pos.halfmove_clock as u32;
    if ctx.counting || n_move == 0 || clock < 2 * n_move || (ctx.in_check && !ctx.has_legal_moves) {
        return None;
    }
    let offset = Chasing::n_move_offset(
        pos.side_to_move,
        ctx.checks_since_clock_reset(),
        ctx.clock_window(),
        ctx.clock_start_in_check(),
    );
    (clock.saturating_sub(offset) >= 2 * n_move).then(|| Outcome::draw("n-move-rule"))
}

/// A repetition judged by the chase rule (after perpetual check): the side that chased a
/// piece with every move of the cycle loses; both chasing, a draw; `None`: no chase.
pub fn chase_outcome(stm: Color, ctx: &OutcomeContext) -> Option<Outcome> {
    let marked = ctx.marked_in_cycle();
    let us = marked[stm.index()];
    let them = marked[stm.opposite().index()];
    match (us, them) {
        (false, false) => None,
        (false, true) => Some(Outcome::win(stm, "perpetual-chase")),
        (true, false) => Some(Outcome::win(stm.opposite(), "perpetual-chase")),
        (true, true) => Some(Outcome::draw("perpetual-chase")),
    }
}
