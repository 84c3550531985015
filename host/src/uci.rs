//! `houserules uci`: the Universal Chess Interface over any rule set the plugins make.
//!
//! The rules are options (`UCI_Variant`, `Layout`, `Presets`, `Modifiers`); positions and
//! moves are in the host's coordinate notation (`e2e4`, `e7e8q`, drops `P@e4`, Rook Mania's
//! shots as [`crate::notation::coordinate`] writes them). Every command that cannot be
//! carried out is answered with `info string <reason>`; nothing but `quit` or the end of the
//! input ends the session.
//!
//! Input runs on a reader thread ([`Input`]): it forwards lines to the main thread, raises the
//! stop flag on `stop`/`quit` while a search runs (the engine need not be `Send`: it searches
//! on the main thread) and answers `isready` itself during a search.

use crate::engine::{Clock, Engine, EngineConfig, Focus, Limits, Score, SearchInfo, SearchResult};
use crate::error::HostError;
use crate::game::Game;
use crate::loader::{PluginSearch, Registry};
use crate::notation::{coordinate, parse_move};
use crate::pipeline::{parse_preset_list, Pipeline, PresetSpec};
use houserules_plugin_api::{Color, Move, Position};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The name the engine gives itself.
pub const ENGINE_NAME: &str = concat!("houserules ", env!("CARGO_PKG_VERSION"));

/// Where protocol output goes: shared by the main thread and the reader thread, each line
/// flushed at once (a GUI waits for it).
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Output to a writer.
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    /// Writes one line (write errors are ignored: a GUI that went away sends EOF next).
    pub fn line(&self, text: &str) {
        if let Ok(mut w) = self.0.lock() {
            let _ = writeln!(w, "{text}");
            let _ = w.flush();
        }
    }
}

/// A line of input with the number of stop requests, and of lines that stop an analysis,
/// read before it.
pub struct InputLine {
    /// The line, trimmed.
    pub text: String,
    stops_before: u64,
    /// Lines that stop an analysis read up to this one (this one included).
    seq: u64,
}

/// A line that never stops an analysis ([`Input::arm_analysis`]): blank, or XBoard's `.`
/// (a request for a status line, sent every few seconds while analysing).
fn quiet(text: &str) -> bool {
    text.is_empty() || text == "."
}

/// The reader thread's side: lines in order, and the stop flag a search polls.
pub struct Input {
    lines: Receiver<InputLine>,
    /// Raised when a line that stops a search arrives (see [`Input::arm`]).
    pub stop: Arc<AtomicBool>,
    stops_read: Arc<AtomicU64>,
    searching: Arc<AtomicBool>,
    /// While an analysis runs, every line but a quiet (blank or `.`) one stops it.
    analysing: Arc<AtomicBool>,
    /// Lines read that are not quiet (blank or `.`).
    loud_read: Arc<AtomicU64>,
    /// Of those, the lines [`Input::next`] has returned.
    loud_taken: AtomicU64,
    /// The last line read that stops a search.
    last_stop: Arc<Mutex<String>>,
}

impl Input {
    /// Starts the reader thread on `reader`. `stops(line)` says which lines stop a search;
    /// `answer_now(line)` returns a reply the reader writes itself while a search runs (such
    /// lines are not forwarded then). At the end of the input a `quit` line is forwarded.
    pub fn spawn(
        reader: Box<dyn BufRead + Send>,
        out: Output,
        stops: fn(&str) -> bool,
        answer_now: fn(&str) -> Option<String>,
    ) -> Input {
        let (tx, rx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let stops_read = Arc::new(AtomicU64::new(0));
        let searching = Arc::new(AtomicBool::new(false));
        let analysing = Arc::new(AtomicBool::new(false));
        let loud_read = Arc::new(AtomicU64::new(0));
        let (stop2, read2, searching2) = (stop.clone(), stops_read.clone(), searching.clone());
        let (analysing2, loud2) = (analysing.clone(), loud_read.clone());
        let last_stop = Arc::new(Mutex::new(String::new()));
        let last_stop2 = last_stop.clone();
        std::thread::spawn(move || {
            let mut reader = reader;
            loop {
                let text = match crate::text_lines::next_line(&mut reader) {
                    None => "quit".to_string(),
                    Some(line) => line.trim().to_string(),
                };
                let before = read2.load(Ordering::SeqCst);
                if stops(&text) {
                    if let Ok(mut last) = last_stop2.lock() {
                        last.clone_from(&text);
                    }
                    read2.fetch_add(1, Ordering::SeqCst);
                    stop2.store(true, Ordering::SeqCst);
                }
                // Counted before the flag is read, and the flag raised before the count is
                // read by `arm_analysis`: a line read as an analysis starts stops it either way.
                let seq = if quiet(&text) {
                    loud2.load(Ordering::SeqCst)
                } else {
                    let seq = loud2.fetch_add(1, Ordering::SeqCst) + 1;
                    if analysing2.load(Ordering::SeqCst) {
                        stop2.store(true, Ordering::SeqCst);
                    }
                    seq
                };
                if searching2.load(Ordering::SeqCst) {
                    if let Some(reply) = answer_now(&text) {
                        out.line(&reply);
                        continue;
                    }
                }
                let quit = text == "quit";
                if tx
                    .send(InputLine {
                        text,
                        stops_before: before,
                        seq,
                    })
                    .is_err()
                    || quit
                {
                    break;
                }
            }
        });
        Input {
            lines: rx,
            stop,
            stops_read,
            searching,
            analysing,
            loud_read,
            loud_taken: AtomicU64::new(0),
            last_stop,
        }
    }

    /// The line that stopped the last search, if a line did (not a limit).
    pub fn stopped_by(&self) -> Option<String> {
        if !self.stop.load(Ordering::SeqCst) {
            return None;
        }
        self.last_stop.lock().ok().map(|l| l.clone())
    }

    /// The next line (`quit` once the reader is gone).
    pub fn next(&self) -> InputLine {
        let line = self.lines.recv().unwrap_or(InputLine {
            text: "quit".into(),
            stops_before: u64::MAX,
            seq: u64::MAX,
        });
        self.loud_taken.fetch_max(line.seq, Ordering::SeqCst);
        line
    }

    /// Prepares the stop flag for a search started by `line`: lowered, unless a stop request
    /// was read after that line already.
    pub fn arm(&self, line: &InputLine) {
        self.stop.store(false, Ordering::SeqCst);
        if self.stops_read.load(Ordering::SeqCst) > line.stops_before {
            self.stop.store(true, Ordering::SeqCst);
        }
        self.searching.store(true, Ordering::SeqCst);
    }

    /// [`Input::arm`] for an analysis, which runs until there is a command to serve: a line
    /// read but not yet taken by [`Input::next`], or read later, stops it, unless it is blank
    /// or `.` (the line is then served as usual).
    pub fn arm_analysis(&self) {
        self.stop.store(false, Ordering::SeqCst);
        self.analysing.store(true, Ordering::SeqCst);
        if self.loud_read.load(Ordering::SeqCst) > self.loud_taken.load(Ordering::SeqCst) {
            self.stop.store(true, Ordering::SeqCst);
        }
        self.searching.store(true, Ordering::SeqCst);
    }

    /// The search is over.
    pub fn disarm(&self) {
        self.analysing.store(false, Ordering::SeqCst);
        self.searching.store(false, Ordering::SeqCst);
    }
}

/// The rules of a session, as options set them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesChoice {
    /// Variant id.
    pub variant: String,
    /// Layout id (`None`: the variant's or a preset's preferred one).
    pub layout: Option<String>,
    /// Presets, `ID[:k=v,...]` each.
    pub presets: Vec<PresetSpec>,
    /// Custom modifiers: descriptor files (read when the plugins load) or ids of loaded ones.
    pub modifier_files: Vec<PathBuf>,
}

