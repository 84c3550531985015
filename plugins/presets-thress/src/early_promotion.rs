//! early-promotion — Pawns promote on their 6th rank (ThressGame `early_promotion`).
//!
//! RULINGS: a pawn promotes on reaching its owner's 6th rank (White rank 6, Black rank 3), with
//! the variant's promotion choices; option `rank` (default 6, counted from the owner's side,
//! 2 to 8). As a transform: the promotion zone of every pawn-role piece becomes its ranks from
//! `rank` on; a move ending there promotes (a pawn already standing in the zone — a FEN, or
//! `rank=2` at the start — promotes on its next move).

use crate::Meta;
use houserules_plugin_api::{
    OptionKind, OptionSpec, Options, PresetRules, Role, RulesModel, Square, SquareSet,
};

fn options() -> Vec<OptionSpec> {
    vec![OptionSpec {
        key: "rank".into(),
        kind: OptionKind::INT,
        default: "6".into(),
        choices: Default::default(),
        min: 2,
        max: 8,
        description: "the rank (from the owner's side) where pawns promote".into(),
    }]
}

pub(crate) const META: Meta = Meta {
    id: "early-promotion",
    name: "Early Promotion",
    description: "Pawns promote on reaching their 6th rank (option `rank`, 2 to 8) instead of \
                  the last, with the variant's promotion choices.",
    incompatible: &[],
    options,
    evaluates: false,
};

/// The `rank` option (1-based, from the owner's side).
pub(crate) fn rank_option(options: &Options) -> Result<u8, String> {
    options
        .get("rank")
        .unwrap_or("6")
        .parse::<u8>()
        .map_err(|e| format!("option `rank`: {e}"))
}

/// The preset.
pub struct EarlyPromotion {
    /// The promotion rank, 1-based from the owner's side.
    pub rank: u8,
}

impl PresetRules for EarlyPromotion {
    fn transform_model(&self, model: &mut RulesModel) -> Result<(), String> {
        let (files, ranks) = (model.files, model.ranks);
        let from = self.rank.clamp(1, ranks) - 1;
        let zone = |white: bool| -> SquareSet {
            let mut s = SquareSet::EMPTY;
            for r in 0..ranks {
                let own = if white { r } else { ranks - 1 - r };
                if own >= from {
                    for f in 0..files {
                        s.insert(Square::new(f, r));
                    }
                }
            }
            s
        };
        for p in model.pieces.iter_mut().filter(|p| p.role == Role::PAWN) {
            p.promotion.zone = [zone(true), zone(false)];
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;

    #[test]
    fn early_promotion_on_the_sixth_rank() {
        let p = pipe(&["early-promotion"]);
        let l = legal(&p, "4k3/8/8/4P3/8/8/8/4K3 w - - 0 1");
        for m in ["e5e6q", "e5e6r", "e5e6b", "e5e6n"] {
            assert!(l.contains(&m.to_string()), "{l:?}");
        }
        assert!(!l.contains(&"e5e6".to_string()), "promotion is compulsory");
        // Black on its 6th rank: rank 3.
        let l = legal(&p, "4k3/8/8/8/4p3/8/8/4K3 b - - 0 1");
        assert!(l.contains(&"e4e3q".to_string()), "{l:?}");
        // Captures onto the rank promote too.
        assert!(has(&p, "4k3/8/3n4/4P3/8/8/8/4K3 w - - 0 1", "e5d6n"));
    }

    #[test]
    fn early_promotion_rank_option() {
        let p = pipe(&["early-promotion:rank=4"]);
        assert!(has(&p, "4k3/8/8/8/8/4P3/8/4K3 w - - 0 1", "e3e4q"));
        // A double step into the zone promotes as well.
        assert!(has(&p, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2e4q"));
        assert!(try_pipe(&["early-promotion:rank=9"]).is_err());
        // rank=2: the pawns start in the zone and promote on their first move.
        let p2 = pipe(&["early-promotion:rank=2"]);
        let start = p2.start_position().unwrap();
        assert_eq!(fen(&p2, &start), START);
        assert!(has_at(&p2, &start, "e2e4q") && has_at(&p2, &start, "e2e3n"));
        assert!(!has_at(&p2, &start, "e2e3"));
        // rank=8 is the variant's own rule.
        let p8 = pipe(&["early-promotion:rank=8"]);
        assert_eq!(perft_fen(&p8, START, 3), 8902);
    }

    #[test]
    fn early_promotion_combines_with_other_movement() {
        // With pawns-move-backward a promoted piece never comes back as a pawn; a pawn that
        // stepped back to rank 5 promotes again on reaching 6.
        let p = pipe(&["early-promotion", "pawns-move-backward"]);
        assert!(has(&p, "4k3/8/8/4P3/8/8/8/4K3 w - - 0 1", "e5e4"));
        // With berolina-pawns the diagonal push promotes.
        let p = pipe(&["early-promotion", "berolina-pawns"]);
        assert!(has(&p, "4k3/8/8/4P3/8/8/8/4K3 w - - 0 1", "e5d6q"));
    }
}
