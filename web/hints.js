// The solver's hints in Play mode: a worker (solve.worker.js) judges Red's last move and
// each Yellow reply (a new question ends the stale ones rather than wait behind them),
// and the hint line and the board's marks of losing Yellow moves are drawn from its answers.

/**
 * Asks the solver about games. `store(h)` receives every answer to the latest question
 * (at once when there is nothing to ask); `changed()` runs after an answer that came
 * from the worker, later.
 */
export function solverHints(store, changed) {
  let worker = null, id = 0, busy = false;
  return {
    /**
     * Ends the question in hand, if any (Play was left: the solver would go on using a
     * core for seconds, in the way of the verifier and the searches). Returns whether
     * one was ended, so that it is asked again on the way back.
     */
    cancel() {
      if (!(worker && busy)) return false;
      id++;
      worker.terminate();
      worker = null;
      busy = false;
      return true;
    },
    /** Asks about `game` (the engine's replay of the Yellow line) below `root`. */
    ask(game, root) {
      id++; // a reply to an earlier question no longer counts
      if (worker && busy) {
        // the worker answers in order: rather than wait for stale questions, start afresh
        worker.terminate();
        worker = null;
      }
      busy = false;
      // no game (a root Red does not move from): the verdict and the game's status say
      // why, so the solver line does not say it a third time
      if (!game.ok) return store({ id, noGame: true });
      if (!worker) {
        worker = new Worker(new URL('./solve.worker.js', import.meta.url), { type: 'module' });
        const asked = worker;
        worker.onmessage = (e) => {
          // a worker whose engine failed is not asked again (it failed every later
          // question until the page was reloaded)
          if (e.data.failed && worker === asked) {
            asked.terminate();
            worker = null;
          }
          if (e.data.id !== id) return;
          busy = false;
          store(e.data);
          changed();
        };
        worker.onerror = (e) => {
          worker = null; // the next question starts a fresh worker
          store({ id, error: `the solver stopped (${e.message || 'its worker failed'})` });
          changed();
        };
      }
      const moves = game.log.filter((m) => m.column);
      const played = moves.map((m) => String(m.column)).join('');
      let k = moves.length - 1;
      while (k >= 0 && moves[k].player !== 'Red') k--;
      if (game.status === 'red-won') return store({ id, yellow: null, red: 'won' }); // nothing left to ask
      busy = true;
      if (game.status === 'no-move') {
        // Red is to move where the diagram names no move: its last move is not the one
        // to judge (the line said "Red's last move keeps the win" under "Red: no
        // move"), but what Red's best move there would have given
        worker.postMessage({ id, moves: null, beforeRed: root + played, redColumn: null });
        return;
      }
      worker.postMessage({
        id,
        moves: game.status === 'yellow-to-move' ? root + played : null,
        beforeRed: k >= 0 ? root + played.slice(0, k) : null,
        redColumn: k >= 0 ? played[k] : '',
      });
    },
  };
}

/** The hint line for answer `h`, and the Yellow columns (1-7) the solver proves losing. */
export function hintText(h) {
  if (h.noGame) return { text: 'Solver: no game to judge here.', lose: [] };
  if (h.error) return { text: `Solver: no hints here: ${h.error.replace(/\.$/, '')}.`, lose: [] };
  const parts = [];
  if (h.red !== null) {
    const r = h.red;
    const noMove = 'Where the diagram names no move';
    parts.push(r === 'no-move' ? (h.redBest === null ? `${noMove}, Red's best move is unknown within the solver's budget`
      : h.redBest > 0 ? `${noMove}, Red had a winning move`
      : h.redBest === 0 ? `${noMove}, Red's best move draws`
      : `${noMove}, every Red move loses`)
      : r === 'won' ? "Red's last move wins at once, so it keeps the win"
      : r === 'unknown' ? "Red's last move: unknown within the solver's budget"
      : r > 0 ? "Red's last move keeps the win"
      // against Red's best move there (`redBest`, when the solver knew it): no mistake
      // where no move did better
      : h.redBest === undefined || h.redBest === null ? (r === 0 ? "Red's last move only draws" : "Red's last move loses")
      : r === 0 ? (h.redBest > 0 ? "Red's last move only draws: a winning move was there" : "Red's last move holds the draw: no move wins there")
      : h.redBest < 0 ? "Red's last move loses, as every move there does"
      : `Red's last move loses: a move that ${h.redBest > 0 ? 'wins' : 'draws'} was there`);
  }
  const lose = [];
  if (h.yellow && h.yellow.ok) {
    const other = [], unknown = [];
    h.yellow.scores.forEach((s, x) => {
      if (s === 'full') return;
      if (s === 'unknown') unknown.push(x + 1);
      else if (s < 0) lose.push(x + 1);
      else other.push(x + 1);
    });
    // "no move loses" is a claim only when every move was judged
    parts.push(lose.length ? `Yellow moves that lose: ${lose.join(', ')}`
      : unknown.length ? 'no Yellow move proved losing' : 'no Yellow move loses');
    if (other.length) parts.push(`Yellow moves that draw or win: ${other.join(', ')}`);
    if (unknown.length) parts.push(`unknown: ${unknown.join(', ')}`);
  }
  // nothing to judge: no Red move played and Yellow is not to move (a ? cell stops play
  // at the root)
  const text = parts.length ? 'Solver: ' + parts.join('; ') + '.' : 'Solver: nothing to judge here (no Red move played, and Yellow is not to move).';
  return { text, lose };
}

/**
 * Writes Play's solver line for answer `h` (null while the solver thinks) into `at.line`
 * and marks on the board (`at.cells`) each Yellow move it proves losing, at the cell
 * `cellOf(x)` (a stone in column x would take it), adding the mark's legend line once;
 * away from Play (`playing` false) both are cleared.
 */
export function showHints(at, playing, h, cellOf) {
  for (const c of at.board.querySelectorAll('.losing')) c.classList.remove('losing');
  if (!playing || !h) { at.line.textContent = playing ? 'Solver: thinking…' : ''; return; }
  const { text, lose } = hintText(h);
  at.line.textContent = text;
  for (const x of lose) {
    const cell = cellOf(x);
    if (cell !== undefined) at.cells[cell].classList.add('losing');
  }
  if (at.board.querySelector('.losing') && !at.legend.querySelector('.legend-losing')) {
    const li = document.createElement('li');
    li.className = 'legend-losing';
    li.textContent = '✕ a Yellow move the solver proves losing';
    at.legend.append(li);
  }
  at.line.dataset.losing = lose.join('');
}
