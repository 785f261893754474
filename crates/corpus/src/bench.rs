//! `c4lab bench corpus`: games and labels per second of a teacher.

use std::time::Instant;

use crate::error::CorpusError;
use crate::generate::{run_games, GenConfig, Progress, STREAM_TRAIN};

/// One benchmark run.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchReport {
    /// The teacher mode's name.
    pub teacher: &'static str,
    /// Games played.
    pub games: u64,
    /// Plies played.
    pub plies: u64,
    /// Labelled slots, by flag 0..=3.
    pub labels: [u64; 4],
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl BenchReport {
    /// Games per second.
    pub fn games_per_s(&self) -> f64 {
        self.games as f64 / self.seconds.max(1e-9)
    }

    /// Labelled slots per second.
    pub fn labels_per_s(&self) -> f64 {
        self.labels.iter().sum::<u64>() as f64 / self.seconds.max(1e-9)
    }

    /// A Markdown table row: teacher, games, plies, labels, seconds, games/s, labels/s.
    pub fn table_row(&self) -> String {
        format!(
            "| {} | {} | {} | {} (flag 1: {}, 2: {}, 3: {}) | {} | {} | {} |",
            self.teacher,
            self.games,
            self.plies,
            self.labels.iter().sum::<u64>(),
            self.labels[1],
            self.labels[2],
            self.labels[3],
            significant(self.seconds),
            significant(self.games_per_s()),
            significant(self.labels_per_s())
        )
    }
}

/// `x` to three significant digits (whole numbers from 100 up): a fixed number of
/// decimals printed a rate of 0.017 games/s as 0.0.
pub fn significant(x: f64) -> String {
    if !x.is_finite() || x == 0.0 {
        return format!("{x}");
    }
    let decimals = (2 - x.abs().log10().floor() as i32).clamp(0, 9) as usize;
    format!("{x:.decimals$}")
}

/// The header matching [`BenchReport::table_row`].
pub const TABLE_HEADER: &str = "| teacher | games | plies | labels | seconds | games/s | labels/s |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |";

/// Plays `games` training games under `cfg` (on all cores with `parallel`) and times
/// them, each game counted on `progress` as it ends, in a phase named `name` (the
/// teacher's name when None), the name the report's row carries.
pub fn bench(
    cfg: &GenConfig,
    games: u64,
    name: Option<&'static str>,
    progress: &dyn Progress,
) -> Result<BenchReport, CorpusError> {
    let mut rep = BenchReport {
        teacher: name.unwrap_or(cfg.teacher.mode.name()),
        games,
        plies: 0,
        labels: [0; 4],
        seconds: 0.0,
    };
    let t = Instant::now();
    progress.start(rep.teacher, games);
    run_games(cfg, STREAM_TRAIN, 0..games, progress, |_, g| {
        rep.plies += g.moves.len() as u64;
        for s in &g.slots {
            rep.labels[s.flag as usize & 3] += 1;
        }
        Ok(())
    })?;
    rep.seconds = t.elapsed().as_secs_f64();
    progress.finish();
    Ok(rep)
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::{bench, significant};
    use crate::generate::{GenConfig, Progress};

    /// The phases started, in order.
    struct Phases(Mutex<Vec<String>>);

    impl Progress for Phases {
        fn start(&self, phase: &str, _total: u64) {
            self.0.lock().unwrap().push(phase.to_string());
        }
    }

    #[test]
    fn a_named_row_counts_its_games_under_its_own_name() {
        // (bench corpus's two exact rows both counted their games as "exact")
        let cfg = GenConfig::default();
        let phases = Phases(Mutex::new(Vec::new()));
        let plain = bench(&cfg, 1, None, &phases).unwrap();
        let named = bench(&cfg, 1, Some("alphabeta, renamed"), &phases).unwrap();
        assert_eq!(
            *phases.0.lock().unwrap(),
            ["alphabeta", "alphabeta, renamed"]
        );
        assert_eq!(plain.teacher, "alphabeta");
        assert!(named.table_row().starts_with("| alphabeta, renamed | 1 | "));
    }

    #[test]
    fn small_rates_keep_their_digits() {
        assert_eq!(significant(0.01733), "0.0173");
        assert_eq!(significant(57.72), "57.7");
        assert_eq!(significant(4.56789), "4.57");
        assert_eq!(significant(12345.6), "12346");
        assert_eq!(significant(0.0), "0");
    }
}
