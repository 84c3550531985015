//! Record files as they are published: lichess's database comes as `.pgn.zst`, many archives
//! as `.pgn.gz`. A source is recognised by its first bytes (not its name, so standard input
//! works too) and read through a decoder: Zstandard (every frame of a multi-frame file, as
//! `pzstd` and `zstd -T0` write them, skippable frames skipped) and gzip (every member).
//! Other compressions are named in a clear error rather than read as PGN: bzip2, xz and zip
//! would otherwise come out as one long garbled record.

use flate2::bufread::MultiGzDecoder;
use ruzstd::decoding::errors::{FrameDecoderError, ReadFrameHeaderError};
use ruzstd::decoding::{BlockDecodingStrategy, FrameDecoder};
use std::io::{self, BufRead, BufReader, Read};

/// How a source is compressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Plain text.
    None,
    /// Zstandard (`.zst`).
    Zstd,
    /// gzip (`.gz`).
    Gzip,
    /// Recognised, not read: bzip2, xz or zip (the name of the format).
    Unsupported(&'static str),
}

/// What the first bytes of a source say.
pub fn sniff(start: &[u8]) -> Compression {
    match start {
        [0x28, 0xb5, 0x2f, 0xfd, ..] => Compression::Zstd,
        // A skippable frame first (0x184D2A50 to 0x184D2A5F, little-endian).
        [b, 0x2a, 0x4d, 0x18, ..] if b & 0xf0 == 0x50 => Compression::Zstd,
        [0x1f, 0x8b, ..] => Compression::Gzip,
        [b'B', b'Z', b'h', ..] => Compression::Unsupported("bzip2"),
        [0xfd, b'7', b'z', b'X', b'Z', 0, ..] => Compression::Unsupported("xz"),
        [b'P', b'K', 3, 4, ..] => Compression::Unsupported("zip"),
        _ => Compression::None,
    }
}

/// `reader`, decompressed if its first bytes say it is compressed. The error names the
/// format of a compression that is not read, and how to read the file anyway.
pub fn decoded(
    name: &str,
    mut reader: Box<dyn BufRead + Send>,
) -> Result<(Box<dyn BufRead + Send>, Compression), String> {
    // Enough for every signature above. Usually the first read holds them and the reader is
    // used as it is; a pipe may give fewer bytes first, and those are read on and put back in
    // front of the rest.
    let first = reader
        .fill_buf()
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    let (start, whole): (Vec<u8>, Box<dyn BufRead + Send>) = if first.len() >= 6 || first.is_empty()
    {
        (first[..first.len().min(6)].to_vec(), reader)
    } else {
        let mut start = Vec::with_capacity(6);
        (&mut reader)
            .take(6)
            .read_to_end(&mut start)
            .map_err(|e| format!("cannot read {name}: {e}"))?;
        let whole = Box::new(io::Cursor::new(start.clone()).chain(reader));
        (start, whole)
    };
    let kind = sniff(&start);
    let out: Box<dyn BufRead + Send> = match kind {
        Compression::None => whole,
        Compression::Gzip => Box::new(BufReader::with_capacity(
            1 << 16,
            MultiGzDecoder::new(whole),
        )),
        Compression::Zstd => Box::new(BufReader::with_capacity(1 << 16, Zstd::new(whole))),
        Compression::Unsupported(format) => {
            let tool = match format {
                "bzip2" => "bzip2 -dc",
                "xz" => "xz -dc",
                _ => "unzip -p",
            };
            return Err(format!(
                "{name} is {format}-compressed, which houserules does not read (it reads .zst and .gz): decompress it first, e.g. `{tool} {name} | houserules analyze -`"
            ));
        }
    };
    Ok((out, kind))
}

/// A Zstandard stream of one or more frames.
struct Zstd<R: BufRead> {
    source: R,
    frame: FrameDecoder,
    /// A frame is being decoded (its header read).
    started: bool,
}

impl<R: BufRead> Zstd<R> {
    fn new(source: R) -> Zstd<R> {
        let mut frame = FrameDecoder::new();
        // Files written with `zstd --long=31` need windows up to 2 GiB; the window is
        // allocated as the frame asks, so the default (128 MiB) would refuse them for nothing.
        frame.set_max_window_size(1 << 31);
        Zstd {
            source,
            frame,
            started: false,
        }
    }
}

fn bad_zstd(e: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("zstd: {e}"))
}

