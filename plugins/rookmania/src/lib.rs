//! Rook Mania (Jared B. McComb) as a houserules variant plugin.
//!
//! A 43-square hourglass board (files a-g, ranks 1-9, holes as [`Cell::HOLE`]), eight
//! orthogonal pieces — King (with a two-shot pistol), Rook, Pao, Slip Rook, Basilisk
//! (immobilizer), Twostep, Threestep and pincer Pawns (coordinator when alone) — and FIDE
//! check, checkmate and stalemate. The rules live in [`engine`]; this file adapts them to the
//! plugin API: piece table, layout, FEN ([`fen`]), notation of pistol shots and pawn moves,
//! move application with events. See `docs/rookmania.md` for the rules as implemented.

pub mod engine;
mod eval;
pub mod fen;
mod words;

#[cfg(test)]
mod tests;

use engine::{ci, index_of, kind, square_of, Board, NONE, SHOT};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    export_plugin, variant_object, Cell, Color, Event, EventKind, FenError, GenRequest, Layout,
    Move, MoveEffects, Outcome, OutcomeContext, PieceType, Plugin, PluginManifest, Position, Role,
    Square, VariantBox, VariantFlags, VariantInfo, VariantRules, VariantSummary, API_VERSION,
};

/// The start position (RULINGS.md).
pub const START_FEN: &str =
    "**bkh**/*ctrst*/ppppppp/*5*/**3**/*5*/PPPPPPP/*CTRST*/**BKH** w 22 0 1";

/// The Rook Mania piece table: K R C S B T H P (index = [`engine::kind`]).
pub fn piece_table() -> Vec<PieceType> {
    let mut king = PieceType::new('K', "king", Role::KING, 0);
    king.royal = true;
    vec![
        king,
        PieceType::new('R', "rook", Role::ROOK, 500),
        PieceType::new('C', "pao", Role::OTHER, 400),
        PieceType::new('S', "slip rook", Role::OTHER, 450),
        PieceType::new('B', "basilisk", Role::OTHER, 350),
        PieceType::new('T', "twostep", Role::OTHER, 250),
        PieceType::new('H', "threestep", Role::OTHER, 600),
        PieceType::new('P', "pawn", Role::PAWN, 100),
    ]
}

/// The Rook Mania variant.
pub struct RookMania {
    pieces: Vec<PieceType>,
    /// The pieces' values per kind, for the evaluation terms.
    values: [i32; 8],
}

impl Default for RookMania {
    fn default() -> Self {
        let pieces = piece_table();
        let mut values = [0; 8];
        for (v, p) in values.iter_mut().zip(&pieces) {
            *v = p.value;
        }
        RookMania { pieces, values }
    }
}

fn is_shot(m: &Move) -> bool {
    m.is_special() && m.special == SHOT
}

fn skip_mask(req: &GenRequest) -> u64 {
    let mut m = 0u64;
    for sq in req.skip.iter() {
        let i = index_of(sq);
        if i != NONE {
            m |= 1u64 << i;
        }
    }
    m
}

impl RookMania {
    /// Legal moves of the side to move.
    pub fn legal_moves(&self, pos: &Position) -> Vec<Move> {
        let mut v = RVec::new();
        Board::from_position(pos).legal_moves(ci(pos.side_to_move), &mut v);
        v.into_vec()
    }

    /// SAN of a pawn move: destination, `x` when it captures, and — as pawns move like rooks,
    /// so several may reach one square — the origin's file, rank or square when another pawn
    /// could go there too (captures always name the origin file, as in chess).
    fn pawn_san(&self, pos: &Position, m: Move) -> String {
        let legal = self.legal_moves(pos);
        let cell = pos.get(m.from);
        let rivals: Vec<Square> = legal
            .iter()
            .filter(|o| !is_shot(o) && o.to == m.to && o.from != m.from && pos.get(o.from) == cell)
            .map(|o| o.from)
            .collect();
        let file = ((b'a' + m.from.file()) as char).to_string();
        let mut s = if rivals.is_empty() {
            if m.is_capture() {
                file
            } else {
                String::new()
            }
        } else if rivals.iter().all(|r| r.file() != m.from.file()) {
            file
        } else if rivals.iter().all(|r| r.rank() != m.from.rank()) {
            (m.from.rank() as u32 + 1).to_string()
        } else {
            m.from.name()
        };
        if m.is_capture() {
            s.push('x');
        }
        s.push_str(&m.to.name());
        s
    }
}

impl VariantRules for RookMania {
    fn info(&self) -> VariantInfo {
        VariantInfo {
            id: "rookmania".into(),
            name: "Rook Mania".into(),
            description: "Jared B. McComb's all-orthogonal game on a 43-square hourglass: \
                          pincer pawns (coordinator when alone), Rook, Pao, Slip Rook, \
                          Basilisk (immobilizer), Twostep, Threestep, and a King with two \
                          pistol shots. Checkmate wins, stalemate draws; 50/75-move and \
                          3/5-fold rules."
                .into(),
            files: engine::FILES,
            ranks: engine::RANKS,
            pieces: self.pieces.iter().cloned().collect(),
            layouts: vec![Layout {
                id: "classic".into(),
                name: "Classic".into(),
                fen: START_FEN.into(),
            }]
            .into_iter()
            .collect(),
            n_move_rule: 50,
            n_move_automatic: 75,
            n_fold_rule: 3,
            n_fold_automatic: 5,
            flags: VariantFlags(VariantFlags::CUSTOM_SAN.0 | VariantFlags::EVALUATES.0),
            extra: words::extra(),
        }
    }

