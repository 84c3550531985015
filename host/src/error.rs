//! Typed errors of the host library. The CLI turns them into messages in one place.

use houserules_plugin_api::FenError;
use std::path::PathBuf;

/// Errors of loading plugins and assembling pipelines.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// A plugin file does not exist.
    #[error("plugin file {path}: no such file")]
    PluginMissing {
        /// The path given.
        path: PathBuf,
    },
    /// A file could not be opened as a shared library.
    #[error("plugin file {path}: not a loadable shared library ({reason})")]
    NotALibrary {
        /// The file.
        path: PathBuf,
        /// What the dynamic loader said.
        reason: String,
    },
    /// A shared library that is not a houserules plugin.
    #[error("plugin file {path}: not a houserules plugin (it exports no houserules root module)")]
    NotAPlugin {
        /// The file.
        path: PathBuf,
    },
    /// A plugin built with `panic = "abort"`: a panic in it would end the host at once.
    #[error("plugin file {path}: built with panic = \"abort\": a panic in it would end the whole run, and the host cannot catch it; rebuild it with panic = \"unwind\" (the default)")]
    PanicAbort {
        /// The file.
        path: PathBuf,
    },
    /// A plugin directory that cannot be read.
    #[error("plugin directory {path}: {reason}")]
    PluginDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// A second plugin with an id already loaded (not loaded).
    #[error("plugin file {ignored}: not loaded: its id `{id}` is already taken by {kept} ({why})")]
    DuplicatePlugin {
        /// The plugin id.
        id: String,
        /// The file not loaded.
        ignored: PathBuf,
        /// The file loaded.
        kept: PathBuf,
        /// Why that one won.
        why: String,
    },
    /// A plugin file left alone because a worker process died while opening it.
    #[error("plugin file {path}: not loaded: {reason}")]
    Skipped {
        /// The file.
        path: PathBuf,
        /// What happened when it was opened.
        reason: String,
    },
    /// A plugin built against an incompatible API or ABI.
    #[error("plugin file {path}: incompatible plugin ABI: {reason}")]
    Incompatible {
        /// The file.
        path: PathBuf,
        /// What does not match.
        reason: String,
    },
    /// A plugin failed (an error or a caught panic inside it).
    #[error("plugin `{plugin}`: {message}")]
    Plugin {
        /// Plugin id or file.
        plugin: String,
        /// The plugin's message.
        message: String,
    },
    /// A panic in plugin code, caught at the boundary (the plugin-api's guard).
    #[error("plugin `{id}`: {message}")]
    PluginPanic {
        /// The variant or preset id.
        id: String,
        /// `variant` or `preset`.
        kind: &'static str,
        /// The plugin providing it.
        plugin: String,
        /// The hook that panicked.
        hook: &'static str,
        /// The boundary's message (`plugin panicked in <hook> at <file:line:col>: ...`).
        message: String,
    },
    /// A custom modifier descriptor given with `--modifier` that cannot be used.
    #[error("custom modifier {message}")]
    Modifier {
        /// The file given.
        file: PathBuf,
        /// Why: starts with the file, then the JSON path inside it.
        message: String,
    },
    /// A variant or preset that declares capabilities this host does not know.
    #[error("{what} `{id}` needs a newer host: {detail}")]
    NeedsNewerHost {
        /// `variant` or `preset`.
        what: &'static str,
        /// Its id.
        id: String,
        /// What is unknown, and the API versions of its plugin and of this host.
        detail: String,
    },
    /// An id that nothing provides.
    #[error("unknown {what} `{id}`{}", suggestion.as_ref().map(|s| format!(" (did you mean `{s}`?)")).unwrap_or_default())]
    Unknown {
        /// `variant`, `preset`, `layout`.
        what: &'static str,
        /// The id asked for.
        id: String,
        /// The nearest known id.
        suggestion: Option<String>,
    },
    /// An id that names more than one thing.
    #[error("`{id}` is ambiguous: {reason}")]
    Ambiguous {
        /// The id.
        id: String,
        /// What it could be, and how to choose.
        reason: String,
    },
    /// A preset that transforms the rules model, with a variant that publishes none.
    #[error("preset `{preset}` changes the rules model, but variant `{variant}` publishes none (it cannot run changed movement, topology or royalty)")]
    NoRulesModel {
        /// The variant.
        variant: String,
        /// The preset.
        preset: String,
    },
    /// A preset's transform of the rules model failed, or the variant cannot run the result.
    #[error("preset `{preset}`: {reason}")]
    Transform {
        /// The preset (or the variant, when it refused the transformed model).
        preset: String,
        /// Why.
        reason: String,
    },
    /// A preset requires another that is not active.
    #[error("preset `{preset}` requires preset `{requires}`: add --preset {requires}")]
    MissingRequirement {
        /// The preset.
        preset: String,
        /// What it needs.
        requires: String,
    },
    /// Two active presets exclude each other.
    #[error("presets `{a}` and `{b}` are incompatible")]
    Incompatible2 {
        /// One preset.
        a: String,
        /// The other.
        b: String,
    },
    /// A preset option that is unknown or has a bad value.
    #[error("preset `{preset}`: option `{key}`: {reason}")]
    BadOption {
        /// The preset.
        preset: String,
        /// The option key.
        key: String,
        /// Why.
        reason: String,
    },
    /// A preset given twice.
    #[error("preset `{0}` is given twice")]
    DuplicatePreset(String),
    /// A malformed `--preset` argument.
    #[error("bad preset argument `{arg}`: {reason}")]
    BadPresetArg {
        /// The argument.
        arg: String,
        /// Why.
        reason: String,
    },
    /// A FEN the variant rejected.
    #[error("bad FEN `{fen}`: {error}")]
    Fen {
        /// The FEN.
        fen: String,
        /// Field, column and reason.
        error: FenError,
    },
    /// A move that is not legal or not understood.
    #[error("move `{text}`: {reason}")]
    BadMove {
        /// The move as written.
        text: String,
        /// Why.
        reason: String,
    },
}

impl HostError {
    pub(crate) fn plugin(plugin: &str, e: houserules_plugin_api::PluginError) -> HostError {
        HostError::Plugin {
            plugin: plugin.to_string(),
            message: e.message.to_string(),
        }
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The candidate nearest to `id`, if it is reasonably near.
pub fn nearest<'a>(id: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    candidates
        .map(|c| (edit_distance(id, c), c))
        .filter(|(d, c)| *d <= (c.len().max(id.len()) / 2).max(2))
        .min()
        .map(|(_, c)| c.to_string())
}
