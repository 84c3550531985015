//! A third-party plugin, for real: crates written into a temporary directory, built against
//! `plugin-api` alone, and loaded into the built host with `--plugin`. Also the ways a plugin
//! file can be wrong: missing, not a library, not a plugin, built against another ABI or API.

use houserules_tests::{
    built_artifacts, houserules, houserules_env, houserules_ok, succeeded, workspace_root,
};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds the crate in `dir` (debug profile, in a target directory shared by these tests so
/// that dependencies are compiled once, and kept apart from the host's own directories so
/// that no test plugin ever sits beside a `houserules` binary) and returns its library.
fn build_crate(dir: &Path, lib_name: &str) -> PathBuf {
    let root = workspace_root();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("third-party");
    // Same dependency versions as the workspace.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).expect("copy Cargo.lock");
    let out = Command::new(env!("CARGO"))
        .current_dir(dir)
        .args(["build", "--lib"])
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "building {} failed:\n{}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    target.join("debug").join(format!(
        "{}{lib_name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ))
}

fn scaffold(dir: &Path, kind: &str, id: &str) {
    let out = Command::new(built_artifacts().join("houserules-scaffold"))
        .arg(dir)
        .args(["--kind", kind, "--id", id, "--api-path"])
        .arg(workspace_root().join("plugin-api"))
        .output()
        .expect("scaffold runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn stderr_of(args: &[&std::ffi::OsStr]) -> (i32, String) {
    stderr_of_env(args, &[])
}

/// [`stderr_of`] with these environment variables set.
fn stderr_of_env(args: &[&std::ffi::OsStr], env: &[(&str, &std::ffi::OsStr)]) -> (i32, String) {
    let out = houserules_env(args, env);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn scaffolded_variant_builds_loads_and_plays() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("kings-race");
    scaffold(&dir, "variant", "kings-race");
    let lib = build_crate(&dir, "houserules_kings_race");
    let list = houserules_ok([
        "--plugin".as_ref(),
        lib.as_os_str(),
        "list".as_ref(),
        "--json".as_ref(),
    ]);
    let v: serde_json::Value = serde_json::from_str(&list).unwrap();
    assert!(v["variants"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["id"] == "kings-race" && x["board"]["files"] == 6));
    // White king a1: a2, b1, b2. Black king f6: e6, e5, f5.
    let out = houserules_ok([
        "--plugin".as_ref(),
        lib.as_os_str(),
        "perft".as_ref(),
        "--variant".as_ref(),
        "kings-race".as_ref(),
        "--depth".as_ref(),
        "2".as_ref(),
    ]);
    assert!(out.trim_end().ends_with("Nodes searched: 9"), "{out}");
    // A king on the far rank has won: no moves.
    let out = houserules_ok([
        "--plugin".as_ref(),
        lib.as_os_str(),
        "moves".as_ref(),
        "--variant".as_ref(),
        "kings-race".as_ref(),
        "--fen".as_ref(),
        "K5/6/6/6/4k1/6 b 0 1".as_ref(),
        "--json".as_ref(),
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["result"]["result"], "1-0");
    assert_eq!(v["result"]["termination"], "reached-far-rank");
}

#[test]
fn scaffolded_preset_changes_chess() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("no-castling");
    scaffold(&dir, "preset", "no-castling");
    let lib = build_crate(&dir, "houserules_no_castling");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let count = |extra: &[&str]| {
        let mut args: Vec<&std::ffi::OsStr> = vec!["--plugin".as_ref(), lib.as_os_str()];
        for a in [
            "perft",
            "--variant",
            "chess",
            "--depth",
            "1",
            "--fen",
            kiwipete,
        ] {
            args.push(a.as_ref());
        }
        for a in extra {
            args.push(a.as_ref());
        }
        houserules_ok(args)
    };
    assert!(count(&[]).trim_end().ends_with("Nodes searched: 48"));
    assert!(count(&["--preset", "no-castling"])
        .trim_end()
        .ends_with("Nodes searched: 46"));
}

const PANIC_PLUGIN: &str = r#"
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::*;

struct Boom;
impl PresetRules for Boom {
    fn filter_legal_moves(&self, _pos: &Position, _moves: &mut RVec<Move>) {
        panic!("boom inside a hook");
    }
}

struct P;
impl Plugin for P {
    fn manifest() -> PluginManifest {
        PluginManifest {
            api_version: API_VERSION,
            id: "boom".into(),
            version: "0.1.0".into(),
            description: "panics on purpose".into(),
            variants: RVec::new(),
            presets: vec![PresetInfo {
                id: "boom".into(), name: "Boom".into(), category: "Test".into(),
                mode: "hooks".into(), description: "panics".into(),
                requires: RVec::new(), incompatible_with: RVec::new(), scope_aware: false,
                options: RVec::new(), hooks: HookSet::FILTER_LEGAL_MOVES,
                ..Default::default()
            }].into_iter().collect(),
        }
    }
    fn new_preset(_id: &str, _o: &Options, _v: &VariantInfo) -> Result<PresetBox, String> {
        Ok(preset_object(Boom))
    }
}
export_plugin!(P);
"#;

fn write_crate(dir: &Path, name: &str, api: &Path, source: &str) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [lib]\ncrate-type = [\"cdylib\"]\n\n[dependencies]\n\
             houserules-plugin-api = {{ path = {:?} }}\n\n[workspace]\n",
            api.display().to_string()
        ),
    )
    .unwrap();
    std::fs::write(dir.join("src/lib.rs"), source).unwrap();
}

