//! Xiangqi's rules beyond Betza, as Fairy-Stockfish keys them:
//!
//! - `mobilityRegion{White,Black}{Piece}`: a piece moves, captures, attacks and is dropped
//!   only inside its region (the palace, the own half of the board);
//! - the `soldier`: `fsW`, but its sideways steps only from `soldierPromotionRank` on
//!   (across the river);
//! - `flyingGeneral`: no move may leave the two kings facing each other on an open rank or
//!   file (Fairy-Stockfish tests it like a rook attack from the king, as a legality rule:
//!   it is not check).
//!
//! The first two become data of the shared generator (`PieceRules::region`,
//! `PieceRules::zone_leaps`); the flying general is a filter on the generated moves.

use crate::engine::{Fairy, Kind};
use crate::spec::{self, Spec};
use houserules_movegen::{betza, Movement};
use houserules_plugin_api::{Color, Move, MoveFlags, Position, Square, SquareSet};

/// Per kind, its type's mobility region (`None`: the whole board, as Fairy-Stockfish reads
/// an empty region).
pub fn mobility_regions(spec: &Spec, kinds: &[Kind]) -> Vec<Option<[SquareSet; 2]>> {
    kinds
        .iter()
        .map(|k| {
            let r = spec.mobility_region.get(&k.ty)?;
            let all = board(spec);
            let side = |s: SquareSet| {
                if s.is_empty() {
                    all
                } else {
                    s.intersection(all)
                }
            };
            (!r[0].is_empty() || !r[1].is_empty()).then(|| [side(r[0]), side(r[1])])
        })
        .collect()
}

/// Per kind, the soldier's sideways steps and where it has them: from its
/// `soldierPromotionRank` on, counted from each side's first rank.
pub fn zone_leaps(spec: &Spec, kinds: &[Kind]) -> Vec<Option<(Movement, [SquareSet; 2])>> {
    let from = spec.soldier_promotion_rank;
    let ranks = spec.max_rank;
    let zone = [
        ranks_where(spec, |r| r >= from),
        ranks_where(spec, |r| ranks - 1 - r >= from),
    ];
    kinds
        .iter()
        .map(|k| {
            (k.ty == spec::SOLDIER)
                .then(|| betza::parse("sW", betza::Dialect::Houserules).ok())
                .flatten()
                .map(|sideways| (sideways, zone))
        })
        .collect()
}

/// The soldier's moves everywhere (its sideways steps come from [`zone_leaps`]).
pub const SOLDIER_BETZA: &str = "fW";

/// Drop regions narrowed to the mobility regions (Fairy-Stockfish drops a piece only where
/// it may stand).
pub fn restrict_drops(
    drop_region: &mut [Option<[SquareSet; 2]>],
    regions: &[Option<[SquareSet; 2]>],
    spec: &Spec,
) {
    for (d, r) in drop_region.iter_mut().zip(regions) {
        if let Some(r) = r {
            let all = board(spec);
            let old = d.unwrap_or([all, all]);
            *d = Some([old[0].intersection(r[0]), old[1].intersection(r[1])]);
        }
    }
}

fn board(spec: &Spec) -> SquareSet {
    ranks_where(spec, |_| true)
}

fn ranks_where(spec: &Spec, keep: impl Fn(u8) -> bool) -> SquareSet {
    (0..spec.max_rank)
        .filter(|&r| keep(r))
        .flat_map(|r| (0..spec.max_file).map(move |f| Square::new(f, r)))
        .collect()
}

impl Fairy {
    /// The royal king of `color` (Fairy-Stockfish's piece type `king`), if it has one.
    pub(crate) fn king_square(&self, pos: &Position, color: Color) -> Option<Square> {
        self.king_squares(pos, color).iter().next()
    }

    /// The royal kings of `color` (see [`Fairy::king_square`]).
    pub(crate) fn king_squares(&self, pos: &Position, color: Color) -> SquareSet {
        self.squares_where(pos, color, |k| {
            let k = &self.kinds[k as usize];
            k.ty == spec::KING && !k.promoted
        })
    }

