// Verification off the main thread: a verdict first, then (for a win) how many cells
// Simplify would clear. The page terminates this worker to cancel a stale request.
// Messages: {type: 'verify' | 'simplify' | 'bench', id, grid | grids}. A failure (the
// engine did not load, a trap) is posted as the answer in hand, a verdict or Simplify's
// count, `{ok: false, error}` with `failed` set, so the page never waits on it and starts
// a fresh worker for its next request (a trapped engine is not fit to run again).
// imported here, not at the top: a glue file that does not load then fails `ready`, and
// is posted as the engine's failure (a static import that fails stops the worker
// before it can post anything)
let verify, simplify;
const ready = import('./pkg/c4lab_wasm.js').then(async (m) => {
  await m.default();
  ({ verify, simplify } = m);
});
// (its failure is said when a message awaits it, not left an unhandled rejection)
ready.catch(() => {});

self.onmessage = async (e) => {
  const msg = e.data;
  // the answer in hand: after a win's verdict, Simplify's (a failure there replaced the
  // win already posted with an error)
  let answering = msg.type === 'verify' ? 'verdict' : msg.type;
  try {
    await ready;
    if (msg.type === 'verify') {
      const t = performance.now();
      const result = JSON.parse(verify(msg.grid, 5_000_000));
      self.postMessage({ type: 'verdict', id: msg.id, result, ms: performance.now() - t });
      if (result.ok && result.verdict === 'win') {
        answering = 'simplify';
        self.postMessage({ type: 'simplify', id: msg.id, result: JSON.parse(simplify(msg.grid)) });
      }
    } else if (msg.type === 'simplify') {
      self.postMessage({ type: 'simplify', id: msg.id, result: JSON.parse(simplify(msg.grid)) });
    } else if (msg.type === 'bench') {
      const times = msg.grids.map((g) => {
        const t = performance.now();
        const r = JSON.parse(verify(g, 5_000_000));
        return { ms: performance.now() - t, verdict: r.verdict };
      });
      self.postMessage({ type: 'bench', times });
    }
  } catch (err) {
    const result = { ok: false, error: `${answering === 'simplify' ? 'Simplify' : 'Verification'} failed: ${err}` };
    self.postMessage({ type: answering, id: msg.id, result, failed: true });
  }
};
