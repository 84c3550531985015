//! Plugin discovery and loading.
//!
//! Plugins are code: the host loads only from the places it is told, and only what it is
//! told. `--plugin FILE` is a path (a bare name means a file in the working directory, never a
//! search of the dynamic loader's path: `--plugin libz.so` is `./libz.so`); in directories —
//! `--plugin-dir DIR`, `HOUSERULES_PLUGIN_PATH`, and unless `--no-default-plugins` the
//! executable's directory, its `deps/` and `../lib/houserules/` (where `houserules install`
//! puts them) — only files named `libhouserules_*` (the platform's library prefix and suffix)
//! are candidates. Before a candidate is opened its dynamic symbol table is read
//! ([`crate::elf`]): a file that exports no houserules root module is reported without running
//! any of its code, and a plugin built with `panic = "abort"` is refused (a panic in it could
//! not be caught). A missing `--plugin-dir` is an error; a second plugin with an id already
//! loaded is reported with the file that won; the same file seen twice (hard links, as cargo
//! makes them) is loaded once.

use crate::error::HostError;
use crate::layout_cache::LayoutChecks;
use abi_stable::library::{lib_header_from_path, LibraryError};
use houserules_plugin_api::{
    PluginManifest, PluginModuleRef, PresetInfo, VariantSummary, API_VERSION, EXTRA_ERROR,
    EXTRA_SOURCE,
};
use std::path::{Path, PathBuf};

/// One loaded plugin library.
pub struct LoadedPlugin {
    /// Where it was loaded from (`<built-in>` for in-process plugins).
    pub path: PathBuf,
    /// Its manifest.
    pub manifest: PluginManifest,
    /// Its root module.
    pub module: PluginModuleRef,
}

impl LoadedPlugin {
    /// The plugin id.
    pub fn id(&self) -> &str {
        self.manifest.id.as_str()
    }
}

/// Where to look for plugins.
#[derive(Debug, Clone, Default)]
pub struct PluginSearch {
    /// Explicit plugin files (`--plugin FILE`); errors in them are fatal.
    pub files: Vec<PathBuf>,
    /// Explicit directories (`--plugin-dir DIR`); a missing one is an error.
    pub dirs: Vec<PathBuf>,
    /// Also read `HOUSERULES_PLUGIN_PATH`.
    pub use_env: bool,
    /// Also look beside the executable.
    pub beside_executable: bool,
}

impl PluginSearch {
    /// The default search: the environment variable and the executable's directory.
    pub fn standard() -> PluginSearch {
        PluginSearch {
            files: Vec::new(),
            dirs: Vec::new(),
            use_env: true,
            beside_executable: true,
        }
    }
}

/// The loaded plugins, and the problems met while scanning directories.
#[derive(Default)]
pub struct Registry {
    /// Loaded plugins, in search order.
    pub plugins: Vec<LoadedPlugin>,
    /// Problems that did not stop loading: files in plugin directories that are not
    /// (loadable) plugins, plugins whose id was taken, environment directories that do not
    /// exist.
    pub warnings: Vec<HostError>,
    /// Where plugins were looked for: the files and directories, in search order.
    pub searched: Vec<PathBuf>,
}

/// Whether `path` is named like one of this project's plugin libraries.
fn is_plugin_name(path: &Path) -> bool {
    let prefix = format!("{}houserules_", std::env::consts::DLL_PREFIX);
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with(&prefix) && n.ends_with(std::env::consts::DLL_SUFFIX))
}

/// `--plugin FILE` as a path: a bare file name is a file in the working directory (the
/// dynamic loader would search its own path for a name without a slash).
fn as_path(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| Path::new(".").join(path))
}

/// Loads one plugin library, checking in turn: the file exists, its dynamic symbols export a
/// houserules root module and show an unwinding panic runtime (read without loading it), it
/// is a shared library, its ABI layout matches, and its API version matches.
pub fn load_plugin(path: &Path) -> Result<LoadedPlugin, HostError> {
    let mut checks = LayoutChecks::open();
    let p = load_plugin_with(path, &mut checks);
    checks.save();
    p
}

