//! piece-hp — Hit Points.
//!
//! Every piece has hit points (`Hp` attribute, seeded by `setup_position`: kings 1, others 2;
//! in a FEN without the attribute the same defaults apply). A capture damages by 1 instead of
//! removing: the attacker always lands on the target square; a survivor is pushed to the
//! first empty square around its square in the clockwise order N, NE, E, SE, S, SW, W, NW
//! (from White's side), keeping its attributes, and is removed if there is none. At 0 HP it
//! is removed. Kings (royals) at 1 HP are protected by the self-check filter; a side whose
//! kings all have 2 HP or more may leave them attacked ("capturing" such a king only damages
//! it). Later stages see only lethal captures in `MoveEffects::captured`.

use crate::common::{default_hp, drop_castling, first_empty_around, hp, Bound};
use crate::Meta;
use houserules_plugin_api::{
    attr, geometry, stage, Color, Event, EventKind, HookSet, Move, MoveEffects, Position,
    PresetRules, Role, Square, SquareSet, EXTRA_SEARCH_QUIET_PRUNING,
};

/// Empty squares around `sq` (the squares a survivor may be pushed to).
fn empty_around(pos: &Position, sq: Square) -> usize {
    geometry::CLOCKWISE
        .iter()
        .filter(|&&(df, dr)| {
            pos.offset(sq, df, dr)
                .is_some_and(|to| pos.get(to).is_empty())
        })
        .count()
}

/// The fewest knight moves (on an empty board) any of `knights` needs to attack `target`:
/// 0 where one attacks it now; `None` without a knight within four moves.
fn knight_moves_to_attack(
    pos: &Position,
    target: Square,
    knights: impl Iterator<Item = Square>,
) -> Option<usize> {
    // Knight distance from the target, by rings: ring d holds the squares a knight attacks
    // the target from after d moves.
    let mut reached = SquareSet::default();
    reached.insert(target);
    let mut ring = reached;
    let mut rings: Vec<SquareSet> = Vec::with_capacity(5);
    for _ in 0..5 {
        let mut next = SquareSet::default();
        for sq in ring.iter() {
            for &(df, dr) in geometry::KNIGHT.iter() {
                if let Some(to) = pos.offset(sq, df, dr) {
                    if !reached.contains(to) {
                        reached.insert(to);
                        next.insert(to);
                    }
                }
            }
        }
        rings.push(next);
        ring = next;
    }
    knights
        .filter_map(|q| rings.iter().position(|r| r.contains(q)))
        .min()
}

/// What piece-hp asks of the engine (an `extra` entry of its info, [`Meta::search`]): keep every quiet move
/// near the leaves of the search. A king with hit points to spare is hit without being in
/// check, so a threat to it does not show as check, where the search's pruning of quiet moves
/// would cut the reply that meets it (with the pruning, center-bonus, which requires
/// piece-hp, lost a game to the random mover).
const SEARCH_EXTRA: (&str, &str) = (EXTRA_SEARCH_QUIET_PRUNING, "no");

pub(crate) const META: Meta = Meta {
    id: "piece-hp",
    name: "Hit Points",
    category: "Persistent State",
    mode: "override",
    description: "Pieces have hit points (kings 1, others 2). A capture deals 1 damage; a \
                  survivor is pushed to the first empty adjacent square clockwise from N, or \
                  removed if there is none.",
    requires: &[],
    incompatible: &["explosive-rook"],
    hooks: HookSet(
        HookSet::SETUP_POSITION.0
            | HookSet::ON_AFTER_MOVE.0
            | HookSet::PROTECTED_ROYALS.0
            | HookSet::EVALUATE.0,
    ),
    stages: &[stage::RESOLVE],
    priority: -100,
    movement: "",
    search: &[SEARCH_EXTRA],
};

