//! Scenarios of `pieceDemotion`, `dropPromoted` and `piecePromotionOnCapture` (see
//! [`crate::demotion`], [`crate::drop_promoted`], [`crate::promotion_on_capture`]). Every
//! expected answer is Fairy-Stockfish's (pyffish 0.0.90: `legal_moves`, `get_fen`, `get_san`
//! with standard SAN, on the same sections, FEN and moves); moves in houserules' coordinate
//! form (Fairy-Stockfish's `e5e6+` / `e5e6-` are `e5e6c` / `e5e6p`, the letter SAN writes
//! after `=`).

use crate::rule_tests::after;
use crate::tests::{from_ini, moves_with_san};
use crate::Fairy;
use std::sync::Arc;

/// `chennis`, `gethenian` and `cetus` of Fairy-Stockfish's variants.ini (comments left
/// out), and two sections of these keys' other settings.
pub(crate) const SECTIONS: &str = "
[chennis]
maxRank = 7
maxFile = 7
mobilityRegionWhiteKing = b1 c1 d1 e1 f1 b2 c2 d2 e2 f2 b3 c3 d3 e3 f3 b4 c4 d4 e4 f4
mobilityRegionBlackKing = b4 c4 d4 e4 f4 b5 c5 d5 e5 f5 b6 c6 d6 e6 f6 b7 c7 d7 e7 f7
customPiece1 = p:fmWfceF
cannon = c
commoner = m
fers = f
soldier = s
king = k
bishop = b
knight = n
rook = r
promotionPieceTypes = -
promotedPieceType = p:r f:c s:b m:n
promotionRegionWhite = *1 *2 *3 *4 *5 *6 *7
promotionRegionBlack = *7 *6 *5 *4 *3 *2 *1
startFen = 1fkm3/1p1s3/7/7/7/3S1P1/3MKF1[] w - 0 1
pieceDrops = true
capturesToHand = true
pieceDemotion = true
mandatoryPiecePromotion = true
dropPromoted = true
castling = false
stalemateValue = loss
[cetus]
maxRank = 9
maxFile = 9
wazir = o
fers = k
customPiece1 = b:mQ3
customPiece2 = n:mF
customPiece3 = p:mW
customPiece4 = h:mB3
customPiece5 = s:mR3
customPiece6 = d:mN
startFen = 9/9/9/1b7/9/9/9/2B6/9[PPNHSDOppnnhhssdo]
pieceDrops = true
extinctionValue = loss
extinctionPieceTypes = b
piecePromotionOnCapture = true
mandatoryPiecePromotion = true
pieceDemotion = true
promotedPieceType = o:k
castling = false
connectN = 5
promotionRegionWhite = *1 *2 *3 *4 *5 *6 *7 *8 *9
promotionRegionBlack = *9 *8 *7 *6 *5 *4 *3 *2 *1
[gethenian]
maxRank = 7
maxFile = 7
king = -
customPiece1 = k:K
customPiece2 = q:mW
customPiece3 = b:lfrbB
customPiece4 = i:rflbB
customPiece5 = r:lrR
customPiece6 = n:hlN
customPiece7 = t:hrN
customPiece8 = m:WfF
customPiece9 = s:FfW
startFen = 2ikb2/2mnm2/7/7/7/2MNM2/2B+KI2[] w - - 0 1
promotionPieceTypes = -
promotedPieceType = k:q b:r i:r n:t m:s
promotionRegionWhite = *1 *2 *3 *4 *5 *6 *7
promotionRegionBlack = *7 *6 *5 *4 *3 *2 *1
mandatoryPiecePromotion = true
pieceDemotion = true
pieceDrops = true
capturesToHand = true
dropPromoted = true
immobilityIllegal = false
extinctionValue = loss
extinctionPieceTypes = kq
extinctionPseudoRoyal = true
stalemateValue = loss
[zonedemote:chennis]
promotionRegionWhite = *6 *7
promotionRegionBlack = *1 *2
mandatoryPiecePromotion = false
[cetusfree:cetus]
mandatoryPiecePromotion = false
";

