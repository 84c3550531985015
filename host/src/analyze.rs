//! Replay and analysis of game records: each record is built from its tags (or rules given
//! on the command line), every move is resolved against the legal moves of the pipeline,
//! variations are replayed from their branch point, and the declared result is compared with
//! the computed one.
//!
//! Agreement rules: the declared result (the result token, or the `Result` tag when the token
//! is missing) *disagrees* when it contradicts the final position — a game the rules have
//! ended (checkmate, stalemate, an automatic n-move or n-fold draw, a rule of the variant or
//! of a preset) declared with another result or with `*`. On an unfinished game any declared
//! result agrees: a decisive result is a resignation, time forfeit or adjudication, a draw is
//! agreed or claimed (a claimable draw is reported as such), and `*` is a game in progress.
//!
//! [`run`] (in [`crate::batch`]) analyzes a stream of records on one or more threads and hands
//! the reports back in input order, in bounded memory; [`crate::isolated`] does the same in
//! supervised worker processes.

use crate::error::HostError;
use crate::fault::{self, Fault};
use crate::game::Game;
use crate::loader::Registry;
use crate::notation::{check_mark, coordinate, parse_move, san_core};
use crate::pgn::{write_record, MoveToken, Pos, Record, WrittenMove};
use crate::pipeline::{parse_preset_list, Pipeline, PresetSpec};
use abi_stable::std_types::RVec;
use houserules_plugin_api::{
    Cell, Color, CoordinateMove, DescribedLine, Event, Move, Position, SanReader, Square,
    VariantFlags, Winner,
};
use serde::Serialize;
use std::collections::HashMap;

/// Rules given outside the records (command-line flags); each one, when set, overrides the
/// record's tag.
#[derive(Debug, Clone, Default)]
pub struct RulesOverride {
    /// Variant id.
    pub variant: Option<String>,
    /// Layout id.
    pub layout: Option<String>,
    /// Presets (replace the `Presets` tag when set).
    pub presets: Option<Vec<PresetSpec>>,
    /// Custom modifier ids used on top of the record's `Modifiers` tag (`--modifier`).
    pub modifiers: Vec<String>,
}

/// What to compute per game.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Rules that override the tags.
    pub rules: RulesOverride,
    /// Per-ply output (SAN, coordinate move, FEN, check, events).
    pub plies: bool,
    /// Produce the normalized record ([`GameReport::normalized`]).
    pub normalized: bool,
    /// Search every position with these engine limits (`movetime=200`, `depth=8`) and
    /// annotate the plies ([`crate::annotate`]).
    pub engine: Option<String>,
    /// Replay every move through the pipeline one by one, even where the variant replays
    /// whole lines itself ([`Pipeline::replay_line`]): the reference path, which the other
    /// must match report for report (tests, comparisons).
    pub move_by_move: bool,
}

/// A problem with a record: where, at which ply, what, and some legal moves there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecordError {
    /// Line (1-based).
    pub line: u32,
    /// Column (1-based, characters).
    pub column: u32,
    /// Ply the error concerns (1 = the first move), if any.
    pub ply: Option<u32>,
    /// What is wrong.
    pub message: String,
    /// Some legal moves at that point (SAN), for move errors.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub legal: Vec<String>,
}

/// One event of a move (as [`crate::Game::play`] reports them). Squares and the piece are
/// kept as what they are and named when written: a batch reports millions of events, and
/// names kept as strings cost an allocation each.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EventReport {
    /// Kind name (`capture`, `promotion`, `damage` ...).
    pub kind: &'static str,
    /// Main square (written by its name, `e4`).
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "square_name"
    )]
    pub square: Option<Square>,
    /// Second square.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "square_name"
    )]
    pub to: Option<Square>,
    /// The piece (letter, upper case for White; written as a string).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<char>,
    /// A number (damage, hit points ...).
    pub value: i32,
    /// A label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A square by its algebraic name (`square` and `to` of [`EventReport`]).
fn square_name<S: serde::Serializer>(sq: &Option<Square>, s: S) -> Result<S::Ok, S::Error> {
    match sq {
        Some(sq) => s.serialize_str(&sq.name()),
        None => s.serialize_none(),
    }
}

/// One ply of the main line; its texts are kept by the [`Plies`] it is in.
#[derive(Clone, Debug)]
pub struct PlyReport {
    /// Ply number, from 1.
    pub ply: u32,
    /// Where its canonical SAN, coordinate form and the FEN after it are in the texts of
    /// its [`Plies`].
    texts: PlyTexts,
    /// Whether the move gives check.
    pub check: bool,
    /// What happened.
    pub events: Vec<EventReport>,
    /// The engine's evaluation, best move and judgement (`analyze --engine`; boxed: most
    /// batches have none, and every ply report is smaller for it).
    pub engine: Option<Box<crate::annotate::PlyEval>>,
}

/// Where a ply's SAN, coordinate form and FEN are, one after the other, in the texts of its
/// [`Plies`]: `start <= san_end <= coordinate_end <= end`, all on character boundaries.
#[derive(Clone, Copy, Debug)]
struct PlyTexts {
    start: u32,
    san_end: u32,
    coordinate_end: u32,
    end: u32,
    /// Whether the texts hold nothing JSON escapes (checked once for a described line).
    escape_free: bool,
}

/// The plies of a main line: their reports, and all their texts in one string for the game
/// (batches write millions of plies: no allocation and no shared count per ply; a variant's
/// described line is copied in once, whole).
#[derive(Clone, Default)]
pub struct Plies {
    reports: Vec<PlyReport>,
    texts: String,
}

/// A ply of [`Plies`]: its report (the fields) and its texts.
#[derive(Clone, Copy)]
pub struct Ply<'a> {
    report: &'a PlyReport,
    texts: &'a str,
}

impl std::ops::Deref for Ply<'_> {
    type Target = PlyReport;
    fn deref(&self) -> &PlyReport {
        self.report
    }
}

impl PlyReport {
    /// The report of ply `ply` whose texts `run` (its SAN with the check mark, which also
    /// says whether it gives check, then its coordinate form and FEN; `ends`: where the first
    /// two end in `run`) are kept from offset `start` of its [`Plies`]' texts; `None` for
    /// offsets past 4 GiB or ends not within `run`.
    // Always inlined: a call per ply, left out of line, cost 0.6% of per-ply output
    // (callgrind), the escape scan of `push` with it.
    #[inline(always)]
    fn kept_at(
        ply: u32,
        start: usize,
        run: &str,
        (san_end, coordinate_end): (usize, usize),
        escape_free: bool,
        events: Vec<EventReport>,
    ) -> Option<PlyReport> {
        let at = |n: usize| u32::try_from(start + n).ok();
        Some(PlyReport {
            ply,
            texts: PlyTexts {
                start: at(0)?,
                san_end: at(san_end)?,
                coordinate_end: at(coordinate_end)?,
                end: at(run.len())?,
                escape_free,
            },
            check: run.get(..san_end)?.ends_with(['+', '#']),
            events,
            engine: None,
        })
    }
}

