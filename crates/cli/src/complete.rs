//! `c4lab complete` (auto-complete by CEGIS; its benchmark: complete_bench.rs).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use c4lab_board::format_moves;
use c4lab_steady::{Counterexample, Diagram};
use c4lab_synth::{Completer, Completion, Progress, Step};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::complete_args::SearchArgs;
use crate::input::read_diagram;
use crate::line_log::{refuse_clash, LineLog};
use crate::plain::with_status_lines;
use crate::verify::RootValue;

/// Above this many `?` cells the scope is called wide before the search starts.
const WIDE_SCOPE: usize = 20;

/// Parses a time cap in seconds: a positive number a `Duration` can hold.
pub fn seconds_arg(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        // (a positive time below a nanosecond is a nanosecond, as `stop_flag` waits it)
        Ok(s) if s > 0.0 && Duration::try_from_secs_f64(s).is_ok() => Ok(s),
        // (it said "positive" of 1e20 too)
        Ok(s) if s > 0.0 => Err("expected a number of seconds no larger than about 1.8e19".into()),
        _ => Err("expected a positive number of seconds".into()),
    }
}

/// Raises `stop` after `seconds` (if given) and on Ctrl-C, SIGTERM or SIGHUP.
pub fn stop_flag(seconds: Option<f64>) -> Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    if let Some(s) = seconds {
        // a positive time below a nanosecond still waits one
        let wait = Duration::try_from_secs_f64(s)
            .ok()
            .filter(|_| s > 0.0)
            .map(|d| d.max(Duration::from_nanos(1)))
            .with_context(|| {
                // (a huge value in full would run to hundreds of digits)
                let got = if s.abs() < 1e15 { format!("{s}") } else { format!("{s:e}") };
                format!("--max-seconds must be a positive number of seconds no larger than about 1.8e19, got {got}")
            })?;
        let flag = stop.clone();
        std::thread::spawn(move || {
            std::thread::sleep(wait);
            flag.store(true, Ordering::Relaxed);
        });
    }
    #[cfg(unix)]
    for signal in crate::files::stopping_signals() {
        // (a signal the process ignores stays ignored: `nohup` keeps a closed terminal
        // from stopping the search)
        let _ = signal_hook::flag::register(signal, stop.clone());
    }
    #[cfg(not(unix))]
    {
        let flag = stop.clone();
        // a second handler cannot be installed (tests call this twice in one process):
        // then Ctrl-C keeps its default meaning
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed));
    }
    Ok(stop)
}

fn progress_line(p: &Progress) -> String {
    let deepest = match &p.deepest {
        Some((_, cx)) => format!(
            "deepest loss {} plies ({} after {})",
            cx.line.len(),
            cx.reason.name(),
            format_moves(&cx.line)
        ),
        None => "no loss yet".into(),
    };
    // losing cores are opt-in: counted only once there are some
    let cores = if p.cores > 0 {
        format!(", {} losing cores", p.cores)
    } else {
        String::new()
    };
    format!(
        "{}, {}, {}{cores}, {}; {deepest}",
        counted(p.candidates, "candidate"),
        counted(p.clauses, "clause"),
        counted(p.positions, "position"),
        counted(p.conflicts, "dead end")
    )
}

