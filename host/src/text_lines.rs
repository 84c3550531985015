//! Lines of text from people and other programs (a terminal, a GUI, an engine), read as
//! bytes: a line that is not UTF-8 (a Latin-1 name in an engine's `id author`, a file name
//! in an option) is read with replacement characters, never taken for the end of the input
//! as `BufRead::read_line` would make it.

use std::io::BufRead;

/// The next line, without its line end; `None` at the end of the input or on a read error.
pub fn next_line(input: &mut dyn BufRead) -> Option<String> {
    let mut buf = Vec::new();
    match input.read_until(b'\n', &mut buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => {
            while matches!(buf.last(), Some(b'\n' | b'\r')) {
                buf.pop();
            }
            Some(String::from_utf8_lossy(&buf).into_owned())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::next_line;

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
}
