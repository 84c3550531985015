//! # Custom modifier descriptors
//!
//! A preset plugin whose presets are written as JSON: each descriptor file becomes one preset
//! (category [`CUSTOM_MODIFIER_CATEGORY`]) whose hooks, stages and requirements follow from
//! what the descriptor uses. The plugin carries the fourteen examples of the catalogue
//! (embedded at build time) and reads every `.json` file listed in `HOUSERULES_MODIFIERS_PATH`
//! (files or directories), which the host extends with `--modifier FILE`. A descriptor that
//! fails validation still appears in the manifest, with the reason in its `error` extra;
//! creating it fails with that reason. See `docs/modifiers.md`.
#![deny(missing_docs)]

pub mod descriptor;
pub mod engine;
pub mod parse;

use descriptor::Descriptor;
use engine::{Modifier, Needs};
use houserules_plugin_api::abi_stable::std_types::{ROption, RString, RVec};
use houserules_plugin_api::{
    export_plugin, preset_object, HookSet, OptionValue, Options, Plugin, PluginManifest, PresetBox,
    PresetInfo, VariantInfo, API_VERSION, CUSTOM_MODIFIER_CATEGORY, EXTRA_ERROR, EXTRA_MOVEMENT,
    EXTRA_SOURCE, MOVEMENT_NONE,
};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The environment variable listing descriptor files or directories.
pub const PATH_VAR: &str = "HOUSERULES_MODIFIERS_PATH";

/// One descriptor source: where it came from and what it gave.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Preset id (the descriptor's id; for a file that cannot be read, its stem).
    pub id: String,
    /// `builtin:examples/x.json` or the canonical path of the file.
    pub source: String,
    /// The descriptor, or why not.
    pub descriptor: Result<Descriptor, String>,
}

/// Every descriptor the plugin knows.
#[derive(Debug, Clone, Default)]
pub struct Registry {
    /// In order: built-in examples, then the path.
    pub entries: Vec<Entry>,
}

impl Registry {
    /// Builds entries from (source, text) pairs; a second descriptor with an id already used
    /// is an error entry.
    pub fn from_sources(sources: &[(String, Result<String, String>)]) -> Registry {
        let mut r = Registry::default();
        for (source, text) in sources {
            let stem = Path::new(source.trim_start_matches("builtin:"))
                .file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_else(|| source.clone());
            let parsed = match text {
                Ok(t) => parse::parse(source, t).map_err(|e| e.to_string()),
                Err(e) => Err(format!("{source}: {e}")),
            };
            let id = match &parsed {
                Ok(d) => d.id.clone(),
                Err(_) => stem,
            };
            let descriptor = match parsed {
                Ok(d) => match r.entries.iter().find(|e| e.id == d.id) {
                    Some(other) => Err(format!(
                        "{source}: $.id: `{}` is already the id of {}",
                        d.id, other.source
                    )),
                    None => Ok(d),
                },
                Err(e) => Err(e),
            };
            // Keep ids unique in the manifest: a rejected duplicate gets a suffix.
            let mut unique = id.clone();
            let mut n = 2;
            while r.entries.iter().any(|e| e.id == unique) {
                unique = format!("{id}-{n}");
                n += 1;
            }
            r.entries.push(Entry {
                id: unique,
                source: source.clone(),
                descriptor,
            });
        }
        r
    }

    /// The built-in examples plus the files of `HOUSERULES_MODIFIERS_PATH`.
    pub fn from_env() -> Registry {
        let mut sources: Vec<(String, Result<String, String>)> = parse::EXAMPLES
            .iter()
            .map(|(id, text)| (format!("builtin:examples/{id}.json"), Ok(text.to_string())))
            .collect();
        if let Some(v) = std::env::var_os(PATH_VAR) {
            let mut seen: Vec<PathBuf> = Vec::new();
            for p in std::env::split_paths(&v).filter(|p| !p.as_os_str().is_empty()) {
                for f in json_files(&p) {
                    let key = std::fs::canonicalize(&f).unwrap_or(f.clone());
                    if seen.contains(&key) {
                        continue;
                    }
                    seen.push(key.clone());
                    let text = std::fs::read_to_string(&f).map_err(|e| format!("cannot read: {e}"));
                    sources.push((key.display().to_string(), text));
                }
            }
        }
        Registry::from_sources(&sources)
    }

