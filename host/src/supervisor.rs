//! Supervised worker processes: plugin code that crashes, aborts, hangs or eats memory costs
//! one job (one record, one game), reported with its cause, and never the run.
//!
//! A worker is the host binary itself, started again with a hidden subcommand
//! (`houserules __worker`). Parent and worker speak a small framed protocol over the worker's
//! standard input and output (the worker's own file descriptor 1 is pointed at its standard
//! error first, so nothing a plugin prints can corrupt a frame):
//!
//! ```text
//! frame   = length:u32le kind:u8 body          (length counts kind and body)
//! parent → worker: INIT   memory:u64le n:u32le (len:u32le path)*n app-bytes
//!                  JOB    id:u64le payload | JOB_ALONE id:u64le payload (answered at once)
//!                  QUIT
//! worker → parent: LOADING path    (before each plugin file is opened)
//!                  READY app-bytes | SETUP_ERROR message
//!                  RESULT id:u64le payload | FAILED id:u64le message (a panic in the handler)
//!                  RUNNING job:u64le text (from a fatal-signal, timeout or exit handler: the
//!                  job and the plugin code running then; one write(2), so it never splits)
//! ```
//!
//! The parent keeps a few jobs in flight per worker and times the oldest one. The worker
//! writes its results in small groups (each write wakes the parent; see `serve` for when a
//! group ends: at the latest 2 ms after it began, so the timer is that much off at
//! most). When a worker dies (a signal, an exit) or its job runs past the timeout (the parent
//! asks the worker where it is with `SIGUSR1`, then kills it), the job it names fails with a
//! [`Fault`] naming the signal or the timeout and, when known, the plugin, the variant or
//! preset and the hook that were running (the worker's signal handlers write them as a frame,
//! from the thread-local note of [`crate::fault`]). The worker is replaced, the other jobs it
//! held — those whose results were still in its group too — are sent to the new one, and
//! results reach the caller in input order. A worker that names no job (killed from outside)
//! gets its jobs again one at a time (`JOB_ALONE`), so that the one that fails is known. A
//! worker that dies while opening a plugin file has that file excluded (and reported) in
//! every later worker.
//!
//! The supervisor knows nothing of records or games: a job is bytes in, bytes out. Analysis
//! uses it through [`crate::isolated`]; a game runner (play, match, an engine) plugs in the
//! same way: a setup function for `serve` in the worker, and a payload per game.

use crate::fault::Fault;
use std::collections::{BTreeMap, VecDeque};
use std::ffi::OsString;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

const INIT: u8 = 1;
const JOB: u8 = 2;
const QUIT: u8 = 3;
const LOADING: u8 = 10;
const READY: u8 = 11;
const SETUP_ERROR: u8 = 12;
const RESULT: u8 = 13;
const FAILED: u8 = 14;
/// A job whose result the worker writes out at once, not in a group (the jobs a worker that
/// died without naming its job held: run again, each on its own).
const JOB_ALONE: u8 = 4;

/// Results a worker writes out together at most.
const GROUP_SIZE: usize = 32;
/// A job longer than this ends its group (its result goes out at once).
const GROUP_JOB_TIME: Duration = Duration::from_millis(1);
/// A group is written out at the latest this long after its first job started.
const GROUP_WINDOW: Duration = Duration::from_millis(2);

/// The size of a worker's output pipe (where the system lets it be set) and of the worker's
/// buffer in front of it. Per-ply reports come back at tens of megabytes a second: with
/// 64 KiB a group of results left in four writes, each waking the parent (-6% per-ply time
/// each, the pipe and the buffer; a larger pipe, or one for the records sent the other way
/// too, was no faster, and slower without per-ply output).
const OUTPUT_PIPE: usize = 1 << 18;

/// Largest frame accepted (a report of a million plies with per-ply JSON fits).
const MAX_FRAME: usize = 1 << 30;
/// The head of a frame that names a job: its length (4 bytes), kind (1) and the job (8).
const JOB_FRAME_HEAD: usize = 13;

/// Worker → parent, from a signal handler: the plugin code running when the worker died or
/// was asked where it is ("kind rules\tplugin\thook").
const RUNNING: u8 = 15;

/// How to start a worker.
#[derive(Debug, Clone)]
pub struct WorkerSpec {
    /// The program (the host binary).
    pub program: PathBuf,
    /// Its arguments (the hidden worker subcommand).
    pub args: Vec<OsString>,
    /// What every worker's setup receives.
    pub init: Vec<u8>,
}

impl WorkerSpec {
    /// A worker of this very executable: `<current exe> __worker`.
    pub fn this_executable(init: Vec<u8>) -> io::Result<WorkerSpec> {
        Ok(WorkerSpec {
            program: std::env::current_exe()?,
            args: vec![WORKER_SUBCOMMAND.into()],
            init,
        })
    }
}

/// The hidden subcommand that makes the host a worker.
pub const WORKER_SUBCOMMAND: &str = "__worker";

/// How many workers, and what each may use.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Worker processes.
    pub workers: usize,
    /// Per job: past this, the worker is killed and the job fails (`None`: no limit).
    pub timeout: Option<Duration>,
    /// Address space of a worker in bytes (`None`: no limit); past it an allocation fails
    /// and the worker aborts, which fails its job as `out-of-memory`.
    pub memory: Option<u64>,
    /// Time a worker may take to start (load its plugins).
    pub startup: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            workers: 1,
            timeout: Some(Duration::from_secs(60)),
            memory: Some(4 << 30),
            startup: Duration::from_secs(60),
        }
    }
}

/// How a job ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The worker's answer.
    Done(Vec<u8>),
    /// The job could not be run to its end.
    Failed(Fault),
}

/// Errors that stop a supervised run before it starts.
#[derive(Debug, thiserror::Error)]
pub enum SupervisorError {
    /// A worker could not be started.
    #[error("cannot start a worker process ({program}): {source}")]
    Spawn {
        /// The program.
        program: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The worker's setup refused the task (bad rules on the command line ...).
    #[error("{0}")]
    Setup(String),
    /// The first worker died or hung before it was ready, not while loading a plugin.
    #[error("the worker process failed to start: {0}")]
    Start(Box<Fault>),
}

/// A plugin file a worker died on while opening it, and how.
#[derive(Debug, Clone)]
pub struct Excluded {
    /// The file.
    pub path: PathBuf,
    /// How the worker died.
    pub fault: Fault,
}

/// A set of supervised workers.
pub struct Supervisor {
    spec: WorkerSpec,
    limits: Limits,
    excluded: Arc<Mutex<Vec<Excluded>>>,
    first: Option<Conn>,
    ready: Vec<u8>,
    warnings: Arc<Mutex<Vec<String>>>,
}

impl Supervisor {
    /// Starts the first worker (the others start when the run does) and waits until it is
    /// ready: a setup error or a worker that cannot start stops here. Plugin files the worker
    /// dies on while opening them are excluded ([`Supervisor::excluded`]) and the worker is
    /// started again without them.
    pub fn start(spec: WorkerSpec, limits: Limits) -> Result<Supervisor, SupervisorError> {
        let excluded = Arc::new(Mutex::new(Vec::new()));
        // On the caller's thread (a worker gets SIGKILL when the thread that started it ends,
        // see `serve`), with SIGPIPE held back meanwhile.
        let (conn, ready) = without_sigpipe(|| spawn_ready(&spec, &limits, &excluded))?;
        Ok(Supervisor {
            spec,
            limits,
            excluded,
            first: Some(conn),
            ready,
            warnings: Arc::new(Mutex::new(Vec::new())),
        })
    }

