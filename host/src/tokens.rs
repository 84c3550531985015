//! A bound on the items in flight between a producer thread and the thread that hands their
//! results on (a batch's records, a supervisor's jobs): the producer takes a token per item,
//! and the tokens go back in groups, so that a producer waiting for one is woken once per
//! group, not once per item.

use std::sync::mpsc;

/// The handing-on side of a [`window`]: gives tokens back, a group at a time. Dropping it
/// ends the producer (its next wait for a token fails).
pub(crate) struct TokenReturn {
    tx: mpsc::SyncSender<()>,
    held: usize,
    group: usize,
}

/// A window of `size` tokens, given back `group` at a time; `group` is less than `size`, so
/// it never deadlocks: with fewer than `group` held back, the other items are in flight, and
/// their results release the held ones.
pub(crate) fn window(size: usize, group: usize) -> (TokenReturn, mpsc::Receiver<()>) {
    debug_assert!(group < size);
    let (tx, rx) = mpsc::sync_channel::<()>(size);
    for _ in 0..size {
        let _ = tx.send(());
    }
    (TokenReturn { tx, held: 0, group }, rx)
}

impl TokenReturn {
    /// One item's result is handed on: its token goes back with its group's.
    pub(crate) fn done(&mut self) {
        self.held += 1;
        if self.held == self.group {
            for _ in 0..self.held {
                let _ = self.tx.send(());
            }
            self.held = 0;
        }
    }
}
