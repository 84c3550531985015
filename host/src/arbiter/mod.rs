//! `houserules match`: UCI and XBoard engines play each other with the pipeline as the
//! arbiter.
//!
//! Every move an engine sends is checked against the legal moves of the pipeline (written in
//! the host's coordinate form); every game is ended by the pipeline's outcome (or a claimable
//! draw, which the arbiter claims). An engine that sends an illegal move, runs past its time
//! by more than the margin, or dies, loses that game; it is started again for the next one and
//! the match goes on.

use crate::error::HostError;
use crate::game::Game;
use crate::notation::{coordinate, coordinate_among, san};
use crate::pgn::{write_record, WrittenMove};
use crate::pipeline::Pipeline;
use houserules_plugin_api::{Color, Move, Position, Winner};
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

mod cecp;
pub use cecp::XboardEngine;

/// Errors of the match itself (not of one game).
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// Rules errors.
    #[error(transparent)]
    Host(#[from] HostError),
    /// An engine that cannot be started, does not speak its protocol or cannot play the
    /// rules.
    #[error("engine `{command}`: {reason}")]
    Engine {
        /// Its command.
        command: String,
        /// Why.
        reason: String,
    },
    /// A bad argument.
    #[error("{0}")]
    Usage(String),
    /// Writing the PGN failed.
    #[error("{0}")]
    Io(String),
}

/// The protocol an engine speaks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Protocol {
    /// UCI (`uci`, `position`, `go`, `bestmove`).
    #[default]
    Uci,
    /// XBoard / CECP v2 (`protover 2`, `usermove`, `go`, `move`).
    Xboard,
}

impl std::str::FromStr for Protocol {
    type Err = String;
    fn from_str(s: &str) -> Result<Protocol, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "uci" => Ok(Protocol::Uci),
            "xboard" | "cecp" | "winboard" => Ok(Protocol::Xboard),
            other => Err(format!("`{other}` is not a protocol (uci, xboard)")),
        }
    }
}

/// An engine to start: a command line (run by `sh -c`), its protocol and options to set.
#[derive(Debug, Clone, Default)]
pub struct EngineSpec {
    /// The command.
    pub command: String,
    /// Options (`NAME`, `VALUE`) set after the handshake, before the rules: UCI's
    /// `setoption`, XBoard's `option NAME=VALUE`.
    pub options: Vec<(String, String)>,
    /// The name in the results and records (default: its `id name` or `myname`).
    pub name: Option<String>,
    /// Its protocol.
    pub protocol: Protocol,
}

/// How long engines may think.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TimeControl {
    /// A fixed time per move (`go movetime`).
    MoveTime(Duration),
    /// A clock: base time, increment, moves per period (`--tc [moves/]base[+inc]`, seconds).
    Clock {
        /// Time at the start (and of each period).
        base: Duration,
        /// Added after each move.
        increment: Duration,
        /// Moves per period (`None`: the whole game).
        moves: Option<u32>,
    },
}

impl std::str::FromStr for TimeControl {
    type Err = String;
    /// `[moves/]base[+inc]` in seconds: `10+0.1`, `40/60`, `0.5+0.05`.
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = |why: &str| {
            format!(
                "time control `{s}`: {why} (expected [moves/]base[+inc], in seconds, e.g. 10+0.1)"
            )
        };
        let (moves, rest) = match s.split_once('/') {
            Some((m, r)) => (
                Some(
                    m.trim()
                        .parse::<u32>()
                        .map_err(|_| bad("moves per period is not a whole number"))?,
                ),
                r,
            ),
            None => (None, s),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let secs = |t: &str, what: &str| -> Result<Duration, String> {
            let v: f64 = t
                .trim()
                .parse()
                .map_err(|_| bad(&format!("{what} is not a number")))?;
            if !(0.0..=1e7).contains(&v) {
                return Err(bad(&format!("{what} is out of range")));
            }
            Ok(Duration::from_secs_f64(v))
        };
        let base = secs(base, "the base time")?;
        if base.is_zero() {
            return Err(bad("the base time is zero"));
        }
        if moves == Some(0) {
            return Err(bad("moves per period is zero"));
        }
        Ok(TimeControl::Clock {
            base,
            increment: secs(inc, "the increment")?,
            moves,
        })
    }
}

/// One start position of the match: a position and moves played from it.
#[derive(Clone)]
pub struct Opening {
    /// The start position.
    pub start: Position,
    /// Whether the start is the layout's start position (sent as `startpos`).
    pub is_layout_start: bool,
    /// Moves from it.
    pub moves: Vec<Move>,
}

/// Reads openings: FENs, one per line (blank lines and `#` comments skipped), or a PGN file
/// (each record's start position and main line). Errors name the line.
pub fn read_openings(p: &Pipeline, name: &str, text: &str) -> Result<Vec<Opening>, MatchError> {
    let looks_pgn = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .is_some_and(|l| l.starts_with('[') || l.starts_with("1."));
    let mut out = Vec::new();
    if looks_pgn {
        for rec in crate::pgn::read_all(text) {
            if let Some(e) = rec.errors.first() {
                return Err(MatchError::Usage(format!(
                    "{name}:{}:{}: {}",
                    e.pos.line, e.pos.column, e.message
                )));
            }
            let (start, is_layout_start) = match rec.tag_value("FEN") {
                Some(f) => (p.game_start(f).map_err(|e| at(name, rec.line, e))?, false),
                None => (p.start_position()?, true),
            };
            let mut game = Game::new(p, start.clone());
            let mut moves = Vec::new();
            for tok in &rec.moves {
                let legal = game.legal_moves()?;
                let text = tok.text(&rec);
                let m = crate::notation::parse_move(p, &game.position, text, &legal)
                    .map_err(|e| at(name, tok.pos.line, e))?;
                game.play_recording(m, false)?;
                moves.push(m);
            }
            out.push(Opening {
                start,
                is_layout_start,
                moves,
            });
        }
    } else {
        for (i, line) in text.lines().enumerate() {
            let l = line.trim();
            if l.is_empty() || l.starts_with('#') {
                continue;
            }
            let start = match epd_as_fen(l) {
                Some(fen) => p.game_start(&fen),
                None => p.game_start(l),
            }
            .map_err(|e| at(name, i as u32 + 1, e))?;
            out.push(Opening {
                start,
                is_layout_start: false,
                moves: Vec::new(),
            });
        }
    }
    if out.is_empty() {
        return Err(MatchError::Usage(format!("{name}: no opening in it")));
    }
    Ok(out)
}

