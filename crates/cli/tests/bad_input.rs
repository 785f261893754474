//! Bad input named by its first fault, with what to do about it.

mod common;
use common::*;

#[test]
fn solve_names_a_bad_lines_moves_before_what_follows_them() {
    let out = c4lab(
        &["solve", "--table-mb", "16"],
        "# a comment\n44a3 x\n4444 1 2\n",
    );
    assert_exit(&out, 2);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    // it blamed "a comment" following the moves, and then "x"
    assert!(lines[0].contains("solve reads no comments"), "{text}");
    assert!(lines[1].contains("'a' is not a column"), "{text}");
    assert!(lines[2].contains("\"1 2\" follows the moves"), "{text}");
    let over = c4lab(&["solve", "--table-mb", "16"], "4455667\n");
    assert!(
        stdout(&over).contains("made four in a row at move 7; give a position where play goes on"),
        "{}",
        stdout(&over)
    );
}

#[test]
fn solve_json_gives_a_bad_lines_moves_as_typed() {
    // a byte-order mark inside the first word came out as the text `\u{feff}`
    let out = c4lab(&["solve", "--json", "--table-mb", "16"], "44\u{feff}53\n");
    assert_exit(&out, 2);
    let row: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(row["moves"], "44\u{feff}53");
    // a line past 64 KiB is named by its first word
    let long_line = format!("4453 {}\n", "x".repeat(70_000));
    let out = c4lab(&["solve", "--table-mb", "16"], long_line);
    assert!(
        stdout(&out).starts_with("4453 error: line 1: the line is longer than"),
        "{}",
        stdout(&out)
    );
    // analyze cuts a long argument in its error, as solve does
    let long = "4".repeat(5000);
    let out = c4lab(&["analyze", "--table-mb", "16", &long], "");
    assert_exit(&out, 2);
    assert!(String::from_utf8_lossy(&out.stderr).len() < 400);
}

#[test]
fn check_solution_says_first_that_a_file_holds_none_of_what_it_should() {
    let Some(states) = upstream_states() else {
        return;
    };
    let branches = states.with_file_name("branches.txt");
    // swapped: thousands of line errors, the hint that explains them first
    let out = c4lab(
        &[
            "check-solution",
            "--branches",
            states.to_str().unwrap(),
            "--steady-states",
            branches.to_str().unwrap(),
        ],
        "",
    );
    assert_exit(&out, 1);
    let text = stdout(&out);
    let structure = text
        .lines()
        .skip_while(|l| !l.starts_with("structure"))
        .nth(1)
        .unwrap_or("");
    assert!(
        structure.contains("is it upstream's branches.txt?"),
        "{text}"
    );
    // cut short: said to end inside a diagram (it said an editor stripped a row)
    let whole = std::fs::read_to_string(&states).unwrap();
    let cut = &whole[..30_000];
    let out = c4lab(
        &[
            "check-solution",
            "--branches",
            branches.to_str().unwrap(),
            "--steady-states",
            "-",
        ],
        cut,
    );
    assert_exit(&out, 1);
    assert!(
        stdout(&out).contains("the file ends inside this diagram: is it cut short?"),
        "{}",
        stdout(&out)
    );
}
