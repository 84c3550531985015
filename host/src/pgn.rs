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
    let mut prev_white_number: Option<u32> = None;
    for m in moves {
        if m.white {
            push(&mut out, &format!("{}.", m.fullmove));
            prev_white_number = Some(m.fullmove);
        } else if prev_white_number != Some(m.fullmove) {
            push(&mut out, &format!("{}...", m.fullmove));
            prev_white_number = Some(m.fullmove);
        }
        push(&mut out, &m.san);
        if !m.white {
            prev_white_number = None;
        }
    }
    push(&mut out, result);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
