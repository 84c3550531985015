//! The streaming record reader (see the module documentation of [`crate::pgn`]).
//!
//! The reader is a state machine over lines: no recursion on any input (variations are kept
//! on an explicit stack and stored flat, so dropping a record does not recurse either), and
//! linear time in the input (every byte is looked at a bounded number of times; the column
//! counter goes forward only). What one record may hold is bounded by [`Limits`]; a record
//! that goes past a limit is reported with an error at the place where it did, the excess is
//! skipped, and the reader goes on with the next record.

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

/// What one record may hold. Past a limit, the record gets an error at that place and the
/// excess is skipped (not stored); the next record is read as usual. The defaults are far
/// beyond real games and keep one record's memory bounded (about 100 MB at worst).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Variations nested deeper than this are skipped (with their contents).
    pub nesting: usize,
    /// Moves stored per record, main line and variations together.
    pub moves: usize,
    /// Bytes of one move token (SAN, coordinate form, with glyphs).
    pub token_bytes: usize,
    /// Bytes of one `{...}` comment (comments are skipped, never stored; a longer one is
    /// reported, as it is most likely unterminated).
    pub comment_bytes: usize,
    /// Tag pairs per record.
    pub tags: usize,
    /// Bytes of one tag value.
    pub tag_value_bytes: usize,
    /// Errors listed per record; the rest are counted in one last error.
    pub errors: usize,
    /// Bytes of one input line; the rest of a longer line is skipped.
    pub line_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            nesting: 1_000,
            moves: 1_000_000,
            token_bytes: 64,
            comment_bytes: 1 << 20,
            tags: 1_000,
            tag_value_bytes: 16 << 10,
            errors: 100,
            line_bytes: 32 << 20,
        }
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

const NONE: u32 = u32::MAX;

/// A move as written. The variations that are alternatives to it are found with
/// [`Record::variations`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveToken {
    start: u32,
    len: u32,
    /// Where the move text starts.
    pub pos: Pos,
    /// First and last variation attached to this move (indices into `Record::vars`).
    first_var: u32,
    last_var: u32,
}

impl MoveToken {
    /// The move text as written (with any glyph suffix such as `!?`).
    pub fn text<'a>(&self, record: &'a Record) -> &'a str {
        &record.text[self.start as usize..(self.start + self.len) as usize]
    }

    /// Whether variations are written after this move.
    pub fn has_variations(&self) -> bool {
        self.first_var != NONE
    }
}

/// One stored variation: a run of `Record::var_moves`, and the next variation of the same
/// move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Variation {
    start: u32,
    len: u32,
    next: u32,
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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
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
    /// The moves of every variation, each variation a contiguous run.
    var_moves: Vec<MoveToken>,
    vars: Vec<Variation>,
}

/// The variations written after one move, in input order.
pub struct Variations<'a> {
    record: &'a Record,
    next: u32,
}

impl<'a> Iterator for Variations<'a> {
    type Item = &'a [MoveToken];
    fn next(&mut self) -> Option<&'a [MoveToken]> {
        let v = self.record.vars.get(self.next as usize)?;
        self.next = v.next;
        Some(&self.record.var_moves[v.start as usize..(v.start + v.len) as usize])
    }
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

    /// The variations written after `tok` (a move of this record): alternatives to it,
    /// played from the position before it.
    pub fn variations(&self, tok: &MoveToken) -> Variations<'_> {
        Variations {
            record: self,
            next: tok.first_var,
        }
    }

    /// Number of variations in the record, at every depth.
    pub fn variation_count(&self) -> usize {
        self.vars.len()
    }
}

/// A compact binary form of a [`Record`], for handing records to worker processes.
impl Record {
    /// Appends the record's binary form to `out` ([`Record::decode`] reads it back).
    pub fn encode(&self, out: &mut Vec<u8>) {
        // One allocation for most records: the large parts, and room for the rest.
        out.reserve(
            64 + self.text.len()
                + (self.moves.len() + self.var_moves.len()) * TOKEN_BYTES
                + self
                    .tags
                    .iter()
                    .map(|t| t.name.len() + t.value.len() + 16)
                    .sum::<usize>(),
        );
        let mut w = Codec(out);
        w.u32(self.line);
        w.u64(self.end_offset);
        w.pos(self.end);
        w.u32(self.tags.len() as u32);
        for t in &self.tags {
            w.str(&t.name);
            w.str(&t.value);
            w.pos(t.pos);
        }
        w.tokens(&self.moves);
        match &self.result {
            Some((r, p)) => {
                w.0.push(1);
                w.str(r);
                w.pos(*p);
            }
            None => w.0.push(0),
        }
        w.u32(self.errors.len() as u32);
        for e in &self.errors {
            w.pos(e.pos);
            w.str(&e.message);
        }
        w.str(&self.text);
        w.tokens(&self.var_moves);
        w.u32(self.vars.len() as u32);
        for v in &self.vars {
            w.u32(v.start);
            w.u32(v.len);
            w.u32(v.next);
        }
    }

    /// Drops what only the analysis reads (moves, variations, their text, syntax errors and
    /// the result), keeping the start line, end and tags: all a report of a record that could
    /// not be analyzed shows. An isolated run keeps this much of each record in flight, and
    /// frees the rest on the thread that allocated it.
    pub fn keep_header(&mut self) {
        self.moves = Vec::new();
        self.result = None;
        self.errors = Vec::new();
        self.text = String::new();
        self.var_moves = Vec::new();
        self.vars = Vec::new();
    }

