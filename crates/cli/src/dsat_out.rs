//! What `c4lab dsat` prints once its race has ended: the JSON object (`--json`), or
//! the diagram on standard output and the verdict line on standard error.

use c4lab_dsat::{Options, Outcome, RaceReport};
use c4lab_steady::Counterexample;
use serde_json::json;

use crate::dsat::{entrant_name, widen_note};

/// The verdict's name and exit code.
pub(crate) fn verdict(outcome: &Outcome) -> (&'static str, u8) {
    match outcome {
        Outcome::Found(_) => ("found", 0),
        Outcome::Unsat => ("unsat", 1),
        Outcome::Budget => ("budget", 3),
        Outcome::Stopped => ("stopped", 3),
    }
}

/// What the level budget says at the end, for the summary line: only what is proved (a
/// budget the search stopped in, or one that grew unproved, proves nothing by itself;
/// `unsat` already covers levels 0-9).
fn levels_note(outcome: &Outcome, levels: u8, least: u8) -> String {
    let proved = match outcome {
        Outcome::Unsat => return String::new(),
        Outcome::Found(_) if least == levels => "the fewest that can win".to_string(),
        _ if least > 1 => format!("none wins with fewer than {least}"),
        _ => "no smaller budget ruled out".to_string(),
    };
    format!("level budget 0-{} in the end ({proved}), ", levels - 1)
}

/// A finished race and what the run measured around it.
pub(crate) struct Ended<'a> {
    /// The race's outcome.
    pub race: &'a RaceReport,
    /// Each search's options, in race order.
    pub entrants: &'a [Options],
    /// The options the searches share.
    pub options: &'a Options,
    /// Each search's `--widen-after`.
    pub widen_after: &'a [u64],
    /// `--max-seconds`, when given.
    pub max_seconds: Option<f64>,
    /// The root diagram's `?` cells.
    pub undecided: usize,
    /// Whether any empty cell of the root diagram holds a level (is pinned).
    pub pinned_levels: bool,
    /// Whether each search ran a local search.
    pub local_runs: Vec<bool>,
    /// Whether the heap was counted (not with CaDiCaL, which allocates in C++).
    pub counted: bool,
    /// Heap bytes to set up the solvers.
    pub setup_bytes: usize,
    /// Heap bytes per encoded position at the peak, when counted and any was mapped.
    pub bytes_per_state: Option<usize>,
    /// Seconds to map the first cut (the chosen search's).
    pub map_seconds: f64,
    /// Seconds in all.
    pub seconds: f64,
    /// With no `?` cell and `unsat`: why the diagram loses as it stands.
    pub as_it_stands: Option<Counterexample>,
    /// Found: the positions the found diagram's final verification searched.
    pub verified_positions: Option<u64>,
    /// Unsat about the root itself: the strong solver's value of the root, if settled.
    pub root_value: Option<crate::verify::RootValue>,
}

