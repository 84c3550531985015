//! {{name}}: a houserules preset plugin.
//!
//! Forbids castling, through the `filter_legal_moves` hook. Replace it with your own rule.

use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    export_plugin, preset_object, HookSet, Move, Options, Plugin, PluginManifest, Position,
    PresetBox, PresetInfo, PresetRules, VariantInfo, API_VERSION,
};

const ID: &str = "{{id}}";

struct Rule;

impl PresetRules for Rule {
    fn filter_legal_moves(&self, _pos: &Position, moves: &mut RVec<Move>) {
        moves.retain(|m| !m.is_castle());
    }
}

struct ThisPlugin;

impl Plugin for ThisPlugin {
    fn manifest() -> PluginManifest {
        PluginManifest {
            api_version: API_VERSION,
            id: ID.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            description: "{{name}}".into(),
            variants: RVec::new(),
            presets: vec![PresetInfo {
                id: ID.into(),
                name: "{{name}}".into(),
                category: "Movement Modifier".into(),
                mode: "hooks".into(),
                description: "Castling is not allowed.".into(),
                requires: RVec::new(),
                incompatible_with: RVec::new(),
                scope_aware: false,
                options: RVec::new(),
                hooks: HookSet::FILTER_LEGAL_MOVES,
                ..Default::default()
            }]
            .into_iter()
            .collect(),
        }
    }

    fn new_preset(id: &str, _options: &Options, _variant: &VariantInfo) -> Result<PresetBox, String> {
        if id == ID {
            Ok(preset_object(Rule))
        } else {
            Err(format!("no preset `{id}` here"))
        }
    }
}

export_plugin!(ThisPlugin);
