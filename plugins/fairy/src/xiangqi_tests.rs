//! The xiangqi keys (`soldier` and `soldierPromotionRank`, `mobilityRegion...`,
//! `flyingGeneral`, `king = k:W`, `janggiCannon`): every expected answer is Fairy-Stockfish's (pyffish
//! 0.0.90 `legal_moves` and `gives_check` on the same sections and positions).

use crate::tests::{builtin, from_ini, legal, over_builtins, perft};
use crate::Fairy;
use std::sync::Arc;

const SECTIONS: &str = "
[xqsold:minixiangqi]
soldierPromotionRank = 5
[xqregion:chess]
king = k:W
castling = false
customPiece1 = a:R
mobilityRegionWhiteKing = c1 d1 e1 c2 d2 e2
mobilityRegionBlackKing = c8 d8 e8 c7 d7 e7
mobilityRegionWhiteCustomPiece1 = *1 *2 *3 *4
mobilityRegionBlackCustomPiece1 = *5 *6 *7 *8
[xqdrop:crazyhouse]
mobilityRegionWhiteKnight = *1 *2
mobilityRegionBlackKnight = *7 *8
[xqfly:chess]
flyingGeneral = true
[xqjc:chess]
janggiCannon = c
castling = false
[xqnochase:xiangqi]
chasingRule = none
[xqh:xiangqi]
horse = n
[xqe:xqnochase]
customPiece1 = e:W
[xqhouse:xiangqi]
startFen = rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR[] w - - 0 1
pieceDrops = true
capturesToHand = true
dropChecks = false
";

