//! The published layout and the operations that build it: a whole run, shards and
//! their merge, and splitting an existing corpus.
//!
//! ```text
//! DIR/train/corpus_<N>.txt         N training rows (320000 -> corpus_320k.txt)
//! DIR/train/perply_targets.npz
//! DIR/holdout/corpus.txt           board-disjoint holdout rows
//! DIR/holdout/perply_targets.npz
//! DIR/README.md                    the generated dataset card
//! DIR/SHA256SUMS                   checksums of every file above
//! ```
//!
//! A shard directory holds `corpus.txt`, `perply_targets.npz` and `shard.txt` (the
//! settings and its block of game indices; see `shard.rs`). Merging concatenates shards
//! in index order and then builds the holdout, card and checksums exactly as a single
//! run does, so the merged dataset is byte-identical to a single run with the same seed.

use std::fmt::Write as _;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::{io_err, CorpusError};
use crate::gate;
use crate::generate::{
    run_games_with, CorpusWriter, GenConfig, Progress, TeacherPool, STREAM_TRAIN,
};
use crate::holdout::{self, generate_holdout_with, labelled_keys, KeySet};
use crate::part;
use crate::reader::RowReader;
use crate::sidecar::{read_labels, write_sidecar, Labels};
use crate::stats;
use crate::sums::write_sums;
use crate::teacher::TeacherMode;

pub use crate::shard::{generate_shard, merge, merge_with, shard_range, ExactHelp};

/// The shard metadata file.
pub const SHARD_FILE: &str = "shard.txt";

/// The training corpus file name for `n` rows (`corpus_320k.txt`, `corpus_1234.txt`).
pub fn train_file_name(n: u64) -> String {
    if n >= 1000 && n.is_multiple_of(1000) {
        format!("corpus_{}k.txt", n / 1000)
    } else {
        format!("corpus_{n}.txt")
    }
}

/// What a dataset run was asked for.
#[derive(Debug, Clone)]
pub struct DatasetConfig {
    /// Self-play settings.
    pub gen: GenConfig,
    /// Training games.
    pub games: u64,
    /// Holdout games.
    pub holdout: u64,
}

/// The most training (or holdout) games one dataset may ask for.
pub const MAX_GAMES: u64 = 1_000_000_000;

impl DatasetConfig {
    /// Refuses settings no run could meet: the self-play settings' own checks, more
    /// than [`MAX_GAMES`] games, and a holdout that can never be board-disjoint (with
    /// 42 slots every game labels the empty board, so every holdout candidate shares a
    /// board with training).
    pub fn validate(&self) -> Result<(), CorpusError> {
        self.gen.validate()?;
        if self.games == 0 {
            // (it wrote, gated as clean and checksummed a training corpus of no rows)
            return Err(CorpusError::Invalid(
                "games is 0: a dataset needs at least one training game".into(),
            ));
        }
        for (what, n) in [("games", self.games), ("holdout", self.holdout)] {
            if n > MAX_GAMES {
                return Err(CorpusError::Invalid(format!(
                    "{what} is {n}; at most {MAX_GAMES} games"
                )));
            }
        }
        if self.holdout > 0 && self.games > 0 && self.gen.slots >= 42 {
            return Err(CorpusError::Invalid(format!(
                "slots is {}: every game then labels the empty board, so no holdout game can be board-disjoint from training; label at most 41 slots, or ask for no holdout",
                self.gen.slots
            )));
        }
        Ok(())
    }
}

/// What a dataset run produced.
#[derive(Debug, Clone)]
pub struct DatasetSummary {
    /// The training corpus path.
    pub train: PathBuf,
    /// The holdout corpus path (when a holdout was asked for).
    pub holdout: Option<PathBuf>,
    /// Holdout candidates played to accept the holdout.
    pub holdout_candidates: u64,
    /// The checksum lines written.
    pub sums: Vec<String>,
    /// True when the gate found both corpora clean.
    pub clean: bool,
}

/// The training and holdout paths under `dir`.
pub fn layout(dir: &Path, games: u64) -> [PathBuf; 4] {
    [
        dir.join("train").join(train_file_name(games)),
        dir.join("train/perply_targets.npz"),
        dir.join("holdout/corpus.txt"),
        dir.join("holdout/perply_targets.npz"),
    ]
}

