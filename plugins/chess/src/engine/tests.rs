//! Tests: perft suites, Chess960 castling, en passant edge cases,
//! `count_legal` vs `legal_moves`, `play` state updates, material draws.

use super::*;

/// Minimal FEN / X-FEN / Shredder-FEN reader (tests only).
pub(crate) fn fen(s: &str) -> Board {
    let mut parts = s.split_whitespace();
    let placement = parts.next().expect("placement");
    let mut b = Board::empty();
    let mut rank = 7i32;
    let mut file = 0i32;
    for c in placement.chars() {
        match c {
            '/' => {
                rank -= 1;
                file = 0;
            }
            '1'..='8' => file += c as i32 - '0' as i32,
            _ => {
                let side = if c.is_ascii_uppercase() {
                    Side::White
                } else {
                    Side::Black
                };
                let role = match c.to_ascii_lowercase() {
                    'p' => Role::Pawn,
                    'n' => Role::Knight,
                    'b' => Role::Bishop,
                    'r' => Role::Rook,
                    'q' => Role::Queen,
                    'k' => Role::King,
                    _ => panic!("bad piece {c}"),
                };
                b.put((rank * 8 + file) as u8, side, role);
                file += 1;
            }
        }
    }
    b.set_side_to_move(if parts.next().unwrap_or("w") == "w" {
        Side::White
    } else {
        Side::Black
    });
    let castling = parts.next().unwrap_or("-");
    for c in castling.chars() {
        if c == '-' {
            continue;
        }
        let side = if c.is_ascii_uppercase() {
            Side::White
        } else {
            Side::Black
        };
        let base = if side == Side::White { 0u8 } else { 56 };
        let k = b.king_square(side);
        let rooks = b.pieces(side, Role::Rook) & (0xffu64 << base);
        let rook = match c.to_ascii_lowercase() {
            // X-FEN: outermost rook on that side of the king.
            'k' => (k + 1..base + 8).rev().find(|&s| rooks & bit(s) != 0),
            'q' => (base..k).find(|&s| rooks & bit(s) != 0),
            f @ 'a'..='h' => Some(base + (f as u8 - b'a')),
            _ => panic!("bad castling {c}"),
        }
        .expect("castling rook");
        b.set_castling_rook(side, rook > k, Some(rook));
    }
    let ep = parts.next().unwrap_or("-");
    if ep != "-" {
        let e = ep.as_bytes();
        b.set_ep_square(Some((e[1] - b'1') * 8 + (e[0] - b'a')));
    }
    b.set_halfmove_clock(parts.next().map_or(0, |x| x.parse().unwrap()));
    b.set_fullmove_number(parts.next().map_or(1, |x| x.parse().unwrap()));
    b
}

fn sq(name: &str) -> u8 {
    let e = name.as_bytes();
    (e[1] - b'1') * 8 + (e[0] - b'a')
}