impl<R: BufRead> Read for Zstd<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if !self.started || (self.frame.is_finished() && self.frame.can_collect() == 0) {
                // The next frame, if any.
                if self.source.fill_buf()?.is_empty() {
                    return Ok(0);
                }
                match self.frame.reset(&mut self.source) {
                    Ok(()) => self.started = true,
                    Err(FrameDecoderError::ReadFrameHeaderError(
                        ReadFrameHeaderError::SkipFrame { length, .. },
                    )) => {
                        let skipped =
                            io::copy(&mut (&mut self.source).take(length as u64), &mut io::sink())?;
                        if skipped < length as u64 {
                            return Err(bad_zstd("a skippable frame is cut short"));
                        }
                        self.started = false;
                        continue;
                    }
                    Err(e) => return Err(bad_zstd(e)),
                }
            }
            while self.frame.can_collect() == 0 && !self.frame.is_finished() {
                self.frame
                    .decode_blocks(&mut self.source, BlockDecodingStrategy::UptoBlocks(1))
                    .map_err(bad_zstd)?;
            }
            let n = self.frame.read(buf)?;
            if n > 0 {
                return Ok(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n";

    fn read_all(bytes: Vec<u8>) -> Result<(String, Compression), String> {
        let (mut r, kind) = decoded("test", Box::new(io::Cursor::new(bytes)))?;
        let mut s = String::new();
        r.read_to_string(&mut s).map_err(|e| e.to_string())?;
        Ok((s, kind))
    }

    fn gzip(text: &str) -> Vec<u8> {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(text.as_bytes()).unwrap();
        e.finish().unwrap()
    }

    /// A Zstandard frame of raw blocks, as the format defines it (RFC 8878): magic, a frame
    /// header with the single-segment flag and a one-byte content size, one raw last block.
    fn zstd_raw_frame(text: &str) -> Vec<u8> {
        assert!(text.len() < 256);
        let mut f = vec![0x28, 0xb5, 0x2f, 0xfd, 0x20, text.len() as u8];
        let header = ((text.len() as u32) << 3) | 1; // raw block, last
        f.extend_from_slice(&header.to_le_bytes()[..3]);
        f.extend_from_slice(text.as_bytes());
        f
    }

    #[test]
    fn plain_text_is_read_as_it_is() {
        assert_eq!(
            read_all(TEXT.as_bytes().to_vec()).unwrap(),
            (TEXT.to_string(), Compression::None)
        );
        assert_eq!(read_all(Vec::new()).unwrap().0, "");
        assert_eq!(read_all(b"ab".to_vec()).unwrap().0, "ab");
    }

    #[test]
    fn gzip_members_are_read_one_after_another() {
        let mut two = gzip(TEXT);
        two.extend(gzip("[Event \"y\"]\n\n*\n"));
        let (s, kind) = read_all(two).unwrap();
        assert_eq!(kind, Compression::Gzip);
        assert_eq!(s, format!("{TEXT}[Event \"y\"]\n\n*\n"));
    }

    #[test]
    fn zstd_frames_are_read_and_skippable_frames_skipped() {
        let mut bytes = zstd_raw_frame(TEXT);
        // A skippable frame between two frames (pzstd writes them).
        bytes.extend_from_slice(&[0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4]);
        bytes.extend(zstd_raw_frame("[Event \"y\"]\n\n*\n"));
        let (s, kind) = read_all(bytes).unwrap();
        assert_eq!(kind, Compression::Zstd);
        assert_eq!(s, format!("{TEXT}[Event \"y\"]\n\n*\n"));
        // A cut frame is an error, not a silent end.
        let mut cut = zstd_raw_frame(TEXT);
        cut.truncate(cut.len() - 5);
        let (mut r, _) = decoded("cut", Box::new(io::Cursor::new(cut))).unwrap();
        assert!(r.read_to_string(&mut String::new()).is_err());
    }

    #[test]
    fn other_compressions_are_named() {
        for (start, format) in [
            (&b"BZh91AY&SY"[..], "bzip2"),
            (&[0xfd, b'7', b'z', b'X', b'Z', 0, 0][..], "xz"),
            (&b"PK\x03\x04rest"[..], "zip"),
        ] {
            let e = read_all(start.to_vec()).unwrap_err();
            assert!(e.contains(&format!("{format}-compressed")), "{e}");
        }
    }

    #[test]
    fn a_pipe_that_gives_one_byte_at_a_time_is_sniffed_whole() {
        struct Trickle(Vec<u8>, usize);
        impl Read for Trickle {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.1 >= self.0.len() || buf.is_empty() {
                    return Ok(0);
                }
                buf[0] = self.0[self.1];
                self.1 += 1;
                Ok(1)
            }
        }
        let (mut r, kind) =
            decoded("pipe", Box::new(BufReader::new(Trickle(gzip(TEXT), 0)))).unwrap();
        assert_eq!(kind, Compression::Gzip);
        let mut s = String::new();
        r.read_to_string(&mut s).unwrap();
        assert_eq!(s, TEXT);
        let (mut r, kind) = decoded(
            "pipe",
            Box::new(BufReader::new(Trickle(TEXT.as_bytes().to_vec(), 0))),
        )
        .unwrap();
        assert_eq!(kind, Compression::None);
        let mut s = String::new();
        r.read_to_string(&mut s).unwrap();
        assert_eq!(s, TEXT);
    }
}
