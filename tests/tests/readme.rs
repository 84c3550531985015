//! The README's tour of the CLI, run line by line: the first five minutes of a new user are
//! the commands the README shows, so each one must work as written (against small files made
//! here). A line the test cannot run as written is listed below with the reason and with
//! what it runs instead; a line added to the tour is run from then on, and a listed line that
//! is no longer in the README fails the test, so the list cannot go stale.

use houserules_tests::{built_artifacts, workspace_root};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Lines not run here at all, and why (each is tested elsewhere).
const NOT_RUN: &[(&str, &str)] = &[
    (
        "houserules check-plugin ./libmy_rule.so",
        "needs a plugin crate built by the reader: third_party.rs builds scaffolded ones",
    ),
    (
        "houserules --plugin ./libmy_rule.so perft",
        "the same: third_party.rs loads a scaffolded preset with --plugin",
    ),
    (
        "--engine stockfish",
        "needs Stockfish installed: protocols.rs runs `match` between houserules engines",
    ),
];

/// Lines run with smaller numbers (the same options, quicker), as (line, from, to).
const SMALLER: &[(&str, &str, &str)] = &[
    ("houserules bench --depth 6", "6", "4"),
    ("houserules bench --search --depth 8", "8", "5"),
    ("--black engine:depth=2 --games 50", "50", "2"),
    ("--black random --games 1000", "1000", "50"),
];

/// What the interactive lines read on standard input, and what their output must show.
const SESSIONS: &[(&str, &str, &str)] = &[
    (
        "houserules play --white human --black random",
        "e4\nresign\n",
        "White resigns",
    ),
    (
        "houserules play --white human --black engine:movetime=500",
        "e4\nresign\n",
        "White resigns",
    ),
    ("houserules uci ", "uci\nisready\nquit\n", "readyok"),
    ("houserules xboard ", "xboard\nprotover 2\nquit\n", "done=1"),
];

/// The commands of the README's "A tour of the CLI" block, comments removed.
fn tour() -> Vec<String> {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).expect("README.md");
    let start = readme
        .find("## A tour of the CLI")
        .expect("the README has a tour of the CLI");
    let block = &readme[start..];
    let open = block.find("```sh\n").expect("the tour is a sh block") + "```sh\n".len();
    let close = block[open..].find("```").expect("the block is closed");
    block[open..open + close]
        .lines()
        .map(|l| match l.find("  #") {
            Some(i) => l[..i].trim_end(),
            None => l.trim_end(),
        })
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// Words of a command line as a POSIX shell splits them (double quotes only: the tour uses
/// no other quoting), and the file after `<`, if any.
fn words(line: &str) -> (Vec<String>, Option<String>) {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut started = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    assert!(!quoted, "unbalanced quotes: {line}");
    let stdin = match words.iter().position(|w| w == "<") {
        Some(i) => {
            let file = words.get(i + 1).cloned();
            words.truncate(i);
            file
        }
        None => None,
    };
    (words, stdin)
}

/// The small files the tour's lines name.
fn files(dir: &Path) {
    let game = "[Event \"tour\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"1\"]\n\
                [White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";
    for name in ["games.pgn", "x.pgn"] {
        std::fs::write(dir.join(name), game).unwrap();
    }
    let records = workspace_root().join("tests/data/records/annotated.pgn");
    std::fs::copy(records, dir.join("big.pgn")).unwrap();
    // The first example of docs/fairy.md, as a reader would copy it.
    std::fs::write(
        dir.join("my.ini"),
        "[minichess:chess]      # inherit the built-in chess\nmaxRank = 6\nmaxFile = 6\n\
         startFen = rnbkqr/pppppp/6/6/PPPPPP/RNBKQR w - - 0 1\ncastling = false\n",
    )
    .unwrap();
    // A reader's own rule: a shipped example under a new id.
    let decay = workspace_root().join("plugins/modifiers/examples/decay.json");
    let rule = std::fs::read_to_string(decay)
        .unwrap()
        .replace("\"id\": \"decay\"", "\"id\": \"my-rule\"");
    assert!(rule.contains("my-rule"), "{rule}");
    std::fs::write(dir.join("my-rule.json"), rule).unwrap();
}

