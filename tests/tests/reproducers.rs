//! The reproducers of issue 14, each ending in a per-record error or a correct result (the
//! plugin faults and the 2,000-game corpus are in `faults.rs`, the worker-panic deadlock in
//! the host's `batch` tests).

use houserules_host::analyze::{Analyzer, Options};
use houserules_host::pgn::read_all;
use houserules_tests::{built_artifacts, cdylib, houserules, registry};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let f = dir.join(name);
    std::fs::write(&f, text).unwrap();
    f
}

fn run(args: &[&str]) -> (Vec<Value>, i32, String) {
    let out = houserules(args);
    let games = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    (
        games,
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn deep(n: usize) -> String {
    format!("1. e4 {}{} *\n", "(e4 ".repeat(n), ")".repeat(n))
}

/// 1: variations 1,000 deep are read and checked with two jobs; 3,000 deep they are one
/// record's error; the records around are intact.
#[test]
fn deep_variations() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "n.pgn", &deep(1000));
    for iso in ["--isolate", "--no-isolate"] {
        let (g, code, err) = run(&[
            "analyze",
            "--jsonl",
            "--jobs",
            "2",
            iso,
            f.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{iso}: {err}");
        assert_eq!(g.len(), 1);
    }
    let text = format!("1. d4 *\n{}1. c4 *\n", deep(3000));
    let f = write(dir.path(), "d.pgn", &text);
    let (g, code, err) = run(&["analyze", "--jsonl", f.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(g.len(), 3);
    assert!(g[1]["errors"][0]["message"]
        .as_str()
        .unwrap()
        .contains("nested deeper than 1000 levels"));
    assert_eq!(g[1]["errors"][0]["line"], 2);
    assert!(g[0]["errors"].as_array().unwrap().is_empty());
    assert!(g[2]["errors"].as_array().unwrap().is_empty());
}

/// 2: 80,000 games on one line: every one reported (the reader is linear; not timed here).
#[test]
fn many_games_on_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "o.pgn", &"1. e4 e5 * ".repeat(80_000));
    let (g, code, err) = run(&["analyze", "--jsonl", "--no-plies", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(g.len(), 80_000);
    assert_eq!(g[79_999]["index"], 80_000);
}

/// 3: an 80,000-ply game with piece-hp (repetition counts independent of the length).
#[test]
fn a_long_game_with_piece_hp() {
    let dir = tempfile::tempdir().unwrap();
    let moves = "Nf3 Nf6 Ng1 Ng8 ".repeat(20_000);
    let text = format!("[Presets \"piece-hp\"]\n\n{moves}1/2-1/2\n");
    let f = write(dir.path(), "long.pgn", &text);
    let (g, code, err) = run(&["analyze", "--jsonl", "--no-plies", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(g[0]["ply_count"], 80_000);
    assert_eq!(g[0]["result"]["termination"], "n-fold-repetition");
}

/// 6: plugins come from named places only.
#[test]
fn loading_from_named_places_only() {
    let dir = tempfile::tempdir().unwrap();
    let chess = built_artifacts().join(format!(
        "{}houserules_chess{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    // A bare name is a file in the working directory, not a search of the loader's path.
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::copy(&chess, elsewhere.join("libhouserules_chess.so")).unwrap();
    let out = Command::new(built_artifacts().join("houserules"))
        .current_dir(dir.path())
        .env("LD_LIBRARY_PATH", &elsewhere)
        .args(["--plugin", "libhouserules_chess.so", "list"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("libhouserules_chess.so: no such file"),
        "{err}"
    );
    let out = Command::new(built_artifacts().join("houserules"))
        .current_dir(&elsewhere)
        .args([
            "--no-default-plugins",
            "--plugin",
            "libhouserules_chess.so",
            "list",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("libhouserules_chess.so"));

    // In a directory: only `libhouserules_*`; a second copy of an id is reported with the
    // file that won; a missing directory is an error; nothing found says where it looked.
    let plugins = dir.path().join("plugins");
    std::fs::create_dir_all(&plugins).unwrap();
    std::fs::copy(&chess, plugins.join("libother.so")).unwrap();
    std::fs::copy(&chess, plugins.join("libhouserules_chess_copy.so")).unwrap();
    let (_, code, err) = run(&["--plugin-dir", plugins.to_str().unwrap(), "list"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("libother.so"), "{err}");
    // --plugin-dir comes before the executable's directory: the copy wins, the bundled
    // file is reported with the copy's name.
    assert!(
        err.contains(&format!(
            "libhouserules_chess.so: not loaded: its id `chess` is already taken by {}",
            plugins.join("libhouserules_chess_copy.so").display()
        )),
        "{err}"
    );
    let (_, code, err) = run(&["--plugin-dir", "/nonexistent/plugins", "list"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("/nonexistent/plugins: no such directory"),
        "{err}"
    );
    let out = houserules(["--no-default-plugins", "list"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no plugins loaded; looked in: nowhere"),
        "{err}"
    );
}

/// 6: a library in a plugin directory that is no plugin is reported without running its
/// load-time code (its symbol table is read, it is not opened).
#[test]
fn a_non_plugin_is_reported_without_running_it() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let src = format!(
        "#[used]\n#[link_section = \".init_array\"]\nstatic INIT: extern \"C\" fn() = init;\n\
         extern \"C\" fn init() {{ let _ = std::fs::write({:?}, \"x\"); }}\n\
         #[no_mangle]\npub extern \"C\" fn plain_add(a: u32, b: u32) -> u32 {{ a + b }}\n",
        marker.display().to_string()
    );
    let crate_dir = dir.path().join("plain");
    cdylib::write_crate(&crate_dir, "plain_init", &src);
    let lib = cdylib::build(&crate_dir, "plain_init", &[]);
    let plugins = dir.path().join("plugins");
    std::fs::create_dir_all(&plugins).unwrap();
    std::fs::copy(&lib, plugins.join("libhouserules_plain.so")).unwrap();
    let (_, code, err) = run(&["--plugin-dir", plugins.to_str().unwrap(), "list"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("libhouserules_plain.so: not a houserules plugin"),
        "{err}"
    );
    assert!(!marker.exists(), "its load-time code ran");
}

/// 7: the smaller defects.
#[test]
fn smaller_defects() {
    let dir = tempfile::tempdir().unwrap();
    // FEN error columns count characters.
    let out = houserules([
        "fen",
        "--fen",
        "ééé rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("column 60"), "{err}");
    // A non-ASCII FEN field in the fairy plugin is an error, never a crash (a caught panic
    // until the plugin's own fix, issue 13).
    let out = houserules([
        "fen",
        "--variant",
        "mixedchess_v5",
        "--fen",
        "8/8/8/8/8/8/8/8 w - é 0 1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    // A file of only `}` is one invalid record; an empty file is reported.
    let f = write(dir.path(), "brace.pgn", "}");
    let (g, code, _) = run(&["analyze", "--jsonl", f.to_str().unwrap()]);
    assert_eq!((g.len(), code), (1, 1));
    let f = write(dir.path(), "empty.pgn", "\n\n");
    let (g, code, err) = run(&["analyze", "--jsonl", f.to_str().unwrap()]);
    assert_eq!((g.len(), code), (0, 1), "{err}");
    assert!(err.contains("empty.pgn: no game record in it"), "{err}");
    // A stray second result token is no phantom valid record.
    let f = write(dir.path(), "stray.pgn", "1. e4 e5 1-0 1-0\n");
    let (g, code, _) = run(&["analyze", "--jsonl", f.to_str().unwrap()]);
    assert_eq!((g.len(), code), (2, 1));
    assert!(g[1]["errors"][0]["message"]
        .as_str()
        .unwrap()
        .contains("stray result token"));
    // A million stray braces are one record with a bounded list of errors.
    let f = write(dir.path(), "braces.pgn", &"} ".repeat(1_000_000));
    let out = houserules(["analyze", "--jsonl", f.to_str().unwrap()]);
    let line = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(line.len() < 20_000, "{} bytes", line.len());
    assert!(line.contains("in this record are not listed"), "{line}");
    // 20 MB of move tokens: an error of the record past 1,000,000 moves.
    let f = write(
        dir.path(),
        "tokens.pgn",
        &format!("{}*\n", "e4 ".repeat(1_200_000)),
    );
    let (g, _, _) = run(&["analyze", "--jsonl", "--no-plies", f.to_str().unwrap()]);
    assert!(g[0]["errors"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["message"]
            .as_str()
            .unwrap()
            .contains("more than 1000000 moves")));
    // --jobs 100000 is capped.
    let f = write(dir.path(), "one.pgn", "1. e4 *\n");
    let (g, code, err) = run(&[
        "analyze",
        "--jsonl",
        "--jobs",
        "100000",
        f.to_str().unwrap(),
    ]);
    assert_eq!((g.len(), code), (1, 0), "{err}");
    assert!(
        err.contains("--jobs 100000 is more than 4 per CPU"),
        "{err}"
    );
    // perft refuses absurd depths up front.
    let out = houserules(["perft", "--depth", "1000000"]);
    assert_eq!(out.status.code(), Some(2));
}

/// 7: the rules cache keeps at most 64 rule sets, whatever the corpus.
#[test]
fn the_rules_cache_is_bounded() {
    let reg = registry();
    let mut an = Analyzer::new(&reg, Options::default());
    for i in 0..200 {
        let text = format!("[Presets \"piece-hp:king={}\"]\n\n1. e4 *\n", 1 + i % 100);
        let rec = &read_all(&text)[0];
        let _ = an.analyze(rec, i, "-");
        assert!(an.cached_rules() <= 64);
    }
}
