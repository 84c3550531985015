//! Deliberately broken plugins, built as real libraries, and the host containing each one
//! (issue 14): under `--isolate` a batch finishes, the other records are intact and the
//! record that met the fault is reported with its cause (kind, signal, plugin, hook).

use houserules_tests::{cdylib, houserules};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// One preset per fault, each in `filter_legal_moves` (called at every ply), except
/// `fault-drop`, whose object panics when it is dropped.
const FAULTS: &str = r#"
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::*;

struct Fault(&'static str);

#[inline(never)]
fn deep(n: u64) -> u64 {
    let pad = [n; 64];
    std::hint::black_box(&pad);
    deep(n + 1).wrapping_add(pad[3])
}

impl PresetRules for Fault {
    fn filter_legal_moves(&self, _pos: &Position, moves: &mut RVec<Move>) {
        match self.0 {
            "fault-panic" => panic!("a panic inside a hook"),
            "fault-loop" => loop { std::hint::spin_loop() },
            "fault-abort" => std::process::abort(),
            "fault-segv" => unsafe { std::ptr::null_mut::<u64>().write_volatile(7) },
            "fault-stack" => { std::hint::black_box(deep(0)); }
            "fault-alloc" => {
                let mut hoard: Vec<Vec<u8>> = Vec::new();
                loop { hoard.push(vec![1u8; 1 << 20]); std::hint::black_box(&hoard); }
            }
            "fault-exit" => std::process::exit(7),
            // Killed from outside: no handler runs, the worker cannot say where it was.
            "fault-kill" => {
                let _ = std::process::Command::new("kill")
                    .args(["-9", &std::process::id().to_string()])
                    .status();
                loop { std::thread::sleep(std::time::Duration::from_millis(10)) }
            }
            _ => {}
        }
        std::hint::black_box(moves);
    }
}

impl Drop for Fault {
    fn drop(&mut self) {
        if self.0 == "fault-drop" {
            panic!("a panic in Drop");
        }
    }
}

const IDS: [&str; 9] = ["fault-panic", "fault-loop", "fault-abort", "fault-segv", "fault-stack",
    "fault-alloc", "fault-exit", "fault-drop", "fault-kill"];

struct P;
impl Plugin for P {
    fn manifest() -> PluginManifest {
        PluginManifest {
            api_version: API_VERSION,
            id: "faults".into(),
            version: "0.1.0".into(),
            description: "misbehaves on purpose".into(),
            variants: RVec::new(),
            presets: IDS.iter().map(|id| PresetInfo {
                id: (*id).into(), name: (*id).into(), category: "Test".into(),
                mode: "hooks".into(), description: "misbehaves".into(),
                requires: RVec::new(), incompatible_with: RVec::new(), scope_aware: false,
                options: RVec::new(), hooks: HookSet::FILTER_LEGAL_MOVES,
                ..Default::default()
            }).collect(),
        }
    }
    fn new_preset(id: &str, _o: &Options, _v: &VariantInfo) -> Result<PresetBox, String> {
        let id = IDS.iter().find(|i| **i == id).ok_or("no such preset")?;
        Ok(preset_object(Fault(id)))
    }
}
export_plugin!(P);
"#;

/// A plugin whose load-time code (an ELF initialiser) panics: it aborts whoever opens it.
const LOAD_PANIC: &str = r#"
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::*;

#[used]
#[link_section = ".init_array"]
static INIT: extern "C" fn() = init;
extern "C" fn init() {
    panic!("a panic in load-time code");
}

struct P;
impl Plugin for P {
    fn manifest() -> PluginManifest {
        PluginManifest {
            api_version: API_VERSION, id: "load-panic".into(), version: "0.1.0".into(),
            description: "dies when loaded".into(), variants: RVec::new(), presets: RVec::new(),
        }
    }
}
export_plugin!(P);
"#;

/// A plain preset, built with `panic = "abort"`.
const ABORT_BUILD: &str = r#"
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::*;

struct Nothing;
impl PresetRules for Nothing {}

struct P;
impl Plugin for P {
    fn manifest() -> PluginManifest {
        PluginManifest {
            api_version: API_VERSION, id: "abort-build".into(), version: "0.1.0".into(),
            description: "built with panic = abort".into(), variants: RVec::new(),
            presets: vec![PresetInfo {
                id: "abort-build".into(), name: "x".into(), category: "Test".into(),
                mode: "hooks".into(), description: "x".into(), requires: RVec::new(),
                incompatible_with: RVec::new(), scope_aware: false, options: RVec::new(),
                hooks: HookSet::default(), ..Default::default()
            }].into_iter().collect(),
        }
    }
    fn new_preset(_id: &str, _o: &Options, _v: &VariantInfo) -> Result<PresetBox, String> {
        Ok(preset_object(Nothing))
    }
}
export_plugin!(P);
"#;

fn built(name: &str, source: &str, rustc_args: &[&str]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("houserules-faults-{}-{name}", std::process::id()));
    cdylib::write_crate(&dir, name, source);
    cdylib::build(&dir, name, rustc_args)
}