fn section(id: &str) -> Arc<Fairy> {
    from_ini(SECTIONS, id).unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// The FEN after `moves`, and the legal moves whose coordinate form starts with one of
/// `only` (all with `only` empty) with their SAN (without check marks: the host adds them),
/// sorted.
fn answer(id: &str, fen: &str, moves: &[&str], only: &[&str]) -> (String, Vec<(String, String)>) {
    let v = section(id);
    let pos = after(&v, fen, moves);
    let mut rows = moves_with_san(&v, &pos);
    rows.retain(|(c, _)| only.is_empty() || only.iter().any(|o| c.starts_with(o)));
    (v.fen(&pos), rows)
}

fn rows(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(c, s)| (c.to_string(), s.to_string()))
        .collect()
}

#[test]
fn every_move_of_a_chennis_piece_promotes_or_demotes() {
    let start = "1fkm3/1p1s3/7/7/7/3S1P1/3MKF1[] w - 0 1";
    let (fen, moves) = answer("chennis", start, &[], &[]);
    assert_eq!(fen, "1fkm3/1p1s3/7/7/7/3S1P1/3MKF1[] w - - 1 1");
    assert_eq!(
        moves,
        rows(&[
            ("d1c1n", "Mc1=N"),
            ("d1c2n", "Mc2=N"),
            ("d1e2n", "Me2=N"),
            ("d2c2b", "Sc2=B"),
            ("d2d3b", "Sd3=B"),
            ("d2e2b", "Se2=B"),
            ("e1e2", "Ke2"),
            ("f1e2c", "Fe2=C"),
            ("f1g2c", "Fg2=C"),
            ("f2f3r", "Pf3=R"),
        ])
    );
    // The promoted fers is a cannon written `+F`; neither promotions nor demotions reset
    // the n-move counter.
    let (fen, _) = answer("chennis", start, &["f1e2c"], &[]);
    assert_eq!(fen, "1fkm3/1p1s3/7/7/7/3S+FP1/3MK2[] b - - 2 1");
    // It demotes on every move (compulsory): no plain cannon move is left.
    let (fen, moves) = answer("chennis", start, &["f1e2c", "b7c6c"], &["e2"]);
    assert_eq!(fen, "2km3/1p+fs3/7/7/7/3S+FP1/3MK2[] w - - 3 2");
    assert_eq!(
        moves,
        rows(&[
            ("e2e3f", "Ce3=F"),
            ("e2e4f", "Ce4=F"),
            ("e2e5f", "Ce5=F"),
            ("e2e6f", "Ce6=F"),
            ("e2e7f", "Ce7=F"),
        ])
    );
}

#[test]
fn a_captured_promoted_piece_goes_to_hand_unpromoted_and_may_be_dropped_promoted() {
    let fen = "1fk4/7/7/3+p3/3S3/7/4K2[] w - - 0 1";
    let (_, moves) = answer("chennis", fen, &[], &["d3"]);
    assert_eq!(
        moves,
        rows(&[("d3c3b", "Sc3=B"), ("d3d4b", "Sxd4=B"), ("d3e3b", "Se3=B")])
    );
    // The promoted pawn (a rook) is taken: a pawn in White's hand.
    let (taken, _) = answer("chennis", fen, &["d3d4b"], &[]);
    assert_eq!(taken, "1fk4/7/7/3+S3/7/7/4K2[P] b - - 0 1");
    // The pawn is dropped as a pawn or as a rook (`+P@`, SAN with the rook's letter).
    let (_, moves) = answer("chennis", fen, &["d3d4b", "c7d7"], &["P@a", "+P@a"]);
    let expected: Vec<(String, String)> = (1..=7)
        .flat_map(|r| {
            [
                (format!("+P@a{r}"), format!("R@a{r}")),
                (format!("P@a{r}"), format!("P@a{r}")),
            ]
        })
        .collect();
    let mut expected = expected;
    expected.sort();
    assert_eq!(moves, expected);
    let (dropped, moves) = answer("chennis", fen, &["d3d4b", "c7d7", "+P@a1"], &[]);
    assert_eq!(dropped, "1f1k3/7/7/3+S3/7/7/+P3K2[] b - - 0 2");
    assert_eq!(moves.len(), 7);
    // Its FEN reads back the same.
    let v = section("chennis");
    assert_eq!(v.fen(&v.parse(&dropped).expect("fen")), dropped);
}

