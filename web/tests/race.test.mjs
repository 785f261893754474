// Solve whole root's race judge (web/race.js) with stand-in workers the test drives, so each
// rule of the native race (crates/dsat/src/race.rs) is checked on exact counts, with no
// timing involved. Run by scripts/test with the browser tests.
import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { raceWorkers } from '../race.js';
import { bin } from './lab.mjs';

/** A worker that records what it is sent; the test posts its reports. */
class StandIn {
  static made = [];
  constructor(url, options) {
    this.url = String(url);
    this.options = options;
    this.sent = [];
    this.terminated = false;
    StandIn.made.push(this);
  }
  postMessage(m) { this.sent.push(m); }
  terminate() {
    this.terminated = true;
    // what its slot of the shared ceilings held as it was ended (none: not isolated)
    const { shared, slot, stop } = this.sent[0] ?? {};
    this.slotAtEnd = shared ? new Int32Array(shared)[slot] : null;
    // (a searchWorker's one slot: Fill undecided cells' stop)
    this.stopAtEnd = stop ? new Int32Array(stop)[0] : null;
  }
  /** Posts a report as the worker would. */
  report(r) {
    assert.equal(this.terminated, false, 'a terminated worker cannot report');
    this.onmessage({ data: { id: this.sent[0].id, report: { ok: true, ...r } } });
  }
  /** The ceilings the page sent it. */
  ceilings() { return this.sent.filter((m) => m.ceiling !== undefined).map((m) => m.ceiling); }
  /** The local search's ceilings the page sent it. */
  localCeilings() { return this.sent.filter((m) => m.localCeiling !== undefined).map((m) => m.localCeiling); }
  /** True once the page let its SAT search go. */
  released() { return this.sent.some((m) => m.release === true); }
}
globalThis.Worker = StandIn;

let changes;
beforeEach(() => {
  StandIn.made = [];
  changes = 0;
});
const newRace = () => raceWorkers('dsat.worker.js', [0, 3000], () => { changes += 1; });
const searching = (conflicts, widest, more = {}) => ({ state: 'searching', round: 1, positions: 10, conflicts, settled: 0, levels: 1, widest, released_at: null, ...more });
const found = (conflicts, widest, more = {}) => ({ state: 'found', round: 2, positions: 10, conflicts, levels: 3, least_levels: 3, widest, cells: 'x'.repeat(42), released_at: null, ...more });
const local = (work) => ({ state: 'mapping', positions: 0, local_steps: 5, local_faults: 3, local_work: work, local_budget: 10000000, released_at: null });
const foundLocally = (work) => ({ state: 'found', round: 0, positions: 0, conflicts: 0, levels: 6, least_levels: 1, widest: 0, local_steps: 40, local_work: work, local_found: true, cells: 'x'.repeat(42), released_at: null });
const waiting = { state: 'waiting', positions: 0 };
const unsat = (conflicts, more = {}) => ({ state: 'unsat', round: 3, positions: 10, conflicts, levels: 10, least_levels: 10, widest: 800, released_at: null, ...more });

/** A race just started: both workers made, neither has reported. */
function started() {
  const race = newRace();
  race.start('grid', {});
  const [first, second] = StandIn.made.slice(-2);
  return { race, first, second };
}

/** A race whose first search has let the second go at its 1,000th dead end. */
function released() {
  const { race, first, second } = started();
  second.report(waiting);
  first.report(searching(1000, 1500, { released_at: 1000 }));
  return { race, first, second };
}

