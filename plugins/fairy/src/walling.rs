//! Fairy-Stockfish's `wallingRule`: after its move the mover puts a wall (`*`) on an empty
//! square (the duck of duck chess, the arrow of amazons, the trail of snailtrail). Walls are
//! squares no piece enters or slides through; leapers jump them.
//!
//! Walls that come and go cannot be holes of the compiled board, so a walling variant has one
//! extra piece kind, the wall: it never moves and cannot be captured (the generator's
//! `immune`), and it stands on the board as a White piece that no rule counts (see
//! [`WALL_TY`]). A walling move is the generator's move with the wall square in
//! `Move::special` (flag `SPECIAL`); Fairy-Stockfish writes it `e2e4,e4d5` (UCI: the move, then
//! its destination and the wall square) and `e4,d5` (SAN). Every move of a walling variant is
//! written so: where no wall is placed (`wallOrMove`: a move instead of a wall) the wall square
//! is Fairy-Stockfish's empty one, `a1`.

use crate::engine::{Fairy, Kind};
use crate::spec::Spec;
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{
    Cell, Color, Move, MoveEffects, MoveFlags, PieceType, Position, Role, Square, SquareSet,
};

/// The wall kind's type number: no Fairy-Stockfish piece type, so that no piece-type rule
/// (extinction, counts, flags, connect-N, explosions) concerns it.
pub const WALL_TY: u16 = u16::MAX;

/// `Move::special` of a walling move: the wall square's index in the low byte, and flags.
const HAS_WALL: u16 = 0x100;
/// A wall instead of a move (`wallOrMove`): the mover's first piece "moves" to its own square.
const PASS: u16 = 0x200;

/// Fairy-Stockfish's walling rules (`WallingRule` in its types.h).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WallingRule {
    /// The wall goes where the moved piece could move next (amazons' arrow).
    Arrow,
    /// One wall, moved each turn to another empty square (duck chess).
    Duck,
    /// On the board's edge or next to (orthogonally) a wall (atlantis).
    Edge,
    /// On the square the piece left (snailtrail).
    Past,
    /// Anywhere in the walling region (isolation).
    Static,
}

impl WallingRule {
    /// The rule an ini value names (`none`: `None`).
    pub fn parse(v: &str) -> Result<Option<WallingRule>, String> {
        Ok(Some(match v {
            "arrow" => WallingRule::Arrow,
            "duck" => WallingRule::Duck,
            "edge" => WallingRule::Edge,
            "past" => WallingRule::Past,
            "static" => WallingRule::Static,
            "none" => return Ok(None),
            _ => {
                return Err(format!(
                    "`{v}` is not a walling rule (arrow, duck, edge, past, static, none)"
                ))
            }
        }))
    }
}

/// The walling settings of a variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Walling {
    /// Where walls may go.
    pub rule: WallingRule,
    /// Squares walls may be put on, per colour.
    pub region: [SquareSet; 2],
    /// A move or a wall, not both (`wallOrMove`).
    pub or_move: bool,
    /// The wall's piece kind.
    pub kind: u8,
}

/// The generator's move `base` with a wall on `wall`.
pub fn with_wall(base: Move, wall: Square) -> Move {
    let mut m = base;
    m.flags = m.flags.with(MoveFlags::SPECIAL);
    m.special = HAS_WALL | wall.0 as u16;
    m
}

/// A move without wall, written as Fairy-Stockfish writes it in a walling variant
/// (`wallOrMove`).
pub fn without_wall(base: Move) -> Move {
    let mut m = base;
    m.flags = m.flags.with(MoveFlags::SPECIAL);
    m.special = 0;
    m
}

/// A wall on `wall` instead of a move; `first` is the square of the mover's first piece
/// (Fairy-Stockfish writes the move from and to it).
pub fn pass(first: Square, wall: Square) -> Move {
    let mut m = Move::new(first, first, MoveFlags::SPECIAL);
    m.special = PASS | HAS_WALL | wall.0 as u16;
    m
}

/// The wall square of a walling move.
pub fn wall_of(m: Move) -> Option<Square> {
    (m.is_special() && m.special & HAS_WALL != 0).then_some(Square((m.special & 0xFF) as u8))
}

/// Whether the move is a wall instead of a move.
pub fn is_pass(m: Move) -> bool {
    m.is_special() && m.special & PASS != 0
}

/// Whether `m` is a move with its wall that is judged as its board move (the move without
/// the wall) for every wall: not a pass, which has no board move, nor a castle, whose path
/// counts the wall (`a_duck_may_shield_the_castling_kings_path`).
pub fn judged_by_board_move(m: Move) -> bool {
    !m.is_castle() && !is_pass(m) && wall_of(m).is_some()
}