impl<'a> Ply<'a> {
    fn part(&self, from: u32, to: u32) -> &'a str {
        self.texts
            .get(from as usize..to as usize)
            .unwrap_or_default()
    }

    /// The SAN, coordinate form and FEN, one after the other (for writers that check them
    /// in one pass), and whether they hold nothing JSON escapes.
    pub(crate) fn texts(&self) -> (&'a str, bool) {
        let t = &self.report.texts;
        (self.part(t.start, t.end), t.escape_free)
    }

    /// The SAN, coordinate form and FEN, one after the other, with the lengths of the first
    /// two.
    pub(crate) fn text_parts(&self) -> (&'a str, usize, usize) {
        let t = &self.report.texts;
        (
            self.texts().0,
            (t.san_end - t.start) as usize,
            (t.coordinate_end - t.san_end) as usize,
        )
    }

    /// Canonical SAN.
    pub fn san(&self) -> &'a str {
        let t = &self.report.texts;
        self.part(t.start, t.san_end)
    }

    /// Coordinate form.
    pub fn coordinate(&self) -> &'a str {
        let t = &self.report.texts;
        self.part(t.san_end, t.coordinate_end)
    }

    /// FEN after the move.
    pub fn fen(&self) -> &'a str {
        let t = &self.report.texts;
        self.part(t.coordinate_end, t.end)
    }
}

impl Plies {
    /// How many plies.
    pub fn len(&self) -> usize {
        self.reports.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.reports.is_empty()
    }

    /// The plies in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Ply<'_>> + '_ {
        self.reports.iter().map(|report| Ply {
            report,
            texts: &self.texts,
        })
    }

    /// The reports, to fill in what comes later (the engine's view); their texts stay.
    pub fn reports_mut(&mut self) -> &mut [PlyReport] {
        &mut self.reports
    }

    /// Adds ply `ply` (from 1): its SAN with the check mark, which also says whether it gives
    /// check, its coordinate form, the FEN after it and its events. (A game's texts past
    /// 4 GiB, beyond what the reader's limits let a record hold, would leave it out.)
    pub fn push(
        &mut self,
        ply: u32,
        san: &str,
        coordinate: &str,
        fen: &str,
        events: Vec<EventReport>,
    ) {
        let start = self.texts.len();
        self.texts.push_str(san);
        self.texts.push_str(coordinate);
        self.texts.push_str(fen);
        let run = self.texts.get(start..).unwrap_or_default();
        let escape_free = crate::report_json::escape_free(run.as_bytes());
        let ends = (san.len(), san.len() + coordinate.len());
        match PlyReport::kept_at(ply, start, run, ends, escape_free, events) {
            Some(report) => self.reports.push(report),
            None => self.texts.truncate(start),
        }
    }

    /// Where the plies and texts end now, for [`Plies::truncate`].
    fn mark(&self) -> (usize, usize) {
        (self.reports.len(), self.texts.len())
    }

    /// Back to a [`Plies::mark`].
    fn truncate(&mut self, (reports, texts): (usize, usize)) {
        self.reports.truncate(reports);
        self.texts.truncate(texts);
    }

    /// The reports of a variant's described line, plies `first` (from 1) on, all or none
    /// (`false`: a ply's texts past 4 GiB or not within the line's text, nothing added).
    fn push_line(&mut self, p: &Pipeline, first: u32, line: &DescribedLine) -> bool {
        let mark = self.mark();
        let text = line.text.as_str();
        let base = self.texts.len();
        self.texts.push_str(text);
        let escape_free = crate::report_json::escape_free(text.as_bytes());
        let origin = text.as_ptr() as usize;
        self.reports.reserve(line.line.plies.len());
        for i in 0..line.line.plies.len() {
            let report = line.ply_run(i).and_then(|t| {
                // Where the ply's run starts in the line's text (`ply_run` gives a part of it).
                let start = base + (t.text.as_ptr() as usize).wrapping_sub(origin);
                let ends = (t.san_end, t.coordinate_end);
                let events = event_reports(p, t.events);
                PlyReport::kept_at(first + i as u32, start, t.text, ends, escape_free, events)
            });
            let Some(report) = report else {
                self.truncate(mark);
                return false;
            };
            self.reports.push(report);
        }
        true
    }
}

impl std::fmt::Debug for Plies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.iter().map(PlyReportFields::of))
            .finish()
    }
}

/// The JSON form of a ply (its texts as fields).
#[derive(Serialize, Debug)]
struct PlyReportFields<'a> {
    ply: u32,
    san: &'a str,
    #[serde(rename = "move")]
    coordinate: &'a str,
    fen: &'a str,
    check: bool,
    events: &'a [EventReport],
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    engine: &'a Option<Box<crate::annotate::PlyEval>>,
}

impl<'a> PlyReportFields<'a> {
    fn of(p: Ply<'a>) -> PlyReportFields<'a> {
        PlyReportFields {
            ply: p.report.ply,
            san: p.san(),
            coordinate: p.coordinate(),
            fen: p.fen(),
            check: p.report.check,
            events: &p.report.events,
            engine: &p.report.engine,
        }
    }
}

impl Serialize for Plies {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter().map(PlyReportFields::of))
    }
}

/// Declared and computed result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResultReport {
    /// The result token (or the `Result` tag when the token is missing).
    pub declared: Option<String>,
    /// The result by the rules (`*` when the game is not over).
    pub computed: String,
    /// Why the game ended (`checkmate`, `stalemate`, `n-move-rule`, a variant's or preset's
    /// reason) or `unfinished`.
    pub termination: String,
    /// A draw that could be claimed in the final position (`n-fold-repetition` ...).
    pub claimable: Option<String>,
    /// Whether the declared result agrees with the final position (`null` when the moves
    /// could not all be replayed).
    pub agrees: Option<bool>,
}

/// Tags in input order, written as a JSON object.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tags(pub Vec<(String, String)>);

