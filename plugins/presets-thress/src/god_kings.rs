//! god-kings — Kings are immune and move two squares (ThressGame `god_kings`).
//!
//! RULINGS: kings cannot be captured, are never in check and cannot be checkmated; they may
//! stand on or move to attacked squares; a king moves one or two squares in a straight line in
//! any of the eight directions, the first square empty to go two (`Q2`); castling is unchanged
//! (and, the king not being royal, does not look at attacked squares). As a transform: every
//! king-role piece is not royal, immune from capture and moves as `Q2`. With no royal left the
//! side has no royalty (not "royalty lost"): the game ends by the variant's other rules or by
//! another preset's objective (extinction-chess pairs naturally; capture-all and
//! last-piece-standing, whose objectives need kings captured, are incompatible).

use crate::Meta;
use houserules_plugin_api::{PresetRules, Role, RulesModel};

pub(crate) const META: Meta = Meta {
    id: "god-kings",
    name: "God Kings",
    description: "Kings cannot be captured and are never in check; they may stand on attacked \
                  squares and move one or two squares in a straight line (the first square \
                  empty to go two). Castling is unchanged.",
    incompatible: &["capture-all", "last-piece-standing"],
    options: crate::no_options,
    evaluates: false,
};

/// The preset.
pub struct GodKings;

impl PresetRules for GodKings {
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        for p in model.pieces.iter_mut().filter(|p| p.role == Role::KING) {
            p.royal = false;
            p.immune = true;
            p.betza = "Q2".into();
            p.betza_black = houserules_plugin_api::abi_stable::std_types::ROption::RNone;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Color;

    const P: &[&str] = &["god-kings"];

    #[test]
    fn god_kings_move_one_or_two_squares() {
        let p = pipe(P);
        assert!(p.is_plain(), "a transform keeps the fast path");
        let d = destinations(&p, "7k/8/8/8/3K4/8/8/8 w - - 0 1", "d4");
        assert_eq!(d.len(), 16, "{d:?}");
        assert!(d.contains(&"d6".to_string()) && d.contains(&"f6".to_string()));
        // The first square must be empty to go two.
        let d = destinations(&p, "7k/8/8/3P4/3K4/8/8/8 w - - 0 1", "d4");
        assert!(
            !d.contains(&"d6".to_string()) && !d.contains(&"d5".to_string()),
            "{d:?}"
        );
    }

    #[test]
    fn god_kings_are_never_in_check_and_never_captured() {
        let p = pipe(P);
        // The king stands in the rook's line: not check; it may stay there or step into it.
        let f = "3rk3/8/8/8/8/8/8/3K4 w - - 0 1";
        assert!(!p.royal_attacked(&pos(&p, f), Color::White).unwrap());
        assert!(has(&p, f, "d1d2") && has(&p, f, "d1e1"));
        // The rook cannot take the king.
        let b = "3rk3/8/8/8/8/8/8/3K4 b - - 0 1";
        assert!(!has(&p, b, "d8d1"), "{:?}", legal(&p, b));
        // No royalty: a position without kings is not lost.
        assert!(status_at(&p, &pos(&p, "8/8/8/8/8/8/8/R6r w - - 0 1")).is_none());
    }

    #[test]
    fn god_kings_castle_through_attacked_squares() {
        let p = pipe(P);
        // f1 is attacked by the rook on f8: castling passes it anyway (nothing is in check).
        assert!(has(&p, "k4r2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"));
        // Without the preset it may not.
        assert!(!has(&pipe(&[]), "k4r2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"));
    }

    #[test]
    fn god_kings_games_end_by_another_objective() {
        // Paired with extinction-chess (target pawn): taking the last pawn wins.
        let p = pipe(&["god-kings", "extinction-chess"]);
        let r = result_after(&p, "4k3/8/8/8/8/8/p6P/R3K3 w - - 0 1", &["a1a2"]).unwrap();
        assert_eq!(r.winner.pgn(), "1-0");
        // Incompatible with capture-all.
        assert!(try_pipe(&["god-kings", "capture-all"]).is_err());
    }
}
