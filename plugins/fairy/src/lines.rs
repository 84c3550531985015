//! Fairy-Stockfish's `diagonalLines` (janggi's palace): on these squares some piece types
//! also move diagonally, from a square of the set to a square of the set. Which ones, as
//! Fairy-Stockfish's `moves_from` and `attacks_from` have them: the wazir (and a king of the
//! wazir type, `kingType = wazir`) one diagonal step, the soldier one diagonal step forward,
//! the rook a diagonal slide, the janggi cannon a diagonal hop. A slide or hop is blocked as
//! anywhere else; only its destinations are kept to the set. The moves become data of the
//! shared generator ([`houserules_movegen::PieceRules::line_moves`]), which also tests
//! attacks along them, so checks, pins and legality follow.

use crate::engine::Kind;
use crate::spec::{self, Spec};
use houserules_movegen::{betza, Movement};
use houserules_plugin_api::SquareSet;

/// The Betza of the moves a piece type has along the lines, if any.
fn line_betza(ty: u16, spec: &Spec) -> Option<&'static str> {
    match ty {
        spec::WAZIR => Some("F"),
        spec::KING if spec.king_type_wazir => Some("F"),
        spec::SOLDIER => Some("fF"),
        spec::ROOK => Some("B"),
        spec::JANGGI_CANNON => Some("pB"),
        _ => None,
    }
}

/// Per kind, its moves along the lines and the lines (`None`: no such moves).
pub fn line_moves(spec: &Spec, kinds: &[Kind]) -> Vec<Option<(Movement, SquareSet)>> {
    kinds
        .iter()
        .map(|k| {
            if spec.diagonal_lines.is_empty() {
                return None;
            }
            let b = line_betza(k.ty, spec)?;
            let m = betza::parse(b, betza::Dialect::Houserules).ok()?;
            Some((m, spec.diagonal_lines))
        })
        .collect()
}
