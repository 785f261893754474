//! Reading a diagram in whichever form it comes: a level grid, an old seven-marker
//! grid, upstream's JSON, the 42 cells on one line, or a share link. The command line
//! and the Lab's Import both read through [`read_any`], so they tell the forms apart
//! alike.

use std::borrow::Cow;

use c4lab_board::{unified_lines, CELLS, WIDTH};
use thiserror::Error;

use crate::link::{self, LinkError, Shared};
use crate::{Diagram, DiagramError, Language, ParsedDiagram};

/// A diagram as read.
#[derive(Debug, Clone)]
pub enum Read {
    /// A share link: the diagram and the Yellow line it carries.
    Link(Shared),
    /// A grid (either language) or upstream's JSON.
    Grid(ParsedDiagram),
    /// A grid's 42 cells on one line (either language).
    Line(ParsedDiagram),
}

impl Read {
    /// The form it came in, for messages: "share link", "level grid", ...
    pub fn form(&self) -> &'static str {
        match self {
            Read::Link(_) => "share link",
            Read::Grid(p) => match (p.json, p.language) {
                (true, Language::Legacy) => "upstream JSON (old seven-marker language)",
                (true, Language::Levels) => "upstream JSON",
                (false, Language::Legacy) => "old seven-marker grid",
                (false, Language::Levels) => "level grid",
            },
            Read::Line(p) => match p.language {
                Language::Legacy => "old seven-marker grid on one line",
                Language::Levels => "42 cells on one line",
            },
        }
    }

    /// The diagram read.
    pub fn diagram(&self) -> &Diagram {
        match self {
            Read::Link(s) => &s.diagram,
            Read::Grid(p) | Read::Line(p) => &p.diagram,
        }
    }
}

/// Where the percent escapes of `t` decode to no UTF-8 text: the escape (`%FF`) that
/// starts the bad sequence and its 1-based byte in `t`.
fn non_text_escape(t: &str) -> LinkError {
    let b = t.as_bytes();
    let hex = |i: usize| {
        let h = b.get(i + 1..i + 3)?;
        u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
    };
    // the decoded bytes, each with where it was written
    let (mut bytes, mut from) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < b.len() {
        match (b[i], hex(i)) {
            (b'%', Some(v)) => {
                bytes.push(v);
                from.push(i..i + 3);
                i += 3;
            }
            (c, _) => {
                bytes.push(c);
                from.push(i..i + 1);
                i += 1;
            }
        }
    }
    let bad = std::str::from_utf8(&bytes)
        .err()
        .map_or(0, |e| e.valid_up_to());
    let span = from.get(bad).cloned().unwrap_or(0..0);
    LinkError::Escape {
        escape: t.get(span.clone()).unwrap_or("%").to_string(),
        byte: span.start + 1,
    }
}

