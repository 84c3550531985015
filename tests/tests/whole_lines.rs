//! The variant's whole-line replay (API 1.6, `VariantRules::replay_line`, which batch analysis
//! uses where only the moves are asked for) against the move-by-move path it stands in for:
//! every report must be the same, record for record — on the repository's record files, on
//! random games from many starts, and on the same games with their tokens damaged (wrong
//! check marks, ambiguous, illegal and coordinate-form moves, null moves, variations), where
//! the line replay stops and the move-by-move path takes over.

use houserules_host::analyze::{Analyzer, Options};
use houserules_host::notation::{coordinate, san};
use houserules_host::pgn::Reader;
use houserules_host::{Game, Pipeline, Registry};
use houserules_plugin_api::{Move, Position};
use houserules_tests::{registry, workspace_root, Rng};
use std::path::{Path, PathBuf};

/// The reports of every record of `text`, analyzed with and without whole-line replay, and
/// each way without and then with per-ply output (`describe_line`, API 1.7, writes the plies'
/// SAN, coordinate form, FEN and events in the variant).
fn both_ways(reg: &Registry, text: &str) -> (Vec<String>, Vec<String>) {
    let run = |move_by_move: bool| {
        let mut out = run_with(reg, text, move_by_move, false);
        out.extend(run_with(reg, text, move_by_move, true));
        out
    };
    (run(false), run(true))
}

fn run_with(reg: &Registry, text: &str, move_by_move: bool, plies: bool) -> Vec<String> {
    let options = Options {
        move_by_move,
        plies,
        ..Options::default()
    };
    let mut an = Analyzer::new(reg, options);
    let mut reader = Reader::new(text.as_bytes());
    let mut out = Vec::new();
    let mut index = 0;
    while let Some(rec) = reader.next_record().expect("reading from memory") {
        index += 1;
        let report = an.analyze(&rec, index, "test.pgn");
        out.push(serde_json::to_string(&report).expect("a report serializes"));
    }
    out
}

fn assert_alike(reg: &Registry, what: &str, text: &str) -> usize {
    let (whole, by_move) = both_ways(reg, text);
    assert_eq!(whole.len(), by_move.len(), "{what}: record counts");
    for (k, (a, b)) in whole.iter().zip(&by_move).enumerate() {
        assert_eq!(a, b, "{what}: report {} differs", k + 1);
    }
    // Each record was reported twice, without and with its plies.
    whole.len() / 2
}

fn pgn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if p.is_dir() && !matches!(name, "target" | ".git") {
            pgn_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "pgn") {
            out.push(p);
        }
    }
}

#[test]
fn every_record_file_of_the_repository_reports_alike() {
    let reg = registry();
    let root = workspace_root();
    let mut files = Vec::new();
    for dir in ["tests/data", "fuzz/corpus"] {
        pgn_files(&root.join(dir), &mut files);
    }
    files.sort();
    assert!(files.len() >= 20, "the record files: {files:?}");
    let mut records = 0;
    for f in &files {
        let bytes = std::fs::read(f).expect("a record file");
        let text = String::from_utf8_lossy(&bytes);
        records += assert_alike(&reg, &f.display().to_string(), &text);
    }
    assert!(records >= 30, "{records} records");
}

/// Starts: the standard one and positions with castling, en passant and promotions close.
const STARTS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    // Chess960 (Shredder-FEN castling rights).
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    // Pawns on the seventh, kings exposed: promotions and checks.
    "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1",
];

/// A random game from `fen`: its SAN tokens (with check marks).
fn random_game(p: &Pipeline, fen: &str, rng: &mut Rng, plies: usize) -> Vec<String> {
    random_game_written(p, fen, rng, plies, |_, _, _, _| None)
}

/// A random game from `fen`, each move written by `write` (position, move, legal moves,
/// ply) where it gives a text, else in SAN.
fn random_game_written(
    p: &Pipeline,
    fen: &str,
    rng: &mut Rng,
    plies: usize,
    mut write: impl FnMut(&Position, Move, &[Move], usize) -> Option<String>,
) -> Vec<String> {
    let start = p.game_start(fen).expect("a start position");
    let mut game = Game::new(p, start);
    let mut tokens = Vec::new();
    for _ in 0..plies {
        let legal = game.legal_moves().expect("legal moves");
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        let text = match write(&game.position, m, &legal, tokens.len()) {
            Some(t) => t,
            None => san(p, &game.position, m, &legal).expect("SAN"),
        };
        game.play(m).expect("a legal move");
        tokens.push(text);
        if game.status().expect("status").outcome.is_some() {
            break;
        }
    }
    tokens
}