    /// King safety, attackers near the enemy King, pistol shots, trading down when ahead
    /// (the `eval` module).
    fn evaluate(&self, pos: &Position) -> i32 {
        eval::evaluate(pos, &self.values)
    }

    fn parse_fen(&self, text: &str) -> Result<Position, FenError> {
        fen::parse(text, &self.pieces)
    }

    fn write_fen(&self, pos: &Position) -> String {
        fen::write(pos, &self.pieces)
    }

    fn generate(&self, pos: &Position, req: &GenRequest, out: &mut RVec<Move>) {
        let b = Board::from_position(pos);
        if req.legal {
            b.legal_moves(ci(req.side), out);
        } else {
            b.pseudo_moves(ci(req.side), skip_mask(req), out);
        }
    }

    fn legal_move_count(&self, pos: &Position) -> u64 {
        let mut v = RVec::with_capacity(128);
        Board::from_position(pos).legal_moves(ci(pos.side_to_move), &mut v);
        v.len() as u64
    }

    fn apply(&self, pos: &mut Position, mv: Move, fx: &mut MoveEffects) {
        let before = Board::from_position(pos);
        let mover = pos.side_to_move;
        let mut after = before;
        let caps = after.make(mv);
        let pawn_move = !is_shot(&mv)
            && index_of(mv.from) != NONE
            && before.is_pawn(index_of(mv.from) as usize);
        if is_shot(&mv) {
            for (s, cell) in caps.iter() {
                let sq = square_of(s);
                pos.clear(sq);
                fx.capture(sq, Cell(cell));
                if fx.record_events {
                    let mut e = Event::new(EventKind::SHOT, mv.from, Cell(cell));
                    e.to = sq;
                    fx.event(e);
                }
            }
        } else if pos.get(mv.from).is_piece() {
            for (s, cell) in caps.iter() {
                let sq = square_of(s);
                fx.capture(sq, Cell(cell));
                if sq != mv.to {
                    pos.clear(sq);
                }
            }
            pos.move_piece(mv.from, mv.to);
        }
        pos.variant_state[0] = after.shots[0] as u32;
        pos.variant_state[1] = after.shots[1] as u32;
        if pawn_move || caps.n > 0 {
            pos.halfmove_clock = 0;
        } else {
            pos.halfmove_clock = pos.halfmove_clock.saturating_add(1);
        }
        if mover == Color::Black {
            pos.fullmove_number = pos.fullmove_number.saturating_add(1);
        }
        pos.side_to_move = mover.opposite();
        pos.ep_passed = Square::NONE;
        pos.ep_victim = Square::NONE;
        if fx.record_events {
            let was = before.frozen(0) | before.frozen(1);
            let mut now = after.frozen(0) | after.frozen(1);
            while now != 0 {
                let s = now.trailing_zeros() as usize;
                now &= now - 1;
                if was >> s & 1 == 0 || before.cells[s] != after.cells[s] {
                    fx.event(Event::new(
                        EventKind::IMMOBILIZE,
                        square_of(s as u8),
                        Cell(after.cells[s]),
                    ));
                }
            }
        }
    }

    fn is_attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        let i = index_of(sq);
        if i == NONE {
            return false;
        }
        let mut b = Board::from_position(pos);
        let cell = pos.get(sq);
        if cell.is_color(by) {
            return false;
        }
        if cell.is_empty() {
            // "Could capture a piece standing there": stand one (a Rook) there.
            b.cells[i as usize] = engine::code(kind::ROOK, ci(by.opposite()));
            b.occ[ci(by.opposite())] |= 1u64 << i;
        }
        b.attacked(i as usize, ci(by))
    }

    fn outcome(&self, pos: &Position, ctx: &OutcomeContext) -> Option<Outcome> {
        if ctx.has_legal_moves {
            return None;
        }
        Some(if ctx.in_check {
            Outcome::win(pos.side_to_move.opposite(), "checkmate")
        } else {
            Outcome::draw("stalemate")
        })
    }

    fn special_san(&self, pos: &Position, mv: Move) -> Option<String> {
        if is_shot(&mv) {
            return Some(format!("K*{}", mv.to));
        }
        let i = index_of(mv.from);
        if i != NONE && Board::from_position(pos).is_pawn(i as usize) {
            return Some(self.pawn_san(pos, mv));
        }
        None
    }

    fn special_coordinate(&self, _pos: &Position, mv: Move) -> Option<String> {
        is_shot(&mv).then(|| format!("{}*{}", mv.from, mv.to))
    }
}

/// The Rook Mania plugin: provides the `rookmania` variant.
pub struct RookManiaPlugin;

impl Plugin for RookManiaPlugin {
    fn manifest() -> PluginManifest {
        PluginManifest {
            api_version: API_VERSION,
            id: "rookmania".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            description: "Rook Mania: an all-orthogonal variant on a 43-square hourglass".into(),
            variants: vec![VariantSummary {
                id: "rookmania".into(),
                name: "Rook Mania".into(),
            }]
            .into_iter()
            .collect(),
            presets: RVec::new(),
        }
    }

    fn new_variant(id: &str) -> Result<Option<VariantBox>, String> {
        Ok((id == "rookmania").then(|| variant_object(RookMania::default())))
    }
}

export_plugin!(RookManiaPlugin);
