//! Rules judged on the generator's bitboards (`blastOnCapture`'s safety of pseudo-royal
//! pieces, checks given for `checking = false` and `dropChecks = false`) against the same
//! rules judged by making each move on a copy of the position, at every position of seeded
//! random games.

use crate::tests::{builtin, over_builtins};
use crate::Fairy;
use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::{Move, MoveEffects, Position, VariantRules};

/// The positions of `games` seeded random games of up to `plies` plies from the start.
fn positions(v: &Fairy, seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut state = seed | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let start = v.parse(&v.start_fen).expect("start");
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..plies {
            if v.game_over(&pos).is_some() {
                break;
            }
            let mut moves = RVec::new();
            v.legal(&pos, &mut moves);
            if moves.is_empty() {
                break;
            }
            out.push(pos.clone());
            // Captures first half the time: explosions and checks come sooner.
            let captures: Vec<Move> = moves.iter().copied().filter(|m| m.is_capture()).collect();
            let pool: &[Move] = if !captures.is_empty() && next() % 2 == 0 {
                &captures
            } else {
                &moves
            };
            let m = pool[(next() % pool.len() as u64) as usize];
            let mut fx = MoveEffects::new(pos.side_to_move, false);
            v.apply(&mut pos, m, &mut fx);
        }
    }
    out
}

fn sorted(mut moves: Vec<Move>) -> Vec<String> {
    moves.sort_by_key(|m| format!("{m:?}"));
    moves.iter().map(|m| format!("{m:?}")).collect()
}

fn legal(v: &Fairy, pos: &Position) -> Vec<Move> {
    let mut moves = RVec::new();
    v.legal(pos, &mut moves);
    moves.into_iter().collect()
}

/// The legal moves with explosions judged on the bitboards equal those judged on copies.
fn explosions_agree(v: &Fairy, seed: u64) -> usize {
    assert!(v.blast.is_some(), "{}: judged on the bitboards", v.id);
    let mut on_copies = v.clone();
    on_copies.blast = None;
    let mut exploding = 0;
    for pos in positions(v, seed, 12, 90) {
        let fast = legal(v, &pos);
        assert_eq!(
            sorted(fast.clone()),
            sorted(legal(&on_copies, &pos)),
            "{}: {}",
            v.id,
            v.fen(&pos)
        );
        exploding += fast.iter().filter(|m| m.is_capture()).count();
    }
    exploding
}

#[test]
fn explosions_on_bitboards_agree_with_moves_made_on_copies() {
    let v = builtin().get("atomic").expect("known").expect("builds");
    let mut captures = explosions_agree(&v, 11);
    // Immune pieces (knights, promotions to them; kings, as in atomar), and a board of more
    // than 64 squares.
    let ini = "[immuneatomic:atomic]\nblastImmuneTypes = n\n\
               [kingsatomic:atomic]\nblastImmuneTypes = k\nmutuallyImmuneTypes = k\n\
               [capaatomic:capablanca]\nking = -\ncommoner = k\ncastlingKingPiece = k\n\
               blastOnCapture = true\nextinctionValue = loss\n\
               extinctionPieceTypes = k\nextinctionPseudoRoyal = true\n";
    for (i, id) in ["immuneatomic", "kingsatomic", "capaatomic"]
        .iter()
        .enumerate()
    {
        let v = over_builtins(&[("test.ini", ini)], id).expect("builds");
        captures += explosions_agree(&v, 21 + i as u64);
    }
    // Capturers that turn to stone (Fairy-Stockfish's `nuclear`): stones outlast explosions.
    let v = over_builtins(&[("nuclear.ini", crate::petrify_tests::NUCLEAR)], "nuclear")
        .expect("builds");
    let stones = explosions_agree(&v, 31);
    assert!(stones > 150, "too few captures in nuclear: {stones}");
    assert!(
        captures > 1000,
        "too few captures to test explosions: {captures}"
    );
}

/// Each check given, judged on the bitboards, equals the one found by making the move.
fn checks_agree(v: &Fairy, seed: u64) -> usize {
    let mut checks = 0;
    for pos in positions(v, seed, 12, 90) {
        let mut moves = RVec::new();
        v.gen.legal_moves(&pos, &mut moves);
        let moves: Vec<Move> = moves.into_iter().collect();
        let mut given = Vec::new();
        v.gen.checks_given(&pos, &moves, |_| true, &mut given);
        assert_eq!(given.len(), moves.len());
        for (m, g) in moves.iter().zip(&given) {
            let made = v.gives_check(&pos, *m);
            if let Some(g) = g {
                assert_eq!(*g, made, "{}: {} {m:?}", v.id, v.fen(&pos));
            } else {
                assert!(m.is_castle(), "{}: only castles are made: {m:?}", v.id);
            }
            checks += usize::from(made);
        }
    }
    checks
}

#[test]
fn checks_given_on_bitboards_agree_with_moves_made_on_copies() {
    let reg = builtin();
    let mut checks = 0;
    for (i, id) in [
        "kingofthehill",
        "racingkings",
        "crazyhouse",
        "xiangqi",
        "shogi",
        "capablanca",
    ]
    .iter()
    .enumerate()
    {
        let v = reg.get(id).expect("known").expect("builds");
        checks += checks_agree(&v, 31 + i as u64);
    }
    assert!(checks > 200, "too few checks to test: {checks}");
}
