//! The generator against known perft counts: chess written as a rules model (Betza), and
//! small fairy cases.

#[path = "tests_support.rs"]
mod support;

use crate::rules::*;
use crate::Generator;
use houserules_plugin_api::{Color, Position, Square, SquareSet};
use support::*;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn chess_perft_start() {
    let g = Generator::new(&chess()).unwrap();
    let p = fen(START);
    assert_eq!(perft(&g, &p, 1), 20);
    assert_eq!(perft(&g, &p, 2), 400);
    assert_eq!(perft(&g, &p, 3), 8902);
    assert_eq!(perft(&g, &p, 4), 197281);
}

#[test]
fn chess_perft_tricky_positions() {
    let g = Generator::new(&chess()).unwrap();
    for (f, d, n) in [
        (KIWIPETE, 3, 97862u64),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            3,
            9467,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            3,
            62379,
        ),
        (
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            3,
            89890,
        ),
    ] {
        assert_eq!(perft(&g, &fen(f), d), n, "{f}");
    }
}

#[test]
fn chess_under_the_all_royals_rule_with_one_king_agrees() {
    // The same rules with the "all royals" rule and one king each: chess again.
    let mut r = chess();
    r.check = CheckRule::All;
    let g = Generator::new(&r).unwrap();
    assert_eq!(perft(&g, &fen(KIWIPETE), 3), 97862);
    assert_eq!(perft(&g, &fen(START), 3), 8902);
}

#[test]
fn cache_and_rebuild_agree() {
    let g = Generator::new(&chess()).unwrap();
    let mut p = fen(KIWIPETE);
    assert_eq!(perft(&g, &p, 2), 2039);
    g.prime(&mut p);
    assert!(p.accel().is_some());
    assert_eq!(perft(&g, &p, 2), 2039);
}

#[test]
fn wrap_board_double_leap_knights_from_the_start() {
    // knights-leap-twice + wrap-board: 34 / 954 (issue #16).
    let mut r = chess();
    r.topology.wrap_files = true;
    r.pieces[1] = PieceRules::new('N', "NmNaN").unwrap();
    let g = Generator::new(&r).unwrap();
    let p = fen(START);
    assert_eq!(perft(&g, &p, 1), 34);
    assert_eq!(perft(&g, &p, 2), 954);
}

#[test]
fn holes_stop_slides_and_leaps() {
    let mut holes = SquareSet::EMPTY;
    holes.insert(Square::new(2, 0));
    let mut r = Rules::new(4, 1, vec![PieceRules::new('R', "R").unwrap()]);
    r.holes = holes;
    let g = Generator::new(&r).unwrap();
    let mut p = Position::empty(4, 1);
    p.set(Square::new(2, 0), houserules_plugin_api::Cell::HOLE);
    p.set(
        Square::new(0, 0),
        houserules_plugin_api::Cell::piece(0, Color::White),
    );
    assert_eq!(g.count_legal(&p), 1);
}

#[test]
fn an_initial_move_that_is_also_a_general_one_is_one_move() {
    // double-pawn-sprint: `fmnD` from any rank and the pawn's own `ifmnD` from its home
    // rank reach the same squares there: one move each (the whole-set pawn path too).
    let mut r = chess();
    r.pieces[0].movement =
        crate::betza::parse("fmWfceFifmnDfmnD", crate::Dialect::Houserules).unwrap();
    let g = Generator::new(&r).unwrap();
    assert_eq!(perft(&g, &fen(START), 1), 20);
    assert_eq!(perft(&g, &fen(START), 3), 9194);
}

