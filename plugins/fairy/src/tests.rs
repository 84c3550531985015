//! In-process tests: perft of the seed variants, key semantics, error messages.

use crate::{Fairy, Registry};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    Color, Move, MoveEffects, OutcomeContext, Position, VariantRules, Winner,
};
use std::sync::Arc;

pub(crate) fn builtin() -> Registry {
    Registry::load(&[])
}

fn variant(id: &str) -> Arc<Fairy> {
    builtin().get(id).expect("known").expect("builds")
}

pub(crate) fn from_ini(text: &str, id: &str) -> Result<Arc<Fairy>, String> {
    Registry::from_sources(&[("test.ini".to_string(), text.to_string())])
        .get(id)
        .expect("section exists")
}

/// Section `id` of `files` (name and text), read after the built-ins and in order, so a
/// section may build on the built-ins and on the files before its own.
pub(crate) fn over_builtins(files: &[(&str, &str)], id: &str) -> Result<Arc<Fairy>, String> {
    let mut sources: Vec<(String, String)> = crate::BUILTIN
        .iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect();
    sources.extend(files.iter().map(|(n, t)| (n.to_string(), t.to_string())));
    Registry::from_sources(&sources)
        .get(id)
        .unwrap_or_else(|| panic!("{id}: no such section"))
}

pub(crate) fn perft(v: &Fairy, pos: &Position, depth: u32) -> u64 {
    v.perft(pos, depth)
}

pub(crate) fn legal(v: &Fairy, fen: &str) -> Vec<String> {
    let pos = v.parse(fen).expect("fen");
    let mut moves = RVec::new();
    v.legal(&pos, &mut moves);
    moves.iter().map(|&m| coord(v, &pos, m)).collect()
}

/// The legal moves in `pos`, coordinate form with their SAN (without check marks: the host
/// adds them), sorted.
pub(crate) fn moves_with_san(v: &Fairy, pos: &Position) -> Vec<(String, String)> {
    let mut legal = RVec::new();
    v.legal(pos, &mut legal);
    let mut rows: Vec<(String, String)> = legal
        .iter()
        .map(|&m| (coord(v, pos, m), v.san(pos, m)))
        .collect();
    rows.sort();
    rows
}

pub(crate) fn coord(v: &Fairy, pos: &Position, m: Move) -> String {
    if m.is_drop() && !m.is_special() {
        return format!("{}@{}", v.kinds[m.piece as usize].letter, m.to);
    }
    v.special_coordinate(pos, m).unwrap_or_else(|| {
        let promo = if m.is_promotion() {
            v.kinds[m.piece as usize]
                .san_letter
                .to_ascii_lowercase()
                .to_string()
        } else {
            String::new()
        };
        format!("{}{}{promo}", m.from, m.to)
    })
}

/// A xorshift generator from `seed` giving numbers below the bound asked, for the unit
/// tests' random boards and games.
pub(crate) fn random_below(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |n| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    }
}

pub(crate) fn ctx(
    has_legal_moves: bool,
    in_check: bool,
    repetitions: u32,
    checks: [bool; 2],
) -> OutcomeContext {
    OutcomeContext {
        has_legal_moves,
        in_check,
        royals: [1, 1],
        has_royalty: true,
        counting: false,
        repetitions,
        checks_in_cycle: checks,
        reserved: [0; 4],
    }
}

#[test]
fn perft_seed_variants_shallow() {
    let t = variant("tictacrook_v1");
    let start = t.parse(&t.start_fen).unwrap();
    assert_eq!(perft(&t, &start, 1), 64);
    assert_eq!(perft(&t, &start, 2), 4032);
    assert_eq!(perft(&t, &start, 3), 303744);
    let m = variant("mixedchess_v5");
    let start = m.parse(&m.start_fen).unwrap();
    assert_eq!(perft(&m, &start, 1), 27);
    assert_eq!(perft(&m, &start, 2), 729);
    assert_eq!(perft(&m, &start, 3), 18846);
}

