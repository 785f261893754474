// The strong solver off the main thread, for Play mode's hints: which Yellow moves
// lose, and whether Red's last move kept the win (or, where the diagram names no move,
// what Red's best move there gives: `redColumn` null). Each question has a node budget, so
// a hard position answers "unknown" rather than stalling. A failure (the engine did not
// load, a trap) is posted as `{id, error, failed: true}`, so the page never waits on it
// and asks a fresh worker next (a trapped engine is not fit to run again).
// (a page file, as this worker is: it loads where the worker loads)
import { pause } from './pause.js';

// imported here, not at the top: a glue file that does not load then fails `ready`, and
// is posted as the engine's failure (a static import that fails stops the worker
// before it can post anything)
let analyzeColumn, score;
const ready = import('./pkg/c4lab_wasm.js').then(async (m) => {
  await m.default();
  ({ analyze_column: analyzeColumn, score } = m);
});
// (its failure is said when a message awaits it, not left an unhandled rejection)
ready.catch(() => {});
const BUDGET = 3_000_000;

// (a pause() between solver calls, each its own task: a question no longer wanted, Play
// left or a newer move, ends within one call's budget, not after all of them)

/** Every column's score after `moves` (as the engine's `analyze`), a call a column. */
async function analyzeColumns(moves) {
  const scores = [];
  let toMove = null;
  for (let x = 0; x < 7; x++) {
    const r = JSON.parse(analyzeColumn(moves, x, BUDGET));
    if (!r.ok) return r;
    scores.push(r.score);
    toMove = r.to_move;
    await pause();
  }
  return { ok: true, scores, to_move: toMove };
}

self.onmessage = async (e) => {
  const { id, moves, beforeRed, redColumn } = e.data;
  try {
    await ready;
    const yellow = moves === null ? null : await analyzeColumns(moves);
    let red = null, redBest = null, after = null;
    if (beforeRed !== null && redColumn === null) {
      // Red to move where the diagram names no move: what Red's best move there gives
      after = JSON.parse(score(beforeRed, BUDGET));
      red = 'no-move';
      redBest = after.ok && after.score !== 'unknown' ? after.score : null;
    } else if (beforeRed !== null) {
      // Red's move kept the win when the position after it is lost for Yellow; the
      // position before it says what Red's best move would have scored (a move that
      // loses where every move loses is no mistake)
      after = JSON.parse(score(beforeRed + redColumn, BUDGET));
      red = after.ok ? (after.score === 'unknown' ? 'unknown' : -after.score) : null;
      if (typeof red === 'number' && red <= 0) {
        await pause();
        const before = JSON.parse(score(beforeRed, BUDGET));
        redBest = before.ok && before.score !== 'unknown' ? before.score : null;
      }
    }
    // (an answer the engine refused read as "nothing to judge here")
    const refused = [yellow, after].find((r) => r && !r.ok);
    if (refused) self.postMessage({ id, error: refused.error });
    else self.postMessage({ id, yellow, red, redBest });
  } catch (err) {
    self.postMessage({ id, error: `the solver failed: ${err}`, failed: true });
  }
};