#[test]
fn promoted_drops_ignore_the_zone_and_demote_by_moving_from_or_into_it() {
    // Zones of the last two ranks; promotions and demotions optional.
    let fen = "1fk4/7/7/7/7/7/4K2[P] w - - 0 1";
    let (_, moves) = answer("zonedemote", fen, &[], &["P@a1", "+P@a1", "P@a7", "+P@a7"]);
    assert_eq!(
        moves,
        rows(&[
            ("+P@a1", "R@a1"),
            ("+P@a7", "R@a7"),
            ("P@a1", "P@a1"),
            ("P@a7", "P@a7"),
        ])
    );
    // Dropped outside the zone, the rook demotes only by moving into it.
    let (fen, moves) = answer("zonedemote", fen, &["+P@a1", "c7d7"], &["a1"]);
    assert_eq!(fen, "1f1k3/7/7/7/7/7/+P3K2[] w - - 1 2");
    assert_eq!(
        moves,
        rows(&[
            ("a1a2", "Ra2"),
            ("a1a3", "Ra3"),
            ("a1a4", "Ra4"),
            ("a1a5", "Ra5"),
            ("a1a6", "Ra6"),
            ("a1a6p", "Ra6=P"),
            ("a1a7", "Ra7"),
            ("a1a7p", "Ra7=P"),
            ("a1b1", "Rb1"),
            ("a1c1", "Rc1"),
            ("a1d1", "Rd1"),
        ])
    );
    // Dropped in the zone, every move out of it may demote.
    let (_, moves) = answer(
        "zonedemote",
        "1fk4/7/7/7/7/7/4K2[P] w - - 0 1",
        &["+P@a6", "c7d7"],
        &["a6a1", "a6d6"],
    );
    assert_eq!(
        moves,
        rows(&[
            ("a6a1", "Ra1"),
            ("a6a1p", "Ra1=P"),
            ("a6d6", "Rd6"),
            ("a6d6p", "Rd6=P")
        ])
    );
    let (fen, _) = answer(
        "zonedemote",
        "1fk4/7/7/7/7/7/4K2[P] w - - 0 1",
        &["+P@a1", "c7d7", "a1a6p"],
        &[],
    );
    assert_eq!(fen, "1f1k3/P6/7/7/7/7/4K2[] b - - 2 2");
}

#[test]
fn cetus_promotes_and_demotes_on_captures_only() {
    let fen = "9/9/9/1b7/9/2p6/2O6/2B6/9[] w - - 0 1";
    // The wazir must promote when it captures; its quiet moves stay plain.
    let (_, moves) = answer("cetus", fen, &[], &["c3"]);
    assert_eq!(
        moves,
        rows(&[("c3b3", "Ob3"), ("c3c4k", "Oxc4=K"), ("c3d3", "Od3")])
    );
    // Promoted, it moves as a fers, quietly without demoting.
    let (fen2, moves) = answer("cetus", fen, &["c3c4k", "b6a5"], &["c4"]);
    assert_eq!(fen2, "9/9/9/9/b8/2+O6/9/2B6/9[] w - - 1 2");
    assert_eq!(
        moves,
        rows(&[
            ("c4b3", "Kb3"),
            ("c4b5", "Kb5"),
            ("c4d3", "Kd3"),
            ("c4d5", "Kd5")
        ])
    );
    // Capturing, it must demote.
    let fen = "9/9/9/1b7/1p7/2+O6/9/2B6/9[] w - - 0 1";
    let (_, moves) = answer("cetus", fen, &[], &["c4"]);
    assert_eq!(
        moves,
        rows(&[
            ("c4b3", "Kb3"),
            ("c4b5o", "Kxb5=O"),
            ("c4d3", "Kd3"),
            ("c4d5", "Kd5")
        ])
    );
    let (after_capture, _) = answer("cetus", fen, &["c4b5o"], &[]);
    assert_eq!(after_capture, "9/9/9/1b7/1O7/9/9/2B6/9[] b - - 0 1");
}