/// The FEN of an EPD line, as the opening books of engine matches are written: the four
/// position fields, then operations (`opcode operand...;`, operands may be quoted), of which
/// `hmvc` and `fmvn` give the clocks (0 and 1 without them). `None` when the line is not one
/// (its fifth word is not an opcode: a FEN's clocks are numbers).
fn epd_as_fen(line: &str) -> Option<String> {
    let mut rest = line.trim();
    let mut fields = Vec::with_capacity(4);
    for _ in 0..4 {
        let (field, after) = rest.split_once(char::is_whitespace)?;
        fields.push(field);
        rest = after.trim_start();
    }
    let opcode = |w: &str| {
        w.starts_with(|c: char| c.is_ascii_alphabetic())
            && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if !rest.split_whitespace().next().is_some_and(opcode) {
        return None;
    }
    let (mut hmvc, mut fmvn) = ("0".to_string(), "1".to_string());
    // Operations end at a `;` outside quotes.
    let mut operation = String::new();
    let mut quoted = false;
    for c in rest.chars().chain(std::iter::once(';')) {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                let mut words = operation.split_whitespace();
                match (words.next(), words.next()) {
                    (Some("hmvc"), Some(n)) => hmvc = n.to_string(),
                    (Some("fmvn"), Some(n)) => fmvn = n.to_string(),
                    _ => {}
                }
                operation.clear();
                continue;
            }
            _ => {}
        }
        operation.push(c);
    }
    Some(format!("{} {hmvc} {fmvn}", fields.join(" ")))
}

fn at(name: &str, line: u32, e: HostError) -> MatchError {
    MatchError::Usage(format!("{name}:{line}: {e}"))
}

/// What the rules need of an engine, sent as UCI options.
#[derive(Debug, Clone, Default)]
pub struct RulesOptions {
    /// `UCI_Variant` (sent when the engine has the option; needed unless chess).
    pub variant: String,
    /// `Layout`.
    pub layout: Option<String>,
    /// `Presets` (the `ID[:k=v,...]` list, space-separated).
    pub presets: Option<String>,
    /// `Modifiers` (descriptor files, comma-separated).
    pub modifiers: Option<String>,
}

/// An engine's process: its input, and its output lines as a reader thread receives them.
struct Pipe {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// `command` for `sh -c` with `exec` before its program, so that the engine is the shell's
/// own process (killed as one): after any leading `NAME=value` assignments, which `exec` would
/// take for the program's name (`FOO=1 engine uci` runs `engine` with `FOO` set).
fn exec_line(command: &str) -> String {
    let mut rest = command.trim_start();
    let mut assignments = String::new();
    while let Some(word) = rest.split_whitespace().next() {
        let is_assignment = word.split_once('=').is_some_and(|(name, value)| {
            let mut chars = name.chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !value.contains(['\'', '"', '\\', '$', '`'])
        });
        if !is_assignment {
            break;
        }
        assignments.push_str(word);
        assignments.push(' ');
        rest = rest[word.len()..].trim_start();
    }
    format!("{assignments}exec {rest}")
}

impl Pipe {
    /// Starts `command` through `sh -c`.
    fn spawn(command: &str) -> Result<Pipe, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(exec_line(command))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start it: {e}"))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err("no pipes to it".into());
        };
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            while let Some(line) = crate::text_lines::next_line(&mut stdout) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Pipe {
            child,
            stdin,
            lines: rx,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| Forfeit::Died(format!("cannot write to it: {e}")))
    }

    fn recv(&self, deadline: Instant) -> Result<String, Forfeit> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(Forfeit::Time("no answer in time".into())),
            Err(RecvTimeoutError::Disconnected) => {
                Err(Forfeit::Died("it closed its output".into()))
            }
        }
    }

    /// [`Pipe::recv`] while waiting for a move asked for at `started`: running out of time
    /// says how long it took.
    fn recv_during_move(&self, started: Instant, deadline: Instant) -> Result<String, Forfeit> {
        match self.recv(deadline) {
            Err(Forfeit::Time(_)) => Err(Forfeit::Time(format!(
                "no move after {} ms",
                started.elapsed().as_millis()
            ))),
            other => other,
        }
    }

    /// Forgets the lines it has written so far (late claims, thinking output).
    fn drain(&self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// Ends the process: `word` (its protocol's quit), a short wait, then kill.
    fn quit(mut self, word: &str) {
        let _ = self.send(word);
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A running engine of either protocol.
pub enum MatchEngine {
    /// A UCI engine.
    Uci(UciEngine),
    /// An XBoard engine.
    Xboard(XboardEngine),
}

impl MatchEngine {
    /// Starts an engine in its protocol, with its options and the rules.
    pub fn start(spec: &EngineSpec, rules: &RulesOptions) -> Result<MatchEngine, MatchError> {
        Ok(match spec.protocol {
            Protocol::Uci => MatchEngine::Uci(UciEngine::start(spec, rules)?),
            Protocol::Xboard => MatchEngine::Xboard(XboardEngine::start(spec, rules)?),
        })
    }

    /// Its own name (`id name`, `myname`), else its command.
    pub fn name(&self) -> &str {
        match self {
            MatchEngine::Uci(e) => &e.name,
            MatchEngine::Xboard(e) => &e.name,
        }
    }

    /// Ends the process.
    pub fn stop(self) {
        match self {
            MatchEngine::Uci(e) => e.stop(),
            MatchEngine::Xboard(e) => e.stop(),
        }
    }

    /// Kills the process and starts it again.
    pub fn restart(self, rules: &RulesOptions) -> Result<MatchEngine, MatchError> {
        let spec = match self {
            MatchEngine::Uci(e) => e.kill(),
            MatchEngine::Xboard(e) => e.kill(),
        };
        MatchEngine::start(&spec, rules)
    }
}

/// A running UCI engine.
pub struct UciEngine {
    spec: EngineSpec,
    /// Its `id name`.
    pub name: String,
    pipe: Pipe,
    /// Option names it declared.
    options: Vec<String>,
    /// Whether it was told `UCI_Chess960` for the current game.
    chess960: bool,
}

/// How an engine lost a game other than by the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Forfeit {
    /// It sent a move that is not legal (or no move while it had one).
    Illegal(String),
    /// It ran past its time.
    Time(String),
    /// It died or closed its output.
    Died(String),
    /// It resigned (XBoard's `resign`).
    Resigned,
    /// It cannot play this game (an XBoard engine without `setboard`, say).
    Unsupported(String),
}

impl std::fmt::Display for Forfeit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Forfeit::Illegal(s) => write!(f, "illegal move: {s}"),
            Forfeit::Time(s) => write!(f, "time forfeit: {s}"),
            Forfeit::Died(s) => write!(f, "engine died: {s}"),
            Forfeit::Resigned => write!(f, "resigned"),
            Forfeit::Unsupported(s) => write!(f, "cannot play this game: {s}"),
        }
    }
}

