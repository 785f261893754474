//! A shard's `shard.txt`: `key = value` lines, the settings it was made with, its
//! games and its data files' checksums.

use std::path::Path;

use crate::error::CorpusError;

/// The value of `key` (its first line), trimmed.
pub(crate) fn kv_text<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .filter_map(|l| l.split_once('='))
        .find(|(k, _)| k.trim() == key)
        .map(|(_, v)| v.trim())
}

/// The value of `key` as a number.
pub(crate) fn kv(text: &str, key: &str) -> Option<u64> {
    kv_text(text, key).and_then(|v| v.parse().ok())
}

/// Refuses a key given twice: which value counts would be left to the reader, and
/// the file was edited after it was written.
pub(crate) fn keys_once(text: &str, path: &Path) -> Result<(), CorpusError> {
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some((k, _)) = line.split_once('=') else {
            continue;
        };
        let k = k.trim();
        if let Some((_, first)) = seen.iter().find(|(s, _)| *s == k) {
            return Err(CorpusError::Invalid(format!(
                "{}: {k} is given twice (lines {first} and {}); the file was edited: generate the shard again",
                path.display(),
                i + 1
            )));
        }
        seen.push((k, i + 1));
    }
    Ok(())
}
