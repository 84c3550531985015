//! The JSON of a [`GameReport`], written by hand into one buffer: the same bytes as
//! `serde_json::to_vec` of the report (a test compares them), without serde's per-field map
//! machinery for the plies, which are most of the text (the `engine` field is flattened, so
//! the derived code serializes every ply as a map, escaping each key).
//!
//! The plies and their events, the tags, presets and result are written here (the fields of
//! every record); the rarer ones (errors, warnings, a fault) go through serde_json as values.

use crate::analyze::{EventReport, GameReport, Ply, ResultReport, Tags};
use houserules_plugin_api::Square;
use std::mem::MaybeUninit;

/// Appends the JSON of `r` to `out` (what `serde_json::to_vec(r)` gives).
pub fn write_report(r: &GameReport, out: &mut Vec<u8>) {
    let plies = r.plies.as_ref().map_or(0, |p| p.len());
    // About what a ply takes (a FEN, two move names, the keys, an event now and then, about
    // 150 bytes on real games): one allocation per report, not a growth every few plies.
    out.reserve(512 + plies * 192);
    out.extend_from_slice(b"{\"index\":");
    number(out, r.index);
    out.extend_from_slice(b",\"file\":");
    string(out, &r.file);
    out.extend_from_slice(b",\"line\":");
    number(out, r.line as u64);
    out.extend_from_slice(b",\"tags\":");
    tags(out, &r.tags);
    out.extend_from_slice(b",\"variant\":");
    opt_string(out, r.variant.as_deref());
    out.extend_from_slice(b",\"layout\":");
    opt_string(out, r.layout.as_deref());
    out.extend_from_slice(b",\"presets\":");
    list(out, &r.presets, |out, p| string(out, p));
    out.extend_from_slice(b",\"ply_count\":");
    number(out, r.ply_count as u64);
    if let Some(plies) = &r.plies {
        out.extend_from_slice(b",\"plies\":");
        list(out, plies.iter(), ply);
    }
    out.extend_from_slice(b",\"final_fen\":");
    opt_string(out, r.final_fen.as_deref());
    out.extend_from_slice(b",\"result\":");
    result(out, &r.result);
    out.extend_from_slice(b",\"errors\":");
    value(out, &r.errors);
    out.extend_from_slice(b",\"warnings\":");
    value(out, &r.warnings);
    if let Some(f) = &r.fault {
        out.extend_from_slice(b",\"fault\":");
        value(out, f);
    }
    out.push(b'}');
}

/// The tags as an object, in input order (a key that repeats is written again, as serde's
/// map of the pairs writes it).
fn tags(out: &mut Vec<u8>, t: &Tags) {
    out.push(b'{');
    for (i, (k, v)) in t.0.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        string(out, k);
        out.push(b':');
        string(out, v);
    }
    out.push(b'}');
}

fn result(out: &mut Vec<u8>, r: &ResultReport) {
    out.extend_from_slice(b"{\"declared\":");
    opt_string(out, r.declared.as_deref());
    out.extend_from_slice(b",\"computed\":");
    string(out, &r.computed);
    out.extend_from_slice(b",\"termination\":");
    string(out, &r.termination);
    out.extend_from_slice(b",\"claimable\":");
    opt_string(out, r.claimable.as_deref());
    out.extend_from_slice(match r.agrees {
        None => b",\"agrees\":null}".as_slice(),
        Some(true) => b",\"agrees\":true}",
        Some(false) => b",\"agrees\":false}",
    });
}

fn ply(out: &mut Vec<u8>, p: Ply<'_>) {
    let (texts, escape_free) = p.texts();
    if p.engine.is_none() && texts.len() <= PLAIN_TEXTS && escape_free {
        return plain_ply(out, p);
    }
    general_ply(out, p);
}

