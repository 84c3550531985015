//! #29 bouncing-pieces-2 — Bouncing Pieces (Extended): as bouncing-pieces (same module), but
//! diagonal rays also reflect off ranks 1 and 8, at most two reflections per ray; a ray that
//! reaches a corner stops there.

use crate::Meta;
use houserules_plugin_api::HookSet;

pub(crate) const META: Meta = Meta {
    id: "bouncing-pieces-2",
    name: "Bouncing Pieces (Extended)",
    category: "Board Geometry",
    mode: "hook",
    description: "Like bouncing-pieces, but diagonal rays also reflect off ranks 1 and 8; at \
                  most two reflections per ray; a ray reaching a corner stops there.",
    incompatible: &["bouncing-pieces", "wrap-board"],
    scope: None,
    hooks: HookSet::TRANSFORM_MODEL,
    stages: &[],
    priority: 0,
    preferred_layout: None,
    extra: &[],
};

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Color;

    const P: &[&str] = &["bouncing-pieces-2"];

    #[test]
    fn bouncing_pieces_2_reflects_off_ranks_too_at_most_twice() {
        let p = pipe(P);
        // Bishop d4. NW: c5 b6 a7, reflected off the a-file (1) b8, off rank 8 (2) c7 d6 e5
        // f4 g3 h2, then a third reflection is not allowed. SE: e3 f2 g1, off rank 1 (1) h2,
        // off the h-file (2) g3 ... b8. NE: e5 f6 g7 h8, a corner: stop. SW: c3 b2 a1, a corner.
        let f = "4k3/8/8/8/3B4/8/8/4K3 w - - 0 1";
        assert_eq!(
            destinations(&p, f, "d4"),
            [
                "a1", "a7", "b2", "b6", "b8", "c3", "c5", "c7", "d6", "e3", "e5", "f2", "f4", "f6",
                "g1", "g3", "g7", "h2", "h8"
            ]
        );
        // bouncing-pieces: one reflection, files only.
        let q = pipe(&["bouncing-pieces"]);
        assert_eq!(destinations(&q, f, "d4").len(), 14);
    }

    #[test]
    fn bouncing_pieces_2_off_rank_one_gives_check() {
        let p = pipe(P);
        // Bishop d2 SE: e1, reflect off rank 1: f2 g3 — the king on g3 is attacked.
        let f = "8/8/8/8/8/6k1/3B4/7K b - - 0 1";
        assert!(p.royal_attacked(&pos(&p, f), Color::Black).unwrap());
        // Under bouncing-pieces it is not.
        let q = pipe(&["bouncing-pieces"]);
        assert!(!q.royal_attacked(&pos(&q, f), Color::Black).unwrap());
    }

    #[test]
    fn bouncing_pieces_2_incompatible_with_bouncing_pieces() {
        let e = try_pipe(&["bouncing-pieces-2", "bouncing-pieces"])
            .err()
            .unwrap();
        assert!(e.to_string().contains("incompatible"), "{e}");
    }
}
