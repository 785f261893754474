//! The teachers that label a ply: which moves a position's target puts mass on.
//!
//! * flag 2, alpha-beta search teacher: [`c4lab_solver::search_move`] with a depth and
//!   a node budget, one move (one-hot);
//! * flag 1, bounded exact solver: positions with at most `bounded_empty` (7) empty
//!   cells, every best move, mass spread evenly;
//! * flag 3, full exact solver: every best move from any position.
//!
//! Mode `alphabeta` gives flag 1 at plies with <= 7 empty cells and flag 2 elsewhere;
//! mode `exact` gives flag 3 everywhere.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use c4lab_board::{Position, CELLS, WIDTH};
use c4lab_solver::{search_move, Book, Solver};

use crate::sidecar::{FLAG_ALPHABETA, FLAG_BOUNDED, FLAG_EXACT};

/// Which teacher labels the plies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TeacherMode {
    /// Alpha-beta search (flag 2), bounded exact solver near the end (flag 1).
    AlphaBeta,
    /// The full exact solver everywhere (flag 3).
    Exact,
}

impl TeacherMode {
    /// The mode's name on the command line: `alphabeta` or `exact`.
    pub fn name(self) -> &'static str {
        match self {
            TeacherMode::AlphaBeta => "alphabeta",
            TeacherMode::Exact => "exact",
        }
    }

    /// Parses `alphabeta` or `exact`.
    pub fn parse(s: &str) -> Option<TeacherMode> {
        match s {
            "alphabeta" | "alpha-beta" | "ab" => Some(TeacherMode::AlphaBeta),
            "exact" => Some(TeacherMode::Exact),
            _ => None,
        }
    }
}

/// Teacher settings.
#[derive(Debug, Clone)]
pub struct TeacherConfig {
    /// Which teacher.
    pub mode: TeacherMode,
    /// Search depth of the alpha-beta teacher.
    pub depth: u32,
    /// Node budget of the alpha-beta teacher per move.
    pub node_budget: u64,
    /// The bounded exact solver labels plies with at most this many empty cells.
    pub bounded_empty: u32,
    /// Transposition-table bytes of each thread's exact solver.
    pub table_bytes: usize,
    /// An opening book for the exact solver (speeds up early plies in mode `exact`).
    pub book: Option<Book>,
}

impl TeacherConfig {
    /// The flag this teacher labels a position with `empty` empty cells by.
    pub fn flag_for(&self, empty: u32) -> u8 {
        match self.mode {
            TeacherMode::Exact => FLAG_EXACT,
            TeacherMode::AlphaBeta if empty <= self.bounded_empty => FLAG_BOUNDED,
            TeacherMode::AlphaBeta => FLAG_ALPHABETA,
        }
    }
}

impl Default for TeacherConfig {
    fn default() -> Self {
        TeacherConfig {
            mode: TeacherMode::AlphaBeta,
            depth: 6,
            node_budget: 20_000,
            bounded_empty: 7,
            table_bytes: 1 << 22,
            book: None,
        }
    }
}

/// Exact labels of positions with few stones, shared by the teachers of every thread.
/// Self-play from a short opening meets the same early positions again and again, and
/// each costs the exact solver seconds; a label is a pure function of its position, so
/// the cache changes speed, never results. A plain mutexed map: lookups are rare (a few
/// per game) next to the solves they save, so no concurrent map crate is needed.
pub struct LabelCache {
    max_stones: u32,
    map: Mutex<HashMap<u64, u8>>,
    hits: std::sync::atomic::AtomicU64,
}

impl LabelCache {
    /// Positions with at most this many stones are cached by default (later ones cost
    /// milliseconds and rarely recur).
    pub const MAX_STONES: u32 = 16;
    /// Entries kept at most (about 64 MiB); later labels are not stored.
    pub const CAPACITY: usize = 1 << 22;

    /// An empty cache for positions with at most `max_stones` stones.
    pub fn new(max_stones: u32) -> LabelCache {
        LabelCache {
            max_stones,
            map: Mutex::new(HashMap::new()),
            hits: Default::default(),
        }
    }

    /// Lookups answered from the cache so far.
    pub fn hits(&self) -> u64 {
        self.hits.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Entries stored.
    pub fn len(&self) -> usize {
        self.map.lock().unwrap().len()
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn get(&self, key: u64) -> Option<u8> {
        let found = self.map.lock().unwrap().get(&key).copied();
        if found.is_some() {
            self.hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        found
    }

    fn put(&self, key: u64, mask: u8) {
        let mut m = self.map.lock().unwrap();
        if m.len() < Self::CAPACITY {
            m.insert(key, mask);
        }
    }
}

impl Default for LabelCache {
    fn default() -> Self {
        LabelCache::new(LabelCache::MAX_STONES)
    }
}

/// A teacher with its own solver (one per thread).
pub struct Teacher {
    cfg: TeacherConfig,
    solver: Solver,
    cache: Option<Arc<LabelCache>>,
}

/// The columns of `cols` as a 7-bit mask.
pub fn mask_of(cols: &[usize]) -> u8 {
    cols.iter().fold(0u8, |m, &x| m | 1 << x)
}

impl Teacher {
    /// A teacher for `cfg` (allocates the solver's table).
    pub fn new(cfg: &TeacherConfig) -> Teacher {
        let mut solver = Solver::new(cfg.table_bytes);
        solver.set_book(cfg.book.clone());
        Teacher {
            cfg: cfg.clone(),
            solver,
            cache: None,
        }
    }

    /// A teacher whose exact labels of early positions go through `cache`.
    pub fn with_cache(cfg: &TeacherConfig, cache: Arc<LabelCache>) -> Teacher {
        Teacher {
            cache: Some(cache),
            ..Teacher::new(cfg)
        }
    }

    /// The settings.
    pub fn config(&self) -> &TeacherConfig {
        &self.cfg
    }

    /// Every best column of `pos` by the exact solver, as a mask.
    pub fn exact_mask(&mut self, pos: &Position) -> u8 {
        let cache = self
            .cache
            .as_ref()
            .filter(|c| pos.moves_played() <= c.max_stones);
        if let Some(mask) = cache.and_then(|c| c.get(pos.key())) {
            return mask;
        }
        let mask = mask_of(&self.solver.best_moves(pos));
        if let Some(c) = cache {
            c.put(pos.key(), mask);
        }
        mask
    }

    /// The teacher flag and target columns for `pos` (a legal position, not over).
    pub fn label(&mut self, pos: &Position) -> (u8, u8) {
        debug_assert!(pos.winner().is_none() && !pos.is_full());
        let empty = CELLS as u32 - pos.moves_played();
        match self.cfg.flag_for(empty) {
            FLAG_ALPHABETA => {
                let x = search_move(pos, self.cfg.depth, self.cfg.node_budget);
                debug_assert!(x < WIDTH && pos.can_play(x));
                (FLAG_ALPHABETA, 1 << x)
            }
            flag => (flag, self.exact_mask(pos)),
        }
    }
}