/// Time allowed for `uci` → `uciok` and `isready` → `readyok`.
pub(crate) const HANDSHAKE: Duration = Duration::from_secs(20);

impl UciEngine {
    /// Starts an engine, runs the handshake and sets its options and the rules.
    pub fn start(spec: &EngineSpec, rules: &RulesOptions) -> Result<UciEngine, MatchError> {
        let fail = |reason: String| MatchError::Engine {
            command: spec.command.clone(),
            reason,
        };
        let mut e = UciEngine {
            spec: spec.clone(),
            name: spec.command.clone(),
            pipe: Pipe::spawn(&spec.command).map_err(fail)?,
            options: Vec::new(),
            chess960: false,
        };
        e.send("uci").map_err(|r| fail(r.to_string()))?;
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let line = e
                .recv(deadline)
                .map_err(|r| fail(format!("during `uci`: {r}")))?;
            if let Some(n) = line.strip_prefix("id name ") {
                e.name = n.trim().to_string();
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                e.options.push(name.to_string());
            } else if line.trim() == "uciok" {
                break;
            }
        }
        for (k, v) in spec.options.clone() {
            if !e.has_option(&k) {
                return Err(fail(format!("it has no option `{k}`")));
            }
            e.set_option(&k, &v).map_err(|r| fail(r.to_string()))?;
        }
        if e.has_option("UCI_Variant") {
            e.set_option("UCI_Variant", &rules.variant)
                .map_err(|r| fail(r.to_string()))?;
        } else if rules.variant != "chess" {
            return Err(fail(format!(
                "it has no UCI_Variant option: it cannot play `{}`",
                rules.variant
            )));
        }
        for (opt, value) in [
            ("Layout", &rules.layout),
            ("Presets", &rules.presets),
            ("Modifiers", &rules.modifiers),
        ] {
            if let Some(v) = value {
                if !e.has_option(opt) {
                    return Err(fail(format!(
                        "it has no {opt} option: it cannot play these rules"
                    )));
                }
                e.set_option(opt, v).map_err(|r| fail(r.to_string()))?;
            }
        }
        e.sync(HANDSHAKE).map_err(|r| fail(r.to_string()))?;
        Ok(e)
    }

    fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    /// Tells an engine that offers `UCI_Chess960` whether this game is one (only when that
    /// changes); an engine without the option keeps the plain form.
    fn set_chess960(&mut self, on: bool) -> Result<(), Forfeit> {
        if !self.has_option("UCI_Chess960") || self.chess960 == on {
            return Ok(());
        }
        self.set_option("UCI_Chess960", if on { "true" } else { "false" })?;
        self.chess960 = on;
        Ok(())
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), Forfeit> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        self.pipe.send(line)
    }

    fn recv(&self, deadline: Instant) -> Result<String, Forfeit> {
        self.pipe.recv(deadline)
    }

    /// `isready` → `readyok`: every command sent before is processed.
    pub fn sync(&mut self, wait: Duration) -> Result<(), Forfeit> {
        self.send("isready")?;
        let deadline = Instant::now() + wait;
        loop {
            if self.recv(deadline)?.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    /// Asks for a move: sends the position and `go ...`, waits up to `allowed` for `bestmove`.
    /// Returns the move text and the time taken.
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        allowed: Duration,
    ) -> Result<(String, Duration), Forfeit> {
        self.send(position)?;
        self.send(go)?;
        let started = Instant::now();
        let deadline = started + allowed;
        loop {
            let line = self.pipe.recv_during_move(started, deadline)?;
            let mut w = line.split_whitespace();
            if w.next() == Some("bestmove") {
                let m = w.next().unwrap_or("").to_string();
                return Ok((m, started.elapsed()));
            }
        }
    }

    /// Ends the process (after `quit`, a short wait, then kill).
    pub fn stop(self) {
        self.pipe.quit("quit");
    }

    /// Kills the process; its spec, to start it again.
    fn kill(self) -> EngineSpec {
        self.pipe.kill();
        self.spec
    }
}