    /// Reads a record written by [`Record::encode`]; `None` if the bytes are not one (or
    /// point outside themselves).
    pub fn decode(bytes: &[u8]) -> Option<Record> {
        let mut r = Decoder(bytes);
        let line = r.u32()?;
        let end_offset = r.u64()?;
        let end = r.pos()?;
        let n = r.len(12)?;
        let mut tags = Vec::with_capacity(n);
        for _ in 0..n {
            tags.push(Tag {
                name: r.string()?,
                value: r.string()?,
                pos: r.pos()?,
            });
        }
        let moves = r.tokens()?;
        let result = match r.byte()? {
            0 => None,
            _ => Some((r.string()?, r.pos()?)),
        };
        let n = r.len(12)?;
        let mut errors = Vec::with_capacity(n);
        for _ in 0..n {
            errors.push(SyntaxError {
                pos: r.pos()?,
                message: r.string()?,
            });
        }
        let text = r.string()?;
        let var_moves = r.tokens()?;
        let n = r.len(12)?;
        let mut vars = Vec::with_capacity(n);
        for _ in 0..n {
            vars.push(Variation {
                start: r.u32()?,
                len: r.u32()?,
                next: r.u32()?,
            });
        }
        // Every slice a record hands out must lie inside it.
        let text_ok = |t: &MoveToken| {
            (t.start as usize)
                .checked_add(t.len as usize)
                .is_some_and(|e| {
                    e <= text.len()
                        && text.is_char_boundary(t.start as usize)
                        && text.is_char_boundary(e)
                })
        };
        let var_ok = |t: &MoveToken| {
            (t.first_var == NONE || (t.first_var as usize) < vars.len())
                && (t.last_var == NONE || (t.last_var as usize) < vars.len())
        };
        let vars_ok = vars.iter().all(|v| {
            (v.start as usize + v.len as usize) <= var_moves.len()
                && (v.next == NONE || (v.next as usize) < vars.len())
        });
        if !r.0.is_empty()
            || !vars_ok
            || !moves
                .iter()
                .chain(&var_moves)
                .all(|t| text_ok(t) && var_ok(t))
        {
            return None;
        }
        Some(Record {
            line,
            end_offset,
            tags,
            moves,
            result,
            errors,
            end,
            text,
            var_moves,
            vars,
        })
    }
}

/// Bytes of one encoded [`MoveToken`]: six little-endian words.
const TOKEN_BYTES: usize = 24;

struct Codec<'a>(&'a mut Vec<u8>);

impl Codec<'_> {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn pos(&mut self, p: Pos) {
        self.u32(p.line);
        self.u32(p.column);
    }
    fn str(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.0.extend_from_slice(s.as_bytes());
    }
    fn tokens(&mut self, t: &[MoveToken]) {
        self.u32(t.len() as u32);
        self.0.reserve(t.len() * TOKEN_BYTES);
        for m in t {
            let mut b = [0u8; TOKEN_BYTES];
            for (i, v) in [
                m.start,
                m.len,
                m.pos.line,
                m.pos.column,
                m.first_var,
                m.last_var,
            ]
            .into_iter()
            .enumerate()
            {
                b[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
            }
            self.0.extend_from_slice(&b);
        }
    }
}

struct Decoder<'a>(&'a [u8]);

impl Decoder<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (h, t) = self.0.split_first_chunk::<N>()?;
        self.0 = t;
        Some(*h)
    }
    fn byte(&mut self) -> Option<u8> {
        self.take::<1>().map(|b| b[0])
    }
    fn u32(&mut self) -> Option<u32> {
        self.take::<4>().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Option<u64> {
        self.take::<8>().map(u64::from_le_bytes)
    }
    fn pos(&mut self) -> Option<Pos> {
        Some(Pos {
            line: self.u32()?,
            column: self.u32()?,
        })
    }
    /// A count of items of at least `min` bytes each, checked against what is left.
    fn len(&mut self, min: usize) -> Option<usize> {
        let n = self.u32()? as usize;
        (n.checked_mul(min)? <= self.0.len()).then_some(n)
    }
    fn string(&mut self) -> Option<String> {
        let n = self.u32()? as usize;
        let (s, rest) = self.0.split_at_checked(n)?;
        self.0 = rest;
        String::from_utf8(s.to_vec()).ok()
    }
    fn tokens(&mut self) -> Option<Vec<MoveToken>> {
        let n = self.len(TOKEN_BYTES)?;
        let (all, rest) = self.0.split_at(n * TOKEN_BYTES);
        self.0 = rest;
        let word = |c: &[u8], i: usize| u32::from_le_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
        Some(
            all.chunks_exact(TOKEN_BYTES)
                .map(|c| MoveToken {
                    start: word(c, 0),
                    len: word(c, 4),
                    pos: Pos {
                        line: word(c, 8),
                        column: word(c, 12),
                    },
                    first_var: word(c, 16),
                    last_var: word(c, 20),
                })
                .collect(),
        )
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

/// Character columns of the current line, computed incrementally: tokens come in order, so
/// the counter only moves forward (once per line in all, whatever the number of records on it).
/// A line of ASCII only (almost every line) has its columns at its byte offsets.
#[derive(Clone, Copy)]
struct Columns {
    at: usize,
    col: u32,
    ascii: bool,
}

impl Columns {
    const START: Columns = Columns {
        at: 0,
        col: 1,
        ascii: false,
    };

    #[inline]
    fn col(&mut self, bytes: &[u8], i: usize) -> u32 {
        let i = i.min(bytes.len());
        if self.ascii {
            return i as u32 + 1;
        }
        if i < self.at {
            self.at = 0;
            self.col = 1;
        }
        // Characters are the bytes that do not continue one (a count the compiler vectorizes).
        let continuing = bytes[self.at..i]
            .iter()
            .filter(|&&b| b & 0xC0 == 0x80)
            .count();
        self.col += (i - self.at - continuing) as u32;
        self.at = i;
        self.col
    }
}

/// Bytes of move numbers and dots at the start of a token: `12.`, `12...`, `1.e4`, `...e5`,
/// `3...4.e4`.
fn move_number_len(tok: &[u8]) -> usize {
    let mut k = 0;
    loop {
        let digits = tok[k..].iter().take_while(|b| b.is_ascii_digit()).count();
        if tok.get(k + digits) != Some(&b'.') {
            return k;
        }
        k += digits;
        while k < tok.len() && tok[k] == b'.' {
            k += 1;
        }
    }
}

/// A byte order mark (U+FEFF) at `i`: read as a blank wherever it stands (a file concatenated
/// after another, a stray one inside a line), so that no token starts with one.
fn is_bom(line: &[u8], i: usize) -> bool {
    line.get(i..i + 3) == Some(&[0xEF, 0xBB, 0xBF][..])
}

/// Classes of bytes in move text, for the main loop of [`Builder::feed`]: a token goes on
/// over bytes of the first two classes, any other ends it.
///
/// A byte that starts a token that can only be a move (a letter, mostly).
const SAN: u8 = 0;
/// A byte that starts a token that may be a move number, a glyph or a result (`0`-`9`, `.`,
/// `!`, `?`, `*`, and 0xC2, the first byte of `½`).
const NUM: u8 = 1;
/// A blank.
const BLANK: u8 = 2;
/// A token of its own, 0xEF (a byte order mark may start there; a token goes on over a
/// lone 0xEF, see [`token_end`]), or a lone delimiter (`]`, `}`, `"`).
const OTHER: u8 = 3;

const CLASS: [u8; 256] = {
    const fn set(mut t: [u8; 256], list: &[u8], class: u8) -> [u8; 256] {
        let mut i = 0;
        while i < list.len() {
            t[list[i] as usize] = class;
            i += 1;
        }
        t
    }
    let t = set([SAN; 256], b"0123456789.!?*\xC2", NUM);
    let t = set(t, b" \t\r\n\x0c\x0b", BLANK);
    set(t, b"{}();[]$\"\xEF", OTHER)
};

/// The end of the token going on at byte `i` of `line`: its next delimiter (blank, one of
/// `{}();[]$"`) or byte order mark.
#[inline]
fn token_end(line: &[u8], mut i: usize) -> usize {
    loop {
        i += line[i..]
            .iter()
            .position(|&b| CLASS[b as usize] > NUM)
            .unwrap_or(line.len() - i);
        // A byte 0xEF inside a token (rare): part of it unless a byte order mark.
        if i < line.len() && line[i] == 0xEF && !is_bom(line, i) {
            i += 1;
        } else {
            return i;
        }
    }
}

/// The bytes of a tag name.
const TAG_NAME: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = (b as u8).is_ascii_alphanumeric() || b == b'_' as usize;
        b += 1;
    }
    t
};

