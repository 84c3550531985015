//! short-stop — Pieces move at most one square (ThressGame `short_stop`).
//!
//! RULINGS: every slide is one step; pawns lose the double step; castling is not allowed;
//! leaps (knights) are unchanged. As a transform: the model's slide limit becomes 1 (rooks
//! move as wazirs, bishops as ferzes, queens as kings; any rider of a fairy variant too), no
//! piece keeps its initial moves (the double step), and castling goes. Incompatible with
//! double-pawn-sprint, whose sprint is the double step this rule removes.

use crate::Meta;
use houserules_plugin_api::abi_stable::std_types::ROption;
use houserules_plugin_api::{PresetRules, RulesModel, SquareSet};

pub(crate) const META: Meta = Meta {
    id: "short-stop",
    name: "Short Stop",
    description: "Every slide is one step (rooks as wazirs, bishops as ferzes, queens as \
                  kings); pawns lose the double step; no castling; leaps are unchanged.",
    incompatible: &["double-pawn-sprint"],
    options: crate::no_options,
    evaluates: false,
};

/// The preset.
pub struct ShortStop;

impl PresetRules for ShortStop {
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        model.slide_limit = 1;
        model.castling = ROption::RNone;
        for p in model.pieces.iter_mut() {
            p.initial_region = [SquareSet::EMPTY; 2];
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;

    #[test]
    fn short_stop_slides_are_one_step() {
        let p = pipe(&["short-stop"]);
        assert_eq!(
            destinations(&p, "4k3/8/8/8/3R4/8/8/4K3 w - - 0 1", "d4"),
            ["c4", "d3", "d5", "e4"]
        );
        assert_eq!(
            destinations(&p, "4k3/8/8/8/3B4/8/8/4K3 w - - 0 1", "d4"),
            ["c3", "c5", "e3", "e5"]
        );
        assert_eq!(
            destinations(&p, "4k3/8/8/8/3Q4/8/8/4K3 w - - 0 1", "d4").len(),
            8
        );
        // Knights are unchanged.
        assert_eq!(
            destinations(&p, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1", "d4").len(),
            8
        );
        // No double step, no castling: 8 pawn moves and 4 knight moves from the start.
        assert_eq!(perft_fen(&p, START, 1), 12);
        assert!(!has(&p, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"));
    }

    #[test]
    fn short_stop_checks_reach_one_square() {
        let p = pipe(&["short-stop"]);
        // A rook two squares away does not attack; the king may step next to the line.
        assert!(!p
            .royal_attacked(
                &pos(&p, "4k3/8/4R3/8/8/8/8/4K3 b - - 0 1"),
                houserules_plugin_api::Color::Black
            )
            .unwrap());
        assert!(try_pipe(&["short-stop", "double-pawn-sprint"]).is_err());
        // Combines with wrap-board: a one-step slide across the seam.
        let p = pipe(&["short-stop", "wrap-board"]);
        assert!(has(&p, "4k3/8/8/8/R7/8/8/4K3 w - - 0 1", "a4h4"));
        assert!(!has(&p, "4k3/8/8/8/R7/8/8/4K3 w - - 0 1", "a4g4"));
    }
}
