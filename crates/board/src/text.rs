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

#[cfg(test)]
mod tests {
    use super::*;

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
