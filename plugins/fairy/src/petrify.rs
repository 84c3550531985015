//! Fairy-Stockfish's `petrifyOnCaptureTypes`: a piece of these types that captures turns to
//! stone on the square it took: it leaves the board (to the opponent's hand with captures to
//! hand) and a wall (`*`) stands there for the rest of the game, which nothing enters, slides
//! through or captures (leapers jump it). With `blastOnCapture` (`nuclear`) the capturer
//! explodes with its neighbours and becomes a wall if it was blown up itself (an immune
//! capturer stays a piece).
//!
//! The walls are a piece kind of their own, as those of the walling rules (`crate::walling`,
//! [`WALL_TY`](crate::walling::WALL_TY)): they appear during the game, so they cannot be holes of the compiled board.
//! Fairy-Stockfish's legality test of a move that explodes (pseudo-royal pieces) sees the
//! capture square empty, not walled: a line through it counts as open (see
//! `Fairy::pseudo_royals_safe`).
//!
//! Petrifying types that are pseudo-royal (`petrified`'s kings): as in Fairy-Stockfish's
//! `legal()`, a pseudo-royal piece of such a type may not capture, and the opponent's pieces
//! of such types do not count as attackers when a move's safety is judged (they are counted
//! for check and mate, and on the castling king's path, as there). Not supported:
//! `petrifyBlastPieces`.

use crate::engine::Kind;
use crate::spec::Spec;
use houserules_plugin_api::{Cell, Color, PieceType, Position, Square};

/// Whether pieces of type `ty` turn to stone and are of an extinction (pseudo-royal) type:
/// their captures and attacks do not count for the safety of pseudo-royal pieces.
pub fn petrifying_royal(spec: &Spec, ty: u16) -> bool {
    spec.extinction_pseudo_royal
        && spec.petrify_on_capture_types.contains(&ty)
        && spec.is_extinction_type(ty)
}

/// The stone kind of a petrifying variant: the walling rule's wall kind if there is one, else
/// a new kind (`None` without `petrifyOnCaptureTypes`).
pub fn stone_kind(
    spec: &Spec,
    kinds: &mut Vec<Kind>,
    pieces: &mut Vec<PieceType>,
    wall: Option<u8>,
) -> Result<Option<u8>, String> {
    if spec.petrify_on_capture_types.is_empty() {
        return Ok(None);
    }
    if let Some(w) = wall {
        return Ok(Some(w));
    }
    crate::walling::push_wall_kind(kinds, pieces).map(Some)
}

/// The stone on `sq`, as the board holds it.
pub fn stone(kind: u8) -> Cell {
    Cell::piece(kind, Color::White)
}

/// Turns the capturer on `to` to stone: it goes to the opponent's hand as `hand_kind` (with
/// captures to hand) and a wall of `kind` takes its square.
pub fn petrify(pos: &mut Position, to: Square, kind: u8, hand_kind: Option<u8>) {
    if let (Some(h), Some(c)) = (hand_kind, pos.get(to).color()) {
        pos.hands[c.opposite().index()][h as usize] += 1;
    }
    pos.clear(to);
    pos.set(to, stone(kind));
}

/// Turns the holes (`*`) of a FEN into stones.
pub fn holes_to_stones(pos: &mut Position, kind: u8, files: u8, ranks: u8) {
    for r in 0..ranks {
        for f in 0..files {
            let s = Square::new(f, r);
            if pos.get(s).is_hole() {
                pos.set(s, stone(kind));
            }
        }
    }
}
