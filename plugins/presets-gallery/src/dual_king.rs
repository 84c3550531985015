//! #18 dual-king — Dual King (strong): two kings per side, every king royal, mating either ends
//! the game.
//!
//! No hook is needed: the chess piece table makes every king royal and the chess plugin's legal
//! generator handles several kings (each protected, castling by the e-file king). Declaring the
//! catalogue's `getRoyalPieces` would only cost the fast path, so the preset declares no hook
//! and exists for its preferred layout (`dual-classic`) and its place in the catalogue.

use crate::common::Kinds;
use crate::Meta;
use houserules_plugin_api::{preset_object, HookSet, PresetBox, PresetRules, Role};

pub(crate) const META: Meta = Meta {
    id: "dual-king",
    name: "Dual King",
    category: "King Variants",
    mode: "hook",
    description: "Two kings per side, all royal: mating either king ends the game (strong \
                  variant). Paired with the dual-classic layout (queens replaced by a second \
                  king on d1/d8).",
    incompatible: &[],
    scope: None,
    hooks: HookSet(0),
    stages: &[],
    priority: 0,
    preferred_layout: Some("dual-classic"),
    extra: &[],
};

pub(crate) fn new(k: Kinds) -> Result<PresetBox, String> {
    k.require(META.id, Role::KING)?;
    Ok(preset_object(DualKing))
}

struct DualKing;

impl PresetRules for DualKing {}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Color;

    const P: &[&str] = &["dual-king"];

    #[test]
    fn dual_king_uses_dual_classic_and_keeps_the_fast_path() {
        let p = pipe(P);
        assert_eq!(p.layout.id.as_str(), "dual-classic");
        assert!(p.is_plain());
        let start = p.start_position().unwrap();
        assert_eq!(p.royals(&start, Color::White).unwrap().unwrap().len(), 2);
        assert_eq!(perft_at(&p, &start, 1), 20);
    }

    #[test]
    fn dual_king_both_kings_are_protected() {
        let p = pipe(P);
        // The d1 king is in check from c1 and must deal with it (it may take the rook); no
        // move of the f1 king is legal meanwhile.
        let f = "3kk3/8/8/8/8/8/8/2rK1K2 w - - 0 1";
        let moves = legal(&p, f);
        assert!(moves.iter().all(|m| m.starts_with("d1")), "{moves:?}");
        assert!(moves.contains(&"d1c1".to_string()));
    }

    #[test]
    fn dual_king_mating_either_king_wins() {
        let p = pipe(P);
        // The white king on a1 is mated by two rooks; the king on h1 is safe.
        let f = "kr5k/8/8/8/8/8/6r1/K1r4K w - - 0 1";
        let out = status_at(&p, &pos(&p, f)).expect("mate");
        assert_eq!(out.winner.pgn(), "0-1");
        assert_eq!(out.reason.as_str(), "checkmate");
    }

    #[test]
    fn dual_king_castling_belongs_to_the_e_file_king() {
        let p = pipe(P);
        let f = "r2kk2r/8/8/8/8/8/8/R2KK2R w KQkq - 0 1";
        assert_eq!(castles(&p, f), ["e1g1"]);
        // Moving the d-file king keeps the rights of the e-file king.
        let (after, _) = play(&p, f, &["d1d2"]);
        assert!(fen(&p, &after).contains(" KQkq "), "{}", fen(&p, &after));
    }
}
