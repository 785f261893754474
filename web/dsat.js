// "Solve whole root": the whole-root solve (dsat) in the Lab. It runs in dsat.worker.js with
// the same Rust as `c4lab dsat` (pure-Rust SAT backend) under a state budget the browser
// can hold, as the native race of two searches, one worker each (race.js); a gauge
// shows the share of that budget the map has used (full means overflow, not done), then
// the rounds with their dead ends and settled variables. A found diagram, already
// re-verified, is previewed and offered with Keep / Discard.

import { raceWorkers } from './race.js';
import { markOff, setOff, titled } from './buttons.js';
import { failure, rootValueText, searchControls } from './search.js';

/** Positions the browser may map: its memory budget (a few hundred MB at most). */
export const BROWSER_MAX_STATES = 300000;
/** Plies below the root that are mapped before solving (`c4lab dsat`'s default `--cut`). */
export const CUT_PLIES = 16;
/**
 * What the engine maps at first, and the rounds before it maps to CUT_PLIES (the engine's
 * defaults, `c4lab dsat`'s `--first-cut` and `--deepen-after`: said, not passed).
 */
export const FIRST_CUT_PLIES = 8;
export const DEEPEN_AFTER = 500;
/**
 * The searches raced, as `c4lab dsat`'s default `--widen-after 0,3000`: the first's
 * level budget grows only on proof, the second's also after 3,000 dead ends (and the
 * engine maps the second's first cut two plies deeper, as natively).
 */
export const WIDEN_AFTER = [0, 3000];

/**
 * Wires the controls. `host` gives: grid() (the diagram as text), levels() (the level
 * layer), undecided() (the ? cells not under a root stone), fixed() (the empty cells with a level), keep(cells) (apply levels for the ? cells), starting(who) (a search starts: the other is set
 * aside), ended(who) (it was kept or discarded), render().
 */
