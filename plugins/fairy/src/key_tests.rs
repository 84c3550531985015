//! Scenarios of the keys added for the small sections of Fairy-Stockfish's variants.ini
//! (issue #13): every expected answer is Fairy-Stockfish's (pyffish 0.0.90: `legal_moves`,
//! `get_fen`, `get_san`, `game_result`, `is_immediate_game_end` on the same section, FEN and
//! moves), but where a test names a documented difference (docs/fairy.md).

use crate::rule_tests::after_with_last;
use crate::tests::{ctx, moves_with_san};
use crate::Fairy;
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{Move, MoveEffects, VariantRules, Winner};
use std::sync::Arc;

/// Test sections, and sections of Fairy-Stockfish's variants.ini (comments left out); the
/// placement and demotion tests' sections are read with them.
const SECTIONS: &str = "
[stonecannons:petrified]
cannon = c
janggiCannon = j
petrifyOnCaptureTypes = kqrbncj
startFen = rcbqkjnr/pppppppp/8/8/8/8/PPPPPPPP/RCBQKJNR w - - 0 1
[wall960:chess]
chess960 = true
wallingRule = edge
[atomicduck:atomic]
wallingRule = duck
stalemateValue = win
[tictactoe]
maxRank = 3
maxFile = 3
immobile = p
startFen = 3/3/3[PPPPPpppp] w - - 0 1
pieceDrops = true
doubleStep = false
castling = false
stalemateValue = draw
immobilityIllegal = false
connectN = 3
[khans:chess]
pieceToCharTable = -
centaur = h
knibis = a
kniroo = l
customPiece1 = t:mNcK
customPiece2 = s:mfhNcfW
promotionPawnTypesBlack = s
promotionPieceTypesBlack = t
stalemateValue = loss
nMoveRuleTypesBlack = s
flagPiece = k
flagRegionWhite = *8
flagRegionBlack = *1
startFen = lhatkahl/ssssssss/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1
[centaurking:chess]
king = k:KN
[picaria:tictactoe]
customPiece1 = p:mKmNmAmD
startFen = 3/3/3[PPPppp] w - - 0 1
mustDrop = true
nMoveRule = 0
nFoldRule = 0
[nineholes:picaria]
connectDiagonal = false
[teeko:picaria]
maxRank = 5
maxFile = 5
connectN = 4
connectNxN = 2
customPiece1 = p:mK
startFen = 5/5/5/5/5[PPPPpppp] w - - 0 1
[three-musketeers]
pieceToCharTable = P......M..............p......m..............
startFen = ppppM/ppppp/ppMpp/ppppp/Mpppp
maxRank = 5
maxFile = 5
collinearN = 3
connectDiagonal = false
customPiece1 = m:cW
customPiece2 = p:mW
connectValue = loss
stalemateValue = win
connectPieceTypes = m
[capturethequeen]
startFen = 3q4/8/8/8/8/8/8/1QQ1QQ2
queen = q
extinctionPieceTypes = q
nFoldRule = 0
materialCounting = blackdrawodds
[castle:chess]
castlingWins = q
[opposite-castling:chess]
oppositeCastling = true
[andersanti:antichess]
passOnStalemate = true
[whitepass:antichess]
passOnStalemateWhite = true
[passchess:chess]
passOnStalemate = true
[limitq:chess]
promotionLimit = q:1 n:3
[unweighted:chess]
materialCounting = unweighted
nMoveRule = 2
[gale:snort]
maxRank = 9
maxFile = 9
startFen = 1p1p1p1p1/P1P1P1P1P/1p1p1p1p1/P1P1P1P1P/1p1p1p1p1/P1P1P1P1P/1p1p1p1p1/P1P1P1P1P/1p1p1p1p1
enclosingDrop = none
connectRegion1White = a*
connectRegion2White = i*
connectRegion1Black = *1
connectRegion2Black = *9
connectDiagonal = false
[twokings2:chess]
king = -
commoner = k
extinctionValue = loss
extinctionPseudoRoyal = true
extinctionPieceTypes = k
extinctionPieceCount = 1
startFen = rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1
[chak]
maxRank = 9
maxFile = 9
rook = r
knight = v
centaur = j
immobile = o
customPiece1 = s:FvW
customPiece2 = q:pQ
customPiece3 = d:mQ2cQ2
customPiece4 = p:fsmWfceF
customPiece5 = k:WF
customPiece6 = w:FvW
startFen = rvsqkjsvr/4o4/p1p1p1p1p/9/9/9/P1P1P1P1P/4O4/RVSJKQSVR w - - 0 1
mobilityRegionWhiteCustomPiece6 = *5 *6 *7 *8 *9
mobilityRegionWhiteCustomPiece3 = *5 *6 *7 *8 *9
mobilityRegionBlackCustomPiece6 = *1 *2 *3 *4 *5
mobilityRegionBlackCustomPiece3 = *1 *2 *3 *4 *5
promotionRegionWhite = *5 *6 *7 *8 *9
promotionRegionBlack = *5 *4 *3 *2 *1
promotionPieceTypes = -
mandatoryPiecePromotion = true
promotedPieceType = p:w k:d
extinctionValue = loss
extinctionPieceTypes = kd
extinctionPseudoRoyal = true
flagPiece = d
flagRegionWhite = e8
flagRegionBlack = e2
nMoveRule = 50
nFoldRule = 3
nFoldValue = draw
stalemateValue = loss
[quasi-shatranj:twokings2]
pieceToCharTable = PN....E...G..FZ....IAKpn....e...g..fz....iak
maxRank = 10
maxFile = 10
customPiece1 = a:AD
customPiece2 = e:AF
customPiece3 = f:AW
customPiece4 = i:DF
customPiece5 = z:DW
customPiece6 = g:K
extinctionPieceCount = 3
startFen = kifkaakfik/znegaagenz/pppppppppp/10/10/10/10/PPPPPPPPPP/ZNEGAAGENZ/KIFKAAKFIK w 0 1
promotionRegionWhite = *10
promotionPieceTypes = zangief
doubleStepRegionWhite = *3
doubleStepRegionBlack = *8
[mounted]
maxRank = 7
maxFile = 7
pieceDrops = true
capturesToHand = true
stalemateValue = loss
nFoldValue = loss
extinctionValue = loss
extinctionPseudoRoyal = true
extinctionPieceTypes = k
flagPiece = k
flagRegionWhite = *7
flagRegionBlack = *1
centaur = k
bishop = b
rook = r
cannon = c
customPiece1 = a:mBcpB
customPiece2 = s:FsfW
startFen = 1cbkra1/2s1s2/7/7/7/2S1S2/1CBKRA1 w - - 0 1
[mandala]
maxRank = 10
maxFile = 10
pocketSize = 6
pieceDrops = true
capturesToHand = true
shogiPawn = r
customPiece1 = l:NAD
customPiece2 = f:ZAD
customPiece3 = g:NC
customPiece4 = b:ZC
customPiece5 = j:FWGH
customPiece6 = e:vW
immobile = c
startFen = flgbjjbglf/10/rrrrrrrrrr/10/10/10/10/RRRRRRRRRR/10/FLGBJJBGLF[EE] w - - 0 1
doubleStep = false
castling = false
dropNoDoubled = r
immobilityIllegal = true
promotionRegionWhite = *10
promotionRegionBlack = *1
promotionPieceTypes = -
promotedPieceType = r:c
mandatoryPiecePromotion = true
extinctionValue = loss
extinctionPieceTypes = j
extinctionPseudoRoyal = true
extinctionPieceCount = 1
flagPiece = c
flagRegionWhite = *10
flagRegionBlack = *1
nMoveRule = 0
nFoldValue = loss
stalemateValue = loss
[gorogoroplus:gorogoro]
startFen = sgkgs/5/1ppp1/1PPP1/5/SGKGS[LNln] w 0 1
lance = l
shogiKnight = n
promotedPieceType = l:g n:g
pieceToCharTable = P....SLN.G.+....+Kp....sln.g.+....+k
[dragon-chess:chess]
customPiece1 = b:BK
customPiece2 = n:NK
customPiece3 = p:KifmnD
customPiece4 = r:RK
castlingRookPieces = r
pawnTypes = p
[epc:chess]
customPiece1 = p:fmWfceFifmnD
pawnTypes = p
[sergeants:chess]
customPiece1 = s:fKifmnD
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPSPPPP/RNBQKBNR w KQkq - 0 1
[ep-by-pawn-types:chess]
customPiece1 = p:fmWfcFifmnD
pawnTypes = p
[ep-without-key:chess]
customPiece1 = p:fmWfcFifmnD
[ep-types-not-it:chess]
customPiece1 = p:fmWfceFifmnD
promotionPawnTypes = p
enPassantTypes = n
[ep-types-first:chess]
customPiece1 = p:fmWfcFifmnD
enPassantTypes = p
pawnTypes = n
[screen:placement]
dropNoDoubled = p
startFen = 8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - - 0 1
dropRegionWhite = *1 *2 *3 *4
dropRegionBlack = *8 *7 *6 *5
";