/// `attackers_each` (the cells read once) hands over what `attackers` gives square by
/// square, in order, and stops where its visitor says so.
#[test]
fn attackers_each_agrees_with_attackers_square_by_square() {
    let g = Generator::new(&chess()).unwrap();
    let p = fen(KIWIPETE);
    let squares: Vec<Square> = (0..64).map(Square).collect();
    for by in [Color::White, Color::Black] {
        let mut seen = Vec::new();
        assert!(g.attackers_each(&p, &squares, by, |s, set| {
            seen.push((s, set));
            true
        }));
        let one_by_one: Vec<(Square, SquareSet)> = squares
            .iter()
            .map(|&s| (s, g.attackers(&p, s, by)))
            .collect();
        assert_eq!(seen, one_by_one);
        assert!(seen.iter().any(|(_, set)| !set.is_empty()));
    }
    let mut visits = 0;
    assert!(!g.attackers_each(&p, &squares, Color::White, |_, _| {
        visits += 1;
        visits < 3
    }));
    assert_eq!(visits, 3);
}

/// `quiet_reach_after_each` (one reading of the cells for all the moves) gives what a
/// generation on the board after each move gives: the moved piece's quiet moves from its
/// destination, its origin empty (the arrows of amazons were computed so, one generation a
/// move). Pawns with their first double step, pieces that slide through the square just
/// left, and moves that capture are all among Kiwipete's and this endgame's moves.
#[test]
fn quiet_reach_after_each_agrees_with_a_generation_after_each_move() {
    let g = Generator::new(&chess()).unwrap();
    let board: SquareSet = (0..8)
        .flat_map(|r| (0..8).map(move |f| Square::new(f, r)))
        .collect();
    for f in [KIWIPETE, "4k3/1P6/8/3p4/8/8/4P3/R3K2R w KQ - 0 1"] {
        let p = fen(f);
        let mut moves = houserules_plugin_api::abi_stable::std_types::RVec::new();
        g.legal_moves(&p, &mut moves);
        let moves: Vec<_> = moves.into_iter().filter(|m| !m.is_castle()).collect();
        let mut seen = Vec::new();
        g.quiet_reach_after_each(&p, &moves, |m, reach| seen.push((m, reach)));
        let one_by_one: Vec<_> = moves
            .iter()
            .map(|&m| {
                let mut probe = p.clone();
                let cell = p.get(m.from);
                probe.clear(m.from);
                probe.set(m.to, cell);
                let mut skip = board;
                skip.remove(m.to);
                let mut after = houserules_plugin_api::abi_stable::std_types::RVec::new();
                g.pseudo_moves(&probe, p.side_to_move, &skip, &mut after);
                let reach: SquareSet = after
                    .iter()
                    .filter(|x| x.from == m.to && !x.is_capture() && !x.is_castle())
                    .map(|x| x.to)
                    .collect();
                (m, reach)
            })
            .collect();
        assert_eq!(seen, one_by_one, "{f}");
        assert!(seen.iter().any(|(_, r)| r.len() > 5), "{f}");
    }
}

/// Perft that also checks, at every node, that the position's cache (kept by the moves) is
/// what a fresh encoding of its cells gives.
fn perft_with_cache_checked(g: &Generator, pos: &Position, depth: u32) -> u64 {
    let mut fresh = pos.clone();
    fresh.invalidate_accel();
    g.prime(&mut fresh);
    assert_eq!(g.board_key(pos), g.board_key(&fresh), "{pos:?}");
    if depth == 0 {
        return 1;
    }
    let mut moves = houserules_plugin_api::abi_stable::std_types::RVec::new();
    g.legal_moves(pos, &mut moves);
    let mut n = 0;
    for &m in moves.iter() {
        let mut c = pos.clone();
        g.apply(
            &mut c,
            m,
            &mut houserules_plugin_api::MoveEffects::new(pos.side_to_move, false),
        );
        n += perft_with_cache_checked(g, &c, depth - 1);
    }
    n
}

