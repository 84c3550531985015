//! #21 monster-rules — Monster: asymmetric multi-move turns.
//!
//! As double-move, but only the sides in `scope` (default `white`, the canonical Monster
//! pairing with the `monster` layout: king and four pawns against the full army) play two
//! half-moves per turn; the other side plays one. `scope=black` flips the asymmetry,
//! `scope=both` equals double-move. Same host rules: a checking half-move ends the turn, a side
//! with no legal second half-move passes, the FEN extension records the phase.

use crate::double_move::TwoHalfMoves;
use crate::Meta;
use houserules_plugin_api::{preset_object, HookSet, Options, PresetBox};

pub(crate) const META: Meta = Meta {
    id: "monster-rules",
    name: "Monster",
    category: "Multi-move",
    mode: "hook",
    description: "Asymmetric multi-move: the side(s) in scope play two half-moves per turn, \
                  the other one. scope=white is Monster Chess (king and four pawns against the \
                  full army, the monster layout).",
    incompatible: &["double-move"],
    scope: Some("white"),
    hooks: HookSet::SHOULD_ADVANCE_TURN,
    stages: &[],
    priority: 0,
    preferred_layout: Some("monster"),
    extra: &[],
};

pub(crate) fn new(options: &Options) -> Result<PresetBox, String> {
    Ok(preset_object(TwoHalfMoves {
        scope: options.scope(),
    }))
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Color;

    #[test]
    fn monster_rules_default_scope_white_gives_white_two_half_moves() {
        let p = pipe(&["monster-rules"]);
        assert_eq!(p.layout.id.as_str(), "monster");
        assert_eq!(
            p.presets[0].options,
            [("scope".to_string(), "white".to_string())]
        );
        let start = p.start_position().unwrap();
        let (a, _) = play_from(&p, start, &["e2e4"]);
        assert_eq!((a.side_to_move, a.turn_phase), (Color::White, 1));
        let (b, _) = play_from(&p, a, &["d2d4"]);
        assert_eq!(b.side_to_move, Color::Black);
        // Black plays one half-move.
        let (c, _) = play_from(&p, b, &["e7e5"]);
        assert_eq!((c.side_to_move, c.turn_phase), (Color::White, 0));
    }

    #[test]
    fn monster_rules_scope_black_flips_the_asymmetry() {
        let p = pipe(&["monster-rules:scope=black"]);
        let f = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let (a, _) = play(&p, f, &["e2e4"]);
        assert_eq!((a.side_to_move, a.turn_phase), (Color::Black, 0));
        let (b, _) = play_from(&p, a, &["e7e5"]);
        assert_eq!((b.side_to_move, b.turn_phase), (Color::Black, 1));
    }

    #[test]
    fn monster_rules_scope_both_equals_double_move() {
        let m = pipe(&["monster-rules:scope=both"]);
        let d = pipe(&["double-move"]);
        let f = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(perft_fen(&m, f, 3), perft_fen(&d, f, 3));
    }

    #[test]
    fn monster_rules_perft_from_the_monster_layout() {
        let p = pipe(&["monster-rules"]);
        let start = p.start_position().unwrap();
        // White's first half-moves: the king to d1 or f1, each pawn one or two squares.
        assert_eq!(perft_at(&p, &start, 1), 10);
        let two = perft_at(&p, &start, 2);
        assert!(two > 10 * 8, "{two}");
    }

    #[test]
    fn monster_rules_check_ends_the_white_turn_and_mate_ends_the_game() {
        let p = pipe(&["monster-rules"]);
        // The white queen gives check on the first half-move: Black replies at once.
        let f = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
        let (a, _) = play(&p, f, &["d1d8"]);
        assert_eq!(a.side_to_move, Color::Black);
        assert!(has_at(&p, &a, "e8d8"));
        // Mate by Black (one half-move) against the lone white king ends the game.
        let (b, _) = play(&p, "4k3/8/8/8/8/1r6/r7/7K b - - 0 1", &["b3b1"]);
        let out = status_at(&p, &b).expect("mate");
        assert_eq!(out.winner.pgn(), "0-1");
        assert_eq!(out.reason.as_str(), "checkmate");
    }

    #[test]
    fn monster_rules_incompatible_with_double_move() {
        let e = try_pipe(&["monster-rules", "double-move"]).err().unwrap();
        assert!(e.to_string().contains("incompatible"), "{e}");
    }
}
