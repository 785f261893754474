//! The transposition table: 4-entry buckets of 64-bit entries holding both score
//! bounds and the best move, with lossless keys and generation-based clearing.
//!
//! A position key (`current + mask`, below 2^49) is mixed by multiplying with an odd
//! constant modulo 2^49, a bijection. The bucket is the mixed key scaled to the bucket
//! count (`h * buckets / 2^49`, so any count works and the caller's memory is used in
//! full), and the low `49 - b` bits of the mixed key are stored, where `2^b` is the
//! largest power of two not above the bucket count. A bucket holds a contiguous run of
//! at most `2^(49 - b)` mixed keys, which those low bits tell apart, so a stored entry
//! identifies its position exactly: the table never returns another position's bounds.
//!
//! Entries are atomic words read and written with relaxed ordering (plain loads and
//! stores on common processors), so search threads can share one table: an entry is
//! self-describing (its key remainder and both bounds travel in one word), so a lost
//! update only forgets bounds and never lends one position another's.
//!
//! Entry layout, low bits first: best move + 1 (3 bits, 0 = none), lower bound + 32
//! (6), upper bound + 32 (6), work = log2 of the subtree's node count (6), generation
//! (`g` bits, 0 = empty), key remainder (`49 - b` bits).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Bits of a position key.
const KEY_BITS: u32 = 49;
/// An odd multiplier mixing keys (a bijection modulo 2^49).
const MIX: u64 = 0x9E37_79B9_7F4A_7C15;
/// Entries per bucket.
const WAYS: usize = 4;
/// Smallest number of bucket-index bits (leaves one generation bit).
const MIN_BITS: u32 = 7;
/// Largest number of bucket-index bits.
const MAX_BITS: u32 = 40;

const MOVE_SHIFT: u32 = 0;
const LO_SHIFT: u32 = 3;
const HI_SHIFT: u32 = 9;
const WORK_SHIFT: u32 = 15;
const GEN_SHIFT: u32 = 21;
const SCORE_OFFSET: i32 = 32;

/// One 32-byte bucket.
#[derive(Default)]
#[repr(align(32))]
struct Bucket([AtomicU64; WAYS]);

/// What the table knows about a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Entry {
    /// A lower bound on the score.
    pub lo: i32,
    /// An upper bound on the score.
    pub hi: i32,
    /// The best (or refuting) column found, if any.
    pub mv: Option<u8>,
}

/// The transposition table.
pub(crate) struct Table {
    /// Storage; the table proper starts at `start` (aligned for huge pages).
    store: Vec<Bucket>,
    start: usize,
    len: usize,
    /// Bits of the stored key remainder: 49 less log2 of the largest power of two not
    /// above the bucket count.
    rem_bits: u32,
    /// Bits of the generation field.
    gen_bits: u32,
    /// The current generation, 1 ..= 2^gen_bits - 1.
    gen: u64,
}

impl Table {
    /// A table using at most `bytes` bytes (at least 4 KiB).
    pub fn new(bytes: usize) -> Table {
        let want = (bytes / std::mem::size_of::<Bucket>()).max(1);
        // (on 32-bit targets the address space caps the count first)
        let most = usize::try_from(1u64 << MAX_BITS).unwrap_or(usize::MAX);
        let len = want.clamp(1 << MIN_BITS, most);
        let bits = usize::BITS - 1 - len.leading_zeros();
        let rem_bits = KEY_BITS - bits;
        let gen_bits = (64 - GEN_SHIFT - rem_bits).min(8);
        let (store, start) = allocate(len);
        Table {
            store,
            start,
            len,
            rem_bits,
            gen_bits,
            gen: 1,
        }
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.len * std::mem::size_of::<Bucket>()
    }

    /// Forgets every entry (in O(1) time except once every few hundred calls).
    pub fn clear(&mut self) {
        self.gen += 1;
        if self.gen >= 1 << self.gen_bits {
            for b in self.store.iter_mut() {
                for e in b.0.iter_mut() {
                    *e.get_mut() = 0;
                }
            }
            self.gen = 1;
        }
    }

    #[inline(always)]
    fn split(&self, key: u64) -> (usize, u64) {
        let h = key.wrapping_mul(MIX) & ((1u64 << KEY_BITS) - 1);
        (
            ((h as u128 * self.len as u128) >> KEY_BITS) as usize,
            h & ((1u64 << self.rem_bits) - 1),
        )
    }

    /// The tag bits (generation and key remainder) an entry for `rem` carries now.
    #[inline(always)]
    fn tag(&self, rem: u64) -> u64 {
        (self.gen << GEN_SHIFT) | (rem << (GEN_SHIFT + self.gen_bits))
    }

