//! explosive-rook — Detonating Rook.
//!
//! When a rook captures, every other piece (either colour) on the capture square's rank or
//! file within 2 squares is removed; the rook survives. Only a piece that was a rook before
//! the move detonates; no chain reactions. Removed pieces are not "captured" (they are
//! reported as `remove` events). Blowing up one's own king is legal and loses (RULINGS).

use crate::common::{remove_piece, Bound};
use crate::Meta;
use houserules_plugin_api::{
    geometry, stage, Event, EventKind, HookSet, Move, MoveEffects, Position, PresetRules, Role,
};

pub(crate) const META: Meta = Meta {
    id: "explosive-rook",
    name: "Detonating Rook",
    category: "Piece Ability",
    mode: "override",
    description: "A rook that captures detonates: every other piece on the same rank or file \
                  within 2 squares of the capture square is removed; the rook survives.",
    requires: &[],
    incompatible: &["piece-hp"],
    hooks: HookSet::ON_AFTER_MOVE,
    stages: &[stage::CAPTURE],
    priority: -50,
    movement: "",
    search: &[],
};

/// The preset.
#[derive(Default)]
pub struct ExplosiveRook {
    pub(crate) k: Bound,
}

impl PresetRules for ExplosiveRook {
    fn on_after_move(
        &self,
        pos: &mut Position,
        before: &Position,
        mv: Move,
        st: u8,
        fx: &mut MoveEffects,
    ) {
        if st != stage::CAPTURE || !mv.is_capture() || mv.is_castle() || mv.is_drop() {
            return;
        }
        let k = self.k.get();
        if !k.is(before.get(mv.from), Role::ROOK, fx.mover) {
            return;
        }
        let centre = mv.to;
        fx.event(Event::new(EventKind::DETONATION, centre, pos.get(centre)));
        for d in geometry::ORTHOGONAL {
            for dist in 1..=2i8 {
                let Some(s) = pos.offset(centre, d.0 * dist, d.1 * dist) else {
                    break;
                };
                if pos.get(s).is_piece() {
                    let was = remove_piece(pos, k, s);
                    fx.event(Event::new(EventKind::REMOVE, s, was));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Winner;

    const ID: &str = "explosive-rook";

    #[test]
    fn explosive_rook_scenario_1() {
        // The catalogue's list puts pieces on every square next to d4, which a sliding rook
        // cannot pass; here the rook starts on c4 (so b4 stands in for c4). Removed: d3, d5,
        // d6, e4, f4, d2, b4 (all within 2 on the rank/file); d7 (distance 3) and c3
        // (diagonal) survive.
        let p = pipe(&[ID]);
        let f = "7k/3p4/3p4/3p4/1pRnpp2/2pp4/3p4/7K w - - 0 1";
        let (after, ev) = play(&p, f, &["c4d4"]);
        assert_eq!(at(&p, &after, "d4"), 'R');
        for s in ["d3", "d5", "d6", "e4", "f4", "d2", "b4"] {
            assert_eq!(at(&p, &after, s), '.', "{s}");
        }
        assert_eq!(at(&p, &after, "d7"), 'p');
        assert_eq!(at(&p, &after, "c3"), 'p');
        assert_eq!(kinds(&ev)[..2], ["capture", "detonation"]);
        assert_eq!(kinds(&ev).iter().filter(|k| **k == "remove").count(), 7);
    }

    #[test]
    fn explosive_rook_scenario_2() {
        // Own king on d5 is blown up: legal, and that side loses.
        let p = pipe(&[ID]);
        let f = "7k/8/8/3K4/2Rn4/8/8/8 w - - 0 1";
        assert!(has(&p, f, "c4d4"));
        let r = result_after(&p, f, &["c4d4"]).unwrap();
        assert_eq!(r.winner, Winner::BLACK);
        assert_eq!(r.reason.as_str(), "royal-lost");
    }

    #[test]
    fn explosive_rook_scenario_3() {
        // Corner: the rook comes from b1 (a rook reaches a1 only through a2 or b1) and takes
        // a1: a2, a3 (file) and c1 (rank, distance 2) go; a4 and d1 (distance 3) survive.
        let p = pipe(&[ID]);
        let f = "7k/8/8/8/p7/p7/p7/nRbn3K w - - 0 1";
        let (after, _) = play(&p, f, &["b1a1"]);
        assert_eq!(at(&p, &after, "a1"), 'R');
        for s in ["a2", "a3", "c1"] {
            assert_eq!(at(&p, &after, s), '.', "{s}");
        }
        assert_eq!(at(&p, &after, "a4"), 'p');
        assert_eq!(at(&p, &after, "d1"), 'n');
    }

    #[test]
    fn explosive_rook_edge_1() {
        // No chain: capturing a rook, and blowing up another rook, triggers nothing more —
        // d8 (2 from the blown-up rook on d6) survives.
        let p = pipe(&[ID]);
        let f = "3n3k/8/3r4/8/3r4/8/8/3R3K w - - 0 1";
        let (after, ev) = play(&p, f, &["d1d4"]);
        assert_eq!(at(&p, &after, "d6"), '.');
        assert_eq!(at(&p, &after, "d8"), 'n');
        assert_eq!(kinds(&ev).iter().filter(|k| **k == "detonation").count(), 1);
    }

    #[test]
    fn explosive_rook_edge_2() {
        // Only rooks detonate: a pawn's en passant capture and a queen's capture do not.
        let p = pipe(&[ID]);
        let (after, ev) = play(&p, "4k3/8/8/2npP3/8/8/8/4K3 w - d6 0 1", &["e5d6"]);
        assert_eq!(at(&p, &after, "c5"), 'n');
        assert_eq!(kinds(&ev), ["capture"]);
        let (after, _) = play(&p, "4k3/8/8/8/2nn4/8/8/3QK3 w - - 0 1", &["d1d4"]);
        assert_eq!(at(&p, &after, "c4"), 'n');
        // A promotion-capture to rook is a pawn's capture: no detonation (docs ruling).
        let (after, _) = play(&p, "3n1n1k/4P3/8/8/8/8/8/4K3 w - - 0 1", &["e7d8r"]);
        assert_eq!(at(&p, &after, "f8"), 'n');
    }

    #[test]
    fn explosive_rook_edge_3() {
        assert!(try_pipe(&[ID, "piece-hp"]).is_err());
        assert!(try_pipe(&["piece-hp", ID]).is_err());
    }

    #[test]
    fn explosive_rook_both_kings() {
        // One detonation that removes both kings: the side that moved loses (RULINGS).
        let p = pipe(&[ID]);
        let f = "8/8/3k4/8/2Rn4/3K4/8/8 w - - 0 1";
        let r = result_after(&p, f, &["c4d4"]).unwrap();
        assert_eq!(r.winner, Winner::BLACK);
    }
}
