// One search of the whole-root solve (dsat) off the main thread: steps a DsatSession
// (mapping, then solve-verify rounds) and posts its progress at most every 80 ms, and at
// once when it enters a new phase, ends or passes the race's release mark. The page stops a search by
// terminating this worker.
// Messages in: {id, grid, cut, maxStates, firstLevels, widenAfter, releaseAt, slot,
// hold, localWork} starts (firstLevels 1, the default: the fewest levels; 10: every level
// from the start; widenAfter 0, the default: a level budget grows only on proof;
// releaseAt: report `released_at` at the end of the first round that does not end the search
// once a budget has taken that many dead ends; shared,
// slot: a SharedArrayBuffer of i32 ceilings the solver also reads while it runs, and
// this search's index in the race, which also sets its local search's random stream
// and budget as natively; localWork: its local search's budget instead of the native
// default; hold: after its local search, report
// `waiting` and wait for {id, release}); {id, ceiling} then makes the search give up
// once its own dead ends reach `ceiling`, {id, localCeiling} once its local search's
// work reaches it (see race.js).
// (a page file, as this worker is: it loads where the worker loads)
import { pause } from './pause.js';

// imported here, not at the top: a glue file that does not load then fails `ready`, and
// is posted as the engine's failure (a static import that fails stops the worker
// before it can post anything)
let DsatSession;
const ready = import('./pkg/c4lab_wasm_synth.js').then(async (m) => {
  await m.default();
  ({ DsatSession } = m);
});
// (its failure is said when a message awaits it, not left an unhandled rejection)
ready.catch(() => {});
let session = null;
let ceiling = Infinity;
let localCeiling = Infinity;
let released = false;
// resolves the wait of a held search once the page lets it go
let resume = null;

// (pause() lets the ceiling messages in between two steps)

self.onmessage = async (e) => {
  try {
    await ready;
  } catch (err) {
    if (e.data.ceiling === undefined) self.postMessage({ id: e.data.id, report: { ok: false, failed: true, error: `the engine did not load: ${err}` } });
    return;
  }
  if (e.data.ceiling !== undefined) {
    ceiling = Math.min(ceiling, e.data.ceiling);
    if (session) session.set_ceiling(ceiling);
    return;
  }
  if (e.data.localCeiling !== undefined) {
    localCeiling = Math.min(localCeiling, e.data.localCeiling);
    if (session) session.set_local_ceiling(localCeiling);
    return;
  }
  if (e.data.release !== undefined) {
    released = true;
    if (session) session.release();
    if (resume) resume();
    return;
  }
  const { id, grid, cut, maxStates, firstLevels = 1, widenAfter = 0, releaseAt = Infinity, shared = null, slot = 0, hold = false, localWork = null } = e.data;
  try {
    session = DsatSession.start(grid, cut, maxStates, firstLevels, widenAfter, slot);
    if (localWork !== null) session.set_local_work(localWork);
    if (hold && !released) session.hold_after_local();
    session.set_local_ceiling(localCeiling);
  } catch (err) {
    self.postMessage({ id, report: { ok: false, error: String(err) } });
    return;
  }
  session.set_ceiling(ceiling);
  if (shared) session.share_ceiling(new Int32Array(shared), slot);
  session.watch_release(releaseAt);
  try {
    await run(id, performance.now());
  } catch (err) {
    // a trap (out of memory, a panic) would otherwise leave the page waiting
    self.postMessage({ id, report: { ok: false, failed: true, error: `the search failed: ${err}` } });
  }
};

// Steps the session to its end, posting its reports.
async function run(id, start) {
  let posted = -Infinity;
  // the phase last posted (local search, mapping, searching...): a new one is posted at
  // once, so that the page never shows a phase the search has left
  let phase = null;
  // whether this search has reported passing the race's release mark
  let passed = false;
  // positions per step: adapted so that a step takes 10-40 ms (a position costs from
  // microseconds to a fraction of a second, depending on the strong solver's questions)
  let batch = 1;
  for (;;) {
    const t = performance.now();
    const report = JSON.parse(session.step(batch));
    const took = performance.now() - t;
    if (took < 10 && batch < 65536) batch *= 2;
    else if (took > 40 && batch > 1) batch = Math.max(1, batch >> 1);
    report.ms = performance.now() - start;
    const done = !report.ok || !['mapping', 'waiting', 'searching'].includes(report.state);
    const release = !passed && report.released_at != null;
    const waiting = report.state === 'waiting';
    const now = `${report.state}${report.local_budget != null ? ' local' : ''}`;
    if (done || release || waiting || now !== phase || report.ms - posted > 80) {
      self.postMessage({ id, report });
      posted = report.ms;
      phase = now;
      passed ||= release;
    }
    if (done) break;
    if (waiting) {
      // held: nothing to do until the page lets the SAT search go (or ends the worker)
      await new Promise((resolve) => {
        resume = resolve;
      });
      resume = null;
    } else {
      await pause();
    }
  }
}
