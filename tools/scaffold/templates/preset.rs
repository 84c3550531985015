//! {{name}}: a houserules preset plugin.
//!
//! Forbids castling, through the `filter_legal_moves` hook. Replace it with your own rule:
//! implement the hooks you need in `PresetRules for Rule`, declare exactly those in
//! `PresetInfo::hooks` (the host calls no others), and change the tests at the end.

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
                description: "Castling is not allowed; every other rule of the variant stays."
                    .into(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use houserules_host::conformance::{check_plugin, CheckOptions};
    use houserules_host::{perft, Pipeline, Registry};
    use houserules_plugin_api::root_module;

    /// Chess and this plugin, loaded in-process the way the host loads libraries.
    fn registry() -> Registry {
        let mut reg = Registry::default();
        reg.add_builtin(root_module::<houserules_chess::ChessPlugin>())
            .expect("the chess plugin loads");
        reg.add_builtin(root_module::<ThisPlugin>())
            .expect("this plugin loads");
        reg
    }

    #[test]
    fn castling_is_gone() {
        let reg = registry();
        let p = Pipeline::build(&reg, "chess", None, &[ID.parse().unwrap()]).unwrap();
        // Kings and rooks only: 26 legal moves in chess, two of them castling.
        let pos = p.parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        assert_eq!(perft(&p, &pos, 1, 1, false).unwrap().nodes, 24);
        let plain = Pipeline::build(&reg, "chess", None, &[]).unwrap();
        assert_eq!(perft(&plain, &pos, 1, 1, false).unwrap().nodes, 26);
    }

    #[test]
    fn keeps_the_plugin_contract() {
        // The checks of `houserules check-plugin`: hooks declared = hooks implemented, FEN
        // round trip, perft consistency, determinism, no panics.
        let report = check_plugin(&registry(), ID, &CheckOptions::default()).unwrap();
        assert!(report.passed(), "{}", report.text());
    }
}
