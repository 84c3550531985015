//! FIDE chess as a houserules variant plugin.
//!
//! The rules live in the `engine` module, a bitboard move generator (magic bitboards, pin and check
//! masks, bulk counting). This file adapts it to the plugin API: it converts between the
//! shared [`Position`] and the engine's `Board` (kept in the position's acceleration cache so
//! that perft never rebuilds it), reads and writes FEN (Shredder-FEN and X-FEN castling
//! accepted), and provides a pseudo-legal generator for pipelines whose presets take over the
//! self-check filter or some pieces' moves.

#[allow(clippy::all)]
mod engine;
mod fen;
pub mod model;
mod replay;
mod words;

use engine::{Board, ChessMove, MoveKind, MoveList, Role as ERole, Side, Wanted};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    export_plugin, geometry, variant_object, Cell, Color, DescribedLine, Event, EventKind,
    FenError, GenRequest, Layout, Move, MoveEffects, MoveFlags, Outcome, OutcomeContext, PieceType,
    Plugin, PluginManifest, Position, ReplayedLine, Role, SanReader, Square, VariantBox,
    VariantFlags, VariantInfo, VariantRules, VariantSummary, API_VERSION,
};

/// Piece kinds of the chess piece table (index = engine role).
pub mod kind {
    /// Pawn.
    pub const PAWN: u8 = 0;
    /// Knight.
    pub const KNIGHT: u8 = 1;
    /// Bishop.
    pub const BISHOP: u8 = 2;
    /// Rook.
    pub const ROOK: u8 = 3;
    /// Queen.
    pub const QUEEN: u8 = 4;
    /// King.
    pub const KING: u8 = 5;
}

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The layouts: id, name, start position. `classic` is the default; the others are the
/// catalogue's starting layouts (RULINGS.md settles their squares), meant for the presets
/// that prefer them.
pub const LAYOUTS: [(&str, &str, &str); 5] = [
    ("classic", "Classic", START_FEN),
    (
        "dual-classic",
        "Dual Classic (two kings, no queens)",
        "rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w KQkq - 0 1",
    ),
    (
        "knightmate",
        "Knightmate (a knight instead of the queen)",
        "rnbnkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBNKBNR w KQkq - 0 1",
    ),
    (
        "monster",
        "Monster (king and four pawns against the army)",
        "rnbqkbnr/pppppppp/8/8/8/8/2PPPP2/4K3 w kq - 0 1",
    ),
    (
        "pawns-only",
        "Pawns only",
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    ),
];

/// The chess piece table.
pub fn piece_table() -> Vec<PieceType> {
    let mut king = PieceType::new('K', "king", Role::KING, 0);
    king.royal = true;
    vec![
        PieceType::new('P', "pawn", Role::PAWN, 100),
        PieceType::new('N', "knight", Role::KNIGHT, 300),
        PieceType::new('B', "bishop", Role::BISHOP, 320),
        PieceType::new('R', "rook", Role::ROOK, 500),
        PieceType::new('Q', "queen", Role::QUEEN, 900),
        king,
    ]
}

/// The chess variant.
pub struct Chess {
    pieces: Vec<PieceType>,
    /// Plain SAN over `pieces`, for whole-line replay.
    san: SanReader,
    /// A transformed rules model, played by the shared generator (none: FIDE's, played by the
    /// magic-bitboard engine).
    modelled: Option<model::Modelled>,
}

impl Default for Chess {
    fn default() -> Self {
        let pieces = piece_table();
        Chess {
            san: SanReader::new(&pieces),
            pieces,
            modelled: None,
        }
    }
}

/// Marks the cache words as the engine's `Board` (the shared generator writes its own mark).
const ENGINE_TAG: u64 = 0xC4E5_5B0A_12D0_0001;

#[inline]
fn sq8(s: Square) -> u8 {
    s.rank() * 8 + s.file()
}

#[inline]
fn sq16(s: u8) -> Square {
    Square::new(s & 7, s >> 3)
}

