//! The flags `c4lab dsat` and `bench dsat` share, and how they become [`Options`].

use c4lab_dsat::Options;

/// How a whole-root solve searches: the flags `c4lab dsat` and `bench dsat` share.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// Map positions down to this many plies below the root (the deepest cut).
    #[arg(long, default_value_t = Options::default().cut_plies, value_parser = crate::whole::range::<u32>(0, 42))]
    cut: u32,
    /// Map only this many plies at first; deepen to --cut after --deepen-after rounds
    /// (a value past --cut maps to --cut from the start).
    #[arg(long, default_value_t = Options::default().first_cut_plies, value_parser = crate::whole::range::<u32>(0, 42))]
    first_cut: u32,
    /// The same for a search with a non-zero --widen-after (the second of the default
    /// race), so that the two searches explore different maps.
    #[arg(long, default_value_t = Options::default().widening_first_cut_plies, value_parser = crate::whole::range::<u32>(0, 42))]
    widening_first_cut: u32,
    /// Verify-and-refine rounds at the first cut before the map is deepened.
    #[arg(long, default_value_t = Options::default().deepen_after, value_parser = crate::whole::any_u64)]
    deepen_after: u64,
    /// After a candidate fails: positions it reaches encoded at most, besides its
    /// losing line (breadth first from the root; 0: the losing line only).
    #[arg(long, default_value_t = Options::default().tree_cap, value_parser = crate::whole::any_usize)]
    tree_cap: usize,
    /// After a candidate fails: also encode the paths from the root to this many of the
    /// positions where it goes wrong (no move, or one the strong solver rules out),
    /// wherever in its tree they lie, the nearest the root first (0: none; the walk that
    /// looks for them stops after 100,000 positions, so a larger count takes what it
    /// met by then).
    #[arg(long, default_value_t = Options::default().fault_paths, value_parser = crate::whole::any_usize)]
    fault_paths: usize,
    /// Level budget: `?` cells first take levels below this only, one more level each
    /// time no diagram fits (1, the default: a diagram the first SAT search finds has the
    /// fewest levels, one the local search finds may have more; 10: every level from
    /// the start).
    #[arg(long, default_value_t = Options::default().first_levels,
          value_parser = crate::whole::range::<u8>(1, 10))]
    first_levels: u8,
    /// Also search diagrams whose `?` levels leave gaps (no symmetry breaking; every
    /// winning diagram has a gap-free twin that plays alike, so verdicts agree).
    #[arg(long)]
    level_gaps: bool,
    /// Build the circuits' gates for every level from the start (the build before
    /// gates were built as the level budget grows; for comparison).
    #[arg(long)]
    build_all_levels: bool,
    /// One search per value, side by side (a thread each; the verdict reached with
    /// the lowest count of dead ends counts, a later search's counted from the first's
    /// start and a widening search's dead ends twice, so the result does not depend on
    /// timing): the dead ends a level budget may take
    /// before it grows by one without a proof that no diagram fits it (0: only on such
    /// a proof, so a diagram that search finds takes the fewest levels that can win). In `bench
    /// dsat`, with two, `--jobs 1` keeps one root's threads on two cores.
    #[arg(long, value_delimiter = ',', default_value = "0,3000", value_parser = crate::whole::any_u64)]
    pub widen_after: Vec<u64>,
    /// Give up after mapping this many positions.
    #[arg(long, default_value_t = Options::default().max_states,
          value_parser = crate::solve::count_u64_arg)]
    max_states: u64,
    /// SAT backend: `batsat` or `cadical`.
    #[arg(long, default_value = "batsat",
          value_parser = clap::builder::PossibleValuesParser::new(c4lab_synth::sat::backends()))]
    backend: String,
    /// Strong-solver node budget per "does this Red move keep the win?" (0: never ask,
    /// so no pruning: to measure how much the pruning shrinks the map).
    #[arg(long, default_value_t = Options::default().oracle_nodes, value_parser = crate::whole::any_u64)]
    oracle_nodes: u64,
    /// Map the positions at most this many plies above the cut without asking the
    /// strong solver about their moves: a refuted candidate that reaches one asks then
    /// (0: ask about every position as it is mapped).
    #[arg(long, default_value_t = Options::default().unasked_plies, value_parser = crate::whole::range::<u32>(0, 42))]
    unasked_plies: u32,
    /// Work each search's local search may do (positions walked plus strong-solver
    /// nodes) before that search maps its root: one value for every search, or one per
    /// search (by default 25,000,000 for the first, 50,000,000 for the others, whose
    /// SAT search waits for the first's head start anyway). It repairs a diagram move
    /// by move with the strong solver as judge, and can find a diagram but never prove
    /// there is none; 0: none. Needs --oracle-nodes above 0 (with --oracle-nodes 0 and
    /// no --local-work, none runs).
    #[arg(long, value_delimiter = ',', value_parser = crate::whole::any_u64)]
    pub local_work: Vec<u64>,
    /// Start no SAT search from the levels of the diagram its local search left with
    /// the fewest faults (by default every search of the race but the first does; for
    /// comparison).
    #[arg(long)]
    no_phase_hint: bool,
}