/// Where `hay` first holds `a` or `b`. Most comments and tag values are short: eight bytes
/// at a time (each word tested for a byte equal to `a` or `b`), their end is found in fewer
/// instructions than the setup of memchr; longer ones are left to memchr.
#[inline]
fn find2(a: u8, b: u8, hay: &[u8]) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    const SHORT: usize = 64;
    let (ra, rb) = (LO * a as u64, LO * b as u64);
    // The high bit of each byte equal to `a` or `b`: exact for the lowest such byte (a
    // borrow only flags bytes above a match), which is all that is used.
    let hits = |w: u64| {
        let (x, y) = (w ^ ra, w ^ rb);
        ((x.wrapping_sub(LO) & !x) | (y.wrapping_sub(LO) & !y)) & HI
    };
    let word = |k: usize| u64::from_le_bytes(hay[k..k + 8].try_into().unwrap());
    let n = hay.len();
    if n < 8 {
        return hay.iter().position(|&c| c == a || c == b);
    }
    let mut k = 0;
    while k + 8 <= n {
        let t = hits(word(k));
        if t != 0 {
            return Some(k + (t.trailing_zeros() / 8) as usize);
        }
        k += 8;
        if k >= SHORT {
            return memchr::memchr2(a, b, &hay[k..]).map(|j| k + j);
        }
    }
    if k == n {
        return None;
    }
    // The last word overlaps the ones tested: its bytes before `k` match neither.
    let t = hits(word(n - 8));
    (t != 0).then(|| n - 8 + (t.trailing_zeros() / 8) as usize)
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

/// An open variation: the line it interrupts, and where its `(` stands.
struct Open {
    parent: Vec<MoveToken>,
    at: Pos,
}

struct Builder {
    limits: Limits,
    rec: Record,
    stage: Stage,
    /// An open `{` comment: where, and how many bytes it holds so far.
    comment: Option<(Pos, usize)>,
    comment_reported: bool,
    /// The line being read (the main line at depth 0).
    current: Vec<MoveToken>,
    stack: Vec<Open>,
    /// Levels of variations being skipped past the nesting limit.
    skipping: usize,
    /// Moves stored so far; past the limit further moves are skipped.
    stored: usize,
    moves_reported: bool,
    tags_reported: bool,
    /// Errors past the limit (counted, not listed).
    suppressed: usize,
    /// Emptied move lists, reused for later variations.
    spare: Vec<Vec<MoveToken>>,
}

impl Builder {
    fn new(limits: Limits) -> Builder {
        // Sized for a typical game (about 80 plies), so that most records grow no buffer.
        let rec = Record {
            text: String::with_capacity(512),
            tags: Vec::with_capacity(16),
            ..Record::default()
        };
        Builder {
            limits,
            rec,
            stage: Stage::Empty,
            comment: None,
            comment_reported: false,
            current: Vec::with_capacity(128),
            stack: Vec::new(),
            skipping: 0,
            stored: 0,
            moves_reported: false,
            tags_reported: false,
            suppressed: 0,
            spare: Vec::new(),
        }
    }

    fn error(&mut self, pos: Pos, message: impl Into<String>) {
        if self.rec.errors.len() < self.limits.errors {
            self.rec.errors.push(SyntaxError {
                pos,
                message: message.into(),
            });
        } else {
            self.suppressed += 1;
        }
    }

    /// Something of a record was read at `line_no`: the record has started.
    fn begin(&mut self, line_no: u32, stage: Stage) {
        if self.stage == Stage::Empty {
            self.rec.line = line_no;
        }
        self.stage = stage;
    }

