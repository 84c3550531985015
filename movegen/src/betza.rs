//! Betza notation: Fairy-Stockfish's reading of it, plus the houserules extensions.
//!
//! [`parse`] turns a Betza string into a [`Movement`]: per *initial* flag and per modality
//! (quiet / capture) three direction tables — steps (leaps; distance −1 for lame leaps),
//! slides (distance = range, 0 = unlimited) and hops (distance 1 = grasshopper) — exactly the
//! tables Fairy-Stockfish's `from_betza` builds, so that compiling them the way
//! Fairy-Stockfish does gives its moves (see [`crate::tables`]). A later atom with the same
//! direction replaces an earlier one's distance, as in Fairy-Stockfish's maps.
//!
//! With [`Dialect::Fsf`] the parser behaves as Fairy-Stockfish's: characters it does not know
//! are skipped (and reported in [`Movement::ignored`], so a caller can refuse them). With
//! [`Dialect::Houserules`] unknown characters are errors and three extensions are read:
//! `e` (en passant capture), `a` (a second leg) and `w` (warp). The crate documentation
//! lists the whole dialect.

/// A move vector `(file step, rank step)` from White's side (rank step +1 = towards rank 8).
pub type Vector = (i8, i8);

/// Which reading of Betza to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// Fairy-Stockfish's parser: unknown characters are skipped (and reported).
    Fsf,
    /// Fairy-Stockfish's Betza plus the houserules extensions (`e`, `a`, `w`); anything
    /// else unknown is an error.
    Houserules,
}

/// A direction table: vector → distance, one entry per vector (a later atom replaces the
/// distance of an earlier one, as Fairy-Stockfish's `std::map` does).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Table {
    /// The entries, in first-insertion order.
    pub entries: Vec<(Vector, i32)>,
}

impl Table {
    fn set(&mut self, v: Vector, distance: i32) {
        match self.entries.iter_mut().find(|(w, _)| *w == v) {
            Some(e) => e.1 = distance,
            None => self.entries.push((v, distance)),
        }
    }
    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// Modality index: quiet moves (to an empty square).
pub const QUIET: usize = 0;
/// Modality index: captures.
pub const CAPTURE: usize = 1;

/// A two-leg move (houserules extension `a`): a leap of `first` onto an **empty** square,
/// then a leap of `second` from there. Both legs are plain leaps; the start square is never a
/// destination.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoubleLeap {
    /// Vectors of the first leg.
    pub first: Vec<Vector>,
    /// Vectors of the second leg.
    pub second: Vec<Vector>,
    /// The move may end on an empty square.
    pub quiet: bool,
    /// The move may capture on its destination.
    pub capture: bool,
}

/// A piece's movement as parsed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Movement {
    /// Leaps: `[initial][modality]`. Distance 0 = plain leap, −1 = lame leap (`n`).
    pub steps: [[Table; 2]; 2],
    /// Slides: `[initial][modality]`. Distance 0 = unlimited, else the range.
    pub slider: [[Table; 2]; 2],
    /// Hops (`p`, `g`): `[initial][modality]`. Distance 1 = grasshopper (`g`: lands right
    /// behind the screen), 0 = cannon (after the screen, any distance up to the next piece),
    /// more = a cannon limited to that many squares from its start.
    pub hopper: [[Table; 2]; 2],
    /// Two-leg moves (extension `a`).
    pub double_leaps: Vec<DoubleLeap>,
    /// Warp directions (extension `w`), per modality.
    pub warps: [Vec<Vector>; 2],
    /// Capture leaps that may also take en passant (extension `e`).
    pub en_passant: Vec<Vector>,
    /// Characters the Fairy-Stockfish dialect skipped: (byte offset, character).
    pub ignored: Vec<(usize, char)>,
}

impl Movement {
    /// This movement with `other`'s leaps, slides and hops added (an entry of `other` replaces
    /// one of the same direction, as a later atom does).
    pub fn joined(&self, other: &Movement) -> Movement {
        let mut m = self.clone();
        for i in 0..2 {
            for md in 0..2 {
                for (mine, theirs) in [
                    (&mut m.steps[i][md], &other.steps[i][md]),
                    (&mut m.slider[i][md], &other.slider[i][md]),
                    (&mut m.hopper[i][md], &other.hopper[i][md]),
                ] {
                    for &(v, d) in &theirs.entries {
                        mine.set(v, d);
                    }
                }
            }
        }
        m
    }
}

/// A Betza string that could not be read (houserules dialect).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("Betza `{betza}`, column {column}: {why}")]
pub struct BetzaError {
    /// The whole string.
    pub betza: String,
    /// 1-based character column.
    pub column: usize,
    /// What is wrong.
    pub why: String,
}

