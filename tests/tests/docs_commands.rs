//! The commands the README and the user docs show, run line by line: the first five minutes
//! of a new user are the commands the docs show, so each one must work as written (against
//! small files made here). A command the test cannot run as written is listed below with the
//! reason and with what it runs instead; a command added to the docs is run from then on, and
//! a listed command that is no longer in the docs fails the test, so the lists cannot go stale.

use houserules_tests::{houserules_in, workspace_root};
use std::path::Path;

/// Commands not run here at all, and why (each is tested elsewhere).
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
    (
        "--engine \"fairy-stockfish\"",
        "needs Fairy-Stockfish installed (docs/benchmarks.md has the figures)",
    ),
    (
        "--engine fairy-stockfish",
        "needs Fairy-Stockfish installed (docs/benchmarks.md has the figures)",
    ),
    (
        "--openings openings.pgn --games 100",
        "a 100-game match: protocols.rs runs matches with openings",
    ),
    (
        "--engine fairymax",
        "needs Fairy-Max installed: protocols.rs runs `match` with XBoard engines (houserules' \
         own and scripted ones)",
    ),
    (
        "--preset some-preset:k=v",
        "a placeholder for the reader's own preset",
    ),
];

/// Commands run with another value (the same options, quicker), as (command, from, to).
const CHANGED: &[(&str, &str, &str)] = &[
    ("houserules bench --depth 6", "6", "4"),
    ("houserules bench --search --depth 8", "8", "5"),
    ("--black engine:depth=2 --games 50", "50", "2"),
    ("--black random --games 1000", "1000", "50"),
    ("--seed 1 --games 10000", "10000", "50"),
    ("--black engine:depth=3 --games 100", "100", "2"),
    (
        "--white engine:nodes=20000 --black engine:depth=4",
        "engine:nodes=20000",
        "engine:nodes=2000",
    ),
    (
        "--black engine:depth=6 --preset double-move",
        "engine:depth=6",
        "engine:depth=3",
    ),
    // The records of this line are games under piece-hp, which the rule requires.
    (
        "houserules analyze games.pgn --modifier my-rule.json",
        "games.pgn",
        "hp-games.pgn",
    ),
];

/// The documents read, and the heading whose first `sh` block is read (`None`: every `sh`
/// block of the document).
const DOCUMENTS: &[(&str, Option<&str>)] = &[
    ("README.md", Some("## A tour of the CLI")),
    ("docs/engine.md", None),
    ("docs/fairy.md", None),
    ("docs/modifiers.md", None),
    ("docs/records.md", None),
];

/// The `houserules` commands of `document`'s `sh` blocks (after `heading`, only its first
/// block): comments removed, continued lines joined, `cat FILE | houserules ...` kept.
fn commands(document: &str, heading: Option<&str>) -> Vec<String> {
    let text = std::fs::read_to_string(workspace_root().join(document)).expect(document);
    let mut text = text.as_str();
    if let Some(h) = heading {
        text = &text[text.find(h).unwrap_or_else(|| panic!("{document}: {h}"))..];
    }
    let mut out = Vec::new();
    while let Some(open) = text.find("```sh\n") {
        let body = &text[open + "```sh\n".len()..];
        let close = body.find("```").expect("the block is closed");
        let mut joined = String::new();
        for line in body[..close].lines() {
            let line = match line.find(" #") {
                Some(i) => &line[..i],
                None => line,
            };
            let line = line.trim();
            match line.strip_suffix('\\') {
                Some(head) => {
                    joined.push_str(head);
                    joined.push(' ');
                }
                None => {
                    joined.push_str(line);
                    let command = std::mem::take(&mut joined);
                    let command = command.split_whitespace().collect::<Vec<_>>().join(" ");
                    if command.starts_with("houserules ")
                        || (command.starts_with("cat ") && command.contains("| houserules "))
                    {
                        out.push(command);
                    }
                }
            }
        }
        text = &body[close + 3..];
        if heading.is_some() {
            break;
        }
    }
    out
}

