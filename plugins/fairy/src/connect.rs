//! Fairy-Stockfish's connection rules beyond `connectN` along every line: the lines it looks
//! along (`connectHorizontal`, `connectVertical`, `connectDiagonal`), a tight square of N x N
//! pieces (`connectNxN`), N pieces on one line with anything between them (`collinearN`), and
//! the value of connecting for the side that connects (`connectValue`), and a chain of pieces
//! from one region to another (`connectRegion1White` ... `connectRegion2Black`). Only the
//! pieces of the side that just moved are looked at.

use houserules_plugin_api::{Color, Position, Square, SquareSet};

/// The connection settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConnectRules {
    /// Look along ranks.
    pub horizontal: bool,
    /// Look along files.
    pub vertical: bool,
    /// Look along both diagonals.
    pub diagonal: bool,
    /// A tight N x N square wins (0 = off).
    pub nxn: u32,
    /// N pieces on one line, gaps allowed (0 = off).
    pub collinear: u32,
    /// Per colour, the regions a chain of pieces connects (`connectRegion1*`, `connectRegion2*`;
    /// empty = off).
    pub regions: [[SquareSet; 2]; 2],
}

impl Default for ConnectRules {
    fn default() -> Self {
        ConnectRules {
            horizontal: true,
            vertical: true,
            diagonal: true,
            nxn: 0,
            collinear: 0,
            regions: [[SquareSet::EMPTY; 2]; 2],
        }
    }
}

impl ConnectRules {
    /// Whether every line is looked along (the generator's connect-N then applies).
    pub fn all_lines(&self) -> bool {
        self.horizontal && self.vertical && self.diagonal
    }

    /// Whether a rule of this module is on.
    pub fn any(&self) -> bool {
        self.nxn > 0
            || self.collinear > 0
            || self
                .regions
                .iter()
                .any(|r| !r[0].is_empty() || !r[1].is_empty())
    }

    /// The line directions looked along, as Fairy-Stockfish lists them.
    fn directions(&self) -> Vec<(i8, i8)> {
        let mut d = Vec::new();
        if self.horizontal {
            d.push((1, 0));
        }
        if self.vertical {
            d.push((0, 1));
        }
        if self.diagonal {
            d.push((1, 1));
            d.push((1, -1));
        }
        d
    }

    /// Whether the pieces of `mover` on the squares `mine` holds connect by any of these
    /// rules, `n` being `connectN` (0 = off).
    pub fn connected(
        &self,
        pos: &Position,
        n: u32,
        mover: Color,
        mine: impl Fn(Square) -> bool,
    ) -> bool {
        let (files, ranks) = (pos.files(), pos.ranks());
        let at = |sq: Square, df: i8, dr: i8, k: i8| sq.offset_within(df * k, dr * k, files, ranks);
        let squares: Vec<Square> = (0..ranks)
            .flat_map(|r| (0..files).map(move |f| Square::new(f, r)))
            .filter(|&sq| mine(sq))
            .collect();
        let dirs = self.directions();
        // N in a row along the chosen lines.
        if n > 0 {
            for &(df, dr) in &dirs {
                if squares
                    .iter()
                    .any(|&sq| (1..n as i8).all(|k| at(sq, df, dr, k).is_some_and(&mine)))
                {
                    return true;
                }
            }
        }
        // A tight square: the piece and the N - 1 squares right of and below it, and so on.
        if self.nxn > 0 {
            let size = self.nxn as i8;
            if squares.iter().any(|&sq| {
                (0..size).all(|i| {
                    (0..size).all(|j| {
                        at(sq, 1, 0, i)
                            .and_then(|s| at(s, 0, -1, j))
                            .is_some_and(&mine)
                    })
                })
            }) {
                return true;
            }
        }
        if self.region_chain(pos, mover, &squares, &dirs) {
            return true;
        }
        // Collinear: the most pieces on one line through a piece, gaps allowed.
        if self.collinear > 0 {
            for &(df, dr) in &dirs {
                for &sq in &squares {
                    let mut count = 1;
                    for sign in [-1i8, 1] {
                        let mut k = 1;
                        while let Some(s) = at(sq, df * sign, dr * sign, k) {
                            count += u32::from(mine(s));
                            k += 1;
                        }
                    }
                    if count >= self.collinear {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// A chain of the side's pieces from its first region to its second. As in
    /// Fairy-Stockfish, the chain grows from the pieces in the first region one step at a
    /// time along the looked-at directions in their positive sense only (east, north,
    /// north-east, south-east), and a piece it reaches in the second region connects.
    fn region_chain(
        &self,
        pos: &Position,
        mover: Color,
        squares: &[Square],
        dirs: &[(i8, i8)],
    ) -> bool {
        let [from, target] = self.regions[mover.index()];
        let pieces: SquareSet = squares.iter().copied().collect();
        let (files, ranks) = (pos.files(), pos.ranks());
        let mut current: SquareSet = squares
            .iter()
            .copied()
            .filter(|&s| from.contains(s))
            .collect();
        if current.is_empty() || !squares.iter().any(|&s| target.contains(s)) {
            return false;
        }
        loop {
            let mut grown = SquareSet::EMPTY;
            for &(df, dr) in dirs {
                let reach: Vec<Square> = current
                    .iter()
                    .chain(grown.iter())
                    .filter_map(|s| s.offset_within(df, dr, files, ranks))
                    .filter(|&s| pieces.contains(s))
                    .collect();
                for s in reach {
                    grown.insert(s);
                }
            }
            if grown.iter().any(|s| target.contains(s)) {
                return true;
            }
            if grown.iter().all(|s| current.contains(s)) {
                return false;
            }
            for s in grown.iter().collect::<Vec<_>>() {
                current.insert(s);
            }
        }
    }
}
