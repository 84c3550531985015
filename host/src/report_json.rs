//! The JSON of a [`GameReport`], written by hand into one buffer: the same bytes as
//! `serde_json::to_vec` of the report (a test compares them), without serde's per-field map
//! machinery for the plies, which are most of the text (the `engine` field is flattened, so
//! the derived code serializes every ply as a map, escaping each key).
//!
//! The per-game fields (tags, result, errors ...) go through serde_json as values; the plies
//! and their events are written here.

use crate::analyze::{EventReport, GameReport, PlyReport};

/// Appends the JSON of `r` to `out` (what `serde_json::to_vec(r)` gives).
pub fn write_report(r: &GameReport, out: &mut Vec<u8>) {
    let plies = r.plies.as_deref().unwrap_or_default();
    // About what a ply takes (a FEN, two move names, the keys, an event now and then, about
    // 150 bytes on real games): one allocation per report, not a growth every few plies.
    out.reserve(512 + plies.len() * 192);
    out.extend_from_slice(b"{\"index\":");
    number(out, r.index);
    out.extend_from_slice(b",\"file\":");
    string(out, &r.file);
    out.extend_from_slice(b",\"line\":");
    number(out, r.line as u64);
    out.extend_from_slice(b",\"tags\":");
    value(out, &r.tags);
    out.extend_from_slice(b",\"variant\":");
    opt_string(out, r.variant.as_deref());
    out.extend_from_slice(b",\"layout\":");
    opt_string(out, r.layout.as_deref());
    out.extend_from_slice(b",\"presets\":");
    value(out, &r.presets);
    out.extend_from_slice(b",\"ply_count\":");
    number(out, r.ply_count as u64);
    if let Some(plies) = &r.plies {
        out.extend_from_slice(b",\"plies\":");
        list(out, plies, ply);
    }
    out.extend_from_slice(b",\"final_fen\":");
    opt_string(out, r.final_fen.as_deref());
    out.extend_from_slice(b",\"result\":");
    value(out, &r.result);
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

fn ply(out: &mut Vec<u8>, p: &PlyReport) {
    out.extend_from_slice(b"{\"ply\":");
    number(out, p.ply as u64);
    out.extend_from_slice(b",\"san\":");
    string(out, &p.san);
    out.extend_from_slice(b",\"move\":");
    string(out, &p.coordinate);
    out.extend_from_slice(b",\"fen\":");
    string(out, &p.fen);
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

fn event(out: &mut Vec<u8>, e: &EventReport) {
    out.extend_from_slice(b"{\"kind\":");
    string(out, e.kind);
    if let Some(s) = &e.square {
        out.extend_from_slice(b",\"square\":");
        string(out, s);
    }
    if let Some(s) = &e.to {
        out.extend_from_slice(b",\"to\":");
        string(out, s);
    }
    if let Some(s) = &e.piece {
        out.extend_from_slice(b",\"piece\":");
        string(out, s);
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

/// A JSON array of `items`, each written by `each`.
fn list<T>(out: &mut Vec<u8>, items: &[T], each: fn(&mut Vec<u8>, &T)) {
    out.push(b'[');
    for (i, x) in items.iter().enumerate() {
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

/// A JSON string: copied as it is when nothing in it needs escaping (move names and FENs
/// never do), else escaped by serde_json.
fn string(out: &mut Vec<u8>, s: &str) {
    if !needs_escape(s.as_bytes()) {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    } else {
        value(out, s);
    }
}

/// Whether `b` holds a byte JSON escapes (a control byte, `"` or `\\`), eight bytes at a
/// time. A wrong `true` would only send the string to serde_json; the tests pin both ways.
fn needs_escape(b: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // The high bit of each byte of `x` below `n` (n <= 128), as a whole: zero iff none is.
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * n as u64) & !x & HIGH;
    let mut chunks = b.chunks_exact(8);
    for c in &mut chunks {
        let x = u64::from_le_bytes(std::array::from_fn(|j| c[j]));
        let quote = x ^ (ONES * b'"' as u64);
        let backslash = x ^ (ONES * b'\\' as u64);
        if below(x, 0x20) | below(quote, 1) | below(backslash, 1) != 0 {
            return true;
        }
    }
    chunks
        .remainder()
        .iter()
        .any(|&c| c < 0x20 || c == b'"' || c == b'\\')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{ResultReport, Tags};
    use crate::annotate::{Class, Eval, PlyEval};
    use crate::fault::Fault;

    fn ply_report(n: u32, events: Vec<EventReport>) -> PlyReport {
        PlyReport {
            ply: n,
            san: "exd5+".to_string(),
            coordinate: "e4d5".to_string(),
            fen: "rnbqkbnr/ppp1pppp/8/3P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2".to_string(),
            check: n.is_multiple_of(2),
            events,
            engine: None,
        }
    }

    #[test]
    fn escape_test_finds_every_escaped_byte_anywhere() {
        for len in 0..20 {
            let plain = vec![b'a'; len];
            assert!(!needs_escape(&plain));
            for at in 0..len {
                for bad in (0u8..0x20).chain([b'"', b'\\']) {
                    let mut t = plain.clone();
                    t[at] = bad;
                    assert!(needs_escape(&t), "{t:?}");
                }
                // Neighbours of the escaped bytes, and bytes beyond ASCII, are copied.
                for good in [0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, 0x80, 0xa2, 0xdc, 0xff] {
                    let mut t = plain.clone();
                    t[at] = good;
                    assert!(!needs_escape(&t), "{t:?}");
                }
            }
        }
    }

    /// Every field filled (and every optional one empty) writes serde's bytes.
    #[test]
    fn hand_written_json_is_serdes() {
        let capture = EventReport {
            kind: "capture",
            square: Some("d5".to_string()),
            to: None,
            piece: Some("p".to_string()),
            value: -3,
            note: Some("a \"quoted\"\nnote\\".to_string()),
        };
        let bare = EventReport {
            kind: "damage",
            square: None,
            to: Some("e1".to_string()),
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
            plies: Some(vec![
                ply_report(1, vec![capture.clone(), bare.clone()]),
                ply_report(2, Vec::new()),
            ]),
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
        report.plies = Some(Vec::new());
        check(&report);
        // The engine's fields, flattened into the ply.
        let mut annotated = ply_report(3, Vec::new());
        annotated.engine = Some(PlyEval {
            eval: Eval::Mate(-2),
            best: Some("Qh5#".to_string()),
            loss: 312,
            class: Some(Class::Blunder),
            nag: Some("$4"),
        });
        let mut plain = annotated.clone();
        plain.engine = Some(PlyEval {
            eval: Eval::Cp(35),
            best: None,
            loss: 0,
            class: None,
            nag: None,
        });
        report.plies = Some(vec![annotated, plain]);
        check(&report);
    }
}
