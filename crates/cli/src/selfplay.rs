//! The self-play and teacher settings of `corpus generate` and `bench corpus` on the
//! command line, turned into the corpus crate's configuration.

use std::path::PathBuf;

use anyhow::{bail, Result};
use c4lab_corpus::generate::GenConfig;
use c4lab_corpus::teacher::{TeacherConfig, TeacherMode};
use clap::{Args, ValueEnum};

/// The teacher on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Teacher {
    /// Alpha-beta search (flag 2), bounded exact solver at <= 7 empty cells (flag 1).
    Alphabeta,
    /// The full exact solver at every ply (flag 3).
    Exact,
}

impl From<Teacher> for TeacherMode {
    fn from(t: Teacher) -> TeacherMode {
        match t {
            Teacher::Alphabeta => TeacherMode::AlphaBeta,
            Teacher::Exact => TeacherMode::Exact,
        }
    }
}

/// Self-play and teacher settings shared by `generate` and `bench corpus`.
#[derive(Args, Debug, Clone)]
pub struct SelfPlay {
    /// Master seed; every game is a pure function of (seed, stream, game index): stream 0 the training games, 1 the holdout candidates.
    #[arg(long, default_value_t = 32, value_parser = crate::whole::any_u64)]
    pub seed: u64,
    /// Which teacher labels the plies.
    #[arg(long, value_enum, default_value_t = Teacher::Alphabeta)]
    pub teacher: Teacher,
    /// Label slots per row (S, 1-42), newest ply first.
    #[arg(long, default_value_t = 19, value_parser = crate::whole::range::<u64>(1, 42))]
    pub slots: u64,
    /// Depth of the alpha-beta teacher.
    #[arg(long, default_value_t = TeacherConfig::default().depth, value_parser = crate::whole::any_u32)]
    pub depth: u32,
    /// Node budget of the alpha-beta teacher per move.
    #[arg(long, default_value_t = TeacherConfig::default().node_budget, value_parser = crate::whole::any_u64)]
    pub nodes: u64,
    /// The bounded exact solver labels plies with at most this many empty cells (0-7:
    /// the format's flag 1 covers at most 7).
    #[arg(long, default_value_t = 7, value_parser = crate::whole::range::<u32>(0, 7))]
    pub bounded_empty: u32,
    /// Fewest uniformly random opening plies.
    #[arg(long, default_value_t = GenConfig::default().opening_min, value_parser = crate::whole::plies)]
    pub opening_min: u32,
    /// Most uniformly random opening plies.
    #[arg(long, default_value_t = GenConfig::default().opening_max, value_parser = crate::whole::plies)]
    pub opening_max: u32,
    /// Probability of a random move at each later ply.
    #[arg(long, default_value_t = GenConfig::default().epsilon, value_parser = probability)]
    pub epsilon: f64,
    /// First ply (0-based) where random moves may be played; later deviations are cheap
    /// for the exact teacher to solve.
    #[arg(long, default_value_t = GenConfig::default().epsilon_from, value_parser = crate::whole::plies)]
    pub epsilon_from: u32,
    /// Take the lowest best column instead of a random one among equal best moves.
    #[arg(long)]
    pub no_random_ties: bool,
    /// Transposition table of each thread's exact solver, in MiB.
    #[arg(long, default_value_t = 64, value_parser = crate::solve::table_mib)]
    pub table_mb: usize,
    /// Opening book for the exact solver (c4lab solver book format).
    #[arg(long)]
    pub book: Option<PathBuf>,
}

