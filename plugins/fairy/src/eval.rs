//! The engine's evaluation terms of the fairy plugin's goals that material does not see:
//! open lines of connect-N variants (tictacrook), the flag race (racing kings, king of the
//! hill: a piece to reach a region), pieces as a burden (giveaway: losing them wins), the
//! corners and edges of reversi's flipping games (Othello), the movable stones of games
//! where the last move wins (Clobber) and the territory of wall-leaving races (snailtrail).
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

/// The flag race for White: per side with a region, its `count` flag pieces (of the kinds
/// in `kinds[side]`, bit mask) nearest its region (`regions[side]`), each scored by its king
/// steps to it, and the mean taken (`flagPieceCount`: the race is won when that many stand
/// in the region; with one, the nearest piece alone, and a side with fewer pieces than
/// `count` scores its missing ones as nothing). Scored by the nearest piece alone, a race
/// for three (bajr) stopped once one piece was home: nothing then asked the others to come.
/// A king's distance stands in for any piece's, the search sees the rest; except where one
/// piece wins the race and every flag piece of the side only moves to empty squares
/// (`runners[kind]`: buffalo's buffaloes): there each is scored by its own moves
/// (`runners_race`).
pub fn flag_race(
    pos: &Position,
    regions: &[SquareSet; 2],
    kinds: [u64; 2],
    count: u32,
    runners: &[Option<Reach>],
) -> i32 {
    let count = count.max(1) as usize;
    let mut score = 0;
    for color in [Color::White, Color::Black] {
        let region = &regions[color.index()];
        if region.is_empty() {
            continue;
        }
        let mask = kinds[color.index()];
        let flags = || {
            pos.pieces_of(color)
                .filter(move |&(_, k)| k < 64 && mask & (1 << k) != 0)
        };
        let raced = (count == 1)
            .then(|| runners_race(pos, color, region, flags(), runners))
            .flatten();
        let v = raced.unwrap_or_else(|| {
            let mut distances: Vec<u32> = flags()
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
                .collect();
            distances.sort_unstable();
            let total: i32 = distances.iter().take(count).map(|&d| flag_value(d)).sum();
            total / count as i32
        });
        score += if color == Color::White { v } else { -v };
    }
    score
}

/// The race of `color`'s flag pieces `flags` where every one only moves to empty squares
/// (`runners[kind]`) and any one wins: each free one scores by its own moves to `region` and
/// a blocked one nothing, so that blocking one more runner is worth something while others
/// run. `None` where some flag piece moves otherwise, or there is none.
fn runners_race(
    pos: &Position,
    color: Color,
    region: &SquareSet,
    flags: impl Iterator<Item = (Square, u8)>,
    runners: &[Option<Reach>],
) -> Option<i32> {
    let mut score = None;
    for (sq, k) in flags {
        let reach = runners.get(k as usize)?.as_ref()?;
        let v = reach.moves_to(pos, sq, color, region).map_or(0, flag_value);
        score = Some(score.unwrap_or(0) + v);
    }
    score
}

/// Which goal terms a section's evaluation adds; the manifest says `EVALUATES` when any does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Goals {
    /// Open lines of connect-N (`connectN`).
    pub connect: bool,
    /// The flag race (`flagRegion`).
    pub flag_race: bool,
    /// Every piece counts against its side (`extinctionValue = win`: losing the extinction
    /// types wins).
    pub burden: bool,
    /// Discs that reversi's enclosures flip (`flipEnclosedPieces = reversi`): corners,
    /// stable edges, frontier and the drops each side has (see [`disc_game`]).
    pub discs: bool,
    /// Every piece moves only by capturing and a side left without a move loses (clobber):
    /// the stones still in play (see [`last_move`]).
    pub last_move: bool,
    /// Every piece only moves to empty squares, a wall is left on the square it leaves or
    /// shot after the move, and a side left without a move loses (snailtrail, joust,
    /// amazons): the squares each side reaches first (see [`territory`]).
    pub territory: bool,
}

impl Goals {
    /// Whether any term applies.
    pub fn any(&self) -> bool {
        self.connect
            || self.flag_race
            || self.burden
            || self.discs
            || self.last_move
            || self.territory
    }
}