#[test]
fn start_fens_as_fairy_stockfish_writes_them() {
    assert_eq!(
        variant("mixedchess_v5").start_fen,
        "ynfckfny/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/YNFKCFNY[] w - - 0 1"
    );
    assert_eq!(
        variant("tictacrook_v1").start_fen,
        "8/8/8/8/8/8/8/8[PPPPPPPPpppppppp] w - - 0 1"
    );
}

#[test]
fn last_piece_key_for_a_letter_wins() {
    // tictacrook: pawn, immobile and customPiece1 all claim `p`; the custom piece counts.
    let t = variant("tictacrook_v1");
    assert_eq!(t.kinds.len(), 1);
    assert_eq!(t.kinds[0].ty, crate::spec::CUSTOM);
    let moves = legal(&t, "8/8/8/8/8/8/8/P7[] w - - 0 1");
    assert_eq!(moves.len(), 14, "slides like a rook: {moves:?}");
    // No captures.
    assert!(!legal(&t, "8/8/8/8/8/8/8/Pp6[] w - - 0 1").contains(&"a1b1".to_string()));
}

#[test]
fn pocket_order_promotion_and_captures_to_hand() {
    let m = variant("mixedchess_v5");
    let pos = m
        .parse("4k3/8/8/8/8/8/8/4K3[NBRCPYFnbrcpyf] w - - 0 1")
        .unwrap();
    assert_eq!(m.fen(&pos), "4k3/8/8/8/8/8/8/4K3[FYPCRBNfypcrbn] w - - 0 1");
    let moves = legal(&m, "4k3/8/8/2P5/8/8/8/4K3[] w - - 0 1");
    assert!(moves.contains(&"c5c6c".to_string()) && !moves.contains(&"c5c6".to_string()));
    // A capture of a promoted pawn puts a pawn in hand; the clock resets.
    let mut pos = m.parse("4k3/8/8/8/8/8/3+p4/4K3[] w - - 3 9").unwrap();
    let mut all = RVec::new();
    m.legal(&pos, &mut all);
    let cap = *all.iter().find(|mv| mv.to.name() == "d2").unwrap();
    assert_eq!(m.san(&pos, cap), "Kxd2");
    m.apply(&mut pos, cap, &mut MoveEffects::new(Color::White, false));
    assert_eq!(m.fen(&pos), "4k3/8/8/8/8/8/3K4/8[P] b - - 0 9");
}

#[test]
fn drop_rules() {
    let m = variant("mixedchess_v5");
    let moves = legal(&m, "4k3/8/8/8/8/8/p7/+P3K3[P] w - - 0 1");
    // dropNoDoubled counts unpromoted pawns of the mover only; immobilityIllegal forbids rank 8.
    assert!(!moves.contains(&"P@a2".to_string()), "occupied");
    assert!(moves.contains(&"P@a3".to_string()));
    assert!(
        moves.contains(&"P@b1".to_string()),
        "first-rank drops of a custom pawn are legal"
    );
    assert!(!moves
        .iter()
        .any(|s| s.ends_with('8') && s.starts_with("P@")));
    let moves = legal(&m, "4k3/8/8/8/8/8/P7/4K3[P] w - - 0 1");
    assert!(
        !moves.iter().any(|s| s.starts_with("P@a")),
        "no second pawn on the a-file"
    );
}