impl SearchArgs {
    /// Refuses flags that cannot go together, naming the fix (before any work starts).
    pub fn check(&self) -> anyhow::Result<()> {
        crate::dsat::check_searches(&self.widen_after, &self.local_work, self.oracle_nodes)?;
        let defaults = Options::default();
        // settings no search of this run would read are refused, not ignored
        if self.first_levels >= c4lab_synth::FREE_LEVELS && self.local_work.len() > 1 {
            anyhow::bail!(
                "--first-levels {} opens every level from the start, so no budget grows and the first search runs alone: give --local-work one value",
                self.first_levels
            );
        }
        // (with every level open only the first search runs: `dsat` keeps it alone)
        let widening = if self.first_levels >= c4lab_synth::FREE_LEVELS {
            self.widen_after.first().is_some_and(|&w| w > 0)
        } else {
            self.widen_after.iter().any(|&w| w > 0)
        };
        if self.widening_first_cut != defaults.widening_first_cut_plies && !widening {
            anyhow::bail!(
                "--widening-first-cut sets the first cut of a search whose level budget widens unproved (a non-zero --widen-after), and none runs here: leave it out, or add such a search"
            );
        }
        if self.oracle_nodes == 0 && self.unasked_plies != defaults.unasked_plies {
            anyhow::bail!(
                "--unasked-plies leaves the strong solver's questions near the cut unasked, and --oracle-nodes 0 asks none: leave one of them out"
            );
        }
        Ok(())
    }

    /// The solve's options (each search of a race then takes its own `widen_after`,
    /// random stream and local-search budget: see `c4lab_dsat::entrant`).
    pub fn options(&self) -> Options {
        Options {
            cut_plies: self.cut,
            first_cut_plies: self.first_cut,
            widening_first_cut_plies: self.widening_first_cut,
            deepen_after: self.deepen_after,
            tree_cap: self.tree_cap,
            fault_paths: self.fault_paths,
            first_levels: self.first_levels,
            compact_levels: !self.level_gaps,
            levels_on_demand: !self.build_all_levels,
            max_states: self.max_states,
            backend: self.backend.clone(),
            oracle_nodes: self.oracle_nodes,
            unasked_plies: self.unasked_plies,
            phase_hint: !self.no_phase_hint,
            ..Options::default()
        }
    }