/// Centipawns per hit point of a king above 1.
const KING_HP_VALUE: i32 = 350;
/// Hit points of a king counted at most: the host's evaluation counts a piece's hit points up
/// to 3 too. Where rules only take hit points away a king has at most 3 (king-heals); where
/// they give them back as pieces move (nomad), a pushed survivor is healed as it moves, so
/// more hit points are not more hits survived, and counting them made the engine walk its
/// king to "gain" them.
const KING_HP_COUNTED: i32 = 3;
/// Centipawns against a king of 2 HP or more by the number of empty squares around it: it is
/// removed when "captured" with none (RULINGS: no push square), so every neighbour filled
/// (by any piece, or the board's edge) brings that closer. Index: empty squares, 0..=8.
const KING_CROWDED: [i32; 9] = [400, 220, 120, 60, 25, 10, 0, 0, 0];
/// Centipawns against a king of 1 HP (which can still be checkmated) per step an enemy piece
/// that is neither pawn nor king stands nearer it than 7 (king's distance).
const MORTAL_KING_NEAR: i32 = 6;
/// Centipawns against a king of 2 HP or more with no empty square around it by the knight
/// moves the enemy's nearest knight needs to attack it (index: moves, 0 = it attacks now): a
/// leaper's capture removes such a king (a slider or a neighbour leaves a square to push it
/// to), and where captures heal back (nomad) it is the only way to win. Halved per empty
/// square around the king.
const KNIGHT_HUNT: [i32; 4] = [160, 80, 35, 10];
/// The preset.
#[derive(Default)]
pub struct PieceHp {
    pub(crate) k: Bound,
}

impl PresetRules for PieceHp {
    fn setup_position(&self, pos: &mut Position) {
        let k = self.k.get();
        let squares: Vec<_> = pos.squares().filter(|&s| pos.get(s).is_piece()).collect();
        for s in squares {
            if pos.attribute(s, attr::HP).is_none() {
                let v = default_hp(k, pos.get(s));
                pos.set_attribute(s, attr::HP, v);
            }
        }
    }

    /// The engine values a king's extra hit points (the host's evaluation gives royals no
    /// material, so it cannot see them): each one is a check or a "capture" survived, worth
    /// more than a minor piece. A king of 2 HP or more may be left attacked and is removed
    /// only when captured with no empty square around it: the fewer empty squares around it,
    /// the nearer it is to that (the only way to win against it when captures heal back), and
    /// the nearer an enemy knight (a leaper's capture leaves no square to push it to). A king
    /// of 1 HP can be checkmated: enemy pieces near it count against it.
    fn evaluate(&self, pos: &Position) -> i32 {
        let k = self.k.get();
        let mut score = 0;
        for s in pos.squares() {
            let c = pos.get(s);
            let Some(color) = c.color() else { continue };
            if !k.is_any(c, Role::KING) {
                continue;
            }
            let hp = hp(pos, k, s);
            let mut own = (hp.min(KING_HP_COUNTED) - 1).max(0) * KING_HP_VALUE;
            if hp >= 2 {
                let empty = empty_around(pos, s);
                own -= KING_CROWDED[empty];
                if empty < 3 {
                    let knights = pos
                        .pieces_of(color.opposite())
                        .map(|(q, _)| q)
                        .filter(|&q| k.is_any(pos.get(q), Role::KNIGHT));
                    if let Some(moves) = knight_moves_to_attack(pos, s, knights) {
                        own -= KNIGHT_HUNT.get(moves).copied().unwrap_or(0) >> empty;
                    }
                }
            } else {
                // A king of 1 HP can still be checkmated: enemy pieces near it count.
                let near: i32 = pos
                    .pieces_of(color.opposite())
                    .map(|(q, _)| q)
                    .filter(|&q| {
                        let e = pos.get(q);
                        !k.is_any(e, Role::KING) && !k.is_any(e, Role::PAWN)
                    })
                    .map(|q| (7 - geometry::king_distance(q, s)).max(0))
                    .sum();
                own -= near * MORTAL_KING_NEAR;
            }
            score += if color == Color::White { own } else { -own };
        }
        score
    }

    fn protected_royals(&self, pos: &Position, _color: Color, royals: &mut SquareSet) {
        // RULINGS: royals at 1 HP are protected; with 2 HP or more they may be left attacked.
        let k = self.k.get();
        let strong: Vec<_> = royals.iter().filter(|&s| hp(pos, k, s) >= 2).collect();
        for s in strong {
            royals.remove(s);
        }
    }

