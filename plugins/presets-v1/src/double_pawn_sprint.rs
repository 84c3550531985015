//! double-pawn-sprint — Perpetual Sprint.
//!
//! A model transform: every pawn-role piece gains `fmnD` — two squares straight forward from
//! any rank when both are empty. Like the home-rank double step it passes a square, so it may
//! be taken en passant on that square for one ply; a sprint that reaches the last rank
//! promotes (RULINGS).

use crate::common::{add_movement, Bound};
use crate::Meta;
use houserules_plugin_api::{HookSet, PresetRules, Role, RulesModel};

pub(crate) const META: Meta = Meta {
    id: "double-pawn-sprint",
    name: "Perpetual Sprint",
    category: "Movement Modifier",
    mode: "override",
    description: "A pawn may advance two squares from any rank when both squares are empty; \
                  the sprint may be taken en passant for one ply.",
    requires: &[],
    incompatible: &["pawns-move-backward"],
    hooks: HookSet::TRANSFORM_MODEL,
    stages: &[],
    priority: 0,
    movement: "",
    search: &[],
};
/// The preset.
#[derive(Default)]
pub struct DoublePawnSprint {
    pub(crate) k: Bound,
}

impl PresetRules for DoublePawnSprint {
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        let _ = &self.k;
        add_movement(model, Role::PAWN, "fmnD");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;

    const ID: &str = "double-pawn-sprint";

    #[test]
    fn double_pawn_sprint_scenario_1() {
        // White pawn on e4, e5 and e6 empty → e4→e6 is legal and sets en passant on e5
        // (here a black pawn on d6 could take, so the square is kept).
        let p = pipe(&[ID]);
        let f = "4k3/8/3p4/8/4P3/8/8/4K3 w - - 0 1";
        assert!(has(&p, f, "e4e6"));
        let (after, _) = play(&p, f, &["e4e6"]);
        assert_eq!(after.ep_passed, sq("e5"));
        assert_eq!(after.ep_victim, sq("e6"));
        // A sprint from the third rank: e3→e5, taken by d5xe4 e.p. (the preset resolves it:
        // the victim stands on e5, not where the chess variant's home-rank arithmetic looks).
        let (after, _) = play(&p, "4k3/8/8/3p4/8/4P3/8/4K3 w - - 0 1", &["e3e5"]);
        assert_eq!(after.ep_passed, sq("e4"));
        let (taken, ev) = play_from(&p, after, &["d5e4"]);
        assert_eq!(at(&p, &taken, "e5"), '.');
        assert_eq!(at(&p, &taken, "e4"), 'p');
        assert_eq!(ev[0].square, sq("e5"));
        assert_eq!(taken.halfmove_clock, 0);
        assert_eq!(fen(&p, &taken), "4k3/8/8/8/4p3/8/8/4K3 w - - 0 2");
    }

    #[test]
    fn double_pawn_sprint_scenario_2() {
        // Catalogue erratum (docs/hooks.md §12): after e4→e6 the pawns that take en passant
        // on e5 are black pawns on d6/f6 (…dxe5 e.p. removes e6); a pawn on d5 cannot.
        let p = pipe(&[ID]);
        let (after, _) = play(&p, "4k3/8/3p4/3p4/4P3/8/8/4K3 w - - 0 1", &["e4e6"]);
        let l = legal_at(&p, &after);
        assert!(l.contains(&"d6e5".to_string()), "{l:?}");
        assert!(!l.contains(&"d5e6".to_string()));
        assert!(!l.contains(&"d5e4".to_string()), "{l:?}");
        let (taken, ev) = play_from(&p, after, &["d6e5"]);
        assert_eq!(at(&p, &taken, "e6"), '.', "the sprinter is removed");
        assert_eq!(at(&p, &taken, "e5"), 'p');
        assert_eq!(kinds(&ev), ["capture"]);
        assert_eq!(ev[0].square, sq("e6"));
    }

    #[test]
    fn double_pawn_sprint_scenario_3() {
        // Pawn on e7: e7→e8 single push with promotion is legal; no two-square move off the
        // board.
        let p = pipe(&[ID]);
        let l = legal(&p, "k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
        assert!(l.contains(&"e7e8q".to_string()));
        assert_eq!(l.iter().filter(|m| m.starts_with("e7")).count(), 4);
    }

    #[test]
    fn double_pawn_sprint_edge_1() {
        // The en passant window is one ply.
        let p = pipe(&[ID]);
        let (after, _) = play(&p, "4k3/8/3p4/8/4P3/8/8/4K3 w - - 0 1", &["e4e6", "e8f8"]);
        assert!(after.ep_passed.is_none());
        let (after, _) = play_from(&p, after, &["e1f1"]);
        assert!(!legal_at(&p, &after).contains(&"d6e5".to_string()));
    }

    #[test]
    fn double_pawn_sprint_edge_2() {
        // A sprint may not jump over a piece: both squares must be empty.
        let p = pipe(&[ID]);
        assert!(!has(&p, "4k3/8/8/4n3/4P3/8/8/4K3 w - - 0 1", "e4e6"));
        assert!(!has(&p, "4k3/8/4n3/8/4P3/8/8/4K3 w - - 0 1", "e4e6"));
    }

    #[test]
    fn double_pawn_sprint_edge_3() {
        // Incompatible with pawns-move-backward: the host refuses the pair.
        let e = try_pipe(&[ID, "pawns-move-backward"])
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("double-pawn-sprint") && e.contains("pawns-move-backward"),
            "{e}"
        );
    }

    #[test]
    fn double_pawn_sprint_ruling_sprint_promotes() {
        // RULINGS: a sprint that reaches the last rank promotes.
        let p = pipe(&[ID]);
        let l = legal(&p, "k7/8/4P3/8/8/8/8/4K3 w - - 0 1");
        for q in ["e6e8q", "e6e8r", "e6e8b", "e6e8n"] {
            assert!(l.contains(&q.to_string()), "{l:?}");
        }
        // Black sprints downwards, and White takes en passant.
        let (after, _) = play(&p, "4k3/8/8/4p3/8/3P4/8/4K3 b - - 0 1", &["e5e3"]);
        assert_eq!(after.ep_passed, sq("e4"));
        let (taken, _) = play_from(&p, after, &["d3e4"]);
        assert_eq!(at(&p, &taken, "e3"), '.');
        assert_eq!(at(&p, &taken, "e4"), 'P');
    }
}
