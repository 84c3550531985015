//! Issue #16, through the BUILT host and plugins: movement as data.
//!
//! * `presets_agree_with_the_independent_reference`: perft of every movement, geometry and
//!   royalty preset, every compatible pair and a sample of triples, from the start and from
//!   random positions, against `tests/data/preset-perft.json` — recorded by
//!   `tools/rules-ref/rules_ref.py`, a small implementation of RULINGS.md that shares no code
//!   with the generator.
//! * `fen_round_trip_under_every_preset`: every FEN the host writes, along random games under
//!   every preset and tested combination, reads back to the same position.
//! * The examples of the issue: the sprint's en passant FEN, the K+B vs K mate under
//!   bishops-ignore-color, knightmate's `dxc3`.

use houserules_host::notation::{coordinate, parse_move, san};
use houserules_host::{perft, Game, Pipeline, PresetSpec, Registry};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{MoveEffects, Position};
use houserules_tests::{registry, workspace_root, Rng};
use serde_json::Value;
use std::collections::HashMap;

fn pipeline(reg: &Registry, presets: &[&str]) -> Pipeline {
    let specs: Vec<PresetSpec> = presets.iter().map(|s| s.parse().unwrap()).collect();
    Pipeline::build(reg, "chess", None, &specs).unwrap_or_else(|e| panic!("{presets:?}: {e}"))
}

fn play(p: &Pipeline, mut pos: Position, moves: &[&str]) -> Position {
    for (i, text) in moves.iter().enumerate() {
        let mut legal = RVec::new();
        p.legal_moves(&pos, &mut legal).unwrap();
        let m = parse_move(p, &pos, text, &legal)
            .unwrap_or_else(|e| panic!("ply {} `{text}`: {e}", i + 1));
        let mut fx = MoveEffects::new(pos.side_to_move, false);
        p.apply(&mut pos, m, &mut fx).unwrap();
    }
    pos
}

