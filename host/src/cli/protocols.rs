//! The CLI of the protocols: `uci`, `xboard` and `match`.

use super::Rules;
use houserules_host::arbiter::{
    self, EngineSpec, MatchError, MatchEvent, MatchReport, MatchSettings, Protocol, RulesOptions,
    TimeControl,
};
use houserules_host::uci::RulesChoice;
use houserules_host::{HostError, Pipeline, PluginSearch, PresetSpec, Registry};
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

#[derive(clap::Args)]
pub struct ProtocolArgs {
    /// The rules the session starts with (a GUI may change them through options).
    #[command(flatten)]
    rules: Rules,
}

fn choice(rules: &Rules, modifier_files: &[PathBuf]) -> Result<RulesChoice, HostError> {
    Ok(RulesChoice {
        variant: rules.variant.clone(),
        layout: rules.layout.clone(),
        presets: rules
            .presets
            .iter()
            .map(|s| s.parse())
            .collect::<Result<Vec<PresetSpec>, _>>()?,
        modifier_files: modifier_files.to_vec(),
    })
}

/// A protocol session (`houserules_host::uci::run` or `houserules_host::xboard::run`).
type Session = fn(
    PluginSearch,
    houserules_host::uci::RulesChoice,
    Box<dyn std::io::BufRead + Send>,
    Box<dyn std::io::Write + Send>,
) -> Result<(), HostError>;

/// `houserules uci` and `houserules xboard`: a session on standard input and output.
pub fn session(
    run: Session,
    search: PluginSearch,
    a: &ProtocolArgs,
    modifiers: &[PathBuf],
) -> Result<i32, HostError> {
    run(
        search,
        choice(&a.rules, modifiers)?,
        Box::new(std::io::BufReader::new(std::io::stdin())),
        Box::new(std::io::stdout()),
    )?;
    Ok(0)
}

#[derive(clap::Args)]
pub struct MatchArgs {
    /// An engine's command line, run by `sh -c` (at least two; `houserules uci` is this
    /// program's engine).
    #[arg(long = "engine", value_name = "COMMAND", required = true)]
    engines: Vec<String>,
    /// The protocol of engine N (1-based, in --engine order) or, without `N:`, of every
    /// engine: `uci` (the default) or `xboard` (CECP v2): `--protocol 2:xboard`
    /// (repeatable).
    #[arg(long = "protocol", value_name = "[N:]uci|xboard")]
    protocols: Vec<String>,
    /// An option for engine N (1-based, in --engine order) or, without `N:`, for every
    /// engine: `--option 2:UCI_Elo=1500` (repeatable; XBoard engines get `option NAME=VALUE`).
    #[arg(long = "option", value_name = "[N:]NAME=VALUE")]
    options: Vec<String>,
    /// A name for engine N in the results and records: `--name 2:FSF-1500` (default: the
    /// engine's own `id name`).
    #[arg(long = "name", value_name = "N:NAME")]
    names: Vec<String>,
    #[command(flatten)]
    rules: Rules,
    /// Games per pair of engines (colours alternate).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Time per move, milliseconds (the default: 100; 1000 where an XBoard engine plays, whose
    /// time per move is whole seconds).
    #[arg(long, value_name = "MS", conflicts_with = "tc")]
    movetime: Option<u64>,
    /// A clock: `[moves/]base[+inc]` in seconds, e.g. `10+0.1`.
    #[arg(long, value_name = "TC")]
    tc: Option<TimeControl>,
    /// How far past its time an engine may answer before it forfeits, milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 500)]
    margin: u64,
    /// Adjudicate a draw after this many plies (0: never).
    #[arg(long, default_value_t = 600)]
    max_plies: u32,
    /// Games played at the same time, each with engines of its own (as cutechess-cli's
    /// `-concurrency`): up to the number of cores, so that no engine thinks on a busy one.
    #[arg(long, value_name = "N", default_value_t = 1)]
    concurrency: usize,
    /// Start positions: FENs, one per line, or a PGN file (each used for two games,
    /// colours swapped).
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Write the games to this PGN file.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Only the final score.
    #[arg(long, short)]
    quiet: bool,
    /// The ids of the custom modifiers of `--modifier` (filled in by the CLI).
    #[arg(skip)]
    pub modifier_ids: Vec<String>,
}

