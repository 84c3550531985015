//! The protocols (`houserules uci`, `houserules xboard`), the match arbiter and
//! `analyze --engine`, driven as a GUI, python-chess or a match tool would drive them.

use houserules_tests::{built_artifacts, houserules};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

fn binary() -> std::path::PathBuf {
    built_artifacts().join("houserules")
}

/// An engine process spoken to line by line.
struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Everything read so far (for failure messages).
    seen: Vec<String>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(binary())
            .args(args)
            .env_remove("HOUSERULES_PLUGIN_PATH")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("houserules starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines: rx,
            seen: Vec::new(),
        }
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Reads lines until one starts with `prefix`; returns the lines read, that one last.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    let hit = l.starts_with(prefix);
                    got.push(l);
                    if hit {
                        return got;
                    }
                }
                Err(_) => panic!(
                    "no line starting with `{prefix}`; read so far:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// The last line of [`Session::until`].
    fn line(&mut self, prefix: &str) -> String {
        self.until(prefix).pop().unwrap()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
    }
}

/// Checks a game given as coordinate moves with `analyze`: every move legal under the rules.
/// The move of the last line read, a `bestmove` line.
fn best_move(out: &[String]) -> String {
    let last = out.last().expect("a bestmove line");
    last.split_whitespace()
        .nth(1)
        .expect("bestmove M")
        .to_string()
}

fn assert_no_line(lines: &[String], prefix: &str) {
    assert!(
        !lines.iter().any(|l| l.starts_with(prefix)),
        "a `{prefix}` line: {lines:?}"
    );
}

fn assert_valid_game(tags: &str, moves: &[String]) {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("g.pgn");
    std::fs::write(&f, format!("{tags}\n{} *\n", moves.join(" "))).unwrap();
    let out = houserules(["analyze".as_ref(), "--json".as_ref(), f.as_os_str()]);
    let text = String::from_utf8_lossy(&out.stdout);
    let v: serde_json::Value = serde_json::from_str(&text).expect("analyze writes JSON");
    let g = &v["games"][0];
    // The record declares `*`: a game the engines finished (checkmate before the ply limit)
    // contradicts it, which says nothing about the moves.
    let finished = g["result"]["computed"] != "*";
    let errors: Vec<&serde_json::Value> = g["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .filter(|e| {
            !(finished
                && e["ply"] == moves.len()
                && e["message"]
                    .as_str()
                    .is_some_and(|m| m.starts_with("the declared result * contradicts")))
        })
        .collect();
    assert!(errors.is_empty(), "{text}");
    assert_eq!(g["ply_count"], moves.len(), "{text}");
}

#[test]
fn uci_chess960_writes_castles_as_king_takes_rook() {
    // Chess960 GUIs set UCI_Chess960 and then expect a castle as king takes rook (`e1h1`);
    // moves are read in either form.
    let mut s = Session::start(&["uci"]);
    s.send("uci");
    let lines = s.until("uciok");
    assert!(
        lines
            .iter()
            .any(|l| l == "option name UCI_Chess960 type check default false"),
        "{lines:?}"
    );
    let fen = "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let castles = |s: &mut Session| {
        s.send(fen);
        s.send("go perft 1");
        let mut moves: Vec<String> = s
            .until("Nodes searched")
            .iter()
            .filter_map(|l| l.strip_suffix(": 1"))
            .filter(|m| ["e1g1", "e1c1", "e1h1", "e1a1"].contains(m))
            .map(str::to_string)
            .collect();
        moves.sort();
        moves
    };
    assert_eq!(castles(&mut s), ["e1c1", "e1g1"]);
    s.send("setoption name UCI_Chess960 value true");
    assert_eq!(castles(&mut s), ["e1a1", "e1h1"]);
    // The search's best move is written so too: castling mates here (the rook on f1 checks
    // along the first rank, the knights guard a2 and b2; no king move uncovers the rook).
    let mate = "position fen 8/8/8/8/1NN5/8/PP1PPP2/k3K2R w K - 0 1";
    s.send(mate);
    s.send("go depth 3");
    assert_eq!(s.line("bestmove"), "bestmove e1h1");
    s.send("setoption name UCI_Chess960 value false");
    s.send(mate);
    s.send("go depth 3");
    assert_eq!(s.line("bestmove"), "bestmove e1g1");
    s.send("setoption name UCI_Chess960 value maybe");
    let answer = s.line("info string");
    assert!(answer.contains("not true or false"), "{answer}");
    // Both forms are read.
    s.send("setoption name UCI_Chess960 value false");
    s.send(&format!("{fen} moves e1h1"));
    s.send("d");
    assert_eq!(s.line("Fen:"), "Fen: r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
}

/// The `info` lines of one depth's lines from a UCI search's output: (multipv, score, first
/// move of the pv) for each line of `depth`.
fn lines_at_depth(out: &[String], depth: u32) -> Vec<(u32, String, String)> {
    let prefix = format!("info depth {depth} ");
    out.iter()
        .filter(|l| l.starts_with(&prefix))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let after = |key: &str| {
                let i = w
                    .iter()
                    .position(|x| *x == key)
                    .unwrap_or_else(|| panic!("{key}: {l}"));
                w[i + 1..].to_vec()
            };
            let multipv = after("multipv")[0].parse().unwrap();
            let score = after("score")[..2].join(" ");
            (multipv, score, after("pv")[0].to_string())
        })
        .collect()
}

