//! A shard: a block of a run's games generated on its own (`corpus generate --shard`),
//! its `shard.txt` (the settings, the block of game indices, its files' checksums), and
//! the merge of a run's shards into the published layout, byte-identical to the same
//! run made at once.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use c4lab_board::CELLS;

use crate::dataset::{
    finish_dataset, keys_of, layout, make_holdout, refuse_overwrite, refuse_strays, unfinished,
    DatasetConfig, DatasetSummary, Writes, SHARD_FILE,
};
use crate::error::{io_err, CorpusError};
use crate::gate;
use crate::generate::{
    play_game, run_games, CorpusWriter, GenConfig, Progress, TeacherPool, STREAM_TRAIN,
};
use crate::holdout::KeySet;
use crate::part;
use crate::reader::RowReader;
use crate::sidecar::{read_labels, write_sidecar, Labels};
use crate::sums::sha256_file;
use crate::teacher::{Teacher, TeacherMode};

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
    let (corpus, npz) = (dir.join("corpus.txt"), dir.join("perply_targets.npz"));
    let p = dir.join(SHARD_FILE);
    // the three make a shard only together: a stop after the data files are renamed
    // into place and before shard.txt is written removes them (they passed the gate
    // clean, a finished-looking corpus with no shard.txt)
    let whole = part::Whole::new(vec![corpus.clone(), npz.clone(), p.clone()]);
    let finished = w
        .finish(&npz)
        .and_then(|_| write_shard_file(cfg, i, n, &range, &corpus, &npz, &p));
    whole.end(finished.is_ok());
    finished.map(|_| range.end - range.start)
}

/// Writes `shard.txt`: the settings, the block of games, the data files' checksums.
fn write_shard_file(
    cfg: &DatasetConfig,
    i: u64,
    n: u64,
    range: &std::ops::Range<u64>,
    corpus: &Path,
    npz: &Path,
    p: &Path,
) -> Result<(), CorpusError> {
    let meta = format!(
        "{}games = {}\nholdout = {}\nshard_index = {i}\nshard_count = {n}\nfirst_game = {}\nend_game = {}\n{CORPUS_SUM} = {}\n{TARGETS_SUM} = {}\n",
        cfg.gen.to_kv(),
        cfg.games,
        cfg.holdout,
        range.start,
        range.end,
        sha256_file(corpus)?,
        sha256_file(npz)?
    );
    part::write(p, meta)
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
    merge_with(shards, dir, &ExactHelp::default(), progress)
}

/// What an exact teacher's merge may use to build its holdout faster: `shard.txt` does
/// not hold them (they change speed, never a label), so a merge had the smallest table
/// and no book, where the run it joins had both.
#[derive(Default)]
pub struct ExactHelp {
    /// An opening book for the exact solver.
    pub book: Option<c4lab_solver::Book>,
    /// Each thread's solver table, in bytes (None: the teacher's default; the
    /// alpha-beta teacher keeps its small one, as `generate` gives it).
    pub table_bytes: Option<usize>,
}