fn faults_plugin() -> &'static Path {
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    LIB.get_or_init(|| built("faults", FAULTS, &[]))
}

fn game(round: usize, presets: Option<&str>) -> String {
    let tag = presets
        .map(|p| format!("[Presets \"{p}\"]\n"))
        .unwrap_or_default();
    format!("[Event \"t\"]\n[Round \"{round}\"]\n{tag}\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n")
}

fn analyze(args: &[&str], pgn: &str) -> (Vec<Value>, i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.pgn");
    std::fs::write(&file, pgn).unwrap();
    let mut all: Vec<&str> = vec!["analyze", "--jsonl", "--no-plies"];
    all.extend_from_slice(args);
    let f = file.to_str().unwrap().to_string();
    all.push(&f);
    let out = houserules(&all);
    let games = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    (
        games,
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `analyze` under `--isolate` with the faults plugin, a timeout and a number of workers.
fn analyze_isolated(
    lib: &Path,
    timeout: &str,
    jobs: &str,
    more: &[&str],
    pgn: &str,
) -> (Vec<Value>, i32, String) {
    let lib = lib.to_str().unwrap();
    let mut args = vec!["--isolate", "--plugin", lib, "--game-timeout", timeout];
    args.extend_from_slice(&["--jobs", jobs]);
    args.extend_from_slice(more);
    analyze(&args, pgn)
}

/// Every hook fault, one record each between intact records, in one isolated batch.
#[test]
fn each_fault_is_contained_under_isolate() {
    let lib = faults_plugin();
    let cases = [
        ("fault-panic", "panic", None),
        ("fault-loop", "timeout", None),
        ("fault-abort", "abort", Some("SIGABRT")),
        ("fault-segv", "crash", Some("SIGSEGV")),
        ("fault-stack", "stack-overflow", None),
        ("fault-alloc", "out-of-memory", Some("SIGABRT")),
        ("fault-exit", "exit", None),
    ];
    let mut pgn = String::new();
    let mut round = 0;
    for (preset, _, _) in &cases {
        round += 1;
        pgn.push_str(&game(round, None));
        round += 1;
        pgn.push_str(&game(round, Some(preset)));
    }
    round += 1;
    pgn.push_str(&game(round, None));
    for jobs in ["1", "2"] {
        // An allocation of 512 MB, 1 MB at a time, takes a while on a loaded machine.
        let (games, code, err) =
            analyze_isolated(lib, "5", jobs, &["--worker-memory", "512"], &pgn);
        assert_eq!(code, 3, "exit code 3: plugin faults\n{err}");
        assert_eq!(games.len(), round, "every record is reported\n{err}");
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g["index"], i as u64 + 1, "input order");
            assert_eq!(g["tags"]["Round"], (i + 1).to_string());
            if i % 2 == 0 {
                assert!(g["fault"].is_null(), "record {} intact: {g}", i + 1);
                assert_eq!(g["ply_count"], 6);
                assert!(g["errors"].as_array().unwrap().is_empty(), "{g}");
                continue;
            }
            let (preset, kind, signal) = cases[i / 2];
            let f = &g["fault"];
            assert_eq!(f["kind"], kind, "{preset}: {g}\n{err}");
            if let Some(s) = signal {
                assert!(
                    f["signal"].as_str().unwrap_or("").starts_with(s),
                    "{preset}: {f}"
                );
            }
            assert_eq!(f["hook"], "filter_legal_moves", "{preset}: {f}");
            assert_eq!(f["rules"], format!("preset {preset}"), "{preset}: {f}");
            assert_eq!(f["plugin"], "faults", "{preset}: {f}");
            let message = g["errors"][0]["message"].as_str().unwrap();
            assert!(message.contains(kind), "{preset}: {message}");
        }
    }
}