#[test]
fn results() {
    let m = variant("mixedchess_v5");
    let pos = m.parse("4k3/8/8/8/8/8/8/4K3[] w - - 0 1").unwrap();
    // Stalemate: loss for the side to move.
    assert_eq!(
        m.outcome(&pos, &ctx(false, false, 0, [false; 2]))
            .unwrap()
            .winner,
        Winner::BLACK
    );
    assert_eq!(
        m.outcome(&pos, &ctx(false, true, 0, [false; 2]))
            .unwrap()
            .reason
            .as_str(),
        "checkmate"
    );
    // 4-fold: absolute, a loss for White whoever moves.
    assert!(m.outcome(&pos, &ctx(true, false, 3, [false; 2])).is_none());
    assert_eq!(
        m.outcome(&pos, &ctx(true, false, 4, [false; 2]))
            .unwrap()
            .winner,
        Winner::BLACK
    );
    let black = m.parse("4k3/8/8/8/8/8/8/4K3[] b - - 0 1").unwrap();
    assert_eq!(
        m.outcome(&black, &ctx(true, false, 4, [false; 2]))
            .unwrap()
            .winner,
        Winner::BLACK
    );
    // Perpetual check: the checking side loses; both checking: draw.
    assert_eq!(
        m.outcome(&black, &ctx(true, false, 4, [true, false]))
            .unwrap()
            .winner,
        Winner::BLACK
    );
    assert_eq!(
        m.outcome(&black, &ctx(true, false, 4, [false, true]))
            .unwrap()
            .winner,
        Winner::WHITE
    );
    assert_eq!(
        m.outcome(&black, &ctx(true, false, 4, [true, true]))
            .unwrap()
            .winner,
        Winner::DRAW
    );
    // Connect-5 for the side that just moved, and no legal moves then.
    let t = variant("tictacrook_v1");
    let pos = t
        .parse("8/8/8/8/8/8/8/ppppp3[PPPPPPPPppp] w - - 0 1")
        .unwrap();
    assert_eq!(
        t.outcome(&pos, &ctx(true, false, 0, [false; 2]))
            .unwrap()
            .winner,
        Winner::BLACK
    );
    assert!(legal(&t, "8/8/8/8/8/8/8/ppppp3[PPPPPPPPppp] w - - 0 1").is_empty());
    assert_eq!(t.info().n_move_rule, 500);
}

#[test]
fn san_disambiguation_and_promotion() {
    let m = variant("mixedchess_v5");
    let pos = m.parse("4k3/8/8/8/8/8/1F1F4/4K3[] w - - 0 1").unwrap();
    let mut all = RVec::new();
    m.legal(&pos, &mut all);
    let sans: Vec<String> = all.iter().map(|&x| m.san(&pos, x)).collect();
    assert!(
        sans.contains(&"Fbc3".to_string()) && sans.contains(&"Fdc3".to_string()),
        "{sans:?}"
    );
    let pos = m.parse("4k3/8/8/4P3/8/8/8/4K3[] w - - 0 1").unwrap();
    let mut all = RVec::new();
    m.legal(&pos, &mut all);
    let promo = *all.iter().find(|x| x.is_promotion()).unwrap();
    assert_eq!(m.san(&pos, promo), "Pe6=C");
}

#[test]
fn inheritance_from_chess() {
    let v = from_ini("[mini:chess]\ncastling = false\n", "mini").unwrap();
    let start = v.parse(&v.start_fen).unwrap();
    assert_eq!(perft(&v, &start, 3), 8902);
    let v = from_ini("[base]\nking = k\nrook = r\ncastling = false\nstartFen = 4k3/8/8/8/8/8/8/R3K3 w - - 0 1\n[child:base]\nrook = -\ncustomPiece1 = r:W\n", "child").unwrap();
    assert_eq!(v.kinds.len(), 2);
    assert!(v.kinds.iter().any(|k| k.ty == crate::spec::CUSTOM));
}

