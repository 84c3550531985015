//! Janggi's keys (`diagonalLines`, `kingType = wazir`, `pass`, `bikjangRule`,
//! `materialCounting = janggi`) on the shipped built-ins: every expected answer is
//! Fairy-Stockfish's (pyffish 0.0.90's built-in `janggi`, `janggitraditional` and
//! `janggicasual`: `legal_moves`, `get_san` (`Pe9+`, `Rf3+`: the host adds the mark),
//! `game_result` on the same positions and moves).

use crate::key_tests::{answer_of, Answer};
use crate::tests::builtin;
use houserules_plugin_api::Winner;

fn answer(id: &str, fen: &str, moves: &[&str]) -> Answer {
    let v = builtin().get(id).expect("known").expect("builds");
    answer_of(&v, fen, moves)
}

fn strings(list: &str) -> Vec<String> {
    list.split_whitespace().map(str::to_string).collect()
}

/// Whether the side to move is in check after `moves` (the host marks SAN with it).
fn in_check(id: &str, fen: &str, moves: &[&str]) -> bool {
    let v = builtin().get(id).expect("known").expect("builds");
    let (pos, _) = crate::rule_tests::after_with_last(&v, fen, moves);
    v.gen.in_check(&pos, pos.side_to_move)
}

/// The SAN `a` writes for `mv` (without the check mark, which the host adds).
fn san(a: &Answer, mv: &str) -> String {
    let i = a.moves.iter().position(|m| m == mv).expect("a legal move");
    a.sans[i].clone()
}

#[test]
fn the_palace_lines_give_king_advisor_and_soldier_diagonal_steps() {
    // The advisor on the palace's centre steps to its four corners; the king on a corner
    // would step to the centre, which its advisor holds. `d1d1` is the king's pass.
    let a = answer("janggi", "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1", &[]);
    assert_eq!(
        a.moves,
        strings("d1d1 d1d2 d1e1 e2d2 e2d3 e2e1 e2e3 e2f1 e2f2 e2f3")
    );
    assert_eq!(san(&a, "d1d1"), "Kd1");
    // Off the lines (d2, e1) neither has a diagonal step.
    let a = answer("janggi", "4k4/9/9/9/9/9/9/9/3K5/4A4 w - - 0 1", &[]);
    assert_eq!(a.moves, strings("d2d1 d2d2 d2d3 d2e2 e1d1 e1e2 e1f1"));
    // A soldier in the enemy palace steps diagonally forward along a line, and checks along
    // it: from d8 to e9, from where it attacks f10.
    let a = answer("janggi", "5k3/9/3P5/9/9/9/9/9/9/3K5 w - - 0 1", &[]);
    assert_eq!(a.moves, strings("d1d1 d1d2 d1e1 d1e2 d8c8 d8d9 d8e8 d8e9"));
    assert_eq!(san(&a, "d8e9"), "Pe9");
    assert!(in_check(
        "janggi",
        "5k3/9/3P5/9/9/9/9/9/9/3K5 w - - 0 1",
        &["d8e9"]
    ));
    let a = answer("janggi", "9/4P4/4k4/9/9/9/9/9/9/3K5 w - - 0 1", &[]);
    assert_eq!(
        a.moves,
        strings("d1d1 d1d2 d1e1 d1e2 e9d10 e9d9 e9e10 e9f10 e9f9")
    );
}

#[test]
fn rooks_and_cannons_slide_and_hop_along_the_lines() {
    // Black's rook on f3 checks along the f-file and covers e2 along the line; White's
    // cannon on d1 hops the soldier on e2 to take it, the soldier takes it diagonally or
    // blocks on f2, the king steps aside. No pass in check.
    let a = answer("janggi", "5k3/9/9/9/9/9/9/5r3/4P4/3C1K3 w - - 0 1", &[]);
    assert_eq!(a.moves, strings("d1f3 e2f2 e2f3 f1e1"));
    assert_eq!(san(&a, "d1f3"), "Cxf3");
    // A cannon is no screen for a cannon: only the king's step is left (e2 is covered by
    // the rook along the line).
    let a = answer("janggi", "5k3/9/9/9/9/9/9/5r3/4c4/3C1K3 w - - 0 1", &[]);
    assert_eq!(a.moves, strings("f1e1"));
}

