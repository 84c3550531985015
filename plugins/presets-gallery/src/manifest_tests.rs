//! The catalogue metadata of the pack, as the host sees it.

use crate::testkit::*;
use crate::ALL;
use houserules_plugin_api::{OptionKind, Plugin};

#[test]
fn gallery_manifest_lists_the_14_presets_in_catalogue_order() {
    let m = crate::PresetsGallery::manifest();
    let ids: Vec<&str> = m.presets.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "knightmate-rules",
            "coregal",
            "dual-king",
            "weak-dual-king",
            "double-move",
            "monster-rules",
            "first-promotion-wins",
            "suicide-chess",
            "capture-all",
            "extinction-chess",
            "berolina-pawns",
            "berolina-pawns-2",
            "bouncing-pieces",
            "bouncing-pieces-2"
        ]
    );
    assert_eq!(ALL.len(), 14);
    for p in m.presets.iter() {
        assert!(!p.name.is_empty() && !p.category.is_empty() && !p.mode.is_empty());
        // Scope-aware presets carry the scope option, and only they do.
        let has_scope = p.options.iter().any(|o| o.key.as_str() == "scope");
        assert_eq!(has_scope, p.scope_aware, "{}", p.id);
        // Every preset can be built alone on chess.
        try_pipe(&[p.id.as_str()]).unwrap_or_else(|e| panic!("{}: {e}", p.id));
    }
}

#[test]
fn gallery_manifest_scope_target_and_layouts() {
    let m = crate::PresetsGallery::manifest();
    let get = |id: &str| m.presets.iter().find(|p| p.id.as_str() == id).unwrap();
    let scoped: Vec<&str> = m
        .presets
        .iter()
        .filter(|p| p.scope_aware)
        .map(|p| p.id.as_str())
        .collect();
    assert_eq!(
        scoped,
        ["monster-rules", "berolina-pawns", "berolina-pawns-2"]
    );
    assert_eq!(get("monster-rules").options[0].default.as_str(), "white");
    assert_eq!(get("berolina-pawns").options[0].default.as_str(), "both");
    let t = &get("extinction-chess").options[0];
    assert_eq!(
        (t.key.as_str(), t.kind, t.default.as_str()),
        ("target", OptionKind::ROLE, "pawn")
    );
    for (id, layout) in [
        ("dual-king", "dual-classic"),
        ("weak-dual-king", "dual-classic"),
        ("knightmate-rules", "knightmate"),
        ("monster-rules", "monster"),
        ("first-promotion-wins", "pawns-only"),
    ] {
        assert_eq!(
            get(id)
                .preferred_layout
                .as_ref()
                .map(|s| s.as_str())
                .into_option(),
            Some(layout)
        );
        assert_eq!(pipe(&[id]).layout.id.as_str(), layout);
    }
    // An explicit layout wins over the preferred one.
    assert_eq!(
        pipe_layout("classic", &["dual-king"]).layout.id.as_str(),
        "classic"
    );
}

#[test]
fn gallery_incompatibilities_are_refused() {
    for (a, b) in [
        ("bouncing-pieces", "bouncing-pieces-2"),
        ("berolina-pawns", "berolina-pawns-2"),
        ("double-move", "monster-rules"),
        ("suicide-chess", "capture-all"),
        ("knightmate-rules", "coregal"),
        ("coregal", "weak-dual-king"),
    ] {
        let e = try_pipe(&[a, b])
            .err()
            .unwrap_or_else(|| panic!("{a} + {b}"));
        assert_eq!(
            e.to_string(),
            format!("presets `{a}` and `{b}` are incompatible")
        );
    }
    // wrap-board lives in presets-v1: the manifests name it.
    let m = crate::PresetsGallery::manifest();
    for id in ["bouncing-pieces", "bouncing-pieces-2"] {
        let p = m.presets.iter().find(|p| p.id.as_str() == id).unwrap();
        assert!(p
            .incompatible_with
            .iter()
            .any(|x| x.as_str() == "wrap-board"));
    }
}

#[test]
fn gallery_presets_compose_where_compatible() {
    // Berolina pawns with double moves and suicide rules: perft runs and agrees with itself.
    let p = pipe(&["berolina-pawns", "double-move"]);
    assert!(perft_fen(&p, START, 2) > 30);
    let q = pipe(&["suicide-chess", "bouncing-pieces-2", "first-promotion-wins"]);
    assert_eq!(perft_fen(&q, START, 1), 20);
}
