//! #28 bouncing-pieces — Bouncing Pieces (and the shared transform of #29 bouncing-pieces-2).
//!
//! A model transform (API 1.2): the topology reflects diagonal rays off the a- and h-files
//! (bouncing-pieces: one reflection; bouncing-pieces-2: also off ranks 1 and 8, at most two),
//! for the pieces it marks as bouncing — every bishop and queen, as the gallery says; moves
//! other presets add do not bounce (RULINGS). A reflected ray continues from the edge square
//! with its file (or rank) direction flipped; it stops before a friend, on an enemy (capture),
//! or when it would leave the board any other way; a ray that reaches a corner stops there.
//! Captures through a bounce give check, pins along bounced rays hold.

use crate::common::Kinds;
use crate::Meta;
use houserules_plugin_api::{preset_object, HookSet, PresetBox, PresetRules, Role, RulesModel};

pub(crate) const META: Meta = Meta {
    id: "bouncing-pieces",
    name: "Bouncing Pieces",
    category: "Board Geometry",
    mode: "hook",
    description: "Bishop and queen diagonal rays reflect once off the a- and h-file edges and \
                  continue until they meet a friend, capture an enemy or leave the board. \
                  Orthogonal rays are unchanged.",
    incompatible: &["wrap-board", "bouncing-pieces-2"],
    scope: None,
    hooks: HookSet::TRANSFORM_MODEL,
    stages: &[],
    priority: 0,
    preferred_layout: None,
    extra: &[],
};

pub(crate) fn new(k: Kinds, reflections: u8) -> Result<PresetBox, String> {
    let _ = k;
    Ok(preset_object(Bouncing { reflections }))
}

struct Bouncing {
    /// 1: off the a/h files once; 2: off all four edges, at most twice.
    reflections: u8,
}

impl PresetRules for Bouncing {
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        model.topology.bounce_files = true;
        model.topology.bounce_ranks = self.reflections >= 2;
        model.topology.max_reflections = self.reflections;
        for p in model.pieces.iter_mut() {
            if p.role == Role::BISHOP || p.role == Role::QUEEN {
                p.bounce = true;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Color;

    const P: &[&str] = &["bouncing-pieces"];

    #[test]
    fn bouncing_pieces_reflect_once_off_the_side_files() {
        let p = pipe(P);
        // Bishop c1 on an empty board: NW b2, a3, then reflected b4 c5 d6 e7 f8; NE d2 ... h6
        // then reflected g7 f8.
        let f = "7k/8/8/8/8/8/8/2B4K w - - 0 1";
        assert_eq!(
            destinations(&p, f, "c1"),
            ["a3", "b2", "b4", "c5", "d2", "d6", "e3", "e7", "f4", "f8", "g5", "g7", "h6"]
        );
    }

    #[test]
    fn bouncing_pieces_corners_stop_and_ranks_do_not_reflect() {
        let p = pipe(P);
        // Bishop d4: SW c3 b2 a1 — a corner, the ray stops. NW c5 b6 a7, reflected b8, then it
        // would leave through rank 8: it stops (no rank reflection on this preset).
        let f = "4k3/8/8/8/3B4/8/8/4K3 w - - 0 1";
        let m = destinations(&p, f, "d4");
        assert!(m.contains(&"b8".to_string()), "{m:?}");
        assert!(!m.contains(&"c7".to_string()), "{m:?}");
        assert_eq!(m.len(), 14, "{m:?}");
    }

    #[test]
    fn bouncing_pieces_stop_at_friends_and_capture_enemies_after_the_bounce() {
        let p = pipe(P);
        let m = destinations(&p, "7k/8/8/2n5/8/8/8/2B4K w - - 0 1", "c1");
        assert!(m.contains(&"b4".to_string()));
        assert!(m.contains(&"c5".to_string()));
        assert!(!m.contains(&"d6".to_string()));
        let m2 = destinations(&p, "7k/8/8/2N5/8/8/8/2B4K w - - 0 1", "c1");
        assert!(m2.contains(&"b4".to_string()));
        assert!(!m2.contains(&"c5".to_string()));
        assert!(!m2.contains(&"d6".to_string()));
    }

    #[test]
    fn bouncing_pieces_queens_bounce_too_and_bounced_check_is_check() {
        let p = pipe(P);
        // Queen c1: NW a3 then reflected b4 ... e7 — the king on e7 is in check.
        let f = "8/4k3/8/8/8/8/8/2Q4K b - - 0 1";
        assert!(p.royal_attacked(&pos(&p, f), Color::Black).unwrap());
        // Orthogonal rays unchanged: the queen on a1 does not wrap to h1.
        let f2 = "6k1/8/8/8/8/8/8/Q6K w - - 0 1";
        assert!(!has(&p, f2, "a1h1"));
    }

    #[test]
    fn bouncing_pieces_incompatibilities() {
        let e = try_pipe(&["bouncing-pieces", "bouncing-pieces-2"])
            .err()
            .unwrap();
        assert!(e.to_string().contains("incompatible"), "{e}");
    }
}
