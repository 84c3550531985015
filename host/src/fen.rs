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

/// The en passant field of a FEN-style position (fields: board, side `w`/`b`, castling, en
/// passant, ...): byte range of the field, if the FEN has that shape.
fn ep_field_range(core: &str) -> Option<std::ops::Range<usize>> {
    let mut fields = Vec::new();
    let mut start = None;
    for (i, ch) in core.char_indices() {
        match (ch.is_whitespace(), start) {
            (true, Some(s)) => {
                fields.push(s..i);
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        fields.push(s..core.len());
    }
    if fields.len() < 4 || !matches!(&core[fields[1].clone()], "w" | "b" | "W" | "B") {
        return None;
    }
    Some(fields[3].clone())
}

/// A two-square en passant field, Fairy-Stockfish style: the passed square and the square of
/// the piece that may be taken, in board order (`c3d4` after White's b2-d4, `f5g6` after
/// Black's h7-f5). The empty one is the passed square.
fn parse_two_squares(t: &str) -> Option<(Square, Square)> {
    let b = t.as_bytes();
    let second = (1..b.len()).find(|&i| b[i].is_ascii_lowercase())?;
    Some((Square::parse(&t[..second])?, Square::parse(&t[second..])?))
}

/// For variants without their own two-square en passant field: if the FEN's en passant field
/// has the two-square form, returns the FEN with `-` there and the two squares in the order
/// written (the host tells them apart after the variant has read the board).
pub fn take_two_square_ep(core: &str) -> Option<(String, Square, Square)> {
    let r = ep_field_range(core)?;
    let (passed, victim) = parse_two_squares(&core[r.clone()])?;
    let mut s = core.to_string();
    s.replace_range(r, "-");
    Some((s, passed, victim))
}

/// Column of the en passant field of a FEN-style position (for error messages).
pub fn ep_field_column(core: &str) -> Option<usize> {
    ep_field_range(core).map(|r| r.start)
}

/// The one-square en passant field of a FEN-style position, if it names a square.
pub fn single_square_ep(core: &str) -> Option<Square> {
    let r = ep_field_range(core)?;
    Square::parse(&core[r])
}

/// The en passant field for `pos` as stored: `-`, the passed square when the piece to take
/// stands right behind it (FIDE geometry), else the two-square form in board order (`c3d4`,
/// `f5g6`), as Fairy-Stockfish writes it.
pub fn ep_field(pos: &Position) -> String {
    let (passed, victim) = (pos.ep_passed, pos.ep_victim);
    if passed.is_none() || victim.is_none() {
        return "-".to_string();
    }
    let behind = passed.offset_within(0, pos.side_to_move.opposite().forward(), 16, 16);
    if behind == Some(victim) {
        passed.name()
    } else {
        // Fairy-Stockfish writes the set of en passant squares in board order (a1 first).
        format!("{}{}", passed.min(victim), passed.max(victim))
    }
}

/// Rewrites the en passant field of a FEN-style position written by a variant so that it says
/// what `pos` stores (see [`ep_field`]); leaves other FENs alone.
pub fn write_ep_field(fen: &mut String, pos: &Position) {
    let Some(r) = ep_field_range(fen) else {
        return;
    };
    let current = &fen[r.clone()];
    if current != "-" && Square::parse(current).is_none() && parse_two_squares(current).is_none() {
        return;
    }
    let want = ep_field(pos);
    if current != want {
        fen.replace_range(r, &want);
    }
}

/// Reads an extension (text between the braces) into `pos`. `column` is where the text
/// starts in the whole FEN (a byte offset, as error columns are until
/// [`crate::Pipeline::parse_fen`] turns them into characters).
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
