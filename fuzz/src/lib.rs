//! # houserules-fuzz
//!
//! One fuzz target per parser of houserules — FEN for each variant family, SAN and
//! coordinate moves, PGN records, `variants.ini`, custom modifier JSON — and per session
//! that reads what people and programs type (UCI, XBoard, a game of `play`: [`sessions`]),
//! and a seeded mutator that runs them on the stable toolchain, without coverage
//! instrumentation:
//!
//! ```sh
//! cargo test -p houserules-fuzz                      # the short seeded pass CI runs
//! HOUSERULES_FUZZ_INPUTS=10000000 cargo test --release -p houserules-fuzz -- --ignored --nocapture
//! ```
//!
//! Each target is a plain `fn(&mut Context, &[u8]) -> Result<Verdict, String>` ([`targets`]),
//! so a `cargo fuzz` wrapper is three lines (`fuzz_target!(|d: &[u8]| { target(&mut ctx, d); })`);
//! the mutator ([`Mutator`]) starts from the seed corpora in `fuzz/corpus/<target>/` and
//! keeps inputs a target accepted as further seeds. A *finding* is a panic (caught in the
//! harness, or caught at the plugin boundary and reported as [`HostError::PluginPanic`]), a
//! failed round trip (a written FEN, SAN, coordinate move or record that does not read back
//! to the same thing), or an input slower than [`SLOW`]; a watchdog aborts the run, printing
//! the input, if one input runs past [`HANG`]. Findings are written to
//! `target/fuzz-findings/` for reproduction.
//!
//! [`HostError::PluginPanic`]: houserules_host::HostError::PluginPanic

pub mod sessions;
pub mod targets;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// An input slower than this is a finding (a hint of super-linear time).
pub const SLOW: Duration = Duration::from_secs(2);
/// An input running longer than this aborts the run (a hang), printing the input.
pub const HANG: Duration = Duration::from_secs(60);

/// What a target made of an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Read as valid (kept as a seed for further mutation).
    Accepted,
    /// Refused with an error, as bad input should be.
    Rejected,
}

/// A fuzz target: its name, its seed corpus directory and its function.
pub struct Target {
    /// Name (also the corpus directory under `fuzz/corpus/`).
    pub name: &'static str,
    /// Longest input generated.
    pub max_len: usize,
    /// Extra tokens the mutator inserts.
    pub dictionary: &'static [&'static str],
    /// The target.
    pub run: fn(&mut targets::Context, &[u8]) -> Result<Verdict, String>,
}

/// A deterministic generator (SplitMix64).
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

const NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "7",
    "8",
    "15",
    "16",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "4294967296",
    "18446744073709551616",
    "99999999999999999999999",
];

const UNICODE: &[&str] = &[
    "é", "½", "\u{feff}", "\u{0}", "\u{200b}", "ü", "𝄞", "\r", "\t",
];

/// Byte-level mutations of corpus inputs.
pub struct Mutator {
    /// The generator.
    pub rng: Rng,
}

impl Mutator {
    /// An input made from `base` by a few random edits; `pool` is the corpus (for crossover),
    /// `dict` the target's tokens.
    pub fn mutate(&mut self, base: &[u8], pool: &[Vec<u8>], dict: &[&str], max: usize) -> Vec<u8> {
        let mut v = base.to_vec();
        let r = &mut self.rng;
        let edits = if r.below(8) == 0 {
            1 + r.below(32)
        } else {
            1 + r.below(4)
        };
        for _ in 0..edits {
            let i = r.below(v.len() + 1);
            match r.below(12) {
                0 if i < v.len() => v[i] ^= 1 << r.below(8),
                1 if i < v.len() => v[i] = r.next_u64() as u8,
                2 if i < v.len() => v[i] = b" /-[]{}()*+.;:=@,\"\\$%\n"[r.below(22)],
                3 => v.insert(i, r.next_u64() as u8),
                4 if i < v.len() => {
                    let j = (i + 1 + r.below(8)).min(v.len());
                    v.drain(i..j);
                }
                5 if i < v.len() => {
                    let j = (i + 1 + r.below(16)).min(v.len());
                    let chunk = v[i..j].to_vec();
                    v.splice(i..i, chunk);
                }
                6 if !dict.is_empty() => {
                    let t = dict[r.below(dict.len())].as_bytes().to_vec();
                    v.splice(i..i, t);
                }
                7 if !pool.is_empty() => {
                    // Crossover: a slice of another input.
                    let other = &pool[r.below(pool.len())];
                    let a = r.below(other.len() + 1);
                    let b = (a + r.below(64)).min(other.len());
                    v.splice(i..i, other[a..b].iter().copied());
                }
                8 => {
                    let t = NUMBERS[r.below(NUMBERS.len())].as_bytes().to_vec();
                    let j = (i + r.below(3)).min(v.len());
                    v.splice(i..j, t);
                }
                9 => {
                    let t = UNICODE[r.below(UNICODE.len())].as_bytes().to_vec();
                    v.splice(i..i, t);
                }
                10 if i < v.len() => {
                    // Repeat a chunk many times: nesting, long lines, limits.
                    let j = (i + 1 + r.below(8)).min(v.len());
                    let chunk = v[i..j].to_vec();
                    let times = 2 + r.below(200);
                    let rep: Vec<u8> = chunk
                        .iter()
                        .copied()
                        .cycle()
                        .take(chunk.len() * times)
                        .collect();
                    v.splice(i..i, rep);
                }
                11 if i < v.len() => v.truncate(i),
                _ => {}
            }
            if v.len() > max {
                v.truncate(max);
            }
        }
        v
    }
}

