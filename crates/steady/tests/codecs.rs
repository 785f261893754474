//! Grid, JSON, old-language and share-link codecs: lossless round trips, and garbage
//! refused without a panic (or read as what it writes back as).

mod common;

use c4lab_board::{parse_moves, parse_stones, Position};
use c4lab_steady::play::Game;
use c4lab_steady::{link, solution, Cell, Diagram, Language};
use proptest::prelude::*;

/// Strategy: a diagram with any language cell (levels 0-13 and `?`) on a random root.
fn any_diagram() -> impl Strategy<Value = Diagram> {
    (
        common::root_and_levels(0, 30, 14),
        proptest::collection::vec(any::<bool>(), 42),
    )
        .prop_map(|(d, unknown)| {
            let mut d = d;
            for (i, u) in unknown.into_iter().enumerate() {
                let (x, y) = (i % 7, i / 7);
                // (the strategy's 14s are `?` already; some 13s become `?` too)
                if u && d.cell(x, y) == Cell::Level(13) {
                    d.set(x, y, Cell::Undecided);
                }
            }
            d
        })
}

/// Reads `s` with every parser: a refusal must say something, and whatever is taken
/// must write back to text that reads as the same (so garbage is never taken as
/// something else than it prints as).
fn read_back(s: &str) -> Result<(), TestCaseError> {
    let said = |e: &dyn std::fmt::Display| !e.to_string().trim().is_empty();
    match Diagram::parse(s) {
        Ok(p) => prop_assert_eq!(
            Diagram::parse(&p.diagram.to_grid()).unwrap().diagram,
            p.diagram
        ),
        Err(e) => prop_assert!(said(&e)),
    }
    match link::decode(s) {
        Ok(l) => {
            let back = link::decode(&link::encode(&l.diagram, &l.line).unwrap()).unwrap();
            prop_assert_eq!((back.diagram, back.line), (l.diagram, l.line));
        }
        Err(e) => prop_assert!(said(&e)),
    }
    match parse_moves(s) {
        Ok(m) => prop_assert_eq!(parse_moves(&c4lab_board::format_moves(&m)).unwrap(), m),
        Err(e) => prop_assert!(said(&e)),
    }
    match parse_stones(s) {
        Ok(g) => prop_assert_eq!(
            parse_stones(&g.position.to_grid()).unwrap().position,
            g.position
        ),
        Err(e) => prop_assert!(said(&e)),
    }
    Ok(())
}

