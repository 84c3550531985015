//! Fairy-Stockfish's rules of placement games (reversi, ataxx, connect four):
//! `enclosingDrop` (where a drop may go), `enclosingDropStart` (the squares filled first),
//! `flipEnclosedPieces` (enemy pieces that change colour after a move), `adjudicateFullBoard`
//! (the game ends on a full board: a draw that `materialCounting` may decide), and the
//! unlimited supply of the C++ built-in `ataxx` (`freeDrops`: no ini key in
//! Fairy-Stockfish; this plugin reads it so that `fsf-builtins.ini` can write `ataxx`).
//! Passing (`passOnStalemate`) is [`crate::pass`], material counting [`crate::material`].

use houserules_plugin_api::{Cell, Color, Move, Position, Square, SquareSet};

/// Fairy-Stockfish's `EnclosingRule`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enclosing {
    /// A drop must enclose enemy pieces between it and an own piece (reversi).
    Reversi,
    /// A drop must touch an own piece (ataxx).
    Ataxx,
    /// As a drop rule the same as `Ataxx`; as a flip rule: a move flips its neighbours, a
    /// drop only next to an own piece.
    Quadwrangle,
    /// A drop may not touch an enemy piece orthogonally (snort).
    Snort,
    /// A drop slides in from an edge (connect four from any side).
    Anyside,
    /// A drop lands on the first rank or on a piece (connect four).
    Top,
}

impl Enclosing {
    /// The rule an ini value names (`none`: `None`).
    pub fn parse(v: &str) -> Result<Option<Enclosing>, String> {
        Ok(Some(match v {
            "reversi" => Enclosing::Reversi,
            "ataxx" => Enclosing::Ataxx,
            "quadwrangle" => Enclosing::Quadwrangle,
            "snort" => Enclosing::Snort,
            "anyside" => Enclosing::Anyside,
            "top" => Enclosing::Top,
            "none" => return Ok(None),
            _ => {
                return Err(format!(
                    "`{v}` is not an enclosing rule (reversi, ataxx, quadwrangle, snort, \
                     anyside, top, none)"
                ))
            }
        }))
    }
}

/// The placement rules of a variant.
#[derive(Debug, Clone, Default)]
pub struct Placement {
    /// Where drops may go.
    pub drop_rule: Option<Enclosing>,
    /// While one of these squares is empty, drops go there only.
    pub drop_start: SquareSet,
    /// Which enemy pieces a move turns.
    pub flip: Option<Enclosing>,
    /// Pieces are dropped from an unlimited supply.
    pub free_drops: bool,
    /// A full board ends the game.
    pub adjudicate_full_board: bool,
}

/// The 8 directions.
pub(crate) const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// Adding a square that may be missing.
trait ExtendOpt {
    fn extend_opt(&mut self, sq: Option<Square>);
}

impl ExtendOpt for SquareSet {
    fn extend_opt(&mut self, sq: Option<Square>) {
        if let Some(s) = sq {
            self.insert(s);
        }
    }
}

/// What a placement rule sees on a square.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Seen {
    Ours,
    Theirs,
    Empty,
    Wall,
}

impl Placement {
    /// Whether any rule is set.
    pub fn active(&self) -> bool {
        self.drop_rule.is_some()
            || !self.drop_start.is_empty()
            || self.flip.is_some()
            || self.free_drops
            || self.adjudicate_full_board
    }

    fn seen(pos: &Position, sq: Square, us: Color) -> Seen {
        let c = pos.get(sq);
        if c.is_hole() {
            Seen::Wall
        } else if c.is_color(us) {
            Seen::Ours
        } else if c.is_empty() {
            Seen::Empty
        } else {
            Seen::Theirs
        }
    }

    /// Squares of the board rectangle (holes included).
    fn squares(files: u8, ranks: u8) -> impl Iterator<Item = Square> {
        (0..ranks).flat_map(move |r| (0..files).map(move |f| Square::new(f, r)))
    }

