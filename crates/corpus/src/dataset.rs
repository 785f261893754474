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
//! settings and its block of game indices). Merging concatenates shards in index
//! order and then builds the holdout, card and checksums exactly as a single run
//! does, so the merged dataset is byte-identical to a single run with the same seed.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::{io_err, CorpusError};
use crate::gate;
use crate::generate::{play_game, run_games, CorpusWriter, GenConfig, Progress, STREAM_TRAIN};
use crate::holdout::{self, generate_holdout, labelled_keys, KeySet};
use crate::part;
use crate::reader::RowReader;
use crate::shard_meta::{keys_once, kv_number, kv_text};
use crate::sidecar::{read_labels, write_sidecar, Labels};
use crate::stats;
use crate::sums::{sha256_file, write_sums};
use crate::teacher::{Teacher, TeacherMode};

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

fn keys_of(labels: &Labels, moves_of_row: &mut dyn FnMut(usize) -> Vec<u8>) -> Vec<u64> {
    let mut keys = Vec::new();
    for (i, row) in labels.rows().enumerate() {
        keys.extend(labelled_keys(&moves_of_row(i), row));
    }
    keys
}

/// What a dataset operation writes besides the training files.
#[derive(Clone, Copy)]
struct Writes {
    /// The holdout files (not written when no row is held out).
    holdout: bool,
    /// The dataset card, README.md (`split` writes none).
    card: bool,
}

