//! Engine sweeps over the variants below and every preset of the shipped packs (presets-v1,
//! presets-gallery, presets-thress) and every shipped modifier, through the BUILT plugins.
//!
//! - `engine_plays_every_rule_set` (runs by default): one short node-limited game of the
//!   engine against a random mover per rule set — every variant the registry lists that
//!   builds, Fairy-Stockfish built-ins included: every move the engine returns is legal, no
//!   error, every game ends or reaches the ply limit.
//! - `engine_beats_random` (ignored, long): 20 games per rule set, the engine (1000 nodes a
//!   move) against a random mover, colours alternating;
//!   prints the table and asserts a score of 95% or more wherever the stronger side can win.
//! - `depth_four_beats_depth_two` (ignored, long): 40 games per variant and for the presets of
//!   its list, depth 4 against depth 2, colours alternating, the first four plies random (from
//!   the game's seed) so that the games differ; prints the table.
//!
//! **Which variants the long sweeps play.** Since issue #13 the fairy plugin lists every
//! Fairy-Stockfish built-in (about a hundred); the long sweeps play the variants shipped as
//! houserules' own — chess, rookmania and the two seed fairy variants mixedchess_v5 and
//! tictacrook_v1 — and, against the random mover, a sample of built-ins with other kinds of
//! rules ([`BUILTIN_SAMPLE`]: drops, a king-on-the-hill goal, explosions). The built-ins share
//! the fairy plugin's engine path with the two seed variants, and every one of them is played
//! by `engine_plays_every_rule_set`; sweeping all of them would make the long sweeps take hours.
//! `SWEEP_ONLY` names any variant, built-ins included.
//!
//! Run the long ones in release, where they take minutes:
//! `cargo test --release -p houserules-tests --test engine_sweeps -- --ignored --nocapture`
//! (`SWEEP_GAMES=N` changes the number of games, `SWEEP_NODES=N` the engine's nodes a move
//! against the random mover, `SWEEP_PLIES=N` the ply limit (400 against the random mover, 300
//! between engines; a game that reaches it is a draw), `SWEEP_ONLY=name,name` the rule sets:
//! variant ids and rule-set names such as `chess+proletariat`, or preset ids;
//! `SWEEP_SHOW_DRAWS=1` prints how and at which ply every game ended and the end position of
//! every game that reached the ply limit,
//! `SWEEP_FROM=k` starts at game k: the games of a sweep are the same whoever plays them).

use houserules_host::engine::{skill, Engine, EngineConfig, Limits};
use houserules_host::play::Rng;
use houserules_host::{Game, Pipeline, PresetSpec, Registry};
use houserules_plugin_api::{Color, Winner};
use houserules_tests::registry;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

fn reg() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(registry)
}

/// A rule set: a variant alone, or chess (else the first variant that takes it) with one
/// preset.
struct RuleSet {
    name: String,
    pipeline: Pipeline,
}

/// The variants the long sweeps play (see the module's comment).
const SHIPPED_VARIANTS: [&str; 4] = ["chess", "rookmania", "mixedchess_v5", "tictacrook_v1"];
/// Fairy-Stockfish built-ins the engine also plays against the random mover.
const BUILTIN_SAMPLE: [&str; 3] = ["crazyhouse", "kingofthehill", "atomic"];

const PACKS: [&str; 4] = [
    "presets-v1",
    "presets-gallery",
    "presets-thress",
    "modifiers",
];

/// Which variants [`rule_sets`] builds.
#[derive(Clone, Copy)]
enum Variants<'a> {
    /// Every variant the registry lists.
    All,
    /// These (and any that `SWEEP_ONLY` names).
    Listed(&'a [&'a str]),
}

