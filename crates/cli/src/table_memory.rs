//! Whether the machine has the memory that a solver's transposition tables ask for.
//!
//! A table is written in full as it is made, so every page of it is used at once: a
//! table larger than the memory free now is not refused by the system (Linux promises
//! memory it does not have), and the process is killed without a word while it is
//! made. The memory free is read from `/proc/meminfo` by hand: two lines of a text
//! file do not call for a system-information crate.

use anyhow::{bail, Result};

/// Checks, before any work starts, that `copies` tables of `bytes` each can be had:
/// no more than the memory available now (on Linux), and a reservation the system
/// grants (dropped at once, touching no page). A `--table-mb` past either is an error
/// that says so, not a kill or an abort while the table is made.
pub fn ensure_table_memory(bytes: usize, copies: usize) -> Result<()> {
    let copies = copies.max(1);
    let total = bytes.saturating_mul(copies);
    let asked = format!(
        "{} MiB of memory for transposition tables ({copies} x {} MiB)",
        total >> 20,
        bytes >> 20
    );
    if let Some(free) = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| available(&text))
    {
        if total as u64 > free {
            bail!(
                "{asked} is more than this machine has available now ({} MiB, MemAvailable in /proc/meminfo); pass a smaller --table-mb",
                free >> 20
            );
        }
    }
    let mut probe: Vec<u8> = Vec::new();
    if probe.try_reserve_exact(total).is_err() {
        bail!("cannot reserve {asked}; pass a smaller --table-mb");
    }
    Ok(())
}

/// The bytes of memory available for new work, from the text of `/proc/meminfo` (its
/// `MemAvailable` line, in kB); None without one.
fn available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let mut words = line.split_whitespace().skip(1);
    let kb: u64 = words.next()?.parse().ok()?;
    (words.next() == Some("kB")).then_some(kb.saturating_mul(1024))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memory_available_is_read_from_meminfo() {
        let text = "MemTotal:       24576000 kB\nMemFree:         1000000 kB\nMemAvailable:   20480000 kB\n";
        assert_eq!(available(text), Some(20_480_000 * 1024));
        assert_eq!(available("MemTotal: 5 kB\n"), None);
        assert_eq!(available("MemAvailable: lots\n"), None);
    }
}
