//! The `c4lab` binary as a script would use it: outputs, `--json`, exit codes (the
//! diagram commands; the searches, the solver and the model have files of their own).

mod common;
use common::*;

#[test]
fn verify_exit_codes_and_json() {
    let win = c4lab(&["verify", "examples/win.txt"], "");
    assert_eq!(win.status.code(), Some(0));
    assert!(stdout(&win).contains("win: Red makes four on every line"));

    // a root that is no root: the read line leaves the reason to the verdict line (it
    // called a root holding a four "not a legal Red-to-move root", then root-terminal)
    let over = "0000000\n0000000\nR000000\nR000000\nRY00000\nRY0YY0R\n";
    let said = stdout(&c4lab(&["verify"], over));
    assert!(
        said.contains("root: none (the next line says why)\nroot-terminal: Red"),
        "{said}"
    );

    let loss = c4lab(&["verify", "--json", "examples/loss.txt"], "");
    assert_eq!(loss.status.code(), Some(1));
    let j: serde_json::Value = serde_json::from_str(&stdout(&loss)).unwrap();
    assert_eq!(j["verdict"], "loss");
    assert_eq!(j["reason"], "no-move");
    assert_eq!(j["line"], "67711132");
    assert_eq!(j["tied"], serde_json::json!([9]));
    // whole microseconds, as solve's (it gave 16.0)
    assert!(j["microseconds"].is_u64(), "{j}");
    // Yellow's moves of the line, and the command that replays it
    assert_eq!(j["yellow"], "7112");
    let said = stdout(&c4lab(&["verify", "examples/loss.txt"], ""));
    assert!(
        said.contains("replay: c4lab play examples/loss.txt --moves 7112 (Yellow's moves"),
        "{said}"
    );
    // a diagram read from standard input, by `-` or by a name for the stream, is replayed
    // from a file to be named (`c4lab play /dev/stdin` plays nothing)
    let loss_text = std::fs::read_to_string(repo().join("examples/loss.txt")).unwrap();
    for name in ["-", "/dev/stdin"] {
        let said = stdout(&c4lab(&["verify", name], &loss_text));
        assert!(
            said.contains("replay: c4lab play FILE --moves 7112"),
            "{name}: {said}"
        );
    }
    let replayed = c4lab(
        &["play", "examples/loss.txt", "--moves", "7112", "--no-input"],
        "",
    );
    assert!(
        stdout(&replayed).contains("names no move"),
        "{}",
        stdout(&replayed)
    );
    // a share link with a Yellow line of its own (play would play that first) is
    // replayed through a grid
    let link = stdout(&c4lab(
        &["convert", "--to", "link", "examples/loss.txt"],
        "",
    ));
    let said = stdout(&c4lab(&["verify", "-"], format!("{}.7\n", link.trim())));
    assert!(
        said.contains("replay: c4lab convert --to grid FILE > grid.txt; c4lab play grid.txt --moves 7112 (the link's own Yellow line"),
        "{said}"
    );

    // the empty board with one level everywhere: no unique level at the root
    let flat = c4lab(&["verify", "-"], "9999999\n".repeat(6));
    assert_eq!(flat.status.code(), Some(1));
    assert!(
        stdout(&flat).contains("tied: 9) at the root [1 position searched]"),
        "{}",
        stdout(&flat)
    );
    // (no moves to replay at the root)
    assert!(!stdout(&flat).contains("replay"), "{}", stdout(&flat));

    let incomplete = c4lab(&["verify", "examples/incomplete.txt"], "");
    assert_eq!(incomplete.status.code(), Some(2));
    // where the undecided cell is, rows from the top as the grid is written
    assert!(
        stdout(&incomplete).contains("undecided (rows from the top): row 3 column 1"),
        "{}",
        stdout(&incomplete)
    );
    let j: serde_json::Value = serde_json::from_str(&stdout(&c4lab(
        &["verify", "--json", "examples/incomplete.txt"],
        "",
    )))
    .unwrap();
    assert_eq!(
        j["undecided_at"],
        serde_json::json!([{ "row": 3, "column": 1 }])
    );

    let garbage = c4lab(&["verify", "-"], "not a diagram\n");
    assert_eq!(garbage.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&garbage.stderr).contains("standard input: not a diagram"));

    let budget = c4lab(&["verify", "--budget", "2", "examples/win.txt"], "");
    assert_eq!(budget.status.code(), Some(3));
}

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
fn simplify_reports_before_it_applies() {
    let mut grid = std::fs::read_to_string(repo().join("examples/win.txt")).unwrap();
    let minimal = c4lab(&["simplify", "--dry-run"], &grid);
    assert!(stdout(&minimal).contains("already minimal"));
    // applied to a minimal diagram: the grid unchanged on stdout (for pipes), the note on stderr
    let same = c4lab(&["simplify"], &grid);
    assert_eq!(same.status.code(), Some(0));
    assert_eq!(stdout(&same), grid);
    assert!(String::from_utf8_lossy(&same.stderr).contains("already minimal"));
    // clutter: the top-right cell was 9 and is not consulted
    grid.replace_range(6..7, "8");
    let dry = c4lab(&["simplify", "--dry-run"], &grid);
    assert!(
        stdout(&dry)
            .contains("would clear 1 cell (set it to 9; rows from the top: row 1 column 7)"),
        "{}",
        stdout(&dry)
    );
    let done = c4lab(&["simplify"], &grid);
    assert_eq!(
        stdout(&done),
        std::fs::read_to_string(repo().join("examples/win.txt")).unwrap()
    );
    let said = String::from_utf8_lossy(&done.stderr);
    assert!(
        said.contains("cleared 1 cell (rows from the top: row 1 column 7)"),
        "{said}"
    );
    // --json names the cell as `verify --json` names undecided ones: rows from the top
    let json = c4lab(&["simplify", "--json", "--dry-run"], &grid);
    let j: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(
        j["cells"],
        serde_json::json!([{ "row": 1, "column": 7 }]),
        "{j}"
    );
    assert_eq!(j["cleared"], 1, "{j}");
    // a losing diagram is refused with the verifier's reason: the line that beats it
    let loss = c4lab(&["simplify", "examples/loss.txt"], "");
    assert_eq!(loss.status.code(), Some(2));
    let said = String::from_utf8_lossy(&loss.stderr);
    assert!(
        said.contains("this one is `loss`: fix that first (loss: no-move (no level unique; tied: 9) after 67711132"),
        "{said}"
    );
}

