//! wrap-board — Cylindrical Board.
//!
//! Files wrap (the a- and h-files are adjacent) for every piece: slides, steps, leaps, pawn
//! captures and en passant; ranks do not; a slide stops before returning to its own square;
//! castling is unchanged (RULINGS). The variant keeps generating every move that does not
//! cross the seam; this preset adds exactly the moves that do (identical moves reached both
//! ways are merged by the host), and sets the en passant square after a double step that an
//! enemy pawn can take across the seam.

use crate::common::{push_pawn_move, set_ep_after_double, Bound};
use crate::Meta;
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    geometry, stage, Color, Decision, HookSet, Move, MoveEffects, MoveFlags, Position, PresetRules,
    Role, Square, MOVEMENT_ADDITIVE,
};

pub(crate) const META: Meta = Meta {
    id: "wrap-board",
    name: "Cylindrical Board",
    category: "Board Geometry",
    mode: "override",
    description: "The board is a vertical cylinder: the a- and h-files are adjacent for \
                  every piece's moves and captures (ranks do not wrap; castling unchanged).",
    requires: &[],
    incompatible: &["rook-warp"],
    hooks: HookSet(HookSet::GET_EXTRA_MOVES.0 | HookSet::ON_AFTER_MOVE.0 | HookSet::IS_ATTACKED.0),
    stages: &[stage::MOVE],
    priority: 0,
    movement: MOVEMENT_ADDITIVE,
};

/// The preset.
#[derive(Default)]
pub struct WrapBoard {
    pub(crate) k: Bound,
}

/// The square `d` away from `from` with files wrapped, and whether the seam was crossed.
#[inline]
fn wrapped(pos: &Position, from: Square, d: (i8, i8)) -> Option<(Square, bool)> {
    let files = pos.files() as i16;
    let f = from.file() as i16 + d.0 as i16;
    let r = from.rank() as i16 + d.1 as i16;
    if r < 0 || r >= pos.ranks() as i16 {
        return None;
    }
    let crossed = f < 0 || f >= files;
    let to = Square::new(f.rem_euclid(files) as u8, r as u8);
    pos.on_board(to).then_some((to, crossed))
}

fn push_target(pos: &Position, from: Square, to: Square, color: Color, out: &mut RVec<Move>) {
    let c = pos.get(to);
    if c.is_empty() {
        out.push(Move::new(from, to, MoveFlags::NONE));
    } else if c.is_color(color.opposite()) {
        out.push(Move::new(from, to, MoveFlags::CAPTURE));
    }
}

/// A wrapped slide: only the squares after the seam (the rest is the variant's).
fn slide(pos: &Position, from: Square, d: (i8, i8), color: Color, out: &mut RVec<Move>) {
    let mut sq = from;
    let mut crossed = false;
    while let Some((to, c)) = wrapped(pos, sq, d) {
        crossed |= c;
        if to == from {
            return;
        }
        let cell = pos.get(to);
        if crossed {
            push_target(pos, from, to, color, out);
        }
        if !cell.is_empty() {
            return;
        }
        sq = to;
    }
}

impl PresetRules for WrapBoard {
    /// The captures across the seam: what `by`'s added moves take on `sq`.
    fn is_attacked(&self, pos: &Position, sq: Square, by: Color) -> Decision {
        let mut moves = RVec::new();
        self.get_extra_moves(pos, by, &mut moves);
        if moves
            .iter()
            .any(|m| m.is_capture() && !m.is_castle() && m.destination() == sq)
        {
            Decision::YES
        } else {
            Decision::DEFER
        }
    }
    fn get_extra_moves(&self, pos: &Position, color: Color, out: &mut RVec<Move>) {
        let k = self.k.get();
        const EW: [(i8, i8); 2] = [(1, 0), (-1, 0)];
        for (from, kind) in pos.pieces_of(color) {
            match k.kind_role(kind) {
                Role::PAWN => {
                    let ep_live = color == pos.side_to_move
                        && !pos.ep_passed.is_none()
                        && pos.get(pos.ep_victim).is_color(color.opposite());
                    for df in [-1i8, 1] {
                        let Some((to, true)) = wrapped(pos, from, (df, color.forward())) else {
                            continue;
                        };
                        if pos.get(to).is_color(color.opposite()) {
                            push_pawn_move(pos, k, from, to, color, MoveFlags::CAPTURE, out);
                        } else if ep_live && to == pos.ep_passed {
                            out.push(Move::new(
                                from,
                                to,
                                MoveFlags::CAPTURE | MoveFlags::EN_PASSANT,
                            ));
                        }
                    }
                }
                Role::KNIGHT => {
                    for d in geometry::KNIGHT {
                        if let Some((to, true)) = wrapped(pos, from, d) {
                            push_target(pos, from, to, color, out);
                        }
                    }
                }
                Role::KING | Role::COMMONER => {
                    for d in geometry::CLOCKWISE {
                        if let Some((to, true)) = wrapped(pos, from, d) {
                            push_target(pos, from, to, color, out);
                        }
                    }
                }
                Role::ROOK => {
                    for d in EW {
                        slide(pos, from, d, color, out);
                    }
                }
                Role::BISHOP => {
                    for d in geometry::DIAGONAL {
                        slide(pos, from, d, color, out);
                    }
                }
                Role::QUEEN => {
                    for d in EW.iter().chain(geometry::DIAGONAL.iter()) {
                        slide(pos, from, *d, color, out);
                    }
                }
                _ => {}
            }
        }
    }