#[test]
fn uci_multipv_searchmoves_and_mate() {
    let mut s = Session::start(&["uci"]);
    s.send("uci");
    let options = s.until("uciok");
    assert!(
        options.contains(&"option name MultiPV type spin default 1 min 1 max 500".to_string()),
        "{options:?}"
    );
    // Three lines a depth, best first, each with its own first move; the best is played.
    s.send("setoption name MultiPV value 3");
    s.send("position startpos moves e2e4");
    s.send("go depth 4");
    let out = s.until("bestmove");
    for depth in 1..=4 {
        let lines = lines_at_depth(&out, depth);
        let ranks: Vec<u32> = lines.iter().map(|l| l.0).collect();
        assert_eq!(ranks, [1, 2, 3], "depth {depth}: {out:?}");
        let firsts: std::collections::HashSet<&String> = lines.iter().map(|l| &l.2).collect();
        assert_eq!(firsts.len(), 3, "depth {depth}: {lines:?}");
        let cps: Vec<i32> = lines
            .iter()
            .map(|l| l.1.strip_prefix("cp ").unwrap().parse().unwrap())
            .collect();
        assert!(cps.windows(2).all(|w| w[0] >= w[1]), "{lines:?}");
    }
    assert_eq!(best_move(&out), lines_at_depth(&out, 4)[0].2);
    // More lines than moves: every move once (four here).
    s.send("setoption name MultiPV value 10");
    s.send("position fen 7k/8/8/8/8/8/1P6/K7 w - - 0 1");
    s.send("go depth 2");
    let out = s.until("bestmove");
    let mut firsts: Vec<String> = lines_at_depth(&out, 2).into_iter().map(|l| l.2).collect();
    firsts.sort();
    assert_eq!(firsts, ["a1a2", "a1b1", "b2b3", "b2b4"]);

    // `searchmoves`: only those are searched; an unknown one is reported and left out.
    s.send("setoption name MultiPV value 1");
    s.send("position startpos");
    s.send("go depth 3 searchmoves a2a3 h2h4 zz9");
    let out = s.until("bestmove");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string") && l.contains("zz9")),
        "{out:?}"
    );
    for l in out.iter().filter(|l| l.starts_with("info depth")) {
        let pv = l.split(" pv ").nth(1).unwrap();
        assert!(pv.starts_with("a2a3") || pv.starts_with("h2h4"), "{l}");
    }
    assert!(
        ["a2a3", "h2h4"].contains(&best_move(&out).as_str()),
        "{out:?}"
    );

    // `go mate 1` with two lines stops at the mate (two lines would otherwise search on:
    // the second line may still change).
    s.send("setoption name MultiPV value 2");
    s.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    s.send("go mate 1");
    let out = s.until("bestmove");
    assert_eq!(best_move(&out), "a1a8");
    let first = lines_at_depth(&out, 1);
    assert_eq!(first[0].1, "mate 1", "{out:?}");
    assert!(
        !out.iter().any(|l| l.starts_with("info depth 3 ")),
        "{out:?}"
    );
}

