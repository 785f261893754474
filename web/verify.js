// Verification on every edit: verify.worker.js answers with the verdict, then (for a
// win) the simplified diagram. A request while one runs restarts the worker, as the
// diagram it was verifying is gone; the page's first verdict is computed on its own
// thread while the worker still loads its engine.

/** Positions the page verifies on its own thread when it opens, before the worker is up. */
const FIRST_BUDGET = 200_000;

/**
 * A verifier of `grid()` with `engine` (the page's own, for the first verdict), telling
 * `answer(kind, result)` each answer ('verdict' or 'simplify') for the latest request;
 * `lab` (the test hook) counts verdicts and times them.
 */
export function verifier(engine, lab, grid, answer) {
  let worker = null, busy = false, requestId = 0;
  function start() {
    const w = new Worker(new URL('./verify.worker.js', import.meta.url), { type: 'module' });
    worker = w;
    // (a worker whose engine trapped was asked again, and failed every verification
    // until the page was reloaded)
    w.onmessage = (e) => { if (e.data.failed) w.failed = true; onWorker(e.data); };
    w.onerror = (e) => {
      // the worker could not run (its script or engine failed to load): say so; the next
      // edit starts a fresh one
      w.failed = true;
      onWorker({ type: 'verdict', id: requestId, result: { ok: false, error: `Verification failed: ${e.message || 'its worker stopped'}` } });
    };
    busy = false;
  }
  function onWorker(msg) {
    if (msg.type === 'bench') { lab.benchResult?.(msg); return; }
    if (msg.id !== requestId) return;
    if (msg.type === 'verdict') {
      lab.verdicts++;
      lab.lastVerifyMs = msg.ms;
      if (lab.firstVerdictMs === null) lab.firstVerdictMs = performance.now();
      if (msg.result.verdict !== 'win') busy = false;
    } else if (msg.type === 'simplify') {
      busy = false;
    }
    answer(msg.type, msg.result);
  }
  /** Test and benchmark hook: verification time of each grid inside the worker. */
  lab.benchVerify = (grids) => new Promise((resolve) => {
    lab.benchResult = (msg) => resolve(msg.times);
    worker.postMessage({ type: 'bench', grids });
  });
  start(); // loads its engine while the page loads its own
  return {
    /** Verifies the diagram as it is now (`first`: on this thread if it is quick). */
    request({ first = false } = {}) {
      requestId++;
      if (busy || worker.failed) { worker.terminate(); start(); } // cancelled: the diagram changed
      busy = true;
      if (first) {
        // a real diagram verifies here in well under a millisecond; anything bigger goes
        // to the worker as usual
        const t = performance.now();
        const result = JSON.parse(engine.verify(grid(), FIRST_BUDGET));
        if (result.ok && result.verdict !== 'budget') {
          onWorker({ type: 'verdict', id: requestId, result, ms: performance.now() - t });
          if (result.verdict === 'win') worker.postMessage({ type: 'simplify', id: requestId, grid: grid() });
          return;
        }
      }
      worker.postMessage({ type: 'verify', id: requestId, grid: grid() });
    },
  };
}