export function wholeRoot(host) {
  const $ = (s) => document.querySelector(s);
  const ui = { run: $('#dsat'), stop: $('#dsat-stop'), keep: $('#dsat-keep'), discard: $('#dsat-discard'), status: $('#dsat-status'), gauge: $('#dsat-gauge'), fewest: $('#dsat-fewest'), local: $('#dsat-local') };
  // a checkbox's words are its label's title, for the mouse over the label; the box has
  // them too, as its description to a screen reader (a label's title is no part of it)
  for (const box of [ui.fewest, ui.local]) box.title = box.parentElement.title;
  // the level budget of the running solve: 1 (fewest levels) or 10 (every level at once)
  let firstLevels = 1;
  const search = raceWorkers(new URL('./dsat.worker.js', import.meta.url), WIDEN_AFTER, () => host.render());

  function start() {
    firstLevels = ui.fewest.checked ? 1 : 10;
    controls.starting('whole');
    // unchecked: no local search (the engine's default budget otherwise)
    search.start(host.grid(), { cut: CUT_PLIES, maxStates: BROWSER_MAX_STATES, firstLevels, localWork: ui.local.checked ? null : 0 });
    const free = host.undecided();
    const over = firstLevels < 10 ? 'level 0 at first, one more level each time no diagram fits (up to 0–9)' : 'levels 0–9';
    // near the empty board the map grows slowly (each position asks the strong solver)
    const stones = [...host.grid()].filter((c) => c === 'R' || c === 'Y').length;
    const wide = stones < 12 ? ` With ${stones} stone${stones === 1 ? '' : 's'} on the board that is a wide scope: mapping may take minutes and overflow the budget; Stop at any time, or add stones.` : '';
    // (the local search, when ticked, reports only once the engine has loaded)
    const first = ui.local.checked ? 'A local search first, then mapping' : 'Mapping';
    // (the first map is FIRST_CUT_PLIES deep, not CUT_PLIES: said so, as natively)
    const depth = `${FIRST_CUT_PLIES} plies below the root (${CUT_PLIES} if ${DEEPEN_AFTER} rounds leave the root open)`;
    // (with no ? cell there is nothing to map: it said "0 ? cells free over level 0")
    startText = free === 0
      ? 'No ? cells: the verifier judges the diagram as it stands.'
      : `${first} every position Red could face down to ${depth}; ${free} ? cell${free === 1 ? '' : 's'} free over ${over}, the others pinned.${wide}`;
    status(startText);
    host.render();
  }
  // what the start said: it stands, with the clock, until the engine's first report
  let startText = '';
  function status(text) {
    ui.status.textContent = text;
  }

  const controls = searchControls(search, ui, host, start, { ok: true, state: 'stopped', positions: 0, ms: 0, before_report: true });

  const fmt = (n) => Number(n).toLocaleString('en');
  // what is proved about the levels of a found diagram (a budget that grew after its
  // dead ends, not on proof, proves nothing)
  const fewest = (r) => {
    const least = r.least_levels ?? r.levels;
    return least > 1 ? `, and no diagram keeping them below level ${least - 1} wins` : '';
  };
  const panel = {
    /** The found diagram's levels to draw instead of the ? cells, or null. */
    preview() {
      const r = search.report;
      return r && r.ok && r.state === 'found' ? { cells: r.cells, line: '' } : null;
    },
    /** Forgets the solve when the diagram it solved has changed. */
    diagramChanged(grid) {
      controls.diagramChanged(grid);
    },
    /** The other search was kept or discarded: a line saying it set this one aside goes. */
    otherEnded() {
      controls.otherEnded();
    },
    /** Ends the solve and forgets its report because the search `other` started. */
    giveWayTo(other) {
      controls.giveWayTo(other);
    },
    /** The verdict so far, for tests and scripts: the last report or null. */
    report: () => search.report,
    /** Updates the controls, the gauge and the status line. */
    render(hasRoot) {
      const r = search.report;
      // Keep takes the focus in the controls' render when a press of Stop ends a solve
      // that has found, and goes off below where there is nothing to fill: the focus then
      // moves on (one the user moved to Keep while it was off keeps it)
      const keepHadFocus = document.activeElement === ui.keep;
      controls.render(hasRoot);
      // the settings are read at the start: changed mid-search they would say nothing
      for (const box of [ui.fewest, ui.local]) {
        markOff(box, search.running);
        const why = search.running && 'a search is running; the setting is read when one starts';
        titled(box.parentElement, why);
        titled(box, why);
      }
      // a map that overflowed leaves the gauge full: "full means overflow", as the
      // README says (it was hidden at the verdict, so a full bar was never seen)
      const overflowed = r && r.state === 'budget' && r.positions >= BROWSER_MAX_STATES;
      ui.gauge.hidden = !(r && (r.state === 'mapping' || overflowed));
      if (overflowed) {
        ui.gauge.setAttribute('aria-label', 'Share of the state budget mapped: all of it, overflowed');
        ui.gauge.max = BROWSER_MAX_STATES;
        ui.gauge.value = BROWSER_MAX_STATES;
      }
      // no report: the start's words and the clock while it runs (near the empty board
      // the first report may take seconds), else clear the line once no search stands
      // behind it
      if (!r && search.running) return status(`${startText} (${(search.elapsed() / 1000).toFixed(1)} s)`);
      if (!r) return controls.idle() ? status('') : undefined;
      if (!r.ok) return status(failure('Solve whole root', r));
      const secs = ((search.elapsed() ?? r.ms) / 1000).toFixed(1);
      const count = (n, word) => `${fmt(n)} ${word}${Number(n) === 1 ? '' : 's'}`;
      const counts = `${count(r.positions, 'position')}, ${count(r.conflicts ?? 0, 'dead end')}, ${count(r.settled ?? 0, 'settled variable')}`;
      const budget = firstLevels < 10 && r.levels ? (r.levels === 1 ? 'level 0' : `levels 0–${r.levels - 1}`) : '';
      const second = r.entrants && r.entrants[1];
      const beside = second && second.started_at > 0
        ? `; a second search beside it (its budget also grows after ${fmt(WIDEN_AFTER[1])} dead ends), from the first's ${fmt(second.started_at)}: ${second.local ? 'its local search' : second.state === 'mapping' ? 'mapping its own first cut' : `${fmt(second.conflicts)} dead ends`}`
        : '';
      // once the first search has ended, the race may wait on the second (which could
      // still win): say what the first ended with, and what the second is doing
      const ended = { found: 'found a diagram', unsat: 'proved that no diagram wins', budget: 'ran out of budget' }[r.entrants?.[0]?.state] ?? 'ended';
      // (only while it runs: a report kept by Stop says it stopped, below)
      if (r.waiting_on && r.local_budget == null && ['searching', 'mapping', 'waiting'].includes(r.state)) {
        const what = r.state === 'searching' ? `round ${r.round}, ${count(r.conflicts ?? 0, 'dead end')}`
          : r.state === 'mapping' ? `mapping its own first cut, ${fmt(r.positions)} positions` : 'starting';
        if (r.state === 'mapping') {
          ui.gauge.setAttribute('aria-label', 'Share of the state budget mapped');
          ui.gauge.max = r.max_states;
          ui.gauge.value = r.positions;
        }
        // with no verdict to beat any verdict of the second's stands; a second not yet
        // started has no count of its own to stop at
        const why = r.ceiling == null
          ? 'runs on'
          : `runs on while its count of dead ends stays below the first's (it stops at ${fmt(r.ceiling)} of its own; a tie goes to the first)`;
        return status(`The first search ${ended}; the second search ${why}: ${what} (${secs} s).`);
      }
      const won = r.winner ? ` by the second search (from the first's ${fmt(r.started_at)} dead ends, its budget also growing after ${fmt(WIDEN_AFTER[1])})` : '';
      switch (r.state) {
        case 'mapping':
          if (r.local_budget != null) {
            // the first search has ended: a diagram this local search finds would still
            // win, but only with less work than the first's own local find took, where
            // that is how the first found (the race's ceiling: it stops there)
            const limited = r.waiting_on && r.ceiling != null && r.ceiling < r.local_budget;
            const limit = limited ? r.ceiling : r.local_budget;
            ui.gauge.setAttribute('aria-label', limited ? "Share of the work the second search's local search may still win with" : "Share of the local search's work budget spent");
            ui.gauge.max = limit;
            ui.gauge.value = r.local_work;
            // a fault: a position the diagram reaches where it names no move, or one that
            // does not keep the win
            const faults = r.local_faults == null ? '' : `, its best diagram so far failing at ${count(r.local_faults, 'position')}`;
            const why = limited
              ? `runs on while its work stays below the first's (it stops at ${fmt(r.ceiling)} units of work; a tie goes to the first)`
              : 'which would win with a diagram, runs on to its budget';
            const whose = r.waiting_on ? `The first search ${ended}; the second search's local search ${why}: ` : 'Local search before mapping: ';
            return status(`${whose}${count(r.local_steps, 'repair step')}${faults}, ${fmt(r.local_work)} of ${fmt(limit)} units of work (${secs} s).`);
          }
          ui.gauge.setAttribute('aria-label', 'Share of the state budget mapped');
          ui.gauge.max = r.max_states;
          ui.gauge.value = r.positions;
          return status(`Mapping: ${fmt(r.positions)} of the ${fmt(r.max_states)} positions the browser's budget allows (${secs} s).`);
        case 'searching':
          return status(`Searching: round ${r.round}, ${counts}${budget ? `, ? cells over ${budget}` : ''}${beside} (${secs} s).`);
        case 'found': {
          // the levels the ? cells take (a budget that grew unproved may be wider)
          const given = host.levels();
          if (host.undecided() === 0) {
            // (turned off after the controls' render: the focus moves on as it does there)
            if (document.activeElement === ui.keep && !keepHadFocus) ui.discard.focus();
            setOff(ui.keep, 'the diagram has no ? cell for it to fill');
            return status(`This diagram has no ? cells, so Solve whole root had nothing to fill: as it stands it verifies as a win (${secs} s).`);
          }
          // (from 1 and up when a pinned cell holds level 0: the budget counts from 0; a 9
          // is a level too: a local search starts odd rows at 9, and over pinned a-d cells
          // a 9 is a cell Red plays)
          // (a span only where no level is skipped: "levels 0–9" read as ten levels where
          // a local search's cells took four, 0, 1, 3 and 9)
          const filled = [...r.cells].filter((c, i) => given[i] === '?' && /[0-9]/.test(c)).map(Number);
          const levels = [...new Set(filled)].sort((a, b) => a - b);
          const [low, top] = [levels[0], levels.at(-1)];
          const listed = levels.length === top - low + 1 ? `${low}–${top}` : `${levels.slice(0, -1).join(', ')} and ${top}`;
          const taken = firstLevels < 10 && levels.length ? (low === top ? `level ${top}` : `levels ${listed}`) : '';
          const how = r.local_found
            ? `by the ${r.winner ? "second search's " : ''}local search (${count(r.local_steps, 'repair step')}, ${secs} s)`
            : `${won} (${fmt(r.positions)} positions encoded, ${r.round} round${r.round === 1 ? '' : 's'}, ${secs} s)`;
          return status(`Found a diagram that verifies as a win${how.startsWith('by') ? ' ' : ''}${how}${taken ? `; its ? cells take ${taken}${fewest(r)}` : ''}. Keep it, or Discard.`);
        }
        case 'unsat':
          if (host.undecided() === 0) {
            return status(`This diagram has no ? cells, so Solve whole root had nothing to fill: as it stands it does not win, and the verdict under the board says where it loses (${secs} s).`);
          }
          {
            // with no level cell pinned the answer is about the root itself
            const which = host.fixed() === 0 ? ' (every empty cell free over levels 0–9)' : ' with these pinned cells (levels 0–9 for the ? cells)';
            return status(`No diagram wins from this root${which}, ${secs} s. Sound for the language, not independently audited.${rootValueText(r)}`);
          }
        case 'budget':
          // the state budget, or else the engine's cap on rounds
          return status(r.positions >= BROWSER_MAX_STATES
            ? `Out of budget after ${secs} s: the map needs more than ${fmt(BROWSER_MAX_STATES)} positions, the browser's memory budget. Pin some cells, or run c4lab dsat natively.`
            : `Out of budget after ${secs} s: ${fmt(r.round)} rounds without a verdict, the engine's cap (${counts}). Pin some cells, or run c4lab dsat natively.`);
        default:
          // stopped in a local search (nothing mapped yet: say what it did), before the
          // engine's first report, or in the SAT search
          if (r.local_budget != null) {
            return status(`Stopped after ${secs} s, in the local search before mapping: ${count(r.local_steps, 'repair step')}, ${fmt(r.local_work)} of ${fmt(r.local_budget)} units of work.`);
          }
          if (r.before_report) return status(`Stopped after ${secs} s, before the engine's first report.`);
          // (where the search had got to: its round and the levels it was trying)
          return status(`Stopped after ${secs} s${r.round ? ` in round ${r.round}` : ''}${budget ? `, ? cells over ${budget}` : ''} (${counts}).`);
      }
    },
  };
  controls.tick((runnable) => panel.render(runnable));
  return panel;
}