test('the second search\'s SAT search starts at the first\'s release mark and counts from it, each of its dead ends twice; the lowest count wins', () => {
  const race = newRace();
  race.start('grid', { cut: 16, maxStates: 1000, firstLevels: 1 });
  const [first, second] = StandIn.made;
  assert.equal(first.sent[0].widenAfter, 0);
  assert.equal(first.sent[0].releaseAt, 1500, 'half the head start');
  // both start at once, each its own entrant (its local search's streams); the second
  // holds after its local search
  assert.deepEqual([first.sent[0].slot, first.sent[0].hold], [0, false]);
  assert.deepEqual([second.sent[0].slot, second.sent[0].hold], [1, true]);
  assert.equal(second.sent[0].widenAfter, 3000);
  assert.equal(second.sent[0].releaseAt, Infinity);
  second.report(local(2000000));
  second.report(waiting);
  first.report(searching(900, 900));
  assert.equal(second.released(), false, 'not released before a budget took 1,500');
  first.report(searching(2000, 1600, { released_at: 2000 }));
  assert.equal(second.released(), true);
  second.report(found(3000, 3000));
  // its count is 2,000 + 2 x 3,000: the first may still win with 8,000 dead ends (a
  // tie goes to it), not with 8,001
  assert.deepEqual(first.ceilings(), [8001]);
  assert.equal(race.running, true);
  assert.equal(race.report.state, 'searching', 'not judged while the first can still win');
  first.report({ state: 'stopped', conflicts: 8001, widest: 3000, released_at: 2000 });
  assert.equal(race.running, false);
  assert.equal(race.report.state, 'found');
  assert.equal(race.report.winner, 1);
  assert.equal(race.report.started_at, 2000);
  assert.equal(race.report.conflicts, 3000);
  assert.deepEqual(race.report.entrants.map((e) => [e.state, e.conflicts, e.started_at]), [['stopped', 8001, 0], ['found', 3000, 2000]]);
  assert.ok(StandIn.made.every((w) => w.terminated));
});

test('with the widening search first, the second counts from the first\'s weighted count', () => {
  const race = raceWorkers('dsat.worker.js', [3000, 0], () => {});
  race.start('grid', {});
  const [first, second] = StandIn.made;
  second.report(waiting);
  first.report(searching(1000, 1500, { released_at: 1000 }));
  assert.equal(second.released(), true);
  // the first's 1,000 dead ends count 2,000; the second's count 2,000 + 500
  second.report(found(500, 500));
  assert.deepEqual(first.ceilings(), [1251], 'the first may still win with 2 x 1,250 (a tie goes to it)');
  first.report({ state: 'stopped', conflicts: 1251, widest: 1500, released_at: 1000 });
  assert.equal(race.report.winner, 1);
  assert.equal(race.report.started_at, 2000);
});

test('a tie goes to the first search', () => {
  const { race, first, second } = released();
  first.report(found(4000, 3500, { released_at: 1000 }));
  assert.deepEqual(second.ceilings(), [1500], 'the second loses once its count, 1,000 + 2 x its own, reaches 4,000');
  second.report(found(1500, 1500));
  assert.equal(race.report.winner, 0);
  assert.equal(race.report.conflicts, 4000);
});

/** The race is over: the first search's verdict stands and the second was stopped. */
function firstWonSecondStopped(race) {
  assert.equal(race.running, false);
  assert.equal(race.report.winner, 0);
  assert.deepEqual(race.report.entrants.map((e) => e.state), ['found', 'stopped']);
}

test('a search whose count has passed a verdict is stopped at once', () => {
  const { race, first, second } = released();
  second.report(searching(1600, 1600));
  first.report(found(4000, 3500, { released_at: 1000 }));
  assert.equal(second.terminated, true, 'the second, at 1,000 + 2 x 1,600, cannot win');
  firstWonSecondStopped(race);
});

test('once let go the second search runs on to its ceiling, even when the first finishes soon after', () => {
  const race = newRace();
  race.start('grid', {});
  const [first] = StandIn.made;
  first.report(searching(1700, 1600, { released_at: 1700 }));
  const second = StandIn.made[1];
  first.report(found(2500, 2400, { released_at: 1700 }));
  // it maps its own first cut, so it may still finish with fewer: 1,700 + 2 x 399
  assert.equal(second.terminated, false);
  assert.deepEqual(second.ceilings(), [400]);
  assert.equal(race.running, true);
  second.report(found(399, 399));
  assert.equal(race.report.winner, 1);
  assert.equal(race.report.conflicts, 399);
});

test('the second search\'s SAT search never starts on a root the first settles before letting it go', () => {
  const { race, first, second } = started();
  first.report(searching(900, 900));
  first.report(found(1400, 1400));
  // its local search may still find a diagram, which would win: not judged yet
  assert.equal(race.running, true);
  second.report(local(5000000));
  assert.equal(second.terminated, false);
  second.report(waiting);
  assert.equal(second.released(), false);
  assert.equal(second.terminated, true);
  assert.equal(race.running, false);
  assert.equal(race.report.winner, 0);
  assert.deepEqual(race.report.entrants.map((e) => [e.state, e.conflicts]), [['found', 1400], ['stopped', 0]]);
});

