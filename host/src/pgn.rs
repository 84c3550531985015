//! PGN-like game records: a streaming reader and a normalizing writer.
//!
//! The reader takes any number of games from a [`BufRead`], one game at a time, so a file of
//! any size is read in bounded memory. It accepts tags (`[Name "value"]`), SAN and coordinate
//! moves (the move text is only split into tokens here; moves are resolved against the rules
//! in [`crate::analyze`]), move numbers (`12.`, `12...`, `1.e4`), comments (`{...}` over any
//! number of lines, `;` to the end of the line, `[%clk ...]` commands inside them), NAGs (`$n`)
//! and glyphs (`!`, `?!` ... alone or glued to a move), variations `( ... )` at any depth,
//! `%` escape lines, result tokens, a byte order mark, CRLF line ends, empty lines inside the
//! tag section (as ChessBase writes them) and stray whitespace.
//!
//! Every token keeps its line and column (1-based; columns count characters). Syntax problems
//! (an unterminated comment or variation, a malformed tag, a missing result token) are kept
//! in [`Record::errors`]; the reader always goes on with the next game. A `{` comment still
//! open when a line that looks like a tag pair (`[Event "..."]`) starts is reported as
//! unterminated and the tag line starts the next game, so one bad brace cannot swallow the rest
//! of a file.

use std::io::{self, BufRead};

/// A place in the input: 1-based line and column (in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Pos {
    /// Line, from 1.
    pub line: u32,
    /// Column, from 1, counted in characters.
    pub column: u32,
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A tag pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    /// Tag name.
    pub name: String,
    /// Tag value, unescaped.
    pub value: String,
    /// Where the value starts (its opening quote).
    pub pos: Pos,
}

/// A move as written, with the variations that are alternatives to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveToken {
    start: u32,
    len: u32,
    /// Where the move text starts.
    pub pos: Pos,
    /// Variations `( ... )` written after this move: alternatives to it, played from the
    /// position before it.
    pub variations: Vec<Vec<MoveToken>>,
}

impl MoveToken {
    /// The move text as written (with any glyph suffix such as `!?`).
    pub fn text<'a>(&self, record: &'a Record) -> &'a str {
        &record.text[self.start as usize..(self.start + self.len) as usize]
    }
}

/// A syntax problem in a record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Where.
    pub pos: Pos,
    /// What.
    pub message: String,
}

/// One game record as read: tags, main line (with variations) and result token.
#[derive(Debug, Clone, Default)]
pub struct Record {
    /// Line where the record starts.
    pub line: u32,
    /// Bytes of the input consumed up to the end of this record (for progress reports).
    pub end_offset: u64,
    /// Tag pairs in input order.
    pub tags: Vec<Tag>,
    /// The main line.
    pub moves: Vec<MoveToken>,
    /// The result token and where it stands.
    pub result: Option<(String, Pos)>,
    /// Syntax problems.
    pub errors: Vec<SyntaxError>,
    /// Where the record ends (for "truncated" messages).
    pub end: Pos,
    /// Move texts, which [`MoveToken::text`] slices.
    text: String,
}

impl Record {
    /// The first tag named `name` (ASCII case-insensitive).
    pub fn tag(&self, name: &str) -> Option<&Tag> {
        self.tags.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// The value of the tag `name`, if present.
    pub fn tag_value(&self, name: &str) -> Option<&str> {
        self.tag(name).map(|t| t.value.as_str())
    }

    /// Number of main-line moves.
    pub fn ply_count(&self) -> usize {
        self.moves.len()
    }
}

/// The result tokens of PGN.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

fn result_token(tok: &[u8]) -> Option<&'static str> {
    match tok {
        b"1-0" => Some("1-0"),
        b"0-1" => Some("0-1"),
        b"1/2-1/2" | b"\xC2\xBD-\xC2\xBD" => Some("1/2-1/2"),
        b"*" => Some("*"),
        _ => None,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Nothing of the record read yet.
    Empty,
    /// In the tag section.
    Tags,
    /// In the move text.
    Moves,
}

/// What feeding (part of) a line did.
enum Fed {
    /// The line is used up; the record goes on.
    More,
    /// The record ended; the line goes on from this byte for the next record.
    Ended(usize),
}

/// Character columns of one line, computed incrementally (tokens come in order).
struct Columns<'a> {
    bytes: &'a [u8],
    at: usize,
    col: u32,
}

