//! `houserules xboard`: the Chess Engine Communication Protocol (CECP v2, XBoard/WinBoard).
//!
//! Variants are offered by id (FIDE chess as `normal`). For a rule set that is not 8x8 chess
//! the engine tells the GUI the board and the pieces after `variant`, as Fairy-Stockfish
//! does: `setup (PIECETOCHAR) WxH+POCKET_fairy FEN`, then one `piece X& BETZA` per piece
//! kind. Moves are in the host's coordinate form (`e2e4`, `e7e8q`, `P@e4`); the engine's
//! moves are sent as `move ...`, the end of a game as `1-0 {reason}`.
//!
//! Input runs on a reader thread (see [`crate::uci::Input`]): `?` makes the engine move now,
//! `quit`, `force`, `new`, `result` and `setboard` stop a search.
//!
//! Analysis (`analyze` ... `exit`): the engine thinks about the position without end and
//! without moving, its thinking always shown (`MultiPV` lines each); any command stops it,
//! is served (moves, `undo`, `setboard`, `new`, ...), and the analysis starts again on the
//! position then, until `exit`.

use crate::engine::{Clock, Engine, Focus, Limits, Score, SearchInfo};
use crate::error::HostError;
use crate::game::Game;
use crate::loader::PluginSearch;
use crate::pipeline::Pipeline;
use crate::uci::{
    find_move, EngineOptions, Input, InputLine, Output, Rules, RulesChoice, SetPosition,
};
use houserules_plugin_api::{Color, Position, Role, VariantFlags};
use std::io::{BufRead, Write};
use std::time::Duration;

fn stops_xboard(line: &str) -> bool {
    let cmd = line.split_whitespace().next().unwrap_or("");
    matches!(
        cmd,
        "?" | "quit" | "force" | "new" | "result" | "setboard" | "exit"
    )
}

fn answer_xboard(_line: &str) -> Option<String> {
    None
}

/// The id XBoard uses for a variant: `normal` for FIDE chess.
pub fn xboard_name(variant: &str) -> &str {
    if variant == "chess" {
        "normal"
    } else {
        variant
    }
}

/// The time control of `level`/`st`, and the clocks of `time`/`otim`.
#[derive(Debug, Clone, Default)]
struct TimeState {
    /// `level MPS BASE INC`: moves per period (0: whole game), increment.
    moves_per_period: u32,
    increment: Duration,
    /// `st N`: seconds per move.
    per_move: Option<Duration>,
    /// `sd N`.
    depth: Option<u32>,
    /// `time N` (the engine's clock).
    engine_clock: Option<Duration>,
}

/// Reads the base time of `level`: minutes, or `min:sec`.
fn level_base(text: &str) -> Option<Duration> {
    match text.split_once(':') {
        Some((m, s)) => {
            let m: u64 = m.parse().ok()?;
            let s: u64 = s.parse().ok()?;
            Some(Duration::from_secs(m * 60 + s))
        }
        None => {
            let m: f64 = text.parse().ok()?;
            (0.0..1e6)
                .contains(&m)
                .then(|| Duration::from_secs_f64(m * 60.0))
        }
    }
}

