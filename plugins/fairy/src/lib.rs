//! # houserules-fairy
//!
//! A variant plugin that reads Fairy-Stockfish `variants.ini` files and plays what they
//! define: every section becomes a variant. The plugin carries its own `variants/` folder
//! (embedded at build time) and reads every file or directory listed in the environment
//! variable `HOUSERULES_VARIANTS_PATH`. A section with an error still appears in the manifest;
//! creating it fails with the message (file, line, key, why). See `docs/fairy.md`.

pub mod bikjang;
pub mod board_memo;
pub mod cambodian;
pub mod castling_rules;
pub mod chasing;
pub mod colours;
pub mod connect;
pub mod counting;
pub mod demotion;
pub mod drop_mate;
pub mod drop_promoted;
pub mod duple_check;
pub mod en_passant_region;
pub mod engine;
pub mod eval;
pub mod gating;
pub mod ini;
pub mod lines;
pub mod makpong;
pub mod material;
pub mod move_repetition;
pub mod mutually_immune;
pub mod pass;
pub mod petrify;
pub mod placement;
pub mod promotion_limit;
pub mod promotion_on_capture;
pub mod scratch;
pub mod setup_drops;
pub mod shatar;
pub mod sittuyin;
pub mod spec;
pub mod triple_step;
pub mod unusable_ep;
pub mod walling;
pub mod xiangqi;

use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    export_plugin, variant_object, Plugin, PluginManifest, VariantBox, VariantSummary, API_VERSION,
};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

pub use engine::Fairy;

/// The variant files shipped with the plugin: (name, text). Fairy-Stockfish's built-ins come
/// first, so that the files after them (and the user's) can inherit from or replace them.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "builtin:variants/fsf-builtins.ini",
        include_str!("../variants/fsf-builtins.ini"),
    ),
    (
        "builtin:variants/tictacrook_v1.ini",
        include_str!("../variants/tictacrook_v1.ini"),
    ),
    (
        "builtin:variants/mixedchess_v5.ini",
        include_str!("../variants/mixedchess_v5.ini"),
    ),
];

/// The environment variable listing extra variants.ini files or directories.
pub const PATH_VAR: &str = "HOUSERULES_VARIANTS_PATH";

/// Every variant the plugin knows. A section is compiled when it is first asked for, so a
/// command pays for the variants it uses, not for every section of a large file.
pub struct Registry {
    /// The sections, in order of first definition (a later section of a name replaces it).
    sections: Vec<ini::Section>,
    /// Section index by name.
    index: HashMap<String, usize>,
    /// Per section: the variant or why it cannot be built, once asked for.
    built: Vec<OnceLock<Result<Arc<Fairy>, String>>>,
    /// Problems that belong to no section (unreadable files, stray lines).
    pub problems: Vec<String>,
}

impl Registry {
    /// Reads every section of `sources` (name, text), later sections of the same name
    /// replacing earlier ones.
    pub fn from_sources(sources: &[(String, String)]) -> Registry {
        let mut sections: Vec<ini::Section> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut problems = Vec::new();
        for (name, text) in sources {
            let (secs, errs) = ini::parse(name, text);
            let file_error = errs.first().map(|e| format!("{}: {}", e.loc, e.why));
            for e in &errs {
                problems.push(format!("{}: {}", e.loc, e.why));
            }
            for mut s in secs {
                if s.error.is_none() {
                    s.error = file_error.clone();
                }
                match index.get(&s.name) {
                    Some(&i) => sections[i] = s,
                    None => {
                        index.insert(s.name.clone(), sections.len());
                        sections.push(s);
                    }
                }
            }
        }
        let built = sections.iter().map(|_| OnceLock::new()).collect();
        Registry {
            sections,
            index,
            built,
            problems,
        }
    }

