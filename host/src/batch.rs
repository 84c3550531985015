//! Batches of records: read, analyze on threads of this process, and hand each result back
//! in input order as soon as it and every record before it are done.
//!
//! Nothing is lost and nothing deadlocks: a panic while analyzing a record (a bug of the host:
//! panics in plugins are caught at the boundary already) is caught around that record, which
//! is reported with a `host-panic` fault, and the batch goes on with a fresh analyzer; each
//! record handed to a worker comes back exactly once, even if the worker thread dies. For
//! faults that a process cannot survive (crashes, aborts, endless loops in plugin code) see
//! [`crate::isolated`], which runs the same analysis in supervised worker processes.

use crate::analyze::{Analyzer, GameReport, Options};
use crate::fault::Fault;
use crate::loader::Registry;
use crate::pgn::{Reader, Record};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// A source of records.
pub struct Source {
    /// Name for reports (`-` for standard input).
    pub name: String,
    /// The text.
    pub reader: Box<dyn BufRead + Send>,
}

/// How a report is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Format {
    /// One readable line per game (and one per error); `quiet`: only invalid games.
    Text {
        /// Only invalid games.
        quiet: bool,
    },
    /// JSON objects, separated by the caller (`{"games": [...]}`).
    Json,
    /// One JSON object per line.
    Jsonl,
}

impl Format {
    /// The bytes written for one report.
    pub fn report(&self, r: &GameReport) -> Vec<u8> {
        match self {
            Format::Json | Format::Jsonl => {
                let mut v = Vec::new();
                crate::report_json::write_report(r, &mut v);
                if matches!(self, Format::Jsonl) {
                    v.push(b'\n');
                }
                v
            }
            Format::Text { quiet } => text_line(r, *quiet).into_bytes(),
        }
    }
}

fn text_line(r: &GameReport, quiet: bool) -> String {
    let mut s = String::new();
    if quiet && r.valid() {
        return s;
    }
    let tag = |n: &str| {
        r.tags
            .0
            .iter()
            .find(|(k, _)| k == n)
            .map(|(_, v)| v.as_str())
            .unwrap_or("?")
    };
    let res = &r.result;
    s.push_str(&format!(
        "#{} {}:{} \"{}\" {} - {}: {} plies, declared {}, computed {} ({}){}: {}\n",
        r.index,
        r.file,
        r.line,
        tag("Event"),
        tag("White"),
        tag("Black"),
        r.ply_count,
        res.declared.as_deref().unwrap_or("none"),
        res.computed,
        res.termination,
        res.claimable
            .as_ref()
            .map(|c| format!(", {c} claimable"))
            .unwrap_or_default(),
        if r.fault.is_some() {
            "FAULT"
        } else if r.valid() {
            "ok"
        } else {
            "INVALID"
        }
    ));
    for e in &r.errors {
        s.push_str(&format!(
            "  error at {}:{}:{}{}: {}\n",
            r.file,
            e.line,
            e.column,
            e.ply.map(|p| format!(" (ply {p})")).unwrap_or_default(),
            e.message
        ));
        if !e.legal.is_empty() && !e.message.contains("legal:") {
            s.push_str(&format!("    legal moves include: {}\n", e.legal.join(" ")));
        }
    }
    for w in &r.warnings {
        s.push_str(&format!(
            "  warning at {}:{}:{}{}: {}\n",
            r.file,
            w.line,
            w.column,
            w.ply.map(|p| format!(" (ply {p})")).unwrap_or_default(),
            w.message
        ));
    }
    s
}

/// One analyzed record as handed to the caller, in input order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// Position in the input, from 1 (across all sources).
    pub index: u64,
    /// The report as formatted.
    pub output: Vec<u8>,
    /// The record in normal form, when asked for and possible.
    pub normalized: Option<String>,
    /// Whether the record is valid.
    pub valid: bool,
    /// Main-line plies replayed.
    pub plies: u32,
    /// Whether plugin code failed on it (see [`GameReport::fault`]).
    pub fault: bool,
    /// Bytes of input consumed so far (all sources).
    pub progress: u64,
}