impl Serialize for Tags {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

/// The analysis of one record.
#[derive(Debug, Clone, Serialize)]
pub struct GameReport {
    /// Position in the input, from 1 (across all files).
    pub index: u64,
    /// The file (`-` for standard input).
    pub file: String,
    /// Line where the record starts.
    pub line: u32,
    /// Tags as written.
    pub tags: Tags,
    /// The variant replayed (`null` when the rules could not be built).
    pub variant: Option<String>,
    /// The layout.
    pub layout: Option<String>,
    /// Active presets, `id[:key=value,...]`.
    pub presets: Vec<String>,
    /// Main-line plies replayed.
    pub ply_count: u32,
    /// Per ply, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plies: Option<Plies>,
    /// FEN of the last position reached.
    pub final_fen: Option<String>,
    /// Declared against computed result.
    pub result: ResultReport,
    /// Everything wrong with the record; empty when it is valid.
    pub errors: Vec<RecordError>,
    /// What is doubtful but does not make the record invalid: a check (`+`) or mate (`#`)
    /// mark the move does not earn.
    pub warnings: Vec<RecordError>,
    /// The record in normal form (when asked for and the main line replayed in full).
    #[serde(skip)]
    pub normalized: Option<String>,
    /// Why the record could not be analyzed to its end, when plugin code failed: a panic
    /// caught at the boundary, or (under the supervisor) a crash, an abort or a timeout.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fault: Option<Fault>,
}

impl GameReport {
    /// Whether the record is valid (no errors, result agrees).
    pub fn valid(&self) -> bool {
        self.errors.is_empty()
    }

    /// The report of a record that could not be analyzed (its worker crashed, hung or
    /// panicked): what the record says of itself, and the fault as its error.
    pub fn failed(rec: &Record, index: u64, file: &str, fault: Fault) -> GameReport {
        let mut report = GameReport::empty(rec, index, file);
        report.errors.push(RecordError {
            line: rec.line,
            column: 1,
            ply: None,
            message: fault.to_string(),
            legal: Vec::new(),
        });
        report.fault = Some(fault);
        report
    }

    fn empty(rec: &Record, index: u64, file: &str) -> GameReport {
        GameReport {
            index,
            file: file.to_string(),
            line: rec.line,
            tags: Tags(
                rec.tags
                    .iter()
                    .map(|t| (t.name.clone(), t.value.clone()))
                    .collect(),
            ),
            variant: None,
            layout: None,
            presets: Vec::new(),
            ply_count: 0,
            plies: None,
            final_fen: None,
            result: ResultReport {
                declared: None,
                computed: "*".to_string(),
                termination: "unfinished".to_string(),
                claimable: None,
                agrees: None,
            },
            errors: Vec::new(),
            warnings: Vec::new(),
            normalized: None,
            fault: None,
        }
    }

    /// Keeps at most [`MAX_REPORT_ERRORS`] errors and says how many more there were.
    fn cap_errors(&mut self, more: usize) {
        let over = self.errors.len().saturating_sub(MAX_REPORT_ERRORS) + more;
        if over > 0 {
            self.errors.truncate(MAX_REPORT_ERRORS);
            let (line, column) = self
                .errors
                .last()
                .map_or((self.line, 1), |e| (e.line, e.column));
            self.errors.push(RecordError {
                line,
                column,
                ply: None,
                message: format!("{over} more errors in this record are not listed"),
                legal: Vec::new(),
            });
        }
    }

