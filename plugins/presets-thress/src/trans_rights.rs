//! trans-rights — Kings move like queens, queens like kings (ThressGame `trans_rights`).
//!
//! RULINGS: kings slide as queens and queens step as kings; the king stays the royal piece;
//! castling is unchanged. As a transform: the king-role pieces move as `Q`, the queen-role
//! pieces as `K`.

use crate::Meta;
use houserules_plugin_api::abi_stable::std_types::ROption;
use houserules_plugin_api::{PresetRules, Role, RulesModel};

pub(crate) const META: Meta = Meta {
    id: "trans-rights",
    name: "Trans Rights",
    description: "Kings move like queens and queens like kings; the king stays royal and \
                  castles as usual.",
    incompatible: &[],
    options: crate::no_options,
    evaluates: false,
};

/// The preset.
pub struct TransRights;

impl PresetRules for TransRights {
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        for p in model.pieces.iter_mut() {
            let to = match p.role {
                Role::KING => "Q",
                Role::QUEEN => "K",
                _ => continue,
            };
            p.betza = to.into();
            p.betza_black = ROption::RNone;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Color;

    #[test]
    fn trans_rights_kings_slide_queens_step() {
        let p = pipe(&["trans-rights"]);
        let d = destinations(&p, "8/8/8/8/3K4/8/7k/8 w - - 0 1", "d4");
        // 27 queen squares, less the nine the black king (a queen too) attacks from h2: rank 2,
        // the h-file, g1 and the long diagonal to b8.
        assert_eq!(d.len(), 18, "{d:?}");
        assert!(d.contains(&"d8".to_string()) && d.contains(&"a7".to_string()));
        assert_eq!(
            destinations(&p, "k7/8/8/8/3Q4/8/8/6K1 w - - 0 1", "d4").len(),
            8
        );
        // The king stays royal: a queen-king may not slide into a rook's line.
        let f = "4k3/8/8/8/8/8/r7/3K4 w - - 0 1";
        assert!(!has(&p, f, "d1d2"));
        // Kings attack from afar, both ways: a king may not step onto an open line of the
        // other (e4 lies on a8's diagonal), and kings facing each other are an illegal FEN.
        let g = "k7/8/8/8/8/8/8/4K3 w - - 0 1";
        assert!(!has(&p, g, "e1e4") && has(&p, g, "e1e3"));
        assert!(p.parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1").is_err());
        assert!(!p.royal_attacked(&pos(&p, g), Color::Black).unwrap());
        // Castling unchanged.
        assert!(has(&p, "r3k2r/4p3/8/8/8/8/4P3/R3K2R w KQkq - 0 1", "e1c1"));
    }
}
