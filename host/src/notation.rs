//! Move notation: SAN with the variant's piece letters, and the coordinate form.
//! Both are written from the legal moves of the pipeline (so disambiguation follows the
//! rules actually in force) and both are accepted when reading.

use crate::error::HostError;
use crate::pipeline::Pipeline;
use abi_stable::std_types::RVec;
use houserules_plugin_api::{
    is_san_rival, write_coordinate_among, write_move_san, Color, Move, MoveEffects, Position,
    Square, VariantFlags,
};

fn letter(p: &Pipeline, kind: u8) -> char {
    p.info
        .pieces
        .get(kind as usize)
        .map(|t| t.letter())
        .unwrap_or('?')
}

/// The coordinate form: `e2e4`, `e7e8q`, drops `P@e4`, castling as king origin and
/// destination (`e1g1`), or as king takes rook (`e1h1`) where a plain move of the king has
/// that form (`castle_shadowed`: a king that steps two squares or slides), two-leg moves
/// `b1a3c4`, specials `from` `to` `:code`. For a castle the legal moves are generated to
/// tell; [`coordinate_among`] takes them where they are at hand.
pub fn coordinate(p: &Pipeline, pos: &Position, m: Move) -> Result<String, HostError> {
    if m.is_castle() && !p.info.flags.contains(VariantFlags::CUSTOM_SAN) {
        let mut legal = RVec::new();
        p.legal_moves(pos, &mut legal)?;
        return coordinate_among(p, pos, m, &legal);
    }
    coordinate_among(p, pos, m, &[])
}

/// A castle as king takes rook (`e1h1`): the form of Chess960 tools (UCI's `UCI_Chess960`).
pub fn king_takes_rook(castle: &Move) -> String {
    format!("{}{}", castle.from, castle.to)
}

/// [`coordinate`] of `m`, one of the legal moves `legal` of `pos` (all of them, for a castle).
pub fn coordinate_among(
    p: &Pipeline,
    pos: &Position,
    m: Move,
    legal: &[Move],
) -> Result<String, HostError> {
    // A variant with its own notation (`CUSTOM_SAN`) also writes its castling moves.
    if m.is_special() || (m.is_castle() && p.info.flags.contains(VariantFlags::CUSTOM_SAN)) {
        if let Some(s) = p.special_coordinate(pos, m)? {
            return Ok(s);
        }
    }
    if m.is_drop() {
        return Ok(format!("{}@{}", letter(p, m.piece), m.to));
    }
    // Room for the longest common form (`e7e8q`): no growth at every ply.
    let mut s = String::with_capacity(6);
    write_coordinate_among(&mut s, &m, &p.info.pieces, legal);
    if m.is_special() {
        s.push_str(&format!(":{}", m.special));
    }
    Ok(s)
}

/// SAN without the check suffix.
pub fn san_core(
    p: &Pipeline,
    pos: &Position,
    m: Move,
    legal: &[Move],
) -> Result<String, HostError> {
    if m.is_special() || p.info.flags.contains(VariantFlags::CUSTOM_SAN) {
        if let Some(s) = p.special_san(pos, m)? {
            return Ok(s);
        }
    }
    table_san(p, pos, m, legal)
}

/// SAN from the piece table's letters, whatever SAN the variant writes itself (a variant
/// with its own SAN may write other letters, as xiangqi's `H` for the horse whose table
/// letter is `N`; records in the table's letters are read too).
fn table_san(p: &Pipeline, pos: &Position, m: Move, legal: &[Move]) -> Result<String, HostError> {
    if m.is_drop() {
        return Ok(format!("{}@{}", letter(p, m.piece), m.to));
    }
    let rivals: Vec<Square> = legal
        .iter()
        .filter(|o| is_san_rival(pos, &m, o))
        .map(|o| o.from)
        .collect();
    // Room for `exd8=Q` and a check mark: no growth at every ply.
    let mut s = String::with_capacity(8);
    write_move_san(&mut s, pos, &m, &p.info.pieces, &rivals);
    Ok(s)
}

/// Full SAN: with `+` when the move attacks an enemy royal and `#` when it also leaves the
/// opponent without a legal move.
pub fn san(p: &Pipeline, pos: &Position, m: Move, legal: &[Move]) -> Result<String, HostError> {
    let mut s = san_core(p, pos, m, legal)?;
    let mut child = pos.clone();
    let mut fx = MoveEffects::new(pos.side_to_move, false);
    p.apply(&mut child, m, &mut fx)?;
    s.extend(check_mark(p, &child, pos.side_to_move)?);
    Ok(s)
}