/// [`load_plugin`], skipping abi_stable's layout check for a file `checks` says this host has
/// checked as it is now (the check is most of the cost of loading; see [`crate::layout_cache`]).
fn load_plugin_with(path: &Path, checks: &mut LayoutChecks) -> Result<LoadedPlugin, HostError> {
    if !path.is_file() {
        return Err(HostError::PluginMissing {
            path: path.to_path_buf(),
        });
    }
    let full = as_path(path);
    let sym = abi_stable::library::ROOT_MODULE_LOADER_NAME;
    #[cfg(unix)]
    if let Ok(symbols) = crate::elf::symbols(&full) {
        if symbols.exports(sym) == Some(false) {
            return Err(HostError::NotAPlugin {
                path: path.to_path_buf(),
            });
        }
        if symbols.panics_abort() == Some(true) {
            return Err(HostError::PanicAbort {
                path: path.to_path_buf(),
            });
        }
    }
    // Preflight with libloading for precise messages; abi_stable opens it again (and keeps it).
    {
        // SAFETY: loading a library runs its initialisers; the user asked for this file.
        let lib =
            unsafe { libloading::Library::new(&full) }.map_err(|e| HostError::NotALibrary {
                path: path.to_path_buf(),
                reason: e.to_string(),
            })?;
        let sym = abi_stable::library::ROOT_MODULE_LOADER_NAME_WITH_NUL;
        // SAFETY: only the presence of the symbol is checked; it is not called here.
        let found = unsafe { lib.get::<*const ()>(sym.as_bytes()) }.is_ok();
        if !found {
            return Err(HostError::NotAPlugin {
                path: path.to_path_buf(),
            });
        }
    }
    let incompatible = |e: LibraryError| HostError::Incompatible {
        path: path.to_path_buf(),
        reason: summarize_library_error(&e),
    };
    let header = lib_header_from_path(&full).map_err(incompatible)?;
    let module = checks
        .load(&full, |checked| {
            if checked {
                // SAFETY: this host build checked the layout of this very file (same device,
                // inode, size and modification time) in an earlier run; the version is
                // still checked.
                unsafe { header.init_root_module_with_unchecked_layout::<PluginModuleRef>() }
            } else {
                header.init_root_module::<PluginModuleRef>()
            }
        })
        .map_err(incompatible)?;
    let manifest = (module.manifest())()
        .into_result()
        .map_err(|e| HostError::plugin(&path.display().to_string(), e))?;
    // Same major only. A plugin of a newer minor loads (abi_stable accepts boundary types
    // with methods appended); what it declares that this host does not know is refused when
    // it is used (`Pipeline::build`). A plugin of an older minor whose boundary types have
    // since grown is refused by the layout check above.
    if manifest.api_version.major != API_VERSION.major {
        return Err(HostError::Incompatible {
            path: path.to_path_buf(),
            reason: format!(
                "built for plugin API {}, this host speaks {}",
                manifest.api_version, API_VERSION
            ),
        });
    }
    Ok(LoadedPlugin {
        path: path.to_path_buf(),
        manifest,
        module,
    })
}

/// abi_stable's layout errors can run to hundreds of lines; keep the head.
fn summarize_library_error(e: &LibraryError) -> String {
    let text = e.to_string();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.len() <= 8 || std::env::var_os("HOUSERULES_FULL_ABI_ERRORS").is_some() {
        lines.join("\n  ")
    } else {
        format!(
            "{}\n  ... ({} more lines: the plugin was built against a different plugin-api; \
             rebuild it against plugin API {} or newer, or set HOUSERULES_FULL_ABI_ERRORS=1 \
             for the whole comparison)",
            lines[..8].join("\n  "),
            lines.len() - 8,
            API_VERSION
        )
    }
}

impl Registry {
    /// Loads every plugin the search names. Errors in explicit files and missing `--plugin-dir`
    /// directories are returned; candidates in directories that fail to load become warnings.
    /// A plugin id seen twice keeps the first (explicit files come first, then `--plugin-dir`,
    /// the environment, the executable's directory) and warns about the other.
    pub fn discover(search: &PluginSearch) -> Result<Registry, HostError> {
        Registry::discover_with(search, &[], &mut |_| {})
    }