impl Ended<'_> {
    /// The `--json` object.
    pub fn json(&self) -> serde_json::Value {
        let Ended {
            race,
            entrants,
            options,
            widen_after,
            ref local_runs,
            counted,
            setup_bytes,
            bytes_per_state,
            map_seconds,
            seconds,
            ..
        } = *self;
        let chosen = race.chosen();
        let report = race.report();
        let e = report.encoding;
        let name = verdict(&report.outcome).0;
        // with no `?` cell there is no level budget: null, as the verdict line names none
        let budget = |levels: u8| (self.undecided > 0).then_some(levels);
        let mut j = json!({
            "verdict": name,
            "mapped": report.mapped,
            "positions": e.positions,
            "variables": e.variables,
            "clauses": e.clauses,
            "circuits": e.circuits,
            "pruned": e.pruned,
            "oracle_unknown": e.unknown,
            "rounds": report.rounds,
            "conflicts": report.conflicts,
            "levels": budget(report.levels),
            "least_levels": budget(report.least_levels),
            "local_steps": report.local.steps,
            "local_work": report.local.work,
            "local_found": report.local.found,
            "widen_after": widen_after[chosen],
            "winner": race.winner,
            "entrants": race.entrants.iter().zip(widen_after).enumerate().map(|(i, (e, w))| json!({
                "widen_after": w,
                // a later search's SAT search starts only once the first has run a
                // while (started_at > 0); its local search runs from the start
                "started": i == 0 || e.started_at > 0,
                "verdict": verdict(&e.report.outcome).0,
                "positions": e.report.encoding.positions,
                "rounds": e.report.rounds,
                "conflicts": e.report.conflicts,
                "started_at": e.started_at,
                "dead_end_weight": e.weight,
                "local_steps": e.report.local.steps,
                "local_work": e.report.local.work,
                "local_found": e.report.local.found,
                "levels": budget(e.report.levels),
                "least_levels": budget(e.report.least_levels),
                "map_seconds": e.map_seconds,
                "first_cut_plies": entrants[i].first_cut(),
                // 0 where no local search runs (no `?` cell, or no strong solver)
                "local_work_budget": if local_runs[i] { entrants[i].local_work } else { 0 },
                "local_seed": entrants[i].local_seed,
                // a hint is a local search's best diagram: none without one
                "phase_hint": entrants[i].phase_hint && local_runs[i],
            })).collect::<Vec<_>>(),
            // the run's settings, so a result can be read and rerun without its command
            // (each search's own are in its entry)
            "settings": json!({
                "max_seconds": self.max_seconds,
                "cut_plies": options.cut_plies,
                "deepen_after": options.deepen_after,
                "max_states": options.max_states,
                "max_rounds": options.max_rounds,
                "backend": options.backend,
                "oracle_nodes": options.oracle_nodes,
                "unasked_plies": options.unasked_plies,
                "tree_cap": options.tree_cap,
                "fault_paths": options.fault_paths,
                "first_levels": options.first_levels,
                "level_gaps": !options.compact_levels,
                "levels_on_demand": options.levels_on_demand,
            }),
            "bytes_per_state": bytes_per_state,
            "setup_bytes": counted.then_some(setup_bytes),
            "map_seconds": map_seconds,
            "search_seconds": seconds - map_seconds,
            "seconds": seconds,
        });
        if let Outcome::Found(d) = &report.outcome {
            j["diagram"] = json!(d.to_grid().lines().collect::<Vec<_>>());
            j["verified_positions"] = json!(self.verified_positions);
        }
        if let Outcome::Unsat = report.outcome {
            j["covers"] = json!(self.unsat_covers());
            j["root_outcome"] = json!(self.root_value.map(|v| v.outcome()));
            j["root_score"] = json!(self.root_value.and_then(|v| v.score));
        }
        if let (Outcome::Unsat, Some(cx)) = (&report.outcome, &self.as_it_stands) {
            j["loss"] = cx.to_json();
        }
        j
    }

    /// What an unsat verdict covers (the verdict line says it; `--json` as `covers`).
    fn unsat_covers(&self) -> &'static str {
        match (&self.as_it_stands, self.pinned_levels) {
            (Some(_), _) => "with no ? cell the diagram is judged as it stands, and it loses",
            (None, false) => "no diagram wins from this root (every empty cell free over levels 0-9); sound for the language, not independently audited",
            (None, true) => "no diagram with these pinned cells (levels 0-9 for the ? cells) wins from this root; sound for the language, not independently audited",
        }
    }

    /// Prints the diagram (when found) on standard output and the verdict line on
    /// standard error.
    pub fn print(&self) -> anyhow::Result<()> {
        let Ended {
            race,
            entrants,
            options,
            counted,
            setup_bytes,
            bytes_per_state,
            map_seconds,
            seconds,
            ..
        } = *self;
        let chosen = race.chosen();
        let report = race.report();
        let e = report.encoding;
        let memory = match bytes_per_state {
            Some(b) => format!(
                "{:.1} MB to set up, then {b} bytes per position at the peak, ",
                setup_bytes as f64 / 1e6
            ),
            None if counted => format!(
                "{:.1} MB to set up, no position mapped, ",
                setup_bytes as f64 / 1e6
            ),
            None => "memory not counted (CaDiCaL allocates outside Rust's heap), ".to_string(),
        };
        // (with no `?` cell there is no budget to speak of)
        let levels = if options.first_levels < c4lab_synth::FREE_LEVELS && self.undecided > 0 {
            levels_note(&report.outcome, report.levels, report.least_levels)
        } else {
            String::new()
        };
        // (with no `?` cell no search ran: which one would have is noise)
        let who = if race.entrants.len() > 1 && self.undecided > 0 {
            let others: Vec<String> = race
                .entrants
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != chosen)
                .map(|(i, e)| {
                    let local = e.report.local;
                    if local.found {
                        let more = if local.work == report.local.work {
                            "as much work (the earlier search wins a tie)"
                        } else {
                            "more work"
                        };
                        return format!(
                            "{}'s local search found one with {more}: {}",
                            entrant_name(i),
                            local.work
                        );
                    }
                    if report.local.found && e.report.rounds == 0 && local.work >= report.local.work
                    {
                        // (a tie included: the stopped search may have reached the find's work)
                        return format!(
                            "{} stopped its local search at {} work without a find, {}'s find took {}",
                            entrant_name(i),
                            local.work,
                            entrant_name(chosen),
                            report.local.work
                        );
                    }
                    if i > 0 && e.started_at == 0 {
                        let tried = if local.work > 0 {
                            format!(" (its local search: {} work, none found)", local.work)
                        } else {
                            String::new()
                        };
                        return format!(
                            "{} never started its SAT search: the race ended ({}) before it was due{tried}",
                            entrant_name(i),
                            verdict(&report.outcome).0
                        );
                    }
                    let start = if e.started_at > 0 {
                        format!(", started at the first's count {} in the race", e.started_at)
                    } else {
                        String::new()
                    };
                    let weight = if e.weight > 1 {
                        format!(" (each counting {} in the race)", e.weight)
                    } else {
                        String::new()
                    };
                    let tried = if local.work > 0 {
                        format!(", its local search {} work without a find", local.work)
                    } else {
                        String::new()
                    };
                    format!(
                        "{} {} after {} dead ends{weight}{start}{tried}",
                        entrant_name(i),
                        verdict(&e.report.outcome).0,
                        e.report.conflicts
                    )
                })
                .collect();
            format!(
                "search {} ({}; {}), ",
                entrant_name(chosen),
                widen_note(&entrants[chosen]),
                others.join(", ")
            )
        } else {
            String::new()
        };
        // each search runs its local search before its map
        let local = report.local;
        let by_local = local.found;
        let local_note = if local.work > 0 {
            format!(
                "local search first: {}, {} work, ",
                crate::complete::counted(local.steps, "repair step"),
                local.work
            )
        } else {
            String::new()
        };
        let counts = format!(
            "{who}{local_note}{} mapped, {} in the end, {}, {}, {} pruned by the strong solver, {}, {}, {levels}{memory}mapping {map_seconds:.2} s, {seconds:.2} s in all",
            crate::complete::counted(report.mapped, "position"),
            e.positions,
            crate::complete::counted(e.variables, "variable"),
            crate::complete::counted(e.clauses, "clause"),
            crate::complete::counted(e.pruned, "Red move"),
            crate::complete::counted(report.rounds, "round"),
            crate::complete::counted(report.conflicts, "dead end"),
        );
        match &report.outcome {
            Outcome::Found(d) => {
                out!("{}", d.to_grid());
                let how = if by_local { " by the local search" } else { "" };
                let searched = match self.verified_positions {
                    Some(n) => format!(" ({} searched)", crate::complete::counted(n, "position")),
                    None => String::new(),
                };
                if self.undecided == 0 {
                    sayln!("found: with no ? cell the diagram is judged as it stands, and it wins{searched}; {counts}");
                } else {
                    sayln!("found{how}: a diagram that verifies as a win{searched}; {counts}");
                }
            }
            Outcome::Unsat => match &self.as_it_stands {
                Some(cx) => sayln!(
                    "unsat: {}: {}; {counts}",
                    self.unsat_covers(),
                    cx.describe()
                ),
                None => sayln!(
                    "unsat: {}{}; {counts}",
                    self.unsat_covers(),
                    crate::verify::root_clause(self.root_value)
                ),
            },
            Outcome::Budget => {
                // which of the two ran out (it named both)
                let which = if report.rounds >= options.max_rounds {
                    format!(
                        "the cap of {} rounds ran out (a bound for pathological input)",
                        options.max_rounds
                    )
                } else {
                    format!(
                        "the state budget ran out ({} positions; raise --max-states)",
                        options.max_states
                    )
                };
                sayln!("budget: {which}; {counts}")
            }
            Outcome::Stopped => sayln!("stopped; {counts}"),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{levels_note, Outcome};
    use c4lab_steady::{Cell, Diagram};

    #[test]
    fn the_level_note_claims_only_what_the_budgets_proved() {
        let found = Outcome::Found(Diagram::from_cells([Cell::Level(0); 42]).unwrap());
        assert_eq!(
            levels_note(&found, 4, 4),
            "level budget 0-3 in the end (the fewest that can win), "
        );
        // a budget that grew unproved, or one the search stopped in, proves nothing
        assert!(levels_note(&found, 5, 3).contains("(none wins with fewer than 3)"));
        assert!(levels_note(&Outcome::Stopped, 4, 4).contains("(none wins with fewer than 4)"));
        assert!(levels_note(&Outcome::Budget, 1, 1).contains("(no smaller budget ruled out)"));
        // unsat speaks of every level itself
        assert_eq!(levels_note(&Outcome::Unsat, 10, 10), "");
    }
}