/// The result of one game.
#[derive(Debug, Clone)]
pub struct GameResult {
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: String,
    /// Why it ended.
    pub termination: String,
    /// The engine (index) that forfeited, if any.
    pub forfeited: Option<usize>,
    /// The PGN record.
    pub record: String,
}

/// Settings of a match.
pub struct MatchSettings {
    /// The rules as options for the engines.
    pub rules: RulesOptions,
    /// Rule tags of the records (`Variant`, `Presets` ...).
    pub rule_tags: Vec<(String, String)>,
    /// Games per pair of engines.
    pub games: u32,
    /// Thinking time.
    pub time: TimeControl,
    /// Extra time past the limit before a move forfeits.
    pub margin: Duration,
    /// Draw by adjudication after this many plies (0: never).
    pub max_plies: u32,
    /// Start positions, used in turn (each twice, colours swapped).
    pub openings: Vec<Opening>,
    /// Games played at the same time, each by a set of engines of its own.
    pub concurrency: usize,
}

/// Wins, draws and losses of the first engine of a pair.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points (a draw is half).
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Score fraction.
    pub fn score(&self) -> f64 {
        self.points() / (self.games().max(1) as f64)
    }

    /// Elo difference and its 95% error margin (normal approximation over the per-game
    /// scores, as cutechess-cli computes it). `None` for the difference when the score is
    /// 0 or 1 (infinite), and for the margin when the bounds are.
    pub fn elo(&self) -> (Option<f64>, Option<f64>) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (None, None);
        }
        let s = self.score();
        let (w, d, l) = (
            self.wins as f64 / n,
            self.draws as f64 / n,
            self.losses as f64 / n,
        );
        let var = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
        let dev = (var / n).sqrt() * 1.959964;
        let elo = |p: f64| {
            if p <= 0.0 || p >= 1.0 {
                None
            } else {
                Some(-400.0 * (1.0 / p - 1.0).log10())
            }
        };
        let margin = match (elo(s - dev), elo(s + dev)) {
            (Some(lo), Some(hi)) => Some((hi - lo) / 2.0),
            _ => None,
        };
        (elo(s), margin)
    }

    /// `+12.3 +/- 45.6` (`inf` where infinite).
    pub fn elo_text(&self) -> String {
        let (e, m) = self.elo();
        let e = match e {
            // Rounded first, so that a tiny negative difference is no "-0.0".
            Some(e) if (e * 10.0).round() == 0.0 => "0.0".into(),
            Some(e) => format!("{e:+.1}"),
            None if self.score() >= 1.0 => "+inf".into(),
            None => "-inf".into(),
        };
        let m = m.map_or("inf".to_string(), |m| format!("{m:.1}"));
        format!("{e} +/- {m}")
    }
}

/// A clock's state in a game.
struct Clocks {
    left: [Duration; 2],
    moves_made: [u32; 2],
}