/// Reversi's terms, in centipawns of a disc valued at 100.
mod discs {
    /// A corner disc never flips and anchors the edges beside it.
    pub const CORNER: i32 = 300;
    /// A disc diagonally next to an empty corner hands the corner to the other side.
    pub const X_SQUARE: i32 = 150;
    /// A disc on an edge next to an empty corner.
    pub const C_SQUARE: i32 = 60;
    /// A disc in an unbroken row of one colour along an edge from a held corner: stable.
    pub const STABLE: i32 = 40;
    /// A disc next to an empty square (the frontier): it gives the other side moves.
    pub const FRONTIER: i32 = 15;
    /// A square a side may drop on, more than the other side has.
    pub const MOBILITY: i32 = 12;
}

/// The flipping game's terms for White (Othello): corners held, the squares that give a
/// corner away while it is empty, stable discs along the edges, the frontier, and the drops
/// each side has (`drops`, White's and Black's). The host counts each disc at its value
/// (`value`), which is the result at the end but a poor guide before it (more discs mean
/// fewer moves): this takes that count back in the proportion of the board still empty.
pub fn disc_game(pos: &Position, value: i32, drops: [u32; 2]) -> i32 {
    let (files, ranks) = (pos.files() as i32, pos.ranks() as i32);
    if files < 2 || ranks < 2 {
        return 0;
    }
    let owner = |f: i32, r: i32| -> Option<Color> {
        if f < 0 || r < 0 || f >= files || r >= ranks {
            return None;
        }
        pos.get(Square::new(f as u8, r as u8)).color()
    };
    let sign = |c: Color| if c == Color::White { 1 } else { -1 };
    let mut score = 0;
    for (cf, cr, df, dr) in [
        (0, 0, 1, 1),
        (files - 1, 0, -1, 1),
        (0, ranks - 1, 1, -1),
        (files - 1, ranks - 1, -1, -1),
    ] {
        match owner(cf, cr) {
            Some(c) => {
                score += sign(c) * discs::CORNER;
                // The rows of its colour that run from it along both edges.
                for (sf, sr, len) in [(df, 0, files), (0, dr, ranks)] {
                    for i in 1..len {
                        if owner(cf + sf * i, cr + sr * i) != Some(c) {
                            break;
                        }
                        score += sign(c) * discs::STABLE;
                    }
                }
            }
            None => {
                if let Some(c) = owner(cf + df, cr + dr) {
                    score -= sign(c) * discs::X_SQUARE;
                }
                for (f, r) in [(cf + df, cr), (cf, cr + dr)] {
                    if let Some(c) = owner(f, r) {
                        score -= sign(c) * discs::C_SQUARE;
                    }
                }
            }
        }
    }
    let mut empty = 0;
    let mut count = [0i32; 2];
    for r in 0..ranks {
        for f in 0..files {
            let sq = Square::new(f as u8, r as u8);
            let cell = pos.get(sq);
            let Some(c) = cell.color() else {
                empty += i32::from(cell.is_empty());
                continue;
            };
            count[c.index()] += 1;
            let frontier = crate::placement::KING_STEPS.iter().any(|&(df, dr)| {
                sq.offset_within(df, dr, files as u8, ranks as u8)
                    .is_some_and(|n| pos.get(n).is_empty())
            });
            if frontier {
                score -= sign(c) * discs::FRONTIER;
            }
        }
    }
    let diff = count[0] - count[1];
    score -= value * diff * empty / (files * ranks);
    let moves = drops[0] as i32 - drops[1] as i32;
    score + moves * discs::MOBILITY
}

/// Centipawns per stone in play (in a group that still has a move), more than the other
/// side has.
pub const STONE_IN_PLAY: i32 = 25;

/// The last-move game's term for White (Clobber: every move a capture, and the side left
/// without one loses). Stones touch along `steps` (the pieces' capture steps, either way);
/// a group of touching stones is in play while two of its stones of different colours touch,
/// and dead once only one colour is left in reach. Both sides always have as many moves as
/// each other in Clobber (a stone next to an enemy stone can take it and be taken by it), so
/// the host's mobility says nothing; what differs is how many stones each side keeps in play,
/// and a group where one side has stones to spare is the one whose last move it makes.
pub fn last_move(pos: &Position, steps: &[(i8, i8)]) -> i32 {
    let (files, ranks) = (pos.files(), pos.ranks());
    let n = files as usize * ranks as usize;
    let index = |sq: Square| sq.rank() as usize * files as usize + sq.file() as usize;
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut live = vec![false; n];
    for r in 0..ranks {
        for f in 0..files {
            let sq = Square::new(f, r);
            let Some(c) = pos.get(sq).color() else {
                continue;
            };
            for &(df, dr) in steps {
                let Some(to) = sq.offset_within(df, dr, files, ranks) else {
                    continue;
                };
                let Some(d) = pos.get(to).color() else {
                    continue;
                };
                let (a, b) = (root(&mut parent, index(sq)), root(&mut parent, index(to)));
                if a != b {
                    parent[a] = b;
                    live[b] |= live[a];
                }
                if c != d {
                    live[b] = true;
                }
            }
        }
    }
    let mut score = 0;
    for r in 0..ranks {
        for f in 0..files {
            let sq = Square::new(f, r);
            let Some(c) = pos.get(sq).color() else {
                continue;
            };
            if live[root(&mut parent, index(sq))] {
                score += if c == Color::White {
                    STONE_IN_PLAY
                } else {
                    -STONE_IN_PLAY
                };
            }
        }
    }
    score
}