fn leaper_atoms(c: char) -> Option<&'static [(i8, i8)]> {
    Some(match c {
        'W' => &[(1, 0)],
        'F' => &[(1, 1)],
        'D' => &[(2, 0)],
        'N' => &[(2, 1)],
        'A' => &[(2, 2)],
        'H' => &[(3, 0)],
        'L' | 'C' => &[(3, 1)],
        'J' | 'Z' => &[(3, 2)],
        'G' => &[(3, 3)],
        'K' => &[(1, 0), (1, 1)],
        _ => return None,
    })
}

fn rider_atoms(c: char) -> Option<&'static [(i8, i8)]> {
    Some(match c {
        'R' => &[(1, 0)],
        'B' => &[(1, 1)],
        'Q' => &[(1, 0), (1, 1)],
        _ => return None,
    })
}

const VERTICALS: &str = "fbvh";
const HORIZONTALS: &str = "rlsh";

/// The vectors an atom `(a, b)` (a along the line of play, b across) selects under the
/// direction words `dirs` (Fairy-Stockfish's eight orientation rules; no word = all).
fn orient(a: i8, b: i8, dirs: &[[char; 2]], out: &mut Vec<Vector>) {
    let has = |w: &str| {
        let w: Vec<char> = w.chars().collect();
        dirs.iter().any(|d| d[0] == w[0] && d[1] == w[1])
    };
    let all = dirs.is_empty();
    // (selectors, (df, dr))
    let rules: [(&[&str], Vector); 8] = [
        (&["ff", "vv", "rf", "rv", "fh", "rh", "hr"], (b, a)),
        (&["bb", "vv", "lb", "lv", "bh", "lh", "hr"], (-b, -a)),
        (&["rr", "ss", "br", "bs", "bh", "rh", "hr"], (a, -b)),
        (&["ll", "ss", "fl", "fs", "fh", "lh", "hr"], (-a, b)),
        (&["rr", "ss", "fr", "fs", "fh", "rh", "hl"], (a, b)),
        (&["ll", "ss", "bl", "bs", "bh", "lh", "hl"], (-a, -b)),
        (&["bb", "vv", "rb", "rv", "bh", "rh", "hl"], (b, -a)),
        (&["ff", "vv", "lf", "lv", "fh", "lh", "hl"], (-b, a)),
    ];
    for (sel, v) in rules {
        if (all || sel.iter().any(|w| has(w))) && !out.contains(&v) {
            out.push(v);
        }
    }
}

/// One atom with the modifiers before it, as the tokenizer reads it.
#[derive(Debug, Clone)]
struct Atom {
    column: usize,
    atoms: &'static [(i8, i8)],
    dirs: Vec<[char; 2]>,
    quiet: bool,
    capture: bool,
    hopper: bool,
    rider: bool,
    lame: bool,
    initial: bool,
    distance: i32,
    ep: bool,
    warp: bool,
    /// Preceded by `a`: the second leg of the atom before it.
    leg: bool,
}

impl Atom {
    fn vectors(&self) -> Vec<Vector> {
        let mut out = Vec::new();
        for &(a, b) in self.atoms {
            // Orthogonal single atoms split mixed directions (`fsW` = forward + sideways).
            let mut words: Vec<[char; 2]> = Vec::new();
            for d in &self.dirs {
                if self.atoms.len() == 1 && b == 0 && d[0] != d[1] {
                    words.push([d[0], d[0]]);
                    words.push([d[1], d[1]]);
                } else {
                    words.push(*d);
                }
            }
            orient(a, b, &words, &mut out);
        }
        out
    }
    fn modalities(&self) -> Vec<usize> {
        match (self.quiet, self.capture) {
            (false, false) | (true, true) => vec![QUIET, CAPTURE],
            (true, false) => vec![QUIET],
            (false, true) => vec![CAPTURE],
        }
    }
}

