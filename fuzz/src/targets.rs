//! The fuzz targets: one per parser, each with the round trips its writer allows.

use crate::{Target, Verdict};
use houserules_chess::ChessPlugin;
use houserules_fairy::FairyPlugin;
use houserules_host::analyze::{Analyzer, Options};
use houserules_host::notation::{coordinate, parse_move, san};
use houserules_host::pgn::{write_record, Limits, Reader, Record, WrittenMove};
use houserules_host::{HostError, Pipeline, PresetSpec, Registry};
use houserules_modifiers::Modifiers;
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    root_module, Color, GenRequest, Move, Position, SquareSet, VariantRules,
};
use houserules_presets_v1::PresetsV1;
use houserules_rookmania::RookManiaPlugin;
use std::sync::Arc;

/// What the targets share: the plugins loaded in-process, and pipelines built once.
pub struct Context {
    /// The registry (chess, rookmania, fairy, presets-v1, modifiers, in-process).
    pub registry: &'static Registry,
    /// The same registry, as the protocol sessions take it.
    pub shared: Arc<Registry>,
    pipelines: Vec<(&'static str, Pipeline)>,
    /// An analyzer of records (its rules cache kept between inputs).
    pub analyzer: Analyzer<'static>,
    /// Pipelines built on demand ([`Context::pipeline_for`]), by variant and presets.
    built: Vec<(String, Pipeline)>,
    /// Positions of the move targets, per pipeline name.
    positions: Vec<(&'static str, Vec<Position>)>,
}

impl Context {
    /// Loads the plugins and builds the pipelines the targets use.
    pub fn new() -> Context {
        let mut reg = Registry::default();
        for m in [
            root_module::<ChessPlugin>(),
            root_module::<RookManiaPlugin>(),
            root_module::<FairyPlugin>(),
            root_module::<PresetsV1>(),
            root_module::<Modifiers>(),
        ] {
            reg.add_builtin(m).expect("a bundled plugin loads");
        }
        let shared = Arc::new(reg);
        // Never dropped: the pipelines of the targets borrow it for the whole run.
        let registry: &'static Registry = Box::leak(Box::new(shared.clone()));
        let build = |variant: &str, presets: &[&str]| {
            let specs: Vec<PresetSpec> = presets.iter().map(|p| p.parse().unwrap()).collect();
            Pipeline::build(registry, variant, None, &specs).expect("pipeline")
        };
        let pipelines = vec![
            ("chess", build("chess", &[])),
            ("chess-piece-hp", build("chess", &["piece-hp"])),
            ("rookmania", build("rookmania", &[])),
            ("mixedchess", build("mixedchess_v5", &[])),
            ("tictacrook", build("tictacrook_v1", &[])),
        ];
        let mut positions = Vec::new();
        for (name, fens) in [
            (
                "chess",
                &[
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                    "4k3/1P6/8/3pP3/8/8/6p1/R3K2R w KQ d6 0 1",
                    "1N2k3/8/8/8/8/8/8/R3K2N w Q - 0 1",
                ][..],
            ),
            (
                "rookmania",
                &["**bkh**/*ctrst*/ppppppp/*5*/**3**/*5*/PPPPPPP/*CTRST*/**BKH** w 22 0 1"][..],
            ),
            (
                "mixedchess",
                &["ynfckfny/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/YNFKCFNY[Pp] w - - 0 1"][..],
            ),
            (
                "tictacrook",
                &["8/8/8/8/8/8/8/8[PPPPPPPPpppppppp] w - - 0 1"][..],
            ),
        ] {
            let p = &pipelines
                .iter()
                .find(|(n, _)| *n == name)
                .expect("pipeline")
                .1;
            let list = fens
                .iter()
                .map(|f| p.game_start(f).expect("seed position"))
                .collect();
            positions.push((name, list));
        }
        Context {
            registry,
            shared,
            pipelines,
            built: Vec::new(),
            analyzer: Analyzer::new(registry, Options::default()),
            positions,
        }
    }

    /// The pipeline of a variant and presets, built on first use and kept.
    pub fn pipeline_for(
        &mut self,
        variant: &str,
        specs: &[PresetSpec],
    ) -> Result<&Pipeline, String> {
        let key = format!(
            "{variant}+{}",
            specs
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join("+")
        );
        if !self.built.iter().any(|(k, _)| *k == key) {
            let p = Pipeline::build(self.registry, variant, None, specs)
                .map_err(|e| format!("the rules {key}: {e}"))?;
            self.built.push((key.clone(), p));
        }
        Ok(&self
            .built
            .iter()
            .find(|(k, _)| *k == key)
            .expect("built above")
            .1)
    }

    fn pipeline(&self, name: &str) -> &Pipeline {
        &self
            .pipelines
            .iter()
            .find(|(n, _)| *n == name)
            .expect("a pipeline of the targets")
            .1
    }
}

impl Default for Context {
    fn default() -> Context {
        Context::new()
    }
}

/// A plugin panic caught at the boundary is a finding, never a verdict.
fn not_a_panic(e: &HostError) -> Result<(), String> {
    match e {
        HostError::PluginPanic { .. } => Err(format!("caught plugin panic: {e}")),
        _ => Ok(()),
    }
}

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// FEN of one pipeline: an accepted FEN generates moves, writes a FEN that reads back to the
/// same position, and that FEN is a fixed point of reading and writing.
fn fen(ctx: &mut Context, name: &str, data: &[u8]) -> Result<Verdict, String> {
    let p = ctx.pipeline(name);
    let fen = text(data);
    let pos = match p.parse_fen(&fen) {
        Ok(pos) => pos,
        Err(e) => {
            not_a_panic(&e)?;
            if !matches!(e, HostError::Fen { .. }) {
                return Err(format!("not a FEN error: {e}"));
            }
            // An error column points inside the FEN (characters, 0-based).
            if let HostError::Fen { error, .. } = &e {
                if error.column as usize > fen.chars().count() {
                    return Err(format!("column {} past the end: {e}", error.column));
                }
            }
            return Ok(Verdict::Rejected);
        }
    };
    let mut moves = RVec::new();
    if let Err(e) = p.legal_moves(&pos, &mut moves) {
        return Err(format!("accepted, but generating moves failed: {e}"));
    }
    let written = p.write_fen(&pos).map_err(|e| format!("write_fen: {e}"))?;
    let again = p
        .parse_fen(&written)
        .map_err(|e| format!("the written FEN `{written}` does not read back: {e}"))?;
    if !again.same_for_repetition(&pos)
        || again.halfmove_clock != pos.halfmove_clock
        || again.fullmove_number != pos.fullmove_number
    {
        return Err(format!(
            "`{fen}` -> `{written}` reads back as another position"
        ));
    }
    let twice = p.write_fen(&again).map_err(|e| format!("write_fen: {e}"))?;
    if twice != written {
        return Err(format!("not a fixed point: `{written}` -> `{twice}`"));
    }
    Ok(Verdict::Accepted)
}

/// A move as written (first byte: which seed position): an accepted move is legal, and its
/// SAN and coordinate form read back to it.
fn moves(ctx: &mut Context, name: &str, data: &[u8]) -> Result<Verdict, String> {
    let Some((&which, rest)) = data.split_first() else {
        return Ok(Verdict::Rejected);
    };
    let positions = &ctx
        .positions
        .iter()
        .find(|(n, _)| *n == name)
        .expect("positions")
        .1;
    let pos = &positions[which as usize % positions.len()];
    let p = ctx.pipeline(name);
    let mut legal = RVec::new();
    p.legal_moves(pos, &mut legal)
        .map_err(|e| format!("legal moves: {e}"))?;
    let move_text = text(rest);
    let m: Move = match parse_move(p, pos, &move_text, &legal) {
        Ok(m) => m,
        Err(e) => {
            not_a_panic(&e)?;
            return Ok(Verdict::Rejected);
        }
    };
    if !legal.contains(&m) {
        return Err(format!("`{move_text}` read as a move that is not legal"));
    }
    let s = san(p, pos, m, &legal).map_err(|e| format!("san: {e}"))?;
    let c = coordinate(p, pos, m).map_err(|e| format!("coordinate: {e}"))?;
    for form in [&s, &c] {
        match parse_move(p, pos, form, &legal) {
            Ok(back) if back == m => {}
            Ok(_) => {
                return Err(format!(
                    "`{move_text}`: `{form}` reads back as another move"
                ))
            }
            Err(e) => return Err(format!("`{move_text}`: `{form}` does not read back: {e}")),
        }
    }
    Ok(Verdict::Accepted)
}

/// Small limits, so that every limit of the reader is reached by fuzzed input.
const SMALL: Limits = Limits {
    nesting: 6,
    moves: 40,
    token_bytes: 12,
    comment_bytes: 48,
    tags: 6,
    tag_value_bytes: 24,
    errors: 5,
    line_bytes: 300,
};

/// PGN: the reader keeps its limits, a record survives its binary form, and a record read
/// without error, written in normal form, reads back with the same tags, moves and result.
fn pgn(_: &mut Context, data: &[u8]) -> Result<Verdict, String> {
    let mut any_clean = false;
    for limits in [Limits::default(), SMALL] {
        let mut reader = Reader::with_limits(data, limits);
        let mut n = 0;
        while let Some(r) = reader.next_record().map_err(|e| format!("read: {e}"))? {
            n += 1;
            if n > data.len() + 1 {
                return Err("more records than bytes".into());
            }
            check_record(&r, &limits)?;
            if r.errors.is_empty() && limits == Limits::default() && writable(&r) {
                any_clean = true;
                round_trip(&r)?;
            }
        }
    }
    Ok(if any_clean {
        Verdict::Accepted
    } else {
        Verdict::Rejected
    })
}

fn check_record(r: &Record, limits: &Limits) -> Result<(), String> {
    if r.errors.len() > limits.errors + 1 {
        return Err(format!(
            "{} errors listed, limit {}",
            r.errors.len(),
            limits.errors
        ));
    }
    if r.tags.len() > limits.tags {
        return Err(format!("{} tags, limit {}", r.tags.len(), limits.tags));
    }
    let mut stored = r.moves.len();
    let mut stack: Vec<(usize, &[houserules_host::pgn::MoveToken])> = vec![(0, &r.moves)];
    while let Some((depth, line)) = stack.pop() {
        if depth > limits.nesting {
            return Err(format!("variations {depth} deep, limit {}", limits.nesting));
        }
        for tok in line {
            if tok.text(r).len() > limits.token_bytes.max(3) {
                return Err(format!("a token of {} bytes", tok.text(r).len()));
            }
            for v in r.variations(tok) {
                stored += v.len();
                stack.push((depth + 1, v));
            }
        }
    }
    if stored > limits.moves {
        return Err(format!("{stored} moves stored, limit {}", limits.moves));
    }
    let mut b = Vec::new();
    r.encode(&mut b);
    match Record::decode(&b) {
        Some(back) if back == *r => Ok(()),
        _ => Err("the record does not survive its binary form".into()),
    }
}

/// Whether every move of the main line is made of what a writer writes (SAN and coordinate
/// moves: letters, digits, `x - = + # @ : ! ?`): the normal form is written from moves the
/// rules resolved, never from arbitrary tokens.
fn writable(r: &Record) -> bool {
    r.moves.iter().all(|m| {
        let t = m.text(r);
        !t.is_empty()
            && t.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"x-=+#@:!?".contains(&b))
    })
}

fn round_trip(r: &Record) -> Result<(), String> {
    let tags: Vec<(String, String)> = r
        .tags
        .iter()
        .map(|t| (t.name.clone(), t.value.clone()))
        .collect();
    let moves: Vec<WrittenMove> = r
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| WrittenMove {
            white: i % 2 == 0,
            fullmove: 1 + i as u32 / 2,
            san: m.text(r).to_string(),
        })
        .collect();
    let result = r.result.as_ref().map_or("*", |(s, _)| s.as_str());
    let written = write_record(&tags, &moves, result);
    let back = houserules_host::pgn::read_all(&written);
    let [b] = &back[..] else {
        return Err(format!(
            "the written record reads as {} records:\n{written}",
            back.len()
        ));
    };
    if !b.errors.is_empty() {
        return Err(format!(
            "the written record has errors {:?}:\n{written}",
            b.errors
        ));
    }
    let texts =
        |x: &Record| -> Vec<String> { x.moves.iter().map(|m| m.text(x).to_string()).collect() };
    if texts(b) != texts(r) {
        return Err(format!(
            "moves {:?} read back as {:?}:\n{written}",
            texts(r),
            texts(b)
        ));
    }
    for (name, value) in &tags {
        if name == "Result" {
            continue;
        }
        let first = tags.iter().find(|(n, _)| n == name).map(|(_, v)| v);
        if first != Some(value) {
            continue; // a repeated tag: the writer keeps the first
        }
        // By exact name: the writer keeps names as written (`Record::tag` ignores case).
        let back = b
            .tags
            .iter()
            .find(|t| &t.name == name)
            .map(|t| t.value.as_str());
        if back != Some(value.as_str()) {
            return Err(format!(
                "tag {name} = {value:?} reads back as {back:?}:\n{written}"
            ));
        }
    }
    if b.result.as_ref().map(|(s, _)| s.as_str()) != Some(result) {
        return Err(format!("result {result} lost:\n{written}"));
    }
    Ok(())
}

