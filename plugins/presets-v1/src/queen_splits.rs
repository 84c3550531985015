//! queen-splits — Queen Fission.
//!
//! When a queen captures (a promotion-capture to queen included), the queen becomes a rook on
//! the capture square and a bishop of the same colour appears on the first empty square
//! around it in the clockwise order N, NE, E, SE, S, SW, W, NW; with none empty the bishop is
//! forfeit. Runs inside the move (stage CAPTURE, after piece-hp's push), so the legality test
//! and the result see the post-fission board. Both new pieces keep the queen's attributes
//! (its hit points under piece-hp); they have no castling rights.

use crate::common::{first_empty_around, Bound};
use crate::Meta;
use houserules_plugin_api::{
    stage, Cell, Event, EventKind, HookSet, Move, MoveEffects, Position, PresetRules, Role,
};

pub(crate) const META: Meta = Meta {
    id: "queen-splits",
    name: "Queen Fission",
    category: "Piece Ability",
    mode: "override",
    description: "A queen that captures splits into a rook on the capture square and a \
                  bishop on the first empty adjacent square clockwise from N (forfeit if none).",
    requires: &[],
    incompatible: &[],
    hooks: HookSet::ON_AFTER_MOVE,
    stages: &[stage::CAPTURE],
    priority: -50,
    movement: "",
    search: &[],
};

/// The preset.
#[derive(Default)]
pub struct QueenSplits {
    pub(crate) k: Bound,
}