fn engine_specs(a: &MatchArgs) -> Result<Vec<EngineSpec>, MatchError> {
    if a.engines.len() < 2 {
        return Err(MatchError::Usage(
            "a match needs at least two --engine".into(),
        ));
    }
    let mut specs: Vec<EngineSpec> = a
        .engines
        .iter()
        .map(|c| EngineSpec {
            command: c.clone(),
            ..EngineSpec::default()
        })
        .collect();
    for t in &a.protocols {
        let (target, name) = engine_target(t, "protocol", "[N:]uci|xboard", specs.len())?;
        let protocol: Protocol = name
            .parse()
            .map_err(|e| MatchError::Usage(format!("--protocol `{t}`: {e}")))?;
        for (i, s) in specs.iter_mut().enumerate() {
            if target.is_none_or(|k| k == i) {
                s.protocol = protocol;
            }
        }
    }
    for n in &a.names {
        let bad = || MatchError::Usage(format!("--name `{n}`: expected N:NAME"));
        let (i, name) = n.split_once(':').ok_or_else(bad)?;
        let i: usize = i.trim().parse().map_err(|_| bad())?;
        let Some(s) = i.checked_sub(1).and_then(|i| specs.get_mut(i)) else {
            return Err(MatchError::Usage(format!(
                "--name `{n}`: there is no engine {i}"
            )));
        };
        s.name = Some(name.trim().to_string());
    }
    for o in &a.options {
        let bad = || MatchError::Usage(format!("--option `{o}`: expected [N:]NAME=VALUE"));
        let (target, rest) = engine_target(o, "option", "[N:]NAME=VALUE", specs.len())?;
        let (k, v) = rest.split_once('=').ok_or_else(bad)?;
        if k.trim().is_empty() {
            return Err(bad());
        }
        for (i, s) in specs.iter_mut().enumerate() {
            if target.is_none_or(|t| t == i) {
                s.options.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
    }
    Ok(specs)
}

/// An argument `[N:]REST` of `--{flag}`: the engine it is for (0-based; `None`: every
/// engine) and the rest.
fn engine_target<'a>(
    arg: &'a str,
    flag: &str,
    form: &str,
    engines: usize,
) -> Result<(Option<usize>, &'a str), MatchError> {
    match arg.split_once(':') {
        Some((n, rest)) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => {
            let n: usize = n
                .parse()
                .map_err(|_| MatchError::Usage(format!("--{flag} `{arg}`: expected {form}")))?;
            if n == 0 || n > engines {
                return Err(MatchError::Usage(format!(
                    "--{flag} `{arg}`: there is no engine {n} (engines: 1..{engines})"
                )));
            }
            Ok((Some(n - 1), rest))
        }
        _ => Ok((None, arg)),
    }
}

fn summary(r: &MatchReport) -> Vec<String> {
    let mut out = Vec::new();
    for ((i, j), t) in &r.pairs {
        out.push(format!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}  (W/D/L {}/{}/{})",
            r.names[*i],
            r.names[*j],
            t.wins,
            t.losses,
            t.draws,
            t.score(),
            t.games(),
            t.wins,
            t.draws,
            t.losses
        ));
    }
    out
}

/// `houserules match`.
pub fn run_match(
    reg: &Registry,
    a: &MatchArgs,
    modifier_files: &[PathBuf],
) -> Result<i32, HostError> {
    match run(reg, a, modifier_files, &a.modifier_ids) {
        Ok(()) => Ok(0),
        Err(MatchError::Host(e)) => Err(e),
        Err(e) => {
            eprintln!("error: {e}");
            Ok(2)
        }
    }
}

fn run(
    reg: &Registry,
    a: &MatchArgs,
    modifier_files: &[PathBuf],
    modifier_ids: &[String],
) -> Result<(), MatchError> {
    let specs = engine_specs(a)?;
    let mut rules = a.rules.clone();
    rules.presets.extend(modifier_ids.iter().cloned());
    let p: Pipeline = super::pipeline(reg, &rules)?;
    let preset_specs: Vec<PresetSpec> = rules
        .presets
        .iter()
        .map(|s| s.parse())
        .collect::<Result<_, _>>()?;
    let own_presets: Vec<String> = a.rules.presets.clone();
    let openings = match &a.openings {
        Some(f) => {
            let text = std::fs::read_to_string(f)
                .map_err(|e| MatchError::Usage(format!("cannot read {}: {e}", f.display())))?;
            arbiter::read_openings(&p, &f.display().to_string(), &text)?
        }
        None => vec![arbiter::Opening {
            start: p.start_position()?,
            is_layout_start: true,
            moves: Vec::new(),
        }],
    };
    let time = match (a.tc, a.movetime) {
        (Some(tc), _) => tc,
        (None, Some(ms)) => TimeControl::MoveTime(Duration::from_millis(ms.max(1))),
        // XBoard's time per move is whole seconds: 1 s where an XBoard engine plays.
        (None, None) if specs.iter().any(|s| s.protocol == Protocol::Xboard) => {
            TimeControl::MoveTime(Duration::from_secs(1))
        }
        (None, None) => TimeControl::MoveTime(Duration::from_millis(100)),
    };
    let settings = MatchSettings {
        rules: RulesOptions {
            variant: a.rules.variant.clone(),
            layout: a.rules.layout.clone(),
            presets: (!own_presets.is_empty()).then(|| own_presets.join(" ")),
            modifiers: (!modifier_files.is_empty()).then(|| {
                modifier_files
                    .iter()
                    .map(|f| f.display().to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            }),
        },
        rule_tags: houserules_host::analyze::rules_tags(
            &p,
            &preset_specs,
            a.rules.layout.is_some(),
        ),
        games: a.games,
        time,
        margin: Duration::from_millis(a.margin),
        max_plies: a.max_plies,
        openings,
        concurrency: a.concurrency,
    };
    let mut pgn: Option<std::io::BufWriter<std::fs::File>> = match &a.pgn {
        Some(f) => Some(std::io::BufWriter::new(std::fs::File::create(f).map_err(
            |e| MatchError::Io(format!("cannot write {}: {e}", f.display())),
        )?)),
        None => None,
    };
    let quiet = a.quiet;
    let report = arbiter::run_match(&p, &specs, &settings, &mut |ev, report| {
        let MatchEvent::Game {
            number,
            total,
            sides,
            result,
        } = ev;
        if let Some(w) = pgn.as_mut() {
            w.write_all(result.record.as_bytes())
                .and_then(|_| w.write_all(b"\n"))
                .and_then(|_| w.flush())
                .map_err(|e| MatchError::Io(format!("cannot write the PGN file: {e}")))?;
        }
        if !quiet {
            println!(
                "Game {number}/{total}: {} vs {}: {} {{{}}}",
                report.names[sides[0]], report.names[sides[1]], result.result, result.termination
            );
            for l in summary(report) {
                println!("  {l}");
            }
        }
        Ok(())
    })?;
    println!("Final:");
    for (l, (_, t)) in summary(&report).iter().zip(&report.pairs) {
        println!("{l}");
        println!("Elo difference: {}", t.elo_text());
    }
    Ok(())
}