test('a report of the second search before the first has reported shows nothing yet', () => {
  const { race, first, second } = started();
  second.report(waiting);
  assert.equal(race.report, null);
  first.report(local(1000));
  assert.equal(race.report.ok, true);
  assert.equal(race.report.local_work, 1000);
});

test('with every level open from the start the first search runs alone, as natively', () => {
  const race = newRace();
  race.start('grid', { firstLevels: 10 });
  assert.equal(StandIn.made.length, 1);
  StandIn.made[0].report(found(700, 0));
  assert.equal(race.running, false);
  assert.equal(race.report.winner, 0);
  assert.equal(race.report.entrants.length, 1);
});

test('a diagram a local search finds wins over a SAT verdict found sooner', () => {
  const { race, first, second } = started();
  first.report(local(9000000));
  first.report(found(1200, 1200));
  assert.equal(race.running, true, 'the second\'s local search runs on');
  second.report(foundLocally(12000000));
  assert.equal(race.running, false);
  assert.equal(race.report.winner, 1);
  assert.equal(race.report.local_found, true);
  assert.deepEqual(race.report.entrants.map((e) => e.state), ['found', 'found']);
});

test('among local finds the least work wins, the first on a tie; the others stop where they cannot win', () => {
  // the second finds first: the first may still win with work up to 4,000,000
  let { race, first, second } = started();
  first.report(local(3000000));
  second.report(foundLocally(4000000));
  assert.deepEqual(first.localCeilings(), [4000001]);
  assert.deepEqual(first.ceilings(), [0], 'no SAT verdict of the first can win now');
  assert.equal(first.terminated, false);
  first.report(foundLocally(4000000));
  assert.equal(race.report.winner, 0, 'a tie goes to the first');
  // the first finds first: the second's local search stops once its work reaches it
  ({ race, first, second } = started());
  first.report(foundLocally(4000000));
  assert.deepEqual(second.localCeilings(), [4000000]);
  second.report(local(3999999));
  assert.equal(second.terminated, false);
  second.report(local(4000000));
  assert.equal(second.terminated, true);
  assert.equal(race.running, false);
  assert.equal(race.report.winner, 0);
  assert.equal(race.report.local_work, 4000000);
});

test('a local find stops a SAT search already running, and counts from 0', () => {
  const { race, first, second } = started();
  second.report(local(1000000));
  first.report(searching(1000, 1500, { released_at: 1000 }));
  // let go while its local search still runs: its SAT search would count from 1,000
  assert.equal(second.released(), true);
  second.report(foundLocally(15000000));
  assert.deepEqual(first.ceilings(), [0], 'no SAT verdict of the first can win now');
  assert.equal(first.terminated, true);
  assert.equal(race.running, false);
  assert.equal(race.report.winner, 1);
  assert.equal(race.report.started_at, 0, 'a local find counts from 0, as natively');
  assert.deepEqual(race.report.entrants.map((e) => e.started_at), [0, 0]);
});

test('unsat ends the local searches still running, not the SAT searches that may still win', () => {
  // the first proves unsat before letting the second go: the second's local search
  // cannot win, nor its SAT search, which waits for a release that never comes, so it
  // ends at once (it was waited for until it reported waiting)
  let { race, first, second } = started();
  second.report(local(2000000));
  first.report(unsat(800));
  assert.deepEqual(second.localCeilings(), [0]);
  assert.equal(second.terminated, true);
  assert.equal(race.running, false);
  assert.equal(race.report.state, 'unsat');
  assert.equal(race.report.winner, 0);
  // let go while its local search ran: its SAT search goes on and proves unsat with a
  // lower count, so it wins
  ({ race, first, second } = started());
  second.report(local(2000000));
  first.report(searching(4366, 1600, { released_at: 4366 }));
  first.report(unsat(17793, { released_at: 4366 }));
  assert.deepEqual(second.localCeilings(), [0]);
  assert.deepEqual(second.ceilings(), [Math.ceil((17793 - 4366) / 2)]);
  assert.equal(second.terminated, false);
  second.report(local(2100000));
  assert.equal(second.terminated, false, 'its SAT search may still win');
  second.report(searching(5000, 5000));
  second.report(unsat(6000));
  assert.equal(race.running, false);
  assert.equal(race.report.winner, 1);
  assert.equal(race.report.started_at, 4366);
});

