//! Shared helpers for the workspace tests: they build the real plugin libraries and the host
//! binary with cargo (which `cargo test` does not do for `cdylib`s) and run them.

pub mod cdylib;
pub mod kit;

/// A small deterministic generator (xorshift64*) for randomized tests, so that failures
/// reproduce from the seed.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// Kyoto shogi's start position, and its moves as Fairy-Stockfish's `go perft 1` lists them,
/// sorted: pieces turn over at every move, `+` up, `-` back down.
pub const KYOTO_START: &str = "p+nks+l/5/5/5/+LSK+NP[] w - - 0 1";
/// See [`KYOTO_START`].
pub const KYOTO_START_MOVES: [&str; 12] = [
    "a1a2-", "a1b2-", "b1a2+", "b1b2+", "b1c2+", "c1b2", "c1c2", "c1d2", "d1c2-", "d1d2-", "d1e2-",
    "e1e2+",
];

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ lives in the workspace")
        .to_path_buf()
}

/// Builds the host and every plugin library (release profile, into the workspace's target
/// directory) once per test process, and returns the directory holding them.
pub fn built_artifacts() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = workspace_root();
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("target"));
        let status = Command::new(env!("CARGO"))
            .current_dir(&root)
            .args(["build", "--release", "--workspace", "--lib", "--bins"])
            .env("CARGO_TARGET_DIR", &target)
            .status()
            .expect("cargo runs");
        assert!(status.success(), "building the plugins failed");
        target.join("release")
    })
}

/// Path of a built plugin library by crate name stem (`houserules_chess`).
pub fn plugin_path(stem: &str) -> PathBuf {
    built_artifacts().join(format!(
        "{}{stem}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ))
}

/// Runs the built `houserules` binary (which finds the plugins beside itself).
pub fn houserules<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    houserules_env(args, &[])
}

/// [`houserules`] with these environment variables set.
pub fn houserules_env<I, S>(args: I, env: &[(&str, &std::ffi::OsStr)]) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    Command::new(built_artifacts().join("houserules"))
        .args(args)
        .env_remove("HOUSERULES_PLUGIN_PATH")
        .envs(env.iter().copied())
        .output()
        .expect("houserules runs")
}

/// Runs `houserules` and returns stdout, panicking with stderr when it fails.
pub fn houserules_ok<I, S>(args: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    succeeded(houserules(args))
}

/// The standard output of a run, panicking with its standard error when it failed.
pub fn succeeded(out: Output) -> String {
    assert!(
        out.status.success(),
        "houserules failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A registry holding the built plugins, loaded into this test process through the host
/// library (the same loader the binary uses).
pub fn registry() -> houserules_host::Registry {
    let search = houserules_host::PluginSearch {
        files: Vec::new(),
        dirs: vec![built_artifacts().to_path_buf()],
        use_env: false,
        beside_executable: false,
    };
    houserules_host::Registry::discover(&search).expect("plugins load")
}

/// Plays the move written `text` (any form the host reads) in `game`.
pub fn play_text(game: &mut houserules_host::Game, text: &str) -> Result<(), String> {
    let p = game.pipeline();
    let legal = game.legal_moves().map_err(|e| e.to_string())?;
    let mv = houserules_host::notation::parse_move(p, &game.position, text, &legal)
        .map_err(|e| format!("{text}: {e}"))?;
    game.play(mv).map_err(|e| e.to_string())?;
    Ok(())
}

/// Runs the built `houserules` with `input` on standard input (and `env` set); returns
/// stdout, stderr and the exit code.
pub fn houserules_with_stdin(
    args: &[&str],
    input: &str,
    env: &[(&str, &str)],
) -> (String, String, Option<i32>) {
    houserules_in(None, args, input, env)
}

/// [`houserules_with_stdin`] in the directory `dir` (this process's own when `None`).
pub fn houserules_in<S: AsRef<std::ffi::OsStr>>(
    dir: Option<&Path>,
    args: &[S],
    input: &str,
    env: &[(&str, &str)],
) -> (String, String, Option<i32>) {
    use std::io::Write;
    use std::process::Stdio;
    let mut cmd = Command::new(built_artifacts().join("houserules"));
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    cmd.args(args)
        .env_remove("HOUSERULES_PLUGIN_PATH")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("houserules runs");
    if let Some(mut stdin) = child.stdin.take() {
        // A program that stops reading early closes the pipe: not an error here.
        let _ = stdin.write_all(input.as_bytes());
    }
    let out = child.wait_with_output().expect("houserules finishes");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}