impl Default for RulesChoice {
    fn default() -> Self {
        RulesChoice {
            variant: "chess".into(),
            layout: None,
            presets: Vec::new(),
            modifier_files: Vec::new(),
        }
    }
}

/// Reads a `Presets` option value: `ID[:k=v,...]` entries separated by spaces or `;`, or a
/// `Presets` tag's comma list (`piece-hp, king-heals:amount=2`).
pub fn parse_presets_option(text: &str) -> Result<Vec<PresetSpec>, HostError> {
    let text = empty_value(text);
    if text.contains(' ') && !text.contains(", ") || text.contains(';') {
        text.split([' ', ';'])
            .filter(|s| !s.trim().is_empty())
            .map(|s| s.parse())
            .collect()
    } else {
        parse_preset_list(text)
    }
}

/// UCI's way of writing an empty string value.
pub fn empty_value(text: &str) -> &str {
    let t = text.trim();
    if t == "<empty>" {
        ""
    } else {
        t
    }
}

/// The rules of a session: the plugins (loaded once, with the modifier files known at the
/// start) and the choice the options made.
pub struct Rules {
    /// The loaded plugins (shared: a session may run on plugins already loaded, as the fuzz
    /// targets of the protocols do).
    pub registry: Arc<Registry>,
    /// What was asked for.
    pub choice: RulesChoice,
}

impl Rules {
    /// Loads the plugins.
    pub fn new(search: PluginSearch, choice: RulesChoice) -> Result<Rules, HostError> {
        set_modifier_path(&choice.modifier_files);
        let registry = Registry::discover(&search)?;
        Ok(Rules::on(Arc::new(registry), choice))
    }

    /// Rules over plugins already loaded.
    pub fn on(registry: Arc<Registry>, choice: RulesChoice) -> Rules {
        Rules { registry, choice }
    }

    /// The ids of every loaded variant, sorted, `chess` first.
    pub fn variant_ids(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .registry
            .variants()
            .map(|(_, v)| v.id.to_string())
            .collect();
        v.sort_by_key(|id| (id != "chess", id.clone()));
        v.dedup();
        v
    }

    /// Builds the pipeline of the current choice. Modifier entries are descriptor files or
    /// ids of loaded custom modifiers; a file must have been read when the plugins were
    /// loaded (plugins read descriptor files once: `houserules --modifier FILE uci`, or
    /// `HOUSERULES_MODIFIERS_PATH`).
    pub fn pipeline(&mut self) -> Result<Pipeline, HostError> {
        let mut specs = self.choice.presets.clone();
        for entry in &self.choice.modifier_files {
            let id = if entry.is_file() {
                let ids = self
                    .registry
                    .modifier_ids(std::slice::from_ref(entry))
                    .map_err(|e| match e {
                        HostError::Modifier { file, message }
                            if message.contains("no loaded plugin reads") =>
                        {
                            HostError::Modifier {
                                message: format!(
                                    "{}: not read when the engine started (plugins read descriptor files once): start it as `houserules --modifier {} uci`, or list it in HOUSERULES_MODIFIERS_PATH",
                                    file.display(),
                                    file.display()
                                ),
                                file,
                            }
                        }
                        other => other,
                    })?;
                ids.into_iter().next().unwrap_or_default()
            } else {
                let id = entry.display().to_string();
                if !self
                    .registry
                    .presets()
                    .any(|(_, p)| p.is_custom_modifier() && p.id.as_str() == id)
                {
                    return Err(HostError::Modifier {
                        file: entry.clone(),
                        message: format!(
                            "`{id}`: neither a file nor the id of a loaded custom modifier"
                        ),
                    });
                }
                id
            };
            if !specs.iter().any(|s| s.id == id) {
                specs.push(PresetSpec {
                    id,
                    options: Vec::new(),
                });
            }
        }
        Pipeline::build(
            &self.registry,
            &self.choice.variant,
            self.choice.layout.as_deref(),
            &specs,
        )
    }
}

