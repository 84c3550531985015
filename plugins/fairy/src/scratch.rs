//! Move lists used again from call to call: the legality filters and the move counts run at
//! every node of a search or a perft, and a fresh list there was an allocation (and its
//! growth a few more) per node.

use houserules_plugin_api::abi_stable::std_types::RVec;
use houserules_plugin_api::Move;
use std::cell::Cell;
use std::thread::LocalKey;

thread_local! {
    static LIST: Cell<Vec<Move>> = const { Cell::new(Vec::new()) };
    static RLIST: Cell<RVec<Move>> = const { Cell::new(RVec::new()) };
}

/// Runs `f` with an empty move list of this thread's, kept for the next call. A nested call
/// (a rule that asks for moves while filtering moves) gets a list of its own.
pub fn with_list<R>(f: impl FnOnce(&mut Vec<Move>) -> R) -> R {
    reused(&LIST, Vec::clear, f)
}

/// [`with_list`] for the plugin interface's list type.
pub fn with_rlist<R>(f: impl FnOnce(&mut RVec<Move>) -> R) -> R {
    reused(&RLIST, RVec::clear, f)
}

/// Runs `f` with the list kept in `key`, emptied by `clear`, and keeps it again: taken out
/// while `f` runs, so that a nested call finds the cell empty and starts a list of its own.
fn reused<L: Default, R>(
    key: &'static LocalKey<Cell<L>>,
    clear: fn(&mut L),
    f: impl FnOnce(&mut L) -> R,
) -> R {
    key.with(|cell| {
        let mut list = cell.take();
        clear(&mut list);
        let r = f(&mut list);
        cell.set(list);
        r
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use houserules_plugin_api::{MoveFlags, Square};

    #[test]
    fn lists_come_empty_and_nest() {
        let m = Move::new(Square::new(0, 0), Square::new(0, 1), MoveFlags::NONE);
        with_list(|a| {
            a.push(m);
            with_list(|b| {
                assert!(b.is_empty());
                b.push(m);
                b.push(m);
            });
            assert_eq!(a.len(), 1);
        });
        with_list(|a| assert!(a.is_empty()));
        with_rlist(|a| {
            a.push(m);
            with_rlist(|b| assert!(b.is_empty()));
        });
        with_rlist(|a| assert!(a.is_empty()));
    }
}
