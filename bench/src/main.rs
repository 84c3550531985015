//! Issue 14 benchmarks, side by side in one run (see docs/benchmarks.md):
//!
//! 1. a 6,500-game corpus of real-world records (the files of `tests/data/records`, 20
//!    games, repeated): a pgn-reader + shakmaty replay (every main-line SAN resolved and
//!    played, variations skipped) against `houserules analyze --jsonl --no-plies` and with
//!    per-ply JSON, one job, in process and isolated (and two jobs in process, for the record);
//! 2. `analyze` throughput on 100,000 games without and with `--isolate`;
//! 3. peak memory (RSS) of `analyze` at 10k, 100k and 1M games;
//! 4. a 1,000,000-ply game with piece-hp;
//! 5. instruction counts of section 1's runs on 1,300 games (valgrind);
//! 6. 100,000 records of a position (`FEN` tag) and six moves, the shape of a puzzle
//!    database: per-record costs (reading a FEN above all) rather than per-ply ones.
//!
//! Usage: `cargo build --release && cargo run --release --manifest-path bench/Cargo.toml --
//! [ROUNDS] [--skip-1m] [--only 1,6]` from the workspace root. Each figure is the best of
//! ROUNDS (default 3).

use pgn_reader::{BufferedReader, RawHeader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Replays the main line of every game with shakmaty.
struct Replay {
    pos: Chess,
    fen: Option<String>,
    plies: u64,
    bad: u64,
    skip: bool,
}

impl Visitor for Replay {
    type Result = ();

    fn begin_game(&mut self) {
        self.fen = None;
        self.skip = false;
    }

    fn header(&mut self, key: &[u8], value: RawHeader<'_>) {
        if key == b"FEN" {
            self.fen = Some(value.decode_utf8_lossy().into_owned());
        }
    }

    fn end_headers(&mut self) -> Skip {
        self.pos = match &self.fen {
            None => Chess::default(),
            Some(f) => match f
                .parse::<Fen>()
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Chess960).ok())
            {
                Some(p) => p,
                None => {
                    self.skip = true;
                    self.bad += 1;
                    Chess::default()
                }
            },
        };
        Skip(self.skip)
    }

    fn san(&mut self, san: SanPlus) {
        if self.skip {
            return;
        }
        match san.san.to_move(&self.pos) {
            Ok(m) => {
                self.pos.play_unchecked(&m);
                self.plies += 1;
            }
            Err(_) => {
                self.skip = true;
                self.bad += 1;
            }
        }
    }

    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }

    fn end_game(&mut self) {
        // The result by the rules, as analyze computes it.
        if !self.skip {
            std::hint::black_box(self.pos.outcome());
        }
    }
}

