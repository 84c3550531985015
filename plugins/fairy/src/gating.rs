//! Fairy-Stockfish's `gating` with `seirawanGating` (S-chess: `seirawan`, `shouse`).
//!
//! Each side has *gates*: squares of its castling rank whose piece has not moved yet
//! (Fairy-Stockfish's `gatesBB`). A move of a piece from one of its gates may bring a piece
//! from the hand onto the square it leaves (`b1c3h`, SAN `Nc3/H`); castling may gate onto
//! the king's square or the rook's (`e1g1h`, `O-O/He1`; `h1e1h`, `O-O/Hh1`), not onto a
//! square the king or rook ends on. A move's legality is its base move's (Fairy-Stockfish's
//! `legal()` does not count the gated piece as a blocker). After every move a side loses the
//! gate its piece left (and the castling rook's), the opponent loses a gate the move lands
//! on, and a side whose hand is empty loses all its gates (without captures to hand it can
//! never gate again).
//!
//! The gates are part of the position (`Position::variant_state[2]`, which the passes of
//! `crate::pass` use otherwise: refused together; so they count for repetition) and of the
//! FEN's castling field: `K`/`Q` also name the gates of the king and that rook,
//! a file letter a gate (not a Chess960 right: with pieces in hand, as Fairy-Stockfish
//! reads it); written after the castling rights, those the rights already imply left out,
//! while the side has pieces in hand (or captures go to hand).

use crate::engine::Fairy;
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{Cell, Color, Move, MoveEffects, MoveFlags, Position, Square};

/// Where the gates are kept: White's files in the low 16 bits, Black's in the high.
const STATE: usize = 2;
/// `Move::special` of a gating move: this bit, the gated kind (bits 8-12), the gate square
/// (bits 0-7).
const GATE: u16 = 0x4000;

/// The files of `color`'s gates (bit `f`: file `f` of its castling rank).
pub fn gates(pos: &Position, color: Color) -> u32 {
    (pos.variant_state[STATE] >> (16 * color.index())) & 0xFFFF
}

/// Sets `color`'s gates.
pub fn set_gates(pos: &mut Position, color: Color, files: u32) {
    let shift = 16 * color.index();
    let all = pos.variant_state[STATE];
    pos.variant_state[STATE] = (all & !(0xFFFF << shift)) | ((files & 0xFFFF) << shift);
}

/// The gate and the gated kind of a gating move.
pub fn gate_of(m: &Move) -> Option<(Square, u8)> {
    (m.is_special() && m.special & GATE != 0).then_some((
        Square((m.special & 0xFF) as u8),
        ((m.special >> 8) & 0x1F) as u8,
    ))
}

/// The move without its gating.
pub fn base(m: Move) -> Move {
    if gate_of(&m).is_none() {
        return m;
    }
    let mut b = m;
    b.flags = MoveFlags(b.flags.0 & !MoveFlags::SPECIAL.0);
    b.special = 0;
    b
}

fn with_gate(m: Move, gate: Square, kind: u8) -> Move {
    let mut g = m;
    g.flags = g.flags.with(MoveFlags::SPECIAL);
    g.special = GATE | (u16::from(kind & 0x1F) << 8) | u16::from(gate.0);
    g
}

/// Whether `sq` is one of `color`'s gates.
fn is_gate(v: &Fairy, pos: &Position, color: Color, sq: Square) -> bool {
    sq.rank() == v.castling_rank(color.index()) && gates(pos, color) & (1 << sq.file()) != 0
}

/// Appends to `out` the gating forms of the legal moves `out[start..]`.
pub fn expand(v: &Fairy, pos: &Position, out: &mut RVec<Move>, start: usize) {
    let us = pos.side_to_move;
    let hand: Vec<u8> = (0..v.n_base as u8)
        .filter(|&k| pos.hands[us.index()][k as usize] > 0)
        .collect();
    if hand.is_empty() || gates(pos, us) == 0 {
        return;
    }
    let base_moves: Vec<Move> = out[start..].to_vec();
    for m in base_moves {
        if m.is_drop() || m.is_special() {
            continue;
        }
        let mut squares = vec![m.from];
        if m.is_castle() {
            squares.push(m.to);
        }
        for gate in squares {
            if !is_gate(v, pos, us, gate) {
                continue;
            }
            if m.is_castle() {
                let (king, rook) = crate::engine::castle_destinations(&m);
                if gate == king || gate == rook {
                    continue;
                }
            }
            for &k in &hand {
                if v.may_drop_on(k, us, gate) {
                    out.push(with_gate(m, gate, k));
                }
            }
        }
    }
}