/// What happened with one input that should not have.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The target.
    pub target: &'static str,
    /// What went wrong.
    pub what: String,
    /// The input.
    pub input: Vec<u8>,
}

/// A finding that is a known defect owned elsewhere (reported, counted, not a failure).
pub struct Known {
    /// The target it shows up in.
    pub target: &'static str,
    /// A text its message contains.
    pub signature: &'static str,
    /// Whose it is, where it is fixed.
    pub note: &'static str,
}

/// Known defects, each with its owner. Keep this list empty when they are fixed: a finding
/// matching nothing here fails the run.
pub const KNOWN: &[Known] = &[];

fn known(target: &str, what: &str) -> Option<&'static Known> {
    KNOWN.iter().find(|k| {
        let t = k.target.trim_matches('*');
        let target_ok = if k.target.starts_with('*') {
            target.contains(t)
        } else {
            target == t
        };
        target_ok && what.contains(k.signature)
    })
}

/// The counts of one target's run.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The target.
    pub target: &'static str,
    /// Inputs run.
    pub inputs: u64,
    /// Inputs accepted as valid.
    pub accepted: u64,
    /// Findings (failures).
    pub findings: Vec<Finding>,
    /// Findings matching [`KNOWN`], by note.
    pub known: Vec<(String, u64)>,
    /// Wall time.
    pub elapsed: Duration,
    /// The slowest input.
    pub slowest: Duration,
}

/// The seed corpus of a target: every file of `fuzz/corpus/<name>/`.
pub fn seeds(name: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(name);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    files.iter().filter_map(|f| std::fs::read(f).ok()).collect()
}

fn escape(b: &[u8]) -> String {
    let mut s = String::new();
    for c in String::from_utf8_lossy(b).chars().take(400) {
        match c {
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            c if c.is_control() => s.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => s.push(c),
        }
    }
    if b.len() > 400 {
        s.push_str(&format!("... ({} bytes)", b.len()));
    }
    s
}

