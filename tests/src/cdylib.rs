//! Plugin crates written by tests: a `Cargo.toml` and `src/lib.rs` in a temporary directory,
//! built against `plugin-api` alone (in a target directory shared by these tests, so that
//! dependencies compile once and no test plugin ever sits beside a `houserules` binary).

use crate::workspace_root;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Writes a plugin crate named `name` with `source` as its `src/lib.rs` into `dir`.
pub fn write_crate(dir: &Path, name: &str, source: &str) {
    std::fs::create_dir_all(dir.join("src")).expect("create the crate directory");
    std::fs::write(
        dir.join("Cargo.toml"),
        format!(
            "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [lib]\ncrate-type = [\"cdylib\"]\n\n[dependencies]\n\
             houserules-plugin-api = {{ path = {:?} }}\n\n[workspace]\n",
            workspace_root().join("plugin-api").display().to_string()
        ),
    )
    .expect("write Cargo.toml");
    std::fs::write(dir.join("src/lib.rs"), source).expect("write src/lib.rs");
}

/// Builds the crate in `dir` (debug profile; `rustc_args` go to the crate itself only, e.g.
/// `-C panic=abort`) and returns its library.
pub fn build(dir: &Path, lib_name: &str, rustc_args: &[&str]) -> PathBuf {
    let root = workspace_root();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("third-party");
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).expect("copy Cargo.lock");
    let mut cmd = Command::new(env!("CARGO"));
    cmd.current_dir(dir).env("CARGO_TARGET_DIR", &target);
    if rustc_args.is_empty() {
        cmd.args(["build", "--lib"]);
    } else {
        cmd.args(["rustc", "--lib", "--"]).args(rustc_args);
    }
    let out = cmd.output().expect("cargo runs");
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
