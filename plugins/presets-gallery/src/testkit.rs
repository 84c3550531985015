//! Test helpers: a registry with the chess variant and this pack linked in-process.

use crate::PresetsGallery;
use houserules_chess::ChessPlugin;
use houserules_host::notation::{coordinate, parse_move};
use houserules_host::{perft, Game, HostError, Pipeline, PresetSpec, Registry};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{root_module, Event, Move, MoveEffects, Outcome, Position};

pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

pub fn registry() -> Registry {
    let mut r = Registry::default();
    r.add_builtin(root_module::<ChessPlugin>()).unwrap();
    r.add_builtin(root_module::<PresetsGallery>()).unwrap();
    r
}

pub fn try_pipe(presets: &[&str]) -> Result<Pipeline, HostError> {
    let specs: Vec<PresetSpec> = presets.iter().map(|s| s.parse().unwrap()).collect();
    Pipeline::build(&registry(), "chess", None, &specs)
}

pub fn pipe(presets: &[&str]) -> Pipeline {
    try_pipe(presets).unwrap()
}

pub fn pipe_layout(layout: &str, presets: &[&str]) -> Pipeline {
    let specs: Vec<PresetSpec> = presets.iter().map(|s| s.parse().unwrap()).collect();
    Pipeline::build(&registry(), "chess", Some(layout), &specs).unwrap()
}

pub fn pos(p: &Pipeline, fen: &str) -> Position {
    p.parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

pub fn fen(p: &Pipeline, position: &Position) -> String {
    p.write_fen(position).unwrap()
}

/// Legal moves in coordinate form.
pub fn legal(p: &Pipeline, fen: &str) -> Vec<String> {
    legal_at(p, &pos(p, fen))
}

pub fn legal_at(p: &Pipeline, position: &Position) -> Vec<String> {
    let mut v = RVec::new();
    p.legal_moves(position, &mut v).unwrap();
    v.iter()
        .map(|&m| coordinate(p, position, m).unwrap())
        .collect()
}

pub fn has(p: &Pipeline, fen: &str, mv: &str) -> bool {
    legal(p, fen).iter().any(|m| m == mv)
}

pub fn has_at(p: &Pipeline, position: &Position, mv: &str) -> bool {
    legal_at(p, position).iter().any(|m| m == mv)
}

/// The castling moves, in coordinate form.
pub fn castles(p: &Pipeline, fen: &str) -> Vec<String> {
    let position = pos(p, fen);
    let mut v = RVec::new();
    p.legal_moves(&position, &mut v).unwrap();
    v.iter()
        .filter(|m| m.is_castle())
        .map(|&m| coordinate(p, &position, m).unwrap())
        .collect()
}

pub fn find(p: &Pipeline, position: &Position, mv: &str) -> Move {
    let mut v = RVec::new();
    p.legal_moves(position, &mut v).unwrap();
    parse_move(p, position, mv, &v).unwrap_or_else(|e| panic!("{mv}: {e}"))
}

/// Plays moves from a FEN; returns the position and the last move's events.
pub fn play(p: &Pipeline, fen: &str, moves: &[&str]) -> (Position, Vec<Event>) {
    play_from(p, pos(p, fen), moves)
}

pub fn play_from(p: &Pipeline, start: Position, moves: &[&str]) -> (Position, Vec<Event>) {
    let mut position = start;
    let mut events = Vec::new();
    for mv in moves {
        let m = find(p, &position, mv);
        let mut fx = MoveEffects::new(position.side_to_move, true);
        p.apply(&mut position, m, &mut fx).unwrap();
        events = fx.events.into_vec();
    }
    (position, events)
}

/// The game result in `position` (the host's n-move and n-fold rules included).
pub fn status_at(p: &Pipeline, position: &Position) -> Option<Outcome> {
    Game::new(p, position.clone()).status().unwrap().outcome
}

pub fn perft_at(p: &Pipeline, position: &Position, depth: u32) -> u64 {
    perft(p, position, depth, 1, false).unwrap().nodes
}

pub fn perft_fen(p: &Pipeline, fen: &str, depth: u32) -> u64 {
    perft_at(p, &pos(p, fen), depth)
}
