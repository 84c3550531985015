//! Which plugin files this very host build has already checked for ABI layout.
//!
//! abi_stable compares the layout of every type that crosses the plugin boundary each time a
//! library is loaded: about 28 M instructions for the shipped plugins, four fifths of all the
//! work of starting a command and more than a hundred games of replay cost. The answer only
//! changes when the host or the plugin file changes, so it is remembered, as abi_stable's
//! `LibHeader::unchecked_layout` suggests ("useful if a user keeps a cache of which dynamic
//! libraries have been checked"): one line per checked pair of files, each file named by its
//! device, inode, size and modification time in nanoseconds. A plugin rebuilt, copied over or
//! replaced, or a host rebuilt, has another stamp and is checked again. Only successful
//! checks are remembered; a plugin that failed is checked (and refused) every time.
//!
//! The file is `$HOUSERULES_CACHE_DIR/layout-checks`, else `$XDG_CACHE_HOME/houserules/`,
//! else `~/.cache/houserules/`; `HOUSERULES_LAYOUT_CACHE=off` checks every time and writes
//! nothing. The cache is an optimisation only: a file that cannot be read or written is
//! ignored, and concurrent writers at worst forget an entry (each writes a whole new file and
//! renames it into place).

use std::path::{Path, PathBuf};

/// Entries kept at most (the newest); a few hosts (release, debug, test binaries) times the
/// shipped plugins.
const MAX_ENTRIES: usize = 256;

/// A file's identity: what changes when it is rebuilt, replaced or written to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileStamp {
    device: u64,
    inode: u64,
    size: u64,
    modified_ns: i128,
}

impl FileStamp {
    #[cfg(unix)]
    fn of(path: &Path) -> Option<FileStamp> {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path).ok()?;
        Some(FileStamp {
            device: m.dev(),
            inode: m.ino(),
            size: m.size(),
            modified_ns: m.mtime() as i128 * 1_000_000_000 + m.mtime_nsec() as i128,
        })
    }

    #[cfg(not(unix))]
    fn of(_path: &Path) -> Option<FileStamp> {
        // Without inode numbers a stamp is too weak to skip a safety check on.
        None
    }

    fn write(&self) -> String {
        format!(
            "{}:{}:{}:{}",
            self.device, self.inode, self.size, self.modified_ns
        )
    }

    fn read(s: &str) -> Option<FileStamp> {
        let mut it = s.split(':');
        let stamp = FileStamp {
            device: it.next()?.parse().ok()?,
            inode: it.next()?.parse().ok()?,
            size: it.next()?.parse().ok()?,
            modified_ns: it.next()?.parse().ok()?,
        };
        it.next().is_none().then_some(stamp)
    }
}

/// The layout checks remembered for this host executable.
pub struct LayoutChecks {
    /// Where the entries live (`None`: the cache is off or has no place).
    file: Option<PathBuf>,
    /// This executable's stamp (`None`: the cache is off).
    host: Option<FileStamp>,
    /// Entries read from the file, in order: (host, plugin).
    entries: Vec<(FileStamp, FileStamp)>,
    /// Whether an entry was added since reading.
    changed: bool,
}

impl LayoutChecks {
    /// The cache of the current executable, read from its standard place.
    pub fn open() -> LayoutChecks {
        let off = std::env::var_os("HOUSERULES_LAYOUT_CACHE").is_some_and(|v| v == "off");
        let host = std::env::current_exe().ok().and_then(|e| FileStamp::of(&e));
        match (off, host, cache_file()) {
            (false, Some(host), Some(file)) => LayoutChecks::read(file, host),
            _ => LayoutChecks::disabled(),
        }
    }

    /// A cache that remembers nothing: every load is checked.
    pub fn disabled() -> LayoutChecks {
        LayoutChecks {
            file: None,
            host: None,
            entries: Vec::new(),
            changed: false,
        }
    }

    fn read(file: PathBuf, host: FileStamp) -> LayoutChecks {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let entries = text
            .lines()
            .filter_map(|l| {
                let (h, p) = l.split_once(' ')?;
                Some((FileStamp::read(h)?, FileStamp::read(p)?))
            })
            .collect();
        LayoutChecks {
            file: Some(file),
            host: Some(host),
            entries,
            changed: false,
        }
    }

