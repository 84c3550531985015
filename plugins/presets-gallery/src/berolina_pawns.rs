//! #26 berolina-pawns — Berolina Pawns (and the shared engine of #27 berolina-pawns-2).
//!
//! For the pawns of the sides in `scope` (default both), claimed through
//! `override_piece_moves`:
//!
//! * quiet moves one square diagonally forward; from the home rank also two squares
//!   diagonally forward in the same direction through an empty passed square (`DOUBLE_STEP`,
//!   `via` = the passed square);
//! * captures one square straight forward (berolina-pawns-2 also sideways: the adjacent file
//!   on the same rank — such captures neither create nor take en passant);
//! * promotion (queen, rook, bishop, knight) on any push or capture reaching the last rank.
//!
//! En passant (Parton 1952): after a double diagonal push, `on_after_move` (`MOVE`) sets
//! `ep_passed` = the passed square and `ep_victim` = the landing square, when an enemy pawn can
//! take: a Berolina pawn by its forward capture onto the passed square, an unscoped (FIDE) pawn
//! by its diagonal capture onto it. FIDE double steps get the same treatment, so the right is
//! kept exactly when someone can use it; the chess plugin removes the victim from `ep_victim`.
//! The FEN writes such a right in the
//! Fairy-Stockfish two-square form — the passed and the landing square in board order: `c3d4`
//! after b2-d4, `f5g6` after h7-f5 — which the host reads and writes for variants without a
//! two-square field of their own.

use crate::common::{is_double_step, set_en_passant, Kinds};
use crate::Meta;
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    preset_object, stage, Color, HookSet, Move, MoveEffects, MoveFlags, Options, Position,
    PresetBox, PresetRules, Role, Scope, Square, SquareSet,
};

pub(crate) const META: Meta = Meta {
    id: "berolina-pawns",
    name: "Berolina Pawns",
    category: "Movement Modifier",
    mode: "hooks",
    description: "Pawns push diagonally forward (two squares from the home rank) and capture \
                  straight forward. En passant follows Parton: a double push may be taken on \
                  the passed square on the very next move. Scope chooses the side(s).",
    incompatible: &["berolina-pawns-2"],
    scope: Some("both"),
    hooks: HookSet(HookSet::OVERRIDE_PIECE_MOVES.0 | HookSet::ON_AFTER_MOVE.0),
    stages: &[stage::MOVE],
    priority: 0,
    preferred_layout: None,
    extra: &[],
};

pub(crate) fn new(k: Kinds, options: &Options, sideways: bool) -> Result<PresetBox, String> {
    let id = if sideways {
        crate::berolina_pawns_2::META.id
    } else {
        META.id
    };
    let pawn = k.require(id, Role::PAWN)?;
    Ok(preset_object(Berolina {
        promotions: k.promotions(),
        k,
        pawn,
        scope: options.scope(),
        sideways,
    }))
}

pub(crate) struct Berolina {
    k: Kinds,
    pawn: u8,
    promotions: Vec<u8>,
    scope: Scope,
    sideways: bool,
}

impl Berolina {
    fn push(
        &self,
        pos: &Position,
        from: Square,
        to: Square,
        flags: MoveFlags,
        out: &mut RVec<Move>,
    ) {
        let last = if pos.get(from).color() == Some(Color::White) {
            pos.ranks() - 1
        } else {
            0
        };
        if to.rank() == last && !self.promotions.is_empty() {
            for &p in &self.promotions {
                out.push(Move::promotion(
                    from,
                    to,
                    p,
                    flags.contains(MoveFlags::CAPTURE),
                ));
            }
        } else {
            out.push(Move::new(from, to, flags));
        }
    }

