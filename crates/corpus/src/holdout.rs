//! The board-disjoint holdout, mirror-aware, and the overlap between two corpora.
//!
//! **Rule.** No labelled board of a holdout row, up to left-right mirroring, is a
//! labelled board of any training row. A *labelled board* of a row is the position
//! before a ply whose slot is labelled (`ply_of >= 0`); two boards are the same when
//! their stones are equal or mirror images (compared by
//! [`Position::canonical_key`](c4lab_board::Position::canonical_key), which also fixes
//! the side to move).
//!
//! **Generation.** Holdout games come from their own seeded stream
//! ([`STREAM_HOLDOUT`]): candidate `j` is a pure function of (seed, j), and candidates
//! are accepted in index order while they share no labelled board with the training
//! rows, until the requested number is accepted. The rule favours games whose last
//! plies leave the common openings behind (short games that end in a shared early
//! board are rejected); the card reports the acceptance rate.
//!
//! **Split.** [`split`] divides an existing corpus: rows are visited in a seeded
//! random order, and a row goes to the holdout when none of its labelled boards
//! occurs in any other row; every other row stays in training.
//!
//! **Overlap.** [`overlap`] measures, for any corpora A and B, how many rows of B share
//! a labelled board with A and which share of B's distinct labelled boards occur in A.

use std::collections::HashMap;
use std::path::Path;

use crate::error::CorpusError;
use crate::generate::{
    full_batch, map_batch, play_game, GameRecord, GenConfig, Progress, TeacherPool, STREAM_HOLDOUT,
};
use crate::reader::{positions_of, RowReader};
use crate::rng::Rng;
use crate::sidecar::{Labels, Sidecar, SlotLabel};

/// The mirror-canonical keys of a row's labelled boards.
pub fn labelled_keys(moves: &[u8], slots: &[SlotLabel]) -> Vec<u64> {
    let positions = positions_of(moves);
    slots
        .iter()
        .filter(|s| s.ply >= 0 && (s.ply as usize) < positions.len())
        .map(|s| positions[s.ply as usize].canonical_key())
        .collect()
}

/// A sorted, deduplicated set of board keys.
#[derive(Debug, Clone, Default)]
pub struct KeySet(Vec<u64>);

impl KeySet {
    /// Builds the set from any keys.
    pub fn from_keys(mut keys: Vec<u64>) -> KeySet {
        keys.sort_unstable();
        keys.dedup();
        KeySet(keys)
    }

    /// Number of distinct boards.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// True when `key` is in the set.
    pub fn contains(&self, key: u64) -> bool {
        self.0.binary_search(&key).is_ok()
    }
}

/// Every labelled board of a corpus file and its sidecar, per row.
pub fn file_row_keys(corpus: &Path, sidecar: &Path) -> Result<Vec<Vec<u64>>, CorpusError> {
    let sc = Sidecar::open(sidecar)?;
    let mut rows = RowReader::open(corpus)?;
    let mut out = Vec::with_capacity(sc.rows);
    while let Some(g) = rows.next_game()? {
        let i = out.len();
        if i >= sc.rows {
            return Err(CorpusError::Invalid(format!(
                "{} has more rows than its sidecar {} ({}); a corpus and its sidecar have one row each",
                corpus.display(),
                sidecar.display(),
                sc.rows
            )));
        }
        let keys = sc
            .ply_row(i)
            .iter()
            .filter(|&&p| p >= 0 && (p as usize) < g.positions.len())
            .map(|&p| g.positions[p as usize].canonical_key())
            .collect();
        out.push(keys);
    }
    if out.len() != sc.rows {
        return Err(CorpusError::Invalid(format!(
            "{} has {} rows but its sidecar {} has {}; a corpus and its sidecar have one row each",
            corpus.display(),
            out.len(),
            sidecar.display(),
            sc.rows
        )));
    }
    Ok(out)
}

/// Holdout games accepted, and how many candidates were tried.
#[derive(Debug, Clone)]
pub struct Holdout {
    /// The accepted games, in candidate order.
    pub games: Vec<GameRecord>,
    /// Candidates played.
    pub candidates: u64,
}

/// Generates `count` holdout games disjoint from `train` (see the module rule).
/// Gives up after `max_candidates` candidates.
pub fn generate_holdout(
    cfg: &GenConfig,
    count: usize,
    train: &KeySet,
    max_candidates: u64,
    progress: &dyn Progress,
) -> Result<Holdout, CorpusError> {
    let pool = TeacherPool::new(&cfg.teacher);
    generate_holdout_with(cfg, count, train, max_candidates, &pool, progress)
}