/// The CECP `setup` and `piece` commands for a rule set that is not 8x8 chess (none for chess
/// itself). The piece-to-char table gives each kind one of XBoard's piece slots (pawn,
/// knight, bishop, rook, queen first; the king last; others in the generic slots between),
/// which only chooses the picture: the moves come with the `piece` commands.
pub fn setup_commands(p: &Pipeline, start: &Position) -> Result<Vec<String>, HostError> {
    let info = &p.info;
    let fen = p.write_fen(start)?;
    let chess_like =
        p.variant_id() == "chess" && p.presets.is_empty() && info.files == 8 && info.ranks == 8;
    if chess_like {
        return Ok(Vec::new());
    }
    // XBoard's slots: 0 pawn, 1 knight, 2 bishop, 3 rook, 4 queen, 5..=20 fairy pieces,
    // 21 king.
    const SLOTS: usize = 22;
    let mut table = [b'.'; SLOTS];
    let mut overflow = false;
    // The promoted forms (`+P`) are written by XBoard itself; they take no slot.
    let kinds: Vec<(usize, u8, Role, bool)> = info
        .pieces
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.promoted_prefix)
        .map(|(i, t)| (i, t.letter, t.role, t.royal))
        .collect();
    let mut placed = vec![false; kinds.len()];
    let preferred = |role: Role, royal: bool| -> Option<usize> {
        if royal || role == Role::KING {
            Some(21)
        } else if role == Role::PAWN {
            Some(0)
        } else if role == Role::KNIGHT {
            Some(1)
        } else if role == Role::BISHOP {
            Some(2)
        } else if role == Role::ROOK {
            Some(3)
        } else if role == Role::QUEEN {
            Some(4)
        } else {
            None
        }
    };
    for (k, &(_, letter, role, royal)) in kinds.iter().enumerate() {
        if let Some(s) = preferred(role, royal) {
            if table[s] == b'.' {
                table[s] = letter;
                placed[k] = true;
            }
        }
    }
    for (k, &(_, letter, _, _)) in kinds.iter().enumerate() {
        if placed[k] {
            continue;
        }
        match (5..21).find(|&s| table[s] == b'.') {
            Some(s) => table[s] = letter,
            None => overflow = true,
        }
    }
    if overflow {
        return Ok(vec![format!(
            "telluser houserules: {} has more piece kinds than XBoard has pictures; the board may look wrong",
            p.variant_id()
        )]);
    }
    let white: String = table.iter().map(|&c| c as char).collect();
    let black = white.to_ascii_lowercase();
    // As Fairy-Stockfish counts it: every kind has a place in the holdings.
    let pocket = if info.flags.contains(VariantFlags::DROPS) {
        kinds.len()
    } else {
        0
    };
    let mut out = vec![format!(
        "setup ({white}{black}) {}x{}+{pocket}_fairy {fen}",
        info.files, info.ranks
    )];
    if let Some(model) = p.rules_model_in_force()? {
        for &(i, letter, _, _) in &kinds {
            if let Some(m) = model.pieces.get(i) {
                out.push(format!("piece {}& {}", letter as char, m.betza));
            }
        }
    }
    Ok(out)
}

/// Runs an XBoard session on `input`/`output`.
pub fn run(
    search: PluginSearch,
    choice: RulesChoice,
    input: Box<dyn BufRead + Send>,
    output: Box<dyn Write + Send>,
) -> Result<(), HostError> {
    serve(Rules::new(search, choice)?, input, output);
    Ok(())
}

/// Runs an XBoard session over loaded plugins; returns when `quit` arrives or the input
/// ends. Nothing a GUI sends ends it otherwise: errors are `Error`/`tellusererror` lines.
pub fn serve(mut rules: Rules, input: Box<dyn BufRead + Send>, output: Box<dyn Write + Send>) {
    let out = Output::new(output);
    let input = Input::spawn(input, out.clone(), stops_xboard, answer_xboard);
    let mut s = Session {
        out: out.clone(),
        input,
        engine_options: EngineOptions::default(),
        force: false,
        engine_side: Some(Color::Black),
        post: false,
        time: TimeState::default(),
        pending_setboard: None,
        announced: false,
        fischer_random: false,
        analysing: false,
        rng: crate::play::Rng::new(0x5EED),
    };
    loop {
        let pipeline = match rules.pipeline() {
            Ok(p) => Some(p),
            Err(e) => {
                out.line(&format!("tellusererror houserules: {e}"));
                None
            }
        };
        match s.serve(&mut rules, pipeline.as_ref()) {
            Flow::Quit => return,
            Flow::Rebuild => {}
        }
    }
}

enum Flow {
    Quit,
    Rebuild,
}

struct Session {
    out: Output,
    input: Input,
    engine_options: EngineOptions,
    force: bool,
    engine_side: Option<Color>,
    post: bool,
    time: TimeState,
    /// A `setboard` to apply after the rules are rebuilt.
    pending_setboard: Option<String>,
    /// The choices of a `Skill Level` below full (seeded: a session replays alike).
    rng: crate::play::Rng,
    /// Whether the `setup` of the current rules was sent.
    announced: bool,
    /// `variant fischerandom`: chess from the GUI's `setboard`, castles written `O-O`.
    fischer_random: bool,
    /// In analysis mode (`analyze` until `exit`).
    analysing: bool,
}

