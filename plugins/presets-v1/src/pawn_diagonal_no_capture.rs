//! pawn-diagonal-no-capture — Slanting Pawns.
//!
//! A model transform: every pawn-role piece gains `fmF` (one square diagonally forward to an
//! empty square, promoting on the last rank). A diagonal step onto the en passant square is
//! the en passant capture itself (RULINGS): the generator lists one move, which captures, so
//! where that capture is illegal (a pin) the step is too. The en passant right is therefore
//! recorded whenever a pawn could take, pins aside (FIDE keeps it only where the capture is
//! legal).

use crate::common::{add_movement, Bound};
use crate::Meta;
use houserules_plugin_api::{HookSet, PresetRules, Role, RulesModel};

pub(crate) const META: Meta = Meta {
    id: "pawn-diagonal-no-capture",
    name: "Slanting Pawns",
    category: "Movement Modifier",
    mode: "additive",
    description: "Pawns may also move one square diagonally forward to an empty square \
                  without capturing; diagonal captures are unchanged.",
    requires: &[],
    incompatible: &[],
    hooks: HookSet::TRANSFORM_MODEL,
    stages: &[],
    priority: 0,
    movement: "",
    search: &[],
};
/// The preset.
#[derive(Default)]
pub struct PawnDiagonalNoCapture {
    pub(crate) k: Bound,
}

impl PresetRules for PawnDiagonalNoCapture {
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        let _ = &self.k;
        add_movement(model, Role::PAWN, "fmF");
        // The right stands whenever a pawn could take (pins aside): the step onto the square
        // is that capture, and a pinned pawn may not make it.
        model.en_passant = houserules_plugin_api::model::ep_policy::PSEUDO;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;

    const ID: &str = "pawn-diagonal-no-capture";

    #[test]
    fn pawn_diagonal_no_capture_scenario_1() {
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1");
        assert!(l.contains(&"e4d5".to_string()) && l.contains(&"e4f5".to_string()));
        let (after, ev) = play(&p, "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", &["e4d5"]);
        assert_eq!(at(&p, &after, "d5"), 'P');
        assert!(ev.is_empty(), "a quiet move: {ev:?}");
    }

    #[test]
    fn pawn_diagonal_no_capture_scenario_2() {
        let p = pipe(&[ID]);
        let f = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
        let (after, ev) = play(&p, f, &["e4d5"]);
        assert_eq!(at(&p, &after, "d5"), 'P');
        assert_eq!(kinds(&ev), ["capture"]);
        assert_eq!(legal(&p, f).iter().filter(|m| *m == "e4d5").count(), 1);
    }

    #[test]
    fn pawn_diagonal_no_capture_scenario_3() {
        let p = pipe(&[ID]);
        assert!(!has(&p, "4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1", "e4d5"));
    }

    #[test]
    fn pawn_diagonal_no_capture_edge_1() {
        // A quiet diagonal move creates no en passant square.
        let p = pipe(&[ID]);
        let (after, _) = play(&p, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", &["e2d3"]);
        assert!(after.ep_passed.is_none());
    }

    #[test]
    fn pawn_diagonal_no_capture_edge_2() {
        // Diagonal quiet moves give check and promote.
        let p = pipe(&[ID]);
        let l = legal(&p, "8/4P3/8/8/8/8/8/k3K3 w - - 0 1");
        for m in ["e7d8q", "e7f8n", "e7d8r", "e7f8b"] {
            assert!(l.contains(&m.to_string()), "{l:?}");
        }
        let (after, _) = play(&p, "8/8/4k3/8/4P3/8/8/4K3 w - - 0 1", &["e4f5"]);
        assert!(p
            .royal_attacked(&after, houserules_plugin_api::Color::Black)
            .unwrap());
        // Mate by a quiet diagonal step: f6-g7 (g8 covered by the knight, h7 by the king).
        let r = result_after(&p, "7k/4N3/5P1K/8/8/8/8/8 w - - 0 1", &["f6g7"]);
        assert_eq!(r.map(|o| o.reason.to_string()), Some("checkmate".into()));
    }

    #[test]
    fn pawn_diagonal_no_capture_edge_3() {
        // En passant is unchanged: after e2-e4 a black pawn on d4 takes en passant; the
        // diagonal step onto e3 is that capture (one move, RULINGS).
        let p = pipe(&[ID]);
        let (after, _) = play(&p, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", &["e2e4"]);
        let l = legal_at(&p, &after);
        assert_eq!(l.iter().filter(|m| *m == "d4e3").count(), 1, "{l:?}");
        assert!(l.contains(&"d4c3".to_string()), "quiet slant still there");
        let (taken, ev) = play_from(&p, after, &["d4e3"]);
        assert_eq!(at(&p, &taken, "e4"), '.');
        assert_eq!(kinds(&ev), ["capture"]);
        // Where the en passant capture is illegal (pin), the step is too.
        let (after, _) = play(&p, "8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1", &["e2e4"]);
        let l = legal_at(&p, &after);
        assert!(!l.contains(&"d4e3".to_string()), "{l:?}");
    }
}
