//! `c4lab corpus`: generate, check, describe, split, merge, relabel and checksum the
//! teacher corpus (the format: crates/corpus/README.md).

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use c4lab_corpus::dataset::{self, generate_dataset, generate_shard, layout, DatasetConfig};
use c4lab_corpus::gate::{check_with, GateReport};
use c4lab_corpus::generate::Progress;
use c4lab_corpus::holdout;
use c4lab_corpus::label::{relabel, Scope};

use crate::corpus_paths::{
    beside, hold_folder, out_folder, refuse_finished, refuse_written, sidecar, FolderHold,
};
use c4lab_corpus::stats;

use crate::plain::PlainProgress;
use c4lab_corpus::sums::{verify_sums, write_sums};
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};

use crate::selfplay::{bench_defaults, warn_early_random_moves, SelfPlay, Teacher};

/// Teacher-corpus commands.
#[derive(Subcommand)]
pub enum Corpus {
    /// Generate the published dataset (train, board-disjoint holdout, card, SHA256SUMS), or one shard.
    Generate {
        /// Training games.
        #[arg(long, default_value_t = 320_000, value_parser = crate::whole::any_u64)]
        games: u64,
        /// Holdout games (board-disjoint from training, mirror-aware).
        #[arg(long, default_value_t = 4_000, value_parser = crate::whole::any_u64)]
        holdout: u64,
        /// Output directory.
        #[arg(long)]
        out: PathBuf,
        /// Generate only shard i of N (0-based `i/N`, a contiguous block of games); join with `corpus merge`.
        #[arg(long)]
        shard: Option<String>,
        #[command(flatten)]
        play: SelfPlay,
    },
    /// The integrity gate: every rule of the format, legality and the sidecar; exit 1 on any violation.
    Check {
        /// The corpus file.
        corpus: PathBuf,
        /// Its sidecar (default: perply_targets.npz beside the corpus; it must be there
        /// unless --no-targets).
        targets: Option<PathBuf>,
        /// Check the transcript only.
        #[arg(long, conflicts_with = "targets")]
        no_targets: bool,
        /// Examples listed per kind of violation.
        #[arg(long, default_value_t = 5, value_parser = crate::whole::any_usize)]
        examples: usize,
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
    },
    /// The dataset card's tables: rows, slots by teacher flag, active columns, the invariant.
    Stats {
        /// The corpus file.
        corpus: PathBuf,
        /// Its sidecar (default: perply_targets.npz beside the corpus).
        targets: Option<PathBuf>,
    },
    /// Split a corpus and sidecar into OUT/train and OUT/holdout, board-disjointly.
    Split {
        /// The corpus file.
        corpus: PathBuf,
        /// Its sidecar (default: perply_targets.npz beside the corpus).
        targets: Option<PathBuf>,
        /// Rows to hold out (at most; only rows sharing no labelled board qualify).
        #[arg(long, value_parser = crate::whole::any_usize)]
        holdout: usize,
        /// Seed of the row order.
        #[arg(long, default_value_t = 32, value_parser = crate::whole::any_u64)]
        seed: u64,
        /// Output directory.
        #[arg(long)]
        out: PathBuf,
    },
    /// Merge shard directories into the published layout (identical to a single run).
    Merge {
        /// Shard directories (any order).
        #[arg(required = true)]
        shards: Vec<PathBuf>,
        /// Output directory.
        #[arg(long)]
        out: PathBuf,
        /// Transposition table of each thread's exact solver for the holdout, in MiB, as
        /// generate's (shard.txt does not hold it; the alpha-beta teacher keeps 4 MiB).
        #[arg(long, default_value_t = 64, value_parser = crate::solve::table_mib)]
        table_mb: usize,
        /// Opening book for the exact teacher's holdout, as generate's --book (shard.txt
        /// does not hold it; the alpha-beta teacher's shards refuse it).
        #[arg(long)]
        book: Option<PathBuf>,
    },
    /// Relabel with the exact teacher; report per flag how often labels are optimal.
    Label {
        /// The corpus file.
        corpus: PathBuf,
        /// Its sidecar (default: perply_targets.npz beside the corpus).
        targets: Option<PathBuf>,
        /// The relabelling teacher (`--teacher` as the source's tool takes it; `exact` is the only one here).
        #[arg(long, value_enum, default_value_t = Relabeller::Exact)]
        teacher: Relabeller,
        /// Relabel only the first ROWS rows, at least 1 (with --out, only they are written).
        #[arg(long, value_parser = crate::solve::count_arg)]
        rows: Option<usize>,
        /// Skip slots whose board has fewer stones (exact solves near the empty board are slow without --book); 0 to 42.
        #[arg(long, default_value_t = 12, value_parser = crate::whole::range::<u32>(0, 42))]
        min_stones: u32,
        /// Slots with fewer than --min-stones stones keep their original label and flag (else they are left empty).
        #[arg(long)]
        keep_early: bool,
        /// Write the relabelled corpus.txt and perply_targets.npz here, with their SHA256SUMS (flag 3 on every slot solved; with --keep-early, the skipped slots keep their flags); a new or empty folder.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Transposition table of each thread's solver, in MiB.
        #[arg(long, default_value_t = 64, value_parser = crate::solve::table_mib)]
        table_mb: usize,
        /// Opening book for the exact solver.
        #[arg(long)]
        book: Option<PathBuf>,
    },
    /// Write DIR/SHA256SUMS over every file under DIR (`sha256sum -c` format).
    Sums {
        /// The dataset directory.
        dir: PathBuf,
    },
    /// Verify DIR/SHA256SUMS without coreutils; exit 1 on a mismatch or an unlisted file.
    VerifySums {
        /// The dataset directory.
        dir: PathBuf,
    },
    /// Measure how many labelled boards (mirror-aware) of corpus B occur in corpus A.
    Overlap {
        /// Corpus A.
        a: PathBuf,
        /// Corpus B.
        b: PathBuf,
        /// A's sidecar (default: beside A).
        #[arg(long)]
        a_targets: Option<PathBuf>,
        /// B's sidecar (default: beside B).
        #[arg(long)]
        b_targets: Option<PathBuf>,
        /// Exit 1 unless the overlap is zero.
        #[arg(long)]
        expect_disjoint: bool,
    },
}