/// Plays one game between `engines[white]` and `engines[black]` (an entry is the reason while
/// an engine cannot be started: it loses at once). Restarts an engine that forfeited.
#[allow(clippy::too_many_arguments)]
pub fn play_game(
    p: &Pipeline,
    settings: &MatchSettings,
    engines: &mut [Result<MatchEngine, String>],
    specs: &[EngineSpec],
    names: &[String],
    white: usize,
    black: usize,
    opening: &Opening,
    round: u32,
) -> GameResult {
    let sides = [white, black];
    let mut game = Game::new(p, opening.start.clone());
    let mut texts = EngineTexts::default();
    let mut written: Vec<WrittenMove> = Vec::new();
    for &m in &opening.moves {
        if let Err(e) = record_move(p, &mut game, m, &mut texts, &mut written) {
            return finish_error(p, settings, names, sides, opening, round, &written, &e);
        }
    }
    let (base, inc, per) = match settings.time {
        TimeControl::Clock {
            base,
            increment,
            moves,
        } => (base, increment, moves),
        TimeControl::MoveTime(_) => (Duration::ZERO, Duration::ZERO, None),
    };
    let mut clocks = Clocks {
        left: [base; 2],
        moves_made: [0; 2],
    };
    // A start whose castling king or rooks stand elsewhere than in the variant's own start
    // (Chess960): engines that offer `UCI_Chess960` are told so, and get castles as king
    // takes rook; the others get the plain form, which they read for ordinary starts.
    let chess960 = castles_from_other_squares(p, &opening.start);
    let start_fen = if opening.is_layout_start {
        None
    } else {
        match p.write_fen(&opening.start) {
            Ok(f) => Some(f),
            Err(e) => return finish_error(p, settings, names, sides, opening, round, &written, &e),
        }
    };
    // An XBoard engine that cannot set the game up loses it at its first move.
    let mut refused: [Option<Forfeit>; 2] = [None, None];
    for (k, &i) in sides.iter().enumerate() {
        match engines[i].as_mut() {
            Ok(MatchEngine::Uci(e)) => {
                // An engine that fails here is found out at its first move.
                let _ = e
                    .set_chess960(chess960)
                    .and_then(|()| e.send("ucinewgame"))
                    .and_then(|()| e.sync(HANDSHAKE));
            }
            Ok(MatchEngine::Xboard(e)) => {
                refused[k] = e
                    .new_game(
                        &settings.rules.variant,
                        start_fen.as_deref(),
                        chess960,
                        &settings.time,
                    )
                    .err();
            }
            Err(_) => {}
        }
    }
    let mut quiet_loss = false;
    let (result, termination, forfeited) = loop {
        let legal = match game.legal_moves() {
            Ok(l) => l,
            Err(e) => break ("*".to_string(), format!("rules error: {e}"), None),
        };
        let status = match game.status_with(!legal.is_empty()) {
            Ok(s) => s,
            Err(e) => break ("*".to_string(), format!("rules error: {e}"), None),
        };
        if let Some(o) = status.outcome {
            break (result_token(o.winner), o.reason.to_string(), None);
        }
        if let Some(claim) = status.claimable {
            break ("1/2-1/2".into(), format!("draw claimed ({claim})"), None);
        }
        if settings.max_plies > 0 && game.moves.len() as u32 >= settings.max_plies {
            break ("1/2-1/2".into(), "adjudication: ply limit".into(), None);
        }
        let side = game.position.side_to_move;
        let idx = sides[side.index()];
        let lose = |why: String| {
            let token = result_token(Winner::color(side.opposite()));
            (token, format!("{} {why}", names[idx]), Some(idx))
        };
        if let Some(f) = refused[side.index()].take() {
            quiet_loss = matches!(f, Forfeit::Unsupported(_));
            break lose(f.to_string());
        }
        let engine = match engines[idx].as_mut() {
            Ok(e) => e,
            Err(why) => break lose(format!("could not be started: {why}")),
        };
        let allowed = match settings.time {
            TimeControl::MoveTime(t) => t,
            TimeControl::Clock { .. } => clocks.left[side.index()],
        } + settings.margin;
        let answer = match engine {
            MatchEngine::Uci(engine) => {
                let position = match &start_fen {
                    None => "position startpos".to_string(),
                    Some(f) => format!("position fen {f}"),
                };
                let moves = if engine.chess960 {
                    &texts.chess960
                } else {
                    &texts.plain
                };
                let position = if moves.is_empty() {
                    position
                } else {
                    format!("{position} moves {}", moves.join(" "))
                };
                let go = match settings.time {
                    TimeControl::MoveTime(t) => format!("go movetime {}", t.as_millis()),
                    TimeControl::Clock { .. } => {
                        let mut go = format!(
                            "go wtime {} btime {} winc {} binc {}",
                            clocks.left[0].as_millis(),
                            clocks.left[1].as_millis(),
                            inc.as_millis(),
                            inc.as_millis()
                        );
                        if let Some(n) = per {
                            let made = clocks.moves_made[side.index()];
                            go.push_str(&format!(" movestogo {}", n - made % n));
                        }
                        go
                    }
                };
                engine.think(&position, &go, allowed)
            }
            MatchEngine::Xboard(engine) => {
                let clock = match settings.time {
                    TimeControl::MoveTime(_) => None,
                    TimeControl::Clock { .. } => Some((
                        clocks.left[side.index()],
                        clocks.left[side.opposite().index()],
                    )),
                };
                let ranks = game.position.ranks();
                engine
                    .think(&texts.xboard, clock, allowed)
                    .map(|(m, took)| (crate::xboard::squares_from_xboard(&m, ranks), took))
            }
        };
        let (text, took) = match answer {
            Ok(x) => x,
            Err(f) => {
                quiet_loss = matches!(f, Forfeit::Resigned | Forfeit::Unsupported(_));
                break lose(f.to_string());
            }
        };
        if let TimeControl::Clock { .. } = settings.time {
            let s = side.index();
            if took > clocks.left[s] + settings.margin {
                break lose(format!(
                    "time forfeit: {} ms used with {} ms left",
                    took.as_millis(),
                    clocks.left[s].as_millis()
                ));
            }
            clocks.left[s] = clocks.left[s].saturating_sub(took) + inc;
            clocks.moves_made[s] += 1;
            if let Some(n) = per {
                if clocks.moves_made[s].is_multiple_of(n) {
                    clocks.left[s] += base;
                }
            }
        }
        let m = match coordinate_move(p, &game.position, &legal, &text) {
            Ok(Some(m)) => m,
            Ok(None) => {
                break lose(format!(
                    "illegal move: `{text}` in {}",
                    p.write_fen(&game.position).unwrap_or_default()
                ))
            }
            Err(e) => break ("*".into(), format!("rules error: {e}"), None),
        };
        if let Err(e) = record_move(p, &mut game, m, &mut texts, &mut written) {
            break ("*".into(), format!("rules error: {e}"), None);
        }
    };
    // An engine that lost other than by the rules is started again (a resignation or an
    // XBoard engine that cannot play a start is no fault of its process).
    if let Some(i) = forfeited.filter(|_| !quiet_loss) {
        let old = std::mem::replace(&mut engines[i], Err(String::new()));
        engines[i] = match old {
            Ok(e) => e.restart(&settings.rules),
            Err(_) => MatchEngine::start(&specs[i], &settings.rules),
        }
        .map_err(|e| e.to_string());
    }
    let record = game_record(
        p,
        settings,
        names,
        sides,
        opening,
        round,
        &written,
        &result,
        &termination,
    );
    GameResult {
        result,
        termination,
        forfeited,
        record,
    }
}

/// The moves of a game as sent to engines: the coordinate form, the same with castles as
/// king takes rook for engines told `UCI_Chess960`, and XBoard's squares (ranks of a board
/// of ten from 0).
#[derive(Default)]
struct EngineTexts {
    plain: Vec<String>,
    chess960: Vec<String>,
    xboard: Vec<String>,
}