/// Chess with eight more kinds (none on the board) has fourteen: a bitboard a kind does
/// not fit the position cache, so the kinds are cached sliced, and each move patches the
/// squares it changes. Castling, en passant and promotions keep the counts and the cache.
#[test]
fn a_sliced_cache_is_patched_move_by_move_as_the_cells_say() {
    let mut r = chess();
    for l in ['A', 'C', 'D', 'E', 'F', 'G', 'H', 'I'] {
        r.pieces.push(PieceRules::new(l, "W").unwrap());
    }
    let g = Generator::new(&r).unwrap();
    for (f, depth, nodes) in [
        (START, 3, 8902),
        (KIWIPETE, 3, 97862),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            3,
            9467,
        ),
    ] {
        let mut p = fen(f);
        g.prime(&mut p);
        assert_eq!(perft_with_cache_checked(&g, &p, depth), nodes, "{f}");
    }
}

/// Hoppers' attacks (read from their rays' bitboards on a straight ray, from the square lists
/// on a wrapped one) are the captures their moves make: on random boards of cannons of both
/// lines, grasshoppers and rooks, the attackers of every white piece are the origins of
/// Black's pseudo-legal captures landing on it; on a plain board and on one whose files wrap.
#[test]
fn hoppers_attack_where_their_captures_land() {
    let mut next = crate::xorshift(0x9E37_79B9_7F4A_7C15);
    for wrap in [false, true] {
        let pieces = ["mRcpR", "mBcpB", "gQ", "R"]
            .iter()
            .zip(['C', 'D', 'G', 'R'])
            .map(|(b, l)| PieceRules::new(l, b).unwrap())
            .collect();
        let mut r = Rules::new(9, 10, pieces);
        r.check = CheckRule::Off;
        r.topology.wrap_files = wrap;
        let g = Generator::new(&r).unwrap();
        let mut captures_seen = 0;
        for _ in 0..300 {
            let mut p = Position::empty(9, 10);
            for f in 0..9 {
                for rank in 0..10 {
                    let x = next();
                    if x.is_multiple_of(3) {
                        let colour = if x & 16 == 0 {
                            Color::White
                        } else {
                            Color::Black
                        };
                        let cell = houserules_plugin_api::Cell::piece(((x >> 8) % 4) as u8, colour);
                        p.set(Square::new(f, rank), cell);
                    }
                }
            }
            let mut moves = houserules_plugin_api::abi_stable::std_types::RVec::new();
            g.pseudo_moves(&p, Color::Black, &SquareSet::EMPTY, &mut moves);
            for f in 0..9 {
                for rank in 0..10 {
                    let s = Square::new(f, rank);
                    if p.get(s).color() != Some(Color::White) {
                        continue;
                    }
                    let by_moves: SquareSet = moves
                        .iter()
                        .filter(|m| m.to == s && m.is_capture())
                        .map(|m| m.from)
                        .collect();
                    captures_seen += by_moves.len();
                    assert_eq!(
                        g.attackers(&p, s, Color::Black),
                        by_moves,
                        "wrap {wrap}, {s:?}"
                    );
                }
            }
        }
        assert!(captures_seen > 1000, "wrap {wrap}: {captures_seen}");
    }
}

/// With hoppers, legality is judged by trying each move on the bitboards (the candidates
/// against the royal found once a position), out of check only where a move touches the
/// royal's lines up to their second piece or the legs of a lame leap onto it: the legal moves
/// are the pseudo-legal moves after which, made on a copy, no piece of the other side attacks
/// the mover's king. Hoppers and riders in every direction, then hoppers along ranks and
/// files with lame leapers (as in xiangqi and janggi: their legs are off those lines); with
/// pieces in hand too (a drop can make a screen).
#[test]
fn moves_tried_against_hoppers_are_those_that_leave_the_king_safe() {
    let every_line = [('C', "mRcpR"), ('D', "mBcpB"), ('G', "gQ"), ('R', "R")];
    let lame = [
        ('C', "mRcpR"),
        ('R', "R"),
        ('H', "nN"),
        ('E', "nA"),
        ('J', "nZ"),
    ];
    for drops in [false, true] {
        moves_tried_against_hoppers(&every_line, drops);
        moves_tried_against_hoppers(&lame, drops);
    }
}

