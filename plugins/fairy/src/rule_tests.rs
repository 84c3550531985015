//! The rules added for Fairy-Stockfish's own variants.ini: castling and its FEN rights,
//! capture the flag, extinction, mustCapture, checking, static walls. Every expected answer
//! is Fairy-Stockfish's (pyffish 0.0.90: `legal_moves`, `is_immediate_game_end`,
//! `game_result` on the same section, FEN and moves).

use crate::tests::{coord, ctx, from_ini, legal, perft};
use crate::Fairy;
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{Move, MoveEffects, Position, VariantRules, Winner};
use std::sync::Arc;

const SECTIONS: &str = "
[hill:chess]
flagPiece = k
flagRegionWhite = d4 e4 d5 e5
flagRegionBlack = d4 e4 d5 e5
[race:chess]
flagPiece = k
flagRegionWhite = *8
flagRegionBlack = *8
flagMove = true
checking = false
castling = false
[queenless:chess]
extinctionValue = loss
extinctionPieceTypes = q
[give:chess]
king = -
commoner = k
castlingKingPiece = k
promotionPieceTypes = kqrbn
stalemateValue = win
extinctionValue = win
extinctionPieceTypes = *
mustCapture = true
[nocheck:chess]
checking = false
[innercastle:chess]
maxFile = 10
startFen = rnbqkbnrnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKBNRNR w KQkq - 0 1
castlingKingsideFile = h
castlingQueensideFile = c
castlingRookPieces = r n
[walls:chess]
startFen = n*nnnn*k/**pppp**/pp4pp/8/8/PP4PP/**PPPP**/K*NNNN*N w - - 0 1
queen = -
rook = -
bishop = -
";