/// The environment variable the modifiers plugin reads descriptor files from (also set by
/// the CLI's `--modifier`).
const MODIFIERS_PATH_VAR: &str = "HOUSERULES_MODIFIERS_PATH";

fn set_modifier_path(files: &[PathBuf]) {
    if files.is_empty() {
        return;
    }
    let mut paths: Vec<PathBuf> = files.to_vec();
    if let Some(v) = std::env::var_os(MODIFIERS_PATH_VAR) {
        paths.extend(std::env::split_paths(&v));
    }
    if let Ok(joined) = std::env::join_paths(paths) {
        std::env::set_var(MODIFIERS_PATH_VAR, joined);
    }
}

/// The position a GUI set: a start position and the moves played from it.
#[derive(Clone)]
pub struct SetPosition {
    /// The start.
    pub start: Position,
    /// The moves, each legal where it was played.
    pub moves: Vec<Move>,
}

impl SetPosition {
    /// The game: the start and the moves replayed.
    pub fn game<'p>(&self, p: &'p Pipeline) -> Result<Game<'p>, HostError> {
        let mut g = Game::new(p, self.start.clone());
        for &m in &self.moves {
            g.play_recording(m, false)?;
        }
        Ok(g)
    }
}

/// Reads `startpos|fen FEN... [moves m1 m2 ...]` (the arguments of `position`).
pub fn parse_position(p: &Pipeline, args: &str) -> Result<SetPosition, String> {
    let mut words = args.split_whitespace().peekable();
    let start = match words.next() {
        Some("startpos") => p.start_position().map_err(|e| e.to_string())?,
        Some("fen") => {
            let mut fen: Vec<&str> = Vec::new();
            while let Some(w) = words.peek() {
                if *w == "moves" {
                    break;
                }
                fen.push(w);
                words.next();
            }
            if fen.is_empty() {
                return Err("position fen: the FEN is missing".into());
            }
            p.game_start(&fen.join(" ")).map_err(|e| e.to_string())?
        }
        Some(other) => {
            return Err(format!(
                "position: expected `startpos` or `fen`, found `{other}`"
            ))
        }
        None => return Err("position: expected `startpos` or `fen`".into()),
    };
    let mut game = Game::new(p, start.clone());
    let mut moves = Vec::new();
    match words.next() {
        None => {}
        Some("moves") => {
            for (i, text) in words.enumerate() {
                let m =
                    find_move(&game, text).map_err(|e| format!("position: move {}: {e}", i + 1))?;
                game.play_recording(m, false).map_err(|e| e.to_string())?;
                moves.push(m);
            }
        }
        Some(other) => return Err(format!("position: expected `moves`, found `{other}`")),
    }
    Ok(SetPosition { start, moves })
}

/// The legal move a protocol names (coordinate form first, SAN also understood).
pub fn find_move(game: &Game<'_>, text: &str) -> Result<Move, String> {
    let legal = game.legal_moves().map_err(|e| e.to_string())?;
    let p = game.pipeline();
    if game
        .status_with(!legal.is_empty())
        .ok()
        .and_then(|s| s.outcome)
        .is_some()
    {
        return Err(format!("`{text}`: the game is over"));
    }
    // The coordinate form first, with the forms other engines write (Fairy-Stockfish's `+`
    // promotions, king takes rook), then anything the host reads.
    match crate::arbiter::coordinate_move(p, &game.position, &legal, text) {
        Ok(Some(m)) => Ok(m),
        Ok(None) => parse_move(p, &game.position, text, &legal).map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// How castles are written in moves sent to the GUI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CastleForm {
    /// The king's origin and target (`e1g1`), as the coordinate form has them (king takes
    /// rook only where that form is another move's).
    #[default]
    KingTarget,
    /// King takes rook (`e1h1`): what GUIs expect once they set `UCI_Chess960`.
    KingTakesRook,
    /// `O-O` and `O-O-O`, by the side the rook stands on: CECP's form for Fischer random
    /// chess.
    Symbols,
}

/// One move as sent to the GUI: the coordinate form with Fairy-Stockfish's spellings where
/// they differ (a piece promoting into its own promoted form `e6e7+`, turning back `a1a2-`;
/// [`crate::arbiter::engine_text`]), a castle as `castles` says (a variant with its own
/// notation, `CUSTOM_SAN`, writes its castles itself).
pub fn move_text(
    p: &Pipeline,
    pos: &Position,
    m: Move,
    castles: CastleForm,
) -> Result<String, HostError> {
    let own_castles = p
        .info
        .flags
        .contains(houserules_plugin_api::VariantFlags::CUSTOM_SAN);
    if !m.is_castle() || own_castles {
        // Fairy-Stockfish's spellings where they differ (`e6e7+`, `a1a2-`): what GUIs that
        // know its variants read.
        return crate::arbiter::engine_text(p, pos, m);
    }
    match castles {
        CastleForm::KingTarget => coordinate(p, pos, m),
        CastleForm::KingTakesRook => Ok(crate::notation::king_takes_rook(&m)),
        CastleForm::Symbols => {
            let mut text = String::new();
            houserules_plugin_api::san::write_move_san(&mut text, pos, &m, &p.info.pieces, &[]);
            Ok(text)
        }
    }
}

/// A search's moves in coordinate form, from `pos` on (stops at a move it cannot write).
pub fn line_text(p: &Pipeline, pos: &Position, moves: &[Move], castles: CastleForm) -> Vec<String> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for &m in moves {
        let Ok(text) = move_text(p, &pos, m, castles) else {
            break;
        };
        let mut fx = houserules_plugin_api::MoveEffects::new(pos.side_to_move, false);
        if p.apply(&mut pos, m, &mut fx).is_err() {
            break;
        }
        out.push(text);
    }
    out
}

