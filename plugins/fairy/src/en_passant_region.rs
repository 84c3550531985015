//! Fairy-Stockfish's `enPassantRegion` (`enPassantRegionWhite/Black`): en passant rights are
//! recorded (after a double step) and read (from a FEN) only on the squares of the region of
//! the side that may take; `enPassantRegion = -` (`nuclear`) has none at all.
//!
//! Fairy-Stockfish records a custom piece's initial move as its passed and its landing square,
//! each kept if it lies in the region; this plugin keeps that right whole or not at all, so a
//! region that holds some squares but not the whole board is refused for such pieces.

use crate::engine::Kind;
use houserules_plugin_api::{Position, Square, SquareSet};

/// Checks the regions against the variant's pieces (see the module documentation).
pub fn check(
    region: &[Option<SquareSet>; 2],
    kinds: &[Kind],
    files: u8,
    ranks: u8,
) -> Result<(), String> {
    let board = || (0..ranks).flat_map(move |r| (0..files).map(move |f| Square::new(f, r)));
    let partial = region.iter().flatten().any(|r| {
        let inside = board().filter(|&sq| r.contains(sq)).count();
        inside > 0 && inside < board().count()
    });
    if partial && kinds.iter().any(|k| k.ep_victim && !k.pawn) {
        return Err(
            "a region of some squares with custom pieces' initial moves is not supported (their \
             en passant rights have two squares, which Fairy-Stockfish keeps one by one)"
                .into(),
        );
    }
    Ok(())
}

/// Drops an en passant right outside the region of the side to move (the side that may take).
pub fn restrict(pos: &mut Position, region: &[Option<SquareSet>; 2]) {
    if pos.ep_passed.is_none() {
        return;
    }
    if region[pos.side_to_move.index()].is_some_and(|r| !r.contains(pos.ep_passed)) {
        pos.ep_passed = Square::NONE;
        pos.ep_victim = Square::NONE;
    }
}