    /// The variant ids, in order of first definition.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.sections.iter().map(|s| s.name.as_str())
    }

    /// The variant ids with the location of their section.
    pub fn sources(&self) -> impl Iterator<Item = (&str, &ini::Loc)> {
        self.sections.iter().map(|s| (s.name.as_str(), &s.loc))
    }

    /// Every variant, built or with the reason it cannot be (this builds them all).
    pub fn variants(&self) -> impl Iterator<Item = (&str, Result<Arc<Fairy>, String>)> {
        self.ids().map(|id| (id, self.built(self.index[id])))
    }

    /// The built-in files plus every file of `paths` (files, or directories of `*.ini`).
    pub fn load(paths: &[PathBuf]) -> Registry {
        let mut sources: Vec<(String, String)> = BUILTIN
            .iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect();
        let mut problems = Vec::new();
        for p in paths {
            let mut files = Vec::new();
            if p.is_dir() {
                match std::fs::read_dir(p) {
                    Ok(rd) => {
                        let mut v: Vec<PathBuf> = rd
                            .filter_map(|e| e.ok().map(|e| e.path()))
                            .filter(|f| f.extension().is_some_and(|x| x == "ini"))
                            .collect();
                        v.sort();
                        files.extend(v);
                    }
                    Err(e) => problems.push(format!("{}: cannot list: {e}", p.display())),
                }
            } else {
                files.push(p.clone());
            }
            for f in files {
                match std::fs::read_to_string(&f) {
                    Ok(t) => sources.push((f.display().to_string(), t)),
                    Err(e) => problems.push(format!("{}: cannot read: {e}", f.display())),
                }
            }
        }
        let mut r = Registry::from_sources(&sources);
        problems.append(&mut r.problems);
        r.problems = problems;
        r
    }

    /// The built-in files plus `HOUSERULES_VARIANTS_PATH`.
    pub fn from_env() -> Registry {
        let paths: Vec<PathBuf> = std::env::var_os(PATH_VAR)
            .map(|v| {
                std::env::split_paths(&v)
                    .filter(|p| !p.as_os_str().is_empty())
                    .collect()
            })
            .unwrap_or_default();
        Registry::load(&paths)
    }

    /// The variant `id`: `None` if unknown, `Some(Err)` if its section has an error.
    pub fn get(&self, id: &str) -> Option<Result<Arc<Fairy>, String>> {
        self.index.get(id).map(|&i| self.built(i))
    }

    fn built(&self, i: usize) -> Result<Arc<Fairy>, String> {
        self.built[i]
            .get_or_init(|| self.build(&self.sections[i]).map(Arc::new))
            .clone()
    }

    fn build(&self, section: &ini::Section) -> Result<Fairy, String> {
        // Chain of sections, child last.
        let mut chain = vec![section];
        let mut base = spec::Spec::empty();
        let mut cur = section;
        while let Some(parent) = &cur.parent {
            if chain.len() > 32
                || chain.iter().skip(1).any(|s| &s.name == parent)
                || parent == &section.name
            {
                return Err(format!(
                    "{}: [{}]: the parents of this section form a cycle",
                    section.loc, section.name
                ));
            }
            match self.index.get(parent).map(|&i| &self.sections[i]) {
                Some(p) => {
                    chain.push(p);
                    cur = p;
                }
                None if parent == "chess" => {
                    base = spec::Spec::chess();
                    break;
                }
                None => {
                    return Err(format!(
                        "{}: [{}:{parent}]: the parent variant `{parent}` is not defined (known parents: chess and the sections read)",
                        cur.loc, cur.name
                    ))
                }
            }
        }
        // A refused parent refuses its children with one line; the section's own problems
        // are all reported.
        let (own, parents) = chain.split_first().expect("the chain holds the section");
        for p in parents.iter().rev() {
            if let Some(why) = base.apply(p).first() {
                return Err(format!(
                    "{}: [{}]: the parent section [{}] is refused: {why}",
                    section.loc, section.name, p.name
                ));
            }
        }
        let mut problems = base.apply(own);
        for (key, why) in base.contradictions() {
            problems.push(engine::err_at(&section.loc, base.locs.get(key), key, why));
        }
        if !problems.is_empty() {
            return Err(problems.join("\n"));
        }
        Fairy::compile(&section.name, &base, &section.loc)
    }
}

/// The registry of this process (built once).
pub fn registry() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(Registry::from_env)
}

/// The plugin.
pub struct FairyPlugin;

impl Plugin for FairyPlugin {
    fn manifest() -> PluginManifest {
        let reg = registry();
        let mut description = "Fairy-Stockfish variants.ini interpreter".to_string();
        if !reg.problems.is_empty() {
            description.push_str(&format!(" (problems: {})", reg.problems.join("; ")));
        }
        PluginManifest {
            api_version: API_VERSION,
            id: "fairy".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            description: description.into(),
            variants: reg
                .sources()
                .map(|(id, loc)| VariantSummary {
                    id: id.into(),
                    // The source ends the name (the host's `list --from` and
                    // `check-variants` select a file's variants by it).
                    name: format!("{id} ({loc})").as_str().into(),
                })
                .collect(),
            presets: RVec::new(),
        }
    }

    fn new_variant(id: &str) -> Result<Option<VariantBox>, String> {
        match registry().get(id) {
            Some(Ok(v)) => Ok(Some(variant_object((*v).clone()))),
            Some(Err(e)) => Err(format!("variant `{id}` cannot be built: {e}")),
            None => Ok(None),
        }
    }
}

export_plugin!(FairyPlugin);

#[cfg(test)]
mod bitboard_rules_tests;
#[cfg(test)]
mod counting_tests;
#[cfg(test)]
mod demotion_tests;
#[cfg(test)]
mod janggi_tests;
#[cfg(test)]
mod key_tests;
#[cfg(test)]
mod petrify_tests;
#[cfg(test)]
mod placement_tests;
#[cfg(test)]
mod rule_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod triple_step_tests;
#[cfg(test)]
mod xiangqi_tests;
