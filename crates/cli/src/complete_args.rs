//! The flags `c4lab complete` and `bench complete` share, the check that refuses a
//! setting the chosen learning never uses, and how they become [`Options`].

use anyhow::Result;
use c4lab_synth::{sat, Learn, Options};
use clap::Args;

/// The search settings shared by `complete` and `bench complete`.
#[derive(Args, Clone)]
pub struct SearchArgs {
    /// Seed of the phase scrambling: the same seed gives the same run. Only CaDiCaL
    /// takes phase hints; on BatSat (the default) every seed gives the same search (in
    /// `bench complete` the seed also chooses each task's undecided cells).
    #[arg(long, default_value_t = 1, value_parser = crate::whole::any_u64)]
    pub(crate) seed: u64,
    /// How a losing candidate is learnt: `tree` (the decision rule encoded at every
    /// position it reaches), `positions` (only those on its losing line) or `blocking`
    /// (one clause: some cell consulted on the line must change).
    #[arg(long, default_value = "positions", value_parser = ["tree", "positions", "blocking"])]
    pub(crate) learn: String,
    /// SAT backend: `batsat` (pure Rust, as in the browser; measured fastest here) or `cadical`.
    #[arg(long, default_value = sat::backends()[0],
          value_parser = clap::builder::PossibleValuesParser::new(sat::backends()))]
    pub(crate) backend: String,
    /// Scramble the solver's phases every this many candidates (0: never).
    #[arg(long, default_value_t = 25, value_parser = crate::whole::any_u64)]
    scramble_every: u64,
    /// Node budget of each strong-solver question "does this Red move keep the win?"
    /// (0: never ask). Moves proved not to keep it are ruled out before any candidate.
    #[arg(long, default_value_t = 100_000, value_parser = crate::whole::any_u64)]
    oracle_nodes: u64,
    /// With `--learn tree` (from the first candidate), or `--learn positions` from
    /// --tree-after candidates on: new positions encoded per candidate at most (breadth
    /// first from the root), beyond its losing line.
    #[arg(long, default_value_t = 512, value_parser = crate::whole::any_usize)]
    tree_cap: usize,
    /// With `--learn positions`: from this many candidates on, learn every position a
    /// losing candidate reaches, as `--learn tree` does (0: never).
    #[arg(long, default_value_t = Options::default().tree_after, value_parser = crate::whole::any_u64)]
    tree_after: u64,
    /// Before the first candidate, encode the root and every position fewer than this many plies below it.
    #[arg(long, default_value_t = Options::default().premap_plies, value_parser = crate::whole::range::<u32>(0, 42))]
    premap: u32,
    /// After this many candidates, deepen that map to --deepen-to plies.
    #[arg(long, default_value_t = Options::default().deepen_after, value_parser = crate::whole::any_u64)]
    deepen_after: u64,
    /// The depth the map is deepened to.
    #[arg(long, default_value_t = Options::default().deepen_to_plies, value_parser = crate::whole::range::<u32>(0, 42))]
    deepen_to: u32,
    /// From --lost-after candidates on, until --tree-after (with --learn positions
    /// only), learn a losing core at each position of a losing line whose whole subtree
    /// has at most this many positions: the candidate's levels that lose there, as one
    /// clause (0: never; 2000 is a reasonable budget).
    #[arg(long, default_value_t = Options::default().lost_budget, value_parser = crate::whole::any_u64)]
    lost_budget: u64,
    /// Losing cores are learnt from this many candidates on.
    #[arg(long, default_value_t = Options::default().lost_after, value_parser = crate::whole::any_u64)]
    lost_after: u64,
    /// The flags of these settings given on the command line, as `note_typed` found
    /// them: a setting the chosen learning never uses is refused when typed, even at its
    /// default value, and passes when left out.
    #[arg(skip)]
    typed: Vec<String>,
}

