//! rook-warp — Rook Warp.
//!
//! A model transform: every rook-role piece gains `wR` (houserules Betza: warp). Geometry of
//! RULINGS.md: a warp exists in a direction only when every square from the rook to the board
//! edge in that direction is empty (vacuously true for a rook on that edge); it lands on the
//! first square at the opposite end of the same line (d4 north → d1), if that square is empty
//! or holds an enemy (capture). Where it equals a normal destination there is one move.

use crate::common::{add_movement, Bound};
use crate::Meta;
use houserules_plugin_api::{HookSet, PresetRules, Role, RulesModel};

pub(crate) const META: Meta = Meta {
    id: "rook-warp",
    name: "Rook Warp",
    category: "Board Geometry",
    mode: "hybrid",
    description: "A rook whose path to the board edge is empty may warp to the first square \
                  at the opposite end of the same rank or file (empty or enemy).",
    requires: &[],
    incompatible: &["wrap-board"],
    hooks: HookSet::TRANSFORM_MODEL,
    stages: &[],
    priority: 0,
    movement: "",
    search: &[],
};
/// The preset.
#[derive(Default)]
pub struct RookWarp {
    pub(crate) k: Bound,
}

impl PresetRules for RookWarp {
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        let _ = &self.k;
        add_movement(model, Role::ROOK, "wR");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;

    const ID: &str = "rook-warp";

    #[test]
    fn rook_warp_scenario_1() {
        // Rook a1, rank 1 empty: a1→h1 is the normal slide; the warp west lands on h1 too
        // and is not listed twice.
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/8/8/P7/R6K w - - 0 1");
        assert_eq!(l.iter().filter(|m| *m == "a1g1").count(), 1);
        let l = legal(&p, "7k/8/8/8/8/8/P6K/R7 w - - 0 1");
        assert_eq!(l.iter().filter(|m| *m == "a1h1").count(), 1, "{l:?}");
    }

    #[test]
    fn rook_warp_scenario_2() {
        // Void by RULINGS (the catalogue's a4⇒h4 contradicts the warp geometry). What the
        // ruling gives instead: rook a4 with a5..a8 empty warps north to a1 (if a1 is empty
        // or an enemy), and west (a4 is on the edge) to h4 — here a capture.
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/R6r/8/8/4K3 w - - 0 1");
        assert!(l.contains(&"a4h4".to_string()), "{l:?}");
        assert!(l.contains(&"a4a1".to_string()));
    }

    #[test]
    fn rook_warp_scenario_3() {
        // Rook d4, d5..d8 empty, friendly piece on d1: the warp north (landing on d1) is
        // blocked; per RULINGS there is no "last empty square before it" — no warp at all.
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/3R4/8/8/3NK3 w - - 0 1");
        let d4: Vec<_> = l.iter().filter(|m| m.starts_with("d4")).cloned().collect();
        assert!(!d4.contains(&"d4d1".to_string()));
        assert!(d4.contains(&"d4d2".to_string()), "the normal slide");
        // The east and west warps land on a4 and h4, which the normal slides reach already:
        // the move list equals plain chess.
        let plain = pipe(&[]);
        let pl = legal(&plain, "4k3/8/8/8/3R4/8/8/3NK3 w - - 0 1");
        assert_eq!(
            sorted(l),
            sorted(pl),
            "all warps from d4 equal normal moves or are blocked"
        );
    }

    #[test]
    fn rook_warp_scenario_4() {
        // Enemy on d8, friendly on d1: the slide captures d8; no warp north (the path to the
        // edge is not empty), none south either (d1 is the edge square and friendly? the
        // path d3..d1 is not empty).
        let p = pipe(&[ID]);
        let l = legal(&p, "3rk3/8/8/8/3R4/8/8/3NK3 w - - 0 1");
        assert!(l.contains(&"d4d8".to_string()));
        let plain = pipe(&[]);
        assert_eq!(
            sorted(l),
            sorted(legal(&plain, "3rk3/8/8/8/3R4/8/8/3NK3 w - - 0 1"))
        );
    }

    #[test]
    fn rook_warp_edge_1() {
        // Castling unchanged; a rook that warped has lost its castling right.
        let p = pipe(&[ID]);
        let f = "r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1";
        assert!(has(&p, f, "e1c1"));
        // a1 is on the south edge: it warps south to a8 and captures the rook there
        // (RULINGS: "Ra1xa8 is legal"); the path north a2..a7 is empty, so also a1 north? no:
        // north needs a2..a8 empty and a8 holds the rook.
        let (after, ev) = play(&p, f, &["a1a8"]);
        assert_eq!(kinds(&ev), ["capture"]);
        assert!(
            after.castling.iter().all(|c| c.is_none()),
            "{:?}",
            after.castling
        );
    }

    #[test]
    fn rook_warp_edge_2() {
        // The warp never passes friendly or enemy pieces: any piece between the rook and the
        // edge in that direction cancels the warp; the landing square may hold an enemy
        // (capture) but not a friend (the own king: no warp onto it).
        let p = pipe(&[ID]);
        // d4 east: e4..h4 empty → lands a4 (empty) — legal; with a pawn on g4, no warp.
        assert!(has(&p, "4k3/8/8/8/3R4/8/8/4K3 w - - 0 1", "d4a4"));
        let l = legal(&p, "4k3/8/8/8/3R2p1/8/8/4K3 w - - 0 1");
        // a4 is still a normal slide destination west; make the west side blocked to see it.
        let l2 = legal(&p, "4k3/8/8/8/1p1R2p1/8/8/4K3 w - - 0 1");
        assert!(!l2.contains(&"d4a4".to_string()), "{l2:?}");
        assert!(l.contains(&"d4a4".to_string()));
        // Own king on the landing square: rook e4, e5..e8 empty, king e1 → no e4→e1 warp.
        let l = legal(&p, "k7/8/8/8/4R3/8/8/4K3 w - - 0 1");
        assert!(!l.contains(&"e4e1".to_string()));
    }

    #[test]
    fn rook_warp_edge_3() {
        // Incompatible with wrap-board.
        assert!(try_pipe(&[ID, "wrap-board"]).is_err());
        assert!(try_pipe(&["wrap-board", ID]).is_err());
    }

    #[test]
    fn rook_warp_ruling_start_position() {
        // RULINGS: from the start position Ra1xa8 (and Rh1xh8) are legal.
        let p = pipe(&[ID]);
        let f = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let l = legal(&p, f);
        assert!(l.contains(&"a1a8".to_string()) && l.contains(&"h1h8".to_string()));
        assert_eq!(l.len(), 22);
        // A warp attack is check: the rook on a4 (west edge) warps to h4, past the pawn
        // that blocks its slide.
        let f = "8/8/8/8/R1p4k/8/8/4K3 b - - 0 1";
        assert!(p
            .royal_attacked(&pos(&p, f), houserules_plugin_api::Color::Black)
            .unwrap());
        let plain = pipe(&[]);
        assert!(!plain
            .royal_attacked(&pos(&plain, f), houserules_plugin_api::Color::Black)
            .unwrap());
    }
}