    /// [`Registry::discover`], leaving the files in `skip` alone (a worker process died
    /// opening them: reported as warnings) and calling `opening` before each file is opened
    /// (a supervised worker tells its supervisor, so that a crash there is blamed on it).
    pub fn discover_with(
        search: &PluginSearch,
        skip: &[PathBuf],
        opening: &mut dyn FnMut(&Path),
    ) -> Result<Registry, HostError> {
        let mut reg = Registry::default();
        let mut checks = LayoutChecks::open();
        let found = reg.discover_into(search, skip, opening, &mut checks);
        checks.save();
        found.map(|()| reg)
    }

    fn discover_into(
        &mut self,
        search: &PluginSearch,
        skip: &[PathBuf],
        opening: &mut dyn FnMut(&Path),
        checks: &mut LayoutChecks,
    ) -> Result<(), HostError> {
        let reg = self;
        // Per loaded plugin: whether it came from beside the executable.
        let mut bundled: Vec<bool> = Vec::new();
        let skipped = |f: &Path| {
            let full = as_path(f);
            skip.iter().any(|s| *s == full || same_file(s, &full))
        };
        for f in &search.files {
            reg.searched.push(f.clone());
            if skipped(f) {
                reg.warnings.push(HostError::Skipped {
                    path: f.clone(),
                    reason: "a worker process died while opening it".to_string(),
                });
                continue;
            }
            opening(&as_path(f));
            let p = load_plugin_with(f, checks)?;
            reg.add_found(p, false, &mut bundled);
        }
        // (directory, whether a missing one is an error, whether it is the executable's)
        let mut dirs: Vec<(PathBuf, bool, bool)> = search
            .dirs
            .iter()
            .map(|d| (d.clone(), true, false))
            .collect();
        if search.use_env {
            if let Some(v) = std::env::var_os("HOUSERULES_PLUGIN_PATH") {
                dirs.extend(
                    std::env::split_paths(&v)
                        .filter(|p| !p.as_os_str().is_empty())
                        .map(|p| (p, false, false)),
                );
            }
        }
        if search.beside_executable {
            if let Some(dir) = std::env::current_exe()
                .ok()
                .and_then(|e| e.parent().map(Path::to_path_buf))
            {
                // Cargo builds the bundled plugins as dependencies of the host into `deps/`
                // (see host/Cargo.toml); a binary installed elsewhere has no `deps/`.
                let deps = dir.join("deps");
                if deps.is_dir() {
                    dirs.push((deps, false, true));
                }
                // `houserules install` puts them in PREFIX/lib/houserules/ (see install.rs).
                if let Some(installed) = crate::install::plugin_dir_for(&dir) {
                    if installed.is_dir() {
                        dirs.push((installed, false, true));
                    }
                }
                dirs.push((dir, false, true));
            }
        }
        for (dir, required, beside) in dirs {
            reg.searched.push(dir.clone());
            let entries = match std::fs::read_dir(&dir) {
                Ok(e) => e,
                Err(e) => {
                    let err = HostError::PluginDir {
                        path: dir.clone(),
                        reason: if dir.exists() {
                            format!("cannot be read: {e}")
                        } else {
                            "no such directory".to_string()
                        },
                    };
                    if required {
                        return Err(err);
                    }
                    reg.warnings.push(err);
                    continue;
                }
            };
            let mut files: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| is_plugin_name(p) && p.is_file())
                .collect();
            files.sort();
            for f in files {
                if reg.plugins.iter().any(|p| same_file(&p.path, &f)) {
                    continue;
                }
                if skipped(&f) {
                    reg.warnings.push(HostError::Skipped {
                        path: f.clone(),
                        reason: "a worker process died while opening it".to_string(),
                    });
                    continue;
                }
                opening(&as_path(&f));
                match load_plugin_with(&f, checks) {
                    Ok(p) => reg.add_found(p, beside, &mut bundled),
                    Err(e) => reg.warnings.push(e),
                }
            }
        }
        Ok(())
    }

    /// Adds a plugin found by [`Registry::discover`]: a second one with an id already taken is
    /// a warning naming both files — unless both lie beside the executable (cargo keeps a
    /// copy in `deps/` and one in the directory above; `deps/` is the fresher and wins).
    fn add_found(&mut self, p: LoadedPlugin, beside: bool, bundled: &mut Vec<bool>) {
        if let Some(i) = self.plugins.iter().position(|q| q.id() == p.id()) {
            if beside && bundled.get(i) == Some(&true) {
                return;
            }
            let q = &self.plugins[i];
            self.warnings.push(HostError::DuplicatePlugin {
                id: p.id().to_string(),
                ignored: p.path.clone(),
                kept: q.path.clone(),
                why: "found first: --plugin files come first, then --plugin-dir, \
                      HOUSERULES_PLUGIN_PATH and the executable's directory"
                    .to_string(),
            });
            return;
        }
        self.plugins.push(p);
        bundled.push(beside);
    }

    /// What to say when no plugin was loaded: where the host looked.
    pub fn nothing_found(&self) -> Option<String> {
        if !self.plugins.is_empty() {
            return None;
        }
        let places: Vec<String> = self
            .searched
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        Some(format!(
            "no plugins loaded; looked in: {} (build them with `cargo build --release`, or name \
             them with --plugin FILE / --plugin-dir DIR)",
            if places.is_empty() {
                "nowhere (--no-default-plugins without --plugin or --plugin-dir)".to_string()
            } else {
                places.join(", ")
            }
        ))
    }

    /// The preset ids of custom modifier descriptor files (`--modifier FILE`): each file must
    /// have been read by a loaded plugin, without error, under an id of its own.
    pub fn modifier_ids(&self, files: &[PathBuf]) -> Result<Vec<String>, HostError> {
        let mut ids = Vec::new();
        for f in files {
            let canonical = std::fs::canonicalize(f).map_err(|e| HostError::Modifier {
                file: f.clone(),
                message: format!("{}: cannot read it: {e}", f.display()),
            })?;
            let found = self.presets().find(|(_, p)| {
                p.is_custom_modifier()
                    && p.extra_value(EXTRA_SOURCE)
                        .is_some_and(|s| Path::new(s) == canonical)
            });
            let Some((_, info)) = found else {
                return Err(HostError::Modifier {
                    file: f.clone(),
                    message: format!(
                        "{}: no loaded plugin reads custom modifier descriptors (is the \
                         houserules-modifiers plugin beside the executable?)",
                        f.display()
                    ),
                });
            };
            if let Some(why) = info.extra_value(EXTRA_ERROR) {
                return Err(HostError::Modifier {
                    file: f.clone(),
                    message: why.to_string(),
                });
            }
            // Presets are found by id: a descriptor may not hide behind another preset's id.
            if let Some((pl, _)) = self
                .presets()
                .find(|(_, p)| p.id == info.id && !std::ptr::eq(*p, info))
            {
                return Err(HostError::Modifier {
                    file: f.clone(),
                    message: format!(
                        "{}: $.id: `{}` is already the id of a preset of plugin `{}`",
                        f.display(),
                        info.id,
                        pl.id()
                    ),
                });
            }
            ids.push(info.id.to_string());
        }
        Ok(ids)
    }

    /// Adds a plugin unless one with the same id is already loaded.
    pub fn add(&mut self, p: LoadedPlugin) {
        if !self.plugins.iter().any(|q| q.id() == p.id()) {
            self.plugins.push(p);
        }
    }

    /// Adds an in-process plugin (tests, embedding).
    pub fn add_builtin(&mut self, module: PluginModuleRef) -> Result<(), HostError> {
        let manifest = (module.manifest())()
            .into_result()
            .map_err(|e| HostError::plugin("<built-in>", e))?;
        self.add(LoadedPlugin {
            path: PathBuf::from("<built-in>"),
            manifest,
            module,
        });
        Ok(())
    }

    /// Every variant, with the plugin providing it.
    pub fn variants(&self) -> impl Iterator<Item = (&LoadedPlugin, &VariantSummary)> {
        self.plugins
            .iter()
            .flat_map(|p| p.manifest.variants.iter().map(move |v| (p, v)))
    }

    /// Every preset, with the plugin providing it.
    pub fn presets(&self) -> impl Iterator<Item = (&LoadedPlugin, &PresetInfo)> {
        self.plugins
            .iter()
            .flat_map(|p| p.manifest.presets.iter().map(move |v| (p, v)))
    }
}

/// Whether two paths name one file (the same inode: cargo hard-links its outputs).
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}
