//! `corpus label`: relabel a corpus with the full exact teacher (flag 3) and measure,
//! per original teacher flag, how often its label puts mass only on optimal moves and
//! how often its argmax (its one-hot move) is optimal.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};

use c4lab_board::Position;

use crate::error::CorpusError;
use crate::generate::{map_batch, Progress, TeacherPool};
use crate::reader::RowReader;
use crate::sidecar::{Labels, Sidecar, SlotLabel, FLAG_EXACT};
use crate::teacher::{TeacherConfig, TeacherMode};

const BATCH: usize = 256;

/// Agreement of one teacher flag's labels with the exact solver.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Agreement {
    /// Slots compared.
    pub slots: u64,
    /// Slots whose mass lies only on optimal moves.
    pub mass_optimal: u64,
    /// Slots whose argmax column (the lowest among equal maxima) is optimal.
    pub argmax_optimal: u64,
}

/// The relabelling report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LabelReport {
    /// Rows relabelled.
    pub rows: u64,
    /// Agreement by original flag 0..=3 (flag 0 never counts).
    pub flags: [Agreement; 4],
    /// Labelled slots not solved because their board had fewer than `min_stones` stones.
    pub skipped: u64,
    /// Whether those slots kept their original labels (else they are left empty).
    pub kept_early: bool,
}

impl LabelReport {
    /// The report as a Markdown table.
    pub fn to_markdown(&self) -> String {
        let mut s = String::from(
            "| teacher flag | slots | mass only on optimal moves | argmax optimal |\n| --- | ---: | ---: | ---: |\n",
        );
        for (f, a) in self.flags.iter().enumerate().skip(1) {
            if a.slots == 0 {
                continue;
            }
            let pct = |x: u64| 100.0 * x as f64 / a.slots as f64;
            let _ = writeln!(
                s,
                "| {f} | {} | {} ({:.2} %) | {} ({:.2} %) |",
                a.slots,
                a.mass_optimal,
                pct(a.mass_optimal),
                a.argmax_optimal,
                pct(a.argmax_optimal)
            );
        }
        if self.skipped > 0 {
            // (it said "were skipped" when --keep-early had kept them)
            let _ = writeln!(
                s,
                "\n{} labelled slots with too few stones were not solved: {}.",
                self.skipped,
                if self.kept_early {
                    "they keep their original labels"
                } else {
                    "they are left empty"
                }
            );
        }
        s
    }
}

/// Which slots [`relabel`] solves, and what becomes of the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scope {
    /// Relabel only the first rows (all when `None`).
    pub rows: Option<usize>,
    /// Slots whose board has fewer stones are not solved (exact solves near the empty
    /// board are slow without an opening book).
    pub min_stones: u32,
    /// Those slots keep their original label and flag (else they are left empty).
    pub keep_early: bool,
}

/// A slot of the new labels before the solver has answered.
enum Pending {
    /// Left empty.
    Empty,
    /// The original label, kept.
    Kept(SlotLabel),
    /// The next job's answer.
    Solved(i16),
}

/// One slot to relabel: its board, old flag and old target.
struct Job {
    /// The job's row, counted from the batch's first.
    row: usize,
    pos: Position,
    flag: i8,
    target: [f32; 7],
}

