//! capture-to-win — First Blood.
//!
//! The first player to make a capture (any piece; en passant and capture-promotions count;
//! under piece-hp a non-lethal capture counts too) wins at once. The winner is kept as plugin
//! state (`@capture-to-win.winner=1` for White, 2 for Black) because results see positions,
//! not moves. The self-check filter stays; a side with no legal move — checkmated or
//! stalemated — draws (RULINGS).

use crate::Meta;
use houserules_plugin_api::{
    stage, Color, HookSet, Move, MoveEffects, Name, Outcome, OutcomeContext, Position, PresetRules,
    ResultDecision, MOVEMENT_NONE,
};

pub(crate) const META: Meta = Meta {
    id: "capture-to-win",
    name: "First Blood",
    category: "Win/Loss Condition",
    mode: "override",
    description: "The first player to capture any enemy piece wins. Checkmate is no win: a \
                  side without legal moves draws.",
    requires: &[],
    incompatible: &["last-piece-standing"],
    hooks: HookSet(HookSet::ON_AFTER_MOVE.0 | HookSet::ON_CHECK_GAME_RESULT.0),
    stages: &[stage::CAPTURE],
    priority: 50,
    movement: MOVEMENT_NONE,
    search: &[],
};

const OWNER: Name = Name::lit("capture-to-win");
const WINNER: Name = Name::lit("winner");

/// The preset.
pub struct CaptureToWin;

impl PresetRules for CaptureToWin {
    fn on_after_move(
        &self,
        pos: &mut Position,
        _before: &Position,
        mv: Move,
        st: u8,
        fx: &mut MoveEffects,
    ) {
        if st == stage::CAPTURE
            && (mv.is_capture() || fx.captured_len > 0)
            && pos.state_value(OWNER, WINNER).is_none()
        {
            pos.set_state_value(OWNER, WINNER, 1 + fx.mover.index() as i64);
        }
    }

    fn on_check_game_result(
        &self,
        pos: &Position,
        ctx: &OutcomeContext,
        current: Option<&Outcome>,
    ) -> ResultDecision {
        if let Some(w) = pos.state_value(OWNER, WINNER) {
            let c = Color::from_index((w - 1).clamp(0, 1) as usize);
            return ResultDecision::replace(Outcome::win(c, "first-capture"));
        }
        if !ctx.has_legal_moves && current.is_some_and(|o| o.reason.as_str() == "checkmate") {
            return ResultDecision::replace(Outcome::draw("no-legal-moves"));
        }
        ResultDecision::defer()
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Winner;

    const ID: &str = "capture-to-win";
    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn capture_to_win_scenario_1() {
        let p = pipe(&[ID]);
        let r = result_after(&p, START, &["e4", "d5", "exd5"]).unwrap();
        assert_eq!(r.winner, Winner::WHITE);
        assert_eq!(r.reason.as_str(), "first-capture");
        assert_eq!(result_after(&p, START, &["e4", "d5"]), None);
        let (after, _) = play(&p, START, &["e4", "d5", "exd5"]);
        assert!(fen(&p, &after).ends_with("{@capture-to-win.winner=1}"));
        // The decided position has no continuation in perft.
        assert_eq!(perft_nodes(&p, &fen(&p, &after), 1), 0);
    }

    #[test]
    fn capture_to_win_scenario_2() {
        // No captures anywhere and no legal move: stalemate, a draw.
        let p = pipe(&[ID]);
        let r = result_after(&p, "k7/P7/K7/8/8/8/8/8 b - - 0 1", &[]).unwrap();
        assert_eq!(r.winner, Winner::DRAW);
    }

    #[test]
    fn capture_to_win_scenario_3() {
        // In check, the only legal reply captures the checker: it wins.
        let p = pipe(&[ID]);
        let f = "k7/8/8/8/8/8/6q1/7K w - - 0 1";
        assert_eq!(legal(&p, f), ["h1g2"]);
        let r = result_after(&p, f, &["h1g2"]).unwrap();
        assert_eq!(r.winner, Winner::WHITE);
    }

    #[test]
    fn capture_to_win_edge_1() {
        // The king is not special: taking a pawn wins like taking a queen.
        let p = pipe(&[ID]);
        let r = result_after(&p, "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", &["e1d2"]).unwrap();
        assert_eq!(r.winner, Winner::WHITE);
        let r = result_after(&p, "4k3/8/8/8/8/8/p7/Q3K3 b - - 0 1", &["e8d7", "a1b1"]);
        assert_eq!(r, None);
    }

    #[test]
    fn capture_to_win_edge_2() {
        // A promotion counts only when it captures.
        let p = pipe(&[ID]);
        assert_eq!(
            result_after(&p, "3n3k/4P3/8/8/8/8/8/4K3 w - - 0 1", &["e7e8q"]),
            None
        );
        let r = result_after(&p, "3n3k/4P3/8/8/8/8/8/4K3 w - - 0 1", &["e7d8q"]).unwrap();
        assert_eq!(r.winner, Winner::WHITE);
    }

    #[test]
    fn capture_to_win_edge_3() {
        // En passant counts as a capture.
        let p = pipe(&[ID]);
        let r = result_after(&p, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", &["d7d5", "e5d6"]).unwrap();
        assert_eq!(r.winner, Winner::WHITE);
    }

    #[test]
    fn capture_to_win_edge_4() {
        // Offering a piece is not a capture; only the taker wins.
        let p = pipe(&[ID]);
        let f = "4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1";
        assert_eq!(result_after(&p, f, &["d1d4"]), None);
        let r = result_after(&p, f, &["d1d4", "e8e7", "d4d5"]).unwrap();
        assert_eq!(r.winner, Winner::WHITE);
        let f = "4k3/8/8/8/2p5/8/8/3QK3 w - - 0 1";
        let r = result_after(&p, f, &["d1d3", "c4d3"]).unwrap();
        assert_eq!(r.winner, Winner::BLACK);
    }

    #[test]
    fn capture_to_win_ruling_checkmate_draws() {
        // RULINGS: checkmate is no win; the mated side (no legal move) draws.
        let p = pipe(&[ID]);
        let f = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
        let r = result_after(&p, f, &["a1a8"]).unwrap();
        assert_eq!(r.winner, Winner::DRAW);
        assert_eq!(r.reason.as_str(), "no-legal-moves");
    }
}
