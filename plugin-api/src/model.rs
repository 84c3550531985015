//! The rules model (API 1.2): a variant's movement, geometry, royalty and promotion as data.
//!
//! A variant that can run a changed model publishes its own through
//! [`crate::VariantRules::rules_model`]. A preset that changes movement, geometry, royalty or
//! promotion says so by declaring [`crate::HookSet::TRANSFORM_MODEL`] and editing the model in
//! [`crate::PresetRules::transform_model`] (knights-leap-twice appends a second leg to the
//! knight's Betza, wrap-board sets [`Topology::wrap_files`], coregal makes queens royal). The
//! host applies the transforms in pipeline order when it builds the pipeline and hands the
//! result back with [`crate::VariantRules::set_model`]; the variant then plays it (the bundled
//! ones with the shared generator, `houserules-movegen`). What data cannot say stays a hook.
//!
//! Movement is written in Betza notation, houserules dialect: Fairy-Stockfish's Betza plus
//! `e` (this capturing leap may take en passant), `a` (a second leg after an empty square:
//! `mNaN`) and `w` (warp to the far end of a line whose squares to the edge are empty). The
//! dialect is documented in the `houserules-movegen` crate.

use crate::board::SquareSet;
use crate::manifest::{OptionValue, Role};
use abi_stable::{
    std_types::{ROption, RString, RVec},
    StableAbi,
};

/// How the edges of the board behave.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Topology {
    /// Files wrap (a cylinder): every step, leap, slide and leg crosses between the first and
    /// last file; ranks do not; a slide stops before returning to its own square.
    pub wrap_files: bool,
    /// Diagonal rays of pieces with [`PieceModel::bounce`] reflect off the side files.
    pub bounce_files: bool,
    /// ... and off the first and last ranks.
    pub bounce_ranks: bool,
    /// Most reflections per ray; a ray that reaches a corner stops there.
    pub max_reflections: u8,
    /// Reserved (zero).
    pub reserved: [u8; 4],
}

/// How a piece promotes: [`PromotionModel::style`] is one of the constants.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq, Default)]
pub struct PromotionModel {
    /// [`PromotionModel::NONE`], [`PromotionModel::CHOICE`] or [`PromotionModel::SHOGI`].
    pub style: u8,
    /// Promotion zone, per colour.
    pub zone: [SquareSet; 2],
    /// Kinds it may become (CHOICE: in this order; SHOGI: the one promoted kind). For Black
    /// the piece's [`PieceModel::EXTRA_PROMOTION_CHOICES_BLACK`] replaces them when present
    /// (1.9: per-colour promotions, such as Fairy-Stockfish's `promotionPieceTypesBlack`).
    pub choices: RVec<u8>,
    /// It must promote.
    pub mandatory: bool,
}

impl PromotionModel {
    /// No promotion.
    pub const NONE: u8 = 0;
    /// Chess style: a move ending in the zone becomes one of `choices`.
    pub const CHOICE: u8 = 1;
    /// Shogi style: a move starting or ending in the zone may (must) become `choices[0]`.
    pub const SHOGI: u8 = 2;

    /// Chess-style promotion in `zone` to `choices`.
    pub fn choice(zone: [SquareSet; 2], choices: &[u8], mandatory: bool) -> PromotionModel {
        PromotionModel {
            style: Self::CHOICE,
            zone,
            choices: choices.iter().copied().collect(),
            mandatory,
        }
    }
}

/// Which capture moves of a piece may take en passant ([`PieceModel::ep_capture`]).
pub mod ep_capture {
    /// None.
    pub const NONE: u8 = 0;
    /// The capturing leaps marked `e` in its Betza.
    pub const MARKED: u8 = 1;
    /// Every square it attacks but cannot move to (Fairy-Stockfish's `enPassantTypes`).
    pub const CAPTURE_ONLY: u8 = 2;
}