/// [`ply`] field by field, each text escaped as it needs.
fn general_ply(out: &mut Vec<u8>, p: Ply<'_>) {
    out.extend_from_slice(b"{\"ply\":");
    number(out, p.ply as u64);
    out.extend_from_slice(b",\"san\":");
    string(out, p.san());
    out.extend_from_slice(b",\"move\":");
    string(out, p.coordinate());
    out.extend_from_slice(b",\"fen\":");
    string(out, p.fen());
    out.extend_from_slice(if p.check {
        b",\"check\":true,\"events\":"
    } else {
        b",\"check\":false,\"events\":"
    });
    list(out, &p.events, event);
    if let Some(eval) = &p.engine {
        // Flattened: the evaluation's fields follow the ply's in the same object.
        let text = serde_json::to_vec(eval).unwrap_or_default();
        if let Some(inner) = text
            .strip_prefix(b"{")
            .and_then(|t| t.strip_suffix(b"}"))
            .filter(|t| !t.is_empty())
        {
            out.push(b',');
            out.extend_from_slice(inner);
        }
    }
    out.push(b'}');
}

/// The longest texts (SAN, coordinate form and FEN together) [`plain_ply`] writes.
const PLAIN_TEXTS: usize = 160;

/// [`ply`] of a ply without engine fields whose texts need no escape and are at most
/// [`PLAIN_TEXTS`] bytes (every ply of 8x8 chess): written straight into `out`'s spare
/// capacity (no zeroed buffer, no second copy), every part a fixed-size copy, the texts too:
/// the SAN and the coordinate form are followed by at least 16 bytes of the ply's texts (its
/// FEN), so 16 bytes are copied from where each starts and the position advanced by its
/// length; the FEN goes 16 bytes a step, its last step ending on its end.
fn plain_ply(out: &mut Vec<u8>, p: Ply<'_>) {
    let (texts, san_len, coordinate_len) = p.text_parts();
    let t = texts.as_bytes();
    let fen = t.get(san_len + coordinate_len..).unwrap_or_default();
    if san_len > 16 || coordinate_len > 16 || fen.len() < 16 {
        return general_ply(out, p);
    }
    // Room for the texts, the fixed parts and the 16-byte steps' overshoot.
    const ROOM: usize = PLAIN_TEXTS + 128;
    out.reserve(ROOM);
    let start = out.len();
    let Some(b) = out.spare_capacity_mut().get_mut(..ROOM) else {
        return general_ply(out, p);
    };
    let mut n = 0;
    put(b, &mut n, b"{\"ply\":");
    put(b, &mut n, itoa::Buffer::new().format(p.ply).as_bytes());
    put(b, &mut n, b",\"san\":\"");
    put16(b, &mut n, t.get(..16), san_len);
    put(b, &mut n, b"\",\"move\":\"");
    put16(b, &mut n, t.get(san_len..san_len + 16), coordinate_len);
    put(b, &mut n, b"\",\"fen\":\"");
    let mut i = 0;
    while i + 16 < fen.len() {
        put16(b, &mut n, fen.get(i..i + 16), 16);
        i += 16;
    }
    // The last step ends on the FEN's end (it may overlap the one before).
    let last = fen.len() - 16;
    n -= i - last;
    put16(b, &mut n, fen.get(last..), 16);
    put(
        b,
        &mut n,
        if p.check {
            b"\",\"check\":true,\"events\":"
        } else {
            b"\",\"check\":false,\"events\":"
        },
    );
    let done = p.events.is_empty();
    if done {
        put(b, &mut n, b"[]}");
    }
    // SAFETY: `put` and `put16` wrote every byte of `b[..n]` (each advances `n` over bytes
    // it wrote, never past `b`'s end), and `b` is the spare capacity right after `start`.
    unsafe { out.set_len(start + n) };
    if !done {
        list(out, &p.events, event);
        out.push(b'}');
    }
}

/// Writes `bytes` into `b` at `n` and advances `n` over them (never past `b`'s end: the
/// caller sized it).
#[inline(always)]
fn put(b: &mut [MaybeUninit<u8>], n: &mut usize, bytes: &[u8]) {
    if let Some(d) = b.get_mut(*n..*n + bytes.len()) {
        d.write_copy_of_slice(bytes);
        *n += bytes.len();
    }
}

