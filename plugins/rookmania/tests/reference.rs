//! An independent check of the plugin's move generator.
//!
//! `Ref` below is a second, deliberately simple implementation of Rook Mania written from the
//! rule text (seeds/variant-rookmania.txt and RULINGS.md) over a plain 9 x 7 array of
//! `Option<Piece>`. It shares no code with the plugin: it has its own board shape, FEN reader
//! and writer, move rules, immobilization, check test and move application, all by brute
//! force (check = "some enemy move would remove the King", computed by generating that move).
//! The plugin is used only through its `VariantRules` interface.
//!
//! On thousands of positions reached by seeded random play (from the start position and from
//! random placements) the two must agree on: which FENs are valid, the legal moves
//! (from, to, special), the pseudo-legal moves of both sides, check, and the position (FEN)
//! after every legal move.

use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    Color, GenRequest, Move, MoveEffects, Position, Square, SquareSet, VariantRules,
};
use houserules_rookmania::RookMania;
use houserules_tests::Rng;
use std::collections::BTreeSet;

// ---------------------------------------------------------------------------------------------
// The reference implementation.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Piece {
    white: bool,
    /// Upper-case letter: K R C S B T H P.
    letter: char,
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct Ref {
    /// grid[rank][file], rank 0 = rank 1.
    grid: [[Option<Piece>; 7]; 9],
    white_to_move: bool,
    shots: [u32; 2],
    halfmove: u32,
    fullmove: u32,
}

/// Width of each rank of the hourglass, rank 1 first.
const WIDTHS: [i32; 9] = [3, 5, 7, 5, 3, 5, 7, 5, 3];

fn exists(f: i32, r: i32) -> bool {
    if !(0..9).contains(&r) || !(0..7).contains(&f) {
        return false;
    }
    let w = WIDTHS[r as usize];
    let first = (7 - w) / 2;
    f >= first && f < first + w
}

const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

type Sq = (i32, i32); // (file, rank)

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct RMove {
    from: Sq,
    to: Sq,
    shot: bool,
}

impl Ref {
    fn at(&self, s: Sq) -> Option<Piece> {
        if exists(s.0, s.1) {
            self.grid[s.1 as usize][s.0 as usize]
        } else {
            None
        }
    }
    fn set(&mut self, s: Sq, p: Option<Piece>) {
        self.grid[s.1 as usize][s.0 as usize] = p;
    }

    fn parse(fen: &str) -> Option<Ref> {
        let parts: Vec<&str> = fen.split_whitespace().collect();
        if parts.len() != 5 {
            return None;
        }
        let rows: Vec<&str> = parts[0].split('/').collect();
        if rows.len() != 9 {
            return None;
        }
        let mut grid = [[None; 7]; 9];
        for (i, row) in rows.iter().enumerate() {
            let r = 8 - i as i32;
            let mut f = 0i32;
            for ch in row.chars() {
                if let Some(n) = ch.to_digit(10) {
                    for _ in 0..n {
                        if !exists(f, r) {
                            return None;
                        }
                        f += 1;
                    }
                } else if ch == '*' {
                    if exists(f, r) {
                        return None;
                    }
                    f += 1;
                } else {
                    if !exists(f, r) || !"KRCSBTHP".contains(ch.to_ascii_uppercase()) {
                        return None;
                    }
                    grid[r as usize][f as usize] = Some(Piece {
                        white: ch.is_ascii_uppercase(),
                        letter: ch.to_ascii_uppercase(),
                    });
                    f += 1;
                }
            }
            if f != 7 {
                return None;
            }
        }
        let white_to_move = match parts[1] {
            "w" => true,
            "b" => false,
            _ => return None,
        };
        let s: Vec<u32> = parts[2]
            .chars()
            .map(|c| c.to_digit(10).unwrap_or(9))
            .collect();
        if s.len() != 2 || s[0] > 2 || s[1] > 2 {
            return None;
        }
        Some(Ref {
            grid,
            white_to_move,
            shots: [s[0], s[1]],
            halfmove: parts[3].parse().ok()?,
            fullmove: parts[4].parse().ok()?,
        })
    }

    fn write(&self) -> String {
        let mut rows = Vec::new();
        for r in (0..9).rev() {
            let mut row = String::new();
            let mut run = 0;
            for f in 0..7 {
                if !exists(f, r) {
                    if run > 0 {
                        row += &run.to_string();
                        run = 0;
                    }
                    row.push('*');
                } else if let Some(p) = self.grid[r as usize][f as usize] {
                    if run > 0 {
                        row += &run.to_string();
                        run = 0;
                    }
                    row.push(if p.white {
                        p.letter
                    } else {
                        p.letter.to_ascii_lowercase()
                    });
                } else {
                    run += 1;
                }
            }
            if run > 0 {
                row += &run.to_string();
            }
            rows.push(row);
        }
        format!(
            "{} {} {}{} {} {}",
            rows.join("/"),
            if self.white_to_move { 'w' } else { 'b' },
            self.shots[0],
            self.shots[1],
            self.halfmove,
            self.fullmove
        )
    }

