//! #28 bouncing-pieces — Bouncing Pieces (and the shared engine of #29 bouncing-pieces-2).
//!
//! `get_extra_moves` adds, for every bishop and every queen (diagonal rays only), the squares a
//! diagonal ray reaches after reflecting (ruling): a ray that would leave the board through the
//! a- or h-file reflects — its file direction flips — and continues from the edge square; it
//! stops before a friend, on an enemy (capture), or when it would leave the board any other
//! way. bouncing-pieces allows one reflection per ray; bouncing-pieces-2 also reflects off
//! ranks 1 and 8 (the rank direction flips) and allows two; a ray that reaches a corner stops
//! there. Only the squares after a reflection are added (the variant gives the rest; the host
//! drops duplicates). Captures through a bounce give check: the host's attack test sees the
//! pseudo-legal moves of the other side, these included.

use crate::common::Kinds;
use crate::Meta;
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    geometry, preset_object, Color, HookSet, Move, MoveFlags, Position, PresetBox, PresetRules,
    Role, Square,
};

pub(crate) const META: Meta = Meta {
    id: "bouncing-pieces",
    name: "Bouncing Pieces",
    category: "Board Geometry",
    mode: "hook",
    description: "Bishop and queen diagonal rays reflect once off the a- and h-file edges and \
                  continue until they meet a friend, capture an enemy or leave the board. \
                  Orthogonal rays are unchanged.",
    incompatible: &["wrap-board", "bouncing-pieces-2"],
    scope: None,
    hooks: HookSet::GET_EXTRA_MOVES,
    stages: &[],
    priority: 0,
    preferred_layout: None,
    extra: &[],
};

pub(crate) fn new(k: Kinds, reflections: u8) -> Result<PresetBox, String> {
    Ok(preset_object(Bouncing { k, reflections }))
}

struct Bouncing {
    k: Kinds,
    /// 1: off the a/h files once; 2: off all four edges, at most twice.
    reflections: u8,
}

/// The squares a diagonal ray from `from` in direction `d` reaches after at least one
/// reflection, with whether each is a capture; `max` reflections, ranks reflect when
/// `max >= 2`.
pub(crate) fn bounced_ray(
    pos: &Position,
    from: Square,
    d: (i8, i8),
    color: Color,
    max: u8,
    out: &mut RVec<Move>,
) {
    let (files, ranks) = (pos.files() as i8, pos.ranks() as i8);
    let (mut df, mut dr) = d;
    let mut cur = from;
    let mut used = 0u8;
    loop {
        let nf = cur.file() as i8 + df;
        let nr = cur.rank() as i8 + dr;
        let off_f = nf < 0 || nf >= files;
        let off_r = nr < 0 || nr >= ranks;
        if off_f && off_r {
            // A corner: the ray stops there.
            return;
        }
        if off_f || off_r {
            if used == max || (off_r && max < 2) {
                return;
            }
            used += 1;
            if off_f {
                df = -df;
            } else {
                dr = -dr;
            }
            continue;
        }
        let to = Square::new(nf as u8, nr as u8);
        let c = pos.get(to);
        if c.is_hole() || to == from {
            return;
        }
        if c.is_empty() {
            if used > 0 {
                out.push(Move::new(from, to, MoveFlags::NONE));
            }
        } else {
            if used > 0 && c.is_color(color.opposite()) {
                out.push(Move::new(from, to, MoveFlags::CAPTURE));
            }
            return;
        }
        cur = to;
    }
}

impl PresetRules for Bouncing {
    fn get_extra_moves(&self, pos: &Position, color: Color, out: &mut RVec<Move>) {
        for (sq, kind) in pos.pieces_of(color) {
            let role = self.k.role(kind);
            if role == Role::BISHOP || role == Role::QUEEN {
                for d in geometry::DIAGONAL {
                    bounced_ray(pos, sq, d, color, self.reflections, out);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Color;

    const P: &[&str] = &["bouncing-pieces"];

    #[test]
    fn bouncing_pieces_reflect_once_off_the_side_files() {
        let p = pipe(P);
        // Bishop c1 on an empty board: NW b2, a3, then reflected b4 c5 d6 e7 f8; NE d2 ... h6
        // then reflected g7 f8.
        let f = "7k/8/8/8/8/8/8/2B4K w - - 0 1";
        assert_eq!(
            destinations(&p, f, "c1"),
            ["a3", "b2", "b4", "c5", "d2", "d6", "e3", "e7", "f4", "f8", "g5", "g7", "h6"]
        );
    }

    #[test]
    fn bouncing_pieces_corners_stop_and_ranks_do_not_reflect() {
        let p = pipe(P);
        // Bishop d4: SW c3 b2 a1 — a corner, the ray stops. NW c5 b6 a7, reflected b8, then it
        // would leave through rank 8: it stops (no rank reflection on this preset).
        let f = "4k3/8/8/8/3B4/8/8/4K3 w - - 0 1";
        let m = destinations(&p, f, "d4");
        assert!(m.contains(&"b8".to_string()), "{m:?}");
        assert!(!m.contains(&"c7".to_string()), "{m:?}");
        assert_eq!(m.len(), 14, "{m:?}");
    }

    #[test]
    fn bouncing_pieces_stop_at_friends_and_capture_enemies_after_the_bounce() {
        let p = pipe(P);
        let m = destinations(&p, "7k/8/8/2n5/8/8/8/2B4K w - - 0 1", "c1");
        assert!(m.contains(&"b4".to_string()));
        assert!(m.contains(&"c5".to_string()));
        assert!(!m.contains(&"d6".to_string()));
        let m2 = destinations(&p, "7k/8/8/2N5/8/8/8/2B4K w - - 0 1", "c1");
        assert!(m2.contains(&"b4".to_string()));
        assert!(!m2.contains(&"c5".to_string()));
        assert!(!m2.contains(&"d6".to_string()));
    }

    #[test]
    fn bouncing_pieces_queens_bounce_too_and_bounced_check_is_check() {
        let p = pipe(P);
        // Queen c1: NW a3 then reflected b4 ... e7 — the king on e7 is in check.
        let f = "8/4k3/8/8/8/8/8/2Q4K b - - 0 1";
        assert!(p.royal_attacked(&pos(&p, f), Color::Black).unwrap());
        // Orthogonal rays unchanged: the queen on a1 does not wrap to h1.
        let f2 = "6k1/8/8/8/8/8/8/Q6K w - - 0 1";
        assert!(!has(&p, f2, "a1h1"));
    }

    #[test]
    fn bouncing_pieces_incompatibilities() {
        let e = try_pipe(&["bouncing-pieces", "bouncing-pieces-2"])
            .err()
            .unwrap();
        assert!(e.to_string().contains("incompatible"), "{e}");
    }
}