/// Centipawns per empty square a side reaches before the other (in fewer moves).
pub const TERRITORY_SQUARE: i32 = 20;
/// Centipawns per square of a side's region more than the other's, once no square can be
/// reached by both: then each side has only its own region left to fill, and the larger
/// one outlasts the other.
pub const SEALED_SQUARE: i32 = 100;

/// How a piece of one kind moves in a race of walls: to empty squares only, by leaps and by
/// slides (a direction and a range, 0 for any), as White makes them (Black's mirrored in rank).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reach {
    /// Leaps to an empty square.
    pub leaps: Vec<(i8, i8)>,
    /// Slides over empty squares: direction and range (0: as far as the board is empty).
    pub slides: Vec<((i8, i8), u8)>,
}

impl Reach {
    /// Calls `visit` with each square a piece of `color` on `from` moves to in one move
    /// (a square may come twice; a slide passes over squares already visited).
    fn each_move(&self, pos: &Position, from: Square, color: Color, mut visit: impl FnMut(Square)) {
        let (files, ranks) = (pos.files(), pos.ranks());
        let side = |dr: i8| if color == Color::White { dr } else { -dr };
        for &(df, dr) in &self.leaps {
            if let Some(to) = from.offset_within(df, side(dr), files, ranks) {
                if pos.get(to).is_empty() {
                    visit(to);
                }
            }
        }
        for &((df, dr), range) in &self.slides {
            let (mut at, mut k) = (from, 0u8);
            while let Some(to) = at.offset_within(df, side(dr), files, ranks) {
                if !pos.get(to).is_empty() || (range != 0 && k == range) {
                    break;
                }
                visit(to);
                (at, k) = (to, k + 1);
            }
        }
    }

    /// The moves a piece of `color` on `from` needs to stand in `region`, over empty squares
    /// (0 where it stands there); `None` where every way is blocked.
    fn moves_to(
        &self,
        pos: &Position,
        from: Square,
        color: Color,
        region: &SquareSet,
    ) -> Option<u32> {
        if region.contains(from) {
            return Some(0);
        }
        let mut seen = SquareSet::EMPTY;
        seen.insert(from);
        let (mut frontier, mut steps) = (vec![from], 0);
        while !frontier.is_empty() {
            steps += 1;
            let (mut next, mut arrived) = (Vec::new(), false);
            for sq in frontier {
                self.each_move(pos, sq, color, |to| {
                    if !seen.contains(to) {
                        seen.insert(to);
                        arrived |= region.contains(to);
                        next.push(to);
                    }
                });
            }
            if arrived {
                return Some(steps);
            }
            frontier = next;
        }
        None
    }
}