/// `cp N` / `mate N`.
pub fn score_text(s: Score) -> String {
    match s {
        Score::Cp(n) => format!("cp {n}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// One `info` line; with several lines (`MultiPV` above 1) it names its line's rank.
pub fn info_line(
    p: &Pipeline,
    pos: &Position,
    i: &SearchInfo,
    castles: CastleForm,
    several: bool,
) -> String {
    let multipv = if several {
        format!(" multipv {}", i.line)
    } else {
        String::new()
    };
    let mut s = format!(
        "info depth {} seldepth {}{multipv} score {} nodes {} nps {} time {}",
        i.depth,
        i.seldepth,
        score_text(i.score),
        i.nodes,
        i.nps,
        i.time.as_millis()
    );
    let pv = line_text(p, pos, &i.pv, castles);
    if !pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&pv.join(" "));
    }
    s
}

/// The arguments of `go`: search limits, or a perft depth.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GoCommand {
    /// `go perft N`.
    pub perft: Option<u32>,
    /// Fixed limits.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Time per move.
    pub movetime: Option<Duration>,
    /// Clocks: White's and Black's remaining time and increments.
    pub time: [Option<Duration>; 2],
    /// Increments.
    pub inc: [Option<Duration>; 2],
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// `go ponder`: think on the opponent's time, until `ponderhit` (then search with the
    /// limits given) or `stop`.
    pub ponder: bool,
    /// Stop at a mate in this many moves or fewer.
    pub mate: Option<u32>,
    /// The root moves to search, as written (`searchmoves`); empty: all.
    pub searchmoves: Vec<String>,
    /// Words not understood (reported, not fatal).
    pub ignored: Vec<String>,
    /// Words whose value was missing or unreadable, each with why (reported; the word is
    /// left out).
    pub unreadable: Vec<String>,
}

/// The words of `go` that take a value.
const GO_VALUE_WORDS: &[&str] = &[
    "perft",
    "depth",
    "nodes",
    "movetime",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "mate",
];

/// The words of `go` that take no value (`searchmoves` takes the moves up to the next word
/// of `go`).
const GO_FLAG_WORDS: &[&str] = &["infinite", "ponder", "searchmoves"];

/// Reads the arguments of `go`. Never fails: a GUI waits for the `bestmove` of every `go`,
/// so a word with a missing or unreadable value is left out and reported in
/// [`GoCommand::unreadable`], and the search runs on the rest (as Stockfish reads `go`). A
/// value is never taken from the next keyword: `go nodes infinite` is an infinite search.
pub fn parse_go(args: &str) -> GoCommand {
    let mut g = GoCommand::default();
    let mut w = args.split_whitespace().peekable();
    fn num<T: std::str::FromStr>(key: &str, v: Option<&str>) -> Result<T, String> {
        let v = v.ok_or_else(|| format!("go {key}: a number is missing"))?;
        v.parse()
            .map_err(|_| format!("go {key}: `{v}` is not a valid number"))
    }
    // Clocks may be negative when a GUI lets a clock run past zero: read as zero.
    fn ms(key: &str, v: Option<&str>) -> Result<Duration, String> {
        let n: i64 = num(key, v)?;
        Ok(Duration::from_millis(n.max(0) as u64))
    }
    let keyword = |v: &&str| GO_VALUE_WORDS.contains(v) || GO_FLAG_WORDS.contains(v);
    while let Some(k) = w.next() {
        if !GO_VALUE_WORDS.contains(&k) {
            match k {
                "infinite" => g.infinite = true,
                "ponder" => g.ponder = true,
                "searchmoves" => {
                    while let Some(m) = w.next_if(|v| !keyword(v)) {
                        g.searchmoves.push(m.to_string());
                    }
                }
                other => g.ignored.push(other.to_string()),
            }
            continue;
        }
        let v = w.next_if(|v| !keyword(v));
        let read = match k {
            "perft" => num(k, v).map(|n| g.perft = Some(n)),
            "depth" => num(k, v).map(|n| g.depth = Some(n)),
            "nodes" => num(k, v).map(|n| g.nodes = Some(n)),
            "movetime" => ms(k, v).map(|t| g.movetime = Some(t)),
            "wtime" => ms(k, v).map(|t| g.time[0] = Some(t)),
            "btime" => ms(k, v).map(|t| g.time[1] = Some(t)),
            "winc" => ms(k, v).map(|t| g.inc[0] = Some(t)),
            "binc" => ms(k, v).map(|t| g.inc[1] = Some(t)),
            "mate" => num(k, v).and_then(|n: u32| match n {
                0 => Err("go mate: 0 is not a number of moves".to_string()),
                n => {
                    g.mate = Some(n);
                    Ok(())
                }
            }),
            _ => num(k, v).map(|n| g.movestogo = Some(n)),
        };
        if let Err(e) = read {
            g.unreadable.push(e);
        }
    }
    g
}