/// The generator's move a walling move is made of.
pub fn base(m: Move) -> Move {
    let mut b = m;
    b.flags = MoveFlags(b.flags.0 & !MoveFlags::SPECIAL.0);
    b.special = 0;
    b
}

impl Walling {
    /// The squares of the board.
    fn board(v: &Fairy) -> SquareSet {
        (0..v.ranks)
            .flat_map(|r| (0..v.files).map(move |f| Square::new(f, r)))
            .collect()
    }

    /// The walls standing in `pos`.
    pub fn walls(&self, v: &Fairy, pos: &Position) -> SquareSet {
        Self::board(v)
            .iter()
            .filter(|&sq| pos.get(sq).kind() == Some(self.kind))
            .collect()
    }

    /// Where the mover may put its wall after `m` (Fairy-Stockfish's
    /// `make_move_and_gating`): an empty square (after the move, counting squares left by
    /// the move only for its origin, a castling rook and an en passant victim), in the
    /// walling region, and where the rule allows.
    pub(crate) fn wall_squares(&self, v: &Fairy, pos: &Position, m: Move) -> SquareSet {
        let board = Self::board(v);
        self.wall_squares_on(v, pos, m, board, occupied(pos, board), None)
    }

    /// [`Walling::wall_squares`] with the board's squares and those occupied in `pos` given
    /// (the same for every move of a position).
    fn wall_squares_on(
        &self,
        v: &Fairy,
        pos: &Position,
        m: Move,
        board: SquareSet,
        mut occ: SquareSet,
        arrow: Option<SquareSet>,
    ) -> SquareSet {
        if !is_pass(m) {
            occ.remove(m.from);
            if m.is_castle() {
                occ.remove(m.to);
                // Where king and rook stand after the castle. Fairy-Stockfish differs where
                // the king does not move (docs/fairy.md, known differences).
                let (king, rook) = crate::engine::castle_destinations(&m);
                occ.insert(king);
                occ.insert(rook);
            } else {
                occ.insert(m.to);
                if m.flags.contains(MoveFlags::EN_PASSANT) {
                    occ.remove(pos.ep_victim);
                }
            }
        }
        let us = pos.side_to_move;
        let mut b = board.intersection(self.region[us.index()]).difference(occ);
        match self.rule {
            WallingRule::Arrow => {
                // The moved piece's quiet moves from its destination, its origin left empty.
                let reach = arrow.unwrap_or_else(|| {
                    let mut r = SquareSet::EMPTY;
                    v.gen.quiet_reach_after_each(pos, &[m], |_, s| r = s);
                    r
                });
                b = b.intersection(reach);
            }
            WallingRule::Past => b = b.iter().filter(|&s| s == m.from).collect(),
            WallingRule::Edge => {
                let walls = self.walls(v, pos);
                let next_to_wall = |s: Square| {
                    [(0, 1), (0, -1), (1, 0), (-1, 0)].iter().any(|&(df, dr)| {
                        s.offset_within(df, dr, v.files, v.ranks)
                            .is_some_and(|n| walls.contains(n))
                    })
                };
                b = b
                    .iter()
                    .filter(|&s| {
                        s.file() == 0
                            || s.rank() == 0
                            || s.file() == v.files - 1
                            || s.rank() == v.ranks - 1
                            || next_to_wall(s)
                    })
                    .collect();
            }
            WallingRule::Duck | WallingRule::Static => {}
        }
        b
    }

    /// Replaces the generator's legal moves `out[start..]` by the walling moves made of them:
    /// each with every wall square it allows (a move that allows none is gone), or, with
    /// `wallOrMove`, the moves as they are and a wall instead of a move.
    pub fn expand(&self, v: &Fairy, pos: &Position, out: &mut RVec<Move>, start: usize) {
        let base: Vec<Move> = out[start..].to_vec();
        out.truncate(start);
        if self.or_move {
            out.extend(base.iter().map(|&m| without_wall(m)));
            let us = pos.side_to_move;
            let first = Self::board(v)
                .iter()
                .find(|&s| pos.get(s).is_color(us) && pos.get(s).kind() != Some(self.kind));
            if let Some(first) = first {
                let p = pass(first, first);
                // A wall instead of a move leaves the mover's royals where they are: it may
                // block a check (walls stop sliders), not ignore one, and may not become a
                // hopper's screen against its own king.
                let mut after = pos.clone();
                for w in self.wall_squares(v, pos, p).iter() {
                    after.set(w, Cell::piece(self.kind, Color::White));
                    if !v.gen.in_check(&after, us) {
                        out.push(pass(first, w));
                    }
                    after.clear(w);
                }
            }
            return;
        }
        let board = Self::board(v);
        let occ = occupied(pos, board);
        let mut push = |m: Move, arrow: Option<SquareSet>| {
            for w in self.wall_squares_on(v, pos, m, board, occ, arrow).iter() {
                out.push(with_wall(m, w));
            }
        };
        if self.rule == WallingRule::Arrow {
            // Every move's arrows from one reading of the cells (thousands of moves a
            // position in amazons).
            v.gen
                .quiet_reach_after_each(pos, &base, |m, reach| push(m, Some(reach)));
        } else {
            base.into_iter().for_each(|m| push(m, None));
        }
    }