fn rule_sets(variant_list: Variants) -> Vec<RuleSet> {
    let only: Option<Vec<String>> = std::env::var("SWEEP_ONLY")
        .ok()
        .map(|s| s.split(',').map(str::to_string).collect());
    let named = |name: &str| only.as_ref().is_some_and(|o| o.iter().any(|x| x == name));
    let wanted = |name: &str| only.is_none() || named(name);
    let mut out = Vec::new();
    let variants: Vec<String> = reg().variants().map(|(_, v)| v.id.to_string()).collect();
    for (pl, v) in reg().variants() {
        let v = v.id.to_string();
        let listed = match variant_list {
            Variants::All => true,
            Variants::Listed(l) => l.contains(&v.as_str()),
        };
        if (listed && wanted(&v)) || named(&v) {
            match Pipeline::build(reg(), &v, None, &[]) {
                Ok(pipeline) => out.push(RuleSet {
                    name: v.clone(),
                    pipeline,
                }),
                // Fairy-Stockfish built-ins whose keys the fairy plugin does not implement
                // yet are listed but cannot be built (docs/fairy.md); any other must build.
                Err(e) if pl.id() == "fairy" => println!("skipped {v}: {e}"),
                Err(e) => panic!("variant {v} does not build: {e}"),
            }
        }
    }
    // Each preset with the presets it requires.
    let presets: Vec<(String, Vec<String>)> = reg()
        .presets()
        .filter(|(pl, _)| PACKS.contains(&pl.id()))
        .map(|(_, p)| {
            let mut ids: Vec<String> = p.requires.iter().map(|r| r.to_string()).collect();
            ids.push(p.id.to_string());
            (p.id.to_string(), ids)
        })
        .collect();
    for (id, ids) in presets {
        if !wanted(&id) && !named(&format!("chess+{id}")) {
            continue;
        }
        let specs: Vec<PresetSpec> = ids.iter().map(|i| i.parse().expect("preset id")).collect();
        let built = std::iter::once("chess".to_string())
            .chain(variants.iter().cloned())
            .find_map(|v| Pipeline::build(reg(), &v, None, &specs).ok());
        let pipeline = built.unwrap_or_else(|| panic!("preset {id} builds with no variant"));
        out.push(RuleSet {
            name: format!("{}+{id}", pipeline.variant_id()),
            pipeline,
        });
    }
    out
}

/// Who plays a side.
enum Side<'p> {
    Random(Rng),
    Engine(Box<Engine<'p>>, Limits),
    /// The engine at a skill level below full: its choice draws on the generator.
    Level(Box<Engine<'p>>, Limits, u8, Rng),
}

/// A finished game: the result for White (1, 0.5, 0) and why.
struct Played {
    white_score: f64,
    reason: String,
    plies: usize,
}

/// Plays a game; its first `opening` plies are random moves from `seed` whoever is to move
/// (engines at a fixed depth would otherwise play one game per colour over and over).
fn play_game<'p>(
    p: &'p Pipeline,
    white: &mut Side<'p>,
    black: &mut Side<'p>,
    max_plies: usize,
    opening: usize,
    seed: u64,
) -> Played {
    let start = p.start_position().expect("start position");
    let mut game = Game::new(p, start);
    let stop = AtomicBool::new(false);
    let mut opening_rng = Rng::new(seed);
    for ply in 0..max_plies {
        let status = game.status().expect("status");
        if let Some(o) = status.outcome {
            let white_score = match o.winner {
                Winner::WHITE => 1.0,
                Winner::BLACK => 0.0,
                _ => 0.5,
            };
            if std::env::var_os("SWEEP_SHOW_DRAWS").is_some() {
                let fen = p.write_fen(&game.position).unwrap_or_default();
                println!("{}, seed {seed}: {fen}", o.reason);
            }
            return Played {
                white_score,
                reason: o.reason.to_string(),
                plies: ply,
            };
        }
        let legal = game.legal_moves().expect("legal moves");
        assert!(
            !legal.is_empty(),
            "{}: no legal move and no result",
            p.variant_id()
        );
        let side = if game.position.side_to_move == Color::White {
            &mut *white
        } else {
            &mut *black
        };
        let m = match side {
            _ if ply < opening => legal[opening_rng.below(legal.len())],
            Side::Random(rng) => legal[rng.below(legal.len())],
            Side::Engine(engine, limits) => {
                let r = engine
                    .search(&game, limits, &stop, &mut |_| {})
                    .unwrap_or_else(|e| panic!("{} ply {ply}: {e}", p.variant_id()));
                let m = r.best.expect("a move when one is legal");
                assert!(
                    legal.contains(&m),
                    "{} ply {ply}: the engine returned an illegal move {m:?}",
                    p.variant_id()
                );
                m
            }
            Side::Level(engine, limits, level, rng) => {
                let r = engine
                    .choose_at_level(&game, limits, *level, rng, &stop)
                    .unwrap_or_else(|e| panic!("{} ply {ply}: {e}", p.variant_id()));
                let m = r.best.expect("a move when one is legal");
                assert!(legal.contains(&m), "level {level}: an illegal move {m:?}");
                m
            }
        };
        game.play(m).expect("a legal move plays");
    }
    if std::env::var_os("SWEEP_SHOW_DRAWS").is_some() {
        // Where a game that was not decided stood (to study what the engine missed).
        let fen = p.write_fen(&game.position).unwrap_or_default();
        println!("ply limit, seed {seed}: {fen}");
    }
    Played {
        white_score: 0.5,
        reason: "ply limit".to_string(),
        plies: max_plies,
    }
}