test('after the first search\'s verdict the page shows the local search it waits for', () => {
  const { race, first, second } = started();
  second.report(local(2000000));
  first.report(found(1200, 1200));
  assert.equal(race.running, true);
  second.report(local(3000000));
  assert.equal(race.report.waiting_on, 1);
  assert.equal(race.report.local_work, 3000000);
  assert.equal(race.report.winner, null);
  assert.deepEqual(race.report.entrants.map((e) => e.local), [false, true]);
});

test('a verdict of the first search before the second\'s first report shows the race waiting, not found', () => {
  // (the first's report was shown as it stood: "Found a diagram... Keep it" while the
  // second, not yet started, could still win with its local search)
  const { race, first, second } = started();
  first.report(foundLocally(5000));
  assert.equal(race.running, true);
  assert.equal(race.report.state, 'waiting');
  assert.equal(race.report.waiting_on, 1);
  assert.equal(race.report.ceiling, null);
  assert.equal(race.report.winner, null);
  assert.equal(race.report.cells, undefined, 'no diagram to preview yet');
  assert.deepEqual(race.report.entrants.map((e) => e.state), ['found', 'starting']);
  // the second's own reports are shown once they come, and the race is judged as before
  second.report(local(3000));
  assert.equal(race.report.waiting_on, 1);
  assert.equal(race.report.local_work, 3000);
  second.report(foundLocally(4000));
  assert.equal(race.running, false);
  assert.equal(race.report.state, 'found');
  assert.equal(race.report.winner, 1);
});

test('the race waiting on a search not started keeps the first\'s counts, which Stop says', () => {
  const { race, first } = started();
  first.report({ state: 'budget', round: 9, positions: 77, conflicts: 2000, settled: 5, max_states: 100, released_at: null });
  assert.equal(race.running, true, 'the second\'s local search may still find a diagram');
  assert.equal(race.report.state, 'waiting');
  assert.deepEqual([race.report.positions, race.report.conflicts, race.report.settled, race.report.max_states], [77, 2000, 5, 100]);
  race.stop();
  assert.equal(race.report.state, 'stopped');
  assert.deepEqual([race.report.positions, race.report.conflicts], [77, 2000]);
});

test('a search that can no longer win is not waited for: no release to come and nothing its local search could win', () => {
  // the first proves unsat before its release mark: the second's SAT search never
  // starts and no local search can find a diagram (the race waited for its first report)
  let { race, first } = started();
  first.report(unsat(500));
  assert.equal(race.running, false);
  assert.equal(race.report.state, 'unsat');
  assert.equal(race.report.winner, 0);
  assert.deepEqual(race.report.entrants.map((e) => e.state), ['unsat', 'stopped']);
  // the same with the local searches off and a diagram found before the mark
  race = newRace();
  race.start('grid', { localWork: 0 });
  [first] = StandIn.made.slice(-2);
  first.report(found(300, 300));
  assert.equal(race.running, false);
  assert.equal(race.report.winner, 0);
  // with its local search on, a second not started may still win against a SAT find
  ({ race, first } = started());
  first.report(found(300, 300));
  assert.equal(race.running, true);
});

test('with no verdict the search that ran out of budget stands for the race', () => {
  const { race, first, second } = released();
  second.report({ state: 'budget', conflicts: 500, widest: 500 });
  first.report({ state: 'stopped', conflicts: 9000, widest: 4000, released_at: 1000 });
  assert.equal(race.report.state, 'budget');
  assert.equal(race.report.winner, null);
});

test('Stop keeps a verdict one search already has, as natively', () => {
  const { race, first, second } = released();
  second.report(found(3000, 3000));
  assert.equal(race.running, true);
  race.stop();
  assert.equal(race.running, false);
  assert.equal(race.report.state, 'found');
  assert.equal(race.report.winner, 1);
  assert.ok(first.terminated);
  // without a verdict, Stop keeps the last report, marked stopped
  race.start('grid', {});
  StandIn.made[2].report(searching(100, 100));
  race.stop();
  assert.equal(race.report.state, 'stopped');
  assert.equal(race.report.conflicts, 100);
});