/// variants.ini: the parser and the variant builder never panic; every variant that builds
/// reads its start FEN, generates moves, and writes a FEN that reads back.
fn ini(_: &mut Context, data: &[u8]) -> Result<Verdict, String> {
    let source = text(data);
    let (_, errors) = houserules_fairy::ini::parse("fuzz.ini", &source);
    for e in &errors {
        if e.loc.line == 0 || e.loc.line > source.lines().count().max(1) {
            return Err(format!(
                "error at line {} of {}",
                e.loc.line,
                source.lines().count()
            ));
        }
    }
    let reg = houserules_fairy::Registry::from_sources(&[("fuzz.ini".to_string(), source)]);
    let mut any = false;
    for (id, v) in reg.variants() {
        let Ok(v) = v else { continue };
        any = true;
        let info = v.info();
        for layout in info.layouts.iter() {
            let pos = match v.parse_fen(layout.fen.as_str()) {
                Ok(p) => p,
                Err(_) => continue, // a bad startFen is the section's error at use
            };
            let mut out = RVec::new();
            v.generate(
                &pos,
                &GenRequest::new(pos.side_to_move, true, SquareSet::EMPTY),
                &mut out,
            );
            v.generate(
                &pos,
                &GenRequest::new(Color::Black, false, SquareSet::EMPTY),
                &mut out,
            );
            let w = v.write_fen(&pos);
            match v.parse_fen(&w) {
                Ok(back) if back.same_for_repetition(&pos) => {}
                Ok(_) => return Err(format!("[{id}]: `{w}` reads back as another position")),
                Err(e) => return Err(format!("[{id}]: written FEN `{w}` does not read: {e}")),
            }
        }
    }
    Ok(if any {
        Verdict::Accepted
    } else {
        Verdict::Rejected
    })
}

