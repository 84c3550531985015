//! #23 suicide-chess — Suicide Chess (Losing Chess, Antichess).
//!
//! * `get_royal_pieces` answers **NO** (no royalty at all — YES with an empty set would be
//!   "has lost its royals"); `should_filter_self_check` NO (redundant without royalty, kept as
//!   the catalogue lists it). Kings are ordinary pieces: they may be captured, left attacked,
//!   and they castle as a plain move (ruling) — castling through attacked squares included.
//! * `filter_legal_moves`: captures are compulsory — if any legal move captures (en passant
//!   included), only captures remain.
//! * `on_check_game_result`: the side to move with no piece left, or with no legal move, wins
//!   (replacing the variant's stalemate draw); the chess plugin's insufficient-material draw is
//!   suppressed (it assumes royal kings).
//! * `on_after_move` (`MOVE`): the chess plugin keeps an en passant square only when a FIDE
//!   capture is legal for a side with one royal king; here the right exists whenever an enemy
//!   pawn can take (the design review's C2), so the preset sets the fields itself. A side whose
//!   king is captured loses its castling rights.

use crate::common::{is_double_step, set_en_passant, Kinds};
use crate::Meta;
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    castle_slot, preset_object, stage, Color, Decision, HookSet, Move, MoveEffects, Outcome,
    OutcomeContext, Position, PresetBox, PresetRules, ResultDecision, Role, Square, SquareSet,
    VariantInfo,
};

pub(crate) const META: Meta = Meta {
    id: "suicide-chess",
    name: "Suicide Chess",
    category: "Objectives",
    mode: "hooks",
    description: "Lose all your pieces to win. Captures are compulsory; kings are not royal; \
                  a side with no legal move or no piece left wins.",
    incompatible: &[
        "knightmate-rules",
        "coregal",
        "weak-dual-king",
        "capture-all",
        "last-piece-standing",
        "capture-to-win",
    ],
    scope: None,
    hooks: HookSet(
        HookSet::GET_ROYAL_PIECES.0
            | HookSet::SHOULD_FILTER_SELF_CHECK.0
            | HookSet::FILTER_LEGAL_MOVES.0
            | HookSet::ON_CHECK_GAME_RESULT.0
            | HookSet::ON_AFTER_MOVE.0
            | HookSet::EVALUATE.0,
    ),
    stages: &[stage::MOVE],
    // Before berolina-pawns, which sets the en passant fields with its own pawn geometry.
    priority: -10,
    preferred_layout: None,
    extra: &[],
};

pub(crate) fn new(k: Kinds, variant: &VariantInfo) -> Result<PresetBox, String> {
    // The values the engine's evaluation counts (royal types count nothing there).
    let values = variant
        .pieces
        .iter()
        .map(|p| if p.royal { 0 } else { p.value.max(0) })
        .collect();
    Ok(preset_object(Suicide { k, values }))
}

struct Suicide {
    k: Kinds,
    /// Declared value per piece kind, as the engine's evaluation counts it.
    values: Vec<i32>,
}

/// Centipawns each piece on the board costs its side beyond its value: losing them all wins,
/// kings included.
const PIECE_BURDEN: i32 = 30;

/// Bookkeeping the chess plugin does for royal kings only, for sides without royalty: the en
/// passant fields after a FIDE double step (the right exists whenever an enemy pawn can take),
/// and the castling rights of a side whose king was captured (they go with the king, as in
/// Fairy-Stockfish; the chess FEN reader refuses rights without a king).
pub(crate) fn no_royalty_after_move(k: &Kinds, pos: &mut Position, mv: Move, st: u8, mover: Color) {
    if st != stage::MOVE {
        return;
    }
    if is_double_step(mv) {
        set_en_passant(pos, k, mv, mover, |_| false);
    }
    if mv.is_capture() {
        for (slot, color) in [
            (castle_slot::WHITE_KING_SIDE, Color::White),
            (castle_slot::WHITE_QUEEN_SIDE, Color::White),
            (castle_slot::BLACK_KING_SIDE, Color::Black),
            (castle_slot::BLACK_QUEEN_SIDE, Color::Black),
        ] {
            let rook = pos.castling[slot];
            if rook.is_none() {
                continue;
            }
            let king_on_back_rank = (0..pos.files()).any(|f| {
                let c = pos.get(Square::new(f, rook.rank()));
                c.is_color(color) && k.is(c, Role::KING)
            });
            if !king_on_back_rank {
                pos.castling[slot] = Square::NONE;
                pos.invalidate_accel();
            }
        }
    }
}

impl Suicide {
    fn value(&self, kind: u8) -> i32 {
        self.values.get(kind as usize).copied().unwrap_or(0)
    }
}

impl PresetRules for Suicide {
    fn get_royal_pieces(&self, _: &Position, _: Color, _: &mut SquareSet) -> Decision {
        Decision::NO
    }

    fn should_filter_self_check(&self, _: &Position, _: Color) -> Decision {
        Decision::NO
    }

    /// Material is a burden: the engine's evaluation counts each piece at its value, this
    /// counts it twice against, so the sum says "fewer and cheaper pieces are better".
    fn evaluate(&self, pos: &Position) -> i32 {
        let mut score = 0;
        for (_, c) in pos.pieces_of(Color::White) {
            score -= 2 * self.value(c) + PIECE_BURDEN;
        }
        for (_, c) in pos.pieces_of(Color::Black) {
            score += 2 * self.value(c) + PIECE_BURDEN;
        }
        score
    }