#[test]
fn play_prints_each_rule() {
    // a diagram on standard input leaves no moves to read from it, however it is named
    // (`/dev/stdin` read the diagram's own rows back as moves, exit 0)
    let grid = std::fs::read_to_string(repo().join("examples/win.txt")).unwrap();
    for name in ["-", "/dev/stdin"] {
        let out = c4lab(&["play", name], &grid);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("the moves cannot come from it too"),
            "{name}: {said}"
        );
    }
    // a bad --moves entry is refused before Red's first move is printed
    let bad = c4lab(
        &["play", "examples/win.txt", "--moves", "29", "--no-input"],
        "",
    );
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(stdout(&bad), "", "no move before the error");
    let said = String::from_utf8_lossy(&bad.stderr);
    assert!(
        said.contains("--moves, move 2: '9' is not a column; write columns as digits 1-7"),
        "{said}"
    );
    let out = c4lab(&["play", "examples/win.txt"], "u\nX\n+2\n02\n2\nU\n1\n");
    let text = stdout(&out);
    // a game typed at the keyboard starts by saying how (u and q came up only after a
    // word that was no move)
    assert!(
        text.contains("You are Yellow; Red follows the diagram. Type a column 1-7 and Enter; u takes back Yellow's last move, q quits.\n"),
        "{text}"
    );
    // Red's first move is on the board, but it is the diagram's: not Yellow's to undo
    // (and the board, unchanged, is not shown again)
    assert!(
        text.contains("nothing to undo: Yellow has made no move\n\"X\": type a column"),
        "{text}"
    );
    assert!(
        text.contains("Red plays 6 (level 7, lower levels tied: 0 in columns 1, 3)"),
        "{text}"
    );
    assert!(text.contains("\"X\": type a column 1-7"), "{text}");
    // a column is one digit, as --moves takes it
    assert!(text.contains("\"+2\": type a column 1-7"), "{text}");
    assert!(text.contains("\"02\": type a column 1-7"), "{text}");
    assert!(text.contains("Yellow plays 2"), "{text}");
    assert!(text.contains("undone"), "{text}");
    assert!(text.contains("Red plays 7 (win)"), "{text}");
    assert_eq!(out.status.code(), Some(0));
    let lost = c4lab(
        &["play", "examples/loss.txt", "--moves", "7112", "--no-input"],
        "",
    );
    assert!(
        stdout(&lost).contains("Red has no move, every level tied: 9 in columns"),
        "{}",
        stdout(&lost)
    );
    assert_eq!(lost.status.code(), Some(1));
    // an undecided cell that Red's move turns on stops the game, as verify calls the
    // diagram incomplete (it used to play column 2, as if the `?` could not fire)
    let partial = "9999999\n9999999\n9999999\n9999999\n9999999\n?199999\n";
    let stopped = c4lab(&["play", "-", "--no-input"], partial);
    assert_eq!(stopped.status.code(), Some(2));
    let said = stdout(&stopped);
    assert!(
        said.contains("Red's move depends on the undecided (?) cell in column 1:")
            && !said.contains("Red plays"),
        "{said}"
    );
    // moves past the end of the game: the board it ended on, then why no move follows
    let over = c4lab(
        &["play", "examples/win.txt", "--moves", "11", "--no-input"],
        "",
    );
    assert_eq!(over.status.code(), Some(2));
    let said = stdout(&over);
    assert!(
        said.contains("  1 2 3 4 5 6 7") && said.contains("Red wins"),
        "{said}"
    );
    assert!(
        String::from_utf8_lossy(&over.stderr).contains(
            "Yellow's move 2 (column 1): the game stops here (Red wins), so no move can follow"
        ),
        "{}",
        String::from_utf8_lossy(&over.stderr)
    );
    // cut to nothing (Red's first move, a block, parts), the line is still named as not
    // kept by a grid (the note was left out)
    let two_threats = "9999999\n9999999\n9999999\n9999999\n999999R\n9YYY9RR\n";
    let link = stdout(&c4lab(&["convert", "--to", "link"], two_threats));
    let out = c4lab(&["convert", "--mirror"], format!("{}.5\n", link.trim_end()));
    assert_exit(&out, 0);
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("note: the link's Yellow line (5) is not kept"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = c4lab(
        &["convert", "--mirror", "--to", "link"],
        format!("{}.5\n", link.trim_end()),
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "note: the mirrored Yellow line keeps 0 of its 1 move (none): in the mirror image Red's first move is column 3, not column 7"
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // a link whose own Yellow line runs past the game's end names the part that replays
    // (it said "not a share link", and nothing of the fix)
    let link = stdout(&c4lab(&["convert", "--to", "link", "examples/win.txt"], ""));
    let win = format!("{}.", link.trim_end());
    for (link, fix) in [
        (win.clone() + "11", "move 2 (column 1): the game stops here (Red wins), so no move can follow; its first move replays: end the link with .1"),
        // Yellow's four on its fifth move
        ("1.-.0*D90*D90*D90*D90*D90*D9.451367".to_string(), "move 6 (column 7): the game stops here (Yellow wins), so no move can follow; its first 5 moves replay: end the link with .45136"),
    ] {
        let out = c4lab(&["verify"], link + "\n");
        assert_exit(&out, 2);
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("bad share link: the link's Yellow line: Yellow's ")
                && said.trim_end().ends_with(fix),
            "{said}"
        );
    }
    // standard input that cannot be read is named as such (play said only "Is a directory")
    let dir = std::fs::File::open(repo().join("examples")).unwrap();
    let out = c4lab_reading(&["play", "examples/win.txt"], dir);
    assert_exit(&out, 2);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains(
            "error: cannot read standard input (type Yellow's moves, or give them with --moves and --no-input): "
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // a root that cannot be played is named with its source and the reason
    let won = "0000000\n0000000\nY000000\nY000000\nYR00000\nYRRR000\n";
    for (args, why) in [
        (&["play", "-", "--no-input"][..], "already holds a four"),
        (&["simplify"][..], "this one is `root-terminal`"),
    ] {
        let refused = c4lab(args, won);
        assert_eq!(refused.status.code(), Some(2), "{args:?}");
        let said = String::from_utf8_lossy(&refused.stderr);
        assert!(
            said.contains("standard input: ") && said.contains(why),
            "{args:?}: {said}"
        );
    }
    // a refused entry of --moves is named by its place in --moves, beside Yellow's count
    // (which includes a link's own Yellow line: "Yellow's move 4" for the second entry)
    let out = c4lab(
        &["play", "-", "--no-input", "--moves", "44"],
        "1.-.*A901*C901*C901*C901*C901*C90199.44\n",
    );
    assert_exit(&out, 2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--moves, move 2: Yellow's move 4: column 4 is full"),
        "{err}"
    );
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
    // line of it as not UTF-8, or its first byte only)
    let utf16: Vec<u8> = std::iter::once(0xFEFFu16)
        .chain("44\n".encode_utf16())
        .flat_map(u16::to_le_bytes)
        .collect();
    for args in [&["verify", "-"][..], &["solve", "-"][..]] {
        let o = c4lab(args, &utf16);
        assert_exit(&o, 2);
        let said = String::from_utf8_lossy(&o.stderr);
        assert!(
            said.contains("cannot read standard input: it is UTF-16 text (it starts with UTF-16's byte-order mark); save it as UTF-8"),
            "{args:?}: {said}"
        );
        assert_eq!(stdout(&o), "", "{args:?}");
    }
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
