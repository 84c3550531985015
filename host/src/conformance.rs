//! The plugin contract, checked: `houserules check-plugin FILE` and, in-process,
//! [`check_plugin`] (the tests the scaffolder writes call it).
//!
//! For every variant of the plugin: its info is sane, every layout and (on an 8x8 board with
//! the six chess roles) the standard test positions load, FEN round-trips on every position
//! reached by seeded random games, the variant's legal generator agrees with the host's
//! generic path (pseudo-legal moves minus those leaving a royal attacked), its bulk count
//! agrees with its move list, a capture onto a square is an attack on it, perft is consistent
//! (depth 1 = the legal moves, depth 2 = the sum of depth 1 over the moves), and everything is
//! deterministic (the same seed gives the same game; two threads count what one counts).
//!
//! For every preset (on `chess`, or the variants asked for): it assembles with its
//! requirements; the same FEN, perft and determinism checks through the pipeline with the
//! preset active; a preset that promises to only add moves ([`EXTRA_MOVEMENT`]) counts the
//! same on the host's fast and generic paths; and **the hooks it declares are the hooks it
//! implements**. For plugins of API 1.2 the host asks the preset which hooks its type
//! implements ([`houserules_plugin_api::PresetFfi::implemented_hooks`]: the default bodies
//! mark themselves), so a declared hook left to its default fails. A hook it implements but
//! does not declare is never called by the host, so that part of the rule is silently
//! ignored: the check calls every undeclared hook on the positions of the random games and
//! fails, naming the hook, when one does anything (returns an opinion, changes the moves or
//! the position). Undeclared `on_after_move` stages are tried the same way. An undeclared
//! hook that is implemented but did nothing on those positions is a note (data-driven
//! presets implement more hooks than each rule uses). Panics anywhere fail, with the hook
//! and place the plugin's guard reports.

use crate::error::HostError;
use crate::game::Game;
use crate::loader::{LoadedPlugin, Registry};
use crate::notation::coordinate;
use crate::perft::perft;
use crate::pipeline::{Pipeline, PresetSpec};
use crate::play::Rng;
use abi_stable::std_types::{ROption, RResult, RStr, RVec};
use houserules_plugin_api::{
    host_query, parse_roles, stage, ApiVersion, Color, HookSet, HostQuery, Move, MoveEffects,
    OptionValue, OutcomeContext, PluginError, Position, PresetBox, PresetInfo, Role, Square,
    SquareSet, EXTRA_ERROR, EXTRA_MOVEMENT, EXTRA_ROLES, MOVEMENT_ADDITIVE, MOVEMENT_NONE,
};
use serde::Serialize;

/// What to check, and how hard.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// Variants to try presets on (default: `chess` if loaded, else every variant).
    pub variants: Vec<String>,
    /// Random games per variant or preset.
    pub games: usize,
    /// Plies per random game at most.
    pub plies: usize,
    /// Perft depth for the consistency checks (at least 2).
    pub depth: u32,
    /// Seed of the random games.
    pub seed: u64,
}

impl Default for CheckOptions {
    fn default() -> CheckOptions {
        CheckOptions {
            variants: Vec::new(),
            games: 6,
            plies: 60,
            depth: 2,
            seed: 1,
        }
    }
}

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// It holds.
    Pass,
    /// Worth knowing, not a failure.
    Note,
    /// The contract is broken.
    Fail,
}

/// One check.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    /// What was checked (`variant chess`, `preset no-castling on chess`).
    pub subject: String,
    /// Which check (`fen round trip`, `hooks` ...).
    pub check: String,
    /// How it came out.
    pub outcome: Outcome,
    /// What was found (for a failure: what is wrong, naming the hook or method).
    pub message: String,
}

/// All checks of one plugin.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Plugin id.
    pub plugin: String,
    /// Where it was loaded from.
    pub path: String,
    /// API version it was built for.
    pub api_version: String,
    /// The checks, in order.
    pub checks: Vec<Check>,
}

impl Report {
    /// Whether no check failed.
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|c| c.outcome != Outcome::Fail)
    }

    /// The failed checks.
    pub fn failures(&self) -> impl Iterator<Item = &Check> {
        self.checks.iter().filter(|c| c.outcome == Outcome::Fail)
    }

    /// The report as text: one line per check, then the totals.
    pub fn text(&self) -> String {
        let mut s = format!(
            "check-plugin {} (plugin `{}`, API {})\n",
            self.path, self.plugin, self.api_version
        );
        for c in &self.checks {
            let tag = match c.outcome {
                Outcome::Pass => "ok  ",
                Outcome::Note => "note",
                Outcome::Fail => "FAIL",
            };
            let line = format!("{tag}  {}: {}: {}", c.subject, c.check, c.message);
            s.push_str(&crate::describe::wrap_hanging(&line, 100, 2, 8));
        }
        let count = |o| self.checks.iter().filter(|c| c.outcome == o).count();
        s.push_str(&format!(
            "{} checks: {} passed, {} failed, {} notes\n",
            self.checks.len(),
            count(Outcome::Pass),
            count(Outcome::Fail),
            count(Outcome::Note)
        ));
        s
    }
}

struct Checker<'a> {
    reg: &'a Registry,
    opts: &'a CheckOptions,
    checks: Vec<Check>,
}

/// The standard perft positions of chess (start, Kiwipete, and positions 3 to 6 of the
/// chessprogramming wiki), tried on 8x8 variants that have the six chess roles.
pub const STANDARD_POSITIONS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P3/2NP1N1P/PP3PPP/R4RK1 w - - 0 10",
];

/// The first problem `f` finds in `items` (an error counts as one).
fn first_problem<T>(
    items: impl IntoIterator<Item = T>,
    mut f: impl FnMut(T) -> Result<Option<String>, HostError>,
) -> Option<String> {
    for x in items {
        match f(x) {
            Ok(None) => {}
            Ok(Some(m)) => return Some(m),
            Err(e) => return Some(e.to_string()),
        }
    }
    None
}

