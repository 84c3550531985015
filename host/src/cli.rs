//! Command-line interface. The one place where errors become user messages and exit codes:
//! 0 success, 1 invalid input records (analysis), 2 usage, plugin or rule-assembly errors.

use clap::{Args, Parser, Subcommand};
use houserules_host::notation::{coordinate, parse_move, san};
use houserules_host::{perft, Game, HostError, Pipeline, PluginSearch, PresetSpec, Registry};
use houserules_plugin_api::{Color, HookSet, Position, Square};
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "houserules",
    version,
    about = "A chess-variant rules host: variants and presets are plugins loaded at run time."
)]
struct Cli {
    /// Also load plugins from this directory (repeatable).
    #[arg(long = "plugin-dir", global = true, value_name = "DIR")]
    plugin_dirs: Vec<PathBuf>,
    /// Load this plugin library (repeatable).
    #[arg(long = "plugin", global = true, value_name = "FILE")]
    plugins: Vec<PathBuf>,
    /// A variants.ini file (or directory of them) for the Fairy-Stockfish plugin (repeatable;
    /// appended to HOUSERULES_VARIANTS_PATH).
    #[arg(long = "variants", global = true, value_name = "FILE")]
    variants: Vec<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, Clone)]
struct Rules {
    /// Variant id (see `houserules list`).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Starting layout of the variant.
    #[arg(long)]
    layout: Option<String>,
    /// Preset to activate, with options: ID[:key=value,...] (repeatable).
    #[arg(long = "preset", value_name = "ID[:k=v,...]")]
    presets: Vec<String>,
}

#[derive(Subcommand)]
enum Command {
    /// List plugins, variants, layouts and presets.
    List {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Print the start position of a variant (and layout, presets) as FEN, or the position
    /// after --moves.
    Fen {
        #[command(flatten)]
        rules: Rules,
        /// Position to start from (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first (SAN or coordinate form, space-separated).
        #[arg(long, default_value = "")]
        moves: String,
    },
    /// List the legal moves of a position (SAN and coordinate form), check and result.
    Moves {
        #[command(flatten)]
        rules: Rules,
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first (SAN or coordinate form, space-separated).
        #[arg(long, default_value = "")]
        moves: String,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Count legal move paths of a given length.
    Perft {
        #[command(flatten)]
        rules: Rules,
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// Path length.
        #[arg(long)]
        depth: u32,
        /// Counts per root move.
        #[arg(long)]
        divide: bool,
        /// Worker threads (root moves are shared out).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Measure perft speed (nodes per second) on standard positions.
    Bench {
        #[command(flatten)]
        rules: Rules,
        /// Positions as FEN (default: the start position and, for chess, Kiwipete).
        #[arg(long)]
        fen: Vec<String>,
        /// Depth per position.
        #[arg(long, default_value_t = 5)]
        depth: u32,
        /// Worker threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
}

/// Runs the CLI and returns the exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", e);
            2
        }
    }
}

fn registry(cli: &Cli) -> Result<Registry, HostError> {
    if !cli.variants.is_empty() {
        // Plugins read their data paths when loaded; pass the files on before loading.
        let mut paths: Vec<PathBuf> = cli.variants.clone();
        if let Some(v) = std::env::var_os("HOUSERULES_VARIANTS_PATH") {
            paths.extend(std::env::split_paths(&v));
        }
        if let Ok(joined) = std::env::join_paths(paths) {
            std::env::set_var("HOUSERULES_VARIANTS_PATH", joined);
        }
    }
    let search = PluginSearch {
        files: cli.plugins.clone(),
        dirs: cli.plugin_dirs.clone(),
        use_env: true,
        beside_executable: true,
    };
    let reg = Registry::discover(&search)?;
    for w in &reg.warnings {
        eprintln!("warning: {w}");
    }
    Ok(reg)
}

fn pipeline(reg: &Registry, rules: &Rules) -> Result<Pipeline, HostError> {
    let specs: Vec<PresetSpec> = rules
        .presets
        .iter()
        .map(|s| s.parse())
        .collect::<Result<_, _>>()?;
    let p = Pipeline::build(reg, &rules.variant, rules.layout.as_deref(), &specs)?;
    for n in &p.notes {
        eprintln!("note: {n}");
    }
    Ok(p)
}

fn dispatch(cli: Cli) -> Result<i32, HostError> {
    let reg = registry(&cli)?;
    match &cli.command {
        Command::List { json } => list(&reg, *json),
        Command::Fen { rules, fen, moves } => {
            let p = pipeline(&reg, rules)?;
            let game = play_moves(&p, p.position(fen.as_deref())?, moves)?;
            println!("{}", p.write_fen(&game.position)?);
            Ok(0)
        }
        Command::Moves {
            rules,
            fen,
            moves: played,
            json,
        } => {
            let p = pipeline(&reg, rules)?;
            let game = play_moves(&p, p.position(fen.as_deref())?, played)?;
            moves(&game, *json)
        }
        Command::Perft {
            rules,
            fen,
            depth,
            divide,
            threads,
            json,
        } => {
            let p = pipeline(&reg, rules)?;
            let pos = p.position(fen.as_deref())?;
            let start = Instant::now();
            let r = perft(&p, &pos, *depth, *threads, *divide)?;
            let secs = start.elapsed().as_secs_f64();
            if *json {
                let divide: serde_json::Map<String, serde_json::Value> = r
                    .divide
                    .iter()
                    .map(|(m, n)| (m.clone(), json!(n)))
                    .collect();
                let out = json!({
                    "variant": p.variant_id(),
                    "presets": p.presets.iter().map(|x| x.info.id.to_string()).collect::<Vec<_>>(),
                    "fen": p.write_fen(&pos)?,
                    "depth": depth,
                    "nodes": r.nodes,
                    "divide": divide,
                    "seconds": secs,
                });
                println!("{}", out);
            } else {
                let mut d = r.divide.clone();
                d.sort();
                for (m, n) in &d {
                    println!("{m}: {n}");
                }
                if *divide {
                    println!();
                }
                println!("Nodes searched: {}", r.nodes);
            }
            Ok(0)
        }
        Command::Bench {
            rules,
            fen,
            depth,
            threads,
            json,
        } => bench(&reg, rules, fen, *depth, *threads, *json),
    }
}

/// Plays space-separated moves (SAN or coordinate form) from `pos`.
fn play_moves<'p>(p: &'p Pipeline, pos: Position, moves: &str) -> Result<Game<'p>, HostError> {
    let mut game = Game::new(p, pos);
    for (i, text) in moves.split_whitespace().enumerate() {
        let legal = game.legal_moves()?;
        let m = parse_move(p, &game.position, text, &legal).map_err(|e| match e {
            HostError::BadMove { text, reason } => HostError::BadMove {
                text,
                reason: format!("ply {}: {reason}", i + 1),
            },
            other => other,
        })?;
        game.play(m)?;
    }
    Ok(game)
}

