//! Heap accounting for the memory figures of `dsat`: the bytes the program holds now and
//! at most since a mark, counted at every allocation.
//!
//! Written here rather than taken from a crate: `peak_alloc` (0.3), the usual one, copies
//! the block on every `realloc` and zero-fills `alloc_zeroed` by hand, which would change
//! what is measured (in-place growth, untouched zeroed pages) and slow the solver down.
//! This one hands every call to the system allocator unchanged and only keeps two
//! counters.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counting the bytes it hands out.
pub struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let held = HELD.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(held, Ordering::Relaxed);
}

fn shrank(bytes: usize) {
    HELD.fetch_sub(bytes, Ordering::Relaxed);
}

// SAFETY: every call goes to `System` with the caller's arguments unchanged; the
// counters never touch the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // the old block is gone and the new one held (in place or moved)
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                shrank(layout.size() - new_size);
            }
        }
        p
    }
}

/// Heap bytes held now.
pub fn held() -> usize {
    HELD.load(Ordering::Relaxed)
}

/// Starts a new peak: from now on [`peak`] reports the most held since this call.
pub fn mark() {
    PEAK.store(held(), Ordering::Relaxed);
}

/// The most heap bytes held since the last [`mark`] (or since the start).
pub fn peak() -> usize {
    PEAK.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Other tests of this binary allocate and free on other threads while this one
    /// runs (one holds a megabyte of solve lines), so every comparison allows them
    /// 16 MiB either way; a counter that missed the 64 MiB block (or its release)
    /// still fails.
    const SLACK: usize = 16 << 20;
    const BLOCK: usize = 64 << 20;

    #[test]
    fn the_peak_sees_a_block_that_is_already_freed() {
        let start = held();
        mark();
        let block = vec![1u8; BLOCK];
        let during = held();
        assert!(
            during + SLACK >= start + BLOCK,
            "held {during} from {start}"
        );
        drop(block);
        let after = held();
        assert!(
            after + BLOCK <= during + SLACK,
            "held {after} after freeing, {during} before"
        );
        assert!(
            peak() + SLACK >= start + BLOCK,
            "peak {} from {start}",
            peak()
        );
        mark();
        assert!(
            peak() + BLOCK <= during + SLACK,
            "peak {} after a new mark",
            peak()
        );
    }
}
