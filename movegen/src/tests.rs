//! The generator against known perft counts: chess written as a rules model (Betza), and
//! small fairy cases.

use crate::rules::*;
use crate::Generator;
use houserules_plugin_api::{
    geometry, Color, MoveEffects, PieceType, Position, Role, Square, SquareSet,
};

pub(crate) fn chess_pieces() -> Vec<PieceType> {
    [
        ('P', Role::PAWN),
        ('N', Role::KNIGHT),
        ('B', Role::BISHOP),
        ('R', Role::ROOK),
        ('Q', Role::QUEEN),
        ('K', Role::KING),
    ]
    .iter()
    .map(|&(l, r)| PieceType::new(l, &l.to_string(), r, 0))
    .collect()
}

/// FIDE chess as a rules model.
pub(crate) fn chess() -> Rules {
    let mut pawn = PieceRules::new('P', "fmWfceFifmnD").unwrap();
    pawn.ep_victim = true;
    pawn.ep_capture = EnPassantCapture::Marked;
    pawn.initial_region = [rank_set(8, 1), rank_set(8, 6)];
    pawn.resets_clock = true;
    pawn.promotion = Promotion::Choice {
        zone: [rank_set(8, 7), rank_set(8, 0)],
        choices: vec![4, 3, 2, 1],
        mandatory: true,
    };
    let mut king = PieceRules::new('K', "K").unwrap();
    king.royal = true;
    let mut r = Rules::new(
        8,
        8,
        vec![
            pawn,
            PieceRules::new('N', "N").unwrap(),
            PieceRules::new('B', "B").unwrap(),
            PieceRules::new('R', "R").unwrap(),
            PieceRules::new('Q', "Q").unwrap(),
            king,
        ],
    );
    r.castling = Some(CastlingRules {
        king: 5,
        rook: 3,
        king_file: 4,
        king_dest: [6, 2],
        rook_dest: [5, 3],
    });
    r.en_passant = EnPassantPolicy::Legal;
    r
}

pub(crate) fn fen(text: &str) -> Position {
    let f: Vec<&str> = text.split_whitespace().collect();
    let mut p = geometry::parse_fen_board(f[0], 0, 8, 8, &chess_pieces()).unwrap();
    if f[1] == "b" {
        p.side_to_move = Color::Black;
    }
    for c in f[2].chars() {
        let (slot, sq) = match c {
            'K' => (0, Square::new(7, 0)),
            'Q' => (1, Square::new(0, 0)),
            'k' => (2, Square::new(7, 7)),
            'q' => (3, Square::new(0, 7)),
            _ => continue,
        };
        p.castling[slot] = sq;
    }
    if f[3] != "-" {
        let e = Square::parse(f[3]).unwrap();
        p.ep_passed = e;
        p.ep_victim = Square::new(e.file(), if e.rank() == 5 { 4 } else { 3 });
    }
    p
}

pub(crate) fn perft(g: &Generator, pos: &Position, depth: u32) -> u64 {
    if depth == 1 {
        return g.count_legal(pos);
    }
    let mut moves = houserules_plugin_api::abi_stable::std_types::RVec::new();
    g.legal_moves(pos, &mut moves);
    let mut n = 0;
    for &m in moves.iter() {
        let mut c = pos.clone();
        g.apply(&mut c, m, &mut MoveEffects::new(pos.side_to_move, false));
        n += perft(g, &c, depth - 1);
    }
    n
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
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
        ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, 9467),
        ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379),
        ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3, 89890),
    ] {
        assert_eq!(perft(&g, &fen(f), d), n, "{f}");
    }
}

#[test]
fn chess_by_trial_legality_agrees() {
    // The same rules with the "all royals" rule and one king each: legality by trial.
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
    p.set(Square::new(0, 0), houserules_plugin_api::Cell::piece(0, Color::White));
    assert_eq!(g.count_legal(&p), 1);
}
