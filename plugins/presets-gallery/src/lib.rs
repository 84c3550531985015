//! The 14 gallery (v2) presets of the houserules catalogue (`presets-RULES.md`, "Rule Variants
//! Gallery (v2, 2026)"), as one plugin pack: one module per preset with its tests beside it.
//! Rules as implemented and rulings: `docs/presets-gallery.md`.
//!
//! Presets find pieces by role ([`houserules_plugin_api::Role`]) through the piece table the
//! host hands to [`Plugin::new_preset`].

mod common;

pub mod berolina_pawns;
pub mod berolina_pawns_2;
pub mod bouncing_pieces;
pub mod bouncing_pieces_2;
pub mod capture_all;
pub mod coregal;
pub mod double_move;
pub mod dual_king;
pub mod extinction_chess;
pub mod first_promotion_wins;
pub mod knightmate_rules;
pub mod monster_rules;
pub mod suicide_chess;
pub mod weak_dual_king;
mod words;

#[cfg(test)]
mod fsf_fixtures;
#[cfg(test)]
mod manifest_tests;
#[cfg(test)]
pub(crate) mod testkit;

use houserules_plugin_api::abi_stable::std_types::{ROption, RVec};
use houserules_plugin_api::{
    HookSet, OptionKind, OptionSpec, OptionValue, Options, Plugin, PluginManifest, PresetBox,
    PresetInfo, VariantInfo, API_VERSION,
};

/// What a preset module declares about itself (catalogue metadata and pipeline wiring).
pub(crate) struct Meta {
    pub id: &'static str,
    pub name: &'static str,
    pub category: &'static str,
    pub mode: &'static str,
    pub description: &'static str,
    pub incompatible: &'static [&'static str],
    /// Default of the `scope` option, for scope-aware presets.
    pub scope: Option<&'static str>,
    pub hooks: HookSet,
    pub stages: &'static [u8],
    pub priority: i32,
    pub preferred_layout: Option<&'static str>,
    /// Open-ended metadata the host reads (`check-rule=all`).
    pub extra: &'static [(&'static str, &'static str)],
}

impl Meta {
    pub(crate) fn info(&self) -> PresetInfo {
        let mut options: RVec<OptionSpec> = RVec::new();
        if let Some(d) = self.scope {
            options.push(OptionSpec::scope(d));
        }
        if self.id == extinction_chess::META.id {
            options.push(OptionSpec {
                key: "target".into(),
                kind: OptionKind::ROLE,
                default: "pawn".into(),
                choices: RVec::new(),
                min: 0,
                max: 0,
                description: "the piece role whose extinction decides the game".into(),
            });
        }
        PresetInfo {
            id: self.id.into(),
            name: self.name.into(),
            category: self.category.into(),
            mode: self.mode.into(),
            description: self.description.into(),
            requires: RVec::new(),
            incompatible_with: self.incompatible.iter().map(|s| (*s).into()).collect(),
            scope_aware: self.scope.is_some(),
            options,
            hooks: self.hooks,
            preferred_layout: match self.preferred_layout {
                Some(l) => ROption::RSome(l.into()),
                None => ROption::RNone,
            },
            after_move_stages: self.stages.iter().fold(0u16, |m, s| m | (1 << s)),
            priority: self.priority,
            extra: self
                .extra
                .iter()
                .map(|(k, v)| OptionValue {
                    key: (*k).into(),
                    value: (*v).into(),
                })
                .collect(),
        }
    }
}

/// Every preset of the pack, in catalogue order (#16-29).
pub(crate) const ALL: [&Meta; 14] = [
    &knightmate_rules::META,
    &coregal::META,
    &dual_king::META,
    &weak_dual_king::META,
    &double_move::META,
    &monster_rules::META,
    &first_promotion_wins::META,
    &suicide_chess::META,
    &capture_all::META,
    &extinction_chess::META,
    &berolina_pawns::META,
    &berolina_pawns_2::META,
    &bouncing_pieces::META,
    &bouncing_pieces_2::META,
];

/// The plugin: provides the 14 gallery presets.
pub struct PresetsGallery;

impl Plugin for PresetsGallery {
    fn manifest() -> PluginManifest {
        PluginManifest {
            api_version: API_VERSION,
            id: "presets-gallery".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            description: "The 14 gallery (v2) presets of the catalogue".into(),
            variants: RVec::new(),
            presets: ALL.iter().map(|m| words::with_words(m.info())).collect(),
        }
    }

    fn new_preset(id: &str, options: &Options, variant: &VariantInfo) -> Result<PresetBox, String> {
        let k = common::Kinds::of(variant);
        match id {
            "knightmate-rules" => knightmate_rules::new(k),
            "coregal" => coregal::new(k),
            "dual-king" => dual_king::new(k),
            "weak-dual-king" => weak_dual_king::new(k),
            "double-move" => double_move::new(),
            "monster-rules" => monster_rules::new(options),
            "first-promotion-wins" => first_promotion_wins::new(),
            "suicide-chess" => suicide_chess::new(k, variant),
            "capture-all" => capture_all::new(k),
            "extinction-chess" => extinction_chess::new(k, options),
            "berolina-pawns" => berolina_pawns::new(k, options, false),
            "berolina-pawns-2" => berolina_pawns::new(k, options, true),
            "bouncing-pieces" => bouncing_pieces::new(k, 1),
            "bouncing-pieces-2" => bouncing_pieces::new(k, 2),
            _ => Err(format!(
                "the presets-gallery pack provides no preset `{id}`"
            )),
        }
    }
}

// Not in unit tests: the chess plugin linked in for them exports the same symbol.
#[cfg(not(test))]
houserules_plugin_api::export_plugin!(PresetsGallery);