/// Plays `m`, noting its forms for the engines and its SAN (for the record).
fn record_move(
    p: &Pipeline,
    game: &mut Game<'_>,
    m: Move,
    texts: &mut EngineTexts,
    written: &mut Vec<WrittenMove>,
) -> Result<(), HostError> {
    let legal = game.legal_moves()?;
    let pos = &game.position;
    let text = engine_text(p, pos, m)?;
    texts.chess960.push(if m.is_castle() {
        crate::notation::king_takes_rook(&m)
    } else {
        text.clone()
    });
    texts
        .xboard
        .push(crate::xboard::xboard_text(p, pos, m, &text));
    texts.plain.push(text);
    written.push(WrittenMove {
        white: pos.side_to_move == Color::White,
        fullmove: pos.fullmove_number as u32,
        san: san(p, pos, m, &legal)?,
    });
    game.play_recording(m, false)?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn finish_error(
    p: &Pipeline,
    settings: &MatchSettings,
    names: &[String],
    sides: [usize; 2],
    opening: &Opening,
    round: u32,
    written: &[WrittenMove],
    e: &HostError,
) -> GameResult {
    let termination = format!("rules error: {e}");
    GameResult {
        record: game_record(
            p,
            settings,
            names,
            sides,
            opening,
            round,
            written,
            "*",
            &termination,
        ),
        result: "*".into(),
        termination,
        forfeited: None,
    }
}

#[allow(clippy::too_many_arguments)]
fn game_record(
    p: &Pipeline,
    settings: &MatchSettings,
    names: &[String],
    sides: [usize; 2],
    opening: &Opening,
    round: u32,
    written: &[WrittenMove],
    result: &str,
    termination: &str,
) -> String {
    let mut tags = vec![
        ("Event".to_string(), "houserules match".to_string()),
        ("Site".to_string(), "houserules".to_string()),
        ("Date".to_string(), crate::play::today()),
        ("Round".to_string(), round.to_string()),
        ("White".to_string(), names[sides[0]].clone()),
        ("Black".to_string(), names[sides[1]].clone()),
    ];
    tags.extend(settings.rule_tags.iter().cloned());
    if !opening.is_layout_start {
        tags.push(("SetUp".to_string(), "1".to_string()));
        tags.push((
            "FEN".to_string(),
            p.write_fen(&opening.start).unwrap_or_default(),
        ));
    }
    tags.push(("Termination".to_string(), termination.to_string()));
    tags.push((
        "TimeControl".to_string(),
        match settings.time {
            TimeControl::MoveTime(t) => format!("movetime {} ms", t.as_millis()),
            TimeControl::Clock {
                base,
                increment,
                moves,
            } => format!(
                "{}{}+{}",
                moves.map(|m| format!("{m}/")).unwrap_or_default(),
                base.as_secs_f64(),
                increment.as_secs_f64()
            ),
        },
    ));
    write_record(&tags, written, result)
}

/// `1-0`, `0-1` or `1/2-1/2`.
fn result_token(w: Winner) -> String {
    match w.winning_color() {
        Some(Color::White) => "1-0".into(),
        Some(Color::Black) => "0-1".into(),
        None => "1/2-1/2".into(),
    }
}

/// A move as Fairy-Stockfish writes it in UCI and XBoard, where that differs from the host's
/// coordinate form: a piece that promotes into its own promoted form, written with a `+`
/// prefix and its own letter (`promotedPieceType`, shogi style), is `from to +` (`g4g3+`,
/// the host writes `g4g3c`); a promoted piece that turns back into its own unpromoted form
/// (Kyoto shogi's `pieceDemotion`) is `from to -` (`a1a2-`, the host writes `a1a2l`). A
/// pawn's promotion to a piece of its choice stays `h7g8q`, also where the promoted piece is
/// marked as such (crazyhouse's `Q~`, a `+Q` kind here): its letter is not the pawn's.
pub fn fsf_text(p: &Pipeline, pos: &Position, m: Move) -> Result<Option<String>, HostError> {
    if !m.is_promotion() || m.is_drop() {
        return Ok(None);
    }
    let kind = |pos: &Position, sq| {
        pos.get(sq)
            .kind()
            .and_then(|k| p.info.pieces.get(k as usize))
    };
    let Some(mover) = kind(pos, m.from) else {
        return Ok(None);
    };
    let (letter, promoted) = (mover.letter.to_ascii_uppercase(), mover.promoted_prefix);
    let mut child = pos.clone();
    let mut fx = houserules_plugin_api::MoveEffects::new(pos.side_to_move, false);
    p.apply(&mut child, m, &mut fx)?;
    let Some(result) = kind(&child, m.destination()) else {
        return Ok(None);
    };
    if result.letter.to_ascii_uppercase() != letter || result.promoted_prefix == promoted {
        return Ok(None);
    }
    let sign = if result.promoted_prefix { '+' } else { '-' };
    Ok(Some(format!("{}{}{sign}", m.from, m.destination())))
}

/// The move sent to engines: the Fairy-Stockfish form where it differs (houserules reads
/// both), else the coordinate form.
pub fn engine_text(p: &Pipeline, pos: &Position, m: Move) -> Result<String, HostError> {
    match fsf_text(p, pos, m)? {
        Some(t) => Ok(t),
        None => coordinate(p, pos, m),
    }
}

/// Whether a castling right of `start` belongs to a king or rook that stands elsewhere than
/// in the variant's own start position (a Chess960 start): such castles are written king
/// takes rook for engines that offer `UCI_Chess960`.
pub fn castles_from_other_squares(p: &Pipeline, start: &Position) -> bool {
    let Ok(home) = p.start_position() else {
        return false;
    };
    let kings = |pos: &Position, color: Color| -> Vec<houserules_plugin_api::Square> {
        pos.pieces_of(color)
            .filter(|&(_, k)| p.info.pieces.get(k as usize).is_some_and(|t| t.royal))
            .map(|(sq, _)| sq)
            .collect()
    };
    start.castling.iter().enumerate().any(|(slot, &rook)| {
        if rook.is_none() {
            return false;
        }
        let color = if slot < 2 { Color::White } else { Color::Black };
        rook != home.castling[slot] || kings(start, color) != kings(&home, color)
    })
}

/// The legal move an engine's move text names, in the coordinate form (castling also as
/// king takes rook, `+` promotions and `-` demotions as Fairy-Stockfish writes them, the one
/// legal pass as XBoard's `@@@@`); `None` when it names none.
pub fn coordinate_move(
    p: &Pipeline,
    pos: &Position,
    legal: &[Move],
    text: &str,
) -> Result<Option<Move>, HostError> {
    if text == crate::xboard::PASS {
        return Ok(crate::xboard::pass_among(p, pos, legal));
    }
    for &m in legal {
        if coordinate_among(p, pos, m, legal)?.eq_ignore_ascii_case(text) {
            return Ok(Some(m));
        }
        if (text.ends_with('+') || text.ends_with('-'))
            && fsf_text(p, pos, m)?.is_some_and(|t| t.eq_ignore_ascii_case(text))
        {
            return Ok(Some(m));
        }
        if m.is_castle() && format!("{}{}", m.from, m.to).eq_ignore_ascii_case(text) {
            return Ok(Some(m));
        }
    }
    Ok(None)
}

/// Progress of a match, as it is played.
pub enum MatchEvent<'a> {
    /// A game is over.
    Game {
        /// Game number, from 1.
        number: u32,
        /// Games in the match.
        total: u32,
        /// White's and Black's engine index.
        sides: [usize; 2],
        /// The game.
        result: &'a GameResult,
    },
}

