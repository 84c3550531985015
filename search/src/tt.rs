//! The transposition table, shared by every search thread without locks.
//!
//! An entry is three words: the move's bits, the packed data (score, depth, bound, age) and
//! the position key XOR both. A reader accepts an entry only when the XOR gives its key back,
//! so an entry torn by two threads writing at once reads as a miss, never as a wrong answer
//! (the scheme of Hyatt's lockless hashing).

use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score says of the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least this (a beta cut-off).
    Lower,
    /// The true value is at most this (no move reached alpha).
    Upper,
}

impl Bound {
    /// What a node's `best` score says of its value, searched in the window (`alpha`, `beta`).
    pub(crate) fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored `score` with this bound settles a node searched in the window
    /// (`alpha`, `beta`).
    pub(crate) fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// A probed entry.
#[derive(Debug, Clone, Copy)]
pub struct Hit {
    /// The best (or refuting) move's bits.
    pub mv: u64,
    /// Stored score (mate scores relative to the stored node).
    pub score: i32,
    /// Remaining depth the score was searched to.
    pub depth: i32,
    /// What the score says.
    pub bound: Bound,
}

struct Slot {
    check: AtomicU64,
    mv: AtomicU64,
    data: AtomicU64,
}

/// The table: a power of two of slots, two per bucket (depth-preferred and always-replace).
pub struct Table {
    slots: Vec<Slot>,
    mask: usize,
    age: AtomicU64,
    /// XORed into every key the table checks: clearing the table draws a new one, so that
    /// no entry stored before answers (as if every slot had been written anew).
    salt: AtomicU64,
}

const SLOT_BYTES: usize = 24;
/// Stored depths run from minus this (quiescence entries store minus their distance from the
/// main search, [`crate::worker`]) to 255 less this.
const DEPTH_OFFSET: i32 = 32;

fn pack(score: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    let b = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    (score as i16 as u16 as u64)
        | ((depth.clamp(-DEPTH_OFFSET, 255 - DEPTH_OFFSET) + DEPTH_OFFSET) as u64) << 16
        | b << 24
        | (age as u64) << 32
}

fn unpack(data: u64) -> Option<(i32, i32, Bound, u8)> {
    let score = data as u16 as i16 as i32;
    let depth = ((data >> 16) & 0xFF) as i32 - DEPTH_OFFSET;
    let bound = match (data >> 24) & 0xFF {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some((score, depth, bound, (data >> 32) as u8))
}

impl Table {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Table {
        let want = (mb.max(1) << 20) / SLOT_BYTES;
        let mut n = 2usize;
        while n * 2 <= want {
            n *= 2;
        }
        // Written here, not left to the allocator's zeroed pages: a search would then take
        // the page faults of its first touches in its own time (-3% nodes a second).
        let slots = (0..n)
            .map(|_| Slot {
                check: AtomicU64::new(0),
                mv: AtomicU64::new(0),
                data: AtomicU64::new(0),
            })
            .collect();
        Table {
            slots,
            mask: n / 2 - 1,
            age: AtomicU64::new(0),
            salt: AtomicU64::new(0),
        }
    }

    /// Forgets every entry: a new salt, so that no stored entry's check matches a key again
    /// (but with the odds of two keys colliding), and a new age, so that the entries are the
    /// first to be replaced. Writing every slot instead cost 16 MB of stores a game: more
    /// than the searches of a record analysed at depth 1.
    pub fn clear(&self) {
        // Any other salt will do: the keys are hashes already, so an old entry answers only
        // where its key and the asked one differ by exactly the two salts' difference.
        self.salt
            .fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed);
        self.next_age();
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn next_age(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> usize {
        ((key as usize) & self.mask) * 2
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let b = self.bucket(key);
        let key = key ^ self.salt.load(Ordering::Relaxed);
        for s in &self.slots[b..b + 2] {
            let mv = s.mv.load(Ordering::Relaxed);
            let data = s.data.load(Ordering::Relaxed);
            let check = s.check.load(Ordering::Relaxed);
            if check ^ mv ^ data == key && data != 0 {
                let (score, depth, bound, _) = unpack(data)?;
                return Some(Hit {
                    mv,
                    score,
                    depth,
                    bound,
                });
            }
        }
        None
    }

    /// Stores a result: into the slot that holds `key` already, else the depth-preferred slot
    /// when it is shallower or from an older search, else the always-replace slot.
    pub fn store(&self, key: u64, mv: u64, score: i32, depth: i32, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed) as u8;
        let data = pack(score, depth, bound, age);
        let b = self.bucket(key);
        let key = key ^ self.salt.load(Ordering::Relaxed);
        let mut target = b + 1;
        for (i, s) in self.slots[b..b + 2].iter().enumerate() {
            let smv = s.mv.load(Ordering::Relaxed);
            let sdata = s.data.load(Ordering::Relaxed);
            let same = s.check.load(Ordering::Relaxed) ^ smv ^ sdata == key;
            if same {
                target = b + i;
                break;
            }
            if i == 0 {
                let old = unpack(sdata);
                let replace = match old {
                    None => true,
                    Some((_, d, _, a)) => a != age || d <= depth,
                };
                if replace {
                    target = b;
                    break;
                }
            }
        }
        let s = &self.slots[target];
        // Keep the stored move when the new result has none (an upper bound).
        let mv = if mv == 0
            && s.check.load(Ordering::Relaxed)
                ^ s.mv.load(Ordering::Relaxed)
                ^ s.data.load(Ordering::Relaxed)
                == key
        {
            s.mv.load(Ordering::Relaxed)
        } else {
            mv
        };
        s.mv.store(mv, Ordering::Relaxed);
        s.data.store(data, Ordering::Relaxed);
        s.check.store(key ^ mv ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let t = Table::new(1);
        assert!(t.probe(12345).is_none());
        t.store(12345, 77, -250, 6, Bound::Lower);
        let h = t.probe(12345).expect("stored");
        assert_eq!(
            (h.mv, h.score, h.depth, h.bound),
            (77, -250, 6, Bound::Lower)
        );
        // A different key in the same bucket is not a hit.
        assert!(t.probe(12345 ^ (1 << 60)).is_none());
        t.clear();
        assert!(t.probe(12345).is_none());
    }

    #[test]
    fn a_cleared_table_answers_nothing_it_held_and_takes_new_entries() {
        let t = Table::new(1);
        let keys: Vec<u64> = (1..=20_000u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        for round in 0..3 {
            for &k in &keys {
                t.store(k, k & 0xffff, 7, 200, Bound::Exact);
            }
            assert!(keys.iter().filter(|&&k| t.probe(k).is_some()).count() > 1000);
            t.clear();
            assert!(keys.iter().all(|&k| t.probe(k).is_none()), "round {round}");
            // The old entries (deep, exact) give way to shallow new ones in both slots.
            for &k in &keys[..100] {
                t.store(k, 1, -5, 1, Bound::Upper);
                let h = t.probe(k).expect("stored after the clear");
                assert_eq!((h.score, h.depth, h.bound), (-5, 1, Bound::Upper));
            }
        }
    }

    #[test]
    fn an_upper_bound_keeps_the_move() {
        let t = Table::new(1);
        t.store(9, 5, 10, 3, Bound::Exact);
        t.store(9, 0, -3, 4, Bound::Upper);
        let h = t.probe(9).expect("stored");
        assert_eq!((h.mv, h.score, h.bound), (5, -3, Bound::Upper));
    }
}