/// [`merge`], the holdout's exact teacher given `help` (a book is refused for shards of
/// the alpha-beta teacher, which never reads one).
pub fn merge_with(
    shards: &[PathBuf],
    dir: &Path,
    help: &ExactHelp,
    progress: &dyn Progress,
) -> Result<DatasetSummary, CorpusError> {
    let mut metas = Vec::new();
    for s in shards {
        let p = s.join(SHARD_FILE);
        if !p.is_file() {
            // (it read "c1/shard.txt: No such file or directory (os error 2)")
            let what = if p.exists() {
                // (a folder or a named pipe there was said to be no shard.txt at all)
                format!("has a {SHARD_FILE} that is no regular file")
            } else if s.is_dir() {
                format!("has no {SHARD_FILE}")
            } else if s.exists() {
                "is no folder".to_string()
            } else {
                "does not exist".to_string()
            };
            return Err(CorpusError::Invalid(format!(
                "{} {what}: merge takes the folders `corpus generate --shard I/N --out DIR` writes, each with its {SHARD_FILE}",
                s.display()
            )));
        }
        let text = read_shard_file(&p)?;
        check_layout(&text, &p)?;
        let get = |k| kv_number(&text, k, &p);
        let (first, end) = (get("first_game")?, get("end_game")?);
        let (games, hold, count) = (get("games")?, get("holdout")?, get("shard_count")?);
        // the block of games is the one its index names (an end past the run's games was
        // said as missing shards of games 7..6, and the index was never read)
        let index = get("shard_index")?;
        let edited = |what: String| {
            Err(CorpusError::Invalid(format!(
                "{}: {what}; the file was edited: generate the shard again",
                p.display()
            )))
        };
        if index >= count {
            return edited(format!(
                "shard_index {index} is not below shard_count {count}"
            ));
        }
        let range = shard_range(games, index, count);
        if (first, end) != (range.start, range.end) {
            return edited(format!(
                "shard {index} of {count} holds games {}..{} of {games}, where first_game and end_game say {first}..{end}",
                range.start, range.end
            ));
        }
        let gen = GenConfig::from_kv(&text).map_err(|e| {
            CorpusError::Invalid(format!(
                "{}: {e}; the file was edited: generate the shard again",
                p.display()
            ))
        })?;
        metas.push((first, end, games, hold, count, gen.to_kv(), gen, s.clone()));
    }
    // (an empty shard, of a run with more shards than games, sorts before the one that
    // starts where it does)
    metas.sort_by_key(|m| (m.0, m.1));
    // a shard given twice, empty ones too (which overlap nothing)
    for (i, m) in metas.iter().enumerate() {
        let here = m.7.canonicalize().ok();
        if metas[..i].iter().any(|o| o.7.canonicalize().ok() == here) {
            return Err(CorpusError::Invalid(format!(
                "{} is given twice; give each shard once",
                m.7.display()
            )));
        }
    }
    let Some(head) = metas.first().cloned() else {
        return Err(CorpusError::Invalid("no shard given".into()));
    };
    let mut expect = 0;
    let mut previous: Option<&PathBuf> = None;
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
        if m.0 > expect {
            return Err(CorpusError::Invalid(format!(
                "the shards of games {expect}..{} are missing ({} starts at game {}); give every shard of the {} the run made",
                m.0,
                m.7.display(),
                m.0,
                head.4
            )));
        }
        if m.0 < expect {
            // (a shard given twice was refused above)
            let other = previous.expect("a shard before");
            return Err(CorpusError::Invalid(format!(
                "{} and {} both hold game {}: shards of one run do not overlap, so one of them belongs to another run (or is a copy of the other); give each shard once",
                other.display(),
                m.7.display(),
                m.0
            )));
        }
        expect = m.1;
        previous = Some(&m.7);
    }
    if expect != head.2 {
        return Err(CorpusError::Invalid(format!(
            "the shards cover games 0..{expect} of {}: the shards of games {expect}..{} are missing; give every shard of the {} the run made",
            head.2, head.2, head.4
        )));
    }
    let mut cfg = DatasetConfig {
        gen: head.6.clone(),
        games: head.2,
        holdout: head.3,
    };
    if cfg.gen.teacher.mode == TeacherMode::Exact {
        cfg.gen.teacher.book = help.book.clone();
        if let Some(bytes) = help.table_bytes {
            cfg.gen.teacher.table_bytes = bytes.max(1 << 16);
        }
    } else if help.book.is_some() {
        // (as generate refuses it: a book given and never read)
        return Err(CorpusError::Invalid(format!(
            "{}: the shards were made by the alpha-beta teacher, which never reads a book: --book speeds up the exact teacher's holdout only; leave it out",
            head.7.join(SHARD_FILE).display()
        )));
    }
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
    // (the shards' own settings: an exact merge's table is for its holdout, and only the
    // alpha-beta teacher's games are played again here)
    let mut teacher = Teacher::new(&head.6.teacher);
    for m in &metas {
        let (c, npz) = (m.7.join("corpus.txt"), m.7.join("perply_targets.npz"));
        let meta = m.7.join(SHARD_FILE);
        let text = read_shard_file(&meta)?;
        for (key, file) in [(CORPUS_SUM, &c), (TARGETS_SUM, &npz)] {
            let Some(want) = kv_text(&text, key) else {
                // (check_layout refuses a shard.txt without it)
                return Err(CorpusError::Invalid(format!(
                    "{}: no {key} line; generate the shard again",
                    meta.display()
                )));
            };
            if sha256_file(file)? != want {
                return Err(CorpusError::Invalid(format!(
                    "{}: its checksum differs from the {key} its {SHARD_FILE} records: the file was changed after the shard was made; generate the shard again",
                    file.display()
                )));
            }
        }
        // the gate, shard by shard: a violation is named with its shard and row here,
        // before any output exists (a shard of an empty block of games holds none)
        gate::require_clean_holding(&c, &npz, m.0 < m.1)?;
        let part = read_labels(&npz)?;
        same_teacher(&npz, &part, &cfg.gen)?;
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
    // the holdout before any file is written: one that fails leaves an earlier merge's
    // dataset there whole (the shards' games were played elsewhere: its teachers are new)
    let pool = TeacherPool::new(&cfg.gen.teacher);
    let holdout = make_holdout(&cfg, &KeySet::from_keys(keys), &pool, progress)?;
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
    let whole = part::Whole::new(unfinished(dir, cfg.games));
    let finished = write_sidecar(&train_npz, &labels)
        .map_err(CorpusError::from)
        .and_then(|_| part::commit(&train).map_err(io_err(&train)))
        .and_then(|_| finish_dataset(&cfg, dir, holdout));
    whole.end(finished.is_ok());
    finished
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

/// Refuses a shard whose labels carry a teacher flag the teacher its `shard.txt` names
/// never writes at that ply: the card would name a teacher the data was not labelled by
/// (the exact teacher's shards are not played again, so nothing else would see it).
fn same_teacher(npz: &Path, labels: &Labels, gen: &GenConfig) -> Result<(), CorpusError> {
    for (r, row) in labels.rows().enumerate() {
        for (slot, l) in row.iter().enumerate().filter(|(_, l)| l.ply >= 0) {
            let want = gen.teacher.flag_for(CELLS as u32 - l.ply as u32);
            if l.flag != want {
                return Err(CorpusError::Invalid(format!(
                    "{}: row {r}, slot {slot} (ply {}) has teacher flag {}, but the teacher its {SHARD_FILE} names ({}) labels that ply with flag {want}; the shard was made with other settings, or its files were changed: generate it again with `corpus generate --shard`",
                    npz.display(),
                    l.ply,
                    l.flag,
                    gen.teacher.mode.name()
                )));
            }
        }
    }
    Ok(())
}

/// A shard.txt's text; one that is not UTF-8 is refused naming the line and byte (the
/// bare "stream did not contain valid UTF-8" named neither, nor the fix).
fn read_shard_file(path: &Path) -> Result<String, CorpusError> {
    let bytes = std::fs::read(path).map_err(io_err(path))?;
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        let line_start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        CorpusError::Invalid(format!(
            "{}: line {line}, byte {} (0x{:02X}) is not UTF-8 text; the file was edited or damaged: generate the shard again",
            path.display(),
            at - line_start + 1,
            bytes[at]
        ))
    })
}