/// Draws an indicatif bar with ETA for each phase (plain lines where standard error is
/// no terminal), with the games done so far; a clearing one takes its bar away as the
/// phase ends (where a table is being printed).
pub(crate) struct Bar(
    Mutex<Option<(ProgressBar, PlainProgress, u64, String)>>,
    bool,
);

impl Bar {
    fn new() -> Bar {
        Bar(Mutex::new(None), false)
    }

    /// A bar cleared as each phase ends.
    pub(crate) fn clearing() -> Bar {
        Bar(Mutex::new(None), true)
    }
}

impl Progress for Bar {
    fn start(&self, phase: &str, total: u64) {
        let bar = ProgressBar::new(total);
        let style = ProgressStyle::with_template(
            "{prefix:>8} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} {per_sec} ETA {eta}{msg}",
        )
        .expect("a valid template");
        bar.set_style(style);
        bar.set_prefix(phase.to_string());
        bar.enable_steady_tick(Duration::from_millis(250));
        crate::plain::clear_bar_on_stop(&bar);
        let plain = PlainProgress::new(phase, "games", total);
        *self.0.lock().unwrap() = Some((bar, plain, 0, String::new()));
    }

    fn advance(&self, n: u64) {
        if let Some((bar, plain, done, note)) = self.0.lock().unwrap().as_mut() {
            bar.inc(n);
            *done += n;
            plain.update(*done, note);
        }
    }

    fn tried(&self, candidates: u64) {
        if let Some((bar, plain, done, note)) = self.0.lock().unwrap().as_mut() {
            *note = format!(", {candidates} candidates tried");
            bar.set_message(note.clone());
            plain.update(*done, note);
        }
    }

    fn finish(&self) {
        if let Some((bar, mut plain, done, note)) = self.0.lock().unwrap().take() {
            match self.1 {
                true => bar.finish_and_clear(),
                false => bar.finish(),
            }
            plain.finish(done, &note);
        }
    }
}

fn parse_shard(s: &str) -> Result<(u64, u64)> {
    let (i, n) = s.split_once('/').context("--shard takes i/N, e.g. 0/4")?;
    let number = |t: &str| {
        t.trim().parse::<u64>().with_context(|| {
            format!("--shard {s}: {t:?} is not a count (--shard takes i/N, e.g. 0/4)")
        })
    };
    let (i, n) = (number(i)?, number(n)?);
    if n == 0 || i >= n {
        bail!("--shard {s}: need 0 <= i < N");
    }
    Ok((i, n))
}