pub(crate) fn keys_of(labels: &Labels, moves_of_row: &mut dyn FnMut(usize) -> Vec<u8>) -> Vec<u64> {
    let mut keys = Vec::new();
    for (i, row) in labels.rows().enumerate() {
        keys.extend(labelled_keys(&moves_of_row(i), row));
    }
    keys
}

/// What a dataset operation writes besides the training files.
#[derive(Clone, Copy)]
pub(crate) struct Writes {
    /// The holdout files (not written when no row is held out).
    pub(crate) holdout: bool,
    /// The dataset card, README.md (`split` writes none).
    pub(crate) card: bool,
}

/// Refuses a folder holding files other than those a dataset of `games` training rows
/// writes: its checksums would list them beside the new dataset (an earlier run's
/// `corpus_320k.txt` beside this run's `corpus_40k.txt`, or its holdout beside a run
/// that holds none out, say).
pub(crate) fn refuse_strays(dir: &Path, games: u64, writes: Writes) -> Result<(), CorpusError> {
    let [train, train_npz, hold, hold_npz] = layout(dir, games);
    let mut written = vec![train, train_npz];
    if writes.holdout {
        written.extend([hold, hold_npz]);
    }
    if writes.card {
        written.push(dir.join("README.md"));
    }
    refuse_others(dir, &written, "this dataset")
}

/// Refuses a folder holding files besides `written` and their checksums (`what` names
/// the writer in the message): the checksums over the folder would list them.
fn refuse_others(dir: &Path, written: &[PathBuf], what: &str) -> Result<(), CorpusError> {
    if !dir.is_dir() {
        return Ok(());
    }
    let ours: Vec<String> = written
        .iter()
        .filter_map(|p| p.strip_prefix(dir).ok())
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    // a `.part` file a stopped run left is written over when it is one of ours (or the
    // checksums'); another would stay beside the new files and fail `verify-sums`
    let strays: Vec<String> = crate::sums::files_under(dir, true)?
        .into_iter()
        .filter(|f| {
            let whole = f.strip_suffix(".part").unwrap_or(f);
            !ours.iter().any(|o| o == whole) && f != "SHA256SUMS.part"
        })
        .collect();
    if strays.is_empty() {
        return Ok(());
    }
    let named: Vec<&str> = strays.iter().take(3).map(String::as_str).collect();
    Err(CorpusError::Invalid(format!(
        "{} already holds {} file{} that {what} would not write ({}{}); write into a new or empty folder",
        dir.display(),
        strays.len(),
        if strays.len() == 1 { "" } else { "s" },
        named.join(", "),
        if strays.len() > 3 { ", ..." } else { "" }
    )))
}

/// Generates a whole dataset into `dir` (train, holdout, card, checksums).
pub fn generate_dataset(
    cfg: &DatasetConfig,
    dir: &Path,
    progress: &dyn Progress,
) -> Result<DatasetSummary, CorpusError> {
    cfg.validate()?;
    let writes = Writes {
        holdout: cfg.holdout > 0,
        card: true,
    };
    refuse_strays(dir, cfg.games, writes)?;
    let [train, train_npz, ..] = layout(dir, cfg.games);
    let mut w = CorpusWriter::create(&train, cfg.gen.slots)?;
    let mut keys = Vec::new();
    progress.start("train", cfg.games);
    // one set of teachers for the training games and the holdout's candidates: they
    // share the cache of early exact labels
    let pool = TeacherPool::new(&cfg.gen.teacher);
    run_games_with(
        &cfg.gen,
        STREAM_TRAIN,
        0..cfg.games,
        &pool,
        progress,
        |_, g| {
            keys.extend(labelled_keys(&g.moves, &g.slots));
            w.push(&g)
        },
    )?;
    progress.finish();
    // the holdout before any file is renamed into place: a holdout that fails (too few
    // disjoint games) leaves an earlier run's dataset there whole (it was removed, as
    // the training files had replaced its own)
    let holdout = make_holdout(cfg, &KeySet::from_keys(keys), &pool, progress)?;
    let whole = part::Whole::new(unfinished(dir, cfg.games));
    let finished = w
        .finish(&train_npz)
        .and_then(|_| finish_dataset(cfg, dir, holdout));
    whole.end(finished.is_ok());
    finished
}

