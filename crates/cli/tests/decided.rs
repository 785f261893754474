//! `dsat` and `complete` on what leaves them nothing to search: a diagram with no `?`
//! cell (judged as it stands), a root that cannot be played, and the budgets named.

mod common;
use common::*;

#[test]
fn a_decided_diagram_is_judged_as_it_stands_and_a_bad_root_refused() {
    // a diagram with nothing to decide: the verifier's verdict, no map and no round
    let decided = c4lab(&["dsat", "examples/win.txt"], "");
    assert_exit(&decided, 0);
    let said = String::from_utf8_lossy(&decided.stderr);
    assert!(
        said.contains("0 positions mapped") && said.contains(", 0 rounds, 0 dead ends,"),
        "{said}"
    );

    let board = "???????\n???????\n???????\n???????\n?????R?\n?YYY?RR\n";
    let unsat = c4lab(&["dsat", "-"], board);
    assert_eq!(unsat.status.code(), Some(1));
    let said = String::from_utf8_lossy(&unsat.stderr);
    assert!(said.contains("not independently audited"), "{said}");
    // no level budget is "the fewest that can win" when nothing wins
    assert!(!said.contains("can win"), "{said}");
    // with no `?` cell there is nothing to decide: the losing line says why
    for args in [
        &["dsat", "examples/loss.txt"][..],
        &["complete", "examples/loss.txt"],
    ] {
        let lost = c4lab(args, "");
        assert_eq!(lost.status.code(), Some(1), "{args:?}");
        let said = String::from_utf8_lossy(&lost.stderr);
        assert!(
            said.contains(
                "as it stands, and it loses: no-move (no level unique; tied: 9) after 67711132"
            ),
            "{args:?}: {said}"
        );
        let mut json_args = args.to_vec();
        json_args.insert(1, "--json");
        let j: serde_json::Value = serde_json::from_slice(&c4lab(&json_args, "").stdout).unwrap();
        assert_eq!(j["loss"]["line"], "67711132", "{j}");
        assert_eq!(j["loss"]["reason"], "no-move", "{j}");
        // the same fields as verify --json gives a loss (tied and yellow were missing)
        assert_eq!(j["loss"]["tied"], serde_json::json!([9]), "{j}");
        assert_eq!(j["loss"]["yellow"], "7112", "{j}");
    }
    // a diagram with no `?` cell that wins is found as it stands, with no level budget
    // named (it said "level budget 0-0 ... (the fewest that can win)")
    let whole = c4lab(&["dsat", "examples/win.txt"], "");
    assert_eq!(whole.status.code(), Some(0));
    // and its JSON names none either (it gave levels 1, least_levels 1)
    let j: serde_json::Value =
        serde_json::from_slice(&c4lab(&["dsat", "--json", "examples/win.txt"], "").stdout).unwrap();
    assert!(j["levels"].is_null() && j["least_levels"].is_null(), "{j}");
    assert!(j["entrants"][0]["levels"].is_null(), "{j}");
    let said = String::from_utf8_lossy(&whole.stderr);
    assert!(
        said.contains("found") && !said.contains("level budget 0-") && !said.contains("first 0-0"),
        "{said}"
    );

    // and one that wins is said alike by both (complete said "a completion")
    for cmd in ["dsat", "complete"] {
        let won = c4lab(&[cmd, "examples/win.txt"], "");
        assert_exit(&won, 0);
        let said = String::from_utf8_lossy(&won.stderr);
        assert!(
            said.contains("found: with no ? cell the diagram is judged as it stands, and it wins"),
            "{cmd}: {said}"
        );
        // nothing was searched for it: no candidate, no position (complete counted one
        // candidate for a win and none for a loss, each with 7 positions encoded)
        if cmd == "complete" {
            for file in ["examples/win.txt", "examples/loss.txt"] {
                let said = String::from_utf8_lossy(&c4lab(&[cmd, file], "").stderr).into_owned();
                assert!(
                    said.contains("; 0 candidates, ") && said.contains(", 0 positions encoded"),
                    "{file}: {said}"
                );
            }
        }
    }
    // with no `?` cell the verifier answers before anything is mapped: the state budget
    // cannot run out on it (`--max-states 1` said budget, exit 3, for both)
    for (file, code, verdict) in [
        ("examples/win.txt", 0, "found"),
        ("examples/loss.txt", 1, "unsat"),
    ] {
        let tight = c4lab(&["dsat", "--max-states", "1", file], "");
        assert_eq!(tight.status.code(), Some(code), "{file}");
        let said = String::from_utf8_lossy(&tight.stderr);
        assert!(
            said.contains(&format!(
                "{verdict}: with no ? cell the diagram is judged as it stands"
            )),
            "{file}: {said}"
        );
    }

    let wide = "???????\n".repeat(6);
    let budget = c4lab(
        &["dsat", "--max-states", "1000", "--oracle-nodes", "0"],
        &wide,
    );
    assert_eq!(budget.status.code(), Some(3));
    let said = String::from_utf8_lossy(&budget.stderr);
    assert!(said.contains("(no smaller budget ruled out)"), "{said}");
    // a lone search that widens (every level open keeps the first search alone) reads
    // --widening-first-cut: not refused as a setting no search reads
    let lone = c4lab(
        &[
            "dsat",
            "--first-levels",
            "10",
            "--widen-after",
            "3000",
            "--widening-first-cut",
            "6",
            "examples/win.txt",
        ],
        "",
    );
    assert_exit(&lone, 0);
    // which budget ran out is named (it said "the state budget or the round cap")
    assert!(
        said.contains("budget: the state budget ran out (1000 positions; raise --max-states)"),
        "{said}"
    );
    assert_eq!(c4lab(&["dsat"], "R??????\n").status.code(), Some(2));
    // a root that cannot be played is refused with the reason, before any account of
    // the run
    let won = "???????\n???????\nY??????\nY??????\nYR?????\nYRRR???\n";
    let refused = c4lab(&["dsat"], won);
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("Yellow already has four in a row at the root"),
        "{said}"
    );
    assert!(!said.contains("undecided cells"), "{said}");
    // a level budget names one to ten levels
    let zero = c4lab(
        &["dsat", "--first-levels", "0", "examples/complete.txt"],
        "",
    );
    assert_eq!(zero.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&zero.stderr).contains("--first-levels"));
}