fn check_perft(f: &str, depth: u32, expected: u64) {
    let b = fen(f);
    b.validate().expect("valid test position");
    let t = std::time::Instant::now();
    let n = b.perft(depth);
    let secs = t.elapsed().as_secs_f64();
    if depth >= 5 {
        println!(
            "perft({depth}) {f}: {n} nodes in {secs:.3}s = {:.1} Mnps",
            n as f64 / secs / 1e6
        );
    }
    assert_eq!(n, expected, "perft({depth}) of {f}");
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POS3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POS4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POS5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POS6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

macro_rules! perft_tests {
    ($($name:ident $(#[$attr:meta])* : $fen:expr, $d:expr, $n:expr;)*) => {
        $(
            #[test]
            $(#[$attr])*
            fn $name() {
                check_perft($fen, $d, $n);
            }
        )*
    };
}

perft_tests! {
    perft_start_1: START, 1, 20;
    perft_start_2: START, 2, 400;
    perft_start_3: START, 3, 8902;
    perft_start_4: START, 4, 197281;
    perft_start_5 #[ignore]: START, 5, 4865609;
    perft_start_6 #[ignore]: START, 6, 119060324;
    perft_kiwipete_1: KIWIPETE, 1, 48;
    perft_kiwipete_2: KIWIPETE, 2, 2039;
    perft_kiwipete_3: KIWIPETE, 3, 97862;
    perft_kiwipete_4: KIWIPETE, 4, 4085603;
    perft_kiwipete_5 #[ignore]: KIWIPETE, 5, 193690690;
    perft_pos3_1: POS3, 1, 14;
    perft_pos3_2: POS3, 2, 191;
    perft_pos3_3: POS3, 3, 2812;
    perft_pos3_4: POS3, 4, 43238;
    perft_pos3_5: POS3, 5, 674624;
    perft_pos3_6 #[ignore]: POS3, 6, 11030083;
    perft_pos4_1: POS4, 1, 6;
    perft_pos4_2: POS4, 2, 264;
    perft_pos4_3: POS4, 3, 9467;
    perft_pos4_4: POS4, 4, 422333;
    perft_pos4_5 #[ignore]: POS4, 5, 15833292;
    perft_pos5_1: POS5, 1, 44;
    perft_pos5_2: POS5, 2, 1486;
    perft_pos5_3: POS5, 3, 62379;
    perft_pos5_4: POS5, 4, 2103487;
    perft_pos5_5 #[ignore]: POS5, 5, 89941194;
    perft_pos6_1: POS6, 1, 46;
    perft_pos6_2: POS6, 2, 2079;
    perft_pos6_3: POS6, 3, 89890;
    perft_pos6_4: POS6, 4, 3894594;
    perft_pos6_5 #[ignore]: POS6, 5, 164075551;
}

// Mirrored position 4 (black to move) exercises the black code paths.
perft_tests! {
    perft_pos4_mirrored_3: "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", 3, 9467;
    perft_pos4_mirrored_4: "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", 4, 422333;
}

// Chess960 / X-FEN / Shredder-FEN castling (values cross-checked with
// python-chess in chess960 mode).
perft_tests! {
    // Well-known Chess960 perft positions.
    perft_960_a: "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 4, 326672;
    perft_960_b: "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", 4, 667366;
    perft_960_c: "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", 4, 273318;
    perft_960_d: "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9", 4, 382958;
    perft_960_e: "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9", 4, 1171749;
    // King on b1 with rook on a1 (king moves right to c1), rook on g1 next
    // to a non-castling rook on h1; black king e8 with rooks b8/g8.
    perft_960_king_b1_3: "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/RK4RR w GAgb - 0 1", 3, 13231;
    perft_960_king_b1_4: "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/RK4RR w GAgb - 0 1", 4, 320270;
    // King destination square occupied by the castling rook itself (king f1, rook g1).
    perft_960_rook_on_dest: "k7/8/8/8/8/8/8/4RKR1 w G - 0 1", 3, 1560;
    perft_960_rook_on_dest_2: "4k3/8/8/8/8/8/8/5KR1 w G - 0 1", 3, 1033;
    // Castling rook shields the king's destination from an enemy rook.
    perft_960_shield_1: "4k3/8/8/8/8/8/8/rR2K3 w B - 0 1", 3, 1400;
    perft_960_shield_2: "4k3/8/8/8/8/8/8/rRK5 w B - 0 1", 3, 821;
}

// En passant edge cases (values from python-chess).
perft_tests! {
    perft_ep_no_pin_1: "8/8/8/3pP3/8/8/8/b3K2k w - d6 0 1", 3, 332;
    perft_ep_no_pin_2: "7k/8/8/3pP3/8/2K5/8/7b w - d6 0 1", 3, 500;
    perft_ep_diag_pin_along_ray: "7k/2b5/8/3pP3/8/6K1/8/8 w - d6 0 1", 3, 626;
    perft_ep_diag_pin_off_ray: "7k/6b1/8/3pP3/8/2K5/8/8 w - d6 0 1", 3, 350;
    perft_ep_captured_pawn_uncovers_diagonal: "8/8/5k2/8/3Pp3/8/1B6/4K3 b - d3 0 1", 3, 629;
    perft_ep_capture_checker: "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", 3, 379;
    perft_ep_slider_check: "8/8/8/8/k2Pp2R/8/8/4K3 b - d3 0 1", 3, 640;
    perft_ep_diag_exposed: "8/8/8/8/1k1Pp3/8/8/4K2B b - d3 0 1", 3, 617;
    perft_ep_knight_check: "8/8/8/8/2kPp3/1N6/8/4K3 b - d3 0 1", 3, 476;
    perft_ep_horizontal_pin: "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", 3, 528;
}

fn moves_of(b: &Board) -> Vec<ChessMove> {
    let mut l = MoveList::new();
    b.legal_moves(&mut l);
    l.to_vec()
}

fn has_move(b: &Board, from: &str, to: &str, kind: MoveKind) -> bool {
    moves_of(b)
        .iter()
        .any(|m| m.from() == sq(from) && m.to() == sq(to) && m.kind() == kind)
}

#[test]
fn castling_960_rook_on_king_destination() {
    // King f1, rook g1: king-side castling puts the king on g1 (the rook's
    // square) and the rook on f1 (the king's square).
    let b = fen("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
    b.validate().unwrap();
    assert!(has_move(&b, "f1", "g1", MoveKind::Castle));
    let m = b.find_move(sq("f1"), sq("g1"), None).unwrap();
    assert!(m.is_castle());
    assert_eq!(m.castle_king_to(), Some(sq("g1")));
    assert_eq!(m.castle_rook_to(), Some(sq("f1")));
    let mut a = b;
    a.play(m);
    assert_eq!(a.piece_at(sq("g1")), Some((Side::White, Role::King)));
    assert_eq!(a.piece_at(sq("f1")), Some((Side::White, Role::Rook)));
    assert_eq!(a.castling_rook(Side::White, true), None);
    a.validate().unwrap();
}

#[test]
fn castling_960_king_does_not_move() {
    // King g1, rook h1: only the rook moves (to f1).
    let b = fen("4k3/8/8/8/8/8/8/6KR w H - 0 1");
    let m = b.find_move(sq("g1"), sq("h1"), None).unwrap();
    assert!(m.is_castle());
    let mut a = b;
    a.play(m);
    assert_eq!(a.piece_at(sq("g1")), Some((Side::White, Role::King)));
    assert_eq!(a.piece_at(sq("f1")), Some((Side::White, Role::Rook)));
    assert_eq!(a.piece_at(sq("h1")), None);
}

#[test]
fn castling_960_rook_shielded_attack() {
    // King e1, queen-side rook b1, enemy rook a1: after O-O-O the a1 rook
    // would attack c1, so castling is illegal.
    let b = fen("4k3/8/8/8/8/8/8/rR2K3 w B - 0 1");
    b.validate().unwrap();
    assert!(!moves_of(&b).iter().any(|m| m.is_castle()));
    // Without the enemy rook it is legal.
    let b = fen("r3k3/8/8/8/8/8/8/1R2K3 w B - 0 1");
    assert!(moves_of(&b).iter().any(|m| m.is_castle()));
    // King c1 stays, rook b1 jumps to d1; enemy rook a1 then attacks c1.
    let b = fen("4k3/8/8/8/8/8/8/rRK5 w B - 0 1");
    b.validate().unwrap();
    assert!(!moves_of(&b).iter().any(|m| m.is_castle()));
}

#[test]
fn castling_blocked_and_attacked_paths() {
    let b = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(has_move(&b, "e1", "h1", MoveKind::Castle));
    assert!(has_move(&b, "e1", "a1", MoveKind::Castle));
    // b1 attacked does not matter for O-O-O, d1 attacked does.
    let b = fen("1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1");
    assert!(has_move(&b, "e1", "a1", MoveKind::Castle));
    let b = fen("3rk2r/8/8/8/8/8/8/R3K2R w KQk - 0 1");
    assert!(!has_move(&b, "e1", "a1", MoveKind::Castle));
    assert!(has_move(&b, "e1", "h1", MoveKind::Castle));
    // Blocked by a piece on b1.
    let b = fen("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1");
    assert!(!has_move(&b, "e1", "a1", MoveKind::Castle));
    // In check: no castling.
    let b = fen("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1");
    assert!(!moves_of(&b).iter().any(|m| m.is_castle()));
}

#[test]
fn ep_horizontal_discovered_check() {
    let b = fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    assert!(!moves_of(&b).iter().any(|m| m.is_en_passant()));
    assert_eq!(b.legal_ep_square(), None);
    assert_eq!(b.count_legal(), moves_of(&b).len());
    // Without the rook the capture is legal.
    let b = fen("8/8/8/K2pP3/8/8/8/7k w - d6 0 1");
    assert!(has_move(&b, "e5", "d6", MoveKind::EnPassant));
}

#[test]
fn ep_edge_cases() {
    // Capturer pinned on the g3-c7 diagonal: exd6 stays on the ray, legal.
    let b = fen("7k/2b5/8/3pP3/8/6K1/8/8 w - d6 0 1");
    assert!(has_move(&b, "e5", "d6", MoveKind::EnPassant));
    // Capturer pinned on the c3-g7 diagonal: exd6 leaves the ray, illegal.
    let b = fen("7k/6b1/8/3pP3/8/2K5/8/8 w - d6 0 1");
    assert!(!has_move(&b, "e5", "d6", MoveKind::EnPassant));
    // Pawn giving check can be captured en passant.
    let b = fen("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    assert!(b.is_check());
    assert!(has_move(&b, "e4", "d3", MoveKind::EnPassant));
    // Check by a rook through the double-pushed pawn's rank: capturing
    // removes d4, the e4 pawn leaves: the rook still checks along rank 4.
    let b = fen("8/8/8/8/k2Pp2R/8/8/4K3 b - d3 0 1");
    assert!(!has_move(&b, "e4", "d3", MoveKind::EnPassant));
    // Removing the captured d4 pawn opens the b2-f6 diagonal (unreachable
    // position, but generation must still be exact).
    let b = fen("8/8/5k2/8/3Pp3/8/1B6/4K3 b - d3 0 1");
    assert!(!has_move(&b, "e4", "d3", MoveKind::EnPassant));
    assert_eq!(b.count_legal(), moves_of(&b).len());
    // Not in check here (knight b3 does not attack c4): ep is legal.
    let b = fen("8/8/8/8/2kPp3/1N6/8/4K3 b - d3 0 1");
    assert!(has_move(&b, "e4", "d3", MoveKind::EnPassant));
    // Knight check: ep cannot resolve it.
    let b = fen("8/8/8/8/2kPp3/8/1N6/4K3 b - d3 0 1");
    assert!(b.is_check());
    assert!(!has_move(&b, "e4", "d3", MoveKind::EnPassant));
    // Double check by the ep pawn and a knight: only king moves.
    let b = fen("8/8/8/2k5/3Pp3/1N6/8/4K3 b - d3 0 1");
    assert_eq!(b.checkers().count_ones(), 2);
    assert!(moves_of(&b).iter().all(|m| m.from() == sq("c5")));
}

/// Exhaustively compares `count_legal` with `legal_moves().len()` and
/// checks that `play` keeps positions valid, on every node of a tree.
fn walk(b: &Board, depth: u32) -> u64 {
    walk_inner(b, depth, true)
}

fn walk_inner(b: &Board, depth: u32, root: bool) -> u64 {
    let list = moves_of(b);
    assert_eq!(b.count_legal(), list.len(), "count mismatch");
    b.validate().expect("valid");
    if let (Some(e), false) = (b.ep_square(), root) {
        assert!(
            list.iter().any(|m| m.is_en_passant() && m.to() == e),
            "ep square without legal ep capture"
        );
    }
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    for m in list {
        let mut c = *b;
        c.play(m);
        n += walk_inner(&c, depth - 1, false);
    }
    n
}

#[test]
fn count_matches_list_on_trees() {
    walk(&fen(START), 3);
    walk(&fen(KIWIPETE), 2);
    walk(&fen(POS3), 4);
    walk(&fen(POS4), 3);
    walk(&fen(POS5), 2);
    walk(&fen(POS6), 2);
    walk(
        &fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"),
        3,
    );
    walk(
        &fen("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/RK4RR w GAgb - 0 1"),
        3,
    );
    walk(&fen("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1"), 3);
}

#[test]
fn play_updates_state() {
    let mut b = fen(START);
    b.play(b.parse_uci("e2e4").unwrap());
    // No black pawn can capture on e3: ep not set.
    assert_eq!(b.ep_square(), None);
    assert_eq!(b.side_to_move(), Side::Black);
    assert_eq!(b.halfmove_clock(), 0);
    assert_eq!(b.fullmove_number(), 1);
    b.play(b.parse_uci("g8f6").unwrap());
    assert_eq!(b.halfmove_clock(), 1);
    assert_eq!(b.fullmove_number(), 2);
    b.play(b.parse_uci("e4e5").unwrap());
    let m = b.parse_uci("d7d5").unwrap();
    assert_eq!(m.kind(), MoveKind::DoublePush);
    b.play(m);
    assert_eq!(b.ep_square(), Some(sq("d6")));
    let ep = b.parse_uci("e5d6").unwrap();
    assert_eq!(ep.kind(), MoveKind::EnPassant);
    b.play(ep);
    assert_eq!(b.piece_at(sq("d5")), None);
    assert_eq!(b.piece_at(sq("d6")), Some((Side::White, Role::Pawn)));
    assert_eq!(b.ep_square(), None);
    assert_eq!(b.halfmove_clock(), 0);
    b.validate().unwrap();

    // Castling rights: rook moves and rook captures.
    let mut b = fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 20");
    b.play(b.parse_uci("a1a8").unwrap()); // captures a8 rook
    assert_eq!(b.castling_rook(Side::White, false), None);
    assert_eq!(b.castling_rook(Side::Black, false), None);
    assert_eq!(b.castling_rook(Side::White, true), Some(sq("h1")));
    assert_eq!(b.castling_rook(Side::Black, true), Some(sq("h8")));
    assert_eq!(b.halfmove_clock(), 0);
    b.play(b.parse_uci("e8e7").unwrap());
    assert_eq!(b.castling_rook(Side::Black, true), None);
    assert_eq!(b.fullmove_number(), 21);
    let m = b.parse_uci("e1g1").unwrap();
    assert!(m.is_castle());
    assert_eq!(m.to(), sq("h1"));
    assert_eq!(format!("{}", m.uci(false)), "e1g1");
    assert_eq!(format!("{}", m.uci(true)), "e1h1");
    b.play(m);
    assert_eq!(b.piece_at(sq("g1")), Some((Side::White, Role::King)));
    assert_eq!(b.piece_at(sq("f1")), Some((Side::White, Role::Rook)));
    assert_eq!(b.castling_rook(Side::White, true), None);
    assert_eq!(b.halfmove_clock(), 2);

    // Promotion with capture.
    let mut b = fen("1n2k3/P7/8/8/8/8/8/4K3 w - - 7 1");
    let m = b.parse_uci("a7b8n").unwrap();
    assert_eq!(m.kind(), MoveKind::PromotionCapture);
    assert_eq!(m.promotion(), Some(Role::Knight));
    b.play(m);
    assert_eq!(b.piece_at(sq("b8")), Some((Side::White, Role::Knight)));
    assert_eq!(b.pieces(Side::White, Role::Pawn), 0);
    assert_eq!(b.halfmove_clock(), 0);
    b.validate().unwrap();

    // ep square only set when the capture is legal: here the capturing
    // pawn would expose its king on the fifth rank.
    let mut b = fen("8/2p5/8/KP5r/8/8/8/7k b - - 0 1");
    b.play(b.parse_uci("c7c5").unwrap());
    assert_eq!(b.ep_square(), None);
    let mut b = fen("8/2p5/8/1P5r/K7/8/8/7k b - - 0 1");
    b.play(b.parse_uci("c7c5").unwrap());
    assert_eq!(b.ep_square(), Some(sq("c6")));
}

#[test]
fn insufficient_material() {
    assert!(fen("8/8/8/4k3/8/8/8/4K3 w - - 0 1").has_insufficient_material());
    assert!(fen("8/8/8/4k3/8/8/8/4KN2 w - - 0 1").has_insufficient_material());
    assert!(fen("8/8/8/4k3/8/8/8/4KB2 w - - 0 1").has_insufficient_material());
    // c5 dark vs f1 light: not dead.
    assert!(!fen("8/8/8/2b1k3/8/8/8/4KB2 w - - 0 1").has_insufficient_material());
    // d5 light and f1 light: dead.
    assert!(fen("8/8/8/3bk3/8/8/8/4KB2 w - - 0 1").has_insufficient_material());
    // Several bishops, all on light squares: dead.
    assert!(fen("8/8/8/3bk3/8/8/6B1/4KB1B w - - 0 1").has_insufficient_material());
    // d5 light vs b2 dark: not dead.
    assert!(!fen("8/8/8/3bk3/8/8/1B6/4K3 w - - 0 1").has_insufficient_material());
    assert!(!fen("8/8/8/4k3/8/8/8/3NKN2 w - - 0 1").has_insufficient_material());
    assert!(!fen("8/8/8/3nk3/8/8/8/4KN2 w - - 0 1").has_insufficient_material());
    assert!(!fen("8/8/8/3nk3/8/8/8/4KB2 w - - 0 1").has_insufficient_material());
    assert!(!fen("8/8/8/4k3/8/8/8/4KR2 w - - 0 1").has_insufficient_material());
    assert!(!fen("8/8/8/4k3/8/8/P7/4K3 w - - 0 1").has_insufficient_material());
    assert!(!fen("8/8/8/4k3/8/8/8/4KQ2 w - - 0 1").has_insufficient_material());
}

#[test]
fn validate_rejects_bad_positions() {
    assert!(Board::startpos().validate().is_ok());
    assert_eq!(Board::startpos().perft(2), 400);
    assert!(fen("8/8/8/8/8/8/8/4K3 w - - 0 1").validate().is_err()); // one king
    assert!(fen("P3k3/8/8/8/8/8/8/4K3 w - - 0 1").validate().is_err()); // pawn on rank 8
    assert!(fen("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1").validate().is_err()); // black in check, white to move
    let mut b = fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert!(b.validate().is_ok());
    b.set_castling_rook(Side::White, true, Some(0)); // "king-side" rook on a1
    assert!(b.validate().is_err());
    let mut b = fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    b.set_castling_rook(Side::White, true, Some(7)); // no rook on h1
    assert!(b.validate().is_err());
    let mut b = fen("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1");
    b.set_ep_square(Some(sq("d6")));
    assert!(b.validate().is_ok());
    b.set_ep_square(Some(sq("e6")));
    assert!(b.validate().is_err());
}

#[test]
fn move_encoding_roundtrip() {
    for kind in [
        MoveKind::Quiet,
        MoveKind::DoublePush,
        MoveKind::Capture,
        MoveKind::EnPassant,
        MoveKind::Castle,
    ] {
        let m = ChessMove::new(12, 28, kind, None);
        assert_eq!(
            (m.from(), m.to(), m.kind(), m.promotion()),
            (12, 28, kind, None)
        );
        assert_eq!(ChessMove::from_raw(m.to_raw()), m);
    }
    for kind in [MoveKind::Promotion, MoveKind::PromotionCapture] {
        for p in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            let m = ChessMove::new(52, 61, kind, Some(p));
            assert_eq!(
                (m.from(), m.to(), m.kind(), m.promotion()),
                (52, 61, kind, Some(p))
            );
        }
    }
    assert_eq!(std::mem::size_of::<ChessMove>(), 2);
    assert_eq!(std::mem::size_of::<Board>(), 80);
}