    /// Feeds `line` (one input line, without its end) from byte `from`; `cols` is the
    /// column counter of this line.
    fn feed(&mut self, line: &[u8], from: usize, line_no: u32, cols: &mut Columns) -> Fed {
        let mut i = from;
        let n = line.len();
        macro_rules! pos_at {
            ($i:expr) => {
                Pos {
                    line: line_no,
                    column: cols.col(line, $i),
                }
            };
        }
        // An open comment is only ever continued here, at the start of a line: the main loop
        // reads a comment to its end (or the line's) as soon as it opens.
        if let Some((open, len)) = self.comment {
            if i == 0 && self.stage != Stage::Empty && looks_like_tag(line) {
                self.error(
                    open,
                    "unterminated comment: `{` is never closed before the next tag section",
                );
                self.comment = None;
                return Fed::Ended(0);
            }
            match self.comment_body(line, i, open, len) {
                Some(j) => i = j,
                None => return Fed::More,
            }
        } else if i == 0 && line.first() == Some(&b'%') {
            return Fed::More; // escape line
        }
        // The line as a string if it is ASCII, for the moves to be sliced from (and for its
        // columns to be its byte offsets). Checked on the first record of the line only (the
        // later ones, rare, check their moves one by one), so that many records on one line
        // still take linear time.
        let text = if from == 0 {
            let t = ascii_str(line);
            cols.ascii = t.is_some();
            t
        } else {
            None
        };
        while i < n {
            let c = line[i];
            match CLASS[c as usize] {
                BLANK => i += 1,
                SAN => {
                    // A token that starts like a move (a letter, mostly) has no move number,
                    // is no result, no number and no glyph: it is a move, whole.
                    let start = i;
                    i = token_end(line, i + 1);
                    // `exd6 e.p.`: the en passant mark older records write after the move
                    // (the PGN standard leaves it out; python-chess reads past it too).
                    if &line[start..i] == b"e.p." && self.stage == Stage::Moves {
                        continue;
                    }
                    self.begin(line_no, Stage::Moves);
                    self.push_move(line, text, start, i, line_no, cols);
                }
                NUM => {
                    let start = i;
                    // Move numbers first, in one pass: `12.` alone or before a move (`1.e4`)
                    // is most of these tokens.
                    let mut j = i;
                    while j < n && line[j].is_ascii_digit() {
                        j += 1;
                    }
                    if j < n && line[j] == b'.' {
                        j += 1;
                        while j < n && line[j] == b'.' {
                            j += 1;
                        }
                        match line.get(j).map(|&b| CLASS[b as usize]) {
                            // `12.`: nothing but a move number.
                            None | Some(BLANK) => {
                                self.begin(line_no, Stage::Moves);
                                i = j;
                                continue;
                            }
                            // `1.e4`: what follows starts like a move, so it is one (see
                            // `SAN`).
                            Some(SAN) => {
                                i = token_end(line, j + 1);
                                self.begin(line_no, Stage::Moves);
                                self.push_move(line, text, j, i, line_no, cols);
                                continue;
                            }
                            _ => {}
                        }
                    }
                    // Digits and dots go on a token: its end is found from `j` on.
                    i = token_end(line, j);
                    let tok = &line[start..i];
                    let k = move_number_len(tok);
                    // A result glued to a move number (`2.1-0`, `1.*`) is still a result.
                    if let Some(r) = result_token(&tok[k..]) {
                        let p = pos_at!(start);
                        if self.stage == Stage::Empty {
                            self.rec.line = line_no;
                            self.error(
                                p,
                                format!(
                                    "a result token `{r}` with no tags or moves before it (a stray result token?)"
                                ),
                            );
                        }
                        self.stage = Stage::Moves;
                        // Results do not stand inside variations: open ones are
                        // unterminated, the game ends here.
                        self.close_variations();
                        self.rec.result = Some((r.to_string(), p));
                        return Fed::Ended(i);
                    }
                    self.begin(line_no, Stage::Moves);
                    self.symbol(&tok[k..], start + k, line, text, line_no, cols);
                }
                _ => match c {
                    0xEF if is_bom(line, i) => i += 3,
                    0xEF => {
                        // Not a byte order mark: the start of a token (a move, as it starts
                        // with no digit).
                        let start = i;
                        i = token_end(line, i + 1);
                        self.begin(line_no, Stage::Moves);
                        self.push_move(line, text, start, i, line_no, cols);
                    }
                    b'{' => {
                        let p = pos_at!(i);
                        self.begin(line_no, Stage::Moves);
                        self.comment_reported = false;
                        match self.comment_body(line, i + 1, p, 0) {
                            Some(j) => i = j,
                            None => return Fed::More,
                        }
                    }
                    b';' => return Fed::More,
                    b'[' => {
                        if self.stage == Stage::Moves {
                            // A tag after move text: the record ended without a result token.
                            let p = pos_at!(i);
                            self.error(
                                p,
                                "the move text ends without a result token (1-0, 0-1, 1/2-1/2 or *) before the next tag section",
                            );
                            return Fed::Ended(i);
                        }
                        self.begin(line_no, Stage::Tags);
                        i = self.tag(line, text, i, line_no, cols);
                    }
                    b'(' => {
                        let p = pos_at!(i);
                        self.begin(line_no, Stage::Moves);
                        self.open_variation(p);
                        i += 1;
                    }
                    b')' => {
                        let p = pos_at!(i);
                        self.begin(line_no, Stage::Moves);
                        self.close_variation(p);
                        i += 1;
                    }
                    b'$' => {
                        self.begin(line_no, Stage::Moves);
                        i += 1;
                        while i < n && line[i].is_ascii_digit() {
                            i += 1;
                        }
                    }
                    _ => {
                        // A lone delimiter we do not use (`]`, `}`, `"`): it belongs to a
                        // record (a file of only `}` is one bad record, not "no games").
                        let p = pos_at!(i);
                        self.begin(line_no, Stage::Moves);
                        self.error(p, format!("unexpected `{}`", c as char));
                        i += 1;
                    }
                },
            }
        }
        Fed::More
    }

    /// The body of a `{` comment from byte `i` (`len` bytes of it read on earlier lines):
    /// the byte after its `}`, or `None` if it goes on past this line.
    #[inline]
    fn comment_body(&mut self, line: &[u8], i: usize, open: Pos, len: usize) -> Option<usize> {
        let (k, closed) = match find2(b'}', b'}', &line[i..]) {
            Some(k) => (k, true),
            None => (line.len() - i, false),
        };
        let len = len + k;
        if len > self.limits.comment_bytes && !self.comment_reported {
            self.comment_too_long(open);
        }
        if !closed {
            // The line end is part of the comment.
            self.comment = Some((open, len + 1));
            return None;
        }
        self.comment = None;
        Some(i + k + 1)
    }

    #[cold]
    fn comment_too_long(&mut self, open: Pos) {
        self.comment_reported = true;
        self.error(
            open,
            format!(
                "a comment longer than {} bytes (is its `}}` missing?)",
                self.limits.comment_bytes
            ),
        );
    }

    fn open_variation(&mut self, at: Pos) {
        if self.skipping > 0 || self.stack.len() >= self.limits.nesting {
            if self.skipping == 0 {
                self.error(
                    at,
                    format!(
                        "variations nested deeper than {} levels: this one is skipped",
                        self.limits.nesting
                    ),
                );
            }
            self.skipping += 1;
            return;
        }
        let fresh = self.spare.pop().unwrap_or_default();
        let parent = std::mem::replace(&mut self.current, fresh);
        self.stack.push(Open { parent, at });
    }

    fn close_variation(&mut self, at: Pos) {
        if self.skipping > 0 {
            self.skipping -= 1;
            return;
        }
        match self.stack.pop() {
            Some(open) => self.attach(open),
            None => self.error(at, "`)` closes no variation"),
        }
    }

