//! Game records through the built binary: `houserules analyze` on real-world PGN (checked
//! against python-chess's answers), malformed records, round trips through `play` and
//! `--write-pgn`, parallel analysis, and `play` with a human on standard input.

use houserules_tests::{built_artifacts, houserules, houserules_ok, registry, workspace_root};
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn data(name: &str) -> PathBuf {
    workspace_root().join("tests/data/records").join(name)
}

fn jsonl(args: &[&str]) -> (Vec<Value>, Option<i32>) {
    let out = houserules(args);
    let text = String::from_utf8_lossy(&out.stdout);
    let games = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    (games, out.status.code())
}

fn python_chess_files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(data("python-chess"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    v.sort();
    v
}

#[test]
fn real_world_files_agree_with_python_chess() {
    // tests/data/records/python-chess.tsv: python-chess's plies, result, termination and final
    // FEN per game (written by tools/pgn-check/compare.py --expected).
    let tsv = std::fs::read_to_string(data("python-chess.tsv")).unwrap();
    let mut expected = std::collections::HashMap::new();
    for line in tsv.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        expected.insert(
            (f[0].to_string(), f[1].parse::<u64>().unwrap()),
            f[2..].to_vec(),
        );
    }
    let mut files = python_chess_files();
    files.push(data("annotated.pgn"));
    let mut checked = 0;
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let (games, code) = jsonl(&["analyze", "--jsonl", "--no-plies", file.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{name}: every record is valid");
        assert!(!games.is_empty(), "{name}: games read");
        for (i, g) in games.iter().enumerate() {
            let want = expected
                .get(&(name.clone(), i as u64 + 1))
                .unwrap_or_else(|| panic!("{name} #{}: not in python-chess.tsv", i + 1));
            assert_eq!(
                g["ply_count"].to_string(),
                want[0],
                "{name} #{} plies",
                i + 1
            );
            assert_eq!(g["result"]["computed"], want[1], "{name} #{} result", i + 1);
            assert_eq!(g["result"]["termination"], want[2], "{name} #{}", i + 1);
            assert_eq!(g["final_fen"], want[3], "{name} #{} final FEN", i + 1);
            assert_eq!(g["result"]["agrees"], true, "{name} #{}", i + 1);
            assert!(g["errors"].as_array().unwrap().is_empty());
            checked += 1;
        }
    }
    assert_eq!(
        checked,
        expected.len(),
        "every game of python-chess.tsv checked"
    );
}

#[test]
fn annotated_record_plies_events_and_variations() {
    let out = houserules_ok(["analyze", "--json", data("annotated.pgn").to_str().unwrap()]);
    let doc: Value = serde_json::from_str(&out).unwrap();
    let games = doc["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(doc["summary"]["valid"], 2);
    let g = &games[0];
    assert_eq!(g["tags"]["White"], "Deep Blue (Computer)");
    assert_eq!(g["variant"], "chess");
    let plies = g["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 37);
    assert_eq!(plies[0]["san"], "e4");
    assert_eq!(plies[0]["move"], "e2e4");
    assert_eq!(
        plies[0]["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    // 3... dxe4 captures; 9. O-O castles; 10. Bg6+ checks.
    assert_eq!(plies[5]["san"], "dxe4");
    assert_eq!(plies[5]["events"][0]["kind"], "capture");
    assert_eq!(plies[5]["events"][0]["square"], "e4");
    assert_eq!(plies[16]["san"], "O-O");
    assert_eq!(plies[16]["move"], "e1g1");
    assert_eq!(plies[18]["san"], "Bg6+");
    assert_eq!(plies[18]["check"], true);
    assert_eq!(g["result"]["declared"], "1-0");
    assert_eq!(g["result"]["computed"], "*");
    assert_eq!(g["result"]["agrees"], true);
    let mate = &games[1];
    assert_eq!(mate["result"]["computed"], "0-1");
    assert_eq!(mate["result"]["termination"], "checkmate");
    assert_eq!(mate["plies"][3]["san"], "Qh4#");
}

#[test]
fn lichess_record_with_clocks_and_variations_is_read() {
    // A crazyhouse game from lichess (python-chess's test data): the reader takes its
    // comments, clock commands, glyphs and variations without a syntax error, and its
    // Variant tag names Fairy-Stockfish's built-in `crazyhouse` (fairy plugin,
    // docs/fairy.md), which replays the game in full.
    let (games, code) = jsonl(&[
        "analyze",
        "--jsonl",
        data("lichess-crazyhouse.pgn").to_str().unwrap(),
    ]);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["errors"], serde_json::json!([]), "{}", games[0]);
    assert_eq!(code, Some(0));
    assert_eq!(games[0]["variant"], "crazyhouse");
    assert_eq!(games[0]["ply_count"], 48);
}

#[test]
fn variant_names_of_lichess_and_python_chess_name_the_fairy_variants() {
    // lichess and python-chess write `King of the Hill`, `Three-check`, `Racing Kings`: the
    // same letters as Fairy-Stockfish's ids (`kingofthehill`, `racingkings`), or its
    // digit (`3check`).
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("lichess.pgn");
    let games = [
        (
            "King of the Hill",
            "1-0",
            "1. e3 e6 2. Ke2 Ke7 3. Kd3 Kd6 4. Ke4",
        ),
        (
            "Three-check",
            "1-0",
            "1. e4 e5 2. Bc4 Nc6 3. Bxf7+ Kxf7 4. Qh5+ g6 5. Qxg6+",
        ),
        ("Racing Kings", "*", "1. Kh3 Ka3"),
        ("Antichess", "*", "1. e3 b5 2. Bxb5"),
        ("Chess960", "*", "1. e4 e5"),
        ("No Such Game", "*", "1. e4"),
    ];
    let text: String = games
        .iter()
        .map(|(v, r, m)| format!("[Variant \"{v}\"]\n[Result \"{r}\"]\n\n{m} {r}\n\n"))
        .collect();
    std::fs::write(&pgn, text).unwrap();
    let (reports, code) = jsonl(&["analyze", "--jsonl", "--no-plies", pgn.to_str().unwrap()]);
    assert_eq!(code, Some(1), "the last record's variant is unknown");
    let ids: Vec<&str> = reports
        .iter()
        .map(|g| g["variant"].as_str().unwrap_or("-"))
        .collect();
    assert_eq!(
        ids,
        [
            "kingofthehill",
            "3check",
            "racingkings",
            "antichess",
            "chess",
            "-"
        ]
    );
    for g in &reports[..5] {
        assert_eq!(g["errors"], serde_json::json!([]), "{g}");
    }
    // The games that end do so by their variant's rule.
    assert_eq!(reports[0]["result"]["computed"], "1-0");
    assert_eq!(reports[1]["result"]["computed"], "1-0");
    let unknown = reports[5]["errors"][0]["message"].as_str().unwrap();
    assert!(
        unknown.contains("unknown variant `No Such Game`"),
        "{unknown}"
    );
}

#[test]
fn malformed_records_get_precise_errors_and_the_batch_goes_on() {
    let (games, code) = jsonl(&[
        "analyze",
        "--jsonl",
        "--no-plies",
        data("malformed.pgn").to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1), "invalid records: exit code 1");
    // (event, line, column, ply, message part)
    let want: [(&str, u64, u64, Option<u64>, &str); 11] = [
        ("bad SAN", 4, 13, Some(3), "move `Nf9`: not a legal move"),
        (
            "illegal move",
            9,
            13,
            Some(3),
            "move `Ke3`: not a legal move",
        ),
        (
            "unknown variant",
            12,
            10,
            None,
            "unknown variant `nonesuch`",
        ),
        ("bad FEN tag", 19, 6, None, "FEN tag: bad FEN"),
        (
            "mate declared for the wrong side",
            27,
            21,
            Some(4),
            "declared result 1-0 contradicts the final position: 0-1 by checkmate",
        ),
        (
            "win declared in a stalemate",
            33,
            33,
            Some(19),
            "1/2-1/2 by stalemate",
        ),
        (
            "draw declared where White mated",
            38,
            41,
            Some(7),
            "declared result 1/2-1/2 contradicts the final position: 1-0 by checkmate",
        ),
        (
            "unterminated variation",
            43,
            7,
            None,
            "unterminated variation",
        ),
        ("unterminated comment", 48, 7, None, "unterminated comment"),
        ("a valid game after the bad ones", 0, 0, None, ""),
        ("truncated", 59, 23, None, "truncated"),
    ];
    assert_eq!(games.len(), want.len());
    for (g, (event, line, col, ply, msg)) in games.iter().zip(want) {
        assert_eq!(g["tags"]["Event"], event);
        let errors = g["errors"].as_array().unwrap();
        if msg.is_empty() {
            assert!(errors.is_empty(), "{event}: {errors:?}");
            assert_eq!(g["result"]["agrees"], true);
            continue;
        }
        assert_eq!(errors.len(), 1, "{event}: {errors:?}");
        let e = &errors[0];
        assert_eq!(
            (e["line"].as_u64(), e["column"].as_u64()),
            (Some(line), Some(col)),
            "{event}: {e}"
        );
        assert_eq!(e["ply"].as_u64(), ply, "{event}: {e}");
        assert!(e["message"].as_str().unwrap().contains(msg), "{event}: {e}");
    }
    // Move errors come with legal moves at that point.
    let legal = games[1]["errors"][0]["legal"].as_array().unwrap();
    assert!(legal.iter().any(|m| m == "Nf3"), "{legal:?}");
    // Readable output: file, line, column and ply.
    let out = houserules(["analyze", data("malformed.pgn").to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("malformed.pgn:4:13 (ply 3): move `Nf9`"),
        "{text}"
    );
    assert!(text.contains("11 games: 1 valid, 10 invalid"), "{text}");
}

#[test]
fn bad_variation_is_reported_and_the_main_line_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("v.pgn");
    std::fs::write(
        &f,
        "[Result \"1-0\"]\n\n1. e4 e5 (1... c5 2. Nf3 Nxe4 (2... d6)) 2. Nf3 (2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7#) 2... Nc6 1-0\n",
    )
    .unwrap();
    let (games, code) = jsonl(&["analyze", "--jsonl", f.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    let g = &games[0];
    assert_eq!(g["ply_count"], 4, "the main line is replayed in full");
    let errors = g["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0]["line"], 3);
    assert_eq!(errors[0]["column"], 26);
    assert_eq!(errors[0]["ply"], 4);
    assert!(errors[0]["message"]
        .as_str()
        .unwrap()
        .contains("in a variation"));
    assert_eq!(g["result"]["agrees"], true);
}

#[test]
fn repetition_claims_and_automatic_draws() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("rep.pgn");
    let shuffle = "Nf3 Nf6 Ng1 Ng8 ";
    std::fs::write(
        &f,
        format!(
            "[Result \"1/2-1/2\"]\n\n{} 1/2-1/2\n\n[Result \"*\"]\n\n{} *\n\n[Result \"1-0\"]\n\n{} 1-0\n",
            shuffle.repeat(2),
            shuffle.repeat(4),
            shuffle.repeat(2)
        ),
    )
    .unwrap();
    let (games, code) = jsonl(&["analyze", "--jsonl", "--no-plies", f.to_str().unwrap()]);
    assert_eq!(code, Some(1));
    // Threefold: a draw may be claimed; a declared draw agrees.
    assert_eq!(games[0]["result"]["computed"], "*");
    assert_eq!(games[0]["result"]["claimable"], "n-fold-repetition");
    assert_eq!(games[0]["result"]["agrees"], true);
    // Fivefold: the game is drawn by rule; `*` contradicts it.
    assert_eq!(games[1]["result"]["computed"], "1/2-1/2");
    assert_eq!(games[1]["result"]["termination"], "n-fold-repetition");
    assert_eq!(games[1]["result"]["agrees"], false);
    // A resignation in a position where a draw is claimable is fine.
    assert_eq!(games[2]["result"]["agrees"], true);

    // The same facts through the host's own game loop.
    let reg = registry();
    let p = houserules_host::Pipeline::build(&reg, "chess", None, &[]).unwrap();
    let mut game = houserules_host::Game::new(&p, p.start_position().unwrap());
    for text in shuffle.repeat(4).split_whitespace() {
        let legal = game.legal_moves().unwrap();
        let m = houserules_host::notation::parse_move(&p, &game.position, text, &legal).unwrap();
        game.play(m).unwrap();
    }
    let st = game.status().unwrap();
    assert_eq!(st.outcome.unwrap().reason.as_str(), "n-fold-repetition");
}

fn read(path: &std::path::Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn round_trip_play_analyze_write() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.pgn");
    let b = dir.path().join("b.pgn");
    let c = dir.path().join("c.pgn");
    // Scripted, with SAN and coordinate moves, castling and a promotion race.
    houserules_ok([
        "play",
        "--moves",
        "e4 e5 g1f3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3",
        "--quiet",
        "--out",
        a.to_str().unwrap(),
    ]);
    assert!(
        read(&a).contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"),
        "{}",
        read(&a)
    );
    houserules_ok([
        "analyze",
        a.to_str().unwrap(),
        "--write-pgn",
        b.to_str().unwrap(),
    ]);
    assert_eq!(read(&a), read(&b));
    // Random games: checkmates, promotions, automatic draws.
    houserules_ok([
        "play",
        "--white",
        "random",
        "--black",
        "random",
        "--seed",
        "7",
        "--games",
        "25",
        "--out",
        a.to_str().unwrap(),
    ]);
    houserules_ok([
        "analyze",
        "-q",
        a.to_str().unwrap(),
        "--write-pgn",
        b.to_str().unwrap(),
    ]);
    assert_eq!(read(&a), read(&b));
    // The same seed gives the same games.
    houserules_ok([
        "play",
        "--white",
        "random",
        "--black",
        "random",
        "--seed",
        "7",
        "--games",
        "25",
        "--out",
        c.to_str().unwrap(),
    ]);
    assert_eq!(read(&a), read(&c));
    // Real files: normal form is a fixed point.
    let mut files: Vec<String> = python_chess_files()
        .iter()
        .map(|p| p.to_string_lossy().to_string())
        .collect();
    files.push(data("annotated.pgn").to_string_lossy().to_string());
    let mut args = vec!["analyze".to_string(), "-q".into()];
    args.extend(files);
    args.push("--write-pgn".into());
    args.push(b.to_string_lossy().to_string());
    houserules_ok(&args);
    houserules_ok([
        "analyze",
        "-q",
        b.to_str().unwrap(),
        "--write-pgn",
        c.to_str().unwrap(),
    ]);
    assert_eq!(read(&b), read(&c));
    let normal = read(&b);
    assert!(
        normal.contains("[Variant \"fischerandom\"]"),
        "960 games keep their own Variant tag (and their FEN)"
    );
    assert!(normal.contains(
        "[SetUp \"1\"]\n[FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1\"]"
    ));
    assert!(
        normal.contains("41. Bxf3 -- 42. Ke1 Qh1+ 1-0"),
        "null move kept"
    );
    assert!(!normal.contains('{'), "comments dropped");
    for line in normal.lines() {
        assert!(line.len() <= 80, "{line}");
    }
}

#[test]
fn jobs_keep_input_order() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.pgn");
    houserules_ok([
        "play",
        "--white",
        "random",
        "--black",
        "random",
        "--seed",
        "3",
        "--games",
        "40",
        "--out",
        a.to_str().unwrap(),
    ]);
    let mut all = std::fs::read_to_string(&a).unwrap();
    all.push_str(&read(&data("malformed.pgn")));
    std::fs::write(&a, all).unwrap();
    let one = houserules(["analyze", "--jsonl", a.to_str().unwrap()]);
    let two = houserules(["analyze", "--jsonl", "--jobs", "2", a.to_str().unwrap()]);
    assert_eq!(one.status.code(), Some(1));
    assert_eq!(two.status.code(), Some(1));
    assert_eq!(one.stdout, two.stdout);
    let n = String::from_utf8_lossy(&two.stdout).lines().count();
    assert_eq!(n, 51);
}

#[test]
fn usage_and_rule_errors_exit_2() {
    let out = houserules([
        "analyze",
        "--variant",
        "nonesuch",
        data("annotated.pgn").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown variant `nonesuch`"));
    let out = houserules(["analyze", "/no/such/file.pgn"]);
    assert_eq!(out.status.code(), Some(2));
    let out = houserules(["play", "--moves", "e4 e4", "--quiet"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ply 2"));
}

fn run_with_stdin(args: &[&str], input: &str) -> (String, Option<i32>) {
    let mut child = Command::new(built_artifacts().join("houserules"))
        .args(args)
        .env_remove("HOUSERULES_PLUGIN_PATH")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code(),
    )
}

#[test]
fn human_play_on_stdin_and_stdin_analysis() {
    let (out, code) = run_with_stdin(&["play"], "e4\nNf9\ne7e5\nmoves\nquit\n");
    assert_eq!(code, Some(0));
    assert!(out.contains("`Nf9` is not a move here"), "{out}");
    assert!(out.contains("legal: "), "{out}");
    assert!(out.contains("Result: * (quit)"), "{out}");
    assert!(out.contains("[White \"human\"]"), "{out}");
    let record_start = out.find("[Event").unwrap();
    let record = &out[record_start..];
    assert!(record.contains("\n1. e4 e5 *\n"), "{record}");
    // The record read back from standard input.
    let (back, code) = run_with_stdin(&["analyze", "--jsonl", "-"], record);
    assert_eq!(code, Some(0), "{back}");
    let g: Value = serde_json::from_str(back.lines().next().unwrap()).unwrap();
    assert_eq!(g["ply_count"], 2);
    assert_eq!(g["file"], "-");
}

#[test]
fn xiangqi_records_read_both_letters_of_the_horse_and_elephant() {
    // Fairy-Stockfish's SAN writes xiangqi's horse `H` and elephant `E` (letter synonyms);
    // records written with the piece table's `N` and `B` are read too.
    let record = "[Variant \"xiangqi\"]\n\n1. Hc3 Nc8 2. Bce3 Ece8 *\n";
    let (out, code) = run_with_stdin(&["analyze", "--jsonl", "-"], record);
    assert_eq!(code, Some(0), "{out}");
    let game: Value = serde_json::from_str(out.trim()).expect("one JSON line");
    let sans: Vec<&str> = game["plies"]
        .as_array()
        .expect("plies")
        .iter()
        .map(|p| p["san"].as_str().expect("san"))
        .collect();
    assert_eq!(sans, ["Hc3", "Hc8", "Ece3", "Ece8"], "{out}");
}

/// The main lines of the real-world files written in coordinate form (as the analysis
/// names each move, some in upper case) replay to the same plies as their SAN: the
/// structural reading of coordinate moves agrees with the SAN path move for move.
#[test]
fn coordinate_records_replay_as_their_san() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = python_chess_files();
    files.push(data("annotated.pgn"));
    let mut compared = 0;
    for file in &files {
        let (games, _) = jsonl(&["analyze", "--jsonl", file.to_str().unwrap()]);
        for (i, g) in games.iter().enumerate() {
            let plies = g["plies"].as_array().unwrap();
            if plies.is_empty() {
                continue;
            }
            let mut text = String::new();
            if let Some(fen) = g["tags"]["FEN"].as_str() {
                text.push_str(&format!("[FEN \"{fen}\"]\n"));
            }
            if let Some(v) = g["tags"]["Variant"].as_str() {
                text.push_str(&format!("[Variant \"{v}\"]\n"));
            }
            text.push('\n');
            for (k, p) in plies.iter().enumerate() {
                // A null move as `--` (`0000` reads as a move number). Castles too go in
                // coordinate form: a Chess960 castle whose king target is also a plain king
                // move's is written king takes rook (`f8h8`), so every form names one move.
                let m = match p["move"].as_str().unwrap() {
                    "0000" => "--",
                    m => m,
                };
                if k % 3 == 1 {
                    text.push_str(&m.to_ascii_uppercase());
                } else {
                    text.push_str(m);
                }
                text.push(' ');
            }
            // The result the rules give (a mate declared otherwise is an error).
            text.push_str(g["result"]["computed"].as_str().unwrap());
            text.push('\n');
            let path = dir.path().join(format!("coordinates-{compared}.pgn"));
            std::fs::write(&path, &text).unwrap();
            let (again, code) = jsonl(&["analyze", "--jsonl", path.to_str().unwrap()]);
            assert_eq!(code, Some(0), "{} #{}: {text}", file.display(), i + 1);
            assert_eq!(
                again[0]["plies"],
                g["plies"],
                "{} #{}",
                file.display(),
                i + 1
            );
            compared += 1;
        }
    }
    assert!(compared >= 18, "{compared} games compared");
}

#[test]
fn compressed_record_files_are_read_like_the_plain_ones() {
    // Made by the zstd and gzip programs (zstd -19; two files' frames one after the other,
    // as pzstd writes a file; gzip -9).
    let plain = |files: &[PathBuf]| {
        let args: Vec<&str> = ["analyze", "--jsonl", "--no-plies"]
            .into_iter()
            .chain(files.iter().map(|f| f.to_str().unwrap()))
            .collect();
        let (games, code) = jsonl(&args);
        assert_eq!(code, Some(0), "{files:?}");
        // The same games whatever the file's name.
        games
            .into_iter()
            .map(|mut g| {
                g.as_object_mut().unwrap().remove("file");
                g
            })
            .collect::<Vec<Value>>()
    };
    let annotated = plain(&[data("annotated.pgn")]);
    assert!(!annotated.is_empty());
    for f in ["annotated.pgn.zst", "annotated.pgn.gz"] {
        assert_eq!(plain(&[data(&format!("compressed/{f}"))]), annotated, "{f}");
    }
    // Every frame is read: the games of the two files (their lines counted on in one stream).
    let first = python_chess_files()[0].clone();
    let without_lines = |games: Vec<Value>| {
        games
            .into_iter()
            .map(|mut g| {
                g.as_object_mut().unwrap().remove("line");
                g
            })
            .collect::<Vec<Value>>()
    };
    assert_eq!(
        without_lines(plain(&[data("compressed/two-frames.pgn.zst")])),
        without_lines(plain(&[first, data("annotated.pgn")])),
    );
    // Standard input is sniffed too.
    let mut child = Command::new(built_artifacts().join("houserules"))
        .args(["analyze", "--jsonl", "--no-plies", "-"])
        .env_remove("HOUSERULES_PLUGIN_PATH")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let bytes = std::fs::read(data("compressed/annotated.pgn.gz")).unwrap();
    child.stdin.take().unwrap().write_all(&bytes).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().count(),
        annotated.len()
    );
    // A compression that is not read is named, with the way round it.
    let out = houserules(["analyze", data("compressed/game.pgn.bz2").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("is bzip2-compressed") && err.contains("bzip2 -dc"),
        "{err}"
    );
}
