//! Whole main lines replayed inside the plugin (API 1.6, `VariantRules::replay_line`): batch
//! analysis hands the SAN of a line over once, and every ply is read, generated, applied and
//! marked here, with the engine board kept in the position's cache, instead of crossing the
//! library boundary for each of those steps.
//!
//! Each ply is exactly what the host's move-by-move path gives: tokens are read with the
//! host's own [`SanReader`], the candidate moves are this variant's `generate` for the token's
//! destination and piece kinds (castling: every legal move), the move is applied with this
//! variant's `apply`, and the check mark follows the host's rule (a king of the other side
//! attacked; `#` when that side then has no legal move).

use crate::engine::MoveList;
use crate::{board_of, kind, legal_wanted, one_king_each, Chess};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    Color, GenRequest, Move, MoveEffects, Position, ReplayedLine, ReplayedPly, SquareSet,
    VariantRules,
};

impl Chess {
    /// See `VariantRules::replay_line`. `None` when the rules are a changed model (the host
    /// never asks then: a changed model comes with presets).
    pub(crate) fn replay(&self, start: &Position, tokens: &[&str]) -> Option<ReplayedLine> {
        if self.modelled.is_some() {
            return None;
        }
        let reader = &self.san;
        let mut pos = start.clone();
        let mut plies = RVec::with_capacity(tokens.len());
        let mut moves = RVec::with_capacity(64);
        let mut list = MoveList::new();
        for text in tokens {
            let Some(token) = reader.read(&pos, text) else {
                break;
            };
            let mut req = GenRequest::new(pos.side_to_move, true, SquareSet::EMPTY);
            if token.castle.is_none() {
                req = req.of_kinds(reader.kinds(&token)).to_square(token.dest);
            }
            moves.clear();
            legal_wanted(&pos, &req, &mut list, &mut moves);
            let Some(mv) = reader.matching(&pos, &token, &moves) else {
                break;
            };
            let mover = pos.side_to_move;
            self.apply(&mut pos, mv, &mut MoveEffects::new(mover, false));
            let mark = self.mark(&pos, mover, &mut moves);
            plies.push(ReplayedPly {
                mv,
                mover,
                mark,
                key: pos.repetition_hash(),
            });
        }
        Some(ReplayedLine {
            plies,
            position: pos,
        })
    }

    /// The check mark of a move by `mover` that led to `after`: `b'+'` when a king of the
    /// other side is attacked, `b'#'` when that side, to move, also has no legal move, 0
    /// without check.
    fn mark(&self, after: &Position, mover: Color, buf: &mut RVec<Move>) -> u8 {
        let opponent = mover.opposite();
        let b = board_of(after);
        let check = if one_king_each(&b) && after.side_to_move == opponent {
            b.is_check()
        } else {
            after
                .pieces_of(opponent)
                .any(|(sq, k)| k == kind::KING && self.is_attacked(after, sq, mover))
        };
        if !check {
            return 0;
        }
        buf.clear();
        self.generate(
            after,
            &GenRequest::new(after.side_to_move, true, SquareSet::EMPTY),
            buf,
        );
        if buf.is_empty() && after.side_to_move == opponent {
            b'#'
        } else {
            b'+'
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use houserules_plugin_api::MoveFlags;

    /// Replays `tokens` from `fen`: the plies' moves' flags, their marks, and the FEN after.
    fn replay(fen: &str, tokens: &str) -> (usize, Vec<u8>, String, Option<Move>) {
        let chess = Chess::default();
        let start = chess.parse_fen(fen).expect("a FEN");
        let tokens: Vec<&str> = tokens.split_whitespace().collect();
        let line = chess.replay(&start, &tokens).expect("a line");
        // Every key is the position's own hash: the last one checked here, the rest by the
        // host's comparison with the move-by-move path (tests/tests/whole_lines.rs).
        if let Some(last) = line.plies.last() {
            assert_eq!(last.key, line.position.repetition_hash());
        }
        (
            line.plies.len(),
            line.plies.iter().map(|p| p.mark).collect(),
            chess.write_fen(&line.position),
            line.plies.last().map(|p| p.mv),
        )
    }

    const START: &str = crate::START_FEN;

    #[test]
    fn a_mate_is_marked_and_the_position_is_the_one_after() {
        let (n, marks, fen, _) = replay(START, "e4 e5 Bc4 Nc6 Qh5 Nf6 Qxf7#");
        assert_eq!(n, 7);
        assert_eq!(marks, [0, 0, 0, 0, 0, 0, b'#']);
        // As python-chess writes it.
        assert_eq!(
            fen,
            "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
        );
    }

    #[test]
    fn en_passant_and_castling_are_the_moves_they_name() {
        let (n, _, fen, last) = replay(START, "e4 a6 e5 d5 exd6");
        assert_eq!(n, 5);
        assert!(last.is_some_and(|m| m.flags.contains(MoveFlags::EN_PASSANT)));
        assert_eq!(
            fen,
            "rnbqkbnr/1pp1pppp/p2P4/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3"
        );
        let (n, _, fen, last) = replay(START, "Nf3 a6 g3 b6 Bg2 c6 O-O");
        assert_eq!(n, 7);
        assert!(last.is_some_and(|m| m.is_castle()));
        assert_eq!(
            fen,
            "rnbqkbnr/3ppppp/ppp5/8/8/5NP1/PPPPPPBP/RNBQ1RK1 b kq - 1 4"
        );
    }

    #[test]
    fn the_line_stops_before_a_token_that_names_no_single_move() {
        let fen = "R7/4k3/8/8/8/8/8/R3K3 w - - 0 1";
        // Both rooks reach a4: ambiguous, left to the host.
        assert_eq!(replay(fen, "Ra4 Kd6").0, 0);
        let (n, marks, fen_after, _) = replay(fen, "R1a4 Kd6 R8a6+ Kc5");
        assert_eq!((n, marks), (4, vec![0, 0, b'+', 0]));
        assert_eq!(fen_after, "8/8/R7/2k5/R7/8/8/4K3 w - - 4 3");
        // Not SAN; no such piece; not legal (the king would stay in check).
        assert_eq!(replay(fen, "R1a4 e2e4x").0, 1);
        assert_eq!(replay(fen, "R1a4 Kd6 Qd2").0, 2);
        assert_eq!(replay(fen, "R1a4 Kd6 R8a6+ Kb6").0, 3);
    }

    #[test]
    fn a_promotion_needs_its_piece() {
        let fen = "8/P6k/8/8/8/8/8/K7 w - - 0 1";
        assert_eq!(replay(fen, "a8").0, 0);
        let (n, _, fen, last) = replay(fen, "a8=N Kg6");
        assert_eq!(n, 2);
        assert!(last.is_some());
        assert_eq!(fen, "N7/8/6k1/8/8/8/8/K7 w - - 1 2");
    }
}