    /// Notes a fault (the first one counts) from an error of plugin code.
    fn note_fault(&mut self, e: &HostError) {
        if self.fault.is_none() {
            self.fault = fault::of_error(e);
        }
    }
}

/// Errors listed per record (the rest are counted in one last error): a record of a million
/// bad moves is one bounded report, not a line of many megabytes.
pub const MAX_REPORT_ERRORS: usize = 100;

/// Rule sets kept built per analyzer; past this many distinct ones the cache starts over (a
/// corpus where every record names other presets stays bounded in memory).
pub const MAX_CACHED_RULES: usize = 64;

/// Variant names other programs write for FIDE chess (lichess, cutechess, ChessBase).
const CHESS_ALIASES: [&str; 9] = [
    "standard",
    "chess",
    "from position",
    "normal",
    "chess960",
    "chess 960",
    "fischerandom",
    "fischerrandom",
    "960",
];

/// Variant names other programs write whose letters alone (see [`name_letters`]) are not
/// the id of the Fairy-Stockfish variant: lichess and python-chess write `Three-check`.
const NAME_ALIASES: [(&str, &str); 2] = [("threecheck", "3check"), ("fivecheck", "5check")];

/// A variant name as compared with the loaded ids: lower case, letters and digits only, so
/// that lichess's `King of the Hill` and `Racing Kings` name `kingofthehill` and
/// `racingkings`.
fn name_letters(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

struct Rules {
    pipeline: Pipeline,
    /// Plain SAN over the piece table.
    san: SanReader,
    fast: bool,
    /// The start position of every game without a FEN tag, when it is always the same.
    start: Option<Position>,
    specs: Vec<PresetSpec>,
    layout_given: bool,
}

/// Analyzes records one by one; holds one pipeline per distinct rule set (build once, use for
/// every game with those rules).
pub struct Analyzer<'r> {
    registry: &'r Registry,
    options: Options,
    cache: HashMap<String, Result<Rules, RulesError>>,
    variant_ids: Vec<String>,
    buf: RVec<Move>,
    /// The engine analysis's search tables, from one record to the next.
    search_tables: Option<houserules_search::Searcher>,
}

/// Why a rule set could not be built: the message, the tag to blame, and the fault if plugin
/// code failed.
type RulesError = (String, &'static str, Option<Fault>);

fn pos_err(pos: Pos, ply: Option<u32>, message: String) -> RecordError {
    RecordError {
        line: pos.line,
        column: pos.column,
        ply,
        message,
        legal: Vec::new(),
    }
}

impl<'r> Analyzer<'r> {
    /// An analyzer over the plugins of `registry`.
    pub fn new(registry: &'r Registry, options: Options) -> Analyzer<'r> {
        let variant_ids = registry.variants().map(|(_, v)| v.id.to_string()).collect();
        Analyzer {
            registry,
            options,
            cache: HashMap::new(),
            variant_ids,
            buf: RVec::with_capacity(256),
            search_tables: None,
        }
    }

    /// How many rule sets are built and kept (at most [`MAX_CACHED_RULES`]).
    pub fn cached_rules(&self) -> usize {
        self.cache.len()
    }

    /// The variant id a `Variant` tag names: an id of a loaded plugin, or a common name of
    /// FIDE chess (`Standard`, `Chess960` ... with a `FEN` tag for the start).
    fn variant_id(&self, tag: &str) -> String {
        let t = tag.trim();
        if self.variant_ids.iter().any(|v| v == t) {
            return t.to_string();
        }
        let lower = t.to_ascii_lowercase();
        if self.variant_ids.contains(&lower) {
            return lower;
        }
        if CHESS_ALIASES.contains(&lower.as_str()) && self.variant_ids.iter().any(|v| v == "chess")
        {
            return "chess".to_string();
        }
        // Names other programs write: the same letters as one loaded id (and only one).
        let letters = name_letters(t);
        let letters = match NAME_ALIASES.iter().find(|(name, _)| *name == letters) {
            Some((_, id)) => id.to_string(),
            None => letters,
        };
        let mut same = self
            .variant_ids
            .iter()
            .filter(|v| name_letters(v) == letters);
        match (same.next(), same.next()) {
            (Some(id), None) if !letters.is_empty() => id.clone(),
            _ => t.to_string(),
        }
    }

    /// Analyzes one record.
    pub fn analyze(&mut self, rec: &Record, index: u64, file: &str) -> GameReport {
        let mut report = GameReport::empty(rec, index, file);
        report.errors = rec
            .errors
            .iter()
            .map(|e| pos_err(e.pos, None, e.message.clone()))
            .collect();
        self.replay(rec, &mut report);
        report.cap_errors(0);
        report
    }

    /// Builds the rules of `rec` and replays it into `report`.
    fn replay(&mut self, rec: &Record, report: &mut GameReport) {
        let tag_result = rec.tag("Result");
        report.result.declared = rec
            .result
            .as_ref()
            .map(|(r, _)| r.clone())
            .or_else(|| tag_result.map(|t| t.value.trim().to_string()));
        if let (Some(tag), Some((tok, tpos))) = (tag_result, rec.result.as_ref()) {
            if tag.value.trim() != tok {
                report.errors.push(pos_err(
                    *tpos,
                    None,
                    format!(
                        "the result token `{tok}` contradicts the Result tag `{}` (line {})",
                        tag.value, tag.pos.line
                    ),
                ));
            }
        }

        // The rules.
        let o = &self.options.rules;
        let variant = match (&o.variant, rec.tag("Variant")) {
            (Some(v), _) => v.clone(),
            (None, Some(t)) if !t.value.trim().is_empty() => self.variant_id(&t.value),
            _ => "chess".to_string(),
        };
        let layout = o.layout.clone().or_else(|| {
            rec.tag_value("Layout")
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty())
        });
        let specs = match &o.presets {
            Some(p) => p.clone(),
            None => match rec.tag("Presets") {
                Some(t) => match parse_preset_list(&t.value) {
                    Ok(s) => s,
                    Err(e) => {
                        report
                            .errors
                            .push(pos_err(t.pos, None, format!("Presets tag: {e}")));
                        return;
                    }
                },
                None => Vec::new(),
            },
        };
        // Custom modifiers (descriptor ids) come after the presets: the record's, then the
        // command line's.
        let mut specs = specs;
        let mut modifier_ids: Vec<String> = Vec::new();
        if let Some(t) = rec.tag("Modifiers") {
            modifier_ids.extend(
                t.value
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string),
            );
        }
        modifier_ids.extend(o.modifiers.iter().cloned());
        for id in modifier_ids {
            if !specs.iter().any(|s| s.id == id) {
                specs.push(PresetSpec {
                    id,
                    options: Vec::new(),
                });
            }
        }
        let key = format!(
            "{variant}\u{1f}{}\u{1f}{}",
            layout.as_deref().unwrap_or(""),
            specs
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join("\u{1f}")
        );
        if !self.cache.contains_key(&key) {
            let built = Pipeline::build(self.registry, &variant, layout.as_deref(), &specs)
                .map(|pipeline| {
                    // A letter beyond ASCII is never read structurally (0 matches no
                    // token): such moves go through `parse_move`.
                    let san = SanReader::new(&pipeline.info.pieces);
                    let fast = !pipeline.info.flags.contains(VariantFlags::CUSTOM_SAN);
                    // Without presets (whose setup hooks may place pieces anew each game)
                    // the start position is the same for every game: read it once.
                    let start = pipeline
                        .presets
                        .is_empty()
                        .then(|| pipeline.start_position().ok())
                        .flatten();
                    Rules {
                        start,
                        pipeline,
                        san,
                        fast,
                        specs: specs.clone(),
                        layout_given: layout.is_some(),
                    }
                })
                .map_err(|e| {
                    let tag = match &e {
                        HostError::Unknown {
                            what: "variant", ..
                        } => "Variant",
                        HostError::Unknown { what: "layout", .. } => "Layout",
                        HostError::Unknown { id, .. }
                            if rec.tag("Modifiers").is_some_and(|t| {
                                t.value.split(',').any(|m| m.trim() == id.as_str())
                            }) =>
                        {
                            "Modifiers"
                        }
                        _ => "Presets",
                    };
                    let message = match &e {
                        HostError::Unknown { id, .. } if tag == "Modifiers" => format!(
                            "custom modifier `{id}` of the Modifiers tag is not loaded: give its \
                             descriptor file with --modifier FILE.json"
                        ),
                        _ => e.to_string(),
                    };
                    (message, tag, fault::of_error(&e))
                });
            if self.cache.len() >= MAX_CACHED_RULES {
                self.cache.clear();
            }
            self.cache.insert(key.clone(), built);
        }
        let Analyzer {
            cache,
            buf,
            options,
            ..
        } = self;
        let rules = match cache.get(&key) {
            Some(Ok(r)) => r,
            Some(Err((msg, tag, fault))) => {
                report.fault = report.fault.take().or_else(|| fault.clone());
                let pos = rec.tag(tag).map(|t| t.pos).unwrap_or(Pos {
                    line: rec.line,
                    column: 1,
                });
                report.errors.push(pos_err(pos, None, msg.clone()));
                return;
            }
            None => return,
        };
        let p = &rules.pipeline;
        report.variant = Some(p.variant_id().to_string());
        report.layout = Some(p.layout.id.to_string());
        report.presets = rules.specs.iter().map(|s| s.to_string()).collect();

        let fen_tag = rec.tag("FEN").filter(|t| !t.value.trim().is_empty());
        let start = match fen_tag {
            Some(t) => match p.game_start(t.value.trim()) {
                Ok(pos) => pos,
                Err(e) => {
                    report.note_fault(&e);
                    report
                        .errors
                        .push(pos_err(t.pos, None, format!("FEN tag: {e}")));
                    return;
                }
            },
            None => match rules.start.clone().map_or_else(|| p.start_position(), Ok) {
                Ok(pos) => pos,
                Err(e) => {
                    report.note_fault(&e);
                    report.errors.push(pos_err(
                        Pos {
                            line: rec.line,
                            column: 1,
                        },
                        None,
                        e.to_string(),
                    ));
                    return;
                }
            },
        };
        let mut replay = Replay {
            rules,
            rec,
            buf: &mut *buf,
            plies: options.plies.then(Plies::default),
            written: options.normalized.then(Vec::new),
            errors: Vec::new(),
            more_errors: 0,
            fault: None,
            warnings: Vec::new(),
            steps: Vec::new(),
            whole_lines: !options.move_by_move,
        };
        let (game, complete) = replay.main_line(start.clone());
        let Replay {
            plies,
            written,
            errors,
            more_errors,
            fault,
            warnings,
            steps,
            ..
        } = replay;
        let (mut plies, mut written, mut warnings) = (plies, written, warnings);
        if let (true, Some(limits)) = (
            complete && errors.is_empty() && rec.errors.is_empty(),
            &options.engine,
        ) {
            if let Err(e) = crate::annotate::annotate(
                p,
                &start,
                &steps,
                limits,
                plies.as_mut(),
                written.as_mut(),
                &mut self.search_tables,
            ) {
                report.note_fault(&e);
                warnings.push(pos_err(rec.end, None, format!("engine analysis: {e}")));
            }
        }
        report.errors.extend(errors);
        report.cap_errors(more_errors);
        if report.fault.is_none() {
            report.fault = fault;
        }
        report.warnings = warnings;
        report.ply_count = steps.len() as u32;
        report.plies = plies;
        report.final_fen = p.write_fen(&game.position).ok();
        if complete {
            // Whether a legal move is left is all the status needs: counted (in bulk where
            // the variant counts its own moves), not listed.
            let status = p
                .legal_move_count(&game.position, buf)
                .and_then(|n| game.status_with(n > 0));
            match status {
                Ok(status) => {
                    let (computed, termination) = match &status.outcome {
                        Some(o) => (o.winner.pgn().to_string(), o.reason.to_string()),
                        None => ("*".to_string(), "unfinished".to_string()),
                    };
                    let agrees = match (&status.outcome, &report.result.declared) {
                        (Some(o), Some(d)) => o.winner.pgn() == d,
                        (Some(_), None) => false,
                        (None, _) => true,
                    };
                    report.result.computed = computed;
                    report.result.termination = termination;
                    report.result.claimable = status.claimable;
                    report.result.agrees = Some(agrees);
                    if !agrees {
                        let (pos, what) = match &rec.result {
                            Some((tok, pos)) => (*pos, format!("the declared result {tok}")),
                            None => match tag_result {
                                Some(t) => (t.pos, format!("the Result tag {}", t.value)),
                                None => (rec.end, "a missing result".to_string()),
                            },
                        };
                        let o = status.outcome.as_ref();
                        report.errors.push(pos_err(
                            pos,
                            Some(report.ply_count),
                            format!(
                                "{what} contradicts the final position: {} by {}",
                                o.map(|o| o.winner.pgn()).unwrap_or("*"),
                                o.map(|o| o.reason.as_str()).unwrap_or("?"),
                            ),
                        ));
                    }
                }
                Err(e) => {
                    report.note_fault(&e);
                    report.errors.push(pos_err(
                        rec.end,
                        Some(report.ply_count),
                        format!("computing the result: {e}"),
                    ))
                }
            }
            if let (Some(w), true) = (written, rec.errors.is_empty()) {
                let mut tags: Vec<(String, String)> = rec
                    .tags
                    .iter()
                    .filter(|t| {
                        !matches!(
                            t.name.as_str(),
                            "Result"
                                | "Variant"
                                | "Layout"
                                | "Presets"
                                | "Modifiers"
                                | "SetUp"
                                | "FEN"
                        )
                    })
                    .map(|t| (t.name.clone(), t.value.clone()))
                    .collect();
                tags.extend(rules_tags(p, &rules.specs, rules.layout_given));
                // A Variant tag the rules tags leave out (FIDE chess under another name:
                // `Chess960`, `Standard`) is the record's own: keep it.
                if let (None, Some(t)) = (&options.rules.variant, rec.tag("Variant")) {
                    if !t.value.trim().is_empty() && !tags.iter().any(|(k, _)| k == "Variant") {
                        tags.push(("Variant".into(), t.value.clone()));
                    }
                }
                if fen_tag.is_some() {
                    if let Ok(f) = p.write_fen(&start) {
                        tags.push(("SetUp".into(), "1".into()));
                        tags.push(("FEN".into(), f));
                    }
                }
                let result = report.result.declared.as_deref().unwrap_or("*");
                let result = if crate::pgn::RESULTS.contains(&result) {
                    result
                } else {
                    "*"
                };
                report.normalized = Some(write_record(&tags, &w, result));
            }
        }
    }
}

/// The rule tags of a record written for `p`: `Variant` (unless FIDE chess), `Layout` (when
/// chosen, or when it is not the variant's first), `Presets` (when any).
pub fn rules_tags(p: &Pipeline, specs: &[PresetSpec], layout_given: bool) -> Vec<(String, String)> {
    let mut tags = Vec::new();
    if p.variant_id() != "chess" {
        tags.push(("Variant".to_string(), p.variant_id().to_string()));
    }
    let default_layout = p.info.layouts.first().map(|l| l.id.as_str());
    if layout_given || default_layout != Some(p.layout.id.as_str()) {
        tags.push(("Layout".to_string(), p.layout.id.to_string()));
    }
    let is_modifier = |s: &PresetSpec| {
        p.presets
            .iter()
            .any(|a| a.info.id.as_str() == s.id && a.info.is_custom_modifier())
    };
    let (modifiers, presets): (Vec<&PresetSpec>, Vec<&PresetSpec>) =
        specs.iter().partition(|s| is_modifier(s));
    if !presets.is_empty() {
        tags.push((
            "Presets".to_string(),
            presets
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", "),
        ));
    }
    if !modifiers.is_empty() {
        tags.push((
            "Modifiers".to_string(),
            modifiers
                .iter()
                .map(|s| s.id.clone())
                .collect::<Vec<_>>()
                .join(", "),
        ));
    }
    tags
}

