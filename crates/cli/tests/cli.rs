//! The `c4lab` binary as a script would use it: outputs, `--json`, exit codes (the
//! diagram commands; reading their input, the searches, the solver and the model have
//! files of their own).

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
    // a loss at the root has its replay too, with no Yellow move (it had none), and it
    // runs as printed
    let at_root = "9999999\n9999999\n9999999\n9999999\n9999999\naaaaaaa\n";
    let said = stdout(&c4lab(&["verify", "-"], at_root));
    let link = stdout(&c4lab(&["convert", "--to", "link", "-"], at_root));
    let command = format!(
        "replay: c4lab play '{}' --no-input (lost before Yellow's first move)",
        link.trim()
    );
    assert!(said.contains(&command), "{said}");
    let replayed = c4lab(&["play", link.trim(), "--no-input"], "");
    assert_exit(&replayed, 1);
    assert!(
        stdout(&replayed).contains("names no move"),
        "{}",
        stdout(&replayed)
    );
    // a diagram read from standard input, by `-` or by a name for the stream, is replayed
    // by its link (`c4lab play /dev/stdin` plays nothing), and the command runs as printed
    let loss_text = std::fs::read_to_string(repo().join("examples/loss.txt")).unwrap();
    let link = stdout(&c4lab(
        &["convert", "--to", "link", "examples/loss.txt"],
        "",
    ));
    let link = link.trim();
    let by_link = format!("replay: c4lab play '{link}' --moves 7112 (Yellow's moves");
    for name in ["-", "/dev/stdin"] {
        let said = stdout(&c4lab(&["verify", name], &loss_text));
        assert!(said.contains(&by_link), "{name}: {said}");
    }
    for diagram in ["examples/loss.txt", link] {
        let replayed = c4lab(&["play", diagram, "--moves", "7112", "--no-input"], "");
        assert!(
            stdout(&replayed).contains("names no move"),
            "{diagram}: {}",
            stdout(&replayed)
        );
    }
    // so is a share link with a Yellow line of its own (play would play that first),
    // from standard input or as an argument
    let with_line = format!("{link}.7");
    assert!(stdout(&c4lab(&["verify", "-"], format!("{with_line}\n"))).contains(&by_link));
    assert!(stdout(&c4lab(&["verify", &with_line], "")).contains(&by_link));

    // the empty board with one level everywhere: no unique level at the root
    let flat = c4lab(&["verify", "-"], "9999999\n".repeat(6));
    assert_eq!(flat.status.code(), Some(1));
    assert!(
        stdout(&flat).contains("tied: 9) at the root [1 position searched]"),
        "{}",
        stdout(&flat)
    );
    // (nothing for Yellow to play: the replay plays none)
    assert!(
        stdout(&flat).contains("--no-input (lost before Yellow's first move)"),
        "{}",
        stdout(&flat)
    );

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
            "error: cannot read standard input (type Yellow's moves, or give them with --moves and --no-input): it is a folder: redirect a file, not a folder"
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
