//! Scenarios of `countingRule` (see `crate::counting`): every expected FEN, move count and
//! result is Fairy-Stockfish's (pyffish 0.0.90: `get_fen`, `legal_moves`,
//! `is_optional_game_end`, `game_result` on the built-ins `makruk`, `asean` and the section
//! `cambo` below, from the same FEN and moves).

use crate::rule_tests::after;
use crate::tests::ctx;
use crate::Fairy;
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{VariantRules, Winner};
use std::sync::Arc;

/// Cambodian counting on makruk's pieces (the built-in `cambodian` also needs its gating
/// moves).
const SECTIONS: &str = "
[cambo:makruk]
countingRule = cambodian
";

fn section(id: &str) -> Arc<Fairy> {
    crate::tests::over_builtins(&[("counting.ini", SECTIONS)], id)
        .unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// FEN, number of legal moves and result after `moves` from `fen`.
fn answer(id: &str, fen: &str, moves: &[&str]) -> (String, usize, Option<Winner>) {
    let v = section(id);
    let pos = after(&v, fen, moves);
    let mut legal = RVec::new();
    v.legal(&pos, &mut legal);
    let check = v.gen.in_check(&pos, pos.side_to_move);
    let result = v
        .outcome(&pos, &ctx(!legal.is_empty(), check, 1, [false; 2]))
        .map(|o| o.winner);
    (v.fen(&pos), legal.len(), result)
}

#[test]
fn pieces_honour_counts_from_the_pieces_on_the_board() {
    // King and two rooks against a lone king: 8 moves, counted from 4 pieces (ply 8 of 16).
    let fen = "8/8/4k3/8/8/8/3R4/3RK3 w - - 0 1";
    let moves = ["d1a1", "e6f6", "a1b1"];
    assert_eq!(
        answer("makruk", fen, &moves[..1]),
        ("8/8/4k3/8/8/8/3R4/R3K3 b - 16 8 1".into(), 5, None)
    );
    assert_eq!(
        answer("makruk", fen, &moves),
        ("8/8/5k2/8/8/8/3R4/1R2K3 b - 16 10 2".into(), 8, None)
    );
}

#[test]
fn the_count_past_its_limit_is_a_draw_but_not_over_a_mate() {
    let fen = "k7/8/1K6/8/8/8/8/7R w - 16 16 40";
    assert_eq!(
        answer("makruk", fen, &["h1h2"]),
        (
            "k7/8/1K6/8/8/8/7R/8 b - 16 17 40".into(),
            1,
            Some(Winner::DRAW)
        )
    );
    assert_eq!(
        answer("makruk", fen, &["h1h8"]),
        (
            "k6R/8/1K6/8/8/8/8/8 b - 16 17 40".into(),
            0,
            Some(Winner::WHITE)
        )
    );
    // At the limit the game goes on.
    assert_eq!(answer("makruk", fen, &[]).2, None);
}

#[test]
fn repetitions_count_while_counting() {
    // Fairy-Stockfish: the position after d1a1 occurs for the third time after b1a1 (the
    // count 8, 12, 16 does not make the positions differ): a draw by repetition.
    let v = section("makruk");
    let fen = "8/8/4k3/8/8/8/3R4/3RK3 w - - 0 1";
    let cycle = ["d1a1", "e6f6", "a1b1", "f6e6", "b1a1"];
    let first = after(&v, fen, &cycle[..1]);
    let second = after(&v, fen, &cycle);
    assert_eq!(v.fen(&second), "8/8/4k3/8/8/8/3R4/R3K3 b - 16 12 3");
    assert!(first.same_for_repetition(&second));
    assert_eq!(first.repetition_hash(), second.repetition_hash());
}

#[test]
fn board_honour_starts_at_zero_and_a_capture_restarts_the_pieces_honour() {
    // No pawns, both sides with more than a king: 64 moves from 0 for the side to move.
    let fen = "4k3/8/8/8/3r4/8/3R4/4K3 w - - 0 1";
    assert_eq!(
        answer("makruk", fen, &["e1f1"]).0,
        "4k3/8/8/8/3r4/8/3R4/5K2 b - 128 0 1"
    );
    // The halfmove clock is not the count.
    let later = "4k3/8/8/8/3r4/8/3R4/4K3 w - - 7 30";
    assert_eq!(
        answer("makruk", later, &["e1f1"]).0,
        "4k3/8/8/8/3r4/8/3R4/5K2 b - 128 0 30"
    );
    // Taking Black's rook leaves a lone king: the pieces' honour (16 moves) from 3 pieces.
    let counting = "4k3/8/8/8/3r4/8/3R4/4K3 w - 128 40 30";
    assert_eq!(
        answer("makruk", counting, &["d2d4"]),
        ("4k3/8/8/8/3R4/8/8/4K3 b - 32 6 30".into(), 3, None)
    );
    assert_eq!(
        answer("makruk", counting, &["d2d4", "e8f8"]).0,
        "5k2/8/8/8/3R4/8/8/4K3 w - 32 7 31"
    );
}

#[test]
fn a_lone_king_taking_the_last_pawn_counts_for_itself() {
    let fen = "8/8/8/8/8/2k5/3P4/R5K1 b - - 0 1";
    assert_eq!(
        answer("makruk", fen, &["c3d2"]),
        ("8/8/8/8/8/8/3k4/R5K1 w - 32 5 2".into(), 17, None)
    );
    assert_eq!(
        answer("makruk", fen, &["c3d2", "a1a2"]).0,
        "8/8/8/8/8/8/R2k4/6K1 b - 32 6 2"
    );
}

#[test]
fn no_counting_while_pawns_are_on_the_board() {
    let fen = "4k3/4p3/8/8/8/8/3R4/R3K3 w - - 0 1";
    assert_eq!(
        answer("makruk", fen, &["e1f1"]).0,
        "4k3/4p3/8/8/8/8/3R4/R4K2 b - - 1 1"
    );
}

#[test]
fn counting_fields_are_read_as_fairy_stockfish_reads_them() {
    let v = section("makruk");
    let round = |fen: &str| v.fen(&v.parse(fen).expect("fen"));
    assert_eq!(
        round("8/8/4k3/8/8/8/3R4/3RK3 w - 16 5 30"),
        "8/8/4k3/8/8/8/3R4/3RK3 w - 16 5 30"
    );
    // A number after the castling field is the limit: `w - 0 1` is no count and halfmove
    // clock 1, `w - 17 9` limit 17, count 9, move 1.
    assert_eq!(
        round("8/8/4k3/8/8/8/3R4/3RK3 w - 0 1"),
        "8/8/4k3/8/8/8/3R4/3RK3 w - - 1 1"
    );
    assert_eq!(
        round("8/8/4k3/8/8/8/3R4/3RK3 w - 17 9"),
        "8/8/4k3/8/8/8/3R4/3RK3 w - 17 9 1"
    );
    assert_eq!(
        answer("makruk", "8/8/4k3/8/8/8/3R4/3RK3 w - 17 9", &["d1a1"]).0,
        "8/8/4k3/8/8/8/3R4/R3K3 b - 17 10 1"
    );
    assert!(v.parse("8/8/4k3/8/8/8/3R4/3RK3 w - 300 9 1").is_err());
}

#[test]
fn asean_counts_for_a_lone_king_from_zero() {
    let after_move = |fen: &str| answer("asean", fen, &["e1f1"]).0;
    assert_eq!(
        after_move("4k3/8/8/8/8/8/3R4/4K3 w - - 0 1"),
        "4k3/8/8/8/8/8/3R4/5K2 b - 32 0 1"
    );
    // A khon (asean's `b`) is worth 44 moves, a met (`q`) nothing.
    assert_eq!(
        after_move("4k3/8/8/8/8/8/2NB4/4K3 w - - 0 1"),
        "4k3/8/8/8/8/8/2NB4/5K2 b - 88 0 1"
    );
    assert_eq!(
        after_move("4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1"),
        "4k3/8/8/8/8/8/3Q4/5K2 b - - 1 1"
    );
}

#[test]
fn cambodian_counts_one_move_less_and_with_pawns_up_to_three_pieces() {
    // King and pawn (two pieces, at most three): the board's honour, 63 moves.
    assert_eq!(
        answer("cambo", "4k3/4p3/8/8/8/8/3R4/R3K3 w - - 0 1", &["e1f1"]).0,
        "4k3/4p3/8/8/8/8/3R4/R4K2 b - 126 0 1"
    );
    // A lone king against a rook: 15 moves, from 3 pieces.
    assert_eq!(
        answer("cambo", "4k3/8/8/8/8/8/3R4/4K3 w - - 0 1", &["e1f1"]).0,
        "4k3/8/8/8/8/8/3R4/5K2 b - 30 6 1"
    );
}