/// `n word`, the word in the plural (an `s` added) unless `n` is 1.
pub(crate) fn counted(n: impl Into<u64>, word: &str) -> String {
    let n = n.into();
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// One candidate's line of `--log-candidates`: `lost` is its counterexample, None for
/// the candidate that won.
fn log_candidate(log: &LineLog, p: &Progress, diagram: &Diagram, lost: Option<&Counterexample>) {
    let mut line = json!({
        "candidate": p.candidates,
        "diagram": diagram.to_grid().lines().collect::<Vec<_>>(),
        "won": lost.is_none(),
        "clauses": p.clauses,
        "positions": p.positions,
    });
    // (its loss as `verify --json` gives it: reason, line, yellow, and tied levels)
    if let Some(cx) = lost {
        line["loss"] = cx.to_json();
    }
    log.write(&line);
}

/// `c4lab complete`; `log_candidates` names a file for a line per candidate.
pub fn complete(
    file: Option<&Path>,
    json_out: bool,
    max_seconds: Option<f64>,
    args: &SearchArgs,
    log_candidates: Option<&Path>,
) -> Result<u8> {
    args.check()?;
    if let Some(log) = log_candidates {
        refuse_clash("--log-candidates", "candidate log", log, file)?;
    }
    let input = read_diagram(file)?;
    let diagram = input.diagram;
    // the time said at the end counts from where --max-seconds does (from after the
    // set-up, a 2 s stop was said to come at 1.86 s)
    let start = Instant::now();
    let stop = stop_flag(max_seconds)?;
    let mut completer = Completer::new(&diagram, args.options(), stop).map_err(|e| match e {
        // the settings are at fault, not the diagram
        c4lab_synth::SynthError::Options(_) => anyhow::Error::new(e),
        e => anyhow::Error::new(e).context(format!(
            "{}: cannot search completions of this diagram",
            input.name
        )),
    })?;
    let undecided = completer.undecided();
    // a log that cannot be written is refused before the run is described
    let candidate_log = log_candidates
        .map(|log| LineLog::create(log, "candidate log"))
        .transpose()?;
    if !json_out && undecided == 0 {
        // (as dsat says it: there is nothing to search)
        sayln!("0 undecided cells (?): the verifier judges the diagram as it stands");
    } else if !json_out {
        sayln!(
            "{} (?) searched over levels 0-9; every other cell stays as it is; backend {}",
            counted(undecided as u64, "undecided cell"),
            args.backend
        );
        if undecided > WIDE_SCOPE {
            let or_cap = if max_seconds.is_none() {
                " or set --max-seconds"
            } else {
                ""
            };
            sayln!(
                "warning: {undecided} undecided cells is a wide scope: the search may run a long time; decide some cells{or_cap}"
            );
        }
    }
    let bar = if json_out {
        ProgressBar::hidden()
    } else {
        ProgressBar::new_spinner()
    };
    bar.set_style(ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("template"));
    let mut last = Instant::now();
    // where standard error is no terminal (a log file, a batch job), the live line
    // every ten seconds
    let status = Mutex::new("no candidate yet".to_string());
    let done = with_status_lines("complete", !json_out, &status, || -> Result<Completion> {
        loop {
            let step = completer.step()?;
            let p = completer.progress();
            if let Some(log) = &candidate_log {
                match &step {
                    Step::Refuted => {
                        if let Some((d, cx)) = &p.live {
                            log_candidate(log, p, d, Some(cx));
                        }
                    }
                    Step::Done(Completion::Found { diagram, .. }) => {
                        log_candidate(log, p, diagram, None)
                    }
                    Step::Done(_) => {}
                }
            }
            *status.lock().unwrap_or_else(|e| e.into_inner()) = progress_line(p);
            if last.elapsed() > Duration::from_millis(100) {
                bar.set_message(progress_line(p));
                bar.tick();
                last = Instant::now();
            }
            if let Step::Done(done) = step {
                return Ok(done);
            }
        }
    })?;
    bar.finish_and_clear();
    // a candidate log that could not be written costs the run no verdict: said at the end
    let log_error = candidate_log.and_then(|log| log.finish().err());
    let p = completer.progress().clone();
    let seconds = start.elapsed().as_secs_f64();
    let (verdict, code) = match &done {
        Completion::Found { .. } => ("found", 0),
        Completion::Unsat => ("unsat", 1),
        Completion::Stopped => ("stopped", 3),
    };
    // a diagram with no `?` cell was judged as it stands: say why it loses
    let as_it_stands = matches!(done, Completion::Unsat)
        .then(|| crate::verify::loss_as_it_stands(&diagram))
        .flatten();
    // what an unsat verdict covers, said on the verdict line and as `covers` in JSON
    let covers = match &as_it_stands {
        Some(_) => "with no ? cell the diagram is judged as it stands, and it loses".to_string(),
        // with no level cell pinned, nothing else could be: the root is lost to every
        // diagram
        None if !has_fixed_levels(&diagram) => format!(
            "no diagram wins from this root (its {} over levels 0-9)",
            counted(undecided as u64, "empty cell")
        ),
        None => format!(
            "no completion of these pinned cells wins (the {} over levels 0-9, every other cell as given); this says nothing of the root with other pinned cells",
            counted(undecided as u64, "? cell")
        ),
    };
    // an unsat about the root itself: is the root lost in the game, or to the language?
    let unsat = matches!(done, Completion::Unsat);
    let root_value = crate::verify::unsat_root_value(&diagram, unsat);
    if json_out {
        let mut j = json!({
            "verdict": verdict,
            "undecided": undecided,
            "candidates": p.candidates,
            "clauses": p.clauses,
            "positions": p.positions,
            "conflicts": p.conflicts,
            "cores": p.cores,
            "seconds": seconds,
            "backend": args.backend,
            "learn": args.learn,
            "seed": args.seed,
        });
        if let Completion::Found { diagram, positions } = &done {
            j["diagram"] = json!(diagram.to_grid().lines().collect::<Vec<_>>());
            j["verified_positions"] = json!(positions);
        }
        if let Completion::Unsat = done {
            j["covers"] = json!(covers);
            j["root_outcome"] = json!(root_value.map(RootValue::outcome));
            j["root_score"] = json!(root_value.and_then(|v| v.score));
        }
        if let Some(cx) = &as_it_stands {
            j["loss"] = cx.to_json();
        }
        if let Some((d, cx)) = &p.deepest {
            j["deepest"] = json!({
                "diagram": d.to_grid().lines().collect::<Vec<_>>(),
                "loss": cx.to_json(),
            });
        }
        outln!("{j}");
        crate::line_log::warn_after_verdict(log_error);
        return Ok(code);
    }
    let summary = format!(
        "{}, {}, {} encoded, {seconds:.2} s",
        counted(p.candidates, "candidate"),
        counted(p.clauses, "clause"),
        counted(p.positions, "position")
    );
    match &done {
        Completion::Found { diagram, positions } => {
            out!("{}", diagram.to_grid());
            let what = if undecided == 0 {
                "with no ? cell the diagram is judged as it stands, and it wins"
            } else {
                "a completion that verifies as a win"
            };
            sayln!(
                "found: {what} ({} searched); {summary}",
                counted(*positions, "position")
            );
        }
        Completion::Unsat => match &as_it_stands {
            Some(cx) => sayln!("unsat: {covers}: {}; {summary}", cx.describe()),
            None => sayln!(
                "unsat: {covers}{}; {summary}",
                crate::verify::root_clause(root_value)
            ),
        },
        Completion::Stopped => {
            if let Some((d, cx)) = &p.deepest {
                sayln!("deepest candidate so far, lost by {}:", cx.describe());
                say!("{}", d.to_grid());
            }
            sayln!("stopped: no completion found yet; {summary}");
        }
    }
    crate::line_log::warn_after_verdict(log_error);
    Ok(code)
}

/// Whether any empty cell holds a level (not `?`): what a search of the rest pins.
pub(crate) fn has_fixed_levels(diagram: &c4lab_steady::Diagram) -> bool {
    (diagram.cells().iter()).any(|c| matches!(c, c4lab_steady::Cell::Level(_)))
}

#[cfg(test)]
mod tests {
    use super::counted;

    #[test]
    fn one_of_a_thing_reads_in_the_singular() {
        // `complete` on a diagram with no ? cell printed "1 candidates"
        assert_eq!(counted(1u64, "candidate"), "1 candidate");
        assert_eq!(counted(0u64, "clause"), "0 clauses");
    }
}