#[test]
fn in_bikjang_a_move_breaks_it_or_passes_and_bikjang_twice_ends_the_game() {
    // The kings face each other on the f-file: the rook may only go between them (along the
    // line to f3, with check), the king may leave the file, or White passes.
    let fen = "5k3/9/9/9/9/9/9/9/9/3R1K3 w - - 0 1";
    let a = answer("janggi", fen, &[]);
    assert_eq!(a.moves, strings("d1f3 f1e1 f1e2 f1f1"));
    assert_eq!(san(&a, "d1f3"), "Rf3");
    assert!(in_check("janggi", fen, &["d1f3"]));
    let a = answer("janggi", "5k3/9/9/9/9/9/9/9/4P4/3R1K3 w - - 0 1", &[]);
    assert_eq!(a.moves, strings("e2f2 e2f3 f1e1 f1f1"));
    // A pass leaves the kings facing: the game ends. Janggi counts the material (White's
    // rook: 13 points), traditional rules draw, casual rules know no bikjang.
    let a = answer("janggi", fen, &["f1f1"]);
    assert_eq!((a.moves.len(), a.result), (0, Some(Winner::WHITE)));
    let a = answer("janggitraditional", fen, &["f1f1"]);
    assert_eq!(a.result, Some(Winner::DRAW));
    let a = answer("janggicasual", fen, &["f1f1"]);
    assert_eq!(a.result, None);
    assert_eq!(a.moves, strings("f10e10 f10e9 f10f10 f10f9"));
}

#[test]
fn two_passes_end_the_game_and_janggi_counting_gives_an_even_count_to_black() {
    let start = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
    let a = answer("janggi", start, &["e2e2"]);
    assert_eq!(a.result, None);
    assert!(a.moves.contains(&"e9e9".to_string()));
    // Even material: Black, the second player, wins the count.
    let a = answer("janggi", start, &["e2e2", "e9e9"]);
    assert_eq!(
        a.fen,
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 2 2"
    );
    assert_eq!(a.result, Some(Winner::BLACK));
    let a = answer("janggicasual", start, &["e2e2", "e9e9"]);
    assert_eq!(a.result, Some(Winner::DRAW));
}

/// `elgam` of Fairy-Stockfish's example variants.ini: longer lines, a chess king, and a
/// soldier with two promotions to the same piece.
const ELGAM: &str = "
[elgam]
variantTemplate = fairy
maxRank = 10
maxFile = 11
startFen = rheoa1aoehr/5k5/1c7c1/s1s1s1s1s1s/5v5/5V5/S1S1S1S1S1S/1C7C1/5K5/RHEOA1AOEHR[] w - - 0 1
rook = r
horse = h
janggiElephant = e
wazir = a
king = k
janggiCannon = c
soldier = s
customPiece1 = o:nC
customPiece2 = v:mR
customPiece3 = w:W
diagonalLines = c5 d4 e1 e3 f2 g1 g3 h4 i5 c6 d7 e8 e10 f9 g8 g10 h7 i6
mobilityRegionWhiteKing = e1 f1 g1 e2 f2 g2 e3 f3 g3
mobilityRegionBlackKing = e8 f8 g8 e9 f9 g9 e10 f10 g10
pieceDrops = true
capturesToHand = true
pawnTypes = s
dropNoDoubled = s
shogiPawnDropMateIllegal = true
promotionRegionWhite = *10
promotionRegionBlack = *1
promotionPawnTypes = s
promotionPieceTypes = w
promotedPieceType = s:w
mandatoryPawnPromotion = true
stalemateValue = loss
nMoveRule = 0
nFoldRule = 3
nFoldValue = loss
perpetualCheckIllegal = true
castling = false
doubleStep = false
pass = false
bikjangRule = false
materialCounting = none
";

