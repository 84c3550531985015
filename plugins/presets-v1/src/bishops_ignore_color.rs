//! bishops-ignore-color — Colour-Blind Bishops.
//!
//! A model transform: every bishop-role piece gains `W` (one orthogonal step to an empty or
//! enemy square): Fairy-Stockfish's `BW`.

use crate::common::{add_movement, Bound};
use crate::Meta;
use houserules_plugin_api::{HookSet, PresetRules, Role, RulesModel};

pub(crate) const META: Meta = Meta {
    id: "bishops-ignore-color",
    name: "Colour-Blind Bishops",
    category: "Movement Modifier",
    mode: "additive",
    description: "A bishop may also step one square orthogonally to an empty or enemy \
                  square, and so change the colour of its diagonals.",
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
pub struct BishopsIgnoreColor {
    pub(crate) k: Bound,
}

impl PresetRules for BishopsIgnoreColor {
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        let _ = &self.k;
        add_movement(model, Role::BISHOP, "W");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;

    const ID: &str = "bishops-ignore-color";

    #[test]
    fn bishops_ignore_color_scenario_1() {
        let p = pipe(&[ID]);
        assert!(has(&p, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", "c1d1"));
    }

    #[test]
    fn bishops_ignore_color_scenario_2() {
        let p = pipe(&[ID]);
        assert!(!has(&p, "4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1", "c1b1"));
    }

    #[test]
    fn bishops_ignore_color_scenario_3() {
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/8/8/1p6/2B1K3 w - - 0 1");
        assert!(l.contains(&"c1b2".to_string()));
        assert!(l.contains(&"c1c2".to_string()));
        let (_, ev) = play(&p, "4k3/8/8/8/8/8/1p6/2B1K3 w - - 0 1", &["c1b2"]);
        assert_eq!(kinds(&ev), ["capture"]);
        // Orthogonal captures too.
        assert!(has(&p, "4k3/8/8/8/8/8/2p5/2B1K3 w - - 0 1", "c1c2"));
    }

    #[test]
    fn bishops_ignore_color_edge_1() {
        // Exactly one square: no c1→c3.
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
        assert!(!l.contains(&"c1c3".to_string()));
        assert!(l.contains(&"c1c2".to_string()));
    }

    #[test]
    fn bishops_ignore_color_edge_2() {
        // An orthogonal step is a bishop move: the fifty-move clock runs on unless it
        // captures.
        let p = pipe(&[ID]);
        let (after, _) = play(&p, "4k3/8/8/8/8/8/8/2B1K3 w - - 7 9", &["c1c2"]);
        assert_eq!(after.halfmove_clock, 8);
        let (after, _) = play(&p, "4k3/8/8/8/8/8/2p5/2B1K3 w - - 7 9", &["c1c2"]);
        assert_eq!(after.halfmove_clock, 0);
    }

    #[test]
    fn bishops_ignore_color_edge_3() {
        // After an orthogonal step the bishop stays on the new colour: its diagonals now run
        // from d1 (light) instead of c1 (dark).
        let p = pipe(&[ID]);
        let (after, _) = play(&p, "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", &["c1d1", "e8f8"]);
        let l = legal_at(&p, &after);
        assert!(
            l.contains(&"d1h5".to_string()) && l.contains(&"d1a4".to_string()),
            "{l:?}"
        );
        assert!(!l.contains(&"d1d3".to_string()));
    }
}
