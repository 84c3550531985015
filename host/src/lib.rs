//! The houserules host library: plugin loading, pipeline assembly, the game loop, notation,
//! perft, game records (reading, replay, analysis) and play. It holds no game rules: every
//! rule comes from a plugin.
#![deny(missing_docs)]

pub mod analyze;
pub mod annotate;
pub mod arbiter;
pub mod batch;
pub mod compressed;
pub mod conformance;
pub mod describe;
#[cfg(unix)]
pub mod elf;
pub mod engine;
pub mod error;
pub mod fault;
pub mod fen;
pub mod game;
pub mod history;
pub mod install;
#[cfg(unix)]
pub mod isolated;
pub mod layout_cache;
pub mod loader;
pub mod notation;
pub mod perft;
pub mod pgn;
pub mod pipeline;
pub mod play;
pub mod report_json;
#[cfg(unix)]
pub mod supervisor;
pub mod text_lines;
mod tokens;
pub mod uci;
pub mod xboard;

pub use error::HostError;
pub use game::{Game, Status};
pub use loader::{load_plugin, LoadedPlugin, PluginSearch, Registry};
pub use perft::{perft, PerftResult};
pub use pipeline::{parse_preset_list, Pipeline, PresetSpec};