    fn on_after_move(
        &self,
        pos: &mut Position,
        before: &Position,
        mv: Move,
        st: u8,
        fx: &mut MoveEffects,
    ) {
        if st != stage::RESOLVE || fx.captured_len == 0 {
            return;
        }
        let k = self.k.get();
        let victims = fx.captured;
        let n = fx.captured_len as usize;
        let mut kept = 0usize;
        let mut survivors = 0usize;
        for c in victims.iter().take(n) {
            let left = before
                .attribute(c.square, attr::HP)
                .unwrap_or_else(|| default_hp(k, c.cell))
                - 1;
            if fx.record_events {
                let mut e = Event::new(EventKind::DAMAGE, c.square, c.cell);
                e.value = 1;
                fx.event(e);
            }
            if left > 0 {
                if let Some(to) = first_empty_around(pos, c.square) {
                    pos.set(to, c.cell);
                    survivors += 1;
                    for a in before.attributes().iter().filter(|a| a.square == c.square) {
                        pos.set_attribute(to, a.name, a.value);
                    }
                    pos.set_attribute(to, attr::HP, left);
                    // A pushed king has moved: its side loses castling.
                    drop_castling(pos, k, c.square, c.cell);
                    if fx.record_events {
                        let mut e = Event::new(EventKind::PUSH, c.square, c.cell);
                        e.to = to;
                        e.value = left;
                        fx.event(e);
                    }
                    continue;
                }
                fx.event(Event::new(EventKind::REMOVE, c.square, c.cell));
            }
            fx.captured[kept] = *c;
            kept += 1;
        }
        fx.captured_len = kept as u8;
        // Captures-to-hand variants (drops): the variant put the victim in the mover's hand;
        // a survivor never left the board, so the hand goes back to what it was. (A capturing
        // move is not a drop, so any change of the mover's hand came from its captures.)
        if survivors > 0 && kept == 0 && !mv.is_drop() {
            let m = fx.mover.index();
            if pos.hands[m] != before.hands[m] {
                pos.hands[m] = before.hands[m];
                pos.invalidate_accel();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::testkit::*;
    use houserules_plugin_api::Color;

    const ID: &str = "piece-hp";

    #[test]
    fn piece_hp_keeps_quiet_moves_in_the_engine_search() {
        assert!(pipe(&[]).search_quiet_pruning());
        assert!(!pipe(&[ID]).search_quiet_pruning());
    }

    #[test]
    fn evaluation_values_king_hit_points() {
        let p = pipe(&[ID]);
        assert!(p.has_evaluation_terms());
        // Kings at their default 1 HP: nothing to add; pawns' HP are the host's business.
        let even = p.game_start("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        assert_eq!(p.evaluation_terms(&even).unwrap(), 0);
        // White's king survives two more hits; four of the squares around it are empty.
        let strong = p
            .game_start("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1 {Hp:e1=3}")
            .unwrap();
        assert_eq!(
            p.evaluation_terms(&strong).unwrap(),
            2 * super::KING_HP_VALUE - super::KING_CROWDED[4]
        );
        let black = p
            .game_start("4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1 {Hp:e8=2}")
            .unwrap();
        assert_eq!(
            p.evaluation_terms(&black).unwrap(),
            -(super::KING_HP_VALUE - super::KING_CROWDED[4])
        );
        // Hit points above 3 count as 3.
        let many = p
            .game_start("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1 {Hp:e1=9}")
            .unwrap();
        assert_eq!(
            p.evaluation_terms(&many).unwrap(),
            p.evaluation_terms(&strong).unwrap()
        );
    }

    #[test]
    fn evaluation_counts_the_empty_squares_around_a_strong_king() {
        let p = pipe(&[ID]);
        // Black's 2-HP king in the corner with g8, g7 and h7 filled: "capturing" it removes
        // it, and the term says so; with h7 empty it has one push square.
        let boxed = p
            .game_start("6nk/6pp/8/8/8/8/8/4K3 w - - 0 1 {Hp:h8=2}")
            .unwrap();
        assert_eq!(
            p.evaluation_terms(&boxed).unwrap(),
            -(super::KING_HP_VALUE - super::KING_CROWDED[0])
        );
        let one = p
            .game_start("6nk/6p1/8/8/8/8/8/4K3 w - - 0 1 {Hp:h8=2}")
            .unwrap();
        assert_eq!(
            p.evaluation_terms(&one).unwrap(),
            -(super::KING_HP_VALUE - super::KING_CROWDED[1])
        );
        // A 1-HP king is protected (checkmate, not crowding, decides): no term.
        let weak = p.game_start("6nk/6pp/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(p.evaluation_terms(&weak).unwrap(), 0);
    }

    /// The presets' evaluation terms of `board` with White to move and `attributes`.
    fn terms(board: &str, attributes: &str) -> i32 {
        let p = pipe(&[ID]);
        let pos = p
            .game_start(&format!("{board} w - - 0 1 {attributes}"))
            .unwrap();
        p.evaluation_terms(&pos).unwrap()
    }

    #[test]
    fn evaluation_brings_knights_to_a_boxed_strong_king() {
        let terms = |board: &str| terms(board, "{Hp:h8=2}");
        // Black's 2-HP king boxed on h8 (g8, g7, h7 filled): a knight on f7 removes it next
        // move, one on d6 is a move from f7, one on a1 is too far to count.
        let far = terms("6nk/6pp/8/8/8/8/8/N3K3");
        let attacking = terms("6nk/5Npp/8/8/8/8/8/4K3");
        let one_away = terms("6nk/6pp/3N4/8/8/8/8/4K3");
        assert!(
            attacking > one_away && one_away > far,
            "{attacking} {one_away} {far}"
        );
        assert_eq!(attacking - far, super::KNIGHT_HUNT[0]);
        assert_eq!(one_away - far, super::KNIGHT_HUNT[1]);
        // With h7 empty the king has a push square: half as much.
        let open_far = terms("6nk/6p1/8/8/8/8/8/N3K3");
        let open_attacking = terms("6nk/5Np1/8/8/8/8/8/4K3");
        assert_eq!(open_attacking - open_far, super::KNIGHT_HUNT[0] / 2);
    }

    #[test]
    fn evaluation_brings_pieces_to_a_king_that_can_be_mated() {
        let terms = |board: &str| terms(board, "");
        // Black's king at 1 HP on e8: White's queen on d6, two squares away (5 steps nearer
        // than 7), against one in the far corner; pawns and kings do not count.
        let near = terms("4k3/8/3Q4/8/8/8/8/K7");
        let far = terms("4k3/8/8/8/8/8/8/K6Q");
        assert!(near > far, "{near} against {far}");
        assert_eq!(near - far, 5 * super::MORTAL_KING_NEAR);
        let pawn_near = terms("4k3/8/4P3/8/8/8/8/K7");
        let pawn_far = terms("4k3/8/8/8/8/8/P7/K7");
        assert_eq!(pawn_near, pawn_far);
    }

    #[test]
    fn a_boxed_strong_king_falls_to_a_leaper_not_to_a_slider() {
        // The boxed 2-HP king: Nf7xh8 finds no empty square to push it to and removes it.
        let p = pipe(&[ID]);
        let f = "6nk/5Npp/8/8/8/8/8/4K3 w - - 0 1 {Hp:h8=2}";
        assert!(
            result_after(&p, f, &["f7h8"]).is_some(),
            "the king is removed"
        );
        // A rook on h1 would reach h8 only through h7: with h7 empty the rook "captures" from
        // afar and the king is pushed to h7 (its only empty square), healthy at 1 HP.
        let (after, _) = play(&p, "6nk/6p1/8/8/8/8/8/4K2R w - - 0 1 {Hp:h8=2}", &["h1h8"]);
        assert_eq!(at(&p, &after, "h7"), 'k');
        assert_eq!(hp_of(&after, "h7"), Some(1));
    }

    #[test]
    fn piece_hp_scenario_1() {
        // Rook takes a 2-HP pawn: the pawn drops to 1 HP and is pushed north (d5); the rook
        // stands on d4.
        let p = pipe(&[ID]);
        let (after, ev) = play(&p, "4k3/8/8/8/3p4/8/8/3RK3 w - - 0 1", &["d1d4"]);
        assert_eq!(at(&p, &after, "d4"), 'R');
        assert_eq!(at(&p, &after, "d5"), 'p');
        assert_eq!(hp_of(&after, "d5"), Some(1));
        assert_eq!(kinds(&ev), ["capture", "damage", "push"]);
        assert_eq!(
            fen(&p, &after),
            "4k3/8/8/3p4/3R4/8/8/4K3 b - - 0 1 {Hp:d5=1}"
        );
    }

    #[test]
    fn piece_hp_scenario_2() {
        // A 1-HP pawn is removed (0 HP): plain chess appearance.
        let p = pipe(&[ID]);
        let (after, ev) = play(&p, "4k3/8/8/8/3p4/8/8/3RK3 w - - 0 1 {Hp:d4=1}", &["d1d4"]);
        assert_eq!(at(&p, &after, "d4"), 'R');
        assert_eq!(at(&p, &after, "d5"), '.');
        assert_eq!(kinds(&ev), ["capture", "damage"]);
        assert!(after.attributes().is_empty());
    }

    #[test]
    fn piece_hp_scenario_3() {
        // The catalogue's queen cannot find every square around the target occupied (a slider
        // always leaves its approach square empty); a knight can: Nf3xd4 with all eight squares
        // around d4 occupied → the 2-HP knight has no push square and is removed.
        let p = pipe(&[ID]);
        let f = "7k/8/8/2ppp3/2pnp3/2PPPN2/8/7K w - - 0 1";
        let (after, ev) = play(&p, f, &["f3d4"]);
        assert_eq!(at(&p, &after, "d4"), 'N');
        assert_eq!(kinds(&ev), ["capture", "damage", "remove"]);
        // The queen version: Qd1xd4 pushes the knight onto d3, the square the queen passed.
        let f = "7k/8/8/2ppp3/2pnp3/2P1P3/8/3Q3K w - - 0 1";
        let (after, _) = play(&p, f, &["d1d4"]);
        assert_eq!(at(&p, &after, "d3"), 'n');
        assert_eq!(hp_of(&after, "d3"), Some(1));
    }

    #[test]
    fn piece_hp_edge_1() {
        // En passant damages the pawn on its own square (d5) and pushes it from there: N d6
        // holds the capturer now, so NE e6.
        let p = pipe(&[ID]);
        let (after, ev) = play(&p, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", &["e5d6"]);
        assert_eq!(at(&p, &after, "d6"), 'P');
        assert_eq!(at(&p, &after, "d5"), '.');
        assert_eq!(at(&p, &after, "e6"), 'p');
        assert_eq!(hp_of(&after, "e6"), Some(1));
        assert_eq!(ev[0].square, sq("d5"));
        assert_eq!(kinds(&ev), ["capture", "damage", "push"]);
    }

    #[test]
    fn piece_hp_edge_2() {
        // A promoting capture damages as usual and promotes whether or not the target
        // survives: exd8=Q, the rook (2 HP) is pushed to e8 (N and NE are off the board).
        let p = pipe(&[ID]);
        let (after, _) = play(&p, "3r3k/4P3/8/8/8/8/8/K7 w - - 0 1", &["e7d8q"]);
        // With the white king on e1 the pushed rook would open the e-file onto it: illegal.
        assert!(!has(&p, "3r3k/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q"));
        assert_eq!(at(&p, &after, "d8"), 'Q');
        assert_eq!(at(&p, &after, "e8"), 'r');
        assert_eq!(hp_of(&after, "e8"), Some(1));
    }

    #[test]
    fn piece_hp_edge_3() {
        // Incompatible with explosive-rook.
        let e = try_pipe(&[ID, "explosive-rook"]).err().unwrap().to_string();
        assert!(e.contains("explosive-rook"), "{e}");
    }

    #[test]
    fn piece_hp_edge_4() {
        // The Hp attribute is the single source of truth: seeded at the start (kings 1,
        // others 2), written in the FEN extension, read back, and defaulted when absent.
        let p = pipe(&[ID]);
        let start = p.start_position().unwrap();
        assert_eq!(hp_of(&start, "e1"), Some(1));
        assert_eq!(hp_of(&start, "d8"), Some(2));
        assert_eq!(start.attributes().len(), 32);
        let f = fen(&p, &start);
        assert!(
            f.contains("{Hp:a1=2,") && f.contains("e1=1") && f.contains("e8=1"),
            "{f}"
        );
        assert_eq!(p.parse_fen(&f).unwrap(), start);
    }

    #[test]
    fn piece_hp_ruling_royals() {
        // A 1-HP king is protected by the self-check filter …
        let p = pipe(&[ID]);
        let l = legal(&p, "4k3/8/8/8/8/8/r7/4K3 w - - 0 1");
        assert!(!l.contains(&"e1e2".to_string()), "{l:?}");
        // … a 2-HP king may be left attacked, and "capturing" it only damages it.
        let f = "4k3/8/8/8/8/8/r7/4K3 w - - 0 1 {Hp:e1=2}";
        assert!(has(&p, f, "e1e2"));
        let (after, ev) = play(&p, f, &["e1e2", "a2e2"]);
        assert_eq!(at(&p, &after, "e2"), 'r');
        assert_eq!(at(&p, &after, "e3"), 'K');
        assert_eq!(hp_of(&after, "e3"), Some(1));
        assert_eq!(kinds(&ev), ["capture", "damage", "push"]);
        assert!(
            result_after(&p, f, &["e1e2", "a2e2"]).is_none(),
            "the game goes on"
        );
        // Now at 1 HP the king is protected again: it must leave the rook's reach.
        let l = legal_at(&p, &after);
        assert!(
            !l.contains(&"e3e4".to_string()) && l.contains(&"e3d4".to_string()),
            "{l:?}"
        );
        assert!(p.royal_attacked(&after, Color::White).unwrap());
    }
}