    /// The settings in a few words, for a table's header.
    pub fn describe(&self) -> String {
        // with every level open from the start no budget grows: the first search runs alone
        let searches = if self.first_levels >= c4lab_synth::FREE_LEVELS {
            &self.widen_after[..self.widen_after.len().min(1)]
        } else {
            &self.widen_after[..]
        };
        format!(
            "cut {} plies ({} for a widening search) then {} after {} rounds, tree cap {}, fault paths {}, first levels {}{}{}{}, widen after {}, at most {} positions, backend {}, oracle {} nodes ({} plies above the cut unasked), local search {}",
            self.first_cut.min(self.cut),
            self.widening_first_cut.min(self.cut),
            self.cut,
            self.deepen_after,
            self.tree_cap,
            self.fault_paths,
            self.first_levels,
            if self.level_gaps { ", level gaps allowed" } else { "" },
            if self.build_all_levels { ", every level built from the start" } else { "" },
            if self.no_phase_hint { ", no phase hint" } else { "" },
            flag_list(searches),
            self.max_states,
            self.backend,
            self.oracle_nodes,
            self.unasked_plies,
            if self.oracle_nodes == 0 {
                // (it judges moves with the strong solver: none runs without it)
                "off (--oracle-nodes 0)".to_string()
            } else if self.local_work.is_empty() {
                // each search's default: the first's, then the later ones'
                let works: Vec<u64> = (0..searches.len().max(1))
                    .map(|i| match i {
                        0 => c4lab_dsat::LOCAL_WORK,
                        _ => c4lab_dsat::LATER_LOCAL_WORK,
                    })
                    .collect();
                format!("{} work", flag_list(&works))
            } else {
                format!("{} work", flag_list(&self.local_work))
            },
        )
    }

    /// The same flags for a `c4lab dsat` of its own (the bench runs each root so).
    pub(crate) fn child_args(&self) -> Vec<String> {
        let mut args: Vec<String> = [
            ("--cut", self.cut.to_string()),
            ("--first-cut", self.first_cut.to_string()),
            ("--deepen-after", self.deepen_after.to_string()),
            ("--tree-cap", self.tree_cap.to_string()),
            ("--first-levels", self.first_levels.to_string()),
            ("--widen-after", flag_list(&self.widen_after)),
            ("--max-states", self.max_states.to_string()),
            ("--backend", self.backend.clone()),
            ("--oracle-nodes", self.oracle_nodes.to_string()),
        ]
        .into_iter()
        .flat_map(|(flag, value)| [flag.to_string(), value])
        .collect();
        // only when set, so that a baseline build from before the flag takes the rest
        if !self.local_work.is_empty() {
            args.extend(["--local-work".to_string(), flag_list(&self.local_work)]);
        }
        if self.widening_first_cut != Options::default().widening_first_cut_plies {
            args.extend([
                "--widening-first-cut".to_string(),
                self.widening_first_cut.to_string(),
            ]);
        }
        if self.fault_paths != Options::default().fault_paths {
            args.extend(["--fault-paths".to_string(), self.fault_paths.to_string()]);
        }
        if self.unasked_plies != Options::default().unasked_plies {
            args.extend([
                "--unasked-plies".to_string(),
                self.unasked_plies.to_string(),
            ]);
        }
        args.extend(self.level_gaps.then(|| "--level-gaps".to_string()));
        args.extend(self.no_phase_hint.then(|| "--no-phase-hint".to_string()));
        args.extend(
            self.build_all_levels
                .then(|| "--build-all-levels".to_string()),
        );
        args
    }
}

/// A list flag's values (`--widen-after`, `--local-work`) as the flag takes them.
pub(crate) fn flag_list(values: &[u64]) -> String {
    values
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The settings as `flags` give them.
    fn settings(flags: &[&str]) -> SearchArgs {
        #[derive(clap::Parser)]
        struct Settings {
            #[command(flatten)]
            search: SearchArgs,
        }
        let args = std::iter::once("settings").chain(flags.iter().copied());
        <Settings as clap::Parser>::try_parse_from(args)
            .unwrap()
            .search
    }

    #[test]
    fn the_description_names_the_searches_that_run() {
        // two by default; one with --widen-after 0, and one with every level open,
        // whatever --widen-after says (it listed both searches' values)
        for (flags, widen, work) in [
            (
                &[][..],
                "widen after 0,3000, at most",
                "local search 25000000,50000000 work",
            ),
            (
                &["--widen-after", "0"],
                "widen after 0, at most",
                "local search 25000000 work",
            ),
            (
                &["--first-levels", "10"],
                "widen after 0, at most",
                "local search 25000000 work",
            ),
        ] {
            let said = settings(flags).describe();
            assert!(
                said.contains(widen) && said.ends_with(work),
                "{flags:?}: {said}"
            );
        }
    }
}