struct Replay<'a, 'p> {
    rules: &'p Rules,
    rec: &'a Record,
    buf: &'a mut RVec<Move>,
    plies: Option<Plies>,
    written: Option<Vec<WrittenMove>>,
    errors: Vec<RecordError>,
    /// Errors past [`MAX_REPORT_ERRORS`] (counted, not listed).
    more_errors: usize,
    /// The first fault of plugin code met while replaying.
    fault: Option<Fault>,
    warnings: Vec<RecordError>,
    /// Moves played from the start to the current point (`None`: a null move).
    steps: Vec<Option<Move>>,
    /// Whether stretches of the main line may go to the variant whole
    /// ([`Options::move_by_move`] unset).
    whole_lines: bool,
}

/// What is wrong with the check or mate mark of `text`, if anything: `+` on a move that gives
/// no check, `#` on one that does not mate. `actual` is the move's own mark ([`check_mark`];
/// `None`: unknown, nothing reported). A missing mark is not reported (many programs write
/// none).
fn wrong_mark(actual: Option<Option<char>>, text: &str) -> Option<String> {
    let t = text.trim_end_matches(['!', '?']);
    let mark = match t.as_bytes().last() {
        Some(b'+') => '+',
        Some(b'#') => '#',
        _ => return None,
    };
    match actual? {
        None => Some(format!(
            "marked as {}, but it gives no check",
            if mark == '#' { "mate" } else { "check" }
        )),
        Some('+') if mark == '#' => Some("marked as mate, but it is only check".to_string()),
        _ => None,
    }
}