/// Writes the 16 bytes `from` into `b` at `n` and advances `n` by `len` (at most 16: the
/// length of the text that starts them).
#[inline(always)]
fn put16(b: &mut [MaybeUninit<u8>], n: &mut usize, from: Option<&[u8]>, len: usize) {
    if let (Some(d), Some(s)) = (b.get_mut(*n..*n + 16), from) {
        d.write_copy_of_slice(s);
        *n += len.min(16);
    }
}

fn event(out: &mut Vec<u8>, e: &EventReport) {
    out.extend_from_slice(b"{\"kind\":");
    string(out, e.kind);
    if let Some(sq) = e.square {
        out.extend_from_slice(b",\"square\":");
        square(out, sq);
    }
    if let Some(sq) = e.to {
        out.extend_from_slice(b",\"to\":");
        square(out, sq);
    }
    if let Some(c) = e.piece {
        out.extend_from_slice(b",\"piece\":");
        string(out, c.encode_utf8(&mut [0; 4]));
    }
    out.extend_from_slice(b",\"value\":");
    if e.value < 0 {
        out.push(b'-');
    }
    number(out, e.value.unsigned_abs() as u64);
    if let Some(s) = &e.note {
        out.extend_from_slice(b",\"note\":");
        string(out, s);
    }
    out.push(b'}');
}

/// A square's name as a JSON string (a letter and digits: nothing to escape).
fn square(out: &mut Vec<u8>, sq: Square) {
    out.push(b'"');
    sq.write_name(|b| out.push(b));
    out.push(b'"');
}

/// A JSON array of `items`, each written by `each`.
fn list<T>(out: &mut Vec<u8>, items: impl IntoIterator<Item = T>, each: fn(&mut Vec<u8>, T)) {
    out.push(b'[');
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        each(out, x);
    }
    out.push(b']');
}

/// Any other value, through serde_json (writing to a `Vec` cannot fail; a value that cannot
/// be serialized, which none of these is, would write nothing).
fn value<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) {
    let _ = serde_json::to_writer(&mut *out, v);
}