    fn pawn_moves(&self, pos: &Position, sq: Square, color: Color, out: &mut RVec<Move>) {
        let fwd = color.forward();
        let home = if color == Color::White {
            1
        } else {
            pos.ranks() - 2
        };
        let them = color.opposite();
        for df in [-1i8, 1] {
            if let Some(one) = pos.offset(sq, df, fwd) {
                if pos.get(one).is_empty() {
                    self.push(pos, sq, one, MoveFlags::NONE, out);
                    if sq.rank() == home {
                        if let Some(two) = pos.offset(one, df, fwd) {
                            if pos.get(two).is_empty() {
                                let mut m = Move::new(sq, two, MoveFlags::DOUBLE_STEP);
                                m.via = one;
                                out.push(m);
                            }
                        }
                    }
                }
            }
        }
        if let Some(ahead) = pos.offset(sq, 0, fwd) {
            let c = pos.get(ahead);
            if c.is_color(them) {
                self.push(pos, sq, ahead, MoveFlags::CAPTURE, out);
            } else if c.is_empty()
                && ahead == pos.ep_passed
                && color == pos.side_to_move
                && pos.get(pos.ep_victim).is_color(them)
            {
                out.push(Move::new(
                    sq,
                    ahead,
                    MoveFlags::CAPTURE | MoveFlags::EN_PASSANT,
                ));
            }
        }
        if self.sideways {
            for df in [-1i8, 1] {
                if let Some(side) = pos.offset(sq, df, 0) {
                    if pos.get(side).is_color(them) {
                        out.push(Move::new(sq, side, MoveFlags::CAPTURE));
                    }
                }
            }
        }
    }
}

impl PresetRules for Berolina {
    fn override_piece_moves(
        &self,
        pos: &Position,
        color: Color,
        claimed: &mut SquareSet,
        out: &mut RVec<Move>,
    ) {
        if !self.scope.applies(color) {
            return;
        }
        for (sq, kind) in pos.pieces_of(color) {
            if self.k.role(kind) == Role::PAWN && !claimed.contains(sq) {
                claimed.insert(sq);
                self.pawn_moves(pos, sq, color, out);
            }
        }
    }

