//! Test helpers: a registry with the chess variant and this pack linked in-process.

use crate::PresetsV1;
use houserules_chess::ChessPlugin;
use houserules_host::notation::{coordinate, parse_move};
use houserules_host::{perft, Game, HostError, Pipeline, PresetSpec, Registry};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    attr, root_module, Event, EventKind, Move, MoveEffects, Outcome, Position, Square,
};

pub fn registry() -> Registry {
    let mut r = Registry::default();
    r.add_builtin(root_module::<ChessPlugin>()).unwrap();
    r.add_builtin(root_module::<PresetsV1>()).unwrap();
    r
}

pub fn try_pipe(presets: &[&str]) -> Result<Pipeline, HostError> {
    let specs: Vec<PresetSpec> = presets.iter().map(|s| s.parse().unwrap()).collect();
    Pipeline::build(&registry(), "chess", None, &specs)
}

pub fn pipe(presets: &[&str]) -> Pipeline {
    try_pipe(presets).unwrap()
}

pub fn pos(p: &Pipeline, fen: &str) -> Position {
    p.parse_fen(fen).unwrap()
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

pub fn find(p: &Pipeline, position: &Position, mv: &str) -> Move {
    let mut v = RVec::new();
    p.legal_moves(position, &mut v).unwrap();
    parse_move(p, position, mv, &v).unwrap_or_else(|e| panic!("{mv}: {e}"))
}

/// Plays moves (coordinate or SAN) from a FEN; returns the position and the last move's events.
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

/// The game result after playing `moves` from `fen`.
pub fn result_after(p: &Pipeline, fen: &str, moves: &[&str]) -> Option<Outcome> {
    let start = pos(p, fen);
    let mut g = Game::new(p, start);
    for mv in moves {
        let legal = g.legal_moves().unwrap();
        let m = parse_move(p, &g.position, mv, &legal).unwrap();
        g.play(m).unwrap();
    }
    g.status().unwrap().outcome
}

pub fn fen(p: &Pipeline, position: &Position) -> String {
    p.write_fen(position).unwrap()
}

pub fn hp_of(position: &Position, s: &str) -> Option<i32> {
    position.attribute(sq(s), attr::HP)
}

pub fn at(p: &Pipeline, position: &Position, s: &str) -> char {
    let c = position.get(sq(s));
    if c.is_empty() {
        return '.';
    }
    let k = c.kind().unwrap() as usize;
    let l = p.info.pieces[k].letter();
    if c.color() == Some(houserules_plugin_api::Color::White) {
        l
    } else {
        l.to_ascii_lowercase()
    }
}

pub fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

pub fn kinds(events: &[Event]) -> Vec<&'static str> {
    events.iter().map(|e| EventKind::name(e.kind)).collect()
}

pub fn perft_nodes(p: &Pipeline, fen: &str, depth: u32) -> u64 {
    perft(p, &pos(p, fen), depth, 1, false).unwrap().nodes
}

pub fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}