    fn near(
        pos: &Position,
        sq: Square,
        us: Color,
        files: u8,
        ranks: u8,
        steps: &[(i8, i8)],
        want: Seen,
    ) -> bool {
        steps.iter().any(|&(df, dr)| {
            sq.offset_within(df, dr, files, ranks)
                .is_some_and(|n| Self::seen(pos, n, us) == want)
        })
    }

    /// Where the side to move may drop (Fairy-Stockfish's `drop_region` for
    /// `enclosingDrop`), `None` when the rules do not restrict drops.
    fn drop_squares(&self, pos: &Position, files: u8, ranks: u8) -> Option<SquareSet> {
        self.drop_squares_of(pos, pos.side_to_move, files, ranks)
    }

    /// Where `us` may drop (whether or not it is `us`'s turn); `None` when the rules do not
    /// restrict drops. The engine's evaluation counts them for both sides.
    pub fn drop_squares_of(
        &self,
        pos: &Position,
        us: Color,
        files: u8,
        ranks: u8,
    ) -> Option<SquareSet> {
        let empty = |s: Square| pos.get(s).is_empty();
        if Self::squares(files, ranks).any(|s| self.drop_start.contains(s) && empty(s)) {
            return Some(self.drop_start);
        }
        let rule = self.drop_rule?;
        let occupied = |f: i16, r: i16| {
            f >= 0
                && r >= 0
                && (f as u8) < files
                && (r as u8) < ranks
                && !pos.get(Square::new(f as u8, r as u8)).is_empty()
        };
        let mut set = SquareSet::EMPTY;
        match rule {
            Enclosing::Reversi => {
                for s in Self::squares(files, ranks).filter(|&s| empty(s)) {
                    if !Self::near(pos, s, us, files, ranks, &KING_STEPS, Seen::Theirs) {
                        continue;
                    }
                    // A line over enemy pieces to an own piece that does not touch `s`;
                    // walls do not stop the line (they are off Fairy-Stockfish's board).
                    let encloses = KING_STEPS.iter().any(|&(df, dr)| {
                        let mut at = s;
                        let mut n = 0;
                        while let Some(next) = at.offset_within(df, dr, files, ranks) {
                            n += 1;
                            match Self::seen(pos, next, us) {
                                Seen::Theirs | Seen::Wall => at = next,
                                Seen::Ours => return n > 1,
                                Seen::Empty => return false,
                            }
                        }
                        false
                    });
                    if encloses {
                        set.insert(s);
                    }
                }
            }
            Enclosing::Ataxx | Enclosing::Quadwrangle => {
                for s in Self::squares(files, ranks).filter(|&s| empty(s)) {
                    if Self::near(pos, s, us, files, ranks, &KING_STEPS, Seen::Ours) {
                        set.insert(s);
                    }
                }
            }
            Enclosing::Snort => {
                for s in Self::squares(files, ranks).filter(|&s| empty(s)) {
                    if !Self::near(pos, s, us, files, ranks, &KING_STEPS[..4], Seen::Theirs) {
                        set.insert(s);
                    }
                }
            }
            Enclosing::Top => {
                for s in Self::squares(files, ranks).filter(|&s| empty(s)) {
                    if s.rank() == 0 || occupied(s.file() as i16, s.rank() as i16 - 1) {
                        set.insert(s);
                    }
                }
            }
            Enclosing::Anyside => {
                // Fairy-Stockfish's rule: from each side whose edge square of a line is
                // empty, the first (lowest) empty square of the line next to a piece or
                // to the far edge.
                let (fmax, rmax) = (files as i16 - 1, ranks as i16 - 1);
                let first = |cands: &mut dyn Iterator<Item = (i16, i16)>| {
                    for (f, r) in cands {
                        if !occupied(f, r) {
                            return Some(Square::new(f as u8, r as u8));
                        }
                    }
                    None
                };
                for r in 0..=rmax {
                    if !occupied(0, r) {
                        set.extend_opt(first(
                            &mut (0..=fmax)
                                .filter(|&f| f == fmax || occupied(f + 1, r))
                                .map(|f| (f, r)),
                        ));
                    }
                    if !occupied(fmax, r) {
                        set.extend_opt(first(
                            &mut (0..=fmax)
                                .filter(|&f| f == 0 || occupied(f - 1, r))
                                .map(|f| (f, r)),
                        ));
                    }
                }
                for f in 0..=fmax {
                    if !occupied(f, 0) {
                        set.extend_opt(first(
                            &mut (0..=rmax)
                                .filter(|&r| r == rmax || occupied(f, r + 1))
                                .map(|r| (f, r)),
                        ));
                    }
                    if !occupied(f, rmax) {
                        set.extend_opt(first(
                            &mut (0..=rmax)
                                .filter(|&r| r == 0 || occupied(f, r - 1))
                                .map(|r| (f, r)),
                        ));
                    }
                }
            }
        }
        Some(set)
    }