#[test]
fn error_messages_name_file_line_and_key() {
    let cases = [
        (
            "[x]\nking = k\nfooBar = 1\n",
            "test.ini:3: key `fooBar`: unsupported key",
        ),
        (
            "[x]\nking = k\ncustomPiece1 = a:xR\n",
            "test.ini:3: key `customPiece1`: Betza `xR`: `x` (column 1) is not part of Fairy-Stockfish's Betza",
        ),
        ("[x]\nking = k\ncustomPiece1 = a:fceFj\n", "`j` (column 5)"),
        (
            "[x]\nking = k\ncastling = false\npieceDrops = maybe\n",
            "test.ini:4: key `pieceDrops`: `maybe` is not true or false",
        ),
        (
            "[x]\nking = k\ncastling = false\nstalemateValue = great\n",
            "key `stalemateValue`: `great` is not win, loss or draw",
        ),
        (
            "[x]\nking = k\ncastling = false\nmaxFile = 20\n",
            "key `maxFile`",
        ),
        (
            "[x]\nking = k\ncastling = false\nconnectPieceTypes = z\n",
            "test.ini:4: key `connectPieceTypes`: `z` is not a piece letter",
        ),
        (
            "[x]\nking = k\ncastling = false\nstartFen = 8/8 w - - 0 1\n",
            "test.ini:4: key `startFen`",
        ),
        (
            "[x]\nking = k\nmobilityRegionWhiteDragon = *1\n",
            "test.ini:3: key `mobilityRegionWhiteDragon`",
        ),
        (
            "[x:nothere]\nking = k\n",
            "parent variant `nothere` is not defined",
        ),
        (
            "[x:chess]\nblastOnCapture = true\n",
            "test.ini:2: key `blastOnCapture`: kings cannot",
        ),
        (
            "[x]\nking = k\npromotionRegionWhite = *9x\n",
            "key `promotionRegionWhite`",
        ),
        (
            "[x]\nking = kKN\n",
            "test.ini:2: key `king`: expected `letter:betza`",
        ),
    ];
    for (text, want) in cases {
        let e = from_ini(text, "x")
            .err()
            .unwrap_or_else(|| panic!("{text} should fail"));
        assert!(e.contains(want), "{text}: {e}");
    }
}

#[test]
fn broken_section_stays_listed() {
    let r = Registry::from_sources(&[("a.ini".into(), "[good]\nking = k\ncastling = false\nstartFen = k7/8/8/8/8/8/8/K7 w - - 0 1\n[bad]\nzzz = 1\n".into())]);
    assert_eq!(r.ids().count(), 2);
    assert!(r.get("good").unwrap().is_ok());
    assert!(r.get("bad").unwrap().unwrap_err().contains("a.ini:6"));
}

#[test]
fn betza_sections_match_fairy_stockfish() {
    // Every Betza feature Fairy-Stockfish reads (hoppers, grasshoppers, lame leapers,
    // nightriders, ranges, initial moves, a 12x10 board), against its recorded perft.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let ini = std::fs::read_to_string(format!("{dir}/betza-sections.ini")).unwrap();
    let rec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{dir}/betza-perft.json")).unwrap())
            .unwrap();
    let reg = Registry::from_sources(&[("betza-sections.ini".to_string(), ini)]);
    for s in rec["sections"].as_array().unwrap() {
        let name = s["variant"].as_str().unwrap();
        let v = reg.get(name).unwrap().unwrap();
        assert_eq!(v.start_fen, s["fen"].as_str().unwrap(), "{name}");
        let pos = v.parse(&v.start_fen).unwrap();
        for (d, n) in s["perft"].as_array().unwrap().iter().enumerate() {
            assert_eq!(
                perft(&v, &pos, d as u32 + 1),
                n.as_u64().unwrap(),
                "{name} depth {}",
                d + 1
            );
        }
    }
}

#[test]
fn fens_with_any_text_are_errors_at_character_columns() {
    // Issue 14: the en passant field was sliced by bytes (a panic on `é`), and columns
    // counted bytes.
    let v = variant("mixedchess_v5");
    let e = v.parse("8/8/8/8/8/8/8/8 w - é 0 1").unwrap_err();
    assert_eq!((e.field, e.column), (3, 20), "{}", e.message);
    let e = v.parse("8/8/8/8/8/8/8/8 w - eé 0 1").unwrap_err();
    assert_eq!(e.field, 3, "{}", e.message);
    let e = v.parse("8/8/8/8/8/8/8/éé6 w - - 0 1").unwrap_err();
    assert_eq!((e.field, e.column), (0, 14), "{}", e.message);
    let e = v.parse("8/8/8/8/8/8/8/ééX5 w - - 0 1").unwrap_err();
    assert!(e.message.contains('é'), "{}", e.message);
    // A startFen in a variants.ini: an error of that section, not a panic of the plugin.
    let ini = "[accent:chess]\ncastling = false\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - é 0 1\n";
    let Err(err) = from_ini(ini, "accent") else {
        panic!("refused")
    };
    assert!(
        err.contains("test.ini:3") && err.contains("startFen"),
        "{err}"
    );
}

