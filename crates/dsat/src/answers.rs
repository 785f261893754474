//! The local search's table of strong-solver answers: "does the position after Red's
//! move keep the win?", by position key.
//!
//! Written by hand rather than kept in a `HashMap<u64, bool>`: the table grows to
//! millions of entries, far past the caches, and a lookup in hashbrown's layout touches
//! two cache lines (the control bytes, then the slot), which made the lookups over half
//! of a hard root's local search (`perf`, `4666644444522221`). Here the answer rides in
//! the key's top bit, a position key never uses (it is under 2^49), so a lookup is one
//! probe of one `u64` slot, usually one cache line. Once the table outgrows the
//! processor's caches, a small direct-mapped cache of the latest answers looked up sits
//! in front of it: a repair step walks nearly the same tree a dozen times, and its
//! answers then come from the processor's caches rather than memory. (While the table
//! is small, the cache in front would only add a second place to look.)

/// The answer bit of a slot; the rest is the key (0: an empty slot).
const ANSWER: u64 = 1 << 63;

/// Slots of a new table (a power of two).
const FIRST_SLOTS: usize = 1 << 12;

/// Slots of the table from which the cache in front is used (4 MiB of slots).
const HOT_FROM: usize = 1 << 19;

/// Slots of the direct-mapped cache in front (a power of two; 1 MiB).
const HOT_SLOTS: usize = 1 << 17;

/// An open-addressing, linear-probing map from nonzero position keys below 2^63 to one
/// bit, kept at most half full.
pub(crate) struct Answers {
    slots: Vec<u64>,
    len: usize,
    /// 64 minus log2(slots): the shift that turns a hash into a slot index.
    shift: u32,
    /// The latest answers looked up or stored, each at its key's home slot here; empty
    /// until the table has `HOT_FROM` slots.
    hot: Vec<u64>,
}

impl Answers {
    /// An empty table.
    pub(crate) fn new() -> Answers {
        Answers {
            slots: vec![0; FIRST_SLOTS],
            len: 0,
            shift: 64 - FIRST_SLOTS.trailing_zeros(),
            hot: Vec::new(),
        }
    }

    /// Entries held.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The first slot to probe for `key`: the top bits of its hash.
    #[inline]
    fn home(&self, key: u64) -> usize {
        (hash(key) >> self.shift) as usize
    }

    /// The slot of `key` in the cache in front.
    #[inline]
    fn hot_slot(key: u64) -> usize {
        (hash(key) >> (64 - HOT_SLOTS.trailing_zeros())) as usize
    }

    /// The answer stored for `key`, if any.
    #[inline]
    pub(crate) fn get(&mut self, key: u64) -> Option<bool> {
        let h = Self::hot_slot(key);
        if let Some(&hot) = self.hot.get(h) {
            if hot & !ANSWER == key {
                return Some(hot & ANSWER != 0);
            }
        }
        let wrap = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                return None;
            }
            if slot & !ANSWER == key {
                if let Some(hot) = self.hot.get_mut(h) {
                    *hot = slot;
                }
                return Some(slot & ANSWER != 0);
            }
            i = (i + 1) & wrap;
        }
    }

    /// Stores `answer` for `key` (nonzero, below 2^63), replacing any answer held.
    pub(crate) fn insert(&mut self, key: u64, answer: bool) {
        debug_assert!(
            key != 0 && key & ANSWER == 0,
            "not a position key: {key:#x}"
        );
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let value = key | if answer { ANSWER } else { 0 };
        if let Some(hot) = self.hot.get_mut(Self::hot_slot(key)) {
            *hot = value;
        }
        if self.place(value) {
            self.len += 1;
        }
    }

    /// Puts a slot value in its place; true when the key was not held before.
    fn place(&mut self, value: u64) -> bool {
        let key = value & !ANSWER;
        let wrap = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let slot = self.slots[i];
            if slot == 0 || slot & !ANSWER == key {
                self.slots[i] = value;
                return slot == 0;
            }
            i = (i + 1) & wrap;
        }
    }

    /// Doubles the slots and puts every entry back.
    fn grow(&mut self) {
        let doubled = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        self.shift -= 1;
        if self.slots.len() >= HOT_FROM && self.hot.is_empty() {
            self.hot = vec![0; HOT_SLOTS];
        }
        for value in old.into_iter().filter(|&v| v != 0) {
            self.place(value);
        }
    }
}

/// A key spread over all 64 bits, the top ones best mixed (Fibonacci hashing).
#[inline]
fn hash(key: u64) -> u64 {
    key.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn agrees_with_a_hash_map_through_growth_and_replacement() {
        let mut table = Answers::new();
        let mut reference = HashMap::new();
        let mut x: u64 = 0x1234_5678_9ABC_DEF1;
        for round in 0..400_000u64 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // keys below 2^49 as position keys are, some of them repeated
            let key = (x >> 15) % if round % 3 == 0 { 5_000 } else { 1 << 49 } + 1;
            let answer = x & 1 == 1;
            table.insert(key, answer);
            reference.insert(key, answer);
        }
        assert_eq!(table.len(), reference.len());
        for (&key, &answer) in &reference {
            assert_eq!(table.get(key), Some(answer), "key {key}");
        }
        assert_eq!(table.get(1 << 50), None);
        assert!(table.slots.len() >= 2 * table.len());
        assert!(
            !table.hot.is_empty(),
            "the cache in front was not exercised"
        );
    }
}
