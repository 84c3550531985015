//! Command-line interface. The one place where errors become user messages and exit codes:
//! 0 success, 1 invalid input records (analysis), 2 usage, plugin or rule-assembly errors
//! (and a run stopped by an error: unreadable input, unwritable output), 3 a plugin fault
//! (a record on which plugin code panicked, crashed, aborted or ran past its time limit; the
//! other records are still analyzed and reported).

use clap::{Args, Parser, Subcommand};
use houserules_host::notation::{coordinate_among, parse_move, san};
use houserules_host::{perft, Game, HostError, Pipeline, PluginSearch, PresetSpec, Registry};
use houserules_plugin_api::{Position, EXTRA_ERROR, EXTRA_SOURCE};
use records::{AnalyzeArgs, PlayArgs};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::Instant;

mod protocols;

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
    /// Load this plugin library (repeatable; a path: a bare name is a file here).
    #[arg(long = "plugin", global = true, value_name = "FILE")]
    plugins: Vec<PathBuf>,
    /// Load plugins only from --plugin and --plugin-dir (not from the executable's directory
    /// or HOUSERULES_PLUGIN_PATH).
    #[arg(long, global = true)]
    no_default_plugins: bool,
    /// A variants.ini file (or directory of them) for the Fairy-Stockfish plugin (repeatable;
    /// appended to HOUSERULES_VARIANTS_PATH).
    #[arg(long = "variants", global = true, value_name = "FILE")]
    variants: Vec<PathBuf>,
    /// A custom modifier descriptor (JSON) to load and use in the game(s) of this command
    /// (repeatable; see docs/modifiers.md).
    #[arg(long = "modifier", global = true, value_name = "FILE.json")]
    modifiers: Vec<PathBuf>,
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
        /// Only the variants defined in this file (a variants.ini given with --variants or in
        /// HOUSERULES_VARIANTS_PATH): your own, without the built-ins.
        #[arg(long, value_name = "FILE")]
        from: Option<PathBuf>,
    },
    /// Check variants.ini files for the Fairy-Stockfish plugin: every problem of every
    /// section at once (file:line, key, why). Exit code 0 when every section loads, 1 when
    /// one is refused.
    CheckVariants {
        /// The files (each is read as with --variants).
        #[arg(required = true)]
        files: Vec<PathBuf>,
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
        /// Path length (at most 256).
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=256))]
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
    /// Read, replay and check game records (PGN-like): results, errors, per-ply details.
    Analyze(AnalyzeArgs),
    /// Play a game in the terminal (human or random sides, or scripted) and write its record.
    Play(PlayArgs),
    /// Explain a variant, layout, preset or custom modifier: the rule in words, options with
    /// defaults, requirements, incompatibilities, hooks and an example command.
    Describe {
        /// The id (see `houserules list`).
        id: String,
        /// The variant a layout belongs to, or that a preset's example and check refer to.
        #[arg(long)]
        variant: Option<String>,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Install this program and the plugins it loaded into PREFIX/bin and
    /// PREFIX/lib/houserules (run it as `cargo run --release -- install` from a clone).
    Install {
        /// Where to install (default: ~/.local).
        #[arg(long, value_name = "DIR")]
        prefix: Option<PathBuf>,
    },
    /// Load a plugin library and run the plugin contract on it: hooks declared = hooks
    /// implemented, FEN round trip, legality, perft consistency, determinism, no panics.
    /// Exit code 0 when every check passes, 1 when one fails.
    CheckPlugin {
        /// The plugin library (.so / .dylib / .dll).
        file: PathBuf,
        /// Variant to try its presets on (repeatable; default: chess).
        #[arg(long = "variant")]
        variants: Vec<String>,
        /// Random games per variant or preset.
        #[arg(long, default_value_t = 6)]
        games: usize,
        /// Perft depth of the consistency checks.
        #[arg(long, default_value_t = 2)]
        depth: u32,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// Speak UCI (Universal Chess Interface) on standard input and output, for GUIs and
    /// match tools; the rules are options (UCI_Variant, Layout, Presets, Modifiers).
    Uci(protocols::ProtocolArgs),
    /// Speak the XBoard/WinBoard protocol (CECP v2) on standard input and output.
    Xboard(protocols::ProtocolArgs),
    /// Play UCI engines against each other with houserules as the arbiter (like
    /// cutechess-cli, for any rule set): score, W/D/L, Elo difference; games to --pgn.
    Match(protocols::MatchArgs),
    /// Measure perft speed (nodes per second) on standard positions, or with --search the
    /// engine's search speed on five chess positions.
    Bench {
        #[command(flatten)]
        rules: Rules,
        /// Positions as FEN (default: the start position and, for chess, Kiwipete).
        #[arg(long)]
        fen: Vec<String>,
        /// Depth per position (default 5; 8 with --search).
        #[arg(long)]
        depth: Option<u32>,
        /// Worker threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// Measure the search engine instead (depth default 8; one thread and --threads, or 2),
        /// beside Fairy-Stockfish when --fsf (default /work/fsf/fairy-stockfish) exists.
        #[arg(long)]
        search: bool,
        /// Fairy-Stockfish binary for --search.
        #[arg(long, value_name = "FILE")]
        fsf: Option<PathBuf>,
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

/// Passes the files of `--variants` and `--modifier` on to the plugins (which read their data
/// paths when loaded), through the environment, which worker processes inherit too.
fn plugin_env(cli: &Cli) {
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
    if !cli.modifiers.is_empty() {
        let mut paths: Vec<PathBuf> = cli.modifiers.clone();
        if let Some(v) = std::env::var_os(MODIFIERS_PATH_VAR) {
            paths.extend(std::env::split_paths(&v));
        }
        if let Ok(joined) = std::env::join_paths(paths) {
            std::env::set_var(MODIFIERS_PATH_VAR, joined);
        }
    }
}

fn search(cli: &Cli) -> PluginSearch {
    let mut files = cli.plugins.clone();
    if let Command::CheckPlugin { file, .. } = &cli.command {
        // The plugin under test comes first: its ids win over installed ones.
        files.insert(0, file.clone());
    }
    PluginSearch {
        files,
        dirs: cli.plugin_dirs.clone(),
        use_env: !cli.no_default_plugins,
        beside_executable: !cli.no_default_plugins,
    }
}

fn registry(cli: &Cli) -> Result<Registry, HostError> {
    plugin_env(cli);
    let reg = Registry::discover(&search(cli))?;
    for w in &reg.warnings {
        eprintln!("warning: {w}");
    }
    if let Some(msg) = reg.nothing_found() {
        eprintln!("warning: {msg}");
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
    for (id, why) in houserules_host::describe::inert_presets(&p) {
        eprintln!("warning: preset `{id}` cannot change anything in this game: {why}");
    }
    Ok(p)
}

/// The environment variable the modifiers plugin reads descriptor files from.
const MODIFIERS_PATH_VAR: &str = "HOUSERULES_MODIFIERS_PATH";

fn dispatch(mut cli: Cli) -> Result<i32, HostError> {
    #[cfg(unix)]
    if let Command::Analyze(a) = &cli.command {
        if a.isolated() {
            // The plugins are loaded by the worker processes only.
            plugin_env(&cli);
            return records::analyze_isolated(&cli, a);
        }
    }
    // The protocols load the plugins themselves.
    if matches!(cli.command, Command::Uci(_) | Command::Xboard(_)) {
        plugin_env(&cli);
    }
    match &cli.command {
        Command::Uci(a) => {
            return protocols::session(houserules_host::uci::run, search(&cli), a, &cli.modifiers)
        }
        Command::Xboard(a) => {
            return protocols::session(
                houserules_host::xboard::run,
                search(&cli),
                a,
                &cli.modifiers,
            )
        }
        _ => {}
    }
    if let Command::CheckVariants { files, .. } = &cli.command {
        let files = files.clone();
        cli.variants.extend(files);
    }
    let reg = registry(&cli)?;
    let ids = reg.modifier_ids(&cli.modifiers)?;
    match &mut cli.command {
        Command::Fen { rules, .. }
        | Command::Moves { rules, .. }
        | Command::Perft { rules, .. }
        | Command::Bench { rules, .. } => rules.presets.extend(ids),
        Command::Play(a) => a.rules.presets.extend(ids),
        Command::Analyze(a) => a.modifiers = ids,
        Command::Match(a) => a.modifier_ids = ids,
        Command::Uci(_) | Command::Xboard(_) => {}
        Command::List { .. }
        | Command::CheckVariants { .. }
        | Command::Describe { .. }
        | Command::Install { .. }
        | Command::CheckPlugin { .. } => {}
    }
    match &cli.command {
        Command::List { json, from } => list(&reg, *json, from.as_deref()),
        Command::CheckVariants { files, json } => check_variants(&reg, files, *json),
        Command::Describe { id, variant, json } => describe(&reg, id, variant.as_deref(), *json),
        Command::Install { prefix } => install(&reg, prefix.as_deref()),
        Command::CheckPlugin {
            file,
            variants,
            games,
            depth,
            json,
        } => check_plugin(&reg, file, variants, *games, *depth, *json),
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
            search,
            fsf,
        } => {
            if *search {
                bench_search(
                    &reg,
                    rules,
                    fen,
                    depth.unwrap_or(8),
                    *threads,
                    fsf.as_deref(),
                    *json,
                )
            } else {
                bench(&reg, rules, fen, depth.unwrap_or(5), *threads, *json)
            }
        }
        Command::Analyze(args) => records::analyze(&reg, args),
        Command::Play(args) => records::play(&reg, args),
        Command::Match(args) => protocols::run_match(&reg, args, &cli.modifiers),
        Command::Uci(_) | Command::Xboard(_) => Ok(0),
    }
}

/// Plays space-separated moves (SAN, coordinate or long algebraic form; move numbers and a
/// final result token left out) from `pos`.
fn play_moves<'p>(p: &'p Pipeline, pos: Position, moves: &str) -> Result<Game<'p>, HostError> {
    let mut game = Game::new(p, pos);
    for (i, text) in houserules_host::notation::move_texts(moves)
        .into_iter()
        .enumerate()
    {
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

/// Whether a variant's manifest entry says it is defined in `file`: plugins that read
/// definition files (Fairy-Stockfish's variants.ini) end the variant's name with its source,
/// `(FILE:LINE)`.
fn defined_in(v: &houserules_plugin_api::VariantSummary, file: &std::path::Path) -> bool {
    let name = v.name.as_str();
    let tag = format!("({}:", file.display());
    name.ends_with(')') && name.contains(&tag)
}

/// `check-variants`: builds every variant defined in `files` and reports each problem.
fn check_variants(reg: &Registry, files: &[PathBuf], json: bool) -> Result<i32, HostError> {
    let mut report = Vec::new();
    let mut refused = 0;
    for file in files {
        // The plugin reads the file; a file it cannot read is a usage error here.
        if let Err(e) = std::fs::read_to_string(file) {
            eprintln!("error: {}: cannot read: {e}", file.display());
            return Ok(2);
        }
        let mut sections = Vec::new();
        for (_, v) in reg.variants().filter(|(_, v)| defined_in(v, file)) {
            let problems: Vec<String> = match Pipeline::build(reg, v.id.as_str(), None, &[]) {
                Ok(_) => Vec::new(),
                Err(e) => {
                    let text = e.to_string();
                    // The plugin's message after the host's "variant `x` cannot be built: ".
                    let body = text
                        .split_once("cannot be built: ")
                        .map_or(text.as_str(), |(_, b)| b);
                    body.lines().map(str::to_string).collect()
                }
            };
            refused += usize::from(!problems.is_empty());
            sections.push((v.id.to_string(), problems));
        }
        // Lines the plugin could not place in any section (it names the file in them).
        let stray: Vec<String> = reg
            .plugins
            .iter()
            .flat_map(|p| {
                p.manifest
                    .description
                    .as_str()
                    .split_once("(problems: ")
                    .map(|(_, rest)| rest.trim_end_matches(')').to_string())
            })
            .flat_map(|all| all.split("; ").map(str::to_string).collect::<Vec<_>>())
            .filter(|line| line.starts_with(&format!("{}:", file.display())))
            .collect();
        refused += usize::from(!stray.is_empty() && sections.is_empty());
        report.push((file.clone(), sections, stray));
    }
    if json {
        let out: Vec<serde_json::Value> = report
            .iter()
            .map(|(file, sections, stray)| {
                json!({
                    "file": file.display().to_string(),
                    "problems": stray,
                    "sections": sections.iter().map(|(id, p)| json!({
                        "variant": id, "loads": p.is_empty(), "problems": p,
                    })).collect::<Vec<_>>(),
                })
            })
            .collect();
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        for (file, sections, stray) in &report {
            for line in stray {
                println!("{line}");
            }
            for (id, problems) in sections {
                if !problems.is_empty() {
                    println!("[{id}] refused:");
                    for p in problems {
                        println!("  {p}");
                    }
                }
            }
            let bad = sections.iter().filter(|(_, p)| !p.is_empty()).count();
            println!(
                "{}: {} sections, {} load, {} refused",
                file.display(),
                sections.len(),
                sections.len() - bad,
                bad
            );
        }
    }
    Ok(if refused > 0 { 1 } else { 0 })
}

fn list(reg: &Registry, json: bool, from: Option<&std::path::Path>) -> Result<i32, HostError> {
    // Full variant info needs the variant object; build each once.
    let mut variants = Vec::new();
    for (pl, v) in reg
        .variants()
        .filter(|(_, v)| from.is_none_or(|f| defined_in(v, f)))
    {
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
                if let Err(e) = info {
                    o["error"] = json!(e.to_string());
                }
                if let Ok(info) = info {
                    o["description"] = json!(info.description.as_str());
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
                "extra": p.extra.iter().map(|e| (e.key.to_string(), json!(e.value.as_str()))).collect::<serde_json::Map<_, _>>(),
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
    use houserules_host::describe::{first_sentence, wrap};
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
                print!("{}", wrap(first_sentence(info.description.as_str()), 80, 6));
            }
            Err(e) => println!("  {:<18} {} [{}] (error: {e})", v.id, v.name, pl.id()),
        }
    }
    println!("Presets:");
    for (pl, p) in reg.presets().filter(|(_, p)| !p.is_custom_modifier()) {
        println!("  {:<26} {} [{}]", p.id, p.name, pl.id());
        print!("{}", wrap(first_sentence(p.description.as_str()), 80, 6));
        let mut facts = Vec::new();
        if !p.requires.is_empty() {
            let r: Vec<&str> = p.requires.iter().map(|s| s.as_str()).collect();
            facts.push(format!("requires {}", r.join(", ")));
        }
        if !p.incompatible_with.is_empty() {
            let r: Vec<&str> = p.incompatible_with.iter().map(|s| s.as_str()).collect();
            facts.push(format!("incompatible with {}", r.join(", ")));
        }
        for o in p.options.iter() {
            facts.push(format!("option {} (default {})", o.key, o.default));
        }
        if !facts.is_empty() {
            print!("{}", wrap(&format!("({})", facts.join("; ")), 80, 6));
        }
    }
    println!("Custom modifiers (use with --modifier FILE, --preset ID or a Modifiers tag):");
    let mut any = false;
    for (pl, p) in reg.presets().filter(|(_, p)| p.is_custom_modifier()) {
        any = true;
        let source = p.extra_value(EXTRA_SOURCE).unwrap_or_default();
        match p.extra_value(EXTRA_ERROR) {
            Some(e) => println!("  {:<26} INVALID: {e}\n      {source} [{}]", p.id, pl.id()),
            None => {
                println!(
                    "  {:<26} {} — {} [{}]",
                    p.id,
                    p.name,
                    p.description,
                    pl.id()
                );
                println!("      {source}");
                if !p.requires.is_empty() {
                    let r: Vec<&str> = p.requires.iter().map(|s| s.as_str()).collect();
                    println!("      requires: {}", r.join(", "));
                }
            }
        }
    }
    if !any {
        println!("  (none)");
    }
    println!("More about any of them: houserules describe ID");
    Ok(0)
}

fn describe(reg: &Registry, id: &str, variant: Option<&str>, json: bool) -> Result<i32, HostError> {
    let d = houserules_host::describe::describe(reg, id, variant)?;
    if json {
        println!("{}", serde_json::to_string_pretty(&d).unwrap_or_default());
    } else {
        print!("{}", d.text());
    }
    Ok(0)
}

fn check_plugin(
    reg: &Registry,
    file: &Path,
    variants: &[String],
    games: usize,
    depth: u32,
    json: bool,
) -> Result<i32, HostError> {
    use houserules_host::conformance::{check_plugin, CheckOptions};
    let Some(pl) = reg
        .plugins
        .first()
        .filter(|p| p.path == file || p.path.canonicalize().ok() == file.canonicalize().ok())
    else {
        return Err(HostError::PluginMissing {
            path: file.to_path_buf(),
        });
    };
    let opts = CheckOptions {
        variants: variants.to_vec(),
        games,
        depth,
        ..CheckOptions::default()
    };
    let report = check_plugin(reg, pl.id(), &opts)?;
    if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        print!("{}", report.text());
    }
    Ok(if report.passed() { 0 } else { 1 })
}

fn install(reg: &Registry, prefix: Option<&Path>) -> Result<i32, HostError> {
    use houserules_host::install;
    match install::install(reg, prefix) {
        Ok(done) => {
            for p in &done.programs {
                println!("installed {}", p.display());
            }
            let ids: Vec<&str> = done.plugins.iter().map(|(id, _)| id.as_str()).collect();
            println!(
                "installed {} plugins into {}: {}",
                done.plugins.len(),
                done.plugin_dir.display(),
                ids.join(", ")
            );
            for r in &done.removed {
                println!("removed the older {}", r.display());
            }
            if !install::on_path(&done.bin_dir) {
                println!(
                    "note: {} is not on your PATH; add it, e.g. export PATH=\"{}:$PATH\"",
                    done.bin_dir.display(),
                    done.bin_dir.display()
                );
            }
            Ok(0)
        }
        Err(e) => {
            eprintln!("error: {e}");
            Ok(2)
        }
    }
}

fn moves(game: &Game, json: bool) -> Result<i32, HostError> {
    let p = game.pipeline();
    let pos = &game.position;
    let legal = game.legal_moves()?;
    let status = game.status()?;
    let mut rows: Vec<(String, String)> = Vec::new();
    for &m in &legal {
        rows.push((
            san(p, pos, m, &legal)?,
            coordinate_among(p, pos, m, &legal)?,
        ));
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
        println!("{}", houserules_host::play::board_text(p, pos).trim_end());
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
        let pos = p.game_start(f)?;
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

/// `bench --search`: the engine's nodes per second on standard positions, one thread and
/// `threads` (2 when 1 is asked), beside Fairy-Stockfish's single-thread figure.
fn bench_search(
    reg: &Registry,
    rules: &Rules,
    fens: &[String],
    depth: u32,
    threads: usize,
    fsf: Option<&std::path::Path>,
    json: bool,
) -> Result<i32, HostError> {
    use houserules_host::engine::bench::{fsf_search, search_bench, CHESS_POSITIONS};
    let p = pipeline(reg, rules)?;
    let mut positions: Vec<String> = fens.to_vec();
    if positions.is_empty() {
        if p.variant_id() == "chess" && p.presets.is_empty() {
            positions = CHESS_POSITIONS.iter().map(|s| s.to_string()).collect();
        } else {
            positions.push(p.write_fen(&p.start_position()?)?);
        }
    }
    let fsf = fsf
        .map(std::path::Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("/work/fsf/fairy-stockfish"));
    let fsf = fsf.exists().then_some(fsf);
    let many = if threads > 1 { threads } else { 2 };
    let one = search_bench(&p, &positions, depth, 1)?;
    let more = search_bench(&p, &positions, depth, many)?;
    let mut rows = Vec::new();
    let mut totals = [0u64; 4];
    let mut times = [0f64; 3];
    for (a, b) in one.iter().zip(&more) {
        // Fairy-Stockfish at the same depth (its tree is far smaller) and at a depth where it
        // runs long enough for a stable speed.
        let fsf_speed_depth = depth.max(14);
        let theirs = fsf
            .as_deref()
            .map(|bin| fsf_search(bin, p.variant_id(), &a.fen, depth));
        let speed = fsf
            .as_deref()
            .map(|bin| fsf_search(bin, p.variant_id(), &a.fen, fsf_speed_depth));
        if !json {
            println!("{}", a.fen);
            println!(
                "  depth {depth}: 1 thread {} nodes {:.3} s {} nps; {many} threads {} nodes {:.3} s {} nps",
                a.nodes,
                a.time.as_secs_f64(),
                a.nps(),
                b.nodes,
                b.time.as_secs_f64(),
                b.nps()
            );
            match &theirs {
                Some(Ok((n, _))) => {
                    if let Some(Ok((sn, snps))) = &speed {
                        println!("  Fairy-Stockfish go depth {depth}: {n} nodes; go depth {fsf_speed_depth}: {sn} nodes {snps} nps");
                    }
                }
                Some(Err(e)) => println!("  Fairy-Stockfish: {e}"),
                None => {}
            }
        }
        totals[0] += a.nodes;
        totals[1] += b.nodes;
        times[0] += a.time.as_secs_f64();
        times[1] += b.time.as_secs_f64();
        let mut row = json!({"fen": a.fen, "depth": depth,
            "nodes": a.nodes, "seconds": a.time.as_secs_f64(), "nps": a.nps(),
            "threads": many, "nodes_threads": b.nodes, "seconds_threads": b.time.as_secs_f64(), "nps_threads": b.nps()});
        if let Some(Ok((n, _))) = theirs {
            row["fsf_nodes"] = json!(n);
        }
        if let Some(Ok((n, nps))) = speed {
            totals[2] += n;
            times[2] += n as f64 / (nps.max(1) as f64);
            row["fsf_speed_depth"] = json!(fsf_speed_depth);
            row["fsf_nps"] = json!(nps);
        }
        rows.push(row);
    }
    let rate = |n: u64, t: f64| (n as f64 / t.max(1e-9)) as u64;
    if json {
        println!(
            "{}",
            json!({"variant": p.variant_id(), "depth": depth, "results": rows})
        );
    } else {
        println!(
            "total: 1 thread {} nps; {many} threads {} nps{}",
            rate(totals[0], times[0]),
            rate(totals[1], times[1]),
            if totals[2] > 0 {
                format!("; Fairy-Stockfish {} nps", rate(totals[2], times[2]))
            } else {
                String::new()
            }
        );
    }
    Ok(0)
}

/// The `analyze` and `play` commands (game records).
mod records {
    use super::{pipeline, Rules};
    use houserules_host::analyze::{
        self, Finished, Format, Options, RulesOverride, Source, Summary,
    };
    use houserules_host::play::{self, Player, Setup};
    use houserules_host::{HostError, Pipeline, PresetSpec, Registry};
    use std::fs::File;
    use std::io::{self, BufRead, BufReader, BufWriter, IsTerminal, Write};
    use std::path::PathBuf;
    use std::time::Instant;

    #[derive(clap::Args)]
    pub struct AnalyzeArgs {
        /// Record files (`-` or none: standard input).
        #[arg(value_name = "FILES")]
        files: Vec<PathBuf>,
        /// Variant for every record (overrides the `Variant` tag).
        #[arg(long)]
        variant: Option<String>,
        /// Layout for every record (overrides the `Layout` tag).
        #[arg(long)]
        layout: Option<String>,
        /// Presets for every record, ID[:k=v,...] (repeatable; replace the `Presets` tag).
        #[arg(long = "preset", value_name = "ID[:k=v,...]")]
        presets: Vec<String>,
        /// Descriptor ids from `--modifier`, used on top of each record's `Modifiers` tag.
        #[arg(skip)]
        pub(super) modifiers: Vec<String>,
        /// One JSON document: {"games": [...], "summary": {...}}.
        #[arg(long, conflicts_with = "jsonl")]
        json: bool,
        /// One JSON object per game and line.
        #[arg(long)]
        jsonl: bool,
        /// Leave out the per-ply details in JSON (fast batch validation).
        #[arg(long)]
        no_plies: bool,
        /// Worker threads (output stays in input order).
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Write the records back in normal form to FILE (canonical SAN, fixed tag order,
        /// 80-column move text; comments, NAGs and variations dropped); `-`: to standard
        /// output, and the report to standard error.
        #[arg(long, value_name = "FILE")]
        write_pgn: Option<PathBuf>,
        /// Text output: only invalid games and the totals.
        #[arg(long, short)]
        quiet: bool,
        /// Run the rules in supervised worker processes (one per job): a plugin that crashes,
        /// aborts, hangs or exhausts memory costs only the record it happened on, which is
        /// reported with the cause. The default for analyze.
        #[arg(long, conflicts_with = "no_isolate")]
        isolate: bool,
        /// Run the rules inside this process (faster to start; a crashing plugin ends the run).
        #[arg(long)]
        no_isolate: bool,
        /// Isolated runs: seconds one record may take before its worker is killed and the
        /// record reported as a timeout (0: no limit; default 60, none with --engine).
        #[arg(long, value_name = "SECS")]
        game_timeout: Option<f64>,
        /// Search every position of each main line with these limits (`movetime=200`,
        /// `depth=8`, `nodes=20000`, or several: `depth=8,movetime=1000`) and annotate each
        /// ply: evaluation from White's side, best move, inaccuracy/mistake/blunder (`?!` `?`
        /// `??`; see docs/engine.md), in the JSON output and as `[%eval ...]` in --write-pgn.
        #[arg(long, value_name = "LIMITS")]
        engine: Option<String>,
        /// Isolated runs: address space of one worker in MiB (0: no limit); a plugin that
        /// allocates past it fails its record as out-of-memory.
        #[arg(long, default_value_t = 4096, value_name = "MIB")]
        worker_memory: u64,
        /// Replay every move through the rule pipeline one by one, never in the variant's
        /// own whole-line replay (API 1.6, used where nothing but the moves is asked for):
        /// the reference path, for checking a plugin. Slower; the reports are the same.
        #[arg(long)]
        move_by_move: bool,
    }

    impl AnalyzeArgs {
        /// Whether the rules run in worker processes.
        pub fn isolated(&self) -> bool {
            cfg!(unix) && (self.isolate || (ISOLATE_BY_DEFAULT && !self.no_isolate))
        }
    }

    /// Whether `analyze` isolates when neither --isolate nor --no-isolate is given. A batch
    /// that a crashing plugin cannot end is worth its cost: 13% more instructions, more in
    /// time on a busy machine (pipes and wake-ups per record; docs/benchmarks.md, issue 14);
    /// `--no-isolate` is there for speed.
    const ISOLATE_BY_DEFAULT: bool = true;

    /// `--jobs N`: 0 means one per CPU; more than four per CPU is pointless for work bound by
    /// the CPU (and 100,000 threads or processes are a fork bomb), so it is capped there.
    fn jobs(asked: usize) -> usize {
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let max = cpus * 4;
        match asked {
            0 => cpus,
            n if n > max => {
                eprintln!("note: --jobs {n} is more than 4 per CPU: using {max}");
                max
            }
            n => n,
        }
    }

    #[derive(clap::Args)]
    pub struct PlayArgs {
        #[command(flatten)]
        pub(super) rules: Rules,
        /// Start position (default: the layout's).
        #[arg(long)]
        fen: Option<String>,
        /// White's player: human, random, engine or engine:LIMITS (e.g. engine:movetime=500,
        /// engine:depth=6, engine:nodes=20000; engine:level=N plays weaker, 0 to 20; default:
        /// human, or nobody after --moves).
        #[arg(long)]
        white: Option<Player>,
        /// Black's player: as --white.
        #[arg(long)]
        black: Option<Player>,
        /// Seed of the random players (default: from the clock, printed on stderr).
        #[arg(long)]
        seed: Option<u64>,
        /// Moves to play first (SAN or coordinate form, space-separated).
        #[arg(long, default_value = "")]
        moves: String,
        /// Write the record(s) to FILE (default or `-`: standard output, after the game).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Stop after this many plies (0: no limit).
        #[arg(long, default_value_t = 1000)]
        max_plies: u32,
        /// Play this many games (seeds SEED, SEED+1, ...; no board shown): a corpus generator.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        games: u32,
        /// Do not show the board.
        #[arg(long, short)]
        quiet: bool,
    }

    fn specs(list: &[String]) -> Result<Vec<PresetSpec>, HostError> {
        list.iter().map(|s| s.parse()).collect()
    }

    /// The record sources of `analyze`: files (`-` standard input), each read through its
    /// decoder when compressed (`houserules_host::compressed`: .zst and .gz). The total size
    /// (for the progress bar) when every source is a plain file.
    fn sources(files: &[PathBuf]) -> Result<(Vec<Source>, Option<u64>), String> {
        let mut out = Vec::new();
        let mut total = Some(0u64);
        let stdin_only = [PathBuf::from("-")];
        let files = if files.is_empty() {
            &stdin_only[..]
        } else {
            files
        };
        for f in files {
            let (name, reader): (String, Box<dyn BufRead + Send>) = if f.as_os_str() == "-" {
                total = None;
                ("-".into(), Box::new(BufReader::new(io::stdin())))
            } else {
                let file =
                    File::open(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
                if let (Some(t), Ok(m)) = (total.as_mut(), file.metadata()) {
                    *t += m.len();
                }
                let name = f.display().to_string();
                (name, Box::new(BufReader::with_capacity(1 << 16, file)))
            };
            let (reader, kind) = houserules_host::compressed::decoded(&name, reader)?;
            if kind != houserules_host::compressed::Compression::None {
                // The records' offsets count decompressed bytes: no bar against the file size.
                total = None;
            }
            out.push(Source { name, reader });
        }
        Ok((out, total))
    }

    fn format(a: &AnalyzeArgs) -> Format {
        if a.json {
            Format::Json
        } else if a.jsonl {
            Format::Jsonl
        } else {
            Format::Text { quiet: a.quiet }
        }
    }

    fn preset_specs(a: &AnalyzeArgs) -> Result<Option<Vec<PresetSpec>>, HostError> {
        Ok(if a.presets.is_empty() {
            None
        } else {
            Some(specs(&a.presets)?)
        })
    }

    /// Bad `--engine` limits are a usage error, found before any record is read.
    fn check_engine(a: &AnalyzeArgs) -> bool {
        match a
            .engine
            .as_deref()
            .map(houserules_host::annotate::parse_limits)
        {
            Some(Err(e)) => {
                eprintln!("error: {e}");
                false
            }
            _ => true,
        }
    }

    pub fn analyze(reg: &Registry, a: &AnalyzeArgs) -> Result<i32, HostError> {
        if !check_engine(a) {
            return Ok(2);
        }
        let presets = preset_specs(a)?;
        if a.variant.is_some() || a.layout.is_some() || presets.is_some() {
            // Rules from the command line are checked once, up front (exit code 2).
            let v = a.variant.as_deref().unwrap_or("chess");
            Pipeline::build(
                reg,
                v,
                a.layout.as_deref(),
                presets.as_deref().unwrap_or(&[]),
            )?;
        }
        let json = a.json || a.jsonl;
        let options = Options {
            rules: RulesOverride {
                variant: a.variant.clone(),
                layout: a.layout.clone(),
                presets,
                modifiers: a.modifiers.clone(),
            },
            plies: json && !a.no_plies,
            normalized: a.write_pgn.is_some(),
            engine: a.engine.clone(),
            move_by_move: a.move_by_move,
        };
        let fmt = format(a);
        let jobs = jobs(a.jobs);
        write_batch(a, jobs, |srcs, sink| {
            analyze::run(reg, &options, srcs, jobs, &fmt, sink)
        })
    }

    /// `analyze` with the rules in supervised worker processes: the plugins are loaded by the
    /// workers only, so that even a plugin that crashes while loading costs nothing but
    /// itself.
    #[cfg(unix)]
    pub fn analyze_isolated(cli: &super::Cli, a: &AnalyzeArgs) -> Result<i32, HostError> {
        use houserules_host::isolated::{self, AnalyzeTask};
        use houserules_host::supervisor::{Limits, SupervisorError};
        use std::time::Duration;
        // Bad --preset syntax is a usage error here already.
        preset_specs(a)?;
        if !check_engine(a) {
            return Ok(2);
        }
        let json = a.json || a.jsonl;
        let jobs = jobs(a.jobs);
        let task = AnalyzeTask {
            places: (&super::search(cli)).into(),
            modifier_files: cli.modifiers.clone(),
            variant: a.variant.clone(),
            layout: a.layout.clone(),
            presets: (!a.presets.is_empty()).then(|| a.presets.clone()),
            plies: json && !a.no_plies,
            normalized: a.write_pgn.is_some(),
            format: format(a),
            engine: a.engine.clone(),
            move_by_move: a.move_by_move,
        };
        let limits = Limits {
            workers: jobs,
            timeout: a
                .game_timeout
                .or(if a.engine.is_some() { None } else { Some(60.0) })
                .filter(|&t| t > 0.0)
                .map(|t| Duration::from_secs_f64(t.min(1e9))),
            memory: (a.worker_memory > 0).then(|| a.worker_memory.saturating_mul(1 << 20)),
            ..Limits::default()
        };
        let mut prepared = match isolated::prepare(task, limits) {
            Ok(p) => p,
            Err(SupervisorError::Setup(msg)) => {
                eprintln!("error: {msg}");
                return Ok(2);
            }
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(3);
            }
        };
        for w in &prepared.warnings {
            eprintln!("warning: {w}");
        }
        if let Some(msg) = &prepared.nothing_found {
            eprintln!("warning: {msg}");
        }
        let code = write_batch(a, jobs, |srcs, sink| prepared.run(srcs, sink))?;
        for w in prepared.run_warnings() {
            eprintln!("warning: {w}");
        }
        Ok(code)
    }

    /// Runs a batch through `run` and writes its results: each record's report (flushed as
    /// soon as it is written, so that nothing already analyzed is lost if the run is killed),
    /// the normal form, the totals, the rate. Returns the exit code.
    fn write_batch(
        a: &AnalyzeArgs,
        jobs: usize,
        run: impl FnOnce(Vec<Source>, &mut dyn FnMut(Finished) -> io::Result<()>) -> io::Result<Summary>,
    ) -> Result<i32, HostError> {
        let (srcs, total) = match sources(&a.files) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(2);
            }
        };
        let Ok(mut pgn_out) = output_file(a.write_pgn.as_deref()) else {
            return Ok(2);
        };
        let bar = if io::stderr().is_terminal() {
            let b = match total {
                Some(t) => indicatif::ProgressBar::new(t).with_style(
                    indicatif::ProgressStyle::with_template(
                        "{bar:40} {bytes}/{total_bytes} {msg} [{elapsed_precise}, eta {eta}]",
                    )
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
                ),
                None => indicatif::ProgressBar::new_spinner(),
            };
            Some(b)
        } else {
            None
        };
        let stdout = io::stdout();
        // With the records on standard output (`--write-pgn -`), the report goes to stderr.
        let mut out: Box<dyn Write> = if is_stdout(a.write_pgn.as_deref()) {
            Box::new(BufWriter::new(io::stderr()))
        } else {
            // Flushed after every record: the buffer only joins a record with its separator.
            // A record larger than it (per-ply output) is written straight from its own
            // buffer, not copied.
            Box::new(BufWriter::with_capacity(8 << 10, stdout.lock()))
        };
        let jsonl = a.jsonl;
        if a.json {
            let _ = out.write_all(b"{\"games\":[");
        }
        let start = Instant::now();
        let mut first = true;
        let mut games = 0u64;
        let result = run(srcs, &mut |f: Finished| {
            if a.json {
                if !first {
                    out.write_all(b",\n")?;
                }
                first = false;
            }
            out.write_all(&f.output)?;
            out.flush()?;
            if let (Some(w), Some(text)) = (pgn_out.as_mut(), &f.normalized) {
                w.write_all(text.as_bytes())?;
                w.flush()?;
            }
            games += 1;
            if let Some(b) = &bar {
                if total.is_some() {
                    b.set_position(f.progress);
                }
                if games & 255 == 0 {
                    b.set_message(format!("{games} games"));
                }
                b.tick();
            }
            Ok(())
        });
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        let secs = start.elapsed().as_secs_f64();
        let summary: Summary = match result {
            Ok(s) => s,
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(2),
            Err(e) => {
                let _ = out.flush();
                eprintln!(
                    "error: the run stopped after {games} records: {e} (the reports above are complete)"
                );
                return Ok(2);
            }
        };
        if a.json {
            let _ = writeln!(
                out,
                "],\"summary\":{}}}",
                serde_json::to_string(&summary).unwrap_or_default()
            );
        } else if !jsonl {
            let _ = writeln!(
                out,
                "{} games: {} valid, {} invalid{}; {} plies",
                summary.games,
                summary.valid,
                summary.invalid,
                if summary.faults > 0 {
                    format!(" ({} with a plugin fault)", summary.faults)
                } else {
                    String::new()
                },
                summary.plies
            );
        }
        let flushed = out.flush().and_then(|_| match pgn_out.as_mut() {
            Some(w) => w.flush(),
            None => Ok(()),
        });
        if let Err(e) = flushed {
            eprintln!("error: {e}");
            return Ok(2);
        }
        for name in &summary.empty_sources {
            eprintln!(
                "error: {}: no game record in it (empty, or only blank lines and comments)",
                if name == "-" { "standard input" } else { name }
            );
        }
        eprintln!(
            "analyzed {} games, {} plies in {:.3} s: {:.0} games/s, {:.0} plies/s ({} job{})",
            summary.games,
            summary.plies,
            secs,
            summary.games as f64 / secs.max(1e-9),
            summary.plies as f64 / secs.max(1e-9),
            jobs,
            if jobs > 1 { "s" } else { "" }
        );
        Ok(if summary.faults > 0 {
            3
        } else if summary.invalid > 0 || !summary.empty_sources.is_empty() {
            1
        } else {
            0
        })
    }

    pub fn play(reg: &Registry, a: &PlayArgs) -> Result<i32, HostError> {
        let p = pipeline(reg, &a.rules)?;
        let specs = specs(&a.rules.presets)?;
        let start = p.position(a.fen.as_deref())?;
        let moves: Vec<String> = houserules_host::notation::move_texts(&a.moves)
            .into_iter()
            .map(str::to_string)
            .collect();
        let default = if moves.is_empty() {
            Some(Player::Human)
        } else {
            None
        };
        let mut setup = Setup {
            white: a.white.clone().or(default.clone()),
            black: a.black.clone().or(default),
            seed: 0,
            moves,
            max_plies: a.max_plies,
            show: !a.quiet && a.games <= 1,
            color: play::color_wanted(),
            echo: !io::stdin().is_terminal(),
            date: None,
            corpus: a.games > 1,
        };
        // A seed only matters (and is only printed) when a player draws on it.
        let seed = a.seed.unwrap_or_else(|| {
            let s = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(0);
            if setup.uses_seed() {
                eprintln!("seed {s}");
            }
            s
        });
        let mut records = String::new();
        let stdin = io::stdin();
        let mut input = stdin.lock();
        let stdout = io::stdout();
        let Ok(mut file_out) = output_file(a.out.as_deref()) else {
            return Ok(2);
        };
        for g in 0..a.games {
            setup.seed = seed.wrapping_add(g as u64);
            let played = {
                let mut out = stdout.lock();
                play::play(
                    &p,
                    start.clone(),
                    &setup,
                    &mut input as &mut dyn BufRead,
                    &mut out,
                )?
            };
            let rec = play::record(
                &p,
                &specs,
                a.rules.layout.is_some(),
                &played,
                &setup,
                g + 1,
                a.fen.is_some(),
            )?;
            match file_out.as_mut() {
                Some(w) => {
                    if let Err(e) = w.write_all(rec.as_bytes()) {
                        eprintln!("error: {e}");
                        return Ok(2);
                    }
                }
                None => records.push_str(&rec),
            }
        }
        if let Some(w) = file_out.as_mut() {
            if let Err(e) = w.flush() {
                eprintln!("error: {e}");
                return Ok(2);
            }
        } else {
            print!("{records}");
        }
        Ok(0)
    }

    /// Whether an output path means standard output (`-`).
    fn is_stdout(path: Option<&std::path::Path>) -> bool {
        path.is_some_and(|p| p.as_os_str() == "-")
    }

    /// Opens an output file if one was asked for (`-`: standard output); the error is
    /// reported here.
    fn output_file(path: Option<&std::path::Path>) -> Result<Option<Box<dyn Write>>, ()> {
        match path {
            Some(_) if is_stdout(path) => Ok(Some(Box::new(BufWriter::new(io::stdout())))),
            Some(path) => match File::create(path) {
                Ok(f) => Ok(Some(Box::new(BufWriter::new(f)))),
                Err(e) => {
                    eprintln!("error: cannot write {}: {e}", path.display());
                    Err(())
                }
            },
            None => Ok(None),
        }
    }
}