    /// What the first worker's setup answered.
    pub fn ready(&self) -> &[u8] {
        &self.ready
    }

    /// Plugin files excluded because a worker died opening them.
    pub fn excluded(&self) -> Vec<Excluded> {
        self.excluded.lock().map(|v| v.clone()).unwrap_or_default()
    }

    /// Things worth a warning that happened during [`Supervisor::run`] (a worker that ended
    /// badly after its last job, stray output of plugins).
    pub fn warnings(&self) -> Vec<String> {
        self.warnings.lock().map(|v| v.clone()).unwrap_or_default()
    }

    /// Runs every job `produce` emits (it runs on a thread of its own and gets `emit(context,
    /// payload)`, which returns `false` when the run stops) on the workers; `sink` gets each
    /// job's context and outcome in the order they were emitted, as soon as it and every job
    /// before it are done. Returns what `produce` returned, or the sink's error.
    pub fn run<C, R, P, S>(&mut self, produce: P, mut sink: S) -> io::Result<R>
    where
        C: Send,
        R: Send,
        P: FnOnce(&mut dyn FnMut(C, Vec<u8>) -> bool) -> R + Send,
        S: FnMut(C, Outcome) -> io::Result<()>,
    {
        let workers = self.limits.workers.max(1);
        let window = workers * DEPTH + TOKEN_BATCH;
        // Unbounded: the tokens bound it (at most `window` jobs are out), and a bounded
        // channel would wake the producer at every job a worker takes.
        let (job_tx, job_rx) = mpsc::channel::<Item<C>>();
        let job_rx = Mutex::new(job_rx);
        // Results come in groups (those of one read of a worker's output): one wake-up of
        // this thread per group.
        let (done_tx, done_rx) = mpsc::channel::<Vec<Done<C>>>();
        let (mut tokens, token_rx) = crate::tokens::window(window, TOKEN_BATCH);
        let first = self.first.take();
        let this = &*self;
        std::thread::scope(|s| -> io::Result<R> {
            let producer = s.spawn(move || {
                let mut seq = 0u64;
                let mut emit = |ctx: C, payload: Vec<u8>| {
                    if token_rx.recv().is_err() {
                        return false;
                    }
                    seq += 1;
                    job_tx.send(Item { seq, ctx, payload }).is_ok()
                };
                produce(&mut emit)
            });
            let mut first = first;
            for _ in 0..workers {
                let done_tx = done_tx.clone();
                let job_rx = &job_rx;
                let conn = first.take();
                s.spawn(move || this.work(conn, job_rx, done_tx));
            }
            drop(done_tx);
            let mut pending: BTreeMap<u64, (C, Outcome)> = BTreeMap::new();
            let mut next = 1u64;
            for (seq, ctx, outcome) in done_rx.iter().flatten() {
                pending.insert(seq, (ctx, outcome));
                while let Some((ctx, outcome)) = pending.remove(&next) {
                    next += 1;
                    sink(ctx, outcome)?;
                    tokens.done();
                }
            }
            drop(tokens);
            producer
                .join()
                .map_err(|_| io::Error::other("the job producer panicked"))
        })
    }

    /// One worker's loop: takes jobs, keeps up to [`DEPTH`] in flight, replaces the process
    /// when it fails.
    fn work<C: Send>(
        &self,
        mut conn: Option<Conn>,
        jobs: &Mutex<mpsc::Receiver<Item<C>>>,
        done: mpsc::Sender<Vec<Done<C>>>,
    ) {
        block_sigpipe();
        let mut inflight: VecDeque<Item<C>> = VecDeque::new();
        let mut started = Instant::now();
        // Jobs this worker keeps in flight: [`DEPTH`] while they are quick, one while they
        // are slow; one until the first answer tells which.
        let mut depth = 1;
        let mut unsent = 0usize; // jobs of `inflight` not yet written to the current process
        let mut spawn_failures = 0u32;
        let mut dead: Option<Fault> = None;
        // Jobs up to this one go to the worker one at a time (`JOB_ALONE`): a worker died
        // without naming its job while it held them.
        let mut alone_until = 0u64;
        // A result is read, and another frame is in the buffer: handle it before taking and
        // sending more jobs (one write to the worker for a group of results, not one each).
        let mut more_buffered = false;
        // The results of that group, sent on together.
        let mut group: Vec<Done<C>> = Vec::new();
        loop {
            // Before anything that may wait.
            if !more_buffered && !group.is_empty() {
                let _ = done.send(std::mem::take(&mut group));
            }
            // Take more jobs.
            while !more_buffered && inflight.len() < depth {
                let item = if inflight.is_empty() {
                    match jobs.lock() {
                        Ok(rx) => rx.recv().ok(),
                        Err(_) => None,
                    }
                } else {
                    // Never wait for the lock here: another worker may hold it while it
                    // waits for a job, and this one must go on to read its results.
                    match jobs.try_lock() {
                        Ok(rx) => rx.try_recv().ok(),
                        Err(_) => None,
                    }
                };
                let Some(item) = item else { break };
                if inflight.is_empty() {
                    started = Instant::now();
                }
                inflight.push_back(item);
                unsent += 1;
            }
            if inflight.is_empty() {
                break;
            }
            if let Some(f) = &dead {
                // This worker cannot start any more: fail what it holds.
                for item in inflight.drain(..) {
                    let _ = done.send(vec![(item.seq, item.ctx, Outcome::Failed(f.clone()))]);
                }
                unsent = 0;
                continue;
            }
            if conn.is_none() {
                match spawn_ready(&self.spec, &self.limits, &self.excluded) {
                    Ok((c, _)) => {
                        conn = Some(c);
                        spawn_failures = 0;
                        unsent = inflight.len();
                        started = Instant::now();
                    }
                    Err(e) => {
                        spawn_failures += 1;
                        let fault = match e {
                            SupervisorError::Start(f) => *f,
                            other => Fault::new("exit", other.to_string()),
                        };
                        if let Some(item) = inflight.pop_front() {
                            let failed = Outcome::Failed(fault.clone());
                            let _ = done.send(vec![(item.seq, item.ctx, failed)]);
                        }
                        if spawn_failures >= 3 {
                            dead = Some(fault);
                        }
                        continue;
                    }
                }
            }
            let Some(c) = conn.as_mut() else { continue };
            // Send what the process does not have yet.
            let mut write_failed = false;
            if !more_buffered {
                let skip = inflight.len() - unsent;
                for item in inflight.iter().skip(skip) {
                    let kind = if item.seq <= alone_until {
                        JOB_ALONE
                    } else {
                        JOB
                    };
                    if c.send_job(kind, item.seq, &item.payload).is_err() {
                        write_failed = true;
                        break;
                    }
                }
                if !write_failed && c.flush().is_err() {
                    write_failed = true;
                }
                unsent = 0;
            }
            let deadline = self.limits.timeout.map(|t| started + t);
            let wait = if write_failed {
                Wait::Closed
            } else {
                c.next_frame(deadline)
            };
            let failure = match wait {
                Wait::Answer { failed, id, body } => {
                    let front = inflight.front().map(|i| i.seq);
                    if front == Some(id) {
                        let outcome = if failed {
                            Outcome::Failed(Fault::new(
                                "host-panic",
                                String::from_utf8_lossy(&body).into_owned(),
                            ))
                        } else {
                            Outcome::Done(body)
                        };
                        c.forward_stderr();
                        if let Some(item) = inflight.pop_front() {
                            group.push((item.seq, item.ctx, outcome));
                        }
                        depth = depth_after(started.elapsed());
                        started = Instant::now();
                        more_buffered = c.frame_buffered();
                        None
                    } else {
                        Some(Fault::new(
                            "protocol",
                            format!("the worker answered job {id}, expected {front:?}"),
                        ))
                    }
                }
                Wait::Frame(kind, _) => Some(Fault::new(
                    "protocol",
                    format!("unexpected frame {kind} from the worker"),
                )),
                Wait::Closed => Some(c.diagnose(false)),
                Wait::TimedOut => Some(c.diagnose(true)),
            };
            if let Some(f) = failure {
                self.fail_faulty(&mut conn, &mut inflight, &done, f, &mut alone_until);
                // The next process gets every job still in flight.
                unsent = inflight.len();
                started = Instant::now();
                more_buffered = false;
            }
        }
        if let Some(c) = conn {
            if let Some(w) = c.quit() {
                if let Ok(mut v) = self.warnings.lock() {
                    v.push(w);
                }
            }
        }
    }