fn engine<'p>(p: &'p Pipeline, limits: &str) -> Side<'p> {
    let e = Engine::new(
        p,
        EngineConfig {
            threads: 1,
            hash_mb: 4,
        },
    )
    .expect("engine");
    Side::Engine(Box::new(e), limits.parse().expect("limits"))
}

fn at_level<'p>(p: &'p Pipeline, limits: &str, level: u8, seed: u64) -> Side<'p> {
    let Side::Engine(e, limits) = engine(p, limits) else {
        unreachable!("engine() makes an engine")
    };
    if level >= skill::FULL {
        Side::Engine(e, limits)
    } else {
        Side::Level(e, limits, level, Rng::new(seed))
    }
}

/// Score of the first player over `games` games, colours alternating.
fn match_score<'p>(
    p: &'p Pipeline,
    games: usize,
    max_plies: usize,
    opening: usize,
    first: &dyn Fn(u64) -> Side<'p>,
    second: &dyn Fn(u64) -> Side<'p>,
) -> (f64, Vec<String>) {
    let mut score = 0.0;
    let mut reasons = Vec::new();
    // `SWEEP_FROM=k` starts at game k (seed 1000 + k): two processes can play the halves of
    // a long sweep side by side.
    let from = env_number("SWEEP_FROM", 0);
    for g in from..from + games {
        let seed = 1000 + g as u64;
        let (mut a, mut b) = (first(seed), second(seed ^ 0x9E37_79B9));
        let (r, first_score) = if g % 2 == 0 {
            let r = play_game(p, &mut a, &mut b, max_plies, opening, seed);
            let s = r.white_score;
            (r, s)
        } else {
            let r = play_game(p, &mut b, &mut a, max_plies, opening, seed);
            let s = 1.0 - r.white_score;
            (r, s)
        };
        score += first_score;
        if std::env::var_os("SWEEP_SHOW_DRAWS").is_some() {
            let side = if g % 2 == 0 { "White" } else { "Black" };
            println!(
                "game {g}: {} at ply {}, first side ({side}) scored {first_score}",
                r.reason, r.plies
            );
        }
        reasons.push(format!("{}@{}", r.reason, r.plies));
    }
    (score / games as f64, reasons)
}