/// Modifier JSON: the parser never panics, refusals name a JSON path, and a descriptor reads
/// the same from its JSON re-serialized.
fn modifier(_: &mut Context, data: &[u8]) -> Result<Verdict, String> {
    let source = text(data);
    match houserules_modifiers::parse::parse("fuzz.json", &source) {
        Ok(d) => {
            let value: serde_json::Value = serde_json::from_str(&source)
                .map_err(|e| format!("accepted, but not JSON to serde_json: {e}"))?;
            let again = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())?;
            match houserules_modifiers::parse::parse("fuzz.json", &again) {
                Ok(d2) if d2 == d => Ok(Verdict::Accepted),
                Ok(_) => Err("the re-serialized JSON reads as another descriptor".into()),
                Err(e) => Err(format!("the re-serialized JSON is refused: {e}")),
            }
        }
        Err(e) => {
            let msg = e.to_string();
            if !msg.starts_with("fuzz.json") {
                return Err(format!("the refusal does not name the file: {msg}"));
            }
            Ok(Verdict::Rejected)
        }
    }
}

const FEN_DICT: &[&str] = &[
    "/",
    " w ",
    " b ",
    " KQkq ",
    " - ",
    "8",
    "[",
    "]",
    "{Hp:e1=1}",
    "{@host.phase=1}",
    "*",
    "+",
    "~",
    "e3",
    "d6",
    "K",
    "k",
    "Q",
    "q",
    "P",
    "p",
    "Y",
    "C",
    "F",
    "T",
    "S",
    "H",
];
const MOVE_DICT: &[&str] = &[
    "O-O", "O-O-O", "0-0", "=Q", "=N", "x", "+", "#", "@", "P@", "e8", "a1", "h1", "N", "K", "Q",
    "R", "B", "!", "?", "e2e4", "e7e8q", "--",
];
const PGN_DICT: &[&str] = &[
    "[Event \"x\"]\n",
    "[FEN \"",
    "\"]",
    "{",
    "}",
    "(",
    ")",
    ";",
    "\n%",
    "$1",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "1.",
    "1...",
    "\n\n",
    "\\\"",
    "Nf3",
    "e4",
    "O-O",
    "\r\n",
    "\u{feff}",
];
const INI_DICT: &[&str] = &[
    "[",
    "]",
    ":chess]",
    " = ",
    "\n",
    "#",
    ";",
    "startFen",
    "pieceToCharTable",
    "customPiece1",
    "maxRank",
    "maxFile",
    "promotionPieceTypes",
    "pieceDrops",
    "castling",
    "true",
    "false",
    "n:N",
    "k:K",
    "mW",
    "cF",
    "fmW",
    "WfceF",
    "-",
    "8",
    "10",
    "12",
];
const JSON_DICT: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    "\"",
    ":",
    ",",
    "\"id\"",
    "\"triggers\"",
    "\"kind\"",
    "\"on-capture\"",
    "\"effects\"",
    "\"add-to-attribute\"",
    "\"Hp\"",
    "null",
    "true",
    "-1",
    "1e400",
    "\\u0000",
];

