// Solve whole root's race: the searches of `c4lab dsat --widen-after 0,3000` (the native
// default), each in its own worker, judged by the native race's rule
// (crates/dsat/src/race.rs), so the page's verdict, diagram and dead ends are the
// native ones whatever the timing:
// - every search's local search runs from the start, each with its own random streams;
// - the second search's SAT search starts once one of the first's level budgets has
//   taken half the head start (the smallest non-zero widen-after), and counts the
//   first's dead ends at that round's end as its start; it never starts when the first
//   finishes before that; each dead end of a search whose budget widens without proof
//   counts twice (dead_end_weight);
// - a diagram a local search found wins over any SAT verdict, the one found with the
//   least work first; then the SAT verdict (found or unsat) with the lowest count, start
//   plus weighted dead ends; the earlier search on a tie. A search gives up what can no
//   longer win: its local search once its work reaches that of a find (or at once after
//   unsat), its SAT search once its count reaches a finished verdict's (or at once
//   after a local find). The page tells
//   its worker, which reads it between steps, and, where the page is cross-origin
//   isolated (`c4lab serve` makes it so), writes the SAT ceiling into a
//   SharedArrayBuffer that the solver reads while it runs, so the loser stops at once
//   rather than at the end of its round.
// It has the interface of search.js's searchWorker (searchHandle), so the same controls
// drive it.

import { NO_STOP, searchHandle, sharedSlots } from './search.js';

/**
 * Races one search per entry of `widenAfter` in module workers at `url`; `changed()`
 * runs after every report. The report is the first search's while it runs; once it
 * has ended, that of the search the race waits on (a `waiting` report with the first's
 * counts while that one has not reported yet), with `waiting_on` its index and
 * `ceiling`; then the winner's, with `winner` (its index or null) and `entrants`
 * ({state, conflicts, started_at, local} each; `local`: still in its local search).
 */