impl SelfPlay {
    pub(crate) fn config(&self) -> Result<GenConfig> {
        // the library's checks name its config keys; on the command line, name the flags
        if self.opening_min > self.opening_max {
            bail!(
                "--opening-min {} exceeds --opening-max {}: lower the first or raise the second",
                self.opening_min,
                self.opening_max
            );
        }
        if self.opening_max > 41 {
            bail!(
                "--opening-max {} is past the board: a game has at most 42 plies; give at most 41",
                self.opening_max
            );
        }
        // (a later first ply was accepted, and no move was random: --epsilon 0 says that)
        if self.epsilon_from > 41 {
            bail!(
                "--epsilon-from {} is past the board: a game has at most 42 plies (0-41), so no move would be random; give at most 41, or --epsilon 0 for no random move",
                self.epsilon_from
            );
        }
        if self.teacher == Teacher::Alphabeta && (self.depth == 0 || self.nodes == 0) {
            bail!(
                "--depth {} --nodes {}: the alpha-beta teacher searches at least one ply and one node; give both at least 1",
                self.depth,
                self.nodes
            );
        }
        if !(0.0..=1.0).contains(&self.epsilon) {
            bail!(
                "--epsilon {} is not a probability: give a value from 0 to 1",
                self.epsilon
            );
        }
        let book = match &self.book {
            None => None,
            Some(p) => Some(crate::book::read_book(p)?),
        };
        let mode: TeacherMode = self.teacher.into();
        // the bounded solver needs little memory; the full exact teacher more
        let table_bytes = match mode {
            TeacherMode::AlphaBeta => (self.table_mb << 20).min(4 << 20),
            TeacherMode::Exact => self.table_mb << 20,
        };
        // one teacher, so one table, per worker thread
        crate::table_memory::ensure_table_memory(
            table_bytes,
            c4lab_corpus::generate::worker_threads(),
        )?;
        Ok(GenConfig {
            seed: self.seed,
            slots: self.slots as usize,
            teacher: TeacherConfig {
                mode,
                depth: self.depth,
                node_budget: self.nodes,
                bounded_empty: self.bounded_empty,
                table_bytes: table_bytes.max(1 << 16),
                book,
            },
            opening_min: self.opening_min,
            opening_max: self.opening_max,
            epsilon: self.epsilon,
            epsilon_from: self.epsilon_from,
            random_ties: !self.no_random_ties,
        })
    }
}

/// Parses `--epsilon`: a probability, 0 to 1 (the error echoes the value as typed: a
/// number printed back ran to 309 digits for `1e308`).
fn probability(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err("expected a probability from 0 to 1".into()),
    }
}

/// Random moves before this ply make the exact teacher solve positions of few stones,
/// seconds each (measured: about 4 s a game with the default openings, against 324,000
/// games in about 200 s with none before it).
pub(crate) const EXACT_CHEAP_FROM_PLY: u32 = 10;

/// Warns when the exact teacher will meet early random moves (a run of days).
pub(crate) fn warn_early_random_moves(gen: &GenConfig) {
    let cheap = EXACT_CHEAP_FROM_PLY;
    let early_epsilon = gen.epsilon > 0.0 && gen.epsilon_from < cheap;
    // (an opening is random from ply 0, however long: one of 20-22 moves cost 5.7 s a
    // game and was not warned of)
    let early = gen.opening_max > 0 || early_epsilon;
    if gen.teacher.mode == TeacherMode::Exact && early {
        sayln!(
            "note: random moves before ply {EXACT_CHEAP_FROM_PLY} lead the exact teacher to positions of few stones that take seconds each to solve (about 4 s a game); for a corpus in minutes use --opening-min 0 --opening-max 0 --epsilon-from {EXACT_CHEAP_FROM_PLY}"
        );
    }
}

/// The defaults of every setting, as the command line has them.
pub(crate) fn bench_defaults() -> SelfPlay {
    SelfPlay {
        seed: 32,
        teacher: Teacher::Alphabeta,
        slots: 19,
        depth: TeacherConfig::default().depth,
        nodes: TeacherConfig::default().node_budget,
        bounded_empty: 7,
        opening_min: GenConfig::default().opening_min,
        opening_max: GenConfig::default().opening_max,
        epsilon: GenConfig::default().epsilon,
        epsilon_from: GenConfig::default().epsilon_from,
        no_random_ties: false,
        table_mb: 64,
        book: None,
    }
}
