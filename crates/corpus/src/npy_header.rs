//! A `.npy` member's header, held to what `numpy.load` accepts before npyz reads it.
//!
//! npyz sizes its buffer for the header text from the file's length field (a damaged
//! field asked for 4 GiB), and reads the header more loosely than numpy does (an extra
//! key, a list for the shape, a header past numpy's length limit all passed): a sidecar
//! the gate passes must load in numpy too, so the preamble and the header's dictionary
//! are read here, as `numpy.lib.format` reads them, and npyz is handed the header only
//! once it passes.

use std::io::{self, Cursor, Read};

use npyz::NpyHeader;
use py_literal::Value;

/// The longest header `numpy.load` reads (`numpy.lib.format`'s default
/// `max_header_size`); a longer one it refuses.
pub(crate) const MAX_HEADER_TEXT: usize = 10_000;

/// Why a header was not read.
#[derive(Debug)]
pub(crate) enum HeaderError {
    /// Reading the member failed (a damaged member's error comes this way).
    Io(io::Error),
    /// The member ends inside its header.
    Short,
    /// A header `numpy.load` would refuse, or one this reader cannot use: why.
    Refused(String),
}

impl From<io::Error> for HeaderError {
    fn from(e: io::Error) -> HeaderError {
        match e.kind() {
            io::ErrorKind::UnexpectedEof => HeaderError::Short,
            _ => HeaderError::Io(e),
        }
    }
}

/// The first at most 60 characters of `text`, for a message (a damaged header can be
/// 10,000 characters of one line).
fn excerpt(text: &str) -> String {
    let mut cut: String = text.chars().take(60).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    format!("{cut:?}")
}

/// A value as Python writes it, a string without its quotes (one the writer cannot
/// form, as Rust sees it).
fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other
            .format_ascii()
            .unwrap_or_else(|_| format!("{other:?}")),
    }
}

/// Reads a header from `r`, leaving it at the first byte of the data: the header, and
/// its length in bytes from the magic string to the end of its text.
pub(crate) fn read(r: &mut impl Read) -> Result<(NpyHeader, u64), HeaderError> {
    let refused = |why: String| Err(HeaderError::Refused(why));
    let mut start = [0u8; 8];
    r.read_exact(&mut start)?;
    if start[..6] != *b"\x93NUMPY" {
        return refused(
            "it does not start as a .npy array does (\\x93NUMPY); write the sidecar again".into(),
        );
    }
    let (major, minor) = (start[6], start[7]);
    let mut bytes = start.to_vec();
    let length = match (major, minor) {
        (1, 0) => {
            let mut n = [0u8; 2];
            r.read_exact(&mut n)?;
            bytes.extend_from_slice(&n);
            u16::from_le_bytes(n) as usize
        }
        (2, 0) | (3, 0) => {
            let mut n = [0u8; 4];
            r.read_exact(&mut n)?;
            bytes.extend_from_slice(&n);
            u32::from_le_bytes(n) as usize
        }
        _ => {
            return refused(format!(
                ".npy format version {major}.{minor}; numpy reads 1.0, 2.0 and 3.0: write the sidecar again"
            ))
        }
    };
    if length > MAX_HEADER_TEXT {
        return refused(format!(
            "its header claims {length} bytes, past numpy.load's limit of {MAX_HEADER_TEXT} (numpy would refuse it): write the sidecar again"
        ));
    }
    let mut text = vec![0u8; length];
    r.read_exact(&mut text)?;
    bytes.extend_from_slice(&text);
    // versions 1 and 2 are latin-1, 3 is UTF-8 (as numpy decodes them)
    let text = if major == 3 {
        match String::from_utf8(text) {
            Ok(t) => t,
            Err(_) => return refused("its version 3.0 header is not UTF-8".into()),
        }
    } else {
        text.iter().map(|&b| char::from(b)).collect()
    };
    check_dictionary(&text)?;
    let header = NpyHeader::from_reader(Cursor::new(&bytes)).map_err(|e| {
        HeaderError::Refused(format!(
            "its header {} is not one this reader takes ({e}); numpy.save writes an explicit byte order, as in '<f4'",
            excerpt(&text)
        ))
    })?;
    Ok((header, bytes.len() as u64))
}

/// The deepest a header's brackets may nest: an array's header is a dictionary holding
/// the shape's tuple (2), and a structured dtype's list of tuples, which this reader
/// refuses later, reaches 3.
const MAX_NESTING: usize = 3;

/// How deep the brackets of `text` nest, outside its quoted strings.
fn nesting(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut quote, mut escaped) = (None, false);
    for ch in text.chars() {
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if ch == '\\' => escaped = true,
            Some(q) if ch == q => quote = None,
            Some(_) => {}
            None => match ch {
                '\'' | '"' => quote = Some(ch),
                '(' | '[' | '{' => {
                    depth += 1;
                    deepest = deepest.max(depth);
                }
                ')' | ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            },
        }
    }
    deepest
}

