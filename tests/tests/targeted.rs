//! Issue 14: targeted generation. `Pipeline::legal_moves_matching` (a destination and
//! piece-kind filter, passed to the variant as a `GenRequest` hint) must give exactly the
//! moves of `legal_moves` that pass the filter, in the same order — whether the variant
//! honours the hint (chess's bitboard engine), ignores it (rookmania, the fairy engine: the
//! host filters) or the pipeline is not plain (presets: the full list is filtered). Checked
//! over the positions of random games, for every square and several kind masks.

use houserules_host::{Pipeline, PresetSpec};
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{GenRequest, Move, MoveEffects, Position, Square};
use houserules_tests::{registry, Rng};

fn pipeline(variant: &str, presets: &[&str]) -> Pipeline {
    let specs: Vec<PresetSpec> = presets.iter().map(|s| s.parse().unwrap()).collect();
    Pipeline::build(&registry(), variant, None, &specs)
        .unwrap_or_else(|e| panic!("{variant} {presets:?}: {e}"))
}

/// Kind masks to test: none, each kind alone, pairs, all kinds.
fn masks(kinds: usize, rng: &mut Rng) -> Vec<u32> {
    let n = kinds.min(32);
    let mut v = vec![0u32];
    v.extend((0..n).map(|k| 1u32 << k));
    for _ in 0..4 {
        v.push((1u32 << rng.below(n)) | (1u32 << rng.below(n)));
    }
    v.push(if n == 32 { u32::MAX } else { (1u32 << n) - 1 });
    v
}

/// Compares the targeted lists with the filtered full list along `games` random games.
fn differential(p: &Pipeline, games: usize, plies: usize, seed: u64) -> usize {
    let mut rng = Rng(seed);
    let (files, ranks) = (p.info.files, p.info.ranks);
    let mut checked = 0;
    for _ in 0..games {
        let mut pos: Position = p.start_position().unwrap();
        for _ in 0..plies {
            let mut full = RVec::new();
            p.legal_moves(&pos, &mut full).unwrap();
            if full.is_empty() {
                break;
            }
            let kinds = masks(p.info.pieces.len(), &mut rng);
            let mut targeted = RVec::new();
            for f in 0..files {
                for r in 0..ranks {
                    let to = Square::new(f, r);
                    for &mask in &kinds {
                        let req = GenRequest::new(pos.side_to_move, true, Default::default())
                            .to_square(to)
                            .of_kinds(mask);
                        let want: Vec<Move> = full
                            .iter()
                            .copied()
                            .filter(|m| req.wants(&pos, m))
                            .collect();
                        p.legal_moves_matching(&pos, Some(to), mask, &mut targeted)
                            .unwrap();
                        assert_eq!(
                            targeted.as_slice(),
                            want.as_slice(),
                            "{} to {to} kinds {mask:#x}",
                            p.write_fen(&pos).unwrap()
                        );
                        checked += 1;
                    }
                }
            }
            // Kinds alone (no destination).
            for &mask in &kinds {
                let req =
                    GenRequest::new(pos.side_to_move, true, Default::default()).of_kinds(mask);
                let want: Vec<Move> = full
                    .iter()
                    .copied()
                    .filter(|m| req.wants(&pos, m))
                    .collect();
                p.legal_moves_matching(&pos, None, mask, &mut targeted)
                    .unwrap();
                assert_eq!(targeted.as_slice(), want.as_slice(), "kinds {mask:#x}");
            }
            let m = full[rng.below(full.len())];
            let mut fx = MoveEffects::new(pos.side_to_move, false);
            p.apply(&mut pos, m, &mut fx).unwrap();
        }
    }
    checked
}

#[test]
fn chess_honours_the_hint_exactly() {
    // Plain chess: the engine visits only the asked pieces and targets.
    let p = pipeline("chess", &[]);
    assert!(p.is_plain());
    assert!(differential(&p, 12, 90, 14) > 100_000);
}

#[test]
fn a_variant_that_ignores_the_hint_still_answers_right() {
    // rookmania and the fairy engine list every move whatever the hint: the host filters.
    let p = pipeline("rookmania", &[]);
    assert!(differential(&p, 4, 60, 15) > 10_000);
}

#[test]
fn pipelines_with_presets_filter_the_full_list() {
    // suicide-chess filters the whole list (captures compulsory): a filtered input would
    // change its answer.
    for presets in [
        &["piece-hp"][..],
        &["knights-leap-twice"],
        &["coregal"],
        &["suicide-chess"],
    ] {
        let p = pipeline("chess", presets);
        assert!(differential(&p, 2, 40, 16) > 1_000, "{presets:?}");
    }
}

#[test]
fn the_filter_words_are_zero_without_a_filter() {
    // Older plugins read the words as reserved zeros: no filter must mean zero.
    let req = GenRequest::new(
        houserules_plugin_api::Color::White,
        true,
        Default::default(),
    );
    assert_eq!(req.reserved, [0; 2]);
    assert!(!req.is_filtered());
    let req = req.to_square(Square::new(0, 0));
    assert_eq!(req.destination(), Some(Square::new(0, 0)));
    assert!(req.is_filtered());
}
