//! Perft through the BUILT host and plugins, against `tests/data/perft-reference.txt` (a copy
//! of the shared reference file). One generic test runs every line whose variant is built, up
//! to a node budget; named tests pin the chess suite position by position; the deepest counts
//! run in ignored tests (`cargo test --release -- --ignored`).

use houserules_tests::{houserules_ok, workspace_root};

struct Case {
    variant: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(workspace_root().join("tests/data/perft-reference.txt"))
        .expect("reference file");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let parts: Vec<&str> = l.split('|').map(str::trim).collect();
            let counts = parts[2]
                .split_whitespace()
                .map(|c| {
                    let (d, n) = c.split_once(':').expect("depth:nodes");
                    (d.parse().unwrap(), n.parse().unwrap())
                })
                .collect();
            Case {
                variant: parts[0].to_string(),
                fen: parts[1].to_string(),
                counts,
            }
        })
        .collect()
}

fn perft(variant: &str, fen: &str, depth: u32, threads: u32) -> u64 {
    let out = houserules_ok([
        "perft",
        "--variant",
        variant,
        "--fen",
        fen,
        "--depth",
        &depth.to_string(),
        "--threads",
        &threads.to_string(),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("perft JSON");
    assert_eq!(v["variant"], variant);
    assert_eq!(v["depth"], depth);
    v["nodes"].as_u64().expect("nodes")
}

fn available_variants() -> Vec<String> {
    let v: serde_json::Value =
        serde_json::from_str(&houserules_ok(["list", "--json"])).expect("list JSON");
    v["variants"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x.get("layouts").is_some())
        .map(|x| x["id"].as_str().unwrap().to_string())
        .collect()
}

/// Every reference line of every built variant, each depth up to 20 million nodes.
#[test]
fn reference_file_up_to_20m_nodes() {
    let have = available_variants();
    let mut checked = 0;
    for c in cases() {
        if !have.contains(&c.variant) {
            continue;
        }
        for &(d, n) in c.counts.iter().filter(|(_, n)| *n <= 20_000_000) {
            assert_eq!(
                perft(&c.variant, &c.fen, d, 2),
                n,
                "{} {} depth {d}",
                c.variant,
                c.fen
            );
            checked += 1;
        }
    }
    assert!(checked >= 25, "only {checked} counts checked");
}

/// Every reference count, however deep (minutes in release).
#[test]
#[ignore]
fn reference_file_complete() {
    let have = available_variants();
    for c in cases() {
        if !have.contains(&c.variant) {
            continue;
        }
        for &(d, n) in &c.counts {
            assert_eq!(
                perft(&c.variant, &c.fen, d, 2),
                n,
                "{} {} depth {d}",
                c.variant,
                c.fen
            );
        }
    }
}

macro_rules! perft_test {
    ($name:ident, $fen:expr, $depth:expr, $nodes:expr) => {
        #[test]
        fn $name() {
            assert_eq!(perft("chess", $fen, $depth, 1), $nodes);
        }
    };
    ($name:ident, $fen:expr, $depth:expr, $nodes:expr, ignore) => {
        #[test]
        #[ignore]
        fn $name() {
            assert_eq!(perft("chess", $fen, $depth, 2), $nodes);
        }
    };
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const POS3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const POS4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const POS5: &str = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const POS6: &str = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

perft_test!(chess_startpos_5, START, 5, 4_865_609);
perft_test!(chess_startpos_6, START, 6, 119_060_324, ignore);
perft_test!(chess_kiwipete_4, KIWIPETE, 4, 4_085_603);
perft_test!(chess_kiwipete_5, KIWIPETE, 5, 193_690_690, ignore);
perft_test!(chess_position3_6, POS3, 6, 11_030_083);
perft_test!(chess_position4_5, POS4, 5, 15_833_292);
perft_test!(chess_position5_4, POS5, 4, 2_103_487);
perft_test!(chess_position5_5, POS5, 5, 89_941_194, ignore);
perft_test!(chess_position6_4, POS6, 4, 3_894_594);
perft_test!(chess_position6_5, POS6, 5, 164_075_551, ignore);

#[test]
fn divide_lists_every_root_move() {
    let out = houserules_ok([
        "perft",
        "--variant",
        "chess",
        "--depth",
        "2",
        "--divide",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let d = v["divide"].as_object().unwrap();
    assert_eq!(d.len(), 20);
    assert_eq!(d["e2e4"], 20);
    assert_eq!(d["g1f3"], 20);
    assert_eq!(v["nodes"], 400);
    assert_eq!(v["fen"], START);
    let text = houserules_ok(["perft", "--depth", "1", "--divide"]);
    assert!(text.contains("e2e4: 1\n"), "{text}");
    assert!(text.trim_end().ends_with("Nodes searched: 20"));
}
