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

/// The value of `key` as a whole number; a missing key or a value that is not one is
/// refused naming the file, the line and the fix.
pub(crate) fn kv_number(text: &str, key: &str, path: &Path) -> Result<u64, CorpusError> {
    let found = text
        .lines()
        .enumerate()
        .filter_map(|(i, l)| l.split_once('=').map(|(k, v)| (i, k, v)))
        .find(|(_, k, _)| k.trim() == key);
    let Some((i, _, v)) = found else {
        return Err(CorpusError::Invalid(format!(
            "{}: no {key} line; the file was cut short or edited: generate the shard again",
            path.display()
        )));
    };
    v.trim().parse().map_err(|_| {
        CorpusError::Invalid(format!(
            "{}: line {}: {key} = {:?} is not a whole number; the file was edited: generate the shard again",
            path.display(),
            i + 1,
            v.trim()
        ))
    })
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
