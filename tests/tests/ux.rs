//! A tool people pick up in five minutes: install into a prefix, `describe` for every id,
//! `list` in words, warnings for presets that cannot act, records that other tools read, and
//! the terminal game (on standard input, and in a real terminal through tmux).

use houserules_tests::{built_artifacts, houserules, houserules_ok, houserules_with_stdin};
use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn text(out: &std::process::Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn install_into_a_prefix_and_run_from_another_directory() {
    let prefix = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let out = houserules([
        "install".as_ref(),
        "--prefix".as_ref(),
        prefix.path().as_os_str(),
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("installed 7 plugins"), "{stdout}");
    let bin = prefix
        .path()
        .join("bin")
        .join(format!("houserules{}", std::env::consts::EXE_SUFFIX));
    assert!(prefix
        .path()
        .join("lib/houserules")
        .join(format!(
            "{}houserules_chess{}",
            std::env::consts::DLL_PREFIX,
            std::env::consts::DLL_SUFFIX
        ))
        .is_file());
    let run = |args: &[&str]| {
        Command::new(&bin)
            .args(args)
            .current_dir(elsewhere.path())
            .env_remove("HOUSERULES_PLUGIN_PATH")
            .output()
            .unwrap()
    };
    let out = run(&["perft", "--depth", "5"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.trim_end().ends_with("Nodes searched: 4865609"),
        "{stdout}"
    );
    // Every shipped plugin is found from the prefix, not from the build directory.
    let list: Value = serde_json::from_slice(&run(&["list", "--json"]).stdout).unwrap();
    let plugins = list["plugins"].as_array().unwrap();
    assert_eq!(plugins.len(), 7);
    for p in plugins {
        let path = p["path"].as_str().unwrap();
        assert!(
            Path::new(path).starts_with(prefix.path()),
            "{path} is not under the prefix"
        );
    }
    // Installing again over a running installation works (files are replaced, not
    // overwritten in place), and an older plugin left in the directory is removed.
    let stale = prefix.path().join("lib/houserules").join(format!(
        "{}houserules_old_thing{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    std::fs::write(&stale, b"old").unwrap();
    let out = run(&["install", "--prefix", prefix.path().to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out).1);
    assert!(!stale.exists());
}

/// The rule's own words: the description and the details paragraphs (not the lists the host
/// adds itself).
fn prose(d: &Value) -> String {
    let mut s = d["description"].as_str().unwrap_or_default().to_string();
    for p in d["details"].as_array().into_iter().flatten() {
        s.push(' ');
        s.push_str(p.as_str().unwrap_or_default());
    }
    s
}

#[test]
fn describe_answers_for_every_shipped_id() {
    let list: Value = serde_json::from_str(&houserules_ok(["list", "--json"])).unwrap();
    let mut ids: Vec<(String, Option<String>)> = Vec::new();
    let mut fens: Vec<String> = Vec::new();
    for v in list["variants"].as_array().unwrap() {
        let vid = v["id"].as_str().unwrap().to_string();
        // A listed variant that cannot be built (a Fairy-Stockfish built-in with a key the
        // plugin does not implement yet) has no layouts; describe gives list's error.
        if let Some(err) = v.get("error") {
            assert_eq!(v["plugin"], "fairy", "{v}");
            let d: Value =
                serde_json::from_str(&houserules_ok(["describe", vid.as_str(), "--json"])).unwrap();
            assert_eq!(&d["error"], err, "{vid}");
            continue;
        }
        ids.push((vid.clone(), None));
        for l in v["layouts"].as_array().unwrap() {
            ids.push((l["id"].as_str().unwrap().to_string(), Some(vid.clone())));
            fens.push(l["fen"].as_str().unwrap().to_string());
        }
    }
    let variant_ids: Vec<&str> = list["variants"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v["id"].as_str())
        .collect();
    for p in list["presets"].as_array().unwrap() {
        let pid = p["id"].as_str().unwrap().to_string();
        // A bare id names the variant first (the preset `coregal` and Fairy-Stockfish's
        // built-in variant `coregal`); with --variant it names the preset.
        let variant = variant_ids
            .contains(&pid.as_str())
            .then(|| "chess".to_string());
        ids.push((pid, variant));
    }
    assert!(ids.len() > 40, "{ids:?}");
    for (id, variant) in &ids {
        let mut args = vec!["describe", id.as_str(), "--json"];
        if let Some(v) = variant {
            args.extend(["--variant", v.as_str()]);
        }
        let d: Value = serde_json::from_str(&houserules_ok(&args)).unwrap();
        assert_eq!(d["id"], id.as_str());
        let words = prose(&d);
        assert!(words.len() > 20, "{id}: {d}");
        assert!(!d["examples"].as_array().unwrap().is_empty(), "{id}");
        for o in d["options"].as_array().into_iter().flatten() {
            let key = o["key"].as_str().unwrap();
            assert!(
                words.contains(key),
                "{id}: the words do not mention option `{key}`: {words}"
            );
            assert!(o["default"].as_str().is_some_and(|s| !s.is_empty()));
        }
        // The example commands assemble (run with --quiet and a few random moves).
        for e in d["examples"].as_array().unwrap() {
            let e = e.as_str().unwrap();
            let words: Vec<&str> = e.split_whitespace().skip(1).collect();
            if words.first() == Some(&"play") {
                let mut args = words.clone();
                args.extend([
                    "--white",
                    "random",
                    "--seed",
                    "1",
                    "--max-plies",
                    "4",
                    "--quiet",
                ]);
                let out = houserules(&args);
                assert!(out.status.success(), "{e}: {}", text(&out).1);
            }
        }
        let plain = houserules_ok(
            args.iter()
                .copied()
                .filter(|a| *a != "--json")
                .collect::<Vec<_>>(),
        );
        assert!(plain.contains("Example:"), "{plain}");
        // A FEN (or its board field) stays on one line however long: 10x10 Fairy-Stockfish
        // boards with walls or pockets are longer than 80 characters.
        for line in plain.lines() {
            assert!(
                line.chars().count() <= 80 || fens.iter().any(|f| f.contains(line.trim())),
                "{id}: {line}"
            );
        }
    }
    // Mode and hooks are explained; a layout shared by two variants asks which.
    let d = houserules_ok(["describe", "knights-leap-twice"]);
    assert!(
        d.contains("Mode: hybrid — adds to the variant's rules"),
        "{d}"
    );
    assert!(
        d.contains("transform_model — changes the rules model"),
        "{d}"
    );
    let out = houserules(["describe", "classic"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("add --variant"), "{}", text(&out).1);
    let out = houserules(["describe", "piece-hq"]);
    assert!(text(&out).1.contains("did you mean `piece-hp`"));
}

#[test]
fn list_says_what_each_rule_does() {
    let plain = houserules_ok(["list"]);
    assert!(
        plain.contains("Pieces have hit points (kings 1, others 2)."),
        "{plain}"
    );
    assert!(plain.contains("FIDE chess: castling"), "{plain}");
    assert!(plain.contains("houserules describe ID"));
    assert!(!plain.contains("hooks:"), "hook names stay in describe");
    // A variant that cannot be built carries its error in the JSON too.
    let tmp = tempfile::tempdir().unwrap();
    let ini = tmp.path().join("broken.ini");
    std::fs::write(&ini, "[brokenchess:chess]\nmaxRank = 99\n").unwrap();
    let v: Value = serde_json::from_str(&houserules_ok([
        "--variants",
        ini.to_str().unwrap(),
        "list",
        "--json",
    ]))
    .unwrap();
    let broken = v["variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == "brokenchess")
        .expect("listed");
    assert!(
        broken["error"]
            .as_str()
            .is_some_and(|e| e.contains("maxRank")),
        "{broken}"
    );
    let chess = v["variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == "chess")
        .unwrap();
    assert!(chess.get("error").is_none());
    assert!(chess["description"].as_str().unwrap().contains("FIDE"));
}

#[test]
fn a_preset_that_cannot_act_on_the_variant_is_a_warning() {
    let out = houserules([
        "perft",
        "--variant",
        "tictacrook_v1",
        "--preset",
        "knights-leap-twice",
        "--depth",
        "1",
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("Nodes searched"));
    assert!(
        stderr.contains("warning: preset `knights-leap-twice` cannot change anything")
            && stderr.contains("knights"),
        "{stderr}"
    );
    let out = houserules(["perft", "--preset", "knights-leap-twice", "--depth", "1"]);
    assert!(!text(&out).1.contains("warning"), "{}", text(&out).1);
    // A variant without a rules model cannot run a movement transform: a usage error that says so.
    let out = houserules([
        "perft",
        "--variant",
        "rookmania",
        "--preset",
        "knights-leap-twice",
        "--depth",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).1.contains("publishes none"), "{}", text(&out).1);
    // Both roles needed: rookmania has no bishops nor knights.
    let out = houserules([
        "fen",
        "--variant",
        "rookmania",
        "--preset",
        "knight-immunity",
    ]);
    assert!(
        text(&out).1.contains("bishops and knights"),
        "{}",
        text(&out).1
    );
    // describe --variant says it too.
    let d = houserules_ok(["describe", "rook-warp", "--variant", "tictacrook_v1"]);
    assert!(d.contains("Warning: it cannot change anything here"), "{d}");
}

#[test]
fn moves_are_read_with_numbers_and_in_long_algebraic_form() {
    let want = houserules_ok(["fen", "--moves", "e4 e5 Nf3 Nc6"]);
    for moves in [
        "1. e4 e5 2. Nf3 Nc6",
        "1.e4 e5 2.Nf3 2... Nc6",
        "e2-e4 e7-e5 Ng1-f3 Nb8-c6",
        "1. e2e4 e7e5 2. g1f3 b8c6 *",
    ] {
        assert_eq!(houserules_ok(["fen", "--moves", moves]), want, "{moves}");
    }
    let out = houserules_ok(["moves", "--moves", "1. e4 d5 2. e4xd5", "--json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["side_to_move"], "black");
    let rec = houserules_ok(["play", "--moves", "1. e2-e4 e5 2. Ng1-f3", "--quiet"]);
    assert!(rec.contains("\n1. e4 e5 2. Nf3 *\n"), "{rec}");
    // In a record file too.
    let (stdout, code) = with_stdin(&["analyze", "--jsonl"], "1. e2-e4 e7-e5 2. Qd1-h5 *\n");
    assert_eq!(code, Some(0), "{stdout}");
    let g: Value = serde_json::from_str(stdout.lines().next().unwrap()).unwrap();
    assert_eq!(g["ply_count"], 3);
}

fn with_stdin(args: &[&str], input: &str) -> (String, Option<i32>) {
    let (out, _, code) = houserules_with_stdin(args, input, &[]);
    (out, code)
}

#[test]
fn wrong_check_and_mate_marks_are_warnings() {
    let record =
        "[Event \"marks\"]\n\n1. e4 e5 2. Nf3+ Nc6 3. Bc4 Nf6 4. Ng5 d5 5. exd5 Nxd5 6. Nxf7# Qe7 \
                  7. Nxh8+ *\n";
    let (out, code) = with_stdin(&["analyze", "--jsonl"], record);
    assert_eq!(code, Some(0), "marks do not make a record invalid: {out}");
    let g: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let w: Vec<(u64, String)> = g["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| {
            (
                w["ply"].as_u64().unwrap(),
                w["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    // Nf3 and Nxh8 give no check, Nxf7 (a fork) neither check nor mate.
    assert_eq!(w.len(), 3, "{w:?}");
    assert_eq!(w[0].0, 3);
    assert!(w[0]
        .1
        .contains("`Nf3+`: marked as check, but it gives no check"));
    assert_eq!(w[1].0, 11);
    assert!(
        w[1].1
            .contains("`Nxf7#`: marked as mate, but it gives no check"),
        "{w:?}"
    );
    assert_eq!(w[2].0, 13);
    let (text, _) = with_stdin(&["analyze"], record);
    assert!(text.contains("warning at -:3:13 (ply 3): `Nf3+`"), "{text}");
    // A right mark and a mate written `+` are no warning.
    let (out, _) = with_stdin(&["analyze", "--jsonl"], "1. f3 e5 2. g4 Qh4+ 0-1\n");
    let g: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(g["warnings"].as_array().unwrap().len(), 0, "{g}");
}

#[test]
fn records_keep_their_tags_and_go_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let record = "[Event \"960\"]\n[Variant \"Chess960\"]\n[ECO \"A00\"]\n\
                  [FEN \"nbbrknrq/pppppppp/8/8/8/8/PPPPPPPP/NBBRKNRQ w KQkq - 0 1\"]\n\n1. e4 e5 *\n";
    let mut child = Command::new(built_artifacts().join("houserules"))
        .args(["analyze", "--write-pgn", "-"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(record.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stdout.starts_with("[Event \"960\"]"),
        "only records on stdout: {stdout}"
    );
    assert!(stdout.contains("[Variant \"Chess960\"]"), "{stdout}");
    assert!(stdout.contains("[ECO \"A00\"]"), "{stdout}");
    assert!(stdout.contains("\n1. e4 e5 *\n"), "{stdout}");
    assert!(
        stderr.contains("1 games: 1 valid"),
        "the report goes to stderr: {stderr}"
    );
    assert!(!dir.path().join("-").exists(), "no file named `-`");
}

#[test]
fn a_missing_custom_modifier_names_the_option() {
    let (out, code) = with_stdin(&["analyze"], "[Modifiers \"cavalry\"]\n\n1. e4 *\n");
    assert_eq!(code, Some(1));
    assert!(
        out.contains("custom modifier `cavalry`") && out.contains("--modifier FILE.json"),
        "{out}"
    );
}

/// Today's date as PGN writes it, computed here independently (UTC) — `play` uses local time,
/// so either of the two days around UTC midnight is accepted.
fn dates_around_now() -> Vec<String> {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    [-86_400i64, 0, 86_400]
        .iter()
        .map(|d| {
            let out = Command::new("date")
                .args(["-u", "-d", &format!("@{}", secs + d), "+%Y.%m.%d"])
                .output();
            match out {
                Ok(o) if o.status.success() => {
                    String::from_utf8_lossy(&o.stdout).trim().to_string()
                }
                _ => String::new(),
            }
        })
        .collect()
}

#[test]
fn play_writes_the_date_and_the_seed_only_when_used() {
    let out = houserules(["play", "--moves", "e4 e5", "--quiet"]);
    let (stdout, stderr) = text(&out);
    assert!(
        !stderr.contains("seed"),
        "no random player, no seed: {stderr}"
    );
    assert!(!stdout.contains("[Seed"), "{stdout}");
    let date = stdout
        .lines()
        .find_map(|l| l.strip_prefix("[Date \"")?.strip_suffix("\"]"))
        .expect("a Date tag")
        .to_string();
    assert!(
        date.len() == 10 && date.as_bytes()[4] == b'.' && date != "????.??.??",
        "{date}"
    );
    let days = dates_around_now();
    if days.iter().any(|d| !d.is_empty()) {
        assert!(days.contains(&date), "{date} not in {days:?}");
    }
    let out = houserules([
        "play",
        "--white",
        "random",
        "--black",
        "random",
        "--quiet",
        "--max-plies",
        "2",
    ]);
    let (stdout, stderr) = text(&out);
    assert!(stderr.starts_with("seed "), "{stderr}");
    assert!(stdout.contains("[Seed \""), "{stdout}");
}

#[test]
fn multi_move_turns_are_one_move_number_per_turn() {
    let rec = houserules_ok([
        "play",
        "--preset",
        "double-move",
        "--moves",
        "e4 d4 d5 Bg4 f3 h3 Bh5 e6",
        "--quiet",
    ]);
    assert!(
        rec.contains("\n1. e4 d4 1... d5 Bg4 2. f3 h3 2... Bh5 e6 *\n"),
        "{rec}"
    );
    // Monster: White's turns have two half-moves, Black's one.
    let mon = houserules_ok([
        "play",
        "--preset",
        "monster-rules",
        "--moves",
        "e4 d4 e5 f4 f5",
        "--quiet",
    ]);
    assert!(mon.contains("\n1. e4 d4 1... e5 2. f4 f5 *\n"), "{mon}");
    // Both read back, valid.
    for r in [&rec, &mon] {
        let (out, code) = with_stdin(&["analyze", "--jsonl"], r);
        assert_eq!(code, Some(0), "{out}");
    }
    // python-chess (which knows no double moves) reads such a file without choking: every game
    // is found with its headers, and the game after it is read in full.
    let python = Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .status();
    if !python.is_ok_and(|s| s.success()) {
        assert!(
            std::env::var_os("HOUSERULES_REQUIRE_TOOLS").is_none(),
            "python-chess is required here"
        );
        eprintln!("python-chess not installed: its part of the check skipped");
        return;
    }
    let normal = houserules_ok(["play", "--moves", "e4 e5 Nf3 Nc6", "--quiet"]);
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("multi.pgn");
    std::fs::write(&f, format!("{rec}{mon}{normal}")).unwrap();
    let script = "import sys, chess.pgn\n\
                  f = open(sys.argv[1])\n\
                  games = []\n\
                  while True:\n\
                  \x20   g = chess.pgn.read_game(f)\n\
                  \x20   if g is None: break\n\
                  \x20   games.append(g)\n\
                  print(len(games), games[0].headers['Presets'], games[1].headers['Presets'], \
                  len(list(games[2].mainline_moves())), len(games[2].errors))\n";
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(&f)
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stdout.trim(), "3 double-move monster-rules 4 0", "{stderr}");
}

#[test]
fn the_game_on_standard_input_takes_commands() {
    let (out, code) = with_stdin(
        &["play", "--preset", "piece-hp"],
        "help\ne4\nd5\nexd5\nundo\nmoves\nfen\nflip\nNf9\nresign\n",
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("Pieces (White upper case, Black lower case): P pawn"),
        "{out}"
    );
    assert!(out.contains("undo    take back"), "{out}");
    assert!(out.contains("The digit beside a piece is its Hp"), "{out}");
    assert!(out.contains("Also: damage p d5"), "{out}");
    assert!(out.contains("Taken back."), "{out}");
    assert!(out.contains("Legal moves: "), "{out}");
    assert!(out.contains("{Hp:"), "fen prints the position: {out}");
    assert!(
        out.contains("     h   g   f   e   d   c   b   a"),
        "flipped: {out}"
    );
    assert!(out.contains("`Nf9` is not a move here"), "{out}");
    assert_eq!(
        out.matches("Legal moves: ").count(),
        1,
        "the legal moves once, when asked: {out}"
    );
    assert!(out.contains("Result: 0-1 (White resigns)"), "{out}");
    let rec = &out[out.find("[Event").unwrap()..];
    assert!(
        rec.contains("[Result \"0-1\"]") && rec.contains("\n1. e4 d5 0-1\n"),
        "{rec}"
    );
    for line in out.lines() {
        assert!(
            line.chars().count() <= 80 || line.contains("{Hp:"),
            "{line}"
        );
    }
    // No colour codes when standard output is not a terminal.
    assert!(!out.contains('\x1b'));
    // A draw offer to a person who accepts, and the half-move of a multi-move turn.
    let (out, _) = with_stdin(&["play", "--preset", "double-move"], "e4\ndraw\nyes\n");
    assert!(
        out.contains("White to move (half-move 2 of the turn)"),
        "{out}"
    );
    assert!(
        out.contains("White offers a draw. Black, do you accept?"),
        "{out}"
    );
    assert!(out.contains("Result: 1/2-1/2 (draw agreed)"), "{out}");
    // A repeated position lets the player to move claim the draw.
    let (out, _) = with_stdin(&["play"], "Nf3\nNf6\nNg1\nNg8\nNf3\nNf6\nNg1\nNg8\ndraw\n");
    assert!(
        out.contains("Result: 1/2-1/2 (draw claimed (n-fold-repetition))"),
        "{out}"
    );
    // A random opponent declines; the letters of another variant are explained.
    let (out, _) = with_stdin(
        &[
            "play",
            "--variant",
            "rookmania",
            "--black",
            "random",
            "--seed",
            "2",
        ],
        "draw\nquit\n",
    );
    assert!(out.contains("Black declines the draw."), "{out}");
    assert!(out.contains("C pao") && out.contains("B basilisk"), "{out}");
}

/// A terminal session in tmux: keys in, screen out.
struct Tmux {
    name: String,
    /// The server's socket, in the test's own directory so that nothing is left behind.
    socket: std::path::PathBuf,
}

impl Tmux {
    fn start(cmd: &str, dir: &Path) -> Option<Tmux> {
        // Tests run in parallel threads of one process, and one test may open a second
        // session while the first is closing. Each session has its own server (`-S`): on a
        // shared server, a new session could reach a server that is exiting because its
        // last session just closed ("server exited unexpectedly").
        static SESSIONS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = SESSIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!("houserules-test-{}-{n}", std::process::id());
        let socket = dir.join(format!("tmux-{n}.sock"));
        let ok = Command::new("tmux")
            .arg("-S")
            .arg(&socket)
            .args([
                "new-session",
                "-d",
                "-x",
                "80",
                "-y",
                "50",
                "-s",
                &name,
                "-c",
            ])
            .arg(dir)
            .arg(cmd)
            .status()
            .ok()?
            .success();
        ok.then_some(Tmux { name, socket })
    }
    fn screen(&self) -> String {
        let out = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(["capture-pane", "-p", "-t", &self.name])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
    /// The screen with its colour attributes as escape sequences.
    fn screen_with_colour(&self) -> String {
        let out = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(["capture-pane", "-p", "-e", "-t", &self.name])
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
    fn keys(&self, text: &str) {
        Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(["send-keys", "-t", &self.name, "-l", text])
            .status()
            .unwrap();
        Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(["send-keys", "-t", &self.name, "Enter"])
            .status()
            .unwrap();
    }
    /// Waits until the screen shows `what` (10 s at most).
    fn wait_for(&self, what: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(what) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "`{what}` never appeared on the screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .arg("kill-server")
            .status();
    }
}

#[test]
fn a_piece_hp_game_in_a_real_terminal() {
    let have_tmux = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    if !have_tmux {
        assert!(
            std::env::var_os("HOUSERULES_REQUIRE_TOOLS").is_none(),
            "tmux is required here"
        );
        eprintln!("tmux not installed: the terminal test is skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let bin = built_artifacts().join("houserules");
    let cmd = format!(
        "env -u HOUSERULES_PLUGIN_PATH NO_COLOR=1 {} play --preset piece-hp --out game.pgn; \
         echo GAME-OVER; sleep 30",
        bin.display()
    );
    let t = Tmux::start(&cmd, dir.path()).expect("tmux starts");
    let s = t.wait_for("White to move");
    assert!(
        s.contains("K1") && s.contains("Q2"),
        "HP beside the pieces:\n{s}"
    );
    t.keys("e4");
    t.wait_for("Black to move");
    t.keys("d5");
    t.wait_for("1... d5");
    t.keys("exd5");
    // The pawn on d5 is damaged and pushed to d6 (clockwise from north): "p1" on d6.
    let s = t.wait_for("Also: damage p d5");
    let rank6 = s
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with("6 "))
        .unwrap_or_else(|| panic!("no rank 6 on:\n{s}"))
        .to_string();
    assert!(
        rank6.contains(" p1 "),
        "the damaged pawn's HP on the screen: {rank6}\n{s}"
    );
    assert!(s.contains("[P2]"), "the last move marked:\n{s}");
    assert!(
        !t.screen_with_colour().contains("\x1b[7m"),
        "no colour with NO_COLOR"
    );
    t.keys("undo");
    let s = t.wait_for("Taken back.");
    assert!(
        s.contains("Moves: 1. e4 d5\n") || s.contains("Moves: 1. e4 d5 "),
        "{s}"
    );
    t.keys("Nf3");
    t.wait_for("2. Nf3");
    t.keys("resign");
    let s = t.wait_for("GAME-OVER");
    assert!(s.contains("Result: 1-0 (Black resigns)"), "{s}");
    for line in s.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }
    let record = std::fs::read_to_string(dir.path().join("game.pgn")).unwrap();
    assert!(record.contains("[Presets \"piece-hp\"]"), "{record}");
    assert!(record.contains("\n1. e4 d5 2. Nf3 1-0\n"), "{record}");
    let (out, code) = with_stdin(&["analyze", "--jsonl"], &record);
    assert_eq!(code, Some(0), "the record reads back: {out}");
    let g: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(g["ply_count"], 3);
    assert_eq!(g["result"]["declared"], "1-0");
    drop(t);
    // Without NO_COLOR, on a terminal, the last move is in reverse video.
    let cmd = format!(
        "env -u HOUSERULES_PLUGIN_PATH -u NO_COLOR TERM=xterm {} play; sleep 30",
        bin.display()
    );
    let t = Tmux::start(&cmd, dir.path()).expect("tmux starts");
    t.wait_for("White to move");
    t.keys("e4");
    t.wait_for("Black to move");
    assert!(t.screen_with_colour().contains("\x1b[7m"), "{}", t.screen());
}

#[test]
fn check_variants_reports_every_problem_of_a_file_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let ini = tmp.path().join("mine.ini");
    std::fs::write(
        &ini,
        "[fine:chess]\nmaxRank = 8\n\
         [twice:chess]\nzzz = 1\nmaxRank = 99\ncastlingRank = 9\n\
         [child:twice]\nmaxFile = 6\n",
    )
    .unwrap();
    let path = ini.to_str().unwrap();
    let out = houserules(["check-variants", path]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    // Every problem of the section, each with file:line and key.
    for want in [
        format!("{path}:4: key `zzz`: unsupported key"),
        format!("{path}:5: key `maxRank`: 99 ranks"),
        format!("{path}:6: key `castlingRank`"),
    ] {
        assert!(stdout.contains(&want), "{want}\n{stdout}");
    }
    // The child of a refused section says so in one line, not with the parent's errors.
    assert!(
        stdout.contains("[child]: the parent section [twice] is refused"),
        "{stdout}"
    );
    assert!(stdout.contains("3 sections, 1 load, 2 refused"), "{stdout}");
    // `list --from` shows that file's variants only.
    let listed = houserules_ok(["--variants", path, "list", "--from", path]);
    assert!(
        listed.contains("fine") && !listed.contains("mixedchess_v5"),
        "{listed}"
    );
    // A file that loads exits 0; an unreadable one is a usage error.
    std::fs::write(&ini, "[fine:chess]\nmaxRank = 8\n").unwrap();
    assert_eq!(houserules(["check-variants", path]).status.code(), Some(0));
    let missing = tmp.path().join("nothere.ini");
    let out = houserules(["check-variants", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
}
