//! proletariat — Every piece moves like a pawn (ThressGame `proletariat`).
//!
//! RULINGS: every piece except the king moves and captures as a pawn of its colour: one step
//! forward to an empty square, one step diagonally forward to capture; the double step and en
//! passant stay with real pawns; only real pawns promote; a non-pawn on the last rank has no
//! forward move. As a transform: every piece that is neither king nor pawn moves as `fmWfcF`.

use crate::Meta;
use houserules_plugin_api::abi_stable::std_types::ROption;
use houserules_plugin_api::{PresetRules, Role, RulesModel};

pub(crate) const META: Meta = Meta {
    id: "proletariat",
    name: "Proletariat",
    description: "Every piece but the king moves and captures like a pawn (one step forward, \
                  diagonal captures); double steps, en passant and promotion stay with the real \
                  pawns.",
    incompatible: &[],
    options: crate::no_options,
};

/// The preset.
pub struct Proletariat;

impl PresetRules for Proletariat {
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        for p in model
            .pieces
            .iter_mut()
            .filter(|p| p.role != Role::KING && p.role != Role::PAWN)
        {
            p.betza = "fmWfcF".into();
            p.betza_black = ROption::RNone;
            p.bounce = false;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;

    #[test]
    fn proletariat_pieces_move_like_pawns() {
        let p = pipe(&["proletariat"]);
        // From the start: 8 pawns x 2 and the back-rank pieces blocked by pawns: 16 moves.
        assert_eq!(perft_fen(&p, START, 1), 16);
        let d = destinations(&p, "4k3/8/8/2p5/3Q4/8/8/4K3 w - - 0 1", "d4");
        assert_eq!(d, ["c5", "d5"], "one step forward, a diagonal capture");
        // No double step, no promotion for a non-pawn.
        assert_eq!(
            destinations(&p, "4k3/8/8/8/8/8/3N4/4K3 w - - 0 1", "d2"),
            ["d3"]
        );
        assert!(destinations(&p, "3Rk3/8/8/8/8/8/8/4K3 w - - 0 1", "d8").is_empty());
        // Real pawns keep theirs.
        assert!(has(&p, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4"));
        assert!(has(&p, "k7/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q"));
        // Black pieces go down the board.
        assert_eq!(
            destinations(&p, "4k3/8/8/3q4/8/8/8/4K3 b - - 0 1", "d5"),
            ["d4"]
        );
    }

    #[test]
    fn proletariat_checks_are_pawn_checks() {
        let p = pipe(&["proletariat"]);
        // A queen diagonally in front of the king gives check; one straight ahead does not.
        let f = "8/8/8/4k3/3Q4/8/8/4K3 b - - 0 1";
        assert!(p
            .royal_attacked(&pos(&p, f), houserules_plugin_api::Color::Black)
            .unwrap());
        let g = "8/8/8/3k4/3Q4/8/8/4K3 b - - 0 1";
        assert!(!p
            .royal_attacked(&pos(&p, g), houserules_plugin_api::Color::Black)
            .unwrap());
    }
}
