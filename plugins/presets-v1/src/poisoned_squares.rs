//! poisoned-squares — Poisoned Centre.
//!
//! At the end of a player's turn every piece of that player standing on d4, d5, e4 or e5
//! (the four centre squares of the board) loses 1 HP and is removed at 0 (stage TURN_END,
//! before king-heals). Requires piece-hp. A king killed by poison loses the game; the move
//! that led to it is legal (RULINGS).

use crate::common::{hp, remove_piece, Bound};
use crate::Meta;
use houserules_plugin_api::{
    attr, stage, Event, EventKind, HookSet, Move, MoveEffects, Position, PresetRules, Square,
};

pub(crate) const META: Meta = Meta {
    id: "poisoned-squares",
    name: "Poisoned Centre",
    category: "Persistent State",
    mode: "additive",
    description: "A piece that ends its owner's turn on d4, d5, e4 or e5 loses 1 HP (removed \
                  at 0).",
    requires: &["piece-hp"],
    incompatible: &[],
    hooks: HookSet::ON_AFTER_MOVE,
    stages: &[stage::TURN_END],
    priority: 10,
    movement: "",
    search: &[],
};

/// The preset.
#[derive(Default)]
pub struct PoisonedSquares {
    pub(crate) k: Bound,
}

/// The poisoned squares: the central 2x2 of the board (d4, e4, d5, e5 on 8x8).
pub fn poisoned(pos: &Position) -> [Square; 4] {
    let (f, r) = (pos.files() / 2, pos.ranks() / 2);
    [
        Square::new(f - 1, r - 1),
        Square::new(f, r - 1),
        Square::new(f - 1, r),
        Square::new(f, r),
    ]
}

impl PresetRules for PoisonedSquares {
    fn on_after_move(
        &self,
        pos: &mut Position,
        _before: &Position,
        _mv: Move,
        st: u8,
        fx: &mut MoveEffects,
    ) {
        if st != stage::TURN_END {
            return;
        }
        let k = self.k.get();
        for s in poisoned(pos) {
            let c = pos.get(s);
            if !c.is_color(fx.mover) {
                continue;
            }
            let left = hp(pos, k, s) - 1;
            if fx.record_events {
                let mut e = Event::new(EventKind::POISON, s, c);
                e.value = 1;
                fx.event(e);
            }
            if left > 0 {
                pos.set_attribute(s, attr::HP, left);
            } else {
                remove_piece(pos, k, s);
                fx.event(Event::new(EventKind::REMOVE, s, c));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Winner;

    const PRESETS: [&str; 2] = ["piece-hp", "poisoned-squares"];

    #[test]
    fn poisoned_squares_scenario_1() {
        let p = pipe(&PRESETS);
        let (after, ev) = play(&p, "k7/8/8/8/8/8/8/4R1K1 w - - 0 1", &["e1e4"]);
        assert_eq!(hp_of(&after, "e4"), Some(1));
        assert_eq!(kinds(&ev), ["poison"]);
    }

    #[test]
    fn poisoned_squares_scenario_2() {
        let p = pipe(&PRESETS);
        let (after, ev) = play(&p, "4k3/8/8/8/8/2N5/8/6K1 w - - 0 1 {Hp:c3=1}", &["c3d5"]);
        assert_eq!(at(&p, &after, "d5"), '.');
        assert_eq!(kinds(&ev), ["poison", "remove"]);
    }

    #[test]
    fn poisoned_squares_scenario_3() {
        let p = pipe(&PRESETS);
        let (after, ev) = play(&p, "k7/8/8/8/4R3/8/8/6K1 w - - 0 1 {Hp:e4=2}", &["e4e7"]);
        assert_eq!(hp_of(&after, "e7"), Some(2));
        assert!(ev.is_empty());
    }

    #[test]
    fn poisoned_squares_edge_1() {
        // Kings are poisoned too: a 1-HP king ending on d4 dies — a legal move that loses.
        let p = pipe(&PRESETS);
        let f = "4k3/8/8/8/8/4K3/8/8 w - - 0 1";
        assert!(has(&p, f, "e3d4"));
        let r = result_after(&p, f, &["e3d4"]).unwrap();
        assert_eq!(r.winner, Winner::BLACK);
        assert_eq!(r.reason.as_str(), "royal-lost");
    }

    #[test]
    fn poisoned_squares_edge_2() {
        // Promotion gives no immunity: the new queen (with the pawn's 2 HP) is poisoned on d5.
        let p = pipe(&PRESETS);
        let (after, _) = play(
            &p,
            "4k3/P7/8/8/8/8/8/6K1 w - - 0 1",
            &["a7a8q", "e8e7", "a8d5"],
        );
        assert_eq!(hp_of(&after, "d5"), Some(1));
    }

    #[test]
    fn poisoned_squares_edge_3() {
        // Once per owner's turn: the rook on e4 loses 1 at each White turn end, never at
        // Black's; Black's pieces there are hit only at Black's turn end.
        let p = pipe(&PRESETS);
        let f = "k7/8/8/3n4/4R3/8/P7/6K1 w - - 0 1";
        let (after, _) = play(&p, f, &["a2a3"]);
        assert_eq!(hp_of(&after, "e4"), Some(1));
        assert_eq!(
            hp_of(&after, "d5"),
            None,
            "Black's knight is untouched at White's turn end"
        );
        let (after, _) = play_from(&p, after, &["a8b8"]);
        assert_eq!(hp_of(&after, "e4"), Some(1));
        assert_eq!(hp_of(&after, "d5"), Some(1));
        let (after, _) = play_from(&p, after, &["a3a4"]);
        assert_eq!(at(&p, &after, "e4"), '.');
    }

    #[test]
    fn poisoned_squares_edge_4() {
        // Poison resolves before king-heals: a 3-HP king entering e4 in check loses 1 and does
        // not heal (2 HP); out of check it loses 1 and heals 1 (net zero).
        let p = pipe(&["piece-hp", "king-heals", "poisoned-squares"]);
        let (after, ev) = play(&p, "k3r3/8/8/8/8/3K4/8/8 w - - 0 1 {Hp:d3=3}", &["d3e4"]);
        assert_eq!(hp_of(&after, "e4"), Some(2));
        assert_eq!(kinds(&ev), ["poison"]);
        let (after, ev) = play(&p, "k7/8/8/8/8/3K4/8/8 w - - 0 1 {Hp:d3=2}", &["d3e4"]);
        assert_eq!(hp_of(&after, "e4"), Some(2));
        assert_eq!(kinds(&ev), ["poison", "heal"]);
    }

    #[test]
    fn poisoned_squares_requires_piece_hp() {
        assert!(try_pipe(&["poisoned-squares"]).is_err());
    }
}