#[test]
fn uci_ponders_until_ponderhit_or_stop() {
    let mut s = Session::start(&["uci"]);
    s.send("uci");
    let options = s.until("uciok");
    assert!(options.contains(&"option name Ponder type check default false".to_string()));
    // Pondering has no end of its own: no `bestmove` until `ponderhit`, then a search with
    // the clock given.
    s.send("position startpos moves e2e4 e7e5");
    s.send("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(300));
    s.send("isready");
    assert_no_line(&s.until("readyok"), "bestmove");
    s.send("ponderhit");
    let out = s.until("bestmove");
    let m = best_move(&out);
    assert_valid_game("", &["e2e4".into(), "e7e5".into(), m]);
    // `stop` ends the pondering with the move found so far.
    s.send("position startpos moves d2d4 d7d5");
    s.send("go ponder wtime 2000 btime 2000");
    std::thread::sleep(Duration::from_millis(200));
    s.send("stop");
    let m = best_move(&s.until("bestmove"));
    assert_valid_game("", &["d2d4".into(), "d7d5".into(), m]);
    // A `ponderhit` followed at once by `stop`: still one answer.
    s.send("go ponder wtime 60000 btime 60000");
    std::thread::sleep(Duration::from_millis(100));
    s.send("ponderhit");
    s.send("stop");
    s.until("bestmove");
    s.send("isready");
    assert_no_line(&s.until("readyok"), "bestmove");
}

#[test]
fn uci_writes_moves_as_fairy_stockfish_does() {
    // Root moves of `go perft 1` from the start, as Fairy-Stockfish lists them: a piece that
    // promotes into its own promoted form `+`, one turning back `-` (Kyoto shogi), a
    // promotion to a piece of the pawn's choice with its letter.
    let mut s = Session::start(&["uci"]);
    s.send("uci");
    s.until("uciok");
    s.send("setoption name UCI_Variant value kyotoshogi");
    s.send("position startpos");
    s.send("go perft 1");
    let out = s.until("Nodes searched");
    let mut moves: Vec<&str> = out
        .iter()
        .filter_map(|l| l.split_once(": ").map(|(m, _)| m))
        .filter(|m| *m != "Nodes searched")
        .collect();
    moves.sort();
    let fsf = houserules_tests::KYOTO_START_MOVES;
    assert_eq!(moves, fsf);
    // The engine's own moves take the same forms, and it reads them back.
    s.send("go depth 1");
    let m = best_move(&s.until("bestmove"));
    assert!(fsf.contains(&m.as_str()), "{m}");
    s.send(&format!("position startpos moves {m}"));
    s.send("isready");
    assert_no_line(&s.until("readyok"), "info string");
    s.send("setoption name UCI_Variant value crazyhouse");
    s.send("position fen r1b2knQ/ppp1bppP/2np1n1q/1B2p3/2R1P3/8/PPPP1PPP/RNB1K2R[] w KQ - 1 11");
    s.send("go perft 1");
    let out = s.until("Nodes searched");
    for m in ["h7g8q: 1", "h7g8n: 1"] {
        assert!(out.iter().any(|l| l == m), "{m}: {out:?}");
    }
}

#[test]
fn uci_session_answers_every_command() {
    let mut s = Session::start(&["uci"]);
    s.send("uci");
    let lines = s.until("uciok");
    let variant = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo"))
        .expect("UCI_Variant offered");
    for v in ["chess", "mixedchess_v5", "rookmania", "tictacrook_v1"] {
        assert!(variant.contains(&format!(" var {v}")), "{variant}");
    }
    for o in [
        "Presets",
        "Modifiers",
        "Layout",
        "Threads",
        "Hash",
        "Skill Level",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {o} type"))),
            "{o}: {lines:?}"
        );
    }
    s.send("isready");
    s.line("readyok");

    // A search: info lines with every field, then a legal best move.
    s.send("position startpos moves e2e4 e7e5");
    s.send("go depth 3");
    let out = s.until("bestmove");
    let info = out
        .iter()
        .find(|l| l.starts_with("info depth"))
        .expect("info lines");
    for field in [
        " seldepth ",
        " score ",
        " nodes ",
        " nps ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "{info}");
    }
    assert_valid_game("", &["e2e4".into(), "e7e5".into(), best_move(&out)]);

    // perft divide, as Stockfish writes it.
    s.send("position startpos");
    s.send("go perft 2");
    let out = s.until("Nodes searched");
    assert_eq!(out.last().unwrap(), "Nodes searched: 400");
    let divide: Vec<u64> = out
        .iter()
        .filter(|l| !l.starts_with("Nodes"))
        .filter_map(|l| l.split_once(": ").and_then(|(_, n)| n.parse().ok()))
        .collect();
    assert_eq!(divide.len(), 20, "{out:?}");
    assert_eq!(divide.iter().sum::<u64>(), 400, "{out:?}");

    // Bad input is answered, never fatal.
    for (cmd, says) in [
        ("position fen not/a/fen w - - 0 1", "bad FEN"),
        ("position startpos moves e2e5", "e2e5"),
        ("position somewhere", "expected `startpos` or `fen`"),
        ("frobnicate", "unknown command `frobnicate`"),
        (
            "setoption name UCI_Variant value nochess",
            "unknown variant `nochess`",
        ),
        ("setoption name Presets value :x", "preset"),
        ("setoption name Hash value -3", "Hash"),
        ("setoption name Skill Level value 21", "out of range 0..20"),
        ("setoption name NoSuchOption value 1", "unknown option"),
        (
            "setoption name Modifiers value nothing-here",
            "neither a file nor the id of a loaded custom modifier",
        ),
        (
            "setoption name Modifiers value decay",
            "requires preset `piece-hp`",
        ),
    ] {
        s.send(cmd);
        let l = s.line("info string");
        assert!(l.contains(says), "`{cmd}` answered `{l}`");
    }
    s.send("setoption name Modifiers value <empty>");
    s.send("isready");
    s.line("readyok");

    // A `go` with a bad depth still searches, on its movetime: a GUI waits for the move.
    s.send("go depth x movetime 20");
    let out = s.until("bestmove");
    assert!(
        out.iter()
            .any(|l| l.contains("go depth: `x` is not a valid number (left out)")),
        "{out:?}"
    );
    assert_ne!(out.last().unwrap(), "bestmove 0000");

    // Tabs between tokens, and a line that is not UTF-8 (answered, not the end).
    s.send_bytes(b"setoption name UCI_Variant value J\xfcrgen\n");
    assert!(s
        .line("info string")
        .contains("unknown variant `J\u{fffd}rgen`"));
    s.send("go\tdepth 1");
    assert_ne!(s.line("bestmove"), "bestmove 0000");
    s.send("setoption\tname\tUCI_Chess960 value true");
    s.send("isready");
    assert_no_line(&s.until("readyok"), "info string");
    s.send("setoption name UCI_Chess960 value false");

    // The position is unchanged by a bad `position`: still the start.
    s.send("d");
    let fen = s.line("Fen:");
    assert_eq!(
        fen,
        "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );

    // Below full strength: one line for the level's choice, then a legal move.
    s.send("setoption name Skill Level value 3");
    s.send("position startpos moves e2e4");
    s.send("go depth 8");
    let out = s.until("bestmove");
    assert!(
        out.iter().any(|l| l.starts_with("info depth 2 score ")),
        "{out:?}"
    );
    assert_valid_game("", &["e2e4".into(), best_move(&out)]);
    s.send("setoption name Skill Level value 20");

    // No legal move: bestmove 0000.
    s.send("position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    s.send("go depth 2");
    assert_eq!(s.line("bestmove"), "bestmove 0000");

    // `go infinite` runs until `stop`; `isready` is answered while it runs.
    s.send("ucinewgame");
    s.send("position startpos");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    s.send("isready");
    assert_no_line(&s.until("readyok"), "bestmove");
    s.send("stop");
    let l = s.line("bestmove");
    assert_ne!(l, "bestmove 0000");
}

/// Plays a game through raw UCI lines (the engine against itself, `go nodes`), returns the
/// moves; stops at `bestmove 0000` or after `max` plies.
fn self_play(s: &mut Session, max: usize) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    s.send("ucinewgame");
    while moves.len() < max {
        if moves.is_empty() {
            s.send("position startpos");
        } else {
            s.send(&format!("position startpos moves {}", moves.join(" ")));
        }
        s.send("go nodes 3000");
        let l = s.line("bestmove");
        let m = l.split_whitespace().nth(1).unwrap().to_string();
        if m == "0000" {
            break;
        }
        moves.push(m);
    }
    moves
}

#[test]
fn uci_plays_preset_and_fairy_games() {
    let mut s = Session::start(&["uci"]);
    s.send("uci");
    s.until("uciok");
    s.send("setoption name Presets value piece-hp");
    s.send("isready");
    s.line("readyok");
    let moves = self_play(&mut s, 40);
    assert!(moves.len() >= 10, "{moves:?}");
    assert_valid_game("[Presets \"piece-hp\"]", &moves);

    // A custom modifier by id, on top of the preset it requires.
    s.send("setoption name Modifiers value decay");
    s.send("isready");
    s.line("readyok");
    let moves = self_play(&mut s, 12);
    assert_valid_game("[Presets \"piece-hp\"]\n[Modifiers \"decay\"]", &moves);
    s.send("setoption name Modifiers value <empty>");
    s.send("setoption name Presets value <empty>");
    s.send("setoption name UCI_Variant value mixedchess_v5");
    s.send("isready");
    s.line("readyok");
    s.send("d");
    let fen = s.line("Fen:");
    assert!(fen.contains("ynfckfny"), "{fen}");
    // A promotion in Fairy-Stockfish's form (`+`: into the promoted pawn) is read too.
    s.send("position fen yn1ck1ny/1r4b1/pppfppp1/3p1f2/2P1N1Pp/PPBPPP2/4F1R1/1YFKC1NY[] b - - 0 8 moves h4h3+");
    s.send("d");
    assert_eq!(
        s.line("Fen:"),
        "Fen: yn1ck1ny/1r4b1/pppfppp1/3p1f2/2P1N1P1/PPBPPP1+p/4F1R1/1YFKC1NY[] w - - 0 9"
    );
    let moves = self_play(&mut s, 40);
    assert!(moves.len() >= 10, "{moves:?}");
    assert_valid_game("[Variant \"mixedchess_v5\"]", &moves);
}

#[test]
fn the_engine_does_not_mate_with_a_pawn_drop_where_that_loses() {
    // minishogi: P@e4 is the one move that ends the game, a checkmate that loses for the
    // dropper (shogiPawnDropMateIllegal, as Fairy-Stockfish plays it). The engine learns it
    // from the outcome, which knows the move that led to the position (API 1.8).
    let mut s = Session::start(&["uci"]);
    s.send("uci");
    s.until("uciok");
    s.send("setoption name UCI_Variant value minishogi");
    s.send("isready");
    s.line("readyok");
    s.send("position fen p3k/5/5/2B2/K2R1[P] w 0 1");
    for depth in [1, 3] {
        s.send(&format!("go depth {depth}"));
        let best = s.line("bestmove");
        assert!(!best.starts_with("bestmove P@e4"), "depth {depth}: {best}");
    }
    // After the drop the game is over, and the engine says why.
    s.send("position fen p3k/5/5/2B2/K2R1[P] w 0 1 moves P@e4");
    s.send("go depth 2");
    let lines = s.until("bestmove");
    assert!(
        lines.iter().any(|l| l.contains("pawn-drop-mate")),
        "{lines:?}"
    );
}

/// An XBoard session after `xboard` and `protover 2`, with its `feature` line.
fn xboard_started() -> (Session, String) {
    let mut s = Session::start(&["xboard"]);
    s.send("xboard");
    s.send("protover 2");
    // The features, over as many lines as the engine sends, up to `done=1`.
    let f = s.until("feature done=1").join(" ");
    (s, f)
}

/// Pings the engine and checks that nothing sent before was refused as an illegal move.
fn assert_accepted(s: &mut Session, ping: u32) {
    s.send(&format!("ping {ping}"));
    let lines = s.until(&format!("pong {ping}"));
    assert!(!lines.iter().any(|l| l.starts_with("Illegal")), "{lines:?}");
}

#[test]
fn xboard_session() {
    let (mut s, f) = xboard_started();
    for part in [
        "variants=\"normal,",
        "mixedchess_v5",
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "myname=\"houserules",
        "option=\"Skill Level -spin 20 0 20\"",
        "done=1",
    ] {
        assert!(f.contains(part), "{part}: {f}");
    }
    // A weaker engine: still a legal reply; a bad value is refused.
    s.send("option Skill Level=0");
    s.send("option Skill Level=21");
    assert!(s.line("Error").contains("Skill Level=21"));
    s.send("new");
    s.send("sd 3");
    s.send("usermove d2d4");
    let m = s.line("move ");
    assert_valid_game(
        "",
        &["d2d4".into(), m.strip_prefix("move ").unwrap().to_string()],
    );
    s.send("option Skill Level=20");
    s.send("new");
    s.send("sd 2");
    s.send("usermove e2e4");
    let m = s.line("move ");
    let reply = m.strip_prefix("move ").unwrap().to_string();
    assert_valid_game("", &["e2e4".into(), reply]);
    s.send("ping 7");
    assert_eq!(s.line("pong"), "pong 7");
    s.send("usermove e2e5");
    assert!(s.line("Illegal move").ends_with("e2e5"));
    s.send("frobnicate");
    assert!(s.line("Error").contains("frobnicate"));

    // The user mates: the engine says so.
    s.send("new");
    s.send("force");
    s.send("setboard rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
    s.send("usermove d1h5");
    assert_eq!(s.line("1-0"), "1-0 {checkmate}");

    // A variant that is not 8x8 chess: setup and piece commands, then play.
    s.send("new");
    s.send("variant mixedchess_v5");
    let setup = s.line("setup");
    assert!(
        setup.starts_with("setup (")
            && setup.contains(") 8x8+")
            && setup.contains("_fairy ynfckfny"),
        "{setup}"
    );
    s.send("ping 8");
    let lines = s.until("pong 8");
    assert!(
        lines.iter().any(|l| l.starts_with("piece Y& ")),
        "{lines:?}"
    );
    s.send("sd 1");
    s.send("go");
    let m = s.line("move ");
    assert_valid_game(
        "[Variant \"mixedchess_v5\"]",
        &[m.strip_prefix("move ").unwrap().to_string()],
    );
}

#[test]
fn xboard_analysis_mode_and_stops_without_a_move() {
    let (mut s, f) = xboard_started();
    assert!(
        f.contains("analyze=1") && f.contains("option=\"MultiPV -spin 1 1 500\""),
        "{f}"
    );
    s.send("new");
    s.send("force");
    s.send("analyze");
    // Thinking lines (depth score time nodes pv) for the start position.
    let l = s.line("3 ");
    assert!(l.split_whitespace().count() >= 5, "{l}");
    // A move restarts the analysis on the new position: Black's moves now.
    s.send("usermove e2e4");
    let mut black_line = None;
    while black_line.is_none() {
        let l = s.line("");
        let w: Vec<&str> = l.split_whitespace().collect();
        if w.len() >= 5 && w[0].parse::<u32>().is_ok() {
            // The first move of the pv is Black's.
            let m = w[4];
            if m.starts_with(|c: char| c.is_ascii_lowercase()) && m.as_bytes()[1] >= b'7' {
                black_line = Some(l);
            }
        }
    }
    // `.` is only a request for a status line; `undo` goes back to White's moves.
    s.send(".");
    s.send("undo");
    s.send("exit");
    s.send("ping 3");
    let lines = s.until("pong 3");
    assert_no_line(&lines, "move ");
    assert_no_line(&lines, "Error");
    // Commands already waiting when an analysis starts stop it at once, also after the
    // rules were rebuilt (`variant` while analysing; fuzzing found that one hanging).
    s.send_bytes(b"analyze\nvariant crazyhouse\nusermove e2e4\nnew\nexit\nping 6\n");
    assert_no_line(&s.until("pong 6"), "move ");
    // Out of analysis the engine plays again, from the start position.
    s.send("sd 2");
    s.send("go");
    let m = s.line("move ");
    assert_valid_game("", &[m.strip_prefix("move ").unwrap().to_string()]);

    // A search stopped by `force` or `new` sends no move (the GUI has left the position);
    // `?` asks for the move now.
    s.send("new");
    s.send("st 30");
    s.send("go");
    std::thread::sleep(Duration::from_millis(200));
    s.send("force");
    s.send("ping 4");
    assert_no_line(&s.until("pong 4"), "move ");
    s.send("new");
    s.send("go");
    std::thread::sleep(Duration::from_millis(200));
    s.send("new");
    s.send("ping 5");
    assert_no_line(&s.until("pong 5"), "move ");
    s.send("go");
    std::thread::sleep(Duration::from_millis(200));
    s.send("?");
    let m = s.line("move ");
    assert_valid_game("", &[m.strip_prefix("move ").unwrap().to_string()]);
}

/// A flipello position where White can only pass.
const FLIPELLO_WHITE_PASSES: &str = "8/8/2PPPPPp/3PPPpp/2PPPpPp/3Ppppp/3ppppp/3ppppp[PPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPPpppppppppppppppppppppppppppppppppppppppppppppp] w - - 0 15";

#[test]
fn xboard_passes_as_at_signs() {
    // In flipello here White can only pass: XBoard writes the pass `@@@@`, both ways.
    let start = FLIPELLO_WHITE_PASSES;
    let (mut s, _) = xboard_started();
    s.send("variant flipello");
    s.send("force");
    s.send(&format!("setboard {start}"));
    s.send("sd 1");
    s.send("go");
    assert_eq!(s.line("move "), "move @@@@");
    // The user's pass is read too.
    s.send("force");
    s.send(&format!("setboard {start}"));
    s.send("usermove @@@@");
    assert_accepted(&mut s, 9);
}

#[test]
fn xboard_numbers_ten_ranks_from_zero_and_castles_fischer_random_as_o_o() {
    let (mut s, f) = xboard_started();
    assert!(f.contains("variants=\"normal,fischerandom,"), "{f}");
    // Xiangqi as XBoard writes it: ranks 0-9, so the central cannon is `h2e2` (houserules'
    // `h3e3`), and the engine answers in the same numbering.
    s.send("variant xiangqi");
    s.send("force");
    s.send("usermove h2e2");
    assert_accepted(&mut s, 1);
    s.send("sd 1");
    s.send("go");
    let reply = s.line("move ");
    let reply = reply.strip_prefix("move ").unwrap();
    let ours = houserules_host::xboard::squares_from_xboard(reply, 10);
    assert_valid_game("[Variant \"xiangqi\"]", &["h3e3".into(), ours]);
    // Fischer random: the start comes by setboard, a castle is `O-O` both ways.
    s.send("new");
    s.send("variant fischerandom");
    s.send("setboard 8/8/8/8/1NN5/8/PP1PPP2/k3K2R w K - 0 1");
    s.send("sd 3");
    s.send("go");
    assert_eq!(s.line("move "), "move O-O");
    s.send("new");
    s.send("variant fischerandom");
    s.send("force");
    s.send("setboard r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    s.send("usermove O-O-O");
    assert_accepted(&mut s, 2);
}

#[test]
fn xboard_rank_numbers_convert_both_ways() {
    use houserules_host::xboard::{squares_from_xboard, squares_to_xboard};
    assert_eq!(squares_from_xboard("h2e2", 10), "h3e3");
    assert_eq!(squares_to_xboard("a10a1", 10), "a9a0");
    assert_eq!(squares_from_xboard("P@e0", 10), "P@e1");
    // A special move's code stays; other boards keep their numbers.
    assert_eq!(squares_to_xboard("e2e3:12", 10), "e1e2:12");
    assert_eq!(squares_to_xboard("e2e4", 8), "e2e4");
}

fn python_chess_present() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            std::env::var_os("HOUSERULES_REQUIRE_TOOLS").is_none(),
            "python-chess is required here"
        );
        eprintln!("python-chess not installed: test skipped");
    }
    ok
}