/// The files of a dataset in `dir` that a stop or a failure before its checksums are
/// written must not leave behind once the first of them was replaced: without the rest
/// they would read as a finished corpus (and an earlier run's card or checksums there
/// would describe other files).
pub(crate) fn unfinished(dir: &Path, games: u64) -> Vec<PathBuf> {
    let mut files = layout(dir, games).to_vec();
    files.push(dir.join("README.md"));
    files.push(dir.join(crate::sums::SUMS_FILE));
    files
}

/// The holdout games of `cfg` (None when it asks for none), disjoint from `train_keys`.
pub(crate) fn make_holdout(
    cfg: &DatasetConfig,
    train_keys: &KeySet,
    pool: &TeacherPool,
    progress: &dyn Progress,
) -> Result<Option<holdout::Holdout>, CorpusError> {
    if cfg.holdout == 0 {
        return Ok(None);
    }
    progress.start("holdout", cfg.holdout);
    let max = cfg.holdout.saturating_mul(200).max(10_000);
    let h = generate_holdout_with(
        &cfg.gen,
        cfg.holdout as usize,
        train_keys,
        max,
        pool,
        progress,
    )?;
    progress.finish();
    Ok(Some(h))
}

/// Writes the holdout's files, the card and the checksums once the training files exist.
pub(crate) fn finish_dataset(
    cfg: &DatasetConfig,
    dir: &Path,
    holdout: Option<holdout::Holdout>,
) -> Result<DatasetSummary, CorpusError> {
    let [train, train_npz, hold, hold_npz] = layout(dir, cfg.games);
    let (mut holdout_path, mut candidates) = (None, 0);
    if let Some(h) = holdout {
        let mut w = CorpusWriter::create(&hold, cfg.gen.slots)?;
        for g in &h.games {
            w.push(g)?;
        }
        w.finish(&hold_npz)?;
        holdout_path = Some(hold.clone());
        candidates = h.candidates;
    }
    let mut clean = gate::check(&train, Some(&train_npz))?.is_clean();
    let mut card = card_header(cfg);
    let st = stats::compute(&train, &train_npz)?;
    let _ = writeln!(card, "## Training corpus\n\n{}", st.to_markdown());
    if let Some(h) = &holdout_path {
        clean &= gate::check(h, Some(&hold_npz))?.is_clean();
        let hs = stats::compute(h, &hold_npz)?;
        let o = holdout::overlap((&train, &train_npz), (h, &hold_npz))?;
        let _ = writeln!(
            card,
            "## Holdout\n\n{}\nBoard-disjoint rule: no labelled board of a holdout row, up to left-right mirroring, is a labelled board of any training row. Holdout games come from their own seeded stream; {} of {} candidates were accepted ({:.1} %).\n\nMeasured overlap with training: {}.\n",
            hs.to_markdown(),
            cfg.holdout,
            candidates,
            100.0 * cfg.holdout as f64 / candidates.max(1) as f64,
            holdout::describe(&o, "the training corpus", "the holdout")
        );
    }
    let _ = writeln!(
        card,
        "## Integrity\n\n`c4lab corpus check` on every corpus with its sidecar: {}.\n\nVerify the files with `sha256sum -c SHA256SUMS` (or `c4lab corpus verify-sums DIR`).",
        if clean { "0 violations" } else { "VIOLATIONS FOUND" }
    );
    let readme = dir.join("README.md");
    part::write(&readme, card)?;
    let sums = write_sums(dir)?;
    Ok(DatasetSummary {
        train,
        holdout: holdout_path,
        holdout_candidates: candidates,
        sums,
        clean,
    })
}

