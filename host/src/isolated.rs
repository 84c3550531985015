//! Analysis in supervised worker processes ([`crate::supervisor`]): the rules run in workers
//! of the host itself, so that a plugin that crashes, aborts, loops or eats memory costs the
//! record it happened on — reported with the cause — and never the batch.
//!
//! The parent process reads the records (host code, no plugin is ever loaded into it), sends
//! each to a worker in its binary form ([`crate::pgn::Record::encode`]), and writes the
//! formatted reports in input order. Each worker loads the plugins itself (telling the
//! supervisor which file it opens, so that a file it dies on is left out of later workers),
//! checks the command line's rules once, and analyzes record after record with one
//! [`Analyzer`], exactly as an in-process batch does.
//!
//! Other tasks (a `play` or `match` game, an engine search) plug in the same way: a task
//! variant of [`Task`] with what its worker needs, a branch in [`worker_main`] that sets it up,
//! and a payload per job.

use crate::analyze::{Analyzer, Options, RulesOverride};
use crate::batch::{self, Finished, Format, Job, Source, Summary};
use crate::fault::Fault;
use crate::loader::{PluginSearch, Registry};
use crate::pgn::Record;
use crate::pipeline::{Pipeline, PresetSpec};
use crate::supervisor::{self, Limits, Outcome, Supervisor, SupervisorError, WorkerSpec};
use serde::{Deserialize, Serialize};
use std::io;
use std::path::PathBuf;
use std::sync::Arc;

/// Where the workers look for plugins (a serializable [`PluginSearch`]).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Places {
    /// `--plugin FILE`.
    pub files: Vec<PathBuf>,
    /// `--plugin-dir DIR`.
    pub dirs: Vec<PathBuf>,
    /// `HOUSERULES_PLUGIN_PATH`.
    pub use_env: bool,
    /// The executable's directory.
    pub beside_executable: bool,
}

impl From<&PluginSearch> for Places {
    fn from(s: &PluginSearch) -> Places {
        Places {
            files: s.files.clone(),
            dirs: s.dirs.clone(),
            use_env: s.use_env,
            beside_executable: s.beside_executable,
        }
    }
}

impl Places {
    fn search(&self) -> PluginSearch {
        PluginSearch {
            files: self.files.clone(),
            dirs: self.dirs.clone(),
            use_env: self.use_env,
            beside_executable: self.beside_executable,
        }
    }
}

/// What a batch of records needs in its workers.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AnalyzeTask {
    /// Where the plugins are.
    pub places: Places,
    /// `--modifier FILE` descriptors (checked by each worker, used in every record).
    pub modifier_files: Vec<PathBuf>,
    /// `--variant`.
    pub variant: Option<String>,
    /// `--layout`.
    pub layout: Option<String>,
    /// `--preset` arguments as given (`None`: the records' tags).
    pub presets: Option<Vec<String>>,
    /// Per-ply output.
    pub plies: bool,
    /// Produce the normal form.
    pub normalized: bool,
    /// How reports are written.
    pub format: Format,
    /// `--engine LIMITS`: annotate every ply with an engine's view.
    #[serde(default)]
    pub engine: Option<String>,
    /// `--move-by-move`: never the variant's whole-line replay.
    #[serde(default)]
    pub move_by_move: bool,
}

/// The tasks a worker can be set up for.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Task {
    /// Analyze records.
    Analyze(AnalyzeTask),
}

/// What a worker answers when it is ready.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Ready {
    /// Warnings of loading plugins (printed once by the parent).
    pub warnings: Vec<String>,
    /// Said when no plugin was loaded.
    pub nothing_found: Option<String>,
}

/// The entry point of `houserules __worker`: serves the task the supervisor sends. Returns
/// the exit code.
pub fn worker_main() -> i32 {
    supervisor::serve(|init| {
        let task: Task = serde_json::from_slice(init.app)
            .map_err(|e| format!("worker: bad task description: {e}"))?;
        match task {
            Task::Analyze(t) => setup_analyze(t, init),
        }
    })
}

type Handler = Box<dyn FnMut(&[u8]) -> Vec<u8>>;

