//! Walling (`wallingRule`, `wallOrMove`) and placement rules (`enclosingDrop`,
//! `flipEnclosedPieces`, `passOnStalemate`, `materialCounting`, `adjudicateFullBoard`,
//! `freeDrops`). Every expected answer is Fairy-Stockfish's (pyffish 0.0.90: `legal_moves`,
//! `get_fen`, `get_san` with `NOTATION_SAN`, `is_immediate_game_end`, `game_result`).

use crate::tests::{coord, ctx, perft};
use crate::Fairy;
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{Position, VariantRules, Winner};
use std::sync::Arc;

/// Sections of Fairy-Stockfish's own variants.ini (`../shared/data/fsf-variants.ini`).
pub(crate) const SECTIONS: &str = "
[cowboys:amazons]
maxRank = 7
maxFile = g
customPiece1 = n:mN
startFen = 2n1n2/7/n5n/7/N5N/7/2N1N2 w - - 0 1
[atlantis:chess]
wallingRule = edge
wallOrMove = true
[cfour]
maxRank = 6
maxFile = 7
immobile = p
startFen = 7/7/7/7/7/7[PPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppp] w - - 0 1
pieceDrops = true
enclosingDrop = top
doubleStep = false
castling = false
stalemateValue = draw
immobilityIllegal = false
connectN = 4
nMoveRule = 0
[cfour-anyside:cfour]
maxRank = 7
startFen = 7/7/7/7/7/7/7[PPPPPPPPPPPPPPPPPPPPPPPPPpppppppppppppppppppppppp] w - - 0 1
enclosingDrop = anyside
[quadwrangle:ataxx]
maxRank = 8
maxFile = 8
startFen = 1PPPPPP1/p6P/p6P/p6P/p6P/p6P/p6P/1pppppp1
customPiece1 = p:mQ
flipEnclosedPieces = quadwrangle
enclosingDrop = none
[snort:ataxx]
immobile = p
startFen = 8/8/8/8/8/8/8/8
enclosingDrop = snort
flipEnclosedPieces = none
maxRank = 8
maxFile = 8
passOnStalemate = false
stalematePieceCount = false
";

