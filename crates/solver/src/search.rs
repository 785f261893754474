//! The exact search: negamax with alpha-beta pruning over bitboards.
//!
//! Every node assumes the side to move cannot win at once (its parent only plays
//! moves that leave no immediate win, and the root checks). The score window is
//! first clamped by what the remaining cells allow, then by the transposition table;
//! shallow nodes use mirror-canonical keys and enhanced transposition cutoffs.

use std::sync::atomic::{AtomicBool, Ordering};

use c4lab_board::{mirror_bits, Position};

use crate::book::Book;
use crate::order::{non_losing_moves, order_moves, MoveList};
use crate::shared::Shared;
use crate::table::{Entry, Table};
use crate::CELLS;

/// Positions with at most this many stones share table entries with their mirror.
const SYM_MAX: u32 = 12;
/// Positions with at most this many stones try enhanced transposition cutoffs (in a
/// short search only where the children's entries are in the small table).
const ETC_MAX: u32 = 30;
/// Positions with at least this many stones are searched without the table.
const DEEP: u32 = 36;
/// Positions with at least this many stones use the small, cache-resident table.
const NEAR: u32 = 30;
/// After this many nodes a search refines its move ordering (not playing under
/// one's own winning cell) and tries enhanced transposition cutoffs everywhere, which
/// pay off in long searches but not in short ones.
const LONG_SEARCH: u64 = 200_000;
/// Threads of a shared search defer moves being searched elsewhere this many plies
/// below the root.
const SHARED_PLIES: u32 = 12;
/// How many nodes pass between checks of the stop flag.
const CHECK_EVERY: u64 = 1 << 12;
/// A long search skips the table at nodes with a single non-losing move only from
/// this many stones on (a short search everywhere).
const FORCED_LONG: u32 = 30;

/// One search's state: the table, the node count and the limits.
pub(crate) struct Search<'a> {
    table: &'a Table,
    near: &'a Table,
    book: Option<&'a Book>,
    /// Nodes visited so far (including earlier searches of the same solver).
    pub nodes: u64,
    limit: u64,
    next_check: u64,
    stop: Option<&'a AtomicBool>,
    /// The state shared with the other threads of a multi-threaded solve.
    shared: Option<&'a Shared>,
    /// Stones on the board at the root of this search.
    root_moves: u32,
    /// Set once the node budget ran out or the stop flag was raised.
    pub aborted: bool,
    /// From this node count on the search counts as long and refines its ordering.
    long_from: u64,
}

/// The key shared by a position and its mirror, and whether `pos` is the mirror.
#[inline]
pub(crate) fn canonical(pos: &Position) -> (u64, bool) {
    let k = pos.key();
    let m = mirror_bits(pos.current()) + mirror_bits(pos.mask());
    if m < k {
        (m, true)
    } else {
        (k, false)
    }
}

/// The table key of `pos` after playing `cell` (mirror-canonical when `sym`).
#[inline(always)]
fn child_key(pos: &Position, cell: u64, sym: bool) -> u64 {
    if sym {
        let mut c = *pos;
        c.play_cell(cell);
        canonical(&c).0
    } else {
        // the child's current stones are our opponent's; its mask gains `cell`
        (pos.current() ^ pos.mask()) + (pos.mask() | cell)
    }
}