    /// Ends the innermost variation: its moves go to the store, and it is attached to the
    /// last move of the line it interrupted.
    fn attach(&mut self, open: Open) {
        let mut var = std::mem::replace(&mut self.current, open.parent);
        if var.is_empty() {
            self.spare.push(var);
            return;
        }
        let index = self.rec.vars.len() as u32;
        match self.current.last_mut() {
            Some(last) => {
                self.rec.vars.push(Variation {
                    start: self.rec.var_moves.len() as u32,
                    len: var.len() as u32,
                    next: NONE,
                });
                self.rec.var_moves.extend_from_slice(&var);
                if last.first_var == NONE {
                    last.first_var = index;
                } else {
                    self.rec.vars[last.last_var as usize].next = index;
                }
                last.last_var = index;
            }
            None => self.error(open.at, "a variation before any move"),
        }
        var.clear();
        self.spare.push(var);
    }

    /// A move-text symbol after its move numbers (`rest`, from byte `start` of `line`): a move
    /// number, a glyph, or a move.
    fn symbol(
        &mut self,
        rest: &[u8],
        start: usize,
        line: &[u8],
        text: Option<&str>,
        line_no: u32,
        cols: &mut Columns,
    ) {
        // What is left after the move numbers is a move unless it is only digits (a move
        // number) or only glyphs.
        // `0000` is all digits but no move number: the null move of UCI (python-chess writes
        // it so).
        if rest.is_empty()
            || (rest.iter().all(|b| b.is_ascii_digit()) && rest != b"0000")
            || rest.iter().all(|b| matches!(b, b'!' | b'?'))
        {
            return;
        }
        self.push_move(line, text, start, start + rest.len(), line_no, cols);
    }

    /// Stores the move `line[start..end]`, unless past a limit. `text` is the line as a
    /// string if it is ASCII (almost always): then the move is stored with no check of its
    /// bytes.
    #[inline(always)]
    fn push_move(
        &mut self,
        line: &[u8],
        text: Option<&str>,
        start: usize,
        end: usize,
        line_no: u32,
        cols: &mut Columns,
    ) {
        if self.skipping > 0 {
            return;
        }
        let pos = Pos {
            line: line_no,
            column: cols.col(line, start),
        };
        match text {
            Some(t)
                if end - start <= self.limits.token_bytes && self.stored < self.limits.moves =>
            {
                self.keep_move(&t[start..end], pos);
            }
            _ => self.push_move_slow(&line[start..end], pos),
        }
    }

    /// [`Builder::push_move`] past a limit or on a line that is not ASCII.
    #[cold]
    #[inline(never)]
    fn push_move_slow(&mut self, tok: &[u8], pos: Pos) {
        match ascii_str(tok) {
            Some(text) => self.store_move(text, pos),
            None => self.store_move(&String::from_utf8_lossy(tok), pos),
        }
    }

    #[inline]
    fn store_move(&mut self, text: &str, pos: Pos) {
        if text.len() > self.limits.token_bytes {
            self.error(
                pos,
                format!(
                    "a move of {} bytes (at most {} are read): skipped",
                    text.len(),
                    self.limits.token_bytes
                ),
            );
            return;
        }
        if self.stored >= self.limits.moves {
            if !self.moves_reported {
                self.moves_reported = true;
                self.error(
                    pos,
                    format!(
                        "more than {} moves in one record: the rest of its moves are not read",
                        self.limits.moves
                    ),
                );
            }
            return;
        }
        self.keep_move(text, pos);
    }

    /// Stores a move token of the line being read (its limits checked).
    #[inline]
    fn keep_move(&mut self, text: &str, pos: Pos) {
        self.stored += 1;
        let s = self.rec.text.len() as u32;
        self.rec.text.push_str(text);
        self.current.push(MoveToken {
            start: s,
            len: text.len() as u32,
            pos,
            first_var: NONE,
            last_var: NONE,
        });
    }

    /// A tag pair from `[` at `i`; returns the byte after it.
    /// `text` is the line as a string if it is ASCII (see [`Builder::push_move`]).
    fn tag(
        &mut self,
        line: &[u8],
        text: Option<&str>,
        i: usize,
        line_no: u32,
        cols: &mut Columns,
    ) -> usize {
        let n = line.len();
        let open = Pos {
            line: line_no,
            column: cols.col(line, i),
        };
        let mut j = i + 1;
        while j < n && line[j].is_ascii_whitespace() {
            j += 1;
        }
        let name_start = j;
        while j < n && TAG_NAME[line[j] as usize] {
            j += 1;
        }
        let name_bytes = &line[name_start..j];
        while j < n && line[j].is_ascii_whitespace() {
            j += 1;
        }
        if name_bytes.is_empty() || j >= n || line[j] != b'"' {
            self.error(open, "malformed tag pair: expected [Name \"value\"]");
            return skip_past(line, i, b']');
        }
        // Of an ASCII line, the name and value are copied as they stand, with no check.
        let owned = |a: usize, b: usize| match text {
            Some(t) => t[a..b].to_owned(),
            None => lossy(&line[a..b]),
        };
        let name = owned(name_start, name_start + name_bytes.len());
        let vpos = Pos {
            line: line_no,
            column: cols.col(line, j),
        };
        j += 1;
        // The value up to its closing quote; copied piecewise only when it has escapes.
        let mut escaped: Option<Vec<u8>> = None;
        let mut seg = j;
        let mut end = j;
        let mut closed = false;
        while let Some(off) = find2(b'"', b'\\', &line[j..]) {
            let at = j + off;
            if line[at] == b'"' {
                closed = true;
                end = at;
                j = at + 1;
                break;
            }
            if at + 1 < n && matches!(line[at + 1], b'"' | b'\\') {
                let v = escaped.get_or_insert_with(Vec::new);
                v.extend_from_slice(&line[seg..at]);
                v.push(line[at + 1]);
                j = at + 2;
                seg = j;
            } else {
                // A backslash that escapes nothing stands for itself.
                j = at + 1;
            }
        }
        if !closed {
            self.error(
                vpos,
                format!("tag `{name}`: the value's quote is never closed"),
            );
            return n;
        }
        if let Some(v) = &mut escaped {
            v.extend_from_slice(&line[seg..end]);
        }
        let value: &[u8] = escaped.as_deref().unwrap_or(&line[seg..end]);
        while j < n && line[j].is_ascii_whitespace() {
            j += 1;
        }
        if j < n && line[j] == b']' {
            j += 1;
        } else {
            self.error(open, format!("tag `{name}`: missing `]`"));
        }
        if value.len() > self.limits.tag_value_bytes {
            self.error(
                vpos,
                format!(
                    "tag `{name}`: a value of {} bytes (at most {}): the tag is skipped",
                    value.len(),
                    self.limits.tag_value_bytes
                ),
            );
            return j;
        }
        if self.rec.tags.len() >= self.limits.tags {
            if !self.tags_reported {
                self.tags_reported = true;
                self.error(
                    open,
                    format!(
                        "more than {} tags in one record: the rest are skipped",
                        self.limits.tags
                    ),
                );
            }
            return j;
        }
        self.rec.tags.push(Tag {
            name,
            value: match escaped {
                Some(v) => lossy(&v),
                None => owned(seg, end),
            },
            pos: vpos,
        });
        j
    }