    fn on_after_move(
        &self,
        pos: &mut Position,
        _before: &Position,
        mv: Move,
        st: u8,
        _fx: &mut MoveEffects,
    ) {
        if st == stage::MOVE && mv.flags.contains(MoveFlags::DOUBLE_STEP) && pos.ep_passed.is_none()
        {
            set_ep_after_double(pos, self.k.get(), mv.from, mv.to, true);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Color;

    const ID: &str = "wrap-board";

    #[test]
    fn wrap_board_scenario_1() {
        // Rook a4 on an empty board: a4→h4 westward through the seam; b4, c4 … normally.
        let p = pipe(&[ID]);
        let f = "4k3/8/8/8/R7/8/8/4K3 w - - 0 1";
        let l = legal(&p, f);
        for m in ["a4h4", "a4b4", "a4c4", "a4g4"] {
            assert_eq!(l.iter().filter(|x| *x == m).count(), 1, "{m} {l:?}");
        }
        // With b4 blocked, h4..c4 are still reached westward through the seam.
        let l = legal(&p, "4k3/8/8/8/RN6/8/8/4K3 w - - 0 1");
        assert!(l.contains(&"a4h4".to_string()) && l.contains(&"a4c4".to_string()));
        assert!(!l.contains(&"a4a4".to_string()));
    }

    #[test]
    fn wrap_board_scenario_2() {
        // Bishop a1: a1→h2 (one diagonal step westward wraps).
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/8/8/8/B3K3 w - - 0 1");
        assert!(
            l.contains(&"a1h2".to_string()) && l.contains(&"a1g3".to_string()),
            "{l:?}"
        );
    }

    #[test]
    fn wrap_board_scenario_3() {
        // Pawn captures wrap: h5×a6 is legal only if an enemy stands on a6.
        let p = pipe(&[ID]);
        assert!(!has(&p, "4k3/8/N7/7p/8/8/8/4K3 b - - 0 1", "h5a4"));
        // Black pawn on h5 captures toward rank 4: h5×a4 when a white piece is on a4.
        assert!(has(&p, "4k3/8/8/7p/N7/8/8/4K3 b - - 0 1", "h5a4"));
        assert!(!has(&p, "4k3/8/8/7p/8/8/8/4K3 b - - 0 1", "h5a4"));
        // The catalogue's direction (White capturing upward): a white pawn on h5 takes a6.
        assert!(has(&p, "4k3/8/n7/7P/8/8/8/4K3 w - - 0 1", "h5a6"));
        assert!(!has(&p, "4k3/8/8/7P/8/8/8/4K3 w - - 0 1", "h5a6"));
    }

    #[test]
    fn wrap_board_edge_1() {
        // Castling does not wrap: with the king on e1 castling is only to g1/c1 as usual.
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert!(
            l.contains(&"e1g1".to_string()) && l.contains(&"e1c1".to_string()),
            "{l:?}"
        );
        // A king on a1 steps to h1/h2 across the seam.
        let l = legal(&p, "4k3/8/8/8/8/8/8/K7 w - - 0 1");
        assert!(l.contains(&"a1h1".to_string()) && l.contains(&"a1h2".to_string()));
    }

    #[test]
    fn wrap_board_edge_2() {
        // Check across the seam: a rook on a4 attacks h4.
        let p = pipe(&[ID]);
        let f = "8/8/8/8/Rp5k/8/8/4K3 b - - 0 1";
        assert!(p.royal_attacked(&pos(&p, f), Color::Black).unwrap());
        let l = legal(&p, f);
        assert!(
            !l.contains(&"h4g4".to_string()),
            "still on the rook's wrapped line: {l:?}"
        );
        // Castling through a square attacked across the seam is illegal.
        let l = legal(&p, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert!(l.contains(&"e1g1".to_string()));
        // A black bishop on c6 sees f1 through the seam (b5, a4, h3, g2, f1).
        let f = "4k3/8/2b5/8/8/8/8/4K2R w K - 0 1";
        assert!(!has(&p, f, "e1g1"));
        assert!(has(&pipe(&[]), f, "e1g1"));
    }

    #[test]
    fn wrap_board_edge_3() {
        // En passant across the seam: Black h7–h5 next to a white pawn on a5 → a5×h6 e.p.
        let p = pipe(&[ID]);
        let (after, _) = play(&p, "4k3/7p/8/P7/8/8/8/4K3 b - - 0 1", &["h7h5"]);
        assert_eq!(after.ep_passed, sq("h6"));
        let l = legal_at(&p, &after);
        assert!(l.contains(&"a5h6".to_string()), "{l:?}");
        let (taken, ev) = play_from(&p, after, &["a5h6"]);
        assert_eq!(at(&p, &taken, "h5"), '.');
        assert_eq!(at(&p, &taken, "h6"), 'P');
        assert_eq!(kinds(&ev), ["capture"]);
    }
}
