//! The host's FEN extension: per-piece attributes and plugin state, appended to the variant's
//! FEN in braces so that every position round-trips:
//!
//! `rnbqkbnr/... w KQkq - 0 1 {Hp:e1=1,d4=2;Moved:e2=1;@first-promotion-wins.locked=1}`
//!
//! Attributes are grouped by name (`Name:square=value,...`); plugin state entries are
//! `@owner.key=value`. Groups are separated by `;`.

use houserules_plugin_api::{FenError, Name, Position, Square};

/// Splits a FEN into the variant's part and the host extension (without braces), if any.
pub fn split_extension(fen: &str) -> (&str, Option<&str>) {
    let t = fen.trim();
    if t.ends_with('}') {
        if let Some(i) = t.rfind('{') {
            return (t[..i].trim_end(), Some(&t[i + 1..t.len() - 1]));
        }
    }
    (t, None)
}

/// Appends the extension for `pos` to `fen` (nothing when there are no attributes or state).
pub fn write_extension(pos: &Position, fen: &mut String) {
    if pos.attributes().is_empty() && pos.state().is_empty() && pos.turn_phase == 0 {
        return;
    }
    let mut groups: Vec<String> = Vec::new();
    let mut names: Vec<Name> = Vec::new();
    for a in pos.attributes() {
        if !names.contains(&a.name) {
            names.push(a.name);
        }
    }
    names.sort_by(|a, b| a.as_str().cmp(b.as_str()));
    for n in names {
        let mut entries: Vec<(Square, i32)> = pos
            .attributes()
            .iter()
            .filter(|a| a.name == n)
            .map(|a| (a.square, a.value))
            .collect();
        entries.sort();
        let list: Vec<String> = entries.iter().map(|(sq, v)| format!("{sq}={v}")).collect();
        groups.push(format!("{}:{}", n.as_str(), list.join(",")));
    }
    let mut state: Vec<String> = pos
        .state()
        .iter()
        .map(|e| format!("@{}.{}={}", e.owner.as_str(), e.key.as_str(), e.value))
        .collect();
    if pos.turn_phase > 0 {
        // Which half-move of a multi-move turn comes next.
        state.push(format!("@host.phase={}", pos.turn_phase));
    }
    state.sort();
    groups.extend(state);
    fen.push_str(" {");
    fen.push_str(&groups.join(";"));
    fen.push('}');
}

/// Reads an extension (text between the braces) into `pos`. `column` is where the text
/// starts in the whole FEN, for error columns.
pub fn apply_extension(pos: &mut Position, text: &str, column: usize) -> Result<(), FenError> {
    let field = 6;
    let mut col = column + 1;
    for group in text.split(';') {
        let g = group.trim();
        let err = |msg: String| FenError::new(field, col as u32, msg);
        if g.is_empty() {
            col += group.len() + 1;
            continue;
        }
        if let Some(rest) = g.strip_prefix('@') {
            let (ok, v) = rest
                .split_once('=')
                .ok_or_else(|| err(format!("state entry `{g}` is not @owner.key=value")))?;
            let (owner, key) = ok
                .split_once('.')
                .ok_or_else(|| err(format!("state entry `{g}` is not @owner.key=value")))?;
            let value: i64 = v
                .parse()
                .map_err(|_| err(format!("state value `{v}` is not a whole number")))?;
            if owner == "host" && key == "phase" {
                pos.turn_phase = u8::try_from(value)
                    .map_err(|_| err(format!("turn phase `{v}` is out of range")))?;
                col += group.len() + 1;
                continue;
            }
            let owner =
                Name::new(owner).ok_or_else(|| err(format!("bad state owner `{owner}`")))?;
            let key = Name::new(key).ok_or_else(|| err(format!("bad state key `{key}`")))?;
            pos.set_state_value(owner, key, value);
        } else {
            let (name, list) = g.split_once(':').ok_or_else(|| {
                err(format!(
                    "attribute group `{g}` is not Name:square=value,..."
                ))
            })?;
            let name = Name::new(name.trim())
                .ok_or_else(|| err(format!("bad attribute name `{name}`")))?;
            for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let (sq, v) = item
                    .split_once('=')
                    .ok_or_else(|| err(format!("`{item}` is not square=value")))?;
                let square = Square::parse(sq)
                    .filter(|s| pos.on_board(*s))
                    .ok_or_else(|| err(format!("`{sq}` is not a square of the board")))?;
                if !pos.get(square).is_piece() {
                    return Err(err(format!("attribute on {sq}, where no piece stands")));
                }
                let value: i32 = v
                    .parse()
                    .map_err(|_| err(format!("attribute value `{v}` is not a whole number")))?;
                pos.set_attribute(square, name, value);
            }
        }
        col += group.len() + 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use houserules_plugin_api::{attr, Cell, Color};

    #[test]
    fn extension_round_trips() {
        let mut pos = Position::empty(8, 8);
        let e1 = Square::parse("e1").unwrap();
        let d4 = Square::parse("d4").unwrap();
        pos.set(e1, Cell::piece(5, Color::White));
        pos.set(d4, Cell::piece(1, Color::Black));
        pos.set_attribute(e1, attr::HP, 1);
        pos.set_attribute(d4, attr::HP, 2);
        pos.set_state_value(Name::lit("first-promotion-wins"), Name::lit("locked"), 1);
        let mut s = String::from("X");
        write_extension(&pos, &mut s);
        assert_eq!(s, "X {Hp:e1=1,d4=2;@first-promotion-wins.locked=1}");
        let (core, ext) = split_extension(&s);
        assert_eq!(core, "X");
        let mut back = Position::empty(8, 8);
        back.set(e1, Cell::piece(5, Color::White));
        back.set(d4, Cell::piece(1, Color::Black));
        apply_extension(&mut back, ext.unwrap(), 2).unwrap();
        assert_eq!(back.attribute(d4, attr::HP), Some(2));
        assert_eq!(back.attribute(e1, attr::HP), Some(1));
        assert_eq!(back.state(), pos.state());
    }

    #[test]
    fn extension_errors_name_the_column() {
        let mut pos = Position::empty(8, 8);
        let e = apply_extension(&mut pos, "Hp:e9=1", 10).unwrap_err();
        assert_eq!(e.field, 6);
        assert!(e.message.contains("e9"), "{}", e.message);
        let e = apply_extension(&mut pos, "Hp:e1=1", 10).unwrap_err();
        assert!(e.message.contains("no piece"), "{}", e.message);
    }
}
