//! How the diagram commands read their input: files, standard input, share links,
//! a root's moves, byte order marks, and odd input named where it is odd.

mod common;
use common::*;

#[test]
fn stdin_links_and_conversions() {
    let grid = std::fs::read_to_string(repo().join("examples/win.txt")).unwrap();
    let link = c4lab(&["convert", "--to", "link"], &grid);
    assert_eq!(link.status.code(), Some(0));
    let link = stdout(&link);
    assert!(link.starts_with("1.655433534337221121."), "{link}");
    // a link reads back as the same diagram
    let back = c4lab(&["convert", "--to", "grid"], &link);
    assert_eq!(stdout(&back), grid);
    assert!(String::from_utf8_lossy(&back.stderr).contains("read: share link"));
    // a Yellow line the output form cannot hold, or one cut where Red's move depends on
    // a ? cell, is said on stderr (it went without a word)
    let lined = c4lab(&["convert", "--to", "grid"], format!("{}.2", link.trim()));
    assert_eq!(stdout(&lined), grid);
    assert!(
        String::from_utf8_lossy(&lined.stderr)
            .contains("note: the link's Yellow line (2) is not kept: only a share link holds one"),
        "{}",
        String::from_utf8_lossy(&lined.stderr)
    );
    let undecided = std::fs::read_to_string(repo().join("examples/complete.txt")).unwrap();
    let cut_link = stdout(&c4lab(&["convert", "--to", "link"], &undecided));
    let cut = c4lab(
        &["convert", "--to", "link"],
        format!("{}.17", cut_link.trim()),
    );
    assert_eq!(stdout(&cut), cut_link, "the line is not kept");
    assert!(
        String::from_utf8_lossy(&cut.stderr).contains(
            "note: standard input: the link's Yellow line (2 moves) was left out: Red's first move depends on a ? cell"
        ),
        "{}",
        String::from_utf8_lossy(&cut.stderr)
    );
    // the mirror image: each row reversed, a link's Yellow line with it; it verifies
    // as the diagram does, and mirrored twice it is the diagram again
    let mirrored = stdout(&c4lab(&["convert", "--mirror"], &grid));
    let reversed: String = grid
        .lines()
        .map(|row| row.chars().rev().collect::<String>() + "\n")
        .collect();
    assert_eq!(mirrored, reversed);
    assert_ne!(mirrored, grid);
    assert_eq!(stdout(&c4lab(&["convert", "--mirror"], &mirrored)), grid);
    let verdict = |g: &str| stdout(&c4lab(&["verify", "--json"], g));
    let verdict_of = |g: &str| {
        let v: serde_json::Value = serde_json::from_str(&verdict(g)).unwrap();
        (v["verdict"].clone(), v["positions"].clone())
    };
    assert_eq!(verdict_of(&mirrored), verdict_of(&grid));
    let mirrored_link = stdout(&c4lab(
        &["convert", "--mirror", "--to", "link"],
        format!("{}.2", link.trim()),
    ));
    assert!(mirrored_link.trim_end().ends_with(".6"), "{mirrored_link}");
    let back = c4lab(&["convert"], &mirrored_link);
    assert_eq!(stdout(&back), mirrored);
    // where Red has two threats to block, it blocks the leftmost column, so a mirrored game
    // can part from the mirror image: the mirrored line is cut there and the cut named
    // (it gave 43752, whose game runs on past Yellow's four)
    let column_1 = "1.-.0*D90*D90*D90*D90*D90*D9.45136\n";
    let file = std::env::temp_dir().join(format!("c4lab-mirror-{}.txt", std::process::id()));
    std::fs::write(&file, column_1).unwrap();
    let played = stdout(&c4lab(&["play", "--no-input", file.to_str().unwrap()], ""));
    std::fs::remove_file(&file).unwrap();
    assert!(played.ends_with("Yellow wins\n"), "{played}");
    let out = c4lab(&["convert", "--mirror", "--to", "link"], column_1);
    assert_exit(&out, 0);
    assert_eq!(stdout(&out), "1.-.*D90*D90*D90*D90*D90*D90.4375\n");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "note: the mirrored Yellow line keeps 4 of its 5 moves (4375): in the mirror image Red's answer to Yellow's move 4 is column 2, not column 6"
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // JSON round trip through stdin
    let json = stdout(&c4lab(&["convert", "--to", "json"], &grid));
    assert!(json.starts_with("[\"9909999\""), "{json}");
    assert_eq!(stdout(&c4lab(&["convert"], &json)), grid);
    // levels 6-8 have no old marker: a clear refusal
    let old = c4lab(&["convert", "--to", "old"], &grid);
    assert_eq!(old.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&old.stderr).contains("has no old-language marker"));
}