    fn on_after_move(
        &self,
        pos: &mut Position,
        before: &Position,
        mv: Move,
        st: u8,
        fx: &mut MoveEffects,
    ) {
        if st == stage::MOVE && is_double_step(mv) && before.get(mv.from).kind() == Some(self.pawn)
        {
            set_en_passant(pos, &self.k, mv, fx.mover, |c| self.scope.applies(c));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Color;

    const P: &[&str] = &["berolina-pawns"];

    #[test]
    fn berolina_pawns_push_diagonally_and_double_from_home() {
        let p = pipe(P);
        let f = "4k3/8/8/8/8/8/1P6/4K3 w - - 0 1";
        let mut m = legal(&p, f);
        m.retain(|x| x.starts_with("b2"));
        m.sort();
        assert_eq!(m, ["b2a3", "b2c3", "b2d4"]);
        // From a2 the double step to c4 needs b3 empty.
        let blocked = "4k3/8/8/8/8/1n6/P7/4K3 w - - 0 1";
        assert!(!has(&p, blocked, "a2c4"));
        // No straight push; no double step off the home rank.
        assert!(!has(&p, "4k3/8/8/8/8/1P6/8/4K3 w - - 0 1", "b3b4"));
        assert!(!has(&p, "4k3/8/8/8/8/1P6/8/4K3 w - - 0 1", "b3d5"));
        // Perft from the start: 14 single and 12 double diagonal pushes, 4 knight moves.
        assert_eq!(perft_fen(&p, START, 1), 30);
    }

    #[test]
    fn berolina_pawns_capture_straight_forward_not_diagonally() {
        let p = pipe(P);
        let f = "4k3/8/8/2n1r3/3P4/8/8/4K3 w - - 0 1";
        assert!(!has(&p, f, "d4c5"));
        assert!(!has(&p, f, "d4e5"));
        let f2 = "4k3/8/8/3n4/3P4/8/8/4K3 w - - 0 1";
        assert!(has(&p, f2, "d4d5"));
        // No sideways capture on this preset.
        assert!(!has(&p, "4k3/8/8/8/2nP4/8/8/4K3 w - - 0 1", "d4c4"));
        // Black pawns capture straight down.
        assert!(has(&p, "4k3/8/8/3p4/3N4/8/8/4K3 b - - 0 1", "d5d4"));
    }

    #[test]
    fn berolina_pawns_promote_on_push_and_capture() {
        let p = pipe(P);
        let f = "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
        let mut m = legal(&p, f);
        m.retain(|x| x.starts_with("b7"));
        m.sort();
        // a8 holds a rook: a diagonal push cannot go there, and b8 is empty: no capture.
        assert_eq!(m, ["b7c8b", "b7c8n", "b7c8q", "b7c8r"]);
        let f2 = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
        assert!(has(&p, f2, "b7a8q"));
        let f3 = "1n2k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
        assert!(has(&p, f3, "b7b8r"));
    }

    #[test]
    fn berolina_pawns_parton_en_passant() {
        let p = pipe(P);
        // White b2-d4 passes c3; the black Berolina pawn on c4 takes on c3 by its straight
        // forward capture, removing the pawn on d4.
        let f = "4k3/8/8/8/2p5/8/1P6/4K3 w - - 0 1";
        let (a, _) = play(&p, f, &["b2d4"]);
        assert_eq!(fen(&p, &a), "4k3/8/8/8/2pP4/8/8/4K3 b - c3d4 0 1");
        assert!(has_at(&p, &a, "c4c3"));
        let (b, ev) = play_from(&p, a.clone(), &["c4c3"]);
        assert_eq!(fen(&p, &b), "4k3/8/8/8/8/2p5/8/4K3 w - - 0 2");
        assert!(ev.iter().any(|e| e.kind.name() == "capture"));
        // The two-square field reads back to the same position.
        let back = pos(&p, "4k3/8/8/8/2pP4/8/8/4K3 b - c3d4 0 1");
        assert!(back.same_for_repetition(&a));
        assert!(has_at(&p, &back, "c4c3"));
        // Only on the very next move.
        let (c, _) = play_from(&p, a, &["e8d8", "e1d1"]);
        assert!(!has_at(&p, &c, "c4c3"));
    }

    #[test]
    fn berolina_pawns_no_en_passant_field_when_nobody_can_take() {
        let p = pipe(P);
        let (a, _) = play(&p, "4k3/8/8/8/8/8/1P6/4K3 w - - 0 1", &["b2d4"]);
        assert!(a.ep_passed.is_none());
        assert_eq!(fen(&p, &a), "4k3/8/8/8/3P4/8/8/4K3 b - - 0 1");
    }

    #[test]
    fn berolina_pawns_scope_white_only_white_pawns_are_berolina() {
        let p = pipe(&["berolina-pawns:scope=white"]);
        let start = pos(&p, START);
        assert_eq!(perft_at(&p, &start, 1), 30);
        let (a, _) = play_from(&p, start, &["b2c3"]);
        // Black pawns are FIDE pawns.
        assert!(has_at(&p, &a, "e7e5"));
        assert!(!has_at(&p, &a, "e7d6"));
        // A FIDE pawn takes a Berolina double step en passant diagonally onto the passed
        // square: black b4 takes c3, removing d4.
        let (b, _) = play(&p, "4k3/8/8/8/1p6/8/1P6/4K3 w - - 0 1", &["b2d4"]);
        assert_eq!(fen(&p, &b), "4k3/8/8/8/1p1P4/8/8/4K3 b - c3d4 0 1");
        let (c, _) = play_from(&p, b, &["b4c3"]);
        assert_eq!(fen(&p, &c), "4k3/8/8/8/8/2p5/8/4K3 w - - 0 2");
    }

    #[test]
    fn berolina_pawns_scope_black_only_black_pawns_are_berolina() {
        let p = pipe(&["berolina-pawns:scope=black"]);
        let start = pos(&p, START);
        assert_eq!(perft_at(&p, &start, 1), 20);
        let (a, _) = play_from(&p, start, &["e2e4"]);
        assert!(has_at(&p, &a, "e7d6"));
        assert!(has_at(&p, &a, "e7c5"));
        assert!(!has_at(&p, &a, "e7e5"));
        // A FIDE double step cannot be taken by a Berolina pawn: no en passant field.
        let (b, _) = play(&p, "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", &["e2e4"]);
        assert!(b.ep_passed.is_none());
        assert!(!fen(&p, &b).contains("e3"));
    }

    #[test]
    fn berolina_pawns_check_by_a_berolina_pawn() {
        let p = pipe(P);
        // A Berolina pawn attacks straight ahead: the king on e5 in front of the e4 pawn is in
        // check, a king diagonally in front is not.
        let f = "8/8/8/4k3/4P3/8/8/4K3 b - - 0 1";
        assert!(p.royal_attacked(&pos(&p, f), Color::Black).unwrap());
        let f2 = "8/8/8/3k4/4P3/8/8/4K3 b - - 0 1";
        assert!(!p.royal_attacked(&pos(&p, f2), Color::Black).unwrap());
    }
}