/// CPU time (user and system) of this thread so far.
fn thread_cpu() -> Duration {
    // SAFETY: an all-zero timespec is valid; clock_gettime fills it.
    let mut t: libc::timespec = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a timespec of ours.
    unsafe {
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t);
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

fn cpu_of(usage: &libc::rusage) -> Duration {
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// The pgn-reader + shakmaty replay of `file`: wall time, CPU time, plies, games it could
/// not replay.
fn replay(file: &Path) -> (Duration, Duration, u64, u64) {
    let cpu = thread_cpu();
    let start = Instant::now();
    let f = std::fs::File::open(file).expect("corpus");
    let mut reader = BufferedReader::new(f);
    let mut v = Replay {
        pos: Chess::default(),
        fen: None,
        plies: 0,
        bad: 0,
        skip: false,
    };
    reader.read_all(&mut v).expect("read");
    (start.elapsed(), thread_cpu() - cpu, v.plies, v.bad)
}

/// Runs a command with its output to /dev/null; wall time, peak RSS (KiB) and CPU time (user
/// and system) of the child.
// The child is reaped by `wait4` (for its resource usage), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn measure(program: &Path, args: &[&str]) -> (Duration, i64, Duration) {
    let start = Instant::now();
    let child = Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("houserules runs");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is valid; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waiting for our own child, with valid pointers.
    unsafe {
        libc::wait4(pid, &mut status, 0, &mut usage);
    }
    (start.elapsed(), usage.ru_maxrss, cpu_of(&usage))
}

/// The best wall time (with its peak RSS) and the best CPU time of `rounds` runs.
fn best(rounds: usize, program: &Path, args: &[&str]) -> (Duration, i64, Duration) {
    let runs: Vec<_> = (0..rounds).map(|_| measure(program, args)).collect();
    let (wall, rss, _) = *runs.iter().min_by_key(|r| r.0).expect("one round");
    let cpu = runs.iter().map(|r| r.2).min().expect("one round");
    (wall, rss, cpu)
}

/// The real-world corpus: the record files of the tests, repeated to `games` games.
fn real_corpus(root: &Path, dir: &Path, games: usize) -> PathBuf {
    let out = dir.join(format!("real-{games}.pgn"));
    if out.exists() {
        return out;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("tests/data/records/python-chess"))
        .expect("tests/data/records")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    files.sort();
    files.push(root.join("tests/data/records/annotated.pgn"));
    let texts: Vec<String> = files
        .iter()
        .map(|f| {
            let t = std::fs::read_to_string(f).expect("record file");
            t.trim_start_matches('\u{feff}').to_string()
        })
        .collect();
    let per_round = 20; // games in one round of the files
                        // Written as it is made: this process stays small (a child's peak RSS counts the
                        // parent's at fork time).
    use std::io::Write;
    let mut w = std::io::BufWriter::new(std::fs::File::create(&out).expect("create the corpus"));
    for _ in 0..games.div_ceil(per_round) {
        for t in &texts {
            w.write_all(t.as_bytes()).expect("write the corpus");
            w.write_all(b"\n").expect("write the corpus");
        }
    }
    w.flush().expect("write the corpus");
    out
}

/// `games` random legal games (the host's own generator, reproducible).
fn random_corpus(h: &Path, dir: &Path, games: usize) -> PathBuf {
    let out = dir.join(format!("random-{games}.pgn"));
    if !out.exists() {
        let status = Command::new(h)
            .args([
                "play", "--white", "random", "--black", "random", "--seed", "1",
            ])
            .args(["--max-plies", "120", "--games", &games.to_string(), "--out"])
            .arg(&out)
            .stdout(Stdio::null())
            .status()
            .expect("play");
        assert!(status.success());
    }
    out
}

fn secs(d: Duration) -> String {
    format!("{:.3} s", d.as_secs_f64())
}

/// Instructions a program runs (valgrind's callgrind count): unlike times, the same on a
/// loaded machine. `None` without valgrind.
fn instructions(program: &Path, args: &[&str]) -> Option<u64> {
    let out = Command::new("valgrind")
        .args([
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            "--trace-children=yes",
        ])
        .arg(program)
        .args(args)
        .stdout(Stdio::null())
        .output()
        .ok()?;
    // One count per process (an isolated run's workers are children): their sum.
    let text = String::from_utf8_lossy(&out.stderr);
    let counts: Vec<u64> = text
        .lines()
        .filter(|l| l.contains("Collected :"))
        .filter_map(|l| l.rsplit(':').next()?.trim().replace(',', "").parse().ok())
        .collect();
    (!counts.is_empty()).then(|| counts.iter().sum())
}

/// Section 5: instructions of the replay and of `analyze` on 1,300 games of the real-world
/// corpus, under valgrind (about 50 times slower): the ratios of section 1 without the noise
/// of a machine other work shares.
fn instruction_counts(root: &Path, dir: &Path, h: &Path) {
    let real = real_corpus(root, dir, 1300);
    let f = real.to_str().expect("utf-8 path");
    let me = std::env::current_exe().expect("this program");
    let Some(reference) = instructions(&me, &["--replay-only", f]) else {
        println!("\n5. instruction counts: valgrind is not installed (skipped)");
        return;
    };
    println!("\n5. Instructions on 1,300 real-world games (valgrind --tool=callgrind; process start and plugin loading included)");
    println!("| program | instructions | vs pgn-reader + shakmaty |\n|---|---|---|");
    println!(
        "| pgn-reader 0.25 + shakmaty 0.26 replay | {:.0} M | 1.0x |",
        reference as f64 / 1e6
    );
    for (name, a) in analyze_runs(f) {
        if let Some(n) = instructions(h, &a) {
            println!(
                "| {name} | {:.0} M | {:.1}x |",
                n as f64 / 1e6,
                n as f64 / reference as f64
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // The reference alone, for the instruction counts (run under valgrind by section 5).
    if let (Some("--replay-only"), Some(file)) = (args.first().map(String::as_str), args.get(1)) {
        replay(Path::new(file));
        return;
    }
    let rounds: usize = args.iter().find_map(|a| a.parse().ok()).unwrap_or(3);
    let skip_1m = args.iter().any(|a| a == "--skip-1m");
    // `--only 3,4`: some sections.
    let only: Vec<u32> = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(|l| l.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| vec![1, 2, 3, 4, 5, 6]);
    let root = std::env::current_dir().expect("cwd");
    let h = root.join("target/release/houserules");
    assert!(h.exists(), "build first: cargo build --release");
    let dir = root.join("target/bench-14");
    std::fs::create_dir_all(&dir).expect("target/bench-14");
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("machine load average at start: {}", load.trim());

    if only.contains(&1) {
        against_pgn_reader(&root, &dir, &h, rounds);
    }
    if only.contains(&2) {
        isolation(&root, &dir, &h, rounds);
    }
    if only.contains(&3) {
        memory(&root, &dir, &h, skip_1m);
    }
    if only.contains(&4) {
        long_game(&dir, &h, rounds);
    }
    if only.contains(&5) {
        instruction_counts(&root, &dir, &h);
    }
    if only.contains(&6) {
        positions(&dir, &h, rounds);
    }
}

/// `n` records of a position and the six moves after it, as puzzle databases publish them:
/// random games played with shakmaty (a fixed seed), the position after ply 20 as a `FEN`
/// tag, the next six moves in SAN.
fn position_corpus(dir: &Path, n: usize) -> PathBuf {
    use shakmaty::san::San;
    use shakmaty::EnPassantMode;
    let out = dir.join(format!("positions-{n}.pgn"));
    if out.exists() {
        return out;
    }
    let mut text = String::new();
    let mut x = 2026u64;
    let mut made = 0;
    while made < n {
        let mut pos = Chess::default();
        let mut fen = None;
        let mut sans = Vec::new();
        for ply in 0..26 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let m = moves[(x >> 33) as usize % moves.len()].clone();
            if ply == 20 {
                fen = Some(Fen::from_position(pos.clone(), EnPassantMode::Legal).to_string());
            }
            if ply >= 20 {
                sans.push(San::from_move(&pos, &m).to_string());
            }
            pos.play_unchecked(&m);
        }
        let Some(fen) = fen else { continue };
        text.push_str(&format!(
            "[Event \"position {made}\"]\n[FEN \"{fen}\"]\n[SetUp \"1\"]\n\n{} *\n\n",
            sans.join(" ")
        ));
        made += 1;
    }
    std::fs::write(&out, text).expect("write the position corpus");
    out
}

fn positions(dir: &Path, h: &Path, rounds: usize) {
    let file = position_corpus(dir, 100_000);
    let f = file.to_str().expect("utf-8 path");
    let runs = [
        (
            "analyze --jsonl --no-plies",
            vec!["analyze", "--jsonl", "--no-plies", "--no-isolate", f],
        ),
        (
            "analyze --jsonl (per-ply JSON)",
            vec!["analyze", "--jsonl", "--no-isolate", f],
        ),
    ];
    side_by_side(&file, h, rounds, &runs, &|plies, bad| {
        format!("6. 100,000 positions (FEN tag) and six moves each ({plies} plies replayed by shakmaty, {bad} records not replayable by it)")
    });
}

/// The `analyze` runs sections 1 and 5 measure on the corpus `f`: name and arguments.
fn analyze_runs(f: &str) -> Vec<(&'static str, Vec<&str>)> {
    vec![
        (
            "analyze --jsonl --no-plies",
            vec!["analyze", "--jsonl", "--no-plies", "--no-isolate", f],
        ),
        (
            "analyze --jsonl --no-plies --move-by-move",
            vec![
                "analyze",
                "--jsonl",
                "--no-plies",
                "--no-isolate",
                "--move-by-move",
                f,
            ],
        ),
        (
            "analyze --jsonl --no-plies --isolate (parent and worker)",
            vec!["analyze", "--jsonl", "--no-plies", "--isolate", f],
        ),
        (
            "analyze --jsonl (per-ply JSON)",
            vec!["analyze", "--jsonl", "--no-isolate", f],
        ),
        (
            "analyze --jsonl --isolate (per-ply JSON)",
            vec!["analyze", "--jsonl", "--isolate", f],
        ),
    ]
}

fn against_pgn_reader(root: &Path, dir: &Path, h: &Path, rounds: usize) {
    let real = real_corpus(root, dir, 6500);
    let f = real.to_str().expect("utf-8 path");
    // The targets compare one job with the reference; two jobs (in process) show what a
    // second core adds.
    let mut runs = analyze_runs(f);
    runs.push((
        "analyze --jsonl --no-plies --jobs 2",
        vec![
            "analyze",
            "--jsonl",
            "--no-plies",
            "--no-isolate",
            "--jobs",
            "2",
            f,
        ],
    ));
    runs.push((
        "analyze --jsonl --jobs 2 (per-ply JSON)",
        vec!["analyze", "--jsonl", "--no-isolate", "--jobs", "2", f],
    ));
    side_by_side(&real, h, rounds, &runs, &|plies, bad| {
        format!("1. 6,500 real-world games ({plies} plies replayed by shakmaty, {bad} games not replayable by it)")
    });
}

/// The pgn-reader + shakmaty replay of `corpus` and the `analyze` runs `runs` on it, a table
/// row each (best of `rounds`), under the heading `title` gives (from the plies the
/// reference replayed and the records it could not).
fn side_by_side(
    corpus: &Path,
    h: &Path,
    rounds: usize,
    runs: &[(&str, Vec<&str>)],
    title: &dyn Fn(u64, u64) -> String,
) {
    let refs: Vec<_> = (0..rounds).map(|_| replay(corpus)).collect();
    let (_, _, plies, bad) = refs[0];
    let t_ref = refs.iter().map(|r| r.0).min().expect("one round");
    let cpu_ref = refs.iter().map(|r| r.1).min().expect("one round");
    println!("\n{}", title(plies, bad));
    // CPU time (user + system) beside the wall time: on a loaded machine it is the steadier
    // figure (the wall time counts the waits for a core).
    println!("| program | time | vs pgn-reader + shakmaty | CPU time | CPU vs pgn-reader + shakmaty |\n|---|---|---|---|---|");
    println!(
        "| pgn-reader 0.25 + shakmaty 0.26 replay | {} | 1.0x | {} | 1.0x |",
        secs(t_ref),
        secs(cpu_ref)
    );
    for (name, a) in runs {
        let (t, _, cpu) = best(rounds, h, a);
        println!(
            "| {name} | {} | {:.1}x | {} | {:.1}x |",
            secs(t),
            t.as_secs_f64() / t_ref.as_secs_f64(),
            secs(cpu),
            cpu.as_secs_f64() / cpu_ref.as_secs_f64()
        );
    }
}

fn isolation(root: &Path, dir: &Path, h: &Path, rounds: usize) {
    println!("\n2. 100,000 games, `analyze -q --jobs 1`");
    // CPU time beside the wall time: on a loaded machine the steadier figure.
    println!("| corpus | in process | --isolate | isolation cost | CPU in process | CPU isolated | CPU cost |\n|---|---|---|---|---|---|---|");
    for (name, file) in [
        ("real-world (x5,000)", real_corpus(root, dir, 100_000)),
        ("random, 120 plies", random_corpus(h, dir, 100_000)),
    ] {
        let f = file.to_str().expect("utf-8 path");
        let (a, _, ca) = best(rounds, h, &["analyze", "-q", "--no-isolate", f]);
        let (b, _, cb) = best(rounds, h, &["analyze", "-q", "--isolate", f]);
        println!(
            "| {name} | {} ({:.0} games/s) | {} ({:.0} games/s) | {:+.1}% | {} | {} | {:+.1}% |",
            secs(a),
            1e5 / a.as_secs_f64(),
            secs(b),
            1e5 / b.as_secs_f64(),
            (b.as_secs_f64() / a.as_secs_f64() - 1.0) * 100.0,
            secs(ca),
            secs(cb),
            (cb.as_secs_f64() / ca.as_secs_f64() - 1.0) * 100.0
        );
    }
}

fn memory(root: &Path, dir: &Path, h: &Path, skip_1m: bool) {
    println!("\n3. Peak RSS of `analyze --jsonl --no-plies` (parent; isolated: + one worker)");
    println!("| games | in process | --isolate (parent) |\n|---|---|---|");
    let sizes: &[usize] = if skip_1m {
        &[10_000, 100_000]
    } else {
        &[10_000, 100_000, 1_000_000]
    };
    for &n in sizes {
        let file = real_corpus(root, dir, n);
        let f = file.to_str().expect("utf-8 path");
        let (_, a, _) = measure(h, &["analyze", "--jsonl", "--no-plies", "--no-isolate", f]);
        let (_, b, _) = measure(h, &["analyze", "--jsonl", "--no-plies", "--isolate", f]);
        println!(
            "| {n} | {:.1} MB | {:.1} MB |",
            a as f64 / 1024.0,
            b as f64 / 1024.0
        );
    }
}

fn long_game(dir: &Path, h: &Path, rounds: usize) {
    let long = dir.join("piece-hp-1m.pgn");
    if !long.exists() {
        let moves = "Nf3 Nf6 Ng1 Ng8 ".repeat(250_000);
        std::fs::write(&long, format!("[Presets \"piece-hp\"]\n\n{moves}1/2-1/2\n"))
            .expect("write");
    }
    let f = long.to_str().expect("utf-8 path");
    let (t, rss, _) = best(
        rounds,
        h,
        &["analyze", "--jsonl", "--no-plies", "--no-isolate", f],
    );
    println!(
        "\n4. one game of 1,000,000 plies with piece-hp: {} ({:.1} MB peak)",
        secs(t),
        rss as f64 / 1024.0
    );
}