#[test]
fn an_inherited_value_is_reported_at_the_section_header() {
    // Issue 14: 71 errors of inherited values had no file:line.
    let ini = "# a comment\n[plain:chess]\nmaxRank = 6\n";
    let Err(err) = from_ini(ini, "plain") else {
        panic!("refused")
    };
    assert!(
        err.starts_with("test.ini:2") && err.contains("`startFen` (inherited"),
        "{err}"
    );
}

#[test]
fn short_fen_forms_as_fairy_stockfish_reads_them() {
    // `w 0 1` reads as the full form. In `w - 0 1` (the form of its own variants.ini, e.g.
    // petty) Fairy-Stockfish takes the first character after the castling field for the en
    // passant file and reads the clocks from what follows (answers of pyffish 0.0.90).
    let v = variant("mixedchess_v5");
    for (short, full) in [
        (
            "4k3/8/8/8/8/8/8/4K3[] b 7 12",
            "4k3/8/8/8/8/8/8/4K3[] b - - 7 12",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3[] w - 0 1",
            "4k3/8/8/8/8/8/8/4K3[] w - - 1 1",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3[] w - 7 9",
            "4k3/8/8/8/8/8/8/4K3[] w - - 9 1",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3[] w - 17 9",
            "4k3/8/8/8/8/8/8/4K3[] w - - 7 9",
        ),
    ] {
        let pos = v.parse(short).unwrap();
        assert_eq!(v.fen(&pos), full, "{short}");
    }
    let e = v.parse("4k3/8/8/8/8/8/8/4K3[] b - - x 7 12").unwrap_err();
    assert_eq!((e.field, e.column), (4, 28), "{}", e.message);
}

#[test]
fn san_disambiguates_only_by_rivals_with_the_same_move_type() {
    // Fairy-Stockfish (pyffish 0.0.90, gorogoroplus): the silver on b2 may take on a3 with
    // or without promoting; the one on b4 only without (neither square is in its zone), so
    // only the plain capture names its origin.
    let text = "[goro:gorogoro]\nstartFen = sgkgs/5/1ppp1/1PPP1/5/SGKGS[LNln] w 0 1\n\
                lance = l\nshogiKnight = n\npromotedPieceType = l:g n:g\n";
    let v = over_builtins(&[("test.ini", text)], "goro").expect("builds");
    let pos = v.parse("2k2/5/1s3/P4/1s3/4K[] b - - 0 1").expect("fen");
    let mut moves = RVec::new();
    v.legal(&pos, &mut moves);
    let mut sans: Vec<String> = moves
        .iter()
        .filter(|m| m.to == houserules_plugin_api::Square::new(0, 2))
        .map(|&m| v.san(&pos, m))
        .collect();
    sans.sort();
    assert_eq!(sans, ["S2xa3", "S4xa3", "Sxa3=G"]);
}