/// What an interactive command reads on standard input, and what its output must show.
fn session(args: &[String]) -> Option<(&'static str, &'static str)> {
    let command = args
        .iter()
        .find(|a| ["play", "uci", "xboard"].contains(&a.as_str()))?;
    match command.as_str() {
        "uci" => Some(("uci\nisready\nquit\n", "readyok")),
        "xboard" => Some(("xboard\nprotover 2\nquit\n", "done=1")),
        _ => {
            let side = |flag: &str| {
                args.iter()
                    .position(|a| a == flag)
                    .and_then(|i| args.get(i + 1))
                    .map_or("human", String::as_str)
            };
            let human = side("--white") == "human" || side("--black") == "human";
            (human && !args.iter().any(|a| a == "--moves")).then_some(("resign\n", "resigns"))
        }
    }
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

/// The small files the commands name.
fn files(dir: &Path) {
    let game = "[Event \"tour\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"1\"]\n\
                [White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";
    for name in ["games.pgn", "x.pgn"] {
        std::fs::write(dir.join(name), game).unwrap();
    }
    std::fs::write(
        dir.join("hp-games.pgn"),
        game.replace("[Result \"*\"]", "[Result \"*\"]\n[Presets \"piece-hp\"]"),
    )
    .unwrap();
    let records = workspace_root().join("tests/data/records/annotated.pgn");
    std::fs::copy(records, dir.join("big.pgn")).unwrap();
    // A compressed file as lichess publishes them (the examples' names).
    let zst = workspace_root().join("tests/data/records/compressed/annotated.pgn.zst");
    for name in [
        "lichess_db.pgn.zst",
        "lichess_db_standard_rated_2013-01.pgn.zst",
    ] {
        std::fs::copy(&zst, dir.join(name)).unwrap();
    }
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

/// Runs `command` in `dir`; panics with its output when it fails.
fn run(dir: &Path, command: &str) {
    let (command, piped) = match command.split_once(" | ") {
        Some((cat, rest)) if cat.starts_with("cat ") => (
            rest.to_string(),
            Some(cat["cat ".len()..].trim().to_string()),
        ),
        _ => (command.to_string(), None),
    };
    let (mut args, stdin_file) = words(&command);
    assert_eq!(args[0], "houserules", "{command}");
    args.remove(0);
    if let Some((_, from, to)) = CHANGED.iter().find(|(l, _, _)| command.contains(l)) {
        let i = args
            .iter()
            .position(|a| a == from)
            .expect("the value to change");
        args[i] = to.to_string();
    }
    let session = session(&args);
    let input = match (session, stdin_file.or(piped)) {
        (Some((keys, _)), _) => keys.to_string(),
        (None, Some(f)) => std::fs::read_to_string(dir.join(f)).unwrap(),
        (None, None) => String::new(),
    };
    let (stdout, stderr, code) = houserules_in(Some(dir), &args, &input, &[("NO_COLOR", "1")]);
    assert_eq!(
        code,
        Some(0),
        "`{command}` (run as {args:?}) failed:\n{stdout}\n{stderr}"
    );
    assert!(!stderr.contains("panicked"), "`{command}`: {stderr}");
    assert!(
        ["--quiet", "--out"].iter().any(|o| command.contains(o))
            || !stdout.trim().is_empty()
            || !stderr.trim().is_empty(),
        "`{command}` printed nothing"
    );
    if let Some((_, shows)) = session {
        assert!(
            stdout.contains(shows),
            "`{command}` shows `{shows}`:\n{stdout}"
        );
    }
}

#[test]
fn every_command_of_the_readme_and_the_user_docs_runs() {
    let all: Vec<(&str, Vec<String>)> = DOCUMENTS
        .iter()
        .map(|&(d, h)| (d, commands(d, h)))
        .collect();
    let tour = &all[0].1;
    assert!(tour.len() >= 30, "the tour has {} commands", tour.len());
    for (d, c) in &all {
        assert!(!c.is_empty(), "{d} shows no command");
    }
    let every = || all.iter().flat_map(|(_, c)| c.iter());
    for (listed, _) in NOT_RUN {
        assert!(
            every().any(|l| l.contains(listed)),
            "`{listed}` is no longer in the docs: drop it from NOT_RUN"
        );
    }
    for (listed, _, _) in CHANGED {
        assert!(
            every().any(|l| l.contains(listed)),
            "`{listed}` is no longer in the docs: drop it from CHANGED"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    files(dir.path());
    let mut ran = 0;
    // In document order: later commands read what earlier ones wrote (g.pgn).
    for command in every() {
        if NOT_RUN.iter().any(|(l, _)| command.contains(l)) {
            continue;
        }
        run(dir.path(), command);
        ran += 1;
    }
    assert!(ran >= 50, "{ran} commands ran");
    // What the tour's commands promise about their files.
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
fn commands_are_split_into_words_like_a_shell() {
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