    fn filter_legal_moves(&self, _pos: &Position, moves: &mut RVec<Move>) {
        if moves.iter().any(|m| m.is_capture()) {
            moves.retain(|m| m.is_capture());
        }
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
        ctx: &OutcomeContext,
        current: Option<&Outcome>,
    ) -> ResultDecision {
        let side = pos.side_to_move;
        if pos.pieces_of(side).next().is_none() {
            ResultDecision::replace(Outcome::win(side, "all-pieces-lost"))
        } else if !ctx.has_legal_moves {
            ResultDecision::replace(Outcome::win(side, "stalemate"))
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

    const P: &[&str] = &["suicide-chess"];

    #[test]
    fn evaluation_counts_material_against_its_side() {
        let p = pipe(P);
        assert!(p.has_evaluation_terms());
        let even = p.game_start("4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(p.evaluation_terms(&even).unwrap(), 0);
        // White's extra queen counts twice against White (the engine counts it once for).
        let queen = p.game_start("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        let v = p.evaluation_terms(&queen).unwrap();
        assert_eq!(v, -(2 * 900 + super::PIECE_BURDEN));
    }

    #[test]
    fn suicide_chess_captures_are_compulsory() {
        let p = pipe(P);
        let f = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        assert_eq!(legal(&p, f), ["e4d5"]);
        // Several captures: any of them.
        let f2 = "4k3/8/8/2p1p3/3Q4/8/8/4K3 w - - 0 1";
        let mut m = legal(&p, f2);
        m.sort();
        assert_eq!(m, ["d4c5", "d4e5"]);
        // Without captures every move is legal.
        assert_eq!(perft_fen(&p, START, 1), 20);
    }

    #[test]
    fn suicide_chess_kings_are_not_royal() {
        let p = pipe(P);
        // The king may walk into attack and may be captured; no check exists.
        let f = "4k3/8/8/8/8/8/r7/4K3 w - - 0 1";
        assert!(has(&p, f, "e1e2"));
        let position = pos(&p, f);
        assert!(p
            .royals(&position, houserules_plugin_api::Color::White)
            .unwrap()
            .is_none());
        let (a, _) = play(&p, f, &["e1e2", "a2e2"]);
        assert_eq!(fen(&p, &a), "4k3/8/8/8/8/8/4r3/8 w - - 0 2");
        // A FEN with an "attacked" king of the side not to move is fine.
        assert!(p.parse_fen("4k3/8/8/8/8/8/r7/4K3 b - - 0 1").is_ok());
    }

    #[test]
    fn suicide_chess_castling_rights_go_with_a_captured_king() {
        let p = pipe(P);
        // Re1xe8 captures the black king: Black's rights go with it.
        let (c, _) = play(&p, "r3k2r/8/8/8/8/8/8/4R2K w kq - 0 1", &["e1e8"]);
        assert_eq!(fen(&p, &c), "r3R2r/8/8/8/8/8/8/7K b - - 0 1");
        assert!(pos(&p, &fen(&p, &c)).same_for_repetition(&c));
    }

    #[test]
    fn suicide_chess_the_side_with_no_piece_left_wins() {
        let p = pipe(P);
        let out = status_at(&p, &pos(&p, "4k3/8/8/8/8/8/8/8 w - - 0 1")).unwrap();
        assert_eq!(out.winner.pgn(), "1-0");
        assert_eq!(out.reason.as_str(), "all-pieces-lost");
    }

    #[test]
    fn suicide_chess_stalemate_wins() {
        let p = pipe(P);
        // White's pawn on a2 is blocked by a black pawn: White has no legal move and wins.
        let out = status_at(&p, &pos(&p, "8/8/8/8/8/p7/P7/8 w - - 0 1")).unwrap();
        assert_eq!(out.winner.pgn(), "1-0");
        assert_eq!(out.reason.as_str(), "stalemate");
    }

    #[test]
    fn suicide_chess_no_insufficient_material_draw() {
        let p = pipe(P);
        assert_eq!(
            status_at(&p, &pos(&p, "8/8/8/3k4/8/8/8/4K3 w - - 0 1")),
            None
        );
    }

    #[test]
    fn suicide_chess_castling_is_a_plain_move() {
        let p = pipe(P);
        // The rook on f8 covers f1: castling through it is still legal (no royalty).
        let f = "k4r2/8/8/8/8/8/8/4K2R w K - 0 1";
        assert_eq!(castles(&p, f), ["e1g1"]);
        // But a capture, when available, comes first.
        let f2 = "k4r2/8/8/8/8/8/8/4KR1R w K - 0 1";
        assert_eq!(legal(&p, f2), ["f1f8"]);
    }

    #[test]
    fn suicide_chess_en_passant_without_kings() {
        let p = pipe(P);
        // No kings: the chess plugin alone would drop the right; the capture is compulsory.
        let (a, _) = play(&p, "8/8/8/8/3p4/8/4P3/8 w - - 0 1", &["e2e4"]);
        assert_eq!(legal_at(&p, &a), ["d4e3"]);
        assert_eq!(fen(&p, &a), "8/8/8/8/3pP3/8/8/8 b - e3 0 1");
        // And it reads back.
        assert_eq!(legal(&p, "8/8/8/8/3pP3/8/8/8 b - e3 0 1"), ["d4e3"]);
    }
}
