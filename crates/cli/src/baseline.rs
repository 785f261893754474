//! `bench solver --baseline`: another solver run over a set as a child process, its
//! answers read back and checked.

use std::io::Read;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

/// One run of the `--baseline` solver over a set.
pub(crate) struct BaselineRun {
    /// Positions it answered.
    pub(crate) positions: usize,
    /// Answers that differ from the set's exact score (or are missing).
    pub(crate) mismatches: usize,
    /// Its own reported search time, summed, in microseconds.
    pub(crate) micros: f64,
    /// Its reported nodes, summed.
    pub(crate) nodes: f64,
    /// The whole process, start to exit, in seconds.
    pub(crate) wall: f64,
    /// The first position it scored wrong: (moves, expected, its score).
    pub(crate) first_mismatch: Option<(String, c4lab_solver::Score, c4lab_solver::Score)>,
}

impl BaselineRun {
    /// The faster of this run and `before`, with the mismatches of both: a wrong score
    /// in any run counts, whichever run was fastest.
    pub(crate) fn fastest_of(self, before: Option<BaselineRun>) -> BaselineRun {
        let Some(before) = before else {
            return self;
        };
        let mismatches = self.mismatches.max(before.mismatches);
        let first_mismatch = before
            .first_mismatch
            .clone()
            .or(self.first_mismatch.clone());
        let fastest = if self.micros < before.micros {
            self
        } else {
            before
        };
        BaselineRun {
            mismatches,
            first_mismatch,
            ..fastest
        }
    }
}

/// Has the process `command` starts end when this one does (Linux: it gets SIGTERM),
/// so that a bench killed mid-run leaves no solve running on for its whole cap (a
/// shell's Ctrl-C reaches the children anyway; `kill` and job schedulers do not).
pub(crate) fn ended_with_us(command: &mut std::process::Command) -> &mut std::process::Command {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: between fork and exec the closure only makes one system call, which
        // touches no memory of this process
        unsafe {
            command.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
                Ok(())
            });
        }
    }
    command
}

/// The program a `--baseline` command runs: its first word.
fn program_of(command: &str) -> Result<&str> {
    command
        .split_whitespace()
        .next()
        .context("--baseline is empty: give the program to run (and its arguments)")
}

/// Refuses a `--baseline` command whose program cannot start (said before the table,
/// not after the first set).
pub(crate) fn check_program(command: &str) -> Result<()> {
    let program = program_of(command)?;
    if !program_exists(program) {
        bail!("--baseline: no program {program} (give the path of a solver, or a program on PATH)");
    }
    Ok(())
}

