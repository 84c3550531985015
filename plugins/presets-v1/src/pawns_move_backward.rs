//! pawns-move-backward — Backward-Marching Pawns.
//!
//! A model transform: every pawn-role piece gains `mbW` (one step straight back to an empty
//! square, onto any rank including the first; never a capture, never an en passant square),
//! and initial moves need an unmoved piece: the generator marks a pawn that comes back to its
//! home rank with the `Moved` attribute (kept only there, written in the FEN extension
//! `{Moved:e2=1}`), and such a pawn never double-steps again.

use crate::common::{add_movement, Bound};
use crate::Meta;
use houserules_plugin_api::{HookSet, PresetRules, Role, RulesModel};

pub(crate) const META: Meta = Meta {
    id: "pawns-move-backward",
    name: "Backward-Marching Pawns",
    category: "Movement Modifier",
    mode: "additive",
    description: "Pawns may also move one square straight backward to an empty square (no \
                  capture, no en passant). A pawn that has moved never double-steps again.",
    requires: &[],
    incompatible: &["double-pawn-sprint"],
    hooks: HookSet::TRANSFORM_MODEL,
    stages: &[],
    priority: 0,
    movement: "",
    search: &[],
};
/// The preset.
#[derive(Default)]
pub struct PawnsMoveBackward {
    pub(crate) k: Bound,
}

impl PresetRules for PawnsMoveBackward {
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        let _ = &self.k;
        add_movement(model, Role::PAWN, "mbW");
        model.initial_needs_unmoved = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::attr;

    const ID: &str = "pawns-move-backward";

    #[test]
    fn pawns_move_backward_scenario_1() {
        // White pawn on e4, e3 empty → e4→e3 is legal.
        let p = pipe(&[ID]);
        assert!(has(&p, "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", "e4e3"));
    }

    #[test]
    fn pawns_move_backward_scenario_2() {
        // Enemy piece on d3 → e4→d3 is not legal (no backward captures, straight only).
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/4P3/3p4/8/4K3 w - - 0 1");
        assert!(!l.contains(&"e4d3".to_string()), "{l:?}");
        assert!(l.contains(&"e4e3".to_string()));
    }

    #[test]
    fn pawns_move_backward_scenario_3() {
        // White piece on e3 → e4→e3 is not legal.
        let p = pipe(&[ID]);
        assert!(!has(&p, "4k3/8/8/8/4P3/4N3/8/4K3 w - - 0 1", "e4e3"));
        // An enemy piece there does not help either (no capture backward).
        assert!(!has(&p, "4k3/8/8/8/4P3/4n3/8/4K3 w - - 0 1", "e4e3"));
    }

    #[test]
    fn pawns_move_backward_edge_1() {
        // A backward move creates no en passant square, even next to an enemy pawn.
        let p = pipe(&[ID]);
        let (after, _) = play(&p, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", &["e2e4"]);
        let (after, _) = play_from(&p, after, &["e8d8"]);
        let (after, _) = play_from(&p, after, &["e4e3"]);
        assert!(after.ep_passed.is_none());
        let (after, _) = play(&p, "4k3/8/8/8/8/3p4/8/4K3 b - - 0 1", &["d3d4"]);
        assert!(
            after.ep_passed.is_none(),
            "backward steps never set en passant"
        );
    }

    #[test]
    fn pawns_move_backward_edge_2() {
        // A pawn that went back to its home rank may not double-step again (tracked per piece
        // by the Moved attribute, written in the FEN extension).
        let p = pipe(&[ID]);
        let (after, _) = play(
            &p,
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            &["e2e3", "e8d8", "e3e2", "d8e8"],
        );
        assert_eq!(after.attribute(sq("e2"), attr::MOVED), Some(1));
        let f = fen(&p, &after);
        assert!(f.ends_with("{Moved:e2=1}"), "{f}");
        let l = legal_at(&p, &after);
        assert!(l.contains(&"e2e3".to_string()));
        assert!(!l.contains(&"e2e4".to_string()), "{l:?}");
        // The FEN round-trips the right.
        assert!(!has(&p, &f, "e2e4"));
        // An unmoved pawn keeps its double step.
        assert!(has(&p, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4"));
        // Moving off the home rank drops the mark (a pawn elsewhere cannot double-step).
        let (after, _) = play_from(&p, after, &["e2e3"]);
        assert_eq!(after.attribute(sq("e3"), attr::MOVED), None);
    }

    #[test]
    fn pawns_move_backward_edge_3() {
        // Backward moves are pawn moves: they reset the fifty-move clock.
        let p = pipe(&[ID]);
        let (after, _) = play(&p, "4k3/8/8/8/4P3/8/8/4K3 w - - 37 60", &["e4e3"]);
        assert_eq!(after.halfmove_clock, 0);
    }

    #[test]
    fn pawns_move_backward_ruling_first_rank_and_promotion() {
        // RULINGS: onto any rank including the first; a pawn that moved back still promotes.
        let p = pipe(&[ID]);
        assert!(has(&p, "4k3/8/8/8/8/8/4P3/K7 w - - 0 1", "e2e1"));
        let (after, _) = play(
            &p,
            "8/4P3/8/8/8/8/8/K6k w - - 0 1",
            &["e7e6", "h1h2", "e6e7", "h2h1"],
        );
        assert!(legal_at(&p, &after).contains(&"e7e8q".to_string()));
    }
}
