//! A compiled Fairy-Stockfish variant: piece table and rules, played by the shared
//! data-driven generator (`houserules-movegen`), and the [`VariantRules`] implementation the
//! host drives. This module maps Fairy-Stockfish's settings onto the generator's rules model;
//! FEN, SAN and results stay here.

use crate::ini::Loc;
use crate::spec::{self, Spec, Value, KING};
use houserules_movegen::{betza, rules_from_model, DropRules, Generator, Movement, Rules};
use houserules_plugin_api::abi_stable::std_types::{ROption, RVec};
use houserules_plugin_api::model::{check_rule, ep_capture, ep_policy};
use houserules_plugin_api::{
    geometry, Color, FenError, GenRequest, Layout, Move, MoveEffects, Outcome, OutcomeContext,
    PieceModel, PieceType, Position, PromotionModel, Role, RulesModel, Square, SquareSet, Topology,
    VariantFlags, VariantInfo, VariantRules,
};
use std::sync::Arc;

/// One piece kind (an index into the host's piece table).
#[derive(Debug, Clone)]
pub struct Kind {
    /// Fairy-Stockfish type on the board (a promoted kind has its promoted type's).
    pub ty: u16,
    /// Letter in FEN (upper case); a promoted kind writes its unpromoted letter after `+`.
    pub letter: char,
    /// Letter in SAN (the board type's letter).
    pub san_letter: char,
    /// Whether this is the promoted form of `demoted`.
    pub promoted: bool,
    /// The kind a capture puts in hand.
    pub demoted: u8,
    /// Shogi-style promotion target.
    pub promo: Option<u8>,
    /// Royal (the king).
    pub royal: bool,
    /// Fairy-Stockfish's pawn (double steps, en passant, letterless SAN).
    pub pawn: bool,
    /// Promotes like a pawn (`promotionPawnTypes`).
    pub pawn_type: bool,
    /// Chess-style promotion applies (pawn type, with promotion piece types).
    pub chess_promo: bool,
    /// Moves reset the n-move counter.
    pub n_move_reset: bool,
    /// Counts for connect-N.
    pub connect: bool,
    /// Its movement, as parsed.
    pub movement: Movement,
    /// The same in the houserules dialect.
    pub betza: String,
}

/// The movement of a piece type in the houserules dialect (what the rules model carries):
/// Fairy-Stockfish's own text, except for its pawn (see [`movement`]).
pub fn movement_text<'a>(ty: u16, betza_text: &'a str, spec: &Spec) -> &'a str {
    if ty == spec::PAWN {
        if spec.double_step {
            "fmWfceFifmnD"
        } else {
            "fmWfceF"
        }
    } else {
        betza_text
    }
}

/// A compiled variant.
#[derive(Debug, Clone)]
pub struct Fairy {
    /// Variant id.
    pub id: String,
    /// Files.
    pub files: u8,
    /// Ranks.
    pub ranks: u8,
    /// Kinds (base kinds first, then promoted forms).
    pub kinds: Vec<Kind>,
    n_base: usize,
    /// Host piece table.
    pub pieces: Vec<PieceType>,
    /// Start position.
    pub start_fen: String,
    /// Settings.
    pub spec: Spec,
    hand_order: Vec<u8>,
    /// Kinds that count for connect-N (bit mask).
    connect_kinds: u64,
    /// The rules model it plays (its own, or the one presets transformed).
    pub model: RulesModel,
    /// What the model does not carry: drops, immobility, captures to hand.
    extras: Extras,
    /// The generator that plays the variant.
    pub gen: Arc<Generator>,
}

/// The movement of a piece type as Fairy-Stockfish defines it. Fairy-Stockfish's pawn moves
/// as `fmWfcF`, double-steps (`ifmnD`) from the double-step region when double steps are on,
/// and takes en passant with its diagonal captures (`e`, houserules dialect).
pub fn movement(ty: u16, betza_text: &str, spec: &Spec) -> Result<Movement, String> {
    let text = movement_text(ty, betza_text, spec);
    if ty == spec::PAWN {
        return betza::parse(text, betza::Dialect::Houserules).map_err(|e| e.to_string());
    }
    let m = betza::parse(betza_text, betza::Dialect::Fsf).map_err(|e| e.to_string())?;
    if let Some((at, c)) = m.ignored.first() {
        return Err(format!(
            "Betza `{betza_text}`: `{c}` (column {}) is not part of Fairy-Stockfish's Betza, \
             which would skip it",
            at + 1
        ));
    }
    Ok(m)
}