/// The race of walls for White (snailtrail, joust, amazons: each piece moves only to empty
/// squares, a wall is left behind or shot after each move, and the side left without a move
/// loses). Material is even and the host's mobility counts only the next move, which walked
/// the engine into pockets it could not leave (78.8% against a random mover over 80 games of
/// snailtrail). What decides these games is room: every empty square is scored for the
/// side whose pieces reach it in fewer moves (a square both reach as fast counts for
/// neither; amazons' "minimum distance" territory), and once the two regions are sealed from
/// each other the larger one wins. `reach[k]`: how kind `k` moves.
pub fn territory(pos: &Position, reach: &[Reach]) -> i32 {
    if let Some(score) = territory_packed(pos, reach) {
        return score;
    }
    let (files, ranks) = (pos.files() as i32, pos.ranks() as i32);
    let n = (files * ranks) as usize;
    // The cells read once: an evaluation in amazons walks about 3,000 steps of slides, and
    // reading each step's cell from the position was most of a search's time.
    let mut empty = [false; 256];
    for r in 0..ranks {
        for f in 0..files {
            empty[(r * files + f) as usize] = pos.get(Square::new(f as u8, r as u8)).is_empty();
        }
    }
    // An empty square of the board.
    let open = |f: i32, r: i32| {
        (0..files).contains(&f) && (0..ranks).contains(&r) && empty[(r * files + f) as usize]
    };
    let mut dist = [[u16::MAX; 256]; 2];
    // The kind that first reached each square: its moves are the ones made from there.
    let mut by = [0u8; 256];
    // Squares reached (file, rank) and the kind that reached them.
    let mut frontier: Vec<(i32, i32, u8)> = Vec::new();
    let mut next = Vec::new();
    for color in [Color::White, Color::Black] {
        let d = &mut dist[color.index()];
        let up = if color == Color::White { 1 } else { -1 };
        frontier.clear();
        frontier.extend(
            pos.pieces_of(color)
                .map(|(sq, k)| (i32::from(sq.file()), i32::from(sq.rank()), k)),
        );
        let mut steps = 0u16;
        while !frontier.is_empty() {
            steps += 1;
            next.clear();
            for &(f, r, kind) in &frontier {
                let Some(rc) = reach.get(kind as usize) else {
                    continue;
                };
                // Marks a square reached, first by this piece.
                let mut visit = |d: &mut [u16; 256], by: &mut [u8; 256], tf: i32, tr: i32| {
                    let i = (tr * files + tf) as usize;
                    if d[i] == u16::MAX {
                        d[i] = steps;
                        by[i] = kind;
                        next.push((tf, tr, kind));
                    }
                };
                for &(df, dr) in &rc.leaps {
                    let (tf, tr) = (f + i32::from(df), r + i32::from(dr) * up);
                    if open(tf, tr) {
                        visit(d, &mut by, tf, tr);
                    }
                }
                for &((df, dr), range) in &rc.slides {
                    let (df, dr) = (i32::from(df), i32::from(dr) * up);
                    let (mut tf, mut tr, mut k) = (f + df, r + dr, 0u8);
                    while open(tf, tr) && (range == 0 || k < range) {
                        let i = (tr * files + tf) as usize;
                        if range == 0 && d[i] != u16::MAX && d[i] + 1 < steps && by[i] == kind {
                            // Reached and moved on from two steps ago or more by this kind,
                            // whose slide this way from there reached every square of the
                            // rest of this one: nothing new lies further.
                            break;
                        }
                        visit(d, &mut by, tf, tr);
                        (tf, tr, k) = (tf + df, tr + dr, k + 1);
                    }
                }
            }
            std::mem::swap(&mut frontier, &mut next);
        }
    }
    regions_score(&dist[0][..n], &dist[1][..n])
}

/// [`territory`] with each side's squares reached at each step as one set of bits, where
/// the board fits in 128 bits with room between the rows for the widest sideways step, and
/// each side's pieces that move are all of one kind (amazons, joust, snailtrail: the kind
/// that reached a square first then cannot matter). Every piece of a step moves at once:
/// about twenty shifts a direction, against a walk of thousands of slide steps.
fn territory_packed(pos: &Position, reach: &[Reach]) -> Option<i32> {
    let moves = |k: u8| {
        reach
            .get(k as usize)
            .filter(|r| !r.leaps.is_empty() || !r.slides.is_empty())
    };
    // Room between the rows for the widest sideways step of any kind: a step off the board
    // lands there, and those bits are never empty.
    let widest = reach
        .iter()
        .flat_map(|r| r.leaps.iter().chain(r.slides.iter().map(|(d, _)| d)))
        .fold(1, |w, &(df, _)| w.max(i32::from(df).abs()));
    let (files, ranks) = (i32::from(pos.files()), i32::from(pos.ranks()));
    let row = files + widest;
    if row * ranks > 128 {
        return None;
    }
    // Each side's moving kind, and where its pieces of that kind stand.
    let mut mover: [Option<u8>; 2] = [None; 2];
    let mut empty = 0u128;
    let mut from = [0u128; 2];
    for r in 0..ranks {
        for f in 0..files {
            let bit = 1u128 << (r * row + f);
            let cell = pos.get(Square::new(f as u8, r as u8));
            if cell.is_empty() {
                empty |= bit;
            } else if let (Some(c), Some(k)) = (cell.color(), cell.kind()) {
                if moves(k).is_some() {
                    match mover[c.index()] {
                        Some(m) if m != k => return None,
                        _ => mover[c.index()] = Some(k),
                    }
                    from[c.index()] |= bit;
                }
            }
        }
    }
    let shift = |x: u128, by: i32| match by {
        0.. if by < 128 => x << by,
        ..0 if by > -128 => x >> -by,
        _ => 0,
    };
    // The empty squares one move from any of `front` for `color`'s moving kind.
    let step = |front: u128, color: Color| {
        let Some(r) = mover[color.index()].and_then(moves) else {
            return 0;
        };
        let up = if color == Color::White { 1 } else { -1 };
        let offset = |(df, dr): (i8, i8)| i32::from(df) + i32::from(dr) * up * row;
        let mut out = 0u128;
        for &d in &r.leaps {
            out |= shift(front, offset(d)) & empty;
        }
        for &(d, range) in &r.slides {
            let by = offset(d);
            let mut x = front;
            let mut k = 0u8;
            while range == 0 || k < range {
                x = shift(x, by) & empty;
                if x == 0 {
                    break;
                }
                out |= x;
                k += 1;
            }
        }
        out
    };
    // In step with each other: a square first reached at step `s` by one side goes to it
    // unless the other reached it before or at the same step.
    let (mut seen, mut front) = ([0u128; 2], from);
    let mut first = [0i32; 2];
    loop {
        let new = [
            step(front[0], Color::White) & !seen[0],
            step(front[1], Color::Black) & !seen[1],
        ];
        if new == [0, 0] {
            break;
        }
        for (c, o) in [(0, 1), (1, 0)] {
            first[c] += (new[c] & !seen[o] & !new[o]).count_ones() as i32;
        }
        seen = [seen[0] | new[0], seen[1] | new[1]];
        front = new;
    }
    let room = seen.map(|s| s.count_ones() as i32);
    Some(territory_score(first, room, seen[0] & seen[1] != 0))
}

