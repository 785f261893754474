//! The dataset card's tables: rows and game lengths, slots by teacher flag (count and
//! share), mean active columns and multi-label share per flag, and the invariant.

use std::fmt::Write as _;
use std::path::Path;

use c4lab_board::Player;

use crate::error::CorpusError;
use crate::reader::RowReader;
use crate::sidecar::Sidecar;

/// Per-flag slot statistics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FlagStats {
    /// Slots with this flag.
    pub slots: u64,
    /// Columns with positive mass, summed over those slots.
    pub active_columns: u64,
    /// Slots with more than one active column.
    pub multi: u64,
}

impl FlagStats {
    /// Mean active columns per slot.
    pub fn mean_active(&self) -> f64 {
        ratio(self.active_columns, self.slots)
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        a as f64 / b as f64
    }
}

/// Statistics of a corpus and its sidecar.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stats {
    /// Corpus rows.
    pub rows: u64,
    /// Plies over all rows.
    pub plies: u64,
    /// Shortest and longest game.
    pub min_plies: u64,
    /// Longest game.
    pub max_plies: u64,
    /// Games won by the first player, by the second, and drawn or unfinished.
    pub outcomes: [u64; 3],
    /// Slots per row.
    pub slots_per_row: usize,
    /// Slot statistics by teacher flag 0..=3 (flag 0: the empty slots).
    pub flags: [FlagStats; 4],
    /// Slots with a flag outside 0..=3.
    pub bad_flags: u64,
    /// Rows for which the invariant holds (within 1e-4, as the gate checks it).
    pub invariant_rows: u64,
    /// Rows for which it holds exactly, as written (`==`).
    pub invariant_exact_rows: u64,
}

impl Stats {
    /// All slots (N * S).
    pub fn slots(&self) -> u64 {
        self.rows * self.slots_per_row as u64
    }

    /// Labelled slots (flags 1..=3).
    pub fn labelled(&self) -> u64 {
        self.flags[1..].iter().map(|f| f.slots).sum()
    }

    /// True when the invariant holds on every row.
    pub fn invariant_holds(&self) -> bool {
        self.invariant_rows == self.rows
    }

    /// The tables as Markdown.
    pub fn to_markdown(&self) -> String {
        let mut s = String::new();
        let names = [
            "0 (no label)",
            "1 (bounded exact, <= 7 empty)",
            "2 (alpha-beta search)",
            "3 (full exact)",
        ];
        let _ = writeln!(s, "| measure | value |\n| --- | ---: |");
        let _ = writeln!(s, "| rows | {} |", self.rows);
        let _ = writeln!(s, "| plies | {} |", self.plies);
        let _ = writeln!(
            s,
            "| plies per game (mean, min, max) | {:.2}, {}, {} |",
            ratio(self.plies, self.rows),
            self.min_plies,
            self.max_plies
        );
        let [r, y, d] = self.outcomes;
        let _ = writeln!(
            s,
            "| first player wins / second wins / draws (a full board, no four) | {r} / {y} / {d} |"
        );
        let _ = writeln!(
            s,
            "| slots (N x S) | {} x {} = {} |\n",
            self.rows,
            self.slots_per_row,
            self.slots()
        );
        let _ = writeln!(
            s,
            "| teacher flag | slots | % of slots | % of labelled |\n| --- | ---: | ---: | ---: |"
        );
        for (f, st) in self.flags.iter().enumerate() {
            let of_labelled = if f == 0 {
                "—".to_string()
            } else {
                format!("{:.1} %", 100.0 * ratio(st.slots, self.labelled()))
            };
            let _ = writeln!(
                s,
                "| {} | {} | {:.1} % | {} |",
                names[f],
                st.slots,
                100.0 * ratio(st.slots, self.slots()),
                of_labelled
            );
        }
        let _ = writeln!(s, "\n| source | labelled slots | mean active columns | slots with > 1 column |\n| --- | ---: | ---: | ---: |");
        for (f, st) in self.flags.iter().enumerate().skip(1) {
            let _ = writeln!(
                s,
                "| flag {f} | {} | {:.2} | {} ({:.1} %) |",
                st.slots,
                st.mean_active(),
                st.multi,
                100.0 * ratio(st.multi, st.slots)
            );
        }
        let (rows, exact) = (self.rows, self.invariant_exact_rows);
        let verdict = if !self.invariant_holds() {
            format!(
                "BROKEN ({} of {rows} rows within 1e-4)",
                self.invariant_rows
            )
        } else if exact == rows {
            format!("holds exactly on all {rows} rows (the masses are whole multiples of 2^-19, so their sums are exact in float32 or float64, in any order)")
        } else {
            format!("holds within 1e-4 on all {rows} rows, exactly on {exact} (the others' masses are not all whole multiples of 2^-19, as float32's nearest 1/3 is not: compare with `np.isclose`)")
        };
        let _ = writeln!(
            s,
            "\nInvariant `target.sum(axis=(1,2)) == (ply_of >= 0).sum(axis=1)`: {verdict}."
        );
        if self.bad_flags > 0 {
            let _ = writeln!(
                s,
                "\n{} slots carry a teacher flag outside 0..3.",
                self.bad_flags
            );
        }
        s
    }
}