/// Whether `text` can be the coordinate form of `m` (`e5e6+` is one, `Nf3+` and `e8=Q+` are
/// not): a move's coordinate form starts with its origin square and a file letter, except
/// for drops, specials and a variant's own castling notation, which may read otherwise.
/// Spares writing the coordinate form of every move marked `+`.
fn may_be_coordinate(p: &Pipeline, m: Move, text: &str) -> bool {
    if m.is_special()
        || m.is_drop()
        || (m.is_castle() && p.info.flags.contains(VariantFlags::CUSTOM_SAN))
    {
        return true;
    }
    coordinate_shaped(text)
}

/// Whether `text` has the shape of a coordinate form: a square, then a file letter.
fn coordinate_shaped(text: &str) -> bool {
    let b = text.as_bytes();
    let is_file = |c: u8| (b'a'..=b'p').contains(&c.to_ascii_lowercase());
    if b.len() < 4 || !is_file(b[0]) || !b[1].is_ascii_digit() {
        return false;
    }
    let next = if b[2].is_ascii_digit() { 3 } else { 2 };
    b.get(next).is_some_and(|&c| is_file(c))
}

/// `text` without its `!`/`?` glyphs at the end (bytes: they are ASCII).
fn without_glyphs(text: &str) -> &str {
    let b = text.as_bytes();
    let mut n = b.len();
    while n > 0 && matches!(b[n - 1], b'!' | b'?') {
        n -= 1;
    }
    &text[..n]
}

/// Whether the side to move still has a castling right.
fn may_castle(pos: &Position) -> bool {
    use houserules_plugin_api::castle_slot::*;
    let slots = match pos.side_to_move {
        Color::White => [WHITE_KING_SIDE, WHITE_QUEEN_SIDE],
        Color::Black => [BLACK_KING_SIDE, BLACK_QUEEN_SIDE],
    };
    slots.iter().any(|&s| !pos.castling[s].is_none())
}

/// Whether `text` ends in a check mark, `+` or `#`.
fn check_marked(text: &str) -> bool {
    matches!(text.as_bytes().last(), Some(b'+' | b'#'))
}

/// Null moves as ChessBase and python-chess write them.
fn is_null(text: &str) -> bool {
    matches!(text, "--" | "Z0" | "0000" | "@@@@")
}

/// SANs of (some of) the legal moves, sorted.
fn legal_sample(p: &Pipeline, pos: &Position, legal: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = legal
        .iter()
        .filter_map(|&m| san_core(p, pos, m, legal).ok())
        .collect();
    v.sort();
    v.truncate(12);
    v
}

fn piece_text(p: &Pipeline, c: Cell) -> Option<char> {
    let k = c.kind()?;
    let l = p
        .info
        .pieces
        .get(k as usize)
        .map(|t| t.letter())
        .unwrap_or('?');
    Some(if c.color() == Some(Color::Black) {
        l.to_ascii_lowercase()
    } else {
        l
    })
}

/// The reports of `events` (most plies have none: no iterator machinery for them).
fn event_reports(p: &Pipeline, events: &[Event]) -> Vec<EventReport> {
    if events.is_empty() {
        return Vec::new();
    }
    events.iter().map(|e| event_report(p, e)).collect()
}

fn event_report(p: &Pipeline, e: &Event) -> EventReport {
    EventReport {
        kind: e.kind.name(),
        square: e.square.to_option(),
        to: e.to.to_option(),
        piece: piece_text(p, e.piece),
        value: e.value,
        note: Some(e.note.as_str().to_string()).filter(|s| !s.is_empty()),
    }
}

impl<'a, 'p> Replay<'a, 'p> {
    fn move_error(&mut self, tok: &MoveToken, ply: u32, pos: &Position, message: String) {
        if self.errors.len() >= MAX_REPORT_ERRORS {
            self.more_errors += 1;
            return;
        }
        let p = &self.rules.pipeline;
        let legal = legal_sample(p, pos, self.buf);
        self.errors.push(RecordError {
            line: tok.pos.line,
            column: tok.pos.column,
            ply: Some(ply),
            message,
            legal,
        });
    }

    /// An error of the host or of plugin code at a move (a caught plugin panic is a fault).
    fn host_error(&mut self, tok: &MoveToken, ply: u32, e: HostError, context: &str) {
        if self.fault.is_none() {
            self.fault = fault::of_error(&e);
        }
        if self.errors.len() >= MAX_REPORT_ERRORS {
            self.more_errors += 1;
            return;
        }
        self.errors
            .push(pos_err(tok.pos, Some(ply), format!("{context}{e}")));
    }

    /// Resolves one move against the legal moves in `self.buf`.
    fn resolve(&self, pos: &Position, text: &str) -> Result<Move, HostError> {
        let r = self.rules;
        if r.fast {
            if let Some(m) =
                fast_match(r, pos, text, self.buf).or_else(|| coordinate_match(r, text, self.buf))
            {
                return Ok(m);
            }
        }
        parse_move(&r.pipeline, pos, text, self.buf)
    }

    /// Whether the game is over before a move is played (for rules that can end a game in a
    /// position with legal moves: the variant's static results, presets' results).
    fn over(&self, game: &Game<'p>) -> Result<Option<String>, HostError> {
        let p = &self.rules.pipeline;
        if !p.results_need_check() {
            return Ok(None);
        }
        let o = game.outcome(!self.buf.is_empty())?;
        Ok(o.map(|o| format!("{} by {}", o.winner.pgn(), o.reason)))
    }