/// See [`moves_tried_against_hoppers_are_those_that_leave_the_king_safe`]: `others` are the
/// pieces besides the king (letter, Betza); with `drops`, White holds one each of the first
/// three.
fn moves_tried_against_hoppers(others: &[(char, &str)], drops: bool) {
    let mut next = crate::xorshift(0x2545_F491_4F6C_DD1D);
    let mut pieces: Vec<PieceRules> = others
        .iter()
        .map(|&(l, b)| PieceRules::new(l, b).unwrap())
        .collect();
    let mut king = PieceRules::new('K', "K").unwrap();
    king.royal = true;
    pieces.push(king);
    let k = others.len() as u8;
    let mut rules = Rules::new(9, 10, pieces);
    if drops {
        rules.drops = Some(crate::rules::DropRules {
            region: vec![None; others.len() + 1],
            no_doubled: None,
            promoted: Vec::new(),
        });
    }
    let g = Generator::new(&rules).unwrap();
    let (mut refused, mut positions, mut drops_refused) = (0, 0, 0);
    for _ in 0..400 {
        let mut p = Position::empty(9, 10);
        if drops {
            p.hands[0][..3].copy_from_slice(&[1, 1, 1]);
        }
        let cell = houserules_plugin_api::Cell::piece;
        let (kf, kr) = ((next() % 9) as i32, (next() % 5) as i32);
        p.set(Square::new(kf as u8, kr as u8), cell(k, Color::White));
        p.set(
            Square::new((next() % 9) as u8, 5 + (next() % 5) as u8),
            cell(k, Color::Black),
        );
        for i in 0..22 {
            let x = next();
            // Eight of them within three steps of the white king, where lame legs are.
            let (f, r) = if i < 8 {
                (kf + (x % 7) as i32 - 3, kr + ((x >> 8) % 7) as i32 - 3)
            } else {
                ((x % 9) as i32, ((x >> 8) % 10) as i32)
            };
            if !(0..9).contains(&f) || !(0..10).contains(&r) {
                continue;
            }
            let s = Square::new(f as u8, r as u8);
            if p.get(s).is_empty() {
                let colour = if x & 1 << 20 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                p.set(s, cell(((x >> 24) % u64::from(k)) as u8, colour));
            }
        }
        let king_of = |p: &Position| {
            (0..90u8)
                .map(|i| Square::new(i % 9, i / 9))
                .find(|&s| p.get(s) == cell(k, Color::White))
        };
        if g.is_attacked(&p, king_of(&p).unwrap(), Color::Black) {
            continue;
        }
        positions += 1;
        let mut pseudo = houserules_plugin_api::abi_stable::std_types::RVec::new();
        g.pseudo_moves(&p, Color::White, &SquareSet::EMPTY, &mut pseudo);
        let safe: Vec<_> = pseudo
            .iter()
            .copied()
            .filter(|&m| {
                let mut after = p.clone();
                let mut fx = houserules_plugin_api::MoveEffects::new(Color::White, false);
                g.apply(&mut after, m, &mut fx);
                king_of(&after).is_some_and(|k| !g.is_attacked(&after, k, Color::Black))
            })
            .collect();
        let mut legal = houserules_plugin_api::abi_stable::std_types::RVec::new();
        g.legal_moves(&p, &mut legal);
        assert_eq!(legal.to_vec(), safe, "{others:?} {p:?}");
        refused += pseudo.len() - safe.len();
        drops_refused += pseudo.iter().filter(|m| m.is_drop()).count()
            - safe.iter().filter(|m| m.is_drop()).count();
    }
    assert!(
        positions > 150 && refused > 100 && (!drops || drops_refused > 50),
        "{others:?}: {positions} positions, {refused} refused, {drops_refused} drops"
    );
}