impl GoCommand {
    /// The engine's limits for the side to move.
    pub fn limits(&self, side: Color) -> Limits {
        let i = side.index();
        let clock = self.time[i].map(|remaining| Clock {
            remaining,
            increment: self.inc[i].unwrap_or_default(),
            moves_to_go: self.movestogo,
        });
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime,
            clock,
            infinite: self.infinite,
            mate: self.mate,
        }
    }
}

/// Engine settings as options set them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads.
    pub threads: usize,
    /// Hash table size, MiB.
    pub hash_mb: usize,
    /// How castles are written (`UCI_Chess960`).
    pub castles: CastleForm,
    /// Playing strength, 0 to 20 (`Skill Level`; [`crate::engine::skill`]).
    pub level: u8,
    /// Best lines to find and report (`MultiPV`), at least 1.
    pub multipv: usize,
}

impl Default for EngineOptions {
    fn default() -> Self {
        let d = EngineConfig::default();
        EngineOptions {
            threads: d.threads.max(1),
            hash_mb: d.hash_mb.max(1),
            castles: CastleForm::KingTarget,
            level: crate::engine::skill::FULL,
            multipv: 1,
        }
    }
}

impl EngineOptions {
    /// The engine's configuration.
    pub fn config(&self) -> EngineConfig {
        EngineConfig {
            threads: self.threads,
            hash_mb: self.hash_mb,
        }
    }
}

/// Largest `Hash` value offered, MiB.
pub const MAX_HASH_MB: usize = 4096;
/// Largest `Threads` value offered.
pub const MAX_THREADS: usize = 256;
/// Largest `MultiPV` value offered (Stockfish's limit too).
pub const MAX_MULTIPV: usize = 500;

fn stops_uci(line: &str) -> bool {
    matches!(line, "stop" | "quit" | "ponderhit")
}

fn answer_uci(line: &str) -> Option<String> {
    (line == "isready").then(|| "readyok".to_string())
}

/// What a command asks of the rules loop.
enum Next {
    /// The rules changed: build the pipeline again.
    Rebuild,
    /// End the session.
    Quit,
}

/// Runs a UCI session on `input`/`output`; returns when `quit` arrives or the input ends.
pub fn run(
    search: PluginSearch,
    choice: RulesChoice,
    input: Box<dyn BufRead + Send>,
    output: Box<dyn Write + Send>,
) -> Result<(), HostError> {
    serve(Rules::new(search, choice)?, input, output);
    Ok(())
}

/// Runs a UCI session over loaded plugins; returns when `quit` arrives or the input ends.
/// Nothing a GUI sends ends it otherwise: errors are `info string` lines.
pub fn serve(mut rules: Rules, input: Box<dyn BufRead + Send>, output: Box<dyn Write + Send>) {
    let out = Output::new(output);
    let input = Input::spawn(input, out.clone(), stops_uci, answer_uci);
    let mut engine_options = EngineOptions::default();
    let mut session = UciSession {
        out: out.clone(),
        input,
        position_text: None,
        pondered: None,
        rng: crate::play::Rng::new(0x5EED),
    };
    loop {
        let pipeline = match rules.pipeline() {
            Ok(p) => Some(p),
            Err(e) => {
                out.line(&format!(
                    "info string rules not usable ({e}); set UCI_Variant, Layout, Presets or Modifiers again"
                ));
                None
            }
        };
        let next = session.serve(&mut rules, pipeline.as_ref(), &mut engine_options);
        match next {
            Next::Quit => return,
            Next::Rebuild => {}
        }
    }
}

struct UciSession {
    out: Output,
    input: Input,
    /// A `go ponder` whose thinking `ponderhit` ended: the search to run when that line is
    /// served, and the answer owed if the GUI moves on instead.
    pondered: Option<Pondered>,
    /// The last `position` arguments (replayed after the rules change only if still valid).
    position_text: Option<String>,
    /// The choices of a `Skill Level` below full (seeded: a session replays alike).
    rng: crate::play::Rng,
}

/// See [`UciSession::pondered`].
struct Pondered {
    /// The `go` to search with once `ponderhit` is served (its `ponder` cleared).
    go: GoCommand,
    /// The lines answering the `go ponder` (a `bestmove`) if the session moves on.
    answer: Vec<String>,
}

