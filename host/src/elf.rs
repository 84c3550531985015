//! What a shared library exports and imports, read from its ELF dynamic symbol table without
//! loading it (no code of the library runs).
//!
//! The loader uses this to refuse a file that is no houserules plugin before its load-time
//! code can run, and a plugin built with `panic = "abort"`: such a library imports the
//! unwinder's helpers (`_Unwind_Resume` ...) but not `_Unwind_RaiseException`, which only the
//! unwinding panic runtime calls. Files that are not 64-bit little-endian ELF (or whose
//! section table is stripped) are [`Symbols::Unknown`]; the dynamic loader then decides.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;

/// The dynamic symbols of a library, as far as they could be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Symbols {
    /// The dynamic symbol table: names defined (exported) and undefined (imported).
    Known {
        /// Exported names.
        defined: Vec<String>,
        /// Imported names.
        undefined: Vec<String>,
    },
    /// Not a format read here.
    Unknown,
}

impl Symbols {
    /// Whether `name` is exported (`None`: unknown).
    pub fn exports(&self, name: &str) -> Option<bool> {
        match self {
            Symbols::Known { defined, .. } => Some(defined.iter().any(|d| d == name)),
            Symbols::Unknown => None,
        }
    }

    /// Whether the library was built with `panic = "abort"` (`None`: cannot tell).
    pub fn panics_abort(&self) -> Option<bool> {
        match self {
            Symbols::Known { undefined, .. } => {
                let unwinder = undefined.iter().any(|u| u.starts_with("_Unwind_"));
                let raises = undefined.iter().any(|u| u == "_Unwind_RaiseException");
                // Without the shared unwinder's imports (a static unwinder, another libc) we
                // cannot tell.
                unwinder.then_some(!raises)
            }
            Symbols::Unknown => None,
        }
    }
}

const SHT_DYNSYM: u32 = 11;
/// Largest section read (a dynamic symbol table of millions of names is not a plugin's).
const MAX_SECTION: u64 = 64 << 20;

fn u16_at(b: &[u8], o: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(o..o + 2)?.try_into().ok()?))
}
fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(o..o + 4)?.try_into().ok()?))
}
fn u64_at(b: &[u8], o: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(o..o + 8)?.try_into().ok()?))
}

fn read_at(f: &File, offset: u64, len: u64) -> io::Result<Vec<u8>> {
    if len > MAX_SECTION {
        return Err(io::Error::other("section too large"));
    }
    let mut buf = vec![0u8; len as usize];
    f.read_exact_at(&mut buf, offset)?;
    Ok(buf)
}

/// Reads the dynamic symbols of `path`.
pub fn symbols(path: &Path) -> io::Result<Symbols> {
    let f = File::open(path)?;
    let mut head = [0u8; 64];
    if f.read_exact_at(&mut head, 0).is_err() {
        return Ok(Symbols::Unknown);
    }
    // 64-bit (class 2), little-endian (data 1) ELF.
    if &head[..4] != b"\x7fELF" || head[4] != 2 || head[5] != 1 {
        return Ok(Symbols::Unknown);
    }
    let parse = || -> Option<(u64, usize, usize)> {
        let shoff = u64_at(&head, 0x28)?;
        let shentsize = u16_at(&head, 0x3A)? as usize;
        let shnum = u16_at(&head, 0x3C)? as usize;
        Some((shoff, shentsize, shnum))
    };
    let Some((shoff, shentsize, shnum)) = parse() else {
        return Ok(Symbols::Unknown);
    };
    if shoff == 0 || shnum == 0 || shentsize < 64 {
        return Ok(Symbols::Unknown);
    }
    let Ok(table) = read_at(&f, shoff, (shentsize * shnum) as u64) else {
        return Ok(Symbols::Unknown);
    };
    let section = |i: usize| -> Option<(u32, u64, u64, u32, u64)> {
        let b = table.get(i * shentsize..(i + 1) * shentsize)?;
        // sh_type, sh_offset, sh_size, sh_link, sh_entsize
        Some((
            u32_at(b, 4)?,
            u64_at(b, 0x18)?,
            u64_at(b, 0x20)?,
            u32_at(b, 0x28)?,
            u64_at(b, 0x38)?,
        ))
    };
    let Some(dynsym) = (0..shnum).find_map(|i| section(i).filter(|s| s.0 == SHT_DYNSYM)) else {
        return Ok(Symbols::Unknown);
    };
    let (_, off, size, link, entsize) = dynsym;
    let Some((_, str_off, str_size, _, _)) = section(link as usize) else {
        return Ok(Symbols::Unknown);
    };
    let (Ok(syms), Ok(strs)) = (read_at(&f, off, size), read_at(&f, str_off, str_size)) else {
        return Ok(Symbols::Unknown);
    };
    let entsize = entsize.max(24) as usize;
    let mut defined = Vec::new();
    let mut undefined = Vec::new();
    for sym in syms.chunks_exact(entsize).skip(1) {
        let (Some(name), Some(shndx)) = (u32_at(sym, 0), u16_at(sym, 6)) else {
            continue;
        };
        let Some(rest) = strs.get(name as usize..) else {
            continue;
        };
        let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
        let text = String::from_utf8_lossy(&rest[..end]).into_owned();
        if text.is_empty() {
            continue;
        }
        if shndx == 0 {
            undefined.push(text);
        } else {
            defined.push(text);
        }
    }
    Ok(Symbols::Known { defined, undefined })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_dynamic_symbols_of_a_system_library() {
        // The C library of this machine: it exports `malloc`.
        let candidates = [
            "/lib/x86_64-linux-gnu/libc.so.6",
            "/usr/lib/x86_64-linux-gnu/libc.so.6",
            "/lib64/libc.so.6",
            "/usr/lib64/libc.so.6",
        ];
        let Some(libc) = candidates.iter().map(Path::new).find(|p| p.exists()) else {
            return;
        };
        let s = symbols(libc).unwrap();
        assert_eq!(s.exports("malloc"), Some(true));
        assert_eq!(s.exports("houserules_no_such_symbol"), Some(false));
    }

    #[test]
    fn other_files_are_unknown() {
        let dir = std::env::temp_dir().join(format!("hr-elf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("notes.so");
        std::fs::write(
            &f,
            "not a library at all, but long enough to have a header ....",
        )
        .unwrap();
        assert_eq!(symbols(&f).unwrap(), Symbols::Unknown);
        let f = dir.join("tiny.so");
        std::fs::write(&f, b"\x7fELF\x02\x01").unwrap();
        assert_eq!(symbols(&f).unwrap(), Symbols::Unknown);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