#[test]
fn a_panic_inside_a_plugin_is_an_error_not_a_crash() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("boom");
    write_crate(
        &dir,
        "boom",
        &workspace_root().join("plugin-api"),
        PANIC_PLUGIN,
    );
    let lib = build_crate(&dir, "boom");
    let (code, err) = stderr_of(&[
        "--plugin".as_ref(),
        lib.as_os_str(),
        "perft".as_ref(),
        "--depth".as_ref(),
        "2".as_ref(),
        "--preset".as_ref(),
        "boom".as_ref(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("plugin panicked in filter_legal_moves"),
        "{err}"
    );
    assert!(err.contains("boom inside a hook"), "{err}");
    assert!(
        err.contains("src/lib.rs"),
        "the location is reported: {err}"
    );
}

#[test]
fn missing_file_and_non_library_and_non_plugin_are_clear_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("nowhere.so");
    let (code, err) = stderr_of(&["--plugin".as_ref(), missing.as_os_str(), "list".as_ref()]);
    assert_eq!(code, 2);
    assert!(err.contains("nowhere.so: no such file"), "{err}");

    let text = tmp.path().join("notes.so");
    std::fs::write(&text, "this is not a library").unwrap();
    let (code, err) = stderr_of(&["--plugin".as_ref(), text.as_os_str(), "list".as_ref()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("notes.so: not a loadable shared library"),
        "{err}"
    );

    let dir = tmp.path().join("plain");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"plain\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [lib]\ncrate-type = [\"cdylib\"]\n\n[workspace]\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("src/lib.rs"),
        "#[no_mangle]\npub extern \"C\" fn plain_add(a: u32, b: u32) -> u32 { a + b }\n",
    )
    .unwrap();
    let lib = build_crate(&dir, "plain");
    let (code, err) = stderr_of(&["--plugin".as_ref(), lib.as_os_str(), "list".as_ref()]);
    assert_eq!(code, 2);
    assert!(err.contains("not a houserules plugin"), "{err}");
}

/// Copies plugin-api into `dir`, as a standalone crate, with `patch` applied to one file.
fn patched_api(dir: &Path, file: &str, from: &str, to: &str) -> PathBuf {
    let src = workspace_root().join("plugin-api");
    let api = dir.join("plugin-api");
    std::fs::create_dir_all(api.join("src")).unwrap();
    for entry in std::fs::read_dir(src.join("src")).unwrap() {
        let p = entry.unwrap().path();
        let mut text = std::fs::read_to_string(&p).unwrap();
        if p.file_name().unwrap() == file {
            assert!(
                text.contains(from),
                "patch target `{from}` not found in {file}"
            );
            text = text.replace(from, to);
        }
        std::fs::write(api.join("src").join(p.file_name().unwrap()), text).unwrap();
    }
    std::fs::write(
        api.join("Cargo.toml"),
        "[package]\nname = \"houserules-plugin-api\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
         [dependencies]\nabi_stable = \"0.11.3\"\n",
    )
    .unwrap();
    api
}

#[test]
fn a_plugin_built_against_a_different_abi_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    // A position type of another layout: one more cache word.
    let api = patched_api(
        tmp.path(),
        "board.rs",
        "pub words: [u64; 16],",
        "pub words: [u64; 17],",
    );
    let board = std::fs::read_to_string(api.join("src/board.rs")).unwrap();
    std::fs::write(
        api.join("src/board.rs"),
        board.replace(
            "accel: Accel { words: [0; 16] },",
            "accel: Accel { words: [0; 17] },",
        ),
    )
    .unwrap();
    let dir = tmp.path().join("boom-abi");
    write_crate(&dir, "boom_abi", &api, PANIC_PLUGIN);
    let lib = build_crate(&dir, "boom_abi");
    // Twice, with a layout-check cache: a failed check is never remembered.
    let cache = tmp.path().join("cache");
    for run in 0..2 {
        let (code, err) = stderr_of_env(
            &["--plugin".as_ref(), lib.as_os_str(), "list".as_ref()],
            &[("HOUSERULES_CACHE_DIR", cache.as_os_str())],
        );
        assert_eq!(code, 2, "run {run}: {err}");
        assert!(err.contains("incompatible plugin ABI"), "run {run}: {err}");
        assert!(err.contains("boom_abi"), "the file is named: {err}");
    }
}