    fn close_variations(&mut self) {
        if self.skipping > 0 {
            self.skipping = 0;
        }
        while let Some(open) = self.stack.pop() {
            self.error(open.at, "unterminated variation: `(` is never closed");
            self.attach(open);
        }
    }

    /// Closes the record at the end of its text (`end` is where the input stopped).
    fn finish(mut self, end: Pos, eof: bool) -> Record {
        if let Some((open, _)) = self.comment.take() {
            self.error(open, "unterminated comment: `{` is never closed");
        }
        self.close_variations();
        if eof && self.rec.result.is_none() {
            self.error(
                end,
                "the record ends without a result token (1-0, 0-1, 1/2-1/2 or *): truncated?",
            );
        }
        if self.suppressed > 0 {
            let last = self.rec.errors.last().map(|e| e.pos).unwrap_or(end);
            self.rec.errors.push(SyntaxError {
                pos: last,
                message: format!(
                    "{} more syntax errors in this record are not listed",
                    self.suppressed
                ),
            });
        }
        self.rec.moves = self.current;
        self.rec.end = end;
        self.rec
    }
}

/// `bytes` as a string: UTF-8, or else Windows-1252, the encoding of older PGN archives
/// (ChessBase and SCID exports write `J\xfcrgen`): a text that is not UTF-8 is read byte by
/// byte as that code page, so no name is lost to replacement characters. (ASCII, most tags,
/// is tested first.)
fn lossy(bytes: &[u8]) -> String {
    if let Some(t) = ascii_str(bytes) {
        return t.to_owned();
    }
    match std::str::from_utf8(bytes) {
        Ok(t) => t.to_owned(),
        Err(_) => bytes.iter().map(|&b| windows_1252(b)).collect(),
    }
}

/// One byte of Windows-1252 as a character: Latin-1, but for 0x80-0x9F, where it has
/// typographic signs (the five bytes it leaves undefined stay the control characters of the
/// same number, as the WHATWG decoder has them).
fn windows_1252(b: u8) -> char {
    const HIGH: [u16; 32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
        0x2039, 0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013,
        0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ];
    match b {
        0x80..=0x9F => char::from_u32(u32::from(HIGH[usize::from(b - 0x80)])).unwrap_or('\u{FFFD}'),
        _ => char::from(b),
    }
}

/// `bytes` as a string if they are ASCII (cheaper than the UTF-8 check for short texts).
#[inline]
fn ascii_str(bytes: &[u8]) -> Option<&str> {
    if bytes.is_ascii() {
        // SAFETY: ASCII bytes are valid UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        None
    }
}

fn skip_past(line: &[u8], from: usize, b: u8) -> usize {
    match memchr::memchr(b, &line[from..]) {
        Some(k) => from + k + 1,
        None => line.len(),
    }
}

/// Reads game records one at a time from a buffered source.
pub struct Reader<R> {
    src: R,
    limits: Limits,
    line: Vec<u8>,
    line_no: u32,
    /// Byte where the unread rest of `line` starts; `None` when a new line is needed.
    cursor: Option<usize>,
    /// Columns of the current line (kept across the records that share it).
    cols: Columns,
    /// Bytes of the current line beyond [`Limits::line_bytes`] (skipped).
    overlong: Option<u64>,
    offset: u64,
    eof: bool,
    /// Length of the previous line (for the position of the end of the input).
    last_len: usize,
}

impl<R: BufRead> Reader<R> {
    /// A reader over `src` with the default [`Limits`].
    pub fn new(src: R) -> Reader<R> {
        Reader::with_limits(src, Limits::default())
    }

    /// A reader over `src` with other limits.
    pub fn with_limits(src: R, limits: Limits) -> Reader<R> {
        Reader {
            src,
            limits,
            line: Vec::with_capacity(256),
            line_no: 0,
            cursor: None,
            cols: Columns::START,
            overlong: None,
            offset: 0,
            eof: false,
            last_len: 0,
        }
    }