    /// Fails the job the worker was running with `fault` and drops the process (it is dead,
    /// or killed here); the other jobs in flight, before and after it, go to the next process.
    /// The job is the one the worker's RUNNING frame named; a worker that named none (it was
    /// killed from outside, or ended with `_exit`) may have held finished results unwritten,
    /// so its jobs are run again one at a time, and the first that fails then is the one.
    fn fail_faulty<C>(
        &self,
        conn: &mut Option<Conn>,
        inflight: &mut VecDeque<Item<C>>,
        done: &mpsc::Sender<Vec<Done<C>>>,
        fault: Fault,
        alone_until: &mut u64,
    ) {
        let named = conn.as_ref().and_then(|c| c.running_job);
        if let Some(mut c) = conn.take() {
            c.kill();
        }
        let at = match named.and_then(|id| inflight.iter().position(|i| i.seq == id)) {
            Some(at) => Some(at),
            None => match (inflight.front(), inflight.back()) {
                // Sent one at a time, or alone in flight: the oldest job was running.
                (Some(front), _) if front.seq <= *alone_until || inflight.len() == 1 => Some(0),
                (Some(_), Some(back)) => {
                    *alone_until = back.seq;
                    if let Ok(mut v) = self.warnings.lock() {
                        v.push(format!(
                            "a worker failed without naming the record it was on ({}: {}); \
                             its {} records are run again one at a time",
                            fault.kind,
                            fault.message,
                            inflight.len()
                        ));
                    }
                    None
                }
                _ => None,
            },
        };
        if let Some(item) = at.and_then(|at| inflight.remove(at)) {
            let _ = done.send(vec![(item.seq, item.ctx, Outcome::Failed(fault))]);
        }
    }
}

/// Finished jobs whose tokens are handed back to the producer together ([`Supervisor::run`]).
const TOKEN_BATCH: usize = 32;

/// Jobs in flight per worker: the worker always has the next jobs at hand, and the parent,
/// woken by one result, often finds several.
const DEPTH: usize = 64;

/// A job that took at least this long (from the answer before it, or from its start) is a
/// slow one.
const SLOW_JOB: Duration = Duration::from_millis(5);

/// The jobs a worker keeps in flight after one that took `took`: [`DEPTH`] for quick jobs,
/// one for slow ones (engine analysis, a huge record). Slow jobs held back by one worker
/// while another has none left would leave a core idle at the end of the batch (16 games
/// of engine analysis with two jobs took 25.9 s where the same two threads in process took
/// 15.6 s); one round trip per job costs nothing beside a slow job.
fn depth_after(took: Duration) -> usize {
    if took >= SLOW_JOB {
        1
    } else {
        DEPTH
    }
}

/// A finished job: its number, context and outcome.
type Done<C> = (u64, C, Outcome);

struct Item<C> {
    seq: u64,
    ctx: C,
    payload: Vec<u8>,
}

enum Wait {
    Frame(u8, Vec<u8>),
    /// A job's answer (RESULT or FAILED): the job's id apart from the body, so that the body
    /// is copied once, out of the read buffer, and becomes the record's output as it is.
    Answer {
        failed: bool,
        id: u64,
        body: Vec<u8>,
    },
    Closed,
    TimedOut,
}

/// Runs `f` with SIGPIPE blocked on this thread, then discards a SIGPIPE it raised and
/// restores the thread's signal mask.
fn without_sigpipe<T>(f: impl FnOnce() -> T) -> T {
    // SAFETY: signal-mask calls on this thread with locally built sets; a pending SIGPIPE is
    // taken with a zero timeout before the old mask returns.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old);
        let r = f();
        let mut pending: libc::sigset_t = std::mem::zeroed();
        libc::sigpending(&mut pending);
        if libc::sigismember(&pending, libc::SIGPIPE) == 1 {
            let zero = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            libc::sigtimedwait(&set, std::ptr::null_mut(), &zero);
        }
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        r
    }
}

/// Blocks SIGPIPE on this thread: writing to a dead worker then fails with `EPIPE` instead
/// of killing the host.
fn block_sigpipe() {
    // SAFETY: plain signal-mask calls on this thread with a locally built set.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGPIPE);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
    }
}

/// One worker process and its pipes.
struct Conn {
    child: Child,
    /// The worker's input, non-blocking: the parent never waits on a write while the worker
    /// may be waiting for the parent to read (both pipes full would be a deadlock).
    stdin: ChildStdin,
    /// Bytes for the worker not written yet (`outpos` onwards).
    outbuf: Vec<u8>,
    outpos: usize,
    /// The worker's input is closed (it died).
    in_closed: bool,
    stdout: ChildStdout,
    stderr: ChildStderr,
    /// What the worker wrote and the parent has not taken yet.
    inbox: Inbox,
    errbuf: Vec<u8>,
    /// The last bytes of the worker's standard error, forwarded or not (what a dying worker
    /// said: the runtime's stack-overflow or allocation-failure report).
    recent: Vec<u8>,
    /// What the last RUNNING frame said: the plugin code running ...
    running: Option<String>,
    /// ... and the job.
    running_job: Option<u64>,
    out_eof: bool,
    err_eof: bool,
    /// The plugin file the worker said it opens (while starting).
    loading: Option<PathBuf>,
}

