//! Lines of text from people and other programs (a terminal, a GUI, an engine), read as
//! bytes: a line that is not UTF-8 (a Latin-1 name in an engine's `id author`, a file name
//! in an option) is read with replacement characters, never taken for the end of the input
//! as `BufRead::read_line` would make it; and a line longer than [`MAX_LINE`] keeps its
//! first [`MAX_LINE`] bytes (the rest is read and dropped), so that a program writing without
//! line ends cannot exhaust memory.

use std::io::BufRead;

/// The longest line kept, in bytes (a UCI `position` line of a 10,000-ply game is about
/// 50 kB).
pub const MAX_LINE: usize = 1 << 20;

/// The next line, without its line end; `None` at the end of the input or on a read error.
pub fn next_line(input: &mut dyn BufRead) -> Option<String> {
    next_line_within(input, MAX_LINE)
}

fn next_line_within(input: &mut dyn BufRead, max: usize) -> Option<String> {
    let mut buf = Vec::new();
    let mut read_any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if chunk.is_empty() {
            break;
        }
        read_any = true;
        let (part, ended) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        let room = max.saturating_sub(buf.len());
        buf.extend_from_slice(&part[..part.len().min(room)]);
        let used = ended.unwrap_or(chunk.len());
        input.consume(used);
        if ended.is_some() {
            break;
        }
    }
    if !read_any {
        return None;
    }
    while matches!(buf.last(), Some(b'\r')) {
        buf.pop();
    }
    Some(String::from_utf8_lossy(&buf).into_owned())
}

#[cfg(test)]
mod tests {
    use super::{next_line, next_line_within};
    use std::io::BufReader;

    #[test]
    fn lines_that_are_not_utf8_are_read_not_ended() {
        let mut input: &[u8] = b"id author J\xfcrgen\r\nuciok\nlast";
        assert_eq!(
            next_line(&mut input).as_deref(),
            Some("id author J\u{fffd}rgen")
        );
        assert_eq!(next_line(&mut input).as_deref(), Some("uciok"));
        assert_eq!(next_line(&mut input).as_deref(), Some("last"));
        assert_eq!(next_line(&mut input), None);
    }

    #[test]
    fn a_long_line_keeps_its_start_and_the_next_line_follows() {
        let text = format!("{}\nnext\n\nend", "x".repeat(10_000));
        // A small buffer, so that the long line comes in many chunks.
        let mut input = BufReader::with_capacity(7, text.as_bytes());
        assert_eq!(next_line_within(&mut input, 100).unwrap(), "x".repeat(100));
        assert_eq!(next_line_within(&mut input, 100).as_deref(), Some("next"));
        assert_eq!(next_line_within(&mut input, 100).as_deref(), Some(""));
        assert_eq!(next_line_within(&mut input, 100).as_deref(), Some("end"));
        assert_eq!(next_line_within(&mut input, 100), None);
    }
}
