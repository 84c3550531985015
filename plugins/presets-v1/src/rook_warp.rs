//! rook-warp — Rook Warp.
//!
//! Geometry of RULINGS.md: a warp exists in a direction only when every square from the rook
//! to the board edge in that direction is empty (vacuously true for a rook on that edge); it
//! lands on the first square at the opposite end of the same line (d4 north → d1), if that
//! square is empty or holds an enemy (capture). One warp per direction; where it equals a
//! normal destination only the normal move is listed (identical moves are merged).

use crate::common::Bound;
use crate::Meta;
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    geometry, Color, Decision, HookSet, Move, MoveFlags, Position, PresetRules, Role, Square,
    MOVEMENT_ADDITIVE,
};

pub(crate) const META: Meta = Meta {
    id: "rook-warp",
    name: "Rook Warp",
    category: "Board Geometry",
    mode: "hybrid",
    description: "A rook whose path to the board edge is empty may warp to the first square \
                  at the opposite end of the same rank or file (empty or enemy).",
    requires: &[],
    incompatible: &["wrap-board"],
    hooks: HookSet(HookSet::GET_EXTRA_MOVES.0 | HookSet::IS_ATTACKED.0),
    stages: &[],
    priority: 0,
    movement: MOVEMENT_ADDITIVE,
};

/// The preset.
#[derive(Default)]
pub struct RookWarp {
    pub(crate) k: Bound,
}

/// The warp square of a rook on `from` going in direction `d`, if the path to the edge is
/// empty (the landing square's occupant is not checked here).
pub(crate) fn warp_square(pos: &Position, from: Square, d: (i8, i8)) -> Option<Square> {
    let mut sq = from;
    while let Some(next) = pos.offset(sq, d.0, d.1) {
        if !pos.get(next).is_empty() {
            return None;
        }
        sq = next;
    }
    // `sq` is the edge square; the warp lands at the opposite end of the line.
    let land = match d {
        (0, 1) => Square::new(from.file(), 0),
        (0, -1) => Square::new(from.file(), pos.ranks() - 1),
        (1, 0) => Square::new(0, from.rank()),
        _ => Square::new(pos.files() - 1, from.rank()),
    };
    (land != from && pos.on_board(land)).then_some(land)
}

impl PresetRules for RookWarp {
    fn get_extra_moves(&self, pos: &Position, color: Color, out: &mut RVec<Move>) {
        let k = self.k.get();
        for (from, kind) in pos.pieces_of(color) {
            if k.kind_role(kind) != Role::ROOK {
                continue;
            }
            for d in geometry::ORTHOGONAL {
                let Some(to) = warp_square(pos, from, d) else {
                    continue;
                };
                let c = pos.get(to);
                if c.is_empty() {
                    out.push(Move::new(from, to, MoveFlags::NONE));
                } else if c.is_color(color.opposite()) {
                    out.push(Move::new(from, to, MoveFlags::CAPTURE));
                }
            }
        }
    }