#[test]
fn python_chess_plays_uci_against_xboard() {
    if !python_chess_present() {
        return;
    }
    let script = r#"
import sys, chess, chess.engine
hr = sys.argv[1]
uci = chess.engine.SimpleEngine.popen_uci([hr, "uci"])
xb = chess.engine.SimpleEngine.popen_xboard([hr, "xboard"])
assert "UCI_Variant" in uci.options and "Presets" in uci.options
board = chess.Board()
info = uci.analyse(board, chess.engine.Limit(depth=4))
assert info["score"] is not None and len(info["pv"]) >= 1, info
assert info["pv"][0] in board.legal_moves
games = 0
for white, black in ((uci, xb), (xb, uci)):
    board = chess.Board()
    while not board.is_game_over(claim_draw=True) and board.ply() < 600:
        engine = white if board.turn == chess.WHITE else black
        r = engine.play(board, chess.engine.Limit(depth=2))
        assert r.move in board.legal_moves, (r.move, board.fen())
        board.push(r.move)
    assert board.is_game_over(claim_draw=True), board.fen()
    games += 1
# Analysis as GUIs ask for it: several lines, chosen root moves, a mate limit, and
# XBoard's analysis mode.
board = chess.Board()
infos = uci.analyse(board, chess.engine.Limit(depth=4), multipv=3)
assert [i["multipv"] for i in infos] == [1, 2, 3], infos
assert len({i["pv"][0] for i in infos}) == 3, infos
chosen = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h4")]
info = uci.analyse(board, chess.engine.Limit(depth=4), root_moves=chosen)
assert info["pv"][0] in chosen, info
mate = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
infos = uci.analyse(mate, chess.engine.Limit(mate=1), multipv=2)
assert infos[0]["score"].white() == chess.engine.Mate(1), infos
assert infos[0]["pv"][0] == chess.Move.from_uci("a1a8"), infos
board.push_san("e4")
info = xb.analyse(board, chess.engine.Limit(depth=4))
assert info["depth"] >= 4 and info["pv"][0] in board.legal_moves, info
# Pondering as python-chess drives it (`go ponder`, then `ponderhit` or `stop`).
other = chess.engine.SimpleEngine.popen_uci([hr, "uci"])
assert "Ponder" in uci.options
board = chess.Board()
while not board.is_game_over(claim_draw=True) and board.ply() < 30:
    engine = uci if board.turn == chess.WHITE else other
    r = engine.play(board, chess.engine.Limit(white_clock=5, black_clock=5), ponder=True)
    assert r.move in board.legal_moves, (r.move, board.fen())
    board.push(r.move)
other.quit()
uci.quit()
xb.quit()
print("games", games)
"#;
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(binary())
        .env_remove("HOUSERULES_PLUGIN_PATH")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "games 2",
        "{stderr}"
    );
}

