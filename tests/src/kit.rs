//! Helpers for in-process preset tests: positions, legal moves in coordinate form, playing
//! moves, results and perft through a [`Pipeline`]. Each preset pack builds its pipelines
//! from a registry holding chess and the pack (`Registry::add_builtin`) and uses these.

use houserules_host::notation::{coordinate, parse_move};
use houserules_host::{perft, Game, Pipeline};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    attr, Color, Event, EventKind, Move, MoveEffects, Outcome, Position, Square,
};

/// The chess start position.
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A position from a FEN (panics with the FEN and the reason).
pub fn pos(p: &Pipeline, fen: &str) -> Position {
    p.parse_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The FEN of a position.
pub fn fen(p: &Pipeline, position: &Position) -> String {
    p.write_fen(position).unwrap()
}

/// Legal moves in coordinate form.
pub fn legal(p: &Pipeline, fen: &str) -> Vec<String> {
    legal_at(p, &pos(p, fen))
}

/// Legal moves of a position in coordinate form.
pub fn legal_at(p: &Pipeline, position: &Position) -> Vec<String> {
    let mut v = RVec::new();
    p.legal_moves(position, &mut v).unwrap();
    v.iter()
        .map(|&m| coordinate(p, position, m).unwrap())
        .collect()
}

/// The destinations (sorted) of the legal moves from square `from` (`"c1"`) in `fen`.
pub fn destinations(p: &Pipeline, fen: &str, from: &str) -> Vec<String> {
    let mut v: Vec<String> = legal(p, fen)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .map(|m| m[from.len()..].to_string())
        .collect();
    v.sort();
    v
}

/// Whether `mv` (coordinate form) is legal in `fen`.
pub fn has(p: &Pipeline, fen: &str, mv: &str) -> bool {
    legal(p, fen).iter().any(|m| m == mv)
}

/// Whether `mv` (coordinate form) is legal in `position`.
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

/// The legal move written `mv` (SAN or coordinate form).
pub fn find(p: &Pipeline, position: &Position, mv: &str) -> Move {
    let mut v = RVec::new();
    p.legal_moves(position, &mut v).unwrap();
    parse_move(p, position, mv, &v).unwrap_or_else(|e| panic!("{mv}: {e}"))
}

/// Plays moves (coordinate or SAN) from a FEN; returns the position and the last move's events.
pub fn play(p: &Pipeline, fen: &str, moves: &[&str]) -> (Position, Vec<Event>) {
    play_from(p, pos(p, fen), moves)
}

/// Plays moves from a position; returns the position and the last move's events.
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

/// The game result after playing `moves` from `fen` (a game: repetition counts).
pub fn result_after(p: &Pipeline, fen: &str, moves: &[&str]) -> Option<Outcome> {
    let mut g = Game::new(p, pos(p, fen));
    for mv in moves {
        let legal = g.legal_moves().unwrap();
        let m = parse_move(p, &g.position, mv, &legal).unwrap();
        g.play(m).unwrap();
    }
    g.status().unwrap().outcome
}

/// The game result in `position` (the host's n-move and n-fold rules included).
pub fn status_at(p: &Pipeline, position: &Position) -> Option<Outcome> {
    Game::new(p, position.clone()).status().unwrap().outcome
}

/// Hit points of the piece on square `s`.
pub fn hp_of(position: &Position, s: &str) -> Option<i32> {
    position.attribute(sq(s), attr::HP)
}

/// The FEN letter of what stands on `s` (`.` for empty).
pub fn at(p: &Pipeline, position: &Position, s: &str) -> char {
    let c = position.get(sq(s));
    let Some(k) = c.kind() else {
        return '.';
    };
    let l = p.info.pieces[k as usize].letter();
    if c.color() == Some(Color::White) {
        l
    } else {
        l.to_ascii_lowercase()
    }
}

/// A square by name.
pub fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

/// The kinds of events, by name.
pub fn kinds(events: &[Event]) -> Vec<&'static str> {
    events.iter().map(|e| EventKind::name(e.kind)).collect()
}

/// Perft from a FEN, one thread.
pub fn perft_nodes(p: &Pipeline, fen: &str, depth: u32) -> u64 {
    perft_at(p, &pos(p, fen), depth)
}

/// Perft from a position, one thread.
pub fn perft_at(p: &Pipeline, position: &Position, depth: u32) -> u64 {
    perft(p, position, depth, 1, false).unwrap().nodes
}

/// Perft from a FEN (the gallery's name for [`perft_nodes`]).
pub fn perft_fen(p: &Pipeline, fen: &str, depth: u32) -> u64 {
    perft_nodes(p, fen, depth)
}

/// A sorted copy.
pub fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}
