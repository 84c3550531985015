//! {{name}}: a houserules variant plugin.
//!
//! Kings only, on a 6x6 board: kings step like chess kings, may not move into check, and a
//! king that reaches the far rank wins. Replace the rules with your own, and the tests at the
//! end with your game's.

use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    export_plugin, geometry, variant_object, Color, FenError, GenRequest, Layout, Move,
    MoveEffects, Outcome, OutcomeContext, PieceType, Plugin, PluginManifest, Position, Role,
    Square, VariantBox, VariantFlags, VariantInfo, VariantRules, VariantSummary, API_VERSION,
};

const ID: &str = "{{id}}";
const KING: u8 = 0;

struct Rules {
    pieces: Vec<PieceType>,
}

impl Rules {
    fn new() -> Rules {
        let mut king = PieceType::new('K', "king", Role::KING, 0);
        king.royal = true;
        Rules { pieces: vec![king] }
    }

    fn king_moves(&self, pos: &Position, side: Color, out: &mut RVec<Move>) {
        for (sq, _) in pos.pieces_of(side) {
            for d in geometry::CLOCKWISE {
                geometry::leap(pos, sq, d, side, out);
            }
        }
    }
}

impl VariantRules for Rules {
    fn info(&self) -> VariantInfo {
        VariantInfo {
            id: ID.into(),
            name: "{{name}}".into(),
            description: "Kings race to the far rank on a 6x6 board.".into(),
            files: 6,
            ranks: 6,
            pieces: self.pieces.iter().cloned().collect(),
            layouts: vec![Layout {
                id: "classic".into(),
                name: "Classic".into(),
                fen: "5k/6/6/6/6/K5 w 0 1".into(),
            }]
            .into_iter()
            .collect(),
            n_move_rule: 50,
            n_move_automatic: 50,
            n_fold_rule: 3,
            n_fold_automatic: 3,
            flags: VariantFlags::STATIC_RESULTS,
            ..Default::default()
        }
    }

    fn parse_fen(&self, fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let board = fields.first().ok_or_else(|| FenError::new(0, 0, "empty FEN"))?;
        let mut pos = geometry::parse_fen_board(board, 0, 6, 6, &self.pieces)?;
        let column = board.len() as u32 + 1;
        pos.side_to_move = match fields.get(1) {
            Some(&"w") => Color::White,
            Some(&"b") => Color::Black,
            _ => return Err(FenError::new(1, column, "side to move must be `w` or `b`")),
        };
        // Clocks, as `write_fen` writes them (optional when reading).
        let mut column = column + 2;
        for (field, default) in [(2usize, 0u16), (3, 1)] {
            let value = match fields.get(field) {
                Some(text) => text.parse::<u16>().map_err(|_| {
                    FenError::new(field as u32, column, format!("`{text}` is not a number"))
                })?,
                None => default,
            };
            if field == 2 {
                pos.halfmove_clock = value;
            } else {
                pos.fullmove_number = value.max(1);
            }
            column += fields.get(field).map_or(0, |t| t.len() as u32 + 1);
        }
        Ok(pos)
    }

    fn write_fen(&self, pos: &Position) -> String {
        format!(
            "{} {} {} {}",
            geometry::write_fen_board(pos, &self.pieces, false),
            pos.side_to_move.fen_char(),
            pos.halfmove_clock,
            pos.fullmove_number
        )
    }

    fn generate(&self, pos: &Position, req: &GenRequest, out: &mut RVec<Move>) {
        let mut moves = RVec::new();
        self.king_moves(pos, req.side, &mut moves);
        for &m in moves.iter() {
            if req.skip.contains(m.from) {
                continue;
            }
            if req.legal {
                let mut child = pos.clone();
                self.apply(&mut child, m, &mut MoveEffects::new(req.side, false));
                if self.is_attacked(&child, m.to, req.side.opposite()) {
                    continue;
                }
            }
            out.push(m);
        }
    }

    fn apply(&self, pos: &mut Position, mv: Move, fx: &mut MoveEffects) {
        let victim = pos.get(mv.to);
        if victim.is_piece() {
            fx.capture(mv.to, victim);
            pos.halfmove_clock = 0;
        } else {
            pos.halfmove_clock += 1;
        }
        pos.move_piece(mv.from, mv.to);
        if pos.side_to_move == Color::Black {
            pos.fullmove_number += 1;
        }
        pos.side_to_move = pos.side_to_move.opposite();
    }

    fn is_attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        geometry::CLOCKWISE.iter().any(|d| {
            pos.offset(sq, d.0, d.1)
                .is_some_and(|s| pos.get(s).is_color(by))
        })
    }

    fn outcome(&self, pos: &Position, ctx: &OutcomeContext) -> Option<Outcome> {
        for (color, rank) in [(Color::White, 5), (Color::Black, 0)] {
            if pos.pieces_of(color).any(|(sq, k)| k == KING && sq.rank() == rank) {
                return Some(Outcome::win(color, "reached-far-rank"));
            }
        }
        if !ctx.has_legal_moves {
            return Some(if ctx.in_check {
                Outcome::win(pos.side_to_move.opposite(), "checkmate")
            } else {
                Outcome::draw("stalemate")
            });
        }
        None
    }
}

struct ThisPlugin;

impl Plugin for ThisPlugin {
    fn manifest() -> PluginManifest {
        PluginManifest {
            api_version: API_VERSION,
            id: ID.into(),
            version: env!("CARGO_PKG_VERSION").into(),
            description: "{{name}}".into(),
            variants: vec![VariantSummary {
                id: ID.into(),
                name: "{{name}}".into(),
            }]
            .into_iter()
            .collect(),
            presets: RVec::new(),
        }
    }

    fn new_variant(id: &str) -> Result<Option<VariantBox>, String> {
        Ok((id == ID).then(|| variant_object(Rules::new())))
    }
}

export_plugin!(ThisPlugin);

#[cfg(test)]
mod tests {
    use super::*;
    use houserules_host::conformance::{check_plugin, CheckOptions};
    use houserules_host::{perft, Pipeline, Registry};
    use houserules_plugin_api::root_module;

    /// This plugin, loaded in-process the way the host loads libraries.
    fn registry() -> Registry {
        let mut reg = Registry::default();
        reg.add_builtin(root_module::<ThisPlugin>())
            .expect("this plugin loads");
        reg
    }

    #[test]
    fn kings_step_and_race() {
        let p = Pipeline::build(&registry(), ID, None, &[]).unwrap();
        let start = p.start_position().unwrap();
        // White's king on a1 has a2, b1, b2; Black's on f6 then has e6, e5, f5.
        assert_eq!(perft(&p, &start, 1, 1, false).unwrap().nodes, 3);
        assert_eq!(perft(&p, &start, 2, 1, false).unwrap().nodes, 9);
        // A king on the far rank has won: no moves are left.
        let won = p.parse_fen("K4k/6/6/6/6/6 b 0 9").unwrap();
        assert_eq!(perft(&p, &won, 1, 1, false).unwrap().nodes, 0);
    }

    #[test]
    fn keeps_the_plugin_contract() {
        // The checks of `houserules check-plugin`: FEN round trip, legal moves against the
        // host's generic path, perft consistency, determinism, no panics.
        let report = check_plugin(&registry(), ID, &CheckOptions::default()).unwrap();
        assert!(report.passed(), "{}", report.text());
    }
}