fn err_at(loc: Option<&Loc>, key: &str, why: impl std::fmt::Display) -> String {
    match loc {
        Some(l) => format!("{l}: key `{key}`: {why}"),
        None => format!("key `{key}` (inherited default): {why}"),
    }
}

impl Fairy {
    /// Builds the variant from its settings; `header` locates the section for errors.
    pub fn compile(id: &str, spec: &Spec, header: &Loc) -> Result<Fairy, String> {
        let files = spec.max_file;
        let ranks = spec.max_rank;
        let loc = |k: &str| spec.locs.get(k);
        if spec.pieces.is_empty() {
            return Err(format!("{header}: section [{id}] defines no pieces"));
        }
        if spec.pieces.len() > 31 {
            return Err(format!(
                "{header}: section [{id}] defines more than 31 piece types"
            ));
        }
        let has = |t: u16| spec.pieces.contains_key(&t);
        if spec.castling && has(KING) && has(spec::ROOK) {
            return Err(err_at(
                loc("castling"),
                "castling",
                "castling is not supported by this plugin (set `castling = false`)",
            ));
        }
        let chess_promo_targets: Vec<u16> = spec
            .promotion_piece_types
            .iter()
            .copied()
            .filter(|t| has(*t))
            .collect();
        if spec.captures_to_hand && has(spec::PAWN) && !chess_promo_targets.is_empty() {
            return Err(err_at(
                loc("capturesToHand"),
                "capturesToHand",
                "captures to hand together with chess-style pawn promotion (promoted pieces \
                 demoting in hand) is not supported",
            ));
        }
        // Base kinds, in type order.
        let mut kinds: Vec<Kind> = Vec::new();
        let mut pieces: Vec<PieceType> = Vec::new();
        let mut kind_of_ty = std::collections::HashMap::new();
        for (&ty, p) in &spec.pieces {
            let mv = movement(ty, &p.betza, spec).map_err(|e| match &p.loc {
                Some(l) => format!("{l}: key `{}`: {e}", p.key),
                None => format!("{header}: piece `{}`: {e}", p.key),
            })?;
            let named = spec::named(ty);
            let idx = kinds.len() as u8;
            kind_of_ty.insert(ty, idx);
            let letter = p.letter.to_ascii_uppercase();
            let value = named.map(|n| n.value).unwrap_or_else(|| betza_value(&mv));
            kinds.push(Kind {
                ty,
                letter,
                san_letter: letter,
                promoted: false,
                demoted: idx,
                promo: None,
                royal: ty == KING,
                pawn: ty == spec::PAWN,
                pawn_type: spec.promotion_pawn_types.contains(&ty),
                chess_promo: spec.promotion_pawn_types.contains(&ty)
                    && !chess_promo_targets.is_empty(),
                n_move_reset: spec.n_move_rule_types.contains(&ty),
                connect: spec
                    .connect_piece_types
                    .as_ref()
                    .is_none_or(|v| v.contains(&ty)),
                movement: mv,
                betza: movement_text(ty, &p.betza, spec).to_string(),
            });
            let name = if (spec::CUSTOM..KING).contains(&ty) {
                format!("{} ({})", p.key, p.betza)
            } else {
                p.key.clone()
            };
            let mut pt = PieceType::new(
                letter,
                &name,
                named.map(|n| n.role).unwrap_or(Role::OTHER),
                value,
            );
            pt.royal = ty == KING;
            pieces.push(pt);
        }
        let n_base = kinds.len();
        // Promoted forms.
        for &(from, to) in &spec.promoted_piece_type {
            let (Some(&fk), Some(&tk)) = (kind_of_ty.get(&from), kind_of_ty.get(&to)) else {
                continue;
            };
            let idx = kinds.len() as u8;
            let target = kinds[tk as usize].clone();
            let base = kinds[fk as usize].clone();
            kinds[fk as usize].promo = Some(idx);
            kinds.push(Kind {
                ty: target.ty,
                letter: base.letter,
                san_letter: target.letter,
                promoted: true,
                demoted: fk,
                promo: None,
                royal: false,
                pawn: false,
                pawn_type: false,
                chess_promo: false,
                n_move_reset: target.n_move_reset,
                connect: target.connect,
                movement: target.movement.clone(),
                betza: target.betza.clone(),
            });
            let mut pt = PieceType::new(
                base.letter,
                &format!("promoted {}", spec.pieces[&from].key),
                pieces[tk as usize].role,
                pieces[tk as usize].value,
            );
            pt.promoted_prefix = true;
            pieces.push(pt);
        }
        let promo_targets: Vec<u8> = chess_promo_targets
            .iter()
            .filter_map(|t| kind_of_ty.get(t).copied())
            .collect();
        let mut hand_order: Vec<u8> = (0..n_base as u8).collect();
        hand_order.sort_by_key(|&k| std::cmp::Reverse(kinds[k as usize].ty));
        let model = public_model(spec, &kinds, &pieces, &promo_targets);
        let extras = extras(spec, &kinds, &kind_of_ty);
        let gen = extras
            .generator(&model)
            .map_err(|e| format!("{header}: [{id}]: {e}"))?;
        let connect_kinds = kinds
            .iter()
            .enumerate()
            .filter(|(_, k)| k.connect)
            .fold(0u64, |m, (i, _)| m | (1 << i));
        let mut v = Fairy {
            id: id.to_string(),
            files,
            ranks,
            kinds,
            n_base,
            pieces,
            start_fen: spec.start_fen.clone(),
            spec: spec.clone(),
            hand_order,
            connect_kinds,
            model,
            extras,
            gen: Arc::new(gen),
        };
        let start = v
            .parse(&spec.start_fen)
            .map_err(|e| err_at(loc("startFen"), "startFen", e))?;
        v.start_fen = v.fen(&start);
        Ok(v)
    }

