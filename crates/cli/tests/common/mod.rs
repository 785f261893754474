//! Helpers the CLI test files share: the repository, upstream's files, running `c4lab`.
#![allow(dead_code)]

use std::io::Write;
pub use std::path::PathBuf;
pub use std::process::Output;
use std::process::{Command, Stdio};

mod generated;
#[allow(unused_imports)]
pub use generated::{Generated, TRAIN_SETTINGS};

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Upstream's steady_states.txt, or None (with a note) when it is not beside the repo.
pub fn upstream_states() -> Option<PathBuf> {
    let states = repo().join("../shared/data/upstream/steady_states.txt");
    if !states.exists() {
        eprintln!(
            "skipped: upstream's solution is not at {}",
            states.display()
        );
        return None;
    }
    Some(states)
}

/// Runs `c4lab` with `stdin` (text, or bytes that need not be UTF-8) as its input.
pub fn c4lab(args: &[&str], stdin: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_c4lab"))
        .args(args)
        .current_dir(repo())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("c4lab runs");
    // a command may refuse its arguments and end before it reads its input: the pipe
    // is then closed, and the output says what happened
    let written = child.stdin.take().unwrap().write_all(stdin.as_ref());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

/// Runs `c4lab` with the open file `stdin` (a shell's `< FILE`) as its standard input.
pub fn c4lab_reading(args: &[&str], stdin: std::fs::File) -> Output {
    Command::new(env!("CARGO_BIN_EXE_c4lab"))
        .args(args)
        .current_dir(repo())
        .stdin(stdin)
        .output()
        .expect("c4lab runs")
}

/// Runs `c4lab` with its standard output a pipe whose reader has already gone away
/// (as `c4lab ... | head` once `head` has read enough).
pub fn c4lab_into_closed_pipe(args: &[&str], stdin: &str) -> Output {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let mut child = Command::new(env!("CARGO_BIN_EXE_c4lab"))
        .args(args)
        .current_dir(repo())
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("c4lab runs");
    // a command that ends before reading its input is what this tests, not a failure
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

/// Runs `command` (a shell line) on a terminal (`script`, util-linux) and returns what
/// the terminal showed, ending `ended=<its exit code>`; None, with a note, where
/// `script` could not give it one (no pty to open, as in some containers: nothing ran).
pub fn on_a_terminal(command: &str) -> Option<String> {
    let run = format!("{command}; echo ended=$?");
    let out = Command::new("script")
        .args(["-qec", &run, "/dev/null"])
        .output();
    let shown = match &out {
        Ok(o) => String::from_utf8_lossy(&o.stdout).into_owned(),
        Err(_) => String::new(),
    };
    if !shown.contains("ended=") {
        eprintln!("skipped: `script` could not give c4lab a terminal here");
        return None;
    }
    Some(shown)
}

/// Asserts the exit code, showing the command's error output otherwise.
pub fn assert_exit(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs `c4lab args`, sends it Ctrl-C (SIGINT) once `ready` holds (checked every 20 ms
/// for up to 30 s; otherwise the run is killed and the test fails, naming `what` it
/// waited for), and checks that it ended by the signal, as it would without a handler,
/// so a shell loop stops on it.
#[cfg(unix)]
pub fn interrupt_once(args: &[&str], ready: impl Fn() -> bool, what: &str) {
    stop_once("INT", 2, args, ready, what);
}

/// As [`interrupt_once`], with the signal given by name and number (`TERM`, 15).
pub fn stop_once(name: &str, number: i32, args: &[&str], ready: impl Fn() -> bool, what: &str) {
    use std::os::unix::process::ExitStatusExt;
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_c4lab"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    let mut ok = ready();
    while !ok && t.elapsed() < Duration::from_secs(30) {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("c4lab ended ({status:?}) before {what}");
        }
        std::thread::sleep(Duration::from_millis(20));
        ok = ready();
    }
    let sent = ok
        && Command::new("kill")
            .args([&format!("-{name}"), &child.id().to_string()])
            .status()
            .is_ok_and(|s| s.success());
    if !sent {
        let _ = child.kill();
        let _ = child.wait();
        panic!("waited 30 s for {what}, or could not send SIG{name}");
    }
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(number), "{status:?}");
}

/// Writes `body` (a shell script) to `path` and makes it executable: a stand-in program
/// for a `--baseline`.
#[cfg(unix)]
pub fn script(path: &std::path::Path, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

/// Whether this machine's kernel refuses a 64 GiB allocation outright: Linux with
/// heuristic or strict overcommit, and under 48 GiB of memory and swap together.
pub fn table_refused_here() -> bool {
    let refused = kernel_refuses_64_gib();
    if !refused {
        eprintln!("skipped: this kernel may grant a 64 GiB table, so its refusal is not tested");
    }
    refused
}

/// [`table_refused_here`]'s test of the kernel's settings.
fn kernel_refuses_64_gib() -> bool {
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
    if !matches!(read("/proc/sys/vm/overcommit_memory").trim(), "0" | "2") {
        return false;
    }
    let kib = |key: &str| -> Option<u64> {
        let info = read("/proc/meminfo");
        let line = info.lines().find(|l| l.starts_with(key))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    match (kib("MemTotal:"), kib("SwapTotal:")) {
        (Some(m), Some(s)) => m + s < 48 << 20,
        _ => false,
    }
}