    /// Lets the variant replay the moves from token `from` on in one call
    /// ([`Pipeline::replay_line`]), up to the first token that needs the move-by-move path
    /// (a variation or a null move follows it, it is not plain SAN, or a check mark on it may
    /// belong to a coordinate form); returns how many plies were taken into `game` (`None`:
    /// no token to try).
    fn replay_segment(&mut self, game: &mut Game<'p>, from: usize) -> Option<usize> {
        let r = self.rules;
        let p = &r.pipeline;
        let rec = self.rec;
        let mut tokens: Vec<&str> = Vec::new();
        for tok in &rec.moves[from..] {
            let text = tok.text(rec);
            let unglyphed = without_glyphs(text);
            if tok.has_variations()
                || is_null(text)
                || (check_marked(unglyphed) && coordinate_shaped(unglyphed))
            {
                break;
            }
            tokens.push(text);
        }
        if tokens.is_empty() {
            return None;
        }
        // With per-ply output the variant also writes each ply's texts (API 1.7).
        let describe = self.plies.is_some();
        let replayed = if describe {
            p.describe_line(&game.position, &tokens)
        } else {
            p.replay_line(&game.position, &tokens)
                .map(|l| l.map(DescribedLine::of_moves))
        };
        let described = match replayed {
            Ok(Some(line)) => line,
            Ok(None) => return Some(0),
            Err(e) => {
                // The move-by-move path is the authority: it replays the same moves (and
                // reports the fault if the plugin fails there too).
                let tok = &rec.moves[from];
                self.warnings.push(pos_err(
                    tok.pos,
                    Some(from as u32 + 1),
                    format!(
                        "the variant's own replay of the line failed ({e}): replayed move by move"
                    ),
                ));
                return Some(0);
            }
        };
        let line = &described.line;
        let mut warnings = Vec::new();
        for (i, ply) in line.plies.iter().enumerate() {
            // More plies than tokens: not a replay of these tokens.
            let (Some(tok), Some(text)) = (rec.moves.get(from + i), tokens.get(i)) else {
                return Some(0);
            };
            let unglyphed = without_glyphs(text);
            if !check_marked(unglyphed) {
                continue;
            }
            if may_be_coordinate(p, ply.mv, unglyphed) {
                return Some(0);
            }
            let mark = Some(match ply.mark {
                0 => None,
                m => Some(m as char),
            });
            if let Some(w) = wrong_mark(mark, text) {
                warnings.push(pos_err(
                    tok.pos,
                    Some((from + i) as u32 + 1),
                    format!("`{text}`: {w}"),
                ));
            }
        }
        let taken = line.plies.len();
        // The plies' reports, all or none: texts that do not fit their buffers send the line
        // move by move.
        let reported = self.plies.as_ref().map(Plies::mark);
        if let Some(reports) = self.plies.as_mut() {
            if !reports.push_line(p, from as u32 + 1, &described) {
                return Some(0);
            }
        }
        let before = self.steps.len();
        self.steps.extend(line.plies.iter().map(|ply| Some(ply.mv)));
        if !game.extend_replayed(described.line) {
            self.steps.truncate(before);
            if let (Some(reports), Some(mark)) = (self.plies.as_mut(), reported) {
                reports.truncate(mark);
            }
            return Some(0);
        }
        self.warnings.extend(warnings);
        Some(taken)
    }

    /// Replays the main line; returns the game and whether every move was replayed.
    fn main_line(&mut self, start: Position) -> (Game<'p>, bool) {
        let p: &'p Pipeline = &self.rules.pipeline;
        let mut game = Game::new(p, start);
        let rec = self.rec;
        let r: &'p Rules = self.rules;
        // Whole stretches of plain SAN go to the variant in one call where it replays lines
        // and nothing but the moves is asked for, or also the plies where it describes them
        // (API 1.7); the normal form is written move by move, and a rule that can end the
        // game with moves left is checked before each.
        let whole_lines = self.whole_lines
            && r.fast
            && p.replays_lines()
            && !p.results_need_check()
            && (self.plies.is_none() || p.describes_lines())
            && self.written.is_none();
        let mut next = 0;
        // Stretches in a row the variant took nothing of (a record in coordinate form): past
        // two, the rest of the record goes move by move.
        let mut declined = 0;
        while next < rec.moves.len() {
            if whole_lines && declined < 2 {
                match self.replay_segment(&mut game, next) {
                    Some(0) => declined += 1,
                    Some(n) => {
                        next += n;
                        declined = 0;
                    }
                    None => {}
                }
            }
            let k = next;
            let Some(tok) = rec.moves.get(k) else {
                break;
            };
            next += 1;
            let ply = k as u32 + 1;
            let text = tok.text(rec);
            // Plain SAN is resolved against only the legal moves it can name (to its
            // square, by its piece kinds); the full list is made when that finds no single
            // move, for errors, and where a result needs it.
            let token = if r.fast && !is_null(text) {
                r.san
                    .read(&game.position, text)
                    .filter(|t| t.castle.is_none())
            } else {
                None
            };
            let generated = match &token {
                Some(t) => {
                    p.legal_moves_matching(&game.position, Some(t.dest), r.san.kinds(t), self.buf)
                }
                None => p.legal_moves(&game.position, self.buf),
            };
            let mut full = token.is_none();
            // A plain coordinate move (`g1f3`: SAN of a pawn that is not there) is looked for
            // among the legal moves to its second square before the full list is made. Only
            // where the variant replays lines and no result is checked before a move (plain
            // chess: no presets, no special moves), and while the side to move cannot castle
            // (a castling move is written king square to king target, which is not where it
            // ends, so a king step of the same squares in the shorter list could shadow it):
            // there every move the full list could give for it ends on that square, in the
            // same order, so the first match is the same.
            let mut by_coordinate = None;
            let generated = generated.and_then(|()| {
                if !full && self.buf.is_empty() {
                    if p.replays_lines() && !p.results_need_check() && !may_castle(&game.position) {
                        if let Some(c) = CoordinateMove::read(text) {
                            p.legal_moves_matching(&game.position, Some(c.to), 0, self.buf)?;
                            by_coordinate = coordinate_match(r, text, self.buf);
                            if by_coordinate.is_some() {
                                return Ok(());
                            }
                        }
                    }
                    full = true;
                    p.legal_moves(&game.position, self.buf)
                } else {
                    Ok(())
                }
            });
            if let Err(e) = generated {
                self.host_error(tok, ply, e, "generating moves: ");
                return (game, false);
            }
            match self.over(&game) {
                Ok(None) => {}
                Ok(Some(why)) => {
                    if !full {
                        let _ = p.legal_moves(&game.position, self.buf);
                    }
                    let pos = game.position.clone();
                    self.move_error(
                        tok,
                        ply,
                        &pos,
                        format!("move `{text}` follows the end of the game ({why})"),
                    );
                    return (game, false);
                }
                Err(e) => {
                    self.host_error(tok, ply, e, "");
                    return (game, false);
                }
            }
            if is_null(text) {
                if tok.has_variations() {
                    self.variations(&game, tok, ply);
                }
                if let Some(w) = &mut self.written {
                    w.push(WrittenMove {
                        white: game.position.side_to_move == Color::White,
                        fullmove: game.position.fullmove_number as u32,
                        san: "--".to_string(),
                    });
                }
                game.pass();
                self.steps.push(None);
                if let Some(plies) = &mut self.plies {
                    let fen = p.write_fen(&game.position).unwrap_or_default();
                    plies.push(ply, "--", "0000", &fen, Vec::new());
                }
                continue;
            }
            let targeted = token
                .as_ref()
                .and_then(|t| r.san.matching(&game.position, t, self.buf));
            let resolved = match targeted.or(by_coordinate) {
                Some(m) => Ok(m),
                None => {
                    let full_list = if full {
                        Ok(())
                    } else {
                        p.legal_moves(&game.position, self.buf)
                    };
                    full_list.and_then(|()| self.resolve(&game.position, text))
                }
            };
            let m = match resolved {
                Ok(m) => m,
                Err(e) => {
                    if self.fault.is_none() {
                        self.fault = fault::of_error(&e);
                    }
                    let pos = game.position.clone();
                    self.move_error(tok, ply, &pos, e.to_string());
                    return (game, false);
                }
            };
            let detail = self.plies.is_some() || self.written.is_some();
            // SAN without its check mark (added once the move is played) and the coordinate
            // form. The moves in `self.buf` include every rival of `m` (same square, same
            // kind), all SAN needs.
            let names = detail.then(|| {
                let pos = &game.position;
                (
                    san_core(p, pos, m, self.buf).ok(),
                    coordinate(p, pos, m).unwrap_or_default(),
                    pos.side_to_move == Color::White,
                    pos.fullmove_number as u32,
                )
            });
            if tok.has_variations() {
                self.variations(&game, tok, ply);
            }
            self.steps.push(Some(m));
            let mover = game.position.side_to_move;
            // A coordinate form may end in `+` itself (a Fairy-Stockfish promotion, `e5e6+`).
            let unglyphed = text.trim_end_matches(['!', '?']);
            let marked = unglyphed.ends_with(['+', '#'])
                && !(may_be_coordinate(p, m, unglyphed)
                    && coordinate(p, &game.position, m)
                        .is_ok_and(|c| c.eq_ignore_ascii_case(unglyphed)));
            let events = match game.play_recording(m, self.plies.is_some()) {
                Ok(ev) => ev,
                Err(e) => {
                    self.host_error(tok, ply, e, "");
                    return (game, false);
                }
            };
            // The check mark of the move played, when something reads it.
            let mark = (marked || detail)
                .then(|| check_mark(p, &game.position, mover).ok())
                .flatten();
            if let Some(w) = marked.then(|| wrong_mark(mark, text)).flatten() {
                self.warnings
                    .push(pos_err(tok.pos, Some(ply), format!("`{text}`: {w}")));
            }
            let names = names.map(|(core, c, white, fullmove)| {
                let s = match (core, mark) {
                    (Some(mut s), Some(mark)) => {
                        s.extend(mark);
                        s
                    }
                    _ => text.to_string(),
                };
                if let Some(w) = &mut self.written {
                    w.push(WrittenMove {
                        white,
                        fullmove,
                        san: s.clone(),
                    });
                }
                (s, c)
            });
            if let (Some(plies), Some((s, c))) = (&mut self.plies, names) {
                let fen = p.write_fen(&game.position).unwrap_or_default();
                plies.push(ply, &s, &c, &fen, event_reports(p, &events));
            }
        }
        (game, true)
    }