    /// Whether a piece of `by` attacks `sq`.
    pub fn attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        self.gen.is_attacked(pos, sq, by)
    }

    /// Pseudo-legal moves of `side` (every rule but leaving the king attacked).
    pub fn pseudo(&self, pos: &Position, side: Color, skip: &SquareSet, out: &mut RVec<Move>) {
        self.gen.pseudo_moves(pos, side, skip, out);
    }

    /// Whether the side that just moved has connected N (the game is over).
    pub fn connected(&self, pos: &Position) -> bool {
        self.spec.connect_n > 0
            && self.gen.in_a_row(
                pos,
                pos.side_to_move.opposite(),
                self.connect_kinds,
                self.spec.connect_n,
            )
    }

    /// Fully legal moves of the side to move.
    pub fn legal(&self, pos: &Position, out: &mut RVec<Move>) {
        if self.connected(pos) {
            return;
        }
        self.gen.legal_moves(pos, out);
    }

    /// Parses a FEN in Fairy-Stockfish's form.
    pub fn parse(&self, fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::new(0, 0, "empty FEN"));
        }
        let mut pos =
            geometry::parse_fen_board(fields[0], 0, self.files, self.ranks, &self.pieces)?;
        let mut col = fields[0].len() + 1;
        for k in 0..32 {
            if k >= self.n_base && (pos.hands[0][k] > 0 || pos.hands[1][k] > 0) {
                return Err(FenError::new(0, 0, "a promoted piece cannot be in hand"));
            }
        }
        match fields.get(1).copied() {
            None | Some("w") => {}
            Some("b") => pos.side_to_move = Color::Black,
            Some(s) => return Err(FenError::new(1, col as u32, format!("`{s}` is not w or b"))),
        }
        col += fields.get(1).map_or(0, |s| s.len() + 1);
        // Castling is not supported: the field is read and ignored.
        col += fields.get(2).map_or(0, |s| s.len() + 1);
        if let Some(ep) = fields.get(3).copied() {
            if ep != "-" {
                let bad =
                    || FenError::new(3, col as u32, format!("`{ep}` is not an en passant square"));
                let split = ep[1..]
                    .find(|c: char| c.is_ascii_lowercase())
                    .map(|i| i + 1);
                let (a, b) = match split {
                    Some(i) => (&ep[..i], Some(&ep[i..])),
                    None => (ep, None),
                };
                let passed = Square::parse(a).ok_or_else(bad)?;
                let victim = match b {
                    Some(b) => Square::parse(b).ok_or_else(bad)?,
                    None => {
                        let back = pos.side_to_move.forward();
                        passed
                            .offset_within(0, -back, self.files, self.ranks)
                            .ok_or_else(bad)?
                    }
                };
                pos.ep_passed = passed;
                pos.ep_victim = victim;
            }
            col += ep.len() + 1;
        }
        if let Some(h) = fields.get(4) {
            pos.halfmove_clock = h.parse().map_err(|_| {
                FenError::new(4, col as u32, format!("`{h}` is not a halfmove clock"))
            })?;
            col += h.len() + 1;
        }
        if let Some(fm) = fields.get(5) {
            pos.fullmove_number = fm
                .parse::<u16>()
                .map_err(|_| FenError::new(5, col as u32, format!("`{fm}` is not a move number")))?
                .max(1);
        }
        if fields.len() > 6 {
            return Err(FenError::new(
                6,
                0,
                "unexpected fields after the move number",
            ));
        }
        Ok(pos)
    }

    /// Writes a FEN as Fairy-Stockfish does.
    pub fn fen(&self, pos: &Position) -> String {
        let mut s = geometry::write_fen_board(pos, &self.pieces, false);
        if self.spec.piece_drops {
            s.push('[');
            for color in [Color::White, Color::Black] {
                for &k in &self.hand_order {
                    let l = self.kinds[k as usize].letter;
                    let l = if color == Color::White {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    };
                    for _ in 0..pos.hands[color.index()][k as usize] {
                        s.push(l);
                    }
                }
            }
            s.push(']');
        }
        s.push(' ');
        s.push(pos.side_to_move.fen_char());
        s.push_str(" - ");
        if pos.ep_passed.is_none() {
            s.push('-');
        } else {
            s.push_str(&pos.ep_passed.name());
        }
        s.push_str(&format!(" {} {}", pos.halfmove_clock, pos.fullmove_number));
        s
    }

    /// SAN without check marks, as Fairy-Stockfish's `get_san` writes it.
    pub fn san(&self, pos: &Position, m: Move) -> String {
        if m.is_drop() {
            return format!("{}@{}", self.kinds[m.piece as usize].letter, m.to);
        }
        let cell = pos.get(m.from);
        let kind = cell.kind().unwrap_or(0);
        let k = &self.kinds[kind as usize];
        let mut s = String::new();
        if k.pawn {
            if m.is_capture() {
                s.push((b'a' + m.from.file()) as char);
            }
        } else {
            s.push(k.san_letter);
            let mut legal = RVec::new();
            self.legal(pos, &mut legal);
            let others: Vec<Square> = legal
                .iter()
                .filter(|o| {
                    !o.is_drop()
                        && o.from != m.from
                        && o.to == m.to
                        && pos
                            .get(o.from)
                            .kind()
                            .is_some_and(|ok| self.kinds[ok as usize].ty == k.ty)
                })
                .map(|o| o.from)
                .collect();
            if !others.is_empty() {
                if others.iter().all(|o| o.file() != m.from.file()) {
                    s.push((b'a' + m.from.file()) as char);
                } else if others.iter().all(|o| o.rank() != m.from.rank()) {
                    s.push_str(&(m.from.rank() as u32 + 1).to_string());
                } else {
                    s.push_str(&m.from.name());
                }
            }
        }
        if m.is_capture() {
            s.push('x');
        }
        s.push_str(&m.to.name());
        if m.is_promotion() {
            s.push('=');
            s.push(self.kinds[m.piece as usize].san_letter);
        }
        s
    }

    fn value_outcome(&self, v: Value, side: Color, reason: &str) -> Outcome {
        match v {
            Value::Win => Outcome::win(side, reason),
            Value::Loss => Outcome::win(side.opposite(), reason),
            Value::Draw => Outcome::draw(reason),
        }
    }
}