/// [`generate_holdout`] with the teachers of `pool`: those that played the training
/// games, whose cache of early exact labels the candidates share (a holdout with its
/// own cache solved the early positions again; docs/corpus.md has the measurement).
pub(crate) fn generate_holdout_with(
    cfg: &GenConfig,
    count: usize,
    train: &KeySet,
    max_candidates: u64,
    pool: &TeacherPool,
    progress: &dyn Progress,
) -> Result<Holdout, CorpusError> {
    // (no reservation for `count`: most of a large holdout may never be accepted)
    let mut games = Vec::new();
    let mut next = 0u64;
    while games.len() < count {
        if let Some(why) = hopeless(games.len() as u64, count as u64, next, max_candidates) {
            return Err(CorpusError::Invalid(format!(
                "only {} of {count} holdout games were disjoint from training after {next} candidates{why}; raise the opening randomness or label fewer slots",
                games.len()
            )));
        }
        let want = (count - games.len()) as u64;
        // as few as keep the threads busy (a one-game holdout with the exact teacher
        // played 64 candidates, 90 s), the floor under the ceiling on any machine
        let batch = (want * 2)
            .clamp(full_batch().min(4096), 4096)
            .min(max_candidates - next);
        let idx: Vec<u64> = (next..next + batch).collect();
        let results = map_batch(&idx, pool, |&j, t| {
            let g = play_game(cfg, STREAM_HOLDOUT, j, t);
            let ok = labelled_keys(&g.moves, &g.slots)
                .into_iter()
                .all(|k| !train.contains(k));
            (g, ok)
        });
        for (g, ok) in results {
            next += 1;
            if ok {
                games.push(g);
                progress.advance(1);
                if games.len() == count {
                    break;
                }
            }
        }
        progress.tried(next);
    }
    Ok(Holdout {
        games,
        candidates: next,
    })
}

/// Candidates tried before the holdout's rate of acceptance is trusted to foretell a
/// failure.
const FORETELL_AFTER: u64 = 10_000;

/// Why `accepted` of `count` games after `tried` candidates cannot reach `count` within
/// `most` candidates (the limit reached, or, once `FORETELL_AFTER` have been tried, a
/// rate of acceptance that would need more than twice the limit), or None while it
/// still can.
fn hopeless(accepted: u64, count: u64, tried: u64, most: u64) -> Option<String> {
    if tried >= most {
        return Some(String::new());
    }
    if tried < FORETELL_AFTER.min(most) {
        return None;
    }
    let rate = accepted as f64 / tried as f64;
    let needed = count as f64 / rate;
    (needed > 2.0 * most as f64).then(|| {
        if accepted == 0 {
            format!(" (none so far, and the limit is {most} candidates)")
        } else {
            format!(" (at that rate the {count} would take about {needed:.0} candidates, and the limit is {most})")
        }
    })
}

/// The overlap of corpus B with corpus A.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Overlap {
    /// Rows of B.
    pub rows_b: usize,
    /// Rows of B with a labelled board that is a labelled board of A.
    pub rows_b_shared: usize,
    /// The first of them (counted from 0, as the gate counts rows), if any.
    pub first_row_b_shared: Option<usize>,
    /// Distinct labelled boards of B.
    pub boards_b: usize,
    /// Those also labelled in A.
    pub boards_b_in_a: usize,
}

impl Overlap {
    /// The share of B's distinct labelled boards found in A (0 when B has none).
    pub fn board_share(&self) -> f64 {
        if self.boards_b == 0 {
            0.0
        } else {
            self.boards_b_in_a as f64 / self.boards_b as f64
        }
    }
}

/// Measures how much of B's labelled boards (mirror-aware) occur in A.
pub fn overlap_keys(a: &KeySet, b_rows: &[Vec<u64>]) -> Overlap {
    let shares = |r: &Vec<u64>| r.iter().any(|&k| a.contains(k));
    let rows_b_shared = b_rows.iter().filter(|r| shares(r)).count();
    let b = KeySet::from_keys(b_rows.iter().flatten().copied().collect());
    Overlap {
        rows_b: b_rows.len(),
        rows_b_shared,
        first_row_b_shared: b_rows.iter().position(shares),
        boards_b: b.len(),
        boards_b_in_a: b.0.iter().filter(|&&k| a.contains(k)).count(),
    }
}

/// [`overlap_keys`] for two corpus files with their sidecars.
pub fn overlap(a: (&Path, &Path), b: (&Path, &Path)) -> Result<Overlap, CorpusError> {
    let a_keys = KeySet::from_keys(file_row_keys(a.0, a.1)?.into_iter().flatten().collect());
    let b_rows = file_row_keys(b.0, b.1)?;
    Ok(overlap_keys(&a_keys, &b_rows))
}

