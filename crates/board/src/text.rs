//! Text as the readers take it, whatever system saved it.

use std::borrow::Cow;

/// `text` without a leading byte-order mark and with every line ending (`\r\n`, or
/// `\r` alone as old Mac files and mixed files have) as `\n`: the readers of diagrams,
/// stones, positions to solve and upstream's files read through this, so a file saved
/// on any system reads alike.
pub fn unified_lines(text: &str) -> Cow<'_, str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.contains('\r') {
        Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(text)
    }
}

/// A character as an error message names it: quoted when it shows (`'x'`), else by its
/// code point and, for the usual invisible ones and the apostrophe, its name (`U+FEFF
/// (a byte-order mark)`), where Rust's `{:?}` would print an escape (`'\u{feff}'`) a
/// reader cannot search for.
pub fn char_shown(c: char) -> String {
    let name = match c {
        ' ' => Some("a space"),
        '\t' => Some("a tab"),
        '\u{feff}' => Some("a byte-order mark"),
        '\u{a0}' => Some("a no-break space"),
        '\u{200b}' => Some("a zero-width space"),
        // quoted, it would read `'''`
        '\'' => Some("an apostrophe"),
        _ => None,
    };
    // Debug escapes the characters that do not show on their own (controls, format
    // marks, unassigned ones, and the combining marks that attach to what precedes
    // them), and the backslash
    let escaped = c != '\\' && format!("{c:?}").starts_with("'\\");
    match name {
        Some(name) => format!("U+{:04X} ({name})", c as u32),
        None if escaped => format!("U+{:04X}", c as u32),
        None => format!("'{c}'"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_characters_are_named_by_code_point() {
        assert_eq!(char_shown('x'), "'x'");
        assert_eq!(char_shown('é'), "'é'");
        assert_eq!(char_shown('\''), "U+0027 (an apostrophe)");
        assert_eq!(char_shown('\\'), "'\\'");
        assert_eq!(char_shown('\u{301}'), "U+0301");
        assert_eq!(char_shown('\u{feff}'), "U+FEFF (a byte-order mark)");
        assert_eq!(char_shown('\t'), "U+0009 (a tab)");
        assert_eq!(char_shown('\u{7}'), "U+0007");
        assert_eq!(char_shown('\u{200e}'), "U+200E");
    }

    #[test]
    fn every_line_ending_and_a_byte_order_mark_read_alike() {
        let want = "a\nb\n\nc";
        for text in [
            "a\nb\n\nc",
            "a\r\nb\r\n\r\nc",
            "a\rb\r\rc",
            "a\r\nb\r\rc",
            "\u{feff}a\nb\n\nc",
        ] {
            assert_eq!(unified_lines(text), want, "{text:?}");
        }
        assert!(matches!(unified_lines("a\nb"), Cow::Borrowed(_)));
    }
}
