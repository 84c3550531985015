//! #24 capture-all — Capture All: capture every enemy piece to win (the inverse of suicide).
//!
//! `get_royal_pieces` NO (no royalty) and `should_filter_self_check` NO; captures are not
//! compulsory. `on_check_game_result`: the side to move with no piece left has lost (reason
//! `capture-all`); a side with no legal move is stalemated (the chess plugin's draw stands);
//! the insufficient-material draw (which assumes royal kings) is suppressed. With piece-hp
//! only lethal damage removes a piece, so counting pieces on the board is right. Like
//! suicide-chess it sets the en passant fields itself after a double step (C2) and drops the
//! castling rights of a side whose king was captured.

use crate::common::Kinds;
use crate::suicide_chess::no_royalty_after_move;
use crate::Meta;
use houserules_plugin_api::{
    preset_object, stage, Color, Decision, HookSet, Move, MoveEffects, Outcome, OutcomeContext,
    Position, PresetBox, PresetRules, ResultDecision, SquareSet,
};

pub(crate) const META: Meta = Meta {
    id: "capture-all",
    name: "Capture All",
    category: "Objectives",
    mode: "hooks",
    description: "Capture every enemy piece to win. Kings are not royal; captures are not \
                  compulsory; a side without legal moves is stalemated (draw).",
    incompatible: &[
        "knightmate-rules",
        "coregal",
        "weak-dual-king",
        "suicide-chess",
        "last-piece-standing",
    ],
    scope: None,
    hooks: HookSet(
        HookSet::GET_ROYAL_PIECES.0
            | HookSet::SHOULD_FILTER_SELF_CHECK.0
            | HookSet::ON_CHECK_GAME_RESULT.0
            | HookSet::ON_AFTER_MOVE.0,
    ),
    stages: &[stage::MOVE],
    priority: -10,
    preferred_layout: None,
    extra: &[],
};

pub(crate) fn new(k: Kinds) -> Result<PresetBox, String> {
    Ok(preset_object(CaptureAll { k }))
}

struct CaptureAll {
    k: Kinds,
}

impl PresetRules for CaptureAll {
    fn get_royal_pieces(&self, _: &Position, _: Color, _: &mut SquareSet) -> Decision {
        Decision::NO
    }

    fn should_filter_self_check(&self, _: &Position, _: Color) -> Decision {
        Decision::NO
    }

    fn on_after_move(
        &self,
        pos: &mut Position,
        _before: &Position,
        mv: Move,
        st: u8,
        fx: &mut MoveEffects,
    ) {
        no_royalty_after_move(&self.k, pos, mv, st, fx.mover);
    }

    fn on_check_game_result(
        &self,
        pos: &Position,
        _ctx: &OutcomeContext,
        current: Option<&Outcome>,
    ) -> ResultDecision {
        let side = pos.side_to_move;
        if pos.pieces_of(side).next().is_none() {
            ResultDecision::replace(Outcome::win(side.opposite(), "capture-all"))
        } else if current.is_some_and(|o| o.reason.as_str() == "insufficient-material") {
            ResultDecision::suppress()
        } else {
            ResultDecision::defer()
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;

    const P: &[&str] = &["capture-all"];

    #[test]
    fn capture_all_capturing_the_last_piece_wins() {
        let p = pipe(P);
        let (a, _) = play(&p, "8/8/8/8/8/8/8/k6R w - - 0 1", &["h1a1"]);
        let out = status_at(&p, &a).unwrap();
        assert_eq!(out.winner.pgn(), "1-0");
        assert_eq!(out.reason.as_str(), "capture-all");
        assert_eq!(perft_at(&p, &a, 1), 0);
    }

    #[test]
    fn capture_all_captures_are_not_compulsory_and_kings_are_not_royal() {
        let p = pipe(P);
        let f = "4k3/8/8/8/8/8/r7/4K2R w - - 0 1";
        // Not compulsory: quiet moves stay; the king may step into attack.
        assert!(has(&p, f, "e1e2"));
        assert!(has(&p, f, "h1h2"));
        assert!(has(&p, f, "h1h8"));
        // Capturing the king does not end the game while other pieces remain.
        let (a, _) = play(&p, f, &["e1e2", "a2e2"]);
        assert_eq!(status_at(&p, &a), None);
    }

    #[test]
    fn capture_all_stalemate_is_a_draw() {
        let p = pipe(P);
        let out = status_at(&p, &pos(&p, "8/8/8/8/8/p7/P7/8 w - - 0 1")).unwrap();
        assert_eq!(out.reason.as_str(), "stalemate");
        assert_eq!(out.winner.pgn(), "1/2-1/2");
    }

    #[test]
    fn capture_all_no_insufficient_material_draw() {
        let p = pipe(P);
        // Two kings can still capture each other.
        assert_eq!(
            status_at(&p, &pos(&p, "8/8/8/3k4/8/8/8/4K3 w - - 0 1")),
            None
        );
    }

    #[test]
    fn capture_all_en_passant_against_a_pinned_pawn() {
        let p = pipe(P);
        // In chess the d4 pawn is pinned to its king by the rook; here the king is not royal.
        let (b, _) = play(&p, "8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1", &["e2e4"]);
        assert!(has_at(&p, &b, "d4e3"));
    }
}