impl Session {
    fn serve(&mut self, rules: &mut Rules, pipeline: Option<&Pipeline>) -> Flow {
        let out = self.out.clone();
        let mut engine: Option<Engine<'_>> = None;
        let mut position: Option<SetPosition> = pipeline.and_then(|p| {
            p.start_position().ok().map(|start| SetPosition {
                start,
                moves: Vec::new(),
            })
        });
        if let (Some(p), Some(fen)) = (pipeline, self.pending_setboard.take()) {
            match p.game_start(&fen) {
                Ok(start) => {
                    position = Some(SetPosition {
                        start,
                        moves: Vec::new(),
                    })
                }
                Err(e) => out.line(&format!("tellusererror Illegal position: {e}")),
            }
        }
        if let (Some(p), Some(pos), false) = (pipeline, position.as_ref(), self.announced) {
            self.announced = true;
            match setup_commands(p, &pos.start) {
                Ok(lines) => lines.iter().for_each(|l| out.line(l)),
                Err(e) => out.line(&format!("telluser houserules: {e}")),
            }
        }
        let mut game_over = false;
        // Whether the analysis (in analysis mode) starts again: after any command but
        // `exit` and a quiet `.`, and at first (the rules rebuilt by a `variant` or `new`
        // while analysing).
        let mut analyse_again = true;
        loop {
            if let (true, true, Some(p), Some(pos)) =
                (self.analysing, analyse_again, pipeline, position.as_ref())
            {
                self.analyse(p, pos, &mut engine);
            }
            let line = self.input.next();
            analyse_again = !matches!(line.text.as_str(), "" | "." | "exit");
            let text = line.text.clone();
            let mut words = text.split_whitespace();
            let cmd = words.next().unwrap_or("");
            let rest: Vec<&str> = words.collect();
            let arg = rest.join(" ");
            match cmd {
                // Nothing to do: a GUI's notices, options this engine ignores, `?` when not
                // thinking, `otim` (the engine plans with its own clock).
                "" | "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy"
                | "computer" | "name" | "rating" | "ics" | "draw" | "otim" | "?" | "." | "hint"
                | "bk" => {}
                "nopost" => self.post = false,
                "post" => self.post = true,
                "quit" => return Flow::Quit,
                "analyze" => self.analysing = true,
                "exit" => self.analysing = false,
                "protover" => {
                    let ids = rules.variant_ids();
                    let mut vars: Vec<String> =
                        ids.iter().map(|v| xboard_name(v).to_string()).collect();
                    if ids.iter().any(|v| v == "chess") {
                        vars.insert(1, "fischerandom".to_string());
                    }
                    out.line(&format!(
                        "feature myname=\"{}\" variants=\"{}\" setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 time=1 colors=0 draw=0 reuse=1 analyze=1 san=0 name=0",
                        crate::uci::ENGINE_NAME,
                        vars.join(",")
                    ));
                    out.line(&format!(
                        "feature option=\"Skill Level -spin {0} 0 {0}\"",
                        crate::engine::skill::FULL
                    ));
                    out.line(&format!(
                        "feature option=\"MultiPV -spin 1 1 {}\"",
                        crate::uci::MAX_MULTIPV
                    ));
                    out.line("feature done=1");
                }
                "ping" => out.line(&format!("pong {arg}")),
                // `option NAME=VALUE`, for the options of `feature option`.
                "option" => match arg.split_once('=') {
                    Some((name, value)) if name.trim().eq_ignore_ascii_case("skill level") => {
                        // The range check of UCI's `Skill Level`.
                        let max = crate::engine::skill::FULL as usize;
                        match crate::uci::spin_from(name, value, 0, max) {
                            Ok(n) => self.engine_options.level = n as u8,
                            Err(_) => out.line(&format!("Error (bad option value): {text}")),
                        }
                    }
                    Some((name, value)) if name.trim().eq_ignore_ascii_case("multipv") => {
                        let max = crate::uci::MAX_MULTIPV;
                        match crate::uci::spin_from(name, value, 1, max) {
                            Ok(n) => self.engine_options.multipv = n,
                            Err(_) => out.line(&format!("Error (bad option value): {text}")),
                        }
                    }
                    _ => out.line(&format!("Error (unknown option): {text}")),
                },
                "new" => {
                    self.force = false;
                    self.fischer_random = false;
                    self.engine_side = Some(Color::Black);
                    self.time.depth = None;
                    let was = rules.choice.variant.clone();
                    rules.choice.variant = "chess".into();
                    rules.choice.layout = None;
                    if was != "chess" || pipeline.is_none() {
                        self.announced = false;
                        return Flow::Rebuild;
                    }
                    if let Some(e) = engine.as_mut() {
                        e.new_game();
                    }
                    position = pipeline.and_then(|p| {
                        p.start_position().ok().map(|start| SetPosition {
                            start,
                            moves: Vec::new(),
                        })
                    });
                    game_over = false;
                }
                "variant" => {
                    // Chess960 is chess whose start the GUI sends by `setboard`.
                    self.fischer_random = arg == "fischerandom";
                    let id = if arg == "normal" || arg == "fischerandom" {
                        "chess".to_string()
                    } else {
                        arg.clone()
                    };
                    if !rules.variant_ids().contains(&id) {
                        out.line(&format!("Error (unknown variant): {arg}"));
                        continue;
                    }
                    rules.choice.variant = id;
                    self.announced = false;
                    return Flow::Rebuild;
                }
                "setboard" => match pipeline {
                    None => out.line("tellusererror Illegal position: the rules are not usable"),
                    Some(p) => match p.game_start(&arg) {
                        Ok(start) => {
                            position = Some(SetPosition {
                                start,
                                moves: Vec::new(),
                            });
                            game_over = false;
                        }
                        Err(e) => out.line(&format!("tellusererror Illegal position: {e}")),
                    },
                },
                "force" => self.force = true,
                "white" | "black" => {
                    // Protocol 1: the side to move is set, the engine plays the other.
                    self.engine_side = Some(if cmd == "white" {
                        Color::Black
                    } else {
                        Color::White
                    });
                }
                "playother" => {
                    if let (Some(p), Some(pos)) = (pipeline, position.as_ref()) {
                        if let Ok(g) = pos.game(p) {
                            self.engine_side = Some(g.position.side_to_move.opposite());
                        }
                    }
                    self.force = false;
                }
                "level" => {
                    if rest.len() < 3 {
                        out.line(&format!("Error (level needs MPS BASE INC): {text}"));
                        continue;
                    }
                    match (
                        rest[0].parse::<u32>(),
                        level_base(rest[1]),
                        rest[2].parse::<f64>(),
                    ) {
                        (Ok(mps), Some(_), Ok(inc)) if (0.0..1e6).contains(&inc) => {
                            self.time.moves_per_period = mps;
                            self.time.increment = Duration::from_secs_f64(inc);
                            self.time.per_move = None;
                        }
                        _ => out.line(&format!("Error (bad level): {text}")),
                    }
                }
                "st" => match arg.parse::<f64>() {
                    Ok(s) if (0.0..1e6).contains(&s) => {
                        self.time.per_move = Some(Duration::from_secs_f64(s))
                    }
                    _ => out.line(&format!("Error (bad st): {text}")),
                },
                "sd" => match arg.parse::<u32>() {
                    Ok(d) if d > 0 => self.time.depth = Some(d),
                    _ => out.line(&format!("Error (bad sd): {text}")),
                },
                "time" => match arg.parse::<i64>() {
                    Ok(cs) => {
                        self.time.engine_clock = Some(Duration::from_millis(cs.max(0) as u64 * 10))
                    }
                    _ => out.line(&format!("Error (bad time): {text}")),
                },
                "result" => {
                    game_over = true;
                    self.force = true;
                }
                "undo" | "remove" => {
                    let n = if cmd == "undo" { 1 } else { 2 };
                    if let Some(pos) = position.as_mut() {
                        if pos.moves.len() < n {
                            out.line(&format!("Error (no move to take back): {cmd}"));
                        } else {
                            pos.moves.truncate(pos.moves.len() - n);
                            game_over = false;
                        }
                    }
                }
                "usermove" => {
                    let (Some(p), Some(pos)) = (pipeline, position.as_mut()) else {
                        out.line(&format!("Illegal move (no rules in force): {arg}"));
                        continue;
                    };
                    let text = squares_from_xboard(&arg, pos.start.ranks());
                    let played = pos
                        .game(p)
                        .map_err(|e| e.to_string())
                        .and_then(|g| find_move(&g, &text).map(|m| (m, g.position.side_to_move)));
                    match played {
                        Err(e) => {
                            out.line(&format!("Illegal move ({e}): {arg}"));
                            continue;
                        }
                        Ok((m, _)) => pos.moves.push(m),
                    }
                    if let Some(r) = self.report_end(p, pos) {
                        game_over = r;
                    }
                    if !self.force && !game_over && !self.analysing {
                        game_over = self.think_and_move(p, pos, &line, &mut engine);
                    }
                }
                "go" => {
                    self.force = false;
                    let (Some(p), Some(pos)) = (pipeline, position.as_mut()) else {
                        out.line("Error (no rules in force): go");
                        continue;
                    };
                    if let Ok(g) = pos.game(p) {
                        self.engine_side = Some(g.position.side_to_move);
                    }
                    if !game_over {
                        game_over = self.think_and_move(p, pos, &line, &mut engine);
                    }
                }
                "memory" | "cores" => {
                    if let Ok(n) = arg.parse::<usize>() {
                        if cmd == "memory" {
                            self.engine_options.hash_mb = n.clamp(1, crate::uci::MAX_HASH_MB);
                        } else {
                            self.engine_options.threads = n.clamp(1, crate::uci::MAX_THREADS);
                        }
                        engine = None;
                    }
                }
                _ => out.line(&format!("Error (unknown command): {cmd}")),
            }
        }
    }