    /// Prefetches the bucket of `key` into the cache (a hint; no effect elsewhere).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let (i, _) = self.split(key);
            // SAFETY: `i` is a valid bucket index; prefetching has no side effects.
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                let p = self.store.as_ptr().add(self.start + i) as *const i8;
                _mm_prefetch::<_MM_HINT_T0>(p);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The stored bounds of the position with key `key`.
    #[inline]
    pub fn get(&self, key: u64) -> Option<Entry> {
        let (i, rem) = self.split(key);
        let tag = self.tag(rem);
        let tag_mask = !((1u64 << GEN_SHIFT) - 1);
        let b = &self.store[self.start + i].0;
        // four independent loads, then the comparisons (no early exit between loads)
        let es = [
            b[0].load(Relaxed),
            b[1].load(Relaxed),
            b[2].load(Relaxed),
            b[3].load(Relaxed),
        ];
        es.into_iter().find(|e| e & tag_mask == tag).map(decode)
    }

    /// Stores bounds for `key`, merging them with bounds already held for it.
    /// `work` is the size of the search that produced them (node count).
    #[inline]
    pub fn put(&self, key: u64, lo: i32, hi: i32, mv: Option<u8>, work: u64) {
        let (i, rem) = self.split(key);
        let tag = self.tag(rem);
        let tag_mask = !((1u64 << GEN_SHIFT) - 1);
        let gen_mask = ((1u64 << self.gen_bits) - 1) << GEN_SHIFT;
        let cur_gen = self.gen << GEN_SHIFT;
        let w = (64 - work.leading_zeros()).min(63) as u64;
        let b = &self.store[self.start + i].0;
        let mut slot = 0;
        let mut slot_work = u64::MAX;
        for (j, cell) in b.iter().enumerate() {
            let e = cell.load(Relaxed);
            if e & tag_mask == tag {
                let old = decode(e);
                let mv = mv.or(old.mv);
                let ow = (e >> WORK_SHIFT) & 63;
                cell.store(
                    encode(lo.max(old.lo), hi.min(old.hi), mv, w.max(ow)) | tag,
                    Relaxed,
                );
                return;
            }
            // stale generations count as empty
            let ew = if e & gen_mask != cur_gen {
                0
            } else {
                1 + ((e >> WORK_SHIFT) & 63)
            };
            if ew < slot_work {
                slot_work = ew;
                slot = j;
            }
        }
        b[slot].store(encode(lo, hi, mv, w) | tag, Relaxed);
    }

    /// The number of bucket-index bits (the tests check the sizing with it).
    #[cfg(test)]
    fn index_bits(&self) -> u32 {
        KEY_BITS - self.rem_bits
    }
}

/// Bytes of a huge page: large tables are aligned to it and advised to use them,
/// which saves most address-translation misses on random probes.
const HUGE_PAGE: usize = 2 << 20;

/// Zeroed storage for `len` buckets, and the index where an aligned run of `len`
/// buckets starts within it.
fn allocate(len: usize) -> (Vec<Bucket>, usize) {
    let size = std::mem::size_of::<Bucket>();
    if len * size < HUGE_PAGE {
        return ((0..len).map(|_| Bucket::default()).collect(), 0);
    }
    let extra = HUGE_PAGE / size;
    let mut v: Vec<Bucket> = Vec::with_capacity(len + extra);
    let addr = v.as_ptr() as usize;
    let start = (addr.next_multiple_of(HUGE_PAGE) - addr) / size;
    advise_huge_pages(addr + start * size, len * size);
    v.extend((0..len + extra).map(|_| Bucket::default()));
    (v, start)
}

/// Asks the kernel to back the whole 4 KiB pages of `[addr, addr + len)` with
/// transparent huge pages (before they are first touched, for the advice to count):
/// randomly probed tables of hundreds of megabytes then miss the address-translation
/// cache far less.
#[cfg(target_os = "linux")]
pub fn advise_huge_pages(addr: usize, len: usize) {
    const PAGE: usize = 4096;
    let (start, end) = (addr.next_multiple_of(PAGE), (addr + len) & !(PAGE - 1));
    if end <= start {
        return;
    }
    extern "C" {
        fn madvise(
            addr: *mut std::ffi::c_void,
            len: usize,
            advice: std::ffi::c_int,
        ) -> std::ffi::c_int;
    }
    const MADV_HUGEPAGE: std::ffi::c_int = 14;
    // SAFETY: the caller passes a range inside an allocation it owns; the advice only
    // changes how the kernel backs the pages, never their contents. Failure is fine.
    unsafe {
        madvise(start as *mut std::ffi::c_void, end - start, MADV_HUGEPAGE);
    }
}