fn card_header(cfg: &DatasetConfig) -> String {
    let g = &cfg.gen;
    let t = &g.teacher;
    let teacher = match t.mode {
        TeacherMode::AlphaBeta => format!(
            "alpha-beta search teacher (depth {}, {} nodes a move; flag 2, one-hot) and the bounded exact solver at plies with <= {} empty cells (flag 1, every best move)",
            t.depth, t.node_budget, t.bounded_empty
        ),
        TeacherMode::Exact => "full exact solver at every ply (flag 3, every best move)".to_string(),
    };
    format!(
        "# c4lab teacher corpus\n\nSynthetic Connect Four self-play games in the v2 byte transcript (10 bytes a ply, one game per `\\n`-terminated binary line) with the per-ply target sidecar `perply_targets.npz` (arrays `target` (N,{s},7) float32, `ply_of` (N,{s}) int16, `teacher` (N,{s}) int8, `n_plies` (N,) int16, the row's labelled slots, not the game's length; slots newest first). Generated by `c4lab corpus generate`.\n\n| file | rows |\n| --- | ---: |\n| train/{train} | {n} |\n| train/perply_targets.npz | {n} |\n{holdout}| SHA256SUMS | — |\n\nTeacher: {teacher}. Labels are a bounded search policy, not a proof of optimal play, except where the flag says exact.\n\nSelf-play: seed {seed}; {omin}..={omax} random opening plies (uniform among moves that neither make a four nor allow one at once), then a random move with probability {eps} at each ply from ply {efrom} on (0-based); random choice among equal best moves: {ties}. Every game is a pure function of (seed, stream, game index): stream 0 the training games, 1 the holdout candidates.\n\n",
        s = g.slots,
        train = train_file_name(cfg.games),
        n = cfg.games,
        // (with --holdout 0 no holdout file is written: the card listed two, of 0 rows)
        holdout = match cfg.holdout {
            0 => String::new(),
            h => format!("| holdout/corpus.txt | {h} |\n| holdout/perply_targets.npz | {h} |\n"),
        },
        seed = g.seed,
        omin = g.opening_min,
        omax = g.opening_max,
        eps = g.epsilon,
        efrom = g.epsilon_from,
        ties = g.random_ties,
    )
}

/// Refuses an output that is one of the inputs: files are written from the start, so
/// writing one would empty it before it is read.
pub fn refuse_overwrite(inputs: &[&Path], outputs: &[&Path]) -> Result<(), CorpusError> {
    // an output is first written as its `.part` file: an input of that name was cut
    // short as it was read
    for o in outputs
        .iter()
        .flat_map(|o| [o.to_path_buf(), part::part_of(o)])
    {
        // an output that does not exist yet cannot be an input
        let Ok(out) = o.canonicalize() else { continue };
        for i in inputs {
            if i.canonicalize().is_ok_and(|i| i == out) {
                return Err(CorpusError::Invalid(format!(
                    "{} would be written over while it is read; write to another folder",
                    o.display()
                )));
            }
        }
    }
    Ok(())
}

/// Writes a relabelled corpus (the first `labels.len()` rows of `corpus`) with its checksums.
///
/// The files are `dir/corpus.txt`, `dir/perply_targets.npz` and `dir/SHA256SUMS`, which
/// lists every file in `dir` ([`refuse_relabel_strays`] before the relabel keeps others
/// out; a file that turned up since, as a file manager's `.DS_Store`, is listed rather
/// than the relabel lost). Once one is in place the three are whole or gone (a stop
/// between them left a sidecar without its corpus), and a failure leaves no `.part` file.
pub fn write_relabelled(corpus: &Path, labels: &Labels, dir: &Path) -> Result<(), CorpusError> {
    let [rows_path, npz] = relabelled_files(dir);
    refuse_overwrite(&[corpus], &[&rows_path, &npz])?;
    let sums = dir.join(crate::sums::SUMS_FILE);
    // (a failure leaves no file's `.part` behind)
    let whole = part::Whole::new(vec![rows_path.clone(), npz.clone(), sums]);
    let write = || -> Result<(), CorpusError> {
        let mut rows = RowReader::open(corpus)?;
        let mut out = BufWriter::new(part::create(&rows_path).map_err(io_err(&rows_path))?);
        for _ in 0..labels.len() {
            let Some(r) = rows.next_row()? else { break };
            out.write_all(r.bytes)
                .and_then(|_| out.write_all(b"\n"))
                .map_err(io_err(&rows_path))?;
        }
        out.flush().map_err(io_err(&rows_path))?;
        drop(out);
        // the sidecar first, as every writer of a corpus
        write_sidecar(&npz, labels)?;
        part::commit(&rows_path).map_err(io_err(&rows_path))?;
        write_sums(dir).map(drop)
    };
    let finished = write();
    whole.end(finished.is_ok());
    finished
}

/// The files a relabelled corpus is written to in `dir`: the corpus and its sidecar.
pub fn relabelled_files(dir: &Path) -> [PathBuf; 2] {
    [dir.join("corpus.txt"), dir.join("perply_targets.npz")]
}