impl Finished {
    /// The result for `report`, formatted by `format`.
    pub fn of(report: &GameReport, format: &Format, progress: u64) -> Finished {
        Finished {
            index: report.index,
            output: format.report(report),
            normalized: report.normalized.clone(),
            valid: report.valid(),
            plies: report.ply_count,
            fault: report.fault.is_some(),
            progress,
        }
    }
}

/// Totals of a batch.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Records read.
    pub games: u64,
    /// Valid records.
    pub valid: u64,
    /// Records with errors.
    pub invalid: u64,
    /// Main-line plies replayed.
    pub plies: u64,
    /// Records on which plugin code (or the host) failed: panics, crashes, timeouts.
    pub faults: u64,
    /// Sources that held no record at all (empty, or blank lines and comments only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub empty_sources: Vec<String>,
}

impl Summary {
    /// Counts one result.
    pub fn add(&mut self, f: &Finished) {
        self.games += 1;
        if f.valid {
            self.valid += 1;
        } else {
            self.invalid += 1;
        }
        if f.fault {
            self.faults += 1;
        }
        self.plies += f.plies as u64;
    }
}

/// A record to analyze, with what a report of its failure needs.
pub(crate) struct Job {
    pub(crate) index: u64,
    pub(crate) file: Arc<str>,
    pub(crate) record: Record,
    pub(crate) progress: u64,
}

/// Reads the records of `sources` in order, numbering them from 1, and hands each to
/// `emit` (which returns `false` to stop). Sources without a record are noted in `empty`.
pub(crate) fn read_jobs(
    sources: Vec<Source>,
    empty: &mut Vec<String>,
    mut emit: impl FnMut(Job) -> bool,
) -> io::Result<()> {
    let mut index = 0u64;
    let mut base = 0u64;
    for src in sources {
        let file: Arc<str> = Arc::from(src.name.as_str());
        let mut reader = Reader::new(src.reader);
        let mut last = 0;
        let mut any = false;
        while let Some(record) = reader.next_record()? {
            any = true;
            index += 1;
            last = record.end_offset;
            let job = Job {
                index,
                file: file.clone(),
                progress: base + record.end_offset,
                record,
            };
            if !emit(job) {
                return Ok(());
            }
        }
        if !any {
            empty.push(src.name.clone());
        }
        base += last;
    }
    Ok(())
}

/// The text of a panic payload.
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// Analyzes one job, catching a panic of the host around it (the analyzer is then rebuilt:
/// its state may be half-updated).
pub(crate) fn analyze_one<'r>(
    an: &mut Analyzer<'r>,
    registry: &'r Registry,
    options: &Options,
    format: &Format,
    job: &Job,
) -> Finished {
    guarded(job, format, || {
        let report = an.analyze(&job.record, job.index, &job.file);
        Finished::of(&report, format, job.progress)
    })
    .unwrap_or_else(|f| {
        *an = Analyzer::new(registry, options.clone());
        f
    })
}

/// Runs `f` for `job`; a panic becomes the job's `host-panic` result (`Err`).
fn guarded(job: &Job, format: &Format, f: impl FnOnce() -> Finished) -> Result<Finished, Finished> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let fault = Fault::new(
            "host-panic",
            format!(
                "the host panicked while analyzing this record: {}",
                panic_message(&*payload)
            ),
        );
        lost(job, format, fault)
    })
}

/// The result for a job whose analysis failed.
pub(crate) fn lost(job: &Job, format: &Format, fault: Fault) -> Finished {
    let report = GameReport::failed(&job.record, job.index, &job.file, fault);
    let f = catch_unwind(AssertUnwindSafe(|| {
        Finished::of(&report, format, job.progress)
    }));
    f.unwrap_or_else(|_| Finished {
        index: job.index,
        output: Vec::new(),
        normalized: None,
        valid: false,
        plies: 0,
        fault: true,
        progress: job.progress,
    })
}

