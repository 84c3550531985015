//! knights-leap-twice — Double-Leap Knights.
//!
//! A model transform (API 1.2): every knight-role piece gains `mNaN` (a knight leap to an
//! empty square, then another knight leap; the start square is never a destination). Two paths
//! to one square are one move (`Nb1c4`, coordinate `b1c4`). Both legs follow the board's
//! topology (under wrap-board both wrap), and the double leaps give check like any move.

use crate::common::{add_movement, Bound};
use crate::Meta;
use houserules_plugin_api::{HookSet, PresetRules, Role, RulesModel};

pub(crate) const META: Meta = Meta {
    id: "knights-leap-twice",
    name: "Double-Leap Knights",
    category: "Movement Modifier",
    mode: "hybrid",
    description: "A knight may make two consecutive knight leaps in one move, the \
                  intermediate square empty; single leaps stay legal.",
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
pub struct KnightsLeapTwice {
    pub(crate) k: Bound,
}

impl PresetRules for KnightsLeapTwice {
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        let _ = &self.k;
        add_movement(model, Role::KNIGHT, "mNaN");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Color;

    const ID: &str = "knights-leap-twice";

    #[test]
    fn knights_leap_twice_scenario_1() {
        // Knight on b1, board empty → b1→a3→c4 lands on c4 (not a single-leap square).
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1");
        assert!(l.contains(&"b1c4".to_string()));
        assert_eq!(
            l.iter().filter(|m| *m == "b1c4").count(),
            1,
            "one move for two paths"
        );
        let plain = pipe(&[]);
        assert!(!has(&plain, "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "b1c4"));
        // Two-leap squares from b1: every square two leaps away but b1 itself.
        let n = l.iter().filter(|m| m.starts_with("b1")).count();
        assert_eq!(n, 3 + 12, "{l:?}");
    }

    #[test]
    fn knights_leap_twice_scenario_2() {
        // a3 holds a friendly pawn: the path via a3 is closed; b1→c3→a4 and b1→d2→c4 remain.
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/8/P7/8/1N2K3 w - - 0 1");
        assert!(l.contains(&"b1c4".to_string()), "c4 via d2");
        assert!(l.contains(&"b1a4".to_string()), "a4 via c3");
        // With a3, c3 and d2 all blocked, b5 and c4 are unreachable.
        let l = legal(&p, "4k3/8/8/8/8/P1P5/3P4/1N2K3 w - - 0 1");
        assert!(!l.contains(&"b1c4".to_string()), "{l:?}");
        assert!(!l.iter().any(|m| m.starts_with("b1")), "{l:?}");
    }

    #[test]
    fn knights_leap_twice_scenario_3() {
        // Enemy on c3: b1xc3 is legal; no second leap through c3.
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/8/P1n5/3P4/1N2K3 w - - 0 1");
        assert!(l.contains(&"b1c3".to_string()));
        assert!(
            !l.iter().any(|m| m.starts_with("b1") && m != "b1c3"),
            "{l:?}"
        );
    }

    #[test]
    fn knights_leap_twice_edge_1() {
        // The intermediate square is flown over, never captured: only the landing square's
        // occupant is taken.
        let p = pipe(&[ID]);
        let (after, ev) = play(&p, "4k3/8/8/8/2r5/8/8/1N2K3 w - - 0 1", &["b1c4"]);
        assert_eq!(at(&p, &after, "c4"), 'N');
        assert_eq!(kinds(&ev), ["capture"]);
        assert_eq!(ev[0].square, sq("c4"));
    }

    #[test]
    fn knights_leap_twice_edge_2() {
        // A double leap gives check from squares a single leap cannot: Nd3-e5 attacks h8
        // through f7 (or g6); the boxed king has no escape and nothing takes e5: mate.
        let p = pipe(&[ID]);
        let f = "6rk/6pp/8/8/8/3N4/8/6K1 w - - 0 1";
        let (after, _) = play(&p, f, &["d3e5"]);
        assert!(p.royal_attacked(&after, Color::Black).unwrap());
        let r = result_after(&p, f, &["d3e5"]);
        assert_eq!(r.map(|o| o.reason.to_string()), Some("checkmate".into()));
        // Without the preset the same move is no check.
        let plain = pipe(&[]);
        let (after, _) = play(&plain, f, &["d3e5"]);
        assert!(!plain.royal_attacked(&after, Color::Black).unwrap());
        // A king may not step onto a square only a double leap reaches: from e4, f2 (empty)
        // leads to h1 and h3, so the black king on h2 cannot go to h1 or h3.
        let l = legal(&p, "8/8/8/8/4N3/8/7k/K7 b - - 0 1");
        assert!(
            !l.contains(&"h2h1".to_string()) && !l.contains(&"h2h3".to_string()),
            "{l:?}"
        );
        assert!(l.contains(&"h2g1".to_string()), "{l:?}");
    }

    #[test]
    fn knights_leap_twice_edge_3() {
        // Never back to the start square, even through an empty intermediate square.
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
        assert!(!l.contains(&"d4d4".to_string()));
        assert!(l.iter().all(|m| &m[2..4] != "d4"));
    }
}