impl PresetRules for QueenSplits {
    fn on_after_move(
        &self,
        pos: &mut Position,
        _before: &Position,
        mv: Move,
        st: u8,
        fx: &mut MoveEffects,
    ) {
        if st != stage::CAPTURE || !(mv.is_capture() || fx.captured_len > 0) || mv.is_castle() {
            return;
        }
        let k = self.k.get();
        let dest = mv.destination();
        let queen = pos.get(dest);
        if !k.is(queen, Role::QUEEN, fx.mover) {
            return;
        }
        let (Some(rook), Some(bishop)) = (k.kind(Role::ROOK), k.kind(Role::BISHOP)) else {
            return;
        };
        let attrs: Vec<_> = pos
            .attributes()
            .iter()
            .filter(|a| a.square == dest)
            .copied()
            .collect();
        pos.set(dest, Cell::piece(rook, fx.mover));
        for a in &attrs {
            pos.set_attribute(dest, a.name, a.value);
        }
        let placed = first_empty_around(pos, dest);
        if let Some(b) = placed {
            pos.set(b, Cell::piece(bishop, fx.mover));
            for a in &attrs {
                pos.set_attribute(b, a.name, a.value);
            }
        }
        if fx.record_events {
            let mut e = Event::new(EventKind::FISSION, dest, queen);
            e.to = placed.unwrap_or(houserules_plugin_api::Square::NONE);
            fx.event(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;

    const ID: &str = "queen-splits";

    #[test]
    fn queen_splits_scenario_1() {
        let p = pipe(&[ID]);
        let (after, ev) = play(&p, "4k3/8/8/8/3p4/8/8/3QK3 w - - 0 1", &["d1d4"]);
        assert_eq!(at(&p, &after, "d4"), 'R');
        assert_eq!(at(&p, &after, "d5"), 'B');
        assert_eq!(kinds(&ev), ["capture", "fission"]);
        assert_eq!(ev[1].to, sq("d5"));
    }

    #[test]
    fn queen_splits_scenario_2() {
        // "Every adjacent square occupied" cannot arise from a queen's slide alone: the square
        // it came through stays empty. With piece-hp the pushed survivor takes that last
        // square (piece-hp runs first), and the bishop is forfeit: only the rook remains.
        let p = pipe(&["piece-hp", ID]);
        let f = "7k/8/8/2NNN3/2NrN3/2N1N3/8/3Q3K w - - 0 1";
        let (after, ev) = play(&p, f, &["d1d4"]);
        assert_eq!(at(&p, &after, "d4"), 'R');
        assert_eq!(
            at(&p, &after, "d3"),
            'r',
            "the rook (1 HP) was pushed to d3"
        );
        assert_eq!(kinds(&ev), ["capture", "damage", "push", "fission"]);
        assert!(ev[3].to.is_none(), "bishop forfeit");
        let bishops = after
            .squares()
            .filter(|&s| at(&p, &after, &s.name()) == 'B')
            .count();
        assert_eq!(bishops, 0);
        // Without piece-hp the bishop lands on d3, the only empty square.
        let p = pipe(&[ID]);
        let (after, _) = play(&p, f, &["d1d4"]);
        assert_eq!(at(&p, &after, "d3"), 'B');
    }

    #[test]
    fn queen_splits_scenario_3() {
        // Corner-side capture Qh1xh2: N (h3) is the first empty square.
        let p = pipe(&[ID]);
        let (after, _) = play(&p, "4k3/8/8/8/8/8/7p/K6Q w - - 0 1", &["h1h2"]);
        assert_eq!(at(&p, &after, "h2"), 'R');
        assert_eq!(at(&p, &after, "h3"), 'B');
        // With h3 taken, the clockwise search goes on: NE and E are off the board, SE too,
        // S is h1 (empty now).
        let (after, _) = play(&p, "4k3/8/8/8/8/7n/7p/K6Q w - - 0 1", &["h1h2"]);
        assert_eq!(at(&p, &after, "h1"), 'B');
    }

    #[test]
    fn queen_splits_scenario_4() {
        // Qg1xg7 (backed by Bb2) would mate as a queen; after fission the rook on g7 does not
        // attack h8 and the bishop (on g8) does not either: the game goes on.
        let f = "7k/6pp/8/8/8/8/1B6/6QK w - - 0 1";
        let plain = pipe(&[]);
        let r = result_after(&plain, f, &["g1g7"]);
        assert_eq!(r.map(|o| o.reason.to_string()), Some("checkmate".into()));
        let p = pipe(&[ID]);
        assert_eq!(result_after(&p, f, &["g1g7"]), None);
        let (after, _) = play(&p, f, &["g1g7"]);
        assert_eq!(at(&p, &after, "g8"), 'B');
        assert!(!legal_at(&p, &after).is_empty());
    }

    #[test]
    fn queen_splits_edge_1() {
        // Legality uses the post-fission board: a pinned queen may not capture off the pin
        // line; capturing the pinner is fine (the rook then stands on e8, the bishop on f8).
        let p = pipe(&[ID]);
        let f = "k3r3/8/8/8/8/3p4/4Q3/4K3 w - - 0 1";
        let l = legal(&p, f);
        assert!(!l.contains(&"e2d3".to_string()));
        let (after, _) = play(&p, f, &["e2e8"]);
        assert_eq!(at(&p, &after, "e8"), 'R');
        assert_eq!(at(&p, &after, "f8"), 'B');
    }

    #[test]
    fn queen_splits_edge_2() {
        // A promotion-capture to queen fissions at once; to rook it does not.
        let p = pipe(&[ID]);
        let (after, _) = play(&p, "3n3k/4P3/8/8/8/8/8/4K3 w - - 0 1", &["e7d8q"]);
        assert_eq!(at(&p, &after, "d8"), 'R');
        assert_eq!(
            at(&p, &after, "e8"),
            'B',
            "N and NE are off the board; E is e8"
        );
        let (after, _) = play(&p, "3n3k/4P3/8/8/8/8/8/4K3 w - - 0 1", &["e7d8r"]);
        assert_eq!(at(&p, &after, "d8"), 'R');
        assert_eq!(at(&p, &after, "e8"), '.');
    }

    #[test]
    fn queen_splits_edge_3() {
        // Fissioned pieces have no castling rights: Qxa8 leaves the new rook on a8 without
        // any right (Black's a8 right is gone with its rook; White gains none).
        let p = pipe(&[ID]);
        let (after, _) = play(&p, "r3k3/8/8/8/8/8/8/Q3K3 w q - 0 1", &["a1a8"]);
        assert_eq!(at(&p, &after, "a8"), 'R');
        assert!(after.castling.iter().all(|c| c.is_none()));
        assert!(fen(&p, &after).contains(" b - - "), "{}", fen(&p, &after));
    }
}