fn section(id: &str) -> Arc<Fairy> {
    from_ini(SECTIONS, id).unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// FEN and sorted coordinate-form legal moves of `v` after `moves` from `fen`.
pub(crate) fn fen_and_moves(v: &Fairy, fen: &str, moves: &[&str]) -> (String, Vec<String>) {
    let pos = after(v, fen, moves);
    let mut legal = houserules_plugin_api::abi_stable::std_types::RVec::new();
    v.legal(&pos, &mut legal);
    let mut out: Vec<String> = legal
        .iter()
        .map(|&m| crate::tests::coord(v, &pos, m))
        .collect();
    out.sort();
    (v.fen(&pos), out)
}

/// Owned strings of a list.
pub(crate) fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// The position after `moves` (coordinate form) from `fen`.
pub(crate) fn after(v: &Fairy, fen: &str, moves: &[&str]) -> Position {
    after_with_last(v, fen, moves).0
}

/// [`after`], and the last of the moves (what the host's outcome context carries).
pub(crate) fn after_with_last(v: &Fairy, fen: &str, moves: &[&str]) -> (Position, Option<Move>) {
    let mut pos = v.parse(fen).expect("fen");
    let mut last = None;
    for text in moves {
        let mut legal = RVec::new();
        v.legal(&pos, &mut legal);
        let m = *legal
            .iter()
            .find(|&&m| coord(v, &pos, m) == *text)
            .unwrap_or_else(|| panic!("{text} is not legal in {}", v.fen(&pos)));
        let mut fx = MoveEffects::new(pos.side_to_move, false);
        v.apply(&mut pos, m, &mut fx);
        last = Some(m);
    }
    (pos, last)
}

/// Legal moves (sorted), FEN, and the result when the game is over.
fn answer(id: &str, fen: &str, moves: &[&str]) -> (Vec<String>, String, Option<Winner>) {
    let v = section(id);
    let pos = after(&v, fen, moves);
    let mut legal = RVec::new();
    v.legal(&pos, &mut legal);
    let mut out: Vec<String> = legal.iter().map(|&m| coord(&v, &pos, m)).collect();
    out.sort();
    let check = v.gen.in_check(&pos, pos.side_to_move);
    let result = v
        .outcome(&pos, &ctx(!out.is_empty(), check, 1, [false; 2]))
        .map(|o| o.winner);
    (out, v.fen(&pos), result)
}

#[test]
fn castling_matches_the_kiwipete_reference() {
    // The standard castling test position (perft 48 / 2039 / 97862).
    let v = section("nocheck");
    let chess = from_ini("[c:chess]\n", "c").unwrap();
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let pos = chess.parse(fen).unwrap();
    assert_eq!(chess.fen(&pos), fen);
    assert_eq!([1, 2, 3].map(|d| perft(&chess, &pos, d)), [48, 2039, 97862]);
    let moves = legal(&chess, fen);
    assert!(moves.contains(&"e1g1".to_string()) && moves.contains(&"e1c1".to_string()));
    // `checking = false`: no move may give check, castling included.
    let (moves, ..) = answer("nocheck", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", &[]);
    assert_eq!(moves.len(), 15, "{moves:?}");
    assert!(moves.contains(&"e1c1".to_string()) && !moves.contains(&"a1a8".to_string()));
    drop(v);
}

#[test]
fn castling_rights_follow_fairy_stockfish_s_fen_reading() {
    // `K` takes the outermost partner (here the j-file rook); the knight on h1 blocks.
    let (moves, fen, _) = answer(
        "innercastle",
        "r3k2n1r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K2N1R w KQkq - 0 1",
        &[],
    );
    assert_eq!(moves.len(), 29);
    assert!(moves.contains(&"e1c1".to_string()) && !moves.contains(&"e1h1".to_string()));
    assert_eq!(
        fen,
        "r3k2n1r/pppppppppp/10/10/10/10/PPPPPPPPPP/R3K2N1R w KQkq - 0 1"
    );
    // A moved king loses both rights, a moved rook its own.
    let (_, fen, _) = answer(
        "nocheck",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        &["a1a2", "e8e7"],
    );
    assert_eq!(fen, "r6r/4k3/8/8/8/8/R7/4K2R w K - 2 2");
    // Non-letters are errors at the field.
    let v = section("nocheck");
    let e = v.parse("4k3/8/8/8/8/8/8/R3K3 w Q1 - 0 1").unwrap_err();
    assert_eq!(e.field, 2, "{}", e.message);
}

#[test]
fn king_of_the_hill_ends_when_a_king_reaches_the_centre() {
    let (moves, _, result) = answer(
        "hill",
        "rnbq1bnr/pppppppp/8/8/4k3/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
        &[],
    );
    assert!(moves.is_empty());
    assert_eq!(result, Some(Winner::BLACK));
    let (moves, fen, result) = answer(
        "hill",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &["e2e3", "e7e6", "e1e2", "e8e7", "e2d3", "e7d6", "d3d4"],
    );
    assert!(moves.is_empty());
    assert_eq!(
        fen,
        "rnbq1bnr/pppp1ppp/3kp3/8/3K4/4P3/PPPP1PPP/RNBQ1BNR b - - 5 4"
    );
    assert_eq!(result, Some(Winner::WHITE));
}

#[test]
fn racing_kings_gives_black_one_more_move() {
    let start = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1";
    assert_eq!(answer("race", start, &[]).0.len(), 21);
    let v = section("race");
    assert_eq!(
        [1, 2, 3].map(|d| perft(&v, &v.parse(start).unwrap(), d)),
        [21, 421, 11264]
    );
    // White's king is home; Black's cannot follow: White wins at once.
    for fen in ["7K/8/k7/8/8/8/8/8 b - - 0 1", "7K/8/8/k7/8/8/8/8 b - - 0 1"] {
        let (moves, _, result) = answer("race", fen, &[]);
        assert!(moves.is_empty(), "{fen}");
        assert_eq!(result, Some(Winner::WHITE), "{fen}");
    }
    // Black's can: Black moves; home too is a draw, elsewhere a loss.
    let fen = "7K/k7/8/8/8/8/8/8 b - - 0 1";
    assert_eq!(answer("race", fen, &[]).0.len(), 5);
    assert_eq!(answer("race", fen, &["a7a8"]).2, Some(Winner::DRAW));
    assert_eq!(answer("race", fen, &["a7b7"]).2, Some(Winner::WHITE));
    assert_eq!(
        answer("race", "K6k/8/8/8/8/8/8/8 w - - 0 1", &[]).2,
        Some(Winner::DRAW)
    );
}

#[test]
fn extinction_of_a_piece_type_loses() {
    let (moves, _, result) = answer(
        "queenless",
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &[],
    );
    assert!(moves.is_empty());
    assert_eq!(result, Some(Winner::WHITE));
    let (moves, _, result) = answer(
        "queenless",
        "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
        &["d1h5", "d8d6", "h5f7", "e8f7"],
    );
    assert!(moves.is_empty());
    assert_eq!(result, Some(Winner::BLACK));
}

#[test]
fn giveaway_captures_are_compulsory_and_losing_everything_wins() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(answer("give", start, &["e2e4", "d7d5"]).0, ["e4d5"]);
    let (moves, ..) = answer("give", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &[]);
    assert_eq!(moves, ["a1a8", "h1h8"]);
    assert_eq!(
        answer("give", "8/8/8/8/8/8/8/K6k w - - 0 1", &[]).0.len(),
        3
    );
    // Stalemate is a win; no pieces left is a win.
    let (moves, _, result) = answer("give", "8/8/8/8/8/8/p7/K7 b - - 0 1", &[]);
    assert!(moves.is_empty());
    assert_eq!(result, Some(Winner::BLACK));
    let (moves, _, result) = answer("give", "8/8/8/8/8/8/8/k7 w - - 0 1", &[]);
    assert!(moves.is_empty());
    assert_eq!(result, Some(Winner::WHITE));
}

#[test]
fn walls_block_moves_and_slides_but_not_leaps() {
    let v = section("walls");
    let pos = v.parse(&v.start_fen).unwrap();
    assert_eq!(
        v.start_fen,
        "n*nnnn*k/**pppp**/pp4pp/8/8/PP4PP/**PPPP**/K*NNNN*N w - - 0 1"
    );
    assert_eq!([1, 2, 3].map(|d| perft(&v, &pos, d)), [18, 324, 5892]);
    // Walls are fixed: a FEN with walls elsewhere is refused.
    assert!(v
        .parse("n*nnnn*k/**pppp**/pp4pp/8/8/PP4PP/*1PPPP**/K*NNNN*N w - - 0 1")
        .is_err());
}

#[test]
fn crazyhouse_promoted_pawns_go_back_to_hand_as_pawns() {
    let ini = "[zh:chess]\npieceDrops = true\ncapturesToHand = true\n";
    let v = from_ini(ini, "zh").unwrap();
    // Promoted pieces are written `N~`; captured, they are pawns in hand.
    let fen = "N~3k2r/8/8/8/8/8/8/R3K2n~[RPrp] w Qk - 0 2";
    let pos = v.parse(fen).unwrap();
    assert_eq!(v.fen(&pos), fen);
    assert_eq!([1, 2].map(|d| perft(&v, &pos, d)), [122, 12965]);
    let fen = "4k3/8/8/8/8/8/3q~4/4K3[] w - - 0 1";
    let pos = after(&v, fen, &["e1d2"]);
    assert_eq!(v.fen(&pos), "4k3/8/8/8/8/8/3K4/8[P] b - - 0 1");
    let pos = after(
        &v,
        "r3k2r/1P6/8/8/8/8/6p1/R3K2R[Pp] w KQkq - 0 1",
        &["b7a8q"],
    );
    assert_eq!(v.fen(&pos), "Q~3k2r/8/8/8/8/8/6p1/R3K2R[RPp] b KQk - 0 1");
}

#[test]
fn check_counting_ends_the_game_at_the_last_check() {
    let ini = "[three:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1\ncheckCounting = true\n";
    let v = from_ini(ini, "three").unwrap();
    assert_eq!(
        v.start_fen,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1"
    );
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1+3 0 1";
    let pos = after(&v, start, &["e2e4", "f7f6", "d1h5"]);
    assert_eq!(
        v.fen(&pos),
        "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 0+3 1 2"
    );
    let mut moves = RVec::new();
    v.legal(&pos, &mut moves);
    assert!(moves.is_empty());
    let o = v.outcome(&pos, &ctx(false, true, 1, [false; 2])).unwrap();
    assert_eq!(o.winner, Winner::WHITE);
    // No counter: each side's next check wins; Lichess's `+2+0` counts checks given.
    for (fen, want) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "1+1",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +2+0",
            "1+3",
        ),
    ] {
        let pos = v.parse(fen).unwrap();
        assert!(v.fen(&pos).contains(&format!(" - {want} 0 1")), "{fen}");
    }
}

