// "Fill undecided cells": auto-complete in the Lab. The search runs in complete.worker.js; the board
// previews the live candidate (its levels in the ? cells) with the deepest losing line
// found so far drawn behind it; a found diagram is offered with Keep / Discard.

import { failure, rootValueText, searchControls, searchWorker } from './search.js';

/** How a losing line ends, in words, by the verifier's reason name. */
export const REASONS = { 'no-move': 'the diagram names no move', 'yellow-wins': 'Yellow wins', draw: 'a draw (the board fills)' };

/**
 * Wires the auto-complete controls. `host` gives: grid() (the diagram as text),
 * levels() (the level layer), undecided() (the ? cells not under a root stone), fixed() (the empty cells with a level), keep(cells) (apply levels for the ? cells), starting(who) (a search starts: the other is set
 * aside), ended(who) (it was kept or discarded), render().
 */
export function autoComplete(host) {
  const $ = (s) => document.querySelector(s);
  const ui = { run: $('#fill'), stop: $('#fill-stop'), keep: $('#fill-keep'), discard: $('#fill-discard'), status: $('#fill-status') };
  const search = searchWorker(
    new URL('./complete.worker.js', import.meta.url),
    (r) => !r.ok || r.state !== 'running',
    () => host.render(),
  );
  let seed = 1;

  function start() {
    const undecided = host.undecided();
    if (undecided === 0) return status('No ? cells to fill: right-click cells (or press ?) to undecide them first.');
    controls.starting('fill');
    search.start(host.grid(), { seed: seed++ });
    const wide = undecided > 20 ? ` That is a wide scope: it may run long; Stop at any time.` : '';
    startText = `Searching levels 0–9 for ${undecided} undecided cell${undecided === 1 ? '' : 's'}; every other cell stays pinned.${wide}`;
    status(startText);
    host.render();
  }
  // what the start said: it stands, with the clock, until the engine's first report
  let startText = '';
  function status(text) {
    ui.status.textContent = text;
  }

  // stopped before the first report: still say so
  const controls = searchControls(search, ui, host, start, { ok: true, state: 'stopped', candidates: 0, clauses: 0, positions: 0, ms: 0 });

  const fmt = (n) => n.toLocaleString('en');
  const count = (n, word) => `${fmt(n)} ${word}${n === 1 ? '' : 's'}`;
  const panel = {
    /** The candidate to draw instead of the ? cells, and the line behind it, or null. */
    preview() {
      const r = search.report;
      if (!r || !r.ok) return null;
      if (r.state === 'found') return { cells: r.cells, line: '' };
      // no completion wins: the last refuted candidate is no answer to show
      if (r.state === 'unsat') return null;
      const shown = r.live || r.deepest;
      if (!shown) return null;
      return { cells: shown.cells, line: r.deepest ? r.deepest.line : '' };
    },
    /** Forgets the search when the diagram it searched has changed. */
    diagramChanged(grid) {
      controls.diagramChanged(grid);
    },
    /** The other search was kept or discarded: a line saying it set this one aside goes. */
    otherEnded() {
      controls.otherEnded();
    },
    /** Ends the search and forgets its report because the search `other` started. */
    giveWayTo(other) {
      controls.giveWayTo(other);
    },
    /** Updates the controls and the status line. */
    render(hasUndecided) {
      const r = search.report;
      controls.render(hasUndecided);
      // no report: the start's words and the clock while it runs, else clear the line
      // once no search stands behind it
      if (!r && search.running) return status(`${startText} (${(search.elapsed() / 1000).toFixed(1)} s)`);
      if (!r) return controls.idle() ? status('') : undefined;
      if (!r.ok) return status(failure('Fill undecided cells', r));
      const counts = `${count(r.candidates, 'candidate')}, ${count(r.clauses, 'clause')}, ${count(r.positions, 'position')} encoded`;
      const deepest = r.deepest ? ` Deepest loss: ${REASONS[r.deepest.reason] ?? r.deepest.reason} after ${r.deepest.line || 'nothing'} (drawn on the board).` : '';
      const secs = ((search.elapsed() ?? r.ms) / 1000).toFixed(1);
      if (r.state === 'running') status(`Searching… ${counts}, ${secs} s.${deepest}`);
      else if (r.state === 'found') status(`Found a completion that verifies as a win (the verifier searched ${count(r.positions_verified, 'position')}); ${counts}, ${secs} s. Keep it, or Discard.`);
      else if (r.state === 'unsat') {
        // with no level cell pinned there is nothing else to change: the root is lost to
        // every diagram
        status(host.fixed() === 0
          ? `No diagram wins from this root: no levels 0–9 for its ${r.undecided} empty cells make a win (${counts}, ${secs} s).${rootValueText(r)}`
          : `No completion of these pinned cells wins: no levels 0–9 for the ${r.undecided === 1 ? '? cell makes' : `${r.undecided} ? cells make`} a win with every other cell as it is (${counts}, ${secs} s). Other pinned cells might.`);
      }
      else if (!r.candidates) status(`Stopped after ${secs} s, before the first candidate.`);
      else status(`Stopped after ${counts}, ${secs} s; the board shows the last candidate.${deepest} Discard to clear it.`);
    },
  };
  controls.tick((runnable) => panel.render(runnable));
  return panel;
}
