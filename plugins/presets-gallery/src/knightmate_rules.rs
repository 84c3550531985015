//! #16 knightmate-rules — Knightmate: every knight is royal, the king is an ordinary piece.
//!
//! `get_royal_pieces` answers YES with the knights of the side (promoted knights too). The
//! king may be captured and left attacked; it still castles, and since it is not royal the host
//! does not check the castling path. Checkmate (a royal knight attacked and no legal move) is the
//! chess plugin's, with the host's check computed on the knights. (The chess plugin's
//! insufficient-material rule cannot fire while both sides have a knight: it needs at most one
//! knight on the board and no knight with bishops.)

use crate::common::{Kinds, RoyalRoles};
use crate::Meta;
use houserules_plugin_api::model::check_rule;
use houserules_plugin_api::{HookSet, PresetBox, Role};

pub(crate) const META: Meta = Meta {
    id: "knightmate-rules",
    name: "Knightmate",
    category: "King Variants",
    mode: "hook",
    description: "Each side's knights are royal instead of the king. The king is an ordinary \
                  piece: it can be captured and moved into attacked squares. Mate the last \
                  knight to win. Paired with the knightmate layout (queen replaced by a knight).",
    incompatible: &[
        "coregal",
        "weak-dual-king",
        "suicide-chess",
        "capture-all",
        "last-piece-standing",
    ],
    scope: None,
    hooks: HookSet::TRANSFORM_MODEL,
    stages: &[],
    priority: 0,
    preferred_layout: Some("knightmate"),
    extra: &[],
};

pub(crate) fn new(k: Kinds) -> Result<PresetBox, String> {
    RoyalRoles::preset(META.id, k, Role::KNIGHT, &[Role::KNIGHT], check_rule::ANY)
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;

    const P: &[&str] = &["knightmate-rules"];

    #[test]
    fn knightmate_rules_prefers_the_knightmate_layout_and_counts_its_moves() {
        let p = pipe(P);
        assert_eq!(p.layout.id.as_str(), "knightmate");
        let start = p.start_position().unwrap();
        assert_eq!(
            fen(&p, &start),
            "rnbnkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBNKBNR w KQkq - 0 1"
        );
        // 16 pawn moves and two moves for each of the three knights.
        assert_eq!(perft_fen(&p, &fen(&p, &start), 1), 22);
    }

    #[test]
    fn knightmate_rules_the_king_may_be_left_attacked_and_captured() {
        let p = pipe(P);
        // The white king steps next to the black rook's file: legal, it is not royal.
        let f = "4n3/8/8/8/8/8/3r4/N3K3 w - - 0 1";
        assert!(has(&p, f, "e1d1"), "{:?}", legal(&p, f));
        assert!(has(&p, f, "e1d2"));
        // Black may take the king; the game goes on (no royal lost).
        let (after, _) = play(&p, f, &["e1d1", "d2d1"]);
        assert_eq!(fen(&p, &after), "4n3/8/8/8/8/8/8/N2r4 w - - 0 2");
        assert_eq!(status_at(&p, &after), None);
    }

    #[test]
    fn knightmate_rules_knights_are_protected_by_the_self_check_filter() {
        let p = pipe(P);
        // The royal knight on e2 is attacked by the rook: it must move away; the king's moves,
        // which leave it attacked, are illegal.
        let f = "4n3/8/8/8/8/8/4N2r/K7 w - - 0 1";
        let moves = legal(&p, f);
        assert!(moves.iter().all(|m| m.starts_with("e2")), "{moves:?}");
        assert!(status_at(&p, &pos(&p, f)).is_none());
    }

    #[test]
    fn knightmate_rules_mate_the_knight_to_win() {
        let p = pipe(P);
        // The black knight on a8 is attacked by the rook on a1; b6 and c7 are covered.
        let f = "n7/8/8/8/8/8/8/RRR1N3 b - - 0 1";
        let out = status_at(&p, &pos(&p, f)).expect("mate");
        assert_eq!(out.winner.pgn(), "1-0");
        assert_eq!(out.reason.as_str(), "checkmate");
    }

    #[test]
    fn knightmate_rules_a_side_without_knights_has_lost() {
        let p = pipe(P);
        let out = status_at(&p, &pos(&p, "4k3/8/8/8/8/8/8/N3K3 b - - 0 1")).unwrap();
        assert_eq!(out.winner.pgn(), "1-0");
        assert_eq!(out.reason.as_str(), "royal-lost");
    }

    #[test]
    fn knightmate_rules_checks_are_on_knights_not_kings() {
        let p = pipe(P);
        // A rook attacks the white king: not check. A bishop attacks the white knight: check.
        let pos1 = pos(&p, "r3n3/8/8/8/8/8/8/K3N3 w - - 0 1");
        assert!(!p
            .royal_attacked(&pos1, houserules_plugin_api::Color::White)
            .unwrap());
        let pos2 = pos(&p, "4n3/8/8/8/1b6/8/8/K3N3 w - - 0 1");
        assert!(p
            .royal_attacked(&pos2, houserules_plugin_api::Color::White)
            .unwrap());
        // A FEN where the side not to move has its knight attacked is refused.
        assert!(p.parse_fen("4n3/8/8/8/1b6/8/8/K3N3 b - - 0 1").is_err());
    }

    #[test]
    fn knightmate_rules_promoted_knights_are_royal() {
        let p = pipe(P);
        let (after, _) = play(&p, "4n3/P7/8/8/8/8/8/K3N3 w - - 0 1", &["a7a8n"]);
        let royals = p
            .royals(&after, houserules_plugin_api::Color::White)
            .unwrap()
            .unwrap();
        assert_eq!(royals.len(), 2);
    }
}