/// One piece kind of the model (its index is the kind, as in [`crate::VariantInfo::pieces`]).
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct PieceModel {
    /// FEN letter (upper case).
    pub letter: u8,
    /// Role (how presets find it).
    pub role: Role,
    /// Movement, White's view, houserules Betza.
    pub betza: RString,
    /// Black's movement when it differs from White's rotated (scope-aware presets).
    pub betza_black: ROption<RString>,
    /// Royal: the check rule protects it, losing all royals loses.
    pub royal: bool,
    /// It cannot be captured.
    pub immune: bool,
    /// Promotion.
    pub promotion: PromotionModel,
    /// Its moves through a passed square (lame leaps such as `nD`, initial moves) may be taken
    /// en passant on that square.
    pub ep_victim: bool,
    /// Which of its captures take en passant (see [`ep_capture`]).
    pub ep_capture: u8,
    /// Where its initial (`i`) moves apply, per colour.
    pub initial_region: [SquareSet; 2],
    /// Its moves reset the halfmove clock.
    pub resets_clock: bool,
    /// The kind a capture of it puts in hand.
    pub hand_kind: u8,
    /// Its diagonal rays bounce (see [`Topology`]).
    pub bounce: bool,
    /// Open-ended metadata (keys: [`PieceModel::EXTRA_PROMOTION_CHOICES_BLACK`]).
    pub extra: RVec<OptionValue>,
}

impl PieceModel {
    /// Key of [`PieceModel::extra`] (1.9): the kinds a chess-style promotion of Black's piece
    /// may become, where they differ from White's [`PromotionModel::choices`] (Chigorin:
    /// White's pawns become knights, Black's bishops). The value lists kind indices in the
    /// order moves are listed, separated by commas (`"4,3,1"`; empty: no choice, so a Black
    /// piece cannot move into its zone). Absent: both colours promote to `choices`. A variant
    /// that does not know the key plays `choices` for both colours, so a variant that sets it
    /// must also read it (the bundled generator does); a preset that replaces `choices` for
    /// both colours removes it ([`PieceModel::set_promotion_choices_black`] with `None`).
    pub const EXTRA_PROMOTION_CHOICES_BLACK: &'static str = "promotion-choices-black";

    /// The kinds a chess-style promotion of this piece may become for `black` (`false`:
    /// White): [`PromotionModel::choices`], or for Black the per-colour list when set; an
    /// error names a malformed list.
    pub fn promotion_choices(&self, black: bool) -> Result<Vec<u8>, String> {
        let per_colour = self
            .extra
            .iter()
            .find(|o| o.key.as_str() == Self::EXTRA_PROMOTION_CHOICES_BLACK);
        match per_colour {
            Some(o) if black => o
                .value
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(|t| {
                    t.parse::<u8>().map_err(|_| {
                        format!(
                            "`{}`: `{t}` is not a piece kind (in `{}`)",
                            Self::EXTRA_PROMOTION_CHOICES_BLACK,
                            o.value
                        )
                    })
                })
                .collect(),
            _ => Ok(self.promotion.choices.to_vec()),
        }
    }

    /// Sets (`Some`) or removes (`None`) Black's own promotion choices
    /// ([`PieceModel::EXTRA_PROMOTION_CHOICES_BLACK`]).
    pub fn set_promotion_choices_black(&mut self, choices: Option<&[u8]>) {
        self.extra
            .retain(|o| o.key.as_str() != Self::EXTRA_PROMOTION_CHOICES_BLACK);
        if let Some(c) = choices {
            let value: Vec<String> = c.iter().map(u8::to_string).collect();
            self.extra.push(OptionValue {
                key: Self::EXTRA_PROMOTION_CHOICES_BLACK.into(),
                value: value.join(",").into(),
            });
        }
    }

    /// A piece with this letter, role and movement, and no other property.
    pub fn new(letter: char, role: Role, betza: &str) -> PieceModel {
        PieceModel {
            letter: letter.to_ascii_uppercase() as u8,
            role,
            betza: betza.into(),
            betza_black: ROption::RNone,
            royal: false,
            immune: false,
            promotion: PromotionModel::default(),
            ep_victim: false,
            ep_capture: ep_capture::NONE,
            initial_region: [SquareSet::EMPTY; 2],
            resets_clock: false,
            hand_kind: 0,
            bounce: false,
            extra: RVec::new(),
        }
    }
    /// Appends `betza` to the movement of both colours (a preset adding moves).
    pub fn add_movement(&mut self, betza: &str) {
        self.betza.push_str(betza);
        if let ROption::RSome(b) = &mut self.betza_black {
            b.push_str(betza);
        }
    }
}