/// The evaluation terms of goals material does not see: in racing kings a king nearer the
/// eighth rank is better; in antichess and codrus every piece counts against its side (the
/// host adds each piece at its value, the term twice against), so a side a piece down stands
/// better; Othello's corners, Clobber's stones in play and the room of snailtrail's races.
#[test]
fn goals_material_does_not_see_are_evaluated() {
    use houserules_plugin_api::VariantFlags;
    let rk = variant("racingkings");
    assert!(rk.info().flags.contains(VariantFlags::EVALUATES));
    let far = rk
        .parse("8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1")
        .expect("fen");
    let near = rk
        .parse("8/8/8/8/8/7K/krbnNBR1/qrbnNBRQ w - - 0 1")
        .expect("fen");
    assert!(rk.evaluate(&near) > rk.evaluate(&far));
    let anti = variant("antichess");
    assert!(anti.info().flags.contains(VariantFlags::EVALUATES));
    let start = anti.parse(&anti.start_fen).expect("fen");
    let knight_down = anti
        .parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR w - - 0 1")
        .expect("fen");
    let value = |p: &Position| -> i32 {
        // The host's material plus the plugin's term, from White's side.
        let material: i32 = [(Color::White, 1), (Color::Black, -1)]
            .iter()
            .flat_map(|&(c, s)| p.pieces_of(c).map(move |(_, k)| (k, s)))
            .map(|(k, s)| s * anti.pieces[k as usize].value)
            .sum();
        material + anti.evaluate(p)
    };
    assert!(
        value(&knight_down) > value(&start),
        "fewer pieces are better"
    );
    // In codrus only the king's loss wins, and still every piece is a burden.
    let codrus = variant("codrus");
    let full = codrus.parse(&codrus.start_fen).expect("fen");
    let rook_down = codrus
        .parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w - - 0 1")
        .expect("fen");
    assert!(codrus.evaluate(&rook_down) > codrus.evaluate(&full));
    // Othello (flipping by reversi's enclosures): a corner is worth more than the square
    // diagonally next to it.
    let othello = variant("flipello");
    assert!(othello.info().flags.contains(VariantFlags::EVALUATES));
    let corner = othello
        .parse("8/8/8/3pP3/3PP3/8/8/P7[PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp] b 0 1")
        .expect("fen");
    let x_square = othello
        .parse("8/8/8/3pP3/3PP3/8/1P6/8[PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp] b 0 1")
        .expect("fen");
    assert!(othello.evaluate(&corner) > othello.evaluate(&x_square) + 300);
    // Clobber (every move a capture, the side without one loses): a White stone cut off
    // from Black's is out of play.
    let clobber = variant("clobber");
    assert!(clobber.info().flags.contains(VariantFlags::EVALUATES));
    let in_play = clobber.parse("5/5/5/5/1pP2/1P3 w 0 1").expect("fen");
    let cut_off = clobber.parse("5/5/5/5/1pP2/4P w 0 1").expect("fen");
    assert!(clobber.evaluate(&in_play) > clobber.evaluate(&cut_off));
    // The races of walls (snailtrail's kings, joust's knights, amazons' queens): a piece
    // walled into a pocket of three squares has lost the room the other side still has.
    for id in ["snailtrail", "joust", "amazons"] {
        assert!(
            variant(id).info().flags.contains(VariantFlags::EVALUATES),
            "{id}"
        );
    }
    // From symmetric starts, a piece walled in: snailtrail's king in a pocket of three
    // squares, sealed off from the rest; an amazon shut in by arrows in its corner.
    for (id, walled_in, below) in [
        (
            "snailtrail",
            "6p/7/7/7/***4/2*4/P1*4 w - - 0 1",
            -30 * crate::eval::SEALED_SQUARE,
        ),
        (
            "amazons",
            "3q2q3/10/10/q8q/10/10/9Q/10/**8/Q**Q2Q3 w - - 0 1",
            0,
        ),
    ] {
        let v = variant(id);
        let start = v.parse(&v.start_fen).expect("fen");
        assert_eq!(v.evaluate(&start), 0, "{id}: the start is symmetric");
        let score = v.evaluate(&v.parse(walled_in).expect("fen"));
        assert!(score < below, "{id}: {score}");
    }
    // Where a line loses (misère connect four, `connectValue = loss`), an open line of one's
    // own is a burden, not a threat.
    let cfour = "[cfour]\nmaxRank = 6\nmaxFile = 7\nimmobile = p\n\
                 startFen = 7/7/7/7/7/7[PPPPPPPPPPPPPPPPPPPPPppppppppppppppppppppp] w - - 0 1\n\
                 pieceDrops = true\nenclosingDrop = top\ndoubleStep = false\ncastling = false\n\
                 stalemateValue = draw\nimmobilityIllegal = false\nconnectN = 4\nnMoveRule = 0\n\
                 [cfour-misere:cfour]\nconnectValue = loss\n";
    let three = "7/7/7/7/7/PPP4[PPPPPPPPPPPPPPPPPPpppppppppppppppppppp] w - - 0 1";
    let normal = over_builtins(&[("test.ini", cfour)], "cfour").expect("builds");
    let misere = over_builtins(&[("test.ini", cfour)], "cfour-misere").expect("builds");
    let (good, bad) = (
        normal.evaluate(&normal.parse(three).expect("fen")),
        misere.evaluate(&misere.parse(three).expect("fen")),
    );
    assert!(good > 0 && bad == -good, "{good} {bad}");
    // Chess-like sections keep the host's evaluation alone, and so do ataxx's flips and
    // the race whose walls go anywhere (isolation).
    for id in ["nocastle", "ataxx", "isolation"] {
        assert!(
            !variant(id).info().flags.contains(VariantFlags::EVALUATES),
            "{id}"
        );
    }
}

