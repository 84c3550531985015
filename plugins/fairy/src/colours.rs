//! Fairy-Stockfish's per-colour piece sets: `promotionPawnTypesWhite/Black`,
//! `promotionPieceTypesWhite/Black`, `nMoveRuleTypesWhite/Black`. Each overrides the
//! both-colours key (`promotionPawnTypes` ...) for one colour; a later both-colours key (in the
//! section or a child) sets both again. Fairy-Stockfish reads the per-colour keys after the
//! both-colours ones whatever their order in the file; here a section's keys apply in file
//! order, which differs only if a section set the per-colour key first.
//!
//! The generator has one promotion rule per piece kind (zone per colour, one list of
//! choices): a kind that promotes for one colour only gets an empty zone for the other, and a
//! kind that promotes for both colours to different piece sets is refused.

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

    /// The promotion choices of piece type `ty` (those present in the variant): the same
    /// for every colour it promotes for, or an error.
    pub fn promotion_choices(&self, ty: u16) -> Result<Vec<u16>, String> {
        let present = |c: usize| -> Vec<u16> {
            self.piece_types_of(c)
                .iter()
                .copied()
                .filter(|t| self.pieces.contains_key(t))
                .collect()
        };
        let colours = self.pawn_type_colours(ty);
        match colours {
            [true, true] => {
                let (w, b) = (present(0), present(1));
                let mut ws = w.clone();
                let mut bs = b.clone();
                ws.sort_unstable();
                bs.sort_unstable();
                if ws != bs {
                    return Err(format!(
                        "`{}` promotes for both colours to different pieces (not supported)",
                        self.pieces.get(&ty).map_or('?', |p| p.letter)
                    ));
                }
                Ok(w)
            }
            [false, true] => Ok(present(1)),
            _ => Ok(present(0)),
        }
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
    if spec.captures_to_hand {
        return Err("per-colour promotions with captures to hand are not supported".into());
    }
    for (i, k) in kinds.iter().enumerate().filter(|(_, k)| !k.promoted) {
        let colours = spec.pawn_type_colours(k.ty);
        let Some(piece) = model.pieces.get_mut(i) else {
            continue;
        };
        if k.chess_promo {
            let choices: Vec<u8> = spec
                .promotion_choices(k.ty)?
                .iter()
                .filter_map(|t| kind_of_ty.get(t).copied())
                .collect();
            piece.promotion.choices = choices.into_iter().collect();
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
