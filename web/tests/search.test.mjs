// The searches: Fill undecided cells (auto-complete) and Solve whole root (dsat), against the native binary.
// The Lab in a real browser (see lab.mjs); run by scripts/test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { useLab, shots, bin, upstream, open, verdict, settled, count, cell, emptyBoardAllUndecided, importText, upstreamDiagrams, WIN } from './lab.mjs';

useLab();

test('auto-complete fills the ? cells of an upstream diagram, and Keep applies them', async (t) => {
  const blocks = upstreamDiagrams();
  if (!blocks) return t.skip(`upstream's solution is not at ${upstream}`);
  const page = await open();
  // a deep upstream diagram (16+ stones) with its ten lowest level cells undecided
  const puzzle = await page.evaluate((blocks) => {
    for (const b of blocks) {
      const r = JSON.parse(window.__lab.engine.read_any(b));
      if (!r.ok || r.root.length < 16) continue;
      let undecided = 0;
      const cells = [...r.cells].reverse().map((c) => (/[0-9]/.test(c) && undecided++ < 10 ? '?' : c)).reverse();
      return cells.join('').match(/.{7}/g).join('\n') + '\n';
    }
    return null;
  }, blocks);
  assert.ok(puzzle, 'no upstream diagram with 16 or more stones');
  await importText(page, puzzle);
  assert.match(await verdict(page), /^Incomplete: 10 undecided cells \(\?\); no verdict until they are decided[.]$/);
  await page.click('#fill');
  await page.waitForFunction(() => document.querySelector('#fill-keep').ariaDisabled !== 'true', null, { timeout: 60_000 });
  // the verifier's positions and the encoded ones, each named (two bare position counts)
  assert.match(await page.locator('#fill-status').textContent(), /^Found a completion that verifies as a win \(the verifier searched [\d,]+ positions?\); [\d,]+ candidates?, [\d,]+ clauses?, [\d,]+ positions? encoded, /);
  assert.equal(await page.locator('#board .cell.candidate').count(), 10);
  // each shows its level, a 9 too (drawn as a plain empty cell, it looked undecided-free)
  assert.ok(await page.$$eval('#board .cell.candidate', (cs) => cs.every((c) => c.textContent !== '')));
  await page.screenshot({ path: join(shots, 'fill-found.png') });
  const n = await count(page);
  await page.click('#fill-keep');
  assert.match(await settled(page, n), /^Win/);
  assert.equal(await page.locator('#board .cell.candidate').count(), 0);
  await page.waitForFunction(() => document.querySelector('#simplify').ariaDisabled !== 'true' || /minimal/.test(document.querySelector('#simplify').textContent));
  assert.deepEqual(page.errors, []);
});