/// The territory score of the moves each side needs to reach every square (`u16::MAX`:
/// never): the squares each reaches first, and once no square is reached by both, the size
/// of each sealed region.
fn regions_score(white: &[u16], black: &[u16]) -> i32 {
    let (mut first, mut room, mut shared) = ([0i32; 2], [0i32; 2], false);
    for (&w, &b) in white.iter().zip(black) {
        room[0] += i32::from(w != u16::MAX);
        room[1] += i32::from(b != u16::MAX);
        shared |= w != u16::MAX && b != u16::MAX;
        if w < b {
            first[0] += 1;
        } else if b < w {
            first[1] += 1;
        }
    }
    territory_score(first, room, shared)
}

/// The territory score from the squares each side reaches first, the squares each reaches
/// at all, and whether some square is reached by both.
fn territory_score(first: [i32; 2], room: [i32; 2], shared: bool) -> i32 {
    let mut score = (first[0] - first[1]) * TERRITORY_SQUARE;
    if !shared {
        score += (room[0] - room[1]) * SEALED_SQUARE;
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
            flag_race(&at("d2"), &regions, [1, 1], 1, &[]),
            flag_race(&at("d5"), &regions, [1, 1], 1, &[]),
            flag_race(&at("d7"), &regions, [1, 1], 1, &[]),
        );
        assert!(0 < far && far < mid && mid < near, "{far} {mid} {near}");
        // A step from the goal outweighs a rook.
        assert!(near >= 500, "{near}");
        // Only the flag kinds count (kind 0 is not in a mask of kind 1), and a side with no
        // region scores nothing.
        assert_eq!(flag_race(&at("d7"), &regions, [2, 2], 1, &[]), 0);
        let none = [SquareSet::EMPTY, SquareSet::EMPTY];
        assert_eq!(flag_race(&at("d7"), &none, [1, 1], 1, &[]), 0);
    }

    #[test]
    fn a_race_for_several_pieces_counts_each_of_them() {
        let regions = regions(7, 7);
        let pieces =
            |sqs: &[&str]| board(&sqs.iter().map(|&s| (s, Color::White)).collect::<Vec<_>>());
        // Three to bring home: one there and two far is worth less than one there and one
        // near, and a second one home is worth more again.
        let one_home = flag_race(&pieces(&["d8", "a2", "h2"]), &regions, [1, 1], 3, &[]);
        let one_near = flag_race(&pieces(&["d8", "a6", "h2"]), &regions, [1, 1], 3, &[]);
        let two_home = flag_race(&pieces(&["d8", "a8", "h2"]), &regions, [1, 1], 3, &[]);
        assert!(
            one_home < one_near && one_near < two_home,
            "{one_home} {one_near} {two_home}"
        );
        // With one to bring, the nearest alone counts, as before.
        assert_eq!(
            flag_race(&pieces(&["d8", "a2"]), &regions, [1, 1], 1, &[]),
            flag_race(&pieces(&["d8"]), &regions, [1, 1], 1, &[])
        );
        // Fewer pieces than the count: the missing ones score nothing.
        assert_eq!(
            flag_race(&pieces(&["d8"]), &regions, [1, 1], 2, &[]),
            flag_race(&pieces(&["d8"]), &regions, [1, 1], 1, &[]) / 2
        );
    }

    #[test]
    fn runners_that_only_move_count_each_and_not_when_blocked() {
        // Runners stepping forward only (buffalo's `mfW`), White's to the eighth rank.
        let runner = vec![Some(Reach {
            leaps: vec![(0, 1)],
            slides: Vec::new(),
        })];
        let regions = regions(7, 7);
        let race = |pos: &Position| flag_race(pos, &regions, [1, 1], 1, &runner);
        let one = board(&[("a4", Color::White)]);
        let two = board(&[("a4", Color::White), ("c4", Color::White)]);
        assert!(race(&two) > race(&one), "every free runner counts");
        // A Black piece in front of the c-runner stops it: it counts nothing (and the Black
        // piece, a runner that steps away from its region on the eighth rank, nothing either).
        let mut blocked = two.clone();
        blocked.set(Square::parse("c5").unwrap(), Cell::piece(0, Color::Black));
        assert_eq!(race(&blocked), race(&one));
    }

    #[test]
    fn the_flag_race_is_symmetric() {
        let pos = board(&[("e4", Color::White), ("e5", Color::Black)]);
        // White to rank 8 and Black to rank 1: both three steps away.
        assert_eq!(flag_race(&pos, &regions(7, 0), [1, 1], 1, &[]), 0);
        // Both to rank 8: Black is nearer.
        assert!(flag_race(&pos, &regions(7, 7), [1, 1], 1, &[]) < 0);
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

    /// The disc game's terms with no drops on either side.
    fn discs(pieces: &[(&str, Color)]) -> i32 {
        disc_game(&board(pieces), 100, [0, 0])
    }

    #[test]
    fn a_corner_is_worth_more_than_the_squares_that_give_it_away() {
        let corner = discs(&[("a1", Color::White)]);
        let x_square = discs(&[("b2", Color::White)]);
        let c_square = discs(&[("b1", Color::White)]);
        let centre = discs(&[("d4", Color::White)]);
        assert!(
            corner > centre && centre > c_square && c_square > x_square,
            "{corner} {centre} {c_square} {x_square}"
        );
        assert!(x_square < 0, "{x_square}");
        // Next to a held corner b1 is a stable edge disc, worth more than nothing (with the
        // host's count of a disc, 100, which the term takes back in part).
        let held = discs(&[("a1", Color::White), ("b1", Color::White)]);
        assert!(held + 200 > corner + 100, "{held} {corner}");
        // Black's corner counts against White, as much.
        assert_eq!(discs(&[("h8", Color::Black)]), -corner);
    }

    #[test]
    fn discs_early_are_no_gain_and_moves_are() {
        // Four discs to one on an empty board: the host's count (+300) is taken back nearly
        // whole, and the frontier makes more discs a cost.
        let many = board(&[
            ("d4", Color::White),
            ("e4", Color::White),
            ("d5", Color::White),
            ("e5", Color::White),
            ("c3", Color::Black),
        ]);
        assert!(disc_game(&many, 100, [0, 0]) + 300 < 30);
        // More drops than the other side is better.
        assert!(disc_game(&many, 100, [6, 2]) > disc_game(&many, 100, [2, 6]));
    }

    #[test]
    fn stones_count_while_their_group_can_still_move() {
        let orthogonal = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        // c3 c4 (White) touch d4 (Black): all three in play, one White stone more.
        let group = board(&[
            ("c3", Color::White),
            ("c4", Color::White),
            ("d4", Color::Black),
        ]);
        assert_eq!(last_move(&group, &orthogonal), STONE_IN_PLAY);
        // A group of one colour only is dead: the Black stones on h7 and h8 count nothing.
        let mut dead = group.clone();
        dead.set(Square::parse("h7").unwrap(), Cell::piece(0, Color::Black));
        dead.set(Square::parse("h8").unwrap(), Cell::piece(0, Color::Black));
        assert_eq!(last_move(&dead, &orthogonal), STONE_IN_PLAY);
        // Diagonal neighbours do not touch along orthogonal steps.
        let apart = board(&[("c3", Color::White), ("d4", Color::Black)]);
        assert_eq!(last_move(&apart, &orthogonal), 0);
        assert_eq!(last_move(&apart, &[(1, 1), (-1, -1)]), 0);
        assert_eq!(
            last_move(
                &board(&[("c3", Color::White), ("d3", Color::Black)]),
                &orthogonal
            ),
            0
        );
    }

    fn leaper(leaps: &[(i8, i8)]) -> Reach {
        Reach {
            leaps: leaps.to_vec(),
            slides: Vec::new(),
        }
    }

    /// King steps, as snailtrail's `mK` leaps.
    const KING: [(i8, i8); 8] = crate::placement::KING_STEPS;

    /// Territory's distances as first computed: a breadth-first walk over
    /// `Reach::each_move`, every slide scanned to its end from every square reached.
    fn territory_by_each_move(pos: &Position, reach: &[Reach]) -> i32 {
        let files = pos.files() as usize;
        let n = files * pos.ranks() as usize;
        let index = |sq: Square| sq.rank() as usize * files + sq.file() as usize;
        let mut dist = [vec![u16::MAX; n], vec![u16::MAX; n]];
        for color in [Color::White, Color::Black] {
            let d = &mut dist[color.index()];
            let mut frontier: Vec<(Square, u8)> = pos.pieces_of(color).collect();
            let mut steps = 0u16;
            while !frontier.is_empty() {
                steps += 1;
                let mut next = Vec::new();
                for (sq, kind) in frontier {
                    reach[kind as usize].each_move(pos, sq, color, |to| {
                        if d[index(to)] == u16::MAX {
                            d[index(to)] = steps;
                            next.push((to, kind));
                        }
                    });
                }
                frontier = next;
            }
        }
        regions_score(&dist[0], &dist[1])
    }

    /// The territory of the evaluation (the cells read once, slides cut where they run
    /// into ground covered two steps before; or, one moving kind a side, the packed walk)
    /// is the walk's, on random boards of queens, knights, a ranged and a one-way slider
    /// among walls, 10x10 as amazons', 7x9 and 12x12.
    #[test]
    fn territory_agrees_with_a_walk_over_each_move() {
        let queen = Reach {
            leaps: Vec::new(),
            slides: [
                (0, 1),
                (0, -1),
                (1, 0),
                (-1, 0),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ]
            .map(|d| (d, 0))
            .to_vec(),
        };
        let knight = leaper(&[
            (1, 2),
            (2, 1),
            (-1, 2),
            (-2, 1),
            (1, -2),
            (2, -1),
            (-1, -2),
            (-2, -1),
        ]);
        let short = Reach {
            leaps: vec![(0, 1)],
            slides: vec![((1, 0), 2), ((-1, 0), 2), ((0, 1), 0)],
        };
        let reach = vec![queen, knight, short, Reach::default()];
        let mut random = crate::tests::random_below(0x2545_f491_4f6c_dd1d);
        let mut packed = 0;
        for (files, ranks) in [(10, 10), (7, 9), (12, 12)] {
            for i in 0..600 {
                // Half the boards with one moving kind a side, which the packed walk takes.
                let one_kind = (i % 2 == 0).then(|| [random(3) as u8, random(3) as u8]);
                let mut pos = Position::empty(files, ranks);
                for f in 0..files {
                    for r in 0..ranks {
                        let color = match random(10) {
                            0..=2 => {
                                pos.set(Square::new(f, r), Cell::piece(3, Color::White));
                                continue;
                            }
                            3 => Color::White,
                            4 => Color::Black,
                            _ => continue,
                        };
                        let kind = match one_kind {
                            Some(k) => k[color.index()],
                            None => random(3) as u8,
                        };
                        let cell = Cell::piece(kind, color);
                        pos.set(Square::new(f, r), cell);
                    }
                }
                let walked = territory_by_each_move(&pos, &reach);
                assert_eq!(territory(&pos, &reach), walked);
                if let Some(score) = territory_packed(&pos, &reach) {
                    assert_eq!(score, walked);
                    packed += 1;
                }
                // The packed walk takes every board with one moving kind a side that fits
                // in 128 bits with the room between rows (not 12x12), and none with two.
                let fits = files != 12 && one_kind.is_some();
                assert_eq!(territory_packed(&pos, &reach).is_some(), fits);
            }
        }
        assert_eq!(packed, 600);
    }

    #[test]
    fn territory_counts_the_squares_each_side_reaches_first() {
        let leaps = vec![leaper(&KING)];
        // Mirror images: as much room each, whoever is where.
        let level = board(&[("a1", Color::White), ("h8", Color::Black)]);
        assert_eq!(territory(&level, &leaps), 0);
        // The nearer the centre, the more squares a king reaches first.
        let central = board(&[("d4", Color::White), ("h8", Color::Black)]);
        assert!(territory(&central, &leaps) > 10 * TERRITORY_SQUARE);
        let mirrored = board(&[("a1", Color::White), ("e5", Color::Black)]);
        assert!(territory(&mirrored, &leaps) < -10 * TERRITORY_SQUARE);
        // Squares both reach in as many moves count for neither: kings on d1 and e1 of
        // an empty board split it evenly but for the files each reaches first.
        let side_by_side = board(&[("d1", Color::White), ("e1", Color::Black)]);
        assert_eq!(territory(&side_by_side, &leaps), 0);
    }

    #[test]
    fn a_sealed_region_is_worth_its_size() {
        let leaps = vec![leaper(&KING), Reach::default()];
        // A wall (kind 1, no leaps) along the third rank seals White's king into the first
        // two ranks (16 squares, 15 of them empty) from Black's six.
        let mut pos = board(&[("a1", Color::White), ("h8", Color::Black)]);
        for f in 0..8 {
            pos.set(Square::new(f, 2), Cell::piece(1, Color::White));
        }
        let sealed = territory(&pos, &leaps);
        assert_eq!(
            sealed,
            (15 - 39) * TERRITORY_SQUARE + (15 - 39) * SEALED_SQUARE,
            "White reaches 15 squares, Black 39"
        );
        // One gap in the wall and the regions touch: no sealed term, and the gap's square
        // goes to White, two steps from it, against Black's five.
        pos.set(Square::new(0, 2), Cell::EMPTY);
        let open = territory(&pos, &leaps);
        assert!(open > sealed + 20 * SEALED_SQUARE, "{open} {sealed}");
    }

    #[test]
    fn black_leaps_are_mirrored_in_rank() {
        // A piece that only steps forward: White's on a1 reaches the a-file up to a8,
        // Black's on h8 the h-file down to h1; seven squares each.
        let forward = vec![leaper(&[(0, 1)])];
        let pos = board(&[("a1", Color::White), ("h8", Color::Black)]);
        assert_eq!(territory(&pos, &forward), 0);
        let one_sided = board(&[("a1", Color::White), ("h1", Color::Black)]);
        // Black's piece on h1 cannot step down: it reaches nothing, and the regions never
        // meet (sealed): White's seven squares win.
        assert_eq!(
            territory(&one_sided, &forward),
            7 * TERRITORY_SQUARE + 7 * SEALED_SQUARE
        );
    }

    #[test]
    fn slides_reach_a_line_in_one_move_up_to_a_wall() {
        // A rook mover (amazons' queens slide alike) on a1 against a king stepper on h8: the
        // rook reaches the first rank and the a-file in one move, and the rest in two.
        let rook = Reach {
            leaps: Vec::new(),
            slides: vec![((1, 0), 0), ((-1, 0), 0), ((0, 1), 0), ((0, -1), 0)],
        };
        let kinds = vec![rook.clone(), leaper(&KING), Reach::default()];
        let mut pos = Position::empty(8, 8);
        pos.set(Square::parse("a1").unwrap(), Cell::piece(0, Color::White));
        pos.set(Square::parse("h8").unwrap(), Cell::piece(1, Color::Black));
        let open = territory(&pos, &kinds);
        assert!(open > 20 * TERRITORY_SQUARE, "{open}");
        // Walls (kind 2) on b1 and a2 shut the rook in: it reaches nothing, sealed.
        pos.set(Square::parse("b1").unwrap(), Cell::piece(2, Color::White));
        pos.set(Square::parse("a2").unwrap(), Cell::piece(2, Color::White));
        assert_eq!(
            territory(&pos, &kinds),
            -60 * TERRITORY_SQUARE - 60 * SEALED_SQUARE,
            "the king reaches the 60 empty squares"
        );
        // A range: a slide of at most two squares stops there.
        let short = vec![Reach {
            leaps: Vec::new(),
            slides: vec![((0, 1), 2)],
        }];
        let one = board(&[("a1", Color::White)]);
        assert_eq!(
            territory(&one, &short),
            7 * TERRITORY_SQUARE + 7 * SEALED_SQUARE
        );
    }
}
