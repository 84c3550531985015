//! Presets together: the order of effects, and the incompatible pairs.

use crate::testkit::*;
use houserules_plugin_api::{EventKind, Winner};

#[test]
fn hp_heal_poison_order() {
    // piece-hp + king-heals + poisoned-squares: at White's turn end poison (priority 10)
    // runs before healing (20). A king (2 HP) ending on e4 out of check: -1 then +1 = 2.
    let p = pipe(&["piece-hp", "king-heals", "poisoned-squares"]);
    let (after, ev) = play(&p, "k7/8/8/8/8/4K3/8/8 w - - 0 1 {Hp:e3=2}", &["e3e4"]);
    assert_eq!(hp_of(&after, "e4"), Some(2));
    let order: Vec<_> = ev.iter().map(|e| e.kind).collect();
    assert_eq!(order, [EventKind::POISON, EventKind::HEAL]);
}

#[test]
fn hp_heal_poison_in_check() {
    // A 3-HP king entering e4 in check (rook on e8): poison, no healing → 2 HP.
    let p = pipe(&["piece-hp", "king-heals", "poisoned-squares"]);
    let (after, ev) = play(&p, "k3r3/8/8/8/8/3K4/8/8 w - - 0 1 {Hp:d3=3}", &["d3e4"]);
    assert_eq!(hp_of(&after, "e4"), Some(2));
    assert_eq!(
        ev.iter().map(|e| e.kind).collect::<Vec<_>>(),
        [EventKind::POISON]
    );
    // With 2 HP the king may stand on e3 in check, but not on e4: the poison leaves it at
    // 1 HP, protected and attacked — the self-check filter sees the whole turn.
    let l = legal(&p, "k3r3/8/8/8/8/3K4/8/8 w - - 0 1 {Hp:d3=2}");
    assert!(
        l.contains(&"d3e3".to_string()) && !l.contains(&"d3e4".to_string()),
        "{l:?}"
    );
    // A 1-HP king entering a poisoned
    // square at 1 HP out of check kills it before it could heal: legal, and it loses.
    let f = "k7/8/8/8/8/3K4/8/8 w - - 0 1";
    let r = result_after(&p, f, &["d3e4"]).unwrap();
    assert_eq!(r.winner, Winner::BLACK);
    assert_eq!(r.reason.as_str(), "royal-lost");
}

#[test]
fn hp_order_in_the_catalogue_listing_does_not_matter() {
    // The host orders by stage and priority, not by the order the presets were named.
    let a = pipe(&["poisoned-squares", "king-heals", "piece-hp"]);
    let (after, _) = play(&a, "k7/8/8/8/8/4K3/8/8 w - - 0 1 {Hp:e3=2}", &["e3e4"]);
    assert_eq!(hp_of(&after, "e4"), Some(2));
}