    /// Makes a walling move: the generator's move (`make`), then the wall (a duck leaves its
    /// old square first); a wall instead of a move only hands the turn over.
    pub fn apply(
        &self,
        pos: &mut Position,
        mv: Move,
        fx: &mut MoveEffects,
        make: impl FnOnce(&mut Position, Move, &mut MoveEffects),
        files: u8,
        ranks: u8,
    ) {
        if is_pass(mv) {
            let us = pos.side_to_move;
            pos.ep_passed = Square::NONE;
            pos.ep_victim = Square::NONE;
            pos.halfmove_clock = pos.halfmove_clock.saturating_add(1);
            if us == Color::Black {
                pos.fullmove_number = pos.fullmove_number.saturating_add(1);
            }
            pos.side_to_move = us.opposite();
            pos.invalidate_accel();
        } else {
            make(pos, base(mv), fx);
        }
        if let Some(w) = wall_of(mv) {
            if self.rule == WallingRule::Duck {
                for r in 0..ranks {
                    for f in 0..files {
                        let s = Square::new(f, r);
                        if pos.get(s).kind() == Some(self.kind) {
                            pos.clear(s);
                        }
                    }
                }
            }
            pos.set(w, Cell::piece(self.kind, Color::White));
        }
    }
}

/// Adds the wall kind after the other kinds (a piece written `*` that never moves): the walls
/// of walling moves and of petrified pieces (`crate::petrify`).
pub fn push_wall_kind(kinds: &mut Vec<Kind>, pieces: &mut Vec<PieceType>) -> Result<u8, String> {
    if kinds.len() >= 31 {
        return Err("no piece kind left for the walls (at most 30 piece types)".into());
    }
    let kind = kinds.len() as u8;
    let movement = houserules_movegen::betza::parse("", houserules_movegen::betza::Dialect::Fsf)
        .map_err(|e| e.to_string())?;
    kinds.push(Kind {
        ty: WALL_TY,
        letter: '*',
        san_letter: '*',
        synonym: None,
        promoted: false,
        demoted: kind,
        promo: None,
        royal: false,
        pawn: false,
        pawn_type: false,
        chess_promo: false,
        n_move_reset: false,
        connect: false,
        ep_capturer: false,
        ep_victim: false,
        movement,
        betza: String::new(),
    });
    pieces.push(PieceType::new('*', "wall", Role::WALL, 0));
    Ok(kind)
}

/// The wall kind of a walling variant, added after its other kinds (`None` without walling).
pub fn wall_kind(
    spec: &Spec,
    kinds: &mut Vec<Kind>,
    pieces: &mut Vec<PieceType>,
) -> Result<Option<Walling>, String> {
    let Some(rule) = spec.walling_rule else {
        return Ok(None);
    };
    if !spec.promoted_piece_type.is_empty() {
        // Shogi-style promotions are the generator's special moves, as walling moves are.
        return Err(
            "walling with shogi-style promotions (promotedPieceType) is not supported".into(),
        );
    }
    let kind = push_wall_kind(kinds, pieces)?;
    Ok(Some(Walling {
        rule,
        region: spec.walling_region,
        or_move: spec.wall_or_move,
        kind,
    }))
}

impl Walling {
    /// A FEN's walls (`*`, read as holes) as wall pieces.
    pub fn holes_to_walls(&self, pos: &mut Position, files: u8, ranks: u8) {
        for r in 0..ranks {
            for f in 0..files {
                let s = Square::new(f, r);
                if pos.get(s).is_hole() {
                    pos.set(s, Cell::piece(self.kind, Color::White));
                }
            }
        }
    }

    /// The move's coordinate form as Fairy-Stockfish writes it in a walling variant:
    /// `base` (the generator's move in coordinate form, ending on `dest`), a comma, `dest`
    /// and the wall square (`a1` without wall).
    pub fn coordinate(&self, mv: Move, base: &str, dest: Square) -> String {
        let wall = wall_of(mv).unwrap_or(Square::new(0, 0));
        format!("{base},{dest}{wall}")
    }

    /// The SAN suffix: a comma and the wall square (`a1` without wall).
    pub fn san_suffix(&self, mv: Move) -> String {
        format!(",{}", wall_of(mv).unwrap_or(Square::new(0, 0)))
    }
}

/// The squares of `board` occupied in `pos`.
fn occupied(pos: &Position, board: SquareSet) -> SquareSet {
    board.iter().filter(|&s| !pos.get(s).is_empty()).collect()
}