/// Whether the variant has a chess board and the six chess roles (the standard positions
/// are tried on it).
fn chess_shaped(p: &Pipeline) -> bool {
    let roles = [
        Role::PAWN,
        Role::KNIGHT,
        Role::BISHOP,
        Role::ROOK,
        Role::QUEEN,
        Role::KING,
    ];
    p.info.files == 8
        && p.info.ranks == 8
        && roles
            .iter()
            .all(|r| p.info.pieces.iter().any(|t| t.role == *r))
}

/// The standard positions a pipeline reads (as game starts: presets' setup included).
fn standard_starts(p: &Pipeline) -> Vec<Position> {
    if !chess_shaped(p) {
        return Vec::new();
    }
    STANDARD_POSITIONS
        .iter()
        .skip(1)
        .filter_map(|f| p.game_start(f).ok())
        .collect()
}

fn sorted_coords(p: &Pipeline, pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut v: Vec<String> = moves
        .iter()
        .map(|&m| coordinate(p, pos, m).unwrap_or_else(|e| format!("<{e}>")))
        .collect();
    v.sort();
    v
}

impl Checker<'_> {
    fn add(&mut self, subject: &str, check: &str, outcome: Outcome, message: impl Into<String>) {
        self.checks.push(Check {
            subject: subject.to_string(),
            check: check.to_string(),
            outcome,
            message: message.into(),
        });
    }

    /// A check that passed with `ok`, or failed with the problem found.
    fn verdict(
        &mut self,
        subject: &str,
        check: &str,
        problem: Option<String>,
        ok: impl Into<String>,
    ) {
        match problem {
            Some(m) => self.add(subject, check, Outcome::Fail, m),
            None => self.add(subject, check, Outcome::Pass, ok),
        }
    }

    fn result(&mut self, subject: &str, check: &str, r: Result<String, String>) {
        match r {
            Ok(m) => self.add(subject, check, Outcome::Pass, m),
            Err(m) => self.add(subject, check, Outcome::Fail, m),
        }
    }

    /// Seeded random games through `p`: every position reached, in order, per game.
    fn playouts(
        &self,
        p: &Pipeline,
        start: &Position,
        seed: u64,
    ) -> Result<Vec<Vec<Position>>, HostError> {
        let mut rng = Rng::new(seed);
        let mut games = Vec::new();
        for _ in 0..self.opts.games {
            let mut g = Game::new(p, start.clone());
            let mut seen = vec![g.position.clone()];
            for _ in 0..self.opts.plies {
                let legal = g.legal_moves()?;
                if legal.is_empty() || g.status_with(true)?.outcome.is_some() {
                    break;
                }
                let m = legal[rng.below(legal.len())];
                g.play(m)?;
                seen.push(g.position.clone());
            }
            games.push(seen);
        }
        Ok(games)
    }

    /// The checks every pipeline gets (a variant alone, or with a preset): positions load,
    /// FEN round trip, perft consistency, determinism, no panics. Returns the sample
    /// positions for further checks.
    fn common(&mut self, subject: &str, p: &Pipeline, extra_starts: &[Position]) -> Vec<Position> {
        let start = match p.start_position() {
            Ok(s) => s,
            Err(e) => {
                self.add(subject, "start position", Outcome::Fail, e.to_string());
                return Vec::new();
            }
        };
        let mut starts = vec![start];
        starts.extend(extra_starts.iter().cloned());
        // Random games, twice with the same seed: the same positions.
        let mut samples: Vec<Position> = Vec::new();
        let mut failed = None;
        for (i, s) in starts.iter().enumerate() {
            let seed = self.opts.seed.wrapping_add(i as u64);
            let first = self.playouts(p, s, seed);
            let second = self.playouts(p, s, seed);
            match (first, second) {
                (Ok(a), Ok(b)) => {
                    if a != b {
                        failed = Some(format!(
                            "two random games with seed {seed} went different ways: the plugin \
                             is not deterministic (hash map order, time, global state?)"
                        ));
                    }
                    samples.extend(a.into_iter().flatten());
                }
                (Err(e), _) | (_, Err(e)) => {
                    self.add(subject, "random games", Outcome::Fail, e.to_string());
                    return samples;
                }
            }
        }
        self.result(
            subject,
            "determinism",
            match failed {
                Some(f) => Err(f),
                None => Ok(format!(
                    "{} positions reached the same way twice",
                    samples.len()
                )),
            },
        );
        // FEN round trip: write, read back, same position and moves; write again, same text.
        let bad = first_problem(&samples, |pos| {
            let f = p.write_fen(pos)?;
            let back = match p.parse_fen(&f) {
                Ok(b) => b,
                Err(e) => return Ok(Some(format!("`{f}` does not read back: {e}"))),
            };
            let f2 = p.write_fen(&back)?;
            if f2 != f {
                return Ok(Some(format!("`{f}` reads back as `{f2}`")));
            }
            let attrs = |q: &Position| {
                let mut v: Vec<(Square, String, i32)> = q
                    .attributes()
                    .iter()
                    .map(|a| (a.square, a.name.as_str().to_string(), a.value))
                    .collect();
                v.sort();
                v
            };
            if !back.same_for_repetition(pos) || attrs(&back) != attrs(pos) {
                return Ok(Some(format!("`{f}` reads back as a different position")));
            }
            let (mut a, mut b) = (RVec::new(), RVec::new());
            p.legal_moves(pos, &mut a)?;
            p.legal_moves(&back, &mut b)?;
            if sorted_coords(p, pos, &a) != sorted_coords(p, &back, &b) {
                return Ok(Some(format!("`{f}` read back has other legal moves")));
            }
            Ok(None)
        });
        self.verdict(
            subject,
            "fen round trip",
            bad,
            format!("{} positions", samples.len()),
        );
        // Legal moves: the same list twice (order included), bulk count = list length.
        let bad = first_problem(&samples, |pos| {
            let (mut a, mut b) = (RVec::new(), RVec::new());
            p.legal_moves(pos, &mut a)?;
            p.legal_moves(pos, &mut b)?;
            let n = p.legal_move_count(pos, &mut RVec::new())?;
            Ok(if a != b {
                Some(format!(
                    "{}: the legal moves differ between two calls",
                    p.write_fen(pos)?
                ))
            } else if n != a.len() as u64 {
                Some(format!(
                    "{}: legal_move_count says {n}, generate gives {} moves",
                    p.write_fen(pos)?,
                    a.len()
                ))
            } else {
                None
            })
        });
        self.verdict(
            subject,
            "legal moves",
            bad,
            "the same list on every call; legal_move_count agrees",
        );
        // Perft: depth 1 = the legal moves (0 when the game is decided); each root move's
        // count at depth d = the count below its child; one thread = two threads.
        let depth = self.opts.depth.max(2);
        let perft_positions: Vec<&Position> = starts
            .iter()
            .chain(samples.iter().step_by(17))
            .take(8)
            .collect();
        let bad = first_problem(perft_positions, |pos| {
            let fen = p.write_fen(pos)?;
            let mut legal = RVec::new();
            p.legal_moves(pos, &mut legal)?;
            let decided = p.results_need_check() && p.outcome(pos, true, true)?.is_some();
            let one = perft(p, pos, 1, 1, false)?.nodes;
            let want = if decided { 0 } else { legal.len() as u64 };
            if one != want {
                return Ok(Some(format!(
                    "{fen}: perft 1 = {one}, but there are {want} legal moves"
                )));
            }
            let deep = perft(p, pos, depth, 1, true)?;
            let sum: u64 = deep.divide.iter().map(|(_, n)| n).sum();
            if sum != deep.nodes {
                return Ok(Some(format!(
                    "{fen}: perft {depth} = {}, its divide sums to {sum}",
                    deep.nodes
                )));
            }
            if !decided {
                for &m in legal.iter().take(12) {
                    let mut child = pos.clone();
                    let mut fx = MoveEffects::new(pos.side_to_move, false);
                    p.apply(&mut child, m, &mut fx)?;
                    let below = perft(p, &child, depth - 1, 1, false)?.nodes;
                    let c = coordinate(p, pos, m)?;
                    let listed = deep.divide.iter().find(|(k, _)| *k == c).map(|(_, n)| *n);
                    if listed != Some(below) {
                        return Ok(Some(format!(
                            "{fen}: divide says {c}: {listed:?}, perft {} after {c} = {below}",
                            depth - 1
                        )));
                    }
                }
            }
            let two = perft(p, pos, depth, 2, false)?.nodes;
            if two != deep.nodes {
                return Ok(Some(format!(
                    "{fen}: perft {depth} = {} on one thread, {two} on two",
                    deep.nodes
                )));
            }
            Ok(None)
        });
        self.verdict(
            subject,
            "perft",
            bad,
            format!("depth 1 and {depth} consistent, one thread = two"),
        );
        samples
    }

    fn check_variant(&mut self, pl: &LoadedPlugin, id: &str) {
        let subject = format!("variant {id}");
        let p = match Pipeline::build(self.reg, id, None, &[]) {
            Ok(p) => p,
            Err(e) => {
                self.add(&subject, "builds", Outcome::Fail, e.to_string());
                return;
            }
        };
        let info = &p.info;
        let mut problems = Vec::new();
        if info.files == 0 || info.files > 16 || info.ranks == 0 || info.ranks > 15 {
            problems.push(format!(
                "board {}x{} is outside 1..=16 x 1..=15",
                info.files, info.ranks
            ));
        }
        if info.pieces.is_empty() || info.pieces.len() > 127 {
            problems.push(format!(
                "{} piece types (1 to 127 allowed)",
                info.pieces.len()
            ));
        }
        for t in info.pieces.iter() {
            if !t.letter.is_ascii_uppercase() {
                problems.push(format!(
                    "piece `{}` has letter {:?}, not an upper-case ASCII letter",
                    t.name,
                    t.letter()
                ));
            }
        }
        if info.layouts.is_empty() {
            problems.push("no layout".to_string());
        }
        if info.id.as_str() != id {
            problems.push(format!("info() says id `{}`, the manifest `{id}`", info.id));
        }
        self.result(
            &subject,
            "info",
            if problems.is_empty() {
                Ok(format!(
                    "{}x{}, {} piece types, {} layouts (plugin {})",
                    info.files,
                    info.ranks,
                    info.pieces.len(),
                    info.layouts.len(),
                    pl.id()
                ))
            } else {
                Err(problems.join("; "))
            },
        );
        // Every layout, and the standard positions on a chess-shaped board.
        let mut starts = Vec::new();
        let mut bad = Vec::new();
        for l in info.layouts.iter().skip(1) {
            match p.parse_fen(l.fen.as_str()) {
                Ok(pos) => starts.push(pos),
                Err(e) => bad.push(format!("layout `{}`: {e}", l.id)),
            }
        }
        let mut standard = 0;
        if chess_shaped(&p) {
            for f in STANDARD_POSITIONS.iter().skip(1) {
                match p.parse_fen(f) {
                    Ok(pos) => {
                        standard += 1;
                        starts.push(pos);
                    }
                    // A chess-shaped variant may have other rules (drops, castling): only a
                    // panic or an error other than a FEN complaint is wrong here.
                    Err(HostError::Fen { .. }) => {}
                    Err(e) => bad.push(e.to_string()),
                }
            }
        }
        self.result(
            &subject,
            "positions load",
            if bad.is_empty() {
                Ok(format!(
                    "{} layouts, {standard} standard positions",
                    info.layouts.len()
                ))
            } else {
                Err(bad.join("; "))
            },
        );
        let samples = self.common(&subject, &p, &starts);
        // The variant's legal generator against the host's generic path (pseudo-legal moves,
        // minus those that leave a royal attacked), and captures are attacks.
        let mut generic = match Pipeline::build(self.reg, id, None, &[]) {
            Ok(g) => g,
            Err(_) => return,
        };
        generic.force_generic_path();
        let bad = first_problem(&samples, |pos| {
            let (mut a, mut b) = (RVec::new(), RVec::new());
            p.legal_moves(pos, &mut a)?;
            generic.legal_moves(pos, &mut b)?;
            let (sa, sb) = (sorted_coords(&p, pos, &a), sorted_coords(&p, pos, &b));
            if sa != sb {
                let only_a: Vec<&String> = sa.iter().filter(|m| !sb.contains(m)).collect();
                let only_b: Vec<&String> = sb.iter().filter(|m| !sa.contains(m)).collect();
                return Ok(Some(format!(
                    "{}: generate(legal) and the pseudo-legal moves filtered by is_attacked \
                     disagree (only legal: {only_a:?}; only pseudo-legal and safe: {only_b:?})",
                    p.write_fen(pos)?
                )));
            }
            let mover = pos.side_to_move;
            for &m in a.iter() {
                let dest = m.destination();
                let onto_enemy = pos.get(dest).is_color(mover.opposite());
                if m.is_drop() || m.is_castle() || m.is_special() || !onto_enemy {
                    continue;
                }
                if !p.attacked(pos, dest, mover)? {
                    return Ok(Some(format!(
                        "{}: {} captures on {dest}, but is_attacked({dest}) says no",
                        p.write_fen(pos)?,
                        coordinate(&p, pos, m)?
                    )));
                }
            }
            Ok(None)
        });
        self.verdict(
            &subject,
            "legality",
            bad,
            "legal moves = pseudo-legal moves that leave no royal attacked; captures are attacks",
        );
        if p.replays_lines() {
            let bad = self.line_replay_problem(&p, &starts);
            self.verdict(
                &subject,
                "line replay",
                bad,
                "replay_line gives the moves, positions, keys and check marks of the move-by-move path (and describe_line its SAN, coordinates, FENs and events)",
            );
        }
    }

    /// For a variant that replays whole lines (API 1.6): seeded random games written in SAN,
    /// replayed by [`Pipeline::replay_line`] from their start, must give what playing them one
    /// by one gives — each move, its mover, the repetition key and check mark after it, and
    /// the final position — and a line with a token no move answers stops right before it.
    fn line_replay_problem(&self, p: &Pipeline, extra_starts: &[Position]) -> Option<String> {
        let start = p.start_position().ok()?;
        let starts = std::iter::once(start).chain(extra_starts.iter().cloned());
        let mut rng = Rng::new(self.opts.seed ^ 0x11E5);
        first_problem(starts, |start| {
            for _ in 0..self.opts.games {
                let mut g = Game::new(p, start.clone());
                let (mut tokens, mut plies, mut texts_by_move) =
                    (Vec::new(), Vec::new(), Vec::new());
                for _ in 0..self.opts.plies {
                    let legal = g.legal_moves()?;
                    if legal.is_empty() || g.status_with(true)?.outcome.is_some() {
                        break;
                    }
                    let m = legal[rng.below(legal.len())];
                    let mover = g.position.side_to_move;
                    tokens.push(crate::notation::san(p, &g.position, m, &legal)?);
                    let coordinate = crate::notation::coordinate(p, &g.position, m)?;
                    let events = g.play_recording(m, true)?;
                    texts_by_move.push((coordinate, p.write_fen(&g.position)?, events));
                    let mark = crate::notation::check_mark(p, &g.position, mover)?;
                    plies.push((
                        m,
                        mover,
                        mark.map_or(0, |c| c as u8),
                        g.position.repetition_hash(),
                    ));
                }
                let texts: Vec<&str> = tokens.iter().map(String::as_str).collect();
                let Some(line) = p.replay_line(&start, &texts)? else {
                    return Ok(Some("replay_line declared but gave no line".to_string()));
                };
                for (k, (want, got)) in plies.iter().zip(line.plies.iter()).enumerate() {
                    let got = (got.mv, got.mover, got.mark, got.key);
                    if *want != got {
                        return Ok(Some(format!(
                            "{} {}: ply {} ({}) replayed as {got:?}, played as {want:?}",
                            p.write_fen(&start)?,
                            tokens.join(" "),
                            k + 1,
                            tokens[k]
                        )));
                    }
                }
                if line.plies.len() != plies.len() || line.position != g.position {
                    return Ok(Some(format!(
                        "{} {}: replay_line took {} of {} plies; position {} (move by move: {})",
                        p.write_fen(&start)?,
                        tokens.join(" "),
                        line.plies.len(),
                        plies.len(),
                        p.write_fen(&line.position)?,
                        p.write_fen(&g.position)?
                    )));
                }
                if p.describes_lines() {
                    let Some(d) = p.describe_line(&start, &texts)? else {
                        return Ok(Some("describe_line declared but gave no line".to_string()));
                    };
                    if d.line != line {
                        return Ok(Some(format!(
                            "{} {}: describe_line replayed another line than replay_line",
                            p.write_fen(&start)?,
                            tokens.join(" ")
                        )));
                    }
                    for (k, (san, (coordinate, fen, events))) in
                        tokens.iter().zip(&texts_by_move).enumerate()
                    {
                        let want = houserules_plugin_api::PlyText {
                            san,
                            coordinate,
                            fen,
                            events,
                        };
                        if d.ply(k) != Some(want) {
                            return Ok(Some(format!(
                                "{} {}: describe_line wrote ply {} as {:?}, the host as {want:?}",
                                p.write_fen(&start)?,
                                tokens.join(" "),
                                k + 1,
                                d.ply(k)
                            )));
                        }
                    }
                }
                if !texts.is_empty() {
                    let cut = rng.below(texts.len());
                    let mut broken = texts.clone();
                    broken.insert(cut, "Zz0");
                    let taken = p.replay_line(&start, &broken)?.map_or(0, |l| l.plies.len());
                    if taken != cut {
                        return Ok(Some(format!(
                            "{} {}: a line with a token that is no move at ply {} took {taken} plies",
                            p.write_fen(&start)?,
                            broken.join(" "),
                            cut + 1
                        )));
                    }
                }
            }
            Ok(None)
        })
    }

    fn variants_for_presets(&self) -> Vec<String> {
        if !self.opts.variants.is_empty() {
            return self.opts.variants.clone();
        }
        if self.reg.variants().any(|(_, v)| v.id.as_str() == "chess") {
            return vec!["chess".to_string()];
        }
        self.reg.variants().map(|(_, v)| v.id.to_string()).collect()
    }

    fn check_preset(&mut self, pl: &LoadedPlugin, info: &PresetInfo) {
        let id = info.id.as_str();
        if let Some(e) = info.extra_value(EXTRA_ERROR) {
            self.add(
                &format!("preset {id}"),
                "usable",
                Outcome::Note,
                format!("listed as broken: {e}"),
            );
            return;
        }
        let variants = self.variants_for_presets();
        if variants.is_empty() {
            self.add(
                &format!("preset {id}"),
                "variant",
                Outcome::Fail,
                "no variant is loaded to test it on (load one with --plugin or --plugin-dir)",
            );
            return;
        }
        let specs = crate::describe::with_requirements(info);
        let mut built_any = false;
        let mut refusals = Vec::new();
        for v in &variants {
            let subject = format!("preset {id} on {v}");
            let p = match Pipeline::build(self.reg, v, None, &specs) {
                Ok(p) => p,
                Err(e) => {
                    refusals.push(format!("{v}: {e}"));
                    continue;
                }
            };
            built_any = true;
            let starts = standard_starts(&p);
            let samples = self.common(&subject, &p, &starts);
            self.check_hooks(&subject, pl, info, &p, &samples);
            let movement = info.extra_value(EXTRA_MOVEMENT);
            if matches!(movement, Some(MOVEMENT_ADDITIVE | MOVEMENT_NONE)) {
                self.check_promise(
                    &subject,
                    v,
                    &specs,
                    &p,
                    &samples,
                    movement.unwrap_or_default(),
                );
            }
        }
        if !built_any {
            self.add(
                &format!("preset {id}"),
                "builds",
                Outcome::Fail,
                format!(
                    "it assembles on none of the variants tried: {}",
                    refusals.join("; ")
                ),
            );
        } else if !refusals.is_empty() {
            self.add(
                &format!("preset {id}"),
                "builds",
                Outcome::Note,
                format!("refused by {}", refusals.join("; ")),
            );
        }
    }

    /// A preset that says it only adds moves (or changes none) must count the same on the
    /// host's fast path as on the generic one.
    fn check_promise(
        &mut self,
        subject: &str,
        v: &str,
        specs: &[PresetSpec],
        p: &Pipeline,
        samples: &[Position],
        movement: &str,
    ) {
        let Ok(mut generic) = Pipeline::build(self.reg, v, None, specs) else {
            return;
        };
        generic.force_generic_path();
        let bad = first_problem(samples.iter().step_by(5).take(12), |pos| {
            let (mut a, mut b) = (RVec::new(), RVec::new());
            p.legal_moves(pos, &mut a)?;
            generic.legal_moves(pos, &mut b)?;
            if sorted_coords(p, pos, &a) != sorted_coords(p, pos, &b) {
                return Ok(Some(format!(
                    "{}: other legal moves on the generic path",
                    p.write_fen(pos)?
                )));
            }
            let (x, y) = (
                perft(p, pos, 2, 1, false)?.nodes,
                perft(&generic, pos, 2, 1, false)?.nodes,
            );
            if x != y {
                return Ok(Some(format!(
                    "{}: perft 2 = {x} on the fast path, {y} on the generic path",
                    p.write_fen(pos)?
                )));
            }
            Ok(None)
        });
        self.verdict(
            subject,
            &format!("movement={movement} promise"),
            bad.map(|b| {
                format!("{b}: the preset breaks its `{EXTRA_MOVEMENT}={movement}` promise")
            }),
            "fast and generic paths agree",
        );
    }

    fn check_hooks(
        &mut self,
        subject: &str,
        pl: &LoadedPlugin,
        info: &PresetInfo,
        p: &Pipeline,
        samples: &[Position],
    ) {
        let options: RVec<OptionValue> = info
            .options
            .iter()
            .map(|o| OptionValue {
                key: o.key.clone(),
                value: o.default.clone(),
            })
            .collect();
        let object =
            match (pl.module.new_preset())(RStr::from_str(info.id.as_str()), options, &p.info)
                .into_result()
            {
                Ok(o) => o,
                Err(e) => {
                    self.add(
                        subject,
                        "hooks",
                        Outcome::Fail,
                        format!("new_preset: {}", e.message),
                    );
                    return;
                }
            };
        let declared = info.hooks;
        let probe_pos = samples.first().cloned();
        let mut legal = RVec::new();
        let probe_move = probe_pos.as_ref().and_then(|pos| {
            p.legal_moves(pos, &mut legal).ok()?;
            legal.first().copied()
        });
        let supports_probe =
            pl.manifest.api_version.minor >= 2 || pl.manifest.api_version.major > 1;
        let implemented: Option<HookSet> = match (supports_probe, &probe_pos, probe_move) {
            (true, Some(pos), Some(mv)) => match object.implemented_hooks(pos, mv).into_result() {
                Ok(h) => Some(h),
                Err(e) => {
                    self.add(
                        subject,
                        "hooks",
                        Outcome::Fail,
                        format!("implemented_hooks: {}", e.message),
                    );
                    return;
                }
            },
            _ => None,
        };
        let names = |h: HookSet| h.names().join(", ");
        let mut failures = Vec::new();
        let mut notes = Vec::new();
        // Declared but left to the default body.
        if let Some(imp) = implemented {
            let mut missing = HookSet(declared.0 & !imp.0);
            if imp.intersects(HookSet::AFTER_MOVE_QUERY) {
                missing = HookSet(missing.0 & !HookSet::ON_AFTER_MOVE.0);
            }
            for n in missing.names() {
                failures.push(format!(
                    "declares `{n}` in PresetInfo::hooks but does not implement it (its default \
                     body runs): remove it from the hooks, or implement it"
                ));
            }
        }
        // Implemented (or, without the probe, possibly implemented) but undeclared.
        let candidates = match implemented {
            Some(imp) => {
                let mut c = HookSet(imp.0 & !declared.0);
                if declared.contains(HookSet::AFTER_MOVE_QUERY) {
                    c = HookSet(c.0 & !HookSet::ON_AFTER_MOVE.0);
                }
                c
            }
            None => HookSet(HookSet::KNOWN.0 & !declared.0),
        };
        let effects = effects_of_undeclared(p, &object, info, candidates, samples);
        for n in candidates.names() {
            match effects.iter().find(|(h, _)| *h == n) {
                Some((_, what)) => failures.push(format!(
                    "implements `{n}` but does not declare it in PresetInfo::hooks, so the host \
                     never calls it and that part of the rule is ignored ({what}): add \
                     HookSet::{} to the hooks",
                    hook_const(n)
                )),
                None if implemented.is_some() => notes.push(n.to_string()),
                None => {}
            }
        }
        // Undeclared stages of on_after_move.
        if declared.contains(HookSet::ON_AFTER_MOVE) {
            for (st, what) in undeclared_stage_effects(p, &object, info, samples) {
                failures.push(format!(
                    "handles `on_after_move` at stage {} ({st}) but does not declare it in \
                     after_move_stages, so it never runs there ({what})",
                    crate::describe::STAGE_NAMES
                        .get(st as usize)
                        .copied()
                        .unwrap_or("?")
                ));
            }
        }
        let checked = format!(
            "declared: {}{}",
            if declared == HookSet::default() { "none".to_string() } else { names(declared) },
            match implemented {
                Some(i) => format!("; implemented: {}", if i == HookSet::default() { "none".to_string() } else { names(i) }),
                None => " (the plugin's API predates the implemented-hooks probe: undeclared hooks tried on the sample positions)".to_string(),
            }
        );
        if failures.is_empty() {
            self.add(subject, "hooks", Outcome::Pass, checked);
        } else {
            for f in failures {
                self.add(subject, "hooks", Outcome::Fail, f);
            }
        }
        if !notes.is_empty() {
            self.add(
                subject,
                "hooks",
                Outcome::Note,
                format!(
                    "implements {} without declaring it; it did nothing on {} sample positions, \
                     but the host never calls it",
                    notes
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    samples.len().min(SAMPLE_LIMIT)
                ),
            );
        }
    }
}

