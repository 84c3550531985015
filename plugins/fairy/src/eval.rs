//! The engine's evaluation terms of the fairy plugin's goals that material does not see:
//! open lines of connect-N variants (tictacrook), and the flag race (racing kings, king of
//! the hill: a piece to reach a region).
//!
//! Open lines:
//! Every segment of N cells in a row (horizontal, vertical, both diagonals) that holds
//! connecting pieces of one side only, and otherwise empty cells, is a threat of that side:
//! worth more, and much more, the fuller it is (a segment one piece short is a threat to win
//! next move). A segment with a piece of the other side, a piece that does not connect, or a
//! hole is blocked for both.

use houserules_plugin_api::{Color, Position, Square, SquareSet};

/// Centipawns of a one-side segment holding `k` of its `n` pieces: 0 when empty, growing
/// fourfold with each piece, and a win-next-move threat at `n - 1`.
fn segment_value(k: u32, n: u32) -> i32 {
    if k == 0 {
        return 0;
    }
    let base = 4i32.pow((k - 1).min(6));
    if k + 1 >= n {
        // One short: the side to complete it next wins (scaled so two such threats dominate
        // any material of these games).
        base * 8
    } else {
        base
    }
}

/// The connect-N term for White: open segments of `n` cells for `kinds` (bit mask).
pub fn connect_threats(pos: &Position, kinds: u64, n: u32) -> i32 {
    if n < 2 {
        return 0;
    }
    let (files, ranks) = (pos.files() as i32, pos.ranks() as i32);
    let len = n as i32;
    let mut score = 0;
    for (df, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for r in 0..ranks {
            for f in 0..files {
                let (ef, er) = (f + df * (len - 1), r + dr * (len - 1));
                if ef < 0 || ef >= files || er < 0 || er >= ranks {
                    continue;
                }
                let mut counts = [0u32; 2];
                let mut blocked = false;
                for i in 0..len {
                    let sq = Square::new((f + df * i) as u8, (r + dr * i) as u8);
                    let c = pos.get(sq);
                    if c.is_empty() {
                        continue;
                    }
                    match (c.kind(), c.color()) {
                        (Some(k), Some(color)) if k < 64 && kinds & (1 << k) != 0 => {
                            counts[color.index()] += 1;
                        }
                        _ => {
                            blocked = true;
                            break;
                        }
                    }
                }
                if blocked || (counts[0] > 0 && counts[1] > 0) {
                    continue;
                }
                score += segment_value(counts[Color::White.index()], n);
                score -= segment_value(counts[Color::Black.index()], n);
            }
        }
    }
    score
}

/// What a piece of a type whose loss wins costs its side beyond twice its value
/// (centipawns): with it, even a piece valued at nothing is better gone.
pub const PIECE_BURDEN: i32 = 30;

/// Centipawns of a flag piece `d` king steps from its region: Fairy-Stockfish's scale for
/// its capture-the-flag term, steep near the goal (a step from it is worth a rook and more).
fn flag_value(d: u32) -> i32 {
    2500 / (1 + (d * d) as i32)
}

