// Auto-complete off the main thread (a second worker): steps a CompleteSession and posts
// its progress at most every 80 ms, and once more when the search ends. The page stops
// a search by terminating this worker. Message in: {id, grid, seed}.
import init, { CompleteSession } from './pkg/c4lab_wasm_synth.js';

const ready = init();

self.onmessage = async (e) => {
  await ready;
  const { id, grid, seed } = e.data;
  let session;
  try {
    session = CompleteSession.start(grid, seed);
  } catch (err) {
    self.postMessage({ id, report: { ok: false, error: String(err) } });
    return;
  }
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
};