    fn all_squares() -> Vec<Sq> {
        let mut v = Vec::new();
        for r in 0..9 {
            for f in 0..7 {
                if exists(f, r) {
                    v.push((f, r));
                }
            }
        }
        v
    }

    fn king_of(&self, white: bool) -> Option<Sq> {
        Ref::all_squares()
            .into_iter()
            .find(|&s| self.at(s) == Some(Piece { white, letter: 'K' }))
    }

    /// A piece is immobilized when, looking outwards along each of the four lines, the first
    /// piece it meets is an enemy Basilisk (and it is not a Basilisk itself).
    fn is_frozen(&self, s: Sq) -> bool {
        let Some(p) = self.at(s) else { return false };
        if p.letter == 'B' {
            return false;
        }
        for (df, dr) in ORTHO {
            let mut k = 1;
            loop {
                let t = (s.0 + df * k, s.1 + dr * k);
                if !exists(t.0, t.1) {
                    break;
                }
                if let Some(q) = self.at(t) {
                    if q.letter == 'B' && q.white != p.white {
                        return true;
                    }
                    break;
                }
                k += 1;
            }
        }
        false
    }

    fn enemy_at(&self, s: Sq, white: bool) -> bool {
        self.at(s).is_some_and(|q| q.white != white)
    }

    /// Ordinary moves of the piece on `s` as (destination, squares whose pieces it removes),
    /// ignoring immobilization and check.
    fn piece_moves(&self, s: Sq) -> Vec<(Sq, Vec<Sq>)> {
        let p = self.at(s).expect("a piece");
        let w = p.white;
        let mut out: Vec<(Sq, Vec<Sq>)> = Vec::new();
        let free = |t: Sq| exists(t.0, t.1) && self.at(t).is_none();
        match p.letter {
            'R' | 'B' => {
                for (df, dr) in ORTHO {
                    for k in 1.. {
                        let t = (s.0 + df * k, s.1 + dr * k);
                        if !exists(t.0, t.1) {
                            break;
                        }
                        match self.at(t) {
                            None => out.push((t, vec![])),
                            Some(q) => {
                                if q.white != w && p.letter == 'R' {
                                    out.push((t, vec![t]));
                                }
                                break;
                            }
                        }
                    }
                }
            }
            'C' => {
                for (df, dr) in ORTHO {
                    let mut screened = false;
                    for k in 1.. {
                        let t = (s.0 + df * k, s.1 + dr * k);
                        if !exists(t.0, t.1) {
                            break;
                        }
                        match (self.at(t), screened) {
                            (None, false) => out.push((t, vec![])),
                            (None, true) => {}
                            (Some(_), false) => screened = true,
                            (Some(q), true) => {
                                if q.white != w {
                                    out.push((t, vec![t]));
                                }
                                break;
                            }
                        }
                    }
                }
            }
            'S' => {
                for (df, dr) in ORTHO {
                    let mut k = 1;
                    loop {
                        let t = (s.0 + df * k, s.1 + dr * k);
                        if !exists(t.0, t.1) {
                            break;
                        }
                        match self.at(t) {
                            None => out.push((t, vec![])),
                            Some(q) => {
                                if q.white != w {
                                    out.push((t, vec![t]));
                                }
                                break;
                            }
                        }
                        k += 2;
                    }
                }
            }
            'K' => {
                for (df, dr) in ORTHO {
                    let t = (s.0 + df, s.1 + dr);
                    if free(t) {
                        out.push((t, vec![]));
                    } else if self.enemy_at(t, w) {
                        out.push((t, vec![t]));
                    }
                }
            }
            'T' | 'H' => {
                let n = if p.letter == 'T' { 2 } else { 3 };
                let mut seen: BTreeSet<Sq> = BTreeSet::new();
                let total = 4usize.pow(n);
                for code in 0..total {
                    let mut path = vec![s];
                    let mut c = code;
                    let mut ok = true;
                    for step in 0..n {
                        let (df, dr) = ORTHO[c % 4];
                        c /= 4;
                        let last = *path.last().unwrap();
                        let t = (last.0 + df, last.1 + dr);
                        if !exists(t.0, t.1) || path.contains(&t) {
                            ok = false;
                            break;
                        }
                        let is_last = step == n - 1;
                        if !is_last && self.at(t).is_some() {
                            ok = false;
                            break;
                        }
                        if is_last && self.at(t).is_some_and(|q| q.white == w) {
                            ok = false;
                            break;
                        }
                        path.push(t);
                    }
                    if ok {
                        let t = *path.last().unwrap();
                        if seen.insert(t) {
                            out.push((
                                t,
                                if self.at(t).is_some() {
                                    vec![t]
                                } else {
                                    vec![]
                                },
                            ));
                        }
                    }
                }
            }
            'P' => {
                let my_pawns = Ref::all_squares()
                    .into_iter()
                    .filter(|&q| {
                        self.at(q)
                            == Some(Piece {
                                white: w,
                                letter: 'P',
                            })
                    })
                    .count();
                for (df, dr) in ORTHO {
                    for k in 1.. {
                        let t = (s.0 + df * k, s.1 + dr * k);
                        if !free(t) {
                            break;
                        }
                        // The board after the pawn has moved.
                        let mut after = self.clone();
                        after.set(s, None);
                        after.set(t, Some(p));
                        let mut caps = Vec::new();
                        if my_pawns == 1 {
                            if let Some(king) = after.king_of(w) {
                                for q in [(king.0, t.1), (t.0, king.1)] {
                                    if after.enemy_at(q, w) && !caps.contains(&q) {
                                        caps.push(q);
                                    }
                                }
                            }
                        } else {
                            for (ef, er) in ORTHO {
                                let victim = (t.0 + ef, t.1 + er);
                                let anvil = (t.0 + 2 * ef, t.1 + 2 * er);
                                if after.enemy_at(victim, w)
                                    && after.at(anvil)
                                        == Some(Piece {
                                            white: w,
                                            letter: 'P',
                                        })
                                {
                                    caps.push(victim);
                                }
                            }
                        }
                        out.push((t, caps));
                    }
                }
            }
            _ => unreachable!(),
        }
        out
    }