test('a search ended mid-call is first told, through its shared slot, that it has no dead end left', () => {
  // (where the page is cross-origin isolated: a worker's call runs on up to 2 s after
  // terminate(), and a solve-verify round is one call)
  globalThis.crossOriginIsolated = true;
  try {
    const { race, first, second } = released();
    assert.ok(first.sent[0].shared instanceof SharedArrayBuffer);
    const slots = new Int32Array(first.sent[0].shared);
    // the first's verdict at 2,000 leaves the second 500 dead ends of its own
    first.report(found(2000, 2000, { released_at: 1000 }));
    assert.deepEqual([...slots], [0x7fffffff, 500]);
    assert.equal(first.slotAtEnd, 0x7fffffff, 'a finished search is not told');
    second.report(searching(500, 500));
    assert.equal(second.slotAtEnd, 0, 'retired');
    assert.equal(race.report.winner, 0);
    // Stop ends every search so
    race.start('grid', {});
    const [a, b] = StandIn.made.slice(-2);
    a.report(searching(100, 100));
    race.stop();
    assert.deepEqual([a.slotAtEnd, b.slotAtEnd], [0, 0]);
  } finally {
    delete globalThis.crossOriginIsolated;
  }
});

test('a diagram found and a proof that none exists in one race are an error, as natively', () => {
  const { race, first, second } = released();
  second.report(found(3000, 3000));
  first.report(unsat(2000, { released_at: 1000 }));
  assert.equal(race.running, false);
  assert.equal(race.report.ok, false);
  assert.match(race.report.error, /found a winning diagram \(verified\) and another proved that none exists/);
});

test('an error ends the race and every worker; a new race forgets the old one\'s reports', () => {
  const { race, first, second } = released();
  second.onmessage({ data: { id: second.sent[0].id, report: { ok: false, error: 'out of memory' } } });
  assert.equal(race.running, false);
  assert.equal(race.report.ok, false);
  assert.ok(first.terminated && second.terminated);
  race.start('other grid', {});
  const before = changes;
  // a late report of the old race is ignored
  first.onmessage({ data: { id: first.sent[0].id, report: { ok: true, ...found(10, 10) } } });
  assert.equal(changes, before);
  assert.equal(race.report, null);
});

test('Fill undecided cells\' Stop writes 0 into the slot its engine reads during a SAT call, before the worker is ended', async () => {
  const { searchWorker } = await import('../search.js');
  const search = searchWorker('complete.worker.js', (r) => r.state !== 'running', () => {});
  // not isolated: no slot, and the worker is simply ended
  search.start('grid', {});
  let worker = StandIn.made.at(-1);
  assert.equal(worker.sent[0].stop, null);
  search.stop();
  assert.equal(worker.terminated, true);
  globalThis.crossOriginIsolated = true;
  try {
    // (a step ran on up to 2 s after Stop, a core busy)
    search.start('grid', {});
    worker = StandIn.made.at(-1);
    assert.equal(new Int32Array(worker.sent[0].stop)[0], 0x7fffffff, 'no stop yet');
    search.stop();
    assert.equal(worker.stopAtEnd, 0, 'told before it was ended');
    // a new search has a slot of its own, not the old one's 0
    search.start('grid', {});
    const next = StandIn.made.at(-1);
    assert.notEqual(next.sent[0].stop, worker.sent[0].stop);
    assert.equal(new Int32Array(next.sent[0].stop)[0], 0x7fffffff);
    // a search that ends with its verdict has nothing running to tell, and the next
    // start's slot is fresh all the same
    next.report({ state: 'found', cells: 'x'.repeat(42) });
    assert.equal(search.running, false);
  } finally {
    delete globalThis.crossOriginIsolated;
  }
});