const UCI_DICT: &[&str] = &[
    "uci\n",
    "isready\n",
    "ucinewgame\n",
    "position startpos moves ",
    "position fen ",
    " moves ",
    "go depth 1\n",
    "go nodes 50\n",
    "go movetime 5\n",
    "go wtime 100 btime 100 winc 0 binc 0\n",
    "go infinite\n",
    "go perft 1\n",
    "stop\n",
    "setoption name UCI_Variant value ",
    "setoption name Presets value ",
    "setoption name Layout value ",
    "setoption name Modifiers value ",
    "setoption name UCI_Chess960 value true\n",
    "setoption name Skill Level value 0\n",
    "setoption name MultiPV value 3\n",
    "go depth 2 searchmoves ",
    " searchmoves ",
    "go mate 2\n",
    "go ponder wtime 100 btime 100\n",
    "ponderhit\n",
    "setoption name Ponder value true\n",
    "chess",
    "mixedchess_v5",
    "tictacrook_v1",
    "rookmania",
    "crazyhouse",
    "xiangqi",
    "shogi",
    "piece-hp",
    "double-move",
    "P@e4",
    "e1g1",
    "e7e8q",
    "0000",
    "d\n",
    "quit\n",
];

const XBOARD_DICT: &[&str] = &[
    "xboard\n",
    "protover 2\n",
    "new\n",
    "force\n",
    "go\n",
    "usermove ",
    "setboard ",
    "variant ",
    "ping 1\n",
    "time 100\n",
    "otim 100\n",
    "level 40 5 0\n",
    "st 1\n",
    "sd 1\n",
    "undo\n",
    "remove\n",
    "result 1-0 {x}\n",
    "post\n",
    "nopost\n",
    "option Skill Level=3\n",
    "option MultiPV=2\n",
    "analyze\n",
    "exit\n",
    ".\n",
    "?\n",
    "normal",
    "fischerandom",
    "mixedchess_v5",
    "crazyhouse",
    "xiangqi",
    "e2e4",
    "h2e2",
    "P@e4",
    "quit\n",
];

