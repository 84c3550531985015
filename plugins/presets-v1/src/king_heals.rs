//! king-heals — Regenerating King.
//!
//! At the end of its owner's turn a king that is not in check regains 1 HP, up to 3 (stage
//! TURN_END, after poisoned-squares). Requires piece-hp (kings start at 1 HP). "In check" is
//! asked of the host for that king (`Query::attackers`, API 1.1): through the whole pipeline,
//! so a king attacked across a wrapped board's seam, by a double-leaping knight or a bounced
//! bishop does not heal. (The host's own check fact only covers protected royals, and a king
//! with 2 HP or more is not one.)

use crate::common::{hp, Bound};
use crate::Meta;
use houserules_plugin_api::{
    attr, stage, Event, EventKind, HookSet, Move, MoveEffects, Position, PresetRules, Query, Role,
};

pub(crate) const META: Meta = Meta {
    id: "king-heals",
    name: "Regenerating King",
    category: "Piece Ability",
    mode: "hybrid",
    description: "At the end of its owner's turn a king not in check regains 1 HP (at most 3).",
    requires: &["piece-hp"],
    incompatible: &[],
    hooks: HookSet(HookSet::ON_AFTER_MOVE.0 | HookSet::AFTER_MOVE_QUERY.0),
    stages: &[stage::TURN_END],
    priority: 20,
    movement: "",
    search: &[],
};

/// Most hit points a king can heal to.
pub const MAX_HP: i32 = 3;

/// The preset.
#[derive(Default)]
pub struct KingHeals {
    pub(crate) k: Bound,
}

impl PresetRules for KingHeals {
    fn on_after_move_with(
        &self,
        pos: &mut Position,
        _before: &Position,
        _mv: Move,
        st: u8,
        fx: &mut MoveEffects,
        query: &dyn Query,
    ) {
        if st != stage::TURN_END {
            return;
        }
        let k = self.k.get();
        let me = fx.mover;
        let kings: Vec<_> = pos
            .pieces_of(me)
            .filter(|&(_, kind)| k.kind_role(kind) == Role::KING)
            .map(|(s, _)| s)
            .collect();
        for s in kings {
            let h = hp(pos, k, s);
            let in_check = !query.attackers(pos, s, me.opposite()).is_empty();
            if h < MAX_HP && !in_check {
                pos.set_attribute(s, attr::HP, h + 1);
                if fx.record_events {
                    let mut e = Event::new(EventKind::HEAL, s, pos.get(s));
                    e.value = 1;
                    fx.event(e);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;

    const PRESETS: [&str; 2] = ["piece-hp", "king-heals"];

    #[test]
    fn king_heals_scenario_1() {
        let p = pipe(&PRESETS);
        let start = p.start_position().unwrap();
        assert_eq!(hp_of(&start, "e1"), Some(1));
        let (after, ev) = play_from(&p, start, &["e2e4"]);
        assert_eq!(hp_of(&after, "e1"), Some(2));
        assert_eq!(hp_of(&after, "e8"), Some(1), "only the mover's king heals");
        assert_eq!(kinds(&ev), ["heal"]);
    }

    #[test]
    fn king_heals_scenario_2() {
        let p = pipe(&PRESETS);
        let (after, ev) = play(&p, "4k3/8/8/8/8/8/P7/4K3 w - - 0 1 {Hp:e1=3}", &["a2a3"]);
        assert_eq!(hp_of(&after, "e1"), Some(3));
        assert!(ev.is_empty());
    }

    #[test]
    fn king_heals_scenario_3() {
        // King at 2 HP steps into the rook's line (allowed at 2 HP); it is in check at its
        // turn end, so it does not heal; Black "captures" it → 1 HP, pushed to e3, the game
        // goes on; White's next turn ends out of check → 2 HP.
        let p = pipe(&PRESETS);
        let f = "4k3/8/8/8/8/8/r7/4K3 w - - 0 1 {Hp:e1=2}";
        let (after, _) = play(&p, f, &["e1e2"]);
        assert_eq!(hp_of(&after, "e2"), Some(2), "in check: no healing");
        let (after, _) = play_from(&p, after, &["a2e2"]);
        assert_eq!(hp_of(&after, "e3"), Some(1));
        assert!(result_after(&p, f, &["e1e2", "a2e2"]).is_none());
        let (after, _) = play_from(&p, after, &["e3d4"]);
        assert_eq!(hp_of(&after, "d4"), Some(2));
    }

    #[test]
    fn king_heals_edge_1() {
        // Check is judged at the end of the turn: a king that was in check and escapes heals.
        let p = pipe(&PRESETS);
        let (after, _) = play(&p, "4k3/8/8/8/8/8/8/r3K3 w - - 0 1", &["e1e2"]);
        assert_eq!(hp_of(&after, "e2"), Some(2));
    }

    #[test]
    fn king_heals_edge_2() {
        // Once per turn end however many pieces threaten; not at all while in check.
        let p = pipe(&PRESETS);
        let (after, _) = play(&p, "4k3/8/8/8/8/8/P7/4K3 w - - 0 1", &["a2a3"]);
        assert_eq!(hp_of(&after, "e1"), Some(2));
        // King (2 HP) stays in a double attack: no healing.
        let (after, _) = play(&p, "4k3/8/8/8/8/8/r6P/3rK3 w - - 0 1 {Hp:e1=2}", &["h2h3"]);
        assert_eq!(hp_of(&after, "e1"), Some(2));
    }

    #[test]
    fn king_heals_edge_3() {
        // Checkmate still ends the game for a 1-HP king.
        let p = pipe(&PRESETS);
        let r = result_after(&p, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", &["a1a8"]).unwrap();
        assert_eq!(r.reason.as_str(), "checkmate");
    }

    #[test]
    fn king_heals_requires_piece_hp() {
        let e = try_pipe(&["king-heals"]).err().unwrap().to_string();
        assert!(e.contains("piece-hp"), "{e}");
    }
}