fn list(reg: &Registry, json: bool) -> Result<i32, HostError> {
    // Full variant info needs the variant object; build each once.
    let mut variants = Vec::new();
    for (pl, v) in reg.variants() {
        let info = Pipeline::build(reg, v.id.as_str(), None, &[]).map(|p| p.info.clone());
        variants.push((pl, v, info));
    }
    if json {
        let out = json!({
            "plugins": reg.plugins.iter().map(|p| json!({
                "id": p.id(),
                "version": p.manifest.version.as_str(),
                "api_version": p.manifest.api_version.to_string(),
                "description": p.manifest.description.as_str(),
                "path": p.path.display().to_string(),
            })).collect::<Vec<_>>(),
            "variants": variants.iter().map(|(pl, v, info)| {
                let mut o = json!({
                    "id": v.id.as_str(), "name": v.name.as_str(), "plugin": pl.id(),
                });
                if let Ok(info) = info {
                    o["board"] = json!({"files": info.files, "ranks": info.ranks});
                    o["pieces"] = json!(info.pieces.iter().map(|t| json!({
                        "letter": t.letter().to_string(), "name": t.name.as_str(),
                        "role": t.role.name(), "value": t.value, "royal": t.royal,
                    })).collect::<Vec<_>>());
                    o["layouts"] = json!(info.layouts.iter().map(|l| json!({
                        "id": l.id.as_str(), "name": l.name.as_str(), "fen": l.fen.as_str(),
                    })).collect::<Vec<_>>());
                }
                o
            }).collect::<Vec<_>>(),
            "presets": reg.presets().map(|(pl, p)| json!({
                "id": p.id.as_str(), "name": p.name.as_str(), "plugin": pl.id(),
                "category": p.category.as_str(), "mode": p.mode.as_str(),
                "description": p.description.as_str(),
                "requires": p.requires.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
                "incompatible_with": p.incompatible_with.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
                "scope_aware": p.scope_aware,
                "options": p.options.iter().map(|o| json!({
                    "key": o.key.as_str(), "type": o.kind.name(), "default": o.default.as_str(),
                    "choices": o.choices.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
                    "description": o.description.as_str(),
                })).collect::<Vec<_>>(),
                "hooks": p.hooks.names(),
                "preferred_layout": p.preferred_layout.as_ref().map(|s| s.as_str()).into_option(),
            })).collect::<Vec<_>>(),
        });
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        return Ok(0);
    }
    println!("Plugins:");
    if reg.plugins.is_empty() {
        println!("  (none found: build them with `cargo build --release`, or use --plugin-dir)");
    }
    for p in &reg.plugins {
        println!(
            "  {} {} (API {}) — {}\n    {}",
            p.id(),
            p.manifest.version,
            p.manifest.api_version,
            p.manifest.description,
            p.path.display()
        );
    }
    println!("Variants:");
    for (pl, v, info) in &variants {
        match info {
            Ok(info) => {
                let layouts: Vec<&str> = info.layouts.iter().map(|l| l.id.as_str()).collect();
                println!(
                    "  {:<18} {} ({}x{}, layouts: {}) [{}]",
                    v.id,
                    v.name,
                    info.files,
                    info.ranks,
                    layouts.join(", "),
                    pl.id()
                );
            }
            Err(e) => println!("  {:<18} {} [{}] (error: {e})", v.id, v.name, pl.id()),
        }
    }
    println!("Presets:");
    for (pl, p) in reg.presets() {
        println!(
            "  {:<26} {} — {}, {} [{}]",
            p.id,
            p.name,
            p.category,
            p.mode,
            pl.id()
        );
        if !p.requires.is_empty() {
            let r: Vec<&str> = p.requires.iter().map(|s| s.as_str()).collect();
            println!("      requires: {}", r.join(", "));
        }
        if !p.incompatible_with.is_empty() {
            let r: Vec<&str> = p.incompatible_with.iter().map(|s| s.as_str()).collect();
            println!("      incompatible with: {}", r.join(", "));
        }
        for o in p.options.iter() {
            println!(
                "      option {}: {} (default {}) — {}",
                o.key,
                o.kind.name(),
                o.default,
                o.description
            );
        }
        if p.hooks != HookSet::default() {
            println!("      hooks: {}", p.hooks.names().join(", "));
        }
    }
    Ok(0)
}