#[test]
fn a_weak_level_is_named_as_the_grid_writes_it() {
    // levels 10..13 are written a..d: the texts said "tied: 10, 11, 13" and "level 12"
    // of cells the grid and the board write as a, b, d and c
    let link = "#1.655433534337221121.dda*Hda*Ddbbcd\n";
    let said = stdout(&c4lab(&["verify", "-"], link));
    assert!(
        said.contains("loss: no-move (no level unique; tied: a, b, d) after 67"),
        "{said}"
    );
    // (its JSON keeps the numbers)
    let json = stdout(&c4lab(&["verify", "--json", "-"], link));
    assert!(json.contains(r#""tied":[10,11,13]"#), "{json}");
    let link_file = std::env::temp_dir().join(format!("c4lab-weak-{}.txt", std::process::id()));
    std::fs::write(&link_file, link).unwrap();
    let path = link_file.display().to_string();
    let played = stdout(&c4lab(&["play", &path, "--moves", "7", "--no-input"], ""));
    std::fs::remove_file(&link_file).unwrap();
    assert!(
        played.contains("Red plays 6 (level c, lower levels tied: a in columns 1, 3)")
            && played.contains("every level tied: a in columns 1, 3; b in columns 6, 7; d in"),
        "{played}"
    );
}

#[test]
fn a_share_link_or_a_roots_moves_stand_for_the_file() {
    // where no file has the name: the link itself ("cannot read 1.6566...: No such
    // file"), or the root with every empty cell `?`, what a search asks of the root
    let link = "1.656666454544525141.2990114922*B94922*A9434";
    let out = c4lab(&["verify", link], "");
    assert_exit(&out, 0);
    assert!(stdout(&out).starts_with("read: share link; root: 656666454544525141\nwin:"));
    let out = c4lab(&["dsat", "656666454544525141"], "");
    assert_exit(&out, 0);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("no file named 656666454544525141: read as the root 656666454544525141 with every empty cell ?"), "{said}");
    let found = stdout(&out);
    let stones = found
        .lines()
        .flat_map(|l| l.chars())
        .filter(|c| "RY".contains(*c));
    assert_eq!(stones.count(), 18, "{found}");
    // digits that are no root's moves, and a name that is neither, are named
    let out = c4lab(&["complete", "48"], "");
    assert_exit(&out, 2);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("48: no file of that name, and not a root's moves (columns 1-7): move 2"),
        "{said}"
    );
    // moves with something between them, or a slip, say how moves are written (they
    // were only "No such file or directory")
    for (moves, why) in [
        ("4 4 5 3", "(a space) is not a column"),
        ("4,4", "',' is not a column"),
        ("44a", "'a' is not a column"),
    ] {
        let said = String::from_utf8_lossy(&c4lab(&["verify", moves], "").stderr).into_owned();
        assert!(
            said.contains(&format!(
                "{moves}: no file of that name, and not a root's moves"
            )) && said.contains(why),
            "{said}"
        );
    }
    // a losing link's replay command names the link, which play reads alike; a link
    // with a fault says it as a link (it was "No such file")
    let losing = "1.655433534337221121.dda*Hda*Ddbbcd";
    let said = stdout(&c4lab(&["verify", losing], ""));
    assert!(
        said.contains(&format!("replay: c4lab play '{losing}' --moves 7")),
        "{said}"
    );
    let out = c4lab(&["verify", &link[..link.len() - 1]], "");
    assert_exit(&out, 2);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(
            "no file of that name, and as a share link: bad share link: the link's cells"
        ),
        "{said}"
    );
    let out = c4lab(&["verify", "no-such-diagram.txt"], "");
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read no-such-diagram.txt"));
}

#[test]
fn a_percent_encoded_link_reads_as_the_link() {
    let grid = std::fs::read_to_string(repo().join("examples/complete.txt")).unwrap();
    let link = stdout(&c4lab(&["convert", "--to", "link"], &grid));
    assert!(link.contains('?'), "{link}");
    // as an address bar may copy it: `?` as %3F, `*` as %2A
    let encoded = link.trim().replace('?', "%3F").replace('*', "%2A");
    let back = c4lab(&["convert", "--to", "grid"], &encoded);
    assert_exit(&back, 0);
    assert_eq!(
        stdout(&back),
        stdout(&c4lab(&["convert", "--to", "grid"], &grid))
    );
    // as an argument, every character encoded (it was read as a file name: "No such
    // file or directory")
    let all: String = link.trim().bytes().map(|b| format!("%{b:02X}")).collect();
    for arg in [all.clone(), format!("%23{all}")] {
        let back = c4lab(&["convert", "--to", "grid", &arg], "");
        assert_exit(&back, 0);
        assert_eq!(
            stdout(&back),
            stdout(&c4lab(&["convert", "--to", "grid"], &grid))
        );
    }
    // a link too long for a file name is still read as a link, and its fault named (it
    // said "File name too long")
    let win = stdout(&c4lab(&["convert", "--to", "link", "examples/win.txt"], ""));
    let long = format!("{}.{}", win.trim(), "1".repeat(300));
    let out = c4lab(&["verify", &long], "");
    assert_exit(&out, 2);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("no file of that name, and as a share link: bad share link")
            && !said.contains("too long"),
        "{said}"
    );
}