#[test]
fn without_compulsory_promotion_a_capture_may_promote_or_not() {
    let (_, moves) = answer(
        "cetusfree",
        "9/9/9/1b7/9/2p6/2O6/2B6/9[] w - - 0 1",
        &[],
        &["c3"],
    );
    assert_eq!(
        moves,
        rows(&[
            ("c3b3", "Ob3"),
            ("c3c4", "Oxc4"),
            ("c3c4k", "Oxc4=K"),
            ("c3d3", "Od3")
        ])
    );
    let (_, moves) = answer(
        "cetusfree",
        "9/9/9/1b7/1p7/2+O6/9/2B6/9[] w - - 0 1",
        &[],
        &["c4"],
    );
    assert_eq!(
        moves,
        rows(&[
            ("c4b3", "Kb3"),
            ("c4b5", "Kxb5"),
            ("c4b5o", "Kxb5=O"),
            ("c4d3", "Kd3"),
            ("c4d5", "Kd5"),
        ])
    );
}

#[test]
fn gethenian_s_promoted_king_is_pseudo_royal_and_every_move_promotes() {
    let start = "2ikb2/2mnm2/7/7/7/2MNM2/2B+KI2[] w - - 0 1";
    let (fen, moves) = answer("gethenian", start, &[], &["c2", "d1", "d2"]);
    assert_eq!(fen, start);
    assert_eq!(
        moves,
        rows(&[
            ("c2b2s", "Mb2=S"),
            ("c2b3s", "Mb3=S"),
            ("c2c3s", "Mc3=S"),
            ("c2d3s", "Mcd3=S"),
            ("d2b1t", "Nb1=T"),
            ("d2c4t", "Nc4=T"),
            ("d2f3t", "Nf3=T"),
        ])
    );
    let (fen, moves) = answer("gethenian", start, &["d2c4t"], &["c6", "d6"]);
    assert_eq!(fen, "2ikb2/2mnm2/7/2+N4/7/2M1M2/2B+KI2[] b - - 1 1");
    assert_eq!(
        moves,
        rows(&[
            ("c6b5s", "Mb5=S"),
            ("c6b6s", "Mb6=S"),
            ("c6c5s", "Mc5=S"),
            ("c6d5s", "Mcd5=S"),
            ("d6b5t", "Nb5=T"),
            ("d6e4t", "Ne4=T"),
            ("d6f7t", "Nf7=T"),
        ])
    );
}

#[test]
fn what_fairy_stockfish_would_play_wrong_is_refused() {
    let e = from_ini(
        "[demotingpawns:chess]\npieceDemotion = true\n",
        "demotingpawns",
    )
    .expect_err("refused");
    assert!(
        e.contains("pieceDemotion") && e.contains("chess-style"),
        "{e}"
    );
    let e = from_ini(
        "[pawncapture:chess]\npromotedPieceType = p:q\npiecePromotionOnCapture = true\n",
        "pawncapture",
    )
    .expect_err("refused");
    assert!(e.contains("piecePromotionOnCapture"), "{e}");
}
