//! Fairy-Stockfish's per-colour piece sets: `promotionPawnTypesWhite/Black`,
//! `promotionPieceTypesWhite/Black`, `nMoveRuleTypesWhite/Black`. Each overrides the
//! both-colours key (`promotionPawnTypes` ...) for one colour; a later both-colours key (in the
//! section or a child) sets both again. Fairy-Stockfish reads the per-colour keys after the
//! both-colours ones whatever their order in the file; here a section's keys apply in file
//! order, which differs only if a section set the per-colour key first.
//!
//! The rules model has one promotion rule per piece kind with a zone per colour: a kind that
//! promotes for one colour only gets an empty zone for the other, and a kind that promotes
//! for both colours to different piece sets (Chigorin) gives Black's its own list
//! (`PieceModel::EXTRA_PROMOTION_CHOICES_BLACK`, plugin API 1.9).

use crate::spec::Spec;

/// The per-colour overrides ([`Spec::by_colour`]); `None`: the both-colours set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ByColour {
    /// `promotionPawnTypesWhite/Black`.
    pub pawn_types: [Option<Vec<u16>>; 2],
    /// `promotionPieceTypesWhite/Black`.
    pub piece_types: [Option<Vec<u16>>; 2],
    /// `nMoveRuleTypesWhite/Black`.
    pub n_move_types: [Option<Vec<u16>>; 2],
}

impl ByColour {
    /// Whether any per-colour key is set.
    pub fn any(&self) -> bool {
        *self != ByColour::default()
    }

    /// Forgets a removed piece type.
    pub fn remove(&mut self, ty: u16) {
        for set in self.piece_types.iter_mut().flatten() {
            set.retain(|t| *t != ty);
        }
    }
}

impl Spec {
    /// The types promoting like pawns for colour `c` (0 White, 1 Black).
    pub fn pawn_types_of(&self, c: usize) -> &[u16] {
        self.by_colour.pawn_types[c]
            .as_deref()
            .unwrap_or(&self.promotion_pawn_types)
    }

    /// What pawns of colour `c` promote to.
    pub fn piece_types_of(&self, c: usize) -> &[u16] {
        self.by_colour.piece_types[c]
            .as_deref()
            .unwrap_or(&self.promotion_piece_types)
    }

    /// The types whose moves reset the n-move counter for colour `c`.
    pub fn n_move_types_of(&self, c: usize) -> &[u16] {
        self.by_colour.n_move_types[c]
            .as_deref()
            .unwrap_or(&self.n_move_rule_types)
    }

    /// The colours for which `ty` promotes like a pawn.
    pub fn pawn_type_colours(&self, ty: u16) -> [bool; 2] {
        [0, 1].map(|c| self.pawn_types_of(c).contains(&ty))
    }

    /// The promotion choices of piece type `ty` per colour (those present in the variant;
    /// empty for a colour it is no pawn type of).
    pub fn promotion_choices(&self, ty: u16) -> [Vec<u16>; 2] {
        let colours = self.pawn_type_colours(ty);
        [0, 1].map(|c| {
            if !colours[c] {
                return Vec::new();
            }
            self.piece_types_of(c)
                .iter()
                .copied()
                .filter(|t| self.pieces.contains_key(t))
                .collect()
        })
    }
}

/// Where a per-colour promotion error points: the last per-colour promotion key set.
pub fn loc(spec: &Spec) -> Option<&crate::ini::Loc> {
    [
        "promotionPieceTypesBlack",
        "promotionPieceTypesWhite",
        "promotionPawnTypesBlack",
        "promotionPawnTypesWhite",
    ]
    .iter()
    .find_map(|k| spec.locs.get(*k))
}

/// The per-colour promotions in the rules model: a chess-style promotion only in the zones of
/// the colours the kind is a pawn type for, to its own choices (`kind_of_ty`: base kinds).
pub fn adjust_model(
    spec: &Spec,
    kinds: &[crate::engine::Kind],
    kind_of_ty: &std::collections::HashMap<u16, u8>,
    model: &mut houserules_plugin_api::RulesModel,
) -> Result<(), String> {
    let by = &spec.by_colour;
    if by.pawn_types == [None, None] && by.piece_types == [None, None] {
        return Ok(());
    }
    if spec.captures_to_hand || spec.two_boards {
        return Err(
            "per-colour promotions with captures to hand (or twoBoards) are not supported".into(),
        );
    }
    for (i, k) in kinds.iter().enumerate().filter(|(_, k)| !k.promoted) {
        let colours = spec.pawn_type_colours(k.ty);
        let Some(piece) = model.pieces.get_mut(i) else {
            continue;
        };
        if k.chess_promo {
            let [white, black] = spec.promotion_choices(k.ty).map(|c| -> Vec<u8> {
                c.iter()
                    .filter_map(|t| kind_of_ty.get(t).copied())
                    .collect()
            });
            // The list of the colour it promotes for; Black's own beside White's.
            let main = if colours[0] { &white } else { &black };
            piece.promotion.choices = main.iter().copied().collect();
            let differ = colours == [true, true] && {
                let (mut w, mut b) = (white.clone(), black.clone());
                w.sort_unstable();
                b.sort_unstable();
                w != b
            };
            piece.set_promotion_choices_black(differ.then_some(black.as_slice()));
            for (c, on) in colours.iter().enumerate() {
                if !on {
                    piece.promotion.zone[c] = houserules_plugin_api::SquareSet::EMPTY;
                }
            }
        } else if k.promo.is_some()
            && colours[0] != colours[1]
            && spec.mandatory_pawn_promotion != spec.mandatory_piece_promotion
        {
            return Err(format!(
                "`{}` is a pawn type for one colour only and has a shogi-style promotion \
                 (not supported)",
                k.letter
            ));
        }
    }
    Ok(())
}