/// Strategy: an old seven-marker grid on a random root (`.` never space).
fn old_grid() -> impl Strategy<Value = String> {
    (
        common::root_and_levels(0, 30, 0),
        proptest::collection::vec(0..7usize, 42),
    )
        .prop_map(|(d, marks)| {
            let mut s = String::new();
            for (i, c) in d.cells().iter().enumerate() {
                s.push(match c {
                    Cell::Red => '1',
                    Cell::Yellow => '2',
                    _ => ['!', '@', '.', '|', '+', '=', '-'][marks[i]],
                });
                if i % 7 == 6 {
                    s.push('\n');
                }
            }
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn grid_and_json_round_trip(d in any_diagram()) {
        let g = Diagram::parse(&d.to_grid()).unwrap();
        prop_assert_eq!(&g.diagram, &d);
        prop_assert_eq!(g.language, Language::Levels);
        let j = Diagram::parse(&d.to_json()).unwrap();
        prop_assert!(j.json);
        prop_assert_eq!(&j.diagram, &d);
    }

    #[test]
    fn old_language_round_trips(text in old_grid()) {
        let p = Diagram::parse(&text).unwrap();
        prop_assert_eq!(p.language, Language::Legacy);
        prop_assert_eq!(p.diagram.to_legacy().unwrap(), text.clone());
        // and the translation is the one the README's language section gives, cell by cell
        for (i, ch) in text.lines().flat_map(|l| l.chars()).enumerate() {
            let yt = i / 7;
            let want = match ch {
                '1' => Cell::Red, '2' => Cell::Yellow, '!' => Cell::Level(0), '@' => Cell::Level(1),
                '.' => Cell::Level(if yt % 2 == 0 { 2 } else { 9 }),
                '|' => Cell::Level(if yt % 2 == 1 { 2 } else { 9 }),
                '+' => Cell::Level(3), '=' => Cell::Level(4), _ => Cell::Level(5),
            };
            prop_assert_eq!(p.diagram.cells()[i], want);
        }
    }

    #[test]
    fn share_links_round_trip(d in any_diagram(), yellow in proptest::collection::vec(0..7u8, 0..6)) {
        // keep only a Yellow line that replays
        let mut line = vec![];
        if let Ok(mut g) = Game::new(&d) {
            for y in yellow {
                if g.yellow(y as usize).is_ok() {
                    line.push(y);
                }
            }
        }
        let text = link::encode(&d, &line).unwrap();
        prop_assert!(text.chars().all(|c| c.is_ascii_alphanumeric() || "._*-?".contains(c)), "{}", text);
        let back = link::decode(&format!("https://example.org/lab/#{text}")).unwrap();
        prop_assert_eq!(&back.diagram, &d);
        prop_assert_eq!(back.line, line);
        prop_assert_eq!(Position::from_moves(&c4lab_board::format_moves(&back.root)).unwrap(), d.root().unwrap().position);
    }

    #[test]
    fn parsers_refuse_garbage_without_panicking(s in ".{0,200}") {
        read_back(&s)?;
        let _ = solution::check_solution(&s, &s);
    }

    #[test]
    fn parsers_refuse_arbitrary_bytes_without_panicking(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let s = String::from_utf8_lossy(&bytes);
        read_back(&s)?;
        let _ = solution::check_solution(&s, &s);
        // six lines of seven arbitrary characters reach the cell-level checks
        let grid: String = s.chars().filter(|c| *c != '\n').take(42).collect::<Vec<_>>()
            .chunks(7).map(|r| r.iter().collect::<String>()).collect::<Vec<_>>().join("\n");
        read_back(&grid)?;
    }

    #[test]
    fn link_decoder_survives_near_misses(root in "[1-7]{0,12}", cells in "[0-9a-d?*A-Z]{0,60}", line in "[0-9]{0,5}") {
        let _ = link::decode(&format!("1.{root}.{cells}.{line}"));
        let _ = link::decode(&format!("1.{root}.{cells}"));
    }

    #[test]
    fn grid_parser_survives_grid_shaped_garbage(rows in proptest::collection::vec("[0-9a-dRY?!@|+=. 12xX-]{7}", 6)) {
        let text = rows.join("\n");
        if let Ok(p) = Diagram::parse(&text) {
            // whatever parsed must print back to something that parses to the same
            prop_assert_eq!(Diagram::parse(&p.diagram.to_grid()).unwrap().diagram, p.diagram);
        }
    }
}

#[test]
fn links_are_compact_and_errors_name_the_part() {
    let p = Position::from_moves("4453").unwrap();
    let d = Diagram::from_root(&p, |_, _| Cell::Level(9));
    let text = link::encode(&d, &[]).unwrap();
    assert!(text.starts_with("1.4453."), "{text}");
    assert!(
        text.len() < 16,
        "38 blank cells should pack into a few runs: {text}"
    );
    let e = |s: &str| link::decode(s).unwrap_err().to_string();
    assert!(e("2.44.9").contains("version"));
    assert!(e("1.448.9").contains("root"));
    assert!(e("1.4.9").contains("after its 1 move Yellow is to move"));
    // which rule the root breaks is named (it was one sentence for every case)
    assert!(
        e("1.1212121.9").contains("Red made four in a row with move 7"),
        "{}",
        e("1.1212121.9")
    );
    assert!(e("1.44.999").contains("the root leaves 40 empty cells but the link gives 3"));
    // too many cells are counted too (it said "gives more")
    assert!(e(&format!("1.44.{}", "9".repeat(41)))
        .contains("the root leaves 40 empty cells but the link gives 41"));
    assert!(e("1.44.<script>").contains("is not a level"));
    // the fault's place in the cells is named (a long link's stray character was not)
    assert!(
        e("1.-.*Z99999*H9x9")
            .contains("the link's cells: 'x' (character 11 of them) is not a level"),
        "{}",
        e("1.-.*Z99999*H9x9")
    );
    assert!(e("1.-.*Z9*L").contains("the run at character 4 ends early"));
    assert!(e("1.-.*Z9*l9").contains("the run at character 4: its length 'l' is not a letter A-Z"));
    assert!(e("#").contains("no diagram"));
    // an empty root part is no empty board (`-` is): a link cut short by hand was
    // read as the empty board's diagram; a trailing '.' (prose after a link) is no line
    assert!(
        e("1..*Z9*L9").contains("the link's root part is empty"),
        "{}",
        e("1..*Z9*L9")
    );
    assert!(link::decode("1.-.*Z9*L9.").unwrap().line.is_empty());
    // a root that already holds a four is refused by the encoder as by the decoder, so
    // no link is written that cannot be opened
    let won = Diagram::parse("9999999\n9999999\n9999999\n9999999\nR999999\nYYYYRRR\n")
        .unwrap()
        .diagram;
    let refused = link::encode(&won, &[]).unwrap_err().to_string();
    assert!(
        refused.contains("Yellow already has four in a row"),
        "{refused}"
    );
}

#[test]
fn the_link_format_is_pinned() {
    // links already shared must keep opening: the cells in grid order from the top
    // row, stones skipped, runs of 3 or more as `*` + count letter (A = 3) + character
    let p = Position::from_moves("4453").unwrap();
    let d = Diagram::from_root(&p, |x, y| match (x, y) {
        (x, 5) => Cell::Level(x as u8),
        (0, 0) => Cell::Level(1),
        _ => Cell::Level(9),
    });
    // Red plays column 1 (the only level 1), Yellow column 4
    assert_eq!(link::encode(&d, &[3]).unwrap(), "1.4453.0123456*Y91*A9.4");
    let back = link::decode("1.4453.0123456*Y91*A9.4").unwrap();
    assert_eq!(back.diagram, d);
    assert_eq!(back.line, vec![3]);
    // a Yellow line that does not replay is refused by the encoder, as by the decoder
    let refused = link::encode(&d, &[0; 7]).unwrap_err().to_string();
    assert!(refused.starts_with("the link's Yellow line:"), "{refused}");
    // a line past a stop at an undecided cell (a link made before play stopped there)
    // is cut at the stop, and the diagram opens (it was refused whole)
    let mut undecided = d.clone();
    undecided.set(0, 0, Cell::Undecided);
    let old = link::encode(&undecided, &[]).unwrap() + ".41";
    let back = link::decode(&old).unwrap();
    assert_eq!(
        (back.diagram, back.line, back.dropped),
        (undecided, vec![], 2)
    );
    assert_eq!(link::decode("1.4453.0123456*Y91*A9.4").unwrap().dropped, 0);
    // a full board has no Red move: no link carries it, either way
    let moves = "257771314744647214154617633623313656555222";
    let full = Diagram::from_root(&Position::from_moves(moves).unwrap(), |_, _| Cell::Level(9));
    let refused = link::encode(&full, &[]).unwrap_err().to_string();
    assert!(refused.contains("the stones fill the board"), "{refused}");
    let refused = link::decode(&format!("1.{moves}."))
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains(
            "is no root: the board is full; a root has Red to move, no four and a cell left"
        ),
        "{refused}"
    );
}

#[test]
fn old_grids_say_which_language_was_read() {
    let old = ".......\n.......\n.......\n.......\n.......\n.......\n";
    let p = Diagram::parse(old).unwrap();
    assert_eq!(p.language, Language::Legacy);
    assert_eq!(p.diagram.cell(0, 5), Cell::Level(2)); // top row: claimeven live
    assert_eq!(p.diagram.cell(0, 4), Cell::Level(9));
    let e = Diagram::parse(".......\n.......\n.......\n.......\n.......\n...7...\n").unwrap_err();
    assert!(
        e.to_string().contains("row 6 (from the top), column 4"),
        "{e}"
    );
    // (an old grid with one bad cell is told what the old language has, not to change
    // its markers)
    assert!(e.to_string().contains("old seven-marker language"), "{e}");
    // a character of neither language is named with the language the grid was read in
    let e = Diagram::parse(".......\n.......\n.......\n.......\n.......\n...x...\n").unwrap_err();
    assert!(
        e.to_string().contains("row 6 (from the top), column 4"),
        "{e}"
    );
    assert!(e.to_string().contains("old seven-marker language"), "{e}");
}

#[test]
fn grid_errors_point_at_the_offending_cell() {
    let win = "9909999\n99R9999\n09Y9999\nYRY9R65\nYYYRR79\nRRRYYRY\n";
    assert!(Diagram::parse(win).is_ok());
    // one old-language marker in a level grid: the error names both the marker and a
    // level cell that no longer fits, not just the first digit
    let typo = win.replacen("YYYRR79", "YYYRR7.", 1);
    let e = Diagram::parse(&typo).unwrap_err().to_string();
    assert!(e.contains("'.' at row 5, column 7"), "{e}");
    assert!(e.contains("row 1 (from the top), column 1: '9'"), "{e}");
    assert!(e.contains("one language"), "{e}");
    // invisible whitespace is named
    let trailing = win.replacen("99R9999", "99R9999 ", 1);
    let e = Diagram::parse(&trailing).unwrap_err().to_string();
    assert!(
        e.contains("row 2 has 8 cells") && e.contains("space or tab"),
        "{e}"
    );
    let tab = win.replacen("09Y9999", "09\tY9999", 1);
    let e = Diagram::parse(&tab).unwrap_err().to_string();
    assert!(e.contains("tab"), "{e}");
    // every line ending reads the same grid
    let want = Diagram::parse(win).unwrap().diagram;
    for ending in ["\r\n", "\r"] {
        let text = win.replace('\n', ending);
        assert_eq!(Diagram::parse(&text).unwrap().diagram, want, "{ending:?}");
    }
    // a full board has no old-language marker, so its old grid would read back wrongly:
    // refused
    let full = "YYRRRYY\nRRRYYYR\nRYYYRYY\nRRRYRRR\nYYYRYYY\nYRRRYRR\n";
    let e = Diagram::parse(full)
        .unwrap()
        .diagram
        .to_legacy()
        .unwrap_err();
    assert!(e.contains("only 1s and 2s"), "{e}");
}

#[test]
fn upstream_files_read_alike_whatever_their_line_endings_or_byte_order_mark() {
    let branches = "# the root\n->4\n\n44->4\n";
    let leaves = "# two diagrams\n\n!......\n.......\n.......\n.......\n.......\n...12..\n\n\
                  .......\n.......\n.......\n.......\n...2...\n...1!..\n";
    let summary = |b: &str, l: &str| {
        let (branches, b_errors) = solution::parse_branches(b);
        let (leaves, l_errors) = solution::parse_leaves(l);
        let moves: Vec<(usize, Vec<u8>, usize)> = branches
            .iter()
            .map(|x| (x.line, x.moves.clone(), x.column))
            .collect();
        let diagrams: Vec<(usize, Diagram)> =
            leaves.into_iter().map(|x| (x.line, x.diagram)).collect();
        (moves, diagrams, b_errors, l_errors)
    };
    let want = summary(branches, leaves);
    assert_eq!((want.0.len(), want.1.len()), (2, 2), "{want:?}");
    assert!(want.2.is_empty() && want.3.is_empty(), "{want:?}");
    for ending in ["\r\n", "\r"] {
        let (b, l) = (branches.replace('\n', ending), leaves.replace('\n', ending));
        assert_eq!(summary(&b, &l), want, "{ending:?}");
    }
    let (b, l) = (format!("\u{feff}{branches}"), format!("\u{feff}{leaves}"));
    assert_eq!(summary(&b, &l), want, "a byte-order mark");
}

#[test]
fn a_row_of_blanks_too_many_is_named() {
    let grid = "9909999\n99R9999\n9999999\n9999999\n9999999\n9999999\n";
    let e = Diagram::parse(&format!("{grid}\t\t\t\t\t\t\t\n"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("found 7 rows") && e.contains("row 7 is seven spaces"),
        "{e}"
    );
    let e = Diagram::parse("9909999\n").unwrap_err().to_string();
    assert!(
        e.contains("found 1 row") && !e.contains("found 1 rows"),
        "{e}"
    );
}

#[test]
fn a_commands_json_output_is_named_with_where_its_diagram_is() {
    // `c4lab complete --json` piped into `verify` was "found 1 row (or the 42 cells on
    // one line: this line has 271)"
    let rows = [
        "9909999", "99R9999", "03Y0999", "YRY8R53", "YYYRR18", "RRRYYRY",
    ];
    let object = format!(
        "{{\"candidates\":1,\"diagram\":{},\"verdict\":\"found\"}}",
        serde_json::to_string(&rows).unwrap()
    );
    let e = Diagram::parse(&object).unwrap_err().to_string();
    assert!(
        e.contains("this is a JSON object") && e.contains("`jq .diagram`"),
        "{e}"
    );
    // and what `jq .diagram` passes on reads
    let array = serde_json::to_string_pretty(&rows).unwrap();
    assert!(Diagram::parse(&array).unwrap().json);
    // an array of one string is counted as one ("found 1 strings")
    let e = Diagram::parse("[\"9909999\"]").unwrap_err().to_string();
    assert!(e.ends_with("found 1 string"), "{e}");
}

#[test]
fn a_root_with_a_four_is_named_for_the_four_not_the_counts() {
    // Red's four leaves Yellow to move: the counts were named ("4 Red and 3 Yellow
    // stones"), where verify named the four
    let grid = "9999999\n9999999\n9999999\n9999999\n9999999\nRRRRYYY\n";
    let e = Diagram::parse(grid).unwrap().diagram.root().unwrap_err();
    assert_eq!(
        e.to_string(),
        "bad root: Red already has four in a row, so the game is over there; a root is a position where play goes on"
    );
}

/// What `read_any` says of `text`, which it must refuse.
fn read_error(text: &str) -> String {
    c4lab_steady::read_any(text).unwrap_err().to_string()
}

#[test]
fn two_share_links_are_named_as_links_not_an_old_grid() {
    // their dots read as old-language markers: "an editor may have stripped" a row
    let e = read_error("1.-.*Z9*L9\n1.-.*Z9*L9\n");
    assert!(
        e.contains("found 2 rows (each line is a share link: give one diagram at a time)"),
        "{e}"
    );
}

#[test]
fn a_share_link_wrapped_over_lines_is_named_so() {
    // a link a mail or a terminal wrapped, anywhere: it was "an editor may have stripped"
    // a row, or "each line is a share link" where the second line is none
    let link = "1.655433534337221121.990*H90*D96579";
    assert!(c4lab_steady::read_any(link).is_ok());
    for cut in [12, 27] {
        let e = read_error(&format!("{}\n{}\n", &link[..cut], &link[cut..]));
        assert!(
            e.contains("(its lines join into one share link, wrapped by a mail or a terminal: give the link on one line)"),
            "{cut}: {e}"
        );
    }
    // a link and a line that is none
    let e = read_error(&format!("{link}\nfoo\n"));
    assert!(
        e.contains("its first line starts as a share link does, and a link is one line"),
        "{e}"
    );
}

#[test]
fn an_address_without_its_diagram_is_named_so() {
    // the Lab's address copied with no `#` part: it was read as a grid row of 22 cells
    let e = read_error("http://127.0.0.1:8765/");
    assert!(
        e.contains("the address carries no diagram (it has no '#' part)"),
        "{e}"
    );
    // a link with a `#` after it is told that a bare link has none
    let e = read_error("1.655433534337221121.990*H90*D96579#");
    assert!(e.contains("a bare link has no '#' of its own"), "{e}");
    // and the whole address still reads
    assert!(
        c4lab_steady::read_any("http://127.0.0.1:8765/#1.655433534337221121.990*H90*D96579")
            .is_ok()
    );
}

/// A diagram built from cells refuses a level the language has no character for,
/// naming the cell, rather than panicking later in the verifier.
#[test]
fn cells_with_a_level_over_13_are_refused() {
    let mut cells = [Cell::Level(9); 42];
    cells[7 * 5 + 3] = Cell::Level(13);
    let d = Diagram::from_cells(cells).unwrap();
    assert_eq!(d.cell(3, 0), Cell::Level(13));
    assert_eq!(d.to_grid().lines().last(), Some("999d999"));
    cells[7 + 2] = Cell::Level(14);
    let e = Diagram::from_cells(cells).unwrap_err().to_string();
    assert_eq!(e, "row 2 (from the top), column 3: level 14 is out of range; levels run from 0 to 13 (0-9, then a-d)");
}
