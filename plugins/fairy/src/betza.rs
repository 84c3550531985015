//! The subset of Betza notation Fairy-Stockfish reads for custom pieces, with its meaning.
//!
//! Atoms: leapers `W F D N A H L C J Z G K`, riders `R B Q`; a leaper doubled (`NN`) or
//! followed by a digit (`W3`, `R4`) rides, the digit limiting the distance. Modifiers before an
//! atom: `m` (move only), `c` (capture only), directions `f b l r s v h` and their two-letter
//! combinations (`fs`, `lf`, `rv`, `fh` ...). Directions are from White's side; Black's are
//! turned by 180 degrees. Hoppers (`p`, `g`), lame leapers (`n`), initial moves (`i`), en
//! passant (`e`) and anything else are rejected with a message.

/// A move vector with its ranges: how many steps of `(df, dr)` the piece may take to a
/// quiet square and to capture (0 = not at all, [`UNLIMITED`] = any).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dir {
    /// File step.
    pub df: i8,
    /// Rank step (towards rank 8 for White).
    pub dr: i8,
    /// Quiet range.
    pub quiet: u8,
    /// Capture range.
    pub capture: u8,
}

/// Any distance.
pub const UNLIMITED: u8 = 64;

fn leaper(c: char) -> Option<&'static [(i8, i8)]> {
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

fn rider(c: char) -> Option<&'static [(i8, i8)]> {
    Some(match c {
        'R' => &[(1, 0)],
        'B' => &[(1, 1)],
        'Q' => &[(1, 0), (1, 1)],
        _ => return None,
    })
}

const VERTICAL: &str = "fbvh";
const HORIZONTAL: &str = "rlsh";

/// The eight orientations of an atom `(a, b)` (a along the rank direction, b across) as
/// `(dr, df)`, each with the direction words that select it.
fn orientations(a: i8, b: i8) -> [((i8, i8), &'static [&'static str]); 8] {
    [
        ((a, b), &["ff", "vv", "rf", "rv", "fh", "rh", "hr"]),
        ((-a, -b), &["bb", "vv", "lb", "lv", "bh", "lh", "hr"]),
        ((-b, a), &["rr", "ss", "br", "bs", "bh", "rh", "hr"]),
        ((b, -a), &["ll", "ss", "fl", "fs", "fh", "lh", "hr"]),
        ((b, a), &["rr", "ss", "fr", "fs", "fh", "rh", "hl"]),
        ((-b, -a), &["ll", "ss", "bl", "bs", "bh", "lh", "hl"]),
        ((-a, b), &["bb", "vv", "rb", "rv", "bh", "rh", "hl"]),
        ((a, -b), &["ff", "vv", "lf", "lv", "fh", "lh", "hl"]),
    ]
}

