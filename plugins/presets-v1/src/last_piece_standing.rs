//! last-piece-standing — Annihilation.
//!
//! Nothing is royal: kings may be captured and left attacked, there is no check, no pin and
//! no castling-path test. A side with no piece left loses; a side with no legal move loses
//! (not a draw); there is no dead-position draw (bare kings play on until the n-move or
//! n-fold rule). The en passant square is set after every double step an enemy pawn can take
//! (the chess variant only sets it when its king-based legality test allows).

use crate::common::{set_ep_after_double, Bound};
use crate::Meta;
use houserules_plugin_api::{
    stage, Color, Decision, HookSet, Move, MoveEffects, MoveFlags, Outcome, OutcomeContext,
    Position, PresetRules, ResultDecision, SquareSet,
};

pub(crate) const META: Meta = Meta {
    id: "last-piece-standing",
    name: "Annihilation",
    category: "Win/Loss Condition",
    mode: "override",
    description: "Kings are ordinary pieces (no check). A player wins when the opponent has \
                  no pieces left; a player with no legal move loses.",
    requires: &[],
    incompatible: &["capture-to-win"],
    hooks: HookSet(
        HookSet::GET_ROYAL_PIECES.0 | HookSet::ON_CHECK_GAME_RESULT.0 | HookSet::ON_AFTER_MOVE.0,
    ),
    stages: &[stage::MOVE],
    priority: 0,
    movement: "",
    search: &[],
};

/// The preset.
#[derive(Default)]
pub struct LastPieceStanding {
    pub(crate) k: Bound,
}

impl PresetRules for LastPieceStanding {
    fn get_royal_pieces(
        &self,
        _pos: &Position,
        _color: Color,
        _royals: &mut SquareSet,
    ) -> Decision {
        Decision::NO
    }

    fn on_after_move(
        &self,
        pos: &mut Position,
        _before: &Position,
        mv: Move,
        st: u8,
        _fx: &mut MoveEffects,
    ) {
        if st == stage::MOVE && mv.flags.contains(MoveFlags::DOUBLE_STEP) && pos.ep_passed.is_none()
        {
            set_ep_after_double(pos, self.k.get(), mv.from, mv.to, false);
        }
    }

    fn on_check_game_result(
        &self,
        pos: &Position,
        ctx: &OutcomeContext,
        current: Option<&Outcome>,
    ) -> ResultDecision {
        let side = pos.side_to_move;
        if pos.pieces_of(side).next().is_none() {
            return ResultDecision::replace(Outcome::win(side.opposite(), "annihilation"));
        }
        if !ctx.has_legal_moves {
            return ResultDecision::replace(Outcome::win(side.opposite(), "no-legal-moves"));
        }
        if current.is_some_and(|o| o.reason.as_str() == "insufficient-material") {
            // Dead-position draws of the variant assume royal kings.
            return ResultDecision::suppress();
        }
        ResultDecision::defer()
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_host::Game;
    use houserules_plugin_api::{Color, Winner};

    const ID: &str = "last-piece-standing";

    #[test]
    fn last_piece_standing_scenario_1() {
        // White has only a king; it may step into the queen's line (no check), and the queen
        // captures it: Black wins.
        let p = pipe(&[ID]);
        let f = "4k3/8/8/8/8/8/q7/7K w - - 0 1";
        assert!(has(&p, f, "h1h2"));
        let r = result_after(&p, f, &["h1h2", "a2h2"]).unwrap();
        assert_eq!(r.winner, Winner::BLACK);
        assert_eq!(r.reason.as_str(), "annihilation");
        let (after, _) = play(&p, f, &["h1h2"]);
        assert!(
            !p.royal_attacked(&after, Color::White).unwrap(),
            "no check exists"
        );
    }

    #[test]
    fn captured_king_takes_its_castling_rights() {
        // A king on its start square with castling rights is taken: the rights go with it,
        // and the position's FEN reads back (the contract check found `K` kept).
        let p = pipe(&[ID]);
        let f = "4k3/8/8/8/8/8/4q3/R3K2R b KQ - 0 1";
        let (after, _) = play(&p, f, &["e2e1"]);
        let fen = p.write_fen(&after).unwrap();
        assert!(fen.contains(" w - - "), "{fen}");
        assert_eq!(p.write_fen(&p.parse_fen(&fen).unwrap()).unwrap(), fen);
    }

    #[test]
    fn last_piece_standing_scenario_2() {
        // A side with no legal move loses (the catalogue's lone king can always move under
        // these rules, so the stuck side here is a blocked pawn).
        let p = pipe(&[ID]);
        let f = "8/7p/7R/8/8/8/8/K7 b - - 0 1";
        assert!(legal(&p, f).is_empty());
        let r = result_after(&p, f, &[]).unwrap();
        assert_eq!(r.winner, Winner::WHITE);
        assert_eq!(r.reason.as_str(), "no-legal-moves");
    }

    #[test]
    fn last_piece_standing_scenario_3() {
        // King against king: no insufficient-material draw; the n-move rule ends it.
        let p = pipe(&[ID]);
        assert_eq!(result_after(&p, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", &[]), None);
        let plain = pipe(&[]);
        assert!(result_after(&plain, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", &[]).is_some());
        let r = result_after(&p, "4k3/8/8/8/8/8/8/4K3 w - - 150 80", &[]).unwrap();
        assert_eq!(r.reason.as_str(), "n-move-rule");
    }

    #[test]
    fn last_piece_standing_edge_1() {
        // Moving into "check" is legal and pins do not exist.
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
        assert!(
            l.contains(&"e2c3".to_string()),
            "the 'pinned' knight moves: {l:?}"
        );
        assert!(has(&p, "4k3/8/8/8/8/8/8/r3K3 w - - 0 1", "e1d1"));
        // Kings may stand next to each other and capture each other.
        let (after, _) = play(&p, "8/8/8/3k4/8/4K3/8/8 w - - 0 1", &["e3e4"]);
        let r = result_after(&p, &fen(&p, &after), &["d5e4"]).unwrap();
        assert_eq!(r.winner, Winner::BLACK);
    }

    #[test]
    fn last_piece_standing_edge_2() {
        // Black has a king and one pawn; the queen takes the king (no royalty), and the pawn
        // left over cannot move: Black loses by "no legal moves", not a stalemate draw.
        let p = pipe(&[ID]);
        let f = "7k/p7/R7/8/8/8/8/K6Q w - - 0 1";
        let r = result_after(&p, f, &["h1h8"]).unwrap();
        assert_eq!(r.winner, Winner::WHITE);
        assert_eq!(r.reason.as_str(), "no-legal-moves");
    }

    #[test]
    fn last_piece_standing_edge_3() {
        assert!(try_pipe(&[ID, "capture-to-win"]).is_err());
    }

    #[test]
    fn last_piece_standing_en_passant_without_kings() {
        // The en passant square is set even when the side to move has no king.
        let p = pipe(&[ID]);
        let (after, _) = play(&p, "8/3p4/8/4P3/8/8/8/7K b - - 0 1", &["d7d5"]);
        assert_eq!(after.ep_passed, sq("d6"));
        assert!(legal_at(&p, &after).contains(&"e5d6".to_string()));
        let g = Game::new(&p, after);
        assert!(g.status().unwrap().outcome.is_none());
    }
}