#[inline]
fn side_of(c: Color) -> Side {
    match c {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

#[inline]
fn color_of(s: Side) -> Color {
    match s {
        Side::White => Color::White,
        Side::Black => Color::Black,
    }
}

#[inline]
fn cell_of(p: Option<(Side, ERole)>) -> Cell {
    match p {
        Some((s, r)) => Cell::piece(r as u8, color_of(s)),
        None => Cell::EMPTY,
    }
}

fn board_words(b: &Board) -> [u64; 10] {
    // SAFETY: Board is `repr(C)`, 80 bytes, alignment 8, no padding with undefined contents
    // (its `_pad` bytes are always zero) and no pointers.
    unsafe { std::mem::transmute::<Board, [u64; 10]>(*b) }
}

/// The engine board of a position: from the cache when valid, rebuilt from the cells otherwise.
fn board_of(pos: &Position) -> Board {
    if let Some(a) = pos.accel().filter(|a| a.words[15] == ENGINE_TAG) {
        let mut w = [0u64; 10];
        w.copy_from_slice(&a.words[..10]);
        // SAFETY: the cache only ever holds words written by `store_board` (the position marks
        // it invalid on any other mutation), so these are the bytes of a valid Board.
        return unsafe { std::mem::transmute::<[u64; 10], Board>(w) };
    }
    let mut b = Board::empty();
    // The cells of the 8x8 board read straight from the array (16 cells a rank), each piece
    // added to the empty board (`put` would first clear its square everywhere).
    let cells = pos.cells();
    for s in 0..64u8 {
        let Some(c) = cells.get((s as usize >> 3) * 16 + (s as usize & 7)) else {
            continue;
        };
        if let (Some(kind), Some(color)) = (c.kind(), c.color()) {
            if let Some(role) = ERole::from_index(kind as usize) {
                b.add(s, side_of(color), role);
            }
        }
    }
    b.set_side_to_move(side_of(pos.side_to_move));
    for (slot, sq) in pos.castling.iter().enumerate() {
        let side = if slot < 2 { Side::White } else { Side::Black };
        // A right whose rook a preset removed (or replaced) is gone.
        let rook = sq
            .to_option()
            .filter(|&s| pos.get(s) == Cell::piece(kind::ROOK, color_of(side)));
        b.set_castling_rook(side, slot % 2 == 0, rook.map(sq8));
    }
    b.set_ep_square(pos.ep_passed.to_option().map(sq8));
    b.set_halfmove_clock(pos.halfmove_clock);
    b.set_fullmove_number(pos.fullmove_number);
    b
}

/// Whether the en passant right (if any) has FIDE's shape: the passed square on the sixth
/// rank (third for Black to move) with the victim right behind it. A preset's sprint or
/// slanting step can set another; the bitboard generator knows only FIDE's, so such
/// positions are generated by trial.
fn fide_en_passant(pos: &Position) -> bool {
    let Some(ep) = pos.ep_passed.to_option() else {
        return true;
    };
    let (passed_rank, victim_rank) = match pos.side_to_move {
        Color::White => (5, 4),
        Color::Black => (2, 3),
    };
    ep.rank() == passed_rank && pos.ep_victim == Square::new(ep.file(), victim_rank)
}

fn store_board(pos: &mut Position, b: &Board) {
    let w = board_words(b);
    let a = pos.accel_mut();
    a.words[..10].copy_from_slice(&w);
    a.words[15] = ENGINE_TAG;
}

/// Copies the engine's side, rights, en passant and clocks into the position.
fn sync_state(pos: &mut Position, b: &Board) {
    pos.side_to_move = color_of(b.side_to_move());
    let rights = [
        b.castling_rook(Side::White, true),
        b.castling_rook(Side::White, false),
        b.castling_rook(Side::Black, true),
        b.castling_rook(Side::Black, false),
    ];
    for (i, r) in rights.iter().enumerate() {
        pos.castling[i] = r.map(sq16).unwrap_or(Square::NONE);
    }
    match b.ep_square() {
        Some(e) => {
            pos.ep_passed = sq16(e);
            pos.ep_victim = sq16(e ^ 8);
        }
        None => {
            pos.ep_passed = Square::NONE;
            pos.ep_victim = Square::NONE;
        }
    }
    pos.halfmove_clock = b.halfmove_clock();
    pos.fullmove_number = b.fullmove_number();
}

fn to_api(m: ChessMove) -> Move {
    let from = sq16(m.from());
    let to = sq16(m.to());
    match m.kind() {
        MoveKind::Quiet => Move::new(from, to, MoveFlags::NONE),
        MoveKind::DoublePush => Move::new(from, to, MoveFlags::DOUBLE_STEP),
        MoveKind::Capture => Move::new(from, to, MoveFlags::CAPTURE),
        MoveKind::EnPassant => Move::new(from, to, MoveFlags::CAPTURE | MoveFlags::EN_PASSANT),
        MoveKind::Castle => Move::castle(from, to, sq16(m.king_aware_to())),
        MoveKind::Promotion | MoveKind::PromotionCapture => Move::promotion(
            from,
            to,
            m.promotion().map(|r| r as u8).unwrap_or(kind::QUEEN),
            m.is_capture(),
        ),
    }
}

fn to_engine(m: Move, pos: &Position) -> ChessMove {
    let from = sq8(m.from);
    let to = sq8(m.to);
    let capture = m.is_capture() || pos.get(m.to).is_piece();
    let k = if m.is_castle() {
        MoveKind::Castle
    } else if m.flags.contains(MoveFlags::EN_PASSANT) {
        MoveKind::EnPassant
    } else if m.is_promotion() {
        if capture {
            MoveKind::PromotionCapture
        } else {
            MoveKind::Promotion
        }
    } else if m.flags.contains(MoveFlags::DOUBLE_STEP) {
        MoveKind::DoublePush
    } else if capture {
        MoveKind::Capture
    } else {
        MoveKind::Quiet
    };
    let promo = if m.is_promotion() {
        ERole::from_index(m.piece as usize)
    } else {
        None
    };
    ChessMove::new(from, to, k, promo)
}

impl Chess {
    /// Pseudo-legal moves of `side` (everything but the self-check filter and castling
    /// through attacked squares), skipping the squares in `skip`.
    fn pseudo(&self, pos: &Position, req: &GenRequest, out: &mut RVec<Move>) {
        let side = req.side;
        let fwd = side.forward();
        let (home_rank, last_rank) = match side {
            Color::White => (1u8, 7u8),
            Color::Black => (6u8, 0u8),
        };
        for (sq, k) in pos.pieces_of(side) {
            if req.skip.contains(sq) {
                continue;
            }
            match k {
                kind::PAWN => {
                    let promote = |out: &mut RVec<Move>, to: Square, capture: bool| {
                        if to.rank() == last_rank {
                            for p in [kind::QUEEN, kind::ROOK, kind::BISHOP, kind::KNIGHT] {
                                out.push(Move::promotion(sq, to, p, capture));
                            }
                        } else {
                            out.push(Move::new(
                                sq,
                                to,
                                if capture {
                                    MoveFlags::CAPTURE
                                } else {
                                    MoveFlags::NONE
                                },
                            ));
                        }
                    };
                    if let Some(one) = pos.offset(sq, 0, fwd) {
                        if pos.get(one).is_empty() {
                            promote(out, one, false);
                            if sq.rank() == home_rank {
                                if let Some(two) = pos.offset(one, 0, fwd) {
                                    if pos.get(two).is_empty() {
                                        out.push(Move::new(sq, two, MoveFlags::DOUBLE_STEP));
                                    }
                                }
                            }
                        }
                    }
                    for df in [-1i8, 1] {
                        if let Some(to) = pos.offset(sq, df, fwd) {
                            if pos.get(to).is_color(side.opposite()) {
                                promote(out, to, true);
                            } else if to == pos.ep_passed
                                && side == pos.side_to_move
                                && pos.get(pos.ep_victim).is_color(side.opposite())
                            {
                                out.push(Move::new(
                                    sq,
                                    to,
                                    MoveFlags::CAPTURE | MoveFlags::EN_PASSANT,
                                ));
                            }
                        }
                    }
                }
                kind::KNIGHT => {
                    for d in geometry::KNIGHT {
                        geometry::leap(pos, sq, d, side, out);
                    }
                }
                kind::BISHOP => {
                    for d in geometry::DIAGONAL {
                        geometry::slide(pos, sq, d, side, out);
                    }
                }
                kind::ROOK => {
                    for d in geometry::ORTHOGONAL {
                        geometry::slide(pos, sq, d, side, out);
                    }
                }
                kind::QUEEN => {
                    for d in geometry::ORTHOGONAL.iter().chain(geometry::DIAGONAL.iter()) {
                        geometry::slide(pos, sq, *d, side, out);
                    }
                }
                _ => {
                    for d in geometry::CLOCKWISE {
                        geometry::leap(pos, sq, d, side, out);
                    }
                    self.castling(pos, sq, side, out);
                }
            }
        }
    }

    /// Castling moves of the king on `king`: rights left, king and rook on the back rank, and
    /// every square either of them crosses or lands on empty (but for the two of them).
    fn castling(&self, pos: &Position, king: Square, side: Color, out: &mut RVec<Move>) {
        let back = if side == Color::White { 0 } else { 7 };
        if king.rank() != back || castling_king(pos, side) != Some(king) {
            return;
        }
        let base = side.index() * 2;
        for slot in [base, base + 1] {
            let rook = pos.castling[slot];
            if rook.is_none() || pos.get(rook) != Cell::piece(kind::ROOK, side) {
                continue;
            }
            let king_side = rook.file() > king.file();
            let (kf, rf) = if king_side { (6u8, 5u8) } else { (2u8, 3u8) };
            let lo = king.file().min(rook.file()).min(kf).min(rf);
            let hi = king.file().max(rook.file()).max(kf).max(rf);
            let clear = (lo..=hi).all(|f| {
                let s = Square::new(f, back);
                s == king || s == rook || pos.get(s).is_empty()
            });
            if clear {
                out.push(Move::castle(king, rook, Square::new(kf, back)));
            }
        }
    }
}

/// The event of a castle, after it: the king on its square `kd`.
fn castle_event(after: &Position, kd: Square) -> Event {
    Event::new(EventKind::CASTLE, kd, after.get(kd))
}

/// The event of the promotion `mv`, after it: the promoted piece and its kind.
fn promotion_event(after: &Position, mv: Move) -> Event {
    let mut e = Event::new(EventKind::PROMOTION, mv.to, after.get(mv.to));
    e.value = mv.piece as i32;
    e
}

/// The king that castles for `side`: the only king on its back rank, or with several (the
/// dual-classic layout) the one on the e-file — castling rights belong to it (RULINGS).
pub fn castling_king(pos: &Position, side: Color) -> Option<Square> {
    let back = if side == Color::White { 0 } else { 7 };
    let king = Cell::piece(kind::KING, side);
    let (mut first, mut count) = (None, 0);
    for f in 0..8 {
        let s = Square::new(f, back);
        if pos.get(s) == king {
            first = first.or(Some(s));
            count += 1;
        }
    }
    match count {
        0 | 1 => first,
        _ => Some(Square::new(4, back)).filter(|&s| pos.get(s) == king),
    }
}

/// The engine's filter for the hint of `req` (destination, piece kinds): the engine visits
/// only those pieces and targets.
fn wanted(req: &GenRequest) -> Wanted {
    let mut w = Wanted::ALL;
    if let Some(to) = req.destination() {
        w.to = if to.file() < 8 && to.rank() < 8 {
            1u64 << sq8(to)
        } else {
            0
        };
    }
    if let Some(kinds) = req.kinds() {
        // Kinds are engine roles (`kind`).
        w.roles = (kinds & 0x3f) as u8;
    }
    w
}

/// FIDE's board has no holes, and the engine's bitboards cannot hold one (a hole read as an
/// empty square would let pieces move onto it): a FEN with `*` is refused, at its column.
fn no_holes(text: &str, pos: &Position) -> Result<(), FenError> {
    // A hole is read only from a `*` of the text: no `*`, no scan of the cells.
    if !text.contains('*') || !(0..64u8).any(|s| pos.get(sq16(s)) == Cell::HOLE) {
        return Ok(());
    }
    let column = text
        .trim_start()
        .chars()
        .position(|c| c == '*')
        .unwrap_or(0) as u32;
    Err(FenError::new(
        0,
        column,
        "`*` (a hole): the chess board has no holes",
    ))
}

/// The legal moves of the side to move that `req` asks for (destination, piece kinds),
/// appended to `out`: by the magic-bitboard engine where it takes the position, else by FIDE's
/// shared generator, whose full list is filtered here. `list` is the engine's scratch list
/// (a caller generating many times keeps one).
fn legal_wanted(pos: &Position, req: &GenRequest, list: &mut MoveList, out: &mut RVec<Move>) {
    let b = board_of(pos);
    if one_king_each(&b) && fide_en_passant(pos) {
        list.clear();
        b.generate_wanted(list, wanted(req));
        out.reserve(list.len());
        for &m in list.iter() {
            out.push(to_api(m));
        }
    } else {
        let from = out.len();
        fide_generator().gen.legal_moves(pos, out);
        let mut kept = from;
        for i in from..out.len() {
            if req.wants(pos, &out[i]) {
                out[kept] = out[i];
                kept += 1;
            }
        }
        out.truncate(kept);
    }
}

/// Whether each side has exactly one king (the engine's legal generator needs that).
fn one_king_each(b: &Board) -> bool {
    b.pieces(Side::White, ERole::King).count_ones() == 1
        && b.pieces(Side::Black, ERole::King).count_ones() == 1
}

/// FIDE's model on the shared generator, for the positions the magic-bitboard engine does not
/// take (several or no kings per side: dual-classic, kingless positions; en passant rights a
/// preset's move left where FIDE's geometry does not put them). Compiled once.
fn fide_generator() -> &'static model::Modelled {
    static GEN: std::sync::OnceLock<model::Modelled> = std::sync::OnceLock::new();
    GEN.get_or_init(|| model::Modelled::new(&model::chess_model()).expect("FIDE's model compiles"))
}

impl VariantRules for Chess {
    fn info(&self) -> VariantInfo {
        VariantInfo {
            id: "chess".into(),
            name: "Chess".into(),
            description: "FIDE chess: castling, en passant, promotion, check and checkmate, \
                          stalemate, dead positions by material, 50/75-move and 3/5-fold rules."
                .into(),
            files: 8,
            ranks: 8,
            pieces: self.pieces.iter().cloned().collect(),
            layouts: LAYOUTS
                .iter()
                .map(|(id, name, fen)| Layout {
                    id: (*id).into(),
                    name: (*name).into(),
                    fen: (*fen).into(),
                })
                .collect(),
            n_move_rule: 50,
            n_move_automatic: 75,
            n_fold_rule: 3,
            n_fold_automatic: 5,
            flags: VariantFlags(VariantFlags::REPLAYS_LINES.0 | VariantFlags::DESCRIBES_LINES.0),
            extra: words::extra(),
        }
    }

    fn parse_fen(&self, text: &str) -> Result<Position, FenError> {
        match &self.modelled {
            Some(m) => m.parse_fen(text, &self.pieces),
            None => {
                // With the engine board in the cache from the start: a game's first moves,
                // its FEN and its result do not rebuild it from the cells each time.
                let mut pos = fen::parse(text, &self.pieces)?;
                no_holes(text, &pos)?;
                let b = board_of(&pos);
                store_board(&mut pos, &b);
                Ok(pos)
            }
        }
    }

    fn parse_setup(&self, text: &str) -> Result<Position, FenError> {
        match &self.modelled {
            Some(m) => m.parse_fen(text, &self.pieces),
            None => {
                let pos = fen::parse_setup(text, &self.pieces)?;
                no_holes(text, &pos)?;
                Ok(pos)
            }
        }
    }

    fn write_fen(&self, pos: &Position) -> String {
        match &self.modelled {
            Some(_) => fen::write(pos, &self.pieces, None, false),
            None => {
                let cached = pos.accel().is_some_and(|a| a.words[15] == ENGINE_TAG);
                fen::write(pos, &self.pieces, Some(&board_of(pos)), cached)
            }
        }
    }

    fn rules_model(&self) -> Option<houserules_plugin_api::RulesModel> {
        Some(
            self.modelled
                .as_ref()
                .map_or_else(model::chess_model, |m| m.model.clone()),
        )
    }

    fn set_model(&mut self, m: &houserules_plugin_api::RulesModel) -> Result<(), String> {
        // FIDE's own model keeps the magic-bitboard engine.
        self.modelled = if *m == model::chess_model() {
            None
        } else {
            Some(model::Modelled::new(m)?)
        };
        Ok(())
    }

    fn generate(&self, pos: &Position, req: &GenRequest, out: &mut RVec<Move>) {
        if let Some(m) = &self.modelled {
            return m.generate(pos, req, out);
        }
        if !(req.legal && req.side == pos.side_to_move && req.skip.is_empty()) {
            self.pseudo(pos, req, out);
            return;
        }
        legal_wanted(pos, req, &mut MoveList::new(), out);
    }

    fn legal_move_count(&self, pos: &Position) -> u64 {
        if let Some(m) = &self.modelled {
            return m.gen.count_legal(pos);
        }
        let b = board_of(pos);
        if one_king_each(&b) && fide_en_passant(pos) {
            b.count_legal() as u64
        } else {
            fide_generator().gen.count_legal(pos)
        }
    }

    fn apply(&self, pos: &mut Position, mv: Move, fx: &mut MoveEffects) {
        if let Some(m) = &self.modelled {
            return m.apply(pos, mv, fx);
        }
        let mut b = board_of(pos);
        let mut em = to_engine(mv, pos);
        let from = mv.from;
        // What the move removes. An en passant victim stands where the position says
        // (`ep_victim`): behind the passed square after a FIDE double step, elsewhere after a
        // preset's (a sprint from any rank, a Berolina diagonal step).
        let victim_sq = if mv.flags.contains(MoveFlags::EN_PASSANT) {
            let behind = sq16(em.to() ^ 8);
            let victim = pos.ep_victim.to_option().unwrap_or(behind);
            if victim != behind {
                // The engine takes en passant behind the passed square: take the victim off
                // first and play the pawn's step as a quiet move.
                b.remove(sq8(victim));
                em = ChessMove::new(em.from(), em.to(), MoveKind::Quiet, None);
            }
            victim
        } else {
            mv.to
        };
        let victim = if mv.is_castle() {
            Cell::EMPTY
        } else {
            pos.get(victim_sq)
        };
        let rights_before = pos.castling;
        let second_king_moved = pos.get(from).kind() == Some(kind::KING)
            && !mv.is_castle()
            && castling_king(pos, pos.side_to_move) != Some(from);
        let captured_castling_king = match victim.color() {
            Some(c)
                if victim.kind() == Some(kind::KING)
                    && castling_king(pos, c) == Some(victim_sq) =>
            {
                Some(c)
            }
            _ => None,
        };
        b.play(em);
        if let Some(c) = captured_castling_king {
            // A king that may be taken (a preset made it non-royal) takes its castling rights
            // with it: a right needs the king on its back rank.
            b.set_castling_rook(side_of(c), true, None);
            b.set_castling_rook(side_of(c), false, None);
        }
        if second_king_moved {
            // Moving a king that does not castle (dual-classic) keeps the castling rights,
            // except those of a rook that moved or was taken.
            for (slot, sq) in rights_before.iter().enumerate() {
                if let Some(r) = sq.to_option() {
                    if r != mv.to {
                        let side = if slot < 2 { Side::White } else { Side::Black };
                        b.set_castling_rook(side, slot % 2 == 0, Some(sq8(r)));
                    }
                }
            }
        }
        let attrs = pos.has_attributes();
        if victim.is_piece() {
            fx.capture(victim_sq, victim);
            if attrs {
                pos.drop_attributes(victim_sq);
            }
        }
        if mv.is_castle() {
            let kd = sq16(em.castle_king_to().unwrap_or(em.from()));
            let rd = sq16(em.castle_rook_to().unwrap_or(em.to()));
            if attrs {
                let king_attrs: Vec<_> = pos
                    .attributes()
                    .iter()
                    .filter(|a| a.square == from)
                    .copied()
                    .collect();
                let rook_attrs: Vec<_> = pos
                    .attributes()
                    .iter()
                    .filter(|a| a.square == mv.to)
                    .copied()
                    .collect();
                pos.drop_attributes(from);
                pos.drop_attributes(mv.to);
                for a in king_attrs {
                    pos.set_attribute(kd, a.name, a.value);
                }
                for a in rook_attrs {
                    pos.set_attribute(rd, a.name, a.value);
                }
            }
            for s in [from, mv.to, kd, rd] {
                pos.set_raw(s, cell_of(b.piece_at(sq8(s))));
            }
            if fx.record_events {
                fx.event(castle_event(pos, kd));
            }
        } else {
            if attrs {
                pos.move_attributes(from, mv.to);
            }
            for s in [from, mv.to, victim_sq] {
                pos.set_raw(s, cell_of(b.piece_at(sq8(s))));
            }
            if mv.is_promotion() && fx.record_events {
                fx.event(promotion_event(pos, mv));
            }
        }
        sync_state(pos, &b);
        store_board(pos, &b);
    }

    fn is_attacked(&self, pos: &Position, sq: Square, by: Color) -> bool {
        if sq.is_none() || sq.file() > 7 || sq.rank() > 7 {
            return false;
        }
        if let Some(m) = &self.modelled {
            return m.gen.is_attacked(pos, sq, by);
        }
        board_of(pos).is_attacked(sq8(sq), side_of(by))
    }

    fn replay_line(&self, start: &Position, tokens: &[&str]) -> Option<ReplayedLine> {
        self.replay(start, tokens)
    }

    fn describe_line(&self, start: &Position, tokens: &[&str]) -> Option<DescribedLine> {
        self.describe(start, tokens)
    }

    fn outcome(&self, pos: &Position, ctx: &OutcomeContext) -> Option<Outcome> {
        if let Some(m) = &self.modelled {
            return m.outcome(pos, ctx);
        }
        if !ctx.has_legal_moves {
            return Some(if ctx.in_check {
                Outcome::win(pos.side_to_move.opposite(), "checkmate")
            } else {
                Outcome::draw("stalemate")
            });
        }
        if !ctx.counting && !ctx.rules_changed() && board_of(pos).has_insufficient_material() {
            return Some(Outcome::draw("insufficient-material"));
        }
        None
    }
}

/// The chess plugin: provides the `chess` variant.
pub struct ChessPlugin;

impl Plugin for ChessPlugin {
    fn manifest() -> PluginManifest {
        PluginManifest {
            api_version: API_VERSION,
            id: "chess".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            description: "FIDE chess".into(),
            variants: vec![VariantSummary {
                id: "chess".into(),
                name: "Chess".into(),
            }]
            .into_iter()
            .collect(),
            presets: RVec::new(),
        }
    }

    fn new_variant(id: &str) -> Result<Option<VariantBox>, String> {
        Ok((id == "chess").then(|| variant_object(Chess::default())))
    }
}

export_plugin!(ChessPlugin);
