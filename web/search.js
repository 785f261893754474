// The life cycle Fill undecided cells and Solve whole root share: one worker per search, replies matched to
// the search that asked for them, Stop by terminating the worker.
import { isOff, markOff, offByItsPress, setOff, titled } from './buttons.js';

/**
 * The status line of a report with `ok: false`: the engine refused the diagram, or (with
 * `failed`) the engine or its worker failed; `what` names the search ("Solve whole root").
 */
/** What the root's value (`root_outcome`, `root_score` of an engine's unsat report about the root itself) says of it, as a sentence after a space, or ''. */
export function rootValueText(r) {
  if (!r.root_outcome) return '';
  const score = r.root_score == null ? '' : ` (score ${r.root_score > 0 ? '+' : ''}${r.root_score})`;
  const said = { loss: 'lost', draw: 'a draw', win: 'a win for Red' }[r.root_outcome];
  const so = r.root_outcome === 'win' ? ', but by no diagram of this language' : ': no strategy wins it, in any language';
  return ` The strong solver finds the root ${said} with best play${score}${so}.`;
}

export function failure(what, r) {
  const text = `${what} ${r.failed ? 'failed' : 'refused'}: ${r.error}`;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** What a shared slot holds while nothing is to stop: i32::MAX, "no ceiling". */
export const NO_STOP = 0x7fffffff;

/**
 * `n` i32 slots over a SharedArrayBuffer, each NO_STOP, that a worker's engine reads
 * while a call runs; null where the page is not cross-origin isolated (no shared memory).
 */
export function sharedSlots(n) {
  if (!globalThis.crossOriginIsolated || typeof SharedArrayBuffer !== 'function') return null;
  return new Int32Array(new SharedArrayBuffer(4 * n)).fill(NO_STOP);
}

/**
 * A search run in a fresh module worker at `url` per start. `finished(report)` says
 * whether a report ends the search; `changed()` runs after every report.
 */
export function searchWorker(url, finished, changed) {
  const s = { worker: null, id: 0, report: null, running: false, grid: null, t0: 0, stop: null };
  function end() {
    // a worker is ended only between two of its tasks, and a step may run long (a SAT
    // call, the strong solver's questions: a core busy up to 2 s after Stop): it is
    // first told through the shared slot it reads meanwhile, where there is one
    if (s.stop) Atomics.store(s.stop, 0, 0);
    if (s.worker) s.worker.terminate();
    s.worker = null;
    s.running = false;
  }
  /** Starts a search of `grid`, posting `{id, grid, ...message}` to a new worker. */
  function start(grid, message) {
    end();
    const id = ++s.id;
    s.report = null;
    s.running = true;
    s.grid = grid;
    s.t0 = performance.now();
    // a fresh slot per search
    s.stop = sharedSlots(1);
    s.worker = new Worker(url, { type: 'module' });
    s.worker.onmessage = (e) => {
      if (e.data.id !== id) return;
      s.report = e.data.report;
      if (finished(s.report)) {
        // the time the page waited, as the running clock counted it (the worker's own
        // leaves out loading the engine, and the clock would fall at the end)
        if (s.report.ok) s.report = { ...s.report, ms: performance.now() - s.t0 };
        end();
      }
      changed();
    };
    s.worker.onerror = (e) => {
      s.report = { ok: false, failed: true, error: `the search failed: ${e.message || 'the worker stopped'}` };
      end();
      changed();
    };
    s.worker.postMessage({ id, grid, ...message, stop: s.stop ? s.stop.buffer : null });
  }
  return searchHandle(s, end, start);
}

/**
 * What the controls drive, over a search's state `s` ({report, running, grid, t0: when
 * it started, on `performance.now()`'s clock}):
 * `end()` stops its workers, `start(grid, message)` starts it again, and `settle()`
 * (when given) may end a stopped search on a verdict it already has, returning true.
 */
export function searchHandle(s, end, start, settle = () => false) {
  return {
    /** The last report (or null). */
    get report() { return s.report; },
    /** Whether a search is running. */
    get running() { return s.running; },
    /** The diagram the current or last search was started on. */
    get grid() { return s.grid; },
    /**
     * Milliseconds since the running search started (reports come between the engine's
     * steps, which may take many seconds: the clock runs on between them), or null.
     */
    elapsed() { return s.running ? performance.now() - s.t0 : null; },
    start,
    /**
     * Stops a running search, keeping its last report (or `empty`) marked stopped, with
     * the time it ran until now (not until its last report).
     */
    stop(empty = null) {
      if (!s.running || settle()) return;
      const ms = performance.now() - s.t0;
      end();
      s.report = s.report ? { ...s.report, state: 'stopped', ms } : empty && { ...empty, ms };
    },
    /** Ends the search and forgets its report. */
    discard() {
      end();
      s.report = null;
    },
    /** Forgets the report (after its result was kept). */
    clear() {
      s.report = null;
    },
    /** Brings back a finished search's report for `grid` (see `diagramChanged`). */
    restore(grid, report) {
      if (s.running) return;
      s.grid = grid;
      s.report = report;
    },
  };
}

/**
 * Wires a search's buttons (`ui.run`, `ui.stop`, `ui.keep`, `ui.discard`): Run calls
 * `start`; Stop keeps the last report marked stopped (`stopped` when there is none);
 * Keep hands a found report's cells to `host.keep`; Discard forgets the search; after
 * either, `host.ended(who)` tells the other search. `host.grid()` is the diagram shown.
 * Returns what both panels do on every render and on every edit.
 */
export function searchControls(search, ui, host, start, stopped = null) {
  ui.run.addEventListener('click', start);
  // the focus moves on from Run to Stop as a search starts: a held Enter's repeats
  // would stop it at once (and Stop's would press whatever took the focus next)
  for (const button of [ui.run, ui.stop, ui.keep, ui.discard]) {
    button.addEventListener('keydown', (e) => {
      if (e.repeat) e.preventDefault();
    });
  }
  ui.stop.addEventListener('click', () => {
    search.stop(stopped);
    host.render();
  });
  // which search this is, as `starting` was told ('fill' or 'whole')
  let me = null;
  // an edit stopped the running search: the status line says so, and asks for a new
  // start only where one is possible (`render` knows)
  let stoppedByEdit = false;
  ui.discard.addEventListener('click', () => {
    search.discard();
    host.ended?.(me);
    host.render();
  });
  ui.keep.addEventListener('click', () => {
    const r = search.report;
    if (!r || r.state !== 'found') return;
    search.clear();
    host.ended?.(me);
    host.keep(r.cells);
  });
  // the status line says the search was set aside (or lost to an edit) until a start or
  // the next change of the diagram: `saidAt` is the diagram it was said for
  let asideSaid = false;
  let saidAt = null;
  // a finished search's answer an edit set aside, {grid, report}: it comes back when
  // the diagram does (Undo), until another search starts
  let parked = null;
  // what the last render was told, for the repaints between reports
  let lastRunnable = false;
  return {
    /**
     * Calls `repaint(runnable)` every second while a search runs: the status line's
     * clock runs on between the engine's reports, which a long round (or the start-up)
     * may hold back for many seconds.
     */
    tick(repaint) {
      setInterval(() => {
        if (search.running) repaint(lastRunnable);
      }, 1000);
    },
    /** Call as a search starts: `host.starting(who)` sets the other search aside. */
    starting(who) {
      me = who;
      asideSaid = false;
      stoppedByEdit = false;
      parked = null;
      host.starting(who);
    },
    /**
     * The search that set this one aside has been kept or discarded: the "set aside"
     * line has nothing behind it any more, so the next render clears it.
     */
    otherEnded() {
      if (!search.running && !search.report && !parked) asideSaid = false;
    },
    /**
     * Ends the search (or drops its answer) because the search named `other` started:
     * one runs at a time, and the board previews one answer. Says which in `ui.status`.
     */
    giveWayTo(other) {
      // a parked answer goes too, so its "Undo brings it back" line must go with it
      const hadParked = parked !== null;
      parked = null;
      const running = search.running;
      if (!running && !search.report && !hadParked) return;
      stoppedByEdit = false;
      // the diagram on the board (a parked answer's grid is an earlier one)
      saidAt = host.grid();
      search.discard();
      // (it said "Set aside", as if the run or its answer could come back: neither does)
      ui.status.textContent = running
        ? `Stopped: ${other} started, and one search runs at a time.`
        : `Discarded: ${other} started, and the board previews one answer at a time.`;
      asideSaid = true;
    },
    /**
     * Whether no search stands behind the status line any more (kept, discarded,
     * cancelled by an edit, stopped before a report), so it should be cleared.
     */
    idle() {
      return !search.report && !search.running && !asideSaid;
    },
    /** Enables the buttons for the search's state (`runnable`: Run may start one). */
    render(runnable) {
      lastRunnable = runnable;
      const r = search.report;
      if (stoppedByEdit && asideSaid && !search.running && !search.report) {
        ui.status.textContent = `Stopped: the diagram changed while the search ran, so its answer would not fit it.${runnable ? ' Start it again to search the new diagram.' : ''}`;
      }
      // a button that turns itself off (Run on start, Stop on stop, Keep on keep) would
      // leave the keyboard on a button that does nothing: the focus moves on to the next
      // button that is on (one the user moved to while it was off keeps it, as does one
      // the search's end turned off)
      const focused = [ui.run, ui.stop, ui.keep, ui.discard].find((b) => b === document.activeElement);
      const focusedWasOn = !isOff(focused);
      // a live region that changes every second while a search runs: screen readers
      // hold it until the search ends, then read the outcome once
      ui.status.setAttribute('aria-busy', String(search.running));
      markOff(ui.run, search.running || !runnable);
      // Run's other reasons (the root, no ? cell) are the page's: its title is set
      // before this render, so only a running search adds its own
      if (search.running) titled(ui.run, 'a search is running; Stop ends it');
      setOff(ui.stop, !search.running && 'no search is running');
      setOff(ui.keep, search.running ? 'the search is still running; Keep takes a found diagram'
        : r && r.state === 'found' ? '' : r ? 'the search found no diagram to keep' : 'no search has found a diagram');
      setOff(ui.discard, search.running ? 'the search is running; Stop it first' : !r && 'there is no search result to forget');
      // (Discard before Run: an Enter meant for the button that went off forgets, it
      // does not start a search)
      if (offByItsPress(focused, focusedWasOn)) [ui.stop, ui.keep, ui.discard, ui.run].find((b) => !isOff(b))?.focus();
    },
    /** Forgets the search when the diagram it searched has changed. */
    diagramChanged(grid) {
      if (asideSaid && !search.running && !search.report && grid !== saidAt) {
        asideSaid = false; // the message was about another diagram: the render clears it
        stoppedByEdit = false;
      }
      if ((search.running || search.report) && grid !== search.grid) {
        const wasRunning = search.running;
        const done = search.report;
        const at = search.grid;
        search.discard();
        // a search lost to a stray click says so, rather than vanish
        const answer = done && done.ok && (done.state === 'found' || done.state === 'unsat');
        // (the line for a stopped search is written by the render below)
        stoppedByEdit = wasRunning;
        // (a running race may report a verdict its other search can still beat: only a
        // finished search's answer is parked)
        if (answer && !wasRunning) {
          parked = { grid: at, report: done };
          ui.status.textContent = 'Set aside: the diagram changed after the search ended, so its answer no longer fits it. Undo (or Redo) back to that diagram brings the answer back.';
        }
        asideSaid = wasRunning || answer;
        saidAt = grid;
        host.render();
      } else if (parked && !search.running && !search.report && grid === parked.grid) {
        search.restore(parked.grid, parked.report);
        parked = null;
        asideSaid = false;
        host.render();
      }
    },
  };
}
