//! Fuzz targets of the sessions that read what people and programs type: a whole UCI or
//! XBoard session over the input's lines, run in-process on the loaded plugins
//! (`houserules_host::uci::serve`, `houserules_host::xboard::serve`), as a GUI or a match
//! runner would send them; and a game of `houserules play` between two people typing
//! ([`play`]).
//!
//! What a session must do whatever it is sent: end only at `quit` or the end of the input,
//! never panic (in any of its threads), answer every `go` (UCI) with exactly one `bestmove`
//! and every `ping N` (XBoard) with `pong N` in order, and write only lines of its protocol.
//! The input ends right after its last line, which stops every search at once (the end of
//! the input stops a search as `quit` does), so the searches here are short: what is fuzzed
//! is the reading of commands, positions, moves and options, not the search.
//!
//! Two kinds of line are settings rather than input and are kept small, so that an input
//! costs milliseconds: a perft deeper than 2 (a `go perft 9` is a valid hour of work) and a
//! hash size or thread count over 64 (valid, and gigabytes). Inputs with them are skipped
//! ([`Verdict::Rejected`] without running).

use crate::targets::Context;
use crate::Verdict;
use houserules_host::pgn::Reader;
use houserules_host::play::{self as terminal, Setup};
use houserules_host::uci::{self, parse_go, Rules, RulesChoice};
use houserules_host::xboard;
use houserules_host::PresetSpec;
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