/// A rough material value from the movement: 60 per ridden direction, 35 per leap.
fn betza_value(m: &Movement) -> i32 {
    let mut seen: Vec<((i8, i8), bool)> = Vec::new();
    for md in 0..2 {
        for (v, _) in &m.slider[0][md].entries {
            if let Some(e) = seen.iter_mut().find(|e| e.0 == *v) {
                e.1 = true;
            } else {
                seen.push((*v, true));
            }
        }
        for (v, _) in &m.steps[0][md].entries {
            if !seen.iter().any(|e| e.0 == *v) {
                seen.push((*v, false));
            }
        }
    }
    seen.iter()
        .map(|e| if e.1 { 60 } else { 35 })
        .sum::<i32>()
        .max(50)
}

/// The variant's rules model: its pieces' movement (houserules Betza), royalty, Fairy-Stockfish's
/// promotion and pawn rules. En passant rights are kept when an enemy pawn could take
/// (Fairy-Stockfish).
fn public_model(
    spec: &Spec,
    kinds: &[Kind],
    table: &[PieceType],
    promo_targets: &[u8],
) -> RulesModel {
    let mut pieces = Vec::new();
    for (i, k) in kinds.iter().enumerate() {
        let mut p = PieceModel::new(k.letter, table[i].role, &k.betza);
        p.royal = k.royal;
        p.resets_clock = k.n_move_reset;
        p.hand_kind = k.demoted;
        // Fairy-Stockfish empties the double-step region when double steps are off.
        if spec.double_step {
            p.initial_region = spec.double_step_region;
        }
        if k.pawn {
            p.ep_victim = true;
            p.ep_capture = ep_capture::MARKED;
        }
        p.promotion = if k.chess_promo {
            PromotionModel::choice(
                spec.promotion_region,
                promo_targets,
                spec.mandatory_pawn_promotion,
            )
        } else if let Some(promoted) = k.promo {
            PromotionModel {
                style: PromotionModel::SHOGI,
                zone: spec.promotion_region,
                choices: [promoted].into_iter().collect(),
                mandatory: if k.pawn_type {
                    spec.mandatory_pawn_promotion
                } else {
                    spec.mandatory_piece_promotion
                },
            }
        } else {
            PromotionModel::default()
        };
        pieces.push(p);
    }
    RulesModel {
        files: spec.max_file,
        ranks: spec.max_rank,
        holes: SquareSet::EMPTY,
        topology: Topology::default(),
        pieces: pieces.into_iter().collect(),
        castling: ROption::RNone,
        check: check_rule::ANY,
        en_passant: ep_policy::PSEUDO,
        initial_needs_unmoved: false,
        slide_limit: 0,
        extra: RVec::new(),
    }
}

