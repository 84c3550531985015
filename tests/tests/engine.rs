//! The search engine through the BUILT plugins: mates found, won positions scored as wins in
//! every kind of objective, multi-move turns signed right, the stop flag answered.

use houserules_host::engine::{Engine, EngineConfig, Limits, Score, SearchResult};
use houserules_host::notation::coordinate;
use houserules_host::{Game, Pipeline, PresetSpec, Registry};
use houserules_tests::registry;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

fn reg() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(registry)
}

fn pipeline(variant: &str, presets: &[&str]) -> Pipeline {
    let specs: Vec<PresetSpec> = presets.iter().map(|s| s.parse().unwrap()).collect();
    Pipeline::build(reg(), variant, None, &specs)
        .unwrap_or_else(|e| panic!("{variant} {presets:?}: {e}"))
}

fn search(p: &Pipeline, fen: &str, limits: &str, threads: usize) -> (SearchResult, String) {
    search_after(p, fen, "", limits, threads)
}

/// Plays `moves` (coordinate form) from `fen`, then searches the position reached with
/// `limits` on `threads`: the result and its move (coordinate form, empty for none).
fn search_after(
    p: &Pipeline,
    fen: &str,
    moves: &str,
    limits: &str,
    threads: usize,
) -> (SearchResult, String) {
    let start = p.game_start(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut game = Game::new(p, start);
    for text in moves.split_whitespace() {
        houserules_tests::play_text(&mut game, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    let before = game.position.clone();
    let mut engine = Engine::new(
        p,
        EngineConfig {
            threads,
            hash_mb: 4,
        },
    )
    .unwrap();
    let limits: Limits = limits.parse().unwrap();
    let stop = AtomicBool::new(false);
    let r = engine
        .search(&game, &limits, &stop, &mut |_| {})
        .unwrap_or_else(|e| panic!("{fen}: {e}"));
    let best = r
        .best
        .map(|m| coordinate(p, &before, m).unwrap())
        .unwrap_or_default();
    (r, best)
}

#[test]
fn chess_mate_in_one() {
    let p = pipeline("chess", &[]);
    // Back-rank mate: Re8#.
    let (r, best) = search(&p, "6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1", "depth=3", 1);
    assert_eq!(best, "e1e8");
    assert_eq!(r.score, Score::Mate(1));
}

#[test]
fn chess_mate_in_two() {
    let p = pipeline("chess", &[]);
    // Two rooks: Ra7 then Rb8# (or the mirror); any mate in two will do.
    let (r, _) = search(&p, "k7/8/8/8/8/8/8/1RR3K1 w - - 0 1", "depth=5", 1);
    assert_eq!(r.score, Score::Mate(2), "{r:?}");
    let (r, _) = search(&p, "k7/8/8/8/8/8/8/1RR3K1 w - - 0 1", "depth=5", 2);
    assert_eq!(r.score, Score::Mate(2), "{r:?}");
}

#[test]
fn a_set_stop_flag_returns_a_legal_move() {
    let p = pipeline("chess", &[]);
    let start = p.start_position().unwrap();
    let game = Game::new(&p, start);
    let mut engine = Engine::new(&p, EngineConfig::default()).unwrap();
    let stop = AtomicBool::new(true);
    let r = engine
        .search(&game, &Limits::default(), &stop, &mut |_| {})
        .unwrap();
    let legal = game.legal_moves().unwrap();
    assert!(legal.contains(&r.best.expect("a move")));
}

/// The side to move wins at once by the objective of the rules: the search scores a mate in
/// one (a win within its first move) and, where given, plays the winning move.
fn wins_now(variant: &str, presets: &[&str], fen: &str, best: Option<&str>) {
    let p = pipeline(variant, presets);
    let (r, played) = search(&p, fen, "depth=3", 1);
    assert_eq!(
        r.score,
        Score::Mate(1),
        "{variant} {presets:?} {fen}: {r:?}"
    );
    if let Some(b) = best {
        assert_eq!(played, b, "{variant} {presets:?} {fen}");
    }
    // Two threads agree on the score.
    let (r2, _) = search(&p, fen, "depth=3", 2);
    assert_eq!(
        r2.score,
        Score::Mate(1),
        "{variant} {presets:?} {fen}, 2 threads"
    );
}

#[test]
fn objective_connect_five() {
    // tictacrook_v1: four in a row on the fourth rank and a piece in hand: drop the fifth.
    wins_now(
        "tictacrook_v1",
        &[],
        "8/8/8/8/PPPP4/8/8/ppp5[PPPPppppp] w - - 0 1",
        Some("P@e4"),
    );
}

#[test]
fn objective_extinction() {
    wins_now(
        "chess",
        &["extinction-chess"],
        "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
        Some("e4d5"),
    );
}

#[test]
fn objective_first_blood() {
    wins_now(
        "chess",
        &["capture-to-win"],
        "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
        Some("e4d5"),
    );
}

#[test]
fn objective_first_promotion() {
    // Both sides are a step from promoting; White is first.
    let p = pipeline("chess", &["first-promotion-wins"]);
    let (r, played) = search(&p, "4k3/P7/8/8/8/8/7p/4K3 w - - 0 1", "depth=3", 1);
    assert_eq!(r.score, Score::Mate(1), "{r:?}");
    assert!(played.starts_with("a7a8"), "{played}");
}

#[test]
fn objective_royal_lost() {
    // Detonating rook: Rxd4 blows up the king beside it.
    wins_now(
        "chess",
        &["explosive-rook"],
        "K7/8/8/3k4/3n4/8/8/3R4 w - - 0 1",
        Some("d1d4"),
    );
}

#[test]
fn a_win_at_once_is_played_within_any_node_budget() {
    // From an engine-against-random game of piece-hp with nomad: Black's king on h7 has no
    // empty square beside it, so the knight's capture removes it (RULINGS: a survivor with
    // no push square is removed). At 1000 nodes a move the engine played Kxg8 here: the first
    // iteration spent its nodes in the quiescence of other captures before it reached Nxh7,
    // a capture of a king being ordered last (royal pieces count no material).
    let p = pipeline("chess", &["piece-hp", "nomad"]);
    let fen = concat!(
        "5QnK/p4pQk/Pp1ppPnP/5pN1/4Ppp1/2N1P1P1/1BP3R1/1R3B1b w - - 0 80 ",
        "{Hp:b1=3,f1=3,h1=16,b2=3,c2=2,g2=4,c3=3,e3=3,g3=3,e4=4,f4=3,g4=5,f5=2,g5=2,a6=5,b6=3,d6=4,e6=4,f6=5,g6=16,h6=5,a7=3,f7=3,g7=13,h7=13,f8=6,g8=12,h8=40;",
        "nomad:b1=1,f1=1,h1=1,b2=1,c2=1,g2=1,c3=1,e3=1,g3=1,e4=1,f4=1,g4=1,f5=1,g5=1,a6=1,b6=1,d6=1,e6=1,f6=1,g6=1,h6=1,a7=1,f7=1,g7=1,h7=1,f8=1,g8=1,h8=1;@nomad.seeded=1}",
    );
    for nodes in ["nodes=1", "nodes=1000"] {
        let (r, best) = search(&p, fen, nodes, 1);
        assert_eq!(best, "g5h7", "{nodes}: {r:?}");
        assert_eq!(r.score, Score::Mate(1), "{nodes}");
    }
}

#[test]
fn objective_last_piece_standing_by_stalemate() {
    // Annihilation: a side without a legal move loses. Any king move leaves Black's blocked
    // pawn without one.
    let p = pipeline("chess", &["last-piece-standing"]);
    let (r, _) = search(&p, "8/8/8/8/8/p7/P7/7K w - - 0 1", "depth=3", 1);
    assert_eq!(r.score, Score::Mate(1), "{r:?}");
}

#[test]
fn stalemate_is_a_draw_in_chess() {
    // King and queen against king: a win, never the stalemate Qb6?? (the only queen move
    // that leaves Black without a move): the score stays a win.
    let p = pipeline("chess", &[]);
    let (r, best) = search(&p, "k7/8/8/2Q5/8/8/8/7K w - - 0 1", "depth=4", 1);
    assert_ne!(best, "c5b6", "{r:?}");
    assert!(
        matches!(r.score, Score::Mate(n) if n > 0) || matches!(r.score, Score::Cp(cp) if cp > 500),
        "{r:?}"
    );
    // Black to move with the stalemate on the board has no move at all.
    let (r, best) = search(&p, "k7/8/1Q6/8/8/8/8/7K b - - 0 1", "depth=2", 1);
    assert_eq!((r.best, r.score), (None, Score::Cp(0)), "{best}");
}

#[test]
fn repetition_saves_the_worse_side() {
    // Black is a queen down; the knights have gone out and back twice, and Nf6-g8 now
    // repeats the start position a third time: a draw the engine takes.
    let p = pipeline("chess", &[]);
    let (r, best) = search_after(
        &p,
        "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1",
        "depth=4",
        1,
    );
    assert_eq!(r.score, Score::Cp(0), "{r:?}");
    assert_eq!(best, "f6g8");
}

#[test]
fn double_move_turns_keep_the_sign() {
    // Double move: Rh1-e1-e8 is mate within White's one turn.
    let p = pipeline("chess", &["double-move"]);
    let (r, _) = search(&p, "6k1/5ppp/8/8/8/8/8/K6R w - - 0 1", "depth=4", 1);
    assert_eq!(r.score, Score::Mate(1), "{r:?}");
    // A side a queen up scores above zero at every depth, whoever is to move and
    // whichever half-move of the turn it is.
    for (fen, sign) in [
        ("4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1", 1),
        ("4k3/pppp4/8/8/8/8/PPPP4/3QK3 b - - 0 1", -1),
    ] {
        for depth in 1..=4 {
            let (r, _) = search(&p, fen, &format!("depth={depth}"), 1);
            let Score::Cp(cp) = r.score else {
                continue;
            };
            assert_eq!(cp.signum(), sign, "{fen} depth {depth}: {r:?}");
        }
    }
}

#[test]
fn rook_mania_asks_the_engine_to_prune_from_four_plies_left() {
    // Its gains are quiet moves: at the default (3) a depth-4 search saw quiet lines hardly
    // deeper than depth 2 (docs/benchmarks.md). Chess keeps the default.
    assert_eq!(pipeline("rookmania", &[]).search_pruning_depth(), Some(4));
    assert_eq!(pipeline("chess", &[]).search_pruning_depth(), None);
    assert_eq!(
        pipeline("chess", &["berserker"]).search_pruning_depth(),
        None
    );
}

/// Duck chess's moves are a move and a duck square, and the fairy plugin says so
/// (`search-move-detail`): quiescence settles each capture once, not once per duck square.
/// Before, a depth-2 search of this middlegame took 30,642,236 nodes (73 s); now about
/// 56,000.
#[test]
fn duck_chess_settles_a_capture_once_not_once_per_duck_square() {
    let p = pipeline("duck", &[]);
    assert!(p.search_move_detail_in_special());
    assert!(!pipeline("chess", &[]).search_move_detail_in_special());
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let moves = "b1c3,c3a6 e7e6,e6e7 c3b5,b5d6 b8c6,c6e7 g1f3,f3d6 a7a6,a6e7 b5d4,d4d6";
    let (r, best) = search_after(&p, start, moves, "depth=2", 1);
    assert!(!best.is_empty());
    assert!(r.nodes < 500_000, "{} nodes", r.nodes);
}

/// The level's choice in `fen`, by a fresh engine with the generator at `seed`.
fn at_level(p: &Pipeline, fen: &str, limits: &str, level: u8, seed: u64) -> (SearchResult, String) {
    let start = p.game_start(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let game = Game::new(p, start.clone());
    let mut engine = Engine::new(p, EngineConfig::default()).unwrap();
    let limits: Limits = limits.parse().unwrap();
    let mut rng = houserules_host::play::Rng::new(seed);
    let r = engine
        .choose_at_level(&game, &limits, level, &mut rng, &AtomicBool::new(false))
        .unwrap_or_else(|e| panic!("{fen}: {e}"));
    let best = coordinate(p, &start, r.best.expect("a move")).unwrap();
    (r, best)
}

#[test]
fn every_level_mates_in_one_and_low_levels_vary() {
    let p = pipeline("chess", &[]);
    for level in [0, 7, 19] {
        for seed in 0..5 {
            let (r, best) = at_level(
                &p,
                "6k1/5ppp/8/8/8/8/8/4R1K1 w - - 0 1",
                "depth=6",
                level,
                seed,
            );
            assert_eq!(best, "e1e8", "level {level}, seed {seed}");
            assert_eq!(r.score, Score::Mate(1));
        }
    }
    // In the start position level 0 plays more than one move over a few seeds.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let played: std::collections::BTreeSet<String> = (0..12)
        .map(|seed| at_level(&p, start, "depth=6", 0, seed).1)
        .collect();
    assert!(played.len() > 1, "{played:?}");
}

#[test]
fn levels_score_multi_move_turns_from_the_mover() {
    // Double move: the first half of Rh1-e1-e8# leaves White to move; the level scores it
    // from White's side and plays it (a mate is never given up for a push).
    let p = pipeline("chess", &["double-move"]);
    for seed in 0..4 {
        let (r, best) = at_level(&p, "6k1/5ppp/8/8/8/8/8/K6R w - - 0 1", "depth=6", 10, seed);
        assert!(matches!(r.score, Score::Mate(n) if n > 0), "{r:?}");
        assert!(best.starts_with("h1"), "{best}");
    }
}

/// Moves as the match arbiter sends them to engines (Fairy-Stockfish's forms): a piece that
/// promotes into its own promoted form is `from to +` (shogi), a pawn's promotion to a piece
/// of its choice keeps its letter, also where the promoted piece is marked (crazyhouse's
/// `Q~`); a piece turning back into its unpromoted form is `from to -` (Kyoto shogi).
/// Fairy-Stockfish ignored `h7g8+` in crazyhouse and `a1a2l` in Kyoto shogi, over UCI and
/// XBoard alike.
#[test]
fn arbiter_writes_promotions_as_fairy_stockfish_reads_them() {
    use houserules_host::arbiter::engine_text;
    let texts = |variant: &str, fen: &str| -> Vec<String> {
        let p = pipeline(variant, &[]);
        let start = p.game_start(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let game = Game::new(&p, start);
        let legal = game.legal_moves().unwrap();
        legal
            .iter()
            .map(|&m| engine_text(&p, &game.position, m).unwrap())
            .collect()
    };
    let zh = texts(
        "crazyhouse",
        "r1b2knQ/ppp1bppP/2np1n1q/1B2p3/2R1P3/8/PPPP1PPP/RNB1K2R[] w KQ - 1 11",
    );
    for m in ["h7g8q", "h7g8r", "h7g8b", "h7g8n"] {
        assert!(zh.iter().any(|t| t == m), "{m}: {zh:?}");
    }
    assert!(!zh.iter().any(|t| t.ends_with('+')), "{zh:?}");
    let shogi = texts("shogi", "4k4/9/9/4P4/9/9/9/9/4K4[-] w - - 0 1");
    assert!(shogi.iter().any(|t| t == "e6e7+"), "{shogi:?}");
    assert!(shogi.iter().any(|t| t == "e6e7"), "{shogi:?}");
    // Kyoto shogi's pieces turn over at every move, as Fairy-Stockfish's perft 1 lists them.
    let mut kyoto = texts("kyotoshogi", houserules_tests::KYOTO_START);
    kyoto.sort();
    assert_eq!(kyoto, houserules_tests::KYOTO_START_MOVES);
}

/// Walls (`Role::WALL`, the fairy plugin's, stored as White pieces) are no side's material:
/// amazons' start and the same board with arrows shot all over it weigh the same (counted,
/// every wall was a pawn for White).
#[test]
fn walls_are_no_material() {
    with_material("amazons", |material| {
        assert_eq!(
            material("3q2q3/**********/10/q8q/****4**/10/Q8Q/10/**********/3Q2Q3 w - - 0 1"),
            material("3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 w - - 0 1"),
        );
    });
}

/// Runs `check` with the engine's material sum for White of a FEN of `variant`.
fn with_material(variant: &str, check: impl FnOnce(&dyn Fn(&str) -> i32)) {
    let p = pipeline(variant, &[]);
    let engine = Engine::new(
        &p,
        EngineConfig {
            threads: 1,
            hash_mb: 4,
        },
    )
    .unwrap();
    check(&|fen: &str| engine.evaluation().material(&p.game_start(fen).unwrap()));
}

/// Every square of the board counts (the material sum reads the cells eight at a time and
/// skips empty groups): on grand chess's 10x10 board, which uses cells past the first 128, a
/// white rook on any square adds to White's material what a black rook on the same square
/// takes away, and both kings alone weigh nothing.
#[test]
fn material_counts_a_piece_on_every_square() {
    with_material("grand", |material| {
        let kings = "k9/10/10/10/10/10/10/10/10/9K w - - 0 1";
        assert_eq!(material(kings), 0);
        for rank in 0..10 {
            for file in 0..10 {
                if (file, rank) == (0, 9) || (file, rank) == (9, 0) {
                    continue;
                }
                let with = |rook: char| {
                    let mut rows: Vec<String> = (0..10)
                        .map(|r| {
                            let row: Vec<char> = (0..10)
                                .map(|f| match (f, 9 - r) {
                                    (0, 9) => 'k',
                                    (9, 0) => 'K',
                                    x if x == (file, rank) => rook,
                                    _ => '.',
                                })
                                .collect();
                            row.into_iter().collect()
                        })
                        .collect();
                    for row in &mut rows {
                        *row = compress(row);
                    }
                    // The other side to move: the rook may give check.
                    let side = if rook == 'R' { 'b' } else { 'w' };
                    format!("{} {side} - - 0 1", rows.join("/"))
                };
                let (white, black) = (material(&with('R')), material(&with('r')));
                assert!(white > 0, "{file},{rank}: {white}");
                assert_eq!(white, -black, "{file},{rank}");
            }
        }
    });
}

/// A FEN rank with empty squares written `.` turned into digits.
fn compress(row: &str) -> String {
    let mut out = String::new();
    let mut empty = 0;
    for c in row.chars() {
        if c == '.' {
            empty += 1;
            continue;
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
            empty = 0;
        }
        out.push(c);
    }
    if empty > 0 {
        out.push_str(&empty.to_string());
    }
    out
}

#[test]
fn a_perpetual_chase_is_a_loss_the_engine_does_not_repeat_into() {
    // Xiangqi: White's rook has chased Black's unprotected cannon up and down (a7, a6, a7);
    // a7a6 would repeat the start a third time. White is a cannon down and would take a
    // draw, but that repetition is White's perpetual chase, a loss. The search marks its
    // moves only when a repetition asks for them (xiangqi's chase rule cost most of a
    // node's time): a7a6 is such a move.
    let p = pipeline("xiangqi", &[]);
    let cycle = "e6e7 a6a7 e7e6 a7a6 e6e7 a6a7 e7e6";
    let fen = "5k3/5r3/9/9/R3c4/9/9/9/9/3K5 b - - 0 1";
    let (r, best) = search_after(&p, fen, cycle, "depth=3", 1);
    let score = r.score;
    assert_ne!(best, "a7a6", "{score:?}");
    assert!(
        matches!(score, Score::Cp(c) if c < -200),
        "{score:?} {best}"
    );
}