/// Refuses a folder holding files a relabelled corpus would not write (its checksums would list them).
///
/// Run it before the relabel, not after its hours of solving.
pub fn refuse_relabel_strays(dir: &Path) -> Result<(), CorpusError> {
    refuse_others(dir, &relabelled_files(dir), "a relabelled corpus")?;
    // what stands where a file goes would fail the run at its end: a folder under a
    // file's name (nothing is renamed over one), anything but a file under its `.part`
    // file's (which is created afresh)
    let [rows, npz] = relabelled_files(dir);
    for file in [rows, npz, dir.join(crate::sums::SUMS_FILE)] {
        let part = part::part_of(&file);
        let in_the_way = std::fs::symlink_metadata(&file)
            .is_ok_and(|m| m.is_dir())
            .then_some(file)
            .or_else(|| {
                std::fs::symlink_metadata(&part)
                    .is_ok_and(|m| !m.is_file())
                    .then_some(part)
            });
        if let Some(path) = in_the_way {
            return Err(CorpusError::Invalid(format!(
                "{} is no regular file (a folder, link, FIFO or device) where the relabel writes one; remove it",
                path.display()
            )));
        }
    }
    Ok(())
}

/// Splits a corpus and its sidecar into `dir/train` and `dir/holdout` board-disjointly
/// (see [`crate::holdout`]), with up to `holdout` rows held out; writes the card's
/// checksums too. Returns (training rows, holdout rows).
pub fn split(
    corpus: &Path,
    sidecar: &Path,
    holdout: usize,
    seed: u64,
    dir: &Path,
) -> Result<(usize, usize), CorpusError> {
    gate::require_clean(corpus, sidecar)?;
    let labels = read_labels(sidecar)?;
    let row_keys = holdout::file_row_keys(corpus, sidecar)?;
    let chosen = holdout::choose_split(&row_keys, holdout, seed);
    // either side left empty would fail the integrity gate (no-games): nothing is written
    if chosen.is_empty() {
        return Err(CorpusError::Invalid(format!(
            "{}: no row qualifies for the holdout (a holdout row shares no labelled board with any other row, and --holdout {holdout} asks for {}), so the holdout would be empty; nothing was written",
            corpus.display(),
            if holdout == 0 { "none" } else { "at most that many" }
        )));
    }
    if chosen.len() == row_keys.len() {
        return Err(CorpusError::Invalid(format!(
            "{}: the holdout would take every row ({}) and leave none to train on; ask for fewer with --holdout; nothing was written",
            corpus.display(),
            row_keys.len()
        )));
    }
    let (train_l, hold_l) = holdout::split_labels(&labels, &chosen);
    let [train, train_npz, hold, hold_npz] = layout(dir, train_l.len() as u64);
    refuse_overwrite(&[corpus, sidecar], &[&train, &train_npz, &hold, &hold_npz])?;
    let writes = Writes {
        holdout: true,
        card: false,
    };
    refuse_strays(dir, train_l.len() as u64, writes)?;
    for d in [train.parent(), hold.parent()].into_iter().flatten() {
        std::fs::create_dir_all(d).map_err(io_err(d))?;
    }
    // once one file is in place, the split is whole or gone: a stop between the renames
    // left an earlier split's files beside this one's, under its checksums (and a
    // failure leaves none of its `.part` files)
    let whole = part::Whole::new(vec![
        train.clone(),
        train_npz.clone(),
        hold.clone(),
        hold_npz.clone(),
        dir.join(crate::sums::SUMS_FILE),
    ]);
    let finish = || -> Result<(), CorpusError> {
        let mut tw = BufWriter::new(part::create(&train).map_err(io_err(&train))?);
        let mut hw = BufWriter::new(part::create(&hold).map_err(io_err(&hold))?);
        let mut rows = RowReader::open(corpus)?;
        while let Some(r) = rows.next_row()? {
            let (w, p) = if chosen.binary_search(&r.index).is_ok() {
                (&mut hw, &hold)
            } else {
                (&mut tw, &train)
            };
            w.write_all(r.bytes)
                .and_then(|_| w.write_all(b"\n"))
                .map_err(io_err(p))?;
        }
        tw.flush().map_err(io_err(&train))?;
        hw.flush().map_err(io_err(&hold))?;
        drop((tw, hw));
        write_sidecar(&train_npz, &train_l)?;
        write_sidecar(&hold_npz, &hold_l)?;
        part::commit(&train).map_err(io_err(&train))?;
        part::commit(&hold).map_err(io_err(&hold))?;
        write_sums(dir)?;
        Ok(())
    };
    let finished = finish();
    whole.end(finished.is_ok());
    finished?;
    Ok((train_l.len(), hold_l.len()))
}
