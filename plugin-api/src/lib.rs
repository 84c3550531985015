//! # houserules plugin API
//!
//! The one crate shared by the `houserules` host and every plugin. A plugin is a Rust `cdylib`
//! that depends on this crate alone, implements [`Plugin`] (its manifest and constructors) and
//! [`VariantRules`] and/or [`PresetRules`], and exports itself with [`export_plugin!`]. The
//! host loads it at run time through a stable ABI (`abi_stable`), checks the layout of every
//! type listed here, and refuses plugins built against an incompatible API ([`API_VERSION`]).
//!
//! * A **variant** defines a whole game: board, piece table, layouts, FEN, move generation,
//!   applying moves, attacks and its own results.
//! * A **preset** modifies a variant's pipeline through hooks (royal sets, extra moves,
//!   move filters, effects after a move, turn order, results). Every hook has a "no opinion"
//!   default, and the preset's manifest lists the hooks it implements so the host never
//!   crosses the boundary for a no-op.
//!
//! The [`Position`] is plain data both sides understand: a 256-cell board (files x ranks up to
//! 16 x 15, holes allowed), side to move, castling rights, en passant, clocks, hands, and
//! copy-cheap extension data (per-piece [`Attribute`]s such as hit points, plugin
//! [`StateEntry`]s). A [`Move`] is 8 bytes: from, to, [`MoveFlags`], a piece kind (promotion or
//! drop), a `via` square (multi-leg moves, castling) and a plugin-defined `special` code.
//!
//! See `docs/plugin-guide.md` in the repository for a walk-through, `docs/plugin-api.md` for a
//! map of this crate, and `docs/hooks.md` for how each rule of the catalogue maps onto the
//! hooks.
//!
//! # A whole plugin
//!
//! A preset that forbids castling, exported, and then used the way the host uses it: through
//! the root module and the boundary object (`cargo test` runs this):
//!
//! ```
//! use houserules_plugin_api::abi_stable::std_types::{RStr, RVec};
//! use houserules_plugin_api::*;
//!
//! struct NoCastling;
//!
//! impl PresetRules for NoCastling {
//!     fn filter_legal_moves(&self, _pos: &Position, moves: &mut RVec<Move>) {
//!         moves.retain(|m| !m.is_castle());
//!     }
//! }
//!
//! struct MyPlugin;
//!
//! impl Plugin for MyPlugin {
//!     fn manifest() -> PluginManifest {
//!         PluginManifest {
//!             api_version: API_VERSION,
//!             id: "no-castling".into(),
//!             version: "0.1.0".into(),
//!             description: "Castling is not allowed".into(),
//!             variants: RVec::new(),
//!             presets: vec![PresetInfo {
//!                 id: "no-castling".into(),
//!                 name: "No Castling".into(),
//!                 description: "Castling is not allowed.".into(),
//!                 // Exactly the hooks implemented above: the host calls no others.
//!                 hooks: HookSet::FILTER_LEGAL_MOVES,
//!                 ..Default::default()
//!             }]
//!             .into(),
//!         }
//!     }
//!     fn new_preset(id: &str, _: &Options, _: &VariantInfo) -> Result<PresetBox, String> {
//!         match id {
//!             "no-castling" => Ok(preset_object(NoCastling)),
//!             _ => Err(format!("no preset `{id}` here")),
//!         }
//!     }
//! }
//!
//! // In the plugin's lib.rs: `export_plugin!(MyPlugin);`. The host then does this:
//! let module = root_module::<MyPlugin>();
//! let manifest = (module.manifest())().unwrap();
//! assert_eq!(manifest.presets[0].hooks, HookSet::FILTER_LEGAL_MOVES);
//! let preset = (module.new_preset())(RStr::from("no-castling"), RVec::new(), &VariantInfo::default())
//!     .unwrap();
//! let (e1, h1, g1, e2) = (Square::new(4, 0), Square::new(7, 0), Square::new(6, 0), Square::new(4, 1));
//! let mut moves: RVec<Move> = vec![Move::castle(e1, h1, g1), Move::new(e1, e2, MoveFlags::NONE)].into();
//! preset.filter_legal_moves(&Position::empty(8, 8), &mut moves).unwrap();
//! assert_eq!(moves.len(), 1);
//! // What it implements, as `houserules check-plugin` asks (API 1.2).
//! let implemented = preset.implemented_hooks(&Position::empty(8, 8), moves[0]).unwrap();
//! assert_eq!(implemented, HookSet::FILTER_LEGAL_MOVES);
//! ```
#![deny(missing_docs)]
// `#[sabi_trait]` expands to impls inside a const block; the lint misfires on that.
#![allow(non_local_definitions)]

mod board;
mod catalogue;
mod export;
pub mod geometry;
mod hooks;
mod manifest;
pub mod model;
mod moves;
mod outcome;
pub mod san;

pub use abi_stable;
pub use board::{
    attr, castle_slot, Accel, Attribute, Cell, Color, Name, Position, Square, SquareSet,
    StateEntry, CELLS, MAX_FILES, MAX_RANKS,
};
pub use catalogue::{parse_roles, EXTRA_DETAILS, EXTRA_LAYOUT_PREFIX, EXTRA_ROLES};
pub use export::{
    install_panic_hook, root_manifest, root_module, root_new_preset, root_new_variant, Plugin,
    PluginModule, PluginModuleRef,
};
pub use hooks::{
    guard, host_query, preset_object, stage, variant_object, DescribedLine, GenRequest, HostQuery,
    HostQueryRef, HostQuery_TO, Options, PlyRun, PlyText, PlyTextEnds, PresetBox, PresetFfi,
    PresetFfi_TO, PresetRules, Query, ReplayedLine, ReplayedPly, Scope, VariantBox, VariantFfi,
    VariantFfi_TO, VariantRules,
};
pub use manifest::{
    ApiVersion, HookSet, Layout, OptionKind, OptionSpec, OptionValue, PieceType, PluginManifest,
    PresetInfo, Role, VariantFlags, VariantInfo, VariantSummary, API_VERSION,
    CUSTOM_MODIFIER_CATEGORY, EXTRA_ERROR, EXTRA_MOVEMENT, EXTRA_SEARCH_MOVE_DETAIL,
    EXTRA_SEARCH_PRUNING_DEPTH, EXTRA_SEARCH_QUIET_PRUNING, EXTRA_SOURCE, MOVEMENT_ADDITIVE,
    MOVEMENT_NONE,
};
pub use model::{CastlingModel, PieceModel, PromotionModel, RulesModel, Topology};
pub use moves::{CapturedPiece, Event, EventKind, Move, MoveEffects, MoveFlags};
pub use outcome::{
    Decision, FenError, LastMove, Outcome, OutcomeContext, PluginError, ResultDecision, Winner,
};
pub use san::{
    castle_shadowed, is_san_rival, write_coordinate, write_coordinate_among, write_move_san,
    write_san, CoordinateMove, SanCandidate, SanMove, SanReader, SanToken,
};