fn elgam(fen: &str, moves: &[&str]) -> Answer {
    let v = crate::tests::from_ini(ELGAM, "elgam").expect("elgam builds");
    answer_of(&v, fen, moves)
}

#[test]
fn elgam_lines_run_through_its_palace_and_beyond() {
    // The wazir on e3 steps to d4 and f2 along the lines, not to d2 or f4.
    let a = elgam("5k5/11/11/11/11/11/11/4A6/11/5K5[] w - - 0 1", &[]);
    assert_eq!(
        a.moves,
        strings("e3d3 e3d4 e3e2 e3e4 e3f2 e3f3 f1e1 f1e2 f1f2 f1g1 f1g2")
    );
    // The rook on c5 slides the whole line down to g1.
    let a = elgam("5k5/11/11/11/11/2R8/11/11/11/5K5[] w - - 0 1", &[]);
    for m in ["c5d4", "c5e3", "c5f2", "c5g1"] {
        assert!(a.moves.contains(&m.to_string()), "{m}");
    }
    assert_eq!(a.moves.len(), 28);
}

#[test]
fn a_promotion_with_two_forms_of_one_piece_is_written_apart() {
    // The soldier becomes `w` chess-style (`W~`) or, as `promotedPieceType = s:w`, its
    // promoted form (`+S`): Fairy-Stockfish lists both (`a9a10w`, `a9a10+`) with one SAN.
    let fen = "5k5/S10/11/11/11/11/11/11/5K5/11[] w - - 0 1";
    let a = elgam(fen, &[]);
    assert!(a.moves.contains(&"a9a10w".to_string()));
    assert!(a.moves.contains(&"a9a10+".to_string()));
    assert_eq!(
        (san(&a, "a9a10w"), san(&a, "a9a10+")),
        ("Sa10=W".into(), "Sa10=W".into())
    );
    assert_eq!(
        elgam(fen, &["a9a10w"]).fen,
        "W~4k5/11/11/11/11/11/11/11/5K5/11[] b - - 0 1"
    );
    assert_eq!(
        elgam(fen, &["a9a10+"]).fen,
        "+S4k5/11/11/11/11/11/11/11/5K5/11[] b - - 0 1"
    );
}

#[test]
fn moving_a_piece_back_and_forth_loses_under_modern_rules() {
    // White's rook goes a1-a2 and back (Black's king does too, but kings and advisors stay in
    // their palace and are exempt): after the anchor and three reversals White loses.
    let fen = "4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
    let line = [
        "a1a2", "e10d10", "a2a1", "d10e10", "a1a2", "e10d10", "a2a1", "d10e10", "a1a2",
    ];
    for n in 6..line.len() {
        assert_eq!(
            answer("janggimodern", fen, &line[..n]).result,
            None,
            "{n} plies"
        );
    }
    assert_eq!(
        answer("janggimodern", fen, &line).result,
        Some(Winner::BLACK)
    );
    // A pass just before the last move does not break the chain.
    let passed = [
        "a1a2", "e10d10", "a2a1", "d10e10", "a1a2", "e10d10", "a2a1", "d10e10", "e1e1", "e10d10",
        "a1a2",
    ];
    assert_eq!(answer("janggimodern", fen, &passed[..10]).result, None);
    assert_eq!(
        answer("janggimodern", fen, &passed).result,
        Some(Winner::BLACK)
    );
    // Another square ends it; other rules know nothing of it.
    let mut other = line;
    other[8] = "a1a3";
    assert_eq!(answer("janggimodern", fen, &other).result, None);
    assert_eq!(answer("janggicasual", fen, &line).result, None);
}