const PLAY_DICT: &[&str] = &[
    "e4\n",
    "e2e4\n",
    "Nf3\n",
    "O-O\n",
    "0-0-0\n",
    "exd5\n",
    "e8=Q\n",
    "P@e4\n",
    "undo\n",
    "takeback\n",
    "draw\n",
    "yes\n",
    "no\n",
    "resign\n",
    "moves\n",
    "fen\n",
    "flip\n",
    "board\n",
    "help\n",
    "quit\n",
    "1. e4 e5\n",
    "Qxf7#\n",
    "x\n",
];

/// Every target.
pub const TARGETS: &[Target] = &[
    Target {
        name: "fen-chess",
        max_len: 512,
        dictionary: FEN_DICT,
        run: |c, d| fen(c, "chess", d),
    },
    Target {
        name: "fen-chess-piece-hp",
        max_len: 512,
        dictionary: FEN_DICT,
        run: |c, d| fen(c, "chess-piece-hp", d),
    },
    Target {
        name: "fen-rookmania",
        max_len: 512,
        dictionary: FEN_DICT,
        run: |c, d| fen(c, "rookmania", d),
    },
    Target {
        name: "fen-fairy-mixedchess",
        max_len: 512,
        dictionary: FEN_DICT,
        run: |c, d| fen(c, "mixedchess", d),
    },
    Target {
        name: "fen-fairy-tictacrook",
        max_len: 512,
        dictionary: FEN_DICT,
        run: |c, d| fen(c, "tictacrook", d),
    },
    Target {
        name: "moves-chess",
        max_len: 64,
        dictionary: MOVE_DICT,
        run: |c, d| moves(c, "chess", d),
    },
    Target {
        name: "moves-rookmania",
        max_len: 64,
        dictionary: MOVE_DICT,
        run: |c, d| moves(c, "rookmania", d),
    },
    Target {
        name: "moves-fairy",
        max_len: 64,
        dictionary: MOVE_DICT,
        run: |c, d| moves(c, "mixedchess", d),
    },
    Target {
        name: "moves-fairy-drops",
        max_len: 64,
        dictionary: MOVE_DICT,
        run: |c, d| moves(c, "tictacrook", d),
    },
    Target {
        name: "pgn",
        max_len: 8192,
        dictionary: PGN_DICT,
        run: pgn,
    },
    Target {
        name: "fairy-ini",
        max_len: 4096,
        dictionary: INI_DICT,
        run: ini,
    },
    Target {
        name: "modifier-json",
        max_len: 4096,
        dictionary: JSON_DICT,
        run: modifier,
    },
    Target {
        name: "uci",
        max_len: 2048,
        dictionary: UCI_DICT,
        run: crate::sessions::uci,
    },
    Target {
        name: "xboard",
        max_len: 2048,
        dictionary: XBOARD_DICT,
        run: crate::sessions::xboard,
    },
    Target {
        name: "play",
        max_len: 2048,
        dictionary: PLAY_DICT,
        run: crate::sessions::play,
    },
];
