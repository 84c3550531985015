//! #27 berolina-pawns-2 — Berolina Pawns (Extended): as berolina-pawns (same module, same
//! transform and scope), plus sideways captures onto the adjacent file on the same rank. Sideways
//! captures neither create nor take en passant (only the forward capture takes it).

use crate::Meta;
use houserules_plugin_api::HookSet;

pub(crate) const META: Meta = Meta {
    id: "berolina-pawns-2",
    name: "Berolina Pawns (Extended)",
    category: "Movement Modifier",
    mode: "hooks",
    description: "Berolina pawns that also capture sideways (adjacent file, same rank). Same \
                  scope and Parton en passant as berolina-pawns; sideways captures neither \
                  create nor take en passant.",
    incompatible: &["berolina-pawns"],
    scope: Some("both"),
    hooks: HookSet::TRANSFORM_MODEL,
    stages: &[],
    priority: 0,
    preferred_layout: None,
    extra: &[],
};

#[cfg(test)]
mod tests {
    use crate::testkit::*;

    const P: &[&str] = &["berolina-pawns-2"];

    #[test]
    fn berolina_pawns_2_captures_sideways() {
        let p = pipe(P);
        let f = "4k3/8/8/8/2nPr3/8/8/6K1 w - - 0 1";
        assert!(has(&p, f, "d4c4"));
        assert!(has(&p, f, "d4e4"));
        // Not onto a friend, not diagonally.
        assert!(!has(&p, "4k3/8/8/2n5/2NP4/8/8/4K3 w - - 0 1", "d4c4"));
        assert!(!has(&p, "4k3/8/8/2n5/3P4/8/8/4K3 w - - 0 1", "d4c5"));
        // Forward capture and pushes as berolina-pawns.
        assert!(has(&p, "4k3/8/8/3n4/3P4/8/8/4K3 w - - 0 1", "d4d5"));
        assert_eq!(perft_fen(&p, START, 1), 30);
    }

    #[test]
    fn berolina_pawns_2_sideways_captures_do_not_take_en_passant() {
        let p = pipe(P);
        // After b2-d4 the black pawn on e4 is beside the white pawn: it may take it sideways
        // (an ordinary capture), but not en passant; the pawn on c4 takes en passant on c3.
        let (a, _) = play(&p, "4k3/8/8/8/2p1p3/8/1P6/4K3 w - - 0 1", &["b2d4"]);
        let moves = legal_at(&p, &a);
        assert!(moves.contains(&"e4d4".to_string()), "{moves:?}");
        assert!(moves.contains(&"c4c3".to_string()));
        assert!(moves.contains(&"c4d4".to_string()));
        let (b, _) = play_from(&p, a.clone(), &["e4d4"]);
        assert_eq!(fen(&p, &b), "4k3/8/8/8/2pp4/8/8/4K3 w - - 0 2");
        // The sideways capture does not set an en passant right.
        let (c, _) = play(&p, "4k3/8/8/8/8/8/1Pp5/4K3 w - - 0 1", &["b2c2"]);
        assert!(c.ep_passed.is_none());
    }

    #[test]
    fn berolina_pawns_2_scope_black() {
        let p = pipe(&["berolina-pawns-2:scope=black"]);
        // White pawns are FIDE pawns: no sideways capture for them.
        assert!(!has(&p, "4k3/8/8/8/2nP4/8/8/4K3 w - - 0 1", "d4c4"));
        assert!(has(&p, "4k3/8/8/8/2Np4/8/8/4K3 b - - 0 1", "d4c4"));
    }

    #[test]
    fn berolina_pawns_2_incompatible_with_berolina_pawns() {
        let e = try_pipe(&["berolina-pawns", "berolina-pawns-2"])
            .err()
            .unwrap();
        assert!(e.to_string().contains("incompatible"), "{e}");
    }
}
