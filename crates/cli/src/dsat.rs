//! `c4lab dsat`: solve a whole root as one SAT instance.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use c4lab_dsat::{Options, Outcome, Progress};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::complete::{counted, stop_flag};
use crate::dsat_args::flag_list;
use crate::dsat_out::{verdict, Ended};
use crate::heap;
use crate::input::read_diagram;
use crate::line_log::{refuse_clash, LineLog};

/// How the header line names the level budget (nothing when there is none).
fn budget_note(options: &Options) -> String {
    let mut notes = Vec::new();
    if options.first_levels < c4lab_synth::FREE_LEVELS {
        notes.push(format!(
            "first 0-{}, one more level each time no diagram fits",
            options.first_levels.saturating_sub(1)
        ));
    }
    if options.compact_levels {
        notes.push("no gap between levels".to_string());
    }
    if !options.levels_on_demand {
        notes.push("every level's gates built from the start".to_string());
    }
    if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join(", "))
    }
}

/// An entrant's name in progress lines and reports: A, B, ...
pub(crate) fn entrant_name(i: usize) -> char {
    (b'A' + (i % MAX_ENTRANTS) as u8) as char
}

/// The most searches one run races (each gets a letter).
const MAX_ENTRANTS: usize = 26;

/// How an entrant treats its level budget, for the header and the report.
pub(crate) fn widen_note(search: &Options) -> String {
    if search.widen_after == 0 {
        "level budget grows only on proof".to_string()
    } else {
        format!(
            "level budget grows after {} dead ends, {} plies mapped first",
            search.widen_after,
            search.first_cut()
        )
    }
}

/// `--log-rounds`: a line per solve-verify round of each search, written as the rounds
/// end (the searches' lines interleave by time; each search's own are in order), with
/// the seconds since `start` (where `--max-seconds` counts from).
fn log_round(log: &LineLog, search: usize, p: &Progress, start: Instant) {
    let Progress::Searching {
        round,
        positions,
        conflicts,
        levels,
        ended: Some(ended),
        ..
    } = *p
    else {
        return;
    };
    log.write(&json!({
        "search": entrant_name(search),
        "round": round,
        "levels": levels,
        "ended": ended.name(),
        "dead_ends": conflicts,
        "positions": positions,
        "seconds": (start.elapsed().as_secs_f64() * 1000.0).round() / 1000.0,
    }));
}

/// Refuses `--widen-after` and `--local-work` values that cannot go together (with each
/// other, or with `--oracle-nodes`), naming the fix.
pub(crate) fn check_searches(
    widen_after: &[u64],
    local_work: &[u64],
    oracle_nodes: u64,
) -> Result<()> {
    if widen_after.is_empty() {
        bail!("--widen-after needs at least one value (0: the level budget grows only on proof)");
    }
    if widen_after.len() > MAX_ENTRANTS {
        bail!(
            "--widen-after has {} values; at most {MAX_ENTRANTS} searches run side by side (named A-Z)",
            widen_after.len()
        );
    }
    if local_work.len() > 1 && local_work.len() != widen_after.len() {
        bail!(
            "--local-work has {} values for {} searches (--widen-after {}): give one value for every search, or one per search",
            local_work.len(),
            widen_after.len(),
            flag_list(widen_after)
        );
    }
    if oracle_nodes == 0 && local_work.iter().any(|&w| w > 0) {
        bail!(
            "--local-work {} needs the strong solver, which --oracle-nodes 0 turns off (without it every Red move would look sound): give --oracle-nodes above 0, or --local-work 0",
            flag_list(local_work)
        );
    }
    Ok(())
}

