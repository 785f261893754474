// Verification off the main thread: a verdict first, then (for a win) how many cells
// Simplify would clear. The page terminates this worker to cancel a stale request.
// Messages: {type: 'verify' | 'simplify' | 'bench', id, grid | grids}.
import init, { verify, simplify } from './pkg/c4lab_wasm.js';

const ready = init();

self.onmessage = async (e) => {
  await ready;
  const msg = e.data;
  if (msg.type === 'verify') {
    const t = performance.now();
    const result = JSON.parse(verify(msg.grid, 5_000_000));
    self.postMessage({ type: 'verdict', id: msg.id, result, ms: performance.now() - t });
    if (result.ok && result.verdict === 'win') {
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
};