test('Stop says how long a search ran until Stop, not until its last report', async () => {
  const { searchWorker } = await import('../search.js');
  const search = searchWorker('complete.worker.js', (r) => r.state !== 'running', () => {});
  search.start('grid', {});
  // (null, a search not running, would pass a bare `>= 0`)
  assert.equal(typeof search.elapsed(), 'number', 'a running search has a clock');
  assert.ok(search.elapsed() >= 0);
  const worker = StandIn.made.at(-1);
  worker.report({ state: 'running', candidates: 1, ms: 5 });
  // (a 60 ms timer may fire a little early on performance.now's clock: 50 still tells
  // the time until Stop from the report's 5)
  await new Promise((resolve) => setTimeout(resolve, 60));
  search.stop();
  assert.equal(search.report.state, 'stopped');
  assert.ok(search.report.ms >= 50, `stopped after ${search.report.ms} ms`);
  assert.equal(search.elapsed(), null, 'no clock once stopped');
  // stopped before any report: the time it ran, not 0
  search.start('grid', {});
  await new Promise((resolve) => setTimeout(resolve, 60));
  search.stop({ ok: true, state: 'stopped', ms: 0 });
  assert.ok(search.report.ms >= 50, `stopped after ${search.report.ms} ms`);
});

test('after the first search\'s verdict the page shows the SAT search it waits for, with its ceiling', () => {
  const { race, first, second } = released();
  second.report(searching(200, 200));
  first.report(unsat(3000, { released_at: 1000 }));
  assert.equal(race.running, true);
  // (its last report until the next: not the first's frozen progress)
  assert.equal(race.report.waiting_on, 1);
  assert.equal(race.report.conflicts, 200);
  assert.equal(race.report.ceiling, 1000, '1,000 + 2 x 1,000 reaches the first\'s 3,000');
  assert.deepEqual(race.report.entrants.map((e) => e.state), ['unsat', 'searching']);
  second.report(searching(600, 600));
  assert.equal(race.report.conflicts, 600);
});

/** A stand-in for the page's elements, enough for a panel's render. */
function stubPage(ids) {
  const els = Object.fromEntries(ids.map((id) => [`#${id}`, {
    textContent: '', disabled: false, hidden: false, checked: true, max: 0, value: 0, title: '', dataset: {},
    parentElement: { title: '', dataset: {} }, // a checkbox's label
    on: {}, setAttribute() {}, addEventListener(type, f) { this.on[type] = f; },
  }]));
  globalThis.document = { querySelector: (s) => els[s] };
  return els;
}

