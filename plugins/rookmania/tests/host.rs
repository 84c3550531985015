//! Rook Mania through the real host: the BUILT plugin library loaded by the `houserules`
//! binary (built once per test process by `houserules_tests`).

use houserules_tests::houserules_ok;

const START: &str = "**bkh**/*ctrst*/ppppppp/*5*/**3**/*5*/PPPPPPP/*CTRST*/**BKH** w 22 0 1";

/// The values of `"key":"..."` in compact JSON output, in order.
fn values(json: &str, key: &str) -> Vec<String> {
    let pat = format!("\"{key}\":\"");
    json.split(&pat)
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap_or(rest.len())].to_string())
        .collect()
}

fn moves_json(fen: &str, played: &str) -> String {
    houserules_ok([
        "moves",
        "--variant",
        "rookmania",
        "--fen",
        fen,
        "--moves",
        played,
        "--json",
    ])
}

fn fen_after(fen: &str, played: &str) -> String {
    houserules_ok([
        "fen",
        "--variant",
        "rookmania",
        "--fen",
        fen,
        "--moves",
        played,
    ])
    .trim()
    .to_string()
}

#[test]
fn perft_through_the_host() {
    let out = houserules_ok(["perft", "--variant", "rookmania", "--depth", "3"]);
    assert!(out.trim_end().ends_with("Nodes searched: 1624"), "{out}");
    let out = houserules_ok([
        "perft",
        "--variant",
        "rookmania",
        "--depth",
        "4",
        "--threads",
        "2",
    ]);
    assert!(out.trim_end().ends_with("Nodes searched: 24724"), "{out}");
}

#[test]
fn start_position_through_the_host() {
    let out = houserules_ok(["fen", "--variant", "rookmania"]);
    assert_eq!(out.trim(), START);
    let out = moves_json(START, "");
    let mut sans = values(&out, "san");
    assert_eq!(sans.len(), 11, "{out}");
    sans.sort();
    assert_eq!(
        sans,
        ["b4", "c4", "c5", "c6", "d4", "d5", "d6", "e4", "e5", "e6", "f4"]
    );
    assert!(out.contains("\"check\":false"), "{out}");
    assert!(out.contains("\"result\":null"), "{out}");
}

#[test]
fn pistol_shot_notation_through_the_host() {
    // The Rook d7 checks the King d1: the shot is `K*d7` / `d1*d7`.
    let fen = "**1k1**/*5*/p2r3/*5*/**3**/*5*/7/*5*/**1K1** w 22 0 1";
    let out = moves_json(fen, "");
    assert!(out.contains("\"check\":true"), "{out}");
    let sans = values(&out, "san");
    let coords = values(&out, "move");
    let i = sans.iter().position(|s| s == "K*d7").expect("shot listed");
    assert_eq!(coords[i], "d1*d7");
    let after = "**1k1**/*5*/p6/*5*/**3**/*5*/7/*5*/**1K1** b 12 0 1";
    assert_eq!(fen_after(fen, "K*d7"), after);
    assert_eq!(fen_after(fen, "d1*d7"), after);
    // The King's ordinary steps stay ordinary SAN.
    assert_eq!(
        fen_after(fen, "Kc1"),
        "**1k1**/*5*/p2r3/*5*/**3**/*5*/7/*5*/**K2** b 22 1 1"
    );
}

#[test]
fn shot_and_king_capture_are_both_readable() {
    // The Threestep d2 checks d1 by a detour: `Kxd2` steps, `K*d2` shoots.
    let fen = "**k2**/*5*/7/*5*/**3**/*5*/7/*2h2*/**1K1** w 22 0 1";
    let out = moves_json(fen, "");
    let sans = values(&out, "san");
    assert!(sans.iter().any(|s| s == "K*d2"), "{out}");
    assert!(sans.iter().any(|s| s == "Kxd2"), "{out}");
    assert_eq!(
        fen_after(fen, "K*d2"),
        "**k2**/*5*/7/*5*/**3**/*5*/7/*5*/**1K1** b 12 0 1"
    );
    assert_eq!(
        fen_after(fen, "Kxd2"),
        "**k2**/*5*/7/*5*/**3**/*5*/7/*2K2*/**3** b 22 0 1"
    );
}

#[test]
fn pawn_san_through_the_host() {
    // Pawns c3 and e5 can both go to c5.
    let fen = "**2k**/*5*/3P3/*2r2*/**2P**/*5*/2P4/*5*/**2K** w 22 0 1";
    let out = moves_json(fen, "");
    let sans = values(&out, "san");
    for s in ["cc5", "ec5", "c4", "exd5"] {
        assert!(sans.iter().any(|x| x == s), "{s}: {sans:?}");
    }
    let mut sorted = sans.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), sans.len(), "SANs are unique: {sans:?}");
    // e5-d5 takes the Rook d6 against the pawn d7.
    assert_eq!(
        fen_after(fen, "exd5"),
        "**2k**/*5*/3P3/*5*/**1P1**/*5*/2P4/*5*/**2K** b 22 0 1"
    );
}

#[test]
fn checkmate_through_the_host() {
    // Black King c9, White Rooks c5 (check) and d5, no shots left for Black.
    let fen = "**k2**/*5*/7/*5*/**RR1**/*5*/7/*5*/**2K** b 20 0 1";
    let out = moves_json(fen, "");
    assert!(out.contains("\"termination\":\"checkmate\""), "{out}");
    assert!(out.contains("\"result\":\"1-0\""), "{out}");
    // With a shot left it is not mate.
    let out = moves_json(&fen.replace(" b 20 ", " b 21 "), "");
    assert_eq!(values(&out, "san"), ["K*c5"]);
}