/// Refuses a folder holding files other than those a dataset of `games` training rows
/// writes: its checksums would list them beside the new dataset (an earlier run's
/// `corpus_320k.txt` beside this run's `corpus_40k.txt`, or its holdout beside a run
/// that holds none out, say).
fn refuse_strays(dir: &Path, games: u64, writes: Writes) -> Result<(), CorpusError> {
    if !dir.is_dir() {
        return Ok(());
    }
    let [train, train_npz, hold, hold_npz] = layout(dir, games);
    let mut written = vec![train, train_npz];
    if writes.holdout {
        written.extend([hold, hold_npz]);
    }
    if writes.card {
        written.push(dir.join("README.md"));
    }
    let ours: Vec<String> = written
        .iter()
        .filter_map(|p| p.strip_prefix(dir).ok())
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    // (`.part` files, left by a stopped run, are no part of a dataset and written over)
    let strays: Vec<String> = crate::sums::published_files(dir)?
        .into_iter()
        .filter(|f| !ours.contains(f))
        .collect();
    if strays.is_empty() {
        return Ok(());
    }
    let named: Vec<&str> = strays.iter().take(3).map(String::as_str).collect();
    Err(CorpusError::Invalid(format!(
        "{} already holds {} file{} that this dataset would not write ({}{}); write into a new or empty folder",
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
    run_games(&cfg.gen, STREAM_TRAIN, 0..cfg.games, progress, |_, g| {
        keys.extend(labelled_keys(&g.moves, &g.slots));
        w.push(&g)
    })?;
    progress.finish();
    w.finish(&train_npz)?;
    let finished = finish_dataset(cfg, dir, KeySet::from_keys(keys), progress);
    if finished.is_err() {
        // without its holdout, card and checksums a training corpus left behind would
        // look finished (and a card of an earlier run there would describe other files)
        for file in layout(dir, cfg.games)
            .iter()
            .chain([&dir.join("README.md")])
        {
            let _ = std::fs::remove_file(file);
        }
    }
    finished
}

/// Builds the holdout, the card and the checksums once the training files exist.
fn finish_dataset(
    cfg: &DatasetConfig,
    dir: &Path,
    train_keys: KeySet,
    progress: &dyn Progress,
) -> Result<DatasetSummary, CorpusError> {
    let [train, train_npz, hold, hold_npz] = layout(dir, cfg.games);
    let (mut holdout_path, mut candidates) = (None, 0);
    if cfg.holdout > 0 {
        progress.start("holdout", cfg.holdout);
        let max = cfg.holdout.saturating_mul(200).max(10_000);
        let h = generate_holdout(&cfg.gen, cfg.holdout as usize, &train_keys, max, progress)?;
        progress.finish();
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
            holdout::describe(&o)
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
        "# c4lab teacher corpus\n\nSynthetic Connect Four self-play games in the v2 byte transcript (10 bytes a ply, one game per `\\n`-terminated binary line) with the per-ply target sidecar `perply_targets.npz` (arrays `target` (N,{s},7) float32, `ply_of` (N,{s}) int16, `teacher` (N,{s}) int8, `n_plies` (N,) int16, the row's labelled slots, not the game's length; slots newest first). Generated by `c4lab corpus generate`.\n\n| file | rows |\n| --- | ---: |\n| train/{train} | {n} |\n| train/perply_targets.npz | {n} |\n| holdout/corpus.txt | {h} |\n| holdout/perply_targets.npz | {h} |\n| SHA256SUMS | — |\n\nTeacher: {teacher}. Labels are a bounded search policy, not a proof of optimal play, except where the flag says exact.\n\nSelf-play: seed {seed}; {omin}..={omax} random opening plies (uniform among moves that neither make a four nor allow one at once), then a random move with probability {eps} at each ply from ply {efrom} on (0-based); random choice among equal best moves: {ties}. Every game is a pure function of (seed, game index).\n\n",
        s = g.slots,
        train = train_file_name(cfg.games),
        n = cfg.games,
        h = cfg.holdout,
        seed = g.seed,
        omin = g.opening_min,
        omax = g.opening_max,
        eps = g.epsilon,
        efrom = g.epsilon_from,
        ties = g.random_ties,
    )
}

/// Shard `i` of `n` (0-based) covers game indices `[i*G/n, (i+1)*G/n)`.
pub fn shard_range(games: u64, i: u64, n: u64) -> std::ops::Range<u64> {
    let at = |k: u64| (games as u128 * k as u128 / n as u128) as u64;
    at(i)..at(i + 1)
}

/// Generates shard `i` of `n` into `dir` (`corpus.txt`, `perply_targets.npz`,
/// `shard.txt`); the holdout is built by [`merge`].
pub fn generate_shard(
    cfg: &DatasetConfig,
    i: u64,
    n: u64,
    dir: &Path,
    progress: &dyn Progress,
) -> Result<u64, CorpusError> {
    if n == 0 || i >= n {
        return Err(CorpusError::Invalid(format!(
            "shard {i}/{n}: need 0 <= i < N"
        )));
    }
    cfg.validate()?;
    let range = shard_range(cfg.games, i, n);
    let mut w = CorpusWriter::create(&dir.join("corpus.txt"), cfg.gen.slots)?;
    progress.start("train", range.end - range.start);
    run_games(&cfg.gen, STREAM_TRAIN, range.clone(), progress, |_, g| {
        w.push(&g)
    })?;
    progress.finish();
    w.finish(&dir.join("perply_targets.npz"))?;
    let (corpus, npz) = (dir.join("corpus.txt"), dir.join("perply_targets.npz"));
    let meta = format!(
        "{}games = {}\nholdout = {}\nshard_index = {i}\nshard_count = {n}\nfirst_game = {}\nend_game = {}\n{CORPUS_SUM} = {}\n{TARGETS_SUM} = {}\n",
        cfg.gen.to_kv(),
        cfg.games,
        cfg.holdout,
        range.start,
        range.end,
        sha256_file(&corpus)?,
        sha256_file(&npz)?
    );
    let p = dir.join(SHARD_FILE);
    part::write(&p, meta)?;
    Ok(range.end - range.start)
}

/// The shard.txt keys of the shard's data files' SHA-256.
const CORPUS_SUM: &str = "corpus_sha256";
const TARGETS_SUM: &str = "targets_sha256";

/// Merges shard directories (any order) into the published layout under `dir`.
pub fn merge(
    shards: &[PathBuf],
    dir: &Path,
    progress: &dyn Progress,
) -> Result<DatasetSummary, CorpusError> {
    let mut metas = Vec::new();
    for s in shards {
        let p = s.join(SHARD_FILE);
        let text = std::fs::read_to_string(&p).map_err(io_err(&p))?;
        keys_once(&text, &p)?;
        let get = |k| kv_number(&text, k, &p);
        let (first, end) = (get("first_game")?, get("end_game")?);
        if end < first {
            return Err(CorpusError::Invalid(format!(
                "{}: end_game {end} is before first_game {first}",
                p.display()
            )));
        }
        let (games, hold, count) = (get("games")?, get("holdout")?, get("shard_count")?);
        let gen = GenConfig::from_kv(&text).map_err(|e| {
            CorpusError::Invalid(format!(
                "{}: {e}; the file was edited: generate the shard again",
                p.display()
            ))
        })?;
        metas.push((first, end, games, hold, count, gen.to_kv(), gen, s.clone()));
    }
    metas.sort_by_key(|m| m.0);
    let Some(head) = metas.first().cloned() else {
        return Err(CorpusError::Invalid("no shard given".into()));
    };
    let mut expect = 0;
    for m in &metas {
        if (m.2, m.3, m.4, &m.5) != (head.2, head.3, head.4, &head.5) {
            // name the first setting that differs, with both values
            let counts = [
                ("games", m.2, head.2),
                ("holdout", m.3, head.3),
                ("shard_count", m.4, head.4),
            ];
            let differs = counts
                .iter()
                .find(|(_, a, b)| a != b)
                .map(|(k, a, b)| (k.to_string(), a.to_string(), b.to_string()))
                .or_else(|| {
                    m.5.lines()
                        .zip(head.5.lines())
                        .find(|(a, b)| a != b)
                        .map(|(a, b)| {
                            let (k, va) = a.split_once('=').unwrap_or((a, ""));
                            let vb = b.split_once('=').map_or("", |(_, v)| v);
                            (
                                k.trim().to_string(),
                                va.trim().to_string(),
                                vb.trim().to_string(),
                            )
                        })
                });
            let (k, here, there) = differs.unwrap_or_default();
            return Err(CorpusError::Invalid(format!(
                "{}: settings differ from the other shards ({k} is {here} here, {there} in {}); merge shards of one run",
                m.7.display(),
                head.7.display()
            )));
        }
        if m.0 != expect {
            return Err(CorpusError::Invalid(format!(
                "shards leave a gap or overlap at game {expect} ({} starts at {})",
                m.7.display(),
                m.0
            )));
        }
        expect = m.1;
    }
    if expect != head.2 {
        return Err(CorpusError::Invalid(format!(
            "the shards cover games 0..{expect} of {}: the shards of games {expect}..{} are missing; give every shard of the {} the run made",
            head.2, head.2, head.4
        )));
    }
    let cfg = DatasetConfig {
        gen: head.6.clone(),
        games: head.2,
        holdout: head.3,
    };
    cfg.validate()
        .map_err(|e| CorpusError::Invalid(format!("{}: {e}", head.7.join(SHARD_FILE).display())))?;
    let [train, train_npz, ..] = layout(dir, cfg.games);
    let inputs: Vec<PathBuf> = metas
        .iter()
        .flat_map(|m| [m.7.join("corpus.txt"), m.7.join("perply_targets.npz")])
        .collect();
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    refuse_overwrite(&inputs, &[&train, &train_npz])?;
    let writes = Writes {
        holdout: cfg.holdout > 0,
        card: true,
    };
    refuse_strays(dir, cfg.games, writes)?;
    // every shard is read and checked before anything is written: a refused merge
    // leaves no output behind
    let mut labels = Labels::new(cfg.gen.slots);
    let mut keys = Vec::new();
    let mut teacher = Teacher::new(&cfg.gen.teacher);
    for m in &metas {
        let (c, npz) = (m.7.join("corpus.txt"), m.7.join("perply_targets.npz"));
        let meta = m.7.join(SHARD_FILE);
        let text = std::fs::read_to_string(&meta).map_err(io_err(&meta))?;
        for (key, file) in [(CORPUS_SUM, &c), (TARGETS_SUM, &npz)] {
            let Some(want) = kv_text(&text, key) else {
                continue; // a shard written before the checksums were
            };
            if sha256_file(file)? != want {
                return Err(CorpusError::Invalid(format!(
                    "{}: its checksum differs from the {key} its {SHARD_FILE} records: the file was changed after the shard was made; generate the shard again",
                    file.display()
                )));
            }
        }
        let part = read_labels(&npz)?;
        if part.slots() != cfg.gen.slots {
            return Err(CorpusError::Invalid(format!(
                "{}: {} slots a row, but the shard's settings say slots = {}",
                npz.display(),
                part.slots(),
                cfg.gen.slots
            )));
        }
        let mut rows = RowReader::open(&c)?;
        let mut moves = Vec::with_capacity(part.len());
        while let Some(g) = rows.next_game()? {
            moves.push(g.moves);
        }
        if moves.len() != part.len() || part.len() as u64 != m.1 - m.0 {
            return Err(CorpusError::Invalid(format!(
                "{}: {} rows, sidecar {}, expected {}",
                m.7.display(),
                moves.len(),
                part.len(),
                m.1 - m.0
            )));
        }
        // the exact teacher's games cost seconds to minutes each to play again; the
        // checksums above cover its shards
        if cfg.gen.teacher.mode == TeacherMode::AlphaBeta {
            same_as_settings(&m.7, &cfg.gen, m.0, &moves, &part, &mut teacher)?;
        }
        keys.extend(keys_of(&part, &mut |i| std::mem::take(&mut moves[i])));
        labels.extend(&part);
    }
    if let Some(d) = train.parent() {
        std::fs::create_dir_all(d).map_err(io_err(d))?;
    }
    let mut out = BufWriter::new(part::create(&train).map_err(io_err(&train))?);
    for m in &metas {
        let c = m.7.join("corpus.txt");
        let mut f = File::open(&c).map_err(io_err(&c))?;
        io::copy(&mut f, &mut out).map_err(io_err(&train))?;
    }
    out.flush().map_err(io_err(&train))?;
    drop(out);
    write_sidecar(&train_npz, &labels)?;
    part::commit(&train).map_err(io_err(&train))?;
    finish_dataset(&cfg, dir, KeySet::from_keys(keys), progress)
}

/// Checks a shard against its `shard.txt`, the only word on how it was made: its first
/// and last games are generated again (each a pure function of the settings and its
/// index) and must equal the shard's rows, moves and labels. A shard made with other
/// settings, or whose files were changed or swapped, would otherwise be merged into a
/// dataset whose card names settings it was not made with.
fn same_as_settings(
    shard: &Path,
    gen: &GenConfig,
    first_game: u64,
    moves: &[Vec<u8>],
    labels: &Labels,
    teacher: &mut Teacher,
) -> Result<(), CorpusError> {
    let last = moves.len().saturating_sub(1);
    let rows = if moves.is_empty() {
        vec![]
    } else {
        vec![0, last]
    };
    for row in rows {
        let index = first_game + row as u64;
        let g = play_game(gen, STREAM_TRAIN, index, teacher);
        let mut want = Labels::new(gen.slots);
        want.push_row(&g.slots);
        if g.moves != moves[row] || want.row(0) != labels.row(row) {
            return Err(CorpusError::Invalid(format!(
                "{}: row {row} is not game {index} as the settings in its {SHARD_FILE} generate it; the shard was made with other settings, or its files were changed: generate it again with `corpus generate --shard`",
                shard.display()
            )));
        }
    }
    Ok(())
}

/// Refuses an output that is one of the inputs: files are written from the start, so
/// writing one would empty it before it is read.
pub fn refuse_overwrite(inputs: &[&Path], outputs: &[&Path]) -> Result<(), CorpusError> {
    for o in outputs {
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

/// Copies the first `n` rows of a corpus to `dst` (refused when `dst` is `src`).
pub fn copy_rows(src: &Path, dst: &Path, n: usize) -> Result<(), CorpusError> {
    refuse_overwrite(&[src], &[dst])?;
    let mut rows = RowReader::open(src)?;
    let mut out = BufWriter::new(part::create(dst).map_err(io_err(dst))?);
    for _ in 0..n {
        let Some(r) = rows.next_row()? else { break };
        out.write_all(r.bytes)
            .and_then(|_| out.write_all(b"\n"))
            .map_err(io_err(dst))?;
    }
    out.flush().map_err(io_err(dst))?;
    drop(out);
    part::commit(dst).map_err(io_err(dst))
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
    Ok((train_l.len(), hold_l.len()))
}