test('Solve whole root\'s status says the first search\'s verdict while the second runs on', async () => {
  const { wholeRoot } = await import('../dsat.js');
  const els = stubPage(['dsat', 'dsat-stop', 'dsat-keep', 'dsat-discard', 'dsat-status', 'dsat-gauge', 'dsat-fewest', 'dsat-local']);
  const tick = globalThis.setInterval;
  globalThis.setInterval = () => 0; // the panel's clock: no timers left behind
  try {
    const grid = '9'.repeat(42);
    const host = { grid: () => grid, levels: () => [...grid], undecided: () => 3, fixed: () => 39, starting() {}, render: () => panel.render(true) };
    const panel = wholeRoot(host);
    els['#dsat'].on.click(); // Run
    const [first, second] = StandIn.made.slice(-2);
    second.report(waiting);
    first.report(searching(1000, 1500, { released_at: 1000 }));
    assert.match(els['#dsat-status'].textContent, /^Searching: round 1, /);
    second.report(searching(200, 200));
    first.report(unsat(3000, { released_at: 1000 }));
    assert.equal(els['#dsat-status'].textContent.replace(/\(\d+\.\d s\)/, '(t)'),
      'The first search proved that no diagram wins; the second search runs on while its count of dead ends stays below the first\'s (it stops at 1,000 of its own; a tie goes to the first): round 1, 200 dead ends (t).');
    second.report(unsat(700));
    assert.match(els['#dsat-status'].textContent, /^No diagram wins from this root/);
    // with the first out of budget there is no count to beat; Stop then says stopped
    els['#dsat'].on.click();
    const [a, b] = StandIn.made.slice(-2);
    b.report(waiting);
    a.report(searching(1000, 1500, { released_at: 1000 }));
    b.report(searching(50, 50));
    a.report({ state: 'budget', round: 9, positions: 10, conflicts: 2000, released_at: 1000 });
    assert.match(els['#dsat-status'].textContent, /^The first search ran out of budget; the second search runs on: round 1, 50 dead ends \(/);
    els['#dsat-stop'].on.click();
    // (it said where the search had got to: no round, no levels)
    assert.match(els['#dsat-status'].textContent, /^Stopped after [\d.]+ s in round 1, \? cells over level 0 \(10 positions, 50 dead ends, 0 settled variables\)\.$/);
    // a first verdict before the second's first report: the race waits, it has not
    // found (the status said "Found a diagram... Keep it", with Keep off)
    els['#dsat'].on.click();
    const [c, d] = StandIn.made.slice(-2);
    c.report(foundLocally(5000));
    assert.match(els['#dsat-status'].textContent, /^The first search found a diagram; the second search runs on: starting \(/);
    // the second's local search then runs on only to the first's work, not its budget
    // (it said "which would win with a diagram, runs on to its budget")
    d.report(local(1000));
    assert.match(els['#dsat-status'].textContent, /^The first search found a diagram; the second search's local search runs on while its work stays below the first's \(it stops at 5,000 units of work; a tie goes to the first\): 5 repair steps, its best diagram so far failing at 3 positions, 1,000 of 5,000 units of work \(/);
    assert.equal(els['#dsat-gauge'].max, 5000);
    assert.equal(els['#dsat-gauge'].value, 1000);
    d.report(foundLocally(900));
    assert.match(els['#dsat-status'].textContent, /^Found a diagram that verifies as a win by the second search's local search/);
  } finally {
    globalThis.setInterval = tick;
    delete globalThis.document;
  }
});

test('Solve whole root says the first map\'s depth (none with no ? cell), and a map that overflowed leaves the gauge full', async () => {
  const { wholeRoot, BROWSER_MAX_STATES } = await import('../dsat.js');
  const els = stubPage(['dsat', 'dsat-stop', 'dsat-keep', 'dsat-discard', 'dsat-status', 'dsat-gauge', 'dsat-fewest', 'dsat-local']);
  const tick = globalThis.setInterval;
  globalThis.setInterval = () => 0;
  try {
    const grid = '9'.repeat(42);
    let free = 3;
    const host = { grid: () => grid, levels: () => [...grid], undecided: () => free, fixed: () => 42 - free, starting() {}, render: () => panel.render(true) };
    const panel = wholeRoot(host);
    els['#dsat'].on.click();
    // (it said 16 plies, the depth only a root left open after 500 rounds is mapped to)
    assert.match(els['#dsat-status'].textContent,
      /^A local search first, then mapping every position Red could face down to 8 plies below the root \(16 if 500 rounds leave the root open\); 3 \? cells free/);
    const [first, second] = StandIn.made.slice(-2);
    second.report(waiting);
    first.report({ state: 'mapping', positions: 1000, max_states: BROWSER_MAX_STATES, ms: 10 });
    assert.equal(els['#dsat-gauge'].hidden, false);
    assert.equal(els['#dsat-gauge'].value, 1000);
    first.report({ state: 'budget', round: 0, positions: BROWSER_MAX_STATES, conflicts: 0, ms: 20 });
    assert.match(els['#dsat-status'].textContent, /^Out of budget after [\d.]+ s: the map needs more than 300,000 positions/);
    // the bar went from part-full to hidden: "full means overflow" was never seen
    assert.equal(els['#dsat-gauge'].hidden, false);
    assert.equal(els['#dsat-gauge'].value, els['#dsat-gauge'].max);
    assert.equal(els['#dsat-gauge'].max, BROWSER_MAX_STATES);
    // with no ? cell nothing is mapped (it said "...; 0 ? cells free over level 0")
    free = 0;
    els['#dsat'].on.click();
    assert.match(els['#dsat-status'].textContent, /^No \? cells: the verifier judges the diagram as it stands[.] \(/);
  } finally {
    globalThis.setInterval = tick;
    delete globalThis.document;
  }
});

test('the page maps the plies and races the searches that c4lab dsat does by default', async () => {
  const { CUT_PLIES, FIRST_CUT_PLIES, DEEPEN_AFTER, WIDEN_AFTER } = await import('../dsat.js');
  const help = spawnSync(bin, ['dsat', '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0, help.stderr);
  const byDefault = (flag) => new RegExp(`--${flag} <[A-Z_]+>[^[]*\\[default: ([^\\]]+)\\]`).exec(help.stdout)?.[1];
  assert.equal(String(CUT_PLIES), byDefault('cut'));
  assert.equal(String(FIRST_CUT_PLIES), byDefault('first-cut'));
  assert.equal(String(DEEPEN_AFTER), byDefault('deepen-after'));
  assert.equal(WIDEN_AFTER.join(','), byDefault('widen-after'));
});