impl Columns<'_> {
    fn col(&mut self, i: usize) -> u32 {
        if i < self.at {
            self.at = 0;
            self.col = 1;
        }
        for &b in &self.bytes[self.at..i] {
            if b & 0xC0 != 0x80 {
                self.col += 1;
            }
        }
        self.at = i;
        self.col
    }
}

fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'\t'
            | b'\r'
            | b'\n'
            | 0x0c
            | 0x0b
            | b'{'
            | b'}'
            | b'('
            | b')'
            | b';'
            | b'['
            | b']'
            | b'$'
            | b'"'
    )
}

/// Whether a line looks like a tag pair: `[Name "..."`.
fn looks_like_tag(line: &[u8]) -> bool {
    let t = trim_start(line);
    if t.first() != Some(&b'[') {
        return false;
    }
    let rest = &t[1..];
    let name_len = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    if name_len == 0 || !rest[0].is_ascii_alphabetic() {
        return false;
    }
    let after = trim_start(&rest[name_len..]);
    after.first() == Some(&b'"')
}

fn trim_start(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

struct Builder {
    rec: Record,
    stage: Stage,
    comment: Option<Pos>,
    current: Vec<MoveToken>,
    stack: Vec<(Vec<MoveToken>, Pos)>,
}

impl Builder {
    fn new() -> Builder {
        Builder {
            rec: Record::default(),
            stage: Stage::Empty,
            comment: None,
            current: Vec::new(),
            stack: Vec::new(),
        }
    }

    fn error(&mut self, pos: Pos, message: impl Into<String>) {
        self.rec.errors.push(SyntaxError {
            pos,
            message: message.into(),
        });
    }

    /// Feeds `line` (one input line, without its end) from byte `from`.
    fn feed(&mut self, line: &[u8], from: usize, line_no: u32) -> Fed {
        let mut cols = Columns {
            bytes: line,
            at: 0,
            col: 1,
        };
        let mut i = from;
        let n = line.len();
        let pos_at = |cols: &mut Columns, i: usize| Pos {
            line: line_no,
            column: cols.col(i),
        };
        if i == 0 && line.first() == Some(&b'%') && self.comment.is_none() {
            return Fed::More; // escape line
        }
        while i < n {
            if let Some(open) = self.comment {
                if i == 0 && self.stage != Stage::Empty && looks_like_tag(line) {
                    self.error(
                        open,
                        "unterminated comment: `{` is never closed before the next tag section",
                    );
                    self.comment = None;
                    return Fed::Ended(0);
                }
                match line[i..].iter().position(|&b| b == b'}') {
                    Some(k) => {
                        self.comment = None;
                        i += k + 1;
                        continue;
                    }
                    None => return Fed::More,
                }
            }
            let c = line[i];
            match c {
                b' ' | b'\t' | b'\r' | b'\n' | 0x0c | 0x0b => i += 1,
                b'{' => {
                    let p = pos_at(&mut cols, i);
                    if self.stage == Stage::Empty {
                        self.start(line_no);
                    }
                    self.stage = Stage::Moves;
                    self.comment = Some(p);
                    i += 1;
                }
                b';' => return Fed::More,
                b'[' => {
                    if self.stage == Stage::Moves {
                        // A tag after move text: the record ended without a result token.
                        let p = pos_at(&mut cols, i);
                        self.error(
                            p,
                            "the move text ends without a result token (1-0, 0-1, 1/2-1/2 or *) before the next tag section",
                        );
                        return Fed::Ended(i);
                    }
                    if self.stage == Stage::Empty {
                        self.start(line_no);
                    }
                    self.stage = Stage::Tags;
                    i = self.tag(line, i, line_no, &mut cols);
                }
                b'(' => {
                    let p = pos_at(&mut cols, i);
                    if self.stage == Stage::Empty {
                        self.start(line_no);
                    }
                    self.stage = Stage::Moves;
                    let parent = std::mem::take(&mut self.current);
                    self.stack.push((parent, p));
                    i += 1;
                }
                b')' => {
                    let p = pos_at(&mut cols, i);
                    if self.stage == Stage::Empty {
                        self.start(line_no);
                    }
                    self.stage = Stage::Moves;
                    match self.stack.pop() {
                        Some((parent, open)) => {
                            let var = std::mem::replace(&mut self.current, parent);
                            match self.current.last_mut() {
                                Some(last) => last.variations.push(var),
                                None if var.is_empty() => {}
                                None => self.error(open, "a variation before any move"),
                            }
                        }
                        None => self.error(p, "`)` closes no variation"),
                    }
                    i += 1;
                }
                b'$' => {
                    i += 1;
                    while i < n && line[i].is_ascii_digit() {
                        i += 1;
                    }
                }
                b'%' if i == 0 => return Fed::More,
                _ => {
                    let start = i;
                    while i < n && !is_delimiter(line[i]) {
                        i += 1;
                    }
                    if i == start {
                        // A lone delimiter we do not use (`]`, `}`, `"`).
                        let p = pos_at(&mut cols, i);
                        self.error(p, format!("unexpected `{}`", line[i] as char));
                        i += 1;
                        continue;
                    }
                    if self.stage == Stage::Empty {
                        self.start(line_no);
                    }
                    self.stage = Stage::Moves;
                    let tok = &line[start..i];
                    if let Some(r) = result_token(tok) {
                        let p = pos_at(&mut cols, start);
                        if !self.stack.is_empty() {
                            // Results do not stand inside variations: the variations are
                            // unterminated, the game ends here.
                            self.close_variations();
                        }
                        self.rec.result = Some((r.to_string(), p));
                        return Fed::Ended(i);
                    }
                    self.symbol(tok, start, line_no, &mut cols);
                }
            }
        }
        Fed::More
    }

    fn start(&mut self, line_no: u32) {
        self.rec.line = line_no;
    }

    /// A move-text symbol: a move number, a glyph, or a move.
    fn symbol(&mut self, tok: &[u8], start: usize, line_no: u32, cols: &mut Columns) {
        // Strip a move number: `12.`, `12...`, `1.e4`.
        let digits = tok.iter().take_while(|b| b.is_ascii_digit()).count();
        let mut k = 0;
        if digits > 0 && tok.get(digits) == Some(&b'.') {
            k = digits;
        } else if digits == tok.len() {
            return; // a bare move number
        }
        while k < tok.len() && tok[k] == b'.' {
            k += 1;
        }
        let rest = &tok[k..];
        if rest.is_empty() || rest.iter().all(|b| matches!(b, b'!' | b'?')) {
            return;
        }
        let pos = Pos {
            line: line_no,
            column: cols.col(start + k),
        };
        let text = String::from_utf8_lossy(rest);
        let s = self.rec.text.len() as u32;
        self.rec.text.push_str(&text);
        self.current.push(MoveToken {
            start: s,
            len: text.len() as u32,
            pos,
            variations: Vec::new(),
        });
    }

    /// A tag pair from `[` at `i`; returns the byte after it.
    fn tag(&mut self, line: &[u8], i: usize, line_no: u32, cols: &mut Columns) -> usize {
        let n = line.len();
        let open = Pos {
            line: line_no,
            column: cols.col(i),
        };
        let mut j = i + 1;
        while j < n && line[j].is_ascii_whitespace() {
            j += 1;
        }
        let name_start = j;
        while j < n && (line[j].is_ascii_alphanumeric() || line[j] == b'_') {
            j += 1;
        }
        let name = String::from_utf8_lossy(&line[name_start..j]).into_owned();
        while j < n && line[j].is_ascii_whitespace() {
            j += 1;
        }
        if name.is_empty() || j >= n || line[j] != b'"' {
            self.error(open, "malformed tag pair: expected [Name \"value\"]");
            return skip_past(line, i, b']');
        }
        let vpos = Pos {
            line: line_no,
            column: cols.col(j),
        };
        j += 1;
        let mut value = Vec::new();
        let mut closed = false;
        while j < n {
            match line[j] {
                b'\\' if j + 1 < n && matches!(line[j + 1], b'"' | b'\\') => {
                    value.push(line[j + 1]);
                    j += 2;
                }
                b'"' => {
                    closed = true;
                    j += 1;
                    break;
                }
                b => {
                    value.push(b);
                    j += 1;
                }
            }
        }
        if !closed {
            self.error(
                vpos,
                format!("tag `{name}`: the value's quote is never closed"),
            );
            return n;
        }
        while j < n && line[j].is_ascii_whitespace() {
            j += 1;
        }
        if j < n && line[j] == b']' {
            j += 1;
        } else {
            self.error(open, format!("tag `{name}`: missing `]`"));
        }
        self.rec.tags.push(Tag {
            name,
            value: String::from_utf8_lossy(&value).into_owned(),
            pos: vpos,
        });
        j
    }

    fn close_variations(&mut self) {
        while let Some((parent, open)) = self.stack.pop() {
            self.error(open, "unterminated variation: `(` is never closed");
            let var = std::mem::replace(&mut self.current, parent);
            if let Some(last) = self.current.last_mut() {
                last.variations.push(var);
            }
        }
    }

    /// Closes the record at the end of its text (`end` is where the input stopped).
    fn finish(mut self, end: Pos, eof: bool) -> Record {
        if let Some(open) = self.comment.take() {
            self.error(open, "unterminated comment: `{` is never closed");
        }
        self.close_variations();
        if eof && self.rec.result.is_none() {
            self.error(
                end,
                "the record ends without a result token (1-0, 0-1, 1/2-1/2 or *): truncated?",
            );
        }
        self.rec.moves = self.current;
        self.rec.end = end;
        self.rec
    }
}

fn skip_past(line: &[u8], from: usize, b: u8) -> usize {
    match line[from..].iter().position(|&c| c == b) {
        Some(k) => from + k + 1,
        None => line.len(),
    }
}

/// Reads game records one at a time from a buffered source.
pub struct Reader<R> {
    src: R,
    line: Vec<u8>,
    line_no: u32,
    /// Byte where the unread rest of `line` starts; `None` when a new line is needed.
    cursor: Option<usize>,
    offset: u64,
    eof: bool,
    /// Length of the previous line (for the position of the end of the input).
    last_len: usize,
}

impl<R: BufRead> Reader<R> {
    /// A reader over `src`.
    pub fn new(src: R) -> Reader<R> {
        Reader {
            src,
            line: Vec::with_capacity(256),
            line_no: 0,
            cursor: None,
            offset: 0,
            eof: false,
            last_len: 0,
        }
    }

    fn read_line(&mut self) -> io::Result<bool> {
        self.last_len = self.line.len();
        self.line.clear();
        let n = self.src.read_until(b'\n', &mut self.line)?;
        if n == 0 {
            return Ok(false);
        }
        self.offset += n as u64;
        self.line_no += 1;
        while matches!(self.line.last(), Some(b'\n' | b'\r')) {
            self.line.pop();
        }
        // A byte order mark (at the start of the file, or of a file concatenated later).
        if self.line.starts_with(&[0xEF, 0xBB, 0xBF]) {
            self.line.drain(..3);
        }
        Ok(true)
    }

    /// The next record, `None` at the end of the input.
    pub fn next_record(&mut self) -> io::Result<Option<Record>> {
        if self.eof {
            return Ok(None);
        }
        let mut b = Builder::new();
        loop {
            let from = match self.cursor {
                Some(c) => c,
                None => {
                    if !self.read_line()? {
                        self.eof = true;
                        if b.stage == Stage::Empty {
                            return Ok(None);
                        }
                        let end = Pos {
                            line: self.line_no.max(1),
                            column: 1 + self.last_len as u32,
                        };
                        let mut r = b.finish(end, true);
                        r.end_offset = self.offset;
                        return Ok(Some(r));
                    }
                    0
                }
            };
            match b.feed(&self.line, from, self.line_no) {
                Fed::More => self.cursor = None,
                Fed::Ended(at) => {
                    self.cursor = if at < self.line.len() { Some(at) } else { None };
                    let end = Pos {
                        line: self.line_no,
                        column: 1 + at as u32,
                    };
                    let mut r = b.finish(end, false);
                    r.end_offset = self.offset;
                    if r.result.is_none() && r.tags.is_empty() && r.moves.is_empty() {
                        // Only an unterminated comment's recovery: nothing to report twice.
                        if r.errors.is_empty() {
                            b = Builder::new();
                            continue;
                        }
                    }
                    return Ok(Some(r));
                }
            }
        }
    }
}

impl<R: BufRead> Iterator for Reader<R> {
    type Item = io::Result<Record>;
    fn next(&mut self) -> Option<io::Result<Record>> {
        self.next_record().transpose()
    }
}

/// Reads every record of a string (for tests and small inputs).
pub fn read_all(text: &str) -> Vec<Record> {
    Reader::new(text.as_bytes())
        .map(|r| r.expect("reading from memory does not fail"))
        .collect()
}

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
    fn reads_tags_moves_and_results() {
        let recs = read_all(
            "\u{feff}[Event \"A \\\"quoted\\\" one\"]\r\n\r\n[Result \"1-0\"]\r\n\r\n1.e4 e5 2. Nf3 $1 Nc6!? {a {comment} 3. Bb5 ; rest\n% escape\n a6 1-0\n\n1. d4 *",
        );
        assert_eq!(recs.len(), 2);
        let r = &recs[0];
        assert_eq!(r.tag_value("Event"), Some("A \"quoted\" one"));
        assert_eq!(
            texts(r, &r.moves),
            ["e4", "e5", "Nf3", "Nc6!?", "Bb5", "a6"]
        );
        assert_eq!(r.result.as_ref().unwrap().0, "1-0");
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        assert_eq!(r.moves[0].pos, Pos { line: 5, column: 3 });
        assert_eq!(r.moves[5].pos, Pos { line: 7, column: 2 });
        assert_eq!(recs[1].line, 9);
        assert_eq!(texts(&recs[1], &recs[1].moves), ["d4"]);
    }

    #[test]
    fn variations_attach_to_the_move_they_replace() {
        let recs = read_all("1. e4 (1. d4 d5 (1... Nf6)) 1... e5 (1... c5 2. Nf3) 2. Nf3 *");
        let r = &recs[0];
        assert_eq!(texts(r, &r.moves), ["e4", "e5", "Nf3"]);
        assert_eq!(r.moves[0].variations.len(), 1);
        let v = &r.moves[0].variations[0];
        assert_eq!(texts(r, v), ["d4", "d5"]);
        assert_eq!(texts(r, &v[1].variations[0]), ["Nf6"]);
        assert_eq!(texts(r, &r.moves[1].variations[0]), ["c5", "Nf3"]);
    }

    #[test]
    fn unterminated_things_are_reported_and_the_next_game_read() {
        let recs = read_all(
            "[Event \"a\"]\n\n1. e4 {never closed\n\n[Event \"b\"]\n\n1. d4 (1. c4 1-0\n\n[Event \"c\"]\n\n1. e4",
        );
        assert_eq!(recs.len(), 3);
        assert_eq!(recs[0].errors[0].pos, Pos { line: 3, column: 7 });
        assert!(recs[0].errors[0].message.contains("unterminated comment"));
        assert_eq!(recs[1].tag_value("Event"), Some("b"));
        assert!(recs[1].errors[0].message.contains("unterminated variation"));
        assert_eq!(recs[1].errors[0].pos, Pos { line: 7, column: 7 });
        assert!(recs[2].errors[0].message.contains("truncated"));
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