/// The scores of a finished match, per pair of engines (`(i, j)` with `i < j`, from `i`'s
/// side).
pub struct MatchReport {
    /// Engine names.
    pub names: Vec<String>,
    /// Per pair.
    pub pairs: Vec<((usize, usize), Tally)>,
}

/// Plays a round robin: each pair of engines plays `settings.games` games, alternating
/// colours, openings used in turn (each with both colours). Calls `on_event` after each game.
pub fn run_match(
    p: &Pipeline,
    specs: &[EngineSpec],
    settings: &MatchSettings,
    on_event: &mut dyn FnMut(MatchEvent<'_>, &MatchReport) -> Result<(), MatchError>,
) -> Result<MatchReport, MatchError> {
    if specs.len() < 2 {
        return Err(MatchError::Usage(
            "a match needs at least two --engine".into(),
        ));
    }
    // XBoard's `st` is a whole number of seconds (engines read it so; a fraction may be read
    // as 0, no limit).
    if let TimeControl::MoveTime(t) = settings.time {
        if t.subsec_nanos() != 0 || t.is_zero() {
            if let Some(s) = specs.iter().find(|s| s.protocol == Protocol::Xboard) {
                return Err(MatchError::Usage(format!(
                    "engine `{}` speaks XBoard, whose time per move (`st`) is whole seconds: \
                     give --movetime in whole seconds (1000, 2000, ...) or a clock (--tc)",
                    s.command
                )));
            }
        }
    }
    // A failure to start at the beginning is an error of the match: nothing was played.
    let engines = start_engines(specs, &settings.rules)?;
    let mut names: Vec<String> = engines
        .iter()
        .map(|e| e.as_ref().map(|e| e.name().to_string()).unwrap_or_default())
        .collect();
    for (i, s) in specs.iter().enumerate() {
        if let Some(n) = &s.name {
            names[i] = n.clone();
        }
    }
    let given = names.clone();
    for (i, n) in names.iter_mut().enumerate() {
        if given.iter().filter(|g| **g == given[i]).count() > 1 {
            *n = format!("{} #{}", given[i], i + 1);
        }
    }
    let mut report = MatchReport {
        names: names.clone(),
        pairs: Vec::new(),
    };
    for i in 0..specs.len() {
        for j in i + 1..specs.len() {
            report.pairs.push(((i, j), Tally::default()));
        }
    }
    // The games in order: pair, then game of the pair (colours alternate, each opening
    // twice).
    let mut schedule: Vec<Scheduled> = Vec::new();
    for k in 0..report.pairs.len() {
        let (i, j) = report.pairs[k].0;
        for g in 0..settings.games {
            let (white, black) = if g % 2 == 0 { (i, j) } else { (j, i) };
            schedule.push(Scheduled {
                pair: k,
                number: schedule.len() as u32 + 1,
                white,
                black,
                opening: (g as usize / 2) % settings.openings.len(),
            });
        }
    }
    let total = schedule.len() as u32;
    // A game ended: counted to its pair, then reported.
    let mut finish = |report: &mut MatchReport, s: &Scheduled, r: &GameResult| {
        let first_white = s.white == report.pairs[s.pair].0 .0;
        let t = &mut report.pairs[s.pair].1;
        match (r.result.as_str(), first_white) {
            ("1-0", true) | ("0-1", false) => t.wins += 1,
            ("1-0", false) | ("0-1", true) => t.losses += 1,
            ("1/2-1/2", _) => t.draws += 1,
            _ => {}
        }
        let event = MatchEvent::Game {
            number: s.number,
            total,
            sides: [s.white, s.black],
            result: r,
        };
        on_event(event, report)
    };
    let concurrency = settings.concurrency.clamp(1, schedule.len().max(1));
    if concurrency == 1 {
        let mut engines = engines;
        for s in &schedule {
            let opening = &settings.openings[s.opening];
            let r = play_game(
                p,
                settings,
                &mut engines,
                specs,
                &names,
                s.white,
                s.black,
                opening,
                s.number,
            );
            finish(&mut report, s, &r)?;
        }
        for e in engines.into_iter().flatten() {
            e.stop();
        }
        return Ok(report);
    }
    // Several games at once: a set of engines per game thread (the first set is the one
    // started above), games taken in schedule order, each reported as it ends.
    let mut sets = vec![engines];
    for _ in 1..concurrency {
        sets.push(start_engines(specs, &settings.rules)?);
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, GameResult)>();
    std::thread::scope(|scope| -> Result<(), MatchError> {
        for mut set in sets {
            let tx = tx.clone();
            let (next, stop, schedule, names) = (&next, &stop, &schedule, &names);
            scope.spawn(move || {
                use std::sync::atomic::Ordering;
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(s) = schedule.get(i) else { break };
                    let opening = &settings.openings[s.opening];
                    let r = play_game(
                        p, settings, &mut set, specs, names, s.white, s.black, opening, s.number,
                    );
                    if tx.send((i, r)).is_err() {
                        break;
                    }
                }
                for e in set.into_iter().flatten() {
                    e.stop();
                }
            });
        }
        drop(tx);
        for (i, r) in rx {
            if let Err(e) = finish(&mut report, &schedule[i], &r) {
                // The games being played are played out; no other is started.
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                return Err(e);
            }
        }
        Ok(())
    })?;
    Ok(report)
}