/// `c4lab dsat`: one solve per entry of `widen_after`, side by side (see `c4lab_dsat::race`);
/// `log_rounds` names a file for a line per round.
pub fn dsat(
    file: Option<&Path>,
    json_out: bool,
    max_seconds: Option<f64>,
    options: Options,
    widen_after: &[u64],
    local_work: &[u64],
    log_rounds: Option<&Path>,
) -> Result<u8> {
    if let Some(log) = log_rounds {
        refuse_clash("--log-rounds", "round log", log, file)?;
    }
    let input = read_diagram(file)?;
    // refused before the description of the run, which would describe nothing
    c4lab_synth::checked_root(&input.diagram)
        .with_context(|| format!("{}: cannot solve this root", input.name))?;
    check_searches(widen_after, local_work, options.oracle_nodes)?;
    // with every level open from the start no budget grows, so a search that differs
    // only in when its budget may grow unproved would never be let go: run the first
    let widen_after = if options.first_levels >= c4lab_synth::FREE_LEVELS {
        &widen_after[..1]
    } else {
        widen_after
    };
    // each entrant's local search draws its own random stream
    let entrants: Vec<Options> = widen_after
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            let work = local_work.get(i).or(local_work.first()).copied();
            c4lab_dsat::entrant(&options, i, w, work)
        })
        .collect();
    // the time said at the end counts from where --max-seconds does
    let start = Instant::now();
    let stop = stop_flag(max_seconds)?;
    let round_log = log_rounds
        .map(|log| LineLog::create(log, "round log"))
        .transpose()?;
    if !json_out && input.diagram.undecided() == 0 {
        // (no map and no search: the options that shape them would be noise)
        sayln!("0 undecided cells (?): the verifier judges the diagram as it stands");
    } else if !json_out {
        let side_by_side = if entrants.len() > 1 {
            let names: Vec<String> = entrants
                .iter()
                .enumerate()
                .map(|(i, e)| format!("{}: {}", entrant_name(i), widen_note(e)))
                .collect();
            let runs: Vec<char> = (entrants.iter().enumerate())
                .filter(|(_, e)| e.runs_local_search(&input.diagram))
                .map(|(i, _)| entrant_name(i))
                .collect();
            // (`--local-work 0,100`: only some searches run one)
            let some = format!(
                ", {} with a local search first",
                runs.iter()
                    .map(char::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let (local, counts) = if runs.len() == entrants.len() {
                (
                    ", each with a local search first (its own random streams)",
                    "a diagram a local search finds with the least work counts, else ",
                )
            } else if !runs.is_empty() {
                (
                    some.as_str(),
                    "a diagram a local search finds with the least work counts, else ",
                )
            } else if options.oracle_nodes == 0 {
                // (the default budgets give way: every move would look sound to it)
                (
                    ", no local search (it needs the strong solver: --oracle-nodes 0)",
                    "",
                )
            } else {
                ("", "")
            };
            format!(
                "; {} searches side by side ({}){local}; {counts}the SAT verdict with the lowest count of dead ends counts (from the first's start, a widening search's counting twice)",
                entrants.len(),
                names.join("; ")
            )
        } else if widen_after[0] > 0 {
            format!("; {}", widen_note(&entrants[0]))
        } else {
            String::new()
        };
        sayln!(
            "{} (?) over levels 0-9{}, every other cell pinned; mapping to {} below the root, {} after {} (at most {}), up to {} of each failed candidate's tree and {} learnt, backend {}{side_by_side}",
            counted(input.diagram.undecided() as u64, "undecided cell"),
            budget_note(&options),
            plies(entrants[0].first_cut()),
            plies(options.cut_plies),
            counted(options.deepen_after, "round"),
            counted(options.max_states, "position"),
            counted(options.tree_cap as u64, "position"),
            match options.fault_paths {
                0 => "no paths to its faults".to_string(),
                n => format!("the paths to at most {n} of its faults (the nearest first)"),
            },
            options.backend
        );
    }
    let bar = if json_out {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(options.max_states)
    };
    // the local search's line first (the mapping gauge's style hid it: its repair steps
    // and work were never seen live), then the gauge, then the search's line
    let line_style =
        || ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("template");
    // (beside the gauge, the other searches' lines, which may still be in their local search)
    let gauge = if entrants.len() > 1 { " | {msg}" } else { "" };
    let gauge_style = ProgressStyle::with_template(&format!(
        "mapping [{{bar:30}}] {{pos}}/{{len}} positions of the state budget ({{elapsed}}){gauge}"
    ))
    .expect("template")
    .progress_chars("=> ");
    bar.set_style(line_style());
    // memory: what the solvers, the oracles' tables and the empty encodings take before
    // the first position (setup), then the peak above that per encoded position
    let held_before = heap::held();
    let setup_held = AtomicUsize::new(0);
    let ready = || {
        setup_held.store(heap::held(), Ordering::Relaxed);
        heap::mark();
    };
    let (mapping, searching) = (AtomicBool::new(false), AtomicBool::new(false));
    let lines = Mutex::new(vec!["starting".to_string(); entrants.len()]);
    // the bar's line, written every ten seconds where standard error is no terminal
    let status = Mutex::new("starting".to_string());
    let progress = |i: usize, p: Progress| {
        if let Some(log) = &round_log {
            log_round(log, i, &p, start);
        }
        let line = match p {
            Progress::Searching {
                round,
                positions,
                conflicts,
                settled,
                ..
            } => {
                if !searching.swap(true, Ordering::Relaxed) {
                    bar.set_style(line_style());
                }
                format!("round {round}: {positions} positions, {conflicts} dead ends, {settled} settled variables")
            }
            Progress::Local {
                steps,
                faults,
                work,
                budget,
            } => {
                let fewest = faults.map_or(String::new(), |f| format!(", fewest faults {f}"));
                format!("local search: {steps} steps{fewest}, work {work} of {budget}")
            }
            Progress::Waiting { steps, work } => {
                let local = if work > 0 {
                    format!("local search: {steps} steps, work {work}, none found; ")
                } else {
                    String::new()
                };
                format!("{local}waiting for the first search to let its SAT search start")
            }
            Progress::Mapping {
                positions,
                max_states,
            } => {
                if !searching.load(Ordering::Relaxed) {
                    if !mapping.swap(true, Ordering::Relaxed) {
                        bar.set_style(gauge_style.clone());
                    }
                    bar.set_position(positions.max(bar.position()));
                }
                format!("mapping: {positions} of at most {max_states} positions")
            }
        };
        let mut lines = lines.lock().expect("progress lines");
        lines[i] = line;
        let message = if lines.len() == 1 {
            lines[0].clone()
        } else {
            let named: Vec<String> = lines
                .iter()
                .enumerate()
                .map(|(i, l)| format!("{}: {l}", entrant_name(i)))
                .collect();
            named.join(" | ")
        };
        *status.lock().expect("status line") = message.clone();
        bar.set_message(message);
        bar.tick();
    };
    // the searches differ only in when a budget may grow unproved, so they search alike
    // until the smallest such count: the first runs alone that far
    let head_start = widen_after
        .iter()
        .copied()
        .filter(|&w| w > 0)
        .min()
        .unwrap_or(u64::MAX);
    let race = crate::plain::with_status_lines("dsat", !json_out, &status, || {
        c4lab_dsat::race(
            &input.diagram,
            &entrants,
            head_start,
            stop,
            &ready,
            &progress,
        )
    })
    .context("cannot solve this root")?;
    bar.finish_and_clear();
    // a round log that could not be written costs the run no verdict: said at the end
    let log_error = round_log.and_then(|log| log.finish().err());
    let seconds = start.elapsed().as_secs_f64();
    let setup_held = setup_held.load(Ordering::Relaxed);
    let setup_bytes = setup_held.saturating_sub(held_before);
    let chosen = race.chosen();
    let report = race.report();
    let map_seconds = race.entrants[chosen].map_seconds;
    // heap held above the setup at the peak, per position encoded by any entrant
    let positions: u64 = race
        .entrants
        .iter()
        .map(|e| e.report.encoding.positions)
        .sum();
    // CaDiCaL allocates in C++, past the counting allocator: its figure would be too low
    let counted = options.backend != "cadical";
    // (no figure over no position: a run stopped before mapping any)
    let bytes_per_state = (counted && positions > 0)
        .then(|| heap::peak().saturating_sub(setup_held) / positions as usize);
    // a diagram with no `?` cell was solved as it stands: say why it loses
    let as_it_stands = matches!(report.outcome, Outcome::Unsat)
        .then(|| crate::verify::loss_as_it_stands(&input.diagram))
        .flatten();
    // an unsat about the root itself: is the root lost in the game, or to the language?
    let unsat = matches!(report.outcome, Outcome::Unsat);
    let root_value = crate::verify::unsat_root_value(&input.diagram, unsat);
    // the diagram shown is verified once more here, as `verify` would (the search
    // accepted it on its own verifier's word): its count is `verified_positions`
    let verified_positions = match &report.outcome {
        Outcome::Found(d) => match c4lab_steady::Verifier::new().verify(d) {
            c4lab_steady::Verdict::Win { positions } => Some(positions),
            other => anyhow::bail!(
                "internal error: the diagram dsat found does not verify ({}); please report it with the input",
                other.name()
            ),
        },
        _ => None,
    };
    let ended = Ended {
        verified_positions,
        race: &race,
        entrants: &entrants,
        options: &options,
        widen_after,
        max_seconds,
        undecided: input.diagram.undecided(),
        pinned_levels: crate::complete::has_fixed_levels(&input.diagram),
        local_runs: (entrants.iter())
            .map(|e| e.runs_local_search(&input.diagram))
            .collect(),
        counted,
        setup_bytes,
        bytes_per_state,
        map_seconds,
        seconds,
        as_it_stands,
        root_value,
    };
    if json_out {
        outln!("{}", ended.json());
    } else {
        ended.print()?;
    }
    crate::line_log::warn_after_verdict(log_error);
    Ok(verdict(&report.outcome).1)
}

/// `n plies`, or `1 ply`.
fn plies(n: u32) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}