    /// Analyses the position until there is a command to serve (or the search ends by
    /// itself, at a forced mate): thinking output for every line of every depth, no move.
    fn analyse<'p>(&mut self, p: &'p Pipeline, pos: &SetPosition, engine: &mut Option<Engine<'p>>) {
        let out = &self.out;
        let Ok(game) = pos.game(p) else {
            return;
        };
        if game.status().map_or(true, |s| s.outcome.is_some()) {
            return;
        }
        if engine.is_none() {
            match Engine::new(p, self.engine_options.config()) {
                Ok(e) => *engine = Some(e),
                Err(e) => {
                    out.line(&format!("telluser houserules: engine: {e}"));
                    return;
                }
            }
        }
        let Some(eng) = engine.as_mut() else {
            return;
        };
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let focus = Focus {
            lines: self.engine_options.multipv,
            moves: Vec::new(),
        };
        let root = game.position.clone();
        let fischer_random = self.fischer_random;
        self.input.arm_analysis();
        let result = eng.analyse(&game, &limits, &focus, &self.input.stop, &mut |i| {
            out.line(&thinking_line(p, &root, i, fischer_random));
        });
        self.input.disarm();
        if let Err(e) = result {
            out.line(&format!("telluser houserules: analysis: {e}"));
        }
    }

    /// Prints the result if the game is over; `Some(true)` then.
    fn report_end(&self, p: &Pipeline, pos: &SetPosition) -> Option<bool> {
        let g = pos.game(p).ok()?;
        let status = g.status().ok()?;
        let (token, why) = match (status.outcome, status.claimable) {
            (Some(o), _) => (
                match o.winner.winning_color() {
                    Some(Color::White) => "1-0",
                    Some(Color::Black) => "0-1",
                    None => "1/2-1/2",
                },
                o.reason.to_string(),
            ),
            (None, Some(claim)) => ("1/2-1/2", format!("{claim} (claimed)")),
            (None, None) => return Some(false),
        };
        self.out.line(&format!("{token} {{{why}}}"));
        Some(true)
    }

    /// Searches for the side to move when it is the engine's, plays and sends the move.
    /// Returns whether the game is over.
    fn think_and_move<'p>(
        &mut self,
        p: &'p Pipeline,
        pos: &mut SetPosition,
        line: &InputLine,
        engine: &mut Option<Engine<'p>>,
    ) -> bool {
        let out = &self.out;
        let game: Game<'_> = match pos.game(p) {
            Ok(g) => g,
            Err(e) => {
                out.line(&format!("telluser houserules: {e}"));
                return false;
            }
        };
        if self.engine_side != Some(game.position.side_to_move) {
            return false;
        }
        if engine.is_none() {
            match Engine::new(p, self.engine_options.config()) {
                Ok(e) => *engine = Some(e),
                Err(e) => {
                    out.line(&format!("telluser houserules: engine: {e}"));
                    return false;
                }
            }
        }
        let Some(eng) = engine.as_mut() else {
            return false;
        };
        let limits = self.limits(&game);
        let root = game.position.clone();
        self.input.arm(line);
        let post = self.post;
        let fischer_random = self.fischer_random;
        let level = self.engine_options.level;
        let result = if level < crate::engine::skill::FULL {
            eng.choose_at_level(&game, &limits, level, &mut self.rng, &self.input.stop)
        } else {
            eng.search(&game, &limits, &self.input.stop, &mut |i: &SearchInfo| {
                if post {
                    out.line(&thinking_line(p, &root, i, fischer_random));
                }
            })
        };
        self.input.disarm();
        // Stopped by `force`, `new`, `result`, `setboard` or `quit`: no move (the GUI has
        // left this position); only `?` asks for the move now.
        if self.input.stopped_by().is_some_and(|l| l != "?") {
            return false;
        }
        let r = match result {
            Ok(r) => r,
            Err(e) => {
                out.line(&format!("telluser houserules: search: {e}"));
                return false;
            }
        };
        let Some(best) = r.best else {
            return self.report_end(p, pos).unwrap_or(false);
        };
        match self.move_text(p, &root, best) {
            Ok(text) => out.line(&format!("move {text}")),
            Err(e) => {
                out.line(&format!("telluser houserules: {e}"));
                return false;
            }
        }
        pos.moves.push(best);
        self.report_end(p, pos).unwrap_or(false)
    }

    fn limits(&self, game: &Game<'_>) -> Limits {
        let t = &self.time;
        let mut l = Limits {
            depth: t.depth,
            nodes: None,
            movetime: t.per_move,
            clock: None,
            infinite: false,
            mate: None,
        };
        if t.per_move.is_none() {
            if let Some(remaining) = t.engine_clock {
                // Moves the side to move made so far in the game.
                let made = (game.position.fullmove_number as usize).saturating_sub(1);
                let moves_to_go = (t.moves_per_period > 0).then(|| {
                    let per = t.moves_per_period as usize;
                    (per - made % per) as u32
                });
                l.clock = Some(Clock {
                    remaining,
                    increment: t.increment,
                    moves_to_go,
                });
            }
        }
        if l.depth.is_none() && l.movetime.is_none() && l.clock.is_none() {
            // No time control given: a few seconds a move.
            l.movetime = Some(Duration::from_secs(5));
        }
        l
    }
}

