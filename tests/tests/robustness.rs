//! Bad input never crashes anything: mutated FENs and records, fed to the real plugins and the
//! real binary, give errors — never a panic (a panic caught at the plugin boundary is a bug
//! too, so it fails these tests) and never a lost record.

use houserules_host::{HostError, Pipeline};
use houserules_tests::Rng;
use houserules_tests::{houserules, registry, workspace_root};

const ALPHABET: &[u8] = b"pnbrqkPNBRQKcCsShHtTyYfF*+[]/-0123456789 wbKQkqabcdefghx{}:=@;,";

/// `text` with a few random edits (replace, delete, insert, duplicate a slice).
fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut b: Vec<u8> = text.bytes().collect();
    for _ in 0..1 + rng.below(4) {
        let i = rng.below(b.len() + 1);
        match rng.below(4) {
            0 if i < b.len() => b[i] = ALPHABET[rng.below(ALPHABET.len())],
            1 if i < b.len() => {
                b.remove(i);
            }
            2 => b.insert(i, ALPHABET[rng.below(ALPHABET.len())]),
            _ if i < b.len() => {
                let j = (i + rng.below(12)).min(b.len());
                let slice: Vec<u8> = b[i..j].to_vec();
                b.splice(i..i, slice);
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

#[test]
fn mutated_fens_are_errors_not_panics() {
    let reg = registry();
    let cases = [
        (
            "chess",
            vec![],
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ),
        (
            "chess",
            vec!["piece-hp"],
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 {Hp:e1=1,d8=2}",
        ),
        (
            "chess",
            vec!["double-move"],
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1 {@host.phase=1}",
        ),
        (
            "rookmania",
            vec![],
            "**bkh**/*ctrst*/ppppppp/*5*/**3**/*5*/PPPPPPP/*CTRST*/**BKH** w 22 0 1",
        ),
        (
            "mixedchess_v5",
            vec![],
            "ynfckfny/1r4b1/pppppppp/8/8/PPPPPPPP/1B4R1/YNFKCFNY[Pp] w - - 0 1",
        ),
        (
            "tictacrook_v1",
            vec![],
            "8/8/8/8/8/8/8/8[PPPPPPPPpppppppp] w - - 0 1",
        ),
    ];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut accepted = 0;
    for (variant, presets, fen) in cases {
        let specs: Vec<_> = presets.iter().map(|s| s.parse().unwrap()).collect();
        let p = Pipeline::build(&reg, variant, None, &specs).expect(variant);
        p.parse_fen(fen)
            .unwrap_or_else(|e| panic!("{variant} {fen}: {e}"));
        for _ in 0..1500 {
            let bad = mutate(&mut rng, fen);
            match p.parse_fen(&bad) {
                Ok(pos) => {
                    accepted += 1;
                    // A position the variant accepts must also be playable and writable.
                    let mut moves = houserules_plugin_api::abi_stable::std_types::RVec::new();
                    if let Err(e) = p.legal_moves(&pos, &mut moves) {
                        panic!("{variant}: `{bad}` accepted but: {e}");
                    }
                    p.write_fen(&pos)
                        .unwrap_or_else(|e| panic!("{variant}: `{bad}` accepted but: {e}"));
                }
                Err(HostError::Fen { .. }) => {}
                Err(e) => panic!("{variant}: `{bad}`: not a FEN error: {e}"),
            }
        }
    }
    assert!(accepted > 0, "some mutations are still valid FENs");
}

#[test]
fn mutated_records_are_reported_not_crashes() {
    let root = workspace_root().join("tests/data/records");
    let text = std::fs::read_to_string(root.join("annotated.pgn")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(12345);
    let mut files = Vec::new();
    for k in 0..40 {
        let mut body = String::new();
        for _ in 0..3 {
            body.push_str(&mutate(&mut rng, &text));
            body.push_str("\n\n");
        }
        let f = dir.path().join(format!("m{k}.pgn"));
        std::fs::write(&f, body).unwrap();
        files.push(f);
    }
    let mut args: Vec<std::ffi::OsString> =
        vec!["analyze".into(), "--jsonl".into(), "--no-plies".into()];
    args.extend(files.iter().map(|f| f.clone().into_os_string()));
    let out = houserules(&args);
    let code = out.status.code();
    assert!(
        matches!(code, Some(0) | Some(1)),
        "analyze crashed ({:?}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Every game of every file is reported: nothing is lost.
    let lines = String::from_utf8_lossy(&out.stdout).lines().count();
    assert!(lines >= 40, "only {lines} games reported");
}
