// Auto-complete off the main thread (a second worker): steps a CompleteSession and posts
// its progress at most every 80 ms, and once more when the search ends. The page stops
// a search by terminating this worker. Message in: {id, grid, seed}. A failure (the
// engine did not load, a trap) is posted as a report `{ok: false, failed: true, error}`;
// a refused diagram as `{ok: false, error}`.
import init, { CompleteSession } from './pkg/c4lab_wasm_synth.js';

const ready = init();

self.onmessage = async (e) => {
  const { id, grid, seed } = e.data;
  try {
    await ready;
  } catch (err) {
    self.postMessage({ id, report: { ok: false, failed: true, error: `the engine did not load: ${err}` } });
    return;
  }
  let session;
  try {
    session = CompleteSession.start(grid, seed);
  } catch (err) {
    self.postMessage({ id, report: { ok: false, error: String(err) } });
    return;
  }
  try {
    run(id, session);
  } catch (err) {
    // a trap (out of memory, a panic) would otherwise leave the page waiting
    self.postMessage({ id, report: { ok: false, failed: true, error: `the search failed: ${err}` } });
  }
};

// Steps the session to its end, posting its reports.
function run(id, session) {
  const start = performance.now();
  let posted = 0;
  for (;;) {
    const report = JSON.parse(session.step(4));
    report.ms = performance.now() - start;
    const done = !report.ok || report.state !== 'running';
    if (done || report.ms - posted > 80) {
      self.postMessage({ id, report });
      posted = report.ms;
    }
    if (done) break;
  }
}