    /// Replays the variations of `tok` (alternatives to the move at `ply`, from the
    /// position of `game`), and the variations inside them, in input order. An explicit stack
    /// of lines (each with a copy of the game where it stands), so that no depth of nesting
    /// can overflow the call stack; errors are reported, the line they are in is abandoned,
    /// and the others go on.
    fn variations(&mut self, game: &Game<'p>, tok: &MoveToken, ply: u32) {
        struct Line<'r, 'p> {
            game: Game<'p>,
            moves: &'r [MoveToken],
            next: usize,
            first_ply: u32,
        }
        let p: &'p Pipeline = &self.rules.pipeline;
        let rec = self.rec;
        let saved = std::mem::take(self.buf);
        let mut stack: Vec<Line<'a, 'p>> = Vec::new();
        let push_all = |stack: &mut Vec<Line<'a, 'p>>, game: &Game<'p>, tok: &MoveToken, ply| {
            let at = stack.len();
            for moves in rec.variations(tok) {
                stack.push(Line {
                    game: game.clone(),
                    moves,
                    next: 0,
                    first_ply: ply,
                });
            }
            // The first variation is replayed first.
            stack[at..].reverse();
        };
        push_all(&mut stack, game, tok, ply);
        while let Some(line) = stack.last_mut() {
            let Some(tok) = line.moves.get(line.next) else {
                stack.pop();
                continue;
            };
            let ply = line.first_ply + line.next as u32;
            line.next += 1;
            if let Err(e) = p.legal_moves(&line.game.position, self.buf) {
                stack.pop();
                self.host_error(tok, ply, e, "in a variation: generating moves: ");
                continue;
            }
            let text = tok.text(rec);
            if is_null(text) {
                line.game.pass();
                continue;
            }
            let m = match self.resolve(&line.game.position, text) {
                Ok(m) => m,
                Err(e) => {
                    let pos = line.game.position.clone();
                    self.move_error(tok, ply, &pos, format!("in a variation: {e}"));
                    stack.pop();
                    continue;
                }
            };
            let branch = tok.has_variations().then(|| line.game.clone());
            if let Err(e) = line.game.play_recording(m, false) {
                stack.pop();
                self.host_error(tok, ply, e, "in a variation: ");
            }
            // The variations of this move come next, then the rest of this line.
            if let Some(g) = branch {
                push_all(&mut stack, &g, tok, ply);
            }
        }
        *self.buf = saved;
    }
}

/// Resolves standard SAN (`Nf3`, `exd5`, `R1a3`, `e8=Q`, `O-O`) structurally against the
/// legal moves, without writing the SAN of every legal move. `None` when the text is not plain
/// SAN or does not name exactly one move: the caller then uses [`parse_move`], which also
/// reads the coordinate form and explains errors.
fn fast_match(r: &Rules, pos: &Position, text: &str, legal: &[Move]) -> Option<Move> {
    r.san.matching(pos, &r.san.read(pos, text)?, legal)
}

/// Resolves a plain coordinate move (`e2e4`, `e7e8q`, `E1G1`: two squares and an optional
/// promotion letter, any case) structurally: the first legal move whose coordinate form
/// ([`coordinate`]) is the text, as [`parse_move`] finds it first, without writing the form of
/// every legal move ([`CoordinateMove::find`], which variants that replay lines use too).
/// Only for variants without their own notation (castling is king origin and destination);
/// `None` (the caller uses [`parse_move`]) when the text has another shape, no move matches,
/// or a special move, whose form the variant writes, is among the moves.
fn coordinate_match(r: &Rules, text: &str, legal: &[Move]) -> Option<Move> {
    let i = CoordinateMove::read(text)?.find(legal, |k| r.san.letter(k))?;
    legal.get(i).copied()
}

pub use crate::batch::{run, Finished, Format, Source, Summary};

/// The agreement of a declared result with a computed outcome, as [`Analyzer`] decides it
/// (exposed for tests and tools).
pub fn agrees(declared: Option<&str>, computed: Option<Winner>) -> bool {
    match (computed, declared) {
        (Some(w), Some(d)) => w.pgn() == d,
        (Some(_), None) => false,
        (None, _) => true,
    }
}
