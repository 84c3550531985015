//! Chess written as a rules model, a tiny FEN reader and perft: shared by the crate's tests
//! and the `perft` example.
#![allow(dead_code)]

use houserules_movegen::rules::*;
use houserules_movegen::Generator;
use houserules_plugin_api::{geometry, Color, MoveEffects, PieceType, Position, Role, Square};

pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

pub fn chess_pieces() -> Vec<PieceType> {
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
pub fn chess() -> Rules {
    let mut pawn = PieceRules::new('P', "fmWfceFifmnD").unwrap();
    pawn.ep_victim = true;
    pawn.ep_capture = EnPassantCapture::Marked;
    pawn.initial_region = [rank_set(8, 1), rank_set(8, 6)];
    pawn.resets_clock = true;
    pawn.promotion = Promotion::Choice {
        zone: [rank_set(8, 7), rank_set(8, 0)],
        choices: [vec![4, 3, 2, 1], vec![4, 3, 2, 1]],
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
        rank: 0,
        other_rooks: Vec::new(),
    });
    r.en_passant = EnPassantPolicy::Legal;
    r
}

pub fn fen(text: &str) -> Position {
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

pub fn perft(g: &Generator, pos: &Position, depth: u32) -> u64 {
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