#[test]
fn knights_leap_twice_with_wrap_board() {
    // A knight on a1: single leaps wrap (a1→g2? no: a1 + (-2,+1) = g2 across the seam),
    // and double leaps compose with the variant's and the wrapped single leaps? The presets
    // are independent: double leaps follow the unwrapped geometry, single leaps wrap.
    let p = pipe(&["knights-leap-twice", "wrap-board"]);
    let l = legal(&p, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1");
    assert!(
        l.contains(&"a1g2".to_string()),
        "wrapped single leap: {l:?}"
    );
    assert!(
        l.contains(&"a1h3".to_string()),
        "wrapped single leap: {l:?}"
    );
    assert!(
        l.contains(&"a1c4".to_string()) || l.contains(&"a1a5".to_string()),
        "{l:?}"
    );
    // Perft stays consistent (no duplicate moves).
    let mut v = l.clone();
    v.sort();
    v.dedup();
    assert_eq!(v.len(), l.len());
    assert!(perft_nodes(&p, "4k3/8/8/8/8/8/8/N3K3 w - - 0 1", 2) > 0);
}

#[test]
fn capture_to_win_with_en_passant() {
    let p = pipe(&["capture-to-win"]);
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let r = result_after(&p, start, &["e4", "a6", "e5", "d5", "exd6"]).unwrap();
    assert_eq!(r.winner, Winner::WHITE);
    assert_eq!(r.reason.as_str(), "first-capture");
}

#[test]
fn piece_hp_with_queen_splits() {
    // piece-hp (−100) pushes the survivor first, queen-splits (−50) then places the bishop.
    let p = pipe(&["queen-splits", "piece-hp"]);
    let (after, ev) = play(&p, "4k3/8/8/8/3p4/8/8/3QK3 w - - 0 1", &["d1d4"]);
    assert_eq!(at(&p, &after, "d5"), 'p', "pushed north first");
    assert_eq!(at(&p, &after, "d4"), 'R');
    assert_eq!(
        at(&p, &after, "e5"),
        'B',
        "bishop on the next free square (NE)"
    );
    assert_eq!(
        hp_of(&after, "e5"),
        None,
        "the queen had no Hp attribute in the FEN"
    );
    assert_eq!(
        ev.iter().map(|e| e.kind).collect::<Vec<_>>(),
        [
            EventKind::CAPTURE,
            EventKind::DAMAGE,
            EventKind::PUSH,
            EventKind::FISSION
        ]
    );
}

#[test]
fn incompatible_pairs_are_refused() {
    for (a, b) in [
        ("explosive-rook", "piece-hp"),
        ("rook-warp", "wrap-board"),
        ("double-pawn-sprint", "pawns-move-backward"),
        ("capture-to-win", "last-piece-standing"),
    ] {
        for pair in [[a, b], [b, a]] {
            let e = try_pipe(&pair)
                .err()
                .unwrap_or_else(|| panic!("{pair:?} accepted"));
            let m = e.to_string();
            assert!(m.contains(a) && m.contains(b), "{m}");
        }
    }
    for lone in ["king-heals", "poisoned-squares"] {
        let m = try_pipe(&[lone]).err().unwrap().to_string();
        assert!(m.contains("piece-hp"), "{m}");
    }
}

#[test]
fn every_preset_is_listed_with_its_metadata() {
    let reg = registry();
    let ids: Vec<String> = reg.presets().map(|(_, p)| p.id.to_string()).collect();
    assert_eq!(ids.len(), 15, "{ids:?}");
    for m in crate::ALL {
        let (_, info) = reg.presets().find(|(_, p)| p.id.as_str() == m.id).unwrap();
        assert!(!info.name.is_empty() && !info.category.is_empty() && !info.mode.is_empty());
        assert!(!info.hooks.names().is_empty(), "{}", m.id);
        // Every preset alone builds on chess.
        if m.requires.is_empty() {
            try_pipe(&[m.id]).unwrap();
        }
    }
}

#[test]
fn movement_presets_keep_start_perft_sane() {
    // Depth-2 counts from the start position (checked by hand: 20 first moves each).
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(perft_nodes(&pipe(&[]), start, 2), 400);
    assert_eq!(perft_nodes(&pipe(&["knight-immunity"]), start, 2), 400);
    assert_eq!(perft_nodes(&pipe(&["rook-warp"]), start, 1), 22);
    // After each of White's 22 moves Black has 22 (20 + two warp captures: after Rxa8 the
    // h8 rook warps onto h1 and, from the east edge, onto a8).
    assert_eq!(perft_nodes(&pipe(&["rook-warp"]), start, 2), 22 * 22);
}

/// Positions for comparing the additive path with the generic one: the start, Kiwipete,
/// en passant and promotion positions, castling through attacks, rooks on edges.
const ADDITIVE_FENS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r3k2r/8/8/8/3N4/8/8/R3K2R b KQkq - 0 1",
];

/// Movement presets transform the rules model: the pipeline keeps the variant's legal
/// generator (the shared generator's pins and check masks on the changed model), and counts
/// exactly what the generic path (pseudo-legal moves, every candidate made and tested through
/// the pipeline) counts.
#[test]
fn model_transforms_count_what_the_generic_path_counts() {
    let sets: [&[&str]; 11] = [
        &["bishops-ignore-color"],
        &["pawns-move-backward"],
        &["pawns-move-backward", "wrap-board"],
        &["double-pawn-sprint"],
        &["rook-warp"],
        &["wrap-board"],
        &["knights-leap-twice"],
        &["pawn-diagonal-no-capture"],
        &["wrap-board", "knights-leap-twice"],
        &["bishops-ignore-color", "rook-warp", "double-pawn-sprint"],
        &["pawn-diagonal-no-capture", "capture-to-win"],
    ];
    for set in sets {
        let fast = pipe(set);
        let plain_expected = !set.contains(&"capture-to-win");
        assert_eq!(fast.is_plain(), plain_expected, "{set:?}: fast path");
        let mut reference = pipe(set);
        reference.force_generic_path();
        for fen in ADDITIVE_FENS {
            // A position can be illegal under a preset (the rook on b4 warps onto h4).
            let Ok(start) = fast.parse_fen(fen) else {
                assert!(reference.parse_fen(fen).is_err());
                continue;
            };
            // The generic reference is slow where many moves are added: depth 3 from the
            // start only, so that the debug-build test stays short.
            let heavy = set
                .iter()
                .any(|id| matches!(*id, "knights-leap-twice" | "wrap-board"));
            let depth = if heavy && fen != ADDITIVE_FENS[0] {
                2
            } else {
                3
            };
            assert_eq!(
                perft_at(&fast, &start, depth),
                perft_at(&reference, &start, depth),
                "{set:?} from {fen}"
            );
        }
    }
}

#[test]
fn presets_that_remove_or_resolve_keep_the_generic_path() {
    for set in [
        &["knight-immunity"][..],
        &["wrap-board", "piece-hp"],
        &["rook-warp", "explosive-rook"],
    ] {
        assert!(!pipe(set).is_additive(), "{set:?}");
    }
}
