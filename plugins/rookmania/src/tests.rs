//! Unit tests of the rules, each from a concrete position. Squares of the hourglass:
//!
//! ```text
//! rank 9      c d e
//! rank 8    b c d e f
//! rank 7  a b c d e f g
//! rank 6    b c d e f
//! rank 5      c d e
//! rank 4    b c d e f
//! rank 3  a b c d e f g
//! rank 2    b c d e f
//! rank 1      c d e
//! ```

use super::*;
use houserules_plugin_api::{EventKind, GenRequest, OutcomeContext, SquareSet};

fn rm() -> RookMania {
    RookMania::default()
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap_or_else(|| panic!("bad square {s}"))
}

/// A FEN from a list of (square, letter) with the holes filled in, then `rest`
/// (side, shots, clocks).
fn fen(pieces: &[(&str, char)], rest: &str) -> String {
    for (s, _) in pieces {
        let q = sq(s);
        assert!(
            engine::on_board_fr(q.file() as i32, q.rank() as i32),
            "{s} is a hole"
        );
    }
    let mut rows = Vec::new();
    for r in (0..9u8).rev() {
        let mut row = String::new();
        let mut run = 0;
        for f in 0..7u8 {
            let here = Square::new(f, r);
            let hole = !engine::on_board_fr(f as i32, r as i32);
            let piece = pieces.iter().find(|(s, _)| sq(s) == here).map(|x| x.1);
            if hole || piece.is_some() {
                if run > 0 {
                    row.push_str(&run.to_string());
                    run = 0;
                }
                row.push(if hole { '*' } else { piece.unwrap_or('?') });
            } else {
                run += 1;
            }
        }
        if run > 0 {
            row.push_str(&run.to_string());
        }
        rows.push(row);
    }
    format!("{} {rest}", rows.join("/"))
}

fn pos(f: &str) -> Position {
    rm().parse_fen(f).unwrap_or_else(|e| panic!("{f}: {e}"))
}

fn name(m: &Move) -> String {
    if is_shot(m) {
        format!("{}*{}", m.from, m.to)
    } else {
        format!("{}{}", m.from, m.to)
    }
}

fn legal(f: &str) -> Vec<String> {
    let mut v: Vec<String> = rm().legal_moves(&pos(f)).iter().map(name).collect();
    v.sort();
    v
}

/// Destinations of the ordinary legal moves from `from`.
fn dests(f: &str, from: &str) -> Vec<String> {
    let mut v: Vec<String> = rm()
        .legal_moves(&pos(f))
        .iter()
        .filter(|m| !is_shot(m) && m.from == sq(from))
        .map(|m| m.to.name())
        .collect();
    v.sort();
    v
}

