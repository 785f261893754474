//! Upstream's published weak solution: every diagram verifies, the whole graph checks,
//! and corrupted copies fail with the right check named.

mod common;

use c4lab_steady::solution::{check_solution, Report};
use c4lab_steady::{Verdict, Verifier};

fn failed(r: &Report) -> Vec<&'static str> {
    r.checks
        .iter()
        .filter(|c| !c.passed)
        .map(|c| c.name)
        .collect()
}

fn failures_of<'a>(r: &'a Report, name: &str) -> &'a [String] {
    &r.checks
        .iter()
        .find(|c| c.name == name)
        .expect("check exists")
        .failures
}

#[test]
fn every_upstream_diagram_translates_and_wins() {
    let Some((_, steady)) = common::upstream() else {
        return;
    };
    let diagrams = common::upstream_diagrams(&steady);
    assert_eq!(diagrams.len(), 1295);
    let mut v = Verifier::new();
    for (i, d) in diagrams.iter().enumerate() {
        let verdict = v.verify(d);
        assert!(
            verdict.is_win(),
            "diagram {}: {verdict:?}\n{}",
            i + 1,
            d.to_grid()
        );
        assert!(
            v.verify(&d.mirror()).is_win(),
            "mirror of diagram {}",
            i + 1
        );
    }
}

#[test]
fn the_whole_solution_checks() {
    let Some((branches, steady)) = common::upstream() else {
        return;
    };
    let r = check_solution(&branches, &steady);
    assert!(r.passed(), "{:#?}", r.checks);
    let names: Vec<_> = r.checks.iter().map(|c| c.name).collect();
    assert_eq!(
        names,
        ["structure", "root", "coverage", "reachability", "leaves"]
    );
    assert_eq!(
        r.checks[0].summary,
        "336 branches, 1295 diagrams parsed (old seven-marker language)"
    );
}

#[test]
fn a_changed_marker_fails_the_leaves_check() {
    let Some((branches, steady)) = common::upstream() else {
        return;
    };
    // find the first single-marker change in the first diagrams that breaks a leaf
    let lines: Vec<&str> = steady.lines().collect();
    let mut v = Verifier::new();
    for (n, line) in lines.iter().enumerate() {
        if line.starts_with('#') || line.len() != 7 {
            continue;
        }
        for (i, ch) in line.char_indices() {
            if ch == '1' || ch == '2' || ch == '-' {
                continue;
            }
            let mut copy: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            copy[n].replace_range(i..i + 1, "-");
            let text = copy.join("\n");
            let (leaves, _) = c4lab_steady::solution::parse_leaves(&text);
            let Some(leaf) = leaves
                .iter()
                .find(|l| l.line <= n + 1 && n + 1 < l.line + 6)
            else {
                continue;
            };
            let Verdict::Loss { counterexample, .. } = v.verify(&leaf.diagram) else {
                continue;
            };
            let r = check_solution(&branches, &text);
            assert_eq!(failed(&r), ["leaves"]);
            let f = failures_of(&r, "leaves");
            assert_eq!(f.len(), 1);
            assert!(
                f[0].starts_with(&format!("diagram {} (line {}", leaf.index, leaf.line)),
                "{f:?}"
            );
            // the loss as verify words it: from the leaf's root ("at the root" when
            // there, not "after the empty board")
            assert!(
                f[0].ends_with(&format!("loss, {}", counterexample.describe())),
                "{f:?}"
            );
            // (the line from the leaf's root: never "after the empty board")
            let at = if counterexample.line.is_empty() {
                " at the root"
            } else {
                " (moves from the root, Red first)"
            };
            assert!(f[0].ends_with(at) && !f[0].contains("empty board"), "{f:?}");
            return;
        }
    }
    panic!("no single marker change broke a leaf");
}

#[test]
fn a_removed_branch_fails_coverage_and_reachability() {
    let Some((branches, steady)) = common::upstream() else {
        return;
    };
    let text: String = branches
        .lines()
        .filter(|l| *l != "415351->6")
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(text.lines().count() + 1, branches.lines().count());
    let r = check_solution(&text, &steady);
    assert_eq!(failed(&r), ["coverage", "reachability"]);
    let f = failures_of(&r, "coverage");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].starts_with("415351: Yellow's reply (after branches line ")
            && f[0].contains(") is covered by no branch"),
        "{f:?}"
    );
    assert!(failures_of(&r, "reachability")
        .iter()
        .all(|f| f.contains("never reached")));
}