/// Whether `program` names a file, as a path (one with a `/`) or on `PATH`, as a
/// process start would find it.
fn program_exists(program: &str) -> bool {
    if program.contains('/') {
        return std::path::Path::new(program).is_file();
    }
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// Runs `command` on `cases` (their move sequences on stdin) and reads its answers.
pub(crate) fn run_baseline(
    command: &str,
    cases: &[c4lab_solver::BenchCase],
) -> Result<BaselineRun> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let program = program_of(command)?;
    let mut words = command.split_whitespace();
    words.next();
    let input: String = cases.iter().map(|c| format!("{}\n", c.moves)).collect();
    let start = Instant::now();
    let mut child = ended_with_us(&mut Command::new(program))
        .args(words)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .with_context(|| format!("--baseline: cannot start {program}"))?;
    let mut stdin = child.stdin.take().expect("piped");
    // written from a thread so that a baseline writing as it reads cannot deadlock
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    // read up to a bound: a baseline that writes without end (`yes`) would fill the
    // memory; a line per position is far below it
    let cap = cases.len() * 256 + 4096;
    let pipe = child.stdout.take().expect("piped");
    let (said, heard) = std::sync::mpsc::channel();
    let answers = cases.len();
    let reader = std::thread::spawn(move || read_answers(pipe, cap, answers, said));
    // a baseline that answers every position and then does not exit would be waited on
    // without end: it is given EXIT_GRACE to end its output, and as long again to exit
    let answered = matches!(heard.recv(), Ok(Heard::Answered));
    if answered && heard.recv_timeout(EXIT_GRACE).is_err() {
        let _ = child.kill();
        let _ = child.wait();
        bail!(
            "--baseline: {program} answered all {} positions but had not ended its output {} s later, so it was stopped: a baseline must exit once its input ends",
            cases.len(),
            EXIT_GRACE.as_secs()
        );
    }
    let stdout = reader
        .join()
        .map_err(|_| anyhow::anyhow!("--baseline: the output reader panicked"))??;
    if stdout.len() > cap {
        let _ = child.kill();
        let _ = child.wait();
        bail!(
            "--baseline: {program} wrote more than {cap} bytes for {} positions; one line each is expected",
            cases.len()
        );
    }
    let Some(status) = exited_within(&mut child, EXIT_GRACE)? else {
        let _ = child.kill();
        let _ = child.wait();
        bail!(
            "--baseline: {program} closed its output but had not exited {} s later, so it was stopped: a baseline must exit once its input ends",
            EXIT_GRACE.as_secs()
        );
    };
    let out = std::process::Output {
        status,
        stdout,
        stderr: Vec::new(),
    };
    let wall = start.elapsed().as_secs_f64();
    let written = writer
        .join()
        .map_err(|_| anyhow::anyhow!("--baseline: the input writer panicked"))?;
    // the exit status first: a program that failed has often not read its input either
    anyhow::ensure!(
        out.status.success(),
        "--baseline: {program} exited with {}",
        out.status
    );
    // as text, not as an I/O error: a broken pipe here is the baseline's, not stdout's
    if let Err(e) = written {
        bail!("--baseline: {program} did not read its input ({e})");
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.len() != cases.len() {
        bail!(
            "--baseline: {program} answered {} of the {} positions (one line each expected)",
            lines.len(),
            cases.len()
        );
    }
    let mut run = BaselineRun {
        positions: lines.len(),
        mismatches: 0,
        micros: 0.0,
        nodes: 0.0,
        wall,
        first_mismatch: None,
    };
    // a count or a time is a finite number, not negative (`f64` also reads `NaN`,
    // `inf` and `-1`, which summed into a table of nonsense)
    let count = |field: &str| {
        field
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && *v >= 0.0)
    };
    for (i, (line, case)) in lines.iter().zip(cases).enumerate() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let parsed = match fields[..] {
            [.., score, nodes, micros] => score
                .parse::<c4lab_solver::Score>()
                .ok()
                .zip(count(nodes))
                .zip(count(micros)),
            _ => None,
        };
        let ((score, nodes), micros) = parsed.with_context(|| {
            format!(
                "--baseline: output line {} is {line:?}; expected `<score> <nodes> <microseconds>` at its end (nodes and microseconds numbers of zero or more)",
                i + 1
            )
        })?;
        // a line that starts with moves must answer the position sent on that line
        // (answers out of order were matched to the wrong positions)
        if let [moves, _, _, _] = fields[..] {
            let sent = if case.moves.is_empty() {
                "-"
            } else {
                case.moves.as_str()
            };
            if moves != sent {
                bail!(
                    "--baseline: output line {} answers {moves}, but the position sent there is {sent}: the answers must come in the input's order",
                    i + 1
                );
            }
        }
        if score != case.score {
            run.mismatches += 1;
            run.first_mismatch
                .get_or_insert((case.moves.clone(), case.score, score));
        }
        run.nodes += nodes;
        run.micros += micros;
    }
    Ok(run)
}

/// How long a baseline may take, once it has answered every position, to end its output
/// and exit (a solver exits within milliseconds of its input's end).
const EXIT_GRACE: Duration = Duration::from_secs(5);

/// What the output reader has heard.
enum Heard {
    /// Every position has its line (the output may go on).
    Answered,
    /// The output ended, or passed its bound.
    Ended,
}

/// Reads the baseline's output to its end or to `cap` + 1 bytes, saying when the
/// `answers`-th non-blank line is complete and when the output ends.
fn read_answers(
    mut pipe: impl Read,
    cap: usize,
    answers: usize,
    said: Sender<Heard>,
) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut chunk = [0u8; 8192];
    // complete non-blank lines so far, and whether the current line holds a non-space
    let (mut lines, mut filled) = (0, false);
    while out.len() <= cap {
        let n = match pipe.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n.min(cap + 1 - out.len()),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = said.send(Heard::Ended);
                return Err(e);
            }
        };
        for &b in &chunk[..n] {
            if b == b'\n' {
                if filled {
                    lines += 1;
                    if lines == answers {
                        let _ = said.send(Heard::Answered);
                    }
                }
                filled = false;
            } else if !b.is_ascii_whitespace() {
                filled = true;
            }
        }
        out.extend_from_slice(&chunk[..n]);
    }
    let _ = said.send(Heard::Ended);
    Ok(out)
}

/// The child's exit status once it exits, or None if it is still running after `grace`
/// (polled, first often: a solver whose output has ended is usually gone already).
fn exited_within(
    child: &mut std::process::Child,
    grace: Duration,
) -> Result<Option<std::process::ExitStatus>> {
    let start = Instant::now();
    let mut pause = Duration::from_micros(200);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if start.elapsed() >= grace {
            return Ok(None);
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}
