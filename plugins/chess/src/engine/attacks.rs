//! Attack tables (generated at build time by `build.rs`) and lookups.

/// One "fancy" magic bitboard entry.
#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    magic: u64,
    offset: usize,
    shift: u32,
}

include!(concat!(env!("OUT_DIR"), "/chess_engine_tables.rs"));

#[inline(always)]
fn magic_index(m: &Magic, occupied: u64) -> usize {
    m.offset + ((occupied & m.mask).wrapping_mul(m.magic) >> m.shift) as usize
}

/// Squares attacked by a rook on `sq` given the `occupied` squares.
#[inline(always)]
pub fn rook_attacks(sq: u8, occupied: u64) -> u64 {
    let m = &ROOK_MAGICS[(sq & 63) as usize];
    let i = magic_index(m, occupied);
    debug_assert!(i < SLIDER_ATTACKS.len());
    // SAFETY: `build.rs` verified every magic: for every subset of `mask`
    // the index lies in `offset .. offset + 2^bits`, inside the table.
    unsafe { *SLIDER_ATTACKS.get_unchecked(i) }
}

/// Squares attacked by a bishop on `sq` given the `occupied` squares.
#[inline(always)]
pub fn bishop_attacks(sq: u8, occupied: u64) -> u64 {
    let m = &BISHOP_MAGICS[(sq & 63) as usize];
    let i = magic_index(m, occupied);
    debug_assert!(i < SLIDER_ATTACKS.len());
    // SAFETY: see `rook_attacks`.
    unsafe { *SLIDER_ATTACKS.get_unchecked(i) }
}

/// Squares attacked by a queen on `sq` given the `occupied` squares.
#[inline(always)]
pub fn queen_attacks(sq: u8, occupied: u64) -> u64 {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares attacked by a knight on `sq`.
#[inline(always)]
pub fn knight_attacks(sq: u8) -> u64 {
    KNIGHT_ATTACKS[(sq & 63) as usize]
}

/// Squares attacked by a king on `sq`.
#[inline(always)]
pub fn king_attacks(sq: u8) -> u64 {
    KING_ATTACKS[(sq & 63) as usize]
}

/// Squares attacked by a pawn of `side` standing on `sq`.
#[inline(always)]
pub fn pawn_attacks(side: super::Side, sq: u8) -> u64 {
    PAWN_ATTACKS[((side as usize) << 6) | (sq & 63) as usize]
}

#[inline(always)]
pub(crate) fn pawn_attacks_idx(side: usize, sq: u8) -> u64 {
    PAWN_ATTACKS[((side & 1) << 6) | (sq & 63) as usize]
}

/// Rook moves on an empty board.
#[inline(always)]
pub fn rook_rays(sq: u8) -> u64 {
    ROOK_RAYS[(sq & 63) as usize]
}

/// Bishop moves on an empty board.
#[inline(always)]
pub fn bishop_rays(sq: u8) -> u64 {
    BISHOP_RAYS[(sq & 63) as usize]
}

/// Squares strictly between `a` and `b` if they share a rank, file or
/// diagonal; otherwise 0.
#[inline(always)]
pub fn between(a: u8, b: u8) -> u64 {
    BETWEEN[(((a & 63) as usize) << 6) | (b & 63) as usize]
}
