//! Self-play generation: every game is a pure function of (seed, stream, game index),
//! so a corpus never depends on thread scheduling, and shards concatenate to exactly
//! the corpus of a single run.
//!
//! A game starts with a random number (between `opening_min` and `opening_max`) of
//! random opening plies, each drawn uniformly among the moves that neither complete a
//! four nor allow an immediate reply four (any legal move when none is quiet), then
//! the teacher moves, except that each ply from `epsilon_from` on is a uniformly
//! random legal move with probability `epsilon`; among several best moves
//! (the exact teachers) one is drawn at random when `random_ties` is set (else the
//! lowest column). The game ends at a four or a full board. The last `slots` plies
//! are labelled, newest first, each by the teacher (see [`crate::teacher`]), whether
//! or not the move actually played was the teacher's.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use c4lab_board::{Position, WIDTH};

use crate::error::{io_err, CorpusError};
use crate::rng::Rng;
use crate::sidecar::{write_sidecar, Labels, SlotLabel, DEFAULT_SLOTS};
use crate::teacher::{LabelCache, Teacher, TeacherConfig, TeacherMode};
use crate::transcript::encode_game_into;

/// The stream of training games.
pub const STREAM_TRAIN: u64 = 0;
/// The stream of holdout candidates.
pub const STREAM_HOLDOUT: u64 = 1;
/// Games computed together before being written in order.
const BATCH: u64 = 1024;

/// Self-play settings (everything that decides the games).
#[derive(Debug, Clone)]
pub struct GenConfig {
    /// The master seed.
    pub seed: u64,
    /// Label slots per row (S).
    pub slots: usize,
    /// The teacher.
    pub teacher: TeacherConfig,
    /// Fewest random opening plies.
    pub opening_min: u32,
    /// Most random opening plies.
    pub opening_max: u32,
    /// Probability of a random move at each later ply.
    pub epsilon: f64,
    /// First ply (0-based) at which epsilon moves may be played: later deviations lead to
    /// positions the exact teacher solves quickly.
    pub epsilon_from: u32,
    /// Draw at random among several best moves (else take the lowest column).
    pub random_ties: bool,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            seed: 32,
            slots: DEFAULT_SLOTS,
            teacher: TeacherConfig::default(),
            opening_min: 2,
            opening_max: 8,
            epsilon: 0.03,
            epsilon_from: 0,
            random_ties: true,
        }
    }
}

impl GenConfig {
    /// The settings as `key = value` lines (the book and table size are left out:
    /// they change speed, never results).
    pub fn to_kv(&self) -> String {
        let t = &self.teacher;
        format!(
            "seed = {}\nslots = {}\nteacher = {}\ndepth = {}\nnode_budget = {}\nbounded_empty = {}\nopening_min = {}\nopening_max = {}\nepsilon = {}\nepsilon_from = {}\nrandom_ties = {}\n",
            self.seed,
            self.slots,
            t.mode.name(),
            t.depth,
            t.node_budget,
            t.bounded_empty,
            self.opening_min,
            self.opening_max,
            self.epsilon,
            self.epsilon_from,
            self.random_ties
        )
    }

    /// Reads the settings written by [`GenConfig::to_kv`] (other keys are ignored); a
    /// value that does not parse is named with its line.
    pub fn from_kv(text: &str) -> Result<GenConfig, CorpusError> {
        let mut c = GenConfig::default();
        for (i, line) in text.lines().enumerate() {
            let Some((k, v)) = line.split_once('=') else {
                continue;
            };
            let (k, v) = (k.trim(), v.trim());
            let bad = |what: &str| {
                CorpusError::Invalid(format!("line {}: {k} = {v:?} is not {what}", i + 1))
            };
            let number = |_| bad("a whole number");
            match k {
                "seed" => c.seed = v.parse().map_err(number)?,
                "slots" => c.slots = v.parse().map_err(number)?,
                "teacher" => {
                    c.teacher.mode = TeacherMode::parse(v)
                        .ok_or_else(|| bad("a teacher (alphabeta or exact)"))?
                }
                "depth" => c.teacher.depth = v.parse().map_err(number)?,
                "node_budget" => c.teacher.node_budget = v.parse().map_err(number)?,
                "bounded_empty" => c.teacher.bounded_empty = v.parse().map_err(number)?,
                "opening_min" => c.opening_min = v.parse().map_err(number)?,
                "opening_max" => c.opening_max = v.parse().map_err(number)?,
                "epsilon" => c.epsilon = v.parse().map_err(|_| bad("a number"))?,
                "epsilon_from" => c.epsilon_from = v.parse().map_err(number)?,
                "random_ties" => c.random_ties = v.parse().map_err(|_| bad("true or false"))?,
                _ => {}
            }
        }
        Ok(c)
    }