export function raceWorkers(url, widenAfter, changed) {
  const positive = widenAfter.filter((w) => w > 0);
  const headStart = positive.length ? Math.min(...positive) : Infinity;
  const s = { id: 0, report: null, running: false, grid: null, entrants: [], released: null, message: null, t0: 0, shared: null };

  function end() {
    s.entrants.forEach((e, j) => halt(e, j));
    s.running = false;
  }
  // Ends search `j`'s worker. A worker is only ended between two of its tasks, and a
  // solve-verify round is one task: Chromium lets it run on for up to 2 s before it
  // kills the thread (a core busy after Stop), so the solver is first told, through its
  // shared slot, that it has no dead end left.
  function halt(e, j) {
    if (!e.worker) return;
    if (s.shared) Atomics.store(s.shared, j, 0);
    e.worker.terminate();
    e.worker = null;
  }
  const finished = (r) => !r.ok || !['mapping', 'waiting', 'searching'].includes(r.state);
  const verdict = (r) => r && r.ok && (r.state === 'found' || r.state === 'unsat');
  const byLocal = (r) => r.state === 'found' && r.local_found === true;
  const count = (e) => e.startedAt + e.weight * (e.report.conflicts ?? 0);
  // how the race ranks a verdict, lowest first: a local find by its work, then a SAT
  // verdict by its count (as Entrant::rank natively)
  const rank = (e) => (byLocal(e.report) ? [0, e.report.local_work] : [1, count(e)]);
  const before = (a, b) => rank(a.o)[0] - rank(b.o)[0] || rank(a.o)[1] - rank(b.o)[1] || a.j - b.j;
  // still in its local search (no report yet, or reporting its local work)
  const inLocal = (e) => !e.report || (e.report.state === 'mapping' && e.report.local_budget != null);
  // where a search's count starts: 0 for a diagram its local search found (as natively)
  const startOf = (e) => (e.report && byLocal(e.report) ? 0 : e.startedAt);
  // (a search with no report is starting while the race runs, stopped once it is judged)
  const summary = () => s.entrants.map((e) => ({
    state: e.report ? e.report.state : s.running && !e.done ? 'starting' : 'stopped',
    conflicts: e.report ? e.report.conflicts ?? 0 : 0,
    started_at: startOf(e),
    local: !e.done && inLocal(e),
  }));


  function launch(i, startedAt) {
    const e = s.entrants[i];
    const id = s.id;
    e.startedAt = startedAt;
    e.worker = new Worker(url, { type: 'module' });
    e.worker.onmessage = (m) => {
      if (m.data.id === id && id === s.id && s.running && !e.done) onReport(i, m.data.report);
    };
    e.worker.onerror = (m) => {
      if (id !== s.id || !s.running || e.done) return;
      s.report = { ok: false, failed: true, error: `the search failed: ${m.message || 'the worker stopped'}` };
      end();
      changed();
    };
    e.worker.postMessage({
      id, grid: s.grid, ...s.message, widenAfter: widenAfter[i],
      // at half the head start, never before one dead end (as natively)
      releaseAt: i === 0 && headStart < Infinity ? Math.max(1, Math.floor(headStart / 2)) : Infinity,
      shared: s.shared ? s.shared.buffer : null, slot: i,
      // a later search's SAT search waits for the first's release mark
      hold: i > 0,
    });
  }

  // Lets a held search's SAT search go, counted from the first's `at` dead ends.
  function letGo(j, at) {
    const e = s.entrants[j];
    if (e.done) return;
    e.startedAt = at;
    if (e.worker) e.worker.postMessage({ id: s.id, release: true });
  }

  // Gives search `j`'s local search its ceiling, the work at which it can no longer win.
  function lowerLocal(j, reach) {
    const e = s.entrants[j];
    e.localCeiling = Math.min(e.localCeiling, reach);
    if (e.worker) e.worker.postMessage({ id: s.id, localCeiling: e.localCeiling });
  }

  // Gives search `j` its ceiling, its own dead ends at which its count reaches `reach`.
  function lower(j, reach) {
    const e = s.entrants[j];
    e.ceiling = Math.min(e.ceiling, Math.max(0, Math.ceil((reach - e.startedAt) / e.weight)));
    if (s.shared) Atomics.store(s.shared, j, Math.min(e.ceiling, NO_STOP));
    if (e.worker) e.worker.postMessage({ id: s.id, ceiling: e.ceiling });
  }

  // A search that has not started, or has met its ceiling, ends as stopped.
  function retire(j) {
    const e = s.entrants[j];
    if (e.done) return;
    halt(e, j);
    e.done = true;
    e.report = e.report ? { ...e.report, state: 'stopped' } : null;
  }

  // The verdict with the lowest count among the finished searches wins (the earlier on
  // a tie); with none, a search that ran out of budget, else the first, stands for the
  // race. Ends the race.
  function judge() {
    const judged = s.entrants
      .map((o, j) => ({ o, j }))
      .filter(({ o }) => o.done && verdict(o.report))
      .sort(before);
    // a diagram found (and verified) and a proof that none exists: one of them rests on a
    // bug, which picking one by rank would hide (the native race refuses it too)
    const said = (state) => judged.some(({ o }) => o.report.state === state);
    if (said('found') && said('unsat')) {
      end();
      s.report = { ok: false, failed: true, error: 'one search of the race found a winning diagram (verified) and another proved that none exists: this is a bug, please report the diagram and its root' };
      return;
    }
    const winner = judged.length ? judged[0].j : null;
    const budget = s.entrants.findIndex((o) => o.done && o.report && o.report.state === 'budget');
    const chosen = winner ?? (budget >= 0 ? budget : 0);
    const c = s.entrants[chosen];
    end();
    for (const o of s.entrants) {
      if (!o.done && o.report) o.report = { ...o.report, state: 'stopped' };
    }
    // every search is done (each with a report), or one has a verdict (Stop)
    s.report = { ...c.report, winner, started_at: startOf(c), entrants: summary(), ms: performance.now() - s.t0 };
  }

  function onReport(i, r) {
    const e = s.entrants[i];
    e.report = r;
    if (!finished(r)) e.progress = r;
    if (!r.ok) {
      // the race cannot be judged: stop everyone
      s.report = r;
      end();
      changed();
      return;
    }
    if (i === 0 && s.released === null && r.released_at != null) {
      s.released = true;
      // from the first's count at its release mark
      for (let j = 1; j < s.entrants.length; j++) letGo(j, e.weight * r.released_at);
    }
    if (finished(r)) {
      e.done = true;
      e.worker.terminate();
      e.worker = null;
      if (i === 0 && s.released === null) {
        // the first finished before the others were let go: their SAT searches never
        // start (their local searches, which may still win, run on)
        s.released = false;
      }
      if (verdict(r)) {
        const [kind, c] = rank(e);
        for (let j = 0; j < s.entrants.length; j++) {
          if (j === i || s.entrants[j].done) continue;
          const reach = j < i ? c + 1 : c;
          if (kind === 0) {
            // found by a local search: no SAT verdict can win now
            lowerLocal(j, reach);
            lower(j, 0);
          } else {
            lower(j, reach);
            // no diagram wins: no local search can find one
            if (r.state === 'unsat') lowerLocal(j, 0);
          }
        }
      }
    }
    for (let j = 0; j < s.entrants.length; j++) {
      // a search that can no longer win would stop at its next step: a local search
      // whose work has reached its ceiling, a SAT search whose dead ends have, or one
      // waiting to start that never will or cannot win
      const o = s.entrants[j];
      if (o.done) continue;
      if (inLocal(o)) {
        // its local search cannot win (or there is none), nor its SAT search which would
        // follow (or never will: the first ended before its release mark)
        const localLost = (o.report?.local_work ?? 0) >= o.localCeiling || s.message?.localWork === 0;
        if (localLost && (o.ceiling <= 0 || s.released === false)) retire(j);
      } else if (o.report?.state === 'waiting') {
        if (s.released === false || o.ceiling <= 0) retire(j);
      } else if ((o.report?.conflicts ?? 0) >= o.ceiling) {
        retire(j);
      }
    }
    if (s.entrants.every((o) => o.done)) {
      judge();
    } else {
      // not judged yet: the first search's last progress (a verdict may still lose),
      // or once it has ended, that of a search still running (a local search, which
      // would win with a diagram, first), with `waiting_on` its index and `ceiling` the
      // dead ends (or the local search's work) at which it can no longer win, or null
      const first = s.entrants[0];
      const running = (local) => s.entrants.findIndex((o) => !o.done && o.progress && inLocal(o) === local);
      let on = first.done ? (running(true) > 0 ? running(true) : running(false)) : -1;
      // the first has ended before the others' first reports: the race waits on one
      // that is starting, with the first's counts (Stop says them) but not its verdict
      // or diagram, which the one starting may still beat
      const starting = first.done && on < 0;
      if (starting) on = s.entrants.findIndex((o) => !o.done);
      const counts = ({ positions = 0, conflicts = 0, settled = 0, max_states: maxStates }) => ({ positions, conflicts, settled, max_states: maxStates });
      const shown = starting ? { ok: true, state: 'waiting', ...counts(first.report) } : on > 0 ? s.entrants[on].progress : first.progress ?? first.report;
      // (a later search may report before the first has: nothing to show yet)
      if (!shown) return;
      const finite = (n) => (Number.isFinite(n) ? n : null);
      // (a search not started has no count of its own yet to stop at: null, as for a
      // search with no verdict to beat)
      const ceilingOf = (o) => (starting ? null : finite(inLocal(o) ? o.localCeiling : o.ceiling));
      const waited = on > 0 && { waiting_on: on, ceiling: ceilingOf(s.entrants[on]) };
      s.report = { ...shown, winner: null, entrants: summary(), ...waited };
    }
    s.report.ms = performance.now() - s.t0;
    changed();
  }

  /** Starts a race on `grid`, posting `{id, grid, ...message, widenAfter}` to each worker. */
  function start(grid, message) {
    end();
    s.id += 1;
    s.report = null;
    s.running = true;
    s.grid = grid;
    s.message = message;
    // null: not decided yet; true: let go; false: the first ended before its mark
    s.released = null;
    s.t0 = performance.now();
    // i32 slots, one per search, that the solvers read mid-call (none: not isolated)
    s.shared = sharedSlots(widenAfter.length);
    // as natively: with every level open from the start no budget grows, so a search
    // that differs only in when its budget may grow unproved would never be let go
    // (nor its local search run): the first runs alone
    const n = message?.firstLevels >= 10 ? 1 : widenAfter.length;
    // `weight`: what one of its dead ends counts, 2 when its budget widens without proof
    // (as dead_end_weight natively)
    s.entrants = widenAfter.slice(0, n).map((w) => ({ worker: null, report: null, progress: null, startedAt: 0, done: false, ceiling: Infinity, localCeiling: Infinity, weight: w > 0 ? 2 : 1 }));
    // every search starts at once: its local search runs from the start
    for (let j = 0; j < s.entrants.length; j++) launch(j, 0);
  }
  // Stop: as natively, a verdict one search already has still wins
  function settle() {
    if (!s.entrants.some((o) => o.done && verdict(o.report))) return false;
    judge();
    return true;
  }
  return searchHandle(s, end, start, settle);
}
