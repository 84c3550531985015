//! Move notation: SAN with the variant's piece letters, and the coordinate form.
//! Both are written from the legal moves of the pipeline (so disambiguation follows the
//! rules actually in force) and both are accepted when reading.

use crate::error::HostError;
use crate::pipeline::Pipeline;
use abi_stable::std_types::RVec;
use houserules_plugin_api::{Color, Move, MoveEffects, Position, Role, Square, VariantFlags};

fn letter(p: &Pipeline, kind: u8) -> char {
    p.info
        .pieces
        .get(kind as usize)
        .map(|t| t.letter())
        .unwrap_or('?')
}

fn role(p: &Pipeline, kind: u8) -> Role {
    p.info
        .pieces
        .get(kind as usize)
        .map(|t| t.role)
        .unwrap_or(Role::OTHER)
}

/// The coordinate form: `e2e4`, `e7e8q`, drops `P@e4`, castling as king origin and
/// destination (`e1g1`), two-leg moves `b1a3c4`, specials `from` `to` `:code`.
pub fn coordinate(p: &Pipeline, pos: &Position, m: Move) -> Result<String, HostError> {
    if m.is_special() {
        if let Some(s) = p.special_coordinate(pos, m)? {
            return Ok(s);
        }
    }
    if m.is_drop() {
        return Ok(format!("{}@{}", letter(p, m.piece), m.to));
    }
    if m.is_castle() {
        return Ok(format!("{}{}", m.from, m.via));
    }
    let mut s = m.from.name();
    if m.flags
        .contains(houserules_plugin_api::MoveFlags::MULTI_LEG)
        && !m.via.is_none()
    {
        s.push_str(&m.via.name());
    }
    s.push_str(&m.to.name());
    if m.is_promotion() {
        s.push(letter(p, m.piece).to_ascii_lowercase());
    }
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
    if m.is_castle() {
        return Ok(if m.via.file() > m.from.file() {
            "O-O".to_string()
        } else {
            "O-O-O".to_string()
        });
    }
    if m.is_drop() {
        return Ok(format!("{}@{}", letter(p, m.piece), m.to));
    }
    let cell = pos.get(m.from);
    let kind = cell.kind().unwrap_or(0);
    let dest = m.destination();
    let capture = m.is_capture() || pos.get(dest).is_color(pos.side_to_move.opposite());
    let mut s = String::new();
    let rivals: Vec<Square> = legal
        .iter()
        .filter(|o| {
            !o.is_drop()
                && !o.is_castle()
                && o.from != m.from
                && o.destination() == dest
                && pos.get(o.from) == cell
        })
        .map(|o| o.from)
        .collect();
    let pawn = role(p, kind) == Role::PAWN;
    // A pawn's SAN names its origin only by the file of a capture. Where that does not single
    // the move out (berolina pawns: a2-b3 and c2-b3), write it as a piece move, `Pab3`, as
    // Fairy-Stockfish does.
    let pawn_plain = pawn
        && if capture {
            rivals.iter().all(|r| r.file() != m.from.file())
        } else {
            rivals.is_empty()
        };
    if pawn_plain {
        if capture {
            s.push((b'a' + m.from.file()) as char);
            s.push('x');
        }
        s.push_str(&dest.name());
    } else {
        s.push(letter(p, kind));
        if !rivals.is_empty() {
            if rivals.iter().all(|r| r.file() != m.from.file()) {
                s.push((b'a' + m.from.file()) as char);
            } else if rivals.iter().all(|r| r.rank() != m.from.rank()) {
                s.push_str(&(m.from.rank() as u32 + 1).to_string());
            } else {
                s.push_str(&m.from.name());
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&dest.name());
    }
    if m.is_promotion() {
        s.push('=');
        s.push(letter(p, m.piece));
    }
    Ok(s)
}

/// Full SAN: with `+` when the move attacks an enemy royal and `#` when it also leaves the
/// opponent without a legal move.
pub fn san(p: &Pipeline, pos: &Position, m: Move, legal: &[Move]) -> Result<String, HostError> {
    let mut s = san_core(p, pos, m, legal)?;
    let mut child = pos.clone();
    let mut fx = MoveEffects::new(pos.side_to_move, false);
    p.apply(&mut child, m, &mut fx)?;
    let opponent: Color = pos.side_to_move.opposite();
    if p.royal_attacked(&child, opponent)? {
        let mut replies = RVec::new();
        p.legal_moves(&child, &mut replies)?;
        s.push(if replies.is_empty() && child.side_to_move == opponent {
            '#'
        } else {
            '+'
        });
    }
    Ok(s)
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
        if coordinate(p, pos, m)?.eq_ignore_ascii_case(raw) {
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
        let c = coordinate(p, pos, m)?;
        if c.eq_ignore_ascii_case(&t) {
            return Ok(m);
        }
        // Castling also as king takes rook (`e1h1`), as Chess960 tools write it.
        if m.is_castle() && format!("{}{}", m.from, m.to).eq_ignore_ascii_case(&t) {
            return Ok(m);
        }
    }
    let sans: Vec<String> = legal
        .iter()
        .map(|&m| san_core(p, pos, m, legal))
        .collect::<Result<_, _>>()?;
    if let Some(i) = sans.iter().position(|s| *s == t) {
        return Ok(legal[i]);
    }
    // Lenient: without capture marks and `=`, and with an explicit origin the SAN would omit.
    let nt = normalize(&t);
    let hits: Vec<usize> = (0..legal.len())
        .filter(|&i| {
            let ns = normalize(&sans[i]);
            ns == nt || over_specified(&ns, &nt, legal[i])
        })
        .collect();
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
