//! Build script for the chess plugin.
//!
//! Generates the move-generator lookup tables of `src/engine` into
//! `$OUT_DIR/chess_engine_tables.rs` so that the engine has no runtime
//! initialisation at all:
//!
//! * knight / king / pawn attack tables,
//! * `BETWEEN[a][b]` (squares strictly between two aligned squares),
//! * empty-board rook and bishop rays,
//! * "fancy" magic bitboards for rooks and bishops: the magic numbers are
//!   searched here with a fixed-seed xorshift PRNG (deterministic output),
//!   every magic is verified against a slow ray-walking reference, and the
//!   resulting attack table is emitted as one flat array.
//!
//! Only `std` is used.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(file: i32, rank: i32) -> bool {
    (0..8).contains(&file) && (0..8).contains(&rank)
}

fn sq(file: i32, rank: i32) -> u64 {
    1u64 << (rank * 8 + file)
}

/// Slow reference: slider attacks from `s` given blockers `occ`.
fn slide(s: usize, occ: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let (f0, r0) = ((s % 8) as i32, (s / 8) as i32);
    let mut att = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while on_board(f, r) {
            att |= sq(f, r);
            if occ & sq(f, r) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    att
}

/// Relevant-occupancy mask: the rays without their last square.
fn relevant_mask(s: usize, dirs: &[(i32, i32); 4]) -> u64 {
    let (f0, r0) = ((s % 8) as i32, (s / 8) as i32);
    let mut m = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while on_board(f + df, r + dr) {
            m |= sq(f, r);
            f += df;
            r += dr;
        }
    }
    m
}

fn leaper(s: usize, deltas: &[(i32, i32)]) -> u64 {
    let (f0, r0) = ((s % 8) as i32, (s / 8) as i32);
    deltas
        .iter()
        .filter(|&&(df, dr)| on_board(f0 + df, r0 + dr))
        .fold(0, |a, &(df, dr)| a | sq(f0 + df, r0 + dr))
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Found {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// Finds magics for all 64 squares of one slider type and appends the
/// attack sets to `table`.
fn find_magics(dirs: &[(i32, i32); 4], rng: &mut Rng, table: &mut Vec<u64>) -> Vec<Found> {
    let mut result = Vec::with_capacity(64);
    for s in 0..64 {
        let mask = relevant_mask(s, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        // Enumerate all subsets of the mask (carry-rippler).
        let mut occs = Vec::with_capacity(size);
        let mut refs = Vec::with_capacity(size);
        let mut sub = 0u64;
        loop {
            occs.push(sub);
            refs.push(slide(s, sub, dirs));
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let mut used = vec![0u64; size];
        let mut epoch = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            let magic = rng.sparse();
            if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let mut ok = true;
            for i in 0..size {
                let idx = (occs[i].wrapping_mul(magic) >> shift) as usize;
                if epoch[idx] != attempt {
                    epoch[idx] = attempt;
                    used[idx] = refs[i];
                } else if used[idx] != refs[i] {
                    ok = false;
                    break;
                }
            }
            if ok {
                break magic;
            }
        };
        // Fill the table for this square (unused slots stay 0).
        let offset = table.len();
        table.resize(offset + size, 0);
        for i in 0..size {
            let idx = (occs[i].wrapping_mul(magic) >> shift) as usize;
            table[offset + idx] = refs[i];
        }
        // Verify once more against the reference.
        for i in 0..size {
            let idx = (occs[i].wrapping_mul(magic) >> shift) as usize;
            assert_eq!(table[offset + idx], refs[i]);
        }
        result.push(Found { mask, magic, shift, offset });
    }
    result
}

fn emit_u64_array(out: &mut String, name: &str, v: &[u64]) {
    writeln!(out, "static {}: [u64; {}] = [", name, v.len()).unwrap();
    for chunk in v.chunks(8) {
        out.push_str("    ");
        for x in chunk {
            write!(out, "{:#x}, ", x).unwrap();
        }
        out.push('\n');
    }
    out.push_str("];\n\n");
}

fn emit_magics(out: &mut String, name: &str, v: &[Found]) {
    writeln!(out, "static {}: [Magic; 64] = [", name).unwrap();
    for f in v {
        writeln!(
            out,
            "    Magic {{ mask: {:#x}, magic: {:#x}, offset: {}, shift: {} }},",
            f.mask, f.magic, f.offset, f.shift
        )
        .unwrap();
    }
    out.push_str("];\n\n");
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");

    let knight_d = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    let king_d = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
    let knight: Vec<u64> = (0..64).map(|s| leaper(s, &knight_d)).collect();
    let king: Vec<u64> = (0..64).map(|s| leaper(s, &king_d)).collect();
    let mut pawn: Vec<u64> = (0..64).map(|s| leaper(s, &[(-1, 1), (1, 1)])).collect();
    pawn.extend((0..64).map(|s| leaper(s, &[(-1, -1), (1, -1)])));
    let rook_rays: Vec<u64> = (0..64).map(|s| slide(s, 0, &ROOK_DIRS)).collect();
    let bishop_rays: Vec<u64> = (0..64).map(|s| slide(s, 0, &BISHOP_DIRS)).collect();

    // BETWEEN[a][b]: squares strictly between a and b if aligned, else 0.
    let mut between = vec![0u64; 64 * 64];
    for a in 0..64usize {
        for b in 0..64usize {
            if a == b {
                continue;
            }
            let bb = 1u64 << b;
            for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                if slide(a, 0, dirs) & bb != 0 {
                    between[a * 64 + b] = slide(a, bb, dirs) & slide(b, 1u64 << a, dirs);
                }
            }
        }
    }

    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut table = Vec::new();
    let rook = find_magics(&ROOK_DIRS, &mut rng, &mut table);
    let bishop = find_magics(&BISHOP_DIRS, &mut rng, &mut table);

    let mut out = String::with_capacity(4 << 20);
    out.push_str("// @generated by plugins/chess/build.rs -- do not edit.\n\n");
    emit_u64_array(&mut out, "KNIGHT_ATTACKS", &knight);
    emit_u64_array(&mut out, "KING_ATTACKS", &king);
    emit_u64_array(&mut out, "PAWN_ATTACKS", &pawn);
    emit_u64_array(&mut out, "ROOK_RAYS", &rook_rays);
    emit_u64_array(&mut out, "BISHOP_RAYS", &bishop_rays);
    emit_u64_array(&mut out, "BETWEEN", &between);
    emit_magics(&mut out, "ROOK_MAGICS", &rook);
    emit_magics(&mut out, "BISHOP_MAGICS", &bishop);
    emit_u64_array(&mut out, "SLIDER_ATTACKS", &table);

    let path = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR")).join("chess_engine_tables.rs");
    fs::write(path, out).expect("write chess_engine_tables.rs");
}