/// Parses a Betza string into White's move vectors (merged: one entry per vector).
pub fn parse(betza: &str) -> Result<Vec<Dir>, String> {
    let chars: Vec<char> = betza.chars().collect();
    if chars.is_empty() {
        return Err("the Betza notation is empty".to_string());
    }
    let mut out: Vec<Dir> = Vec::new();
    let mut quiet = false;
    let mut capture = false;
    let mut dirs: Vec<[char; 2]> = Vec::new();
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
            _ if VERTICAL.contains(c) || HORIZONTAL.contains(c) => {
                pending = true;
                if let Some(&c2) = chars.get(i + 1) {
                    if c2 == c
                        || (VERTICAL.contains(c) && HORIZONTAL.contains(c2))
                        || (HORIZONTAL.contains(c) && VERTICAL.contains(c2))
                    {
                        dirs.push([c, c2]);
                        i += 2;
                        continue;
                    }
                }
                dirs.push([c, c]);
            }
            _ if leaper(c).is_some() || rider(c).is_some() => {
                let mut is_rider = rider(c).is_some();
                let atoms = rider(c).or_else(|| leaper(c)).unwrap_or(&[]);
                let mut distance = 0u8;
                if let Some(&n) = chars.get(i + 1) {
                    if n == c || n.is_ascii_digit() {
                        is_rider = true;
                        if let Some(d) = n.to_digit(10) {
                            if d == 0 {
                                return Err(format!("`{c}0` rides no distance"));
                            }
                            distance = d as u8;
                        }
                        i += 1;
                    }
                }
                let range = if is_rider {
                    if distance == 0 {
                        UNLIMITED
                    } else {
                        distance
                    }
                } else {
                    1
                };
                let (q, cap) = if !quiet && !capture {
                    (true, true)
                } else {
                    (quiet, capture)
                };
                for &(a, b) in atoms {
                    // Orthogonal single atoms split mixed directions (`fsW` = forward + sideways).
                    let mut words: Vec<[char; 2]> = Vec::new();
                    for d in &dirs {
                        if atoms.len() == 1 && b == 0 && d[0] != d[1] {
                            words.push([d[0], d[0]]);
                            words.push([d[1], d[1]]);
                        } else {
                            words.push(*d);
                        }
                    }
                    for ((dr, df), sel) in orientations(a, b) {
                        let chosen = words.is_empty()
                            || words.iter().any(|w| {
                                let s: String = w.iter().collect();
                                sel.contains(&s.as_str())
                            });
                        if !chosen {
                            continue;
                        }
                        let slot = match out.iter_mut().find(|d| d.df == df && d.dr == dr) {
                            Some(s) => s,
                            None => {
                                out.push(Dir {
                                    df,
                                    dr,
                                    quiet: 0,
                                    capture: 0,
                                });
                                out.last_mut().expect("just pushed")
                            }
                        };
                        if q {
                            slot.quiet = slot.quiet.max(range);
                        }
                        if cap {
                            slot.capture = slot.capture.max(range);
                        }
                    }
                }
                quiet = false;
                capture = false;
                dirs.clear();
                pending = false;
            }
            'p' | 'g' => return Err(format!("hoppers (`{c}`) are not supported")),
            'n' => return Err("lame leapers (`n`) are not supported".to_string()),
            'i' => return Err("initial-only moves (`i`) are not supported".to_string()),
            'e' => return Err("en passant captures (`e`) are not supported".to_string()),
            _ if c.is_ascii_digit() => {
                return Err(format!("the digit `{c}` follows no atom"));
            }
            _ => return Err(format!("`{c}` is not a supported Betza atom or modifier")),
        }
        i += 1;
    }
    if pending {
        return Err("modifiers at the end apply to no atom".to_string());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(b: &str) -> Vec<(i8, i8, u8, u8)> {
        let mut v: Vec<_> = parse(b)
            .unwrap()
            .into_iter()
            .map(|d| (d.df, d.dr, d.quiet, d.capture))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn atoms_and_modifiers() {
        assert_eq!(set("fW"), vec![(0, 1, 1, 1)]);
        assert_eq!(set("mR").len(), 4);
        assert!(set("mR").iter().all(|d| d.2 == UNLIMITED && d.3 == 0));
        assert_eq!(set("N").len(), 8);
        // As in Fairy-Stockfish, a lone `f` means `ff`: the two narrow forward leaps.
        assert_eq!(set("fN"), vec![(-1, 2, 1, 1), (1, 2, 1, 1)]);
        assert_eq!(set("ffN"), set("fN"));
        assert_eq!(
            set("fhN"),
            vec![(-2, 1, 1, 1), (-1, 2, 1, 1), (1, 2, 1, 1), (2, 1, 1, 1)]
        );
        assert_eq!(set("fsW"), vec![(-1, 0, 1, 1), (0, 1, 1, 1), (1, 0, 1, 1)]);
        assert_eq!(
            set("fmWfcF"),
            vec![(-1, 1, 0, 1), (0, 1, 1, 0), (1, 1, 0, 1)]
        );
        assert_eq!(
            set("fRW"),
            vec![
                (-1, 0, 1, 1),
                (0, -1, 1, 1),
                (0, 1, UNLIMITED, UNLIMITED),
                (1, 0, 1, 1)
            ]
        );
        assert_eq!(set("W2"), set("vW2sW2"));
        assert!(set("NN").iter().all(|d| d.2 == UNLIMITED));
        assert_eq!(set("K").len(), 8);
        assert_eq!(set("Q").len(), 8);
        assert_eq!(set("lW"), vec![(-1, 0, 1, 1)]);
        assert_eq!(set("bF"), vec![(-1, -1, 1, 1), (1, -1, 1, 1)]);
        assert_eq!(set("vW"), vec![(0, -1, 1, 1), (0, 1, 1, 1)]);
    }

    #[test]
    fn rejects() {
        for b in [
            "pR", "gQ", "nN", "ifmnD", "fceF", "X", "W0", "fW3x", "f", "",
        ] {
            assert!(parse(b).is_err(), "{b}");
        }
    }
}