/// Holds the header text to numpy's reading: one dictionary of exactly `descr`,
/// `fortran_order` and `shape`, the shape a tuple of integers.
fn check_dictionary(text: &str) -> Result<(), HeaderError> {
    let refused = |why: String| Err(HeaderError::Refused(why));
    let literal = text.strip_suffix('\n').unwrap_or(text);
    // the literal parser backtracks: its time doubles with each level of nesting (25
    // levels of brackets took over a minute), so a deeper header is refused unparsed
    let deepest = nesting(literal);
    if deepest > MAX_NESTING {
        return refused(format!(
            "its header {} nests brackets {deepest} deep, where an array's header is a dictionary holding the shape's tuple (2 deep): write the sidecar again",
            excerpt(text)
        ));
    }
    let Ok(Value::Dict(entries)) = literal.parse::<Value>() else {
        return refused(format!(
            "its header {} is no Python dictionary (numpy.load reads one): write the sidecar again",
            excerpt(text)
        ));
    };
    let mut keys: Vec<String> = entries.iter().map(|(k, _)| shown(k)).collect();
    keys.sort();
    if keys != ["descr", "fortran_order", "shape"] {
        return refused(format!(
            "its header's keys are {keys:?}, where numpy.load takes exactly descr, fortran_order and shape: write the sidecar again"
        ));
    }
    for (key, value) in &entries {
        let why = match key {
            Value::String(k)
                if k == "shape"
                    && !matches!(value, Value::Tuple(dims) if dims.iter().all(|d| matches!(d, Value::Integer(_)))) =>
            {
                "a shape is a tuple of integers"
            }
            Value::String(k) if k == "fortran_order" && !matches!(value, Value::Boolean(_)) => {
                "fortran_order is True or False"
            }
            _ => continue,
        };
        return refused(format!(
            "its header's {} is {}, which numpy.load refuses ({why}): write the sidecar again",
            shown(key),
            excerpt(&shown(value))
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A version 1.0 member's header for `dict` (padded as numpy pads it), then `data`.
    fn member(dict: &str, data: &[u8]) -> Vec<u8> {
        let mut text = dict.to_string();
        while !(10 + text.len() + 1).is_multiple_of(64) {
            text.push(' ');
        }
        text.push('\n');
        let mut m = b"\x93NUMPY\x01\x00".to_vec();
        m.extend_from_slice(&(text.len() as u16).to_le_bytes());
        m.extend_from_slice(text.as_bytes());
        m.extend_from_slice(data);
        m
    }

    fn refusal(bytes: &[u8]) -> String {
        match read(&mut &bytes[..]) {
            Err(HeaderError::Refused(why)) => why,
            Err(e) => panic!("not refused: {e:?}"),
            Ok((h, _)) => panic!("not refused: read as shape {:?}", h.shape()),
        }
    }

    #[test]
    fn a_header_numpy_writes_is_read_up_to_the_data() {
        let m = member(
            "{'descr': '<i2', 'fortran_order': False, 'shape': (3,), }",
            b"abcdef",
        );
        let mut r = &m[..];
        let (h, len) = read(&mut r).unwrap();
        assert_eq!(h.shape(), [3]);
        assert_eq!(len, 128, "the preamble, the dictionary and its padding");
        assert_eq!(r, b"abcdef", "left at the data");
    }

    #[test]
    fn headers_numpy_refuses_are_refused() {
        let shape = "a shape is a tuple of integers";
        let keys = "exactly descr, fortran_order and shape";
        for (dict, said) in [
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 7), 'extra': 1}",
                keys,
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': [2, 7]}",
                shape,
            ),
            (
                "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}",
                "fortran_order is True or False",
            ),
            // (an infinite float as the shape, and as a key)
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': 1e999}",
                shape,
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 1e999: (2,)}",
                keys,
            ),
            (
                "{'descr': 'f4', 'fortran_order': False, 'shape': (2,)}",
                "explicit byte order",
            ),
        ] {
            let why = refusal(&member(dict, &[]));
            assert!(why.contains(said), "{dict}: {why}");
        }
    }

    #[test]
    fn a_length_past_numpys_limit_is_refused_before_it_is_read() {
        // (npyz allocated what the field claimed: 4 GiB here)
        let mut m = b"\x93NUMPY\x02\x00".to_vec();
        m.extend_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
        assert!(refusal(&m).contains("claims 4294967280 bytes, past numpy.load's limit"));
        let long = member(
            &format!(
                "{{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }}{}",
                " ".repeat(10_000)
            ),
            &[],
        );
        assert!(refusal(&long).contains("past numpy.load's limit of 10000"));
    }

    #[test]
    fn a_deeply_nested_header_is_refused_without_parsing_it() {
        // (a shape nested so took the literal parser 17 s, each level doubling it)
        for dict in [
            format!("{}{}", "[".repeat(22), "]".repeat(22)),
            format!(
                "{{'descr': '<f4', 'fortran_order': False, 'shape': {}2{}}}",
                "[".repeat(21),
                "]".repeat(21)
            ),
        ] {
            let why = refusal(&member(&dict, &[]));
            assert!(why.contains("nests brackets 22 deep"), "{why}");
        }
        // brackets inside a string are text, not nesting
        assert_eq!(nesting("{'descr': '<f4[[[[(', 'x': \"]\\\"((((\"}"), 1);
        // and the headers numpy writes pass
        assert_eq!(
            nesting("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 7), }"),
            2
        );
    }

    #[test]
    fn a_long_damaged_header_is_quoted_in_part() {
        let nested = format!("{}{}", "[".repeat(9_000), "]".repeat(900));
        let why = refusal(&member(&nested, &[]));
        assert!(why.len() < 300, "{} characters", why.len());
        assert!(matches!(
            read(&mut &b"\x93NUMPY\x01"[..]),
            Err(HeaderError::Short)
        ));
    }
}