impl UciSession {
    /// Serves commands on one pipeline until the rules change or the session ends.
    fn serve(
        &mut self,
        rules: &mut Rules,
        pipeline: Option<&Pipeline>,
        engine_options: &mut EngineOptions,
    ) -> Next {
        let out = self.out.clone();
        let mut engine: Option<Engine<'_>> = None;
        let mut position: Option<SetPosition> = None;
        if let Some(p) = pipeline {
            position = match p.start_position() {
                Ok(s) => Some(SetPosition {
                    start: s,
                    moves: Vec::new(),
                }),
                Err(e) => {
                    out.line(&format!("info string start position: {e}"));
                    None
                }
            };
            if let Some(text) = self.position_text.clone() {
                if let Ok(pos) = parse_position(p, &text) {
                    position = Some(pos);
                }
            }
        }
        loop {
            let line = self.input.next();
            let text = line.text.as_str();
            // UCI allows any white space between tokens (a tab after `go`, say).
            let (cmd, args) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
            let args = args.trim();
            // A `go ponder` is answered once: by the search after its `ponderhit`, or, if
            // the GUI moves on without one, by what the pondering found.
            if matches!(
                cmd,
                "stop" | "quit" | "position" | "go" | "ucinewgame" | "setoption" | "uci"
            ) {
                if let Some(pd) = self.pondered.take() {
                    pd.answer.iter().for_each(|l| out.line(l));
                }
            }
            match cmd {
                "" => {}
                "quit" => return Next::Quit,
                "uci" => {
                    out.line(&format!("id name {ENGINE_NAME}"));
                    out.line("id author the houserules authors");
                    let ids = rules.variant_ids();
                    let vars: String = ids.iter().map(|v| format!(" var {v}")).collect();
                    out.line(&format!(
                        "option name UCI_Variant type combo default {}{vars}",
                        rules.choice.variant
                    ));
                    out.line("option name Layout type string default <empty>");
                    out.line("option name Presets type string default <empty>");
                    out.line("option name Modifiers type string default <empty>");
                    let d = EngineOptions::default();
                    out.line(&format!(
                        "option name Threads type spin default {} min 1 max {MAX_THREADS}",
                        d.threads
                    ));
                    out.line(&format!(
                        "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
                        d.hash_mb
                    ));
                    out.line("option name UCI_Chess960 type check default false");
                    out.line("option name Ponder type check default false");
                    out.line(&format!(
                        "option name Skill Level type spin default {0} min 0 max {0}",
                        crate::engine::skill::FULL
                    ));
                    out.line(&format!(
                        "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
                    ));
                    out.line("uciok");
                }
                "isready" => out.line("readyok"),
                "setoption" => match parse_setoption(args) {
                    Err(e) => out.line(&format!("info string {e}")),
                    Ok((name, value)) => {
                        match self.set_option(rules, engine_options, &name, &value) {
                            Err(e) => out.line(&format!("info string {e}")),
                            Ok(OptionEffect::Rules) => {
                                // A new rule set starts from its start position.
                                self.position_text = None;
                                return Next::Rebuild;
                            }
                            Ok(OptionEffect::Engine) => engine = None,
                            Ok(OptionEffect::None) => {}
                        }
                    }
                },
                "ucinewgame" => {
                    if let Some(e) = engine.as_mut() {
                        e.new_game();
                    }
                }
                "position" => match pipeline {
                    None => out.line("info string no rules in force: the position is not set"),
                    Some(p) => match parse_position(p, args) {
                        Ok(pos) => {
                            position = Some(pos);
                            self.position_text = Some(args.to_string());
                        }
                        Err(e) => out.line(&format!(
                            "info string {e} (the position is unchanged)"
                        )),
                    },
                },
                "go" => {
                    let go = parse_go(args);
                    let (Some(p), Some(pos)) = (pipeline, position.as_ref()) else {
                        out.line("info string no position: the rules are not usable");
                        // A search is answered (a GUI waits for it), a perft is not.
                        if go.perft.is_none() {
                            out.line("bestmove 0000");
                        }
                        continue;
                    };
                    if !go.ignored.is_empty() {
                        out.line(&format!(
                            "info string go: ignored `{}`",
                            go.ignored.join(" ")
                        ));
                    }
                    for e in &go.unreadable {
                        out.line(&format!("info string {e} (left out)"));
                    }
                    if let Some(depth) = go.perft {
                        self.perft(p, pos, depth, engine_options);
                    } else {
                        self.go(p, pos, &go, &line, &mut engine, engine_options);
                    }
                }
                "ponderhit" => {
                    if let (Some(pd), Some(p), Some(pos)) =
                        (self.pondered.take(), pipeline, position.as_ref())
                    {
                        self.go(p, pos, &pd.go, &line, &mut engine, engine_options);
                    }
                }
                "stop" => {}
                "d" => match (pipeline, position.as_ref()) {
                    (Some(p), Some(pos)) => match pos.game(p) {
                        Ok(g) => {
                            for l in crate::play::board_text(p, &g.position).lines() {
                                out.line(l);
                            }
                            match p.write_fen(&g.position) {
                                Ok(f) => out.line(&format!("Fen: {f}")),
                                Err(e) => out.line(&format!("info string {e}")),
                            }
                        }
                        Err(e) => out.line(&format!("info string {e}")),
                    },
                    _ => out.line("info string no position: the rules are not usable"),
                },
                other => out.line(&format!(
                    "info string unknown command `{other}` (commands: uci, isready, setoption, ucinewgame, position, go, stop, d, quit)"
                )),
            }
        }
    }