    /// Removes the drops the rules forbid from the legal moves `out`.
    pub fn restrict_drops(&self, pos: &Position, out: &mut Vec<Move>, files: u8, ranks: u8) {
        if let Some(allowed) = self.drop_squares(pos, files, ranks) {
            out.retain(|m| !m.is_drop() || allowed.contains(m.to));
        }
    }

    /// Whether the game can end while moves remain (a full board).
    pub fn ends_with_moves(&self) -> bool {
        self.adjudicate_full_board
    }

    /// After the move `m` of `us` (made on `pos`): the enemy pieces it turns.
    pub fn flip(&self, pos: &mut Position, m: Move, us: Color, files: u8, ranks: u8) {
        let Some(rule) = self.flip else { return };
        let to = m.to;
        let mut flipped: Vec<Square> = Vec::new();
        match rule {
            Enclosing::Reversi => {
                for &(df, dr) in &KING_STEPS {
                    let mut line = Vec::new();
                    let mut at = to;
                    while let Some(next) = at.offset_within(df, dr, files, ranks) {
                        match Self::seen(pos, next, us) {
                            Seen::Theirs => {
                                line.push(next);
                                at = next;
                            }
                            Seen::Ours => {
                                flipped.extend(&line);
                                break;
                            }
                            _ => break,
                        }
                    }
                }
            }
            Enclosing::Ataxx | Enclosing::Quadwrangle => {
                if rule == Enclosing::Ataxx
                    || !m.is_drop()
                    || Self::near(pos, to, us, files, ranks, &KING_STEPS, Seen::Ours)
                {
                    for &(df, dr) in &KING_STEPS {
                        if let Some(n) = to.offset_within(df, dr, files, ranks) {
                            if Self::seen(pos, n, us) == Seen::Theirs {
                                flipped.push(n);
                            }
                        }
                    }
                }
            }
            // Fairy-Stockfish turns nothing for the other rules.
            Enclosing::Snort | Enclosing::Anyside | Enclosing::Top => {}
        }
        for s in flipped {
            if let Some(k) = pos.get(s).kind() {
                pos.set(s, Cell::piece(k, us));
            }
        }
    }

    /// Fills the unlimited supply: one of each kind in `base` kinds, for both sides.
    pub fn fill_supply(&self, pos: &mut Position, kinds: usize) {
        if self.free_drops {
            for hand in pos.hands.iter_mut() {
                for slot in hand.iter_mut().take(kinds) {
                    *slot = 1;
                }
            }
        }
    }

    /// Whether the board is full (`adjudicateFullBoard`): the game ends, a draw that
    /// material counting may decide.
    pub fn full_board(&self, pos: &Position, files: u8, ranks: u8) -> bool {
        self.adjudicate_full_board && Self::squares(files, ranks).all(|s| !pos.get(s).is_empty())
    }
}