/// The check mark of a move by `mover` that led to `after`: `+` when it attacks an enemy
/// royal, `#` when the opponent, to move, also has no legal move; `None` without check.
pub fn check_mark(p: &Pipeline, after: &Position, mover: Color) -> Result<Option<char>, HostError> {
    let opponent = mover.opposite();
    if !p.royal_attacked(after, opponent)? {
        return Ok(None);
    }
    // Few positions are checks, and the replies to a check are few: the full list is cheap.
    let mut replies = RVec::new();
    p.legal_moves(after, &mut replies)?;
    Ok(Some(
        if replies.is_empty() && after.side_to_move == opponent {
            '#'
        } else {
            '+'
        },
    ))
}

fn normalize(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, 'x' | ':' | '=' | '-' | '+' | '#'))
        .collect()
}

/// Reads a move in SAN or coordinate form and returns the legal move it names.
pub fn parse_move(
    p: &Pipeline,
    pos: &Position,
    text: &str,
    legal: &[Move],
) -> Result<Move, HostError> {
    let bad = |reason: String| HostError::BadMove {
        text: text.to_string(),
        reason,
    };
    // Coordinate forms may end in `+` themselves (Fairy-Stockfish writes a shogi-style
    // promotion `e5e6+`): try the text as it is before reading `+` as a check mark.
    let raw = text.trim();
    for &m in legal {
        if coordinate_among(p, pos, m, legal)?.eq_ignore_ascii_case(raw) {
            return Ok(m);
        }
    }
    let mut t = raw;
    for suffix in ["e.p.", "ep"] {
        if let Some(x) = t.strip_suffix(suffix) {
            if x.len() >= 2 {
                t = x.trim_end();
            }
        }
    }
    let t = t.trim_end_matches(['+', '#', '!', '?']);
    if t.is_empty() {
        return Err(bad("empty move".to_string()));
    }
    let t = t.replace("0-0-0", "O-O-O").replace("0-0", "O-O");
    // Coordinate form.
    for &m in legal {
        let c = coordinate_among(p, pos, m, legal)?;
        if c.eq_ignore_ascii_case(&t) {
            return Ok(m);
        }
        // Castling also as king takes rook (`e1h1`), as Chess960 tools write it.
        if m.is_castle() && format!("{}{}", m.from, m.to).eq_ignore_ascii_case(&t) {
            return Ok(m);
        }
    }
    // Long algebraic form: `e2-e4`, `Ng1-f3`, `e4xd5`, `e7-e8=Q`.
    if let Some(m) = long_algebraic(p, pos, &t, legal)? {
        return Ok(m);
    }
    let sans: Vec<String> = legal
        .iter()
        .map(|&m| san_core(p, pos, m, legal))
        .collect::<Result<_, _>>()?;
    let mut hits = san_hits(&sans, &t, legal);
    if hits.is_empty() && p.info.flags.contains(VariantFlags::CUSTOM_SAN) {
        let table: Vec<String> = legal
            .iter()
            .map(|&m| {
                // A special move has only the variant's own SAN.
                if m.is_special() {
                    Ok(String::new())
                } else {
                    table_san(p, pos, m, legal)
                }
            })
            .collect::<Result<_, _>>()?;
        hits = san_hits(&table, &t, legal);
    }
    match hits.len() {
        1 => Ok(legal[hits[0]]),
        0 => {
            let mut sample: Vec<&str> = sans.iter().map(String::as_str).collect();
            sample.sort_unstable();
            let shown: Vec<&str> = sample.iter().take(12).copied().collect();
            Err(bad(if legal.is_empty() {
                "no legal move in this position".to_string()
            } else {
                format!(
                    "not a legal move here (legal: {}{})",
                    shown.join(" "),
                    if sample.len() > 12 { " ..." } else { "" }
                )
            }))
        }
        _ => {
            let names: Vec<&str> = hits.iter().map(|&i| sans[i].as_str()).collect();
            Err(bad(format!("ambiguous: could be {}", names.join(", "))))
        }
    }
}

/// The moves whose SAN is `text`: exactly, else leniently (without capture marks and `=`,
/// and with an explicit origin the SAN would omit).
fn san_hits(sans: &[String], text: &str, legal: &[Move]) -> Vec<usize> {
    if let Some(i) = sans.iter().position(|s| s == text) {
        return vec![i];
    }
    let nt = normalize(text);
    (0..legal.len())
        .filter(|&i| {
            let ns = normalize(&sans[i]);
            ns == nt || over_specified(&ns, &nt, legal[i])
        })
        .collect()
}

/// `Ng1f3` for `Nf3`: the text names the origin more fully than SAN needs.
fn over_specified(san: &str, text: &str, m: Move) -> bool {
    if m.is_drop() || m.is_castle() || m.from.is_none() {
        return false;
    }
    let mut chars = san.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if !first.is_ascii_uppercase() {
        return false;
    }
    let dest = m.destination().name();
    let full = format!(
        "{first}{}{}",
        m.from,
        &san[san.find(&dest).unwrap_or(san.len())..]
    );
    normalize(&full) == text
}

