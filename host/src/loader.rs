//! Plugin discovery and loading.
//!
//! Plugins are code: the host loads only from the places it is told — the directory of the
//! executable (and `../lib/houserules/` from it, where `houserules install` puts them),
//! `HOUSERULES_PLUGIN_PATH`, `--plugin-dir DIR` and `--plugin FILE` — never from the working
//! directory by surprise.

use crate::error::HostError;
use abi_stable::library::{lib_header_from_path, LibraryError};
use houserules_plugin_api::{
    PluginManifest, PluginModuleRef, PresetInfo, VariantSummary, API_VERSION,
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
    /// Explicit directories (`--plugin-dir DIR`).
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
    /// Libraries found in plugin directories that could not be loaded (not fatal).
    pub warnings: Vec<HostError>,
}

fn is_library_file(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()) == Some(std::env::consts::DLL_EXTENSION)
}

/// Loads one plugin library, checking in turn: the file exists, it is a shared library, it
/// exports a houserules root module, its ABI layout matches, and its API version matches.
pub fn load_plugin(path: &Path) -> Result<LoadedPlugin, HostError> {
    if !path.is_file() {
        return Err(HostError::PluginMissing {
            path: path.to_path_buf(),
        });
    }
    // Preflight with libloading for precise messages; abi_stable opens it again (and keeps it).
    {
        // SAFETY: loading a library runs its initialisers; the user asked for this file.
        let lib =
            unsafe { libloading::Library::new(path) }.map_err(|e| HostError::NotALibrary {
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
    let header = lib_header_from_path(path).map_err(incompatible)?;
    let module = header
        .init_root_module::<PluginModuleRef>()
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
    /// Loads every plugin the search names. Errors in explicit files are returned; libraries
    /// in directories that fail to load become warnings. A plugin id seen twice keeps the
    /// first (explicit files come first, then directories, the environment, the executable's
    /// directory).
    pub fn discover(search: &PluginSearch) -> Result<Registry, HostError> {
        let mut reg = Registry::default();
        for f in &search.files {
            let p = load_plugin(f)?;
            reg.add(p);
        }
        let mut dirs: Vec<PathBuf> = search.dirs.clone();
        if search.use_env {
            if let Some(v) = std::env::var_os("HOUSERULES_PLUGIN_PATH") {
                dirs.extend(std::env::split_paths(&v).filter(|p| !p.as_os_str().is_empty()));
            }
        }
        // (directory, whether only this project's own `libhouserules_*` files count)
        let mut dirs: Vec<(PathBuf, bool)> = dirs.into_iter().map(|d| (d, false)).collect();
        if search.beside_executable {
            if let Some(dir) = std::env::current_exe()
                .ok()
                .and_then(|e| e.parent().map(Path::to_path_buf))
            {
                // Cargo builds the bundled plugins as dependencies of the host into `deps/`
                // (see host/Cargo.toml); other libraries there (proc macros) are not ours.
                dirs.push((dir.join("deps"), true));
                // `houserules install` puts them in PREFIX/lib/houserules/ (see install.rs).
                if let Some(installed) = crate::install::plugin_dir_for(&dir) {
                    dirs.push((installed, false));
                }
                dirs.push((dir, false));
            }
        }
        for (dir, own_only) in dirs {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            let own_prefix = format!("{}houserules_", std::env::consts::DLL_PREFIX);
            let mut files: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| is_library_file(p))
                .filter(|p| {
                    !own_only
                        || p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.starts_with(&own_prefix))
                })
                .collect();
            files.sort();
            for f in files {
                if reg.plugins.iter().any(|p| same_file(&p.path, &f)) {
                    continue;
                }
                match load_plugin(&f) {
                    Ok(p) => reg.add(p),
                    // Other libraries may legitimately sit beside the executable.
                    Err(HostError::NotAPlugin { .. }) if search.beside_executable => {}
                    Err(e) => reg.warnings.push(e),
                }
            }
        }
        Ok(reg)
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

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}
