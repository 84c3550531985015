//! #17 coregal — Coregal: the king and the queen are both royal.
//!
//! `get_royal_pieces` answers YES with the kings and queens of the side (promoted queens are
//! royal too, ruling). Both are protected by the self-check filter: pins work for both, a check
//! on either must be answered, checkmate is either royal attacked with no legal move. A side
//! that loses its queen (only through another preset's effects) keeps its king royal.

use crate::common::{Kinds, RoyalRoles};
use crate::Meta;
use houserules_plugin_api::model::check_rule;
use houserules_plugin_api::{HookSet, PresetBox, Role};

pub(crate) const META: Meta = Meta {
    id: "coregal",
    name: "Coregal",
    category: "King Variants",
    mode: "hook",
    description: "Both the king and the queen are royal: attack or mate on either must be \
                  answered and ends the game. If the queen is lost the king remains royal. Pins \
                  affect both royals.",
    incompatible: &[
        "knightmate-rules",
        "weak-dual-king",
        "suicide-chess",
        "capture-all",
        "last-piece-standing",
    ],
    scope: None,
    hooks: HookSet::TRANSFORM_MODEL,
    stages: &[],
    priority: 0,
    preferred_layout: None,
    extra: &[],
};

pub(crate) fn new(k: Kinds) -> Result<PresetBox, String> {
    RoyalRoles::preset(
        META.id,
        k,
        Role::KING,
        &[Role::KING, Role::QUEEN],
        check_rule::ANY,
    )
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Color;

    const P: &[&str] = &["coregal"];

    #[test]
    fn coregal_king_and_queen_are_royal() {
        let p = pipe(P);
        let start = p.start_position().unwrap();
        assert_eq!(p.royals(&start, Color::White).unwrap().unwrap().len(), 2);
        // 8882, as Fairy-Stockfish's coregal (8902 in chess).
        assert_eq!(perft_at(&p, &start, 3), 8882);
    }

    #[test]
    fn coregal_an_attacked_queen_is_check() {
        let p = pipe(P);
        // The rook on a5 attacks the white queen on e5: only moves that end the attack.
        let f = "6k1/8/8/r3Q3/8/8/8/4K3 w - - 0 1";
        assert!(p.royal_attacked(&pos(&p, f), Color::White).unwrap());
        let moves = legal(&p, f);
        assert!(moves.iter().all(|m| m.starts_with("e5")), "{moves:?}");
        // The queen may not step onto an attacked square either.
        assert!(!has(&p, f, "e5f7"));
        assert!(has(&p, f, "e5a5"));
    }

    #[test]
    fn coregal_pins_protect_both_royals() {
        let p = pipe(P);
        // The bishop on d2 shields the queen on e1... the queen on c1 from the rook? Use a
        // file: rook a3, white knight b3, queen c3 — the knight is pinned to the queen.
        let f = "4k3/8/8/8/8/rNQ5/8/4K3 w - - 0 1";
        assert!(legal(&p, f).iter().all(|m| !m.starts_with("b3")));
        // And a piece pinned to the king by a queen-side attacker is pinned as in chess.
        let f2 = "4r2k/8/8/8/8/8/4B3/3QK3 w - - 0 1";
        assert!(legal(&p, f2).iter().all(|m| !m.starts_with("e2")));
    }

    #[test]
    fn coregal_mating_the_queen_wins() {
        let p = pipe(P);
        // The black queen on h8, boxed in by its own rook and pawns, is attacked by the knight
        // on f7, which the pawn on e6 protects: the king cannot take it, nothing else can.
        let f = "4k1rq/5Npp/4P3/8/8/8/8/4K3 b - - 0 1";
        let out = status_at(&p, &pos(&p, f)).expect("mate on the queen");
        assert_eq!(out.winner.pgn(), "1-0");
        assert_eq!(out.reason.as_str(), "checkmate");
    }

    #[test]
    fn coregal_without_a_queen_the_king_stays_royal() {
        let p = pipe(P);
        let q = pos(&p, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(p.royals(&q, Color::White).unwrap().unwrap().len(), 1);
        assert_eq!(
            status_at(&p, &q).unwrap().reason.as_str(),
            "insufficient-material"
        );
    }

    #[test]
    fn coregal_promoted_queens_are_royal() {
        let p = pipe(P);
        let (after, _) = play(&p, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", &["a7a8q"]);
        assert_eq!(p.royals(&after, Color::White).unwrap().unwrap().len(), 2);
    }
}
