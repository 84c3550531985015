//! From the plugin API's [`RulesModel`] (what variants publish and presets transform) to the
//! generator's [`Rules`]. A variant adds what the model does not carry (drops and their
//! restrictions, captures to hand, the immobility rule) to the result.

use crate::betza::{self, Dialect};
use crate::rules::{
    CastlingRules, CheckRule, EnPassantCapture, EnPassantPolicy, PieceRules, Promotion, Rules,
    Topology,
};
use houserules_plugin_api::model::{check_rule, ep_capture, ep_policy};
use houserules_plugin_api::{PromotionModel, RulesModel};

/// A model the generator cannot run: which piece and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("piece `{letter}` (kind {kind}): {why}")]
pub struct ModelError {
    /// The piece's letter.
    pub letter: char,
    /// Its kind.
    pub kind: usize,
    /// What is wrong.
    pub why: String,
}

/// The generator's rules for `model`.
pub fn rules_from_model(model: &RulesModel) -> Result<Rules, ModelError> {
    let mut pieces = Vec::new();
    for (kind, p) in model.pieces.iter().enumerate() {
        let letter = p.letter as char;
        let err = |why: String| ModelError { letter, kind, why };
        let movement =
            betza::parse(p.betza.as_str(), Dialect::Houserules).map_err(|e| err(e.to_string()))?;
        let mut r = PieceRules::with_movement(letter, movement);
        if let Some(b) = p.betza_black.as_ref().into_option() {
            r.movement_black = Some(
                betza::parse(b.as_str(), Dialect::Houserules).map_err(|e| err(e.to_string()))?,
            );
        }
        r.royal = p.royal;
        r.immune = p.immune;
        r.ep_victim = p.ep_victim;
        r.ep_capture = match p.ep_capture {
            ep_capture::MARKED => EnPassantCapture::Marked,
            ep_capture::CAPTURE_ONLY => EnPassantCapture::CaptureOnly,
            _ => EnPassantCapture::None,
        };
        r.initial_region = p.initial_region;
        r.resets_clock = p.resets_clock;
        r.hand_kind = p.hand_kind;
        r.bounce = p.bounce;
        let pm = &p.promotion;
        r.promotion = match pm.style {
            PromotionModel::CHOICE => Promotion::Choice {
                zone: pm.zone,
                choices: [
                    p.promotion_choices(false).map_err(err)?,
                    p.promotion_choices(true).map_err(err)?,
                ],
                mandatory: pm.mandatory,
            },
            PromotionModel::SHOGI => Promotion::Shogi {
                zone: pm.zone,
                promoted: *pm
                    .choices
                    .first()
                    .ok_or_else(|| err("shogi-style promotion names no kind".into()))?,
                mandatory: pm.mandatory,
            },
            _ => Promotion::None,
        };
        pieces.push(r);
    }
    let mut rules = Rules::new(model.files, model.ranks, pieces);
    rules.holes = model.holes;
    let t = model.topology;
    rules.topology = Topology {
        wrap_files: t.wrap_files,
        bounce_files: t.bounce_files,
        bounce_ranks: t.bounce_ranks,
        max_reflections: t.max_reflections,
    };
    rules.castling = model
        .castling
        .as_ref()
        .into_option()
        .map(|c| CastlingRules {
            king: c.king,
            rook: c.rook,
            king_file: c.king_file,
            king_dest: c.king_dest,
            rook_dest: c.rook_dest,
            rank: 0,
            other_rooks: Vec::new(),
        });
    rules.check = match model.check {
        check_rule::ALL => CheckRule::All,
        check_rule::OFF => CheckRule::Off,
        _ => CheckRule::Any,
    };
    rules.en_passant = match model.en_passant {
        ep_policy::ALWAYS => EnPassantPolicy::Always,
        ep_policy::LEGAL => EnPassantPolicy::Legal,
        _ => EnPassantPolicy::Pseudo,
    };
    rules.initial_needs_unmoved = model.initial_needs_unmoved;
    rules.slide_limit = model.slide_limit;
    Ok(rules)
}