/// Watches the input being run: one that runs past [`HANG`] aborts the process with the input
/// printed (a hang cannot be caught in-process).
struct Watchdog {
    started: Arc<AtomicU64>,
    current: Arc<Mutex<(&'static str, Vec<u8>)>>,
    stop: Arc<AtomicBool>,
    epoch: Instant,
}

impl Watchdog {
    fn start() -> Watchdog {
        let w = Watchdog {
            started: Arc::new(AtomicU64::new(u64::MAX)),
            current: Arc::new(Mutex::new(("", Vec::new()))),
            stop: Arc::new(AtomicBool::new(false)),
            epoch: Instant::now(),
        };
        let (started, current, stop, epoch) = (
            w.started.clone(),
            w.current.clone(),
            w.stop.clone(),
            w.epoch,
        );
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(250));
                let s = started.load(Ordering::Relaxed);
                if s == u64::MAX {
                    continue;
                }
                let now = epoch.elapsed().as_millis() as u64;
                if now.saturating_sub(s) > HANG.as_millis() as u64 {
                    let (t, input) = current.lock().map(|c| c.clone()).unwrap_or_default();
                    eprintln!(
                        "fuzz: HANG in target {t}: one input ran for more than {:?}: {}",
                        HANG,
                        escape(&input)
                    );
                    save(t, "hang", &input);
                    std::process::abort();
                }
            }
        });
        w
    }

    fn begin(&self, target: &'static str, input: &[u8]) {
        if let Ok(mut c) = self.current.lock() {
            c.0 = target;
            c.1.clear();
            c.1.extend_from_slice(input);
        }
        self.started
            .store(self.epoch.elapsed().as_millis() as u64, Ordering::Relaxed);
    }

    fn end(&self) {
        self.started.store(u64::MAX, Ordering::Relaxed);
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn save(target: &str, what: &str, input: &[u8]) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/fuzz-findings");
    if std::fs::create_dir_all(&dir).is_ok() {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in input {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
        let _ = std::fs::write(dir.join(format!("{target}-{what}-{h:016x}")), input);
    }
}

/// Runs `target` on its seeds and then on `inputs` mutated inputs from generator `seed`.
pub fn run(target: &Target, ctx: &mut targets::Context, inputs: u64, seed: u64) -> Report {
    let dog = Watchdog::start();
    let mut report = Report {
        target: target.name,
        ..Report::default()
    };
    let start = Instant::now();
    let mut pool = seeds(target.name);
    assert!(!pool.is_empty(), "no seed corpus for {}", target.name);
    let base_len = pool.len();
    let mut m = Mutator {
        rng: Rng(seed ^ fnv(target.name)),
    };
    let mut known_counts: Vec<(String, u64)> = Vec::new();
    let mut slowest_input = Vec::new();
    let total = inputs + base_len as u64;
    for k in 0..total {
        let input = if (k as usize) < base_len {
            pool[k as usize].clone()
        } else {
            let base = &pool[m.rng.below(pool.len())];
            m.mutate(base, &pool, target.dictionary, target.max_len)
        };
        dog.begin(target.name, &input);
        let t0 = Instant::now();
        let panics = PANICS.load(Ordering::SeqCst);
        let outcome = catch_unwind(AssertUnwindSafe(|| (target.run)(ctx, &input)));
        let took = t0.elapsed();
        let elsewhere = outcome.is_ok() && PANICS.load(Ordering::SeqCst) != panics;
        dog.end();
        report.inputs += 1;
        if took > report.slowest {
            report.slowest = took;
            slowest_input.clone_from(&input);
        }
        let problem = match outcome {
            Ok(Ok(Verdict::Accepted)) => {
                report.accepted += 1;
                // Accepted inputs seed further mutation (a bounded pool).
                if pool.len() < base_len + 2000 {
                    pool.push(input.clone());
                } else {
                    let i = base_len + m.rng.below(2000);
                    pool[i] = input.clone();
                }
                None
            }
            Ok(Ok(Verdict::Rejected)) => None,
            Ok(Err(what)) => Some(what),
            Err(p) => Some(format!("panic: {}", panic_text(&*p))),
        };
        let problem = problem.or_else(|| {
            elsewhere.then(|| {
                let last = LAST_PANIC.lock().map(|l| l.clone()).unwrap_or_default();
                format!("panic in another thread: {last}")
            })
        });
        let problem = problem
            .or_else(|| (took > SLOW).then(|| format!("slow: {took:?} for {} bytes", input.len())));
        if let Some(what) = problem {
            if let Some(k) = known(target.name, &what) {
                match known_counts.iter_mut().find(|(n, _)| n == k.note) {
                    Some(e) => e.1 += 1,
                    None => known_counts.push((k.note.to_string(), 1)),
                }
                continue;
            }
            save(target.name, "finding", &input);
            if report.findings.len() < 20 {
                report.findings.push(Finding {
                    target: target.name,
                    what,
                    input,
                });
            }
        }
    }
    report.known = known_counts;
    report.elapsed = start.elapsed();
    save(target.name, "slowest", &slowest_input);
    report
}

fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    h
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{:<22} {:>10} inputs {:>9} accepted {:>3} findings  {:>8.1} s  slowest {:?}",
            self.target,
            self.inputs,
            self.accepted,
            self.findings.len(),
            self.elapsed.as_secs_f64(),
            self.slowest
        )?;
        for (note, n) in &self.known {
            writeln!(f, "    known defect, {n} inputs: {note}")?;
        }
        for x in &self.findings {
            writeln!(
                f,
                "    FINDING: {}\n      input: {}",
                x.what,
                escape(&x.input)
            )?;
        }
        Ok(())
    }
}

/// Quiets the default panic message while fuzzing (panics are findings, reported by the
/// harness); the previous hook is returned to be put back.
pub fn quiet_panics() {
    std::panic::set_hook(Box::new(|info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        if let Ok(mut last) = LAST_PANIC.lock() {
            *last = info.to_string();
        }
    }));
}

/// Panics seen by the hook [`quiet_panics`] sets, in any thread: a panic in a thread the
/// input's code started (a protocol session's reader or search threads) is not caught by the
/// harness's `catch_unwind`, but is counted here.
static PANICS: AtomicU64 = AtomicU64::new(0);
/// The last panic's message.
static LAST_PANIC: Mutex<String> = Mutex::new(String::new());