#[test]
fn presets_agree_with_the_independent_reference() {
    let path = workspace_root().join("tests/data/preset-perft.json");
    let data: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let reg = registry();
    let mut pipes: HashMap<String, Pipeline> = HashMap::new();
    let cases = data["cases"].as_array().unwrap();
    assert!(cases.len() > 300, "{} cases", cases.len());
    let mut combos = std::collections::HashSet::new();
    for c in cases {
        let presets: Vec<&str> = c["presets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let key = presets.join(" + ");
        combos.insert(key.clone());
        let p = pipes
            .entry(key.clone())
            .or_insert_with(|| pipeline(&reg, &presets));
        let moves: Vec<&str> = c["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        let pos = play(p, p.start_position().unwrap(), &moves);
        let depth = c["depth"].as_u64().unwrap() as u32;
        let want = c["nodes"].as_u64().unwrap();
        let got = perft(p, &pos, depth, 1, false).unwrap().nodes;
        assert_eq!(
            got,
            want,
            "{key}, after {:?}, depth {depth} (FEN {})",
            moves,
            p.write_fen(&pos).unwrap()
        );
    }
    assert!(combos.len() > 150, "{} combinations", combos.len());
}

#[test]
fn knights_leap_twice_with_wrap_board_from_the_start() {
    let reg = registry();
    let p = pipeline(&reg, &["knights-leap-twice", "wrap-board"]);
    let start = p.start_position().unwrap();
    let n: Vec<u64> = (1..=3)
        .map(|d| perft(&p, &start, d, 1, false).unwrap().nodes)
        .collect();
    assert_eq!(n, [34, 954, 34_463]);
}

/// Presets (and combinations) whose FENs must read back: every preset of the catalogue that
/// plays on chess, the movement ones in pairs with the others.
fn round_trip_sets() -> Vec<Vec<&'static str>> {
    let singles = [
        "knights-leap-twice",
        "bishops-ignore-color",
        "pawns-move-backward",
        "double-pawn-sprint",
        "pawn-diagonal-no-capture",
        "rook-warp",
        "wrap-board",
        "bouncing-pieces",
        "bouncing-pieces-2",
        "berolina-pawns",
        "berolina-pawns-2",
        "berolina-pawns:scope=black",
        "knightmate-rules",
        "coregal",
        "dual-king",
        "weak-dual-king",
        "god-kings",
        "early-promotion",
        "proletariat",
        "short-stop",
        "trans-rights",
        "piece-hp",
        "queen-splits",
        "explosive-rook",
        "capture-to-win",
        "knight-immunity",
        "last-piece-standing",
        "double-move",
        "suicide-chess",
        "extinction-chess",
        "first-promotion-wins",
        "pacman-style",
    ];
    let mut v: Vec<Vec<&str>> = singles.iter().map(|s| vec![*s]).collect();
    for pair in [
        ["double-pawn-sprint", "wrap-board"],
        ["berolina-pawns", "wrap-board"],
        ["pawns-move-backward", "berolina-pawns-2"],
        ["pawn-diagonal-no-capture", "wrap-board"],
        ["double-pawn-sprint", "berolina-pawns"],
        ["knightmate-rules", "double-pawn-sprint"],
        ["wrap-board", "piece-hp"],
        ["coregal", "early-promotion"],
        ["god-kings", "extinction-chess"],
        ["short-stop", "wrap-board"],
        ["trans-rights", "bouncing-pieces-2"],
        ["pawns-move-backward", "double-move"],
    ] {
        v.push(pair.to_vec());
    }
    v
}

#[test]
fn fen_round_trip_under_every_preset() {
    let reg = registry();
    let mut rng = Rng(0x0016_1616);
    for set in round_trip_sets() {
        let p = pipeline(&reg, &set);
        for game in 0..2 {
            let mut g = Game::new(&p, p.start_position().unwrap());
            for ply in 0..40 {
                let fen = p.write_fen(&g.position).unwrap();
                let back = p
                    .parse_fen(&fen)
                    .unwrap_or_else(|e| panic!("{set:?} game {game} ply {ply}: {fen}: {e}"));
                assert!(
                    back.same_for_repetition(&g.position),
                    "{set:?} game {game} ply {ply}: {fen} reads into another position"
                );
                assert_eq!(p.write_fen(&back).unwrap(), fen, "{set:?}: written twice");
                let legal = g.legal_moves().unwrap();
                let mut again = RVec::new();
                p.legal_moves(&back, &mut again).unwrap();
                assert_eq!(legal.len(), again.len(), "{set:?}: {fen}: legal moves");
                if legal.is_empty() || g.status().unwrap().outcome.is_some() {
                    break;
                }
                let m = legal[rng.below(legal.len())];
                g.play(m).unwrap();
            }
        }
    }
}

/// Every legal move has a coordinate form of its own, which reads back to it: along random
/// games under every preset and tested combination, from the start and from a position where
/// both sides may castle at once (where a king that steps two squares, god-kings, or slides,
/// trans-rights, also goes to the castling king's target by a plain move: the castle is then
/// written as king takes rook).
#[test]
fn every_legal_move_has_a_coordinate_form_of_its_own() {
    let reg = registry();
    let mut rng = Rng(0x0c00_5d1e);
    let castling = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    let mut shadowed = 0;
    for set in round_trip_sets() {
        let p = pipeline(&reg, &set);
        let starts = [p.start_position().unwrap(), p.parse_fen(castling).unwrap()];
        // `perft --divide` names each root move by that form: one entry each, none lost.
        let divide = perft(&p, &starts[1], 2, 1, true).unwrap();
        let keys: std::collections::HashSet<&String> =
            divide.divide.iter().map(|(k, _)| k).collect();
        assert_eq!(keys.len(), divide.divide.len(), "{set:?}: divide keys");
        assert_eq!(
            divide.divide.iter().map(|(_, n)| n).sum::<u64>(),
            divide.nodes,
            "{set:?}: divide sum"
        );
        for (game, start) in starts.into_iter().enumerate() {
            let mut g = Game::new(&p, start);
            for ply in 0..30 {
                let legal = g.legal_moves().unwrap();
                let mut seen: HashMap<String, usize> = HashMap::new();
                for (i, &m) in legal.iter().enumerate() {
                    let c = coordinate(&p, &g.position, m).unwrap();
                    if m.is_castle() && c == format!("{}{}", m.from, m.to) {
                        shadowed += 1;
                    }
                    if let Some(j) = seen.insert(c.clone(), i) {
                        panic!(
                            "{set:?} game {game} ply {ply} ({}): `{c}` names {:?} and {:?}",
                            p.write_fen(&g.position).unwrap(),
                            legal[j],
                            m
                        );
                    }
                    let back = parse_move(&p, &g.position, &c, &legal).unwrap();
                    assert_eq!(back, m, "{set:?}: `{c}` reads back to another move");
                }
                if legal.is_empty() || g.status().unwrap().outcome.is_some() {
                    break;
                }
                g.play(legal[rng.below(legal.len())]).unwrap();
            }
        }
    }
    // The positions with both kinds of move to the same square were met.
    assert!(shadowed > 0, "no castle was written as king takes rook");
}

/// Chess960 castles are named by the rook's side, in SAN and in the coordinate form, also
/// where the king stays on its square (`O-O` from g1: `g1h1`) or moves towards the other side
/// (`O-O-O` from b1 to c1, a square the king also reaches by a plain step: `b1a1`). Random
/// games against python-chess found both (`tools/pgn-check/random_plies.py`).
#[test]
fn castles_are_named_by_the_rooks_side() {
    let reg = registry();
    let p = pipeline(&reg, &[]);
    for (fen, want) in [
        (
            "4k3/8/8/8/8/8/8/R5KR w KQ - 0 1",
            [("O-O", "g1h1"), ("O-O-O", "g1c1")],
        ),
        (
            "4k3/8/8/8/8/8/8/RK5R w KQ - 0 1",
            [("O-O", "b1g1"), ("O-O-O", "b1a1")],
        ),
    ] {
        let pos = p.parse_fen(fen).unwrap();
        let mut legal = RVec::new();
        p.legal_moves(&pos, &mut legal).unwrap();
        let mut castles: Vec<(String, String)> = legal
            .iter()
            .filter(|m| m.is_castle())
            .map(|&m| {
                (
                    san(&p, &pos, m, &legal).unwrap(),
                    coordinate(&p, &pos, m).unwrap(),
                )
            })
            .collect();
        castles.sort();
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(s, c)| (s.to_string(), c.to_string()))
            .collect();
        assert_eq!(castles, want, "{fen}");
        for (s, c) in &want {
            // Each name reads back to the castle it names, and the rook ends beside the king.
            let by_san = parse_move(&p, &pos, s, &legal).unwrap();
            let by_coordinate = parse_move(&p, &pos, c, &legal).unwrap();
            assert_eq!(by_san, by_coordinate, "{fen}: {s} and {c}");
            assert!(by_san.is_castle(), "{fen}: {s}");
            assert_eq!(
                by_san.to.file() > by_san.from.file(),
                s == "O-O",
                "{fen}: {s}"
            );
        }
    }
}

