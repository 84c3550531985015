//! The 15 v1 presets of the houserules catalogue (`presets-RULES.md`, v1 part), as one
//! plugin pack. One module per preset, with its tests beside it; rulings in
//! `docs/presets-v1.md`.
//!
//! Presets find pieces by role ([`houserules_plugin_api::Role`]) through the variant's piece
//! table, which the host hands over with `bind_variant` (the chess table until then).

mod common;

pub mod bishops_ignore_color;
pub mod capture_to_win;
pub mod double_pawn_sprint;
pub mod explosive_rook;
pub mod king_heals;
pub mod knight_immunity;
pub mod knights_leap_twice;
pub mod last_piece_standing;
pub mod pawn_diagonal_no_capture;
pub mod pawns_move_backward;
pub mod piece_hp;
pub mod poisoned_squares;
pub mod queen_splits;
pub mod rook_warp;
mod words;
pub mod wrap_board;

#[cfg(test)]
mod combinations;
#[cfg(test)]
mod fsf_fixtures;
#[cfg(test)]
pub(crate) mod testkit;

use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    preset_object, HookSet, OptionValue, Options, Plugin, PluginManifest, PresetBox, PresetInfo,
    VariantInfo, API_VERSION, EXTRA_MOVEMENT,
};

/// What a preset module declares about itself.
pub(crate) struct Meta {
    pub id: &'static str,
    pub name: &'static str,
    pub category: &'static str,
    pub mode: &'static str,
    pub description: &'static str,
    pub requires: &'static [&'static str],
    pub incompatible: &'static [&'static str],
    pub hooks: HookSet,
    pub stages: &'static [u8],
    pub priority: i32,
    /// How it changes movement, for the host's additive path: `MOVEMENT_ADDITIVE` (only adds
    /// moves, reports their captures through `is_attacked`), `MOVEMENT_NONE` (changes no
    /// movement and no piece), or "" (anything else).
    pub movement: &'static str,
    /// What it asks of the host's engine: `extra` entries (`EXTRA_SEARCH_*` keys and values).
    pub search: &'static [(&'static str, &'static str)],
}

impl Meta {
    fn info(&self) -> PresetInfo {
        PresetInfo {
            id: self.id.into(),
            name: self.name.into(),
            category: self.category.into(),
            mode: self.mode.into(),
            description: self.description.into(),
            requires: self.requires.iter().map(|s| (*s).into()).collect(),
            incompatible_with: self.incompatible.iter().map(|s| (*s).into()).collect(),
            scope_aware: false,
            options: RVec::new(),
            hooks: self.hooks,
            preferred_layout: None.into(),
            after_move_stages: self.stages.iter().fold(0u16, |m, s| m | (1 << s)),
            priority: self.priority,
            extra: {
                let mut extra = RVec::new();
                if !self.movement.is_empty() {
                    extra.push(OptionValue {
                        key: EXTRA_MOVEMENT.into(),
                        value: self.movement.into(),
                    });
                }
                for &(key, value) in self.search {
                    extra.push(OptionValue {
                        key: key.into(),
                        value: value.into(),
                    });
                }
                extra
            },
        }
    }
}

/// Every preset of the pack, in catalogue order.
pub(crate) const ALL: [&Meta; 15] = [
    &pawns_move_backward::META,
    &double_pawn_sprint::META,
    &pawn_diagonal_no_capture::META,
    &knights_leap_twice::META,
    &bishops_ignore_color::META,
    &rook_warp::META,
    &wrap_board::META,
    &queen_splits::META,
    &king_heals::META,
    &explosive_rook::META,
    &capture_to_win::META,
    &last_piece_standing::META,
    &piece_hp::META,
    &knight_immunity::META,
    &poisoned_squares::META,
];

/// The plugin: provides the 15 v1 presets.
pub struct PresetsV1;

impl Plugin for PresetsV1 {
    fn manifest() -> PluginManifest {
        PluginManifest {
            api_version: API_VERSION,
            id: "presets-v1".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            description: "The 15 v1 presets of the catalogue".into(),
            variants: RVec::new(),
            presets: ALL.iter().map(|m| words::with_words(m.info())).collect(),
        }
    }

    fn new_preset(
        id: &str,
        _options: &Options,
        variant: &VariantInfo,
    ) -> Result<PresetBox, String> {
        let k = common::Bound::of(variant);
        Ok(match id {
            "pawns-move-backward" => {
                preset_object(pawns_move_backward::PawnsMoveBackward { k: k.clone() })
            }
            "double-pawn-sprint" => {
                preset_object(double_pawn_sprint::DoublePawnSprint { k: k.clone() })
            }
            "pawn-diagonal-no-capture" => {
                preset_object(pawn_diagonal_no_capture::PawnDiagonalNoCapture { k: k.clone() })
            }
            "knights-leap-twice" => {
                preset_object(knights_leap_twice::KnightsLeapTwice { k: k.clone() })
            }
            "bishops-ignore-color" => {
                preset_object(bishops_ignore_color::BishopsIgnoreColor { k: k.clone() })
            }
            "rook-warp" => preset_object(rook_warp::RookWarp { k: k.clone() }),
            "wrap-board" => preset_object(wrap_board::WrapBoard { k: k.clone() }),
            "queen-splits" => preset_object(queen_splits::QueenSplits { k: k.clone() }),
            "king-heals" => preset_object(king_heals::KingHeals { k: k.clone() }),
            "explosive-rook" => preset_object(explosive_rook::ExplosiveRook { k: k.clone() }),
            "capture-to-win" => preset_object(capture_to_win::CaptureToWin),
            "last-piece-standing" => {
                preset_object(last_piece_standing::LastPieceStanding { k: k.clone() })
            }
            "piece-hp" => preset_object(piece_hp::PieceHp { k: k.clone() }),
            "knight-immunity" => preset_object(knight_immunity::KnightImmunity { k: k.clone() }),
            "poisoned-squares" => preset_object(poisoned_squares::PoisonedSquares { k: k.clone() }),
            _ => return Err(format!("the presets-v1 pack provides no preset `{id}`")),
        })
    }
}

// Not in unit tests: the chess plugin linked in for them exports the same symbol.
#[cfg(not(test))]
houserules_plugin_api::export_plugin!(PresetsV1);
