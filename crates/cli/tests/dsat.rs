//! `c4lab dsat` as a script would use it (the benchmark: bench_dsat.rs).

mod common;
use common::*;

/// The diagram of a `dsat --json` report verifies as a win, searching the positions its
/// `verified_positions` says.
fn assert_verifies(report: &serde_json::Value) {
    let grid: Vec<&str> = report["diagram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    let verify = c4lab(&["verify", "--json"], &(grid.join("\n") + "\n"));
    assert_eq!(verify.status.code(), Some(0), "{report}");
    let verdict: serde_json::Value = serde_json::from_str(&stdout(&verify)).unwrap();
    assert!(verdict["positions"].as_u64().unwrap() > 0, "{verdict}");
    assert_eq!(
        report["verified_positions"], verdict["positions"],
        "{report}"
    );
}

#[test]
fn dsat_tries_the_local_search_first_and_says_what_it_did() {
    let json = |flags: &[&str]| -> serde_json::Value {
        let mut args = vec!["dsat", "--json"];
        args.extend_from_slice(flags);
        args.push("examples/complete.txt");
        let out = c4lab(&args, "");
        assert_exit(&out, 0);
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let local = json(&[]);
    assert_eq!(local["verdict"], "found", "{local}");
    assert!(local["local_work"].as_u64().unwrap() > 0, "{local}");
    // it settled the root: no SAT round, no dead end, no position mapped
    assert_eq!(local["rounds"], 0, "{local}");
    assert_eq!(local["conflicts"], 0, "{local}");
    assert_eq!(local["positions"], 0, "{local}");
    assert_verifies(&local);
    // the same again: nothing in it depends on timing
    assert_eq!(json(&[])["diagram"], local["diagram"]);
    // a map deepened before the first round does not throw the local search's find away
    let deepened = json(&["--deepen-after", "0"]);
    assert_eq!(deepened["diagram"], local["diagram"], "{deepened}");
    assert_eq!(deepened["rounds"], 0, "{deepened}");
    // the phase hint only steers a SAT search after a local search that found nothing
    let unhinted = json(&["--no-phase-hint"]);
    assert_eq!(unhinted["diagram"], local["diagram"], "{unhinted}");
    // off: the SAT search alone
    let off = json(&["--local-work", "0"]);
    assert_eq!(off["local_work"], 0, "{off}");
    assert_eq!(off["local_steps"], 0, "{off}");
    assert!(off["rounds"].as_u64().unwrap() > 0, "{off}");
    let said =
        String::from_utf8_lossy(&c4lab(&["dsat", "examples/complete.txt"], "").stderr).into_owned();
    assert!(
        said.contains("found by the local search: a diagram that verifies"),
        "{said}"
    );
    assert!(said.contains("each with a local search first"), "{said}");
    // the header claims a local search only where one runs
    for flags in [["--local-work", "0"], ["--oracle-nodes", "0"]] {
        let mut args = vec!["dsat"];
        args.extend(flags);
        args.push("examples/complete.txt");
        let said = String::from_utf8_lossy(&c4lab(&args, "").stderr).into_owned();
        let first = said.lines().next().unwrap_or_default();
        assert!(!first.contains("with a local search"), "{flags:?}: {said}");
        // and says why none runs where its default budget gave way
        assert_eq!(
            first.contains("no local search (it needs the strong solver: --oracle-nodes 0)"),
            flags[0] == "--oracle-nodes",
            "{flags:?}: {said}"
        );
    }
    // every search runs its own local search: the report says which found the diagram,
    // and what each did
    assert_eq!(local["local_found"], true, "{local}");
    let winner = local["winner"].as_u64().unwrap() as usize;
    let entrants = local["entrants"].as_array().unwrap();
    assert_eq!(
        entrants[winner]["local_work"], local["local_work"],
        "{local}"
    );
    assert_eq!(entrants[winner]["local_found"], true, "{local}");
    assert!(
        entrants.iter().all(|e| e["local_work"].as_u64() > Some(0)),
        "{local}"
    );
    assert_eq!(off["local_found"], false, "{off}");
    // one budget for every search, or one per search; anything else is refused
    let per_search = json(&["--local-work", "0,0"]);
    assert_eq!(per_search["diagram"], off["diagram"], "{per_search}");
    let bad = c4lab(
        &["dsat", "--local-work", "1,2,3", "examples/complete.txt"],
        "",
    );
    assert_exit(&bad, 2);
    let said = String::from_utf8_lossy(&bad.stderr);
    assert!(
        said.contains("--local-work has 3 values for 2 searches"),
        "{said}"
    );
}

#[test]
fn dsat_exit_codes_and_json() {
    // the SAT search alone (the local search first has its own test); a shallow map (the rest is learnt from the verifier's losing lines and a few
    // positions of each failed candidate's tree)
    let found = c4lab(
        &[
            "dsat",
            "--local-work",
            "0",
            "--json",
            "--cut",
            "4",
            "--tree-cap",
            "16",
            "examples/complete.txt",
        ],
        "",
    );
    assert_exit(&found, 0);
    let j: serde_json::Value = serde_json::from_slice(&found.stdout).unwrap();
    assert_eq!(j["verdict"], "found");
    assert_verifies(&j);
    // two searches side by side by default; the winner's verdict is the one reported
    let entrants = j["entrants"].as_array().unwrap();
    assert_eq!(entrants.len(), 2, "{j}");
    let winner = j["winner"].as_u64().unwrap() as usize;
    assert_eq!(entrants[winner]["conflicts"], j["conflicts"], "{j}");
    assert_eq!(entrants[winner]["widen_after"], j["widen_after"], "{j}");
    // the first search starts the clock; a later one reports where it joined
    assert_eq!(entrants[0]["started_at"], 0, "{j}");
    assert!(entrants[1]["started_at"].is_u64(), "{j}");
    // the widening second's dead ends count twice in the race, the first's once
    assert_eq!(entrants[0]["dead_end_weight"], 1, "{j}");
    assert_eq!(entrants[1]["dead_end_weight"], 2, "{j}");
    assert_eq!(entrants[0]["started"], true, "{j}");
    // the run's settings are in the result, each search's own in its entry
    let settings = &j["settings"];
    assert_eq!(settings["cut_plies"], 4, "{j}");
    assert_eq!(settings["tree_cap"], 16, "{j}");
    assert!(settings["fault_paths"].is_u64(), "{j}");
    assert_eq!(entrants[0]["local_work_budget"], 0, "{j}");
    assert_eq!(entrants[1]["local_seed"], 1, "{j}");
    assert_eq!(entrants[0]["phase_hint"], false, "{j}");
    assert!(settings.get("local_seed").is_none(), "{j}");
    // no strong solver, no local search: its budget reads 0 (it read the default)
    let plain = c4lab(
        &[
            "dsat",
            "--json",
            "--cut",
            "4",
            "--oracle-nodes",
            "0",
            "examples/complete.txt",
        ],
        "",
    );
    let plain: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    assert_eq!(plain["entrants"][0]["local_work_budget"], 0, "{plain}");
    // and no hint from a local search that did not run; no cap given, none reported
    assert_eq!(plain["entrants"][1]["phase_hint"], false, "{plain}");
    assert!(plain["settings"]["max_seconds"].is_null(), "{plain}");
    let first_cut = entrants[1]["first_cut_plies"].as_u64();
    assert!(first_cut.is_some_and(|c| c <= 4), "{j}");
    let second_started = entrants[1]["started_at"].as_u64() != Some(0);
    assert_eq!(entrants[1]["started"], second_started, "{j}");
    // released at the smallest head start (half of 1 dead end): a second search that ran
    // is never reported as one that never started
    let eager = c4lab(
        &[
            "dsat",
            "--local-work",
            "0",
            "--json",
            "--widen-after",
            "0,1",
            "examples/incomplete.txt",
        ],
        "",
    );
    let je: serde_json::Value = serde_json::from_slice(&eager.stdout).unwrap();
    for e in je["entrants"].as_array().unwrap() {
        if e["started"] == false {
            assert_eq!(e["rounds"], 0, "{je}");
        }
    }
    // memory: the setup holds each search's 16 MiB strong-solver table, and the
    // positions add their own share on top
    let setup = j["setup_bytes"].as_u64().unwrap();
    assert!(setup >= 32 << 20, "{j}");
    assert!(j["bytes_per_state"].as_u64().unwrap() > 0, "{j}");
    // the run's account names each search's first map: 8 plies, and 10 for the
    // widening one unless --widening-first-cut says otherwise
    for (flags, second) in [(&[][..], 10), (&["--widening-first-cut", "12"][..], 12)] {
        let run = c4lab(
            &[
                &["dsat", "--local-work", "0"],
                flags,
                &["examples/complete.txt"],
            ]
            .concat(),
            "",
        );
        assert_exit(&run, 0);
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(said.contains("mapping to 8 plies below the root"), "{said}");
        // a second search that never started says so, not "stopped after 0 dead ends"
        assert_eq!(said.contains("B never started"), !second_started, "{said}");
        assert!(
            said.contains(&format!("3000 dead ends, {second} plies mapped first")),
            "{said}"
        );
    }
    // counts of one are said in the singular
    let one = c4lab(
        &[
            "dsat",
            "--local-work",
            "0",
            "--widen-after",
            "0",
            "--cut",
            "1",
            "--first-cut",
            "1",
            "--deepen-after",
            "1",
            "--tree-cap",
            "1",
            "examples/complete.txt",
        ],
        "",
    );
    let said = String::from_utf8_lossy(&one.stderr);
    assert!(
        said.contains("mapping to 1 ply below the root, 1 ply after 1 round (at most")
            && said.contains("up to 1 position of each failed candidate's tree"),
        "{said}"
    );
    let no_oracle = c4lab(
        &[
            "dsat",
            "--local-work",
            "0",
            "--json",
            "--cut",
            "4",
            "--oracle-nodes",
            "0",
            "--widen-after",
            "0",
            "examples/complete.txt",
        ],
        "",
    );
    let j: serde_json::Value = serde_json::from_slice(&no_oracle.stdout).unwrap();
    assert_eq!(j["entrants"].as_array().unwrap().len(), 1, "{j}");
    assert!(j["setup_bytes"].as_u64().unwrap() < 8 << 20, "{j}");
    // every level open from the start: no budget grows, so no second search is set up
    // only to wait
    let all_levels = c4lab(
        &[
            "dsat",
            "--local-work",
            "0",
            "--json",
            "--cut",
            "4",
            "--first-levels",
            "10",
            "examples/complete.txt",
        ],
        "",
    );
    let j: serde_json::Value = serde_json::from_slice(&all_levels.stdout).unwrap();
    assert_eq!(j["entrants"].as_array().unwrap().len(), 1, "{j}");
    assert_eq!(j["verdict"], "found", "{j}");
    // CaDiCaL allocates past the counting allocator: no figure rather than a low one
    let cadical = c4lab(
        &[
            "dsat",
            "--local-work",
            "0",
            "--json",
            "--cut",
            "4",
            "--backend",
            "cadical",
            "examples/complete.txt",
        ],
        "",
    );
    assert_exit(&cadical, 0);
    let j: serde_json::Value = serde_json::from_slice(&cadical.stdout).unwrap();
    assert!(
        j["bytes_per_state"].is_null() && j["setup_bytes"].is_null(),
        "{j}"
    );
    let none = c4lab(&["dsat", "--widen-after", "", "examples/complete.txt"], "");
    assert_eq!(none.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&none.stderr).contains("--widen-after"));

    // --log-rounds: a line per round of each search, agreeing with the report
    let log = std::env::temp_dir().join(format!("c4lab-rounds-{}.jsonl", std::process::id()));
    let logged = c4lab(
        &[
            "dsat",
            "--local-work",
            "0",
            "--json",
            "--cut",
            "4",
            "--log-rounds",
            log.to_str().unwrap(),
            "examples/complete.txt",
        ],
        "",
    );
    assert_exit(&logged, 0);
    let j: serde_json::Value = serde_json::from_slice(&logged.stdout).unwrap();
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    std::fs::remove_file(&log).ok();
    for (i, entrant) in j["entrants"].as_array().unwrap().iter().enumerate() {
        let name = ["A", "B"][i];
        let own: Vec<&serde_json::Value> = lines.iter().filter(|l| l["search"] == name).collect();
        assert_eq!(
            own.len() as u64,
            entrant["rounds"].as_u64().unwrap(),
            "{j} {own:?}"
        );
        let Some(last) = own.last() else { continue };
        assert!(
            last["seconds"].as_f64().is_some_and(|s| s >= 0.0),
            "{own:?}"
        );
        // a search that lost the race (or was cut off) says so, not "verdict", and one
        // that ran out of states ends on the round that refuted its last candidate
        let ended = match entrant["verdict"].as_str() {
            Some("stopped") => "stopped",
            Some("budget") => "refuted",
            _ => "verdict",
        };
        assert_eq!(last["ended"], ended, "{j} {own:?}");
        assert_eq!(last["dead_ends"], entrant["conflicts"], "{j} {own:?}");
        assert_eq!(last["levels"], entrant["levels"], "{j} {own:?}");
        for w in own.windows(2) {
            let ends = [&w[0], &w[1]].map(|r| r["dead_ends"].as_u64().expect("a count"));
            assert!(ends[0] <= ends[1], "{own:?}");
            // each line says when its round ended, from the run's start
            let at = [&w[0], &w[1]].map(|r| r["seconds"].as_f64().expect("seconds"));
            assert!(0.0 <= at[0] && at[0] <= at[1], "{own:?}");
            let grew = ["too-few-levels", "widened"].contains(&w[0]["ended"].as_str().unwrap());
            let step = w[1]["levels"].as_u64().unwrap() - w[0]["levels"].as_u64().unwrap();
            assert_eq!(step, u64::from(grew), "{own:?}");
        }
    }
    assert!(lines.iter().any(|l| l["ended"] == "refuted"), "{lines:?}");
    // a search that runs out of states ends on the round that refuted its candidate (its
    // last line said "verdict", as if it had found or proved something)
    let root = "???Y???\n???R???\n?R?Y?R?\n?Y?R?Y?\n?R?Y?R?\nYY?RRY?\n";
    let budget = c4lab(
        &[
            "dsat",
            "--max-states",
            "7000",
            "--local-work",
            "0",
            "--widen-after",
            "0",
            "--log-rounds",
            log.to_str().unwrap(),
        ],
        root,
    );
    assert_exit(&budget, 3);
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::remove_file(&log).ok();
    let last: serde_json::Value =
        serde_json::from_str(text.lines().last().expect("a round")).unwrap();
    assert_eq!(last["ended"], "refuted", "{text}");
    let missing = c4lab(
        &[
            "dsat",
            "--local-work",
            "0",
            "--log-rounds",
            "no-such-dir/r.jsonl",
            "examples/complete.txt",
        ],
        "",
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no-such-dir/r.jsonl"));

    // a level budget: the `?` cells come back below the budget the search ended with
    let budgeted = c4lab(
        &[
            "dsat",
            "--local-work",
            "0",
            "--json",
            "--cut",
            "4",
            "--first-levels",
            "1",
            "examples/complete.txt",
        ],
        "",
    );
    assert_exit(&budgeted, 0);
    let j: serde_json::Value = serde_json::from_slice(&budgeted.stdout).unwrap();
    let levels = j["levels"].as_u64().unwrap();
    assert!((2..=10).contains(&levels), "{j}");
    let input = std::fs::read_to_string(repo().join("examples/complete.txt")).unwrap();
    let input_rows = input.lines().filter(|l| !l.starts_with('#'));
    for (row, given) in j["diagram"].as_array().unwrap().iter().zip(input_rows) {
        for (c, g) in row.as_str().unwrap().chars().zip(given.chars()) {
            if g == '?' {
                assert!(u64::from(c.to_digit(10).unwrap()) < levels, "{j}");
            }
        }
    }

    // symmetry breaking is on unless --level-gaps turns it off; either way a winner
    for (flags, note) in [
        (&[][..], true),
        (&["--level-gaps", "--first-levels", "10"][..], false),
    ] {
        let mut args = vec!["dsat", "--local-work", "0", "--cut", "4"];
        args.extend_from_slice(flags);
        args.push("examples/complete.txt");
        let run = c4lab(&args, "");
        assert_exit(&run, 0);
        let header = String::from_utf8_lossy(&run.stderr);
        assert_eq!(header.contains("no gap between levels"), note, "{header}");
        let grid = String::from_utf8_lossy(&run.stdout);
        assert_eq!(
            c4lab(&["verify"], grid.as_bytes()).status.code(),
            Some(0),
            "{grid}"
        );
    }
}

#[test]
fn the_second_search_starts_only_after_a_round_that_does_not_end_the_first() {
    // the first search alone, its rounds logged: the most dead ends a level budget took
    // before its last round and after it
    let log = std::env::temp_dir().join(format!("c4lab-release-{}.jsonl", std::process::id()));
    let log_s = log.display().to_string();
    let run = |widen: &str| -> (serde_json::Value, Vec<serde_json::Value>) {
        let args = [
            "dsat",
            "--local-work",
            "0",
            "--json",
            "--widen-after",
            widen,
            "--log-rounds",
            &log_s,
            "examples/complete.txt",
        ];
        let j = serde_json::from_slice(&c4lab(&args, "").stdout).unwrap();
        let text = std::fs::read_to_string(&log).unwrap();
        let rounds = (text.lines())
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|r| r["search"] == "A")
            .collect();
        (j, rounds)
    };
    let (alone, rounds) = run("0");
    assert_eq!(alone["verdict"], "found", "{alone}");
    // (a budget's dead ends count from the end of the round before it)
    let (mut since, mut level, mut before_end, mut widest) = (0, 1, 0, Vec::new());
    for r in &rounds {
        let dead_ends = r["dead_ends"].as_u64().unwrap();
        if r["levels"] != level {
            (since, level) = (before_end, r["levels"].as_u64().unwrap());
        }
        let most = widest.last().copied().unwrap_or(0);
        widest.push(most.max(dead_ends - since));
        before_end = dead_ends;
    }
    let (last, before) = match widest[..] {
        [.., before, last] => (last, before),
        _ => panic!("the test needs a root of two rounds or more: {rounds:?}"),
    };
    assert!(last > before && before > 0, "{widest:?}");
    // a mark only the round that finds passes: the second never starts (it was let go
    // at the first's final count and reported as started, with no round run)
    let (j, _) = run(&format!("0,{}", 2 * last));
    assert_eq!(j["entrants"][1]["started"], false, "{j}");
    assert_eq!(j["entrants"][1]["started_at"], 0, "{j}");
    // a mark an earlier round passes: let go at the end of that round, at its count
    let (j, raced) = run(&format!("0,{}", 2 * before));
    let at = widest.iter().position(|&w| w >= before).unwrap();
    assert_eq!(j["entrants"][1]["started"], true, "{j}");
    assert_eq!(
        j["entrants"][1]["started_at"], raced[at]["dead_ends"],
        "{j}"
    );
    std::fs::remove_file(&log).ok();
}

#[test]
fn a_map_of_exactly_the_state_budget_is_complete_not_over_it() {
    // a root found in its first round, on its first map alone: that map's size as the
    // budget is enough (it said budget, exit 3), one position less is not
    let run = |max: &str| {
        let args = [
            "dsat",
            "--json",
            "--local-work",
            "0",
            "--widen-after",
            "0",
            "--max-states",
            max,
            "examples/incomplete.txt",
        ];
        let out = c4lab(&args, "");
        let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (out.status.code(), j)
    };
    let (code, j) = run("2000000");
    assert_eq!((code, j["rounds"].as_u64()), (Some(0), Some(1)), "{j}");
    let mapped = j["positions"].as_u64().unwrap();
    let (code, j) = run(&mapped.to_string());
    assert_eq!(code, Some(0), "{j}");
    assert_eq!(j["verdict"], "found", "{j}");
    let (code, j) = run(&(mapped - 1).to_string());
    assert_eq!(code, Some(3), "{j}");
    assert_eq!(j["verdict"], "budget", "{j}");
}

#[cfg(target_os = "linux")]
#[test]
fn on_a_terminal_dsat_shows_its_local_search_then_the_mapping_gauge() {
    // (the gauge's style was set from the start and hid the local search's line, so its
    // steps and work were never seen while it ran)
    let dir = std::env::temp_dir().join(format!("c4lab-dsat-tty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // the upstream root 6566664545444452, every level cell undecided: a local search
    // of a second or so that finds nothing (its first report comes after its first walk,
    // about 2.8 M of work)
    let grid = dir.join("root.txt");
    std::fs::write(
        &grid,
        "???Y???\n???R?Y?\n???YRR?\n???RYY?\n???RYR?\n?Y?RYR?\n",
    )
    .unwrap();
    let command = format!(
        "{} dsat --max-seconds 6 --widen-after 0 --local-work 5000000 {}",
        env!("CARGO_BIN_EXE_c4lab"),
        grid.display()
    );
    let Some(shown) = on_a_terminal(&command) else {
        return;
    };
    let local = shown
        .find("local search: ")
        .unwrap_or_else(|| panic!("{shown}"));
    let gauge = shown.find("mapping [").unwrap_or_else(|| panic!("{shown}"));
    assert!(local < gauge, "{shown}");
    assert!(shown.contains("of 5000000"), "{shown}");
    std::fs::remove_dir_all(&dir).ok();
}