#[test]
fn match_tells_engines_of_chess960_starts() {
    // One engine's input logged on its way in: told UCI_Chess960 for the Chess960 opening,
    // and told it no longer is for the standard one that follows; the games are valid.
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("in.log");
    let logged = format!("tee -a {} | {} uci", log.display(), binary().display());
    let plain = format!("{} uci", binary().display());
    let openings = dir.path().join("openings.txt");
    std::fs::write(
        &openings,
        "bqnb1rkr/pppppppp/8/8/8/8/PPPPPPPP/BQNB1RKR w HFhf - 0 1
\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
         7p/8/8/8/1NN5/8/PP1PPPP1/k4K1R b H - 0 1\n",
    )
    .unwrap();
    let pgn = dir.path().join("m.pgn");
    let out = houserules([
        "match",
        "--engine",
        &logged,
        "--engine",
        &plain,
        "--openings",
        openings.to_str().unwrap(),
        "--games",
        "6",
        "--movetime",
        "20",
        "--max-plies",
        "40",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let input = std::fs::read_to_string(&log).unwrap();
    let told: Vec<&str> = input
        .lines()
        .filter(|l| l.starts_with("setoption name UCI_Chess960"))
        .collect();
    assert_eq!(
        told,
        [
            "setoption name UCI_Chess960 value true",
            "setoption name UCI_Chess960 value false",
            "setoption name UCI_Chess960 value true"
        ],
        "{input}"
    );
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Event \"houserules match\"]").count(), 6);
    assert!(!games.contains("illegal move"), "{games}");
    // In the last opening castling mates (the king on f1 castles with the h1 rook, which then
    // checks along the first rank), whichever engine has White and however it writes it.
    assert_eq!(games.matches("O-O#").count(), 2, "{games}");
    let out = houserules(["analyze", pgn.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Runs `houserules match` with `args` and `--pgn pgn`; checks it succeeded. Its output and
/// the games it wrote.
fn match_games(args: &[&str], pgn: &std::path::Path) -> (String, String) {
    let mut all: Vec<&str> = vec!["match"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--pgn", pgn.to_str().unwrap()]);
    let out = houserules(&all);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (stdout, std::fs::read_to_string(pgn).unwrap())
}

/// Checks that houserules won both games against each of `engines`.
fn assert_won_against(stdout: &str, engines: &[&str]) {
    for who in engines {
        assert!(
            stdout.contains(&format!("Score of houserules 0.1.0 vs {who}: 2 - 0 - 0")),
            "{stdout}"
        );
    }
}

/// A scripted UCI engine in `dir` named `name`: it answers `uci` and `isready` and runs
/// `on_go` (a shell command) on `go`. Its command line.
fn uci_script(dir: &std::path::Path, name: &str, on_go: &str) -> String {
    let p = dir.join(name);
    std::fs::write(
        &p,
        format!(
            "while read line; do case \"$line\" in\n\
             uci) echo \"id name {name}\"; echo uciok;;\n\
             isready) echo readyok;;\n\
             go*) {on_go};;\n\
             quit) exit 0;;\n\
             esac; done\n"
        ),
    )
    .unwrap();
    format!("sh {}", p.display())
}

#[test]
fn match_forfeits_misbehaving_engines_and_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    // Engines that speak UCI but play an illegal move, die, or never answer.
    let script = |name: &str, on_go: &str| uci_script(dir.path(), name, on_go);
    let liar = script("liar", "echo bestmove a1a8");
    let dier = script("dier", "exit 3");
    let sleeper = script("sleeper", "sleep 5; echo bestmove e2e4");
    let pgn = dir.path().join("m.pgn");
    let hr = format!("{} uci", binary().display());
    let (stdout, games) = match_games(
        &[
            "--engine",
            &hr,
            "--engine",
            &liar,
            "--engine",
            &dier,
            "--engine",
            &sleeper,
            "--games",
            "2",
            "--movetime",
            "50",
            // Wide enough for houserules on a loaded CI machine, far below the sleeper's 5 s.
            "--margin",
            "1000",
        ],
        &pgn,
    );
    // Every game of houserules was won by a forfeit of the other side, each kind seen, and
    // all 12 games of the round robin were played (each bad engine restarted).
    assert_won_against(&stdout, &["liar", "dier", "sleeper"]);
    assert!(stdout.contains("Game 12/12"), "{stdout}");
    assert_eq!(games.matches("[Event \"houserules match\"]").count(), 12);
    for why in ["illegal move: `a1a8`", "engine died", "time forfeit"] {
        assert!(games.contains(why), "{why}: {games}");
    }
    // The records are valid.
    let out = houserules(["analyze", pgn.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // Too few engines, a bad option target: usage errors.
    let out = houserules(["match", "--engine", &hr]);
    assert_eq!(out.status.code(), Some(2));
    let out = houserules([
        "match", "--engine", &hr, "--engine", &hr, "--option", "3:Hash=1",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no engine 3"));
}

#[test]
fn match_plays_games_at_the_same_time_with_engines_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let script = |name: &str, on_go: &str| uci_script(dir.path(), name, on_go);
    let liar = script("liar", "echo bestmove a1a8");
    let dier = script("dier", "exit 3");
    let pgn = dir.path().join("m.pgn");
    let hr = format!("{} uci", binary().display());
    // Three engines, every pair twice: six games, two at a time.
    let mut args: Vec<&str> = [&hr, &liar, &dier]
        .iter()
        .flat_map(|e| ["--engine", e.as_str()])
        .collect();
    args.extend(["--games", "2", "--movetime", "50", "--margin", "1000"]);
    args.extend(["--concurrency", "2"]);
    let (stdout, games) = match_games(&args, &pgn);
    // Every game of the round robin was played once, whatever order they ended in, and
    // scored to its pair: houserules won both against each bad engine (the dead one
    // started again in the set of the game thread that lost it).
    assert_won_against(&stdout, &["liar", "dier"]);
    assert!(stdout.contains("Final:"), "{stdout}");
    assert_eq!(games.matches("[Event \"houserules match\"]").count(), 6);
    let mut rounds: Vec<u32> = games
        .lines()
        .filter_map(|l| l.strip_prefix("[Round \""))
        .filter_map(|r| r.trim_end_matches("\"]").parse().ok())
        .collect();
    rounds.sort_unstable();
    assert_eq!(rounds, [1, 2, 3, 4, 5, 6]);
    let ends = stdout.matches("Game ").count();
    assert_eq!(ends, 6, "{stdout}");
}

/// A scripted XBoard engine in `dir`: its `feature` line names it `name` and adds
/// `features`; it answers `ping`, runs `on_go` on `go` and `on_usermove` on `usermove ...`
/// (shell commands, `$line` the line read). Its command line.
fn xboard_script(
    dir: &std::path::Path,
    name: &str,
    features: &str,
    on_go: &str,
    on_usermove: &str,
) -> String {
    let p = dir.join(name);
    std::fs::write(
        &p,
        format!(
            "while read line; do case \"$line\" in\n\
             protover*) echo 'feature myname=\"{name}\" {features} usermove=1 ping=1 done=1';;\n\
             ping*) echo \"pong ${{line#ping }}\";;\n\
             go) {on_go};;\n\
             usermove*) {on_usermove};;\n\
             quit) exit 0;;\n\
             esac; done\n"
        ),
    )
    .unwrap();
    format!("sh {}", p.display())
}

/// One game of `variant` between the XBoard engine `engine` (White) and houserules' UCI
/// engine, with `extra` arguments; the game's record.
fn one_game_against_houserules(
    dir: &std::path::Path,
    variant: &str,
    engine: &str,
    extra: &[&str],
) -> String {
    let uci = format!("{} uci", binary().display());
    let mut args = vec![
        "--variant",
        variant,
        "--engine",
        engine,
        "--engine",
        &uci,
        "--protocol",
        "1:xboard",
        "--games",
        "1",
        "--tc",
        "5+0",
        "--margin",
        "1000",
    ];
    args.extend_from_slice(extra);
    match_games(&args, &dir.join(format!("{variant}.pgn"))).1
}

#[test]
fn match_plays_xboard_engines_and_judges_them() {
    let dir = tempfile::tempdir().unwrap();
    let uci = format!("{} uci", binary().display());
    let xboard = format!("{} xboard", binary().display());
    // houserules' own XBoard engine against its UCI engine: chess, and xiangqi (ten ranks,
    // numbered from 0 in XBoard).
    for (variant, plies) in [("chess", "160"), ("xiangqi", "40")] {
        let pgn = dir.path().join(format!("{variant}.pgn"));
        let (_, games) = match_games(
            &[
                "--variant",
                variant,
                "--engine",
                &uci,
                "--engine",
                &xboard,
                "--protocol",
                "2:xboard",
                "--games",
                "2",
                "--tc",
                "1+0.01",
                "--margin",
                "1000",
                "--max-plies",
                plies,
            ],
            &pgn,
        );
        assert_eq!(games.matches("[Event \"houserules match\"]").count(), 2);
        // (A draw the arbiter claims is fine: "draw claimed (n-fold-repetition)".)
        for bad in [
            "illegal",
            "forfeit",
            "died",
            "refused",
            "it claimed",
            "resigned",
        ] {
            assert!(!games.contains(bad), "{variant}: {bad}: {games}");
        }
        let out = houserules(["analyze", pgn.to_str().unwrap()]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }

    // XBoard engines that resign, claim a result the rules do not give, or refuse the
    // game's moves lose, and the match goes on.
    let d = dir.path();
    let resigner = xboard_script(d, "resigner", "setboard=1", "echo resign", ":");
    let claimer = xboard_script(d, "claimer", "setboard=1", "echo '1-0 {I win}'", ":");
    let refuser = xboard_script(
        d,
        "refuser",
        "setboard=1",
        "echo 'move e2e4'",
        "echo \"Illegal move: $line\"",
    );
    let pgn = dir.path().join("bad.pgn");
    let (stdout, games) = match_games(
        &[
            "--engine",
            &uci,
            "--engine",
            &resigner,
            "--engine",
            &claimer,
            "--engine",
            &refuser,
            "--protocol",
            "xboard",
            "--protocol",
            "1:uci",
            "--games",
            "2",
            "--tc",
            "3+0.05",
            "--margin",
            "1000",
        ],
        &pgn,
    );
    assert_won_against(&stdout, &["resigner", "claimer", "refuser"]);
    for why in [
        "resigner resigned",
        "claimed `1-0 {I win}`",
        "refused the game so far",
    ] {
        assert!(games.contains(why), "{why}: {games}");
    }
    // An XBoard engine that does not offer the variant cannot be started; a bad protocol
    // name is a usage error.
    let out = houserules([
        "match",
        "--variant",
        "mixedchess_v5",
        "--engine",
        &uci,
        "--engine",
        &resigner,
        "--protocol",
        "2:xboard",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not offer the variant"));
    let out = houserules([
        "match",
        "--engine",
        &uci,
        "--engine",
        &uci,
        "--protocol",
        "2:cecp3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    // XBoard's time per move is whole seconds.
    let out = houserules([
        "match",
        "--engine",
        &uci,
        "--engine",
        &xboard,
        "--protocol",
        "2:xboard",
        "--movetime",
        "100",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("whole seconds"));
}

#[test]
fn match_reads_xboard_moves_of_several_legs() {
    // Fairy-Stockfish sends an amazons move (the queen's move, then the arrow) as one `move`
    // line per leg, each but the last ending with a comma; ranks of a board of ten from 0.
    // This engine plays the first move that way, then repeats it (illegal by then).
    let dir = tempfile::tempdir().unwrap();
    let legs = xboard_script(
        dir.path(),
        "legs",
        "variants=\"amazons\"",
        "echo 'move d0a0,'; echo 'move a0b0'",
        ":",
    );
    let games = one_game_against_houserules(dir.path(), "amazons", &legs, &[]);
    // The first move was read whole and played; the second time it is illegal, as one move.
    assert!(games.contains("legs illegal move: `d1a1,a1b1`"), "{games}");
    assert!(games.contains("1. "), "{games}");
}

#[test]
fn match_reads_the_xboard_pass() {
    // XBoard writes a pass `@@@@` (Fairy-Stockfish in Othello when it has no move); the
    // coordinate form has it as a piece's move onto its own square. From a flipello position
    // where White can only pass, an engine that always passes passes once, legally.
    let dir = tempfile::tempdir().unwrap();
    let passer = xboard_script(
        dir.path(),
        "passer",
        "variants=\"flipello\" setboard=1",
        "echo 'move @@@@'",
        ":",
    );
    let start = FLIPELLO_WHITE_PASSES;
    let openings = dir.path().join("o.fen");
    std::fs::write(&openings, format!("{start}\n")).unwrap();
    let games = one_game_against_houserules(
        dir.path(),
        "flipello",
        &passer,
        &["--openings", openings.to_str().unwrap()],
    );
    // Its first pass was played; whatever ended the game, it was later.
    assert!(!games.contains(&format!("in {start}")), "{games}");
    assert!(games.contains("15. "), "{games}");
}

/// One analyzer keeps its search tables from one record to the next (cleared between them):
/// each record's engine analysis is the same as when it is analysed alone.
#[test]
fn engine_analysis_of_a_record_does_not_depend_on_the_records_before_it() {
    let root = houserules_tests::workspace_root();
    let records = root.join("tests/data/records");
    let files = [
        records.join("python-chess/molinari-bordais-1979.pgn"),
        records.join("lichess-crazyhouse.pgn"),
        records.join("annotated.pgn"),
    ];
    let analyse = |files: &[&std::path::Path]| -> Vec<serde_json::Value> {
        let mut args: Vec<&std::ffi::OsStr> =
            ["analyze", "--engine", "depth=2", "--jsonl", "--jobs", "1"]
                .iter()
                .map(|a| a.as_ref())
                .collect();
        args.extend(files.iter().map(|f| f.as_os_str()));
        let out = houserules(args);
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .map(|g| g["plies"].clone())
            .collect()
    };
    let together = analyse(&files.iter().map(|f| f.as_path()).collect::<Vec<_>>());
    let alone: Vec<serde_json::Value> =
        files.iter().flat_map(|f| analyse(&[f.as_path()])).collect();
    assert!(together.len() >= 4, "{together:?}");
    assert_eq!(together.len(), alone.len());
    for (t, a) in together.iter().zip(&alone) {
        assert!(t
            .as_array()
            .is_some_and(|p| p.iter().any(|p| p["eval"].is_object())));
        assert_eq!(t, a);
    }
}

#[test]
fn analyze_engine_writes_evals_and_marks_a_blunder() {
    let dir = tempfile::tempdir().unwrap();
    let root = houserules_tests::workspace_root();
    let shipped = root.join("tests/data/records/annotated.pgn");
    // A planted blunder: 3... Nf6?? allows mate in one.
    let planted = dir.path().join("planted.pgn");
    std::fs::write(
        &planted,
        "[Event \"planted\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    )
    .unwrap();
    let out_pgn = dir.path().join("out.pgn");
    let out = houserules([
        "analyze".as_ref(),
        "--engine".as_ref(),
        "depth=4".as_ref(),
        "--jsonl".as_ref(),
        "--jobs".as_ref(),
        "2".as_ref(),
        "--write-pgn".as_ref(),
        out_pgn.as_os_str(),
        shipped.as_os_str(),
        planted.as_os_str(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let games: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let planted_report = games.last().unwrap();
    let plies = planted_report["plies"].as_array().unwrap();
    assert_eq!(plies[5]["san"], "Nf6");
    assert_eq!(plies[5]["nag"], "??", "{}", plies[5]);
    assert_eq!(plies[5]["class"], "blunder");
    assert_eq!(plies[5]["best"].as_str().map(|s| s.is_empty()), Some(false));
    for g in &games[..games.len() - 1] {
        for p in g["plies"].as_array().unwrap() {
            assert!(p["eval"].is_object(), "{p}");
        }
    }
    let written = std::fs::read_to_string(&out_pgn).unwrap();
    assert!(written.contains("Nf6?? {[%eval #"), "{written}");

    if !python_chess_present() {
        return;
    }
    let script = r#"
import sys, chess.pgn
f = open(sys.argv[1])
out = []
while True:
    g = chess.pgn.read_game(f)
    if g is None: break
    evals = 0
    blunders = []
    for node in g.mainline():
        if node.eval() is not None:
            evals += 1
        if 4 in node.nags:
            blunders.append(node.san())
    out.append("%d %d %s" % (len(list(g.mainline_moves())), evals, ",".join(blunders)))
print("|".join(out))
"#;
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(&out_pgn)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let text = String::from_utf8_lossy(&out.stdout);
    let parts: Vec<&str> = text.trim().split('|').collect();
    assert_eq!(parts.len(), games.len(), "{text}");
    let (planted, shipped) = parts.split_last().unwrap();
    // The shipped games: an evaluation at every move but a final mate; the fool's mate's
    // 2. g4 is a blunder.
    for g in shipped {
        let f: Vec<usize> = g.split(' ').take(2).map(|n| n.parse().unwrap()).collect();
        assert!(f[0] > 0 && f[0] - f[1] <= 1, "{text}");
    }
    assert!(shipped[1].ends_with(" g4"), "{text}");
    // The planted game: every move but the mate has one, and Nf6 is the blunder.
    assert!(planted.starts_with("7 6 "), "{text}");
    assert!(
        planted
            .split(' ')
            .nth(2)
            .unwrap()
            .split(',')
            .any(|s| s == "Nf6"),
        "{text}"
    );
}