    /// Whether the side `white`'s King is attacked: some enemy piece, not immobilized, has
    /// an ordinary move that removes it.
    fn in_check(&self, white: bool) -> bool {
        let Some(k) = self.king_of(white) else {
            return false;
        };
        self.attacked_by(k, !white)
    }

    fn attacked_by(&self, k: Sq, white: bool) -> bool {
        Ref::all_squares().into_iter().any(|s| {
            self.at(s).is_some_and(|p| p.white == white)
                && !self.is_frozen(s)
                && self
                    .piece_moves(s)
                    .iter()
                    .any(|(_, caps)| caps.contains(&k))
        })
    }

    fn pseudo(&self, white: bool) -> Vec<RMove> {
        let mut v = Vec::new();
        for s in Ref::all_squares() {
            let Some(p) = self.at(s) else { continue };
            if p.white != white {
                continue;
            }
            if !self.is_frozen(s) {
                for (t, _) in self.piece_moves(s) {
                    v.push(RMove {
                        from: s,
                        to: t,
                        shot: false,
                    });
                }
            }
            if p.letter == 'K' && self.shots[if white { 0 } else { 1 }] > 0 {
                for (df, dr) in ORTHO {
                    // The first piece along the line.
                    let mut k = 1;
                    let target = loop {
                        let t = (s.0 + df * k, s.1 + dr * k);
                        if !exists(t.0, t.1) {
                            break None;
                        }
                        if self.at(t).is_some() {
                            break Some(t);
                        }
                        k += 1;
                    };
                    if let Some(t) = target {
                        let q = self.at(t).unwrap();
                        let gives_check = !self.is_frozen(t)
                            && self.piece_moves(t).iter().any(|(_, c)| c.contains(&s));
                        if q.white != white && q.letter != 'K' && q.letter != 'B' && gives_check {
                            v.push(RMove {
                                from: s,
                                to: t,
                                shot: true,
                            });
                        }
                    }
                }
            }
        }
        v
    }

    fn play(&self, m: RMove) -> Ref {
        let mut n = self.clone();
        let white = self.white_to_move;
        let mut reset = false;
        if m.shot {
            n.set(m.to, None);
            n.shots[if white { 0 } else { 1 }] -= 1;
            reset = true;
        } else {
            let p = self.at(m.from).unwrap();
            let caps = self
                .piece_moves(m.from)
                .into_iter()
                .find(|(t, _)| *t == m.to)
                .map(|(_, c)| c)
                .unwrap_or_default();
            n.set(m.from, None);
            n.set(m.to, Some(p));
            for c in &caps {
                if *c != m.to {
                    n.set(*c, None);
                }
            }
            reset = reset || p.letter == 'P' || !caps.is_empty();
        }
        n.halfmove = if reset { 0 } else { self.halfmove + 1 };
        if !white {
            n.fullmove += 1;
        }
        n.white_to_move = !white;
        n
    }