/// Why text could not be read as any form.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReadError {
    /// It looks like a share link and is not a good one.
    #[error("bad share link: {0}")]
    Link(#[from] LinkError),
    /// It is not a grid or upstream's JSON.
    #[error("not a diagram: {0}")]
    Diagram(#[from] DiagramError),
}

/// Reads `text` in any form (a link may be percent-encoded). One line that starts with a version number and a dot (or
/// holds a `#`, as an address does) is a share link; but 42 cells on one line that are
/// no good link are read as a grid when they are one (an old grid may start `1.`).
/// Any line ending and a leading byte-order mark read alike.
pub fn read_any(text: &str) -> Result<Read, ReadError> {
    let text = unified_lines(text);
    // comment and blank lines around one line leave that line (a link, say) alone; a
    // link fragment (`#1.4453`...: digits, then a dot and the link, or nothing, as in a
    // link cut short) is no comment; `#1 my root` and `#1. my first root` are
    let is_comment = |l: &str| {
        l.strip_prefix('#').is_some_and(|rest| {
            let after = rest.trim_start_matches(|c: char| c.is_ascii_digit());
            let link = after.is_empty()
                || (after.strip_prefix('.'))
                    .is_some_and(|link| !link.starts_with(char::is_whitespace));
            !(after.len() < rest.len() && link)
        })
    };
    let mut lines = (text.lines().map(str::trim)).filter(|l| !l.is_empty() && !is_comment(l));
    let t = match (lines.next(), lines.next()) {
        (Some(line), None) => line,
        _ => text.trim(),
    };
    // a link copied from an address bar or a mail may be percent-encoded (`%3F` for
    // `?`); no grid form holds a `%`
    let one_line = !t.contains('\n');
    let decoded;
    let t = if one_line && t.contains('%') {
        // (a `%FF` was read as U+FFFD, named as '�' where a column was expected)
        decoded = percent_encoding::percent_decode_str(t)
            .decode_utf8()
            .map_err(|_| non_text_escape(t))?;
        // an encoded line break (`%0A`) copied along with the address is no part of it
        decoded.trim()
    } else {
        t
    };
    let version_dot = t
        .find(|c: char| !c.is_ascii_digit())
        .is_some_and(|i| i > 0 && t[i..].starts_with('.'));
    // a grid's comment line alone is no link: it reads as a grid, which then says it has
    // no rows, where a link fragment (`#1.`...) is a link
    let comment = is_comment(t);
    if one_line && !comment && (version_dot || t.contains('#') || t.contains("://")) {
        return match link::decode(t) {
            Ok(shared) => Ok(Read::Link(shared)),
            Err(e) if t.contains('#') || t.contains("://") => Err(e.into()),
            // the link's error, should the line not read as 42 cells either (counted as
            // `unflattened` counts them: an old line's edge spaces are cells)
            Err(e) => match unflattened(&text) {
                Cow::Owned(rows) => Diagram::parse(&rows).map(Read::Line).map_err(|_| e.into()),
                Cow::Borrowed(_) => Err(e.into()),
            },
        };
    }
    let rows = unflattened(&text);
    let parsed = Diagram::parse(&rows)?;
    Ok(match rows {
        Cow::Owned(_) => Read::Line(parsed),
        Cow::Borrowed(_) => Read::Grid(parsed),
    })
}

/// Reads a grid, or its 42 cells on one line (no share link): the form the Lab's engine
/// passes a diagram in.
pub fn read_grid(text: &str) -> Result<Diagram, DiagramError> {
    Diagram::parse(&unflattened(text)).map(|p| p.diagram)
}

/// `text` as rows: 42 cells on one line are cut into six rows of seven (the form the
/// Lab's engine passes a diagram in); any other text is left as it is.
pub fn unflattened(text: &str) -> Cow<'_, str> {
    // the one line besides comments and blank lines, as a grid's rows are read
    let mut lines = (text.lines())
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let (Some(line), None) = (lines.next(), lines.next()) else {
        return Cow::Borrowed(text);
    };
    // a space is a cell of the old language (claimeven), so in a line of that language
    // (one holding another of its markers) one at either end counts; spaces around a
    // level line's cells do not
    let old = line.contains(|c: char| c != ' ' && crate::legacy::is_marker(c));
    let t = if old { line } else { line.trim() };
    if t.chars().count() != CELLS {
        return Cow::Borrowed(text);
    }
    let cells: Vec<char> = t.chars().collect();
    let rows: Vec<String> = cells.chunks(WIDTH).map(|r| r.iter().collect()).collect();
    Cow::Owned(rows.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const WIN: &str = "9909999\n99R9999\n09Y9999\nYRY9R65\nYYYRR79\nRRRYYRY\n";

    #[test]
    fn a_percent_escape_of_no_text_is_named_as_written() {
        // it decoded to U+FFFD and was named as '�' where a column was expected
        let e = read_any("1.-.*Z9*L9.%FF").unwrap_err().to_string();
        assert!(
            e.contains("the link's %FF (byte 12) decodes to no text character"),
            "{e}"
        );
        // a two-byte character's first half followed by no second half: the escape
        // that breaks it
        let e = read_any("1.-.*Z9*L9.%C3%28").unwrap_err().to_string();
        assert!(e.contains("the link's %C3 (byte 12)"), "{e}");
        // a whole character decodes, and is then named as the character it is
        let e = read_any("1.-.*Z9*L9.%C3%A9").unwrap_err().to_string();
        assert!(e.contains("'é' is not a column"), "{e}");
    }

    #[test]
    fn every_form_line_ending_and_the_one_line_grid_read_alike() {
        let want = Diagram::parse(WIN).unwrap().diagram;
        let commented = format!("# a comment\n{WIN}");
        for text in [
            commented.replace('\n', "\r"),
            commented.replace('\n', "\r\n"),
            format!("\u{feff}{WIN}"),
            // an indented comment is a comment too (it was counted as a seventh row)
            format!("  # indented\n{WIN}"),
        ] {
            let read = read_any(&text).unwrap();
            assert_eq!(read.form(), "level grid", "{text:?}");
            assert_eq!(read.diagram(), &want, "{text:?}");
        }
        // the 42 cells on one line are named as that form
        let read = read_any(&WIN.replace('\n', "")).unwrap();
        assert_eq!(read.form(), "42 cells on one line");
        assert_eq!(read.diagram(), &want);
        // an old grid of 42 cells on one line that starts like a link (`1.`)
        let old = "1......\n2......\n1......\n2......\n1......\n212....\n";
        let read = read_any(&old.replace('\n', "")).unwrap();
        assert_eq!(read.form(), "old seven-marker grid on one line");
        // a link reads as a link, with or without the address before it, and
        // percent-encoded as a mail may carry it
        let link = link::encode(&want, &[]).unwrap();
        let encoded = link.replace('*', "%2A");
        assert_ne!(encoded, link);
        for text in [
            link.clone(),
            format!("http://127.0.0.1:8765/#{link}"),
            // a line break copied along, encoded (it was read as a one-row grid)
            format!("{encoded}%0A"),
            format!("{link}%0D%0A"),
            encoded,
        ] {
            let read = read_any(&text).unwrap();
            assert_eq!(read.form(), "share link", "{text}");
            assert_eq!(read.diagram(), &want);
        }
    }

    #[test]
    fn a_bad_link_says_so_even_when_it_is_42_characters_long() {
        let e = read_any("2.12345678901234567890123456789012345678.9").unwrap_err();
        assert!(matches!(e, ReadError::Link(LinkError::Version(_))), "{e}");
        let e = read_any("99999999999999999999.-.*Z9*L9").unwrap_err();
        assert!(e.to_string().contains("version"), "{e}");
        let e = read_any("not a diagram\n").unwrap_err();
        assert!(matches!(e, ReadError::Diagram(_)), "{e}");
        // a one-line grid a cell short or long says how many it has
        let short = &WIN.replace('\n', "")[1..];
        let e = read_any(short).unwrap_err();
        assert!(
            e.to_string()
                .contains("42 cells on one line: this line has 41"),
            "{e}"
        );
        // an old-language line whose first and last cells are spaces (claimeven) reads
        // as the six rows do (its edge spaces were trimmed: "this line has 42")
        let old = "       \n  .-   \n  |@|  \n +=!=+ \n.-.-.-.\n|@|@|@|\n";
        let six = read_any(old).unwrap();
        let line = read_any(&old.replace('\n', "")).unwrap();
        assert_eq!(line.form(), "old seven-marker grid on one line");
        assert_eq!(line.diagram(), six.diagram());
        // one starting, once its spaces are trimmed, as a link does (`1.`: a stone, then
        // an empty cell of the old language) reads so too
        let linkish = "       \n      1\n.-.-.-.\n|@|@|@|\n.-.-.-.\n|@|@|@|\n";
        let line = read_any(&linkish.replace('\n', "")).unwrap();
        assert_eq!(line.diagram(), read_any(linkish).unwrap().diagram());
        // a level line of 41 cells and an edge space still says it has 41 (the space is
        // no old-language cell of it)
        let e = read_any(&format!(" {short}")).unwrap_err().to_string();
        assert!(e.contains("this line has 41"), "{e}");
        // so are they around a share link
        let link = link::encode(&read_any(WIN).unwrap().diagram().clone(), &[]).unwrap();
        let commented = read_any(&format!("# shared by a colleague\n\n{link}\n")).unwrap();
        assert_eq!(commented.form(), "share link");
        // comment and blank lines around the one line are skipped, as around six rows
        // (it was read as a grid of one row: "this line has 42 cells and 0 spaces")
        let flat = WIN.replace('\n', "");
        let commented = read_any(&format!("# a root\n\n{flat}\n  # more\n")).unwrap();
        assert_eq!(commented.diagram(), read_any(WIN).unwrap().diagram());
        let old_line = old.replace('\n', "");
        let commented = read_any(&format!("# the old form\n   \n{old_line}\n")).unwrap();
        assert_eq!(commented.diagram(), six.diagram());
        // an old line a cell short is counted with its edge spaces (it said 36 for 41)
        let e = read_any(&old_line[1..]).unwrap_err().to_string();
        assert!(e.contains("this line has 41"), "{e}");
        // an old grid whose spaces an editor stripped at the ends of its rows is told to
        // restore them, not to remove more ("it starts or ends with a space: remove it")
        let stripped: String = old.lines().map(|l| format!("{}\n", l.trim_end())).collect();
        let e = read_any(&stripped).unwrap_err().to_string();
        assert!(
            e.contains("a row of seven spaces is a row of claimeven cells"),
            "{e}"
        );
        let stripped = stripped.replacen('\n', "       \n", 1);
        let e = read_any(&stripped).unwrap_err().to_string();
        assert!(
            e.contains("row 2 has 4 cells (a space is a claimeven cell"),
            "{e}"
        );
        // spaces between the cells are named as such (they were counted as cells)
        let rows: Vec<&str> = WIN.lines().filter(|l| l.len() == 7).collect();
        let spaced = rows.join(" ");
        let e = read_any(&spaced).unwrap_err().to_string();
        assert!(e.contains("42 cells and 5 spaces or tabs"), "{e}");
        let spaced: String = WIN
            .lines()
            .map(|l| {
                l.chars()
                    .map(|c| format!("{c} "))
                    .collect::<String>()
                    .trim_end()
                    .to_string()
                    + "\n"
            })
            .collect();
        let e = read_any(&spaced).unwrap_err().to_string();
        assert!(
            e.contains("row 1 has 13 cells (it holds spaces between its seven cells"),
            "{e}"
        );
    }

    #[test]
    fn a_comment_alone_is_an_empty_grid_and_a_fragment_alone_a_link() {
        for text in ["# my root\n\n", "#", "#\n", "# 1.44\n"] {
            let e = read_any(text).unwrap_err();
            assert!(matches!(e, ReadError::Diagram(_)), "{text:?}: {e}");
        }
        let want = Diagram::parse(WIN).unwrap().diagram;
        let link = link::encode(&want, &[]).unwrap();
        let read = read_any(&format!("#{link}")).unwrap();
        assert_eq!(read.form(), "share link");
        assert_eq!(read.diagram(), &want);
        // a comment that starts with a digit is a comment all the same: the link after it
        // is read (`#1 my favourite` was taken for a fragment, and both lines for a grid)
        for comment in [
            "#1 my favourite",
            "#2024-05-01 from the lab",
            "#1. my first root",
        ] {
            let read = read_any(&format!("{comment}\n{link}\n")).unwrap();
            assert_eq!(read.form(), "share link", "{comment}");
            assert_eq!(read.diagram(), &want, "{comment}");
        }
        // a fragment cut short after its digits is a link, refused as one (the Lab's
        // address bar may hold one)
        for cut in ["#1", "#12", "#1."] {
            let e = read_any(cut).unwrap_err();
            assert!(matches!(e, ReadError::Link(_)), "{cut}: {e}");
        }
        // nor do comments hide upstream's JSON (it was read as a grid of one long row)
        let json = serde_json::to_string(&WIN.lines().collect::<Vec<_>>()).unwrap();
        for text in [
            format!("# from upstream\n{json}\n"),
            format!("{json}\n# after\n"),
        ] {
            let read = read_any(&text).unwrap();
            assert_eq!(read.diagram(), &want, "{text}");
        }
        // an empty input, or comments alone, is no "0 diagrams"
        for empty in ["", "# my root\n", "\n\n"] {
            let e = read_any(empty).unwrap_err().to_string();
            assert!(e.ends_with("found 0 rows"), "{empty:?}: {e}");
        }
        // a JSON error's line is the input's, comments counted
        let e = Diagram::parse("# one\n# two\n[\"9999999\",]")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 3"), "{e}");
        // two grids in one file are named as such (it said only "found 12 rows")
        let e = read_any(&format!("{WIN}\n{WIN}")).unwrap_err().to_string();
        assert!(
            e.contains(
                "found 12 rows (that is 2 diagrams of six rows: give one diagram at a time)"
            ),
            "{e}"
        );
        // two JSON diagrams, and a link after an invisible character, are named so (it
        // said "trailing characters", and "this line has 36")
        let json = r#"["9909999","99R9999","09Y9999","YRY9R65","YYYRR79","RRRYYRY"]"#;
        let e = read_any(&format!("{json}\n{json}\n"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("(text after the array: give one diagram at a time)"),
            "{e}"
        );
        let e = read_any("\u{200b}1.655433534337221121.990*H90*D96579")
            .unwrap_err()
            .to_string();
        assert!(e.contains("(it holds an invisible character, a byte-order mark or a zero-width space: remove it)"), "{e}");
        // a title or an end mark around a grid is named (it said only "found 7 rows")
        let e = read_any(&format!("diagram:\n{WIN}end\n"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("found 8 rows (\"diagram:\", \"end\" are no rows of seven cells: remove them, or begin them with `#` to make a comment)"),
            "{e}"
        );
        // not a line among the six, which may be a row of the grid with a cell too many
        let rows: Vec<&str> = WIN.lines().collect();
        let e = read_any(&format!(
            "Level 1\n{}\n{}\n{}9\n{}\n",
            rows[..3].join("\n"),
            rows[3],
            rows[4],
            rows[5]
        ))
        .unwrap_err()
        .to_string();
        assert!(!e.contains("is no row"), "{e}");
        // an invisible character in a row is named (it said only "row 1 has 8 cells")
        let e = read_any(&format!("# header\n\u{feff}{WIN}"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("row 1 has 8 cells (it holds an invisible character"),
            "{e}"
        );
    }
}
