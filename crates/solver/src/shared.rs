//! State shared by the threads of one multi-threaded solve (feature `parallel`):
//! a "done" flag and a small table of the positions being searched right now.
//!
//! Every thread runs the whole search over the one transposition table. Near the
//! root a thread defers a move whose position another thread is searching at that
//! moment and takes its siblings first, then comes back to it, by which time its
//! result is usually in the table (the "simplified ABDADA" scheme).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// Slots of the in-progress table (a power of two).
const SLOTS: usize = 1 << 14;

/// What the threads of one solve share besides the transposition table.
pub(crate) struct Shared {
    /// Raised by the first thread to finish; the others stop.
    pub done: AtomicBool,
    /// Keys (+1, so that 0 means free) of positions some thread is searching.
    busy: Vec<AtomicU64>,
}

#[cfg_attr(not(feature = "parallel"), allow(dead_code))]
impl Shared {
    /// Fresh shared state: nothing done, nothing in progress.
    pub fn new() -> Shared {
        Shared {
            done: AtomicBool::new(false),
            busy: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline(always)]
    fn slot(&self, key: u64) -> &AtomicU64 {
        let i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 50) as usize & (SLOTS - 1);
        &self.busy[i]
    }

    /// Whether some thread is searching the position with table key `key` (a hint:
    /// a slot holds one key, so a collision only forgets a mark).
    #[inline(always)]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Relaxed) == key + 1
    }

    /// Marks `key` as being searched.
    #[inline(always)]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key + 1, Relaxed);
    }

    /// Clears the mark of `key`, if the slot still holds it.
    #[inline(always)]
    pub fn leave(&self, key: u64) {
        let s = self.slot(key);
        if s.load(Relaxed) == key + 1 {
            s.store(0, Relaxed);
        }
    }
}