    fn set_option(
        &self,
        rules: &mut Rules,
        engine: &mut EngineOptions,
        name: &str,
        value: &str,
    ) -> Result<OptionEffect, String> {
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let v = empty_value(value);
                if !rules.variant_ids().iter().any(|id| id == v) {
                    let near =
                        crate::error::nearest(v, rules.variant_ids().iter().map(String::as_str));
                    return Err(format!(
                        "unknown variant `{v}`{}",
                        near.map(|n| format!(" (did you mean `{n}`?)"))
                            .unwrap_or_default()
                    ));
                }
                rules.choice.variant = v.to_string();
                Ok(OptionEffect::Rules)
            }
            "layout" => {
                let v = empty_value(value);
                rules.choice.layout = (!v.is_empty()).then(|| v.to_string());
                Ok(OptionEffect::Rules)
            }
            "presets" => {
                rules.choice.presets = parse_presets_option(value).map_err(|e| e.to_string())?;
                Ok(OptionEffect::Rules)
            }
            "modifiers" => {
                rules.choice.modifier_files = empty_value(value)
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(PathBuf::from)
                    .collect();
                Ok(OptionEffect::Rules)
            }
            "threads" => {
                engine.threads = spin(name, value, MAX_THREADS)?;
                Ok(OptionEffect::Engine)
            }
            "hash" => {
                engine.hash_mb = spin(name, value, MAX_HASH_MB)?;
                Ok(OptionEffect::Engine)
            }
            "skill level" => {
                let max = crate::engine::skill::FULL as usize;
                engine.level = spin_from(name, value, 0, max)? as u8;
                Ok(OptionEffect::None)
            }
            // Castles as king takes rook, the form of Chess960 GUIs (read in either form).
            "uci_chess960" => {
                engine.castles = match empty_value(value).to_ascii_lowercase().as_str() {
                    "true" => CastleForm::KingTakesRook,
                    "false" => CastleForm::KingTarget,
                    v => return Err(format!("UCI_Chess960: `{v}` is not true or false")),
                };
                Ok(OptionEffect::None)
            }
            "multipv" => {
                engine.multipv = spin_from(name, value, 1, MAX_MULTIPV)?;
                Ok(OptionEffect::None)
            }
            // Options GUIs send to every engine.
            "ponder" | "uci_analysemode" => Ok(OptionEffect::None),
            _ => Err(format!("unknown option `{name}`")),
        }
    }

    fn perft(&self, p: &Pipeline, pos: &SetPosition, depth: u32, options: &EngineOptions) {
        let out = &self.out;
        let result = pos.game(p).and_then(|g| {
            let r = crate::perft::perft(p, &g.position, depth.min(256), options.threads, true)?;
            // The root moves as every other move sent to the GUI (castles in the form it asked
            // for, Fairy-Stockfish's spellings), so that a GUI can compare them with its own.
            let mut lines = Vec::with_capacity(r.divide.len());
            for ((written, n), &m) in r.divide.iter().zip(&r.divide_moves) {
                let text = if m.is_castle() || m.is_promotion() {
                    move_text(p, &g.position, m, options.castles)?
                } else {
                    written.clone()
                };
                lines.push(format!("{text}: {n}"));
            }
            Ok((r, lines))
        });
        match result {
            Ok((r, lines)) => {
                for line in &lines {
                    out.line(line);
                }
                out.line("");
                out.line(&format!("Nodes searched: {}", r.nodes));
                out.line("");
            }
            Err(e) => out.line(&format!("info string perft: {e}")),
        }
    }

    fn go<'p>(
        &mut self,
        p: &'p Pipeline,
        pos: &SetPosition,
        go: &GoCommand,
        line: &InputLine,
        engine: &mut Option<Engine<'p>>,
        options: &EngineOptions,
    ) {
        let out = &self.out;
        let game = match pos.game(p) {
            Ok(g) => g,
            Err(e) => {
                out.line(&format!("info string {e}"));
                out.line("bestmove 0000");
                return;
            }
        };
        match game.status() {
            Ok(s) if s.outcome.is_some() => {
                out.line(&format!(
                    "info string the game is over ({})",
                    s.outcome.map(|o| o.reason.to_string()).unwrap_or_default()
                ));
                out.line("bestmove 0000");
                return;
            }
            Ok(_) => {}
            Err(e) => {
                out.line(&format!("info string {e}"));
                out.line("bestmove 0000");
                return;
            }
        }
        if engine.is_none() {
            match Engine::new(p, options.config()) {
                Ok(e) => *engine = Some(e),
                Err(e) => {
                    out.line(&format!("info string engine: {e}"));
                    out.line("bestmove 0000");
                    return;
                }
            }
        }
        let Some(eng) = engine.as_mut() else {
            return;
        };
        // Pondering thinks without limits: the limits count from `ponderhit`.
        let limits = if go.ponder {
            Limits {
                infinite: true,
                ..Limits::default()
            }
        } else {
            go.limits(game.position.side_to_move)
        };
        let root = game.position.clone();
        let mut focus = Focus {
            lines: options.multipv,
            moves: Vec::new(),
        };
        for text in &go.searchmoves {
            match find_move(&game, text) {
                Ok(m) => focus.moves.push(m),
                Err(e) => out.line(&format!("info string go searchmoves: {e}; left out")),
            }
        }
        if !go.searchmoves.is_empty() && focus.moves.is_empty() {
            out.line("info string go searchmoves: no legal move named; every move is searched");
        }
        self.input.arm(line);
        let result = if options.level < crate::engine::skill::FULL && !go.infinite && !go.ponder {
            // Below full strength: the move the level chooses, with its score (one line).
            let r = eng.choose_at_level(
                &game,
                &limits,
                options.level,
                &mut self.rng,
                &self.input.stop,
            );
            if let Ok(r) = &r {
                out.line(&format!(
                    "info depth {} score {} nodes {} pv {}",
                    r.depth,
                    score_text(r.score),
                    r.nodes,
                    line_text(p, &root, &r.pv, options.castles).join(" ")
                ));
            }
            r
        } else {
            let several = options.multipv > 1;
            eng.analyse(&game, &limits, &focus, &self.input.stop, &mut |i| {
                out.line(&info_line(p, &root, i, options.castles, several));
            })
        };
        // Under `go infinite` and `go ponder` the answer waits for `stop` (or `ponderhit`),
        // even when the search ended (UCI: not even at a mate).
        if go.infinite || go.ponder {
            while !self.input.stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        self.input.disarm();
        let answer = match result {
            Ok(r) => vec![bestmove_line(p, &root, &r, options.castles)],
            Err(e) => vec![
                format!("info string search: {e}"),
                "bestmove 0000".to_string(),
            ],
        };
        if go.ponder && self.input.stopped_by().as_deref() == Some("ponderhit") {
            // The real search runs when the `ponderhit` line is served (a stop after it
            // then counts).
            self.pondered = Some(Pondered {
                go: GoCommand {
                    ponder: false,
                    ..go.clone()
                },
                answer,
            });
            return;
        }
        answer.iter().for_each(|l| out.line(l));
    }
}

