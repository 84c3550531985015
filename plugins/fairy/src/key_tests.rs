//! Scenarios of the keys added for the small sections of Fairy-Stockfish's variants.ini
//! (issue #13): every expected answer is Fairy-Stockfish's (pyffish 0.0.90: `legal_moves`,
//! `get_fen`, `get_san`, `game_result`, `is_immediate_game_end` on the same section, FEN and
//! moves).

use crate::tests::{coord, ctx};
use crate::{Fairy, Registry, BUILTIN};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{MoveEffects, Position, VariantRules, Winner};
use std::sync::Arc;

const SECTIONS: &str = "
[andersanti:antichess]
passOnStalemate = true
[whitepass:antichess]
passOnStalemateWhite = true
[passchess:chess]
passOnStalemate = true
";

/// A section of [`SECTIONS`], over the built-in sections.
fn section(id: &str) -> Arc<Fairy> {
    let mut sources: Vec<(String, String)> = BUILTIN
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect();
    sources.push(("keys.ini".into(), SECTIONS.into()));
    Registry::from_sources(&sources)
        .get(id)
        .unwrap_or_else(|| panic!("{id} is not defined"))
        .unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// The position after `moves` (coordinate form) from `fen`.
fn after(v: &Fairy, fen: &str, moves: &[&str]) -> Position {
    let mut pos = v.parse(fen).expect("fen");
    for text in moves {
        let mut legal = RVec::new();
        v.legal(&pos, &mut legal);
        let m = *legal
            .iter()
            .find(|&&m| coord(v, &pos, m) == *text)
            .unwrap_or_else(|| panic!("{text} is not legal in {}", v.fen(&pos)));
        let mut fx = MoveEffects::new(pos.side_to_move, false);
        v.apply(&mut pos, m, &mut fx);
    }
    pos
}

/// The answer after `moves`: legal moves (sorted) with their SAN, FEN, result.
struct Answer {
    moves: Vec<String>,
    sans: Vec<String>,
    fen: String,
    result: Option<Winner>,
}

fn answer(id: &str, fen: &str, moves: &[&str]) -> Answer {
    let v = section(id);
    let pos = after(&v, fen, moves);
    let mut legal = RVec::new();
    v.legal(&pos, &mut legal);
    let mut rows: Vec<(String, String)> = legal
        .iter()
        .map(|&m| (coord(&v, &pos, m), v.san(&pos, m)))
        .collect();
    rows.sort();
    let check = v.gen.in_check(&pos, pos.side_to_move);
    let result = v
        .outcome(&pos, &ctx(!rows.is_empty(), check, 1, [false; 2]))
        .map(|o| o.winner);
    Answer {
        moves: rows.iter().map(|r| r.0.clone()).collect(),
        sans: rows.iter().map(|r| r.1.clone()).collect(),
        fen: v.fen(&pos),
        result,
    }
}

#[test]
fn a_stalemated_side_passes_with_its_lowest_piece() {
    let fen = "8/8/8/8/1p6/1Pp5/2P5/N7 w - - 7 10";
    let a = answer("andersanti", fen, &[]);
    assert_eq!((a.moves, a.sans), (vec!["a1a1".into()], vec!["Na1".into()]));
    // A knight's pass counts for the n-move rule; Black's lowest piece is on c3, not b4.
    let a = answer("andersanti", fen, &["a1a1"]);
    assert_eq!(a.fen, "8/8/8/8/1p6/1Pp5/2P5/N7 b - - 8 10");
    assert_eq!((a.moves, a.sans), (vec!["c3c3".into()], vec!["c3".into()]));
    assert_eq!(a.result, None);
    // A pawn's pass resets the clock (it could not step back), and two passes draw.
    let a = answer("andersanti", fen, &["a1a1", "c3c3"]);
    assert_eq!(a.fen, "8/8/8/8/1p6/1Pp5/2P5/N7 w - - 0 11");
    assert!(a.moves.is_empty());
    assert_eq!(a.result, Some(Winner::DRAW));
    // Without the key stalemate is antichess's win.
    let a = answer("antichess", fen, &[]);
    assert!(a.moves.is_empty());
    assert_eq!(a.result, Some(Winner::WHITE));
}

#[test]
fn passing_is_per_colour() {
    let fen = "8/8/8/8/1p6/1Pp5/2P5/N7 w - - 7 10";
    assert_eq!(answer("whitepass", fen, &[]).moves, ["a1a1"]);
    let a = answer("whitepass", "8/8/8/8/1p6/1Pp5/2P5/N7 b - - 7 10", &[]);
    assert!(a.moves.is_empty());
    assert_eq!(a.result, Some(Winner::BLACK));
}

#[test]
fn a_king_passes_unless_in_check() {
    let a = answer("passchess", "k7/8/1Q6/8/8/8/8/K7 b - - 0 1", &[]);
    assert_eq!((a.moves, a.sans), (vec!["a8a8".into()], vec!["Ka8".into()]));
    let a = answer("passchess", "k7/8/1Q6/8/8/8/8/K7 b - - 0 1", &["a8a8"]);
    assert_eq!(a.fen, "k7/8/1Q6/8/8/8/8/K7 w - - 1 2");
    assert_eq!(a.moves.len(), 26);
    // Only without a legal move: here the king takes.
    assert_eq!(
        answer("passchess", "k7/1Q6/8/8/8/8/8/K7 b - - 0 1", &[]).moves,
        ["a8b7"]
    );
    // Checkmate stays checkmate.
    let a = answer("passchess", "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", &[]);
    assert!(a.moves.is_empty());
    assert_eq!(a.result, Some(Winner::WHITE));
}