test('auto-complete says UNSAT for what no completion can win, and Stop ends a wide search', async () => {
  const page = await open();
  await page.click('nav button[data-mode="position"]');
  await page.fill('#moves', '727364'); // Yellow holds three in the bottom row, open at both ends
  let n = await count(page);
  await page.click('#set-moves');
  await settled(page, n);
  await page.click('nav button[data-mode="levels"]');
  n = await count(page);
  await page.click('#undecide-all');
  await settled(page, n);
  await page.click('#fill');
  // every empty cell is ?: nothing else could be fixed otherwise, so the root is lost
  // to every diagram (it said "Other fixed cells might")
  await page.waitForFunction(() => /^No diagram wins from this root: no levels 0–9 for its 36 empty cells make a win/.test(document.querySelector('#fill-status').textContent));
  assert.equal(await page.locator('#fill-keep').isDisabled(), true);
  // whether the game or the language is why, as c4lab complete and dsat say it
  assert.match(await page.locator('#fill-status').textContent(), /The strong solver finds the root lost with best play \(score -18\): no strategy wins it, in any language\.$/);
  await page.click('#dsat');
  await page.waitForFunction(() => /^No diagram wins from this root \(every empty cell free/.test(document.querySelector('#dsat-status').textContent), null, { timeout: 60_000 });
  assert.match(await page.locator('#dsat-status').textContent(), /not independently audited\. The strong solver finds the root lost with best play \(score -18\)/);
  // a root Red wins, where no diagram does (the reference unsat root)
  await importText(page, '1.4645446466332122.*X?');
  await page.click('#dsat');
  await page.waitForFunction(() => /^No diagram wins from this root/.test(document.querySelector('#dsat-status').textContent), null, { timeout: 60_000 });
  assert.match(await page.locator('#dsat-status').textContent(), /The strong solver finds the root a win for Red with best play \(score \+4\), but by no diagram of this language\.$/);
  // a weak level (a-d) is a pinned cell: the answer is about these cells only (it
  // said "no diagram wins from this root ... its 35 empty cells", and dsat "every empty
  // cell free", of roots a diagram wins once that cell is free)
  await importText(page, 'a??????\n???????\n???????\n???????\n??????R\n?YYY?RR\n');
  await page.click('#fill');
  await page.waitForFunction(() => /^No completion of these pinned cells wins: no levels 0–9 for the 35 \? cells/.test(document.querySelector('#fill-status').textContent));
  await page.click('#dsat');
  await page.waitForFunction(() => / with these pinned cells \(levels 0–9 for the \? cells\)/.test(document.querySelector('#dsat-status').textContent), null, { timeout: 60_000 });
  // the empty board, every cell undecided: a wide scope that runs until stopped
  await emptyBoardAllUndecided(page);
  assert.equal(await page.locator('#clear-root').getAttribute('title'), 'Off: the root is the empty board already. Take every root stone off');
  assert.equal(await page.locator('#clear-root').isDisabled(), true);
  // when each of the page's workers ends: its thread, not the terminate() call
  const ended = new Map();
  page.on('worker', (w) => w.on('close', () => ended.set(w.url().split('/').pop(), Date.now())));
  await page.click('#fill');
  assert.match(await page.locator('#fill-status').textContent(), /wide scope/);
  await page.waitForFunction(() => /^Searching… [1-9]/.test(document.querySelector('#fill-status').textContent), null, { timeout: 30_000 });
  assert.ok(await page.locator('#board .cell.candidate').count() > 0, 'the live candidate is drawn');
  await page.waitForFunction(() => /Deepest loss/.test(document.querySelector('#fill-status').textContent), null, { timeout: 30_000 });
  const stop = Date.now();
  await page.click('#fill-stop');
  // the search's worker ends with Stop: Chromium runs a task on for up to 2 s after
  // terminate(), and the worker's loop of steps was one task, a core busy that long
  for (let i = 0; i < 30 && !ended.has('complete.worker.js'); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(ended.has('complete.worker.js'), 'the worker still runs 3 s after Stop');
  const after = ended.get('complete.worker.js') - stop;
  assert.ok(after < 1500, `the worker ended ${after} ms after Stop`);
  const stopped = await page.locator('#fill-status').textContent();
  assert.match(stopped, /^Stopped after/);
  assert.doesNotMatch(stopped, /Deepest loss: (no-move|draw|yellow-wins) /, 'how the line ends, in words');
  // the losing line is drawn over the last candidate, whose levels stay readable (a long
  // line hid every one of them)
  const ghosts = await page.locator('#board .cell:has(.num)').evaluateAll((cs) => cs.map((c) => c.getAttribute('aria-label')));
  assert.ok(ghosts.length > 0, 'the deepest line is drawn');
  assert.ok(ghosts.every((l) => /candidate level \d/.test(l)), ghosts.join('; '));
  assert.equal(await page.locator('#fill-stop').isDisabled(), true);
  await page.click('#fill-discard');
  assert.equal(await page.locator('#board .cell.candidate').count(), 0);
  assert.equal(await page.locator('#fill-status').textContent(), '', 'no line about a discarded search');
  assert.deepEqual(page.errors, []);
});

// Deep upstream roots (22+ stones) with every level cell undecided, as grids, read by
// the page's engine.
function deepRoots(page, blocks) {
  return page.evaluate((blocks) => {
    const out = [];
    for (const b of blocks) {
      const r = JSON.parse(window.__lab.engine.read_any(b));
      if (!r.ok || r.root.length < 22) continue;
      out.push([...r.cells].map((c) => (/[0-9]/.test(c) ? '?' : c)).join('').match(/.{7}/g).join('\n') + '\n');
    }
    return out;
  }, blocks);
}

// Runs the page's Solve whole root on the diagram in `text` and returns the final report.
async function solveRoot(page, text) {
  await importText(page, text);
  await page.click('#dsat');
  await page.waitForFunction(() => {
    const r = window.__lab.dsat();
    // the race's end too (Stop off): the first search's verdict may show while the
    // other can still win
    return r && (!r.ok || !['mapping', 'searching'].includes(r.state)) && document.querySelector('#dsat-stop').getAttribute('aria-disabled') === 'true';
  }, null, { timeout: 120_000 });
  return page.evaluate(() => window.__lab.dsat());
}

// `c4lab dsat --json` natively on the same diagram.
function nativeDsat(text, backend, ...flags) {
  const r = spawnSync(bin, ['dsat', '--json', '--backend', backend, ...flags], { input: text, encoding: 'utf8' });
  assert.ok(r.stdout, `c4lab dsat printed nothing: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

test('Solve whole root agrees with the native dsat on small roots, and Keep applies a found diagram', async (t) => {
  const blocks = upstreamDiagrams();
  if (!blocks) return t.skip(`upstream's solution is not at ${upstream}`);
  const page = await open();
  const deep = await deepRoots(page, blocks);
  const step = Math.max(1, Math.floor(deep.length / 3));
  const roots = deep.filter((_, i) => i % step === 0).slice(0, 3);
  assert.equal(roots.length, 3);
  // and a root no diagram can win (moves 727364): Yellow's three in the bottom row is
  // open at both ends
  const lost = '???????\n???????\n???????\n???????\n??????R\n?YYY?RR\n';
  // every level from the start (the fewest-levels default has its own test)
  await page.uncheck('#dsat-fewest');
  let byLocal = 0;
  for (const text of [...roots, lost]) {
    const web = await solveRoot(page, text);
    assert.ok(web.ok, web.error);
    assert.equal(web.state, text === lost ? 'unsat' : 'found');
    for (const backend of ['batsat', 'cadical']) {
      const native = nativeDsat(text, backend, '--first-levels', '10');
      assert.equal(web.state, native.verdict, `${backend} on\n${text}`);
      // the same engine: the same diagram, whether the local search or the SAT search found it
      if (backend === 'batsat' && web.state === 'found') {
        assert.equal(web.cells, native.diagram.join(''), text);
        assert.equal(web.local_steps, native.local_steps, text);
      }
    }
    if (web.state === 'found') {
      assert.equal(web.cells.length, 42);
      assert.match(await page.locator('#dsat-status').textContent(), /^Found a diagram that verifies as a win/);
      if (web.round === 0) {
        byLocal += 1;
        assert.match(await page.locator('#dsat-status').textContent(), /^Found a diagram that verifies as a win by the local search \(/);
      }
      if (text === roots[0]) {
        // Keep writes the found levels into the ? cells: the verdict becomes a win
        assert.ok(await page.locator('#board .cell.candidate').count() > 0);
        const n = await count(page);
        await page.click('#dsat-keep');
        assert.match(await settled(page, n), /^Win/);
        assert.equal(await page.locator('#board .cell.candidate').count(), 0);
      }
    }
  }
  // the local search, which runs first by default, settles roots like these
  assert.ok(byLocal >= 1, 'no root found by the local search');
  assert.equal((await page.evaluate(() => window.__lab.dsat())).state, 'unsat');
  assert.match(await page.locator('#dsat-status').textContent(), /^No diagram wins from this root/);
  assert.deepEqual(page.errors, []);
});

test('Solve whole root races two searches as c4lab dsat does: the same winner, dead ends and diagram', async () => {
  // the upstream root 56666644444335232221, every cell ?: the second search, let go at
  // the first's 2,851 dead ends, finds a diagram after 3,740 of its own, which count
  // twice, before the first reaches 2,851 + 2 x 3,740 (the SAT searches alone: the local
  // search that runs first has its own test)
  const text = '???????\n???R?Y?\n?R?Y?R?\n?YYR?Y?\n?RRYYR?\nYRYRRY?\n';
  const native = nativeDsat(text, 'batsat', '--local-work', '0');
  assert.equal(native.verdict, 'found');
  assert.equal(native.winner, 1, 'the second search wins natively');
  const page = await open();
  await page.uncheck('#dsat-local');
  // isolated, so the searches' ceilings are shared with the solvers mid-call
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  const web = await solveRoot(page, text);
  assert.ok(web.ok, web.error);
  assert.equal(web.state, 'found');
  assert.equal(web.winner, 1);
  assert.equal(web.started_at, native.entrants[1].started_at);
  assert.equal(web.conflicts, native.conflicts);
  assert.equal(web.levels, native.levels);
  assert.equal(web.cells, native.diagram.join(''));
  // the first search was stopped where its count passed the winner's, or finished later
  assert.ok(web.entrants[0].conflicts > native.entrants[1].started_at + 2 * native.conflicts);
  const from = native.entrants[1].started_at.toLocaleString('en');
  const status = await page.locator('#dsat-status').textContent();
  assert.ok(status.startsWith(`Found a diagram that verifies as a win by the second search (from the first's ${from} dead ends`), status);
  // the levels the ? cells take, not the budget, which grew without a proof
  const given = text.replace(/\n/g, '');
  const top = Math.max(...[...web.cells].filter((_, i) => given[i] === '?').map(Number));
  assert.match(status, new RegExp(`its \\? cells take levels 0–${top}[,.]`));
  assert.deepEqual(page.errors, []);
});

test('Solve whole root runs a local search in each worker, as c4lab dsat does: the second\'s stream can win', async () => {
  // the upstream root 656666454544535242, every cell ?: the second search's local search
  // (stream 1) finds a diagram with less work than the first's (stream 0) needs
  const text = '???????\n???RRY?\n???YRR?\n???RYY?\n?Y?RYR?\n?YYRYR?\n';
  const native = nativeDsat(text, 'batsat');
  assert.equal(native.verdict, 'found');
  assert.equal(native.winner, 1, 'the second search\'s local search wins natively');
  assert.equal(native.local_found, true);
  const page = await open();
  const web = await solveRoot(page, text);
  assert.ok(web.ok, web.error);
  assert.equal(web.state, 'found');
  assert.equal(web.winner, 1);
  assert.equal(web.local_found, true);
  assert.equal(web.local_work, native.local_work);
  assert.equal(web.local_steps, native.local_steps);
  assert.equal(web.cells, native.diagram.join(''));
  const status = await page.locator('#dsat-status').textContent();
  assert.ok(status.startsWith('Found a diagram that verifies as a win by the second search\'s local search ('), status);
  assert.deepEqual(page.errors, []);
});

test('a dsat session stops mid-call at the ceiling the page shares with it', async () => {
  const page = await open();
  const text = '???????\n?????Y?\n??RY?Y?\n??YRRR?\n?YRYYR?\nRYYRRRY\n';
  const r = await page.evaluate(async (grid) => {
    const engine = await import('./pkg/c4lab_wasm_synth.js');
    await engine.default();
    // one search to its end; the dead ends at each round's end
    const run = (view) => {
      const session = engine.DsatSession.start(grid, 16, 2e6, 1, 0, 0);
      session.set_local_work(0); // the SAT search, whose dead ends the ceiling counts
      if (view) session.share_ceiling(view, 0);
      const ends = [];
      for (;;) {
        const r = JSON.parse(session.step(4096));
        if (r.state === 'searching') ends.push(r.conflicts);
        if (!['mapping', 'searching'].includes(r.state)) return { r, ends };
      }
    };
    const free = run(null);
    // a ceiling in the middle of the longest round can only be met inside a solver call
    let at = 0;
    let gap = 0;
    let before = 0;
    for (const c of [...free.ends, free.r.conflicts]) {
      if (c - before > gap) [gap, at] = [c - before, before + Math.floor((c - before) / 2)];
      before = c;
    }
    const view = new Int32Array(new SharedArrayBuffer(4));
    Atomics.store(view, 0, at);
    const capped = run(view);
    return { free: free.r.state, gap, at, state: capped.r.state, conflicts: capped.r.conflicts };
  }, text);
  assert.equal(r.free, 'found');
  assert.ok(r.gap >= 100, `the longest round took ${r.gap} dead ends`);
  assert.equal(r.state, 'stopped');
  assert.ok(r.conflicts >= r.at && r.conflicts < r.at + r.gap / 2, `stopped at ${r.conflicts}, the ceiling ${r.at}`);
  assert.deepEqual(page.errors, []);
});

test('an auto-complete session stops mid-call at the stop the page shares with it', async () => {
  // (Fill undecided cells' Stop writes 0 there before it ends the worker: a step's SAT
  // call ran on up to 2 s after Stop)
  const page = await open();
  const r = await page.evaluate(async (grid) => {
    const engine = await import('./pkg/c4lab_wasm_synth.js');
    await engine.default();
    const run = (view) => {
      const session = engine.CompleteSession.start(grid, 1);
      if (view) session.share_stop(view, 0);
      return JSON.parse(session.step(1000)).state;
    };
    const unset = new Int32Array(new SharedArrayBuffer(4)).fill(0x7fffffff);
    const stop = new Int32Array(new SharedArrayBuffer(4));
    return { free: run(null), unset: run(unset), stopped: run(stop) };
  }, '9909999\n99R9999\n??Y?999\nYRY?R??\nYYYRR??\nRRRYYRY\n');
  assert.deepEqual(r, { free: 'found', unset: 'found', stopped: 'stopped' });
  assert.deepEqual(page.errors, []);
});

test('Solve whole root says what its local search did when stopped there, and runs a clock from the start', async () => {
  const page = await open();
  await emptyBoardAllUndecided(page);
  await page.click('#dsat');
  // the start's words stand with a clock until the first report (seconds near the empty board)
  assert.match(await page.locator('#dsat-status').textContent(), /^A local search first, then mapping every position .* \(\d+\.\d s\)$/);
  await page.waitForFunction(() => /^Local search before mapping: /.test(document.querySelector('#dsat-status').textContent), null, { timeout: 60_000 });
  // its faults said as what they are (it read "18,595 faults at fewest")
  await page.waitForFunction(() => /^Local search before mapping: [\d,]+ repair steps?, its best diagram so far failing at [\d,]+ positions?, /.test(document.querySelector('#dsat-status').textContent), null, { timeout: 60_000 });
  assert.equal(await page.locator('#dsat-gauge').getAttribute('aria-label'), "Share of the local search's work budget spent");
  await page.click('#dsat-stop');
  // (it said "0 positions, 0 dead ends": the local search's work was lost)
  assert.match(await page.locator('#dsat-status').textContent(), /^Stopped after [0-9.]+ s, in the local search before mapping: [\d,]+ repair steps?, [\d,]+ of 25,000,000 units of work\.$/);
  assert.deepEqual(page.errors, []);
});

test('Solve whole root shows its mapping gauge on a wide root and stops at once', async () => {
  const page = await open();
  await emptyBoardAllUndecided(page);
  await page.click('#dsat');
  await page.waitForFunction(() => /^Mapping: [1-9]/.test(document.querySelector('#dsat-status').textContent), null, { timeout: 30_000 });
  assert.equal(await page.locator('#dsat-gauge').isVisible(), true);
  const gauge = await page.evaluate(() => [document.querySelector('#dsat-gauge').value, document.querySelector('#dsat-gauge').max]);
  assert.ok(gauge[0] > 0 && gauge[1] === 300000, `gauge ${gauge}`);
  assert.equal(await page.locator('#dsat-gauge').getAttribute('aria-label'), 'Share of the state budget mapped');
  await page.click('#dsat-stop');
  assert.match(await page.locator('#dsat-status').textContent(), /^Stopped after/);
  assert.equal(await page.locator('#dsat-gauge').isVisible(), false);
  await page.click('#dsat-discard');
  assert.equal(await page.locator('#dsat-discard').isDisabled(), true);
  assert.deepEqual(page.errors, []);
});

test('Solve whole root by default keeps the ? cells to as few levels as the native dsat, with no gap', async (t) => {
  const blocks = upstreamDiagrams();
  if (!blocks) return t.skip(`upstream's solution is not at ${upstream}`);
  const page = await open();
  const [text] = await deepRoots(page, blocks);
  assert.ok(text, 'an upstream root of 22 stones or more');
  assert.equal(await page.locator('#dsat-fewest').isChecked(), true, 'Fewest levels is on by default');
  const web = await solveRoot(page, text);
  assert.ok(web.ok, web.error);
  assert.equal(web.state, 'found');
  // the page races the native default's two searches
  const native = nativeDsat(text, 'batsat');
  assert.equal(native.verdict, 'found');
  assert.equal(web.winner, native.winner);
  assert.equal(web.levels, native.levels);
  assert.ok(web.levels >= 1 && web.levels <= 10);
  const given = text.replace(/\n/g, '');
  const used = new Set();
  for (let i = 0; i < 42; i++) {
    if (given[i] !== '?') continue;
    assert.ok(Number(web.cells[i]) < web.levels, `cell ${i} is ${web.cells[i]} over ${web.levels} levels`);
    used.add(Number(web.cells[i]));
  }
  // no gap: the fewest levels are exactly 0 to levels - 1
  assert.equal(used.size, web.levels, `levels used: ${[...used].sort()}`);
  assert.match(await page.locator('#dsat-status').textContent(), new RegExp(`its \\? cells take levels 0–${web.levels - 1}`));
  assert.deepEqual(page.errors, []);
});

test('Fill undecided cells says so when its engine cannot load, instead of searching forever', async () => {
  // the synthesis engine is fetched only by the auto-complete and dsat workers: its wasm,
  // or its glue file (whose loss read "the search failed: the worker stopped")
  for (const file of ['c4lab_wasm_synth_bg.wasm', 'c4lab_wasm_synth.js']) {
    const page = await open();
    await page.route(`**/pkg/${file}`, (r) => r.abort());
    await importText(page, WIN);
    await page.click('#undecide-all');
    await page.click('#fill');
    await page.waitForFunction(() => /did not load|failed/.test(document.querySelector('#fill-status').textContent), null, { timeout: 20_000 });
    // a failure, not a refusal of the diagram: said as a sentence
    assert.match(await page.locator('#fill-status').textContent(), /^Fill undecided cells failed: the engine did not load: .*[.]$/, file);
    assert.equal(await page.locator('#fill-stop').isDisabled(), true);
    await page.close();
  }
});

test('starting one search sets the other aside, so the board previews what Keep applies', async () => {
  const page = await open();
  await importText(page, WIN);
  await page.click('#undecide-all');
  await page.click('#dsat');
  await page.waitForFunction(() => document.querySelector('#dsat-keep').ariaDisabled !== 'true', null, { timeout: 60_000 });
  await page.click('#fill');
  // (an answer, dropped: not "set aside", as if it could come back)
  assert.match(await page.locator('#dsat-status').textContent(), /^Discarded: Fill undecided cells started/);
  assert.equal(await page.locator('#dsat-keep').isDisabled(), true);
  // and the other way round, once Fill undecided cells has reported
  await page.waitForFunction(() => /^(Searching… [1-9]|Found)/.test(document.querySelector('#fill-status').textContent), null, { timeout: 30_000 });
  await page.click('#dsat');
  assert.match(await page.locator('#fill-status').textContent(), /^(Stopped|Discarded): Solve whole root started/);
  await page.evaluate(() => document.querySelector('#dsat-stop').click()); // a no-op if it has ended
  // once that solve is discarded, nothing stands behind the line: it goes
  await page.click('#dsat-discard');
  assert.equal(await page.locator('#fill-status').textContent(), '');
  assert.deepEqual(page.errors, []);
  await page.close();
});
