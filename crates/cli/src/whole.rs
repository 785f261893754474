//! Parsers for whole-number options that say what the option takes. Clap's own integer
//! parser passes on Rust's words ("invalid digit found in string" for `-1`, "number too
//! large to fit in target type"), which name neither the range nor the fix.

/// `text` as a whole number from `lo` to `hi`, or what the option takes.
fn within(text: &str, lo: u64, hi: u64) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(format!("expected a whole number from {lo} to {hi}")),
    }
}

/// A whole number from `lo` to `hi` as a `T` (which holds `hi`), or what the option
/// takes.
pub fn range<T: TryFrom<u64>>(
    lo: u64,
    hi: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |text| {
        let told = || format!("expected a whole number from {lo} to {hi}");
        within(text, lo, hi).and_then(|n| T::try_from(n).map_err(|_| told()))
    }
}

/// Any whole number a `u64` holds (a seed, a budget where 0 has a meaning).
pub fn any_u64(text: &str) -> Result<u64, String> {
    within(text, 0, u64::MAX)
}

/// Any whole number a `u32` holds.
pub fn any_u32(text: &str) -> Result<u32, String> {
    within(text, 0, u32::MAX.into()).map(|n| n as u32)
}

/// Any whole number a `usize` holds.
pub fn any_usize(text: &str) -> Result<usize, String> {
    within(text, 0, usize::MAX as u64).map(|n| n as usize)
}

/// A ply of a game: 0 to 41 (a game has at most 42 plies). A larger number is let
/// through to the option's own check, which says what it would mean there.
pub fn plies(text: &str) -> Result<u32, String> {
    within(text, 0, u32::MAX.into())
        .map(|n| n as u32)
        .map_err(|_| "expected a ply from 0 to 41 (a game has at most 42 plies)".into())
}

/// The model's table index width: 16 to 20 bits.
pub fn index_bits(text: &str) -> Result<u32, String> {
    use c4lab_model::features::{DEFAULT_INDEX_BITS, MAX_INDEX_BITS};
    within(text, DEFAULT_INDEX_BITS.into(), MAX_INDEX_BITS.into()).map(|n| n as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_out_of_range_or_not_a_number_is_told_the_range() {
        assert_eq!(any_u64("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(plies("41"), Ok(41));
        assert_eq!(
            plies("-1"),
            Err("expected a ply from 0 to 41 (a game has at most 42 plies)".into())
        );
        assert_eq!(index_bits("20"), Ok(20));
        for bad in ["-1", "", "1_000", "10s", "18446744073709551616"] {
            assert_eq!(
                any_u64(bad),
                Err("expected a whole number from 0 to 18446744073709551615".into()),
                "{bad:?}"
            );
        }
        // (past 41 the option's own check says what it would mean)
        assert_eq!(plies("42"), Ok(42));
        assert_eq!(
            index_bits("-1"),
            Err("expected a whole number from 16 to 20".into())
        );
        assert_eq!(
            range::<u8>(1, 10)("0"),
            Err("expected a whole number from 1 to 10".into())
        );
        assert_eq!(range::<u8>(1, 10)("10"), Ok(10));
        assert_eq!(
            any_u32("4294967296"),
            Err("expected a whole number from 0 to 4294967295".into())
        );
    }
}