    /// The line from the mover's king `ours` to the other side's only king `theirs`, on a
    /// common rank or file, and what stands between them.
    pub(crate) fn kings_line(&self, pos: &Position, ours: Square, theirs: Square) -> KingsLine {
        let step = |a: u8, b: u8| (b as i8 - a as i8).signum();
        let (df, dr) = (
            step(ours.file(), theirs.file()),
            step(ours.rank(), theirs.rank()),
        );
        let mut line = KingsLine {
            ours,
            theirs,
            between: 0,
            blocker: None,
        };
        let mut sq = ours;
        while let Some(next) = sq.offset_within(df, dr, self.files, self.ranks) {
            if next == theirs {
                break;
            }
            sq = next;
            if !pos.get(sq).is_empty() {
                line.between += 1;
                line.blocker.get_or_insert(sq);
            }
        }
        line
    }

    /// Whether the first piece on a rank or file line from `from` is the enemy king, with
    /// `vacated` empty and `filled` occupied (a piece there blocks, even the king).
    pub(crate) fn sees_king(
        &self,
        pos: &Position,
        from: Square,
        them: Color,
        vacated: Option<Square>,
        filled: Option<Square>,
    ) -> bool {
        for (df, dr) in [(1i8, 0i8), (-1, 0), (0, 1), (0, -1)] {
            let mut sq = from;
            while let Some(next) = sq.offset_within(df, dr, self.files, self.ranks) {
                sq = next;
                if Some(sq) == filled {
                    break;
                }
                if Some(sq) == vacated {
                    continue;
                }
                let cell = pos.get(sq);
                if cell.is_empty() {
                    continue;
                }
                if cell.color() == Some(them)
                    && cell.kind().is_some_and(|k| {
                        let k = &self.kinds[k as usize];
                        k.ty == spec::KING && !k.promoted
                    })
                {
                    return true;
                }
                break;
            }
        }
        false
    }

    /// Fairy-Stockfish's flying general rule: whether `m` leaves the mover's king facing
    /// the enemy king (the origin emptied, the destination filled). A castling king may not
    /// pass or reach a facing square (its rook still at home); en passant captures are
    /// exempt, as Fairy-Stockfish's legality test returns before the rule for them.
    /// `king`: the mover's king square ([`Fairy::king_square`], found once for all the moves
    /// of a position).
    pub(crate) fn kings_face_after(&self, pos: &Position, m: Move, king: Option<Square>) -> bool {
        if m.flags.contains(MoveFlags::EN_PASSANT) {
            return false;
        }
        let us = pos.side_to_move;
        let them = us.opposite();
        let Some(king) = king else {
            return false;
        };
        if m.is_castle() {
            // From the king's destination back towards its origin, rook still at home.
            let to = m.via;
            let step: i8 = if to.file() > m.from.file() { -1 } else { 1 };
            let mut sq = to;
            while sq != m.from {
                if self.sees_king(pos, sq, them, Some(m.from), None) {
                    return true;
                }
                match sq.offset_within(step, 0, self.files, self.ranks) {
                    Some(n) => sq = n,
                    None => break,
                }
            }
            return false;
        }
        let vacated = (!m.is_drop()).then_some(m.from);
        let eye = if vacated == Some(king) { m.to } else { king };
        self.sees_king(pos, eye, them, vacated, Some(m.to))
    }
}

/// Two kings on a common rank or file, the other side's its only king, with the pieces
/// between them counted once per position ([`Fairy::kings_line`]): whether a move that is
/// neither the king's nor a castle leaves them facing is then a question of its two squares,
/// not a scan of the board per move.
pub(crate) struct KingsLine {
    ours: Square,
    theirs: Square,
    /// Pieces strictly between the kings.
    between: u32,
    /// The one nearest the mover's king.
    blocker: Option<Square>,
}

impl KingsLine {
    /// [`Fairy::kings_face_after`] for `m`, which neither moves the mover's king nor castles.
    pub(crate) fn faces_after(&self, m: &Move) -> bool {
        // En passant is exempt; a piece landing between the kings blocks them; the capture
        // of the other king leaves none to face.
        if m.flags.contains(MoveFlags::EN_PASSANT) || m.to == self.theirs || self.is_between(m.to) {
            return false;
        }
        match self.between {
            0 => true,
            1 => !m.is_drop() && Some(m.from) == self.blocker,
            _ => false,
        }
    }

    /// Whether `sq` lies strictly between the two kings.
    fn is_between(&self, sq: Square) -> bool {
        let (a, b) = (self.ours, self.theirs);
        let within = |x: u8, p: u8, q: u8| p.min(q) < x && x < p.max(q);
        if a.file() == b.file() {
            sq.file() == a.file() && within(sq.rank(), a.rank(), b.rank())
        } else {
            sq.rank() == a.rank() && within(sq.file(), a.file(), b.file())
        }
    }
}