#[test]
fn captures_explode_in_atomic_without_checks() {
    let ini = "[nca:chess]\nking = -\ncommoner = k\ncastlingKingPiece = k\nextinctionValue = loss\nextinctionPieceTypes = k\nblastOnCapture = true\n";
    let v = from_ini(ini, "nca").unwrap();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    // The queen takes on d2: it, the white king, queen and bishop blow up; the d-pawns are
    // pawns and stay out of it; White has lost its king.
    let pos = after(&v, start, &["e2e4", "d7d5", "e4d5", "d8d5", "g1f3", "d5d2"]);
    assert_eq!(
        v.fen(&pos),
        "rnb1kbnr/ppp1pppp/8/8/8/5N2/PPP2PPP/RN3B1R w kq - 0 4"
    );
    assert_eq!(v.game_over(&pos).map(|o| o.winner), Some(Winner::BLACK));
    let pos = after(&v, start, &["g1f3", "e7e6", "f3g5", "a7a6", "g5f7"]);
    assert_eq!(
        v.fen(&pos),
        "rnbq3r/1ppp2pp/p3p3/8/8/8/PPPPPPPP/RNBQKB1R b KQ - 0 3"
    );
    assert_eq!(v.game_over(&pos).map(|o| o.winner), Some(Winner::WHITE));
    // Kings cannot take part (Fairy-Stockfish's own check).
    let e = from_ini("[x:chess]\nblastOnCapture = true\n", "x")
        .err()
        .unwrap();
    assert!(e.contains("blastOnCapture"), "{e}");
}