/// Workers write their results in groups: a fault after many quick records, with their
/// results still unwritten, fails only its own record, whether the worker names the record
/// (a crash, a timeout) or cannot (killed from outside: its records are run again one at a
/// time, with a warning).
#[test]
fn a_fault_among_quick_records_fails_only_its_record() {
    let lib = faults_plugin();
    let faulty = [
        (41, "fault-segv", "crash"),
        (82, "fault-loop", "timeout"),
        (123, "fault-kill", "crash"),
    ];
    let mut pgn = String::new();
    for r in 1..=160 {
        let preset = faulty.iter().find(|f| f.0 == r).map(|f| f.1);
        pgn.push_str(&game(r, preset));
    }
    for jobs in ["1", "2"] {
        let (games, code, err) = analyze_isolated(lib, "2", jobs, &[], &pgn);
        assert_eq!(code, 3, "{err}");
        assert_eq!(games.len(), 160, "{err}");
        for (i, g) in games.iter().enumerate() {
            let round = i + 1;
            assert_eq!(g["tags"]["Round"], round.to_string(), "input order");
            match faulty.iter().find(|f| f.0 == round) {
                Some((_, preset, kind)) => {
                    assert_eq!(g["fault"]["kind"], *kind, "{preset}: {g}\n{err}");
                }
                None => {
                    assert!(g["fault"].is_null(), "record {round} intact: {g}\n{err}");
                    assert_eq!(g["ply_count"], 6, "{g}");
                }
            }
        }
        assert_eq!(
            games[122]["fault"]["signal"], "SIGKILL (killed)",
            "{}",
            games[122]
        );
        assert!(err.contains("without naming the record"), "{err}");
    }
}

/// A panic in a preset's `Drop` is caught inside the plugin (the boundary cannot unwind): a
/// warning, in process and isolated alike, and the record is valid.
#[test]
fn a_panic_in_drop_is_caught() {
    let lib = faults_plugin();
    let pgn = format!("{}{}", game(1, Some("fault-drop")), game(2, None));
    for mode in ["--isolate", "--no-isolate"] {
        let (games, code, err) = analyze(&[mode, "--plugin", lib.to_str().unwrap()], &pgn);
        assert_eq!(code, 0, "{mode}: {err}");
        assert_eq!(games.len(), 2);
        assert!(
            err.contains("plugin panicked while dropping"),
            "{mode}: {err}"
        );
        assert!(err.contains("a panic in Drop"), "{mode}: {err}");
    }
}

/// Issue 14 reproducer 5 without isolation: the output written before a crash is not lost
/// (each record is flushed as it is written).
#[test]
fn output_before_a_crash_is_flushed() {
    let lib = faults_plugin();
    let mut pgn = String::new();
    for r in 1..=4 {
        pgn.push_str(&game(r, None));
    }
    pgn.push_str(&game(5, Some("fault-segv")));
    let (games, code, _) = analyze(&["--no-isolate", "--plugin", lib.to_str().unwrap()], &pgn);
    assert_eq!(code, -1, "the process died of the signal");
    assert_eq!(
        games.len(),
        4,
        "the four reports before the crash are there"
    );
}

