//! #26 berolina-pawns — Berolina Pawns (and the shared transform of #27 berolina-pawns-2).
//!
//! A model transform (API 1.2): the pawns of the sides in `scope` (default both) move as
//! `fmFcfeWifmnA` — quiet one square diagonally forward; from the home rank (the initial
//! region) two squares diagonally forward in the same direction through an empty passed
//! square; captures one square straight forward, which may take en passant;
//! berolina-pawns-2 adds `csW`, sideways captures onto the adjacent file of the same rank,
//! which neither create nor take en passant. Promotion is unchanged (any push or capture
//! reaching the last rank).
//!
//! En passant (Parton 1952): the diagonal double step passes a square, so it may be taken
//! there on the very next move — by a Berolina pawn's forward capture or a FIDE pawn's
//! diagonal one (with `scope`, one side keeps FIDE pawns). The FEN writes such a right in the
//! Fairy-Stockfish two-square form — the passed and the landing square in board order: `c3d4`
//! after b2-d4, `f5g6` after h7-f5 — which the host reads and writes.

use crate::common::Kinds;
use crate::Meta;
use houserules_plugin_api::abi_stable::std_types::ROption;
use houserules_plugin_api::{
    preset_object, HookSet, Options, PresetBox, PresetRules, Role, RulesModel, Scope,
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
    hooks: HookSet::TRANSFORM_MODEL,
    stages: &[],
    priority: 0,
    preferred_layout: None,
    extra: &[],
};

/// Berolina movement, White's view.
const BEROLINA: &str = "fmFcfeWifmnA";
/// berolina-pawns-2: with sideways captures.
const BEROLINA_2: &str = "fmFcfeWcsWifmnA";

pub(crate) fn new(k: Kinds, options: &Options, sideways: bool) -> Result<PresetBox, String> {
    let id = if sideways {
        crate::berolina_pawns_2::META.id
    } else {
        META.id
    };
    k.require(id, Role::PAWN)?;
    Ok(preset_object(Berolina {
        scope: options.scope(),
        betza: if sideways { BEROLINA_2 } else { BEROLINA },
    }))
}

pub(crate) struct Berolina {
    scope: Scope,
    betza: &'static str,
}

impl PresetRules for Berolina {
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        use houserules_plugin_api::Color;
        for p in model.pieces.iter_mut().filter(|p| p.role == Role::PAWN) {
            let fide = p.betza.clone();
            let black_before = p.betza_black.clone().into_option().unwrap_or(fide.clone());
            if self.scope.applies(Color::White) {
                p.betza = self.betza.into();
            }
            p.betza_black = if self.scope.applies(Color::Black) {
                ROption::RSome(self.betza.into())
            } else {
                ROption::RSome(black_before)
            };
            if p.betza_black.as_ref().into_option() == Some(&p.betza) {
                p.betza_black = ROption::RNone;
            }
        }
        Ok(())
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