/// A built-in, or a section of [`SECTIONS`] (which may build on the built-ins).
fn variant(id: &str) -> Arc<Fairy> {
    crate::tests::over_builtins(&[("test.ini", SECTIONS)], id)
        .unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// The position after `moves` (coordinate form) from `fen` (`None`: the start).
fn after(v: &Fairy, fen: Option<&str>, moves: &[&str]) -> Position {
    crate::rule_tests::after(v, fen.unwrap_or(&v.start_fen), moves)
}

/// Legal moves (sorted), FEN, and the result (when the game is over).
fn answer(id: &str, fen: Option<&str>, moves: &[&str]) -> (Vec<String>, String, Option<Winner>) {
    let v = variant(id);
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

/// SAN of the legal move written `text` after `moves`.
fn san(id: &str, moves: &[&str], text: &str) -> String {
    let v = variant(id);
    let pos = after(&v, None, moves);
    let mut legal = RVec::new();
    v.legal(&pos, &mut legal);
    let m = *legal
        .iter()
        .find(|&&m| coord(&v, &pos, m) == text)
        .unwrap_or_else(|| panic!("{text} is not legal"));
    v.san(&pos, m)
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn amazons_shoot_an_arrow_where_the_queen_could_move_next() {
    let (moves, fen, _) = answer("amazons", None, &[]);
    assert_eq!(moves.len(), 2176);
    assert_eq!(fen, "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 w - - 0 1");
    assert!(moves.contains(&"a4a1,a1a2".to_string()));
    // The arrow may go back to the square the queen left.
    assert!(moves.contains(&"d1d5,d5d1".to_string()));
    assert_eq!(san("amazons", &[], "d1a1,a1b1"), "Qda1,b1");
    assert_eq!(san("amazons", &[], "d1d5,d5d1"), "Qd5,d1");
    // Rivals count only if they could put the same arrow: the e1 knight could reach c2 too,
    // but not shoot at a3, where the other knight stands.
    assert_eq!(san("cowboys", &[], "a3c2,c2a3"), "Nc2,a3");
    let (moves, fen, _) = answer("amazons", None, &["d1d5,d5d1"]);
    assert_eq!(fen, "3q2q3/10/10/q8q/10/3Q6/Q8Q/10/10/3*2Q3 b - - 1 1");
    assert_eq!(moves.len(), 1936);
}

#[test]
fn the_duck_moves_on_every_turn_and_blocks() {
    let (moves, fen, _) = answer("duck", None, &["e2e4,e4e5"]);
    assert_eq!(
        fen,
        "rnbqkbnr/pppppppp/8/4*3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert_eq!(moves.len(), 589);
    // The duck may not stay where it is, and nothing moves onto it.
    assert!(!moves.iter().any(|m| m.ends_with("e5")));
    let (moves, fen, _) = answer("duck", None, &["e2e4,e4e5", "d7d5,d5d4"]);
    assert_eq!(
        fen,
        "rnbqkbnr/ppp1pppp/8/3p4/3*P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    assert_eq!(moves.len(), 931);
    assert_eq!(
        san("duck", &["e2e4,e4e5", "d7d5,d5d4"], "e4d5,d5e5"),
        "exd5,e5"
    );
}

#[test]
fn a_snail_leaves_its_trail() {
    let (moves, fen, _) = answer("snailtrail", None, &[]);
    assert_eq!(moves, strings(&["a1a2,a2a1", "a1b1,b1a1", "a1b2,b2a1"]));
    assert_eq!(fen, "6p/7/7/7/7/7/P6 w - - 0 1");
    let (moves, fen, _) = answer("snailtrail", None, &["a1b2,b2a1"]);
    assert_eq!(fen, "6p/7/7/7/7/1P5/*6 b - - 1 1");
    assert_eq!(moves, strings(&["g7f6,f6g7", "g7f7,f7g7", "g7g6,g6g7"]));
}

#[test]
fn atlantis_moves_or_walls_the_edge_and_next_to_walls() {
    let (moves, ..) = answer("atlantis", None, &[]);
    assert_eq!(moves.len(), 28);
    // A move places no wall (written with Fairy-Stockfish's empty wall square, a1) ...
    assert!(moves.contains(&"e2e4,e4a1".to_string()));
    // ... a wall is put instead of a move, by the first piece (a1).
    assert!(moves.contains(&"a1a1,a1a3".to_string()));
    let (moves, fen, _) = answer("atlantis", None, &["a1a1,a1a3"]);
    assert_eq!(
        fen,
        "rnbqkbnr/pppppppp/8/8/8/*7/PPPPPPPP/RNBQKBNR b KQkq - 1 1"
    );
    assert_eq!(moves.len(), 28);
    // Black's first piece is a7; b3 and a4 touch the wall.
    for m in ["a7a7,a7a4", "a7a7,a7b3", "a7a5,a5a1", "g8f6,f6a1"] {
        assert!(moves.contains(&m.to_string()), "{m}");
    }
    assert_eq!(san("atlantis", &["a1a1,a1a3"], "a7a7,a7a4"), "a7,a4");
    // A pawn's pass resets the halfmove clock, as its moves do.
    let (moves, fen, _) = answer("atlantis", None, &["a1a1,a1a3", "a7a7,a7b3"]);
    assert_eq!(
        fen,
        "rnbqkbnr/pppppppp/8/8/8/**6/PPPPPPPP/RNBQKBNR w KQkq - 0 2"
    );
    assert_eq!(moves.len(), 24);
    assert!(moves.contains(&"a1a1,a1c3".to_string()) && moves.contains(&"b1c3,c3a1".to_string()));
}

#[test]
fn atlantis_a_wall_instead_of_a_move_must_end_a_check() {
    // Black in check from a4 (a4-e8): the walls Black may put instead of a move are those
    // that block the diagonal (b5, c6; d7 is no edge square). Fairy-Stockfish lists the six
    // piece moves only (docs/fairy.md, known differences: its king's legality test leaves
    // the new wall out, its pseudo-royal test counts it); it also lists none of the seven
    // walls that leave the king in check, which houserules offered before.
    let fen = "rnb1kb*r/ppp1pppp/**3n**/*2p****/Q2P1*P*/*3**1*/P2BPP1P/RN**KBNR b KQkq - 1 15";
    let (moves, ..) = answer("atlantis", Some(fen), &[]);
    let fsf = [
        "b8c6,c6a1",
        "b8d7,d7a1",
        "c7c6,c6a1",
        "c8d7,d7a1",
        "e8d8,d8a1",
        "f6d7,d7a1",
    ];
    let mut want = strings(&fsf);
    want.extend(strings(&["d5d5,d5b5", "d5d5,d5c6"]));
    want.sort();
    assert_eq!(moves, want);
    // Out of check (the queen gone) every square of the edge rule takes a wall, as in
    // Fairy-Stockfish.
    let (moves, ..) = answer("atlantis", Some(&fen.replace("Q2P1*P*", "3P1*P*")), &[]);
    let walls: Vec<_> = moves.iter().filter(|m| m.starts_with("d5d5")).collect();
    assert_eq!(walls.len(), 10, "{walls:?}");
}

#[test]
fn flipello_encloses_and_flips() {
    let (moves, ..) = answer("flipello", None, &[]);
    assert_eq!(moves, strings(&["P@c5", "P@d6", "P@e3", "P@f4"]));
    let (moves, fen, _) = answer("flipello", None, &["P@e3"]);
    assert!(fen.starts_with("8/8/8/3pP3/3PP3/4P3/8/8["), "{fen}");
    assert!(fen.ends_with("] b - - 0 1"), "{fen}");
    assert_eq!(moves, strings(&["P@d3", "P@f3", "P@f5"]));
    // Flipersi starts with the centre: drops go there first.
    let (moves, ..) = answer("flipersi", None, &[]);
    assert_eq!(moves, strings(&["P@d4", "P@d5", "P@e4", "P@e5"]));
}

#[test]
fn flipello_passes_without_moves_and_two_passes_end_it() {
    let pocket = format!("[{}{}]", "P".repeat(60), "p".repeat(60));
    let fen = format!("8/8/8/3PP3/3PP3/8/8/7p{pocket} b - - 0 1");
    let (moves, ..) = answer("flipello", Some(&fen), &[]);
    assert_eq!(moves, strings(&["h1h1"]));
    let v = variant("flipello");
    let pos = v.parse(&fen).unwrap();
    let mut legal = RVec::new();
    v.legal(&pos, &mut legal);
    assert_eq!(v.san(&pos, legal[0]), "Ph1");
    let (moves, after_fen, result) = answer("flipello", Some(&fen), &["h1h1"]);
    assert_eq!(moves, strings(&["d4d4"]));
    assert_eq!(
        after_fen,
        format!("8/8/8/3PP3/3PP3/8/8/7p{pocket} w - - 1 2")
    );
    assert_eq!(result, None);
    // Two passes in a row end the game: material counting (White has more pieces).
    let (moves, _, result) = answer("flipello", Some(&fen), &["h1h1", "d4d4"]);
    assert!(moves.is_empty());
    assert_eq!(result, Some(Winner::WHITE));
    // A side without pieces does not pass: stalemate, and the fewer pieces lose.
    let empty = format!("8/8/8/3PP3/3PP3/8/8/8{pocket} b - - 0 1");
    let (moves, _, result) = answer("flipello", Some(&empty), &[]);
    assert!(moves.is_empty());
    assert_eq!(result, Some(Winner::WHITE));
}

#[test]
fn ataxx_clones_next_to_its_pieces_jumps_further_and_converts() {
    let (moves, fen, _) = answer("ataxx", None, &[]);
    assert_eq!(fen, "P5p/7/7/7/7/7/p5P w - - 0 1");
    assert_eq!(
        moves,
        strings(&[
            "P@a6", "P@b6", "P@b7", "P@f1", "P@f2", "P@g2", "a7a5", "a7b5", "a7c5", "a7c6", "a7c7",
            "g1e1", "g1e2", "g1e3", "g1f3", "g1g3"
        ])
    );
    // The supply is unlimited and not written.
    let (_, fen, _) = answer("ataxx", None, &["P@f1"]);
    assert_eq!(fen, "P5p/7/7/7/7/7/p4PP b - - 0 1");
    let (_, fen, _) = answer("ataxx", None, &["g1e3"]);
    assert_eq!(fen, "P5p/7/7/7/4P2/7/p6 b - - 1 1");
    // A drop next to an enemy piece converts it.
    let (_, fen, _) = answer("ataxx", Some("P5p/7/7/7/7/5p1/p5P w 0 1"), &["P@f1"]);
    assert_eq!(fen, "P5p/7/7/7/7/5P1/p4PP b - - 0 1");
    let v = variant("ataxx");
    let start = v.parse(&v.start_fen).unwrap();
    assert_eq!(perft(&v, &start, 2), 256);
}

#[test]
fn connect_four_drops_on_top_or_in_from_a_side() {
    let (moves, fen, _) = answer("cfour", None, &["P@c1"]);
    assert!(fen.starts_with("7/7/7/7/7/2P4["), "{fen}");
    assert_eq!(
        moves,
        strings(&["P@a1", "P@b1", "P@c2", "P@d1", "P@e1", "P@f1", "P@g1"])
    );
    let (moves, ..) = answer("cfour-anyside", None, &[]);
    assert_eq!(moves.len(), 24);
    let (moves, ..) = answer("cfour-anyside", None, &["P@c1", "P@a3"]);
    assert_eq!(
        moves,
        strings(&[
            "P@a1", "P@a2", "P@a4", "P@a5", "P@a6", "P@a7", "P@b1", "P@b3", "P@b7", "P@c2", "P@d1",
            "P@d7", "P@e1", "P@e7", "P@f1", "P@f7", "P@g1", "P@g2", "P@g4", "P@g5", "P@g6", "P@g7"
        ])
    );
}

#[test]
fn snort_keeps_drops_off_enemy_neighbours_and_quadwrangle_flips() {
    let (moves, ..) = answer("snort", None, &["P@d4"]);
    assert_eq!(moves.len(), 59);
    for m in ["P@d5", "P@d3", "P@c4", "P@e4"] {
        assert!(!moves.contains(&m.to_string()), "{m}");
    }
    assert!(moves.contains(&"P@c5".to_string()));
    // Quadwrangle: a move flips its neighbours, a drop only next to an own piece.
    let (moves, fen, _) = answer("quadwrangle", None, &["h2h1"]);
    assert_eq!(fen, "1PPPPPP1/p6P/p6P/p6P/p6P/p6P/p7/1pppppPP b - - 1 1");
    assert_eq!(moves.len(), 165);
    let (_, fen, _) = answer("quadwrangle", None, &["P@b2"]);
    assert_eq!(fen, "1PPPPPP1/p6P/p6P/p6P/p6P/p6P/pP5P/1pppppp1 b - - 0 1");
    let (moves, fen, _) = answer("quadwrangle", None, &["P@d4"]);
    assert_eq!(fen, "1PPPPPP1/p6P/p6P/p6P/p2P3P/p6P/p6P/1pppppp1 b - - 0 1");
    assert_eq!(moves.len(), 161);
}