    /// Reads the next line into `self.line` (without its end), keeping at most
    /// `limits.line_bytes` of it; `false` at the end of the input.
    fn read_line(&mut self) -> io::Result<bool> {
        self.last_len = self.line.len();
        self.line.clear();
        self.cols = Columns::START;
        self.overlong = None;
        let mut any = false;
        let mut dropped = 0u64;
        // The common case first: the whole line is in the buffer, and short enough.
        let buf = loop {
            match self.src.fill_buf() {
                Ok(b) => break b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        let whole = match memchr::memchr(b'\n', buf) {
            Some(k) if k < self.limits.line_bytes => {
                self.line.extend_from_slice(&buf[..k]);
                self.src.consume(k + 1);
                self.offset += k as u64 + 1;
                any = true;
                true
            }
            _ => false,
        };
        // Otherwise piece by piece, up to the line's end or the input's.
        if !whole {
            loop {
                let buf = match self.src.fill_buf() {
                    Ok(b) => b,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                };
                if buf.is_empty() {
                    break;
                }
                any = true;
                let (take, done) = match memchr::memchr(b'\n', buf) {
                    Some(k) => (k + 1, true),
                    None => (buf.len(), false),
                };
                let room = self.limits.line_bytes.saturating_sub(self.line.len());
                let keep = take.min(room);
                self.line.extend_from_slice(&buf[..keep]);
                dropped += (take - keep) as u64;
                self.src.consume(take);
                self.offset += take as u64;
                if done {
                    break;
                }
            }
        }
        if !any {
            return Ok(false);
        }
        self.line_no = self.line_no.saturating_add(1);
        while matches!(self.line.last(), Some(b'\n' | b'\r')) {
            self.line.pop();
        }
        if dropped > 0 {
            // Cut at the last blank, so that no token is read in half.
            if let Some(k) = self.line.iter().rposition(|b| b.is_ascii_whitespace()) {
                dropped += (self.line.len() - k) as u64;
                self.line.truncate(k);
            }
            self.overlong = Some(dropped);
        }
        // A byte order mark (at the start of the file, or of a file concatenated later).
        if self.line.starts_with(&[0xEF, 0xBB, 0xBF]) {
            self.line.drain(..3);
        }
        // Whether the line is ASCII is found by the first `feed` of it.
        self.cols = Columns::START;
        Ok(true)
    }

    /// The next record, `None` at the end of the input.
    pub fn next_record(&mut self) -> io::Result<Option<Record>> {
        if self.eof {
            return Ok(None);
        }
        let mut b = Builder::new(self.limits);
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
            let fed = b.feed(&self.line, from, self.line_no, &mut self.cols);
            let line_done = match fed {
                Fed::More => true,
                Fed::Ended(at) => at >= self.line.len(),
            };
            if let (true, Some(dropped)) = (line_done, self.overlong) {
                // Reported in the record that read the end of the line.
                self.overlong = None;
                let column = self.cols.col(&self.line, self.line.len());
                if b.stage == Stage::Empty {
                    b.begin(self.line_no, Stage::Moves);
                }
                b.error(
                    Pos {
                        line: self.line_no,
                        column,
                    },
                    format!(
                        "line {} is longer than {} bytes: its last {dropped} bytes are skipped",
                        self.line_no, self.limits.line_bytes
                    ),
                );
            }
            match fed {
                Fed::More => self.cursor = None,
                Fed::Ended(at) => {
                    self.cursor = if at < self.line.len() { Some(at) } else { None };
                    let end = Pos {
                        line: self.line_no,
                        column: self.cols.col(&self.line, at),
                    };
                    let mut r = b.finish(end, false);
                    r.end_offset = self.offset;
                    if r.result.is_none() && r.tags.is_empty() && r.moves.is_empty() {
                        // Only an unterminated comment's recovery: nothing to report twice.
                        if r.errors.is_empty() {
                            b = Builder::new(self.limits);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_en_passant_mark_after_a_move_is_read_past() {
        let pgn = b"[Event \"x\"]\n\n1. e4 a6 2. e5 d5 3. exd6 e.p. Kd7 *\n";
        let mut r = super::Reader::new(&pgn[..]);
        let rec = r.next_record().unwrap().unwrap();
        let moves: Vec<&str> = rec.moves.iter().map(|m| m.text(&rec)).collect();
        assert_eq!(moves, ["e4", "a6", "e5", "d5", "exd6", "Kd7"]);
        assert!(rec.errors.is_empty(), "{:?}", rec.errors);
    }

    #[test]
    fn texts_that_are_not_utf8_are_read_as_windows_1252() {
        assert_eq!(super::lossy(b"J\xfcrgen"), "J\u{fc}rgen");
        assert_eq!(
            super::lossy(b"\x93Qg7\x94 \x80 \x81"),
            "\u{201c}Qg7\u{201d} \u{20ac} \u{81}"
        );
        // UTF-8 stands as it is.
        assert_eq!(super::lossy("J\u{fc}rgen".as_bytes()), "J\u{fc}rgen");
        let pgn = b"[Event \"x\"]\n[White \"Hj\xf6rvar\"]\n\n1. e4 *\n";
        let mut r = super::Reader::new(&pgn[..]);
        let rec = r.next_record().unwrap().unwrap();
        assert_eq!(rec.tag("White").unwrap().value, "Hj\u{f6}rvar");
    }

    fn texts(r: &Record, line: &[MoveToken]) -> Vec<String> {
        line.iter().map(|m| m.text(r).to_string()).collect()
    }

    fn vars<'a>(r: &'a Record, tok: &MoveToken) -> Vec<&'a [MoveToken]> {
        r.variations(tok).collect()
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
    fn find2_finds_the_first_of_two_bytes_at_every_length() {
        for n in 0..150 {
            for at in (0..n).chain([n]) {
                for (i, hit) in [b'}', b'"'].into_iter().enumerate() {
                    // Bytes just beside the two searched, and a second hit after the first.
                    let mut hay: Vec<u8> =
                        (0..n).map(|k| [b'|', b'~', 0x80, 0xFF][k % 4]).collect();
                    if at < n {
                        hay[at] = hit;
                        if at + 3 < n {
                            hay[at + 3] = [b'"', b'}'][i];
                        }
                    }
                    let want = (at < n).then_some(at);
                    assert_eq!(find2(b'}', b'"', &hay), want, "{n} {at}");
                }
            }
        }
    }

    #[test]
    fn a_uci_null_move_is_a_move_not_a_move_number() {
        let r = &read_all("1. e4 0000 2. d4 12 Nf6 *")[0];
        assert_eq!(texts(r, &r.moves), ["e4", "0000", "d4", "Nf6"]);
        assert_eq!(r.moves[1].pos, Pos { line: 1, column: 7 });
    }

    #[test]
    fn variations_attach_to_the_move_they_replace() {
        let recs = read_all("1. e4 (1. d4 d5 (1... Nf6)) 1... e5 (1... c5 2. Nf3) 2. Nf3 *");
        let r = &recs[0];
        assert_eq!(texts(r, &r.moves), ["e4", "e5", "Nf3"]);
        let v = vars(r, &r.moves[0]);
        assert_eq!(v.len(), 1);
        assert_eq!(texts(r, v[0]), ["d4", "d5"]);
        assert_eq!(texts(r, vars(r, &v[0][1])[0]), ["Nf6"]);
        assert_eq!(texts(r, vars(r, &r.moves[1])[0]), ["c5", "Nf3"]);
        assert!(!r.moves[2].has_variations());
        assert_eq!(r.variation_count(), 3);
    }

    #[test]
    fn sibling_variations_keep_their_order() {
        let r = &read_all("1. e4 (1. d4) (1. c4 (1. Nf3)) (1. b3) e5 *")[0];
        let v: Vec<Vec<String>> = vars(r, &r.moves[0]).iter().map(|v| texts(r, v)).collect();
        assert_eq!(v, [vec!["d4"], vec!["c4"], vec!["b3"]]);
        let c4 = vars(r, &r.moves[0])[1];
        assert_eq!(texts(r, vars(r, &c4[0])[0]), ["Nf3"]);
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

    /// Issue 14 reproducer 1: variations 30,000 deep are read without recursion (and
    /// dropped without it); past the nesting limit they are skipped and reported.
    #[test]
    fn deep_variations_are_bounded_not_a_stack_overflow() {
        let deep = |n: usize| format!("1. e4 {}{} *", "(e4 ".repeat(n), ")".repeat(n));
        let r = &read_all(&deep(1000))[0];
        assert!(r.errors.is_empty(), "{:?}", r.errors);
        assert_eq!(r.variation_count(), 1000);
        let mut depth = 0;
        let mut tok = r.moves[0];
        while let Some(v) = r.variations(&tok).next() {
            depth += 1;
            tok = v[0];
        }
        assert_eq!(depth, 1000);
        let r = &read_all(&deep(30_000))[0];
        assert_eq!(r.errors.len(), 1, "{:?}", r.errors);
        assert!(r.errors[0].message.contains("nested deeper than 1000"));
        assert_eq!(
            r.errors[0].pos,
            Pos {
                line: 1,
                column: 7 + 4 * 1000
            }
        );
        assert_eq!(r.variation_count(), 1000);
        assert_eq!(r.result.as_ref().unwrap().0, "*");
        // The explicit stack also survives a thread with a small stack.
        let text = deep(30_000);
        std::thread::Builder::new()
            .stack_size(64 << 10)
            .spawn(move || {
                let limits = Limits {
                    nesting: usize::MAX,
                    ..Limits::default()
                };
                let r = Reader::with_limits(text.as_bytes(), limits)
                    .next_record()
                    .unwrap()
                    .unwrap();
                assert_eq!(r.variation_count(), 30_000);
                drop(r);
            })
            .unwrap()
            .join()
            .unwrap();
    }

    /// Issue 14 reproducer 2: many records on one line are read in linear time (the column
    /// counter no longer starts over for each record), with the right columns.
    #[test]
    fn many_records_on_one_line_have_their_columns() {
        let line = "1. e4 e5 * ".repeat(80_000);
        let recs: Vec<Record> = Reader::new(line.as_bytes()).map(|r| r.unwrap()).collect();
        assert_eq!(recs.len(), 80_000);
        let last = &recs[79_999];
        assert_eq!(last.moves[0].pos.column, 1 + 11 * 79_999 + 3);
        assert!(last.errors.is_empty());
    }

    #[test]
    fn limits_are_errors_of_the_record_at_their_place() {
        let limits = Limits {
            moves: 3,
            token_bytes: 8,
            comment_bytes: 10,
            tags: 1,
            tag_value_bytes: 5,
            errors: 2,
            ..Limits::default()
        };
        let read = |t: &str| {
            Reader::with_limits(t.as_bytes(), limits)
                .map(|r| r.unwrap())
                .collect::<Vec<_>>()
        };
        let r = &read("1. e4 e5 2. Nf3 Nc6 3. Bb5 *\n1. d4 *")[..];
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].moves.len(), 3);
        assert_eq!(
            r[0].errors[0].pos,
            Pos {
                line: 1,
                column: 17
            }
        );
        assert!(r[0].errors[0].message.contains("more than 3 moves"));
        assert!(r[1].errors.is_empty());
        let r = &read("1. e4 Nf3xxxxxxxx *")[0];
        assert_eq!(r.moves.len(), 1);
        assert!(r.errors[0].message.contains("a move of 11 bytes"));
        let r = &read("[A \"1\"]\n[B \"2\"]\n[C \"123456\"]\n1. e4 {0123456789ab} *")[0];
        assert_eq!(r.tags.len(), 1);
        assert_eq!(r.errors.len(), 3, "{:?}", r.errors);
        assert!(r.errors[0].message.contains("more than 1 tags"));
        assert!(r.errors[1].message.contains("a value of 6 bytes"));
        assert!(r.errors[2].message.contains("1 more syntax errors"));
    }

    #[test]
    fn an_overlong_line_is_cut_at_a_blank_and_reported() {
        let limits = Limits {
            line_bytes: 20,
            ..Limits::default()
        };
        let text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6\n*\n1. d4 *\n";
        let recs: Vec<Record> = Reader::with_limits(text.as_bytes(), limits)
            .map(|r| r.unwrap())
            .collect();
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[0].moves.len(), 4);
        assert!(recs[0]
            .errors
            .iter()
            .any(|e| e.message.contains("longer than 20 bytes")));
        assert!(recs[1].errors.is_empty());
    }

    #[test]
    fn stray_tokens_are_records_with_errors_not_silence() {
        let recs = read_all("}");
        assert_eq!(recs.len(), 1);
        assert!(recs[0].errors[0].message.contains("unexpected `}`"));
        // A second result token is no phantom valid game.
        let recs = read_all("1. e4 e5 1-0 1-0\n");
        assert_eq!(recs.len(), 2);
        assert!(recs[0].errors.is_empty());
        assert!(recs[1].errors[0].message.contains("stray result token"));
        assert_eq!(
            recs[1].errors[0].pos,
            Pos {
                line: 1,
                column: 14
            }
        );
        // Empty input, blank lines, a `;` comment or an escape line: no record at all.
        for empty in ["", "\n\n  \n", "; nothing\n", "% escape\n"] {
            assert!(read_all(empty).is_empty(), "{empty:?}");
        }
    }

    #[test]
    fn records_survive_their_binary_form() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/data/records/annotated.pgn"
        ))
        .unwrap();
        let recs = read_all(&(text + "\n[Event \"x\"]\n1. e4 (1. d4 {c} (1. c4)) e5 )( *"));
        assert!(recs.len() >= 3);
        for r in &recs {
            let mut b = Vec::new();
            r.encode(&mut b);
            let back = Record::decode(&b).expect("decodes");
            assert_eq!(&back, r);
            // Cut or corrupted bytes are refused, never a panic.
            for cut in [0, 1, b.len() / 2, b.len() - 1] {
                assert!(Record::decode(&b[..cut]).is_none());
            }
            let mut bad = b.clone();
            let k = bad.len() - 3;
            bad[k] ^= 0xff;
            let _ = Record::decode(&bad);
        }
    }

    #[test]
    fn move_numbers_in_every_form_are_not_moves() {
        let r =
            &read_all("1.e4 ...e5 2... 3.Nf3 ..21.Qe2 .2 4...5. Nc6 6.1-0 2. e4 1.* 3. Nf3 *")[0];
        assert_eq!(texts(r, &r.moves), ["e4", "e5", "Nf3", "Qe2", "Nc6"]);
        assert_eq!(r.result.as_ref().unwrap().0, "1-0");
    }

    #[test]
    fn columns_count_characters() {
        let r = &read_all("[White \"Ré\"] é4 ü5 *")[0];
        assert_eq!(
            r.moves[0].pos,
            Pos {
                line: 1,
                column: 14
            }
        );
        assert_eq!(
            r.moves[1].pos,
            Pos {
                line: 1,
                column: 17
            }
        );
    }
}
