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
use crate::{board_of, fide_en_passant, kind, one_king_each, to_api, wanted, Chess};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    Color, GenRequest, Move, MoveEffects, Position, ReplayedLine, ReplayedPly, SanReader,
    SquareSet, VariantRules,
};

/// The SAN reader of the chess piece table (built once).
fn reader() -> &'static SanReader {
    static READER: std::sync::OnceLock<SanReader> = std::sync::OnceLock::new();
    READER.get_or_init(|| SanReader::new(&crate::piece_table()))
}

impl Chess {
    /// See `VariantRules::replay_line`. `None` when the rules are a changed model (the host
    /// never asks then: a changed model comes with presets).
    pub(crate) fn replay(&self, start: &Position, tokens: &[&str]) -> Option<ReplayedLine> {
        if self.modelled.is_some() {
            return None;
        }
        let reader = reader();
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
            let b = board_of(&pos);
            if one_king_each(&b) && fide_en_passant(&pos) {
                // What `generate` does for this request, without its checks and copies.
                list.clear();
                b.generate_wanted(&mut list, wanted(&req));
                moves.extend(list.iter().map(|&m| to_api(m)));
            } else {
                self.generate(&pos, &req, &mut moves);
                // The shared generator gives every legal move: keep those asked for (the
                // host's filter, `keep_wanted`).
                let mut kept = 0;
                for i in 0..moves.len() {
                    if req.wants(&pos, &moves[i]) {
                        moves[kept] = moves[i];
                        kept += 1;
                    }
                }
                moves.truncate(kept);
            }
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
