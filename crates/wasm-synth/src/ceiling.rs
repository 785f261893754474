//! The ceiling of one search in the page's race (`web/race.js`): the dead ends at which
//! it gives up, lowered when another search finishes with a verdict. The worker lowers
//! it between steps; where the page is cross-origin isolated, the page also writes it
//! into a SharedArrayBuffer that the solver reads while a call runs, so a search that
//! can no longer win stops within a few hundred decisions, as natively, instead of at
//! the end of its round (which can be tens of thousands of dead ends later).

use std::sync::atomic::{AtomicU64, Ordering};

use c4lab_synth::sat::Ceiling;

/// The shared slot is read once in this many reads (a read is a call into JavaScript;
/// the solver asks at every decision).
#[cfg(target_arch = "wasm32")]
const READ_EVERY: u32 = 256;

/// One search's ceiling: its own value, and the page's shared slot when there is one.
pub struct RaceCeiling {
    own: AtomicU64,
    #[cfg(target_arch = "wasm32")]
    shared: Shared,
}

/// The page's slot (an `Int32Array` over a SharedArrayBuffer and an index), the reads
/// since it was last loaded, and what it held then (`i32::MAX`: no ceiling).
#[cfg(target_arch = "wasm32")]
#[derive(Default)]
struct Shared {
    slot: std::cell::RefCell<Option<(js_sys::Int32Array, u32)>>,
    reads: std::cell::Cell<u32>,
    seen: std::cell::Cell<u64>,
}

// Sound: wasm32 built without the atomics feature runs one thread, so the cells are
// never touched from two threads (a build with threads would not compile this).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
unsafe impl Send for Shared {}
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
unsafe impl Sync for Shared {}

impl RaceCeiling {
    /// No ceiling yet.
    pub fn new() -> RaceCeiling {
        RaceCeiling {
            own: AtomicU64::new(u64::MAX),
            #[cfg(target_arch = "wasm32")]
            shared: Shared {
                seen: std::cell::Cell::new(u64::MAX),
                ..Shared::default()
            },
        }
    }

    /// Lowers the ceiling to `dead_ends` (never raises it).
    pub fn lower(&self, dead_ends: u64) {
        self.own.fetch_min(dead_ends, Ordering::Relaxed);
    }

    /// Reads the ceiling from `array[index]` as well, which the page lowers while the
    /// solver runs (`i32::MAX` or a negative value: none).
    #[cfg(target_arch = "wasm32")]
    pub fn share(&self, array: js_sys::Int32Array, index: u32) {
        *self.shared.slot.borrow_mut() = Some((array, index));
        self.shared.reads.set(0);
    }

    /// The page's value, loaded afresh every `READ_EVERY` reads.
    #[cfg(target_arch = "wasm32")]
    fn shared(&self) -> u64 {
        let s = &self.shared;
        if let Some((array, index)) = &*s.slot.borrow() {
            let n = s.reads.get();
            s.reads.set(n.wrapping_add(1));
            if n.is_multiple_of(READ_EVERY) {
                if let Ok(v) = js_sys::Atomics::load(array, *index) {
                    s.seen.set(if v < 0 || v == i32::MAX {
                        u64::MAX
                    } else {
                        v as u64
                    });
                }
            }
        }
        s.seen.get()
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn shared(&self) -> u64 {
        u64::MAX
    }
}

impl Default for RaceCeiling {
    fn default() -> RaceCeiling {
        RaceCeiling::new()
    }
}

impl Ceiling for RaceCeiling {
    fn dead_ends(&self) -> u64 {
        self.own.load(Ordering::Relaxed).min(self.shared())
    }
}