/// XBoard's pass (Fairy-Stockfish's too, in Othello and wherever a side may pass).
pub const PASS: &str = "@@@@";

/// Whether `m` is a pass: in the coordinate form, a piece's move onto its own square and
/// nothing more (`d3d3`, as Fairy-Stockfish writes a pass in UCI).
pub fn is_pass(p: &Pipeline, pos: &Position, m: houserules_plugin_api::Move) -> bool {
    m.from == m.to
        && !m.is_drop()
        && crate::notation::coordinate(p, pos, m).is_ok_and(|t| t == format!("{}{}", m.from, m.to))
}

/// The move `m`, written `text` in the coordinate form, as XBoard writes it: a pass as
/// `@@@@`, the ranks of a board of ten from 0.
pub fn xboard_text(
    p: &Pipeline,
    pos: &Position,
    m: houserules_plugin_api::Move,
    text: &str,
) -> String {
    if is_pass(p, pos, m) {
        PASS.to_string()
    } else {
        squares_to_xboard(text, pos.ranks())
    }
}

/// The pass among `legal`, if there is exactly one (the move XBoard's `@@@@` names).
pub fn pass_among(
    p: &Pipeline,
    pos: &Position,
    legal: &[houserules_plugin_api::Move],
) -> Option<houserules_plugin_api::Move> {
    let mut passes = legal.iter().filter(|&&m| is_pass(p, pos, m));
    match (passes.next(), passes.next()) {
        (Some(&m), None) => Some(m),
        _ => None,
    }
}

