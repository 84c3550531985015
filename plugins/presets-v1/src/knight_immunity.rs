//! knight-immunity — Bishop-Proof Knights.
//!
//! A bishop may never capture an enemy knight (nor may a pawn promoting to a bishop capture
//! one). For check and checkmate the bishop still threatens through such knights: its
//! diagonal attack passes over knights of the other colour as if they were not there, so a
//! knight cannot shield its king from a bishop. Queens are not restricted.

use crate::common::Bound;
use crate::Meta;
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    geometry, Color, Decision, HookSet, Move, Position, PresetRules, Role, Square,
};

pub(crate) const META: Meta = Meta {
    id: "knight-immunity",
    name: "Bishop-Proof Knights",
    category: "Piece Ability",
    mode: "override",
    description: "A bishop may never capture a knight; for check detection the bishop still \
                  attacks through knights.",
    requires: &[],
    incompatible: &[],
    hooks: HookSet(HookSet::GET_LEGAL_MOVE_MODIFIERS.0 | HookSet::IS_ATTACKED.0),
    stages: &[],
    priority: 0,
    movement: "",
    search: &[],
};

/// The preset.
#[derive(Default)]
pub struct KnightImmunity {
    pub(crate) k: Bound,
}

impl PresetRules for KnightImmunity {
    fn get_legal_move_modifiers(&self, pos: &Position, color: Color, moves: &mut RVec<Move>) {
        let k = self.k.get();
        moves.retain(|m| {
            if !m.is_capture() || !k.is(pos.get(m.to), Role::KNIGHT, color.opposite()) {
                return true;
            }
            let by_bishop = if m.is_promotion() {
                k.kind_role(m.piece) == Role::BISHOP
            } else {
                k.is(pos.get(m.from), Role::BISHOP, color)
            };
            !by_bishop
        });
    }

    fn is_attacked(&self, pos: &Position, sq: Square, by: Color) -> Decision {
        let k = self.k.get();
        for d in geometry::DIAGONAL {
            let mut s = sq;
            while let Some(next) = pos.offset(s, d.0, d.1) {
                let c = pos.get(next);
                if c.is_empty() || k.is(c, Role::KNIGHT, by.opposite()) {
                    s = next;
                    continue;
                }
                if k.is(c, Role::BISHOP, by) {
                    return Decision::YES;
                }
                break;
            }
        }
        Decision::DEFER
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Color;

    const ID: &str = "knight-immunity";

    #[test]
    fn knight_immunity_scenario_1() {
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/7n/8/8/8/8/2B1K3 w - - 0 1");
        assert!(!l.contains(&"c1h6".to_string()));
        assert!(l.contains(&"c1g5".to_string()));
    }

    #[test]
    fn knight_immunity_scenario_2() {
        // A bishop check through no knight must be answered as usual.
        let p = pipe(&[ID]);
        let f = "4k3/8/8/8/1b6/8/8/4K3 w - - 0 1";
        assert!(p.royal_attacked(&pos(&p, f), Color::White).unwrap());
        assert_eq!(sorted(legal(&p, f)), ["e1d1", "e1e2", "e1f1", "e1f2"]);
    }

    #[test]
    fn knight_immunity_scenario_3() {
        // Knights may capture bishops: Nd3xb4 answers the check.
        let p = pipe(&[ID]);
        assert!(has(&p, "4k3/8/8/8/1b6/3N4/8/4K3 w - - 0 1", "d3b4"));
    }

    #[test]
    fn knight_immunity_edge_1() {
        // The bishop's threat passes through the knight: a knight on d2 does not shield e1
        // from the bishop on b4 (White is in check), and a knight cannot block such a check.
        let p = pipe(&[ID]);
        let f = "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1";
        assert!(p.royal_attacked(&pos(&p, f), Color::White).unwrap());
        let l = legal(&p, f);
        assert!(l.iter().all(|m| m.starts_with("e1")), "{l:?}");
        let plain = pipe(&[]);
        assert!(!plain.royal_attacked(&pos(&plain, f), Color::White).unwrap());
        // Nor can a knight interpose: Nc3 "blocking" b4-e1 leaves the king in check.
        assert!(!has(&p, "4k3/8/8/8/1b6/8/4N3/4K3 w - - 0 1", "e2c3"));
        assert!(has(&plain, "4k3/8/8/8/1b6/8/4N3/4K3 w - - 0 1", "e2c3"));
    }

    #[test]
    fn knight_immunity_edge_2() {
        // A pawn promoting to a bishop may not capture a knight; to a queen it may.
        let p = pipe(&[ID]);
        let l = legal(&p, "4k2n/6P1/8/8/8/8/8/4K3 w - - 0 1");
        assert!(!l.contains(&"g7h8b".to_string()));
        assert!(l.contains(&"g7h8q".to_string()) && l.contains(&"g7h8n".to_string()));
    }

    #[test]
    fn knight_immunity_edge_3() {
        // Queens are not bishops.
        let p = pipe(&[ID]);
        assert!(has(&p, "4k3/8/7n/8/8/8/8/2Q1K3 w - - 0 1", "c1h6"));
    }
}