/// `bestmove M [ponder N]`, `bestmove 0000` without a move.
pub fn bestmove_line(
    p: &Pipeline,
    root: &Position,
    r: &SearchResult,
    castles: CastleForm,
) -> String {
    let Some(best) = r.best else {
        return "bestmove 0000".into();
    };
    let moves: Vec<Move> = std::iter::once(best).chain(r.ponder).collect();
    let text = line_text(p, root, &moves, castles);
    match text.as_slice() {
        [] => "bestmove 0000".into(),
        [b] => format!("bestmove {b}"),
        [b, q, ..] => format!("bestmove {b} ponder {q}"),
    }
}

enum OptionEffect {
    Rules,
    Engine,
    None,
}

fn spin(name: &str, value: &str, max: usize) -> Result<usize, String> {
    spin_from(name, value, 1, max)
}

pub(crate) fn spin_from(name: &str, value: &str, min: usize, max: usize) -> Result<usize, String> {
    let n: usize = value
        .trim()
        .parse()
        .map_err(|_| format!("option {name}: `{value}` is not a number"))?;
    if n < min || n > max {
        return Err(format!("option {name}: {n} is out of range {min}..{max}"));
    }
    Ok(n)
}

/// Reads `name NAME [value VALUE]` (names and values may contain spaces).
pub fn parse_setoption(args: &str) -> Result<(String, String), String> {
    let usage = || "setoption: expected `setoption name NAME [value VALUE]`".to_string();
    // Tokens with their offsets: any white space may separate them, and the value is the
    // rest of the line as written (a file name may hold spaces).
    let mut tokens = args
        .split_whitespace()
        .map(|w| (w.as_ptr() as usize - args.as_ptr() as usize, w));
    if tokens.next().map(|(_, w)| w) != Some("name") {
        return Err(usage());
    }
    let mut name: Vec<&str> = Vec::new();
    let mut value = "";
    for (at, w) in tokens {
        if w == "value" {
            value = args[at + w.len()..].trim();
            break;
        }
        name.push(w);
    }
    if name.is_empty() {
        return Err("setoption: the option name is missing".into());
    }
    Ok((name.join(" "), value.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_arguments() {
        let g = parse_go("wtime 1000 btime -5 winc 10 movestogo 20 depth 3");
        assert_eq!(
            g.time,
            [Some(Duration::from_millis(1000)), Some(Duration::ZERO)]
        );
        assert_eq!(g.inc[0], Some(Duration::from_millis(10)));
        assert_eq!(g.movestogo, Some(20));
        assert_eq!(g.depth, Some(3));
        let l = g.limits(Color::White);
        assert_eq!(
            l.clock.map(|c| c.remaining),
            Some(Duration::from_millis(1000))
        );
        // A bad value is left out, the rest kept: every `go` gets its `bestmove`.
        let g = parse_go("depth x movetime 50");
        assert_eq!(
            (g.depth, g.movetime),
            (None, Some(Duration::from_millis(50)))
        );
        assert!(g.unreadable[0].contains("`x`"), "{:?}", g.unreadable);
        assert!(parse_go("nodes").unreadable[0].contains("missing"));
        // A keyword is never taken as a value.
        let g = parse_go("nodes infinite");
        assert!(g.infinite && g.nodes.is_none() && g.unreadable[0].contains("missing"));
        assert_eq!(parse_go("depth 99999999999").depth, None);
        assert_eq!(parse_go("perft 3").perft, Some(3));
        let g = parse_go("ponder wtime 100 btime 100");
        assert!(g.ponder && g.ignored.is_empty() && g.time[1].is_some());
        assert_eq!(parse_go("sideways depth 2").ignored, ["sideways"]);
        // `searchmoves` takes the moves up to the next word of `go`, wherever it stands.
        let g = parse_go("searchmoves e2e4 P@d5 g1f3 depth 4 mate 3");
        assert_eq!(g.searchmoves, ["e2e4", "P@d5", "g1f3"]);
        assert_eq!((g.depth, g.mate), (Some(4), Some(3)));
        assert_eq!(g.limits(Color::Black).mate, Some(3));
        let g = parse_go("infinite searchmoves a2a3");
        assert!(g.infinite && g.searchmoves == ["a2a3"]);
        assert!(parse_go("searchmoves").searchmoves.is_empty());
        let g = parse_go("mate 0 depth 2");
        assert_eq!((g.mate, g.depth), (None, Some(2)));
        assert!(g.unreadable[0].contains("mate"), "{:?}", g.unreadable);
    }

    #[test]
    fn setoption_names_and_values() {
        assert_eq!(
            parse_setoption("name UCI_Variant value mixedchess_v5").unwrap(),
            ("UCI_Variant".into(), "mixedchess_v5".into())
        );
        assert_eq!(
            parse_setoption("name Clear Hash").unwrap(),
            ("Clear Hash".into(), String::new())
        );
        assert!(parse_setoption("Hash value 3").is_err());
        // Any white space between tokens; the value as written.
        assert_eq!(
            parse_setoption("name\tModifiers  value  /tmp/my rules.json ").unwrap(),
            ("Modifiers".into(), "/tmp/my rules.json".into())
        );
        assert_eq!(
            parse_setoption("name Move  Overhead value 10").unwrap(),
            ("Move Overhead".into(), "10".into())
        );
        assert!(parse_setoption("name value 3").is_err());
    }

    #[test]
    fn presets_option_forms() {
        let a = parse_presets_option("piece-hp:hp=3,king-hp=5 double-move").unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a[0].options.len(), 2);
        let b = parse_presets_option("piece-hp, king-heals").unwrap();
        assert_eq!(b.len(), 2);
        assert!(parse_presets_option("<empty>").unwrap().is_empty());
        assert!(parse_presets_option(":x").is_err());
    }
}