/// After `m` (made, its gated piece not yet placed) by `us`: the gated piece, and the gates
/// every move takes away.
pub fn after_move(v: &Fairy, pos: &mut Position, m: &Move, us: Color, fx: &mut MoveEffects) {
    let them = us.opposite();
    if let Some((gate, kind)) = gate_of(m) {
        let cell = Cell::piece(kind, us);
        pos.set(gate, cell);
        let slot = &mut pos.hands[us.index()][kind as usize & 31];
        *slot = slot.saturating_sub(1);
        fx.event(houserules_plugin_api::Event::new(
            houserules_plugin_api::EventKind::DROP,
            gate,
            cell,
        ));
    }
    let mut ours = gates(pos, us);
    let mut theirs = gates(pos, them);
    let clear = |files: &mut u32, color: Color, sq: Square| {
        if !sq.is_none() && sq.rank() == v.castling_rank(color.index()) {
            *files &= !(1 << sq.file());
        }
    };
    if !m.is_drop() {
        clear(&mut ours, us, m.from);
    }
    if m.is_castle() {
        clear(&mut ours, us, m.to);
    }
    let landed = if m.is_castle() { m.via } else { m.to };
    clear(&mut theirs, them, landed);
    if can_never_gate(v, pos, us) {
        ours = 0;
    }
    set_gates(pos, us, ours);
    set_gates(pos, them, theirs);
    if v.spec.cambodian_moves {
        crate::cambodian::after_move(v, pos, m, us);
    }
}

/// Reads one letter of the castling field: the gates it names (`rook`: the square the letter
/// names, `king`: the castling king's square for `K`/`Q`). Whether the letter is a gate only
/// (no castling right).
pub fn read_letter(
    v: &Fairy,
    pos: &mut Position,
    color: Color,
    letter: char,
    rook: Square,
    king: Option<Square>,
) -> bool {
    let mut files = gates(pos, color);
    if pos.get(rook).is_color(color) {
        files |= 1 << rook.file();
    }
    let castling = matches!(letter.to_ascii_uppercase(), 'K' | 'Q');
    if let (true, Some(k)) = (castling, king) {
        files |= 1 << k.file();
    }
    set_gates(pos, color, files);
    !castling && !can_never_gate(v, pos, color)
}

fn has_hand(v: &Fairy, pos: &Position, color: Color) -> bool {
    (0..v.n_base).any(|k| pos.hands[color.index()][k] > 0)
}

/// Whether `color` can never gate again: S-chess gating from an empty hand that captures do
/// not refill. Its gates are then dropped, neither used nor written.
fn can_never_gate(v: &Fairy, pos: &Position, color: Color) -> bool {
    v.spec.seirawan_gating && !v.spec.captures_to_hand && !has_hand(v, pos, color)
}

/// After a FEN is read: gates of a side that can never gate (no pieces in hand, none to
/// come) are dropped (Fairy-Stockfish keeps them but neither writes nor uses them).
pub fn normalize(v: &Fairy, pos: &mut Position) {
    for color in [Color::White, Color::Black] {
        if can_never_gate(v, pos, color) {
            set_gates(pos, color, 0);
        }
    }
}

/// The gate letters of the castling field for `color` (those its castling rights do not
/// imply), upper case for White.
pub fn letters(v: &Fairy, pos: &Position, color: Color, implied: &[u8]) -> String {
    let files = gates(pos, color);
    if files == 0 || can_never_gate(v, pos, color) {
        return String::new();
    }
    (0..v.files)
        .filter(|f| files & (1 << f) != 0 && !implied.contains(f))
        .map(|f| {
            let c = (b'A' + f) as char;
            if color == Color::White {
                c
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// `m` in Fairy-Stockfish's UCI: the base move's text and the gated piece's letter; a
/// castling move gating onto the rook's square is written from the rook to the king.
pub fn coordinate(v: &Fairy, m: &Move, base_text: &str) -> Option<String> {
    let (gate, kind) = gate_of(m)?;
    let letter = v.kinds[kind as usize].letter.to_ascii_lowercase();
    Some(if m.is_castle() && gate == m.to {
        format!("{}{}{letter}", m.to, m.from)
    } else {
        format!("{base_text}{letter}")
    })
}

/// The SAN suffix of a gating move: `/H`, or for castling `/He1`.
pub fn san_suffix(v: &Fairy, m: &Move) -> String {
    match gate_of(m) {
        Some((gate, kind)) => {
            let letter = v.kinds[kind as usize].letter;
            if m.is_castle() {
                format!("/{letter}{gate}")
            } else {
                format!("/{letter}")
            }
        }
        None => String::new(),
    }
}

/// Refusals: what gating does not combine with here.
pub fn check(spec: &crate::spec::Spec) -> Result<(), String> {
    if !spec.seirawan_gating && !spec.cambodian_moves {
        return Err(
            "gating without seirawanGating or cambodianMoves is not supported (the gates \
             would be rights of nothing)"
                .into(),
        );
    }
    if spec.walling_rule.is_some() || spec.placement.active() {
        return Err("gating with walling or placement rules is not supported".into());
    }
    if spec.pass_on_stalemate.contains(&true) || spec.pass.contains(&true) || spec.bikjang_rule {
        // The gates share their slot of the position with the passes and bikjang.
        return Err("gating with passing or bikjangRule is not supported".into());
    }
    Ok(())
}
