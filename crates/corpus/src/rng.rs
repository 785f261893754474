//! A small seeded random stream (SplitMix64): every game draws from its own stream,
//! derived from (seed, stream, game index), so results never depend on scheduling.
//! Written out rather than taken from a crate so that the sequence, which a corpus's
//! reproducibility (and its checksums) rests on, is fixed by this file, not by a
//! dependency's version.

/// A SplitMix64 generator.
#[derive(Debug, Clone)]
pub struct Rng(u64);

/// SplitMix64's output function: a bijective 64-bit mixer.
#[inline]
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator seeded directly.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The generator's state, to save a stream and continue it with [`Rng::from_state`].
    pub fn state(&self) -> u64 {
        self.0
    }

    /// A generator continuing from a saved [`Rng::state`].
    pub fn from_state(state: u64) -> Rng {
        Rng(state)
    }

    /// The generator of game `index` in stream `stream` (0 train, 1 holdout) of `seed`.
    pub fn for_game(seed: u64, stream: u64, index: u64) -> Rng {
        Rng(
            mix(mix(seed ^ 0x6334_6C61_6221) ^ mix(stream.wrapping_add(0x5EED)))
                ^ mix(index.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        )
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// A uniform integer in `0..n` (`n > 0`).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// True with probability `p`.
    #[inline]
    pub fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && ((self.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < p
    }

    /// A uniformly chosen set bit of `mask` (bit index), `None` when it is 0.
    pub fn pick_bit(&mut self, mask: u8) -> Option<usize> {
        let k = mask.count_ones() as u64;
        if k == 0 {
            return None;
        }
        let mut skip = self.below(k);
        (0..8).find(|&x| {
            if mask & (1 << x) == 0 {
                return false;
            }
            if skip == 0 {
                return true;
            }
            skip -= 1;
            false
        })
    }
}