/// Computes the statistics of a corpus and its sidecar (rows must decode).
pub fn compute(corpus: &Path, sidecar: &Path) -> Result<Stats, CorpusError> {
    let sc = Sidecar::open(sidecar)?;
    let mut st = Stats {
        slots_per_row: sc.slots,
        min_plies: u64::MAX,
        ..Stats::default()
    };
    let mut rows = RowReader::open(corpus)?;
    let mut targets = sc.targets()?;
    while let Some(g) = rows.next_game()? {
        let i = st.rows as usize;
        let n = g.moves.len() as u64;
        st.rows += 1;
        st.plies += n;
        st.min_plies = st.min_plies.min(n);
        st.max_plies = st.max_plies.max(n);
        let outcome = g
            .positions
            .last()
            .map(|p| p.after(*g.moves.last().unwrap() as usize).winner());
        match outcome.flatten() {
            Some(Player::Red) => st.outcomes[0] += 1,
            Some(Player::Yellow) => st.outcomes[1] += 1,
            None => st.outcomes[2] += 1,
        }
        let Some(t) = targets.next() else {
            return Err(CorpusError::Invalid(format!(
                "{} has more rows than the sidecar's {}",
                corpus.display(),
                sc.rows
            )));
        };
        let t = t?;
        let mut sum = 0f64;
        for (s, &flag) in sc.teacher_row(i).iter().enumerate() {
            let v = &t[s * 7..s * 7 + 7];
            sum += v.iter().map(|&x| x as f64).sum::<f64>();
            let active = v.iter().filter(|&&x| x > 0.0).count() as u64;
            match usize::try_from(flag).ok().filter(|&f| f < 4) {
                Some(f) => {
                    st.flags[f].slots += 1;
                    st.flags[f].active_columns += active;
                    st.flags[f].multi += (active > 1) as u64;
                }
                None => st.bad_flags += 1,
            }
        }
        let labelled = sc.ply_row(i).iter().filter(|&&p| p >= 0).count() as f64;
        if (sum - labelled).abs() <= 1e-4 {
            st.invariant_rows += 1;
        }
        // (a sum of float32 masses in f64 is exact for whole units, and so is numpy's)
        if sum == labelled {
            st.invariant_exact_rows += 1;
        }
    }
    if st.rows == 0 {
        st.min_plies = 0;
    }
    if st.rows as usize != sc.rows {
        return Err(CorpusError::Invalid(format!(
            "{} has {} rows but the sidecar {}",
            corpus.display(),
            st.rows,
            sc.rows
        )));
    }
    Ok(st)
}