/// The value of `key` (its first line), trimmed.
fn kv_text<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines()
        .filter_map(|l| l.split_once('='))
        .find(|(k, _)| k.trim() == key)
        .map(|(_, v)| v.trim())
}

/// The value of `key` as a whole number; a missing key or a value that is not one is
/// refused naming the file, the line and the fix.
fn kv_number(text: &str, key: &str, path: &Path) -> Result<u64, CorpusError> {
    let found = text
        .lines()
        .enumerate()
        .filter_map(|(i, l)| l.split_once('=').map(|(k, v)| (i, k, v)))
        .find(|(_, k, _)| k.trim() == key);
    let Some((i, _, v)) = found else {
        return Err(CorpusError::Invalid(format!(
            "{}: no {key} line; the file was cut short or edited: generate the shard again",
            path.display()
        )));
    };
    let v = v.trim();
    v.parse().map_err(|_| {
        // (a run of digits past u64 is a whole number, just not one a shard holds)
        let what = if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
            format!("{v} is larger than any count a shard holds ({})", u64::MAX)
        } else {
            format!("{v:?} is not a whole number")
        };
        CorpusError::Invalid(format!(
            "{}: line {}: {key} = {what}; the file was edited: generate the shard again",
            path.display(),
            i + 1
        ))
    })
}

/// The keys a shard.txt holds, each once: the run's settings ([`GenConfig::to_kv`]),
/// then the shard's own.
fn shard_keys() -> Vec<String> {
    let settings = GenConfig::default().to_kv();
    let own = [
        "games",
        "holdout",
        "shard_index",
        "shard_count",
        "first_game",
        "end_game",
        CORPUS_SUM,
        TARGETS_SUM,
    ];
    (settings.lines())
        .filter_map(|l| l.split_once('=').map(|(k, _)| k.trim().to_string()))
        .chain(own.iter().map(|k| k.to_string()))
        .collect()
}

/// Refuses a shard.txt that is not as [`generate_shard`] writes it: a line that is no
/// `key = value`, a key it does not write, one given twice (which value counts would
/// be left to the reader) or one missing (a default would stand in for a setting the
/// games were made with, and a missing checksum would let changed files through).
fn check_layout(text: &str, path: &Path) -> Result<(), CorpusError> {
    let known = shard_keys();
    let refuse = |what: String| {
        Err(CorpusError::Invalid(format!(
            "{}: {what}; the file was cut short or edited: generate the shard again",
            path.display()
        )))
    };
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let Some((k, _)) = line.split_once('=') else {
            return refuse(format!("line {}: {line:?} is no `key = value` line", i + 1));
        };
        let k = k.trim();
        if !known.iter().any(|n| n == k) {
            return refuse(format!(
                "line {}: {k:?} is no key a shard.txt holds (they are {})",
                i + 1,
                known.join(", ")
            ));
        }
        if let Some((_, first)) = seen.iter().find(|(s, _)| *s == k) {
            return Err(CorpusError::Invalid(format!(
                "{}: {k} is given twice (lines {first} and {}); the file was edited: generate the shard again",
                path.display(),
                i + 1
            )));
        }
        seen.push((k, i + 1));
    }
    if let Some(missing) = known.iter().find(|k| !seen.iter().any(|(s, _)| s == k)) {
        return refuse(format!("no {missing} line"));
    }
    Ok(())
}
