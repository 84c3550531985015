//! The ThressGame presets (`presets-RULES.md`, "Cross-References"; rules in RULINGS.md
//! "ThressGame presets"): god-kings, early-promotion, proletariat, short-stop, trans-rights.
//! Each is a transform of the variant's rules model (API 1.2) — movement in Betza, royalty,
//! promotion zone, slide limit — so they combine with every other transform and keep the
//! variant's fast legal generator. One module per preset, tests beside it.

pub mod early_promotion;
pub mod god_kings;
pub mod proletariat;
pub mod short_stop;
pub mod trans_rights;

#[cfg(test)]
mod fsf_fixtures;
#[cfg(test)]
pub(crate) mod testkit;

use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    preset_object, HookSet, OptionSpec, Options, Plugin, PluginManifest, PresetBox, PresetInfo,
    PresetRules, Role, VariantInfo, API_VERSION,
};

/// What a preset module declares about itself.
pub(crate) struct Meta {
    pub id: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    pub incompatible: &'static [&'static str],
    pub options: fn() -> Vec<OptionSpec>,
    /// It implements `evaluate` (terms for the engine).
    pub evaluates: bool,
}

fn no_options() -> Vec<OptionSpec> {
    Vec::new()
}

impl Meta {
    fn info(&self) -> PresetInfo {
        PresetInfo {
            id: self.id.into(),
            name: self.name.into(),
            category: "ThressGame".into(),
            mode: "transform".into(),
            description: self.description.into(),
            incompatible_with: self.incompatible.iter().map(|s| (*s).into()).collect(),
            options: (self.options)().into_iter().collect(),
            hooks: if self.evaluates {
                HookSet(HookSet::TRANSFORM_MODEL.0 | HookSet::EVALUATE.0)
            } else {
                HookSet::TRANSFORM_MODEL
            },
            ..Default::default()
        }
    }
}

/// Every preset of the pack.
pub(crate) const ALL: [&Meta; 5] = [
    &god_kings::META,
    &early_promotion::META,
    &proletariat::META,
    &short_stop::META,
    &trans_rights::META,
];

/// Errors unless the variant has a piece of `role`.
pub(crate) fn require(variant: &VariantInfo, id: &str, role: Role) -> Result<(), String> {
    if variant.pieces.iter().any(|p| p.role == role) {
        Ok(())
    } else {
        Err(format!(
            "preset `{id}` needs a piece with the role `{}` in the variant",
            role.name()
        ))
    }
}

/// The plugin: provides the five ThressGame presets.
pub struct PresetsThress;

impl Plugin for PresetsThress {
    fn manifest() -> PluginManifest {
        PluginManifest {
            api_version: API_VERSION,
            id: "presets-thress".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            description: "The ThressGame presets of the catalogue (as rules-model transforms)"
                .into(),
            variants: RVec::new(),
            presets: ALL.iter().map(|m| m.info()).collect(),
        }
    }

    fn new_preset(id: &str, options: &Options, variant: &VariantInfo) -> Result<PresetBox, String> {
        let obj = |p: Box<dyn FnOnce() -> PresetBox>| Ok(p());
        match id {
            "god-kings" => {
                require(variant, id, Role::KING)?;
                obj(Box::new(|| preset_object(god_kings::GodKings)))
            }
            "early-promotion" => {
                require(variant, id, Role::PAWN)?;
                let rank = early_promotion::rank_option(options)?;
                obj(Box::new(move || {
                    preset_object(early_promotion::EarlyPromotion { rank })
                }))
            }
            "proletariat" => {
                let p = proletariat::Proletariat::new(variant);
                obj(Box::new(move || preset_object(p)))
            }
            "short-stop" => obj(Box::new(|| preset_object(short_stop::ShortStop))),
            "trans-rights" => {
                require(variant, id, Role::KING)?;
                obj(Box::new(|| preset_object(trans_rights::TransRights)))
            }
            _ => Err(format!("the presets-thress pack provides no preset `{id}`")),
        }
    }
}

/// Keeps `PresetRules` in scope for the modules' `impl` blocks.
#[allow(dead_code)]
fn _assert_preset<T: PresetRules>() {}

// Not in unit tests: the chess plugin linked in for them exports the same symbol.
#[cfg(not(test))]
houserules_plugin_api::export_plugin!(PresetsThress);
