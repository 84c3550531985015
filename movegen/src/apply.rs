//! Making a move on a [`Position`]: cells and attributes, captures (to hand), promotion,
//! drops, castling and its rights, en passant rights, the `Moved` mark, clocks, the side to
//! move, and the bitboard cache.

use crate::bitboard::Bits;
use crate::gen::{castling_king, Ctx};
use crate::rules::EnPassantPolicy;
use crate::tables::Compiled;
use houserules_plugin_api::{
    attr, Cell, Color, Event, EventKind, Move, MoveEffects, MoveFlags, Position, Square,
};

/// Makes `mv` (generated for `pos`) and hands the turn over. `tag` is the generator's cache
/// fingerprint.
#[inline(always)]
pub fn apply<B: Bits>(
    c: &Compiled<B>,
    pos: &mut Position,
    mv: Move,
    fx: &mut MoveEffects,
    tag: u64,
) {
    let g = &c.geo;
    // A sliced cache is patched square by square, and its bitboards decoded only where
    // castling or en passant asks for them.
    let patch = tag != 0 && c.patchable(pos, tag);
    let mut st = if patch { None } else { Some(c.state(pos, tag)) };
    let us = pos.side_to_move;
    let them = us.opposite();
    let (ui, ti) = (us.index(), them.index());
    let old_victim = pos.ep_victim;
    pos.ep_passed = Square::NONE;
    pos.ep_victim = Square::NONE;
    let mut reset = false;
    // Changed squares: (compact square, cell before, cell after).
    let mut changed: [(usize, Cell, Cell); 4] = [(usize::MAX, Cell::EMPTY, Cell::EMPTY); 4];
    let mut n_changed = 0;
    let mut set =
        |pos: &mut Position, s: usize, cell: Cell, changed: &mut [(usize, Cell, Cell); 4]| {
            let old = pos.cells()[g.to_host[s] as usize];
            pos.set_raw(g.host(s), cell);
            if let Some(e) = changed[..n_changed].iter_mut().find(|e| e.0 == s) {
                e.2 = cell;
            } else if n_changed < 4 {
                changed[n_changed] = (s, old, cell);
                n_changed += 1;
            }
        };
    let rights = pos.castling.iter().any(|s| !s.is_none());
    let castling_king_before = if rights {
        castling_king(c, st.get_or_insert_with(|| c.state(pos, tag)), ui)
    } else {
        None
    };
    if mv.is_drop() {
        let Some(to) = g.compact(mv.to) else { return };
        // A promoted drop (`SPECIAL`) comes from the hand of the piece's unpromoted kind.
        let hand_kind = c
            .rules
            .drops
            .as_ref()
            .filter(|_| mv.is_special())
            .and_then(|d| d.promoted.iter().find(|&&(_, p)| p == mv.piece))
            .map_or(mv.piece, |&(h, _)| h);
        let slot = &mut pos.hands[ui][hand_kind as usize & 31];
        *slot = slot.saturating_sub(1);
        let cell = Cell::piece(mv.piece, us);
        pos.drop_attributes(mv.to);
        set(pos, to, cell, &mut changed);
        reset = true;
        fx.event(Event::new(EventKind::DROP, mv.to, cell));
    } else if mv.is_castle() {
        let (Some(king), Some(rook), Some(kd)) =
            (g.compact(mv.from), g.compact(mv.to), g.compact(mv.via))
        else {
            return;
        };
        let kcell = pos.get(mv.from);
        let rcell = pos.get(mv.to);
        let side = if g.file(rook) > g.file(king) { 0 } else { 1 };
        let rf = c
            .rules
            .castling
            .as_ref()
            .map_or(g.file(rook), |cr| cr.rook_dest[side] as usize);
        let rd = g.rank(king) * g.files + rf;
        if pos.has_attributes() {
            let ka: Vec<_> = pos
                .attributes()
                .iter()
                .filter(|a| a.square == mv.from)
                .copied()
                .collect();
            let ra: Vec<_> = pos
                .attributes()
                .iter()
                .filter(|a| a.square == mv.to)
                .copied()
                .collect();
            pos.drop_attributes(mv.from);
            pos.drop_attributes(mv.to);
            for a in ka {
                pos.set_attribute(g.host(kd), a.name, a.value);
            }
            for a in ra {
                pos.set_attribute(g.host(rd), a.name, a.value);
            }
        }
        set(pos, king, Cell::EMPTY, &mut changed);
        set(pos, rook, Cell::EMPTY, &mut changed);
        set(pos, kd, kcell, &mut changed);
        set(pos, rd, rcell, &mut changed);
        pos.castling[ui * 2] = Square::NONE;
        pos.castling[ui * 2 + 1] = Square::NONE;
        fx.event(Event::new(EventKind::CASTLE, g.host(kd), kcell));
    } else {
        let (Some(from), Some(to)) = (g.compact(mv.from), g.compact(mv.to)) else {
            return;
        };
        let cell = pos.get(mv.from);
        let kind = cell.kind().unwrap_or(0) as usize;
        let cap = if mv.flags.contains(MoveFlags::EN_PASSANT) {
            g.compact(old_victim).unwrap_or(to)
        } else {
            to
        };
        let victim = pos.get(g.host(cap));
        if victim.is_color(them) {
            fx.capture(g.host(cap), victim);
            if c.rules.captures_to_hand {
                if let Some(vk) = victim.kind() {
                    if (vk as usize) < c.n_kinds {
                        let h = c.info[vk as usize].hand_kind as usize;
                        pos.hands[ui][h & 31] = pos.hands[ui][h & 31].saturating_add(1);
                    }
                }
            }
            pos.drop_attributes(g.host(cap));
            set(pos, cap, Cell::EMPTY, &mut changed);
            reset = true;
            // A right whose rook was taken, or whose king was, is gone.
            for slot in 0..4 {
                if pos.castling[slot] == g.host(cap) {
                    pos.castling[slot] = Square::NONE;
                }
            }
        }
        pos.move_attributes(mv.from, mv.to);
        let moved_cell = if mv.is_promotion() {
            fx.event({
                let mut e = Event::new(EventKind::PROMOTION, mv.to, Cell::piece(mv.piece, us));
                e.value = mv.piece as i32;
                e
            });
            Cell::piece(mv.piece, us)
        } else {
            cell
        };
        set(pos, from, Cell::EMPTY, &mut changed);
        set(pos, to, moved_cell, &mut changed);
        if kind < c.n_kinds && c.info[kind].resets_clock {
            reset = true;
        }
        for slot in 0..4 {
            if pos.castling[slot] == mv.from {
                pos.castling[slot] = Square::NONE;
            }
        }
        if castling_king_before == Some(from) {
            pos.castling[ui * 2] = Square::NONE;
            pos.castling[ui * 2 + 1] = Square::NONE;
        }
        if c.rules.initial_needs_unmoved && kind < c.n_kinds && c.kinds[ui][kind].initial.is_some()
        {
            if c.kinds[ui][kind].initial_region.has(to) {
                pos.set_attribute(mv.to, attr::MOVED, 1);
            } else if pos.attribute(mv.to, attr::MOVED).is_some() {
                pos.remove_attribute(mv.to, attr::MOVED);
            }
        }
        if mv.flags.contains(MoveFlags::DOUBLE_STEP) && !mv.via.is_none() {
            pos.ep_passed = mv.via;
            pos.ep_victim = mv.to;
        }
    }
    // Bitboards after the move.
    let st = if patch {
        for &(s, _, cell) in &changed[..n_changed] {
            c.patch(pos, s, cell);
        }
        // Decoded only where the rules below ask.
        let needed = (c.rules.castling.is_some() && pos.castling.iter().any(|s| !s.is_none()))
            || !pos.ep_passed.is_none();
        needed.then(|| c.state(pos, tag))
    } else {
        let mut st = st.unwrap_or_else(|| c.state(pos, tag));
        for &(s, old, cell) in &changed[..n_changed] {
            let b = B::bit(s);
            if let (Some(k), Some(col)) = (old.kind(), old.color()) {
                if (k as usize) < c.n_kinds {
                    st.color[col.index()] &= !b;
                    st.kind[k as usize] &= !b;
                }
            }
            if let (Some(k), Some(col)) = (cell.kind(), cell.color()) {
                if (k as usize) < c.n_kinds {
                    st.color[col.index()] |= b;
                    st.kind[k as usize] |= b;
                }
            }
        }
        st.occ = st.color[0] | st.color[1];
        Some(st)
    };
    pos.halfmove_clock = if reset {
        0
    } else {
        pos.halfmove_clock.saturating_add(1)
    };
    if us == Color::Black {
        pos.fullmove_number = pos.fullmove_number.saturating_add(1);
    }
    pos.side_to_move = them;
    // Castling rights of a side whose castling piece is gone; none without castling.
    if c.rules.castling.is_none() {
        pos.castling = [Square::NONE; 4];
    } else if let Some(st) = st
        .as_ref()
        .filter(|_| pos.castling.iter().any(|s| !s.is_none()))
    {
        for side in [ui, ti] {
            if castling_king(c, st, side).is_none() {
                pos.castling[side * 2] = Square::NONE;
                pos.castling[side * 2 + 1] = Square::NONE;
            }
        }
    }
    if let (Some(p), Some(st)) = (g.compact(pos.ep_passed), st) {
        let keep = match c.rules.en_passant {
            EnPassantPolicy::Always => true,
            EnPassantPolicy::Pseudo => Ctx::new(c, pos, st, us).ep_capturable(p),
            EnPassantPolicy::Legal => {
                // Cheap first: is there a capturer at all?
                Ctx::new(c, pos, st, us).ep_capturable(p)
                    && Ctx::new(c, pos, st, them).has_legal_en_passant()
            }
        };
        if !keep {
            pos.ep_passed = Square::NONE;
            pos.ep_victim = Square::NONE;
        }
    }
    if patch {
        return;
    }
    match st {
        Some(st) if tag != 0 => c.store(pos, &st, tag),
        _ => pos.invalidate_accel(),
    }
}