fn report_json(rep: &GateReport) -> serde_json::Value {
    let kinds: serde_json::Map<String, serde_json::Value> = rep
        .kinds
        .iter()
        .map(|(k, v)| {
            let ex: Vec<serde_json::Value> = v
                .examples
                .iter()
                .map(|e| serde_json::json!({"row": e.row, "ply": e.ply, "byte": e.byte, "slot": e.slot, "detail": e.detail}))
                .collect();
            (k.name().to_string(), serde_json::json!({"count": v.count, "examples": ex}))
        })
        .collect();
    serde_json::json!({
        "clean": rep.is_clean(),
        "rows": rep.rows,
        "plies": rep.plies,
        "sidecar_rows": rep.sidecar_rows,
        "unlabelled_rows": rep.sidecar_rows.map(|_| rep.unlabelled_rows),
        "violations": rep.total(),
        "kinds": kinds,
    })
}

/// The teachers `corpus label` relabels with: the exact solver alone (a relabel is a
/// check against exact values), so `--help` offers no other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Relabeller {
    /// The full exact solver on every slot from --min-stones stones (flag 3).
    Exact,
}

impl From<Relabeller> for Teacher {
    fn from(r: Relabeller) -> Teacher {
        match r {
            Relabeller::Exact => Teacher::Exact,
        }
    }
}

/// Runs a corpus command; returns the exit code (0 ok, 1 failed check).
pub fn run(cmd: Corpus) -> Result<u8> {
    // a stopped writer leaves no `.part` file behind, nor does a failed one (a full disk)
    crate::files::remove_on_interrupt(c4lab_corpus::remove_parts_being_written);
    // the output folder stays held until a failed run's `.part` files are gone (another
    // run could otherwise take the folder and lose its own files of those names)
    let mut hold = None;
    let ran = run_command(cmd, &mut hold);
    if ran.is_err() {
        c4lab_corpus::remove_parts_being_written();
    }
    drop(hold);
    ran
}