/// Sends the results of a batch of jobs exactly once: if the thread unwinds before they are
/// sent, the guard sends those made and a `host-panic` result for each job left.
struct Pending<'a> {
    jobs: std::collections::VecDeque<Job>,
    results: Vec<Finished>,
    format: &'a Format,
    done: &'a mpsc::Sender<Vec<Finished>>,
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        for job in self.jobs.drain(..) {
            let fault = Fault::new("host-panic", "the worker thread died on this record");
            self.results.push(lost(&job, self.format, fault));
        }
        if !self.results.is_empty() {
            let _ = self.done.send(std::mem::take(&mut self.results));
        }
    }
}

/// The records read and not yet taken by a worker thread. A worker takes several at once
/// when several wait, and the reader wakes a worker only when one is idle: busy threads
/// cost no wake-ups, and a record is never held back for a batch to fill.
#[derive(Default)]
struct JobQueue {
    state: Mutex<QueueState>,
    ready: std::sync::Condvar,
}

#[derive(Default)]
struct QueueState {
    jobs: std::collections::VecDeque<Job>,
    closed: bool,
    idle: usize,
}

impl JobQueue {
    /// Adds a record; false when the run is over (the sink failed).
    fn push(&self, job: Job) -> bool {
        let Ok(mut q) = self.state.lock() else {
            return false;
        };
        if q.closed {
            return false;
        }
        q.jobs.push_back(job);
        if q.idle > 0 {
            self.ready.notify_one();
        }
        true
    }

    /// No more records: the workers end once the queue is empty.
    fn close(&self) {
        self.end(false);
    }

    /// The run is over: the records waiting are dropped, the workers end now.
    fn abandon(&self) {
        self.end(true);
    }

    fn end(&self, drop_waiting: bool) {
        if let Ok(mut q) = self.state.lock() {
            q.closed = true;
            if drop_waiting {
                q.jobs.clear();
            }
        }
        self.ready.notify_all();
    }

    /// The next records for one of `workers` threads (a fair share of those waiting, at
    /// most `most`); `None` when the queue is closed and empty.
    fn take(&self, workers: usize, most: usize) -> Option<std::collections::VecDeque<Job>> {
        let mut q = self.state.lock().ok()?;
        loop {
            if !q.jobs.is_empty() {
                let n = (q.jobs.len() / workers).clamp(1, most.max(1));
                return Some(q.jobs.drain(..n).collect());
            }
            if q.closed {
                return None;
            }
            q.idle += 1;
            q = self.ready.wait(q).ok()?;
            q.idle -= 1;
        }
    }
}

/// Records a worker thread takes at once at most, and tokens handed back to the reader
/// together ([`crate::tokens`]): per record, the wake-ups cost more than a second thread
/// gained. 64 rather than 16: on 100,000 real-world games with two jobs, 0.97 → 0.83 s
/// (`--no-plies`) and 1.62 → 1.46 s (per-ply JSON), the CPU time spent on waking threads and
/// on freeing memory across them a sixth less (docs/benchmarks.md, 2026-12-06).
const BATCH: usize = 64;

/// About how long a worker thread's batch should take: where records are slow (engine
/// analysis, huge games) a worker takes fewer at once, down to one, so that their results
/// are handed on without waiting for a batch and no thread sits idle at the end while
/// another still holds a batch of them.
const BATCH_TIME: Duration = Duration::from_millis(5);

/// The records a worker takes next, after a batch of `n` took `elapsed`: as many as fit
/// [`BATCH_TIME`] at that pace, 1 to [`BATCH`].
fn next_batch(n: usize, elapsed: Duration) -> usize {
    let per_record = elapsed / n.max(1) as u32;
    if per_record.is_zero() {
        return BATCH;
    }
    (BATCH_TIME.as_nanos() / per_record.as_nanos()).clamp(1, BATCH as u128) as usize
}