/// `n` in decimal (what serde_json writes), without the formatting machinery.
fn number(out: &mut Vec<u8>, n: u64) {
    // Not `write!`: the formatting machinery costs more than the digits (a ply number each).
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

fn opt_string(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => string(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

/// A JSON string, escaped as serde_json escapes it: `"`, `\\` and the control bytes, the ones
/// with a short form (`\n` ...) in it, the others as `\u00XX`; everything else (0x7f and bytes
/// beyond ASCII too) copied. Clean runs are copied whole: move names and FENs are one run.
fn string(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    let at = first_escaped(b);
    if at == b.len() {
        out.reserve(b.len() + 2);
        out.push(b'"');
        out.extend_from_slice(b);
        out.push(b'"');
    } else {
        escaped(out, b, at);
    }
}

/// [`string`] of `b` whose first escaped byte is at `at` (apart: rare, and the clean path
/// stays small).
#[cold]
#[inline(never)]
fn escaped(out: &mut Vec<u8>, b: &[u8], mut at: usize) {
    out.reserve(b.len() + 8);
    out.push(b'"');
    let mut run = 0;
    while let Some(&c) = b.get(at) {
        out.extend_from_slice(&b[run..at]);
        let short = match c {
            b'"' => b'"',
            b'\\' => b'\\',
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            0x08 => b'b',
            0x0c => b'f',
            _ => 0,
        };
        if short != 0 {
            out.extend_from_slice(&[b'\\', short]);
        } else {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[(c >> 4) as usize],
                HEX[(c & 0xf) as usize],
            ]);
        }
        run = at + 1;
        at = run + first_escaped(&b[run..]);
    }
    out.extend_from_slice(&b[run..]);
    out.push(b'"');
}

/// Whether `b` holds no byte JSON escapes (a control byte, `"` or `\\`). Checked for a
/// described line's texts at once (kilobytes): 64 bytes a step with SSE2 where the target has
/// it (every x86-64), the exact place of a byte left to [`first_escaped`].
pub(crate) fn escape_free(b: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE2 is part of the x86-64 baseline, so every x86-64 processor has it.
        unsafe { escape_free_sse2(b) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        first_escaped(b) == b.len()
    }
}

/// [`escape_free`] with SSE2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
fn escape_free_sse2(b: &[u8]) -> bool {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    let quote = _mm_set1_epi8(b'"' as i8);
    let backslash = _mm_set1_epi8(b'\\' as i8);
    let control = _mm_set1_epi8(0x1f);
    // The lanes of 16 bytes that JSON escapes: `"`, `\\`, or at most 0x1f (unsigned).
    let marks = |x: __m128i| {
        _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, backslash)),
            _mm_cmpeq_epi8(_mm_max_epu8(x, control), control),
        )
    };
    let mut blocks = b.chunks_exact(64);
    for block in &mut blocks {
        // SAFETY: each load reads 16 of the block's 64 bytes; `loadu` needs no alignment.
        let [w, x, y, z] = [0, 16, 32, 48]
            .map(|at| unsafe { _mm_loadu_si128(block.as_ptr().add(at).cast::<__m128i>()) });
        let all = _mm_or_si128(
            _mm_or_si128(marks(w), marks(x)),
            _mm_or_si128(marks(y), marks(z)),
        );
        if _mm_movemask_epi8(all) != 0 {
            return false;
        }
    }
    first_escaped(blocks.remainder()) == blocks.remainder().len()
}

/// The index of the first byte of `b` JSON escapes (a control byte, `"` or `\\`), `b.len()`
/// if none: eight bytes at a time, the last (or only) few read as one overlapping word.
#[inline]
fn first_escaped(b: &[u8]) -> usize {
    let mut at = 0;
    while let Some(c) = b.get(at..at + 8) {
        if let Some(j) = escaped_lane(word(c)) {
            return at + j;
        }
        at += 8;
    }
    let tail = &b[at..];
    // The tail's bytes fill all eight lanes (repeated where it is short), so a lane found
    // stands for a tail byte: the byte-by-byte look names which (rare: most strings are clean).
    let x = match *tail {
        [] => return b.len(),
        [a] => u64::from(a) * ONES,
        [a, z] => u64::from(u16::from_le_bytes([a, z])) * 0x0001_0001_0001_0001,
        [a, m, z] => u64::from(u32::from_le_bytes([a, m, z, z])) * 0x1_0000_0001,
        _ => {
            // 4 to 7 bytes: the first four and the last four, overlapping.
            let n = tail.len();
            let lo = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
            let hi = u32::from_le_bytes([tail[n - 4], tail[n - 3], tail[n - 2], tail[n - 1]]);
            u64::from(lo) | u64::from(hi) << 32
        }
    };
    if escaped_lane(x).is_none() {
        return b.len();
    }
    at + tail
        .iter()
        .position(|&c| c < 0x20 || c == b'"' || c == b'\\')
        .unwrap_or(tail.len())
}

const ONES: u64 = 0x0101_0101_0101_0101;

fn word(c: &[u8]) -> u64 {
    u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])
}