fn env_number(key: &str, default: usize) -> usize {
    std::env::var(key)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn games(default: usize) -> usize {
    env_number("SWEEP_GAMES", default)
}

/// How the games ended: "checkmate 17, ply limit 3".
fn tally(reasons: &[String]) -> String {
    let mut tally: Vec<(String, usize)> = Vec::new();
    for r in reasons {
        let key = r.split('@').next().unwrap_or("").to_string();
        match tally.iter_mut().find(|(k, _)| *k == key) {
            Some(t) => t.1 += 1,
            None => tally.push((key, 1)),
        }
    }
    let text: Vec<String> = tally.iter().map(|(k, c)| format!("{k} {c}")).collect();
    text.join(", ")
}

#[test]
fn engine_plays_every_rule_set() {
    let sets = rule_sets(Variants::All);
    assert!(sets.len() >= 40, "only {} rule sets", sets.len());
    for set in &sets {
        let p = &set.pipeline;
        let r = play_game(
            p,
            &mut engine(p, "nodes=60"),
            &mut Side::Random(Rng::new(7)),
            60,
            0,
            7,
        );
        assert!(r.plies > 0 || r.reason != "ply limit", "{}", set.name);
    }
}

/// Rule sets where the side that plays better cannot force a win against a random mover.
const NO_FORCED_WIN: [&str; 2] = [
    // Kings cannot be captured and are never in check: there is no checkmate, and the
    // presets add no other way to win.
    "chess+god-kings",
    // Misère chess (a Fairy-Stockfish built-in, played when `SWEEP_ONLY` names it): the
    // side that is checkmated wins, so a win needs the random mover to give checkmate, and
    // forcing it means a position where every move it has mates (a selfmate).
    "misere",
];

#[test]
#[ignore]
fn engine_beats_random() {
    let n = games(20);
    let mut failures = Vec::new();
    println!("| rule set | games | engine score | results |");
    println!("|---|---|---|---|");
    let variants: Vec<&str> = SHIPPED_VARIANTS
        .iter()
        .chain(&BUILTIN_SAMPLE)
        .copied()
        .collect();
    for set in rule_sets(Variants::Listed(&variants)) {
        let p = &set.pipeline;
        let nodes = format!("nodes={}", env_number("SWEEP_NODES", 1000));
        let plies = env_number("SWEEP_PLIES", 400);
        let (score, reasons) = match_score(p, n, plies, 0, &|_| engine(p, &nodes), &|seed| {
            Side::Random(Rng::new(seed))
        });
        println!(
            "| {} | {n} | {:.1}% | {} |",
            set.name,
            score * 100.0,
            tally(&reasons)
        );
        if score < 0.95 && !NO_FORCED_WIN.contains(&set.name.as_str()) {
            failures.push(format!("{}: {:.1}%", set.name, score * 100.0));
        }
    }
    assert!(failures.is_empty(), "below 95%: {failures:?}");
}

/// The skill levels as a ladder: each rung against the one below (and level 0 against the
/// random mover), 40 games each in chess (`SWEEP_GAMES`), the first four plies random, the
/// engine's limits `SWEEP_LIMITS` (default depth=6: level 20 searches 6 plies, the levels
/// their own depth below that). Prints the table; asserts that each rung scores over 50%.
#[test]
#[ignore]
fn skill_levels_climb() {
    let n = games(40);
    let limits = std::env::var("SWEEP_LIMITS").unwrap_or_else(|_| "depth=6".to_string());
    let p = Pipeline::build(reg(), "chess", None, &[]).expect("chess");
    let rungs: [(Option<u8>, u8); 5] = [
        (None, 0),
        (Some(0), 5),
        (Some(5), 10),
        (Some(10), 15),
        (Some(15), 20),
    ];
    println!("| stronger | weaker | games | stronger's score | results |");
    println!("|---|---|---|---|---|");
    let mut failures = Vec::new();
    for (weaker, stronger) in rungs {
        let (score, reasons) = match_score(
            &p,
            n,
            300,
            4,
            &|seed| at_level(&p, &limits, stronger, seed),
            &|seed| match weaker {
                None => Side::Random(Rng::new(seed)),
                Some(l) => at_level(&p, &limits, l, seed),
            },
        );
        let weaker_name = weaker.map_or("random mover".to_string(), |l| format!("level {l}"));
        println!(
            "| level {stronger} | {weaker_name} | {n} | {:.1}% | {} |",
            score * 100.0,
            tally(&reasons)
        );
        if score <= 0.5 {
            failures.push(format!(
                "level {stronger} against {weaker_name}: {:.1}%",
                score * 100.0
            ));
        }
    }
    assert!(failures.is_empty(), "rungs not climbed: {failures:?}");
}

#[test]
#[ignore]
fn depth_four_beats_depth_two() {
    let n = games(40);
    // piece-hp is not in the list: its pipeline searches about 5,000 nodes a second (the
    // generic path), and 40 games at depth 4 take over an hour; god-kings has no forced win
    // (NO_FORCED_WIN) and is played to show it. rook-warp was tried and left out: it did not
    // finish 40 games in 30 minutes (load 8 on the 2 cores).
    let presets = [
        "double-move",
        "extinction-chess",
        "capture-to-win",
        "first-promotion-wins",
        "last-piece-standing",
        "knightmate-rules",
        "trans-rights",
        "coregal",
        "wrap-board",
        "explosive-rook",
        "suicide-chess",
        "god-kings",
        "berserker",
        // Three of other kinds (a ThressGame rule, a piece ability, a movement change), so
        // that ten presets with a clear margin do not lean on one at the edge.
        "early-promotion",
        "queen-splits",
        "berolina-pawns",
    ];
    // Games over within the random opening or at the first engine move were decided by the
    // random plies, not by the depths (a capture-to-win game can end there).
    let opening = 4;
    println!(
        "| rule set | games | depth 4 score | results | over by ply {} |",
        opening + 1
    );
    println!("|---|---|---|---|---|");
    for set in rule_sets(Variants::Listed(&SHIPPED_VARIANTS)) {
        let is_variant = !set.name.contains('+');
        let is_listed = presets.iter().any(|p| set.name.ends_with(&format!("+{p}")));
        if !is_variant && !is_listed {
            continue;
        }
        let p = &set.pipeline;
        let plies = env_number("SWEEP_PLIES", 300);
        let (score, reasons) =
            match_score(p, n, plies, opening, &|_| engine(p, "depth=4"), &|_| {
                engine(p, "depth=2")
            });
        let early = reasons
            .iter()
            .filter(|r| {
                r.rsplit('@')
                    .next()
                    .and_then(|n| n.parse::<usize>().ok())
                    .is_some_and(|n| n <= opening + 1)
            })
            .count();
        println!(
            "| {} | {n} | {:.1}% | {} | {early} |",
            set.name,
            score * 100.0,
            tally(&reasons)
        );
    }
}