/// A square name at the start of `b` (`e4`, `p15`): the square and its length.
fn square_prefix(b: &[u8]) -> Option<(Square, usize)> {
    let file = *b.first()?;
    if !(b'a'..=b'p').contains(&file) {
        return None;
    }
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let rank: u8 = std::str::from_utf8(&b[1..1 + digits]).ok()?.parse().ok()?;
    if rank == 0 || rank > 16 {
        return None;
    }
    Some((Square::new(file - b'a', rank - 1), 1 + digits))
}

/// Reads the long algebraic form `[Piece]from[-x:]to[=Promotion]` (`e2-e4`, `Ng1-f3`,
/// `e4xd5`, `e7-e8=Q`, `O-O` excepted) and returns the legal move it names, if exactly one.
/// The piece letter, when given, must be the letter of the piece on `from`.
fn long_algebraic(
    p: &Pipeline,
    pos: &Position,
    text: &str,
    legal: &[Move],
) -> Result<Option<Move>, HostError> {
    let b = text.as_bytes();
    let mut i = 0;
    let piece = match b.first() {
        Some(&c) if c.is_ascii_uppercase() => {
            i = 1;
            Some(c as char)
        }
        _ => None,
    };
    let Some((from, n)) = square_prefix(&b[i..]) else {
        return Ok(None);
    };
    i += n;
    if matches!(b.get(i), Some(b'-' | b'x' | b':')) {
        i += 1;
    }
    let Some((to, n)) = square_prefix(&b[i..]) else {
        return Ok(None);
    };
    i += n;
    if b.get(i) == Some(&b'=') {
        i += 1;
    }
    let promo = match &b[i..] {
        [] => None,
        [c] if c.is_ascii_alphabetic() => Some(c.to_ascii_uppercase() as char),
        _ => return Ok(None),
    };
    if let Some(l) = piece {
        match pos.get(from).kind() {
            Some(k) if letter(p, k) == l => {}
            _ => return Ok(None),
        }
    }
    let mut found = None;
    for &m in legal {
        if m.is_drop() || m.from != from || m.is_special() {
            continue;
        }
        let two_legs = m
            .flags
            .contains(houserules_plugin_api::MoveFlags::MULTI_LEG)
            && !m.via.is_none();
        let dest_ok = if m.is_castle() {
            m.via == to || m.to == to
        } else {
            m.destination() == to && !two_legs
        };
        let promo_ok = match promo {
            Some(l) => m.is_promotion() && letter(p, m.piece) == l,
            None => !m.is_promotion(),
        };
        if dest_ok && promo_ok {
            if found.is_some() {
                return Ok(None);
            }
            found = Some(m);
        }
    }
    Ok(found)
}

/// The moves of a move list as typed or pasted: space-separated moves, with move numbers
/// (`1.`, `12...`, `1.e4`, `1…`) left out and a final result token (`1-0`, `0-1`,
/// `1/2-1/2`, `*`) ignored. What remains is read by [`parse_move`].
pub fn move_texts(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let tokens: Vec<&str> = text.split_whitespace().collect();
    for (k, tok) in tokens.iter().enumerate() {
        let last = k + 1 == tokens.len();
        if last && matches!(*tok, "1-0" | "0-1" | "1/2-1/2" | "*") {
            break;
        }
        let rest = strip_move_number(tok);
        if !rest.is_empty() {
            out.push(rest);
        }
    }
    out
}

/// `12.e4` → `e4`, `12...` → ``, `e4` → `e4`.
pub fn strip_move_number(tok: &str) -> &str {
    let digits = tok.bytes().take_while(|c| c.is_ascii_digit()).count();
    let after = &tok[digits..];
    if digits > 0 && (after.starts_with('.') || after.starts_with('\u{2026}')) {
        after.trim_start_matches(['.', '\u{2026}'])
    } else if digits > 0 && after.is_empty() {
        ""
    } else {
        tok
    }
}

#[cfg(test)]
mod tests {
    use super::{move_texts, strip_move_number};

    #[test]
    fn move_numbers_and_a_final_result_are_left_out() {
        assert_eq!(
            move_texts("1. e4 e5 2.Nf3 2... Nc6 3\u{2026}a6 1-0"),
            ["e4", "e5", "Nf3", "Nc6", "a6"]
        );
        assert_eq!(move_texts("e2-e4 * e5"), ["e2-e4", "*", "e5"]);
        assert_eq!(strip_move_number("12."), "");
        assert_eq!(
            strip_move_number("0-0"),
            "0-0",
            "castling with zeros is no number"
        );
    }
}
