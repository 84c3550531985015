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

/// A Fairy-Stockfish fixture of a preset pack: `<pack_dir>/tests/data/fsf-<section>.json`, as
/// `tools/fsf-gallery/generate.py` writes it.
fn load_fsf_fixture(pack_dir: &str, section: &str) -> serde_json::Value {
    let path = format!("{pack_dir}/tests/data/fsf-{section}.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The result by the rules (results that take the moves away, as perft sees them), from
/// White's point of view.
fn fixture_result(p: &Pipeline, position: &Position) -> Option<String> {
    let has_moves = !legal_at(p, position).is_empty();
    p.outcome(position, has_moves, true)
        .unwrap()
        .map(|o| o.winner.pgn().to_string())
}

/// Replays every game of the Fairy-Stockfish fixture `section` of a preset pack (`pack_dir`:
/// the pack's `env!("CARGO_MANIFEST_DIR")`; the file is `tests/data/fsf-<section>.json`, as
/// `tools/fsf-gallery/generate.py` writes it) through `p`: at every ply the legal moves
/// (coordinate form, as FSF writes them) and the result must agree, and the FEN
/// Fairy-Stockfish wrote (two-square en passant fields included) must read into a position
/// with the same legal moves and the same board, side and castling fields. Returns
/// (positions compared, decided games); panics at the first difference, naming the section,
/// game, ply and both FENs.
pub fn check_fsf_fixture(p: &Pipeline, pack_dir: &str, section: &str) -> (usize, usize) {
    let data = load_fsf_fixture(pack_dir, section);
    let joined = |v: Vec<String>| sorted(v).join(" ");
    let fields = |s: &str| s.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
    let mut positions = 0;
    let mut decided = 0;
    let games = data["games"].as_array().expect("a fixture's games");
    for (g, game) in games.iter().enumerate() {
        let mut position = pos(p, game["start"].as_str().expect("a start FEN"));
        let moves: Vec<&str> = game["moves"]
            .as_str()
            .expect("the moves")
            .split_whitespace()
            .collect();
        let plies = game["plies"].as_array().expect("the plies");
        for (i, ply) in plies.iter().enumerate() {
            let fsf_fen = ply["fen"].as_str().expect("a ply's FEN");
            let want_result = ply["result"].as_str().map(str::to_string);
            let ctx = || {
                format!(
                    "{section} game {g} ply {i}: {fsf_fen} (ours {})",
                    fen(p, &position)
                )
            };
            assert_eq!(
                fixture_result(p, &position),
                want_result,
                "result, {}",
                ctx()
            );
            if want_result.is_some() {
                decided += 1;
            } else {
                let want = ply["legal"].as_str().expect("the legal moves");
                assert_eq!(
                    joined(legal_at(p, &position)),
                    want,
                    "legal moves, {}",
                    ctx()
                );
                // The FEN Fairy-Stockfish wrote reads into the same position.
                let read = pos(p, fsf_fen);
                assert_eq!(
                    joined(legal_at(p, &read)),
                    want,
                    "legal moves of the FSF FEN, {}",
                    ctx()
                );
                assert_eq!(
                    fields(&fen(p, &position)),
                    fields(fsf_fen),
                    "board, side, castling, {}",
                    ctx()
                );
            }
            positions += 1;
            if let Some(mv) = moves.get(i) {
                let m = find(p, &position, mv);
                let mut fx = MoveEffects::new(position.side_to_move, false);
                p.apply(&mut position, m, &mut fx).unwrap();
            }
        }
    }
    (positions, decided)
}
