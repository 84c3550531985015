//! The history heuristic's tables of one search thread, kept from one search to the next.

use crate::HISTORY_SLOTS;

/// A history's bound (the updates of [`Histories::gain`] approach it and never pass it).
pub(crate) const HISTORY_BOUND: i32 = 16384;

/// Two tables of [`HISTORY_SLOTS`] histories: by [`crate::SearchGame::history_slot`], and by
/// [`crate::SearchGame::detail_slot`]. Each search starts by fading them, and a new game by
/// forgetting them, so the slots that are not zero are listed: both visit only those. A
/// short search touches a few hundred slots of the 131,072; visiting every slot cost more
/// than a 1000-node search itself (analysis at depth 1, the sweeps at 1000 nodes a move).
pub(crate) struct Histories {
    /// The history table, then the detail table.
    values: Vec<i32>,
    /// Every slot that is not zero, each once (and some that came back to zero by a gain).
    live: Vec<u32>,
    /// Whether a slot is in `live`, a bit a slot.
    listed: Vec<u64>,
}

impl Histories {
    pub(crate) fn new() -> Histories {
        Histories {
            values: vec![0; 2 * HISTORY_SLOTS],
            live: Vec::new(),
            listed: vec![0; 2 * HISTORY_SLOTS / 64],
        }
    }

    /// The history of slot `slot` (below [`HISTORY_SLOTS`]).
    #[inline]
    pub(crate) fn history(&self, slot: usize) -> i32 {
        self.values[slot % HISTORY_SLOTS]
    }

    /// The detail history of slot `slot` (below [`HISTORY_SLOTS`]).
    #[inline]
    pub(crate) fn detail(&self, slot: usize) -> i32 {
        self.values[HISTORY_SLOTS + slot % HISTORY_SLOTS]
    }

    /// The history of `slot` moved by `bonus` (negative: lowered), less the nearer it is to
    /// the bound it moves toward ([`HISTORY_BOUND`], never passed).
    #[inline]
    pub(crate) fn gain(&mut self, slot: usize, bonus: i32) {
        self.gain_at(slot % HISTORY_SLOTS, bonus);
    }

    /// [`Histories::gain`] for the detail history.
    #[inline]
    pub(crate) fn gain_detail(&mut self, slot: usize, bonus: i32) {
        self.gain_at(HISTORY_SLOTS + slot % HISTORY_SLOTS, bonus);
    }

    fn gain_at(&mut self, i: usize, bonus: i32) {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        if self.listed[word] & bit == 0 {
            self.listed[word] |= bit;
            self.live.push(i as u32);
        }
        let h = &mut self.values[i];
        *h += bonus - *h * bonus.abs() / HISTORY_BOUND;
    }

    /// Every history at an eighth of its weight; those that reach zero leave the list.
    pub(crate) fn fade(&mut self) {
        let (values, listed) = (&mut self.values, &mut self.listed);
        self.live.retain(|&i| {
            let h = &mut values[i as usize];
            *h /= 8;
            let keep = *h != 0;
            if !keep {
                listed[i as usize / 64] &= !(1u64 << (i % 64));
            }
            keep
        });
    }

    /// Every history forgotten.
    pub(crate) fn forget(&mut self) {
        for i in self.live.drain(..) {
            self.values[i as usize] = 0;
            self.listed[i as usize / 64] &= !(1u64 << (i % 64));
        }
    }

    /// The slots listed as live (tests).
    #[cfg(test)]
    fn listed_slots(&self) -> usize {
        self.live.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables as they were before the list: every slot visited.
    fn faded_everywhere(values: &mut [i32]) {
        for h in values {
            *h /= 8;
        }
    }

    #[test]
    fn fading_and_forgetting_the_listed_slots_is_fading_and_forgetting_every_slot() {
        let mut h = Histories::new();
        let mut reference = vec![0i32; 2 * HISTORY_SLOTS];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for round in 0..40 {
            for _ in 0..500 {
                // Few slots, so that gains meet and some come back to zero.
                let slot = next(300) as usize * 97;
                let bonus = next(801) as i32 - 400;
                let detail = next(2) == 1;
                let i = slot % HISTORY_SLOTS + if detail { HISTORY_SLOTS } else { 0 };
                let r = &mut reference[i];
                *r += bonus - *r * bonus.abs() / HISTORY_BOUND;
                if detail {
                    h.gain_detail(slot, bonus);
                } else {
                    h.gain(slot, bonus);
                }
            }
            if round % 10 == 9 {
                h.forget();
                reference.fill(0);
            } else {
                h.fade();
                faded_everywhere(&mut reference);
            }
            for s in 0..HISTORY_SLOTS {
                assert_eq!(h.history(s), reference[s], "round {round}, slot {s}");
                assert_eq!(h.detail(s), reference[HISTORY_SLOTS + s], "round {round}");
            }
            // A slot is listed once, and slots faded to zero leave the list.
            let nonzero = reference.iter().filter(|&&v| v != 0).count();
            assert!(h.listed_slots() >= nonzero);
            assert!(h.listed_slots() <= 600, "{}", h.listed_slots());
        }
    }
}