/// One record of `tokens` from `fen`.
fn record(fen: &str, tokens: &[String]) -> String {
    let mut s = format!("[Event \"random\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n");
    for t in tokens {
        s.push_str(t);
        s.push(' ');
    }
    s.push_str("*\n\n");
    s
}

/// `tokens` damaged at one random place in one of the ways a record can be wrong or odd.
fn damaged(tokens: &[String], rng: &mut Rng) -> Vec<String> {
    let mut t = tokens.to_vec();
    if t.is_empty() {
        return t;
    }
    let k = rng.below(t.len());
    match rng.below(10) {
        0 => t[k].push('+'),
        1 => t[k] = format!("{}#", t[k].trim_end_matches(['+', '#'])),
        2 => t[k] = t[k].trim_end_matches(['+', '#']).to_string(),
        3 => t[k] = "Qz9".to_string(),
        4 => t[k] = "--".to_string(),
        5 => t[k] = format!("{} ( {} )", t[k], t[k]),
        6 => t[k] = t[k].to_lowercase(),
        7 => t[k] = t[k].replace("O-O", "0-0"),
        8 => t[k] = format!("{}!?", t[k]),
        _ => t.insert(k, "Nd2".to_string()),
    }
    t
}

#[test]
fn null_moves_in_either_spelling_go_move_by_move() {
    let reg = registry();
    for null in ["--", "0000", "Z0"] {
        let text = format!("1. e4 {null} 2. d4 e5 3. dxe5 *\n");
        let (whole, by_move) = both_ways(&reg, &text);
        assert_eq!(whole, by_move, "{null}");
        let report: serde_json::Value = serde_json::from_str(&whole[0]).expect("JSON");
        assert_eq!(report["ply_count"], 5, "{null}: {report}");
        assert_eq!(
            report["errors"].as_array().map(Vec::len),
            Some(0),
            "{report}"
        );
    }
}

#[test]
fn random_and_damaged_games_report_alike() {
    let reg = registry();
    let p = Pipeline::build(&reg, "chess", None, &[]).expect("chess");
    assert!(p.replays_lines(), "the chess plugin replays whole lines");
    let mut rng = Rng(0x5EED_0014);
    let mut text = String::new();
    let mut games = 0;
    for round in 0..40 {
        for fen in STARTS {
            let tokens = random_game(&p, fen, &mut rng, 30 + 10 * (round % 20));
            text.push_str(&record(fen, &tokens));
            text.push_str(&record(fen, &damaged(&tokens, &mut rng)));
            games += 2;
        }
    }
    assert_eq!(assert_alike(&reg, "random games", &text), games);
}

/// Records in coordinate form (as engines and UCI logs write them: `g1f3`, `E7E8Q`, castles
/// as king origin and target), mixed with SAN and damaged: the variant's replay reads them
/// as the move-by-move path does (SAN first, then the coordinate form).
#[test]
fn coordinate_form_games_report_alike() {
    let reg = registry();
    let p = Pipeline::build(&reg, "chess", None, &[]).expect("chess");
    let mut rng = Rng(0xC00D_0014);
    let mut text = String::new();
    let mut games = 0;
    for round in 0..30 {
        for fen in STARTS {
            let style = round % 3;
            let mut written = |pos: &Position, m: Move, _: &[Move], ply: usize| {
                let c = coordinate(&p, pos, m).expect("a coordinate form");
                match style {
                    0 => Some(c),
                    1 if ply.is_multiple_of(2) => Some(c.to_uppercase()),
                    2 if ply.is_multiple_of(3) => None,
                    _ => Some(c),
                }
            };
            let tokens =
                random_game_written(&p, fen, &mut rng, 40 + 10 * (round % 15), &mut written);
            text.push_str(&record(fen, &tokens));
            text.push_str(&record(fen, &damaged(&tokens, &mut rng)));
            games += 2;
        }
    }
    assert_eq!(assert_alike(&reg, "coordinate-form games", &text), games);
}