fn setup_analyze(
    t: AnalyzeTask,
    init: &mut supervisor::WorkerInit<'_>,
) -> Result<(Vec<u8>, Handler), String> {
    let skip = init.excluded.clone();
    let reg = Registry::discover_with(&t.places.search(), &skip, &mut |p| init.loading(p))
        .map_err(|e| e.to_string())?;
    // The registry lives as long as the worker process.
    let reg: &'static Registry = Box::leak(Box::new(reg));
    let modifiers = reg
        .modifier_ids(&t.modifier_files)
        .map_err(|e| e.to_string())?;
    let presets = match &t.presets {
        Some(list) => Some(
            list.iter()
                .map(|s| s.parse::<PresetSpec>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())?,
        ),
        None => None,
    };
    if t.variant.is_some() || t.layout.is_some() || presets.is_some() {
        let v = t.variant.as_deref().unwrap_or("chess");
        Pipeline::build(
            reg,
            v,
            t.layout.as_deref(),
            presets.as_deref().unwrap_or(&[]),
        )
        .map_err(|e| e.to_string())?;
    }
    let options = Options {
        rules: RulesOverride {
            variant: t.variant.clone(),
            layout: t.layout.clone(),
            presets,
            modifiers,
        },
        plies: t.plies,
        normalized: t.normalized,
        engine: t.engine.clone(),
        move_by_move: t.move_by_move,
    };
    let ready = Ready {
        warnings: reg.warnings.iter().map(|w| w.to_string()).collect(),
        nothing_found: reg.nothing_found(),
    };
    let format = t.format;
    let mut an = Analyzer::new(reg, options.clone());
    // Records of one file come one after another: its name is made once.
    let mut file_name: Arc<str> = Arc::from("");
    let handler = move |payload: &[u8]| -> Vec<u8> {
        let Some((index, file, record)) = decode_job(payload) else {
            return encode_result(None);
        };
        if *file_name != *file {
            file_name = Arc::from(file);
        }
        let job = Job {
            index,
            file: file_name.clone(),
            record,
            progress: 0,
        };
        let f = batch::analyze_one(&mut an, reg, &options, &format, &job);
        encode_result(Some(f))
    };
    let ready = serde_json::to_vec(&ready).unwrap_or_default();
    Ok((ready, Box::new(handler)))
}

fn encode_job(job: &Job, out: &mut Vec<u8>) {
    out.extend_from_slice(&job.index.to_le_bytes());
    out.extend_from_slice(&(job.file.len() as u32).to_le_bytes());
    out.extend_from_slice(job.file.as_bytes());
    job.record.encode(out);
}

fn decode_job(b: &[u8]) -> Option<(u64, &str, Record)> {
    let (index, b) = b.split_first_chunk::<8>()?;
    let (len, b) = b.split_first_chunk::<4>()?;
    let (file, b) = b.split_at_checked(u32::from_le_bytes(*len) as usize)?;
    let file = std::str::from_utf8(file).ok()?;
    Some((u64::from_le_bytes(*index), file, Record::decode(b)?))
}

/// A result: the output, the normal form, then a trailer of nine bytes: flags (valid, fault,
/// has normal form), plies, the output's length. The output comes first so that the worker
/// sends the report's own buffer and the parent keeps the frame as the output, neither
/// copying it (a record's per-ply JSON is tens of kilobytes). A single byte [`NO_RESULT`]:
/// the job could not be read.
fn encode_result(f: Option<Finished>) -> Vec<u8> {
    let Some(f) = f else {
        return vec![NO_RESULT];
    };
    let flags = u8::from(f.valid) | u8::from(f.fault) << 1 | u8::from(f.normalized.is_some()) << 2;
    let norm = f.normalized.as_deref().unwrap_or("");
    let len = f.output.len() as u32;
    let mut out = f.output;
    out.reserve(norm.len() + TRAILER);
    out.extend_from_slice(norm.as_bytes());
    out.push(flags);
    out.extend_from_slice(&f.plies.to_le_bytes());
    out.extend_from_slice(&len.to_le_bytes());
    out
}

/// The answer of a worker that could not read its job.
const NO_RESULT: u8 = 0xff;
/// The bytes of a result's trailer (flags, plies, output length).
const TRAILER: usize = 9;

