//! #25 extinction-chess — Extinction: wipe out every enemy piece of a type to win.
//!
//! Option `target` (a piece role, default `pawn`; the catalogue's
//! `presetState<{targetType}>`). `on_check_game_result` only — the fast path stays. Ruling:
//! after a move, if the mover's own target type is extinct (e.g. its last pawn promoted) the
//! mover loses; else if the opponent's is, the mover wins (reason `extinction`). "The mover"
//! is the side that made the last move (`turn_phase`-aware; at a FEN start, the side not to
//! move). The result replaces whatever the variant found (extinction is decided by the move
//! itself, before checkmate or stalemate). Royalty, check and checkmate stay; target `king`
//! is reachable only with a preset that lets kings be captured.

use crate::common::{last_mover, Kinds};
use crate::Meta;
use houserules_plugin_api::{
    preset_object, HookSet, Options, Outcome, OutcomeContext, Position, PresetBox, PresetRules,
    ResultDecision, Role,
};

pub(crate) const META: Meta = Meta {
    id: "extinction-chess",
    name: "Extinction",
    category: "Objectives",
    mode: "hook",
    description: "Win by wiping out every enemy piece of the target type (option target, \
                  default pawn). A side whose own target type dies out by its own move loses. \
                  The king stays royal and checkmate still wins.",
    incompatible: &[],
    scope: None,
    hooks: HookSet::ON_CHECK_GAME_RESULT,
    stages: &[],
    priority: 0,
    preferred_layout: None,
    extra: &[],
};

pub(crate) fn new(k: Kinds, options: &Options) -> Result<PresetBox, String> {
    let name = options.get("target").unwrap_or("pawn");
    let target = Role::parse(name).ok_or_else(|| format!("`{name}` is not a piece role"))?;
    k.require(META.id, target)?;
    Ok(preset_object(Extinction { k, target }))
}

struct Extinction {
    k: Kinds,
    target: Role,
}

impl PresetRules for Extinction {
    fn on_check_game_result(
        &self,
        pos: &Position,
        _ctx: &OutcomeContext,
        _current: Option<&Outcome>,
    ) -> ResultDecision {
        let mover = last_mover(pos);
        let other = mover.opposite();
        if self.k.count(pos, mover, self.target) == 0 {
            ResultDecision::replace(Outcome::win(other, "extinction"))
        } else if self.k.count(pos, other, self.target) == 0 {
            ResultDecision::replace(Outcome::win(mover, "extinction"))
        } else {
            ResultDecision::defer()
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;

    const P: &[&str] = &["extinction-chess"];

    #[test]
    fn extinction_chess_capturing_the_last_enemy_pawn_wins() {
        let p = pipe(P);
        assert!(p.is_plain());
        let (a, _) = play(&p, "4k3/8/8/R2p4/8/8/3P4/4K3 w - - 0 1", &["a5d5"]);
        let out = status_at(&p, &a).unwrap();
        assert_eq!(out.winner.pgn(), "1-0");
        assert_eq!(out.reason.as_str(), "extinction");
        assert_eq!(perft_at(&p, &a, 2), 0);
    }

    #[test]
    fn extinction_chess_promoting_the_last_own_pawn_loses() {
        let p = pipe(P);
        let (a, _) = play(&p, "4k3/P7/8/8/8/8/7p/4K3 w - - 0 1", &["a7a8q"]);
        let out = status_at(&p, &a).unwrap();
        assert_eq!(out.winner.pgn(), "0-1");
        // With both sides' pawns extinct by one move, the mover's own extinction decides.
        let (b, _) = play(&p, "4k3/8/8/8/8/8/p7/1R2K3 b - - 0 1", &["a2b1q"]);
        assert_eq!(status_at(&p, &b).unwrap().winner.pgn(), "1-0");
    }

    #[test]
    fn extinction_chess_checkmate_still_wins_and_the_king_stays_royal() {
        let p = pipe(P);
        let f = "6k1/5ppp/8/8/8/8/1PP5/R5K1 w - - 0 1";
        assert!(!has(&p, "4k3/p7/8/8/8/8/r6P/4K3 w - - 0 1", "e1e2"));
        let (a, _) = play(&p, f, &["a1a8"]);
        assert_eq!(status_at(&p, &a).unwrap().reason.as_str(), "checkmate");
    }

    #[test]
    fn extinction_chess_configurable_target() {
        let p = pipe(&["extinction-chess:target=knight"]);
        let (a, _) = play(&p, "4k3/8/8/3n4/8/8/8/3RK1N1 w - - 0 1", &["d1d5"]);
        assert_eq!(status_at(&p, &a).unwrap().winner.pgn(), "1-0");
        // A FEN start: the side not to move counts as the last mover; its own extinction first.
        let q = pipe(&["extinction-chess:target=queen"]);
        let out = status_at(&q, &pos(&q, "3qk3/8/8/8/8/8/8/4K3 b - - 0 1")).unwrap();
        assert_eq!(out.winner.pgn(), "0-1");
        // A role the variant lacks, or no role at all, is refused.
        assert!(try_pipe(&["extinction-chess:target=commoner"]).is_err());
        assert!(try_pipe(&["extinction-chess:target=dragon"]).is_err());
    }

    #[test]
    fn extinction_chess_under_double_move_the_mover_is_phase_aware() {
        let p = pipe(&["extinction-chess", "double-move"]);
        // White takes the last black pawn on its first half-move: decided at once.
        let (a, _) = play(&p, "4k3/8/8/R2p4/8/8/3P4/4K3 w - - 0 1", &["a5d5"]);
        assert_eq!(a.turn_phase, 1);
        assert_eq!(status_at(&p, &a).unwrap().winner.pgn(), "1-0");
    }
}