/// Rules of a variant that the model does not carry.
#[derive(Debug, Clone)]
struct Extras {
    drops: Option<DropRules>,
    immobility_illegal: bool,
    captures_to_hand: bool,
}

impl Extras {
    /// The generator for `model` with these rules added.
    fn generator(&self, model: &RulesModel) -> Result<Generator, String> {
        let mut r: Rules = rules_from_model(model).map_err(|e| e.to_string())?;
        r.drops = self.drops.clone();
        r.immobility_illegal = self.immobility_illegal;
        r.captures_to_hand = self.captures_to_hand;
        Generator::new(&r).map_err(|e| e.to_string())
    }
}

/// Drops with Fairy-Stockfish's restrictions, the immobility rule, captures to hand.
fn extras(spec: &Spec, kinds: &[Kind], kind_of_ty: &std::collections::HashMap<u16, u8>) -> Extras {
    let drops = spec.piece_drops.then(|| {
        let mut region = Vec::new();
        for k in kinds {
            if k.pawn {
                let mut reg = [SquareSet::EMPTY; 2];
                for (c, set) in reg.iter_mut().enumerate() {
                    let first = if c == 0 { 0 } else { spec.max_rank - 1 };
                    for rank in 0..spec.max_rank {
                        for file in 0..spec.max_file {
                            let sq = Square::new(file, rank);
                            if rank == first && !spec.first_rank_pawn_drops {
                                continue;
                            }
                            if !spec.promotion_zone_pawn_drops
                                && spec.promotion_region[c].contains(sq)
                            {
                                continue;
                            }
                            set.insert(sq);
                        }
                    }
                }
                region.push(Some(reg));
            } else {
                region.push(None);
            }
        }
        DropRules {
            region,
            no_doubled: spec
                .drop_no_doubled
                .and_then(|t| kind_of_ty.get(&t).copied())
                .map(|k| (k, spec.drop_no_doubled_count)),
            mate_illegal: if spec.shogi_pawn_drop_mate_illegal {
                kinds
                    .iter()
                    .enumerate()
                    .filter(|(_, k)| k.ty == spec::SHOGI_PAWN && !k.promoted)
                    .map(|(i, _)| i as u8)
                    .collect()
            } else {
                Vec::new()
            },
        }
    });
    Extras {
        drops,
        immobility_illegal: spec.immobility_illegal,
        captures_to_hand: spec.captures_to_hand,
    }
}