/// One engine of each spec, started for the match's rules.
fn start_engines(
    specs: &[EngineSpec],
    rules: &RulesOptions,
) -> Result<Vec<Result<MatchEngine, String>>, MatchError> {
    specs
        .iter()
        .map(|s| MatchEngine::start(s, rules).map(Ok))
        .collect()
}

/// A game of a match's schedule.
struct Scheduled {
    /// Which pair of engines plays it.
    pair: usize,
    /// Its number, from 1, in schedule order.
    number: u32,
    white: usize,
    black: usize,
    /// Which opening it starts from.
    opening: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_commands_with_assignments_run_the_engine_itself() {
        assert_eq!(exec_line("engine uci"), "exec engine uci");
        assert_eq!(
            exec_line("  FOO=1 _BAR=x/y engine --flag A=B"),
            "FOO=1 _BAR=x/y exec engine --flag A=B"
        );
        // Not assignments: a quoted or expanded value, a name that is not one.
        assert_eq!(exec_line("A=\"x y\" e"), "exec A=\"x y\" e");
        assert_eq!(exec_line("1A=2 e"), "exec 1A=2 e");
        // Through the shell: the variable reaches the program, which is the shell's process.
        let mut p = Pipe::spawn("HOUSERULES_TEST_VALUE=42 sh -c 'echo $HOUSERULES_TEST_VALUE $$'")
            .expect("spawns");
        let line = p
            .lines
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("a line");
        let (value, pid) = line.split_once(' ').expect("two words");
        assert_eq!(value, "42");
        assert_eq!(pid, p.child.id().to_string());
        let _ = p.child.wait();
    }

    #[test]
    fn epd_lines_of_opening_books() {
        let start = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -";
        assert_eq!(epd_as_fen(start), None, "four fields are a FEN");
        assert_eq!(
            epd_as_fen(&format!("{start} 0 1")),
            None,
            "clocks are a FEN's"
        );
        assert_eq!(
            epd_as_fen(&format!("{start} id \"e4; the king's pawn\"; c0 \"x\";")).as_deref(),
            Some(format!("{start} 0 1").as_str()),
            "a `;` inside quotes is the operand's"
        );
        assert_eq!(
            epd_as_fen(&format!("{start} hmvc 3; fmvn 12;")).as_deref(),
            Some(format!("{start} 3 12").as_str())
        );
        assert_eq!(
            epd_as_fen(&format!("{start}   bm e5")).as_deref(),
            Some(format!("{start} 0 1").as_str()),
            "the last `;` may be missing, spaces may be many"
        );
    }

    #[test]
    fn time_controls() {
        assert_eq!(
            "10+0.1".parse::<TimeControl>(),
            Ok(TimeControl::Clock {
                base: Duration::from_secs(10),
                increment: Duration::from_millis(100),
                moves: None
            })
        );
        assert!(matches!(
            "40/60".parse::<TimeControl>(),
            Ok(TimeControl::Clock {
                moves: Some(40),
                ..
            })
        ));
        assert!("x+1"
            .parse::<TimeControl>()
            .unwrap_err()
            .contains("base time"));
        assert!("0+1".parse::<TimeControl>().is_err());
    }

    #[test]
    fn elo_of_scores() {
        let even = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        assert_eq!(even.elo().0, Some(0.0));
        let t = Tally {
            wins: 30,
            draws: 10,
            losses: 10,
        };
        let (e, m) = t.elo();
        // 70%: +147 Elo.
        assert!((e.unwrap() - 147.2).abs() < 0.5, "{e:?}");
        assert!(m.unwrap() > 50.0 && m.unwrap() < 150.0, "{m:?}");
        let all = Tally {
            wins: 5,
            draws: 0,
            losses: 0,
        };
        assert_eq!(all.elo_text(), "+inf +/- inf");
    }
}
