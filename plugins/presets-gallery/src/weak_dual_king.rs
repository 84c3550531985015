//! #19 weak-dual-king — Weak Dual King: two kings per side, losing one is survivable.
//!
//! The catalogue's three hooks are realised as follows (the design review's G12):
//! `get_royal_pieces` answers YES with the kings, and the manifest asks the host for the
//! "all royals" check rule (`extra`: `check-rule=all`, read by the host pipeline): a side is in
//! check only when **every** remaining king is attacked. So the self-check filter forbids only
//! moves that leave every king attacked — a king may be sacrificed (left attacked, even moved
//! into attack) while another stays safe — and checkmate is every remaining king attacked with
//! no legal move ("every remaining king simultaneously mated"). A side with no king left has
//! lost (royal-lost). With one king left the rules are those of chess.

use crate::common::{Kinds, RoyalRoles};
use crate::Meta;
use houserules_plugin_api::model::check_rule;
use houserules_plugin_api::{HookSet, PresetBox, Role};

pub(crate) const META: Meta = Meta {
    id: "weak-dual-king",
    name: "Weak Dual King",
    category: "King Variants",
    mode: "hooks",
    description: "Two kings per side, but losing one is survivable: a king may be left \
                  attacked while another is safe. The game ends when a side has no king left, \
                  or when every remaining king is attacked and no legal move is left.",
    incompatible: &[
        "knightmate-rules",
        "coregal",
        "suicide-chess",
        "capture-all",
        "last-piece-standing",
    ],
    scope: None,
    hooks: HookSet::TRANSFORM_MODEL,
    stages: &[],
    priority: 0,
    preferred_layout: Some("dual-classic"),
    extra: &[],
};

pub(crate) fn new(k: Kinds) -> Result<PresetBox, String> {
    RoyalRoles::preset(META.id, k, Role::KING, &[Role::KING], check_rule::ALL)
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Color;

    const P: &[&str] = &["weak-dual-king"];

    #[test]
    fn weak_dual_king_prefers_dual_classic() {
        let p = pipe(P);
        assert_eq!(p.layout.id.as_str(), "dual-classic");
        let start = p.start_position().unwrap();
        assert_eq!(perft_at(&p, &start, 2), 400);
    }

    #[test]
    fn weak_dual_king_a_king_may_be_left_attacked_while_the_other_is_safe() {
        let p = pipe(P);
        let f = "r3k3/8/3b4/8/8/8/8/K6K w - - 0 1";
        // One king attacked is not check.
        assert!(!p.royal_attacked(&pos(&p, f), Color::White).unwrap());
        let moves = legal(&p, f);
        // The h1 king may move and leave a1 attacked (sacrifice); the a1 king may stay on
        // the attacked file.
        assert!(moves.contains(&"h1g1".to_string()), "{moves:?}");
        assert!(moves.contains(&"a1a2".to_string()));
        // A move that leaves both kings attacked is illegal.
        assert!(!moves.contains(&"h1h2".to_string()));
        // The strong rules forbid the sacrifice.
        let strong = pipe(&["dual-king"]);
        assert!(!has(&strong, f, "h1g1"));
    }

    #[test]
    fn weak_dual_king_a_king_may_step_into_attack_and_be_captured() {
        let p = pipe(P);
        let f = "rr6/8/8/3k4/8/8/8/K6K w - - 0 1";
        assert!(has(&p, f, "a1b1"));
        let (after, _) = play(&p, f, &["a1b1", "b8b1"]);
        // One king left, on h1, attacked along the first rank: check, chess rules from here.
        assert_eq!(p.royals(&after, Color::White).unwrap().unwrap().len(), 1);
        assert!(p.royal_attacked(&after, Color::White).unwrap());
        assert!(legal_at(&p, &after).iter().all(|m| m.starts_with("h1")));
        assert_eq!(status_at(&p, &after), None);
    }

    #[test]
    fn weak_dual_king_every_remaining_king_mated_ends_the_game() {
        let p = pipe(P);
        let f = "rr4rr/8/8/3k4/8/8/8/K6K w - - 0 1";
        let out = status_at(&p, &pos(&p, f)).expect("both kings mated");
        assert_eq!(out.winner.pgn(), "0-1");
        assert_eq!(out.reason.as_str(), "checkmate");
        // With one king left, mating it ends the game as in chess.
        let f1 = "rr6/8/8/3k4/8/8/8/K7 w - - 0 1";
        assert_eq!(
            status_at(&p, &pos(&p, f1)).unwrap().reason.as_str(),
            "checkmate"
        );
    }

    #[test]
    fn weak_dual_king_no_king_left_loses() {
        let p = pipe(P);
        let out = status_at(&p, &pos(&p, "8/8/8/8/8/8/8/K6K b - - 0 1")).unwrap();
        assert_eq!(out.winner.pgn(), "1-0");
        assert_eq!(out.reason.as_str(), "royal-lost");
    }
}
