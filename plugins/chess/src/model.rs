//! Chess as a rules model (API 1.2), and the chess variant playing a transformed one.
//!
//! [`chess_model`] is FIDE chess as data: Betza movement (the pawn `fmWfceFifmnD`: a quiet
//! step, diagonal captures that may take en passant, the initial lame double step), the king
//! royal, promotion to Q R B N on the last rank, castling. Untransformed, the variant keeps its
//! magic-bitboard engine; a preset's transform (wrap-board, knights-leap-twice, coregal ...)
//! hands back a different model, which [`Modelled`] plays with the shared generator: moves,
//! attacks, FEN validation and results all follow it.

use crate::kind;
use houserules_movegen::{rules_from_model, Generator};
use houserules_plugin_api::abi_stable::std_types::{ROption, RVec};
use houserules_plugin_api::model::{check_rule, ep_capture, ep_policy};
use houserules_plugin_api::{
    CastlingModel, Cell, Color, FenError, GenRequest, Move, MoveEffects, Outcome, OutcomeContext,
    PieceModel, PieceType, Position, PromotionModel, Role, RulesModel, Square, SquareSet, Topology,
};

fn rank(r: u8) -> SquareSet {
    (0..8).map(|f| Square::new(f, r)).collect()
}

/// FIDE chess as a rules model (kinds as in [`crate::piece_table`]).
pub fn chess_model() -> RulesModel {
    let mut pawn = PieceModel::new('P', Role::PAWN, "fmWfceFifmnD");
    pawn.ep_victim = true;
    pawn.ep_capture = ep_capture::MARKED;
    pawn.initial_region = [rank(1), rank(6)];
    pawn.resets_clock = true;
    pawn.promotion = PromotionModel::choice(
        [rank(7), rank(0)],
        &[kind::QUEEN, kind::ROOK, kind::BISHOP, kind::KNIGHT],
        true,
    );
    let mut king = PieceModel::new('K', Role::KING, "K");
    king.royal = true;
    let mut pieces = vec![
        pawn,
        PieceModel::new('N', Role::KNIGHT, "N"),
        PieceModel::new('B', Role::BISHOP, "B"),
        PieceModel::new('R', Role::ROOK, "R"),
        PieceModel::new('Q', Role::QUEEN, "Q"),
        king,
    ];
    for (i, p) in pieces.iter_mut().enumerate() {
        p.hand_kind = i as u8;
    }
    RulesModel {
        files: 8,
        ranks: 8,
        holes: SquareSet::EMPTY,
        topology: Topology::default(),
        pieces: pieces.into_iter().collect(),
        castling: ROption::RSome(CastlingModel {
            king: kind::KING,
            rook: kind::ROOK,
            king_file: 4,
            king_dest: [6, 2],
            rook_dest: [5, 3],
        }),
        check: check_rule::ANY,
        en_passant: ep_policy::LEGAL,
        initial_needs_unmoved: false,
        slide_limit: 0,
        extra: RVec::new(),
    }
}

/// The chess variant playing a transformed model with the shared generator.
pub struct Modelled {
    /// The model.
    pub model: RulesModel,
    /// Its generator.
    pub gen: Generator,
}

impl Modelled {
    /// Compiles `model`.
    pub fn new(model: &RulesModel) -> Result<Modelled, String> {
        if model.files != 8 || model.ranks != 8 || model.pieces.len() != 6 {
            return Err(
                "the chess variant plays models of its own board and piece table only".into(),
            );
        }
        let rules = rules_from_model(model).map_err(|e| e.to_string())?;
        let gen = Generator::new(&rules).map_err(|e| e.to_string())?;
        Ok(Modelled {
            model: model.clone(),
            gen,
        })
    }

    /// Moves the host asks for.
    pub fn generate(&self, pos: &Position, req: &GenRequest, out: &mut RVec<Move>) {
        if req.legal && req.side == pos.side_to_move && req.skip.is_empty() {
            self.gen.legal_moves(pos, out);
        } else {
            self.gen.pseudo_moves(pos, req.side, &req.skip, out);
        }
    }

    /// Reads a FEN: the chess reader without FIDE's assumptions, then the model's checks (a
    /// piece cannot stand on its last rank where every move onto it must promote) and its en
    /// passant policy. (A pawn may stand elsewhere in an early promotion zone: it promotes on
    /// its next move.)
    pub fn parse_fen(&self, text: &str, pieces: &[PieceType]) -> Result<Position, FenError> {
        let mut pos = crate::fen::parse_setup(text, pieces)?;
        for (sq, k) in pos
            .pieces_of(Color::White)
            .chain(pos.pieces_of(Color::Black))
        {
            let Some(p) = self.model.pieces.get(k as usize) else {
                continue;
            };
            let color = pos.get(sq).color().unwrap_or(Color::White);
            let pm = &p.promotion;
            let last = if color == Color::White { 7 } else { 0 };
            if pm.style == PromotionModel::CHOICE
                && pm.mandatory
                && sq.rank() == last
                && pm.zone[color.index()].contains(sq)
            {
                return Err(FenError::new(
                    0,
                    0,
                    format!(
                        "{} {} on {sq}, its promotion rank",
                        color.name(),
                        pieces.get(k as usize).map_or("piece", |t| t.name.as_str())
                    ),
                ));
            }
        }
        if self.model.castling.is_none() {
            // Rules without castling have no castling rights.
            pos.castling = [Square::NONE; 4];
        }
        self.gen.normalize_ep(&mut pos);
        Ok(pos)
    }

    /// The model's results: checkmate and stalemate; a dead position only for bare kings
    /// that move as kings (any other material may win under a changed movement or royalty).
    pub fn outcome(&self, pos: &Position, ctx: &OutcomeContext) -> Option<Outcome> {
        if !ctx.has_legal_moves {
            return Some(if ctx.in_check {
                Outcome::win(pos.side_to_move.opposite(), "checkmate")
            } else {
                Outcome::draw("stalemate")
            });
        }
        if ctx.counting {
            return None;
        }
        let king = &self.model.pieces[kind::KING as usize];
        let bare = pos.squares().all(|s| {
            let c = pos.get(s);
            c == Cell::EMPTY || c.kind() == Some(kind::KING)
        });
        (bare && king.betza.as_str() == "K" && king.royal)
            .then(|| Outcome::draw("insufficient-material"))
    }

    /// Makes a move.
    pub fn apply(&self, pos: &mut Position, mv: Move, fx: &mut MoveEffects) {
        self.gen.apply(pos, mv, fx);
    }
}