#[test]
fn a_branch_that_lets_yellow_win_names_its_line() {
    let Some((branches, steady)) = common::upstream() else {
        return;
    };
    // upstream's line 28 blocks in column 3; column 1 leaves Yellow's four open
    let line = branches
        .lines()
        .position(|l| l == "41565455644732->3")
        .expect("upstream's branches.txt holds 41565455644732->3")
        + 1;
    let text: String = branches
        .lines()
        .map(|l| match l {
            "41565455644732->3" => "41565455644732->1\n".to_string(),
            l => format!("{l}\n"),
        })
        .collect();
    let r = check_solution(&text, &steady);
    let f = failures_of(&r, "coverage");
    // (it said "4156545564473213: Yellow wins", the only coverage failure without its line)
    assert!(
        f.contains(&format!(
            "4156545564473213: Yellow's reply (after branches line {line}) wins: column 1 there lets Yellow make four"
        )),
        "{f:?}"
    );
}

#[test]
fn a_duplicate_mirrored_diagram_fails_structure() {
    let Some((branches, steady)) = common::upstream() else {
        return;
    };
    let first: Vec<String> = steady
        .lines()
        .filter(|l| !l.starts_with('#') && l.len() == 7)
        .take(6)
        .map(|l| l.chars().rev().collect())
        .collect();
    let text = format!("{steady}\n{}\n", first.join("\n"));
    let r = check_solution(&branches, &text);
    // (its second copy was also "never reached", though its board is)
    assert_eq!(failed(&r), ["structure"]);
    let f = failures_of(&r, "structure");
    assert!(
        f.iter()
            .any(|f| f.starts_with("diagrams 1 (line ")
                && f.ends_with("): the same board, mirrored")),
        "{f:?}"
    );
    assert!(matches!(
        Verifier::new().verify(
            &c4lab_steady::Diagram::parse(&first.join("\n"))
                .unwrap()
                .diagram
        ),
        Verdict::Win { .. }
    ));
}

#[test]
fn empty_or_swapped_files_fail_and_say_why() {
    let Some((branches, steady)) = common::upstream() else {
        return;
    };
    // an empty steady-states file passed the structure check ("0 diagrams parsed")
    let r = check_solution(&branches, "");
    assert!(
        failures_of(&r, "structure")
            .iter()
            .any(|f| f.starts_with("the steady-states file holds no diagram")),
        "{:?}",
        failures_of(&r, "structure")
    );
    // swapped, coverage failed with no failure listed
    let r = check_solution(&steady, &branches);
    assert!(failed(&r).contains(&"coverage"), "{:?}", failed(&r));
    assert_eq!(
        failures_of(&r, "coverage"),
        ["nothing to walk: no branch line for the empty board (see root)"]
    );
    assert!(failures_of(&r, "structure")
        .iter()
        .any(|f| f.starts_with("the branches file holds no branch line")));
}

#[test]
fn an_indented_comment_a_level_grid_and_an_exact_copy_are_read_as_written() {
    let Some((branches, steady)) = common::upstream() else {
        return;
    };
    let leaves = c4lab_steady::solution::parse_leaves(&steady).0;
    let rows: Vec<&str> = steady.lines().skip(leaves[0].line - 1).take(6).collect();
    let first = rows.join("\n");
    // an indented comment inside a diagram was read as its seventh row
    let commented = format!(
        "{}\n   # a note\n{}",
        rows[..3].join("\n"),
        rows[3..].join("\n")
    );
    let r = check_solution(&branches, &steady.replacen(&first, &commented, 1));
    assert!(r.passed(), "{:#?}", r.checks);
    // a diagram in the level language passes, and the summary says so
    let r = check_solution(
        &branches,
        &steady.replacen(&first, &leaves[0].diagram.to_grid(), 1),
    );
    assert!(r.passed(), "{:#?}", r.checks);
    assert_eq!(
        r.checks[0].summary,
        "336 branches, 1295 diagrams parsed (1294 in the old seven-marker language, 1 in the level language)"
    );
    // an exact copy is named as the same board, not mirrored, and not as never reached
    let r = check_solution(&branches, &format!("{steady}\n{first}\n"));
    assert_eq!(failed(&r), ["structure"]);
    assert!(
        failures_of(&r, "structure")
            .iter()
            .any(|f| f.starts_with("diagrams 1 (line ") && f.ends_with("): the same board")),
        "{:?}",
        failures_of(&r, "structure")
    );
    // a node covered twice names both places
    let moves: String = leaves[0]
        .order
        .iter()
        .map(|c| char::from(b'1' + c))
        .collect();
    let column = (1..=7)
        .find(|&c| leaves[0].position.can_play(c - 1))
        .unwrap();
    let r = check_solution(&format!("{branches}{moves}->{column}\n"), &steady);
    let f = failures_of(&r, "coverage");
    assert!(
        f.iter().any(|f| f.contains(&format!(
            "covered more than once (a branch, branches line {}; a diagram, diagram 1 (line {}))",
            branches.lines().count() + 1,
            leaves[0].line
        ))),
        "{f:?}"
    );
}
