//! #22 first-promotion-wins — First to Promote Wins.
//!
//! `on_after_move` at the `PROMOTION` stage records the first promotion as plugin state
//! `@first-promotion-wins.winner` = 1 + the colour index of the promoting side; a later
//! promotion never overwrites it (the lock). `on_check_game_result` then replaces whatever was
//! found (checkmate, stalemate) with a win for that side, reason `first-promotion`. The
//! catalogue's `onBeforeMove` is not needed (`before` gives the pre-move position). The
//! self-check filter stays: a pinned pawn cannot promote. Perft stops below a promotion.

use crate::Meta;
use houserules_plugin_api::{
    preset_object, stage, Color, HookSet, Move, MoveEffects, Name, Outcome, OutcomeContext,
    Position, PresetBox, PresetRules, ResultDecision,
};

pub(crate) const META: Meta = Meta {
    id: "first-promotion-wins",
    name: "First to Promote Wins",
    category: "Objectives",
    mode: "hooks",
    description: "The first player to promote a pawn wins the game immediately; the first \
                  promotion locks the result. Pinned pawns still cannot promote. Paired with \
                  the pawns-only layout.",
    incompatible: &[],
    scope: None,
    hooks: HookSet(HookSet::ON_AFTER_MOVE.0 | HookSet::ON_CHECK_GAME_RESULT.0),
    stages: &[stage::PROMOTION],
    priority: 0,
    preferred_layout: Some("pawns-only"),
    extra: &[],
};

const OWNER: Name = Name::lit("first-promotion-wins");
const WINNER: Name = Name::lit("winner");

pub(crate) fn new() -> Result<PresetBox, String> {
    Ok(preset_object(FirstPromotionWins))
}

struct FirstPromotionWins;

impl PresetRules for FirstPromotionWins {
    fn on_after_move(
        &self,
        pos: &mut Position,
        _before: &Position,
        mv: Move,
        st: u8,
        fx: &mut MoveEffects,
    ) {
        if st == stage::PROMOTION && mv.is_promotion() && pos.state_value(OWNER, WINNER).is_none() {
            pos.set_state_value(OWNER, WINNER, 1 + fx.mover.index() as i64);
        }
    }

    fn on_check_game_result(
        &self,
        pos: &Position,
        _ctx: &OutcomeContext,
        _current: Option<&Outcome>,
    ) -> ResultDecision {
        match pos.state_value(OWNER, WINNER) {
            Some(w @ 1..=2) => ResultDecision::replace(Outcome::win(
                Color::from_index(w as usize - 1),
                "first-promotion",
            )),
            _ => ResultDecision::defer(),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;

    const P: &[&str] = &["first-promotion-wins"];

    #[test]
    fn first_promotion_wins_prefers_pawns_only() {
        let p = pipe(P);
        assert_eq!(p.layout.id.as_str(), "pawns-only");
        let start = p.start_position().unwrap();
        assert_eq!(
            fen(&p, &start),
            "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"
        );
        assert_eq!(
            perft_at(&p, &start, 2),
            perft_at(&pipe_layout("pawns-only", &[]), &start, 2)
        );
    }

    #[test]
    fn first_promotion_wins_the_first_promotion_wins_at_once() {
        let p = pipe(P);
        let f = "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1";
        let (a, _) = play(&p, f, &["b7b8n"]);
        assert_eq!(
            fen(&p, &a),
            "1N2k3/8/8/8/8/8/6p1/4K3 b - - 0 1 {@first-promotion-wins.winner=1}"
        );
        let out = status_at(&p, &a).expect("won");
        assert_eq!(out.winner.pgn(), "1-0");
        assert_eq!(out.reason.as_str(), "first-promotion");
        // Decided: no moves are counted below it.
        assert_eq!(perft_at(&p, &a, 1), 0);
    }

    #[test]
    fn first_promotion_wins_the_lock_is_not_overwritten() {
        let p = pipe(P);
        // A position read with the lock already set for Black; White promotes later.
        let f = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1 {@first-promotion-wins.winner=2}";
        let position = pos(&p, f);
        assert_eq!(status_at(&p, &position).unwrap().winner.pgn(), "0-1");
        let mut v = houserules_plugin_api::abi_stable::std_types::RVec::new();
        p.pseudo_moves(&position, houserules_plugin_api::Color::White, &mut v)
            .unwrap();
        let m = v.iter().copied().find(|m| m.is_promotion()).unwrap();
        let mut after = position.clone();
        let mut fx =
            houserules_plugin_api::MoveEffects::new(houserules_plugin_api::Color::White, false);
        p.apply(&mut after, m, &mut fx).unwrap();
        assert_eq!(status_at(&p, &after).unwrap().winner.pgn(), "0-1");
    }

    #[test]
    fn first_promotion_wins_overrides_a_mate_and_keeps_the_self_check_filter() {
        let p = pipe(P);
        // c8=Q is also mate: the promotion decides, reason first-promotion.
        let f = "k7/2P5/1K6/8/8/8/8/8 w - - 0 1";
        let (a, _) = play(&p, f, &["c7c8q"]);
        assert_eq!(
            status_at(&p, &a).unwrap().reason.as_str(),
            "first-promotion"
        );
        // A pawn pinned to its king cannot promote.
        let f2 = "4k3/rP5K/8/8/8/8/8/8 w - - 0 1";
        assert!(legal(&p, f2).iter().all(|m| !m.starts_with("b7")));
    }
}
