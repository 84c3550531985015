//! bishops-ignore-color — Colour-Blind Bishops.
//!
//! A bishop may also make a single orthogonal step (N, E, S, W) to an empty or enemy
//! square: a Fairy-Stockfish `BW`.

use crate::common::Bound;
use crate::Meta;
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    geometry, Color, Decision, HookSet, Move, Position, PresetRules, Role, Square,
    MOVEMENT_ADDITIVE,
};

pub(crate) const META: Meta = Meta {
    id: "bishops-ignore-color",
    name: "Colour-Blind Bishops",
    category: "Movement Modifier",
    mode: "additive",
    description: "A bishop may also step one square orthogonally to an empty or enemy \
                  square, and so change the colour of its diagonals.",
    requires: &[],
    incompatible: &[],
    hooks: HookSet(HookSet::GET_EXTRA_MOVES.0 | HookSet::IS_ATTACKED.0),
    stages: &[],
    priority: 0,
    movement: MOVEMENT_ADDITIVE,
};

/// The preset.
#[derive(Default)]
pub struct BishopsIgnoreColor {
    pub(crate) k: Bound,
}

impl PresetRules for BishopsIgnoreColor {
    fn get_extra_moves(&self, pos: &Position, color: Color, out: &mut RVec<Move>) {
        let k = self.k.get();
        for (from, kind) in pos.pieces_of(color) {
            if k.kind_role(kind) == Role::BISHOP {
                for d in geometry::ORTHOGONAL {
                    geometry::leap(pos, from, d, color, out);
                }
            }
        }
    }

    /// The captures of the added steps: a bishop of `by` orthogonally next to `sq`.
    fn is_attacked(&self, pos: &Position, sq: Square, by: Color) -> Decision {
        let k = self.k.get();
        let hit = geometry::ORTHOGONAL.iter().any(|&(df, dr)| {
            pos.offset(sq, df, dr).is_some_and(|s| {
                let c = pos.get(s);
                c.is_color(by)
                    && c.kind()
                        .is_some_and(|kind| k.kind_role(kind) == Role::BISHOP)
            })
        });
        if hit {
            Decision::YES
        } else {
            Decision::DEFER
        }
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