    fn legal(&self) -> Vec<RMove> {
        let white = self.white_to_move;
        self.pseudo(white)
            .into_iter()
            .filter(|&m| !self.play(m).in_check(white))
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Comparison with the plugin.

fn sq_of(s: Sq) -> Square {
    Square::new(s.0 as u8, s.1 as u8)
}

fn key_api(m: &Move) -> (u8, u8, u16) {
    (m.from.0, m.to.0, m.special)
}

fn key_ref(m: &RMove) -> (u8, u8, u16) {
    (sq_of(m.from).0, sq_of(m.to).0, u16::from(m.shot))
}

#[derive(Default)]
struct Stats {
    positions: usize,
    moves: usize,
    shots: usize,
    multi_captures: usize,
    coordinator_captures: usize,
    checks: usize,
    frozen_kings: usize,
    rejected_fens: usize,
}

/// Compares everything on one position; returns the reference's legal moves.
fn compare(v: &RookMania, pos: &Position, r: &Ref, st: &mut Stats) -> Vec<RMove> {
    let fen = v.write_fen(pos);
    assert_eq!(fen, r.write(), "FENs differ");
    st.positions += 1;
    // Legal moves.
    let mut out = RVec::new();
    let side = pos.side_to_move;
    v.generate(
        pos,
        &GenRequest::new(side, true, SquareSet::EMPTY),
        &mut out,
    );
    let got: BTreeSet<_> = out.iter().map(key_api).collect();
    assert_eq!(got.len(), out.len(), "duplicate moves in {fen}");
    let legal = r.legal();
    let want: BTreeSet<_> = legal.iter().map(key_ref).collect();
    assert_eq!(
        got,
        want,
        "legal moves differ in {fen}\nplugin only: {:?}\nreference only: {:?}",
        got.difference(&want).collect::<Vec<_>>(),
        want.difference(&got).collect::<Vec<_>>()
    );
    assert_eq!(
        v.legal_move_count(pos),
        legal.len() as u64,
        "count in {fen}"
    );
    // Pseudo-legal moves of both sides.
    for (color, white) in [(Color::White, true), (Color::Black, false)] {
        let mut out = RVec::new();
        v.generate(
            pos,
            &GenRequest::new(color, false, SquareSet::EMPTY),
            &mut out,
        );
        let got: BTreeSet<_> = out.iter().map(key_api).collect();
        let want: BTreeSet<_> = r.pseudo(white).iter().map(key_ref).collect();
        assert_eq!(got, want, "pseudo-legal moves of {color:?} differ in {fen}");
        // Check, as the host asks it.
        if let Some(k) = r.king_of(white) {
            let ref_check = r.attacked_by(k, !white);
            assert_eq!(
                v.is_attacked(pos, sq_of(k), color.opposite()),
                ref_check,
                "check of {color:?} differs in {fen}"
            );
            if ref_check {
                st.checks += 1;
            }
            if r.is_frozen(k) {
                st.frozen_kings += 1;
            }
        }
    }
    // The position after every legal move.
    for m in &legal {
        let api = *out_find(&out, key_ref(m)).expect("move present");
        let mut child = pos.clone();
        let mut fx = MoveEffects::new(side, false);
        v.apply(&mut child, api, &mut fx);
        let rc = r.play(*m);
        assert_eq!(
            v.write_fen(&child),
            rc.write(),
            "positions after {m:?} differ from {fen}"
        );
        st.moves += 1;
        if m.shot {
            st.shots += 1;
        }
        if fx.captured().len() > 1 {
            st.multi_captures += 1;
        }
        if !m.shot
            && r.at(m.from).is_some_and(|p| p.letter == 'P')
            && fx.captured().iter().any(|c| c.square != api.to)
            && Ref::all_squares()
                .iter()
                .filter(|&&q| {
                    r.at(q)
                        == Some(Piece {
                            white: r.white_to_move,
                            letter: 'P',
                        })
                })
                .count()
                == 1
        {
            st.coordinator_captures += 1;
        }
    }
    legal
}

fn out_find(out: &RVec<Move>, key: (u8, u8, u16)) -> Option<&Move> {
    out.iter().find(|m| key_api(m) == key)
}

fn playout(v: &RookMania, fen: &str, plies: usize, rng: &mut Rng, st: &mut Stats) {
    let mut pos = v.parse_fen(fen).expect("valid FEN");
    let mut r = Ref::parse(fen).expect("reference reads it");
    for _ in 0..plies {
        let legal = compare(v, &pos, &r, st);
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        let mut out = RVec::new();
        v.generate(
            &pos,
            &GenRequest::new(pos.side_to_move, true, SquareSet::EMPTY),
            &mut out,
        );
        let api = *out_find(&out, key_ref(&m)).unwrap();
        let mut fx = MoveEffects::new(pos.side_to_move, false);
        v.apply(&mut pos, api, &mut fx);
        r = r.play(m);
    }
}

const START: &str = "**bkh**/*ctrst*/ppppppp/*5*/**3**/*5*/PPPPPPP/*CTRST*/**BKH** w 22 0 1";

fn random_fen(rng: &mut Rng) -> String {
    let squares = Ref::all_squares();
    let mut r = Ref {
        grid: [[None; 7]; 9],
        white_to_move: rng.below(2) == 0,
        shots: [rng.below(3) as u32, rng.below(3) as u32],
        halfmove: rng.below(40) as u32,
        fullmove: 1 + rng.below(60) as u32,
    };
    let mut free: Vec<Sq> = squares.clone();
    let mut place = |r: &mut Ref, p: Piece, rng: &mut Rng| {
        let i = rng.below(free.len());
        let s = free.swap_remove(i);
        r.set(s, Some(p));
    };
    for white in [true, false] {
        place(&mut r, Piece { white, letter: 'K' }, rng);
        let n = 1 + rng.below(11);
        for _ in 0..n {
            // Pawns and Basilisks more often: they make the rules interact.
            let letter = b"RCSBTHPPPPPBP"[rng.below(13)] as char;
            place(&mut r, Piece { white, letter }, rng);
        }
    }
    r.write()
}

#[test]
fn plugin_agrees_with_reference_from_the_start() {
    let v = RookMania::default();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut st = Stats::default();
    for _ in 0..24 {
        playout(&v, START, 120, &mut rng, &mut st);
    }
    eprintln!(
        "start playouts: {} positions, {} moves, {} shots, {} multi-captures, {} checks",
        st.positions, st.moves, st.shots, st.multi_captures, st.checks
    );
    assert!(st.positions > 1500, "{}", st.positions);
}

#[test]
fn plugin_agrees_with_reference_from_random_positions() {
    let v = RookMania::default();
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    let mut st = Stats::default();
    let mut tried = 0;
    while st.positions < 5000 {
        tried += 1;
        let fen = random_fen(&mut rng);
        let r = Ref::parse(&fen).expect("reference reads its own FEN");
        // A FEN whose side not to move is in check is refused, and only such a FEN.
        let side_that_moved_in_check = r.in_check(!r.white_to_move);
        match v.parse_fen(&fen) {
            Ok(_) => assert!(!side_that_moved_in_check, "accepted {fen}"),
            Err(e) => {
                assert!(side_that_moved_in_check, "refused {fen}: {e}");
                assert_eq!(e.field, 1, "{e}");
                st.rejected_fens += 1;
                continue;
            }
        }
        playout(&v, &fen, 20, &mut rng, &mut st);
    }
    eprintln!(
        "random positions: {tried} FENs ({} refused), {} positions, {} moves, {} shots, \
         {} multi-captures, {} coordinator captures, {} checks, {} frozen kings",
        st.rejected_fens,
        st.positions,
        st.moves,
        st.shots,
        st.multi_captures,
        st.coordinator_captures,
        st.checks,
        st.frozen_kings
    );
    // The interesting rules were exercised.
    assert!(st.shots > 40, "shots {}", st.shots);
    assert!(st.multi_captures > 5, "multi {}", st.multi_captures);
    assert!(
        st.coordinator_captures > 100,
        "coord {}",
        st.coordinator_captures
    );
    assert!(st.frozen_kings > 100, "frozen kings {}", st.frozen_kings);
}

/// Perft of the start position by the reference, against the numbers the plugin reports
/// (kept in the plugin's unit tests and the host integration test).
#[test]
fn reference_perft_matches() {
    fn perft(r: &Ref, d: u32) -> u64 {
        if d == 0 {
            return 1;
        }
        r.legal().iter().map(|&m| perft(&r.play(m), d - 1)).sum()
    }
    let r = Ref::parse(START).unwrap();
    assert_eq!(perft(&r, 1), 11);
    assert_eq!(perft(&r, 2), 103);
    assert_eq!(perft(&r, 3), 1624);
}
