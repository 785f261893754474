//! A set of position keys for the verifier's transposition sharing.
//!
//! Written by hand rather than using a general hash set because the verifier runs
//! thousands of short searches back to back (simplify, check-solution, auto-complete):
//! entries carry a generation stamp, so emptying the set between searches is O(1)
//! instead of a sweep over the whole allocation, and a probe is one multiply and a
//! short linear scan over plain `u64`s.

/// Position keys use the low 49 bits; the rest holds the generation stamp.
const KEY_BITS: u32 = 49;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
const MAX_GENERATION: u64 = (1 << (64 - KEY_BITS)) - 1;

/// An open-addressing set of 49-bit keys, cleared in O(1).
#[derive(Debug, Clone)]
pub(crate) struct KeySet {
    slots: Vec<u64>,
    len: usize,
    generation: u64,
    shift: u32,
}

impl KeySet {
    /// An empty set with room for a few thousand keys.
    pub fn new() -> KeySet {
        KeySet {
            slots: vec![0; 1 << 12],
            len: 0,
            generation: 1,
            shift: 64 - 12,
        }
    }

    /// Number of keys inserted since the last clear.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Empties the set.
    pub fn clear(&mut self) {
        self.len = 0;
        if self.generation == MAX_GENERATION {
            self.slots.fill(0);
            self.generation = 1;
        } else {
            self.generation += 1;
        }
    }

    /// Inserts `key` (< 2^49); false when it was already present.
    #[inline(always)]
    pub fn insert(&mut self, key: u64) -> bool {
        debug_assert!(key <= KEY_MASK);
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let stamped = key | (self.generation << KEY_BITS);
        let mask = self.slots.len() - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        loop {
            let s = self.slots[i];
            if s == stamped {
                return false;
            }
            if s >> KEY_BITS != self.generation {
                self.slots[i] = stamped;
                self.len += 1;
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    #[cold]
    fn grow(&mut self) {
        let live: Vec<u64> = self
            .slots
            .iter()
            .filter(|&&s| s >> KEY_BITS == self.generation)
            .map(|&s| s & KEY_MASK)
            .collect();
        let size = self.slots.len() * 2;
        self.slots = vec![0; size];
        self.shift -= 1;
        self.len = 0;
        for k in live {
            self.insert(k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_grows_and_clears() {
        let mut s = KeySet::new();
        for k in 0..10_000u64 {
            assert!(s.insert(k * 7919));
        }
        assert_eq!(s.len(), 10_000);
        assert!(!s.insert(7919));
        s.clear();
        assert_eq!(s.len(), 0);
        assert!(s.insert(7919));
        assert!(!s.insert(7919));
    }

    #[test]
    fn survives_generation_wraparound() {
        let mut s = KeySet::new();
        s.generation = MAX_GENERATION - 1;
        assert!(s.insert(5));
        s.clear();
        assert!(s.insert(5));
        s.clear();
        assert_eq!(s.generation, 1);
        assert!(s.insert(5));
        assert!(!s.insert(5));
    }
}