#[test]
fn a_byte_order_mark_before_a_grid_or_a_link_is_read_past() {
    let grid = std::fs::read_to_string(repo().join("examples/win.txt")).unwrap();
    let out = c4lab(&["verify", "-"], format!("\u{feff}{grid}"));
    assert_exit(&out, 0);
    let link = stdout(&c4lab(&["convert", "--to", "link", "-"], &grid));
    let out = c4lab(&["verify", "-"], format!("\u{feff}{link}"));
    assert_exit(&out, 0);
}

#[test]
fn odd_input_is_named_where_it_is_odd() {
    // a folder named for a file is said to be one, with the fix (it said "Is a directory
    // (os error 21)")
    let folder = repo().join("examples");
    let folder_s = folder.display().to_string();
    for args in [
        &["verify", &folder_s][..],
        &["simplify", &folder_s],
        &["solve", &folder_s],
        &["pick", "1", "--steady-states", &folder_s],
    ] {
        let o = c4lab(args, "");
        assert_exit(&o, 2);
        let said = String::from_utf8_lossy(&o.stderr);
        assert!(
            said.contains(&format!(
                "{folder_s}: it is a folder, not a file: name a file"
            )) && !said.contains("os error"),
            "{args:?}: {said}"
        );
    }
    // a byte that is not UTF-8 is named with its line and column (it said only "stream
    // did not contain valid UTF-8")
    let grid = std::fs::read_to_string(repo().join("examples/win.txt")).unwrap();
    let mut bytes = grid.clone().into_bytes();
    let third = bytes
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .nth(1)
        .unwrap()
        .0;
    bytes[third + 2] = 0xFF;
    let o = c4lab(&["verify", "-"], &bytes);
    assert_exit(&o, 2);
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(
        said.contains("standard input: line 3, byte 2 (0xFF) is not UTF-8 text"),
        "{said}"
    );
    // a file saved as UTF-16 is named so, by verify and by solve (which named every
    // line of it as not UTF-8, or its first byte only), and so is UTF-16 without its
    // byte-order mark, in either byte order (verify read the NUL bytes as cells: "found
    // 7 rows"; solve named the line as no position)
    let utf16 = |text: &str, mark: bool, big_endian: bool| -> Vec<u8> {
        let units = mark
            .then_some(0xFEFFu16)
            .into_iter()
            .chain(text.encode_utf16());
        units
            .flat_map(|u| {
                if big_endian {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect()
    };
    let marked = "it is UTF-16 text (it starts with UTF-16's byte-order mark); save it as UTF-8";
    let unmarked = "it looks like UTF-16 text (a NUL byte beside each of its first characters); save it as UTF-8";
    let diagram = std::fs::read_to_string(repo().join("examples/loss.txt")).unwrap();
    let nul_at = |text: &str, at: usize| -> Vec<u8> {
        let mut bytes = text.as_bytes().to_vec();
        bytes[at] = 0;
        bytes
    };
    let (verify, solve) = (&["verify", "-"][..], &["solve", "-"][..]);
    for (args, bytes, said_so) in [
        (verify, utf16("44\n", true, false), marked),
        (solve, utf16("44\n", true, false), marked),
        (verify, utf16(&diagram, false, false), unmarked),
        (verify, utf16(&diagram, false, true), unmarked),
        (solve, utf16("44\n", false, false), unmarked),
        (solve, utf16("44\n", false, true), unmarked),
        // one NUL among the digits is no UTF-16: it is named where it is (it was called
        // UTF-16 at the start, and read as one more cell further on)
        (
            verify,
            nul_at(&diagram, 1),
            "line 1, byte 2 is a NUL byte (0x00)",
        ),
        (
            verify,
            nul_at(&diagram, 27),
            "line 4, byte 4 is a NUL byte (0x00)",
        ),
    ] {
        let o = c4lab(args, &bytes);
        assert_exit(&o, 2);
        let said = String::from_utf8_lossy(&o.stderr);
        assert!(
            said.contains(&format!("cannot read standard input: {said_so}")),
            "{args:?}: {said}"
        );
        assert_eq!(stdout(&o), "", "{args:?}");
    }
    // solve names such a NUL as it names any byte that is no column, on its line
    let said = stdout(&c4lab(solve, b"4\x0044\n"));
    assert!(said.contains("move 2: U+0000 is not a column"), "{said}");
    // input far past any diagram's size is refused once it passes a megabyte (a stream
    // without end was read until memory ran out)
    let o = c4lab(&["verify", "-"], vec![b'9'; 3 << 20]);
    assert_exit(&o, 2);
    assert!(String::from_utf8_lossy(&o.stderr).contains("too much for a diagram"));
    // in play, a typed line that is not UTF-8 is answered as any bad line and the game
    // goes on (it ended the session); a long one is no move
    let mut typed = b"7\n\xff\n".to_vec();
    typed.extend(vec![b'7'; 100_000]);
    typed.extend(b"\n1\n");
    let o = c4lab(&["play", "examples/win.txt"], &typed);
    assert_exit(&o, 0);
    let text = stdout(&o);
    assert!(text.contains("\"\u{fffd}\": type a column 1-7"), "{text}");
    assert!(
        text.contains("a line of more than 65536 bytes is no move: type a column 1-7"),
        "{text}"
    );
    assert!(text.contains("Yellow plays 1"), "{text}");
    assert!(text.len() < 10_000, "the long line is not echoed whole");
    // moves piped from a file saved with a byte-order mark: the first move is played
    // (it was answered as a bad line, and the game went on without it)
    let o = c4lab(
        &["play", "examples/loss.txt"],
        "\u{feff}7\n1\n1\n2\n".as_bytes(),
    );
    let text = stdout(&o);
    assert!(text.contains("Yellow plays 7"), "{text}");
    assert!(!text.contains("type a column"), "{text}");
    assert_exit(&o, 1);
    // a column typed once the game is over is answered with what can still be done (it
    // was "Yellow's move N ...: the game stops here" with the same N each time)
    let o = c4lab(&["play", "examples/win.txt"], b"1\n1\n5\nu\n");
    assert_exit(&o, 0);
    let text = stdout(&o);
    let over = "the game stops here (Red wins): u takes back Yellow's last move, q quits";
    assert_eq!(text.matches(over).count(), 2, "{text}");
    assert!(!text.contains("Yellow's move"), "{text}");
    assert!(text.contains("undone"), "{text}");
    // stopped at the root (Red's first move turns on a ? cell): nothing to take back
    let o = c4lab(&["play", "examples/incomplete.txt"], b"3\n");
    let text = stdout(&o);
    assert!(
        text.contains(
            "give it a level to play on): nothing to take back (it stopped at the root), q quits"
        ),
        "{text}"
    );
}

#[test]
fn a_grid_with_no_legal_root_converts_as_given_with_a_note() {
    // a stone floating over an empty cell: no position, so no root Red can play from
    let floating = "???????\n???????\n???????\n???R???\n???????\n???????\n";
    for form in ["grid", "json"] {
        let out = c4lab(&["convert", "--to", form], floating);
        assert_exit(&out, 0);
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("note: written as given, but it is no diagram Red can play from: bad root: column 4:")
                && said.contains("`c4lab verify` says bad-root"),
            "{form}: {said}"
        );
    }
    assert_eq!(
        stdout(&c4lab(&["convert", "--to", "grid"], floating)),
        floating
    );
    // a link cannot hold it: refused, not noted
    let link = c4lab(&["convert", "--to", "link"], floating);
    assert_eq!(link.status.code(), Some(2));
    // a legal root converts without the note
    let fine = c4lab(&["convert", "--to", "json", "examples/win.txt"], "");
    assert!(!String::from_utf8_lossy(&fine.stderr).contains("note:"));
}

#[test]
fn a_mirrored_conversion_names_the_cells_as_the_input_has_them() {
    // a stone floating in column 1 and a level 6 in column 6: the mirror image has them
    // in columns 7 and 2, which the messages named
    let floating = "R999999\n9999999\n9999999\n9999999\n9999999\n9999999\n";
    let link = c4lab(&["convert", "--mirror", "--to", "link"], floating);
    assert_exit(&link, 2);
    let said = String::from_utf8_lossy(&link.stderr);
    assert!(said.contains("bad root: column 1: the stone"), "{said}");
    let grid = c4lab(&["convert", "--mirror"], floating);
    assert_exit(&grid, 0);
    assert_eq!(
        stdout(&grid),
        "999999R\n9999999\n9999999\n9999999\n9999999\n9999999\n"
    );
    let said = String::from_utf8_lossy(&grid.stderr);
    assert!(
        said.contains("bad root: column 1: the stone")
            && said.contains("(columns as in the input;"),
        "{said}"
    );
    let six = "9999999\n9999999\n9999999\n9999969\n9999999\n9999999\n";
    let old = c4lab(&["convert", "--mirror", "--to", "old"], six);
    assert_exit(&old, 2);
    let said = String::from_utf8_lossy(&old.stderr);
    assert!(
        said.contains("row 4 (from the top), column 6: '6'"),
        "{said}"
    );
}