fn board_text(p: &Pipeline, pos: &Position) -> String {
    let mut s = String::new();
    for r in (0..pos.ranks()).rev() {
        s.push_str(&format!("{:>3} ", r + 1));
        for f in 0..pos.files() {
            let c = pos.get(Square::new(f, r));
            let ch = if c.is_hole() {
                ' '
            } else if let Some(k) = c.kind() {
                let l = p
                    .info
                    .pieces
                    .get(k as usize)
                    .map(|t| t.letter())
                    .unwrap_or('?');
                if c.color() == Some(Color::White) {
                    l
                } else {
                    l.to_ascii_lowercase()
                }
            } else {
                '.'
            };
            s.push(ch);
            s.push(' ');
        }
        s.push('\n');
    }
    s.push_str("    ");
    for f in 0..pos.files() {
        s.push((b'a' + f) as char);
        s.push(' ');
    }
    s
}

fn moves(game: &Game, json: bool) -> Result<i32, HostError> {
    let p = game.pipeline();
    let pos = &game.position;
    let legal = game.legal_moves()?;
    let status = game.status()?;
    let mut rows: Vec<(String, String)> = Vec::new();
    for &m in &legal {
        rows.push((san(p, pos, m, &legal)?, coordinate(p, pos, m)?));
    }
    rows.sort();
    let fen = p.write_fen(pos)?;
    if json {
        let out = json!({
            "variant": p.variant_id(),
            "presets": p.presets.iter().map(|x| x.info.id.to_string()).collect::<Vec<_>>(),
            "fen": fen,
            "side_to_move": pos.side_to_move.name(),
            "check": status.in_check,
            "moves": rows.iter().map(|(s, c)| json!({"san": s, "move": c})).collect::<Vec<_>>(),
            "result": status.outcome.as_ref().map(|o| json!({
                "result": o.winner.pgn(), "termination": o.reason.as_str(),
            })),
            "claimable_draw": status.claimable,
        });
        println!("{}", out);
    } else {
        println!("{}", board_text(p, pos));
        println!("FEN: {fen}");
        println!(
            "{} to move{}",
            pos.side_to_move.name(),
            if status.in_check { ", in check" } else { "" }
        );
        println!("{} legal moves:", rows.len());
        for (s, c) in &rows {
            println!("  {s:<10} {c}");
        }
        if let Some(o) = &status.outcome {
            println!("Result: {} ({})", o.winner.pgn(), o.reason);
        }
        if let Some(c) = &status.claimable {
            println!("A draw may be claimed ({c}).");
        }
    }
    Ok(0)
}

fn bench(
    reg: &Registry,
    rules: &Rules,
    fens: &[String],
    depth: u32,
    threads: usize,
    json: bool,
) -> Result<i32, HostError> {
    let p = pipeline(reg, rules)?;
    let mut positions: Vec<String> = fens.to_vec();
    if positions.is_empty() {
        positions.push(p.write_fen(&p.start_position()?)?);
        if p.variant_id() == "chess" && p.presets.is_empty() {
            positions.push(
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".into(),
            );
        }
    }
    let mut rows = Vec::new();
    for f in &positions {
        let pos = p.parse_fen(f)?;
        let start = Instant::now();
        let r = perft(&p, &pos, depth, threads, false)?;
        let secs = start.elapsed().as_secs_f64();
        let nps = r.nodes as f64 / secs.max(1e-9);
        if !json {
            println!(
                "{f}\n  depth {depth}: {} nodes in {:.3} s = {:.1} M nodes/s ({} thread{})",
                r.nodes,
                secs,
                nps / 1e6,
                threads,
                if threads == 1 { "" } else { "s" }
            );
        }
        rows.push(json!({"fen": f, "depth": depth, "nodes": r.nodes, "seconds": secs, "nps": nps, "threads": threads}));
    }
    if json {
        println!("{}", json!({"variant": p.variant_id(), "results": rows}));
    }
    Ok(0)
}