/// The settings `check` refuses where they would have no effect.
const CHECKED: [&str; 8] = [
    "--tree-cap",
    "--tree-after",
    "--premap",
    "--deepen-after",
    "--deepen-to",
    "--lost-after",
    "--lost-budget",
    // (the strong solver is asked about the moves of mapped positions only)
    "--oracle-nodes",
];

impl SearchArgs {
    /// Records which of these settings were typed, from the matches of the command that
    /// holds them.
    pub fn note_typed(&mut self, matches: &clap::ArgMatches) {
        self.typed = crate::typed_flags::<SearchArgs>(matches);
    }

    /// The flags of these settings typed on the command line.
    pub(crate) fn typed(&self) -> &[String] {
        &self.typed
    }

    /// Refuses typed settings that the chosen learning would never use, rather than
    /// ignore them (a setting left out passes).
    pub(crate) fn check(&self) -> Result<()> {
        // (each flag asked about is one of CHECKED, whose flags a test checks)
        let typed = |flag: &str| {
            debug_assert!(CHECKED.contains(&flag), "{flag} is not checked");
            self.typed.iter().any(|t| t == flag)
        };
        let learn = Learn::parse(&self.learn).expect("clap checked the value");
        if learn == Learn::Blocking {
            if let Some(flag) = CHECKED.iter().find(|flag| typed(flag)) {
                anyhow::bail!(
                    "{flag} has no effect with --learn blocking, which maps no position: leave it out, or learn positions or trees"
                );
            }
        }
        if learn == Learn::Tree && typed("--tree-after") {
            anyhow::bail!(
                "--tree-after applies with --learn positions only: --learn tree learns whole trees from the first candidate"
            );
        }
        if learn == Learn::Tree && typed("--lost-budget") {
            anyhow::bail!(
                "--lost-budget learns losing cores with --learn positions only: leave it out with --learn tree"
            );
        }
        if learn == Learn::Positions && self.tree_after == 0 && typed("--tree-cap") {
            anyhow::bail!(
                "--tree-cap caps the trees --learn positions learns from --tree-after on, and --tree-after 0 learns none: leave it out, or give --tree-after a count"
            );
        }
        if self.lost_budget == 0 && typed("--lost-after") {
            anyhow::bail!("--lost-after needs --lost-budget above 0, or no core is learnt");
        }
        // (the engine refuses these too, naming its own fields; this names the flags)
        if self.lost_budget > 0
            && learn == Learn::Positions
            && self.tree_after > 0
            && self.lost_after >= self.tree_after
        {
            anyhow::bail!(
                "--lost-after {} is not before --tree-after {}, where whole-tree learning takes over: no core would be learnt; give a smaller --lost-after or a larger --tree-after",
                self.lost_after,
                self.tree_after
            );
        }
        if typed("--deepen-to") && self.deepen_to <= self.premap {
            anyhow::bail!(
                "--deepen-to {} is not deeper than --premap {}: nothing to deepen; give a deeper --deepen-to",
                self.deepen_to,
                self.premap
            );
        }
        Ok(())
    }

    pub(crate) fn options(&self) -> Options {
        Options {
            seed: self.seed,
            scramble_every: self.scramble_every,
            learn: Learn::parse(&self.learn).expect("clap checked the value"),
            backend: self.backend.clone(),
            oracle_nodes: self.oracle_nodes,
            tree_cap: self.tree_cap,
            tree_after: self.tree_after,
            premap_plies: self.premap,
            deepen_after: self.deepen_after,
            deepen_to_plies: self.deepen_to,
            lost_budget: self.lost_budget,
            lost_after: self.lost_after,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_checked_setting_is_one_of_these_flags() {
        // a misspelt flag would never be found typed, and its check would pass in silence
        let command = <SearchArgs as clap::Args>::augment_args(clap::Command::new("settings"));
        let flags: Vec<String> = (command.get_arguments())
            .filter_map(|arg| arg.get_long().map(|long| format!("--{long}")))
            .collect();
        for flag in CHECKED {
            assert!(
                flags.iter().any(|f| f == flag),
                "{flag} is not in {flags:?}"
            );
        }
    }
}
