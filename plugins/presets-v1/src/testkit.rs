//! Test helpers: a registry with the chess variant and this pack linked in-process.
//! The pack-specific part (which plugins are linked in); the helpers are shared from
//! `houserules_tests::kit`.

pub use houserules_tests::kit::*;

use crate::PresetsV1;
use houserules_chess::ChessPlugin;
use houserules_host::{HostError, Pipeline, PresetSpec, Registry};
use houserules_plugin_api::root_module;

/// A registry with the chess variant and this pack, linked in-process.
pub fn registry() -> Registry {
    let mut r = Registry::default();
    r.add_builtin(root_module::<ChessPlugin>()).unwrap();
    r.add_builtin(root_module::<PresetsV1>()).unwrap();
    r
}

/// A chess pipeline with these presets, or the error building it.
pub fn try_pipe(presets: &[&str]) -> Result<Pipeline, HostError> {
    let specs: Vec<PresetSpec> = presets.iter().map(|s| s.parse().unwrap()).collect();
    Pipeline::build(&registry(), "chess", None, &specs)
}

/// A chess pipeline with these presets.
pub fn pipe(presets: &[&str]) -> Pipeline {
    try_pipe(presets).unwrap()
}
