//! How `c4lab` ends on a stopping signal: searches stop with their summary, signals
//! ignored at the start stay ignored (`nohup`), and progress bars are cleared.

mod common;
use common::*;
use std::process::{Command, Stdio};

#[cfg(unix)]
#[test]
fn sigterm_and_sighup_stop_complete_and_dsat_as_ctrl_c_does() {
    use std::time::{Duration, Instant};
    let (dir, grid) = empty_board_undecided("sigterm");
    let (root, log) = hard_root(&dir);
    let grid = grid.to_str().unwrap();
    let dsat = dsat_logging_rounds(&root, &log);
    let runs: [(&str, Vec<&str>); 3] = [
        ("TERM", vec!["complete", "--json", grid]),
        ("HUP", vec!["complete", "--json", grid]),
        ("TERM", dsat.clone()),
    ];
    let logged = || std::fs::read_to_string(&log).map_or(0, |t| t.lines().count());
    for (signal, args) in runs {
        let mut child = c4lab_command(&args, Stdio::piped, false).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        // dsat: a few seconds of rounds (about 30 on a quiet machine), logged
        if args[0] == "dsat" {
            std::thread::sleep(Duration::from_millis(2500));
        }
        send(signal, child.id());
        // (a guard against a hang, not a speed claim)
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > Duration::from_secs(20) {
                let _ = child.kill();
                panic!("SIG{signal} {args:?}: still running 20 s later");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let out = child.wait_with_output().unwrap();
        // (it ended by the signal, 143 in a shell, with no summary)
        assert_eq!(out.status.code(), Some(3), "SIG{signal} {args:?}: {out:?}");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(report["verdict"], "stopped", "SIG{signal} {args:?}");
        // (the rounds log was left empty: written only as the search ended)
        if args[0] == "dsat" {
            assert!(logged() > 0, "no round logged");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(unix)]
#[test]
fn the_round_log_holds_each_round_as_it_ends() {
    use std::time::{Duration, Instant};
    let (dir, _) = empty_board_undecided("round-log");
    let (root, log) = hard_root(&dir);
    let args = dsat_logging_rounds(&root, &log);
    let mut child = c4lab_command(&args, Stdio::null, false).spawn().unwrap();
    let logged = || std::fs::read_to_string(&log).map_or(0, |t| t.lines().count());
    let start = Instant::now();
    // (a guard against a hang, not a speed claim)
    while logged() == 0 && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let first_seen = logged();
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(running, "the search ended before its log showed a round");
    // (buffered, the lines came some seventy at a time, the first only seconds in)
    assert!(
        (1..=5).contains(&first_seen),
        "{first_seen} rounds were the first seen in the log"
    );
    let lines = std::fs::read_to_string(&log).unwrap();
    for line in lines.lines() {
        let round: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(round["dead_ends"].is_u64(), "{line}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// In `dir`, the upstream root 6566664545444452 with every level cell undecided (a SAT
/// search of many rounds), and the path for its round log.
fn hard_root(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let root = dir.join("root.txt");
    std::fs::write(
        &root,
        "???Y???\n???R?Y?\n???YRR?\n???RYY?\n???RYR?\n?Y?RYR?\n",
    )
    .unwrap();
    (root, dir.join("rounds.log"))
}

/// `dsat` on `root`, the SAT search alone (one search, no local search), a line per
/// round to `log`.
fn dsat_logging_rounds<'a>(root: &'a std::path::Path, log: &'a std::path::Path) -> Vec<&'a str> {
    let (root, log) = (root.to_str().unwrap(), log.to_str().unwrap());
    vec![
        "dsat",
        "--json",
        "--local-work",
        "0",
        "--widen-after",
        "0",
        "--log-rounds",
        log,
        root,
    ]
}

/// A scratch folder for the test `tag`, and in it a grid of the empty board with every
/// cell undecided (far more than a second of search for `complete` and `dsat`).
fn empty_board_undecided(tag: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("c4lab-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let grid = dir.join("empty.txt");
    std::fs::write(&grid, "???????\n".repeat(6)).unwrap();
    (dir, grid)
}

/// Sends the signal named `name` (`TERM`) to the process `pid`.
fn send(name: &str, pid: u32) {
    let sent = std::process::Command::new("kill")
        .args([&format!("-{name}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -{name} {pid}");
}

/// `c4lab args` run from the repository, its output to `output` (piped or dropped),
/// started with the stopping signals at their defaults whatever this test runner was
/// started ignoring, but for SIGHUP when `ignoring_hup` (as `nohup` starts it).
#[cfg(unix)]
fn c4lab_command(args: &[&str], output: fn() -> Stdio, ignoring_hup: bool) -> Command {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(env!("CARGO_BIN_EXE_c4lab"));
    command
        .args(args)
        .current_dir(repo())
        .stdout(output())
        .stderr(output());
    // SAFETY: between fork and exec only signal(), which is async-signal-safe
    unsafe {
        command.pre_exec(move || {
            for s in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::signal(s, libc::SIG_DFL);
            }
            if ignoring_hup {
                libc::signal(libc::SIGHUP, libc::SIG_IGN);
            }
            Ok(())
        });
    }
    command
}

#[cfg(unix)]
#[test]
fn a_run_started_under_nohup_keeps_ignoring_sighup() {
    use std::os::unix::process::ExitStatusExt;
    use std::time::Duration;
    let (dir, grid) = empty_board_undecided("nohup");
    let out = dir.join("corpus");
    // a search that stops on signals, and a writer whose handler removes its .part files
    let runs: [(Vec<&str>, Option<i32>); 2] = [
        (
            vec!["dsat", "--local-work", "0", grid.to_str().unwrap()],
            None,
        ),
        (
            vec![
                "corpus",
                "generate",
                "--games",
                "1000000",
                "--out",
                out.to_str().unwrap(),
            ],
            Some(15),
        ),
    ];
    for (args, by_signal) in runs {
        let mut child = c4lab_command(&args, Stdio::null, true).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(2000));
        // a closed terminal: ignored, as nohup asked (it ended the run, or stopped it)
        send("HUP", child.id());
        std::thread::sleep(Duration::from_millis(1000));
        assert!(
            child.try_wait().unwrap().is_none(),
            "{args:?} ended on SIGHUP"
        );
        send("TERM", child.id());
        let status = child.wait().unwrap();
        match by_signal {
            None => assert_eq!(status.code(), Some(3), "{args:?}: {status:?}"),
            Some(s) => assert_eq!(status.signal(), Some(s), "{args:?}: {status:?}"),
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[cfg(target_os = "linux")]
#[test]
fn a_signal_that_ends_training_clears_its_progress_bar() {
    let g = Generated::new("bar-cleared");
    let (corpus, targets, _, _) = g.paths();
    let model = format!("{}/m.c4m", g.d);
    // on a terminal, ended by SIGTERM three seconds in
    let train = format!(
        "{} train --load-corpus {corpus} --perply-targets {targets} --steps 100000000 --out {model}",
        env!("CARGO_BIN_EXE_c4lab")
    );
    let shell = format!("{train} & pid=$!; sleep 3; kill -TERM $pid; wait $pid");
    let Some(shown) = on_a_terminal(&format!("sh -c '{shell}'")) else {
        return;
    };
    let end = shown.rfind("ended=").unwrap();
    let bar = shown.rfind(" steps, ").expect(&shown);
    assert!(shown[end..].starts_with("ended=143"), "{shown:?}");
    // the bar's last frame is erased before the program ends (it stayed, and the shell
    // wrote on after it)
    assert!(shown[bar..end].contains("\u{1b}[2K"), "{:?}", &shown[bar..]);
}