/// Castling as in chess and Chess960: the castling piece and a partner whose square is in
/// `Position::castling`, on their back rank, every square either crosses empty; the king
/// ends on `king_dest[side]`, the partner on `rook_dest[side]` (side 0 = towards the last
/// file). A royal castling piece may not castle out of, through or into check.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct CastlingModel {
    /// The kind that castles.
    pub king: u8,
    /// The partner's kind.
    pub rook: u8,
    /// With several castling pieces on the back rank, the one on this file castles.
    pub king_file: u8,
    /// King destination files: [king side, queen side].
    pub king_dest: [u8; 2],
    /// Partner destination files.
    pub rook_dest: [u8; 2],
}

/// The check rule ([`RulesModel::check`]).
pub mod check_rule {
    /// In check when any protected royal is attacked; no move may leave one attacked.
    pub const ANY: u8 = 0;
    /// In check only when every royal is attacked (weak dual king).
    pub const ALL: u8 = 1;
    /// No self-check filter.
    pub const OFF: u8 = 2;
}

/// When an en passant right is recorded ([`RulesModel::en_passant`]).
pub mod ep_policy {
    /// After every passing move.
    pub const ALWAYS: u8 = 0;
    /// When an enemy piece could capture (pins and checks aside), as Fairy-Stockfish.
    pub const PSEUDO: u8 = 1;
    /// When the capture is legal (FIDE's and python-chess's FEN convention).
    pub const LEGAL: u8 = 2;
}

/// A variant's movement, geometry, royalty and promotion, as data.
#[repr(C)]
#[derive(StableAbi, Debug, Clone, PartialEq, Eq)]
pub struct RulesModel {
    /// Board width.
    pub files: u8,
    /// Board height.
    pub ranks: u8,
    /// Squares of the rectangle that are not on the board.
    pub holes: SquareSet,
    /// Edges.
    pub topology: Topology,
    /// The piece kinds (same order as the variant's piece table).
    pub pieces: RVec<PieceModel>,
    /// Castling, if the variant has it.
    pub castling: ROption<CastlingModel>,
    /// See [`check_rule`].
    pub check: u8,
    /// See [`ep_policy`].
    pub en_passant: u8,
    /// A piece that has moved (attribute `Moved`) has no initial moves.
    pub initial_needs_unmoved: bool,
    /// Every slide and ride goes at most this many squares (0 = no limit).
    pub slide_limit: u8,
    /// Open-ended metadata (room for later API versions).
    pub extra: RVec<OptionValue>,
}

impl RulesModel {
    /// The kinds with role `role`.
    pub fn kinds_with(&self, role: Role) -> impl Iterator<Item = usize> + '_ {
        self.pieces
            .iter()
            .enumerate()
            .filter(move |(_, p)| p.role == role)
            .map(|(i, _)| i)
    }
    /// Whether the side has royal pieces at all in this model.
    pub fn has_royalty(&self) -> bool {
        self.pieces.iter().any(|p| p.royal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_promotion_choices_override_whites_when_set() {
        let mut pawn = PieceModel::new('P', Role::PAWN, "fmW");
        pawn.promotion = PromotionModel::choice([SquareSet::EMPTY; 2], &[4, 3], true);
        assert_eq!(pawn.promotion_choices(true), Ok(vec![4, 3]));
        pawn.set_promotion_choices_black(Some(&[2, 1]));
        assert_eq!(pawn.promotion_choices(false), Ok(vec![4, 3]));
        assert_eq!(pawn.promotion_choices(true), Ok(vec![2, 1]));
        // Set again: one entry, the last list.
        pawn.set_promotion_choices_black(Some(&[]));
        assert_eq!(pawn.extra.len(), 1);
        assert_eq!(pawn.promotion_choices(true), Ok(vec![]));
        pawn.set_promotion_choices_black(None);
        assert_eq!(pawn.promotion_choices(true), Ok(vec![4, 3]));
        pawn.extra.push(OptionValue {
            key: PieceModel::EXTRA_PROMOTION_CHOICES_BLACK.into(),
            value: "2,x".into(),
        });
        assert!(pawn.promotion_choices(true).unwrap_err().contains("`x`"));
    }
}