/// XBoard numbers the ranks of a board of ten from 0 (`a0`-`i9`: one digit each, the form
/// of its xiangqi and janggi, and of Fairy-Stockfish's CECP); houserules from 1. The squares
/// of a move in coordinate form (`h2e2`, `P@e4`, `b1a3c4`; a special's `:code` is left as it
/// is) in XBoard's numbering, for a board of `ranks` ranks.
pub fn squares_to_xboard(text: &str, ranks: u8) -> String {
    renumber(text, ranks, -1)
}

/// [`squares_to_xboard`] the other way: a move XBoard sent, in houserules' numbering.
pub fn squares_from_xboard(text: &str, ranks: u8) -> String {
    renumber(text, ranks, 1)
}

fn renumber(text: &str, ranks: u8, by: i64) -> String {
    if ranks != 10 {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if c == ':' {
            // A special move's code: not a square.
            out.push(c);
            out.extend(chars.map(|(_, c)| c));
            break;
        }
        out.push(c);
        if !c.is_ascii_lowercase() {
            continue;
        }
        let mut digits = String::new();
        while let Some(&(_, d)) = chars.peek() {
            if !d.is_ascii_digit() {
                break;
            }
            digits.push(d);
            chars.next();
        }
        match digits.parse::<i64>() {
            Ok(n) if n + by >= 0 => out.push_str(&(n + by).to_string()),
            _ => out.push_str(&digits),
        }
    }
    out
}