/// Starts a worker and waits for READY; retries without a plugin file it died opening.
fn spawn_ready(
    spec: &WorkerSpec,
    limits: &Limits,
    excluded: &Mutex<Vec<Excluded>>,
) -> Result<(Conn, Vec<u8>), SupervisorError> {
    loop {
        let skip: Vec<PathBuf> = excluded
            .lock()
            .map(|v| v.iter().map(|e| e.path.clone()).collect())
            .unwrap_or_default();
        let mut conn = Conn::spawn(spec).map_err(|source| SupervisorError::Spawn {
            program: spec.program.clone(),
            source,
        })?;
        let mut init = Vec::new();
        init.extend_from_slice(&limits.memory.unwrap_or(0).to_le_bytes());
        init.extend_from_slice(&(skip.len() as u32).to_le_bytes());
        for p in &skip {
            let b = p.as_os_str().as_encoded_bytes();
            init.extend_from_slice(&(b.len() as u32).to_le_bytes());
            init.extend_from_slice(b);
        }
        init.extend_from_slice(&spec.init);
        let sent = write_frame(&mut conn.outbuf, INIT, &[&init]).and_then(|()| conn.flush());
        let deadline = Instant::now() + limits.startup;
        let outcome = loop {
            if sent.is_err() {
                break Wait::Closed;
            }
            match conn.next_frame(Some(deadline)) {
                Wait::Frame(LOADING, body) => {
                    let path = String::from_utf8_lossy(&body).into_owned();
                    conn.loading = Some(PathBuf::from(path));
                }
                other => break other,
            }
        };
        match outcome {
            Wait::Frame(READY, body) => {
                conn.loading = None;
                return Ok((conn, body));
            }
            Wait::Frame(SETUP_ERROR, body) => {
                conn.kill();
                return Err(SupervisorError::Setup(
                    String::from_utf8_lossy(&body).into_owned(),
                ));
            }
            w @ (Wait::Frame(..) | Wait::Answer { .. }) => {
                let kind = match w {
                    Wait::Frame(kind, _) => kind,
                    _ => RESULT,
                };
                conn.kill();
                return Err(SupervisorError::Start(Box::new(Fault::new(
                    "protocol",
                    format!("unexpected frame {kind} from a starting worker"),
                ))));
            }
            w @ (Wait::Closed | Wait::TimedOut) => {
                let mut fault = conn.diagnose(matches!(w, Wait::TimedOut));
                match conn.loading.take() {
                    Some(path) => {
                        fault.message = format!(
                            "the worker died opening plugin file {}: {}",
                            path.display(),
                            fault.message
                        );
                        if let Ok(mut v) = excluded.lock() {
                            if v.iter().any(|e| e.path == path) {
                                return Err(SupervisorError::Start(Box::new(fault)));
                            }
                            v.push(Excluded { path, fault });
                        }
                    }
                    None => return Err(SupervisorError::Start(Box::new(fault))),
                }
            }
        }
    }
}

/// The bytes a worker wrote, read straight into the free end of one buffer and taken from
/// its front frame by frame: `buf[pos..end]` is unread. The buffer is zeroed once, when it
/// grows, not per read.
struct Inbox {
    buf: Vec<u8>,
    pos: usize,
    end: usize,
}

impl Default for Inbox {
    fn default() -> Inbox {
        Inbox {
            buf: vec![0; 1 << 16],
            pos: 0,
            end: 0,
        }
    }
}

impl Inbox {
    fn unread(&self) -> &[u8] {
        &self.buf[self.pos..self.end]
    }

    /// Free room at the end for the next read: the unread rest (part of a frame) is moved
    /// to the front, and the buffer doubled while that leaves less than half of it free, so
    /// that one read takes what the pipe holds and the rest of a large frame moves a bounded
    /// number of times.
    fn room(&mut self) -> &mut [u8] {
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.end, 0);
            (self.pos, self.end) = (0, self.end - self.pos);
        }
        while self.buf.len() - self.end < self.buf.len() / 2 {
            self.buf.resize(self.buf.len() * 2, 0);
        }
        &mut self.buf[self.end..]
    }

    /// `n` bytes were read into [`Inbox::room`].
    fn filled(&mut self, n: usize) {
        self.end += n;
    }

    /// A whole frame from the front, if one is there; `Err` for a length no frame has.
    fn take_frame(&mut self) -> Option<Result<Wait, ()>> {
        let buf = self.unread();
        let len = u32::from_le_bytes(*buf.first_chunk::<4>()?) as usize;
        if len == 0 || len > MAX_FRAME {
            return Some(Err(()));
        }
        if buf.len() < 4 + len {
            return None;
        }
        let kind = buf[4];
        let body = &buf[5..4 + len];
        let frame = match (kind, body.split_first_chunk::<8>()) {
            (RESULT | FAILED, Some((id, rest))) => Wait::Answer {
                failed: kind == FAILED,
                id: u64::from_le_bytes(*id),
                body: rest.to_vec(),
            },
            _ => Wait::Frame(kind, body.to_vec()),
        };
        self.pos += 4 + len;
        if self.pos == self.end {
            (self.pos, self.end) = (0, 0);
        }
        Some(Ok(frame))
    }
}

/// Drops the bytes of `buf` before `pos` (those used up) when all are, or when more than
/// `limit` are: a buffer read or written from an offset moves its rest rarely.
fn compact(buf: &mut Vec<u8>, pos: &mut usize, limit: usize) {
    if *pos == buf.len() {
        buf.clear();
        *pos = 0;
    } else if *pos > limit {
        buf.drain(..*pos);
        *pos = 0;
    }
}

fn write_frame<W: Write + ?Sized>(w: &mut W, kind: u8, parts: &[&[u8]]) -> io::Result<()> {
    let len: usize = 1 + parts.iter().map(|p| p.len()).sum::<usize>();
    let len = u32::try_from(len).map_err(|_| io::Error::other("frame too large"))?;
    w.write_all(&len.to_le_bytes())?;
    w.write_all(&[kind])?;
    for p in parts {
        w.write_all(p)?;
    }
    Ok(())
}

