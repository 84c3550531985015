//! Reading `variants.ini` text: sections `[name]` / `[child:parent]`, `key = value` lines,
//! `#` and `;` comments. Every entry remembers its file and line for error messages.

/// Where a line came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loc {
    /// File name as given (or `builtin:NAME` for embedded files).
    pub file: String,
    /// 1-based line number.
    pub line: usize,
}

impl std::fmt::Display for Loc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// One `key = value` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Key, trimmed.
    pub key: String,
    /// Value, trimmed, inline comment removed.
    pub value: String,
    /// Where it stands.
    pub loc: Loc,
}

/// One `[name]` or `[name:parent]` section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// Variant id.
    pub name: String,
    /// Parent variant, if any.
    pub parent: Option<String>,
    /// The section header's location.
    pub loc: Loc,
    /// Entries in file order.
    pub entries: Vec<Entry>,
    /// A syntax error inside the section (the section still exists, but cannot be built).
    pub error: Option<String>,
}

/// An error that belongs to no section (a line before the first header).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// Where.
    pub loc: Loc,
    /// Why.
    pub why: String,
}

/// Parses the text of one ini file.
pub fn parse(file: &str, text: &str) -> (Vec<Section>, Vec<FileError>) {
    let mut sections: Vec<Section> = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let loc = Loc {
            file: file.to_string(),
            line: i + 1,
        };
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if line.starts_with('[') {
            // As in Fairy-Stockfish, the header ends at its first `]`: `[minichess:chess]  #
            // a comment` is a header. Fairy-Stockfish reads nothing after it; other text than a
            // comment there is reported rather than ignored.
            let Some((inner, rest)) = line.strip_prefix('[').and_then(|l| l.split_once(']')) else {
                errors.push(FileError {
                    loc,
                    why: format!("section header `{line}` is not closed by `]`"),
                });
                continue;
            };
            let (name, parent) = match inner.split_once(':') {
                Some((n, p)) => (n.trim(), Some(p.trim().to_string())),
                None => (inner.trim(), None),
            };
            let mut error = None;
            let rest = rest.trim();
            if !rest.is_empty() && !rest.starts_with('#') && !rest.starts_with(';') {
                error = Some(format!(
                    "{loc}: `{rest}` after the section header is not a comment (`#` or `;`)"
                ));
            }
            if name.is_empty()
                || !name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                error = Some(format!(
                    "{loc}: section name `{name}` is not a valid variant id"
                ));
            }
            sections.push(Section {
                name: name.to_string(),
                parent: parent.filter(|p| !p.is_empty()),
                loc,
                entries: Vec::new(),
                error,
            });
            continue;
        }
        let Some(section) = sections.last_mut() else {
            errors.push(FileError {
                loc,
                why: format!("`{line}` stands before the first [section]"),
            });
            continue;
        };
        let Some((key, value)) = line.split_once('=') else {
            if section.error.is_none() {
                section.error = Some(format!("{loc}: `{line}` is not `key = value`"));
            }
            continue;
        };
        let value = match value.find(['#', ';']) {
            Some(i) => &value[..i],
            None => value,
        };
        section.entries.push(Entry {
            key: key.trim().to_string(),
            value: value.trim().to_string(),
            loc,
        });
    }
    (sections, errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_after_a_section_header_is_not_read() {
        let text = "[mini:chess]      # inherit the built-in chess\nmaxRank = 6\n[b] ; c\n";
        let (s, e) = parse("f.ini", text);
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].name, "mini");
        assert_eq!(s[0].parent.as_deref(), Some("chess"));
        assert_eq!(s[0].entries[0].key, "maxRank");
        assert_eq!(s[1].name, "b");
        assert!(s.iter().all(|s| s.error.is_none()));
        // Other text there is reported, not ignored.
        let (s, _) = parse("f.ini", "[mini:chess] maxRank = 6\n");
        assert_eq!(s[0].name, "mini");
        let error = s[0].error.as_deref().unwrap_or("");
        assert!(
            error.starts_with("f.ini:1: `maxRank = 6` after the section header"),
            "{error}"
        );
    }

    #[test]
    fn sections_comments_and_locations() {
        let text = "# top\n[a]\nx = 1 # note\n; c\n[b:a]\ny=two\n";
        let (s, e) = parse("f.ini", text);
        assert!(e.is_empty());
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].entries[0].value, "1");
        assert_eq!(s[0].entries[0].loc.line, 3);
        assert_eq!(s[1].parent.as_deref(), Some("a"));
        assert_eq!(s[1].entries[0].key, "y");
    }

    #[test]
    fn bad_lines() {
        let (s, e) = parse("f.ini", "x = 1\n[a]\nnonsense\n");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].loc.line, 1);
        assert!(s[0].error.as_deref().unwrap().contains("f.ini:3"));
    }
}