/// How castles are written: `O-O` / `O-O-O` in Fischer random chess (the form CECP gives
/// for it), else as any move.
fn castles(fischer_random: bool) -> crate::uci::CastleForm {
    if fischer_random {
        crate::uci::CastleForm::Symbols
    } else {
        crate::uci::CastleForm::KingTarget
    }
}

impl Session {
    /// A move as this session writes it to the GUI: XBoard's rank numbers, and the castles
    /// of Fischer random chess as [`castles`] says.
    fn move_text(
        &self,
        p: &Pipeline,
        pos: &Position,
        m: houserules_plugin_api::Move,
    ) -> Result<String, HostError> {
        let text = crate::uci::move_text(p, pos, m, castles(self.fischer_random))?;
        Ok(xboard_text(p, pos, m, &text))
    }
}

/// CECP thinking output: `depth score time(cs) nodes pv`, mate scores as 100000 + N.
pub fn thinking_line(
    p: &Pipeline,
    root: &Position,
    i: &SearchInfo,
    fischer_random: bool,
) -> String {
    let score = match i.score {
        Score::Cp(n) => n,
        Score::Mate(n) if n > 0 => 100_000 + n,
        Score::Mate(n) => -100_000 + n,
    };
    format!(
        "{} {} {} {} {}",
        i.depth,
        score,
        i.time.as_millis() / 10,
        i.nodes,
        crate::uci::line_text(p, root, &i.pv, castles(fischer_random))
            .iter()
            .map(|m| squares_to_xboard(m, root.ranks()))
            .collect::<Vec<_>>()
            .join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_base_times() {
        assert_eq!(level_base("5"), Some(Duration::from_secs(300)));
        assert_eq!(level_base("0:30"), Some(Duration::from_secs(30)));
        assert_eq!(level_base("x"), None);
        assert!(stops_xboard("?"));
        assert!(stops_xboard("result 1-0 {x}"));
        assert!(!stops_xboard("time 100"));
    }
}