/// Positions the behavioural hook tests use at most.
const SAMPLE_LIMIT: usize = 40;

/// `HookSet` constant name of a hook name (`get_extra_moves` → `GET_EXTRA_MOVES`).
fn hook_const(name: &str) -> String {
    match name {
        "on_after_move_with" => "AFTER_MOVE_QUERY".to_string(),
        n => n.to_ascii_uppercase(),
    }
}

/// A host query answered through the pipeline, for calling `on_after_move_with`.
struct Query<'a>(&'a Pipeline);

impl HostQuery for Query<'_> {
    fn attackers(&self, pos: &Position, sq: Square, by: Color) -> SquareSet {
        self.0.attackers(pos, sq, by).unwrap_or(SquareSet::EMPTY)
    }
    fn royals(&self, pos: &Position, color: Color) -> ROption<SquareSet> {
        self.0.royals(pos, color).ok().flatten().into()
    }
    fn in_check(&self, pos: &Position, color: Color) -> bool {
        self.0.royal_attacked(pos, color).unwrap_or(false)
    }
}

fn ok<T>(r: RResult<T, PluginError>) -> Option<T> {
    r.into_result().ok()
}

/// Calls every hook of `candidates` on the sample positions; returns, per hook that did
/// something, what it did.
fn effects_of_undeclared(
    p: &Pipeline,
    object: &PresetBox,
    info: &PresetInfo,
    candidates: HookSet,
    samples: &[Position],
) -> Vec<(&'static str, String)> {
    let mut found: Vec<(&'static str, String)> = Vec::new();
    let after_move_declared = info.hooks.contains(HookSet::ON_AFTER_MOVE);
    let fen = |pos: &Position| p.write_fen(pos).unwrap_or_default();
    let note = |found: &mut Vec<(&'static str, String)>, h: &'static str, what: String| {
        if !found.iter().any(|(x, _)| *x == h) {
            found.push((h, what));
        }
    };
    let has = |h: HookSet| candidates.intersects(h);
    for pos in samples.iter().take(SAMPLE_LIMIT) {
        let side = pos.side_to_move;
        let f = fen(pos);
        let mut legal = RVec::new();
        if p.legal_moves(pos, &mut legal).is_err() {
            continue;
        }
        if has(HookSet::SETUP_POSITION) {
            let mut q = pos.clone();
            if ok(object.setup_position(&mut q)).is_some() && fen(&q) != f {
                note(&mut found, "setup_position", format!("it changed {f}"));
            }
        }
        for color in [Color::White, Color::Black] {
            if has(HookSet::GET_ROYAL_PIECES) {
                let mut r = SquareSet::EMPTY;
                if ok(object.get_royal_pieces(pos, color, &mut r))
                    .is_some_and(|d| d.to_option().is_some())
                {
                    note(
                        &mut found,
                        "get_royal_pieces",
                        format!("it answered for {} in {f}", color.name()),
                    );
                }
            }
            if has(HookSet::SHOULD_FILTER_SELF_CHECK)
                && ok(object.should_filter_self_check(pos, color))
                    .is_some_and(|d| d.to_option().is_some())
            {
                note(
                    &mut found,
                    "should_filter_self_check",
                    format!("it answered for {} in {f}", color.name()),
                );
            }
            if has(HookSet::PROTECTED_ROYALS) {
                if let Ok(Some(royals)) = p.royals(pos, color) {
                    let mut r = royals;
                    if ok(object.protected_royals(pos, color, &mut r)).is_some() && r != royals {
                        note(
                            &mut found,
                            "protected_royals",
                            format!("it changed {}'s protected royals in {f}", color.name()),
                        );
                    }
                }
            }
            if has(HookSet::OVERRIDE_PIECE_MOVES) {
                let (mut claimed, mut out) = (SquareSet::EMPTY, RVec::new());
                if ok(object.override_piece_moves(pos, color, &mut claimed, &mut out)).is_some()
                    && (!claimed.is_empty() || !out.is_empty())
                {
                    note(
                        &mut found,
                        "override_piece_moves",
                        format!("it claimed pieces in {f}"),
                    );
                }
            }
            if has(HookSet::GET_EXTRA_MOVES) {
                let mut out = RVec::new();
                if ok(object.get_extra_moves(pos, color, &mut out)).is_some() && !out.is_empty() {
                    note(
                        &mut found,
                        "get_extra_moves",
                        format!("it added {} moves in {f}", out.len()),
                    );
                }
            }
            if has(HookSet::GET_LEGAL_MOVE_MODIFIERS) {
                let mut moves = RVec::new();
                if p.pseudo_moves(pos, color, &mut moves).is_ok() {
                    let before = moves.clone();
                    if ok(object.get_legal_move_modifiers(pos, color, &mut moves)).is_some()
                        && moves != before
                    {
                        note(
                            &mut found,
                            "get_legal_move_modifiers",
                            format!("it changed the moves in {f}"),
                        );
                    }
                }
            }
            if has(HookSet::IS_ATTACKED) {
                for sq in pos.squares() {
                    if ok(object.is_attacked(pos, sq, color))
                        .is_some_and(|d| d.to_option().is_some())
                    {
                        note(
                            &mut found,
                            "is_attacked",
                            format!("it answered for {sq} in {f}"),
                        );
                        break;
                    }
                }
            }
        }
        if has(HookSet::FILTER_LEGAL_MOVES) {
            let mut moves = legal.clone();
            if ok(object.filter_legal_moves(pos, &mut moves)).is_some() && moves != legal {
                note(
                    &mut found,
                    "filter_legal_moves",
                    format!("it removed moves in {f}"),
                );
            }
        }
        if has(HookSet::ON_CHECK_GAME_RESULT) {
            let ctx = OutcomeContext {
                has_legal_moves: !legal.is_empty(),
                in_check: p.royal_attacked(pos, side).unwrap_or(false),
                royals: [1, 1],
                has_royalty: true,
                counting: false,
                repetitions: 1,
                checks_in_cycle: [false; 2],
                reserved: [0; 4],
            };
            if ok(object.on_check_game_result(pos, &ctx, ROption::RNone))
                .is_some_and(|d| d.action != 0)
            {
                note(
                    &mut found,
                    "on_check_game_result",
                    format!("it decided a result in {f}"),
                );
            }
        }
        for &m in legal.iter().take(8) {
            let fx0 = MoveEffects::new(side, false);
            if has(HookSet::ON_BEFORE_MOVE) {
                let (mut q, mut fx) = (pos.clone(), fx0.clone());
                if ok(object.on_before_move(&mut q, m, &mut fx)).is_some()
                    && (fen(&q) != f || fx != fx0)
                {
                    note(
                        &mut found,
                        "on_before_move",
                        format!("it acted before a move in {f}"),
                    );
                }
            }
            if has(HookSet::APPLY_MOVE) {
                let (mut q, mut fx) = (pos.clone(), fx0.clone());
                if ok(object.apply_move(&mut q, m, &mut fx))
                    .is_some_and(|d| d.to_option().is_some())
                {
                    note(
                        &mut found,
                        "apply_move",
                        format!("it made a move itself in {f}"),
                    );
                }
            }
            let mut after = pos.clone();
            let mut fx = fx0.clone();
            if p.apply(&mut after, m, &mut fx).is_err() {
                continue;
            }
            if has(HookSet::SHOULD_ADVANCE_TURN)
                && ok(object.should_advance_turn(&after, m, &fx))
                    .is_some_and(|d| d.to_option().is_some())
            {
                note(
                    &mut found,
                    "should_advance_turn",
                    format!("it decided the turn after a move in {f}"),
                );
            }
            let fa = fen(&after);
            for st in stage::ALL {
                if has(HookSet::ON_AFTER_MOVE) {
                    let (mut q, mut fx2) = (after.clone(), fx.clone());
                    if ok(object.on_after_move(&mut q, pos, m, st, &mut fx2)).is_some()
                        && (fen(&q) != fa || fx2 != fx)
                    {
                        note(
                            &mut found,
                            "on_after_move",
                            format!("it acted after a move in {f}"),
                        );
                    }
                }
                if has(HookSet::AFTER_MOVE_QUERY) {
                    // Without AFTER_MOVE_QUERY the host calls `on_after_move` instead: the
                    // query form is ignored where it does something else (or anything, when
                    // `on_after_move` is not declared either).
                    let (mut q, mut fx2) = (after.clone(), fx.clone());
                    let query = Query(p);
                    if ok(object.on_after_move_with(
                        &mut q,
                        pos,
                        m,
                        st,
                        &mut fx2,
                        host_query(&query),
                    ))
                    .is_some()
                    {
                        let plain = if after_move_declared {
                            let (mut q2, mut fx3) = (after.clone(), fx.clone());
                            ok(object.on_after_move(&mut q2, pos, m, st, &mut fx3))
                                .map(|_| (fen(&q2), fx3))
                        } else {
                            Some((fa.clone(), fx.clone()))
                        };
                        if plain.is_some_and(|(pf, pfx)| pf != fen(&q) || pfx != fx2) {
                            note(
                                &mut found,
                                "on_after_move_with",
                                format!("it acted after a move in {f}"),
                            );
                        }
                    }
                }
            }
        }
    }
    found
}

/// Stages of `on_after_move` (or `on_after_move_with`) outside `after_move_stages` at which
/// the preset does something on the sample positions.
fn undeclared_stage_effects(
    p: &Pipeline,
    object: &PresetBox,
    info: &PresetInfo,
    samples: &[Position],
) -> Vec<(u8, String)> {
    let mut found: Vec<(u8, String)> = Vec::new();
    let with_query = info.hooks.contains(HookSet::AFTER_MOVE_QUERY);
    let fen = |pos: &Position| p.write_fen(pos).unwrap_or_default();
    for pos in samples.iter().take(SAMPLE_LIMIT) {
        let mut legal = RVec::new();
        if p.legal_moves(pos, &mut legal).is_err() {
            continue;
        }
        for &m in legal.iter().take(8) {
            let mut after = pos.clone();
            let mut fx = MoveEffects::new(pos.side_to_move, false);
            if p.apply(&mut after, m, &mut fx).is_err() {
                continue;
            }
            let fa = fen(&after);
            for st in stage::ALL {
                if info.after_move_stages & (1 << st) != 0 || found.iter().any(|(s, _)| *s == st) {
                    continue;
                }
                let (mut q, mut fx2) = (after.clone(), fx.clone());
                let query = Query(p);
                let r = if with_query {
                    object.on_after_move_with(&mut q, pos, m, st, &mut fx2, host_query(&query))
                } else {
                    object.on_after_move(&mut q, pos, m, st, &mut fx2)
                };
                if r.into_result().is_ok() && (fen(&q) != fa || fx2 != fx) {
                    found.push((st, format!("it acted after a move in {}", fen(pos))));
                }
            }
        }
    }
    found
}

/// Runs the contract checks on the plugin `plugin_id` of `reg` (the other plugins of `reg`
/// provide the variants its presets are tried on).
pub fn check_plugin(
    reg: &Registry,
    plugin_id: &str,
    opts: &CheckOptions,
) -> Result<Report, HostError> {
    let pl = reg
        .plugins
        .iter()
        .find(|p| p.id() == plugin_id)
        .ok_or_else(|| HostError::Unknown {
            what: "plugin",
            id: plugin_id.to_string(),
            suggestion: crate::error::nearest(plugin_id, reg.plugins.iter().map(|p| p.id())),
        })?;
    let mut c = Checker {
        reg,
        opts,
        checks: Vec::new(),
    };
    let m = &pl.manifest;
    let subject = format!("plugin {}", pl.id());
    let mut problems = Vec::new();
    if m.variants.is_empty() && m.presets.is_empty() {
        problems.push("it provides no variant and no preset".to_string());
    }
    let mut ids: Vec<&str> = m.variants.iter().map(|v| v.id.as_str()).collect();
    ids.extend(m.presets.iter().map(|p| p.id.as_str()));
    for (i, id) in ids.iter().enumerate() {
        if ids[..i].contains(id) {
            problems.push(format!("id `{id}` is used twice"));
        }
        if id.is_empty()
            || !id
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_')
        {
            problems.push(format!(
                "id `{id}` is not a plain id (letters, digits, - and _)"
            ));
        }
    }
    for p in m.presets.iter() {
        if p.hooks.0 & !HookSet::KNOWN.0 != 0 {
            problems.push(format!(
                "preset `{}` declares hooks this host does not know ({:#x})",
                p.id,
                p.hooks.0 & !HookSet::KNOWN.0
            ));
        }
        if p.after_move_stages & !stage::KNOWN != 0 {
            problems.push(format!("preset `{}` declares unknown stages", p.id));
        }
        if p.after_move_stages != 0 && !p.hooks.intersects(HookSet::ON_AFTER_MOVE) {
            problems.push(format!(
                "preset `{}` declares after_move_stages but not the on_after_move hook",
                p.id
            ));
        }
        if p.hooks.contains(HookSet::ON_AFTER_MOVE) && p.after_move_stages == 0 {
            problems.push(format!("preset `{}` declares on_after_move but no stage in after_move_stages, so it never runs", p.id));
        }
        if let Some(Err(e)) = p.extra_value(EXTRA_ROLES).map(parse_roles) {
            problems.push(format!("preset `{}`: extra `{EXTRA_ROLES}`: {e}", p.id));
        }
        for o in p.options.iter() {
            if let Err(e) = o.validate(o.default.as_str()) {
                problems.push(format!(
                    "preset `{}`: option `{}`: the default: {e}",
                    p.id, o.key
                ));
            }
        }
        for r in p.requires.iter().chain(p.incompatible_with.iter()) {
            if !reg.presets().any(|(_, q)| q.id == *r) {
                c.add(
                    &subject,
                    "manifest",
                    Outcome::Note,
                    format!(
                        "preset `{}` names `{r}`, which no loaded plugin provides",
                        p.id
                    ),
                );
            }
        }
    }
    let api: ApiVersion = m.api_version;
    c.result(
        &subject,
        "manifest",
        if problems.is_empty() {
            Ok(format!(
                "{} variants, {} presets, API {api}",
                m.variants.len(),
                m.presets.len()
            ))
        } else {
            Err(problems.join("; "))
        },
    );
    for v in m.variants.iter() {
        c.check_variant(pl, v.id.as_str());
    }
    for p in m.presets.iter() {
        c.check_preset(pl, p);
    }
    Ok(Report {
        plugin: pl.id().to_string(),
        path: pl.path.display().to_string(),
        api_version: api.to_string(),
        checks: c.checks,
    })
}