/// A plugin whose load-time code panics: opened by a worker only, which dies; the file is
/// left out of the run (and named), the batch goes on. Named with --plugin it stops the run
/// with exit code 3.
#[test]
fn a_panic_in_load_time_code_is_contained() {
    let lib = built("load_panic", LOAD_PANIC, &[]);
    let dir = tempfile::tempdir().unwrap();
    let in_dir = dir.path().join("libhouserules_load_panic.so");
    std::fs::copy(&lib, &in_dir).unwrap();
    let pgn = format!("{}{}", game(1, None), game(2, None));
    let (games, code, err) = analyze(
        &["--isolate", "--plugin-dir", dir.path().to_str().unwrap()],
        &pgn,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(games.len(), 2);
    assert!(
        err.contains("libhouserules_load_panic.so: not loaded"),
        "{err}"
    );
    assert!(err.contains("died opening plugin file"), "{err}");
    assert!(err.contains("SIGABRT"), "{err}");
    let (games, code, err) = analyze(&["--isolate", "--plugin", lib.to_str().unwrap()], &pgn);
    assert_eq!(code, 3, "{err}");
    assert!(games.is_empty());
    assert!(err.contains("died opening plugin file"), "{err}");
}

/// A plugin built with `panic = "abort"` is refused before it is loaded, with the reason.
#[test]
fn a_panic_abort_plugin_is_refused() {
    let lib = built("abort_build", ABORT_BUILD, &["-C", "panic=abort"]);
    for args in [
        vec!["--plugin", lib.to_str().unwrap(), "list"],
        vec![
            "--plugin",
            lib.to_str().unwrap(),
            "analyze",
            "--isolate",
            "/dev/null",
        ],
    ] {
        let out = houserules(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            matches!(out.status.code(), Some(2)),
            "{args:?}: {:?} {err}",
            out.status
        );
        assert!(err.contains("built with panic = \"abort\""), "{err}");
    }
}

/// Issue 14 acceptance: a 2,000-game corpus with one 3,000-deep variation and one game
/// whose plugin loops gives 2,000 reports in input order, those two marked.
#[test]
fn a_corpus_with_a_deep_game_and_a_looping_plugin_gives_every_report() {
    let lib = faults_plugin();
    let mut pgn = String::new();
    for r in 1..=2000 {
        match r {
            700 => pgn.push_str(&format!(
                "[Round \"700\"]\n\n1. e4 {}{} e5 *\n\n",
                "(1. e4 ".repeat(3000),
                ")".repeat(3000)
            )),
            1400 => pgn.push_str(&game(1400, Some("fault-loop"))),
            _ => pgn.push_str(&game(r, None)),
        }
    }
    let (games, code, err) = analyze(
        &[
            "--isolate",
            "--jobs",
            "2",
            "--game-timeout",
            "2",
            "--plugin",
            lib.to_str().unwrap(),
        ],
        &pgn,
    );
    assert_eq!(code, 3, "{err}");
    assert_eq!(games.len(), 2000);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["tags"]["Round"], (i + 1).to_string());
        let errors = g["errors"].as_array().unwrap();
        match i + 1 {
            700 => {
                assert!(g["fault"].is_null());
                assert!(
                    errors[0]["message"]
                        .as_str()
                        .unwrap()
                        .contains("nested deeper than 1000"),
                    "{g}"
                );
                assert_eq!(errors[0]["line"], 5 * 699 + 3);
            }
            1400 => assert_eq!(g["fault"]["kind"], "timeout", "{g}"),
            _ => assert!(errors.is_empty(), "{g}"),
        }
    }
}