const PSEUDO: &str = "
[duo:chess]
king = -
commoner = k
castlingKingPiece = k
extinctionValue = loss
extinctionPieceTypes = k
extinctionPseudoRoyal = true
startFen = rnbqkknr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w - - 0 1
castling = false
[atom:chess]
king = -
commoner = k
castlingKingPiece = k
extinctionValue = loss
extinctionPieceTypes = k
blastOnCapture = true
extinctionPseudoRoyal = true
";

#[test]
fn the_last_extinction_piece_is_royal() {
    let v = from_ini(PSEUDO, "duo").unwrap();
    let pos = v.parse(&v.start_fen).unwrap();
    assert_eq!([1, 2, 3].map(|d| perft(&v, &pos, d)), [20, 400, 8784]);
    // With two kings either may be attacked; the last one may not.
    let two = legal(&v, "4k3/8/8/8/8/8/3r4/4K1K1 w - - 0 1");
    assert_eq!(two.len(), 10, "{two:?}");
    let mut one = legal(&v, "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1");
    one.sort();
    assert_eq!(one, ["e1d2", "e1f1"]);
    // A lone king attacked is in check (the host asks the variant which pieces are royal).
    let pos = v.parse("3rk3/8/8/8/8/8/8/3K4 w - - 0 1").unwrap();
    let royals = v.royals(&pos, houserules_plugin_api::Color::White).unwrap();
    assert!(royals.contains(houserules_plugin_api::Square::parse("d1").unwrap()));
    assert_eq!(legal(&v, "3rk3/8/8/8/8/8/8/3K4 w - - 0 1").len(), 4);
}

#[test]
fn atomic_kings_may_touch_and_may_not_explode() {
    let v = from_ini(PSEUDO, "atom").unwrap();
    let pos = v.parse(&v.start_fen).unwrap();
    assert_eq!([1, 2, 3].map(|d| perft(&v, &pos, d)), [20, 400, 8902]);
    // Touching kings are not in check; a king never captures (it would explode).
    assert_eq!(legal(&v, "8/8/8/8/8/3k4/3K4/8 w - - 0 1").len(), 7);
    let mut moves = legal(&v, "8/8/8/8/8/3k4/8/3KQ3 b - - 0 1");
    moves.sort();
    assert_eq!(moves, ["d3c2", "d3c4", "d3d2", "d3d4", "d3e2"]);
}

#[test]
fn atomic_quiet_moves_of_pinned_pieces_keep_the_line() {
    let v = from_ini(PSEUDO, "atom").unwrap();
    let moves_of = |fen: &str, from: &str| -> Vec<String> {
        let mut m: Vec<String> = legal(&v, fen)
            .into_iter()
            .filter(|m| m.starts_with(from))
            .collect();
        m.sort();
        m
    };
    // The rook on e3 is pinned by the rook on e6: it may step along the e-file (and take
    // on e6, which blows the pinner up), not off it.
    let fen = "7k/8/4r3/8/8/4R3/8/4K3 w - - 0 1";
    assert_eq!(moves_of(fen, "e3"), ["e3e2", "e3e4", "e3e5", "e3e6"]);
    // A knight pinned on a diagonal has no move; unpinned, its six squares.
    assert!(moves_of("7k/8/8/8/b7/8/2N5/3K4 w - - 0 1", "c2").is_empty());
    assert_eq!(moves_of("7k/8/8/8/8/8/2N5/3K4 w - - 0 1", "c2").len(), 6);
    // Kings side by side are never in check: a piece "pinned" to one moves freely.
    assert_eq!(
        moves_of("8/8/4r3/8/8/4R3/3k4/4K3 w - - 0 1", "e3").len(),
        11,
        "the rook's seven squares on the rank and four on the file"
    );
}
