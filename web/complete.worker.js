// Auto-complete off the main thread (a second worker): steps a CompleteSession and posts
// its progress at most every 80 ms, and once more when the search ends. The page stops
// a search by terminating this worker, after writing 0 into `stop` (a SharedArrayBuffer
// of one i32, or null), which the engine reads during a step (its SAT call, its strong-
// solver questions). Message in: {id,
// grid, seed, stop}. A failure (the engine did not load, a trap) is posted as a report
// `{ok: false, failed: true, error}`;
// a refused diagram as `{ok: false, error}`.
// (a page file, as this worker is: it loads where the worker loads)
import { pause } from './pause.js';

// imported here, not at the top: a glue file that does not load then fails `ready`, and
// is posted as the engine's failure (a static import that fails stops the worker
// before it can post anything)
let CompleteSession;
const ready = import('./pkg/c4lab_wasm_synth.js').then(async (m) => {
  await m.default();
  ({ CompleteSession } = m);
});
// (its failure is said when a message awaits it, not left an unhandled rejection)
ready.catch(() => {});

self.onmessage = async (e) => {
  const { id, grid, seed, stop = null } = e.data;
  try {
    await ready;
  } catch (err) {
    self.postMessage({ id, report: { ok: false, failed: true, error: `the engine did not load: ${err}` } });
    return;
  }
  let session;
  try {
    session = CompleteSession.start(grid, seed);
    if (stop) session.share_stop(new Int32Array(stop), 0);
  } catch (err) {
    self.postMessage({ id, report: { ok: false, error: String(err) } });
    return;
  }
  try {
    await run(id, session);
  } catch (err) {
    // a trap (out of memory, a panic) would otherwise leave the page waiting
    self.postMessage({ id, report: { ok: false, failed: true, error: `the search failed: ${err}` } });
  }
};

// (a pause() between steps: a loop without one kept a core busy up to 2 s after Stop)

// Steps the session to its end, posting its reports.
async function run(id, session) {
  const start = performance.now();
  let posted = 0;
  // candidates per step: adapted so that a step takes 10-40 ms, so that Stop ends the
  // worker within about that (four a step held it up to 0.3 s on a hard root)
  let batch = 1;
  for (;;) {
    const t = performance.now();
    const report = JSON.parse(session.step(batch));
    const took = performance.now() - t;
    if (took < 10 && batch < 4096) batch *= 2;
    else if (took > 40 && batch > 1) batch = Math.max(1, batch >> 1);
    report.ms = performance.now() - start;
    const done = !report.ok || report.state !== 'running';
    if (done || report.ms - posted > 80) {
      self.postMessage({ id, report });
      posted = report.ms;
    }
    if (done) break;
    await pause();
  }
}
