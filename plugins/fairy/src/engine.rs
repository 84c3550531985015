//! A compiled Fairy-Stockfish variant: piece table, move tables and rules, and the
//! [`VariantRules`] implementation the host drives.

use crate::betza::{self, Dir};
use crate::ini::Loc;
use crate::spec::{self, Spec, Value, KING};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    geometry, Cell, Color, Event, EventKind, FenError, GenRequest, Layout, Move, MoveEffects,
    MoveFlags, Outcome, OutcomeContext, PieceType, Position, Role, Square, SquareSet, VariantFlags,
    VariantInfo, VariantRules,
};

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
    /// Move vectors, per colour.
    pub dirs: [Vec<Dir>; 2],
    /// Two vectors may reach the same square: deduplicate targets.
    pub dedupe: bool,
    /// Squares from which the piece has a move on an empty board, per colour.
    pub mobile: [SquareSet; 2],
}

/// Reverse attack vector: a piece of kind `k` standing `step * n` before a square attacks it
/// if `range[k] >= n` and the squares between are empty.
#[derive(Debug, Clone)]
struct AttackDir {
    df: i8,
    dr: i8,
    max: u8,
    range: Vec<u8>,
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
    promo_targets: Vec<u8>,
    hand_order: Vec<u8>,
    attack: [Vec<AttackDir>; 2],
    /// Offsets (from king) along which a rider of colour c could pin: [c][(dr+15)*31+df+15].
    rider_line: [Vec<bool>; 2],
    drop_no_doubled: Option<u8>,
    has_royal: bool,
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
            let dirs = betza::parse(&p.betza).unwrap_or_default();
            let named = spec::named(ty);
            let idx = kinds.len() as u8;
            kind_of_ty.insert(ty, idx);
            let letter = p.letter.to_ascii_uppercase();
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
                dirs: [
                    dirs.clone(),
                    dirs.iter()
                        .map(|d| Dir {
                            df: -d.df,
                            dr: -d.dr,
                            ..*d
                        })
                        .collect(),
                ],
                dedupe: false,
                mobile: [SquareSet::EMPTY; 2],
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
                named.map(|n| n.value).unwrap_or_else(|| betza_value(&dirs)),
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
                dirs: target.dirs.clone(),
                dedupe: false,
                mobile: [SquareSet::EMPTY; 2],
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
        for k in kinds.iter_mut() {
            k.dedupe = overlapping(&k.dirs[0]);
            for c in 0..2 {
                let mut m = SquareSet::EMPTY;
                for r in 0..ranks {
                    for f in 0..files {
                        let ok = k.dirs[c].iter().any(|d| {
                            let (nf, nr) = (f as i16 + d.df as i16, r as i16 + d.dr as i16);
                            (d.quiet > 0 || d.capture > 0)
                                && (0..files as i16).contains(&nf)
                                && (0..ranks as i16).contains(&nr)
                        });
                        if ok {
                            m.insert(Square::new(f, r));
                        }
                    }
                }
                k.mobile[c] = m;
            }
        }
        // Reverse attack tables.
        let mut attack: [Vec<AttackDir>; 2] = [Vec::new(), Vec::new()];
        let mut rider_line = [vec![false; 31 * 31], vec![false; 31 * 31]];
        for c in 0..2 {
            for (ki, k) in kinds.iter().enumerate() {
                for d in &k.dirs[c] {
                    if d.capture == 0 {
                        continue;
                    }
                    let e = match attack[c].iter_mut().find(|a| a.df == d.df && a.dr == d.dr) {
                        Some(e) => e,
                        None => {
                            attack[c].push(AttackDir {
                                df: d.df,
                                dr: d.dr,
                                max: 0,
                                range: vec![0; kinds.len()],
                            });
                            attack[c].last_mut().expect("pushed")
                        }
                    };
                    e.range[ki] = e.range[ki].max(d.capture);
                    e.max = e.max.max(d.capture);
                    if d.capture > 1 {
                        for n in 1..16i16 {
                            let (x, y) = (d.df as i16 * n, d.dr as i16 * n);
                            if x.abs() > 15 || y.abs() > 15 || n > d.capture as i16 {
                                break;
                            }
                            // Offset from the king to the pinned piece: opposite of the attack.
                            rider_line[c][((-y + 15) * 31 + (-x + 15)) as usize] = true;
                        }
                    }
                }
            }
        }
        let promo_targets: Vec<u8> = chess_promo_targets
            .iter()
            .filter_map(|t| kind_of_ty.get(t).copied())
            .collect();
        let mut hand_order: Vec<u8> = (0..n_base as u8).collect();
        hand_order.sort_by_key(|&k| std::cmp::Reverse(kinds[k as usize].ty));
        let has_royal = kinds.iter().any(|k| k.royal);
        let mut v = Fairy {
            id: id.to_string(),
            files,
            ranks,
            drop_no_doubled: spec
                .drop_no_doubled
                .and_then(|t| kind_of_ty.get(&t).copied()),
            kinds,
            n_base,
            pieces,
            start_fen: spec.start_fen.clone(),
            spec: spec.clone(),
            promo_targets,
            hand_order,
            attack,
            rider_line,
            has_royal,
        };
        let start = v
            .parse(&spec.start_fen)
            .map_err(|e| err_at(loc("startFen"), "startFen", e))?;
        v.start_fen = v.fen(&start);
        Ok(v)
    }

    #[inline]
    fn step(&self, sq: u8, df: i8, dr: i8) -> Option<u8> {
        let f = (sq & 15) as i16 + df as i16;
        let r = (sq >> 4) as i16 + dr as i16;
        if f < 0 || r < 0 || f >= self.files as i16 || r >= self.ranks as i16 {
            None
        } else {
            Some((r * 16 + f) as u8)
        }
    }

    /// Whether a piece of `by` attacks `sq` on this board.
    pub fn attacked(&self, cells: &[Cell; 256], sq: u8, by: Color) -> bool {
        for a in &self.attack[by.index()] {
            let mut s = sq;
            for n in 1..=a.max {
                let Some(t) = self.step(s, -a.df, -a.dr) else {
                    break;
                };
                let c = cells[t as usize];
                if c.is_empty() {
                    s = t;
                    continue;
                }
                if c.is_color(by) {
                    if let Some(k) = c.kind() {
                        if a.range[k as usize] >= n {
                            return true;
                        }
                    }
                }
                break;
            }
        }
        false
    }

    fn royals(&self, cells: &[Cell; 256], color: Color, out: &mut [u8; 8]) -> usize {
        let mut n = 0;
        if !self.has_royal {
            return 0;
        }
        for r in 0..self.ranks {
            for f in 0..self.files {
                let s = r * 16 + f;
                let c = cells[s as usize];
                if c.is_color(color)
                    && c.kind().is_some_and(|k| self.kinds[k as usize].royal)
                    && n < 8
                {
                    out[n] = s;
                    n += 1;
                }
            }
        }
        n
    }

    #[inline]
    fn immobile_ok(&self, kind: u8, color: Color, to: Square) -> bool {
        !self.spec.immobility_illegal
            || self.kinds[kind as usize].mobile[color.index()].contains(to)
    }

    fn emit(
        &self,
        from: Square,
        to: Square,
        capture: bool,
        kind: u8,
        color: Color,
        out: &mut RVec<Move>,
    ) {
        let k = &self.kinds[kind as usize];
        let zone = &self.spec.promotion_region[color.index()];
        let flags = if capture {
            MoveFlags::CAPTURE
        } else {
            MoveFlags::NONE
        };
        if k.chess_promo && zone.contains(to) {
            for &p in &self.promo_targets {
                if self.immobile_ok(p, color, to) {
                    out.push(Move::promotion(from, to, p, capture));
                }
            }
            if !self.spec.mandatory_pawn_promotion && self.immobile_ok(kind, color, to) {
                out.push(Move::new(from, to, flags));
            }
            return;
        }
        if let Some(p) = k.promo {
            if zone.contains(to) || zone.contains(from) {
                if self.immobile_ok(p, color, to) {
                    let mut m = Move::promotion(from, to, p, capture);
                    m.flags = m.flags | MoveFlags::SPECIAL;
                    out.push(m);
                }
                let mandatory = if k.pawn_type {
                    self.spec.mandatory_pawn_promotion
                } else {
                    self.spec.mandatory_piece_promotion
                };
                if !mandatory && self.immobile_ok(kind, color, to) {
                    out.push(Move::new(from, to, flags));
                }
                return;
            }
        }
        if self.immobile_ok(kind, color, to) {
            out.push(Move::new(from, to, flags));
        }
    }

    /// Pseudo-legal moves of `side` (every rule but leaving the king attacked).
    pub fn pseudo(&self, pos: &Position, side: Color, skip: &SquareSet, out: &mut RVec<Move>) {
        let cells = pos.cells();
        let them = side.opposite();
        let mut file_count = [0u8; 16];
        for r in 0..self.ranks {
            for f in 0..self.files {
                let s = r * 16 + f;
                let c = cells[s as usize];
                if !c.is_color(side) {
                    continue;
                }
                let kind = c.kind().unwrap_or(0);
                if Some(kind) == self.drop_no_doubled {
                    file_count[f as usize] += 1;
                }
                let from = Square(s);
                if skip.contains(from) {
                    continue;
                }
                let k = &self.kinds[kind as usize];
                let mut seen = SquareSet::EMPTY;
                for d in &k.dirs[side.index()] {
                    let max = d.quiet.max(d.capture);
                    let mut t = s;
                    for n in 1..=max {
                        let Some(nt) = self.step(t, d.df, d.dr) else {
                            break;
                        };
                        t = nt;
                        let tc = cells[t as usize];
                        let target = if tc.is_empty() {
                            (n <= d.quiet).then_some(false)
                        } else {
                            (tc.is_color(them) && n <= d.capture).then_some(true)
                        };
                        if let Some(cap) = target {
                            let to = Square(t);
                            if !k.dedupe || !seen.contains(to) {
                                if k.dedupe {
                                    seen.insert(to);
                                }
                                self.emit(from, to, cap, kind, side, out);
                            }
                        }
                        if !tc.is_empty() {
                            break;
                        }
                    }
                }
                if k.pawn {
                    self.pawn_extras(pos, from, kind, side, out);
                }
            }
        }
        if self.spec.piece_drops {
            self.drops(pos, side, &file_count, out);
        }
    }

    fn pawn_extras(
        &self,
        pos: &Position,
        from: Square,
        kind: u8,
        side: Color,
        out: &mut RVec<Move>,
    ) {
        let cells = pos.cells();
        let fwd = side.forward();
        if self.spec.double_step && self.spec.double_step_region[side.index()].contains(from) {
            if let Some(one) = self.step(from.0, 0, fwd) {
                if let Some(two) = self.step(one, 0, fwd) {
                    if cells[one as usize].is_empty()
                        && cells[two as usize].is_empty()
                        && self.immobile_ok(kind, side, Square(two))
                    {
                        out.push(Move::new(from, Square(two), MoveFlags::DOUBLE_STEP));
                    }
                }
            }
        }
        let ep = pos.ep_passed;
        if !ep.is_none() && pos.side_to_move == side {
            for df in [-1i8, 1] {
                if self.step(from.0, df, fwd) == Some(ep.0) {
                    let victim = pos.ep_victim;
                    if pos.get(victim).is_color(side.opposite()) && cells[ep.index()].is_empty() {
                        out.push(Move::new(
                            from,
                            ep,
                            MoveFlags::CAPTURE | MoveFlags::EN_PASSANT,
                        ));
                    }
                }
            }
        }
    }

    fn drops(&self, pos: &Position, side: Color, file_count: &[u8; 16], out: &mut RVec<Move>) {
        let cells = pos.cells();
        let first_rank = if side == Color::White {
            0
        } else {
            self.ranks - 1
        };
        for kind in 0..self.n_base.min(32) as u8 {
            if pos.hands[side.index()][kind as usize] == 0 {
                continue;
            }
            let k = &self.kinds[kind as usize];
            let no_doubled = Some(kind) == self.drop_no_doubled;
            for r in 0..self.ranks {
                if k.pawn && !self.spec.first_rank_pawn_drops && r == first_rank {
                    continue;
                }
                for f in 0..self.files {
                    let to = Square::new(f, r);
                    if !cells[to.index()].is_empty() {
                        continue;
                    }
                    if k.pawn
                        && !self.spec.promotion_zone_pawn_drops
                        && self.spec.promotion_region[side.index()].contains(to)
                    {
                        continue;
                    }
                    if no_doubled
                        && file_count[f as usize] as u32 >= self.spec.drop_no_doubled_count
                    {
                        continue;
                    }
                    if !self.immobile_ok(kind, side, to) {
                        continue;
                    }
                    out.push(Move::drop(kind, to));
                }
            }
        }
    }

    /// Whether the side that just moved has connected N (the game is over).
    pub fn connected(&self, pos: &Position) -> bool {
        let n = self.spec.connect_n as i32;
        if n == 0 {
            return false;
        }
        let mover = pos.side_to_move.opposite();
        let cells = pos.cells();
        let is = |s: Option<u8>| {
            s.is_some_and(|s| {
                let c = cells[s as usize];
                c.is_color(mover) && c.kind().is_some_and(|k| self.kinds[k as usize].connect)
            })
        };
        for r in 0..self.ranks {
            for f in 0..self.files {
                let s = r * 16 + f;
                if !is(Some(s)) {
                    continue;
                }
                for (df, dr) in [(1i8, 0i8), (0, 1), (1, 1), (1, -1)] {
                    if is(self.step(s, -df, -dr)) {
                        continue;
                    }
                    let mut len = 1;
                    let mut t = s;
                    while let Some(nt) = self.step(t, df, dr) {
                        if !is(Some(nt)) {
                            break;
                        }
                        len += 1;
                        t = nt;
                    }
                    if len >= n {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Fully legal moves of the side to move.
    pub fn legal(&self, pos: &Position, out: &mut RVec<Move>) {
        if self.connected(pos) {
            return;
        }
        let us = pos.side_to_move;
        let start = out.len();
        self.pseudo(pos, us, &SquareSet::EMPTY, out);
        if !self.has_royal {
            return;
        }
        let them = us.opposite();
        let mut kings = [0u8; 8];
        let nk = self.royals(pos.cells(), us, &mut kings);
        if nk == 0 {
            return;
        }
        let in_check = kings[..nk]
            .iter()
            .any(|&k| self.attacked(pos.cells(), k, them));
        let mut scratch: [Cell; 256] = *pos.cells();
        let mut keep = start;
        for i in start..out.len() {
            let m = out[i];
            let ok = self.move_is_legal(pos, &mut scratch, m, &kings[..nk], in_check);
            if ok {
                out[keep] = m;
                keep += 1;
            }
        }
        out.truncate(keep);
    }

    fn move_is_legal(
        &self,
        pos: &Position,
        scratch: &mut [Cell; 256],
        m: Move,
        kings: &[u8],
        in_check: bool,
    ) -> bool {
        let us = pos.side_to_move;
        let them = us.opposite();
        let ep = m.flags.contains(MoveFlags::EN_PASSANT);
        let dropmate_rule = m.is_drop()
            && self.spec.shogi_pawn_drop_mate_illegal
            && self.kinds[m.piece as usize].ty == spec::SHOGI_PAWN;
        if !in_check && !ep && !dropmate_rule {
            if m.is_drop() {
                return true;
            }
            let moving_royal = scratch[m.from.index()]
                .kind()
                .is_some_and(|k| self.kinds[k as usize].royal);
            if !moving_royal {
                let aligned = kings.iter().any(|&k| {
                    let df = m.from.file() as i32 - (k & 15) as i32;
                    let dr = m.from.rank() as i32 - (k >> 4) as i32;
                    self.rider_line[them.index()][((dr + 15) * 31 + df + 15) as usize]
                });
                if !aligned {
                    return true;
                }
            }
        }
        // Make the move on the scratch board.
        let to = m.to.index();
        let old_to = scratch[to];
        let mut old_from = Cell::EMPTY;
        let mut victim = (0usize, Cell::EMPTY);
        let mut ks = [0u8; 8];
        ks[..kings.len()].copy_from_slice(kings);
        let kings = &mut ks[..kings.len()];
        if m.is_drop() {
            scratch[to] = Cell::piece(m.piece, us);
        } else {
            old_from = scratch[m.from.index()];
            scratch[to] = old_from;
            scratch[m.from.index()] = Cell::EMPTY;
            if ep {
                victim = (pos.ep_victim.index(), scratch[pos.ep_victim.index()]);
                scratch[victim.0] = Cell::EMPTY;
            }
            for k in kings.iter_mut() {
                if *k == m.from.0 {
                    *k = m.to.0;
                }
            }
        }
        let safe = !kings.iter().any(|&k| self.attacked(scratch, k, them));
        // Undo.
        scratch[to] = old_to;
        if !m.is_drop() {
            scratch[m.from.index()] = old_from;
            if ep {
                scratch[victim.0] = victim.1;
            }
        }
        if safe && dropmate_rule {
            let mut child = pos.clone();
            let mut fx = MoveEffects::new(us, false);
            self.apply(&mut child, m, &mut fx);
            let mut them_kings = [0u8; 8];
            let n = self.royals(child.cells(), them, &mut them_kings);
            if them_kings[..n]
                .iter()
                .any(|&k| self.attacked(child.cells(), k, us))
            {
                let mut replies = RVec::new();
                self.legal(&child, &mut replies);
                if replies.is_empty() {
                    return false;
                }
            }
        }
        safe
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
                        Square(self.step(passed.0, 0, -back).ok_or_else(bad)?)
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

/// Whether two vectors of a piece can reach the same square.
fn overlapping(dirs: &[Dir]) -> bool {
    let mut seen = std::collections::HashSet::new();
    for d in dirs {
        let max = d.quiet.max(d.capture).min(16);
        for n in 1..=max as i16 {
            if !seen.insert((d.df as i16 * n, d.dr as i16 * n)) {
                return true;
            }
        }
    }
    false
}

fn betza_value(dirs: &[Dir]) -> i32 {
    dirs.iter()
        .map(|d| if d.quiet.max(d.capture) > 1 { 60 } else { 35 })
        .sum::<i32>()
        .max(50)
}

impl VariantRules for Fairy {
    fn info(&self) -> VariantInfo {
        let mut flags = VariantFlags::CUSTOM_SAN.0 | VariantFlags::OWN_REPETITION.0;
        if self.spec.piece_drops {
            flags |= VariantFlags::DROPS.0;
        }
        if self.spec.connect_n > 0 {
            flags |= VariantFlags::STATIC_RESULTS.0;
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
        thread_local! {
            static BUF: std::cell::RefCell<RVec<Move>> = std::cell::RefCell::new(RVec::with_capacity(512));
        }
        BUF.with(|b| {
            let mut b = b.borrow_mut();
            b.clear();
            self.legal(pos, &mut b);
            b.len() as u64
        })
    }

    fn apply(&self, pos: &mut Position, mv: Move, fx: &mut MoveEffects) {
        let us = pos.side_to_move;
        let them = us.opposite();
        let old_victim = pos.ep_victim;
        pos.ep_passed = Square::NONE;
        pos.ep_victim = Square::NONE;
        let mut reset = false;
        if mv.is_drop() {
            let slot = &mut pos.hands[us.index()][mv.piece as usize & 31];
            *slot = slot.saturating_sub(1);
            pos.set(mv.to, Cell::piece(mv.piece, us));
            reset = true;
            fx.event(Event::new(
                EventKind::DROP,
                mv.to,
                Cell::piece(mv.piece, us),
            ));
        } else {
            let cell = pos.get(mv.from);
            let kind = cell.kind().unwrap_or(0);
            let cap_sq = if mv.flags.contains(MoveFlags::EN_PASSANT) {
                old_victim
            } else {
                mv.to
            };
            let victim = pos.get(cap_sq);
            if victim.is_color(them) {
                fx.capture(cap_sq, victim);
                if self.spec.captures_to_hand {
                    if let Some(vk) = victim.kind() {
                        let d = self.kinds[vk as usize].demoted as usize;
                        pos.hands[us.index()][d & 31] += 1;
                    }
                }
                pos.clear(cap_sq);
                reset = true;
            }
            pos.move_piece(mv.from, mv.to);
            if mv.is_promotion() {
                pos.set(mv.to, Cell::piece(mv.piece, us));
                fx.event(Event::new(
                    EventKind::PROMOTION,
                    mv.to,
                    Cell::piece(mv.piece, us),
                ));
            }
            if self.kinds[kind as usize].n_move_reset {
                reset = true;
            }
            if mv.flags.contains(MoveFlags::DOUBLE_STEP) {
                let passed = Square((mv.from.0 + mv.to.0) / 2);
                let fwd = us.forward();
                let capturable = [-1i8, 1].iter().any(|&df| {
                    self.step(passed.0, df, fwd).is_some_and(|s| {
                        let c = pos.get(Square(s));
                        c.is_color(them) && c.kind().is_some_and(|k| self.kinds[k as usize].pawn)
                    })
                });
                if capturable {
                    pos.ep_passed = passed;
                    pos.ep_victim = mv.to;
                }
            }
        }
        pos.halfmove_clock = if reset {
            0
        } else {
            pos.halfmove_clock.saturating_add(1)
        };
        if us == Color::Black {
            pos.fullmove_number = pos.fullmove_number.saturating_add(1);
        }
        pos.side_to_move = them;
    }

    fn is_attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        !sq.is_none() && self.attacked(pos.cells(), sq.0, by)
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