#[test]
fn every_line_of_the_readme_tour_runs() {
    let lines = tour();
    assert!(lines.len() >= 30, "the tour has {} lines", lines.len());
    for (listed, _) in NOT_RUN {
        assert!(
            lines.iter().any(|l| l.contains(listed)),
            "`{listed}` is no longer in the tour: drop it from NOT_RUN"
        );
    }
    for (listed, _, _) in SMALLER {
        assert!(
            lines.iter().any(|l| l.contains(listed)),
            "`{listed}` is no longer in the tour: drop it from SMALLER"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    files(dir.path());
    let mut ran = 0;
    // In file order: later lines read what earlier ones wrote (g.pgn).
    for line in &lines {
        if NOT_RUN.iter().any(|(l, _)| line.contains(l)) {
            continue;
        }
        let (mut args, stdin_file) = words(line);
        assert_eq!(args[0], "houserules", "a tour line runs houserules: {line}");
        args.remove(0);
        if let Some((_, from, to)) = SMALLER.iter().find(|(l, _, _)| line.contains(l)) {
            let i = args.iter().position(|a| a == from).expect("the number");
            args[i] = to.to_string();
        }
        let session = SESSIONS
            .iter()
            .find(|(l, _, _)| line.starts_with(l) || format!("{line} ").starts_with(l));
        let input = match (session, &stdin_file) {
            (Some((_, keys, _)), _) => keys.to_string(),
            (None, Some(f)) => std::fs::read_to_string(dir.path().join(f)).unwrap(),
            (None, None) => String::new(),
        };
        let mut child = Command::new(built_artifacts().join("houserules"))
            .args(&args)
            .current_dir(dir.path())
            .env_remove("HOUSERULES_PLUGIN_PATH")
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("houserules runs");
        let mut pipe = child.stdin.take().unwrap();
        // A command that does not read its input may have ended already.
        let _ = pipe.write_all(input.as_bytes());
        drop(pipe);
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(0),
            "`{line}` (run as {args:?}) failed:\n{stdout}\n{stderr}"
        );
        assert!(!stderr.contains("panicked"), "`{line}`: {stderr}");
        assert!(
            line.contains("--quiet") || !stdout.trim().is_empty() || !stderr.trim().is_empty(),
            "`{line}` printed nothing"
        );
        if let Some((_, _, shows)) = session {
            assert!(
                stdout.contains(shows),
                "`{line}` shows `{shows}`:\n{stdout}"
            );
        }
        ran += 1;
    }
    assert_eq!(ran, lines.len() - NOT_RUN.len(), "every other line ran");
    // What the lines promise about their files.
    for (file, holds) in [
        ("game.pgn", "[Result \"0-1\"]"),
        ("hp.pgn", "[Presets \"piece-hp\"]"),
        ("corpus.pgn", "[Result"),
        ("engine.pgn", "[White \"houserules engine:depth=4"),
        ("clean.pgn", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"),
        ("annotated.pgn", "[%eval"),
        ("g.pgn", "[Modifiers"),
    ] {
        let text = std::fs::read_to_string(dir.path().join(file))
            .unwrap_or_else(|e| panic!("{file} was written: {e}"));
        assert!(text.contains(holds), "{file} holds `{holds}`:\n{text}");
    }
}

#[test]
fn the_tour_reader_splits_words_like_a_shell() {
    let (w, stdin) = words(r#"houserules fen --moves "e4 c5 Nf3" - < x.pgn"#);
    assert_eq!(w, ["houserules", "fen", "--moves", "e4 c5 Nf3", "-"]);
    assert_eq!(stdin.as_deref(), Some("x.pgn"));
    let (w, stdin) = words(r#"houserules match --engine "houserules uci" --games 20"#);
    assert_eq!(
        w,
        [
            "houserules",
            "match",
            "--engine",
            "houserules uci",
            "--games",
            "20"
        ]
    );
    assert_eq!(stdin, None);
}