/// Which rows go to the holdout when splitting (see the module rule): a row qualifies
/// when none of its labelled boards occurs in another row. Returns at most `count`
/// row indices, chosen in a `seed`-determined random order, sorted.
pub fn choose_split(row_keys: &[Vec<u64>], count: usize, seed: u64) -> Vec<usize> {
    let mut rows_with: HashMap<u64, u32> = HashMap::new();
    for keys in row_keys {
        let mut own: Vec<u64> = keys.clone();
        own.sort_unstable();
        own.dedup();
        for k in own {
            *rows_with.entry(k).or_default() += 1;
        }
    }
    let mut order: Vec<usize> = (0..row_keys.len()).collect();
    let mut rng = Rng::new(seed ^ 0x5B17);
    for i in (1..order.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        order.swap(i, j);
    }
    let mut chosen: Vec<usize> = order
        .into_iter()
        .filter(|&r| !row_keys[r].is_empty() && row_keys[r].iter().all(|k| rows_with[k] == 1))
        .take(count)
        .collect();
    chosen.sort_unstable();
    chosen
}

/// Splits labels by a sorted list of holdout rows: `(train, holdout)`.
pub fn split_labels(labels: &Labels, holdout_rows: &[usize]) -> (Labels, Labels) {
    let (mut train, mut hold) = (Labels::new(labels.slots()), Labels::new(labels.slots()));
    for (i, row) in labels.rows().enumerate() {
        if holdout_rows.binary_search(&i).is_ok() {
            hold.push_row(row);
        } else {
            train.push_row(row);
        }
    }
    (train, hold)
}

/// Rows of B sharing a board with A, and the board share, as one line of text naming
/// the two corpora (`a` and `b`: "the training corpus", a file name).
pub fn describe(o: &Overlap, a: &str, b: &str) -> String {
    // (where to look: the counts alone left the rows to be found by hand)
    let first = o
        .first_row_b_shared
        .map(|r| format!(" (the first: row {r}, counted from 0 as `corpus check` counts)"))
        .unwrap_or_default();
    format!(
        "{} of {} rows of {b} share a labelled board with {a}{first}; {} of {} distinct labelled boards of {b} ({:.4} %) are labelled in {a}",
        o.rows_b_shared,
        o.rows_b,
        o.boards_b_in_a,
        o.boards_b,
        100.0 * o.board_share()
    )
}

/// Re-exported for callers that split in place (see [`crate::dataset::split`]).
pub use crate::dataset::split;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{run_games_with, STREAM_TRAIN};
    use crate::teacher::{LabelCache, TeacherMode};
    use crate::NoProgress;

    #[test]
    fn the_holdout_labels_through_the_training_games_cache() {
        // exact self-play from 24-26 random plies (cheap solves) with a cache of up to
        // 32 stones: the holdout's candidates use the cache the training games filled
        // (they made their own, and solved the early positions again)
        let mut cfg = GenConfig::default();
        cfg.teacher.mode = TeacherMode::Exact;
        cfg.teacher.table_bytes = 1 << 24;
        cfg.opening_min = 24;
        cfg.opening_max = 26;
        let cache = std::sync::Arc::new(LabelCache::new(32));
        let pool = TeacherPool::sharing(&cfg.teacher, cache.clone());
        run_games_with(&cfg, STREAM_TRAIN, 0..4, &pool, &NoProgress, |_, _| Ok(())).unwrap();
        let stored = cache.len();
        assert!(stored > 0, "no training label was cached");
        let train = KeySet::from_keys(Vec::new());
        let h = generate_holdout_with(&cfg, 2, &train, 100, &pool, &NoProgress).unwrap();
        assert_eq!(h.games.len(), 2);
        assert!(cache.len() > stored, "the holdout's labels went elsewhere");
    }

    #[test]
    fn a_holdout_no_candidate_can_fill_fails_once_its_rate_is_known() {
        // the default holdout of 4,000 (limit 800,000) with nothing accepted in 10,000
        let why = hopeless(0, 4000, 10_000, 800_000).expect("fails early");
        assert!(why.contains("none so far"), "{why}");
        // one in a hundred accepted would fill it in about 400,000: go on
        assert_eq!(hopeless(100, 4000, 10_000, 800_000), None);
        // one in a thousand would need about 4 million: fail, naming the projection
        let why = hopeless(10, 4000, 10_000, 800_000).expect("fails early");
        assert!(why.contains("about 4000000 candidates"), "{why}");
        // too few tried to tell, and the limit itself
        assert_eq!(hopeless(0, 4000, 9_999, 800_000), None);
        assert_eq!(hopeless(5, 10, 10_000, 10_000), Some(String::new()));
    }
}