/// Huge-page advice is a Linux feature; elsewhere nothing happens.
#[cfg(not(target_os = "linux"))]
pub fn advise_huge_pages(_addr: usize, _len: usize) {}

#[inline(always)]
fn encode(lo: i32, hi: i32, mv: Option<u8>, work: u64) -> u64 {
    // six bits a bound: every bound is within ±21 (the widest window, the empty
    // board's), and the field holds -32..=31
    debug_assert!(
        (-SCORE_OFFSET..SCORE_OFFSET).contains(&lo),
        "lower bound {lo}"
    );
    debug_assert!(
        (-SCORE_OFFSET..SCORE_OFFSET).contains(&hi),
        "upper bound {hi}"
    );
    debug_assert!(work < 64, "work {work}");
    let m = match mv {
        Some(c) => c as u64 + 1,
        None => 0,
    };
    (m << MOVE_SHIFT)
        | (((lo + SCORE_OFFSET) as u64) << LO_SHIFT)
        | (((hi + SCORE_OFFSET) as u64) << HI_SHIFT)
        | (work << WORK_SHIFT)
}

#[inline(always)]
fn decode(e: u64) -> Entry {
    let m = (e >> MOVE_SHIFT) & 7;
    Entry {
        lo: ((e >> LO_SHIFT) & 63) as i32 - SCORE_OFFSET,
        hi: ((e >> HI_SHIFT) & 63) as i32 - SCORE_OFFSET,
        mv: if m == 0 { None } else { Some(m as u8 - 1) },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_merges_and_clears() {
        let mut t = Table::new(4096);
        assert_eq!(t.index_bits(), MIN_BITS);
        let k = 0x1_2345_6789_ABCD & ((1 << 49) - 1);
        assert_eq!(t.get(k), None);
        t.put(k, -3, 5, Some(2), 100);
        t.put(k, -1, 7, None, 10);
        assert_eq!(
            t.get(k),
            Some(Entry {
                lo: -1,
                hi: 5,
                mv: Some(2)
            })
        );
        t.clear();
        assert_eq!(t.get(k), None);
        // many generations wrap around and still clear
        for _ in 0..300 {
            t.put(k, 0, 0, None, 1);
            t.clear();
            assert_eq!(t.get(k), None);
        }
    }

    /// Puts `keys` (bounds from their index) and checks every hit is the key's own.
    fn no_alias(t: &Table, keys: &[u64]) -> usize {
        for (i, &k) in keys.iter().enumerate() {
            let s = (i % 40) as i32 - 20;
            t.put(k, s, s, None, i as u64);
        }
        let mut hits = 0;
        for (i, &k) in keys.iter().enumerate() {
            if let Some(e) = t.get(k) {
                let s = (i % 40) as i32 - 20;
                assert_eq!((e.lo, e.hi), (s, s), "key {k:#x}");
                hits += 1;
            }
        }
        hits
    }

    #[test]
    fn keys_in_one_bucket_never_alias() {
        // fill far more keys than entries; every hit must be the key's own bounds,
        // with power-of-two bucket counts and others
        let keys: Vec<u64> = (0..5000u64)
            .map(|i| i * 0x1_0000_0001 % (1 << 49))
            .collect();
        for bytes in [4096, 6400, 100_000] {
            assert!(no_alias(&Table::new(bytes), &keys) > 0);
        }
    }

    #[test]
    fn any_size_is_used_in_full_and_keys_sharing_stored_bits_stay_apart() {
        // 200 buckets: not a power of two, every byte asked for is used
        let t = Table::new(200 * 32);
        assert_eq!(t.bytes(), 200 * 32);
        assert_eq!(t.index_bits(), 7);
        // mixed keys that agree in every stored bit and differ above them: the
        // inverse of the mixing constant turns each back into its position key
        let mask = (1u64 << KEY_BITS) - 1;
        let mut inv = MIX; // Newton's iteration for the inverse modulo 2^64
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(MIX.wrapping_mul(inv)));
        }
        let rem_bits = KEY_BITS - t.index_bits();
        let keys: Vec<u64> = (0..128u64)
            .map(|j| ((j << rem_bits) | 0x2A_5A5A).wrapping_mul(inv) & mask)
            .collect();
        assert_eq!(
            no_alias(&t, &keys),
            keys.len(),
            "each lands in its own bucket"
        );
    }
}