impl Conn {
    fn spawn(spec: &WorkerSpec) -> io::Result<Conn> {
        let mut child = Command::new(&spec.program)
            .args(&spec.args)
            // The `houserules` program allocates with mimalloc, which reserves 1 GiB of
            // address space for its first arena: under the worker's memory limit
            // (`RLIMIT_AS`, `--worker-memory`) that left no room to map the plugins.
            // Smaller arenas, reserved as needed, keep the limit about the memory used.
            .env("MIMALLOC_ARENA_RESERVE", "16MiB")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other("the worker's pipes are missing"));
        };
        // Refused quietly where the system allows less (the pipe keeps its size).
        #[cfg(target_os = "linux")]
        // SAFETY: fcntl on a descriptor this process owns.
        unsafe {
            libc::fcntl(
                stdout.as_raw_fd(),
                libc::F_SETPIPE_SZ,
                OUTPUT_PIPE as libc::c_int,
            )
        };
        Ok(Conn {
            child,
            stdin: {
                // SAFETY: fcntl on a descriptor this process owns.
                unsafe {
                    let fd = stdin.as_raw_fd();
                    let flags = libc::fcntl(fd, libc::F_GETFL);
                    libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
                }
                stdin
            },
            outbuf: Vec::with_capacity(1 << 16),
            outpos: 0,
            in_closed: false,
            stdout,
            stderr,
            inbox: Inbox::default(),
            errbuf: Vec::new(),
            recent: Vec::new(),
            running: None,
            running_job: None,
            out_eof: false,
            err_eof: false,
            loading: None,
        })
    }

    fn send_job(&mut self, kind: u8, id: u64, payload: &[u8]) -> io::Result<()> {
        write_frame(&mut self.outbuf, kind, &[&id.to_le_bytes(), payload])
    }

    /// Whether a whole frame is already read and waiting.
    fn frame_buffered(&self) -> bool {
        frame_buffered(self.inbox.unread())
    }

    /// Takes what a RUNNING frame says: the job (0: none) and the plugin code running.
    fn note_running(&mut self, body: &[u8]) {
        let Some((job, text)) = body.split_first_chunk::<8>() else {
            return;
        };
        let job = u64::from_le_bytes(*job);
        self.running_job = (job != 0).then_some(job);
        self.running = (!text.is_empty()).then(|| String::from_utf8_lossy(text).into_owned());
    }

    /// Writes what the worker's pipe takes now, without waiting; the rest goes out while
    /// [`Conn::next_frame`] waits.
    fn flush(&mut self) -> io::Result<()> {
        while self.outpos < self.outbuf.len() && !self.in_closed {
            match self.stdin.write(&self.outbuf[self.outpos..]) {
                Ok(0) => self.in_closed = true,
                Ok(n) => self.outpos += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(_) => self.in_closed = true,
            }
        }
        compact(&mut self.outbuf, &mut self.outpos, 1 << 20);
        Ok(())
    }

    fn pending_output(&self) -> bool {
        !self.in_closed && self.outpos < self.outbuf.len()
    }

    /// A whole frame from the buffer, if one is there.
    fn take_frame(&mut self) -> Option<Result<Wait, ()>> {
        self.inbox.take_frame()
    }

    /// The next frame from the worker, reading its standard error on the side.
    fn next_frame(&mut self, deadline: Option<Instant>) -> Wait {
        loop {
            match self.take_frame() {
                Some(Ok(Wait::Frame(RUNNING, body))) => {
                    self.note_running(&body);
                    continue;
                }
                Some(Ok(frame)) => return frame,
                Some(Err(())) => return Wait::Closed,
                None => {}
            }
            if self.out_eof {
                return Wait::Closed;
            }
            let timeout_ms = match deadline {
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Wait::TimedOut;
                    }
                    left.as_millis().clamp(1, i32::MAX as u128) as i32
                }
                None => -1,
            };
            let (out_ready, err_ready) = self.poll(timeout_ms);
            if out_ready {
                self.read_out();
            }
            if err_ready {
                self.read_err();
            }
            if self.pending_output() {
                let _ = self.flush();
            }
        }
    }

    /// Waits for output of the worker (and, while bytes for it are pending, for room in its
    /// input pipe); returns whether stdout and stderr are readable.
    fn poll(&mut self, timeout_ms: i32) -> (bool, bool) {
        let mut fds = [
            libc::pollfd {
                fd: if self.out_eof {
                    -1
                } else {
                    self.stdout.as_raw_fd()
                },
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: if self.err_eof {
                    -1
                } else {
                    self.stderr.as_raw_fd()
                },
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: if self.pending_output() {
                    self.stdin.as_raw_fd()
                } else {
                    -1
                },
                events: libc::POLLOUT,
                revents: 0,
            },
        ];
        // SAFETY: `fds` is a valid array of three pollfd structures during the call.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), 3, timeout_ms) };
        if n <= 0 {
            return (false, false);
        }
        let ready =
            |f: &libc::pollfd| f.revents & (libc::POLLIN | libc::POLLHUP | libc::POLLERR) != 0;
        (
            fds[0].fd >= 0 && ready(&fds[0]),
            fds[1].fd >= 0 && ready(&fds[1]),
        )
    }

    fn read_out(&mut self) {
        match self.stdout.read(self.inbox.room()) {
            Ok(0) => self.out_eof = true,
            Ok(n) => self.inbox.filled(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => self.out_eof = true,
        }
    }

    fn read_err(&mut self) {
        let mut buf = [0u8; 8192];
        match self.stderr.read(&mut buf) {
            Ok(0) => self.err_eof = true,
            Ok(n) => {
                self.errbuf.extend_from_slice(&buf[..n]);
                self.recent.extend_from_slice(&buf[..n]);
                if self.recent.len() > 1 << 14 {
                    let cut = self.recent.len() - (1 << 13);
                    self.recent.drain(..cut);
                }
                // Keep the tail only: it holds what a dying worker said last.
                if self.errbuf.len() > 1 << 16 {
                    let cut = self.errbuf.len() - (1 << 15);
                    self.errbuf.drain(..cut);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => self.err_eof = true,
        }
    }

    /// Passes on what the worker wrote to its standard error during a job that succeeded.
    fn forward_stderr(&mut self) {
        if self.errbuf.is_empty() {
            return;
        }
        let _ = io::stderr().lock().write_all(&self.errbuf);
        self.errbuf.clear();
    }

    /// Reads the worker's standard error until its end or `until`.
    fn drain_stderr(&mut self, until: Instant) {
        while !self.err_eof {
            let left = until.saturating_duration_since(Instant::now()).as_millis() as i32;
            if left <= 0 {
                break;
            }
            let mut fds = [libc::pollfd {
                fd: self.stderr.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            }];
            // SAFETY: one valid pollfd for the duration of the call.
            if unsafe { libc::poll(fds.as_mut_ptr(), 1, left) } <= 0 {
                break;
            }
            self.read_err();
        }
    }

    /// Why the worker stopped answering: reads the rest of its standard error, kills it if
    /// it still runs (after asking where it is, for a timeout), and reaps it.
    fn diagnose(&mut self, timed_out: bool) -> Fault {
        // Nothing more is written to it.
        self.in_closed = true;
        let pid = self.child.id() as libc::pid_t;
        if timed_out {
            // SAFETY: signalling our own child, which has not been reaped (so the pid is ours).
            unsafe {
                libc::kill(pid, libc::SIGUSR1);
            }
        }
        // What it says while dying (its handlers' RUNNING frame, the runtime's messages).
        let until = Instant::now() + Duration::from_millis(if timed_out { 300 } else { 2000 });
        while !(self.err_eof && self.out_eof) && Instant::now() < until {
            let left = until.saturating_duration_since(Instant::now()).as_millis() as i32;
            let (o, e) = self.poll(left.max(1));
            if o {
                self.read_out();
            }
            if e {
                self.read_err();
            }
            if !o && !e {
                break;
            }
        }
        while let Some(Ok(frame)) = self.take_frame() {
            if let Wait::Frame(RUNNING, body) = frame {
                self.note_running(&body);
            }
        }
        let status = match self.child.try_wait() {
            Ok(Some(s)) => Some(s),
            _ => {
                let _ = self.child.kill();
                self.child.wait().ok()
            }
        };
        let stderr = String::from_utf8_lossy(&self.recent).into_owned();
        self.errbuf.clear();
        self.recent.clear();
        let running = self.running.take();
        classify(status, timed_out, &stderr, running.as_deref())
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Ends the worker after its last job; a worker that then ends badly (a panic in a
    /// plugin's `Drop` during unloading) is worth a warning.
    fn quit(mut self) -> Option<String> {
        let _ = write_frame(&mut self.outbuf, QUIT, &[]);
        let _ = self.flush();
        let until = Instant::now() + Duration::from_secs(5);
        while self.pending_output() && Instant::now() < until {
            let (o, e) = self.poll(50);
            if o {
                self.read_out();
            }
            if e {
                self.read_err();
            }
            let _ = self.flush();
        }
        let until = Instant::now() + Duration::from_secs(5);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.drain_stderr(Instant::now() + Duration::from_millis(500));
                    if status.success() {
                        if !self.errbuf.is_empty() {
                            let _ = io::stderr().write_all(&self.errbuf);
                        }
                        return None;
                    }
                    let stderr = String::from_utf8_lossy(&self.recent).into_owned();
                    let f = classify(Some(status), false, &stderr, self.running.as_deref());
                    return Some(format!(
                        "a worker ended badly after its last job ({}{}): {}",
                        f.kind,
                        f.signal.map(|s| format!(", {s}")).unwrap_or_default(),
                        f.message
                    ));
                }
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    return Some("a worker did not end after its last job: killed".to_string());
                }
            }
        }
    }
}