    /// Checks the settings.
    pub fn validate(&self) -> Result<(), CorpusError> {
        let bad = |m: &str| Err(CorpusError::Invalid(m.to_string()));
        if self.slots == 0 || self.slots > 42 {
            return bad("slots must be 1..=42");
        }
        if self.opening_min > self.opening_max {
            return bad("opening_min must not exceed opening_max");
        }
        if self.opening_max > 41 {
            return bad("opening_max must be at most 41: a game has at most 42 plies");
        }
        if self.teacher.mode == TeacherMode::AlphaBeta
            && (self.teacher.depth == 0 || self.teacher.node_budget == 0)
        {
            // a search of no plies or no nodes labels nothing it searched
            return bad("the alpha-beta teacher needs depth and node_budget of at least 1");
        }
        if !(0.0..=1.0).contains(&self.epsilon) {
            return bad("epsilon must lie in 0..=1");
        }
        Ok(())
    }
}

/// One generated game: its moves and its row of labels (newest first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// The moves, 0-based columns.
    pub moves: Vec<u8>,
    /// The labelled slots, slot 0 = the last ply (at most `slots` entries).
    pub slots: Vec<SlotLabel>,
}

fn random_move(pos: &Position, rng: &mut Rng) -> u8 {
    let legal = (0..WIDTH).fold(0u8, |m, x| if pos.can_play(x) { m | 1 << x } else { m });
    rng.pick_bit(legal)
        .expect("a non-full board has a legal move") as u8
}

/// A uniformly random opening move among those that neither complete a four nor
/// give the opponent an immediate win (any legal move when there is none such).
fn quiet_random_move(pos: &Position, rng: &mut Rng) -> u8 {
    let quiet = (0..WIDTH)
        .filter(|&x| pos.can_play(x) && !pos.is_winning_move(x))
        .filter(|&x| pos.after(x).winning_moves() == 0)
        .fold(0u8, |m, x| m | 1 << x);
    match rng.pick_bit(quiet) {
        Some(x) => x as u8,
        None => random_move(pos, rng),
    }
}

/// Plays game `index` of `stream` under `cfg` with `teacher` (whose settings must be
/// `cfg.teacher`'s).
pub fn play_game(cfg: &GenConfig, stream: u64, index: u64, teacher: &mut Teacher) -> GameRecord {
    let mut rng = Rng::for_game(cfg.seed, stream, index);
    let span = (cfg.opening_max - cfg.opening_min) as u64 + 1;
    let opening = cfg.opening_min as usize + rng.below(span) as usize;
    let mut pos = Position::new();
    let mut moves = Vec::with_capacity(42);
    let mut positions = Vec::with_capacity(42);
    let mut labels: Vec<Option<(u8, u8)>> = Vec::with_capacity(42);
    while pos.winner().is_none() && !pos.is_full() {
        let ply = moves.len();
        let (mv, label) = if ply < opening {
            (quiet_random_move(&pos, &mut rng), None)
        } else if ply >= cfg.epsilon_from as usize && rng.chance(cfg.epsilon) {
            (random_move(&pos, &mut rng), None)
        } else {
            let (flag, mask) = teacher.label(&pos);
            let mv = if cfg.random_ties {
                rng.pick_bit(mask)
            } else {
                (0..WIDTH).find(|&x| mask & (1 << x) != 0)
            };
            (
                mv.expect("a teacher names a move") as u8,
                Some((flag, mask)),
            )
        };
        positions.push(pos);
        moves.push(mv);
        labels.push(label);
        pos.play(mv as usize);
    }
    let n = moves.len();
    let slots = (0..cfg.slots.min(n))
        .map(|s| {
            let k = n - 1 - s;
            let (flag, mask) = labels[k].unwrap_or_else(|| teacher.label(&positions[k]));
            SlotLabel {
                ply: k as i16,
                flag,
                mask,
            }
        })
        .collect();
    GameRecord { moves, slots }
}

/// Reports progress of long operations (the CLI draws a bar).
pub trait Progress: Sync {
    /// A phase of `total` units begins.
    fn start(&self, _phase: &str, _total: u64) {}
    /// `n` more units are done.
    fn advance(&self, _n: u64) {}
    /// A phase that keeps only some of what it makes (the holdout keeps the games
    /// disjoint from training) has made `candidates` so far.
    fn tried(&self, _candidates: u64) {}
    /// The phase ended.
    fn finish(&self) {}
}

/// Progress that shows nothing.
pub struct NoProgress;

impl Progress for NoProgress {}

/// Teachers reused across batches: each worker takes one and gives it back.
/// They share one cache of early exact labels.
pub(crate) struct TeacherPool {
    cfg: TeacherConfig,
    idle: Mutex<Vec<Teacher>>,
    cache: Arc<LabelCache>,
}

impl TeacherPool {
    pub(crate) fn new(cfg: &TeacherConfig) -> TeacherPool {
        TeacherPool {
            cfg: cfg.clone(),
            idle: Mutex::new(Vec::new()),
            cache: Arc::new(LabelCache::default()),
        }
    }

    /// A pool whose teachers share `cache` (a test's, caching later positions).
    #[cfg(test)]
    pub(crate) fn sharing(cfg: &TeacherConfig, cache: Arc<LabelCache>) -> TeacherPool {
        TeacherPool {
            cache,
            ..TeacherPool::new(cfg)
        }
    }

