//! `houserules install`: copies the running `houserules` program and the plugins it loaded
//! into a prefix, laid out so that the installed program finds them:
//!
//! ```text
//! PREFIX/bin/houserules            the program (and houserules-* tools found beside it)
//! PREFIX/lib/houserules/*.so       the plugins (the loader looks in ../lib/houserules/)
//! ```
//!
//! `cargo install` installs binaries only, never the plugin libraries a host needs, so the
//! documented way is `cargo run --release -- install [--prefix DIR]` from a clone: cargo
//! builds the host and every plugin, and the freshly built host installs itself with them.

use crate::loader::Registry;
use std::path::{Path, PathBuf};

/// Where the plugins of an installation live, relative to its prefix.
pub const PLUGIN_SUBDIR: [&str; 2] = ["lib", "houserules"];

/// The plugin directory of the installation whose program lives in `bin_dir`
/// (`PREFIX/bin` → `PREFIX/lib/houserules`).
pub fn plugin_dir_for(bin_dir: &Path) -> Option<PathBuf> {
    let prefix = bin_dir.parent()?;
    Some(
        PLUGIN_SUBDIR
            .iter()
            .fold(prefix.to_path_buf(), |p, s| p.join(s)),
    )
}

/// The default prefix: `$HOME/.local` (its `bin` is on the PATH of most systems).
pub fn default_prefix() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .or_else(|| std::env::var_os("USERPROFILE"))
        .map(|h| PathBuf::from(h).join(".local"))
}

/// Problems while installing.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// No prefix given and no home directory to default to.
    #[error("no --prefix given and no HOME to install under")]
    NoPrefix,
    /// The running program cannot be found.
    #[error("cannot find the running houserules program: {0}")]
    NoExecutable(std::io::Error),
    /// Nothing to install with: no plugin was loaded.
    #[error(
        "no plugins are loaded, so there is nothing to install with the program: run \
         `cargo run --release -- install` from a clone of houserules (it builds the plugins), \
         or give --plugin-dir DIR"
    )]
    NoPlugins,
    /// A file operation failed.
    #[error("{what} {}: {source}", path.display())]
    Io {
        /// What was being done.
        what: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// What an installation did.
#[derive(Debug, Clone, Default)]
pub struct Installed {
    /// Programs written (the host first).
    pub programs: Vec<PathBuf>,
    /// Plugin libraries written, with their plugin ids.
    pub plugins: Vec<(String, PathBuf)>,
    /// Older houserules plugin libraries removed from the plugin directory.
    pub removed: Vec<PathBuf>,
    /// The plugin directory.
    pub plugin_dir: PathBuf,
    /// The program directory.
    pub bin_dir: PathBuf,
}

fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> InstallError {
    let path = path.to_path_buf();
    move |source| InstallError::Io { what, path, source }
}

/// Copies `from` to `to` through a temporary file in the same directory and a rename, so that
/// an installed program can replace itself while it runs.
fn copy_replacing(from: &Path, to: &Path) -> Result<(), InstallError> {
    if same_file(from, to) {
        return Ok(());
    }
    let name = to
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = to.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    std::fs::copy(from, &tmp).map_err(io("cannot write", &tmp))?;
    std::fs::rename(&tmp, to).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io("cannot replace", to)(e)
    })
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Installs the running program, the `houserules-*` tools beside it, and every plugin of
/// `registry` loaded from a file (not the in-process ones) under `prefix`. Libraries named
/// like this project's plugins (`libhouserules_*`) already in the plugin directory and not
/// part of this installation are removed: an older build left there would shadow or clash
/// with the new one.
pub fn install(registry: &Registry, prefix: Option<&Path>) -> Result<Installed, InstallError> {
    let prefix = match prefix {
        Some(p) => p.to_path_buf(),
        None => default_prefix().ok_or(InstallError::NoPrefix)?,
    };
    let exe = std::env::current_exe().map_err(InstallError::NoExecutable)?;
    let plugins: Vec<_> = registry
        .plugins
        .iter()
        .filter(|p| p.path.is_file())
        .collect();
    if plugins.is_empty() {
        return Err(InstallError::NoPlugins);
    }
    let bin_dir = prefix.join("bin");
    let plugin_dir = plugin_dir_for(&bin_dir).unwrap_or_else(|| prefix.join("lib"));
    std::fs::create_dir_all(&bin_dir).map_err(io("cannot create", &bin_dir))?;
    std::fs::create_dir_all(&plugin_dir).map_err(io("cannot create", &plugin_dir))?;
    let mut done = Installed {
        plugin_dir: plugin_dir.clone(),
        bin_dir: bin_dir.clone(),
        ..Default::default()
    };

    let mut written = Vec::new();
    for p in &plugins {
        let Some(name) = p.path.file_name() else {
            continue;
        };
        let to = plugin_dir.join(name);
        copy_replacing(&p.path, &to)?;
        written.push(name.to_os_string());
        done.plugins.push((p.id().to_string(), to));
    }
    let own_prefix = format!("{}houserules_", std::env::consts::DLL_PREFIX);
    if let Ok(entries) = std::fs::read_dir(&plugin_dir) {
        for e in entries.flatten() {
            let name = e.file_name();
            let text = name.to_string_lossy();
            let ours = text.starts_with(&own_prefix)
                && text.ends_with(std::env::consts::DLL_SUFFIX)
                && !written.contains(&name);
            if ours {
                std::fs::remove_file(e.path()).map_err(io("cannot remove", &e.path()))?;
                done.removed.push(e.path());
            }
        }
    }

    let exe_name = exe
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_else(|| format!("houserules{}", std::env::consts::EXE_SUFFIX).into());
    let to = bin_dir.join(&exe_name);
    copy_replacing(&exe, &to)?;
    done.programs.push(to);
    // The tools built beside the host (`houserules-scaffold`).
    if let Some(dir) = exe.parent() {
        let mut tools: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|rd| {
                rd.flatten()
                    .map(|e| e.path())
                    .filter(|p| is_tool(p))
                    .collect()
            })
            .unwrap_or_default();
        tools.sort();
        for t in tools {
            if let Some(name) = t.file_name() {
                let to = bin_dir.join(name);
                copy_replacing(&t, &to)?;
                done.programs.push(to);
            }
        }
    }
    Ok(done)
}