/// Reads every record of `sources` and analyzes it on `jobs` threads (1: on this thread);
/// `sink` receives the results in input order, each as soon as it and all before it are done.
/// Memory stays bounded: at most `256 * jobs + 64` records are in flight.
pub fn run<S>(
    registry: &Registry,
    options: &Options,
    sources: Vec<Source>,
    jobs: usize,
    format: &Format,
    sink: S,
) -> io::Result<Summary>
where
    S: FnMut(Finished) -> io::Result<()>,
{
    run_with(
        sources,
        jobs,
        format,
        || Analyzer::new(registry, options.clone()),
        |an, job| analyze_one(an, registry, options, format, job),
        sink,
    )
}

/// [`run`] over any per-thread state `make` builds and any `step` (the analysis, or a test's
/// stand-in): a panic in `step` costs its record (a `host-panic` result) and the state is
/// built anew.
pub(crate) fn run_with<T, M, F, S>(
    sources: Vec<Source>,
    jobs: usize,
    format: &Format,
    make: M,
    step: F,
    mut sink: S,
) -> io::Result<Summary>
where
    M: Fn() -> T + Sync,
    F: Fn(&mut T, &Job) -> Finished + Sync,
    S: FnMut(Finished) -> io::Result<()>,
{
    let step = |state: &mut T, job: &Job| -> Finished {
        guarded(job, format, || step(state, job)).unwrap_or_else(|f| {
            *state = make();
            f
        })
    };
    let mut summary = Summary::default();
    if jobs <= 1 {
        let mut state = make();
        let mut sink_error = None;
        let mut empty = Vec::new();
        read_jobs(sources, &mut empty, |job| {
            let f = step(&mut state, &job);
            summary.add(&f);
            match sink(f) {
                Ok(()) => true,
                Err(e) => {
                    sink_error = Some(e);
                    false
                }
            }
        })?;
        if let Some(e) = sink_error {
            return Err(e);
        }
        summary.empty_sources = empty;
        return Ok(summary);
    }

    // Records in flight (read and not yet handed to the sink): bounded, whatever a slow
    // record holds up.
    let window = jobs * BATCH * 4 + BATCH;
    let queue = JobQueue::default();
    let (done_tx, done_rx) = mpsc::channel::<Vec<Finished>>();
    let (tokens, token_rx) = crate::tokens::window(window, BATCH);
    let read_result: Mutex<io::Result<Vec<String>>> = Mutex::new(Ok(Vec::new()));
    let (make, step, queue) = (&make, &step, &queue);
    let result = std::thread::scope(|s| -> io::Result<()> {
        // Owned here, so that an early return (the sink failed) ends the reader too.
        let mut tokens = tokens;
        let read_result = &read_result;
        s.spawn(move || {
            let mut empty = Vec::new();
            let r = catch_unwind(AssertUnwindSafe(|| {
                read_jobs(sources, &mut empty, |job| {
                    token_rx.recv().is_ok() && queue.push(job)
                })
            }));
            queue.close();
            let r = match r {
                Ok(r) => r.map(|()| empty),
                Err(p) => Err(io::Error::other(format!(
                    "the record reader panicked: {}",
                    panic_message(&*p)
                ))),
            };
            if let Ok(mut slot) = read_result.lock() {
                *slot = r;
            }
        });
        for _ in 0..jobs {
            let done_tx = done_tx.clone();
            s.spawn(move || {
                let mut state = make();
                // The first batch is a single record: its time says how many the next may be.
                let mut most = 1;
                while let Some(batch) = queue.take(jobs, most) {
                    let (n, started) = (batch.len(), Instant::now());
                    let mut pending = Pending {
                        results: Vec::with_capacity(batch.len()),
                        jobs: batch,
                        format,
                        done: &done_tx,
                    };
                    while let Some(job) = pending.jobs.front() {
                        let f = step(&mut state, job);
                        pending.jobs.pop_front();
                        pending.results.push(f);
                    }
                    let results = std::mem::take(&mut pending.results);
                    drop(pending);
                    if done_tx.send(results).is_err() {
                        queue.abandon();
                        return;
                    }
                    most = next_batch(n, started.elapsed());
                }
            });
        }
        drop(done_tx);
        // Reorder and hand over in input order.
        let mut pending: BTreeMap<u64, Finished> = BTreeMap::new();
        let mut next = 1u64;
        for f in done_rx.iter().flatten() {
            pending.insert(f.index, f);
            while let Some(f) = pending.remove(&next) {
                summary.add(&f);
                next += 1;
                if let Err(e) = sink(f) {
                    // The run is over: the records read and not taken are not analyzed (the
                    // reader ends too, its tokens gone with this scope).
                    queue.abandon();
                    return Err(e);
                }
                tokens.done();
            }
        }
        Ok(())
    });
    result?;
    let read = read_result
        .into_inner()
        .unwrap_or_else(|_| Err(io::Error::other("the record reader died")))?;
    summary.empty_sources = read;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sources(n: usize) -> Vec<Source> {
        let text: String = (0..n)
            .map(|i| format!("[Round \"{i}\"]\n1. e4 *\n\n"))
            .collect();
        vec![
            Source {
                name: "a".into(),
                reader: Box::new(io::Cursor::new(text.into_bytes())),
            },
            Source {
                name: "empty".into(),
                reader: Box::new(io::Cursor::new(b"\n  \n".to_vec())),
            },
        ]
    }

    /// Issue 14 reproducer 4: a panic while analyzing a record (here a stand-in for a bug of
    /// the host) costs that record only, with one or two jobs: every record is reported, in
    /// order, and nothing deadlocks.
    #[test]
    fn a_panic_costs_its_record_and_nothing_else() {
        for jobs in [1, 2, 3] {
            let mut seen = Vec::new();
            let summary = run_with(
                sources(50),
                jobs,
                &Format::Jsonl,
                || 0u32,
                |calls, job| {
                    *calls += 1;
                    if job.index % 7 == 0 {
                        panic!("deliberate failure on record {}", job.index);
                    }
                    Finished {
                        index: job.index,
                        output: format!("{} after {calls}\n", job.index).into_bytes(),
                        normalized: None,
                        valid: true,
                        plies: 1,
                        fault: false,
                        progress: job.progress,
                    }
                },
                |f| {
                    seen.push(f);
                    Ok(())
                },
            )
            .unwrap();
            let order: Vec<u64> = seen.iter().map(|f| f.index).collect();
            assert_eq!(order, (1..=50).collect::<Vec<_>>(), "jobs {jobs}");
            assert_eq!(summary.faults, 7);
            assert_eq!(summary.valid, 43);
            assert_eq!(summary.empty_sources, ["empty"]);
            let failed = &seen[6];
            assert!(failed.fault && !failed.valid);
            let text = String::from_utf8_lossy(&failed.output);
            assert!(text.contains("deliberate failure on record 7"), "{text}");
            assert!(text.contains("\"kind\":\"host-panic\""), "{text}");
        }
    }

    #[test]
    fn slow_records_are_taken_one_at_a_time_and_fast_ones_in_batches() {
        // 15 µs a record (a game replayed): a full batch.
        assert_eq!(next_batch(64, Duration::from_micros(64 * 15)), BATCH);
        // 200 ms a record (engine analysis): one at a time.
        assert_eq!(next_batch(1, Duration::from_millis(200)), 1);
        // 2.5 ms a record: two fit the batch's time.
        assert_eq!(next_batch(4, Duration::from_millis(10)), 2);
        // Too fast to time: a full batch.
        assert_eq!(next_batch(8, Duration::ZERO), BATCH);
    }

    #[test]
    fn a_failing_sink_stops_the_run_without_hanging() {
        for jobs in [1, 2] {
            let mut n = 0;
            let r = run_with(
                sources(500),
                jobs,
                &Format::Jsonl,
                || (),
                |_, job| Finished {
                    index: job.index,
                    output: Vec::new(),
                    normalized: None,
                    valid: true,
                    plies: 0,
                    fault: false,
                    progress: 0,
                },
                |_| {
                    n += 1;
                    if n == 3 {
                        Err(io::Error::other("disk full"))
                    } else {
                        Ok(())
                    }
                },
            );
            assert_eq!(r.unwrap_err().to_string(), "disk full");
        }
    }
}