/// A section of [`SECTIONS`], over the built-in sections.
fn section(id: &str) -> Arc<Fairy> {
    // The placement tests' sections first: `gale` is a child of their `snort`.
    let files = [
        ("placement.ini", crate::placement_tests::SECTIONS),
        ("demotion.ini", crate::demotion_tests::SECTIONS),
        ("keys.ini", SECTIONS),
    ];
    crate::tests::over_builtins(&files, id).unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// The answer after `moves`: legal moves (sorted) with their SAN, FEN, result.
pub(crate) struct Answer {
    pub(crate) moves: Vec<String>,
    pub(crate) sans: Vec<String>,
    pub(crate) fen: String,
    pub(crate) result: Option<Winner>,
}

fn answer(id: &str, fen: &str, moves: &[&str]) -> Answer {
    answer_of(&section(id), fen, moves)
}

/// [`Answer`] of variant `v` after `moves` from `fen`.
pub(crate) fn answer_of(v: &Fairy, fen: &str, moves: &[&str]) -> Answer {
    let (pos, last) = after_with_last(v, fen, moves);
    let rows = moves_with_san(v, &pos);
    // In check as the host sees it: a royal of the variant's (API 1.4) attacked.
    let us = pos.side_to_move;
    let check = v.royals(&pos, us).is_some_and(|r| {
        r.iter()
            .any(|sq| v.gen.is_attacked(&pos, sq, us.opposite()))
    });
    let mut ctx = ctx(!rows.is_empty(), check, 1, [false; 2]);
    ctx.set_last_move(last.as_ref());
    let result = v.outcome(&pos, &ctx).map(|o| o.winner);
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

#[test]
fn promotion_piece_sets_are_per_colour() {
    // khans: White's pawns promote to n b r q, Black's `s` (customPiece2) to `t`.
    let fen = "4k3/1P6/8/8/8/8/3s4/4K3 w - - 0 1";
    assert_eq!(
        answer("khans", fen, &[]).moves,
        ["b7b8b", "b7b8n", "b7b8q", "b7b8r", "e1d2", "e1e2", "e1f1", "e1f2"]
    );
    let black = "4k3/1P6/8/8/8/8/3s4/4K3 b - - 0 1";
    assert_eq!(
        answer("khans", black, &[]).moves,
        ["d2b1t", "d2f1t", "e8d7", "e8d8", "e8e7", "e8f7", "e8f8"]
    );
    // A White `s` is no pawn type: it reaches the last rank without promoting.
    assert_eq!(
        answer("khans", "4k3/8/1S6/8/8/8/8/4K3 w - - 5 9", &[]).moves,
        ["b6a8", "b6c8", "b6d7", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]
    );
}

#[test]
fn a_pawn_promotes_to_each_colours_own_pieces() {
    // chigorin: the pawn is a pawn type of both colours, White's promotes to c r n, Black's to
    // q r b (plugin API 1.9's per-colour choices; refused before).
    let fen = "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1";
    assert_eq!(
        answer("chigorin", fen, &[]).moves,
        ["b7b8c", "b7b8n", "b7b8r", "e1d1", "e1d2", "e1e2", "e1f2"]
    );
    let black = "4k3/1P6/8/8/8/8/6p1/4K3 b - - 0 1";
    let a = answer("chigorin", black, &[]);
    assert_eq!(
        a.moves,
        ["e8d7", "e8d8", "e8e7", "e8f7", "e8f8", "g2g1b", "g2g1q", "g2g1r"]
    );
    assert!(a.sans.contains(&"g1=B".to_string()), "{:?}", a.sans);
    assert_eq!(
        answer("chigorin", black, &["g2g1b"]).fen,
        "4k3/1P6/8/8/8/8/8/4K1b1 w - - 0 2"
    );
}

#[test]
fn kings_of_atomar_cannot_take_each_other() {
    // atomar (mutuallyImmuneTypes = k): the kings of no-check atomic stand side by side and
    // neither may take the other; in nocheckatomic the capture is legal.
    let fen = "8/8/8/3kK3/8/8/8/8 w - - 0 1";
    let atomar = answer("atomar", fen, &[]).moves;
    assert_eq!(
        atomar,
        ["e5d4", "e5d6", "e5e4", "e5e6", "e5f4", "e5f5", "e5f6"]
    );
    let plain = answer("nocheckatomic", fen, &[]).moves;
    assert_eq!(plain.len(), 8);
    assert!(plain.contains(&"e5d5".to_string()));
}

#[test]
fn bughouse_marks_promoted_pawns_and_keeps_captures_off_the_hand() {
    // bughouse (twoBoards, capturesToHand = false): a capture leaves the hand as it was (the
    // piece goes to the partner), and a promoted pawn is written `Q~` wherever it goes.
    let fen = "k3r3/5P2/8/8/8/8/8/K7[N] w - - 0 1";
    assert_eq!(
        answer("bughouse", fen, &["f7e8q"]).fen,
        "k3Q~3/8/8/8/8/8/8/K7[N] b - - 0 1"
    );
    let a = answer("bughouse", fen, &["f7e8q", "a8b7", "e8e7", "b7b6", "e7e4"]);
    assert_eq!(a.fen, "8/8/1k6/8/4Q~3/8/8/K7[N] b - - 4 3");
    // No drop of a piece the hand lacks (Fairy-Stockfish's "virtual" drops are its search's,
    // not legal moves): mated with an empty hand.
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR[] w KQkq - 1 3";
    let a = answer("bughouse", mated, &[]);
    assert!(a.moves.is_empty());
    assert_eq!(a.result, Some(Winner::BLACK));
    // A drop from the hand stops a check.
    let a = answer("bughouse", "k7/8/8/8/8/8/8/K6r[N] w - - 0 1", &[]);
    assert_eq!(
        a.moves,
        ["N@b1", "N@c1", "N@d1", "N@e1", "N@f1", "N@g1", "a1a2", "a1b2"]
    );
}

#[test]
fn two_kings_both_attacked_are_in_check() {
    // spartan (dupleCheck): Black's two kings are not pseudo-royal (two of the type), but
    // both attacked at once is a check, and no move may leave both attacked.
    let both = "k2R3k/8/8/8/8/8/8/4K3 b - - 0 1";
    let a = answer("spartan", both, &[]);
    assert_eq!(a.moves, ["a8a7", "a8b7", "h8g7", "h8h7"]);
    // Mated: every step leaves both attacked (the rook on the 7th holds the flights).
    let a = answer("spartan", "k6k/4R3/8/8/8/8/8/3RK3 w - - 0 1", &["d1d8"]);
    assert!(a.moves.is_empty());
    assert_eq!(a.result, Some(Winner::WHITE));
    // One attacked is no check: the other king is not pseudo-royal either.
    let a = answer("spartan", "k6k/8/8/8/8/8/4R3/4K3 b - - 0 1", &[]);
    assert_eq!(a.moves.len(), 6);
}

#[test]
fn a_shatar_mate_wins_only_after_a_shak_and_never_by_knights_alone() {
    // shatar (shatarMateRule). A mate by knights alone is a foul: the mated side wins.
    let a = answer("shatar", "6rk/6pp/8/4N3/8/8/8/K7 w - - 0 1", &["e5f7"]);
    assert_eq!((a.moves.len(), a.result), (0, Some(Winner::BLACK)));
    // A rook's check is a shak: its mate wins.
    let a = answer("shatar", "7k/6pp/8/8/8/8/8/R5K1 w - - 0 1", &["a1a8"]);
    assert_eq!((a.moves.len(), a.result), (0, Some(Winner::WHITE)));
    // A bishop's mate with no shak before it in the series of checks: a draw (niol).
    let a = answer("shatar", "6bk/7p/8/8/8/8/3B4/6K1 w - - 0 1", &["d2c3"]);
    assert_eq!((a.moves.len(), a.result), (0, Some(Winner::DRAW)));
    // The rook's check starts the series and the bishop's mate ends it: a win ...
    let fen = "6k1/p4b1p/8/8/8/8/3B4/R6K w - - 0 1";
    let a = answer("shatar", fen, &["a1g1", "g8h8", "d2c3"]);
    assert_eq!(
        (a.fen.as_str(), a.moves.len(), a.result),
        ("7k/p4b1p/8/8/8/2B5/8/6RK b - - 3 2", 0, Some(Winner::WHITE))
    );
    // ... but a quiet move between them ends the series: the same mate is a draw.
    let a = answer("shatar", fen, &["a1g1", "g8h8", "h1h2", "a7a6", "d2c3"]);
    assert_eq!((a.moves.len(), a.result), (0, Some(Winner::DRAW)));
    let a = answer("shatar", fen, &["a1g1", "g8h8", "d2e3", "a7a6", "e3d4"]);
    assert_eq!((a.moves.len(), a.result), (0, Some(Winner::DRAW)));
    // Set up from a FEN, the check on the board counts: the rook's starts the series.
    let a = answer(
        "shatar",
        "6k1/p4b1p/8/8/8/8/3B4/6RK b - - 0 1",
        &["g8h8", "d2c3"],
    );
    assert_eq!((a.moves.len(), a.result), (0, Some(Winner::WHITE)));
}

#[test]
fn sittuyin_pawns_promote_in_place_or_a_step_away() {
    // sittuyinPromotion: the pawn on its promotion square becomes a general (fers) there or
    // on a square the general steps to, but not where it would attack a piece (d6 attacks
    // c7); SAN names the origin of a promotion onto another square.
    let fen = "6k1/2p5/8/4P3/8/8/8/K7[] w - - 0 1";
    let a = answer("sittuyin", fen, &[]);
    let promotions: Vec<&String> = a.moves.iter().filter(|m| m.len() == 5).collect();
    assert_eq!(promotions, ["e5d4f", "e5e5f", "e5f4f", "e5f6f"]);
    assert!(a.sans.contains(&"e5=F".to_string()) && a.sans.contains(&"e5d4=F".to_string()));
    assert_eq!(
        answer("sittuyin", fen, &["e5d4f"]).fen,
        "6k1/2p5/8/8/3F4/8/8/K7[] b - - 0 1"
    );
    // promotionLimit = f:1: no second general.
    let a = answer("sittuyin", "6k1/8/8/4P3/8/F7/8/K7[] w - - 0 1", &[]);
    assert!(a.moves.iter().all(|m| m.len() == 4), "{:?}", a.moves);
    // With promotions its only moves, a king and pawn may decline them: a draw.
    let a = answer("sittuyin", "1r4n1/6P1/8/8/8/k7/8/K7[] w - - 0 1", &[]);
    assert_eq!(a.moves, ["g7f6f", "g7f8f", "g7g7f", "g7h6f", "g7h8f"]);
    assert_eq!(a.result, Some(Winner::DRAW));
}

#[test]
fn sittuyin_rooks_are_placed_on_the_first_rank() {
    let start = "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1";
    let a = answer("sittuyin", start, &[]);
    let rooks: Vec<&String> = a.moves.iter().filter(|m| m.starts_with("R@")).collect();
    assert_eq!(
        rooks,
        ["R@a1", "R@b1", "R@c1", "R@d1", "R@e1", "R@f1", "R@g1", "R@h1"]
    );
    // The other pieces go anywhere on the first three ranks that is empty.
    assert_eq!(a.moves.len(), 88);
}

#[test]
fn seirawan_pieces_leaving_their_squares_gate_a_piece_from_hand() {
    // seirawan (gating, seirawanGating): a piece leaving an unmoved square of its first rank
    // may bring the hawk or the elephant onto it; castling onto the king's square or the
    // rook's (written rook to king); the castling field keeps the gates (`A`: a1's rook has
    // not moved, although castling queenside is gone with the king's move).
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R[HEhe] w KQAHkqah - 5 10";
    let a = answer("seirawan", fen, &[]);
    let castles: Vec<&String> = a
        .moves
        .iter()
        .filter(|m| {
            (m.starts_with("e1") && (m[2..4] == *"g1" || m[2..4] == *"c1"))
                || ["h1e1h", "h1e1e", "a1e1h", "a1e1e"].contains(&m.as_str())
        })
        .collect();
    assert_eq!(
        castles,
        ["a1e1e", "a1e1h", "e1c1", "e1c1e", "e1c1h", "e1g1", "e1g1e", "e1g1h", "h1e1e", "h1e1h"]
    );
    assert!(a.sans.contains(&"O-O/Eh1".to_string()) && a.sans.contains(&"O-O-O/He1".to_string()));
    assert_eq!(
        answer("seirawan", fen, &["h1e1e"]).fen,
        "r3k2r/8/8/8/8/8/8/R4RKE[Heh] b Akq - 6 10"
    );
    // Taking the a8 rook takes Black's gate there; the gated elephant on a1 gives no check,
    // the rook does.
    let a = answer("seirawan", fen, &["a1a8e"]);
    assert_eq!(a.fen, "R3k2r/8/8/8/8/8/8/E3K2R[Heh] b Kk - 0 10");
    // The last piece in hand gated: no gates are left to write.
    assert_eq!(
        answer("seirawan", "4k3/8/8/8/8/8/8/R3K3[H] w Q - 0 1", &["a1a2h"]).fen,
        "4k3/8/8/8/8/8/R7/H3K3[] b - - 1 1"
    );
}

#[test]
fn ouk_khmer_kings_leap_and_mets_double_step_from_their_first_squares() {
    // cambodian (gating, cambodianMoves): the gates `DE` are the king's and the met's first
    // squares; the king leaps to the rank in front (d1b2, d1f2), the met steps two (e1e3).
    let fen = "4k3/8/8/8/8/8/8/R2KM3 w DE - 0 1";
    let a = answer("cambodian", fen, &[]);
    for m in ["d1b2", "d1f2", "e1e3"] {
        assert!(a.moves.contains(&m.to_string()), "{m}: {:?}", a.moves);
    }
    assert_eq!(a.moves.len(), 18);
    assert_eq!(
        answer("cambodian", fen, &["e1e3"]).fen,
        "4k3/8/8/8/8/4M3/8/R2K4 b D 30 8 1"
    );
    // A rook lining up with the enemy king on its first square takes its leap away.
    let fen = "3k4/8/8/8/8/8/8/3KMR2 w DEd - 0 1";
    assert_eq!(
        answer("cambodian", fen, &["f1f8"]).fen,
        "3k1R2/8/8/8/8/8/8/3KM3 b DE 30 8 1"
    );
    assert_eq!(
        answer("cambodian", fen, &["f1f2"]).fen,
        "3k4/8/8/8/8/8/5R2/3KM3 b DEd 30 8 1"
    );
}

#[test]
fn petrified_kings_neither_capture_nor_guard() {
    // petrified (extinctionPseudoRoyal, petrifyOnCaptureTypes = kqrbn): a king would turn to
    // stone by capturing, so it may not capture, and the enemy king's attacks do not count
    // when a move's safety is judged: the kings may stand side by side.
    let a = answer("petrified", "8/8/8/3k4/8/3K4/8/8 w - - 0 1", &[]);
    assert_eq!(a.moves.len(), 8);
    assert!(a.moves.contains(&"d3d4".to_string()));
    let a = answer("petrified", "8/8/8/3k4/3p4/3K4/8/8 w - - 0 1", &[]);
    assert_eq!(a.moves, ["d3c2", "d3c4", "d3d2", "d3e2", "d3e4"]);
    // A pawn that promotes by capturing moved as a pawn: no stone; a rook that captures is.
    assert_eq!(
        answer("petrified", "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1", &["a7b8q"]).fen,
        "1Q2k3/8/8/8/8/8/8/4K3 b - - 0 1"
    );
    assert_eq!(
        answer("petrified", "1n2k3/8/8/8/8/8/8/1R2K3 w - - 0 1", &["b1b8"]).fen,
        "1*2k3/8/8/8/8/8/8/4K3 b - - 0 1"
    );
}

#[test]
fn wolf_pawns_promote_chess_style_or_to_their_promoted_form() {
    // wolf: the pawn promotes to q w f r b, or (promotedPieceType p:e) to the elephant as a
    // promoted pawn, written `+P` in the FEN, `c9c10e` / `c10=E` (Fairy-Stockfish's UCI
    // `c9c10+`); the custom pawn `s` has the chess-style choices only.
    let fen = "4k3/2P5/8/8/8/8/8/8/8/4K3 w - - 0 1";
    let a = answer("wolf", fen, &[]);
    let promotions: Vec<&String> = a.moves.iter().filter(|m| m.starts_with("c9")).collect();
    assert_eq!(
        promotions,
        ["c9c10b", "c9c10e", "c9c10f", "c9c10q", "c9c10r", "c9c10w"]
    );
    assert!(a.sans.contains(&"c10=E".to_string()), "{:?}", a.sans);
    assert_eq!(
        answer("wolf", fen, &["c9c10e"]).fen,
        "2+P1k3/8/8/8/8/8/8/8/8/4K3 b - - 0 1"
    );
    let a = answer("wolf", "4k3/2S5/8/8/8/8/8/8/8/4K3 w - - 0 1", &[]);
    assert!(!a.moves.iter().any(|m| m.ends_with('e')), "{:?}", a.moves);
}

#[test]
fn caparandom_castles_king_takes_rook_from_any_squares() {
    // caparandom (chess960): castling written king takes rook, the rights as rook files.
    let fen = "r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1";
    let a = answer("caparandom", fen, &[]);
    assert!(a.moves.contains(&"f1j1".to_string()) && a.moves.contains(&"f1a1".to_string()));
    assert_eq!(a.fen, "r4k3r/10/10/10/10/10/10/R4K3R w JAja - 0 1");
    assert_eq!(
        answer("caparandom", fen, &["f1j1"]).fen,
        "r4k3r/10/10/10/10/10/10/R6RK1 b ja - 1 1"
    );
    // The king beside its rook castles queenside onto c1 (over the rook's square).
    let a = answer(
        "caparandom",
        "rk7r/10/10/10/10/10/10/RK7R w KQkq - 0 1",
        &[],
    );
    assert!(a.moves.contains(&"b1a1".to_string()) && a.moves.contains(&"b1j1".to_string()));
}

#[test]
fn a_duck_may_shield_the_castling_kings_path() {
    // atomicduck (Fairy-Stockfish's example file): the bishop on a3 attacks f8, but castling
    // with the duck placed on its diagonal (b4, c5, d6, e7) is legal, as in Fairy-Stockfish,
    // whose legality test counts the wall in the king's path.
    let fen = "rnbqk2r/p1pp1ppp/4p3/1p5*/6n1/BPN4P/2PPPPP1/3QKBNR b Kkq - 2 6";
    let a = answer("atomicduck", fen, &[]);
    let castles: Vec<&String> = a.moves.iter().filter(|m| m.starts_with("e8g8")).collect();
    assert_eq!(
        castles,
        ["e8g8,g8b4", "e8g8,g8c5", "e8g8,g8d6", "e8g8,g8e7"]
    );
    assert_eq!(a.moves.len(), 998);
}

/// What [`judged_at_once_agrees_with_each_alone`] met: positions compared, those where a
/// board move was kept with some walls and refused with others (a duck that shields), those
/// with drops among the moves, those where a plain move of a piece that is not pseudo-royal
/// was refused (a pinned piece leaving its line), and those where such a move was a capture.
#[derive(Debug, Default)]
struct Agreement {
    positions: usize,
    shielded: usize,
    drops: usize,
    pinned: usize,
    pinned_captures: usize,
}

/// Where an added piece only takes attacks away, a walling move's board move is judged once
/// for all its walls, drops are kept without a look while no pseudo-royal piece of the
/// mover is attacked, and plain quiet moves of the other pieces are judged by pins
/// (`Fairy::retain_pseudo_royals_safe`): over random games (a fixed seed), the moves kept
/// are exactly those kept by judging each move on its own.
fn judged_at_once_agrees_with_each_alone(id: &str, games: usize, plies: usize) -> Agreement {
    let v = section(id);
    let mut unfiltered = (*v).clone();
    unfiltered.filters = false;
    let mut random = crate::tests::random_below(0x9E37_79B9_7F4A_7C15);
    let mut met = Agreement::default();
    for _ in 0..games {
        let mut pos = v.parse(v.info().layouts[0].fen.as_str()).expect("fen");
        for _ in 0..plies {
            let mut candidates = RVec::new();
            unfiltered.legal(&pos, &mut candidates);
            let (mut once, mut each) = (candidates.to_vec(), candidates.to_vec());
            v.retain_pseudo_royals_safe(&pos, &mut once, true);
            v.retain_pseudo_royals_safe(&pos, &mut each, false);
            assert_eq!(once, each, "{id}: {}", v.fen(&pos));
            met.positions += 1;
            let board = |m: &Move| crate::walling::base(*m);
            let wall_decides = |m: &&Move| {
                crate::walling::wall_of(**m).is_some()
                    && candidates
                        .iter()
                        .any(|c| board(c) == board(m) && !each.contains(c))
            };
            met.shielded += usize::from(each.iter().any(|m| wall_decides(&m)));
            met.drops += usize::from(candidates.iter().any(|m| m.is_drop()));
            let royal = v.pseudo_royal_pair(&pos)[pos.side_to_move.index()];
            let plain = houserules_plugin_api::MoveFlags::DOUBLE_STEP.0
                | houserules_plugin_api::MoveFlags::CAPTURE.0;
            let pinned =
                |m: &Move| m.flags.0 & !plain == 0 && !royal.contains(m.from) && !each.contains(m);
            met.pinned += usize::from(candidates.iter().any(pinned));
            met.pinned_captures +=
                usize::from(candidates.iter().any(|m| m.is_capture() && pinned(m)));
            let mut legal = RVec::new();
            v.legal(&pos, &mut legal);
            if legal.is_empty() {
                break;
            }
            let m = legal[random(legal.len() as u64) as usize];
            let mut fx = MoveEffects::new(pos.side_to_move, false);
            v.apply(&mut pos, m, &mut fx);
        }
    }
    met
}

#[test]
fn a_board_move_judged_once_keeps_what_each_wall_judged_alone_keeps() {
    assert!(
        section("atomicduck").blast.is_some(),
        "atomicduck: board moves on the bitboards"
    );
    let met = judged_at_once_agrees_with_each_alone("atomicduck", 5, 40);
    assert!(met.positions > 150, "{met:?}");
    assert!(met.shielded > 0, "no duck shielded a board move: {met:?}");
}

#[test]
fn drops_kept_without_a_look_are_those_a_look_keeps() {
    // Mandala: captures go to hand, and its pseudo-royal pieces are its two `j`.
    let met = judged_at_once_agrees_with_each_alone("mandala", 4, 60);
    assert!(met.positions > 150, "{met:?}");
    assert!(met.drops > 40, "{met:?}");
}

#[test]
fn quiet_moves_judged_by_pins_are_those_a_look_keeps() {
    // Two kings, both pseudo-royal, among the chess army's sliders.
    let met = judged_at_once_agrees_with_each_alone("twokings2", 12, 80);
    assert!(met.positions > 600, "{met:?}");
    assert!(met.pinned > 10, "{met:?}");
    assert!(met.pinned_captures > 0, "{met:?}");
}

#[test]
fn moves_tried_on_the_bitboards_are_those_a_copy_keeps() {
    // Pseudo-royal pieces whose safety the generator's bitboards judge without making the
    // move: spartan's duple check (Black's two kings), chak's and quasi-shatranj's hoppers
    // and two-leg pieces, mandala's drops and promotions, mounted's drops of its royal type,
    // gethenian's promotions and demotions of its royal types (marked special for notation),
    // petrified's captures that turn the capturer to stone (its kings, which would, attack
    // nothing), the same with cannons that hop over stones.
    for (id, games, plies) in [
        ("petrified", 8, 80),
        ("stonecannons", 8, 80),
        ("spartan", 8, 80),
        ("chak", 6, 80),
        ("quasi-shatranj", 6, 80),
        ("mandala", 3, 60),
        ("mounted", 6, 60),
        ("gethenian", 6, 60),
    ] {
        assert!(section(id).trials, "{id}");
        let met = judged_at_once_agrees_with_each_alone(id, games, plies);
        assert!(met.positions > 150, "{id}: {met:?}");
    }
}

#[test]
fn a_duck_put_where_an_exploding_capturer_stood_does_not_shield() {
    // atomicduck: the bishop on f5 takes on g4 and explodes, which opens the queen's diagonal
    // e4-g6 to the black king. Fairy-Stockfish takes the explosion from the board before the
    // move, so a duck put on f5 (the bishop's square, next to g4) is blown away too and no
    // capture on g4 is legal (pyffish); a duck put elsewhere on the diagonal does not touch g4.
    let fen = "rn1q1bnr/1pp1p1p1/p1*p1pkp/3B1b2/1PP1QPP1/N6N/P2PP2P/R1B1K2R b KQ - 3 12";
    let a = answer("atomicduck", fen, &[]);
    assert!(
        !a.moves.iter().any(|m| m.starts_with("f5g4")),
        "{:?}",
        a.moves
    );
    // The bishop's other moves off the diagonal may still be shielded by a duck on f5.
    assert!(a.moves.iter().any(|m| m == "f5e6,e6f5"));
}

#[test]
fn a_janggi_cannon_turned_to_stone_becomes_a_screen_for_one() {
    // stonecannons: the black janggi cannon on e8 checks the king on e1 over the knight on
    // e5. The white janggi cannon on a5 takes the knight (over the pawn on c5) and turns to
    // stone, which screens as the knight did, so the capture leaves the king in check; a
    // janggi cannon on e5 would have blocked (one cannon does not hop over another).
    // Fairy-Stockfish (pyffish) gives the king's four moves.
    let a = answer("stonecannons", "4j2k/8/8/J1P1n3/8/8/8/4K3 w - - 0 1", &[]);
    assert_eq!(a.moves, ["e1d1", "e1d2", "e1f1", "e1f2"]);
}

#[test]
fn a_shogi_style_promotion_does_not_change_which_pieces_are_pseudo_royal_for_legality() {
    // shoshogi: Black's king on f8 is in check from the horse on g9. The drunk elephant on c4
    // may promote to a second prince (`promotedPieceType = e:k`), which would end the king's
    // pseudo-royalty, but Fairy-Stockfish's `legal()` applies that rule to chess-style
    // promotions only: promoting leaves the king attacked, so only the king's moves remain
    // (pyffish: f8e9 f8f7 f8g7 f8g9 g8g9).
    let fen = "ln1g2+B1l/4skg2/1pp1p2p1/p2p2p1p/9/2ePPK2P/PP3GPPL/3GER3/LNS3SN1 b - - 0 20";
    let a = answer("shoshogi", fen, &[]);
    assert_eq!(a.moves, ["f8e9", "f8f7", "f8g7", "f8g9", "g8g9"]);
}

#[test]
fn a_pinned_piece_may_not_take_a_pseudo_royal_piece_off_its_line() {
    // twokings2: the rook on e2 shields the king on e1 from the rook on e8. Taking Black's
    // king on a2 leaves the line, and a king taken is no excuse (the rook stands on a2, the
    // king on e1 is attacked); along the file it may go, and take the rook. Fairy-Stockfish
    // (pyffish) gives the same list: e2e3-e2e8 and the kings' moves.
    let a = answer("twokings2", "4r2k/8/8/8/8/8/k3R3/4K1K1 w - - 0 1", &[]);
    let rook: Vec<&str> = a
        .moves
        .iter()
        .filter_map(|m| m.strip_prefix("e2"))
        .collect();
    assert_eq!(rook, ["e3", "e4", "e5", "e6", "e7", "e8"]);
    assert_eq!(a.moves.len(), 15);
}

#[test]
fn a_wall_after_castling_goes_where_king_and_rook_are_not() {
    // Chess960 castling with a walling rule, the king staying on g1 and the rook going from
    // h1 to f1: the wall may go on h1, which the rook left, not on f1, where it stands. A
    // documented difference: Fairy-Stockfish's wall squares place the rook on h1 here and
    // offer f1 (then keeps rook and an unwritten wall together on it).
    let fen = "6k1/8/8/8/8/8/8/6KR w H - 0 1";
    let a = answer("wall960", fen, &[]);
    assert!(a.moves.iter().any(|m| m == "g1h1,h1h1"));
    assert!(!a.moves.iter().any(|m| m == "g1h1,h1f1"));
    let a = answer("wall960", fen, &["g1h1,h1h1"]);
    assert_eq!(a.fen, "6k1/8/8/8/8/8/8/5RK* b - - 1 1");
    // Where the king moves, the two agree: king on g1, rook on f1, f1 and g1 refused.
    let a = answer("wall960", "6k1/8/8/8/8/8/8/5K1R w H - 0 1", &[]);
    let walls: Vec<&str> = a
        .moves
        .iter()
        .filter_map(|m| m.strip_prefix("f1h1,"))
        .collect();
    assert!(walls.contains(&"h1h1") && walls.contains(&"h1e1"));
    assert!(!walls.contains(&"h1f1") && !walls.contains(&"h1g1"));
}

#[test]
fn n_move_piece_sets_are_per_colour() {
    // nMoveRuleTypesBlack = s: Black's `s` resets the counter, White's does not; White's
    // pawn still does.
    let a = answer("khans", "4k3/1P6/8/s7/8/8/8/4K3 b - - 5 9", &["a5b3"]);
    assert_eq!(a.fen, "4k3/1P6/8/8/8/1s6/8/4K3 w - - 0 10");
    let a = answer("khans", "4k3/8/8/8/8/1S6/8/4K3 w - - 5 9", &["b3c5"]);
    assert_eq!(a.fen, "4k3/8/8/2S5/8/8/8/4K3 b - - 6 9");
    let a = answer("khans", "4k3/8/1P6/s7/8/8/8/4K3 w - - 5 9", &["b6b7"]);
    assert_eq!(a.fen, "4k3/1P6/8/s7/8/8/8/4K3 b - - 0 9");
}

#[test]
fn promotion_limits_count_the_pieces_on_the_board() {
    // One queen on the board: no promotion to a queen (q:1); knights are not near theirs.
    let a = answer("limitq", "4k3/P7/8/8/8/8/8/Q3K3 w - - 0 1", &[]);
    assert_eq!(a.moves.len(), 23);
    assert!(a.moves.contains(&"a7a8n".to_string()) && !a.moves.contains(&"a7a8q".to_string()));
    assert!(answer("limitq", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", &[])
        .moves
        .contains(&"a7a8q".to_string()));
    // grand: promotion is optional on ranks 8 and 9 (the pawn may stay a pawn), compulsory on
    // the last; a queen and an archbishop on the board take those choices away.
    let a = answer("grand", "4k5/10/P9/10/10/10/10/10/10/4K5 w - - 0 1", &[]);
    assert_eq!(
        a.moves[..7],
        ["a8a9", "a8a9a", "a8a9b", "a8a9c", "a8a9n", "a8a9q", "a8a9r"]
    );
    let a = answer("grand", "4k5/10/P9/10/10/10/10/10/10/QA2K5 w - - 0 1", &[]);
    assert_eq!(a.moves.len(), 37);
    let promotions: Vec<&String> = a.moves.iter().filter(|m| m.starts_with("a8a9")).collect();
    assert_eq!(promotions, ["a8a9", "a8a9b", "a8a9c", "a8a9n", "a8a9r"]);
    assert_eq!(
        answer("grand", "4k5/P9/10/10/10/10/10/10/10/4K5 w - - 0 1", &[]).moves[..6],
        ["a9a10a", "a9a10b", "a9a10c", "a9a10n", "a9a10q", "a9a10r"]
    );
}

#[test]
fn a_king_with_its_own_moves_still_castles_and_is_checked() {
    let a = answer("centaurking", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", &[]);
    assert_eq!(a.moves.len(), 30);
    for m in ["e1c1", "e1g1", "e1c2", "e1d3", "e1f3", "e1g2"] {
        assert!(a.moves.contains(&m.to_string()), "{m}: {:?}", a.moves);
    }
    // The knight on d2 checks; the king may take it or step off its lines, knight moves too.
    assert_eq!(
        answer("centaurking", "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", &[]).moves,
        ["e1c2", "e1d1", "e1d2", "e1d3", "e1e2", "e1f2", "e1g2"]
    );
}

#[test]
fn connection_lines_squares_and_collinear_pieces() {
    // nineholes: no diagonals (picaria, its parent, has them).
    let fen = "P2/1P1/p2[Ppp] w - - 0 1";
    let a = answer("nineholes", fen, &["P@c1"]);
    assert_eq!((a.moves.len(), a.result), (5, None));
    let a = answer("picaria", fen, &["P@c1"]);
    assert_eq!((a.moves.len(), a.result), (0, Some(Winner::WHITE)));
    let a = answer("nineholes", "PP1/3/p1p[Ppp] w - - 0 1", &["P@c3"]);
    assert_eq!((a.moves.len(), a.result), (0, Some(Winner::WHITE)));
    // teeko: four in a row or a 2 x 2 square.
    let fen = "5/5/5/1PP2/1P3[Pppp] w - - 0 1";
    assert_eq!(answer("teeko", fen, &["P@c1"]).result, Some(Winner::WHITE));
    let a = answer("teeko", fen, &["P@d1"]);
    assert_eq!((a.moves.len(), a.result), (21, None));
    let fen = "5/5/5/1PPP1/5[Pppp] w - - 0 1";
    assert_eq!(answer("teeko", fen, &["P@a2"]).result, Some(Winner::WHITE));
    // three-musketeers: three musketeers on a file, gaps between, lose for their side
    // (connectValue = loss); on a diagonal they do not count.
    let a = answer("three-musketeers", "M4/5/pM3/5/M4 w - - 0 1", &["b3a3"]);
    assert_eq!((a.moves.len(), a.result), (0, Some(Winner::BLACK)));
    let a = answer("three-musketeers", "3Mp/5/2M2/5/M3p w - - 0 1", &["d5e5"]);
    assert_eq!(
        (a.moves, a.result),
        (vec!["e1d1".into(), "e1e2".into()], None)
    );
}

#[test]
fn a_chain_from_region_to_region_connects() {
    // gale: White joins the a-file to the i-file, Black the first rank to the ninth.
    let fen = "1p1p1p1p1/PPPPPPP1P/1p1p1p1p1/P1P1P1P1P/1p1p1p1p1/P1P1P1P1P/1p1p1p1p1/P1P1P1P1P/1p1p1p1p1 w - - 0 1";
    let a = answer("gale", fen, &["P@h8"]);
    assert_eq!((a.moves.len(), a.result), (0, Some(Winner::WHITE)));
    let a = answer("gale", "9/p8/p8/p8/p8/p8/p8/p8/p8 b - - 0 1", &["P@a9"]);
    assert_eq!(
        (a.fen.as_str(), a.result),
        ("p8/p8/p8/p8/p8/p8/p8/p8/p8 w - - 0 2", Some(Winner::BLACK))
    );
    // Without diagonals a piece diagonally beside the chain does not extend it.
    let fen = "9/P8/PPPPPPPP1/9/9/9/9/9/9 w - - 0 1";
    assert_eq!(answer("gale", fen, &["P@i7"]).result, Some(Winner::WHITE));
    let a = answer("gale", fen, &["P@i6"]);
    assert_eq!((a.moves.len(), a.result), (71, None));
    // Fairy-Stockfish grows the chain east and north only: a step north joins, a step
    // south does not.
    let fen = "9/9/9/9/1PPPPPPP1/PP7/9/9/9 w - - 0 1";
    assert_eq!(answer("gale", fen, &["P@i5"]).result, Some(Winner::WHITE));
    let a = answer("gale", "9/9/9/9/PP7/1PPPPPPP1/9/9/9 w - - 0 1", &["P@i4"]);
    assert_eq!((a.moves.len(), a.result), (71, None));
}

#[test]
fn material_counting_decides_draws() {
    // capturethequeen (blackdrawodds): the n-move rule's draw is Black's win.
    let fen = "3q4/8/8/8/8/8/8/1QQ1QQ2 w - - 99 60";
    assert_eq!(answer("capturethequeen", fen, &[]).result, None);
    let a = answer("capturethequeen", fen, &["b1b2"]);
    assert_eq!(a.fen, "3q4/8/8/8/8/8/1Q6/2Q1QQ2 b - - 100 60");
    assert_eq!(a.result, Some(Winner::BLACK));
    // unweighted: more pieces win, as many draw; stalemate too.
    let fen = "4k3/8/8/8/8/8/8/R3K3 w - - 3 60";
    assert_eq!(
        answer("unweighted", fen, &["a1a2"]).result,
        Some(Winner::WHITE)
    );
    let fen = "4k3/r7/8/8/8/8/8/4K3 w - - 3 60";
    assert_eq!(
        answer("unweighted", fen, &["e1e2"]).result,
        Some(Winner::BLACK)
    );
    let fen = "4k3/8/8/8/8/8/8/4K3 w - - 3 60";
    assert_eq!(
        answer("unweighted", fen, &["e1e2"]).result,
        Some(Winner::DRAW)
    );
    let fen = "k7/2Q5/1K6/8/8/8/8/8 b - - 0 60";
    assert_eq!(answer("unweighted", fen, &[]).result, Some(Winner::WHITE));
}

#[test]
fn castling_wins_and_opposite_castling() {
    // castle (castlingWins = q): Black's queenside castling wins, losing that right loses;
    // White's castling decides nothing.
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    let a = answer("castle", fen, &["e1g1"]);
    assert_eq!((a.moves.len(), a.result), (25, None));
    assert_eq!(a.fen, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1");
    let a = answer("castle", fen, &["e1g1", "e8c8"]);
    assert_eq!((a.moves.len(), a.result), (0, Some(Winner::BLACK)));
    assert_eq!(
        answer("castle", fen, &["e1g1", "e8g8"]).result,
        Some(Winner::WHITE)
    );
    assert_eq!(
        answer("castle", fen, &["a1b1", "a8b8"]).result,
        Some(Winner::WHITE)
    );
    assert_eq!(answer("castle", fen, &["a1b1", "h8g8"]).moves.len(), 24);
    // opposite-castling: castling takes the opponent's right on that side.
    let a = answer("opposite-castling", fen, &["e1g1"]);
    assert_eq!(a.fen, "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b q - 1 1");
    assert_eq!(a.moves.len(), 24);
    let a = answer("opposite-castling", fen, &["e1c1", "e8g8"]);
    assert_eq!(a.fen, "r4rk1/pppppppp/8/8/8/8/PPPPPPPP/2KR3R w - - 2 2");
}

#[test]
fn bishops_are_dropped_on_both_colours() {
    // placement: the second bishop goes to the other colour ...
    let fen = "8/pppppppp/8/8/8/8/PPPPPPPP/8[BBbb] w - - 0 1";
    assert_eq!(
        answer("placement", fen, &["B@a1", "B@a8"]).moves,
        ["B@b1", "B@d1", "B@f1", "B@h1"]
    );
    // ... and no other drop may take the last square of a colour a bishop in hand needs.
    let fen = "8/pppppppp/8/8/8/8/PPPPPPPP/RNBQK1NR[BNkqrrbbnn] w - - 0 1";
    assert_eq!(answer("placement", fen, &[]).moves, ["B@f1"]);
    let fen = "8/pppppppp/8/8/8/8/PPPPPPPP/1B1B1B2[NNbb] w - - 0 1";
    assert_eq!(
        answer("placement", fen, &[]).moves,
        ["N@a1", "N@c1", "N@e1", "N@g1", "N@h1"]
    );
}

#[test]
fn dropped_kings_and_rooks_gain_castling_rights() {
    let fen = "8/pppppppp/8/8/8/8/PPPPPPPP/8[KRRkr] w - - 0 1";
    let a = answer("placement", fen, &["K@e1", "K@e8", "R@a1", "R@h8", "R@h1"]);
    assert_eq!(a.fen, "4k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[] b KQk - 0 3");
    assert_eq!(a.moves.len(), 21);
    // A rook dropped before its king gains the right when the king arrives; a king off its
    // file gains none.
    let a = answer("placement", fen, &["R@a1", "K@d8", "K@e1", "R@h8"]);
    assert_eq!(a.fen, "3k3r/pppppppp/8/8/8/8/PPPPPPPP/R3K3[R] w Q - 0 3");
}

#[test]
fn a_king_in_hand_is_not_lost_and_is_not_dropped_into_check() {
    let fen = "8/8/8/8/8/8/8/8[KQRRBBNNPPPPPPPPkqrrbbnnpppppppp] w - - 0 1";
    let a = answer("screen", fen, &[]);
    assert_eq!((a.moves.len(), a.result), (184, None));
    let a = answer("screen", fen, &["Q@b3"]);
    let kings: Vec<&str> = a
        .moves
        .iter()
        .filter(|m| m.starts_with("K@"))
        .map(String::as_str)
        .collect();
    assert_eq!(
        kings,
        [
            "K@a5", "K@a6", "K@a7", "K@a8", "K@c5", "K@c6", "K@c7", "K@c8", "K@d6", "K@d7", "K@d8",
            "K@e5", "K@e7", "K@e8", "K@f5", "K@f6", "K@f8", "K@g5", "K@g6", "K@g7", "K@h5", "K@h6",
            "K@h7", "K@h8"
        ]
    );
    assert_eq!((a.moves.len(), a.result), (176, None));
}

#[test]
fn a_promotion_may_land_where_the_promoted_piece_cannot_move() {
    // mandala: the shogi pawn promotes (mandatorily) to the immobile flag piece on its last
    // rank; Fairy-Stockfish's immobilityIllegal concerns normal moves and drops only.
    let fen = "flg2jbglf/B4j4/2rr1r1Brr/6E3/10/r5r3/3G6/RRRFRJRRRR/1r8/1L2J1BGLF[RRRRe] b - - 1 19";
    let a = answer("mandala", fen, &[]);
    let from_b2: Vec<_> = a
        .moves
        .iter()
        .zip(&a.sans)
        .filter(|(m, _)| m.starts_with("b2"))
        .collect();
    assert_eq!(from_b2.len(), 1, "{from_b2:?}");
    assert_eq!(
        (from_b2[0].0.as_str(), from_b2[0].1.as_str()),
        ("b2b1c", "Rxb1=C")
    );
    let a = answer("mandala", fen, &["b2b1c"]);
    assert_eq!(
        (a.fen.as_str(), a.result),
        (
            "flg2jbglf/B4j4/2rr1r1Brr/6E3/10/r5r3/3G6/RRRFRJRRRR/10/1+r2J1BGLF[RRRRel] w - - 0 20",
            Some(Winner::BLACK)
        )
    );
    // Normal moves and drops still may not: no pawn dropped on its last rank (d10 is empty).
    let a = answer("mandala", &fen.replace(" b - - 1 19", " w - - 1 19"), &[]);
    let drops: Vec<_> = a.moves.iter().filter(|m| m.starts_with("R@")).collect();
    let fsf = [
        "R@d1", "R@d2", "R@d5", "R@d6", "R@d7", "R@d9", "R@f1", "R@f2", "R@f4", "R@f5", "R@f6",
        "R@f7",
    ];
    assert_eq!(drops, fsf);
}

#[test]
fn a_mating_shogi_pawn_drop_is_legal_and_loses() {
    // gorogoroplus (shogiPawnDropMateIllegal): Black's P@d3 mates; Fairy-Stockfish lists it
    // among its 25 moves and scores the mate as White's win.
    let fen = "s3s/g2kL/1G1g1/P3p/G1pKN/S+n+l1S[Ppp] b - - 1 14";
    let a = answer("gorogoroplus", fen, &[]);
    assert_eq!(a.moves.len(), 25);
    assert!(a.moves.iter().any(|m| m == "P@d3"));
    let a = answer("gorogoroplus", fen, &["P@d3"]);
    assert_eq!(
        (a.fen.as_str(), a.moves.len(), a.result),
        (
            "s3s/g2kL/1G1g1/P2pp/G1pKN/S+n+l1S[Pp] w - - 0 15",
            0,
            Some(Winner::WHITE)
        )
    );
    // The same position set up from its FEN: no drop came before, an ordinary checkmate.
    let a = answer(
        "gorogoroplus",
        "s3s/g2kL/1G1g1/P2pp/G1pKN/S+n+l1S[Pp] w - - 0 15",
        &[],
    );
    assert_eq!((a.moves.len(), a.result), (0, Some(Winner::BLACK)));
}

/// The positions after each prefix of `line` from `fen`, where the first move is a double
/// step whose FEN is `stepped` (the en passant right written).
fn double_step_line(
    id: &str,
    fen: &str,
    line: &[&str],
    stepped: &str,
) -> Vec<houserules_plugin_api::Position> {
    assert_eq!(answer(id, fen, &line[..1]).fen, stepped);
    let v = section(id);
    (0..=line.len())
        .map(|i| after_with_last(&v, fen, &line[..i]).0)
        .collect()
}

#[test]
fn an_en_passant_right_no_capture_can_use_does_not_count_for_repetition() {
    // dragon-chess: the custom pawn `p:KifmnD` double-steps, and nothing takes en passant.
    // Fairy-Stockfish writes the right (`b3b4`) and, after the knights' dance, sees the
    // position after b2b4 for the third time (pyffish 0.0.90: `is_optional_game_end` true
    // after the ninth ply, not before), as FIDE's rule does (the same possible moves).
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let line = [
        "b2b4", "a7b6", "g2g3", "b6a7", "g3g2", "a7b6", "g2g3", "b6a7", "g3g2",
    ];
    let stepped = "rnbqkbnr/pppppppp/8/8/1P6/8/P1PPPPPP/RNBQKBNR b KQkq b3b4 0 1";
    let p = double_step_line("dragon-chess", start, &line, stepped);
    for i in [5, 9] {
        assert!(p[1].same_for_repetition(&p[i]), "ply {i}");
        assert_eq!(p[1].repetition_hash(), p[i].repetition_hash(), "ply {i}");
    }
    // The FEN reads back into the same position, the right written again.
    let v = section("dragon-chess");
    let read = v.parse(stepped).expect("fen");
    assert!(read.same_for_repetition(&p[1]));
    assert_eq!(v.fen(&read), stepped);
}

#[test]
fn an_en_passant_right_a_capture_can_use_counts_for_repetition() {
    // A custom pawn that takes en passant (`e`): after b2b4 Black's c4 pawn may take on b3,
    // so that position differs from the same board without the right (FIDE's rule).
    // Fairy-Stockfish counts them as the same (its hash key adds the b-file for b3 and for
    // b4, which cancel): a known difference, docs/fairy.md.
    let start = "rnbqkbnr/pp1ppppp/8/8/2p5/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let line = [
        "b2b4", "g8f6", "g1f3", "f6g8", "f3g1", "g8f6", "g1f3", "f6g8", "f3g1",
    ];
    let stepped = "rnbqkbnr/pp1ppppp/8/8/1Pp5/8/P1PPPPPP/RNBQKBNR b KQkq b3b4 0 1";
    let p = double_step_line("epc", start, &line, stepped);
    assert!(answer("epc", start, &line[..1])
        .moves
        .iter()
        .any(|m| m == "c4b3"));
    assert_eq!(
        answer("epc", start, &line[..2]).fen,
        "rnbqkb1r/pp1ppppp/5n2/8/1Pp5/8/P1PPPPPP/RNBQKBNR w KQkq - 1 2"
    );
    assert_eq!(
        answer("epc", start, &["b2b4", "c4b3"]).fen,
        "rnbqkbnr/pp1ppppp/8/8/8/1p6/P1PPPPPP/RNBQKBNR w KQkq - 0 2"
    );
    assert!(!p[1].same_for_repetition(&p[5]));
    assert!(p[5].same_for_repetition(&p[9]));
}

#[test]
fn a_captured_promoted_piece_goes_to_hand_as_itself_with_drop_loop() {
    // Fairy-Stockfish (pyffish 0.0.90): the queen a pawn became goes to Black's hand as a
    // queen in loop and chessgi (and is written without `~`), as a pawn in crazyhouse.
    let fen = "4k3/1P6/8/8/8/8/7r/4K3[] w - - 0 1";
    let line = ["b7b8q", "e8d7", "b8b2", "h2b2"];
    for (id, promoted, hand) in [
        ("loop", "1Q2k3", "[q]"),
        ("chessgi", "1Q2k3", "[q]"),
        ("crazyhouse", "1Q~2k3", "[p]"),
    ] {
        let a = answer(id, fen, &line[..1]);
        assert_eq!(
            a.fen,
            format!("{promoted}/8/8/8/8/8/7r/4K3[] b - - 0 1"),
            "{id}"
        );
        let a = answer(id, fen, &line);
        assert_eq!(
            a.fen,
            format!("8/3k4/8/8/8/8/1r6/4K3{hand} w - - 0 3"),
            "{id}"
        );
    }
    // Black's queen in hand is dropped as a queen.
    let a = answer("loop", fen, &["b7b8q", "e8d7", "b8b2", "h2b2", "e1f1"]);
    assert!(a.moves.iter().any(|m| m == "Q@e2"), "{:?}", a.moves);
}

#[test]
fn a_king_in_check_may_only_capture_its_checker_under_the_makpong_rule() {
    // Fairy-Stockfish (pyffish 0.0.90): makruk lets the king step out of the rook's check;
    // makpong leaves only the block, and a king next to its checker only the capture.
    let fen = "4r1k1/8/8/8/8/8/3R4/4K3 w - - 0 1";
    assert_eq!(
        answer("makruk", fen, &[]).moves,
        ["d2e2", "e1d1", "e1f1", "e1f2"]
    );
    assert_eq!(answer("makpong", fen, &[]).moves, ["d2e2"]);
    let fen = "8/6k1/8/8/8/8/4r3/4K3 w - - 0 1";
    assert_eq!(answer("makruk", fen, &[]).moves, ["e1d1", "e1e2", "e1f1"]);
    assert_eq!(answer("makpong", fen, &[]).moves, ["e1e2"]);
}

#[test]
fn pawn_types_and_en_passant_types_say_who_takes_en_passant() {
    // Fairy-Stockfish (pyffish 0.0.90): `pawnTypes` also sets `enPassantTypes`, an `e` in a
    // custom piece's Betza adds it, and `enPassantTypes` wins over both, whatever the order of
    // the keys. After b2b4, Black's c4 pawn takes on b3 en passant where it may.
    let fen = "rnbqkbnr/pp1ppppp/8/8/2p5/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for (id, takes) in [
        ("ep-by-pawn-types", true),
        ("ep-without-key", false),
        ("ep-types-not-it", false),
        ("ep-types-first", true),
        ("epc", true),
    ] {
        let a = answer(id, fen, &["b2b4"]);
        assert!(a.fen.contains(" b3b4 "), "{id}: {}", a.fen);
        assert_eq!(
            a.moves.iter().any(|m| m == "c4b3"),
            takes,
            "{id}: {:?}",
            a.moves
        );
    }
}

#[test]
fn a_custom_double_step_beside_pawns_writes_its_right_as_fairy_stockfish_does() {
    // Pawns are recorded only where a pawn could take; a custom piece's double step always
    // (position.cpp `do_move`), here with no capture to use it (pyffish 0.0.90).
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPSPPPP/RNBQKBNR w KQkq - 0 1";
    let a = answer("sergeants", start, &["d2d4"]);
    assert_eq!(
        (a.fen.as_str(), a.moves.len()),
        (
            "rnbqkbnr/pppppppp/8/8/3S4/8/PPP1PPPP/RNBQKBNR b KQkq d3d4 1 1",
            20
        )
    );
    let a = answer("sergeants", start, &["e2e4"]);
    assert_eq!(
        a.fen,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPS1PPP/RNBQKBNR b KQkq - 0 1"
    );
    let a = answer("sergeants", start, &["d2d4", "a7a6", "d4d5", "e7e5"]);
    assert_eq!(
        (a.fen.as_str(), a.moves.len()),
        (
            "rnbqkbnr/1ppp1ppp/p7/3Sp3/8/8/PPP1PPPP/RNBQKBNR w KQkq - 0 3",
            31
        )
    );
}

#[test]
fn a_promotion_limit_keeps_the_parents_limits() {
    // opulent (promotionLimit = n:2 w:2 l:2) keeps grand's rook limit of 2: with two white
    // rooks on the board, b7b8r is not legal (pyffish 0.0.90), the other promotions are.
    let fen = "10/4k5/3b6/RP3R2p1/5p3p/9K/10/10/1L3W1B2/4N5 w - - 1 58";
    let b7: Vec<String> = answer("opulent", fen, &[])
        .moves
        .into_iter()
        .filter(|m| m.starts_with("b7"))
        .collect();
    assert_eq!(
        b7,
        ["b7b8", "b7b8a", "b7b8b", "b7b8c", "b7b8l", "b7b8n", "b7b8q", "b7b8w"]
    );
}