    /// The captures of the warps: a rook of `by` whose warp lands on `sq`.
    fn is_attacked(&self, pos: &Position, sq: Square, by: Color) -> Decision {
        let k = self.k.get();
        let hit = pos.pieces_of(by).any(|(from, kind)| {
            k.kind_role(kind) == Role::ROOK
                && geometry::ORTHOGONAL
                    .iter()
                    .any(|&d| warp_square(pos, from, d) == Some(sq))
        });
        if hit {
            Decision::YES
        } else {
            Decision::DEFER
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;

    const ID: &str = "rook-warp";

    #[test]
    fn rook_warp_scenario_1() {
        // Rook a1, rank 1 empty: a1→h1 is the normal slide; the warp west lands on h1 too
        // and is not listed twice.
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/8/8/P7/R6K w - - 0 1");
        assert_eq!(l.iter().filter(|m| *m == "a1g1").count(), 1);
        let l = legal(&p, "7k/8/8/8/8/8/P6K/R7 w - - 0 1");
        assert_eq!(l.iter().filter(|m| *m == "a1h1").count(), 1, "{l:?}");
    }

    #[test]
    fn rook_warp_scenario_2() {
        // Void by RULINGS (the catalogue's a4⇒h4 contradicts the warp geometry). What the
        // ruling gives instead: rook a4 with a5..a8 empty warps north to a1 (if a1 is empty
        // or an enemy), and west (a4 is on the edge) to h4 — here a capture.
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/R6r/8/8/4K3 w - - 0 1");
        assert!(l.contains(&"a4h4".to_string()), "{l:?}");
        assert!(l.contains(&"a4a1".to_string()));
    }

    #[test]
    fn rook_warp_scenario_3() {
        // Rook d4, d5..d8 empty, friendly piece on d1: the warp north (landing on d1) is
        // blocked; per RULINGS there is no "last empty square before it" — no warp at all.
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/3R4/8/8/3NK3 w - - 0 1");
        let d4: Vec<_> = l.iter().filter(|m| m.starts_with("d4")).cloned().collect();
        assert!(!d4.contains(&"d4d1".to_string()));
        assert!(d4.contains(&"d4d2".to_string()), "the normal slide");
        // The east and west warps land on a4 and h4, which the normal slides reach already:
        // the move list equals plain chess.
        let plain = pipe(&[]);
        let pl = legal(&plain, "4k3/8/8/8/3R4/8/8/3NK3 w - - 0 1");
        assert_eq!(
            sorted(l),
            sorted(pl),
            "all warps from d4 equal normal moves or are blocked"
        );
    }

    #[test]
    fn rook_warp_scenario_4() {
        // Enemy on d8, friendly on d1: the slide captures d8; no warp north (the path to the
        // edge is not empty), none south either (d1 is the edge square and friendly? the
        // path d3..d1 is not empty).
        let p = pipe(&[ID]);
        let l = legal(&p, "3rk3/8/8/8/3R4/8/8/3NK3 w - - 0 1");
        assert!(l.contains(&"d4d8".to_string()));
        let plain = pipe(&[]);
        assert_eq!(
            sorted(l),
            sorted(legal(&plain, "3rk3/8/8/8/3R4/8/8/3NK3 w - - 0 1"))
        );
    }

    #[test]
    fn rook_warp_edge_1() {
        // Castling unchanged; a rook that warped has lost its castling right.
        let p = pipe(&[ID]);
        let f = "r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1";
        assert!(has(&p, f, "e1c1"));
        // a1 is on the south edge: it warps south to a8 and captures the rook there
        // (RULINGS: "Ra1xa8 is legal"); the path north a2..a7 is empty, so also a1 north? no:
        // north needs a2..a8 empty and a8 holds the rook.
        let (after, ev) = play(&p, f, &["a1a8"]);
        assert_eq!(kinds(&ev), ["capture"]);
        assert!(
            after.castling.iter().all(|c| c.is_none()),
            "{:?}",
            after.castling
        );
    }

    #[test]
    fn rook_warp_edge_2() {
        // The warp never passes friendly or enemy pieces: any piece between the rook and the
        // edge in that direction cancels the warp; the landing square may hold an enemy
        // (capture) but not a friend (the own king: no warp onto it).
        let p = pipe(&[ID]);
        // d4 east: e4..h4 empty → lands a4 (empty) — legal; with a pawn on g4, no warp.
        assert!(has(&p, "4k3/8/8/8/3R4/8/8/4K3 w - - 0 1", "d4a4"));
        let l = legal(&p, "4k3/8/8/8/3R2p1/8/8/4K3 w - - 0 1");
        // a4 is still a normal slide destination west; make the west side blocked to see it.
        let l2 = legal(&p, "4k3/8/8/8/1p1R2p1/8/8/4K3 w - - 0 1");
        assert!(!l2.contains(&"d4a4".to_string()), "{l2:?}");
        assert!(l.contains(&"d4a4".to_string()));
        // Own king on the landing square: rook e4, e5..e8 empty, king e1 → no e4→e1 warp.
        let l = legal(&p, "k7/8/8/8/4R3/8/8/4K3 w - - 0 1");
        assert!(!l.contains(&"e4e1".to_string()));
    }

    #[test]
    fn rook_warp_edge_3() {
        // Incompatible with wrap-board.
        assert!(try_pipe(&[ID, "wrap-board"]).is_err());
        assert!(try_pipe(&["wrap-board", ID]).is_err());
    }

    #[test]
    fn rook_warp_ruling_start_position() {
        // RULINGS: from the start position Ra1xa8 (and Rh1xh8) are legal.
        let p = pipe(&[ID]);
        let f = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let l = legal(&p, f);
        assert!(l.contains(&"a1a8".to_string()) && l.contains(&"h1h8".to_string()));
        assert_eq!(l.len(), 22);
        // A warp attack is check: the rook on a4 (west edge) warps to h4, past the pawn
        // that blocks its slide.
        let f = "8/8/8/8/R1p4k/8/8/4K3 b - - 0 1";
        assert!(p
            .royal_attacked(&pos(&p, f), houserules_plugin_api::Color::Black)
            .unwrap());
        let plain = pipe(&[]);
        assert!(!plain
            .royal_attacked(&pos(&plain, f), houserules_plugin_api::Color::Black)
            .unwrap());
    }
}
