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
//! See `docs/plugin-guide.md` in the repository for a walk-through, and `docs/hooks.md` for how
//! each rule of the catalogue maps onto the hooks.
#![deny(missing_docs)]
// `#[sabi_trait]` expands to impls inside a const block; the lint misfires on that.
#![allow(non_local_definitions)]

mod board;
mod export;
pub mod geometry;
mod hooks;
mod manifest;
pub mod model;
mod moves;
mod outcome;

pub use abi_stable;
pub use board::{
    attr, castle_slot, Accel, Attribute, Cell, Color, Name, Position, Square, SquareSet,
    StateEntry, CELLS, MAX_FILES, MAX_RANKS,
};
pub use export::{
    install_panic_hook, root_manifest, root_module, root_new_preset, root_new_variant, Plugin,
    PluginModule, PluginModuleRef,
};
pub use hooks::{
    guard, host_query, preset_object, stage, variant_object, GenRequest, HostQuery, HostQueryRef,
    HostQuery_TO, Options, PresetBox, PresetFfi, PresetFfi_TO, PresetRules, Query, Scope,
    VariantBox, VariantFfi, VariantFfi_TO, VariantRules,
};
pub use manifest::{
    ApiVersion, HookSet, Layout, OptionKind, OptionSpec, OptionValue, PieceType, PluginManifest,
    PresetInfo, Role, VariantFlags, VariantInfo, VariantSummary, API_VERSION,
    CUSTOM_MODIFIER_CATEGORY, EXTRA_ERROR, EXTRA_MOVEMENT, EXTRA_SOURCE, MOVEMENT_ADDITIVE,
    MOVEMENT_NONE,
};
pub use model::{CastlingModel, PieceModel, PromotionModel, RulesModel, Topology};
pub use moves::{CapturedPiece, Event, EventKind, Move, MoveEffects, MoveFlags};
pub use outcome::{
    Decision, FenError, Outcome, OutcomeContext, PluginError, ResultDecision, Winner,
};
