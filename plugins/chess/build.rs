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
//!   searched here with a fixed-seed xorshift PRNG (deterministic output;
//!   the results of that search are cached in `KNOWN_*_MAGICS` so the
//!   search only re-runs if a cached magic ever failed verification), every
//!   magic is verified against a slow ray-walking reference, and the
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

/// Magics previously found by `find_magics` with the fixed seed (it is
/// only re-run if one of these fails verification).
const KNOWN_ROOK_MAGICS: [u64; 64] = [
    0x1080004008801020,
    0x0840092002c03000,
    0x1900200010400900,
    0x0880100008000480,
    0x4200100420080200,
    0x8100020100080400,
    0x0200040110886200,
    0x0200008040220411,
    0x0404800084400220,
    0x0000401000402000,
    0x0086001081220440,
    0x0408800800100280,
    0x000a001201040820,
    0x8848800200840080,
    0x4001000100040200,
    0x0442000102105084,
    0x9080010020804100,
    0x0040404000201009,
    0x0000808010002009,
    0x2200090021d00100,
    0x0008008008040080,
    0x0004004002010040,
    0x0011040008015042,
    0x00000a0001768104,
    0x0000800080204009,
    0x2010004140002001,
    0x9800200280100080,
    0x1000100080080080,
    0x0442000a00049020,
    0x2100040080020080,
    0x0800120400900148,
    0x0010040a00128541,
    0x2800804000800030,
    0x1010002000400041,
    0x4000200011004100,
    0x0610008410800800,
    0x0400802402800800,
    0xc100020080800400,
    0x0002000802000401,
    0x0182085882000401,
    0x0220204000808000,
    0x2860100040024022,
    0x0001002004110040,
    0x99101042000a0020,
    0x0004080004008080,
    0x0010040002008080,
    0x2012004881020004,
    0x8300842444820011,
    0x0088403882010200,
    0x0820400080210100,
    0x0110910040a00300,
    0x0801100280080480,
    0x0242009008200600,
    0x1002000489500200,
    0x0040800200010080,
    0x0091800041000080,
    0x0000209300488001,
    0x04c1002414824001,
    0x020020000b001041,
    0x7000100004200901,
    0x8002002004100802,
    0x30010002084c0007,
    0x0888221800813004,
    0x4000002840840112,
];

/// Magics previously found by `find_magics` with the fixed seed (it is
/// only re-run if one of these fails verification).
const KNOWN_BISHOP_MAGICS: [u64; 64] = [
    0xa010041108003100,
    0x006082020a002900,
    0x6810010619200000,
    0x08281a0520000408,
    0x0001104001000400,
    0x0018901008048400,
    0x00040a0210245280,
    0x000200210808a402,
    0x9140048410821200,
    0x0800091010820041,
    0x20504804832202c0,
    0x0100091401081000,
    0x8021011140000012,
    0x0810020804450400,
    0x208b0542109008a2,
    0x0080084a08040204,
    0x0040e2a80811244c,
    0x2505022008008108,
    0x0430220100420040,
    0x010a040420220040,
    0x1105000290400000,
    0x0093001200822120,
    0x4000a62048043004,
    0x280120048a015004,
    0x006090002a020814,
    0x44042000240800d0,
    0x01102800040a4400,
    0x1004080080220040,
    0x0001001011004024,
    0x0010044000805040,
    0x0914041200820100,
    0x0004821012821480,
    0x0024040500c05021,
    0x0088611002080200,
    0x0116080a00040020,
    0x4000020080080080,
    0x2450450140840040,
    0x0000880201484100,
    0x0222020404020092,
    0x8081110600002e00,
    0x2842101105000801,
    0x1100809008001025,
    0x00020202221c0400,
    0x0422014022009020,
    0x0210046102100c00,
    0xc004008082029102,
    0x00aa461801101200,
    0x0404080080201108,
    0x020542108c205002,
    0x0410544804100100,
    0x0040910841100000,
    0x0400200042021100,
    0x00004204850400c0,
    0x0200100410a42102,
    0x1040020801210102,
    0x0805040410420000,
    0x2884804130100200,
    0x800c262201242000,
    0x1058000194108800,
    0x0014221054420204,
    0x0104000012a02200,
    0x0200881003300100,
    0x0140400202840100,
    0x0402020801010201,
];

struct Found {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// Finds magics for all 64 squares of one slider type and appends the
/// attack sets to `table`.
fn find_magics(
    dirs: &[(i32, i32); 4],
    known: &[u64; 64],
    rng: &mut Rng,
    table: &mut Vec<u64>,
) -> Vec<Found> {
    let mut result = Vec::with_capacity(64);
    for (s, &known_magic) in known.iter().enumerate() {
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
        // Does `magic` map every subset to a slot without destructive collisions?
        let mut works = |magic: u64| -> bool {
            attempt += 1;
            for i in 0..size {
                let idx = (occs[i].wrapping_mul(magic) >> shift) as usize;
                if epoch[idx] != attempt {
                    epoch[idx] = attempt;
                    used[idx] = refs[i];
                } else if used[idx] != refs[i] {
                    return false;
                }
            }
            true
        };
        let magic = if works(known_magic) {
            known_magic
        } else {
            loop {
                let magic = rng.sparse();
                if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
                    continue;
                }
                if works(magic) {
                    break magic;
                }
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
        result.push(Found {
            mask,
            magic,
            shift,
            offset,
        });
    }
    result
}

fn emit_u64_array(out: &mut String, name: &str, v: &[u64]) {
    out.push_str("#[allow(clippy::unreadable_literal)]\n");
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
    out.push_str("#[allow(clippy::unreadable_literal)]\n");
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

    let knight_d = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let king_d = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ];
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
    let rook = find_magics(&ROOK_DIRS, &KNOWN_ROOK_MAGICS, &mut rng, &mut table);
    let bishop = find_magics(&BISHOP_DIRS, &KNOWN_BISHOP_MAGICS, &mut rng, &mut table);

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

    let path =
        PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR")).join("chess_engine_tables.rs");
    fs::write(path, out).expect("write chess_engine_tables.rs");
}