impl VariantRules for Fairy {
    fn info(&self) -> VariantInfo {
        let mut flags = VariantFlags::CUSTOM_SAN.0 | VariantFlags::OWN_REPETITION.0;
        if self.spec.piece_drops {
            flags |= VariantFlags::DROPS.0;
        }
        if self.spec.connect_n > 0 {
            flags |= VariantFlags::STATIC_RESULTS.0 | VariantFlags::EVALUATES.0;
        }
        VariantInfo {
            id: self.id.as_str().into(),
            name: self.id.as_str().into(),
            description: format!("Fairy-Stockfish variant `{}` from variants.ini", self.id).into(),
            files: self.files,
            ranks: self.ranks,
            pieces: self.pieces.iter().cloned().collect(),
            layouts: vec![Layout {
                id: "start".into(),
                name: "start position".into(),
                fen: self.start_fen.as_str().into(),
            }]
            .into_iter()
            .collect(),
            n_move_rule: self.spec.n_move_rule,
            n_move_automatic: self.spec.n_move_rule,
            n_fold_rule: self.spec.n_fold_rule,
            n_fold_automatic: self.spec.n_fold_rule,
            flags: VariantFlags(flags),
            extra: RVec::new(),
        }
    }

    fn parse_fen(&self, fen: &str) -> Result<Position, FenError> {
        self.parse(fen)
    }

    /// Connect-N variants: open lines (see [`crate::eval`]).
    fn evaluate(&self, pos: &Position) -> i32 {
        crate::eval::connect_threats(pos, self.connect_kinds, self.spec.connect_n)
    }

    fn write_fen(&self, pos: &Position) -> String {
        self.fen(pos)
    }

    fn generate(&self, pos: &Position, req: &GenRequest, out: &mut RVec<Move>) {
        if req.legal && req.side == pos.side_to_move {
            self.legal(pos, out);
        } else {
            self.pseudo(pos, req.side, &req.skip, out);
        }
    }

    fn legal_move_count(&self, pos: &Position) -> u64 {
        if self.connected(pos) {
            return 0;
        }
        self.gen.count_legal(pos)
    }

    fn apply(&self, pos: &mut Position, mv: Move, fx: &mut MoveEffects) {
        self.gen.apply(pos, mv, fx);
    }

    fn is_attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        !sq.is_none() && self.gen.is_attacked(pos, sq, by)
    }

    fn outcome(&self, pos: &Position, ctx: &OutcomeContext) -> Option<Outcome> {
        let stm = pos.side_to_move;
        if self.connected(pos) {
            return Some(Outcome::win(
                stm.opposite(),
                &format!("connect-{}", self.spec.connect_n),
            ));
        }
        if !ctx.has_legal_moves {
            return Some(if ctx.in_check {
                self.value_outcome(self.spec.checkmate_value, stm, "checkmate")
            } else {
                self.value_outcome(self.spec.stalemate_value, stm, "stalemate")
            });
        }
        let n = self.spec.n_fold_rule;
        if !ctx.counting && n > 0 && ctx.repetitions >= n {
            let us = ctx.checks_in_cycle[stm.index()];
            let them = ctx.checks_in_cycle[stm.opposite().index()];
            if self.spec.perpetual_check_illegal && (us || them) {
                return Some(match (us, them) {
                    (false, true) => Outcome::win(stm, "perpetual-check"),
                    (true, false) => Outcome::win(stm.opposite(), "perpetual-check"),
                    _ => Outcome::draw("perpetual-check"),
                });
            }
            let mut v = self.spec.n_fold_value;
            if self.spec.n_fold_value_absolute && stm == Color::Black {
                v = v.negate();
            }
            return Some(self.value_outcome(v, stm, "n-fold-repetition"));
        }
        None
    }

    fn special_san(&self, pos: &Position, mv: Move) -> Option<String> {
        Some(self.san(pos, mv))
    }

    fn rules_model(&self) -> Option<RulesModel> {
        Some(self.model.clone())
    }

    fn set_model(&mut self, model: &RulesModel) -> Result<(), String> {
        if model.pieces.len() != self.kinds.len() {
            return Err("a transformed model must keep the piece table".into());
        }
        self.gen = Arc::new(self.extras.generator(model)?);
        self.model = model.clone();
        Ok(())
    }

    fn special_coordinate(&self, _pos: &Position, mv: Move) -> Option<String> {
        // Shogi-style promotions: origin, destination and the promoted type's letter
        // (`e5e6c`). Fairy-Stockfish's UCI writes `e5e6+`, which the host would read as a
        // check mark.
        (mv.is_promotion() && mv.is_special()).then(|| {
            let l = self.kinds[mv.piece as usize]
                .san_letter
                .to_ascii_lowercase();
            format!("{}{}{l}", mv.from, mv.to)
        })
    }
}
