//! The fuzz runs: a short seeded pass (CI, `cargo test`), and the long run
//! (`HOUSERULES_FUZZ_INPUTS=10000000 cargo test --release -p houserules-fuzz -- --ignored
//! --nocapture`; `HOUSERULES_FUZZ_SEED` picks another sequence, `HOUSERULES_FUZZ_TARGET`
//! one target).

use houserules_fuzz::targets::{Context, TARGETS};
use houserules_fuzz::{quiet_panics, run, Report};

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

fn run_all(total: u64, seed: u64) -> Vec<Report> {
    quiet_panics();
    let only = std::env::var("HOUSERULES_FUZZ_TARGET").ok();
    let chosen: Vec<_> = TARGETS
        .iter()
        .filter(|t| only.as_deref().is_none_or(|o| o == t.name))
        .collect();
    let per = total / chosen.len().max(1) as u64;
    let mut ctx = Context::new();
    let mut reports = Vec::new();
    for t in chosen {
        let r = run(t, &mut ctx, per, seed);
        print!("{r}");
        reports.push(r);
    }
    let _ = std::panic::take_hook();
    let inputs: u64 = reports.iter().map(|r| r.inputs).sum();
    let secs: f64 = reports.iter().map(|r| r.elapsed.as_secs_f64()).sum();
    println!(
        "total: {inputs} inputs over {} targets in {secs:.1} s ({:.0} inputs/s), seed {seed}, {} findings",
        reports.len(),
        inputs as f64 / secs.max(1e-9),
        reports.iter().map(|r| r.findings.len()).sum::<usize>()
    );
    reports
}

fn assert_clean(reports: &[Report]) {
    let findings: Vec<String> = reports
        .iter()
        .flat_map(|r| {
            r.findings
                .iter()
                .map(|f| format!("{}: {}", f.target, f.what))
        })
        .collect();
    assert!(findings.is_empty(), "findings:\n{}", findings.join("\n"));
}

/// The short pass CI runs: a fixed seed, a few thousand inputs per target.
#[test]
fn short_seeded_pass() {
    let total = env_u64("HOUSERULES_FUZZ_SHORT").unwrap_or(if cfg!(debug_assertions) {
        24_000
    } else {
        240_000
    });
    assert_clean(&run_all(total, 14));
}

/// The long run (10 million inputs by default).
#[test]
#[ignore]
fn long_run() {
    let total = env_u64("HOUSERULES_FUZZ_INPUTS").unwrap_or(10_000_000);
    let seed = env_u64("HOUSERULES_FUZZ_SEED").unwrap_or(20_140_014);
    assert_clean(&run_all(total, seed));
}

/// Runs the inputs saved in the files of `HOUSERULES_FUZZ_REPLAY` (colon-separated) through
/// `HOUSERULES_FUZZ_TARGET` and prints what the target says (reproducing a finding).
#[test]
#[ignore]
fn replay() {
    let Ok(files) = std::env::var("HOUSERULES_FUZZ_REPLAY") else {
        return;
    };
    let name = std::env::var("HOUSERULES_FUZZ_TARGET").expect("HOUSERULES_FUZZ_TARGET");
    let target = TARGETS
        .iter()
        .find(|t| t.name == name)
        .expect("a target name");
    let mut ctx = Context::new();
    for f in files.split(':') {
        let input = std::fs::read(f).expect("a finding file");
        println!("{f}: {:?}", (target.run)(&mut ctx, &input));
    }
}