    /// The manifest entry of one descriptor.
    pub fn preset_info(e: &Entry) -> PresetInfo {
        let mut extra: RVec<OptionValue> = RVec::new();
        extra.push(OptionValue {
            key: EXTRA_SOURCE.into(),
            value: e.source.as_str().into(),
        });
        let mut info = PresetInfo {
            id: e.id.as_str().into(),
            name: e.id.as_str().into(),
            category: CUSTOM_MODIFIER_CATEGORY.into(),
            mode: "hooks".into(),
            preferred_layout: ROption::RNone,
            ..Default::default()
        };
        match &e.descriptor {
            Ok(d) => {
                let needs = Needs::of(d);
                info.name = d.name.as_str().into();
                info.description = d.description.as_str().into();
                let mut hooks = HookSet::SETUP_POSITION;
                if needs.stages != 0 {
                    hooks = hooks.with(HookSet::ON_AFTER_MOVE);
                }
                if needs.query {
                    hooks = hooks.with(HookSet::AFTER_MOVE_QUERY);
                }
                if needs.capture_flag {
                    hooks = hooks.with(HookSet::FILTER_LEGAL_MOVES);
                }
                if needs.topology {
                    hooks = hooks.with(HookSet::TRANSFORM_MODEL);
                }
                info.hooks = hooks;
                info.after_move_stages = needs.stages;
                if needs.hp {
                    info.requires.push(RString::from("piece-hp"));
                }
                // After the presets of the same stage (piece-hp's damage, poison, healing).
                info.priority = 100;
                if needs.places_no_piece() {
                    extra.push(OptionValue {
                        key: EXTRA_MOVEMENT.into(),
                        value: MOVEMENT_NONE.into(),
                    });
                }
            }
            Err(why) => {
                info.description = "invalid descriptor".into();
                extra.push(OptionValue {
                    key: EXTRA_ERROR.into(),
                    value: why.as_str().into(),
                });
            }
        }
        info.extra = extra;
        info
    }
}

/// `.json` files of a path: the file itself, or a directory's, sorted.
fn json_files(p: &Path) -> Vec<PathBuf> {
    if p.is_dir() {
        let mut v: Vec<PathBuf> = std::fs::read_dir(p)
            .map(|rd| {
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|f| f.extension().is_some_and(|x| x == "json"))
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    } else {
        vec![p.to_path_buf()]
    }
}

fn registry() -> &'static Registry {
    static R: OnceLock<Registry> = OnceLock::new();
    R.get_or_init(Registry::from_env)
}

/// The plugin.
pub struct Modifiers;

impl Plugin for Modifiers {
    fn manifest() -> PluginManifest {
        PluginManifest {
            api_version: API_VERSION,
            id: "modifiers".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            description: "Custom modifier descriptors: rules written as JSON".into(),
            variants: RVec::new(),
            presets: registry()
                .entries
                .iter()
                .map(Registry::preset_info)
                .collect(),
        }
    }

    fn new_preset(
        id: &str,
        _options: &Options,
        variant: &VariantInfo,
    ) -> Result<PresetBox, String> {
        let e = registry()
            .entries
            .iter()
            .find(|e| e.id == id)
            .ok_or_else(|| format!("no custom modifier `{id}`"))?;
        let d = e.descriptor.clone()?;
        let m = Modifier::new(d, variant).map_err(|why| format!("{}: {why}", e.source))?;
        Ok(preset_object(m))
    }
}

export_plugin!(Modifiers);

#[cfg(test)]
mod tests;