fn set(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn find(f: &str, mv: &str) -> Move {
    let p = pos(f);
    *rm()
        .legal_moves(&p)
        .iter()
        .find(|m| name(m) == mv)
        .unwrap_or_else(|| panic!("{mv} is not legal in {f}: {:?}", legal(f)))
}

/// Plays `mv` (as `d1d2` or `d1*d5`) with events recorded.
fn play(f: &str, mv: &str) -> (Position, MoveEffects) {
    let m = find(f, mv);
    let mut p = pos(f);
    let mut fx = MoveEffects::new(p.side_to_move, true);
    rm().apply(&mut p, m, &mut fx);
    (p, fx)
}

fn fen_after(f: &str, mv: &str) -> String {
    rm().write_fen(&play(f, mv).0)
}

fn in_check(f: &str) -> bool {
    let p = pos(f);
    let b = Board::from_position(&p);
    b.in_check(ci(p.side_to_move))
}

fn outcome(f: &str) -> Option<Outcome> {
    let p = pos(f);
    let v = rm();
    let ctx = OutcomeContext {
        has_legal_moves: !v.legal_moves(&p).is_empty(),
        in_check: in_check(f),
        royals: [1, 1],
        has_royalty: true,
        counting: false,
        repetitions: 1,
        checks_in_cycle: [false; 2],
        reserved: [0; 4],
    };
    v.outcome(&p, &ctx)
}

fn captured_squares(fx: &MoveEffects) -> Vec<String> {
    let mut v: Vec<String> = fx.captured().iter().map(|c| c.square.name()).collect();
    v.sort();
    v
}

// ---------------------------------------------------------------------------------------------
// Board, info, FEN.

#[test]
fn info_board_and_pieces() {
    let v = rm();
    let info = v.info();
    assert_eq!((info.files, info.ranks), (7, 9));
    let letters: String = info.pieces.iter().map(|p| p.letter()).collect();
    assert_eq!(letters, "KRCSBTHP");
    assert_eq!(info.pieces[0].role, Role::KING);
    assert!(info.pieces[0].royal);
    assert_eq!(info.pieces[1].role, Role::ROOK);
    assert_eq!(info.pieces[7].role, Role::PAWN);
    for p in &info.pieces[2..7] {
        assert_eq!(p.role, Role::OTHER);
        assert!(!p.royal);
    }
    assert_eq!(info.layouts[0].id.as_str(), "classic");
    assert_eq!(info.layouts[0].fen.as_str(), START_FEN);
    assert_eq!((info.n_move_rule, info.n_fold_rule), (50, 3));
    let p = pos(START_FEN);
    assert_eq!(p.squares().count(), 43);
    assert!(p.get(sq("a1")).is_hole());
    assert!(p.get(sq("b5")).is_hole());
    assert!(!p.get(sq("a7")).is_hole());
    assert_eq!(p.pieces_of(Color::White).count(), 15);
    assert_eq!(p.pieces_of(Color::Black).count(), 15);
    assert_eq!(p.get(sq("d1")), Cell::piece(kind::KING, Color::White));
    assert_eq!(p.get(sq("b8")), Cell::piece(kind::PAO, Color::Black));
    assert_eq!(p.variant_state[..2], [2, 2]);
}

#[test]
fn fen_round_trips() {
    let v = rm();
    assert_eq!(v.write_fen(&pos(START_FEN)), START_FEN);
    let f = fen(
        &[("d1", 'K'), ("d9", 'k'), ("c5", 'H'), ("f7", 'p')],
        "b 10 7 42",
    );
    let p = pos(&f);
    assert_eq!(p.variant_state[..2], [1, 0]);
    assert_eq!((p.halfmove_clock, p.fullmove_number), (7, 42));
    assert_eq!(p.side_to_move, Color::Black);
    assert_eq!(v.write_fen(&p), f);
    // Clocks (and shots) may be omitted.
    let short = f.split(' ').next().unwrap().to_string() + " w";
    assert_eq!(
        v.write_fen(&pos(&short)),
        f.split(' ').next().unwrap().to_string() + " w 22 0 1"
    );
}

#[test]
fn fen_errors_name_field_and_column() {
    let v = rm();
    let err = |f: &str| v.parse_fen(f).expect_err(f);
    // A piece on a hole (a9), a hole given as a square (a9 as `1`).
    let e = err("K*bkh**/*ctrst*/ppppppp/*5*/**3**/*5*/PPPPPPP/*CTRST*/**BKH** w 22 0 1");
    assert_eq!((e.field, e.column), (0, 0), "{e}");
    let e = err("1*bkh**/*ctrst*/ppppppp/*5*/**3**/*5*/PPPPPPP/*CTRST*/**BKH** w 22 0 1");
    assert_eq!((e.field, e.column), (0, 0), "{e}");
    // b5 (rank 5, file b) written as a square.
    let e = err("**bkh**/*ctrst*/ppppppp/*5*/*4**/*5*/PPPPPPP/*CTRST*/**BKH** w 22 0 1");
    assert_eq!(e.field, 0, "{e}");
    assert!(e.message.contains("b5"), "{e}");
    // Wrong number of ranks, unknown letter.
    assert_eq!(err("**bkh**/*ctrst* w 22 0 1").field, 0);
    let e = err("**bkh**/*ctrsq*/ppppppp/*5*/**3**/*5*/PPPPPPP/*CTRST*/**BKH** w 22 0 1");
    assert_eq!((e.field, e.column), (0, 13), "{e}");
    // Side, shots, clocks, extra field.
    let board = "**bkh**/*ctrst*/ppppppp/*5*/**3**/*5*/PPPPPPP/*CTRST*/**BKH**";
    let n = board.len() as u32;
    let e = err(&format!("{board} x 22 0 1"));
    assert_eq!((e.field, e.column), (1, n + 1), "{e}");
    let e = err(&format!("{board} w 23 0 1"));
    assert_eq!((e.field, e.column), (2, n + 4), "{e}");
    assert!(e.message.contains("pistol"), "{e}");
    let e = err(&format!("{board} w 2 0 1"));
    assert_eq!((e.field, e.column), (2, n + 3), "{e}");
    let e = err(&format!("{board} w 22 - 1"));
    assert_eq!((e.field, e.column), (3, n + 6), "{e}");
    let e = err(&format!("{board} w 22 0 0"));
    assert_eq!((e.field, e.column), (4, n + 8), "{e}");
    let e = err(&format!("{board} w 22 0 1 x"));
    assert_eq!((e.field, e.column), (5, n + 10), "{e}");
    let e = err(&format!("{board}[P] w 22 0 1"));
    assert_eq!(e.field, 0, "{e}");
    // Two kings of one side.
    let e = err(&fen(&[("d1", 'K'), ("e1", 'K'), ("d9", 'k')], "w 22 0 1"));
    assert_eq!(e.field, 0, "{e}");
    // The side that just moved is in check: a White Rook on d2 attacks d9, Black moved.
    let e = err(&fen(&[("c1", 'K'), ("d2", 'R'), ("d9", 'k')], "w 22 0 1"));
    assert_eq!(e.field, 1, "{e}");
}

// ---------------------------------------------------------------------------------------------
// Pawns.

#[test]
fn start_position_moves_are_pawn_moves() {
    assert_eq!(
        legal(START_FEN),
        set(&[
            "b3b4", "c3c4", "c3c5", "c3c6", "d3d4", "d3d5", "d3d6", "e3e4", "e3e5", "e3e6", "f3f4"
        ])
    );
}

#[test]
fn pawn_moves_like_a_rook_and_never_captures_by_displacement() {
    let f = fen(
        &[
            ("e1", 'K'),
            ("e9", 'k'),
            ("d4", 'P'),
            ("a3", 'P'),
            ("d6", 'r'),
        ],
        "w 22 0 1",
    );
    assert_eq!(
        dests(&f, "d4"),
        set(&["d5", "d3", "d2", "d1", "c4", "b4", "e4", "f4"])
    );
}

#[test]
fn pawn_custodian_capture() {
    // b4-d4 lands next to the Rook on d5 with the White pawn d6 behind it.
    let f = fen(
        &[
            ("e1", 'K'),
            ("e9", 'k'),
            ("b4", 'P'),
            ("d6", 'P'),
            ("d5", 'r'),
        ],
        "w 22 5 1",
    );
    let m = find(&f, "b4d4");
    assert!(m.is_capture());
    assert!(!find(&f, "b4c4").is_capture());
    let (p, fx) = play(&f, "b4d4");
    assert_eq!(captured_squares(&fx), vec!["d5"]);
    assert!(p.get(sq("d5")).is_empty());
    assert_eq!(p.get(sq("d4")), Cell::piece(kind::PAWN, Color::White));
    assert_eq!(p.halfmove_clock, 0);
    assert!(fx
        .events
        .iter()
        .any(|e| e.kind == EventKind::CAPTURE && e.square == sq("d5")));
}

#[test]
fn pawn_captures_several_pieces_at_once() {
    // d2-d4: Rook d5 (anvil d6), Twostep e4 (anvil f4), Pao c4 (anvil b4).
    let f = fen(
        &[
            ("e1", 'K'),
            ("e9", 'k'),
            ("d2", 'P'),
            ("d6", 'P'),
            ("f4", 'P'),
            ("b4", 'P'),
            ("d5", 'r'),
            ("e4", 't'),
            ("c4", 'c'),
        ],
        "w 22 0 1",
    );
    let (p, fx) = play(&f, "d2d4");
    assert_eq!(captured_squares(&fx), vec!["c4", "d5", "e4"]);
    assert_eq!(
        fx.events
            .iter()
            .filter(|e| e.kind == EventKind::CAPTURE)
            .count(),
        3
    );
    for s in ["c4", "d5", "e4"] {
        assert!(p.get(sq(s)).is_empty());
    }
}

#[test]
fn pawn_capture_with_frozen_anvil() {
    // The anvil d6 is frozen by the Black Basilisk b6, and still serves.
    let f = fen(
        &[
            ("e1", 'K'),
            ("e9", 'k'),
            ("b4", 'P'),
            ("d6", 'P'),
            ("d5", 'r'),
            ("b6", 'b'),
        ],
        "w 22 0 1",
    );
    assert!(dests(&f, "d6").is_empty(), "d6 is frozen");
    let (_, fx) = play(&f, "b4d4");
    assert_eq!(captured_squares(&fx), vec!["d5"]);
}

#[test]
fn only_a_pawn_is_an_anvil() {
    // A Rook on d6 instead of a pawn: no capture (the pawn g3 keeps White off coordinator mode).
    let f = fen(
        &[
            ("e1", 'K'),
            ("e9", 'k'),
            ("b4", 'P'),
            ("g3", 'P'),
            ("d6", 'R'),
            ("d5", 'r'),
        ],
        "w 22 0 1",
    );
    assert!(!find(&f, "b4d4").is_capture());
    let (p, fx) = play(&f, "b4d4");
    assert!(fx.captured().is_empty());
    assert_eq!(p.get(sq("d5")), Cell::piece(kind::ROOK, Color::Black));
}

#[test]
fn moving_between_two_enemy_pawns_is_safe() {
    let f = fen(
        &[
            ("e1", 'K'),
            ("e9", 'k'),
            ("c4", 'P'),
            ("e4", 'P'),
            ("d6", 'r'),
        ],
        "b 22 0 1",
    );
    let (p, fx) = play(&f, "d6d4");
    assert!(fx.captured().is_empty());
    assert_eq!(p.get(sq("d4")), Cell::piece(kind::ROOK, Color::Black));
    assert_eq!(p.get(sq("c4")), Cell::piece(kind::PAWN, Color::White));
}

#[test]
fn lone_pawn_captures_as_a_coordinator() {
    // White King c1, one pawn e4. e4-e6 takes c6 (rank 6 x King's file) and e1 (file e x
    // King's rank); e4-e5 takes e1 only.
    let f = fen(
        &[
            ("c1", 'K'),
            ("e9", 'k'),
            ("e4", 'P'),
            ("c6", 'c'),
            ("e1", 's'),
        ],
        "w 22 0 1",
    );
    let (_, fx) = play(&f, "e4e6");
    assert_eq!(captured_squares(&fx), vec!["c6", "e1"]);
    let (_, fx) = play(&f, "e4e5");
    assert_eq!(captured_squares(&fx), vec!["e1"]);
    // With a second pawn the same moves are custodian moves and capture nothing.
    let f2 = fen(
        &[
            ("c1", 'K'),
            ("e9", 'k'),
            ("e4", 'P'),
            ("a7", 'P'),
            ("c6", 'c'),
            ("e1", 's'),
        ],
        "w 22 0 1",
    );
    assert!(play(&f2, "e4e6").1.captured().is_empty());
}

#[test]
fn coordinator_uses_a_frozen_kings_square() {
    // The Basilisk d1 freezes the King c1; the lone pawn still coordinates with c1.
    let f = fen(
        &[
            ("c1", 'K'),
            ("e9", 'k'),
            ("e4", 'P'),
            ("c6", 'c'),
            ("d1", 'b'),
            ("e1", 's'),
        ],
        "w 22 0 1",
    );
    assert!(dests(&f, "c1").is_empty(), "the King is frozen");
    let (_, fx) = play(&f, "e4e6");
    assert_eq!(captured_squares(&fx), vec!["c6", "e1"]);
}

#[test]
fn lone_pawn_count_includes_frozen_pawns() {
    // White has two pawns, one of them (a7) frozen by the Black Basilisk c7: that still makes
    // two, so e4-e6 is a custodian move and takes nothing.
    let f = fen(
        &[
            ("c1", 'K'),
            ("e9", 'k'),
            ("e4", 'P'),
            ("a7", 'P'),
            ("c7", 'b'),
            ("c6", 'c'),
            ("e1", 's'),
        ],
        "w 22 0 1",
    );
    assert!(dests(&f, "a7").is_empty());
    assert!(play(&f, "e4e6").1.captured().is_empty());
}

#[test]
fn coordinator_threat_is_check() {
    // White's lone pawn e5 can go to e7: rank 7 meets the White King's file c at c7.
    let f = fen(&[("c1", 'K'), ("c7", 'k'), ("e5", 'P')], "b 22 0 1");
    assert!(in_check(&f));
    let p = pos(&f);
    assert!(rm().is_attacked(&p, sq("c7"), Color::White));
    // With White to move that position is refused: Black would be in check.
    let w = fen(&[("c1", 'K'), ("c7", 'k'), ("e5", 'P')], "w 22 0 1");
    assert_eq!(rm().parse_fen(&w).unwrap_err().field, 1);
}

#[test]
fn pincer_threat_is_check_and_the_mover_is_the_checker() {
    // b4-d4 would trap the King d5 against the pawn d6: check.
    let f = fen(
        &[("e1", 'K'), ("d5", 'k'), ("b4", 'P'), ("d6", 'P')],
        "b 22 0 1",
    );
    assert!(in_check(&f));
    // The anvil d6 is the first piece north of the King but gives no check: no shot.
    assert!(!legal(&f).iter().any(|m| m.contains('*')));
    // A pawn on d3 checks from the King's file (via d4) and may be shot.
    let f = fen(
        &[("e1", 'K'), ("d5", 'k'), ("d3", 'P'), ("d6", 'P')],
        "b 22 0 1",
    );
    assert!(in_check(&f));
    assert!(legal(&f).contains(&"d5*d3".to_string()));
}

// ---------------------------------------------------------------------------------------------
// Rook, Pao, Slip Rook.

#[test]
fn rook_slides_and_holes_stop_it() {
    let f = fen(
        &[("d1", 'K'), ("d9", 'k'), ("a3", 'R'), ("e3", 'r')],
        "w 22 0 1",
    );
    // a4 and a2 are holes.
    assert_eq!(dests(&f, "a3"), set(&["b3", "c3", "d3", "e3"]));
    assert!(find(&f, "a3e3").is_capture());
}

#[test]
fn pao_needs_a_screen_and_holes_are_not_screens() {
    let f = fen(
        &[
            ("d1", 'K'),
            ("e9", 'k'),
            ("a3", 'C'),
            ("c3", 'P'),
            ("e3", 'r'),
            ("g3", 'r'),
            ("b4", 'C'),
            ("b6", 'r'),
        ],
        "w 22 0 1",
    );
    // Over the screen c3 onto e3 (not g3, behind e3); no capture of the adjacent pieces.
    assert_eq!(dests(&f, "a3"), set(&["b3", "e3"]));
    // b4: b5 is a hole, which ends the line and is no screen, so b6 is safe.
    assert_eq!(dests(&f, "b4"), set(&["b3", "b2", "c4", "d4", "e4", "f4"]));
}

#[test]
fn frozen_pieces_still_screen() {
    // The Black Twostep c7 is frozen by the White Basilisk c8 and screens for the Pao a7.
    let f = fen(
        &[
            ("d1", 'K'),
            ("d9", 'k'),
            ("a7", 'C'),
            ("c7", 't'),
            ("c8", 'B'),
            ("e7", 'r'),
        ],
        "w 22 0 1",
    );
    assert!(dests(&f, "a7").contains(&"e7".to_string()));
    let b = fen(
        &[
            ("d1", 'K'),
            ("d9", 'k'),
            ("a7", 'C'),
            ("c7", 't'),
            ("c8", 'B'),
            ("e7", 'r'),
        ],
        "b 22 0 1",
    );
    assert!(dests(&b, "c7").is_empty(), "the Twostep is frozen");
}

#[test]
fn slip_rook_steps_then_leaps() {
    // From d2: d3, leap over the pawn d4 to d5, leap to d7 and capture there; d1, c2, e2
    // (leaps to a2 / g2 would land on holes).
    let f = fen(
        &[
            ("e1", 'K'),
            ("c9", 'k'),
            ("d2", 'S'),
            ("d4", 'P'),
            ("d7", 'r'),
            ("a7", 'P'),
        ],
        "w 22 0 1",
    );
    assert_eq!(dests(&f, "d2"), set(&["d3", "d5", "d7", "d1", "c2", "e2"]));
    assert!(find(&f, "d2d7").is_capture());
    // Leaps pass over holes: b3-b4-(b5 hole)-b6-b8.
    let f = fen(&[("e1", 'K'), ("e9", 'k'), ("b3", 'S')], "w 22 0 1");
    assert_eq!(
        dests(&f, "b3"),
        set(&["b4", "b6", "b8", "b2", "a3", "c3", "e3", "g3"])
    );
    // Captures on the first step; a blocked landing square ends the line.
    let f = fen(
        &[
            ("e1", 'K'),
            ("e9", 'k'),
            ("d4", 'S'),
            ("d5", 'r'),
            ("d3", 'P'),
            ("c4", 'P'),
            ("e4", 'P'),
        ],
        "w 22 0 1",
    );
    assert_eq!(dests(&f, "d4"), set(&["d5"]));
}

// ---------------------------------------------------------------------------------------------
// Basilisk.

#[test]
fn basilisk_immobilizes_the_first_enemy_it_sees() {
    let f = fen(
        &[
            ("d1", 'K'),
            ("e9", 'k'),
            ("d4", 'B'),
            ("d7", 'r'), // north, first piece: frozen
            ("b4", 'b'), // west: a Basilisk, immune
            ("e4", 'P'), // east: own piece blocks the sight
            ("f4", 'p'),
            ("d3", 's'), // south, adjacent: frozen
        ],
        "b 22 0 1",
    );
    assert!(dests(&f, "d7").is_empty());
    assert!(dests(&f, "d3").is_empty());
    assert!(!dests(&f, "b4").is_empty());
    assert!(!dests(&f, "f4").is_empty());
    // The Basilisk does not capture.
    let w = f.replace(" b ", " w ");
    assert!(!dests(&w, "d4").contains(&"d3".to_string()));
    assert!(!dests(&w, "d4").contains(&"d7".to_string()));
    assert_eq!(dests(&w, "d4"), set(&["c4", "d5", "d6"]));
}

#[test]
fn holes_block_a_basilisks_sight() {
    // b4 looks north over the hole b5: the Rook b6 is free.
    let f = fen(
        &[("d1", 'K'), ("e9", 'k'), ("b4", 'B'), ("b6", 'r')],
        "b 22 0 1",
    );
    assert!(!dests(&f, "b6").is_empty());
}

#[test]
fn immobilization_is_recomputed_and_reported() {
    // The Black Rook d7 is frozen by the Basilisk d4 until White blocks the line...
    let f = fen(
        &[
            ("c1", 'K'),
            ("e9", 'k'),
            ("d4", 'B'),
            ("d7", 'r'),
            ("b6", 'R'),
        ],
        "w 22 0 1",
    );
    let after = fen_after(&f, "b6d6");
    assert!(!dests(&after, "d7").is_empty());
    // ... and a piece moving into sight is frozen, with an event.
    let f = fen(
        &[("c1", 'K'), ("e9", 'k'), ("d4", 'B'), ("b7", 'r')],
        "b 22 0 1",
    );
    let (p, fx) = play(&f, "b7d7");
    assert!(fx
        .events
        .iter()
        .any(|e| e.kind == EventKind::IMMOBILIZE && e.square == sq("d7")));
    assert!(dests(&rm().write_fen(&p).replace(" w ", " b "), "d7").is_empty());
    // A Basilisk moving to see an enemy reports it too; f4, already frozen from b4, is not
    // reported again.
    let f = fen(
        &[
            ("c1", 'K'),
            ("e9", 'k'),
            ("b4", 'B'),
            ("d7", 'r'),
            ("f4", 'p'),
            ("c3", 'B'),
        ],
        "w 22 0 1",
    );
    let (_, fx) = play(&f, "b4d4");
    let frozen: Vec<String> = fx
        .events
        .iter()
        .filter(|e| e.kind == EventKind::IMMOBILIZE)
        .map(|e| e.square.name())
        .collect();
    assert_eq!(frozen, vec!["d7"]);
}

#[test]
fn moving_through_a_seen_square_is_allowed() {
    // The White Basilisk d4 sees d5..d9; the Black Rook b7 crosses d7 to e7, f7, g7.
    let f = fen(
        &[("c1", 'K'), ("e9", 'k'), ("d4", 'B'), ("b7", 'r')],
        "b 22 0 1",
    );
    let d = dests(&f, "b7");
    for s in ["c7", "d7", "e7", "f7", "g7"] {
        assert!(d.contains(&s.to_string()), "{s}: {d:?}");
    }
    // The Black Twostep c6 may pass through d6 (seen) on its way to e6.
    let f = fen(
        &[
            ("c1", 'K'),
            ("e9", 'k'),
            ("d4", 'B'),
            ("c6", 't'),
            ("c7", 'p'),
        ],
        "b 22 0 1",
    );
    assert!(dests(&f, "c6").contains(&"e6".to_string()));
}

// ---------------------------------------------------------------------------------------------
// Twostep, Threestep.

#[test]
fn twostep_moves_exactly_two_steps() {
    let f = fen(&[("c1", 'K'), ("e9", 'k'), ("d4", 'T')], "w 22 0 1");
    assert_eq!(
        dests(&f, "d4"),
        set(&["d6", "d2", "b4", "f4", "c5", "e5", "c3", "e3"])
    );
    // One move per destination although c5 is reached via c4 and via d5.
    let n = rm()
        .legal_moves(&pos(&f))
        .iter()
        .filter(|m| m.to == sq("c5"))
        .count();
    assert_eq!(n, 1);
}

#[test]
fn twostep_is_colour_bound() {
    for from in ["d4", "c3", "b8", "e1", "a7", "g3"] {
        let f = fen(&[("c1", 'K'), ("e9", 'k'), (from, 'T')], "w 22 0 1");
        let from = sq(from);
        let parity = (from.file() + from.rank()) % 2;
        for d in dests(&f, &from.name()) {
            let s = sq(&d);
            assert_eq!((s.file() + s.rank()) % 2, parity, "{from}-{d}");
        }
    }
}

#[test]
fn twostep_captures_only_on_the_last_step() {
    // d5 is occupied: d6 cannot be reached (its only path is through d5), d5 is not a
    // destination (one step away), c5 and e5 are reached through c4 and e4.
    let f = fen(
        &[
            ("c1", 'K'),
            ("e9", 'k'),
            ("d4", 'T'),
            ("d5", 'r'),
            ("c5", 'r'),
        ],
        "w 22 0 1",
    );
    let d = dests(&f, "d4");
    assert!(!d.contains(&"d5".to_string()));
    assert!(!d.contains(&"d6".to_string()));
    assert!(d.contains(&"c5".to_string()));
    assert!(find(&f, "d4c5").is_capture());
}

#[test]
fn threestep_reaches_an_adjacent_square() {
    let f = fen(&[("c1", 'K'), ("e9", 'k'), ("d4", 'H')], "w 22 0 1");
    let d = dests(&f, "d4");
    for s in [
        "d5", "d3", "c4", "e4", "d7", "b3", "f3", "c6", "e6", "c2", "e2", "b5",
    ]
    .iter()
    .filter(|s| pos(&f).on_board(sq(s)))
    {
        assert!(d.contains(&s.to_string()), "{s}: {d:?}");
    }
    assert!(!d.contains(&"d4".to_string()));
    assert!(!d.contains(&"d6".to_string()), "distance 2 is out of reach");
    // An adjacent enemy can be taken by a detour, not through an occupied square.
    let f = fen(
        &[
            ("c1", 'K'),
            ("e9", 'k'),
            ("d4", 'H'),
            ("d5", 'r'),
            ("e5", 'r'),
        ],
        "w 22 0 1",
    );
    let d = dests(&f, "d4");
    assert!(d.contains(&"d5".to_string()), "d4-c4-c5-d5: {d:?}");
    // The start position's Threestep is boxed in.
    assert!(dests(START_FEN, "e1").is_empty());
}

#[test]
fn threestep_never_revisits_a_square() {
    // Surrounded on three sides by own pieces, the only exit is d3: d4-d3-(c3|e3|d2)...
    let f = fen(
        &[
            ("c1", 'K'),
            ("e9", 'k'),
            ("d4", 'H'),
            ("c4", 'P'),
            ("e4", 'P'),
            ("d5", 'P'),
        ],
        "w 22 0 1",
    );
    let d = dests(&f, "d4");
    // Paths d3-c3-b3, d3-c3-c2, d3-e3-f3, d3-e3-e2, d3-d2-c2 (dup), d3-d2-e2 (dup),
    // d3-d2-d1, d3-c3-c4 (own), d3-e3-e4 (own).
    assert_eq!(d, set(&["b3", "c2", "f3", "e2", "d1"]));
}

// ---------------------------------------------------------------------------------------------
// King and pistol.

#[test]
fn king_steps_orthogonally_and_captures() {
    let f = fen(
        &[("d5", 'K'), ("d9", 'k'), ("e5", 'r'), ("b8", 'r')],
        "w 22 0 1",
    );
    // No diagonal steps; c5 stays on the Rook's rank, so the King steps to d4, d6 or takes.
    assert_eq!(dests(&f, "d5"), set(&["d4", "d6", "e5"]));
    assert!(find(&f, "d5e5").is_capture());
}

#[test]
fn king_next_to_a_basilisk_is_frozen() {
    // A King orthogonally next to an enemy Basilisk is always in its sight, so it cannot
    // step (and so can never take a Basilisk by a step).
    let f = fen(&[("d5", 'K'), ("d9", 'k'), ("d6", 'b')], "w 22 0 1");
    assert!(dests(&f, "d5").is_empty());
}

#[test]
fn pistol_shot() {
    let f = fen(
        &[("d1", 'K'), ("c9", 'k'), ("d7", 'r'), ("a7", 'P')],
        "w 22 9 5",
    );
    assert!(in_check(&f));
    assert!(legal(&f).contains(&"d1*d7".to_string()));
    let m = find(&f, "d1*d7");
    assert!(m.is_special() && m.is_capture());
    assert_eq!(m.special, SHOT);
    let p = pos(&f);
    let v = rm();
    assert_eq!(v.special_san(&p, m).as_deref(), Some("K*d7"));
    assert_eq!(v.special_coordinate(&p, m).as_deref(), Some("d1*d7"));
    let (after, fx) = play(&f, "d1*d7");
    assert!(after.get(sq("d7")).is_empty());
    assert_eq!(after.get(sq("d1")), Cell::piece(kind::KING, Color::White));
    assert_eq!(after.variant_state[..2], [1, 2]);
    assert_eq!(after.halfmove_clock, 0);
    assert_eq!(captured_squares(&fx), vec!["d7"]);
    assert!(fx
        .events
        .iter()
        .any(|e| e.kind == EventKind::SHOT && e.square == sq("d1") && e.to == sq("d7")));
    assert!(rm().write_fen(&after).contains(" b 12 0 5"));
    // Without shots left there is no shot.
    let f0 = fen(
        &[("d1", 'K'), ("c9", 'k'), ("d7", 'r'), ("a7", 'P')],
        "w 02 9 5",
    );
    assert!(!legal(&f0).iter().any(|m| m.contains('*')));
    // Black's count is separate.
    let fb = fen(
        &[("d9", 'k'), ("c1", 'K'), ("d3", 'R'), ("a3", 'p')],
        "b 20 0 1",
    );
    assert!(!legal(&fb).iter().any(|m| m.contains('*')));
    let fb = fen(
        &[("d9", 'k'), ("c1", 'K'), ("d3", 'R'), ("a3", 'p')],
        "b 01 0 1",
    );
    assert!(legal(&fb).contains(&"d9*d3".to_string()));
    assert!(rm().write_fen(&play(&fb, "d9*d3").0).contains(" w 00 0 2"));
}

#[test]
fn an_immobilized_king_can_still_shoot() {
    // The Basilisk c1 freezes the King d1; the Rook d7 checks. The only way out is a shot.
    let f = fen(
        &[("d1", 'K'), ("c9", 'k'), ("c1", 'b'), ("d7", 'r')],
        "w 22 0 1",
    );
    assert!(dests(&f, "d1").is_empty());
    assert_eq!(legal(&f), set(&["d1*d7"]));
    // And without shots it is mate.
    let f0 = fen(
        &[("d1", 'K'), ("c9", 'k'), ("c1", 'b'), ("d7", 'r')],
        "w 02 0 1",
    );
    assert!(legal(&f0).is_empty());
    assert_eq!(outcome(&f0), Some(Outcome::win(Color::Black, "checkmate")));
}

#[test]
fn basilisks_and_kings_are_immune_to_bullets() {
    // Frozen King d4 next to the Black King d5 (which checks it); the Basilisk b4 is the first
    // piece to the west. Neither may be shot, and White is mated.
    let f = fen(&[("d4", 'K'), ("d5", 'k'), ("b4", 'b')], "w 22 0 1");
    assert!(in_check(&f));
    assert!(legal(&f).is_empty());
    assert_eq!(outcome(&f), Some(Outcome::win(Color::Black, "checkmate")));
}

#[test]
fn shot_targets_must_give_check() {
    // The Rook d7 is frozen by the White Basilisk b7: no check, no shot.
    let f = fen(
        &[("d1", 'K'), ("c9", 'k'), ("d7", 'r'), ("b7", 'B')],
        "w 22 0 1",
    );
    assert!(!in_check(&f));
    assert!(!legal(&f).iter().any(|m| m.contains('*')));
    // A Pao checks over a screen, so it is never the first piece: no shot at it or the screen.
    let f = fen(
        &[
            ("d1", 'K'),
            ("c9", 'k'),
            ("d7", 'c'),
            ("d4", 'p'),
            ("a7", 'p'),
        ],
        "w 22 0 1",
    );
    assert!(in_check(&f));
    assert!(!legal(&f).iter().any(|m| m.contains('*')));
    // A piece that does not attack the King along the line: a Twostep three squares away.
    let f = fen(&[("d1", 'K'), ("c9", 'k'), ("d4", 't')], "w 22 0 1");
    assert!(!in_check(&f));
    assert!(!legal(&f).iter().any(|m| m.contains('*')));
}

#[test]
fn a_shot_must_leave_the_king_safe() {
    // Double check by the Rooks d7 and e1: a shot removes only one of them.
    let f = fen(
        &[
            ("d1", 'K'),
            ("c9", 'k'),
            ("d7", 'r'),
            ("e1", 'r'),
            ("a7", 'p'),
        ],
        "w 22 0 1",
    );
    let l = legal(&f);
    assert!(!l.iter().any(|m| m.contains('*')), "{l:?}");
    assert!(
        l.contains(&"d1e1".to_string()),
        "the King takes e1 and leaves the file"
    );
}

#[test]
fn shot_and_step_capture_are_different_moves() {
    // The Threestep d2 checks the King d1 by d2-c2-c1-d1: it may be shot or taken.
    let f = fen(&[("d1", 'K'), ("c9", 'k'), ("d2", 'h')], "w 22 0 1");
    assert!(in_check(&f));
    let l = legal(&f);
    assert!(
        l.contains(&"d1*d2".to_string()) && l.contains(&"d1d2".to_string()),
        "{l:?}"
    );
    let p = pos(&f);
    let v = rm();
    assert_eq!(
        v.special_san(&p, find(&f, "d1*d2")).as_deref(),
        Some("K*d2")
    );
    assert_eq!(v.special_san(&p, find(&f, "d1d2")), None, "host SAN: Kxd2");
    assert_ne!(fen_after(&f, "d1*d2"), fen_after(&f, "d1d2"));
}

// ---------------------------------------------------------------------------------------------
// Check, results, clocks, notation.

#[test]
fn every_piece_gives_check() {
    let cases: [(&[(&str, char)], bool); 9] = [
        (&[("d1", 'K'), ("d7", 'r')], true),
        (&[("d1", 'K'), ("d7", 'c'), ("d4", 'P')], true),
        (&[("d1", 'K'), ("d7", 'c')], false),
        // Slip Rook d6: d5, leap over d4 to d3, leap to d1.
        (&[("d1", 'K'), ("d6", 's'), ("d4", 'P')], true),
        (&[("d1", 'K'), ("d3", 't')], true),
        (&[("d1", 'K'), ("d4", 'h')], true),
        (&[("d1", 'K'), ("d2", 'b')], false),
        // Threestep e2 is diagonal to d1: an even distance, out of reach.
        (&[("d1", 'K'), ("e2", 'h'), ("e1", 'P'), ("d2", 'P')], false),
        (&[("d1", 'K'), ("c3", 't')], false),
    ];
    for (pieces, check) in cases {
        let mut v = pieces.to_vec();
        v.push(("e9", 'k'));
        let f = fen(&v, "w 22 0 1");
        assert_eq!(in_check(&f), check, "{f}");
    }
}

#[test]
fn stalemate_draws_and_a_pistol_can_break_a_mate() {
    // Black King c9: d9 covered by the Rook d5, c8 by the Rook f8, not in check.
    let f = fen(
        &[("e1", 'K'), ("c9", 'k'), ("d5", 'R'), ("f8", 'R')],
        "b 22 0 1",
    );
    assert!(legal(&f).is_empty());
    assert_eq!(outcome(&f), Some(Outcome::draw("stalemate")));
    // Rooks c5 (checking) and d5: mate without shots; with a shot Black escapes.
    let f = fen(
        &[("e1", 'K'), ("c9", 'k'), ("d5", 'R'), ("c5", 'R')],
        "b 20 0 1",
    );
    assert_eq!(outcome(&f), Some(Outcome::win(Color::White, "checkmate")));
    let f = fen(
        &[("e1", 'K'), ("c9", 'k'), ("d5", 'R'), ("c5", 'R')],
        "b 21 0 1",
    );
    assert_eq!(legal(&f), set(&["c9*c5"]));
    assert_eq!(outcome(&f), None);
}

#[test]
fn clocks() {
    let f = fen(
        &[
            ("e1", 'K'),
            ("e9", 'k'),
            ("a3", 'R'),
            ("g7", 'p'),
            ("a7", 'p'),
            ("g3", 'P'),
        ],
        "b 22 7 3",
    );
    // Quiet non-pawn move: +1; Black moved, so the full-move number goes up.
    let f2 = fen_after(&f, "e9d9");
    assert!(f2.ends_with(" w 22 8 4"), "{f2}");
    // White quiet rook move: +1, same full move.
    let f3 = fen_after(&f2, "a3b3");
    assert!(f3.ends_with(" b 22 9 4"), "{f3}");
    // Pawn move resets.
    let f4 = fen_after(&f3, "g7f7");
    assert!(f4.ends_with(" w 22 0 5"), "{f4}");
    // Capture resets.
    let f5 = fen_after(
        &fen(
            &[("e1", 'K'), ("e9", 'k'), ("a3", 'R'), ("e3", 'r')],
            "w 22 30 9",
        ),
        "a3e3",
    );
    assert!(f5.ends_with(" b 22 0 9"), "{f5}");
}

#[test]
fn pawn_san_is_disambiguated() {
    // Pawns c3 and e5 can both reach c5.
    let f = fen(
        &[
            ("e1", 'K'),
            ("e9", 'k'),
            ("c3", 'P'),
            ("e5", 'P'),
            ("d6", 'r'),
            ("d7", 'P'),
        ],
        "w 22 0 1",
    );
    let p = pos(&f);
    let v = rm();
    let san = |mv: &str| v.special_san(&p, find(&f, mv)).unwrap();
    assert_eq!(san("c3c5"), "cc5");
    assert_eq!(san("e5c5"), "ec5");
    assert_eq!(san("c3c4"), "c4");
    // e5-d5 takes the Rook d6 against d7: a capture names the origin file.
    assert_eq!(san("e5d5"), "exd5");
    // Two pawns on one file both reaching c5: the rank.
    let f = fen(
        &[("e1", 'K'), ("e9", 'k'), ("c3", 'P'), ("c7", 'P')],
        "w 22 0 1",
    );
    let p = pos(&f);
    assert_eq!(v.special_san(&p, find(&f, "c3c5")).unwrap(), "3c5");
    // Non-pawn, non-shot moves use the host's SAN.
    assert_eq!(v.special_san(&p, find(&f, "e1d1")), None);
    assert_eq!(v.special_coordinate(&p, find(&f, "e1d1")), None);
}

#[test]
fn is_attacked_for_any_square() {
    let f = fen(
        &[("e1", 'K'), ("e9", 'k'), ("a3", 'R'), ("e3", 'p')],
        "w 22 0 1",
    );
    let p = pos(&f);
    let v = rm();
    assert!(
        v.is_attacked(&p, sq("e3"), Color::White),
        "occupied by an enemy"
    );
    assert!(v.is_attacked(&p, sq("c3"), Color::White), "empty");
    assert!(!v.is_attacked(&p, sq("f3"), Color::White), "behind e3");
    assert!(!v.is_attacked(&p, sq("e1"), Color::White), "own piece");
    assert!(!v.is_attacked(&p, sq("a1"), Color::White), "a hole");
}

#[test]
fn pseudo_legal_generation_skips_and_ignores_self_check() {
    // The Rook d2 is pinned by the Rook d7: legal generation keeps it on the file, pseudo-legal
    // does not; `skip` leaves it out.
    let f = fen(
        &[("d1", 'K'), ("c9", 'k'), ("d2", 'R'), ("d7", 'r')],
        "w 02 0 1",
    );
    let p = pos(&f);
    let v = rm();
    let gen = |legal: bool, skip: SquareSet| {
        let mut out = RVec::new();
        v.generate(&p, &GenRequest::new(Color::White, legal, skip), &mut out);
        out.iter().map(name).collect::<Vec<_>>()
    };
    assert!(!gen(true, SquareSet::EMPTY).contains(&"d2c2".to_string()));
    assert!(gen(false, SquareSet::EMPTY).contains(&"d2c2".to_string()));
    let skip: SquareSet = [sq("d2")].into_iter().collect();
    assert!(!gen(false, skip).iter().any(|m| m.starts_with("d2")));
    // Black's pseudo-legal moves with White to move.
    let mut out = RVec::new();
    v.generate(
        &p,
        &GenRequest::new(Color::Black, false, SquareSet::EMPTY),
        &mut out,
    );
    assert!(out.iter().any(|m| name(m) == "d7d2"));
}

// ---------------------------------------------------------------------------------------------
// Perft.

fn perft(v: &RookMania, p: &Position, depth: u32) -> u64 {
    if depth == 1 {
        return v.legal_move_count(p);
    }
    v.legal_moves(p)
        .into_iter()
        .map(|m| {
            let mut c = p.clone();
            let mut fx = MoveEffects::new(p.side_to_move, false);
            v.apply(&mut c, m, &mut fx);
            perft(v, &c, depth - 1)
        })
        .sum()
}

#[test]
fn perft_start_position() {
    let v = rm();
    let p = pos(START_FEN);
    assert_eq!(perft(&v, &p, 1), 11);
    assert_eq!(perft(&v, &p, 2), 103);
    assert_eq!(perft(&v, &p, 3), 1624);
    assert_eq!(perft(&v, &p, 4), 24724);
}

#[test]
#[ignore = "slow in debug builds"]
fn perft_start_position_depth_5() {
    let v = rm();
    assert_eq!(perft(&v, &pos(START_FEN), 5), 413215);
}

/// The evaluation terms of a position (White's point of view).
fn terms(pieces: &[(&str, char)], rest: &str) -> i32 {
    rm().evaluate(&pos(&fen(pieces, rest)))
}

#[test]
fn evaluation_is_declared_and_symmetric() {
    assert!(rm().info().flags.contains(VariantFlags::EVALUATES));
    // The start position and its mirror image: no side favoured.
    assert_eq!(rm().evaluate(&pos(START_FEN)), 0);
    // The same position with the colours swapped (board turned round) scores the opposite.
    let white = terms(
        &[
            ("d1", 'K'),
            ("d9", 'k'),
            ("c7", 'R'),
            ("e6", 'T'),
            ("d3", 'P'),
        ],
        "w 21 0 1",
    );
    let black = terms(
        &[
            ("d9", 'k'),
            ("d1", 'K'),
            ("c3", 'r'),
            ("e4", 't'),
            ("d7", 'p'),
        ],
        "b 12 0 1",
    );
    assert_eq!(white, -black);
}

#[test]
fn evaluation_counts_the_kings_flight_squares() {
    // The Black King on d9 (flights c9, e9, d8) with a White Rook on b8, covering d8, or on
    // a7, covering none of them: taking a flight square away is better.
    let cut = terms(&[("d1", 'K'), ("d9", 'k'), ("b8", 'R')], "w 22 0 1");
    let open = terms(&[("d1", 'K'), ("d9", 'k'), ("a7", 'R')], "w 22 0 1");
    assert!(cut > open, "{cut} {open}");
    // A King an enemy Basilisk sees cannot step: worse for its side.
    let frozen = terms(&[("d1", 'K'), ("d9", 'k'), ("d5", 'B')], "w 22 0 1");
    let free = terms(&[("d1", 'K'), ("d9", 'k'), ("c5", 'B')], "w 22 0 1");
    assert!(frozen > free, "{frozen} {free}");
}

#[test]
fn evaluation_values_pistol_shots_and_trades_when_ahead() {
    let pieces = [
        ("d1", 'K'),
        ("d9", 'k'),
        ("b4", 'R'),
        ("f6", 'T'),
        ("b6", 't'),
    ];
    let both = terms(&pieces, "w 22 0 1");
    let white_shot = terms(&pieces, "w 12 0 1");
    assert!(both > white_shot, "{both} {white_shot}");
    // White a Rook ahead: the same lead with fewer pieces left counts more. (The Basilisk on
    // d5 freezes the Black King in both, so that its box is the same.)
    let many = terms(
        &[
            ("d1", 'K'),
            ("d9", 'k'),
            ("b4", 'R'),
            ("d5", 'B'),
            ("f4", 'T'),
            ("f6", 't'),
        ],
        "w 22 0 1",
    );
    let few = terms(
        &[("d1", 'K'), ("d9", 'k'), ("b4", 'R'), ("d5", 'B')],
        "w 22 0 1",
    );
    assert!(few > many, "{few} {many}");
}

#[test]
fn evaluation_boxes_the_enemy_king_when_ahead() {
    // White a Rook and a Twostep ahead against a lone King on d9. The Rook on a7 shuts the
    // King in the top two ranks (8 squares); on e5, as near, it takes the flight e9 but
    // leaves the King the board west of the e-file: the box counts more.
    let boxed = terms(
        &[("d1", 'K'), ("d9", 'k'), ("a7", 'R'), ("f2", 'T')],
        "w 22 0 1",
    );
    let near = terms(
        &[("d1", 'K'), ("d9", 'k'), ("e4", 'R'), ("f2", 'T')],
        "w 22 0 1",
    );
    assert!(boxed > near, "{boxed} {near}");
    // The side ahead's King comes nearer the enemy King: two steps nearer, twice the term.
    let board = |k: &str| {
        engine::Board::from_position(&pos(&fen(
            &[(k, 'K'), ("d9", 'k'), ("a7", 'R'), ("f2", 'T')],
            "w 22 0 1",
        )))
    };
    let (far, near) = (
        eval::box_terms(&board("d1"), 0),
        eval::box_terms(&board("d3"), 0),
    );
    assert_eq!(near - far, 2 * eval::BOX_KING_NEAR);
    // A King a Basilisk freezes has a box of one square, the least there is (the Kings eight
    // steps apart: no nearness counted).
    let frozen = engine::Board::from_position(&pos(&fen(
        &[("d1", 'K'), ("d9", 'k'), ("d5", 'B'), ("f2", 'T')],
        "w 22 0 1",
    )));
    assert_eq!(eval::box_terms(&frozen, 0), eval::BOX_SQUARE * 42);
}
