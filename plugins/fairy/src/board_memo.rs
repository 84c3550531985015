//! Facts about the pieces on the board, kept per thread for the last board asked about.
//!
//! At every node of a search or a perft the host asks for each side's royal pieces and for
//! the result (which counts the extinction types), and the legality filter asks for both
//! sides' pseudo-royal pieces again: the same lookups several times a node, most across the
//! library boundary. Fairy-Stockfish keeps these in its position's state; here the
//! position's cache words, which hold the generator's bitboards of every piece, are the
//! key: the same words are the same pieces on the same squares.

use houserules_plugin_api::SquareSet;
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

/// How many extinction types [`BoardFacts`] counts; rules with more are not remembered.
pub const MAX_TYPES: usize = 8;

/// What the rules look up about the pieces on the board at every node.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct BoardFacts {
    /// Each side's pseudo-royal pieces (White's, then Black's).
    pub pseudo_royals: [SquareSet; 2],
    /// Each side's pieces of each extinction type on the board, in the rules' order of the
    /// types (at most [`MAX_TYPES`]).
    pub extinction_counts: [[u32; MAX_TYPES]; 2],
}

/// One remembered answer: whose (an [`owner`] number), for which board, what.
#[derive(Clone, Copy)]
struct Entry {
    owner: u64,
    key: [u64; 16],
    facts: BoardFacts,
}

thread_local! {
    static LAST: RefCell<Option<Entry>> = const { RefCell::new(None) };
}

/// A number no other rules instance of this process has: rules that differ may share a
/// generator (and so a key) and still not agree on the facts.
pub fn owner() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// `read` of the facts of the board `key` for `owner`: of the remembered ones where this
/// thread's last question was about the same, else of `compute`'s (remembered then).
/// `read` takes what its caller needs where the facts are kept: a copy of them all per
/// question (several a node) would cost more than the comparison.
pub fn read<R>(
    owner: u64,
    key: &[u64; 16],
    compute: impl FnOnce() -> BoardFacts,
    read: impl Fn(&BoardFacts) -> R,
) -> R {
    let kept = LAST.with_borrow(|last| {
        last.as_ref()
            .filter(|e| e.owner == owner && e.key == *key)
            .map(|e| read(&e.facts))
    });
    if let Some(r) = kept {
        return r;
    }
    let facts = compute();
    let r = read(&facts);
    LAST.set(Some(Entry {
        owner,
        key: *key,
        facts,
    }));
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use houserules_plugin_api::Square;

    fn facts_of(white: &str, black: &str) -> BoardFacts {
        let one = |n: &str| std::iter::once(Square::parse(n).unwrap()).collect();
        BoardFacts {
            pseudo_royals: [one(white), one(black)],
            extinction_counts: [[1; MAX_TYPES]; 2],
        }
    }

    #[test]
    fn an_answer_is_kept_for_its_owner_and_board_only() {
        let (a, b) = (owner(), owner());
        assert_ne!(a, b);
        let board = [7u64; 16];
        let first = facts_of("e1", "e8");
        let all = |f: &BoardFacts| *f;
        assert_eq!(read(a, &board, || first, all), first);
        // The same owner and board: kept, not computed again.
        assert_eq!(read(a, &board, || unreachable!(), all), first);
        assert_eq!(
            read(a, &board, || unreachable!(), |f| f.pseudo_royals[1]),
            first.pseudo_royals[1]
        );
        // Another owner or another board is computed.
        let other = facts_of("d1", "d8");
        assert_eq!(read(b, &board, || other, all), other);
        let mut moved = board;
        moved[3] ^= 1;
        assert_eq!(read(b, &moved, || first, all), first);
    }
}
