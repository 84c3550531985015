//! PGN-like game records: a streaming reader and a normalizing writer.
//!
//! The reader takes any number of games from a [`std::io::BufRead`], one game at a time, so a file of
//! any size is read in bounded memory. It accepts tags (`[Name "value"]`), SAN and coordinate
//! moves (the move text is only split into tokens here; moves are resolved against the rules
//! in [`crate::analyze`]), move numbers (`12.`, `12...`, `1.e4`), comments (`{...}` over any
//! number of lines, `;` to the end of the line, `[%clk ...]` commands inside them), NAGs (`$n`)
//! and glyphs (`!`, `?!` ... alone or glued to a move), variations `( ... )` at any depth,
//! `%` escape lines, result tokens, a byte order mark, CRLF line ends, empty lines inside the
//! tag section (as ChessBase writes them) and stray whitespace. The reader ([`Reader`], in
//! `pgn/reader.rs`) never recurses and runs in linear time; what one record may hold is
//! bounded by [`Limits`], and a record past a limit is reported, never an abort.
//!
//! Every token keeps its line and column (1-based; columns count characters). Syntax problems
//! (an unterminated comment or variation, a malformed tag, a missing result token) are kept
//! in [`Record::errors`]; the reader always goes on with the next game. A `{` comment still
//! open when a line that looks like a tag pair (`[Event "..."]`) starts is reported as
//! unterminated and the tag line starts the next game, so one bad brace cannot swallow the rest
//! of a file.

mod reader;

pub use reader::{
    read_all, Limits, MoveToken, Pos, Reader, Record, SyntaxError, Tag, Variations, RESULTS,
};

/// The fixed order of tags in a written record: the Seven Tag Roster, then the rules.
/// Other tags follow in alphabetical order.
pub const TAG_ORDER: [&str; 13] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "Variant",
    "Layout",
    "Presets",
    "Modifiers",
    "SetUp",
    "FEN",
];

/// Default values of the Seven Tag Roster, written when a record lacks them.
fn roster_default(name: &str) -> Option<&'static str> {
    match name {
        "Event" | "Site" | "Round" | "White" | "Black" => Some("?"),
        "Date" => Some("????.??.??"),
        "Result" => Some("*"),
        _ => None,
    }
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// One move of a record to write: who moved, the full-move number before it, and its SAN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenMove {
    /// Whether White made the move.
    pub white: bool,
    /// Full-move number of the position before the move.
    pub fullmove: u32,
    /// The move (canonical SAN).
    pub san: String,
}

/// The move text of `moves` as tokens: move numbers (`12.`, `12...`) and moves, without the
/// result.
///
/// Multi-move turns (a side moves twice in a row: double-move, monster-rules) get one move
/// number per turn, `N.` for White's and `N...` for Black's, followed by all its half-moves:
/// `1. e4 d4 1... d5 Bg4 2. Nf3`. Readers that ignore move numbers, as this one and
/// python-chess do, see the half-moves in order.
pub fn movetext_tokens(moves: &[WrittenMove]) -> Vec<String> {
    let mut out = Vec::with_capacity(moves.len() * 3 / 2 + 1);
    let multi = moves.windows(2).any(|w| w[0].white == w[1].white);
    let mut prev_white_number: Option<u32> = None;
    for (i, m) in moves.iter().enumerate() {
        if multi {
            let turn_starts = i == 0 || moves[i - 1].white != m.white;
            if turn_starts {
                let dots = if m.white { "." } else { "..." };
                out.push(format!("{}{dots}", m.fullmove));
            }
        } else if m.white {
            out.push(format!("{}.", m.fullmove));
            prev_white_number = Some(m.fullmove);
        } else if prev_white_number != Some(m.fullmove) {
            out.push(format!("{}...", m.fullmove));
            prev_white_number = Some(m.fullmove);
        }
        out.push(m.san.clone());
        if !m.white {
            prev_white_number = None;
        }
    }
    out
}

/// Writes a record in normal form: tags in [`TAG_ORDER`] (missing roster tags filled in, other
/// tags alphabetically, empty values of rule tags dropped), one empty line, the move text
/// (move numbers, moves, result) wrapped at 80 columns, and one empty line.
pub fn write_record(tags: &[(String, String)], moves: &[WrittenMove], result: &str) -> String {
    let mut out = String::with_capacity(256 + moves.len() * 8);
    let get = |name: &str| {
        tags.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    for name in TAG_ORDER {
        let v = if name == "Result" {
            Some(result)
        } else {
            get(name).or_else(|| roster_default(name))
        };
        if let Some(v) = v {
            out.push_str(&format!("[{name} \"{}\"]\n", escape(v)));
        }
    }
    let mut rest: Vec<&(String, String)> = tags
        .iter()
        .filter(|(k, _)| !TAG_ORDER.contains(&k.as_str()))
        .collect();
    rest.sort_by(|a, b| a.0.cmp(&b.0));
    for (k, v) in rest {
        out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    }
    out.push('\n');
    let mut line_len = 0usize;
    let mut push = |out: &mut String, tok: &str| {
        if line_len > 0 && line_len + 1 + tok.len() > 80 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(tok);
        line_len += tok.len();
    };
    for tok in movetext_tokens(moves) {
        push(&mut out, &tok);
    }
    push(&mut out, result);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(r: &Record, line: &[MoveToken]) -> Vec<String> {
        line.iter().map(|m| m.text(r).to_string()).collect()
    }

    #[test]
    fn multi_move_turns_get_one_number_per_turn() {
        let mv = |white: bool, fullmove: u32, san: &str| WrittenMove {
            white,
            fullmove,
            san: san.into(),
        };
        let moves = [
            mv(true, 1, "e4"),
            mv(true, 1, "d4"),
            mv(false, 1, "d5"),
            mv(false, 1, "Bg4"),
            mv(true, 2, "f3+"),
            mv(false, 2, "Bh5"),
            mv(false, 2, "e6"),
        ];
        let s = write_record(&[], &moves, "*");
        assert!(
            s.ends_with("\n\n1. e4 d4 1... d5 Bg4 2. f3+ 2... Bh5 e6 *\n\n"),
            "{s}"
        );
        let back = read_all(&s);
        assert_eq!(
            texts(&back[0], &back[0].moves),
            ["e4", "d4", "d5", "Bg4", "f3+", "Bh5", "e6"]
        );
    }

    #[test]
    fn writes_in_normal_form() {
        let tags = vec![
            ("White".to_string(), "A".to_string()),
            ("ECO".to_string(), "C20".to_string()),
            ("Event".to_string(), "x".to_string()),
        ];
        let moves = vec![
            WrittenMove {
                white: false,
                fullmove: 3,
                san: "Nf6".into(),
            },
            WrittenMove {
                white: true,
                fullmove: 4,
                san: "e5".into(),
            },
        ];
        let s = write_record(&tags, &moves, "*");
        assert_eq!(
            s,
            "[Event \"x\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"A\"]\n[Black \"?\"]\n[Result \"*\"]\n[ECO \"C20\"]\n\n3... Nf6 4. e5 *\n\n"
        );
    }
}