    /// Loads the plugin file at `path` with `load`, told whether this host has checked its
    /// layout as the file is now; a load that succeeds is remembered as checked. The file is
    /// stamped once for both.
    pub fn load<T, E>(
        &mut self,
        path: &Path,
        load: impl FnOnce(bool) -> Result<T, E>,
    ) -> Result<T, E> {
        let pair = self.host.zip(FileStamp::of(path));
        let known = pair.is_some_and(|p| self.entries.contains(&p));
        let loaded = load(known)?;
        if let (Some(p), false) = (pair, known) {
            self.entries.push(p);
            self.changed = true;
        }
        Ok(loaded)
    }

    #[cfg(test)]
    fn is_checked(&self, path: &Path) -> bool {
        let pair = self.host.zip(FileStamp::of(path));
        pair.is_some_and(|p| self.entries.contains(&p))
    }

    #[cfg(test)]
    fn record(&mut self, path: &Path) {
        let _ = self.load(path, |_| Ok::<(), ()>(()));
    }

    /// Writes the entries back if any was added (best effort).
    pub fn save(&mut self) {
        let (Some(file), Some(host)) = (&self.file, self.host) else {
            return;
        };
        if !self.changed {
            return;
        }
        self.changed = false;
        // Entries written by other processes since this one read the file are kept too.
        let mut all = LayoutChecks::read(file.clone(), host);
        for e in &self.entries {
            if !all.entries.contains(e) {
                all.entries.push(*e);
            }
        }
        let skip = all.entries.len().saturating_sub(MAX_ENTRIES);
        let text: String = all.entries[skip..]
            .iter()
            .map(|(h, p)| format!("{} {}\n", h.write(), p.write()))
            .collect();
        let _ = write_atomically(file, &text);
    }
}

fn write_atomically(file: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let dir = file.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(text.as_bytes())?;
    tmp.persist(file).map_err(|e| e.error)?;
    Ok(())
}

fn cache_file() -> Option<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let dir = var("HOUSERULES_CACHE_DIR")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("houserules")))
        .or_else(|| var("HOME").map(|d| d.join(".cache").join("houserules")))?;
    Some(dir.join("layout-checks"))
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn cache_in(dir: &Path) -> LayoutChecks {
        let host = FileStamp::of(&std::env::current_exe().unwrap()).unwrap();
        LayoutChecks::read(dir.join("layout-checks"), host)
    }

    #[test]
    fn a_checked_file_is_remembered_until_it_changes() {
        let dir = tempfile::tempdir().unwrap();
        let plugin = dir.path().join("libhouserules_x.so");
        std::fs::write(&plugin, b"one").unwrap();
        let mut c = cache_in(dir.path());
        assert!(!c.is_checked(&plugin));
        c.record(&plugin);
        c.save();
        assert!(cache_in(dir.path()).is_checked(&plugin));
        // Rewritten (another size and time): checked again.
        std::fs::write(&plugin, b"other").unwrap();
        assert!(!cache_in(dir.path()).is_checked(&plugin));
        // Replaced by another file of the same size: another inode.
        let twin = dir.path().join("twin");
        std::fs::write(&twin, b"other").unwrap();
        let mut c = cache_in(dir.path());
        c.record(&plugin);
        c.save();
        std::fs::rename(&twin, &plugin).unwrap();
        assert!(!cache_in(dir.path()).is_checked(&plugin));
    }

    #[test]
    fn entries_of_other_hosts_are_not_trusted_and_bad_lines_are_ignored() {
        let dir = tempfile::tempdir().unwrap();
        let plugin = dir.path().join("libhouserules_x.so");
        std::fs::write(&plugin, b"one").unwrap();
        let stamp = FileStamp::of(&plugin).unwrap();
        let other_host = FileStamp { inode: 1, ..stamp };
        let text = format!(
            "{} {}\ngarbage\n1:2:3 4:5:6:7\n",
            other_host.write(),
            stamp.write()
        );
        std::fs::write(dir.path().join("layout-checks"), text).unwrap();
        let c = cache_in(dir.path());
        assert_eq!(c.entries.len(), 1);
        assert!(!c.is_checked(&plugin));
    }

    #[test]
    fn the_file_keeps_the_newest_entries() {
        let dir = tempfile::tempdir().unwrap();
        let mut c = cache_in(dir.path());
        for i in 0..MAX_ENTRIES + 10 {
            let f = dir.path().join(format!("p{i}"));
            std::fs::write(&f, b"x").unwrap();
            c.record(&f);
        }
        let last = dir.path().join(format!("p{}", MAX_ENTRIES + 9));
        c.save();
        let c = cache_in(dir.path());
        assert_eq!(c.entries.len(), MAX_ENTRIES);
        assert!(c.is_checked(&last));
        assert!(!c.is_checked(&dir.path().join("p0")));
    }
}