/// A section of [`SECTIONS`], whose parents may be built-ins.
fn section(id: &str) -> Arc<Fairy> {
    over_builtins(&[("test.ini", SECTIONS)], id).unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// Sorted legal moves (coordinate form) and whether the side to move is in check.
fn answer(id: &str, fen: &str) -> (Vec<String>, bool) {
    let v = section(id);
    let mut moves = legal(&v, fen);
    moves.sort();
    let pos = v.parse(fen).expect("fen");
    (moves, v.gen.in_check(&pos, pos.side_to_move))
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

#[test]
fn soldiers_step_sideways_only_from_their_promotion_rank() {
    // Rank 5 of 7 is White's fourth: no sideways step yet.
    let (moves, _) = answer("xqsold", "3k3/7/7/2P4/7/7/3K3 w - - 0 1");
    assert_eq!(moves, strings(&["d1c1", "d1e1"]));
    // On its fifth rank it steps sideways (the d-file stays closed: d5 faces nothing).
    let (moves, _) = answer("xqsold", "3k3/7/2P4/7/7/7/3K3 w - - 0 1");
    assert_eq!(moves, strings(&["c5d5", "d1c1", "d1e1"]));
    // Minixiangqi keeps the default rank 1: sideways from the start (but not forward
    // into the d-file facing of the kings).
    let v = builtin()
        .get("minixiangqi")
        .expect("known")
        .expect("builds");
    let mut moves = legal(&v, "3k3/7/7/2P4/7/7/3K3 w - - 0 1");
    moves.sort();
    assert_eq!(moves, strings(&["c4d4", "d1c1", "d1e1"]));
    // From the start position: 15 moves, the soldiers only forward.
    let v = section("xqsold");
    let start = v.parse(&v.start_fen).expect("start");
    assert_eq!(legal(&v, &v.start_fen).len(), 15);
    assert_eq!(perft(&v, &start, 1), 15);
}

#[test]
fn unpromoted_soldiers_attack_only_forward() {
    // Black's soldier on d4 (its third rank from home, before its promotion rank) gives
    // check forward; c3 and e3 beside it are safe.
    let (moves, check) = answer("xqsold", "3k3/7/7/3p3/3K3/7/7 w - - 0 1");
    assert!(check);
    assert_eq!(moves, strings(&["d3c3", "d3d2", "d3e3"]));
    // Across the river it checks sideways too; d1 would face the black general.
    let (moves, check) = answer("xqsold", "3k3/7/7/7/7/2p4/2K4 w - - 0 1");
    assert!(check);
    assert_eq!(moves, strings(&["c1c2"]));
}

#[test]
fn mobility_regions_confine_moves_and_attacks() {
    // The king (a wazir here) stays in c1-e2; the rook-like piece in ranks 1-4.
    let (moves, _) = answer("xqregion", "8/8/3k4/8/8/8/3AK3/8 w - - 0 1");
    assert_eq!(
        moves,
        strings(&["d2a2", "d2b2", "d2c2", "d2d1", "d2d3", "d2d4", "e2e1"])
    );
    // Black's king outside its region has no move back into it but by its own steps.
    let (moves, _) = answer("xqregion", "3k4/8/8/8/8/8/3AK3/8 b - - 0 1");
    assert_eq!(moves, strings(&["d8c8", "d8d7", "d8e8"]));
    // Black's piece on d4 may not go below rank 5 and so does not attack d2.
    let (moves, check) = answer("xqregion", "8/3k4/8/8/3a4/8/4K3/8 w - - 0 1");
    assert!(!check);
    assert_eq!(moves, strings(&["e2d2", "e2e1"]));
}

#[test]
fn drops_stay_in_the_mobility_region() {
    let (moves, _) = answer("xqdrop", "4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1");
    let drops: Vec<&String> = moves.iter().filter(|m| m.contains('@')).collect();
    assert_eq!(drops.len(), 15);
    assert!(drops.iter().all(|m| m.ends_with('1') || m.ends_with('2')));
    assert_eq!(moves.len(), 20);
}

#[test]
fn kings_may_not_face_each_other() {
    // e1 and e2 would face the king on e8.
    let (moves, _) = answer("xqfly", "4k3/8/8/8/8/8/8/3K4 w - - 0 1");
    assert_eq!(moves, strings(&["d1c1", "d1c2", "d1d2"]));
    // The rook between them stays on the file.
    let (moves, _) = answer("xqfly", "4k3/8/8/8/4R3/8/8/4K3 w - - 0 1");
    assert_eq!(moves.len(), 11);
    assert!(moves
        .iter()
        .all(|m| !m.starts_with("e4") || m.as_bytes()[2] == b'e'));
    // On a rank too (Fairy-Stockfish tests a rook's line from the king): the knight
    // between them is held.
    let (moves, _) = answer("xqfly", "8/8/8/k4N1K/8/8/8/8 w - - 0 1");
    assert_eq!(moves, strings(&["h5g4", "h5g5", "h5g6", "h5h4", "h5h6"]));
    // Castling may not pass a facing square (f8 faces the king on f1).
    let (moves, _) = answer("xqfly", "r3k2r/8/8/8/8/8/8/R4K2 b kq - 0 1");
    assert_eq!(moves.len(), 23);
    assert!(moves.contains(&"e8c8".to_string()) && !moves.contains(&"e8g8".to_string()));
    // En passant is exempt: Fairy-Stockfish lets exd6 open the file.
    let (moves, _) = answer("xqfly", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert_eq!(
        moves,
        strings(&["e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e5d6", "e5e6"])
    );
}

#[test]
fn mobility_keys_name_pieces_fairy_stockfish_knows() {
    let bad = "[x:chess]\nmobilityRegionWhiteDragon = *1\nmobilityRegionRedKing = *1\n";
    let e = from_ini(bad, "x").expect_err("refused");
    assert!(
        e.contains("mobilityRegionWhiteDragon") && e.contains("`Dragon`"),
        "{e}"
    );
    assert!(e.contains("mobilityRegionRedKing"), "{e}");
}

#[test]
fn janggi_cannons_neither_jump_nor_take_cannons() {
    // A pawn screens the black cannon's check; the pawn's steps keep it screening.
    let (moves, check) = answer("xqjc", "4k3/8/8/4c3/8/8/4P3/C3K3 w - - 0 1");
    assert!(check);
    assert_eq!(moves, strings(&["e1d1", "e1d2", "e1f1", "e1f2"]));
    // The a1 cannon jumps its pawn to a3 but may not take the cannon on a4, nor jump it.
    let (moves, _) = answer("xqjc", "c3k3/8/8/8/c7/8/P7/C3K3 w - - 0 1");
    assert_eq!(
        moves,
        strings(&["a1a3", "a1f1", "a1g1", "a1h1", "a2a3", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"])
    );
    // A cannon is no screen for a cannon: no check through e3.
    let (moves, check) = answer("xqjc", "4k3/8/8/4c3/8/4C3/8/4K3 w - - 0 1");
    assert!(!check);
    assert_eq!(moves.len(), 5);
    // A knight is: every knight move answers the check, the king may not stay on the file.
    let (moves, check) = answer("xqjc", "4k3/8/8/4c3/4N3/8/8/4K3 w - - 0 1");
    assert!(check);
    assert_eq!(moves.len(), 12);
    assert!(!moves.contains(&"e1e2".to_string()));
}

/// A section of `text` that may inherit from the built-ins.
fn child_of_builtins(text: &str, id: &str) -> Result<Arc<Fairy>, String> {
    over_builtins(&[("test.ini", text)], id)
}

#[test]
fn the_chasing_rule_builds_for_xiangqi_s_pieces_only() {
    // The built-in xiangqi plays it, and so does a child (crowdedxiangqi's board).
    let xq = crate::tests::builtin().get("xiangqi").expect("listed");
    assert!(xq.is_ok(), "{:?}", xq.err());
    assert!(xq.expect("builds").chasing.is_some());
    let manchu = crate::tests::builtin().get("manchu").expect("listed");
    assert!(manchu.expect("builds").chasing.is_none());
    // With drops too (xiangqihouse of Fairy-Stockfish's example file).
    assert!(section("xqhouse").chasing.is_some());
    // A piece the rule does not name.
    let e = child_of_builtins("[x:xiangqi]\nqueen = q\n", "x").expect_err("refused");
    assert!(
        e.contains("`axf` knows xiangqi's pieces only, not `queen`"),
        "{e}"
    );
    let e = from_ini("[x:chess]\nchasingRule = asian\n", "x").expect_err("refused");
    assert!(e.contains("`asian` is not a chasing rule"), "{e}");
}

#[test]
fn xiangqi_moves_agree_with_fairy_stockfish_s_perft() {
    // Fairy-Stockfish's `go perft` of its built-in xiangqi (the chasing rule only judges
    // repetitions, so the section without it has the same move tree).
    let v = section("xqnochase");
    let start = v.parse(&v.start_fen).expect("start");
    assert_eq!(
        v.start_fen,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    );
    assert_eq!([1, 2, 3].map(|d| perft(&v, &start, d)), [44, 1920, 79666]);
}

/// SAN of the move `text` (coordinate form) in `fen`.
fn san_of(v: &Fairy, fen: &str, text: &str) -> String {
    let pos = v.parse(fen).expect("fen");
    crate::tests::moves_with_san(v, &pos)
        .into_iter()
        .find(|(c, _)| c == text)
        .unwrap_or_else(|| panic!("{text} is not legal"))
        .1
}

#[test]
fn xiangqi_writes_its_letter_synonyms_in_san_and_reads_them_in_fen() {
    // Fairy-Stockfish's built-in xiangqi: the horse `H`, the elephant `E` in SAN (its
    // `pieceToCharSynonyms`), `N` and `B` in FEN.
    let v = section("xiangqi");
    let start = v.start_fen.clone();
    assert_eq!(san_of(&v, &start, "b1c3"), "Hc3");
    assert_eq!(san_of(&v, &start, "c1e3"), "Ece3");
    assert_eq!(san_of(&v, &start, "b3e3"), "Cbe3");
    let synonyms = "rhbakabhr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1";
    let pos = v.parse(synonyms).expect("synonyms are read");
    assert_eq!(v.fen(&pos), start);
    // A child that redefines the horse drops its synonym; the elephant keeps its own.
    let v = section("xqh");
    assert_eq!(san_of(&v, &start, "b1c3"), "Nc3");
    assert_eq!(san_of(&v, &start, "c1e3"), "Ece3");
    // A letter of its own wins over a synonym in FEN.
    let v = section("xqe");
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/4e4/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let pos = v.parse(fen).expect("fen");
    assert_eq!(v.fen(&pos), fen);
    let e5 = houserules_plugin_api::Square::new(4, 4);
    let kind = pos.get(e5).kind().expect("a piece on e5") as usize;
    assert_eq!(v.kinds[kind].letter, 'E');
}

#[test]
fn letter_synonym_key_errors_name_the_pair() {
    for (value, why) in [
        ("n", "expected a piece letter"),
        ("x:h", "`x` is not a piece letter"),
        ("n:r", "already the letter of `rook`"),
        ("n:1", "a synonym is a letter"),
    ] {
        let text = format!("[bad:chess]\npieceToCharSynonyms = {value}\n");
        let e = match from_ini(&text, "bad") {
            Ok(_) => panic!("`{value}` was accepted"),
            Err(e) => e,
        };
        assert!(e.contains(why) && e.contains("test.ini:2"), "{value}: {e}");
    }
    let v = from_ini("[ok:chess]\npieceToCharSynonyms = n:h\n", "ok").expect("loads");
    let start = v.start_fen.clone();
    assert_eq!(san_of(&v, &start, "g1f3"), "Hf3");
    let v = from_ini(
        "[xq:chess]\npieceToCharSynonyms = n:h\n[cleared:xq]\npieceToCharSynonyms = -\n",
        "cleared",
    )
    .expect("loads");
    assert_eq!(san_of(&v, &start, "g1f3"), "Nf3");
}

/// The pieces the move `text` (coordinate form) chases in `fen` (the variant's move mark),
/// sorted.
fn chased_by(v: &Fairy, fen: &str, text: &str) -> Vec<String> {
    use houserules_plugin_api::{abi_stable::std_types::RVec, MoveEffects, VariantRules};
    let pos = v.parse(fen).expect("fen");
    let mut legal = RVec::new();
    v.legal(&pos, &mut legal);
    let mv = legal
        .iter()
        .copied()
        .find(|&m| crate::tests::coord(v, &pos, m) == text)
        .unwrap_or_else(|| panic!("{text} is not legal in {fen}"));
    let mut after = pos.clone();
    v.apply(
        &mut after,
        mv,
        &mut MoveEffects::new(pos.side_to_move, false),
    );
    let mut out: Vec<String> = v
        .move_mark(&pos, mv, &after)
        .iter()
        .map(|s| s.to_string())
        .collect();
    out.sort();
    out
}

#[test]
fn a_drop_chases_with_every_attack_of_the_dropped_piece() {
    // Fairy-Stockfish's `chased()` reads a drop's origin square, which is `SQ_NONE`, from its
    // tables (out of bounds); houserules judges a drop as a piece with no attacks before.
    let v = section("xqhouse");
    let cases: [(&str, &str, &[&str]); 5] = [
        // A horse dropped beside an unprotected rook.
        ("5k3/9/9/3r5/9/9/9/9/9/4K4[N] w - - 0 1", "N@c5", &["d7"]),
        // A rook dropped on the file of an unprotected horse: the whole file is new, where a
        // rook moving along that file only keeps its attack.
        ("5k3/9/1n7/9/9/9/9/9/9/4K4[R] w - - 0 1", "R@b5", &["b8"]),
        ("5k3/9/1n7/9/9/9/9/9/9/1R2K4 w - - 0 1", "b1b5", &[]),
        // A soldier dropped as a cannon's screen uncovers the cannon's attack on the rook;
        // dropped off the cannon's file, it chases nothing.
        ("5k3/r8/9/9/9/9/9/9/C8/4K4[P] w - - 0 1", "P@a5", &["a9"]),
        ("5k3/r8/9/9/9/9/9/9/C8/4K4[P] w - - 0 1", "P@c5", &[]),
    ];
    for (fen, mv, want) in cases {
        assert_eq!(chased_by(&v, fen, mv), want, "{mv} in {fen}");
    }
}

/// With one king against one on a common rank or file, the flying general's test for a move
/// that is neither the king's nor a castle is answered from the pieces between the kings,
/// counted once a position (`KingsLine`): over random games (a fixed seed) it gives the
/// scan's answer for every such move, and some of them do leave the kings facing.
#[test]
fn the_kings_line_answers_as_the_scan_from_the_king_does() {
    use houserules_plugin_api::abi_stable::std_types::RVec;
    use houserules_plugin_api::{MoveEffects, VariantRules};
    let (mut compared, mut facing, mut drops) = (0, 0, 0);
    let mut random = crate::tests::random_below(0x2545_F491_4F6C_DD1D);
    for id in ["xiangqi", "janggi", "xqhouse", "xqfly", "minixiangqi"] {
        let v = section(id);
        let mut unfiltered = (*v).clone();
        unfiltered.filters = false;
        for _ in 0..8 {
            let mut pos = v.parse(v.info().layouts[0].fen.as_str()).expect("fen");
            for _ in 0..150 {
                let us = pos.side_to_move;
                let king = v.king_square(&pos, us);
                let theirs = v.king_squares(&pos, us.opposite());
                if let (Some(a), Some(b)) = (king, theirs.iter().next()) {
                    if theirs.len() == 1 && (a.file() == b.file() || a.rank() == b.rank()) {
                        let line = v.kings_line(&pos, a, b);
                        let mut candidates = RVec::new();
                        unfiltered.legal(&pos, &mut candidates);
                        for m in candidates
                            .iter()
                            .filter(|m| !m.is_castle() && Some(m.from) != king)
                        {
                            let scan = v.kings_face_after(&pos, *m, king);
                            assert_eq!(line.faces_after(m), scan, "{id} {} {m:?}", v.fen(&pos));
                            compared += 1;
                            facing += usize::from(scan);
                            drops += usize::from(m.is_drop());
                        }
                    }
                }
                let mut legal = RVec::new();
                v.legal(&pos, &mut legal);
                if legal.is_empty() {
                    break;
                }
                let m = legal[random(legal.len() as u64) as usize];
                let mut fx = MoveEffects::new(us, false);
                v.apply(&mut pos, m, &mut fx);
            }
        }
    }
    assert!(
        compared > 5000 && facing > 50 && drops > 100,
        "{compared} moves, {facing} facing, {drops} drops"
    );
}