    pub(crate) fn with<R>(&self, f: impl FnOnce(&mut Teacher) -> R) -> R {
        let taken = self.idle.lock().unwrap().pop();
        let mut t = taken.unwrap_or_else(|| Teacher::with_cache(&self.cfg, self.cache.clone()));
        let r = f(&mut t);
        self.idle.lock().unwrap().push(t);
        r
    }
}

/// How many teachers (each with its own solver table) a batch can have at work at
/// once: the worker threads of the pool the batches run on.
pub fn worker_threads() -> usize {
    #[cfg(feature = "parallel")]
    {
        rayon::current_num_threads()
    }
    #[cfg(not(feature = "parallel"))]
    {
        1
    }
}

/// Items [`map_batch`] gives each thread at the least.
const MIN_PER_THREAD: usize = 4;

/// The smallest batch that keeps every thread of [`map_batch`] busy.
pub(crate) fn full_batch() -> u64 {
    (MIN_PER_THREAD * worker_threads()) as u64
}

/// Maps `f` over `items` (in parallel with the `parallel` feature), keeping order.
pub(crate) fn map_batch<T: Sync, R: Send>(
    items: &[T],
    pool: &TeacherPool,
    f: impl Fn(&T, &mut Teacher) -> R + Sync,
) -> Vec<R> {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        items
            .par_iter()
            .with_min_len(MIN_PER_THREAD)
            .map(|it| pool.with(|t| f(it, t)))
            .collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        pool.with(|t| items.iter().map(|it| f(it, t)).collect())
    }
}

/// Plays the games `indices` of `stream` and hands them to `sink` in index order.
pub fn run_games(
    cfg: &GenConfig,
    stream: u64,
    indices: Range<u64>,
    progress: &dyn Progress,
    sink: impl FnMut(u64, GameRecord) -> Result<(), CorpusError>,
) -> Result<(), CorpusError> {
    run_games_with(
        cfg,
        stream,
        indices,
        &TeacherPool::new(&cfg.teacher),
        progress,
        sink,
    )
}

/// [`run_games`] with the teachers of `pool` (a run's phases share one, and with it
/// the cache of early exact labels).
pub(crate) fn run_games_with(
    cfg: &GenConfig,
    stream: u64,
    indices: Range<u64>,
    pool: &TeacherPool,
    progress: &dyn Progress,
    mut sink: impl FnMut(u64, GameRecord) -> Result<(), CorpusError>,
) -> Result<(), CorpusError> {
    cfg.validate()?;
    let mut start = indices.start;
    while start < indices.end {
        let end = (start + BATCH).min(indices.end);
        let idx: Vec<u64> = (start..end).collect();
        let games = map_batch(&idx, pool, |&i, t| {
            let g = play_game(cfg, stream, i, t);
            progress.advance(1);
            g
        });
        for (i, g) in idx.into_iter().zip(games) {
            sink(i, g)?;
        }
        start = end;
    }
    Ok(())
}

/// Writes games to a corpus file as they come and keeps their compact labels.
pub struct CorpusWriter {
    path: PathBuf,
    out: BufWriter<File>,
    labels: Labels,
    buf: Vec<u8>,
}

impl CorpusWriter {
    /// Starts the corpus file at `path`: written as `path.part` until [`CorpusWriter::finish`]
    /// renames it into place.
    pub fn create(path: &Path, slots: usize) -> Result<CorpusWriter, CorpusError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io_err(dir))?;
        }
        let f = crate::part::create(path).map_err(io_err(path))?;
        Ok(CorpusWriter {
            path: path.to_path_buf(),
            out: BufWriter::with_capacity(1 << 20, f),
            labels: Labels::new(slots),
            buf: Vec::with_capacity(512),
        })
    }

    /// Appends one game and its labels.
    pub fn push(&mut self, g: &GameRecord) -> Result<(), CorpusError> {
        self.push_row(&g.moves, &g.slots)
    }

    /// Appends one row given its moves and label slots.
    pub fn push_row(&mut self, moves: &[u8], slots: &[SlotLabel]) -> Result<(), CorpusError> {
        self.buf.clear();
        encode_game_into(moves, &mut self.buf).map_err(|source| CorpusError::Decode {
            path: self.path.clone(),
            source,
        })?;
        self.buf.push(b'\n');
        self.out.write_all(&self.buf).map_err(io_err(&self.path))?;
        self.labels.push_row(slots);
        Ok(())
    }

    /// Rows written so far.
    pub fn rows(&self) -> usize {
        self.labels.len()
    }

    /// Flushes the corpus, writes the sidecar at `sidecar`, renames the corpus into
    /// place and returns the labels.
    pub fn finish(mut self, sidecar: &Path) -> Result<Labels, CorpusError> {
        self.out.flush().map_err(io_err(&self.path))?;
        write_sidecar(sidecar, &self.labels)?;
        crate::part::commit(&self.path).map_err(io_err(&self.path))?;
        Ok(self.labels)
    }
}
