//! wrap-board — Cylindrical Board.
//!
//! A model transform: the board's topology wraps the files (`Topology::wrap_files`). Files
//! wrap for every piece whoever defines it — slides, steps, leaps, pawn captures, en passant,
//! the moves other presets add (both legs of a double leap) — ranks do not; a slide stops
//! before returning to its own square; castling is unchanged (RULINGS).

use crate::common::Bound;
use crate::Meta;
use houserules_plugin_api::{HookSet, PresetRules, RulesModel};

pub(crate) const META: Meta = Meta {
    id: "wrap-board",
    name: "Cylindrical Board",
    category: "Board Geometry",
    mode: "override",
    description: "The board is a vertical cylinder: the a- and h-files are adjacent for \
                  every piece's moves and captures (ranks do not wrap; castling unchanged).",
    requires: &[],
    incompatible: &["rook-warp"],
    hooks: HookSet::TRANSFORM_MODEL,
    stages: &[],
    priority: 0,
    movement: "",
    search: &[],
};
/// The preset.
#[derive(Default)]
pub struct WrapBoard {
    pub(crate) k: Bound,
}

impl PresetRules for WrapBoard {
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        let _ = &self.k;
        model.topology.wrap_files = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Color;

    const ID: &str = "wrap-board";

    #[test]
    fn wrap_board_scenario_1() {
        // Rook a4 on an empty board: a4→h4 westward through the seam; b4, c4 … normally.
        let p = pipe(&[ID]);
        let f = "4k3/8/8/8/R7/8/8/4K3 w - - 0 1";
        let l = legal(&p, f);
        for m in ["a4h4", "a4b4", "a4c4", "a4g4"] {
            assert_eq!(l.iter().filter(|x| *x == m).count(), 1, "{m} {l:?}");
        }
        // With b4 blocked, h4..c4 are still reached westward through the seam.
        let l = legal(&p, "4k3/8/8/8/RN6/8/8/4K3 w - - 0 1");
        assert!(l.contains(&"a4h4".to_string()) && l.contains(&"a4c4".to_string()));
        assert!(!l.contains(&"a4a4".to_string()));
    }

    #[test]
    fn wrap_board_scenario_2() {
        // Bishop a1: a1→h2 (one diagonal step westward wraps).
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/8/8/8/B3K3 w - - 0 1");
        assert!(
            l.contains(&"a1h2".to_string()) && l.contains(&"a1g3".to_string()),
            "{l:?}"
        );
    }

    #[test]
    fn wrap_board_scenario_3() {
        // Pawn captures wrap: h5×a6 is legal only if an enemy stands on a6.
        let p = pipe(&[ID]);
        assert!(!has(&p, "4k3/8/N7/7p/8/8/8/4K3 b - - 0 1", "h5a4"));
        // Black pawn on h5 captures toward rank 4: h5×a4 when a white piece is on a4.
        assert!(has(&p, "4k3/8/8/7p/N7/8/8/4K3 b - - 0 1", "h5a4"));
        assert!(!has(&p, "4k3/8/8/7p/8/8/8/4K3 b - - 0 1", "h5a4"));
        // The catalogue's direction (White capturing upward): a white pawn on h5 takes a6.
        assert!(has(&p, "4k3/8/n7/7P/8/8/8/4K3 w - - 0 1", "h5a6"));
        assert!(!has(&p, "4k3/8/8/7P/8/8/8/4K3 w - - 0 1", "h5a6"));
    }

    #[test]
    fn wrap_board_edge_1() {
        // Castling does not wrap: with the king on e1 castling is only to g1/c1 as usual.
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert!(
            l.contains(&"e1g1".to_string()) && l.contains(&"e1c1".to_string()),
            "{l:?}"
        );
        // A king on a1 steps to h1/h2 across the seam.
        let l = legal(&p, "4k3/8/8/8/8/8/8/K7 w - - 0 1");
        assert!(l.contains(&"a1h1".to_string()) && l.contains(&"a1h2".to_string()));
    }

    #[test]
    fn wrap_board_edge_2() {
        // Check across the seam: a rook on a4 attacks h4.
        let p = pipe(&[ID]);
        let f = "8/8/8/8/Rp5k/8/8/4K3 b - - 0 1";
        assert!(p.royal_attacked(&pos(&p, f), Color::Black).unwrap());
        let l = legal(&p, f);
        assert!(
            !l.contains(&"h4g4".to_string()),
            "still on the rook's wrapped line: {l:?}"
        );
        // Castling through a square attacked across the seam is illegal.
        let l = legal(&p, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert!(l.contains(&"e1g1".to_string()));
        // A black bishop on c6 sees f1 through the seam (b5, a4, h3, g2, f1).
        let f = "4k3/8/2b5/8/8/8/8/4K2R w K - 0 1";
        assert!(!has(&p, f, "e1g1"));
        assert!(has(&pipe(&[]), f, "e1g1"));
    }

    #[test]
    fn wrap_board_edge_3() {
        // En passant across the seam: Black h7–h5 next to a white pawn on a5 → a5×h6 e.p.
        let p = pipe(&[ID]);
        let (after, _) = play(&p, "4k3/7p/8/P7/8/8/8/4K3 b - - 0 1", &["h7h5"]);
        assert_eq!(after.ep_passed, sq("h6"));
        let l = legal_at(&p, &after);
        assert!(l.contains(&"a5h6".to_string()), "{l:?}");
        let (taken, ev) = play_from(&p, after, &["a5h6"]);
        assert_eq!(at(&p, &taken, "h5"), '.');
        assert_eq!(at(&p, &taken, "h6"), 'P');
        assert_eq!(kinds(&ev), ["capture"]);
    }
}