/// Parses a Betza string.
pub fn parse(betza: &str, dialect: Dialect) -> Result<Movement, BetzaError> {
    let chars: Vec<char> = betza.chars().collect();
    let ext = dialect == Dialect::Houserules;
    let err = |i: usize, why: String| BetzaError {
        betza: betza.to_string(),
        column: i + 1,
        why,
    };
    let mut m = Movement::default();
    let mut atoms: Vec<Atom> = Vec::new();
    // Modifier state (Fairy-Stockfish resets it after every atom).
    let mut quiet = false;
    let mut capture = false;
    let mut hopper = false;
    let mut lame = false;
    let mut initial = false;
    let mut distance = 0i32;
    let mut dirs: Vec<[char; 2]> = Vec::new();
    let mut ep = false;
    let mut warp = false;
    let mut leg = false;
    let mut pending = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            'm' => {
                quiet = true;
                pending = true;
            }
            'c' => {
                capture = true;
                pending = true;
            }
            'p' | 'g' => {
                hopper = true;
                if c == 'g' {
                    distance = 1;
                }
                pending = true;
            }
            'n' => {
                lame = true;
                pending = true;
            }
            'i' => {
                initial = true;
                pending = true;
            }
            'e' if ext => {
                ep = true;
                pending = true;
            }
            'w' if ext => {
                warp = true;
                pending = true;
            }
            'a' if ext => {
                if pending || atoms.is_empty() {
                    return Err(err(i, "`a` (second leg) must follow an atom".into()));
                }
                leg = true;
                pending = true;
            }
            _ if VERTICALS.contains(c) || HORIZONTALS.contains(c) => {
                pending = true;
                if let Some(&c2) = chars.get(i + 1) {
                    if c2 == c
                        || (VERTICALS.contains(c) && HORIZONTALS.contains(c2))
                        || (HORIZONTALS.contains(c) && VERTICALS.contains(c2))
                    {
                        dirs.push([c, c2]);
                        i += 2;
                        continue;
                    }
                }
                dirs.push([c, c]);
            }
            _ if leaper_atoms(c).is_some() || rider_atoms(c).is_some() => {
                let column = i;
                let mut rider = rider_atoms(c).is_some();
                let set = rider_atoms(c).or_else(|| leaper_atoms(c)).unwrap_or(&[]);
                if let Some(&n) = chars.get(i + 1) {
                    if n == c || n.is_ascii_digit() {
                        rider = true;
                        if let Some(d) = n.to_digit(10) {
                            distance = d as i32;
                        }
                        i += 1;
                    }
                }
                if !rider && lame {
                    distance = -1;
                }
                atoms.push(Atom {
                    column,
                    atoms: set,
                    dirs: std::mem::take(&mut dirs),
                    quiet,
                    capture,
                    hopper,
                    rider,
                    lame,
                    initial,
                    distance,
                    ep,
                    warp,
                    leg,
                });
                quiet = false;
                capture = false;
                hopper = false;
                lame = false;
                initial = false;
                distance = 0;
                ep = false;
                warp = false;
                leg = false;
                pending = false;
            }
            _ if ext => {
                return Err(err(
                    i,
                    format!("`{c}` is not a Betza atom or modifier of the houserules dialect"),
                ))
            }
            _ => m.ignored.push((i, c)),
        }
        i += 1;
    }
    if pending && ext {
        return Err(err(
            chars.len().saturating_sub(1),
            "modifiers at the end apply to no atom".into(),
        ));
    }
    let mut k = 0;
    while k < atoms.len() {
        let a = &atoms[k];
        if atoms.get(k + 1).is_some_and(|n| n.leg) {
            let b = &atoms[k + 1];
            for (x, which) in [(a, "first"), (b, "second")] {
                if x.rider
                    || x.hopper
                    || x.lame
                    || x.initial
                    || x.warp
                    || x.ep
                    || x.leg && which == "first"
                {
                    return Err(err(
                        x.column,
                        format!("the {which} leg of an `a` move must be a plain leap"),
                    ));
                }
            }
            if a.capture {
                return Err(err(
                    a.column,
                    "the first leg of an `a` move ends on an empty square: only `m` is allowed"
                        .into(),
                ));
            }
            let mods = b.modalities();
            m.double_leaps.push(DoubleLeap {
                first: a.vectors(),
                second: b.vectors(),
                quiet: mods.contains(&QUIET),
                capture: mods.contains(&CAPTURE),
            });
            k += 2;
            continue;
        }
        let vecs = a.vectors();
        if a.warp {
            if !a.rider || a.hopper || a.lame || a.initial {
                return Err(err(a.column, "`w` (warp) needs a plain rider".into()));
            }
            for md in a.modalities() {
                for &v in &vecs {
                    if !m.warps[md].contains(&v) {
                        m.warps[md].push(v);
                    }
                }
            }
            k += 1;
            continue;
        }
        if a.ep {
            if a.rider || a.hopper || a.initial || !a.capture {
                return Err(err(
                    a.column,
                    "`e` (en passant) marks a capturing leap: write it as `ce` with a leaper"
                        .into(),
                ));
            }
            for &v in &vecs {
                if !m.en_passant.contains(&v) {
                    m.en_passant.push(v);
                }
            }
        }
        for md in a.modalities() {
            let init = a.initial as usize;
            let t = if a.hopper {
                &mut m.hopper[init][md]
            } else if a.rider {
                &mut m.slider[init][md]
            } else {
                &mut m.steps[init][md]
            };
            for &v in &vecs {
                t.set(v, a.distance);
            }
        }
        k += 1;
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(b: &str, md: usize) -> Vec<(Vector, i32)> {
        let mut v = parse(b, Dialect::Fsf).unwrap().steps[0][md].entries.clone();
        v.sort();
        v
    }

    #[test]
    fn directions_as_fairy_stockfish() {
        assert_eq!(steps("fW", QUIET), vec![((0, 1), 0)]);
        // A lone `f` is `ff`: the two narrow forward knight leaps.
        assert_eq!(steps("fN", QUIET), vec![((-1, 2), 0), ((1, 2), 0)]);
        assert_eq!(
            steps("fhN", QUIET),
            vec![((-2, 1), 0), ((-1, 2), 0), ((1, 2), 0), ((2, 1), 0)]
        );
        assert_eq!(
            steps("fsW", QUIET),
            vec![((-1, 0), 0), ((0, 1), 0), ((1, 0), 0)]
        );
        assert_eq!(steps("lW", QUIET), vec![((-1, 0), 0)]);
        assert_eq!(steps("bF", CAPTURE), vec![((-1, -1), 0), ((1, -1), 0)]);
        assert_eq!(steps("K", QUIET).len(), 8);
        assert_eq!(steps("N", CAPTURE).len(), 8);
        let p = parse("fmWfcF", Dialect::Fsf).unwrap();
        assert_eq!(p.steps[0][QUIET].entries, vec![((0, 1), 0)]);
        assert_eq!(p.steps[0][CAPTURE].entries.len(), 2);
    }

    #[test]
    fn riders_ranges_hoppers_lame_initial() {
        let p = parse("R", Dialect::Fsf).unwrap();
        assert_eq!(p.slider[0][QUIET].entries.len(), 4);
        assert!(p.slider[0][QUIET].entries.iter().all(|e| e.1 == 0));
        let p = parse("W3", Dialect::Fsf).unwrap();
        assert!(p.slider[0][CAPTURE].entries.iter().all(|e| e.1 == 3));
        let p = parse("NN", Dialect::Fsf).unwrap();
        assert_eq!(p.slider[0][QUIET].entries.len(), 8);
        let p = parse("mRcpR", Dialect::Fsf).unwrap();
        assert_eq!(p.slider[0][QUIET].entries.len(), 4);
        assert!(p.slider[0][CAPTURE].is_empty());
        assert_eq!(p.hopper[0][CAPTURE].entries.len(), 4);
        let p = parse("gQ", Dialect::Fsf).unwrap();
        assert!(p.hopper[0][QUIET].entries.iter().all(|e| e.1 == 1));
        let p = parse("nN", Dialect::Fsf).unwrap();
        assert!(p.steps[0][QUIET].entries.iter().all(|e| e.1 == -1));
        let p = parse("ifmnD", Dialect::Fsf).unwrap();
        assert_eq!(p.steps[1][QUIET].entries, vec![((0, 2), -1)]);
        assert!(p.steps[0][QUIET].is_empty());
        // Later atoms replace the distance of the same direction.
        let p = parse("R2R", Dialect::Fsf).unwrap();
        assert!(p.slider[0][QUIET].entries.iter().all(|e| e.1 == 0));
    }

    #[test]
    fn fairy_stockfish_skips_what_it_does_not_know() {
        let p = parse("fmWfceF", Dialect::Fsf).unwrap();
        assert_eq!(p.ignored, vec![(5, 'e')]);
        assert_eq!(p.steps[0][CAPTURE].entries.len(), 2);
        assert!(p.en_passant.is_empty());
        let p = parse("xWjZ", Dialect::Fsf).unwrap();
        assert_eq!(p.ignored.len(), 2);
    }

    #[test]
    fn houserules_extensions() {
        let p = parse("fmWfceF", Dialect::Houserules).unwrap();
        assert_eq!(p.en_passant.len(), 2);
        let p = parse("NmNaN", Dialect::Houserules).unwrap();
        assert_eq!(p.steps[0][QUIET].entries.len(), 8);
        assert_eq!(p.double_leaps.len(), 1);
        assert_eq!(p.double_leaps[0].first.len(), 8);
        assert!(p.double_leaps[0].quiet && p.double_leaps[0].capture);
        let p = parse("RwR", Dialect::Houserules).unwrap();
        assert_eq!(p.warps[QUIET].len(), 4);
        assert_eq!(p.warps[CAPTURE].len(), 4);
        for bad in ["X", "fW3x", "cNaN", "RaN", "wN", "eR", "f", "a"] {
            assert!(parse(bad, Dialect::Houserules).is_err(), "{bad}");
        }
    }
}