fn decode_result(mut b: Vec<u8>, index: u64, progress: u64) -> Option<Finished> {
    let t = b.len().checked_sub(TRAILER)?;
    let (&flags, rest) = b[t..].split_first()?;
    let (plies, rest) = rest.split_first_chunk::<4>()?;
    let len = u32::from_le_bytes(*rest.first_chunk::<4>()?) as usize;
    let plies = u32::from_le_bytes(*plies);
    let norm = b.get(len..t)?;
    let normalized = (flags & 4 != 0).then(|| String::from_utf8_lossy(norm).into_owned());
    b.truncate(len);
    Some(Finished {
        index,
        output: b,
        normalized,
        valid: flags & 1 != 0,
        plies,
        fault: flags & 2 != 0,
        progress,
    })
}

/// The start of an isolated batch: the workers are up, or why not.
pub struct Prepared {
    supervisor: Supervisor,
    format: Format,
    /// Warnings for the user: loading problems, plugin files a worker died opening.
    pub warnings: Vec<String>,
    /// Said when the workers loaded no plugin.
    pub nothing_found: Option<String>,
}

/// Starts the workers of an analysis batch (the first one synchronously: a setup error —
/// rules on the command line that do not assemble, a bad `--modifier` — stops here).
pub fn prepare(task: AnalyzeTask, limits: Limits) -> Result<Prepared, SupervisorError> {
    let format = task.format;
    let explicit: Vec<PathBuf> = task
        .places
        .files
        .iter()
        .map(|f| std::path::absolute(f).unwrap_or_else(|_| f.clone()))
        .collect();
    let init = serde_json::to_vec(&Task::Analyze(task))
        .map_err(|e| SupervisorError::Setup(e.to_string()))?;
    let spec = WorkerSpec::this_executable(init).map_err(|source| SupervisorError::Spawn {
        program: PathBuf::from("houserules"),
        source,
    })?;
    let supervisor = Supervisor::start(spec, limits)?;
    let ready: Ready = serde_json::from_slice(supervisor.ready()).unwrap_or_default();
    let mut warnings = ready.warnings;
    // A file asked for by name that kills its worker stops the run (as a file that does not
    // load stops an in-process run); one found in a directory is left out with a warning.
    if let Some(e) = supervisor
        .excluded()
        .into_iter()
        .find(|e| explicit.contains(&e.path))
    {
        return Err(SupervisorError::Start(Box::new(e.fault)));
    }
    for e in supervisor.excluded() {
        warnings.push(format!(
            "plugin file {}: not loaded: {}",
            e.path.display(),
            e.fault
        ));
    }
    Ok(Prepared {
        supervisor,
        format,
        warnings,
        nothing_found: ready.nothing_found,
    })
}

impl Prepared {
    /// Analyzes every record of `sources` on the workers; `sink` gets the results in input
    /// order. A record whose worker failed is reported with its [`Fault`].
    pub fn run<S>(&mut self, sources: Vec<Source>, mut sink: S) -> io::Result<Summary>
    where
        S: FnMut(Finished) -> io::Result<()>,
    {
        let format = self.format;
        let mut summary = Summary::default();
        let read = self.supervisor.run(
            move |emit: &mut dyn FnMut(Job, Vec<u8>) -> bool| {
                let mut empty = Vec::new();
                batch::read_jobs(sources, &mut empty, |mut job| {
                    let mut payload = Vec::new();
                    encode_job(&job, &mut payload);
                    job.record.keep_header();
                    emit(job, payload)
                })
                .map(|()| empty)
            },
            |job: Job, outcome| {
                let f = match outcome {
                    Outcome::Done(bytes) => decode_result(bytes, job.index, job.progress)
                        .unwrap_or_else(|| {
                            batch::lost(
                                &job,
                                &format,
                                Fault::new("protocol", "the worker's answer could not be read"),
                            )
                        }),
                    Outcome::Failed(fault) => batch::lost(&job, &format, fault),
                };
                summary.add(&f);
                sink(f)
            },
        )?;
        summary.empty_sources = read?;
        Ok(summary)
    }

    /// Warnings gathered during the run (workers that ended badly after their last job).
    pub fn run_warnings(&self) -> Vec<String> {
        self.supervisor.warnings()
    }
}