fn signal_name(sig: i32) -> String {
    let name = match sig {
        libc::SIGSEGV => "SIGSEGV (segmentation fault)",
        libc::SIGBUS => "SIGBUS (bus error)",
        libc::SIGILL => "SIGILL (illegal instruction)",
        libc::SIGFPE => "SIGFPE (arithmetic exception)",
        libc::SIGABRT => "SIGABRT (aborted)",
        libc::SIGKILL => "SIGKILL (killed)",
        libc::SIGTERM => "SIGTERM",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGSYS => "SIGSYS",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGPIPE => "SIGPIPE",
        _ => return format!("signal {sig}"),
    };
    name.to_string()
}

/// A fault from how the worker ended and what it said last.
fn classify(
    status: Option<std::process::ExitStatus>,
    timed_out: bool,
    stderr: &str,
    running: Option<&str>,
) -> Fault {
    use std::os::unix::process::ExitStatusExt;
    let where_ = running.and_then(crate::fault::parse_running);
    let said: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let tail: Vec<&str> = said.iter().rev().take(4).rev().copied().collect();
    let said_text = tail.join(" / ");
    let signal = status.and_then(|s| s.signal());
    let has = |t: &str| stderr.contains(t);
    let (kind, what) = if timed_out {
        (
            "timeout",
            "the job ran past the time limit (--game-timeout); the worker was killed".to_string(),
        )
    } else if has("has overflowed its stack") {
        (
            "stack-overflow",
            "the worker overflowed its stack".to_string(),
        )
    } else if has("memory allocation of") {
        (
            "out-of-memory",
            "an allocation failed (the worker memory limit, --worker-memory)".to_string(),
        )
    } else if signal == Some(libc::SIGABRT) {
        ("abort", "the worker aborted".to_string())
    } else if let Some(sig) = signal {
        (
            "crash",
            format!("the worker was killed by {}", signal_name(sig)),
        )
    } else {
        match status.and_then(|s| s.code()) {
            Some(code) => ("exit", format!("the worker exited with code {code}")),
            None => ("exit", "the worker stopped answering".to_string()),
        }
    };
    let message = if said_text.is_empty() {
        what
    } else {
        format!("{what}; it said: {said_text}")
    };
    let mut f = Fault::new(kind, message);
    f.signal = signal.filter(|_| !timed_out).map(signal_name);
    if let Some((rules, plugin, hook)) = where_ {
        f.rules = Some(rules);
        f.plugin = Some(plugin);
        f.hook = Some(hook);
    }
    f
}

// ---------------------------------------------------------------------------------------
// The worker side.

/// What a worker's setup gets: the caller's init bytes, the plugin files to leave alone, and
/// a way to say which plugin file is being opened (so that a crash there is blamed on it).
pub struct WorkerInit<'a> {
    /// The bytes of [`WorkerSpec::init`].
    pub app: &'a [u8],
    /// Plugin files a previous worker died opening: do not open them.
    pub excluded: Vec<PathBuf>,
    out: &'a mut dyn Write,
}

impl WorkerInit<'_> {
    /// Tells the supervisor that `path` is about to be opened (call before each plugin file).
    pub fn loading(&mut self, path: &Path) {
        let b = path.as_os_str().as_encoded_bytes();
        let _ = write_frame(self.out, LOADING, &[b]).and_then(|()| self.out.flush());
    }
}

fn read_frame(r: &mut impl BufRead) -> io::Result<Option<(u8, Vec<u8>)>> {
    let mut body = Vec::new();
    Ok(read_frame_into(r, &mut body)?.map(|kind| (kind, body)))
}