/// Relabels the rows of `scope` with the exact solver; returns the report and the new
/// labels (flag 3, every best move, same plies). Slots whose board has fewer than
/// `scope.min_stones` stones are skipped: left empty, or with their original label
/// and flag when `scope.keep_early`.
pub fn relabel(
    corpus: &Path,
    sidecar: &Path,
    teacher: &TeacherConfig,
    scope: &Scope,
    progress: &dyn Progress,
) -> Result<(LabelReport, Labels), CorpusError> {
    // a sidecar of another corpus with the same row count would be relabelled as if it
    // fitted; the gate also names a row count that differs before any row is solved
    crate::gate::require_clean(corpus, sidecar)?;
    let sc = Sidecar::open(sidecar)?;
    let mut cfg = teacher.clone();
    cfg.mode = TeacherMode::Exact;
    let pool = TeacherPool::new(&cfg);
    let mut rows = RowReader::open(corpus)?;
    let mut targets = sc.targets()?;
    let mut report = LabelReport {
        kept_early: scope.keep_early,
        ..LabelReport::default()
    };
    let mut labels = Labels::new(sc.slots);
    let total = scope.rows.unwrap_or(sc.rows).min(sc.rows);
    progress.start("label", total as u64);
    let mut row = 0usize;
    while row < total {
        let end = (row + BATCH).min(total);
        let mut jobs: Vec<Job> = Vec::new();
        let mut shape: Vec<Vec<Pending>> = Vec::new();
        for i in row..end {
            let g = rows.next_game()?.ok_or_else(|| {
                CorpusError::Invalid(format!(
                    "{} has {i} rows but its sidecar {} has {}; a corpus and its sidecar have one row each",
                    corpus.display(),
                    sidecar.display(),
                    sc.rows
                ))
            })?;
            let t = targets.next().expect("rows below the sidecar's N")?;
            let mut plies = Vec::new();
            for (s, &p) in sc.ply_row(i).iter().enumerate() {
                if p < 0 || p as usize >= g.positions.len() {
                    plies.push(Pending::Empty);
                    continue;
                }
                let flag = sc.teacher_row(i)[s];
                let target: [f32; 7] = t[s * 7..s * 7 + 7].try_into().unwrap();
                if g.positions[p as usize].moves_played() < scope.min_stones {
                    report.skipped += 1;
                    plies.push(match u8::try_from(flag) {
                        Ok(flag) if scope.keep_early && flag > 0 => Pending::Kept(SlotLabel {
                            ply: p,
                            flag,
                            mask: SlotLabel::mask_of_target(&target),
                        }),
                        _ => Pending::Empty,
                    });
                    continue;
                }
                plies.push(Pending::Solved(p));
                jobs.push(Job {
                    row: shape.len(),
                    pos: g.positions[p as usize],
                    flag,
                    target,
                });
            }
            shape.push(plies);
        }
        // a row is counted done as its last solve ends, so a batch that takes minutes
        // shows its rows as they finish
        let left: Vec<AtomicUsize> = shape.iter().map(|_| AtomicUsize::new(0)).collect();
        for j in &jobs {
            left[j.row].fetch_add(1, Ordering::Relaxed);
        }
        let nothing_to_solve = left
            .iter()
            .filter(|l| l.load(Ordering::Relaxed) == 0)
            .count();
        if nothing_to_solve > 0 {
            progress.advance(nothing_to_solve as u64);
        }
        let masks = map_batch(&jobs, &pool, |j, t| {
            let mask = t.exact_mask(&j.pos);
            if left[j.row].fetch_sub(1, Ordering::AcqRel) == 1 {
                progress.advance(1);
            }
            mask
        });
        let mut k = 0;
        for plies in shape {
            let mut out = Vec::with_capacity(sc.slots);
            for slot in plies {
                let p = match slot {
                    Pending::Empty => {
                        out.push(SlotLabel::EMPTY);
                        continue;
                    }
                    Pending::Kept(label) => {
                        out.push(label);
                        continue;
                    }
                    Pending::Solved(p) => p,
                };
                let (job, mask) = (&jobs[k], masks[k]);
                k += 1;
                if let Some(f) = usize::try_from(job.flag)
                    .ok()
                    .filter(|&f| (1..4).contains(&f))
                {
                    let a = &mut report.flags[f];
                    a.slots += 1;
                    let t = &job.target;
                    a.mass_optimal += (0..7).all(|x| t[x] <= 0.0 || mask & (1 << x) != 0) as u64;
                    let arg = (0..7).fold(0, |b, x| if t[x] > t[b] { x } else { b });
                    a.argmax_optimal += (mask & (1 << arg) != 0) as u64;
                }
                out.push(SlotLabel {
                    ply: p,
                    flag: FLAG_EXACT,
                    mask,
                });
            }
            labels.push_row(&out);
        }
        report.rows += (end - row) as u64;
        row = end;
    }
    // rows past `limit` are not relabelled, but the whole target member is checked
    targets.finish()?;
    progress.finish();
    Ok((report, labels))
}