/// The first lane (byte, in memory order) of `x` that JSON escapes. Each of `x - 0x20`,
/// `quote - 1`, `backslash - 1` sets a lane's high bit when the lane is below 0x20, `"`, `\\`
/// (a lane's borrow can only mark a lane above a marked one, so the lowest mark is exact);
/// `!x` drops the lanes at 0x80 and above, the same for all three (`"` and `\\` are ASCII).
#[inline(always)]
fn escaped_lane(x: u64) -> Option<usize> {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let quote = x ^ (ONES * b'"' as u64);
    let backslash = x ^ (ONES * b'\\' as u64);
    let marks =
        (x.wrapping_sub(ONES * 0x20) | quote.wrapping_sub(ONES) | backslash.wrapping_sub(ONES))
            & !x
            & HIGH;
    (marks != 0).then(|| marks.trailing_zeros() as usize / 8)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::Plies;
    use crate::annotate::{Class, Eval, PlyEval};
    use crate::fault::Fault;

    #[test]
    fn escape_free_finds_every_escaped_byte_wherever_it_stands() {
        // Around the 64-byte blocks and the 8-byte words of the tail.
        for len in [0, 1, 7, 8, 15, 16, 63, 64, 65, 71, 72, 127, 128, 130, 200] {
            let clean: Vec<u8> = (0..len).map(|i| b" Az09/\x7f~"[i % 8]).collect();
            assert!(escape_free(&clean), "{len}");
            for at in 0..len {
                for c in [0u8, 0x1f, b'"', b'\\', b'\n'] {
                    let mut v = clean.clone();
                    v[at] = c;
                    assert!(!escape_free(&v), "{len} {at} {c}");
                    assert_eq!(first_escaped(&v), at);
                }
            }
        }
        // Every other byte is copied as it is: 0x7f and the bytes beyond ASCII too.
        let others: Vec<u8> = (0x20..=0xffu8)
            .filter(|&c| c != b'"' && c != b'\\')
            .collect();
        assert!(escape_free(&others.repeat(3)));
    }

    /// Plies `first..` with these events each (checks on even plies).
    fn plies(first: u32, events: Vec<Vec<EventReport>>) -> Plies {
        let mut plies = Plies::default();
        for (i, e) in events.into_iter().enumerate() {
            let n = first + i as u32;
            plies.push(
                n,
                "exd5+",
                "e4d5",
                "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
                e,
            );
            if let Some(r) = plies.reports_mut().last_mut() {
                r.check = n.is_multiple_of(2);
            }
        }
        plies
    }

    #[test]
    fn escape_scan_finds_the_first_escaped_byte_anywhere() {
        for len in 0..20 {
            let plain = vec![b'a'; len];
            assert_eq!(first_escaped(&plain), len);
            for at in 0..len {
                for bad in (0u8..0x20).chain([b'"', b'\\']) {
                    let mut t = plain.clone();
                    t[at] = bad;
                    assert_eq!(first_escaped(&t), at, "{t:?}");
                    // A later one does not hide it.
                    if at + 1 < len {
                        t[len - 1] = b'"';
                        assert_eq!(first_escaped(&t), at, "{t:?}");
                    }
                }
                // Neighbours of the escaped bytes, and bytes beyond ASCII, are copied.
                for good in [0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xa2, 0xdc, 0xff] {
                    let mut t = plain.clone();
                    t[at] = good;
                    assert_eq!(first_escaped(&t), len, "{t:?}");
                }
            }
        }
    }

    /// Every ASCII byte and some beyond, alone and among others at every offset of the
    /// eight-byte scan: serde_json's escapes.
    #[test]
    fn strings_are_escaped_as_serde_does() {
        let mut samples: Vec<String> = Vec::new();
        for c in (0u8..0x80)
            .map(char::from)
            .chain(['é', 'Ü', '€', '\u{2028}', '🂡'])
        {
            for len in 0..18 {
                for at in 0..len.max(1) {
                    let mut t: String = "e4Nf3-".chars().cycle().take(len).collect();
                    if len > 0 {
                        t.replace_range(at..at + 1, c.encode_utf8(&mut [0; 4]));
                    }
                    samples.push(t);
                }
            }
        }
        samples.push("a \"quoted\"\nnote\\\u{1}\u{1f}\t\r\u{8}\u{c}".to_string());
        for t in &samples {
            let mut out = Vec::new();
            string(&mut out, t);
            assert_eq!(
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(&serde_json::to_vec(t).expect("serializes")),
                "{t:?}"
            );
        }
    }

    #[test]
    fn numbers_are_serdes() {
        for n in [
            0,
            1,
            9,
            10,
            99,
            100,
            12345,
            u32::MAX as u64,
            u64::MAX - 1,
            u64::MAX,
        ] {
            let mut out = Vec::new();
            number(&mut out, n);
            assert_eq!(out, serde_json::to_vec(&n).expect("serializes"));
        }
    }

    /// Every field filled (and every optional one empty) writes serde's bytes.
    #[test]
    fn hand_written_json_is_serdes() {
        let capture = EventReport {
            kind: "capture",
            square: Square::parse("d5"),
            to: None,
            piece: Some('p'),
            value: -3,
            note: Some("a \"quoted\"\nnote\\".to_string()),
        };
        let bare = EventReport {
            kind: "damage",
            square: None,
            to: Square::parse("e12"),
            piece: None,
            value: 7,
            note: None,
        };
        let mut report = GameReport {
            index: 12,
            file: "dir/a \"b\".pgn".to_string(),
            line: 40,
            tags: Tags(vec![
                ("Event".to_string(), "Ünïcode \u{1} ctl".to_string()),
                ("White".to_string(), "A, B".to_string()),
            ]),
            variant: Some("chess".to_string()),
            layout: None,
            presets: vec!["piece-hp:hp=3".to_string()],
            ply_count: 3,
            plies: Some(plies(
                1,
                vec![vec![capture.clone(), bare.clone()], Vec::new()],
            )),
            final_fen: None,
            result: ResultReport {
                declared: Some("1-0".to_string()),
                computed: "*".to_string(),
                termination: "unfinished".to_string(),
                claimable: Some("n-fold-repetition".to_string()),
                agrees: None,
            },
            errors: vec![crate::analyze::RecordError {
                line: 3,
                column: 9,
                ply: Some(2),
                message: "bad".to_string(),
                legal: vec!["e4".to_string()],
            }],
            warnings: Vec::new(),
            normalized: Some("not written".to_string()),
            fault: Some(Fault {
                kind: "panic".to_string(),
                signal: None,
                plugin: Some("p".to_string()),
                rules: None,
                hook: Some("apply".to_string()),
                message: "boom".to_string(),
            }),
        };
        let check = |r: &GameReport| {
            let mut out = Vec::new();
            write_report(r, &mut out);
            assert_eq!(
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(&serde_json::to_vec(r).expect("serializes"))
            );
        };
        check(&report);
        report.plies = None;
        report.fault = None;
        report.final_fen = Some("8/8/8/8/8/8/8/8 w - - 0 1".to_string());
        check(&report);
        report.plies = Some(Plies::default());
        check(&report);
        // The engine's fields, flattened into the ply.
        let mut annotated = plies(3, vec![Vec::new(), Vec::new()]);
        let reports = annotated.reports_mut();
        reports[0].engine = Some(Box::new(PlyEval {
            eval: Eval::Mate(-2),
            best: Some("Qh5#".to_string()),
            loss: 312,
            class: Some(Class::Blunder),
            nag: Some("$4"),
        }));
        reports[1].engine = Some(Box::new(PlyEval {
            eval: Eval::Cp(35),
            best: None,
            loss: 0,
            class: None,
            nag: None,
        }));
        report.plies = Some(annotated);
        check(&report);
        // The result's other shapes, no tags, presets and a repeated tag.
        for agrees in [Some(true), Some(false)] {
            report.result.agrees = agrees;
            report.result.declared = None;
            report.result.claimable = None;
            check(&report);
        }
        report.tags = Tags(Vec::new());
        report.presets = Vec::new();
        check(&report);
        report.tags = Tags(vec![
            ("Site".to_string(), "x".to_string()),
            ("Site".to_string(), "\"y\"".to_string()),
        ]);
        report.presets = vec!["a".to_string(), "b:k=\\".to_string()];
        check(&report);
    }
}