/// `houserules-<name>` programs (not `.d` files or libraries cargo leaves beside them).
fn is_tool(p: &Path) -> bool {
    let Some(name) = p.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let Some(stem) = name.strip_suffix(std::env::consts::EXE_SUFFIX) else {
        return false;
    };
    if !stem.starts_with("houserules-") || stem.contains('.') || !p.is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        p.metadata()
            .map(|m| m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// Whether `dir` is one of the directories of the `PATH` environment variable.
pub fn on_path(dir: &Path) -> bool {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d == dir || same_file(&d, dir)))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plugin_directory_sits_beside_bin() {
        assert_eq!(
            plugin_dir_for(Path::new("/opt/hr/bin")),
            Some(PathBuf::from("/opt/hr/lib/houserules"))
        );
    }

    #[test]
    fn nothing_to_install_without_plugins() {
        let dir = tempfile::tempdir().unwrap();
        let e = install(&Registry::default(), Some(dir.path())).unwrap_err();
        assert!(matches!(e, InstallError::NoPlugins), "{e}");
        assert!(!dir.path().join("bin").exists(), "nothing written");
    }

    #[test]
    fn tools_are_houserules_programs_only() {
        let dir = tempfile::tempdir().unwrap();
        let make = |name: &str, exec: bool| {
            let p = dir.path().join(name);
            std::fs::write(&p, b"x").unwrap();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = if exec { 0o755 } else { 0o644 };
                std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
            }
            let _ = exec;
            p
        };
        assert!(is_tool(&make("houserules-scaffold", true)));
        assert!(!is_tool(&make("houserules-scaffold.d", true)));
        assert!(!is_tool(&make("other", true)));
        #[cfg(unix)]
        assert!(!is_tool(&make("houserules-notes", false)));
    }
}