/// The layout checks of plugins that passed are remembered (one line per plugin file, for
/// this host), and a plugin loaded through the cache works as before; `off` writes nothing.
#[test]
fn passed_layout_checks_are_remembered_per_file() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |cache: &Path, setting: &str| {
        succeeded(houserules_env(
            ["perft", "--depth", "3"],
            &[
                ("HOUSERULES_CACHE_DIR", cache.as_os_str()),
                ("HOUSERULES_LAYOUT_CACHE", setting.as_ref()),
            ],
        ))
    };
    let off = tmp.path().join("off");
    let first = run(&off, "off");
    assert!(first.contains("8902"), "{first}");
    assert!(!off.join("layout-checks").exists(), "off writes nothing");
    let cache = tmp.path().join("on");
    assert_eq!(run(&cache, "on"), first);
    let lines = std::fs::read_to_string(cache.join("layout-checks")).unwrap();
    let n = lines.lines().count();
    assert!(n >= 2, "one line per loaded plugin: {lines}");
    // Loaded through the cache: the same answer, nothing added.
    assert_eq!(run(&cache, "on"), first);
    let again = std::fs::read_to_string(cache.join("layout-checks")).unwrap();
    assert_eq!(again, lines);
}

/// plugin-api as a standalone crate that says it is version `major.minor`.
fn api_of_version(dir: &Path, major: u16, minor: u16) -> PathBuf {
    // The constant's statement as written (rustfmt breaks it over lines when it is long).
    let path = workspace_root().join("plugin-api/src/manifest.rs");
    let text = std::fs::read_to_string(path).unwrap();
    let start = text
        .find("pub const API_VERSION: ApiVersion =")
        .expect("API_VERSION defined");
    let end = start + text[start..].find(';').expect("statement ends");
    patched_api(
        dir,
        "manifest.rs",
        &text[start..=end],
        &format!(
            "pub const API_VERSION: ApiVersion = ApiVersion {{ major: {major}, minor: {minor} }};"
        ),
    )
}

#[test]
fn a_plugin_built_for_another_api_major_version_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let v = houserules_plugin_api::API_VERSION;
    let api = api_of_version(tmp.path(), v.major + 1, 0);
    let dir = tmp.path().join("boom-api");
    write_crate(&dir, "boom_api", &api, PANIC_PLUGIN);
    let lib = build_crate(&dir, "boom_api");
    let (code, err) = stderr_of(&["--plugin".as_ref(), lib.as_os_str(), "list".as_ref()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!(
            "built for plugin API {}.0, this host speaks {v}",
            v.major + 1
        )),
        "{err}"
    );
}

/// A plugin of a newer API minor: it loads (abi_stable accepts boundary types that grew), a
/// preset using only what this host knows works, and one declaring a hook this host does not
/// know is refused by name when it is used.
#[test]
fn a_plugin_of_a_newer_minor_loads_and_unknown_hooks_are_refused_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    let v = houserules_plugin_api::API_VERSION;
    let api = api_of_version(tmp.path(), v.major, v.minor + 1);
    let source = PANIC_PLUGIN
        .replace("id: \"boom\".into(), name", "id: \"future\".into(), name")
        .replace(
            "hooks: HookSet::FILTER_LEGAL_MOVES,",
            "hooks: HookSet(HookSet::FILTER_LEGAL_MOVES.0 | (1 << 40)),",
        );
    let dir = tmp.path().join("future-api");
    write_crate(&dir, "future_api", &api, &source);
    let lib = build_crate(&dir, "future_api");
    let plugin = ["--plugin".as_ref(), lib.as_os_str()];
    let out = houserules(plugin.iter().chain([&"list".as_ref()]));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("future"), "{text}");
    let (code, err) = stderr_of(
        &plugin
            .iter()
            .copied()
            .chain([
                "perft".as_ref(),
                "--preset".as_ref(),
                "future".as_ref(),
                "--depth".as_ref(),
                "1".as_ref(),
            ])
            .collect::<Vec<_>>(),
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("preset `future` needs a newer host: unknown hooks 0x10000000000"),
        "{err}"
    );
}