/// Runs a corpus command, holding its output folder in `hold` (see [`hold_folder`]).
fn run_command(cmd: Corpus, hold: &mut Option<FolderHold>) -> Result<u8> {
    match cmd {
        Corpus::Generate {
            games,
            holdout,
            out,
            shard,
            play,
        } => {
            // the alpha-beta teacher solves exactly only near the end of a game, where an
            // opening book holds nothing: a book given with it is never read
            if play.teacher == Teacher::Alphabeta && play.book.is_some() {
                bail!("--book speeds up the exact teacher only: the alpha-beta teacher (the default) never reads it; add --teacher exact, or leave out --book");
            }
            let cfg = DatasetConfig {
                gen: play.config()?,
                games,
                holdout,
            };
            cfg.validate()?;
            warn_early_random_moves(&cfg.gen);
            // a bad --shard is refused before the output folder is made
            let shard = shard.as_deref().map(parse_shard).transpose()?;
            out_folder(&out, "dataset")?;
            if shard.is_some() {
                // (a whole run refuses any file it would not write, this among them)
                refuse_finished(&out, "generate the shard")?;
            }
            *hold = Some(hold_folder(&out)?);
            let bar = Bar::new();
            let t = Instant::now();
            if let Some((i, n)) = shard {
                let rows = generate_shard(&cfg, i, n, &out, &bar)?;
                if rows == 0 {
                    // (shards are contiguous blocks: more shards than games leave some empty)
                    sayln!(
                        "note: this shard holds no game: {} over {n} shards leave some empty; corpus merge takes it as it is",
                        crate::complete::counted(games, "game")
                    );
                }
                outln!(
                    "shard {i}/{n}: {} (indices {:?}) in {:.1} s -> {}",
                    crate::complete::counted(rows, "game"),
                    dataset::shard_range(games, i, n),
                    t.elapsed().as_secs_f64(),
                    out.display()
                );
                return Ok(0);
            }
            let sum = generate_dataset(&cfg, &out, &bar)?;
            // ("1 rows", "1 games": counted as words are)
            let count = crate::complete::counted;
            outln!("train: {} ({})", sum.train.display(), count(games, "row"));
            if let Some(h) = &sum.holdout {
                outln!(
                    "holdout: {} ({} from {})",
                    h.display(),
                    count(holdout, "row"),
                    count(sum.holdout_candidates, "candidate")
                );
            }
            outln!("card: {}", out.join("README.md").display());
            outln!("SHA256SUMS: {} files", sum.sums.len());
            let rate = (games + holdout) as f64 / t.elapsed().as_secs_f64();
            outln!(
                "gate: {}; generated, gated and summed in {:.1} s ({} games/s)",
                if sum.clean { "clean" } else { "VIOLATIONS" },
                t.elapsed().as_secs_f64(),
                // (a slow teacher's few games read "0 games/s")
                if rate < 10.0 {
                    format!("{rate:.2}")
                } else {
                    format!("{rate:.0}")
                }
            );
            Ok(if sum.clean { 0 } else { 1 })
        }
        Corpus::Check {
            corpus,
            targets,
            no_targets,
            examples,
            json,
        } => {
            let npz = if no_targets {
                None
            } else {
                let npz = match targets {
                    Some(t) => t,
                    None => beside(&corpus, None)?,
                };
                // a missing sidecar is no pass: a transcript cut at a row's end passes
                // every transcript rule, and the sidecar is what says how many rows
                // there are
                if !npz.exists() {
                    bail!(
                        "no sidecar {} for {}; give the corpus's sidecar, or --no-targets to check the transcript alone",
                        npz.display(),
                        corpus.display()
                    );
                }
                Some(npz)
            };
            let rep = check_with(&corpus, npz.as_deref(), examples)?;
            if json {
                // one line, as every command's JSON
                outln!("{}", report_json(&rep));
            } else {
                match &npz {
                    Some(p) => outln!("{} + {}", corpus.display(), p.display()),
                    None => outln!("{} (no sidecar)", corpus.display()),
                }
                out!("{rep}");
            }
            Ok(if rep.is_clean() { 0 } else { 1 })
        }
        Corpus::Stats { corpus, targets } => {
            let npz = sidecar(&corpus, targets, "after the corpus")?;
            // statistics of a sidecar that does not fit its corpus would describe neither
            c4lab_corpus::gate::require_clean(&corpus, &npz)?;
            let st = stats::compute(&corpus, &npz)?;
            out!("{}", st.to_markdown());
            Ok(0)
        }
        Corpus::Split {
            corpus,
            targets,
            holdout,
            seed,
            out,
        } => {
            out_folder(&out, "split dataset")?;
            *hold = Some(hold_folder(&out)?);
            let (t, h) = dataset::split(
                &corpus,
                &sidecar(&corpus, targets, "after the corpus")?,
                holdout,
                seed,
                &out,
            )?;
            let [train, train_npz, hold, hold_npz] = layout(&out, t as u64);
            let o = holdout::overlap((&train, &train_npz), (&hold, &hold_npz))?;
            outln!("train: {} ({t} rows)", train.display());
            outln!("holdout: {} ({h} rows)", hold.display());
            outln!(
                "overlap: {}",
                holdout::describe(&o, "the training corpus", "the holdout")
            );
            if h < holdout {
                sayln!("note: only {h} rows share no labelled board with another row");
            }
            Ok(0)
        }
        Corpus::Merge {
            shards,
            out,
            table_mb,
            book,
        } => {
            out_folder(&out, "merged dataset")?;
            // one table per worker thread, as generate checks it
            let table_bytes = table_mb << 20;
            crate::table_memory::ensure_table_memory(
                table_bytes,
                c4lab_corpus::generate::worker_threads(),
            )?;
            let help = dataset::ExactHelp {
                book: book.as_deref().map(crate::book::read_book).transpose()?,
                table_bytes: Some(table_bytes),
            };
            *hold = Some(hold_folder(&out)?);
            let sum = dataset::merge_with(&shards, &out, &help, &Bar::new())?;
            outln!("train: {}", sum.train.display());
            if let Some(h) = &sum.holdout {
                outln!("holdout: {}", h.display());
            }
            outln!("gate: {}", if sum.clean { "clean" } else { "VIOLATIONS" });
            Ok(if sum.clean { 0 } else { 1 })
        }
        Corpus::Label {
            corpus,
            targets,
            teacher,
            rows,
            min_stones,
            keep_early,
            out,
            table_mb,
            book,
        } => {
            let play = SelfPlay {
                teacher: teacher.into(),
                table_mb,
                book,
                ..bench_defaults()
            };
            let cfg = play.config()?;
            let npz = sidecar(&corpus, targets, "after the corpus")?;
            if let Some(dir) = &out {
                out_folder(dir, "relabelled corpus")?;
                // refused before the hours of solving, not after
                let written = dataset::relabelled_files(dir);
                dataset::refuse_overwrite(&[&corpus, &npz], &[&written[0], &written[1]])?;
                // (judged by its path alone: holding it could make folders inside)
                refuse_finished(dir, "relabel")?;
                // held before its files are judged, as split and merge hold theirs: a run
                // writing into it now is named as such (its files in place were taken
                // for a corpus there); a folder that cannot be made fails now, not after
                // the relabel
                *hold = Some(hold_folder(dir)?);
                // nor over another corpus (a dataset's holdout folder, say): its files
                // would be replaced without a word, and its SHA256SUMS left stale
                if let Some(there) = written.iter().find(|p| p.exists()) {
                    bail!(
                        "{} already holds a corpus ({} is there; a relabel killed before its end leaves its files so); relabel into a new folder, or remove its files first",
                        dir.display(),
                        there.display()
                    );
                }
                dataset::refuse_relabel_strays(dir)?;
            }
            let t = Instant::now();
            let scope = Scope {
                rows,
                min_stones,
                keep_early,
            };
            let (rep, labels) = relabel(&corpus, &npz, &cfg.teacher, &scope, &Bar::new())?;
            let secs = t.elapsed().as_secs_f64();
            out!("{}", rep.to_markdown());
            let slots: u64 = rep.flags.iter().map(|f| f.slots).sum();
            outln!(
                "{}, {} in {secs:.1} s ({:.0} labels/s)",
                crate::complete::counted(rep.rows, "row"),
                crate::complete::counted(slots, "label"),
                slots as f64 / secs.max(1e-9)
            );
            if let Some(dir) = out {
                dataset::write_relabelled(&corpus, &labels, &dir)?;
                outln!("relabelled: {}", dir.display());
            }
            Ok(0)
        }
        Corpus::Sums { dir } => {
            refuse_written(&dir)?;
            let lines = write_sums(&dir)?;
            for l in &lines {
                outln!("{l}");
            }
            Ok(0)
        }
        Corpus::VerifySums { dir } => {
            refuse_written(&dir)?;
            let rep = verify_sums(&dir)?;
            for f in &rep.ok {
                outln!("{f}: OK");
            }
            for (f, why) in &rep.failed {
                outln!("{f}: FAILED ({why})");
            }
            for f in &rep.unlisted {
                if f.ends_with(".part") {
                    outln!("{f}: NOT LISTED (an output a stopped run left unfinished; delete it)");
                } else {
                    outln!("{f}: NOT LISTED");
                }
            }
            for (n, l) in &rep.malformed {
                outln!("line {n}: malformed (a checksum line is `<64 hex digits>  <file name>`): {l:?}");
            }
            if rep == c4lab_corpus::sums::SumsReport::default() {
                outln!(
                    "{}: lists no files: nothing verified",
                    dir.join(c4lab_corpus::sums::SUMS_FILE).display()
                );
            }
            Ok(if rep.passed() { 0 } else { 1 })
        }
        Corpus::Overlap {
            a,
            b,
            a_targets,
            b_targets,
            expect_disjoint,
        } => {
            let an = sidecar(&a, a_targets, "with --a-targets")?;
            let bn = sidecar(&b, b_targets, "with --b-targets")?;
            // the labelled boards come from the sidecars' slots: one that belongs to
            // another corpus would measure the wrong boards without a word
            c4lab_corpus::gate::require_clean(&a, &an)?;
            c4lab_corpus::gate::require_clean(&b, &bn)?;
            let o = holdout::overlap((&a, &an), (&b, &bn))?;
            outln!(
                "{}",
                holdout::describe(&o, &a.display().to_string(), &b.display().to_string())
            );
            let disjoint = o.rows_b_shared == 0;
            Ok(if expect_disjoint && !disjoint { 1 } else { 0 })
        }
    }
}