/// The value of the `extra` entry `key` in the manifest of section `id`.
fn extra_of(id: &str, key: &str) -> Option<String> {
    variant(id)
        .info()
        .extra
        .iter()
        .find(|o| o.key.as_str() == key)
        .map(|o| o.value.to_string())
}

/// Where moves flip enemy pieces (material taken by an effect, not a capture), the manifest
/// asks the engine to reduce late moves only from 4 plies left (docs/engine.md); other
/// sections leave the engine's default.
#[test]
fn flip_sections_ask_for_a_later_pruning_depth() {
    let asked = |id: &str| extra_of(id, houserules_plugin_api::EXTRA_SEARCH_PRUNING_DEPTH);
    for id in ["ataxx", "flipello", "flipersi"] {
        assert_eq!(asked(id).as_deref(), Some("4"), "{id}");
    }
    for id in ["nocastle", "clobber", "atomic"] {
        assert_eq!(asked(id), None, "{id}");
    }
}

/// Where a piece whose loss decides the game is taken without check (an extinction rule
/// whose pieces are not pseudo-royal), the manifest keeps the engine from pruning quiet moves
/// near the leaves (docs/engine.md); rules with check leave the engine's default.
#[test]
fn extinction_sections_keep_quiet_moves_in_the_search() {
    let asked = |id: &str| extra_of(id, houserules_plugin_api::EXTRA_SEARCH_QUIET_PRUNING);
    for id in ["duck", "antichess", "extinction"] {
        assert_eq!(asked(id).as_deref(), Some("no"), "{id}");
    }
    for id in ["nocastle", "crazyhouse", "shogi", "xiangqi", "atomic"] {
        assert_eq!(asked(id), None, "{id}");
    }
}

/// A walling move is the generator's move with the wall square in `Move::special`, so the
/// walling sections tell the engine that moves differing only there are one move with a
/// detail (`search-move-detail = special`: its quiescence settles a capture once, not once per
/// duck square). Sections whose `special` holds something else (shogi's promotions) or
/// nothing say nothing.
#[test]
fn walling_sections_say_their_moves_differ_only_in_the_wall() {
    let asked = |id: &str| extra_of(id, houserules_plugin_api::EXTRA_SEARCH_MOVE_DETAIL);
    for id in ["duck", "amazons", "snailtrail", "joust"] {
        assert_eq!(asked(id).as_deref(), Some("special"), "{id}");
    }
    // The claim itself: the moves with one `special` cleared are one move of the board, and
    // their texts differ only after the comma (the wall). In duck chess and amazons a family
    // has dozens of members, which is what the engine gains by it.
    for id in ["duck", "amazons"] {
        let v = variant(id);
        let pos = v.parse(v.info().layouts[0].fen.as_str()).expect("fen");
        let mut moves = RVec::new();
        v.legal(&pos, &mut moves);
        let mut families = std::collections::HashMap::new();
        for &m in moves.iter() {
            let mut base = m;
            base.special = 0;
            let text = coord(&v, &pos, m);
            let (board_move, wall) = text.split_once(',').expect("a wall");
            assert!(!wall.is_empty(), "{id}: {text}");
            let first = families
                .entry(base)
                .or_insert_with(|| board_move.to_string());
            assert_eq!(first, board_move, "{id}");
        }
        assert!(
            moves.len() > 10 * families.len(),
            "{id}: {} moves, {} families",
            moves.len(),
            families.len()
        );
    }
    for id in ["nocastle", "shogi", "seirawan", "crazyhouse"] {
        assert_eq!(asked(id), None, "{id}");
    }
}
