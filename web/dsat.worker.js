// The whole-root solve (dsat) off the main thread: steps a DsatSession (mapping, then
// solve-verify rounds) and posts its progress at most every 80 ms, and once more when
// it ends. The page stops a solve by terminating this worker.
// Message in: {id, grid, cut, maxStates, firstLevels} (firstLevels 1, the default: the
// fewest levels; 10: every level from the start).
import init, { DsatSession } from './pkg/c4lab_wasm_synth.js';

const ready = init();

self.onmessage = async (e) => {
  await ready;
  const { id, grid, cut, maxStates, firstLevels = 1 } = e.data;
  let session;
  try {
    session = DsatSession.start(grid, cut, maxStates, firstLevels);
  } catch (err) {
    self.postMessage({ id, report: { ok: false, error: String(err) } });
    return;
  }
  const start = performance.now();
  let posted = -Infinity;
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
    const done = !report.ok || !['mapping', 'searching'].includes(report.state);
    if (done || report.ms - posted > 80) {
      self.postMessage({ id, report });
      posted = report.ms;
    }
    if (done) break;
  }
};