/// Reads a frame's body into `body` (a buffer used again for every job: no allocation, no
/// zeroing) and returns its kind; `None` at the end of the input.
fn read_frame_into(r: &mut impl BufRead, body: &mut Vec<u8>) -> io::Result<Option<u8>> {
    let mut head = [0u8; 5];
    match r.read_exact(&mut head[..4]) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as usize;
    if len == 0 || len > MAX_FRAME {
        return Err(io::Error::other("bad frame length"));
    }
    r.read_exact(&mut head[4..])?;
    body.clear();
    let want = len - 1;
    body.reserve(want);
    if r.by_ref().take(want as u64).read_to_end(body)? != want {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    Ok(Some(head[4]))
}

fn take_u32(b: &mut &[u8]) -> Option<u32> {
    let (h, t) = b.split_first_chunk::<4>()?;
    *b = t;
    Some(u32::from_le_bytes(*h))
}

fn take_u64(b: &mut &[u8]) -> Option<u64> {
    let (h, t) = b.split_first_chunk::<8>()?;
    *b = t;
    Some(u64::from_le_bytes(*h))
}

/// Runs a worker: reads INIT, calls `setup` (which loads plugins, announcing each file with
/// [`WorkerInit::loading`], and returns its READY bytes and the job handler, or a setup error
/// for the user), then answers jobs until QUIT or the end of its input. Returns the exit code.
pub fn serve<H>(setup: impl FnOnce(&mut WorkerInit<'_>) -> Result<(Vec<u8>, H), String>) -> i32
where
    H: FnMut(&[u8]) -> Vec<u8>,
{
    // The protocol gets the real standard output; fd 1 becomes standard error, so that what
    // plugin code prints cannot corrupt a frame.
    // SAFETY: plain descriptor calls at start-up, before any thread of ours exists.
    let proto = unsafe {
        let fd = libc::dup(1);
        if fd < 0 || libc::dup2(2, 1) < 0 {
            return 70;
        }
        PROTO_FD.store(fd, std::sync::atomic::Ordering::Relaxed);
        std::fs::File::from_raw_fd(fd)
    };
    #[cfg(target_os = "linux")]
    // SAFETY: asks the kernel to kill this process when its parent dies (no orphan that spins
    // forever in a plugin's endless loop after the host is gone). Linux sends it when the
    // *thread* that started the worker ends: the supervisor starts workers on threads that
    // outlive them.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    }
    install_handlers();
    let mut out = io::BufWriter::with_capacity(OUTPUT_PIPE, proto);
    let stdin = io::stdin();
    let mut input = BufReader::with_capacity(1 << 16, stdin.lock());
    let Ok(Some((INIT, body))) = read_frame(&mut input) else {
        return 70;
    };
    let mut b: &[u8] = &body;
    let (Some(memory), Some(n)) = (take_u64(&mut b), take_u32(&mut b)) else {
        return 70;
    };
    let mut excluded = Vec::new();
    for _ in 0..n {
        let Some(len) = take_u32(&mut b) else {
            return 70;
        };
        let Some((p, rest)) = b.split_at_checked(len as usize) else {
            return 70;
        };
        excluded.push(PathBuf::from(String::from_utf8_lossy(p).into_owned()));
        b = rest;
    }
    if memory > 0 {
        let lim = libc::rlimit {
            rlim_cur: memory as libc::rlim_t,
            rlim_max: memory as libc::rlim_t,
        };
        // SAFETY: setting this process's own resource limit with a valid structure.
        unsafe {
            libc::setrlimit(libc::RLIMIT_AS, &lim);
        }
    }
    let mut init = WorkerInit {
        app: b,
        excluded,
        out: &mut out,
    };
    let (ready, mut handler) = match setup(&mut init) {
        Ok(x) => x,
        Err(msg) => {
            let _ =
                write_frame(&mut out, SETUP_ERROR, &[msg.as_bytes()]).and_then(|()| out.flush());
            return 2;
        }
    };
    if write_frame(&mut out, READY, &[&ready])
        .and_then(|()| out.flush())
        .is_err()
    {
        return 70;
    }
    // Results are written out in small groups, not one by one: each write wakes the parent.
    // A group ends when the next job is not at hand yet (the worker would wait for it), when
    // a job took more than a moment, or when it is full or old, so the parent's timer for a
    // job it has sent is off by [`GROUP_WINDOW`] at most. A job that never ends leaves the
    // results of its group unwritten: the RUNNING frame names the job, and the parent sends
    // the others again.
    // From here on the frames of a group are put together in one buffer (used again for
    // every group, so it stays in the cache) and written with one call.
    let Ok(mut proto) = out.into_inner() else {
        return 70;
    };
    let mut grouped = 0usize;
    let mut group_start = std::time::Instant::now();
    let mut group = Vec::with_capacity(OUTPUT_PIPE);
    let mut body = Vec::new();
    loop {
        let kind = match read_frame_into(&mut input, &mut body) {
            Ok(Some(k)) => k,
            Ok(None) => break,
            Err(_) => return 70,
        };
        match (kind, &body[..]) {
            (kind @ (JOB | JOB_ALONE), body) if body.len() >= 8 => {
                let (id, payload) = body.split_at(8);
                let started = std::time::Instant::now();
                if grouped == 0 {
                    group_start = started;
                }
                let seq = u64::from_le_bytes(id.try_into().unwrap_or([0; 8]));
                CURRENT_JOB.store(seq, std::sync::atomic::Ordering::Relaxed);
                let answer =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handler(payload)));
                CURRENT_JOB.store(0, std::sync::atomic::Ordering::Relaxed);
                let (kind_out, bytes) = match answer {
                    Ok(bytes) => (RESULT, bytes),
                    Err(p) => {
                        let msg = format!(
                            "the host panicked on this job: {}",
                            crate::batch::panic_message(&*p)
                        );
                        (FAILED, msg.into_bytes())
                    }
                };
                // Whole frames only go out, so that a RUNNING frame written by a signal
                // handler during a later job never lands inside one; and no write is larger
                // than the pipe holds when the frame fits, so that the worker does not wait
                // for the parent halfway through one.
                if !group.is_empty()
                    && group.len() + JOB_FRAME_HEAD + bytes.len() > OUTPUT_PIPE
                    && write_group(&mut proto, &mut group).is_err()
                {
                    return 70;
                }
                let framed = write_frame(&mut group, kind_out, &[id, &bytes]);
                grouped += 1;
                let now = std::time::Instant::now();
                let group_ends = kind == JOB_ALONE
                    || grouped >= GROUP_SIZE
                    || now - started > GROUP_JOB_TIME
                    || now - group_start > GROUP_WINDOW
                    || !frame_buffered(input.buffer());
                if framed.is_err() {
                    return 70;
                }
                if group_ends {
                    grouped = 0;
                    if write_group(&mut proto, &mut group).is_err() {
                        return 70;
                    }
                }
            }
            (QUIT, _) => break,
            _ => return 70,
        }
    }
    let _ = write_group(&mut proto, &mut group);
    drop(handler);
    0
}

/// Writes the frames of a group whole and empties it.
fn write_group(w: &mut impl Write, group: &mut Vec<u8>) -> io::Result<()> {
    let written = w.write_all(group);
    group.clear();
    written
}

static OLD_ACTIONS: std::sync::OnceLock<Vec<(libc::c_int, libc::sigaction)>> =
    std::sync::OnceLock::new();

const FATAL: [libc::c_int; 6] = [
    libc::SIGSEGV,
    libc::SIGBUS,
    libc::SIGILL,
    libc::SIGFPE,
    libc::SIGABRT,
    libc::SIGTRAP,
];

/// The job the worker runs now (0: none), for the signal handlers.
static CURRENT_JOB: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Whether `buf` starts with a whole frame (the next job can be read without waiting).
fn frame_buffered(buf: &[u8]) -> bool {
    match buf.first_chunk::<4>() {
        Some(len) => buf.len() - 4 >= u32::from_le_bytes(*len) as usize,
        None => false,
    }
}

/// The protocol's descriptor, for the signal handlers.
static PROTO_FD: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(-1);

/// Writes a RUNNING frame naming the plugin code running now, in one write(2)
/// (async-signal-safe: no allocation, no lock).
fn write_running() {
    let fd = PROTO_FD.load(std::sync::atomic::Ordering::Relaxed);
    if fd < 0 {
        return;
    }
    let job = CURRENT_JOB.load(std::sync::atomic::Ordering::Relaxed);
    let mut buf = [0u8; 600];
    let n = crate::fault::running_into(&mut buf[JOB_FRAME_HEAD..]);
    if n == 0 && job == 0 {
        return;
    }
    buf[..4].copy_from_slice(&((n + JOB_FRAME_HEAD - 4) as u32).to_le_bytes());
    buf[4] = RUNNING;
    buf[5..JOB_FRAME_HEAD].copy_from_slice(&job.to_le_bytes());
    // SAFETY: write(2) is async-signal-safe; the buffer is valid for `n + JOB_FRAME_HEAD`
    // bytes.
    unsafe {
        libc::write(fd, buf.as_ptr().cast(), n + JOB_FRAME_HEAD);
    }
}

extern "C" fn on_fatal(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
    write_running();
    // Chain to the handler that was there (the Rust runtime's stack-overflow report).
    if let Some(old) = OLD_ACTIONS
        .get()
        .and_then(|v| v.iter().find(|(s, _)| *s == sig).map(|(_, a)| *a))
    {
        let h = old.sa_sigaction;
        if h != libc::SIG_DFL && h != libc::SIG_IGN {
            if old.sa_flags & libc::SA_SIGINFO != 0 {
                // SAFETY: the previous handler was installed with SA_SIGINFO and this signature.
                let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                    unsafe { std::mem::transmute(h) };
                f(sig, info, ctx);
            } else {
                // SAFETY: a plain handler takes the signal number only.
                let f: extern "C" fn(libc::c_int) = unsafe { std::mem::transmute(h) };
                f(sig);
            }
        }
    }
    // Die of the signal, as without us.
    // SAFETY: signal(2) and raise(3) are async-signal-safe.
    unsafe {
        libc::signal(sig, libc::SIG_DFL);
        libc::raise(sig);
    }
}

/// A plugin that calls `exit` ends the worker through here: say where it was.
extern "C" fn on_exit() {
    write_running();
}

extern "C" fn on_timeout(_: libc::c_int) {
    write_running();
    // SAFETY: _exit is async-signal-safe.
    unsafe { libc::_exit(124) }
}

fn install_handlers() {
    let mut old = Vec::new();
    // SAFETY: installing handlers with fully initialised sigaction structures; done once at
    // start-up before any job runs.
    unsafe {
        for sig in FATAL {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_fatal as *const () as usize;
            sa.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut sa.sa_mask);
            let mut prev: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, &sa, &mut prev) == 0 {
                old.push((sig, prev));
            }
        }
        let _ = OLD_ACTIONS.set(old);
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_timeout as *const () as usize;
        sa.sa_flags = libc::SA_ONSTACK;
        libc::sigemptyset(&mut sa.sa_mask);
        libc::sigaction(libc::SIGUSR1, &sa, std::ptr::null_mut());
        libc::atexit(on_exit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slow_jobs_are_kept_in_flight_one_at_a_time() {
        // A replayed game (tens of microseconds): the worker keeps a full pipeline.
        assert_eq!(depth_after(Duration::from_micros(40)), DEPTH);
        // Engine analysis (seconds): one job at a time, the next taken only when it is done.
        assert_eq!(depth_after(Duration::from_secs(2)), 1);
        assert_eq!(depth_after(SLOW_JOB), 1);
    }

    #[test]
    fn classify_names_the_cause() {
        use std::os::unix::process::ExitStatusExt;
        let seg = std::process::ExitStatus::from_raw(libc::SIGSEGV);
        let f = classify(Some(seg), false, "boom\n", Some("preset x\tpl\tgenerate"));
        assert_eq!(f.kind, "crash");
        assert_eq!(f.signal.as_deref(), Some("SIGSEGV (segmentation fault)"));
        assert_eq!(f.hook.as_deref(), Some("generate"));
        assert_eq!(f.plugin.as_deref(), Some("pl"));
        assert_eq!(f.rules.as_deref(), Some("preset x"));
        assert!(f.message.contains("boom"), "{}", f.message);
        let abrt = std::process::ExitStatus::from_raw(libc::SIGABRT);
        let f = classify(
            Some(abrt),
            false,
            "\nthread 'main' has overflowed its stack\nfatal runtime error: stack overflow\n",
            None,
        );
        assert_eq!(f.kind, "stack-overflow");
        let f = classify(
            Some(abrt),
            false,
            "memory allocation of 8 bytes failed\n",
            None,
        );
        assert_eq!(f.kind, "out-of-memory");
        let f = classify(
            Some(std::process::ExitStatus::from_raw(124 << 8)),
            true,
            "",
            None,
        );
        assert_eq!(f.kind, "timeout");
        assert_eq!(f.signal, None);
        let f = classify(
            Some(std::process::ExitStatus::from_raw(3 << 8)),
            false,
            "",
            None,
        );
        assert_eq!(
            (f.kind.as_str(), f.message.as_str()),
            ("exit", "the worker exited with code 3")
        );
    }
}

#[cfg(test)]
mod frame_tests {
    use super::*;

    /// The answers framed as a worker writes them, read back through an inbox fed `step`
    /// bytes at a time.
    fn round_trip(answers: &[(bool, u64, Vec<u8>)], step: usize) -> Vec<(bool, u64, Vec<u8>)> {
        let mut wire = Vec::new();
        for (failed, id, body) in answers {
            let kind = if *failed { FAILED } else { RESULT };
            write_frame(&mut wire, kind, &[&id.to_le_bytes(), body]).expect("framed");
        }
        let mut inbox = Inbox::default();
        let mut got = Vec::new();
        for mut chunk in wire.chunks(step) {
            while !chunk.is_empty() {
                let room = inbox.room();
                let n = room.len().min(chunk.len());
                room[..n].copy_from_slice(&chunk[..n]);
                inbox.filled(n);
                chunk = &chunk[n..];
            }
            while let Some(frame) = inbox.take_frame() {
                match frame {
                    Ok(Wait::Answer { failed, id, body }) => got.push((failed, id, body)),
                    _ => panic!("not an answer"),
                }
            }
        }
        assert!(inbox.unread().is_empty());
        got
    }

    #[test]
    fn answers_come_back_whole_however_the_pipe_cuts_them() {
        // One answer larger than the inbox's first buffer, an empty one, a failure.
        let big: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
        let answers = vec![
            (false, 7, b"{\"a\":1}\n".to_vec()),
            (false, 8, big),
            (false, 9, Vec::new()),
            (true, 10, b"the host panicked".to_vec()),
        ];
        for step in [1, 13, 4096, 70_000, 1 << 20] {
            assert_eq!(round_trip(&answers, step), answers, "step {step}");
        }
    }

    #[test]
    fn other_frames_keep_their_body_and_a_bad_length_is_refused() {
        let mut inbox = Inbox::default();
        let mut wire = Vec::new();
        write_frame(&mut wire, RUNNING, &[&3u64.to_le_bytes(), b"preset x"]).expect("framed");
        // A RESULT too short to hold a job id is no answer.
        write_frame(&mut wire, RESULT, &[b"abc"]).expect("framed");
        wire.extend_from_slice(&0u32.to_le_bytes());
        inbox.room()[..wire.len()].copy_from_slice(&wire);
        inbox.filled(wire.len());
        match inbox.take_frame() {
            Some(Ok(Wait::Frame(RUNNING, body))) => assert_eq!(&body[8..], b"preset x"),
            _ => panic!("a RUNNING frame"),
        }
        match inbox.take_frame() {
            Some(Ok(Wait::Frame(RESULT, body))) => assert_eq!(body, b"abc"),
            _ => panic!("a short RESULT frame"),
        }
        assert!(matches!(inbox.take_frame(), Some(Err(()))));
    }
}