impl<'a> Search<'a> {
    /// A search starting at node count `nodes`, stopping after `budget` more nodes
    /// or when `stop` becomes true.
    pub fn new(
        table: &'a Table,
        near: &'a Table,
        book: Option<&'a Book>,
        nodes: u64,
        budget: u64,
        stop: Option<&'a AtomicBool>,
    ) -> Search<'a> {
        let limit = nodes.saturating_add(budget);
        let next_check = if stop.is_some() {
            // look at the flag at the very first node, then every few thousand
            limit.min(nodes + 1)
        } else {
            limit
        };
        Search {
            table,
            near,
            book,
            nodes,
            limit,
            next_check,
            stop,
            shared: None,
            root_moves: 0,
            aborted: false,
            long_from: nodes.saturating_add(LONG_SEARCH),
        }
    }

    /// Makes this search one thread of a search from `root` shared by threads,
    /// stopping when another thread is done.
    #[cfg_attr(not(feature = "parallel"), allow(dead_code))]
    pub fn share(&mut self, root: &Position, shared: &'a Shared) {
        self.root_moves = root.moves_played();
        self.shared = Some(shared);
        self.next_check = self.next_check.min(self.nodes + 1);
    }

    /// The table entry for `key`, a position with `n` stones.
    #[inline(always)]
    fn get(&self, n: u32, key: u64) -> Option<Entry> {
        if n >= NEAR {
            self.near.get(key)
        } else {
            self.table.get(key)
        }
    }

    /// Stores bounds for `key`, a position with `n` stones.
    #[inline(always)]
    fn put(&self, n: u32, key: u64, lo: i32, hi: i32, mv: Option<u8>, work: u64) {
        if n >= NEAR {
            self.near.put(key, lo, hi, mv, work)
        } else {
            self.table.put(key, lo, hi, mv, work)
        }
    }

    /// Prefetches the bucket of `key`, a position with `n` stones.
    #[inline(always)]
    fn prefetch(&self, n: u32, key: u64) {
        if n >= NEAR {
            self.near.prefetch(key)
        } else {
            self.table.prefetch(key)
        }
    }

    #[cold]
    fn check_abort(&mut self) -> bool {
        if self.nodes > self.limit
            || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.shared.is_some_and(|s| s.done.load(Ordering::Relaxed))
        {
            self.aborted = true;
            return true;
        }
        self.next_check = self.limit.min(self.nodes + CHECK_EVERY);
        false
    }

    /// Null-window narrowing of the score of `pos` within `[min, max]`, both known
    /// bounds, as far as `mode` asks. Returns the final bounds (equal unless the search
    /// was aborted, or, for the sign, once they settle it).
    pub fn narrow(
        &mut self,
        pos: &Position,
        mut min: i32,
        mut max: i32,
        mode: Narrowing,
    ) -> (i32, i32) {
        let sign_only = mode != Narrowing::Exact;
        // threads sharing a search make no probes: the search ran alone for its first
        // `SHARED_AFTER` nodes, as many as one probe may take, so the probes were made
        // or given up there (or the first took them all, and the second is not made)
        let mut tests = if self.shared.is_some() { PROBES } else { 0 };
        while min < max && !(sign_only && (min > 0 || max < 0)) {
            let med = if sign_only {
                tests += 1;
                sign_test(min, max, tests)
            } else {
                // halve towards zero: tests far from the score are cheap, and scores
                // near zero are the likeliest
                let mut med = min + (max - min) / 2;
                if med <= 0 && min / 2 < med {
                    med = min / 2;
                } else if med >= 0 && max / 2 > med {
                    med = max / 2;
                }
                med
            };
            let r = if sign_only && tests <= PROBES && med != 0 && med != -1 {
                match self.probe(pos, med) {
                    Some(r) => r,
                    None => continue,
                }
            } else {
                self.negamax(pos, med, med + 1)
            };
            if self.aborted {
                break;
            }
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        (min, max)
    }

    /// The null-window test at `med` of [`Search::narrow`] within `PROBE_NODES` more
    /// nodes: its result, or None when it took them all (the search then goes on as
    /// if the test had not been made; an aborted search stores nothing).
    fn probe(&mut self, pos: &Position, med: i32) -> Option<i32> {
        let limit = self.limit;
        self.limit = limit.min(self.nodes.saturating_add(PROBE_NODES));
        self.next_check = self.next_check.min(self.limit);
        let r = self.negamax(pos, med, med + 1);
        self.limit = limit;
        let others = self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.shared.is_some_and(|s| s.done.load(Ordering::Relaxed));
        if self.aborted && self.nodes <= limit && !others {
            // the probe's own cap, not the search's budget or a stop: look again at
            // the next node, under the search's own limit
            self.aborted = false;
            self.next_check = self.nodes.saturating_add(1);
            return None;
        }
        Some(r)
    }

    /// The score of `pos` if it lies strictly inside `(alpha, beta)`; otherwise an
    /// upper bound at most `alpha` or a lower bound at least `beta`. The side to move
    /// must not have an immediate win.
    pub fn negamax(&mut self, pos: &Position, alpha: i32, beta: i32) -> i32 {
        self.negamax_given(pos, non_losing_moves(pos), alpha, beta)
    }

    /// [`Search::negamax`] given the moves of `pos` that do not lose at once, `next`
    /// (its parent found them while ordering its own moves).
    fn negamax_given(&mut self, pos: &Position, next: u64, mut alpha: i32, mut beta: i32) -> i32 {
        debug_assert!(alpha < beta);
        debug_assert_eq!(next, non_losing_moves(pos));
        debug_assert_eq!(pos.winning_moves(), 0);
        self.nodes += 1;
        if self.nodes >= self.next_check && self.check_abort() {
            return 0;
        }
        let n = pos.moves_played();
        if next == 0 {
            // every move lets the opponent win next turn
            return -(CELLS - n as i32) / 2;
        }
        if n as i32 >= CELLS - 2 {
            // nobody can win in the last two moves
            return 0;
        }
        let mut lo = -(CELLS - 2 - n as i32) / 2;
        let mut hi = (CELLS - 1 - n as i32) / 2;
        if lo >= beta {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        if next & (next - 1) == 0 && (self.nodes < self.long_from || n >= FORCED_LONG) {
            // a single move does not lose at once, so the node's value is its child's:
            // skipping the table costs 10 % more nodes and saves more (10 % fewer
            // instructions on L2_R2 and L1_R2); a long search keeps the entries of
            // positions with fewer stones (without them L1_R3 and `44444` searched
            // 12 % more nodes)
            let mut child = *pos;
            child.play_cell(next);
            return -self.negamax(&child, -beta.min(hi), -alpha.max(lo));
        }
        let deep = n >= DEEP;
        let (key, mirrored) = if deep {
            (0, false)
        } else if n <= SYM_MAX {
            canonical(pos)
        } else {
            (pos.key(), false)
        };
        // fetch the children's buckets while this node's own probe and the move
        // ordering proceed
        let child_sym = n < SYM_MAX;
        let mut m = if n + 1 < DEEP { next } else { 0 };
        while m != 0 {
            let cell = m & m.wrapping_neg();
            m &= m - 1;
            self.prefetch(n + 1, child_key(pos, cell, child_sym));
        }
        let mut hint = None;
        if !deep {
            if let Some(e) = self.get(n, key) {
                lo = lo.max(e.lo);
                hi = hi.min(e.hi);
                if lo >= beta || lo == hi {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                hint = e.mv;
            }
        }
        let mut moves = order_moves(pos, next, self.nodes >= self.long_from);
        if moves.wins_next {
            // a move leaves the opponent no safe reply: the best possible score
            return (CELLS - 1 - n as i32) / 2;
        }
        // otherwise the earliest win is with the stone after next
        hi = hi.min((CELLS - 3 - n as i32) / 2);
        if hi <= alpha {
            return hi;
        }
        if deep {
            return self.negamax_deep(pos, &moves, alpha, beta.min(hi));
        }
        if let Some(m) = hint {
            moves.promote(if mirrored { 6 - m } else { m });
        }
        if let Some(book) = self.book {
            if n <= book.max_moves() {
                if let Some(s) = book.get(pos) {
                    return s;
                }
            }
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        let alpha0 = alpha;
        let start = self.nodes;

        // enhanced transposition cutoff: a child already known to be bad enough for the
        // opponent refutes this node without a search. Its probes cost a memory access
        // each unless the children live in the cache-resident table, so a short search
        // only tries it there (measured: short searches 15-30 % faster, long ones even)
        if n <= ETC_MAX && (n + 1 >= NEAR || self.nodes >= self.long_from) {
            for i in 0..moves.len() {
                let (col, cell) = moves.get(i);
                if let Some(e) = self.get(n + 1, child_key(pos, cell, child_sym)) {
                    let v = -e.hi;
                    if v >= beta {
                        let mv = if mirrored { 6 - col as u8 } else { col as u8 };
                        self.put(n, key, v, hi, Some(mv), 1);
                        return v;
                    }
                }
            }
        }

        // in a shared search near the root, moves whose position another thread is
        // searching wait until their siblings are done
        let shared = match self.shared {
            Some(s) if n < self.root_moves + SHARED_PLIES => Some(s),
            _ => None,
        };
        if let Some(s) = shared {
            s.enter(key);
        }
        let mut best = i32::MIN;
        let mut best_col = moves.get(0).0;
        // searches move `i`; true on a cutoff
        macro_rules! try_move {
            ($i:expr) => {{
                let (col, cell) = moves.get($i);
                let mut child = *pos;
                child.play_cell(cell);
                let v = -self.negamax_given(&child, moves.replies($i), -beta, -alpha);
                if self.aborted {
                    return 0;
                }
                if v > best {
                    best = v;
                    best_col = col;
                    if v > alpha {
                        alpha = v;
                    }
                }
                v >= beta
            }};
        }
        let mut deferred = 0u32;
        for i in 0..moves.len() {
            if let Some(s) = shared {
                if i > 0 && s.is_busy(child_key(pos, moves.get(i).1, child_sym)) {
                    deferred |= 1 << i;
                    continue;
                }
            }
            if try_move!(i) {
                deferred = 0;
                break;
            }
        }
        while deferred != 0 {
            let i = deferred.trailing_zeros() as usize;
            deferred &= deferred - 1;
            if try_move!(i) {
                break;
            }
        }
        if let Some(s) = shared {
            s.leave(key);
        }
        let m = if mirrored {
            6 - best_col as u8
        } else {
            best_col as u8
        };
        let work = self.nodes - start;
        if best >= beta {
            self.put(n, key, best, hi, Some(m), work);
        } else if best > alpha0 {
            self.put(n, key, best, best, Some(m), work);
        } else {
            self.put(n, key, lo, best, Some(m), work);
        }
        best
    }

    /// [`Search::negamax`] without the table, for nodes near the end of the game
    /// whose subtrees are too small to repay a memory access. `moves` are the
    /// ordered non-losing moves and the score window is already clamped.
    fn negamax_deep(&mut self, pos: &Position, moves: &MoveList, mut alpha: i32, beta: i32) -> i32 {
        let mut best = i32::MIN;
        for i in 0..moves.len() {
            let mut child = *pos;
            child.play_cell(moves.get(i).1);
            let v = -self.negamax_given(&child, moves.replies(i), -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v >= beta {
                    break;
                }
                if v > alpha {
                    alpha = v;
                }
            }
        }
        best
    }
}

/// How far [`Search::narrow`] narrows a score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Narrowing {
    /// To the exact score.
    Exact,
    /// To its sign: win, draw or loss.
    Sign,
}

/// The tests of a sign-only narrowing that are probes (see [`sign_test`]).
const PROBES: u32 = 2;

/// The most nodes a probe may take before it is given up: a quick win or loss is found
/// well within them (the sets' probes that settle take 4,000-75,000), and a search on
/// one thread spends at most twice this on probes, one with threads no more than it
/// runs alone before threads join it (`SHARED_AFTER`, the same number).
const PROBE_NODES: u64 = 100_000;

/// The threshold of the `n`th null-window test (from 1) of a sign-only narrowing of a
/// score known to lie in `[min, max]`: two probes, for a quick win (above half the best
/// score) and a quick loss (below half the worst), then zero. A test at zero alone
/// proves a win the slow way, down every long line, where a test far from zero is cut
/// short by the bound on how fast the game can still end. Measured on the benchmark
/// sets (docs/solver.md): L1_R1, L1_R2 and L2_R1 in 0.3-0.5 times the search time, the
/// others 1.04-1.4 times.
fn sign_test(min: i32, max: i32, n: u32) -> i32 {
    let med = match n {
        1 if max >= 2 => max / 2,
        2 if min <= -2 => min / 2,
        // above -1 a test at zero asks win or not; at or below it, draw or loss
        _ if max > 0 => 0,
        _ => -1,
    };
    med.clamp(min, max - 1)
}
