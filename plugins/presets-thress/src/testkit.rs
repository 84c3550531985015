//! Test helpers: chess, this pack and the other preset packs linked in-process (the ThressGame
//! presets are tested with the others they combine with).

pub use houserules_tests::kit::*;

use crate::PresetsThress;
use houserules_chess::ChessPlugin;
use houserules_host::{HostError, Pipeline, PresetSpec, Registry};
use houserules_plugin_api::root_module;
use houserules_presets_gallery::PresetsGallery;
use houserules_presets_v1::PresetsV1;

/// A registry with chess and the three preset packs.
pub fn registry() -> Registry {
    let mut r = Registry::default();
    r.add_builtin(root_module::<ChessPlugin>()).unwrap();
    r.add_builtin(root_module::<PresetsThress>()).unwrap();
    r.add_builtin(root_module::<PresetsV1>()).unwrap();
    r.add_builtin(root_module::<PresetsGallery>()).unwrap();
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