#[test]
fn issue_examples() {
    let reg = registry();
    // A sprint's en passant field is one the same rules read back.
    let p = pipeline(&reg, &["double-pawn-sprint"]);
    let pos = play(&p, p.start_position().unwrap(), &["e4", "h5", "d4", "h3"]);
    let fen = p.write_fen(&pos).unwrap();
    assert!(p.parse_fen(&fen).is_ok(), "{fen}");
    // A sprint next to an enemy pawn: the right is written and read.
    let pos = play(
        &p,
        p.start_position().unwrap(),
        &["e4", "d5", "e5", "d4", "c4"],
    );
    let fen = p.write_fen(&pos).unwrap();
    assert!(fen.contains(" c3 "), "{fen}");
    let back = p.parse_fen(&fen).unwrap();
    assert!(back.same_for_repetition(&pos));
    // K+B vs K is no dead position under bishops-ignore-color: 1... Kb8 2. Ba6 Ka8 3. Ba7#.
    let p = pipeline(&reg, &["bishops-ignore-color"]);
    let start = p.parse_fen("k7/8/1K6/B7/8/8/8/8 b - - 0 1").unwrap();
    let g = Game::new(&p, start.clone());
    assert_eq!(g.status().unwrap().outcome, None);
    let end = play(&p, start, &["Kb8", "Ba6", "Ka8", "Ba7"]);
    let o = Game::new(&p, end).status().unwrap().outcome.unwrap();
    assert_eq!((o.winner.pgn(), o.reason.as_str()), ("1-0", "checkmate"));
    // Plain chess keeps its dead-position draw.
    let plain = pipeline(&reg, &[]);
    let g = Game::new(
        &plain,
        plain.parse_fen("k7/8/1K6/B7/8/8/8/8 b - - 0 1").unwrap(),
    );
    let o = g.status().unwrap().outcome.unwrap();
    assert_eq!(o.reason.as_str(), "insufficient-material");
    // Setup, then validation: with presets in force the variant reads the setup and the
    // pipeline validates it (a pawn piece-hp pushed onto its last rank reads back; FIDE's own
    // reader refuses it).
    let hp = pipeline(&reg, &["piece-hp"]);
    assert!(hp.parse_fen("P3k3/8/8/8/8/8/8/4K3 w - - 0 1").is_ok());
    assert!(plain.parse_fen("P3k3/8/8/8/8/8/8/4K3 w - - 0 1").is_err());
    // ... but never a position whose waiting side has a protected royal attacked.
    assert!(hp
        .parse_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 {Hp:e8=1}")
        .is_ok());
    assert!(hp.parse_fen("4k3/8/8/8/8/8/8/4KR2 w - - 0 1").is_ok());
    assert!(hp.parse_fen("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1").is_err());
    // Hook presets that change the rules turn FIDE's dead-position table off.
    let qs = pipeline(&reg, &["queen-splits"]);
    let g = Game::new(&qs, qs.parse_fen("k7/8/1K6/B7/8/8/8/8 b - - 0 1").unwrap());
    assert_eq!(g.status().unwrap().outcome, None);
    // Knightmate: the king on e8 is not royal, so d4xc3 en passant is legal.
    let p = pipeline(&reg, &["knightmate-rules"]);
    let pos = play(
        &p,
        p.start_position().unwrap(),
        &["e3", "d5", "Bb5", "d4", "c4"],
    );
    let mut legal = RVec::new();
    p.legal_moves(&pos, &mut legal).unwrap();
    let coords: Vec<String> = legal
        .iter()
        .map(|&m| coordinate(&p, &pos, m).unwrap())
        .collect();
    assert!(coords.contains(&"d4c3".to_string()), "{coords:?}");
    assert!(p.write_fen(&pos).unwrap().contains(" c3 "));
}

#[test]
#[ignore = "deep: knightmate perft 6 (seconds in release)"]
fn knightmate_perft_6_matches_fairy_stockfish() {
    let reg = registry();
    let p = pipeline(&reg, &["knightmate-rules"]);
    let start = p.start_position().unwrap();
    assert_eq!(perft(&p, &start, 6, 2, false).unwrap().nodes, 139_438_300);
}
