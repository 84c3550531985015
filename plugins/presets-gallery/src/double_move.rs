//! #20 double-move — Double Move: each side plays two half-moves per turn (WW BB WW BB).
//!
//! `should_advance_turn` keeps the turn after the first half-move (`turn_phase == 0`) unless it
//! gave check (`MoveEffects::gives_check`, computed by the host): a half-move that gives check
//! ends the turn at once, so the checked side answers and a check with no reply is checkmate.
//! Everything else is the host's (RULINGS, multi-move turns): each half-move is a full move
//! with its own legality; a side with no legal second half-move passes the turn; stalemate is
//! judged at the start of a turn; the FEN extension says which half-move is next
//! (`{@host.phase=1}`); an en passant right created by a first half-move expires with the
//! second; the halfmove clock counts half-moves.

use crate::Meta;
use houserules_plugin_api::{
    preset_object, Decision, HookSet, Move, MoveEffects, Position, PresetBox, PresetRules, Scope,
};

pub(crate) const META: Meta = Meta {
    id: "double-move",
    name: "Double Move",
    category: "Multi-move",
    mode: "hook",
    description: "Each side plays two half-moves per turn (WW BB WW BB). A half-move that \
                  gives check ends the turn at once; checkmate on either half-move ends the \
                  game.",
    incompatible: &["monster-rules"],
    scope: None,
    hooks: HookSet::SHOULD_ADVANCE_TURN,
    stages: &[],
    priority: 0,
    preferred_layout: None,
    extra: &[],
};

pub(crate) fn new() -> Result<PresetBox, String> {
    Ok(preset_object(TwoHalfMoves { scope: Scope::Both }))
}

/// Two half-moves per turn for the sides in `scope` (double-move: both; monster: one side).
pub(crate) struct TwoHalfMoves {
    pub scope: Scope,
}

impl PresetRules for TwoHalfMoves {
    fn should_advance_turn(&self, pos: &Position, _mv: Move, fx: &MoveEffects) -> Decision {
        if self.scope.applies(fx.mover) && pos.turn_phase == 0 && !fx.gives_check {
            Decision::NO
        } else {
            Decision::DEFER
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Color;

    const P: &[&str] = &["double-move"];

    #[test]
    fn double_move_turn_order_is_ww_bb() {
        let p = pipe(P);
        let start = p.start_position().unwrap();
        let (a, _) = play_from(&p, start.clone(), &["e2e4"]);
        assert_eq!(a.side_to_move, Color::White);
        assert_eq!(a.turn_phase, 1);
        assert_eq!(
            fen(&p, &a),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1 {@host.phase=1}"
        );
        let (b, _) = play_from(&p, a, &["d2d4"]);
        assert_eq!((b.side_to_move, b.turn_phase), (Color::Black, 0));
        let (c, _) = play_from(&p, b, &["e7e5", "d7d5"]);
        assert_eq!((c.side_to_move, c.turn_phase), (Color::White, 0));
        assert_eq!(c.fullmove_number, 2);
        // The FEN with the phase reads back to the same position.
        let back = pos(&p, &fen(&p, &play_from(&p, start, &["g1f3"]).0));
        assert_eq!(back.turn_phase, 1);
        assert_eq!(back.side_to_move, Color::White);
    }

    #[test]
    fn double_move_perft_counts_half_moves() {
        let p = pipe(P);
        let start = p.start_position().unwrap();
        // Two white half-moves: 20 x (moves after each first half-move).
        let n2 = perft_at(&p, &start, 2);
        assert_eq!(n2, plain_two_white_half_moves());
        assert!(perft_at(&p, &start, 3) > n2);
    }

    /// Sum over White's 20 first moves of White's replies with White to move again.
    fn plain_two_white_half_moves() -> u64 {
        let chess = pipe(&[]);
        let start = chess.start_position().unwrap();
        let mut total = 0;
        for m in legal_at(&chess, &start) {
            let (mut after, _) = play_from(&chess, start.clone(), &[m.as_str()]);
            after.side_to_move = Color::White;
            after.ep_passed = houserules_plugin_api::Square::NONE;
            after.ep_victim = houserules_plugin_api::Square::NONE;
            after.invalidate_accel();
            total += legal_at(&chess, &after).len() as u64;
        }
        total
    }

    #[test]
    fn double_move_a_checking_half_move_ends_the_turn() {
        let p = pipe(P);
        // Bb5+ on the first half-move: Black moves next.
        let f = "4k3/8/8/8/8/8/8/4KB2 w - - 0 1";
        let (a, _) = play(&p, f, &["f1b5"]);
        assert_eq!((a.side_to_move, a.turn_phase), (Color::Black, 0));
        // A quiet first half-move keeps the turn; a check on the second ends it normally.
        let (b, _) = play(&p, f, &["e1d2", "f1b5"]);
        assert_eq!((b.side_to_move, b.turn_phase), (Color::Black, 0));
    }

    #[test]
    fn double_move_check_without_reply_on_the_first_half_move_is_mate() {
        let p = pipe(P);
        // Ra8# on the first half-move ends the game: White gets no second half-move.
        let f = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        let (a, _) = play(&p, f, &["a1a8"]);
        assert_eq!(a.side_to_move, Color::Black);
        let out = status_at(&p, &a).expect("mate");
        assert_eq!(out.winner.pgn(), "1-0");
        assert_eq!(out.reason.as_str(), "checkmate");
    }

    #[test]
    fn double_move_each_half_move_has_its_own_legality() {
        let p = pipe(P);
        // The king may not step into check on the first half-move hoping to leave on the
        // second.
        let f = "4k3/8/8/8/8/8/r7/4K3 w - - 0 1";
        assert!(!has(&p, f, "e1e2"));
        assert!(has(&p, f, "e1f1"));
    }

    #[test]
    fn double_move_no_legal_second_half_move_passes_the_turn() {
        let p = pipe(P);
        // White's only move is a2-a3; then the pawns are blocked and the king on h1 has no
        // square (g1 covered by the bishop, h2 by the pawn): White passes, Black moves.
        let f = "7k/8/8/8/p7/4b1p1/P5P1/7K w - - 0 1";
        assert_eq!(legal(&p, f), ["a2a3"]);
        let (b, ev) = play(&p, f, &["a2a3"]);
        assert_eq!((b.side_to_move, b.turn_phase), (Color::Black, 0));
        assert!(ev.iter().any(|e| e.kind.name() == "turn-passed"), "{ev:?}");
        assert_eq!(status_at(&p, &b), None);
    }

    #[test]
    fn double_move_stalemate_at_the_start_of_a_turn() {
        let p = pipe(P);
        let out = status_at(&p, &pos(&p, "k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")).unwrap();
        assert_eq!(out.reason.as_str(), "stalemate");
    }

    #[test]
    fn double_move_en_passant_expires_with_the_second_half_move() {
        let p = pipe(P);
        let f = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1";
        // e2-e4 as the first half-move: the right belongs to Black's next move, which the
        // second white half-move is not: it is gone after it.
        let (a, _) = play(&p, f, &["e2e4"]);
        assert!(a.ep_passed.is_none());
        let (b, _) = play_from(&p, a, &["e1d1"]);
        assert!(!has_at(&p, &b, "d4e3"));
        // As the second half-move it stays for Black's reply.
        let (c, _) = play(&p, f, &["e1d1", "e2e4"]);
        assert!(has_at(&p, &c, "d4e3"));
    }
}