/// The flag race for White: per side with a region, its flag piece (of the kinds in
/// `kinds[side]`, bit mask) nearest its region (`regions[side]`), scored by its king steps
/// to it. A king's distance stands in for any piece's: the search sees the rest.
pub fn flag_race(pos: &Position, regions: &[SquareSet; 2], kinds: [u64; 2]) -> i32 {
    let mut score = 0;
    for color in [Color::White, Color::Black] {
        let region = &regions[color.index()];
        if region.is_empty() {
            continue;
        }
        let mask = kinds[color.index()];
        let best = pos
            .pieces_of(color)
            .filter(|&(_, k)| k < 64 && mask & (1 << k) != 0)
            .map(|(sq, _)| {
                region
                    .iter()
                    .map(|t| {
                        sq.file()
                            .abs_diff(t.file())
                            .max(sq.rank().abs_diff(t.rank()))
                    })
                    .min()
                    .unwrap_or(u8::MAX) as u32
            })
            .min();
        if let Some(d) = best {
            let v = flag_value(d);
            score += if color == Color::White { v } else { -v };
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use houserules_plugin_api::Cell;

    fn board(pieces: &[(&str, Color)]) -> Position {
        let mut pos = Position::empty(8, 8);
        for &(sq, c) in pieces {
            pos.set(Square::parse(sq).unwrap(), Cell::piece(0, c));
        }
        pos
    }

    #[test]
    fn empty_and_symmetric_boards_are_level() {
        assert_eq!(connect_threats(&Position::empty(8, 8), 1, 5), 0);
        let pos = board(&[("d4", Color::White), ("d5", Color::Black)]);
        assert_eq!(connect_threats(&pos, 1, 5), 0);
    }

    #[test]
    fn a_longer_line_is_worth_more() {
        let two = board(&[("c4", Color::White), ("d4", Color::White)]);
        let three = board(&[
            ("c4", Color::White),
            ("d4", Color::White),
            ("e4", Color::White),
        ]);
        let four = board(&[
            ("b4", Color::White),
            ("c4", Color::White),
            ("d4", Color::White),
            ("e4", Color::White),
        ]);
        let (s2, s3, s4) = (
            connect_threats(&two, 1, 5),
            connect_threats(&three, 1, 5),
            connect_threats(&four, 1, 5),
        );
        assert!(0 < s2 && s2 < s3 && s3 < s4, "{s2} {s3} {s4}");
        // A four is a threat to win: far above a three.
        assert!(s4 > 4 * s3, "{s3} {s4}");
    }

    #[test]
    fn blocked_segments_count_for_nobody() {
        // Black's piece at f4 and a3 cuts White's row: the only open five-segments of the row
        // through b4-e4 contain f4 or a4.
        let open = board(&[
            ("b4", Color::White),
            ("c4", Color::White),
            ("d4", Color::White),
            ("e4", Color::White),
        ]);
        let mut blocked = open.clone();
        blocked.set(Square::parse("a4").unwrap(), Cell::piece(0, Color::Black));
        blocked.set(Square::parse("f4").unwrap(), Cell::piece(0, Color::Black));
        assert!(connect_threats(&blocked, 1, 5) < connect_threats(&open, 1, 5));
        // A piece that does not connect blocks too (kind 1 is not in the mask).
        let mut other = open.clone();
        other.set(Square::parse("f4").unwrap(), Cell::piece(1, Color::White));
        assert!(connect_threats(&other, 1, 5) < connect_threats(&open, 1, 5));
    }

    /// The eighth rank for White, the first for Black (racing kings has both on the eighth).
    fn regions(white_rank: u8, black_rank: u8) -> [SquareSet; 2] {
        let rank = |r: u8| (0..8).map(|f| Square::new(f, r)).collect::<SquareSet>();
        [rank(white_rank), rank(black_rank)]
    }

    #[test]
    fn a_flag_piece_nearer_its_region_is_worth_more() {
        let regions = regions(7, 7);
        let at = |sq: &str| board(&[(sq, Color::White)]);
        let (far, mid, near) = (
            flag_race(&at("d2"), &regions, [1, 1]),
            flag_race(&at("d5"), &regions, [1, 1]),
            flag_race(&at("d7"), &regions, [1, 1]),
        );
        assert!(0 < far && far < mid && mid < near, "{far} {mid} {near}");
        // A step from the goal outweighs a rook.
        assert!(near >= 500, "{near}");
        // Only the flag kinds count (kind 0 is not in a mask of kind 1), and a side with no
        // region scores nothing.
        assert_eq!(flag_race(&at("d7"), &regions, [2, 2]), 0);
        let none = [SquareSet::EMPTY, SquareSet::EMPTY];
        assert_eq!(flag_race(&at("d7"), &none, [1, 1]), 0);
    }

    #[test]
    fn the_flag_race_is_symmetric() {
        let pos = board(&[("e4", Color::White), ("e5", Color::Black)]);
        // White to rank 8 and Black to rank 1: both three steps away.
        assert_eq!(flag_race(&pos, &regions(7, 0), [1, 1]), 0);
        // Both to rank 8: Black is nearer.
        assert!(flag_race(&pos, &regions(7, 7), [1, 1]) < 0);
    }

    #[test]
    fn black_threats_count_against_white() {
        let pos = board(&[
            ("c4", Color::Black),
            ("d4", Color::Black),
            ("e4", Color::Black),
        ]);
        assert!(connect_threats(&pos, 1, 5) < 0);
    }
}