/// A writer the session and the test share.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut v) = self.0.lock() {
            v.extend_from_slice(b);
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn text(&self) -> String {
        let bytes = self.0.lock().map(|v| v.clone()).unwrap_or_default();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// The lines a session reads: as its reader splits and trims them, up to and with the first
/// `quit`.
fn session_lines(data: &[u8]) -> Vec<String> {
    let mut lines = Vec::new();
    for raw in data.split(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(raw).trim().to_string();
        let quit = command(&line).0 == "quit";
        lines.push(line);
        if quit {
            break;
        }
    }
    lines
}

fn command(line: &str) -> (&str, &str) {
    let (cmd, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    (cmd, args.trim())
}

/// A line asking for much work or memory (see the module's text).
fn costly(line: &str) -> bool {
    let (cmd, args) = command(line);
    if cmd == "go" && parse_go(args).perft.is_some_and(|d| d > 2) {
        return true;
    }
    let lower = line.to_ascii_lowercase();
    ["hash", "threads", "memory", "cores"]
        .iter()
        .any(|w| lower.contains(w))
        && lower
            .split(|c: char| !c.is_ascii_digit())
            .any(|n| n.len() > 2 || n.parse::<u32>().is_ok_and(|n| n > 64))
}

/// Runs a session on `data`; its output, or `None` when the input is skipped.
fn session(
    ctx: &Context,
    data: &[u8],
    serve: fn(Rules, Box<dyn std::io::BufRead + Send>, Box<dyn Write + Send>),
) -> Option<(Vec<String>, String)> {
    let lines = session_lines(data);
    if lines.iter().any(|l| costly(l)) {
        return None;
    }
    let out = Captured::default();
    let rules = Rules::on(ctx.shared.clone(), RulesChoice::default());
    serve(
        rules,
        Box::new(Cursor::new(data.to_vec())),
        Box::new(out.clone()),
    );
    Some((lines, out.text()))
}

/// A UCI session: one `bestmove` per `go` that is not a perft, and only UCI's lines.
pub fn uci(ctx: &mut Context, data: &[u8]) -> Result<Verdict, String> {
    let Some((lines, output)) = session(ctx, data, uci::serve) else {
        return Ok(Verdict::Rejected);
    };
    let searches = lines
        .iter()
        .map(|l| command(l))
        .filter(|(cmd, args)| *cmd == "go" && parse_go(args).perft.is_none())
        .count();
    let answered = output.lines().filter(|l| l.starts_with("bestmove")).count();
    if answered != searches {
        return Err(format!(
            "{searches} searches asked for, {answered} bestmove lines:\n{output}"
        ));
    }
    // `d` prints a board picture; every other line is one of UCI's.
    let pictures = lines.iter().any(|l| command(l).0 == "d");
    if !pictures {
        let uci_lines = ["id ", "option ", "uciok", "readyok", "info ", "bestmove "];
        // `go perft` answers as Stockfish does: `move: count` per root move, an empty
        // line, `Nodes searched: N`, an empty line.
        let perft_line = |l: &str| {
            l.is_empty()
                || l.starts_with("Nodes searched: ")
                || l.rsplit_once(": ").is_some_and(|(m, n)| {
                    !m.is_empty() && !m.contains(' ') && n.parse::<u64>().is_ok()
                })
        };
        if let Some(l) = output
            .lines()
            .find(|l| !perft_line(l) && !uci_lines.iter().any(|p| l.starts_with(p)))
        {
            return Err(format!("a line that is not UCI's: `{l}`"));
        }
    }
    for l in output.lines().filter(|l| l.starts_with("bestmove")) {
        let words: Vec<&str> = l.split(' ').collect();
        let well_formed = match words.as_slice() {
            ["bestmove", m] | ["bestmove", m, "ponder", _] => !m.is_empty(),
            _ => false,
        };
        if !well_formed {
            return Err(format!("a malformed bestmove line: `{l}`"));
        }
    }
    Ok(if output.contains("info string") {
        Verdict::Rejected
    } else {
        Verdict::Accepted
    })
}

/// An XBoard session: `pong N` for every `ping N`, in order, and only XBoard's lines.
pub fn xboard(ctx: &mut Context, data: &[u8]) -> Result<Verdict, String> {
    let Some((lines, output)) = session(ctx, data, xboard::serve) else {
        return Ok(Verdict::Rejected);
    };
    // Compared word by word: the session reads a command's words, not its spacing.
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let pings: Vec<String> = lines
        .iter()
        .map(|l| command(l))
        .filter(|(cmd, _)| *cmd == "ping")
        .map(|(_, n)| words(n))
        .collect();
    let pongs: Vec<String> = output
        .lines()
        .filter_map(|l| l.strip_prefix("pong"))
        .map(words)
        .collect();
    if pings != pongs {
        return Err(format!(
            "pings {pings:?} answered by pongs {pongs:?}:\n{output}"
        ));
    }
    let xboard_lines = [
        "feature ",
        "pong",
        "move ",
        "Illegal move",
        "Error (",
        "tellusererror ",
        "telluser ",
        "setup ",
        "piece ",
        "1-0 {",
        "0-1 {",
        "1/2-1/2 {",
        "# ",
    ];
    // Thinking output (`post`) is a line of numbers and a PV.
    let thinking = |l: &str| l.starts_with(|c: char| c.is_ascii_digit());
    if let Some(l) = output
        .lines()
        .find(|l| !thinking(l) && !xboard_lines.iter().any(|p| l.starts_with(p)))
    {
        return Err(format!("a line that is not XBoard's: `{l}`"));
    }
    let refused = ["Illegal", "Error", "telluser"];
    Ok(
        if output
            .lines()
            .any(|l| refused.iter().any(|r| l.starts_with(r)))
        {
            Verdict::Rejected
        } else {
            Verdict::Accepted
        },
    )
}

/// The rule sets a `play` input may pick (its first byte, modulo their number): a variant
/// and its presets.
pub const PLAY_RULES: &[(&str, &[&str])] = &[
    ("chess", &[]),
    ("chess", &["piece-hp"]),
    ("rookmania", &[]),
    ("mixedchess_v5", &[]),
    ("tictacrook_v1", &[]),
    ("chess", &["knights-leap-twice"]),
    ("chess", &["queen-splits", "wrap-board"]),
];

/// A game of `play` between two people typing the input's lines (its first byte picks the
/// rules from [`PLAY_RULES`] and whether the board is drawn after each move). Whatever they
/// type, the game ends without an error, and its record reads back: `analyze` finds it
/// valid, with every move played, and with the rules' result where the rules ended it.
pub fn play(ctx: &mut Context, data: &[u8]) -> Result<Verdict, String> {
    let Some((&first, typed)) = data.split_first() else {
        return Ok(Verdict::Rejected);
    };
    let (variant, presets) = PLAY_RULES[first as usize % PLAY_RULES.len()];
    let specs: Vec<PresetSpec> = presets
        .iter()
        .map(|p| p.parse().map_err(|e| format!("preset {p}: {e:?}")))
        .collect::<Result<_, _>>()?;
    let p = ctx.pipeline_for(variant, &specs)?;
    let start = p.start_position().map_err(|e| format!("start: {e}"))?;
    let setup = Setup {
        show: first & 0x80 != 0,
        max_plies: 300,
        date: Some("2026.12.06".into()),
        ..Setup::default()
    };
    let mut input: &[u8] = typed;
    let mut out: Vec<u8> = Vec::new();
    let played = terminal::play(p, start, &setup, &mut input, &mut out)
        .map_err(|e| format!("play ended in an error: {e}"))?;
    let text = terminal::record(p, &specs, false, &played, &setup, 1, false)
        .map_err(|e| format!("record: {e}"))?;
    let mut reader = Reader::new(text.as_bytes());
    let record = reader
        .next_record()
        .map_err(|e| format!("reading the record back: {e}"))?
        .ok_or("the record reads back as no game")?;
    let report = ctx.analyzer.analyze(&record, 1, "play");
    if !report.valid() || report.ply_count as usize != played.moves.len() {
        return Err(format!(
            "the record of a game played is not valid ({} plies played, {} read back): {:?}\n{text}",
            played.moves.len(),
            report.ply_count,
            report.errors
        ));
    }
    // Where the rules ended the game (not a person, the input or the ply limit), analyze
    // computes the same result.
    let by_people = [
        "resigns",
        "draw agreed",
        "draw claimed",
        "quit",
        "end of input",
        "ply limit",
        "end of moves",
    ];
    if !by_people.iter().any(|w| played.termination.contains(w))
        && report.result.computed != played.result
    {
        return Err(format!(
            "play ended {} ({}), analyze computes {}\n{text}",
            played.result, played.termination, report.result.computed
        ));
    }
    Ok(if played.moves.is_empty() {
        Verdict::Rejected
    } else {
        Verdict::Accepted
    })
}
