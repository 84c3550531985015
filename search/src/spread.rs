//! The order of a shallow node's moves where they come in families
//! ([`crate::SearchGame::family`]) and late-move pruning keeps only a few quiet ones.

/// Room for [`FamilySpread::order`], kept from node to node (nothing is allocated once it has
/// grown to the largest node's size).
pub(crate) struct FamilySpread<M> {
    /// Open addressing by family: the round's stamp (an entry counts only with the current
    /// one), the family, and its index in `round`.
    table: Vec<(u32, u64, usize)>,
    stamp: u32,
    /// Per family met in a round: the index of its best move not yet chosen.
    round: Vec<usize>,
    /// Per move: placed already.
    chosen: Vec<bool>,
    /// The moves in their new order, with their scores.
    ordered: Vec<(i32, M)>,
}

impl<M: Copy> FamilySpread<M> {
    pub(crate) fn new() -> FamilySpread<M> {
        FamilySpread {
            table: Vec::new(),
            stamp: 0,
            round: Vec::new(),
            chosen: Vec::new(),
            ordered: Vec::new(),
        }
    }

    /// Reorders `moves` with their `scores` (higher first): the moves scored at `quiet_below`
    /// or more (hash move, captures, killers) first, by score; then the `keep` quiet moves
    /// that late-move pruning will search, taken round by round: the best move of each
    /// family in the order of their scores, then the second best of each, and so on; then
    /// the rest in the order they came. Ties go to the move that came first, as in a stable
    /// sort. So the few quiet moves kept are the best few moves of the board each with its
    /// best detail (amazons: queen moves, each with an arrow), not one move with a few
    /// details. The rest are pruned unless they check, so their order does not matter, and
    /// leaving them unsorted saves a sort of hundreds of moves a node.
    pub(crate) fn order(
        &mut self,
        moves: &mut [M],
        scores: &mut [i32],
        quiet_below: i32,
        keep: usize,
        mut family: impl FnMut(M) -> u64,
    ) {
        self.ordered.clear();
        self.chosen.clear();
        self.chosen.resize(moves.len(), false);
        for (i, &s) in scores.iter().enumerate() {
            if s >= quiet_below {
                self.ordered.push((s, moves[i]));
                self.chosen[i] = true;
            }
        }
        self.ordered.sort_by_key(|r| std::cmp::Reverse(r.0));
        let size = (2 * moves.len()).next_power_of_two().max(16);
        if self.table.len() < size {
            self.table.resize(size, (0, 0, 0));
        }
        let mut wanted = keep;
        while wanted > 0 && self.ordered.len() < moves.len() {
            self.next_stamp();
            let stamp = self.stamp;
            self.round.clear();
            // A family's members usually come one after another: the last one's entry.
            let mut last: Option<(u64, usize)> = None;
            for i in 0..moves.len() {
                if self.chosen[i] {
                    continue;
                }
                let f = family(moves[i]);
                let entry = match last {
                    Some((l, entry)) if l == f => entry,
                    _ => {
                        // Fibonacci hashing.
                        let mut at =
                            (f.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & (size - 1);
                        loop {
                            let e = &mut self.table[at];
                            if e.0 != stamp {
                                *e = (stamp, f, self.round.len());
                                self.round.push(i);
                                break e.2;
                            }
                            if e.1 == f {
                                break e.2;
                            }
                            at = (at + 1) & (size - 1);
                        }
                    }
                };
                last = Some((f, entry));
                let best = &mut self.round[entry];
                if scores[i] > scores[*best] {
                    *best = i;
                }
            }
            self.round
                .sort_by_key(|&i| (std::cmp::Reverse(scores[i]), i));
            for &i in self.round.iter().take(wanted) {
                self.ordered.push((scores[i], moves[i]));
                self.chosen[i] = true;
            }
            wanted = wanted.saturating_sub(self.round.len());
        }
        for (i, &m) in moves.iter().enumerate() {
            if !self.chosen[i] {
                self.ordered.push((scores[i], m));
            }
        }
        for ((s, m), &(os, om)) in scores.iter_mut().zip(moves.iter_mut()).zip(&self.ordered) {
            *s = os;
            *m = om;
        }
    }

    /// A new round's stamp; the table is cleared only when the stamps wrap around, so that
    /// an entry of the stamp's first use is never taken for one of this round.
    fn next_stamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.table.iter_mut().for_each(|e| e.0 = 0);
            self.stamp = 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::FamilySpread;

    /// Twelve moves in three families of four (`m / 4`); move 9 scores as a killer.
    const SCORES: [i32; 12] = [50, 90, 90, 10, 80, 20, 70, 60, 5, 1000, 30, 40];

    fn ordered(keep: usize) -> (Vec<u32>, Vec<i32>) {
        let mut moves: Vec<u32> = (0..12).collect();
        let mut scores = SCORES.to_vec();
        FamilySpread::new().order(&mut moves, &mut scores, 1000, keep, |m| u64::from(m / 4));
        (moves, scores)
    }

    #[test]
    fn the_quiet_moves_kept_are_the_best_of_each_family() {
        let (moves, scores) = ordered(2);
        // The killer, then the best of the two best families (move 1 before move 2: a tie,
        // to the first), then the rest as they came.
        assert_eq!(moves, [9, 1, 4, 0, 2, 3, 5, 6, 7, 8, 10, 11]);
        assert!(moves
            .iter()
            .zip(&scores)
            .all(|(&m, &s)| SCORES[m as usize] == s));
    }

    #[test]
    fn fewer_families_than_moves_kept_take_a_second_round() {
        // Round one: 1, 4, 11 (family 2's best quiet move; 9 is the killer); round two: the
        // second best of the two best families.
        let (moves, _) = ordered(5);
        assert_eq!(moves, [9, 1, 4, 11, 2, 6, 0, 3, 5, 7, 8, 10]);
    }

    /// Against a plain statement of the order on random nodes: each quiet move ranked among
    /// its family's members (by score, then as they came), the kept ones by rank, then score,
    /// then as they came; the rest as they came.
    #[test]
    fn agrees_with_round_robin_by_rank_on_random_nodes() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let mut spread = FamilySpread::new();
        for _ in 0..500 {
            let len = 1 + next(300) as usize;
            let families = 1 + next(40);
            let family: Vec<u64> = (0..len).map(|_| next(families)).collect();
            let scores: Vec<i32> = (0..len)
                .map(|_| {
                    if next(20) == 0 {
                        1000 + next(5) as i32
                    } else {
                        next(50) as i32
                    }
                })
                .collect();
            let keep = next(30) as usize;
            let mut moves: Vec<usize> = (0..len).collect();
            let mut got_scores = scores.clone();
            spread.order(&mut moves, &mut got_scores, 1000, keep, |m| family[m]);

            let mut loud: Vec<usize> = (0..len).filter(|&i| scores[i] >= 1000).collect();
            loud.sort_by_key(|&i| (std::cmp::Reverse(scores[i]), i));
            let mut quiet: Vec<usize> = (0..len).filter(|&i| scores[i] < 1000).collect();
            let rank = |i: usize| quiet_rank(&quiet, &family, &scores, i);
            let mut by_rank = quiet.clone();
            by_rank.sort_by_key(|&i| (rank(i), std::cmp::Reverse(scores[i]), i));
            let kept: Vec<usize> = by_rank.into_iter().take(keep).collect();
            quiet.retain(|i| !kept.contains(i));
            let expected: Vec<usize> = loud.into_iter().chain(kept).chain(quiet).collect();
            assert_eq!(moves, expected);
            assert!(moves.iter().zip(&got_scores).all(|(&m, &s)| scores[m] == s));
        }
    }

    /// How many quiet moves of `i`'s family come before it by score, then as they came.
    fn quiet_rank(quiet: &[usize], family: &[u64], scores: &[i32], i: usize) -> usize {
        quiet
            .iter()
            .filter(|&&j| {
                family[j] == family[i]
                    && (scores[j], std::cmp::Reverse(j)) > (scores[i], std::cmp::Reverse(i))
            })
            .count()
    }
}
