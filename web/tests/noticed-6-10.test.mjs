// What users noticed, rounds six to ten (noticed.test.mjs has the first five): each test
// holds the fixes of one round of use.
// The Lab in a real browser (see lab.mjs); run by scripts/test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, href, url, browser, open, verdict, count, cell, emptyBoardAllUndecided, importText, withContrast, WIN } from './lab.mjs';

useLab();

test('what a user noticed, sixth round: a phone-sized page, the focus ring kept through Escape, names that hold the words shown, live model status, contrast', async () => {
  const page = await open('', { width: 360, height: 640 });
  // an import's refusal, said under the board far above the import box, comes into view
  await page.click('#io summary');
  await page.fill('#io-text', 'hello');
  await page.locator('#import').scrollIntoViewIfNeeded();
  await page.click('#import');
  // (it is scrolled into view in the next frame, which the click does not wait for)
  await page.waitForFunction(() => {
    const r = document.querySelector('#message').getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
  }, null, { timeout: 5_000 });
  assert.match(await page.locator('#message').textContent(), /six rows/);
  // a button that turns itself off hands the focus to the board, and the board is shown
  await importText(page, WIN);
  await page.click('nav button[data-mode="play"]');
  await page.locator('#board').scrollIntoViewIfNeeded();
  await page.keyboard.press('4');
  await page.locator('#to-root').scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.focus('#to-root');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'board');
  const board = await page.locator('#board').boundingBox();
  assert.ok(board.y >= -1 && board.y + board.height <= 641, `the board at ${board.y}..${board.y + board.height}`);
  await page.close();

  const wide = await open();
  // Escape hides the focus ring; the next arrow brings it back where it was
  await wide.focus('#board');
  await wide.keyboard.press('ArrowDown');
  for (let i = 0; i < 3; i++) await wide.keyboard.press('ArrowRight');
  const at = await wide.locator('#board .cell.focus').getAttribute('data-index');
  assert.equal(at, '3');
  await wide.keyboard.press('Escape');
  assert.equal(await wide.locator('#board .cell.focus').count(), 0);
  await wide.keyboard.press('ArrowDown');
  assert.equal(await wide.locator('#board .cell.focus').getAttribute('data-index'), '3');
  // the palette's names hold the words shown, for voice control
  assert.equal(await wide.locator('#palette button[data-level="0"]').getAttribute('aria-label'), 'Level 0 strongest');
  assert.equal(await wide.locator('#palette button[data-level="?"]').getAttribute('aria-label'), '? undecided');
  // the theme button says which theme is on
  const theme = wide.locator('#theme');
  const before = await theme.getAttribute('aria-label');
  await theme.click();
  const after = await theme.getAttribute('aria-label');
  assert.notEqual(before, after);
  assert.match(after, /^Theme: (light|dark) \(switch to (dark|light)\)$/);
  // the model's status is announced
  assert.equal(await wide.locator('#model-status').getAttribute('role'), 'status');
  // the light theme's loss text and focus ring are readable on the page (4.5:1, 3:1)
  await wide.evaluate(() => { document.documentElement.dataset.theme = 'light'; });
  const ratios = await wide.evaluate(() => {
    const rgb = (c) => c.match(/\d+/g).slice(0, 3).map(Number);
    const lum = (c) => {
      const [r, g, b] = rgb(c).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const probe = document.createElement('span');
    document.body.append(probe);
    const bg = getComputedStyle(document.body).backgroundColor;
    const of = (v) => { probe.style.color = `var(${v})`; return getComputedStyle(probe).color; };
    const out = { red: ratio(of('--red-text'), bg), win: ratio(of('--win-text'), bg), focus: ratio(of('--focus'), bg), board: ratio(of('--focus-board'), getComputedStyle(document.querySelector('#board')).backgroundColor) };
    probe.remove();
    return out;
  });
  assert.ok(ratios.red >= 4.5 && ratios.win >= 4.5, JSON.stringify(ratios));
  assert.ok(ratios.focus >= 3 && ratios.board >= 3, JSON.stringify(ratios));
  assert.deepEqual(wide.errors, []);
  await wide.close();
});

test('what a user noticed, seventh round: the focus ring in every mode, a short screen, names said once, contrast on stones, panels and fields', async () => {
  // a short screen (200 % zoom on a laptop, a phone on its side): the board fits its
  // height, and the focus ring stays in view as the arrows move it
  const short = await open('', { width: 640, height: 360 });
  await short.focus('#board');
  for (let i = 0; i < 7; i++) await short.keyboard.press('ArrowDown');
  const board = await short.locator('#board').boundingBox();
  assert.ok(board.height <= 360, `the board is ${board.height} px high`);
  const ring = await short.locator('#board .cell.focus').boundingBox();
  assert.ok(ring.y >= 0 && ring.y + ring.height <= 360, `the ring at ${ring.y}..${ring.y + ring.height}`);
  await short.close();
  // on a phone, Share link leaves the page where the link was written (it scrolled up to
  // the message under the board, the button and the box out of sight)
  const phone = await open('', { width: 360, height: 640 });
  await phone.click('#io summary');
  await phone.locator('[data-export="link"]').scrollIntoViewIfNeeded();
  await phone.click('[data-export="link"]');
  const shared = await phone.locator('[data-export="link"]').boundingBox();
  assert.ok(shared.y >= 0 && shared.y + shared.height <= 640, `Share link at ${shared.y}`);
  assert.match(await phone.inputValue('#io-text'), /#1\./);
  assert.match(await phone.locator('#message').textContent(), /^Share link written in the import\/export box/);
  await phone.close();

  const page = await open();
  await importText(page, WIN);
  // in Play the ring moves too, is the grid's active cell, and Enter drops Yellow's stone in its column
  await page.click('nav button[data-mode="play"]');
  await page.focus('#board');
  await page.keyboard.press('ArrowDown');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  const at = await page.locator('#board .cell.focus').getAttribute('data-index');
  assert.equal(Number(at) % 7, 3);
  assert.equal(await page.locator('#board').getAttribute('aria-activedescendant'), `cell-${at}`);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('#log li').length >= 3);
  const log = await page.locator('#log li').allTextContents();
  assert.ok(log.some((t) => /^Yellow 4\b/.test(t)), log.join(' / '));
  // a screen reader hears a cell's name once: no description repeats it
  const cdp = await page.context().newCDPSession(page);
  const tree = await cdp.send('Accessibility.getFullAXTree');
  const cells = tree.nodes.filter((n) => n.role?.value === 'gridcell');
  assert.equal(cells.length, 42);
  for (const n of cells) assert.notEqual(n.description?.value, n.name?.value, n.name?.value);
  // text on stones, on the panels and the edges of text fields are readable in both themes
  await page.click('#io summary');
  await withContrast(page);
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => { document.documentElement.dataset.theme = t; }, theme);
    const ratios = await page.evaluate(() => {
      const ratio = window.__contrast;
      const style = (sel) => getComputedStyle(document.querySelector(sel));
      // a level digit on a stone, as Play shows one under a played cell of level 0-8
      const onStone = (cls) => {
        const c = document.createElement('div');
        c.className = `cell ${cls}`;
        c.textContent = '5';
        document.querySelector('#board').append(c);
        const r = ratio(getComputedStyle(c).color, getComputedStyle(c).backgroundColor);
        c.remove();
        return r;
      };
      const panel = style('[data-panel="play"]').backgroundColor;
      return {
        red: onStone('stone-R'),
        yellow: onStone('stone-Y'),
        log: ratio(style('#log li.red').color, panel),
        field: ratio(style('#io-text').borderTopColor, style('#io').backgroundColor),
      };
    });
    assert.ok(ratios.red >= 4.5 && ratios.yellow >= 4.5 && ratios.log >= 4.5, `${theme}: ${JSON.stringify(ratios)}`);
    assert.ok(ratios.field >= 3, `${theme}: ${JSON.stringify(ratios)}`);
  }
  // Mirror mirrors Play's line, cut where the mirrored game parts from the mirror image:
  // facing two threats Red blocks the leftmost column (the line ran on past Yellow's four)
  await importText(page, '1.-.0*D90*D90*D90*D90*D90*D9.45136');
  await page.click('nav button[data-mode="levels"]');
  await page.click('#mirror');
  assert.match(await page.locator('#message').textContent(), /^Play's Yellow line 45136, mirrored to 43752, was cut to 4375: in the mirror image Red's answer to Yellow's move 4 is column 2, not column 6 \(with two columns to win or block in, Red takes the leftmost/);
  assert.match(await href(page), /\.4375$/);
  await page.click('#undo-levels');
  assert.match(await href(page), /\.45136$/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('what a user noticed, eighth round: Levels Undo and the moves taken back in Play, the word after an Undo that cuts the line, Set root from stones dropping the line', async () => {
  const diagram = '1.5753556341.40310029911*A9403952993109409529';
  const hashEnd = async (page) => (await href(page)).split('.').pop();
  // moves taken back in Play stay taken back through a Levels Undo of an edit that did
  // not touch the line (Undo brought them back, and Redo took them away again)
  const page = await open(`#${diagram}.1243`);
  await page.click('nav button[data-mode="levels"]');
  await page.click('#palette button[data-level="8"]');
  await page.click('#cell-0');
  assert.equal(await hashEnd(page), '1243');
  await page.click('nav button[data-mode="play"]');
  await page.click('#undo-play');
  await page.click('#undo-play');
  assert.equal(await hashEnd(page), '12');
  await page.click('nav button[data-mode="levels"]');
  await page.click('#undo-levels');
  assert.match(await href(page), new RegExp(`#${diagram.replace(/[.*?]/g, '\\$&')}\\.12$`));
  await page.click('#redo-levels');
  assert.equal(await hashEnd(page), '12');
  // Set root from stones says that it left Play's line out, as Set root from moves does
  await page.click('nav button[data-mode="position"]');
  await page.fill('#stones', '.......\n.......\n.......\n.......\n...Y...\n...R...');
  await page.click('#set-stones');
  assert.match(await page.locator('#message').textContent(), /^Root loaded from stones; a legal order is 44\. Play's Yellow line 12 was played from the old root, so it was left out/);
  // hovering a column shows where the next stone lands (on the root 44: column 4's third cell)
  await page.hover('#cell-3');
  assert.deepEqual(await page.locator('#board .cell.drop').evaluateAll((cs) => cs.map((c) => c.dataset.index)), ['24']);
  await page.mouse.move(0, 0);
  assert.equal(await page.locator('#board .cell.drop').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.close();
  // a Levels Undo that cuts the line (moves played since the edit) says Redo brings it back
  const undecided = await open('#1.5753556341.40310029911*A940395299?109409529');
  await undecided.click('#palette button[data-level="3"]');
  await undecided.click('#cell-23');
  await undecided.click('nav button[data-mode="play"]');
  for (const k of '1243') await undecided.keyboard.press(k);
  assert.equal(await hashEnd(undecided), '1243');
  await undecided.click('nav button[data-mode="levels"]');
  await undecided.click('#undo-levels');
  assert.match(await undecided.locator('#message').textContent(), /^Play's Yellow line 1243 was cut to nothing: .* \(Redo restores it\)\.$/);
  await undecided.click('#redo-levels');
  assert.equal(await hashEnd(undecided), '1243');
  assert.deepEqual(undecided.errors, []);
  await undecided.close();
  // Solve whole root names the levels its ? cells take: from 1 where a pinned cell holds
  // level 0 (it said "levels 0–2" for cells at 1 and 2); read once the race has ended
  // (Stop off), as the other search may still win after the first's verdict shows
  const pinned = await open();
  const solveWhole = async (page) => {
    await page.click('#dsat');
    await page.waitForFunction(() => /^Found a diagram/.test(document.querySelector('#dsat-status').textContent)
      && document.querySelector('#dsat-stop').getAttribute('aria-disabled') === 'true', null, { timeout: 60_000 });
  };
  await importText(pinned, '9909999\n99R9999\n09Y9999\nYRY9R??\nYYYRR?9\nRRRYYRY\n');
  await solveWhole(pinned);
  // the levels as the status line says them: a span where they leave no gap, else each
  const said = (taken) => {
    const levels = [...new Set(taken)].sort((x, y) => x - y);
    const [low, top] = [levels[0], levels.at(-1)];
    if (low === top) return `level ${top}`;
    return levels.length === top - low + 1 ? `levels ${low}–${top}` : `levels ${levels.slice(0, -1).join(', ')} and ${top}`;
  };
  const cells = (await pinned.evaluate(() => window.__lab.dsat().cells)).split('');
  const filled = [26, 27, 33].map((i) => Number(cells[i]));
  assert.match(await pinned.locator('#dsat-status').textContent(), new RegExp(`its \\? cells take ${said(filled)}[,.]`));
  // a 9 counts: here a ? cell Red plays over pinned a-d cells takes it (it said "level 0")
  await importText(pinned, '#1.655433534337221121.99a99?*B9?99a??*A9?cbd?');
  await solveWhole(pinned);
  const found = await pinned.evaluate(() => window.__lab.dsat().cells);
  const asked = [...'99a99?999R9?99a?Y?999YRY?RcbYYYRRd?RRRYYRY'];
  const taken = [...found].filter((_, i) => asked[i] === '?').map(Number);
  assert.ok(taken.includes(9), `no ? cell took 9 here: ${found}`);
  assert.match(await pinned.locator('#dsat-status').textContent(), new RegExp(`its \\? cells take ${said(taken)}[,.]`));
  // levels with a gap are named each ("levels 0–9" read as ten levels where a local
  // search's cells took four)
  const link = '#1.656666454544525141.29?0?149?242994522?59434';
  await importText(pinned, link);
  await solveWhole(pinned);
  const gapped = await pinned.evaluate(() => window.__lab.dsat().cells);
  const given = await pinned.evaluate((l) => JSON.parse(window.__lab.engine.read_any(l)).cells, link);
  const levels = [...new Set([...gapped].filter((_, i) => given[i] === '?').map(Number))].sort((x, y) => x - y);
  assert.ok(levels.length < levels.at(-1) - levels[0] + 1, `no gap in ${levels}: ${gapped}`);
  const status = await pinned.locator('#dsat-status').textContent();
  assert.match(status, new RegExp(`its \\? cells take ${said(levels)}[,.]`));
  assert.doesNotMatch(status, /take levels \d–/);
  assert.deepEqual(pinned.errors, []);
  await pinned.close();
});

test('ninth round (a reader of the page\'s code): storage off, a failing Simplify or solver, input before the engine is in', async () => {
  // a page of its own context: `routes` rewrite a served file (each [path, from, to])
  const page = async (routes = [], init = null) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    for (const [path, from, to] of routes) {
      await context.route(`**/${path}`, async (route) => {
        const response = await route.fetch();
        const body = (await response.text()).replaceAll(from, to);
        assert.notEqual(body, await response.text(), `${path} holds ${from}`);
        await route.fulfill({ response, body });
      });
    }
    if (init) await context.addInitScript(init);
    const p = await context.newPage();
    p.errors = [];
    p.on('pageerror', (e) => p.errors.push(String(e)));
    return p;
  };
  const ready = (p) => p.waitForFunction(() => window.__lab && window.__lab.verdicts > 0);

  // with sites' storage off, reading the kept theme threw and the page said "The engine
  // failed to load"
  const off = await page([], () => {
    for (const name of ['localStorage', 'sessionStorage']) {
      Object.defineProperty(window, name, { configurable: true, get() { throw new DOMException('The operation is insecure.', 'SecurityError'); } });
    }
  });
  await off.goto(url);
  await ready(off);
  assert.equal(await off.locator('#message').textContent(), '');
  const theme = () => off.evaluate(() => document.documentElement.dataset.theme ?? '');
  const was = await theme();
  await off.click('#theme');
  assert.notEqual(await theme(), was);
  assert.deepEqual(off.errors, []);
  await off.context().close();

  // Simplify failing after a win's verdict replaced the win with "Verification failed"
  const trap = "(() => { throw new Error('a trap in simplify'); })()";
  const simplifying = await page([['verify.worker.js', 'JSON.parse(simplify(msg.grid))', trap]]);
  await simplifying.goto(url);
  await ready(simplifying);
  await importText(simplifying, WIN);
  await simplifying.waitForFunction(() => /Off: Simplify failed: Error: a trap in simplify[.]$/.test(document.querySelector('#simplify').title));
  assert.match(await verdict(simplifying), /^Win/);
  await simplifying.context().close();

  // the solver's refusal read "nothing to judge here (no Red move played...)"
  const refusing = await page([['solve.worker.js', 'await analyzeColumns(moves)', "({ ok: false, error: 'the engine refused it' })"]]);
  await refusing.goto(url);
  await ready(refusing);
  await importText(refusing, WIN);
  await refusing.click('nav button[data-mode="play"]');
  await refusing.waitForFunction(() => document.querySelector('#hints').textContent === 'Solver: no hints here: the engine refused it.');
  await refusing.context().close();

  // a click or key before the engine is in threw from its handler, half way through an edit
  const early = await page();
  let letIn;
  const held = new Promise((resolve) => { letIn = resolve; });
  await early.route('**/c4lab_wasm_bg.wasm', async (route) => { await held; await route.continue(); });
  await early.goto(url, { waitUntil: 'domcontentloaded' });
  await early.locator('#board .cell').first().waitFor();
  await early.click('#palette button[data-level="3"]');
  await early.locator('#board .cell[data-index="0"]').click();
  await early.focus('#board');
  await early.evaluate(() => { document.querySelector('#message').textContent = ''; });
  await early.keyboard.press('ArrowRight');
  await early.keyboard.press('Tab');
  // keys the browser acts on say nothing (the page scrolled, the focus moved)
  assert.equal(await early.locator('#message').textContent(), '');
  await early.focus('#board');
  await early.keyboard.press('5');
  // and said nothing: what was stopped is said, and goes once the engine is in
  assert.equal(await early.locator('#message').textContent(), 'The engine is still loading: that did nothing; try again once the verdict shows.');
  letIn();
  await ready(early);
  assert.equal(await early.locator('#message').textContent(), '');
  assert.deepEqual(early.errors, []);
  // nothing was painted: the diagram is a fresh page's
  const grid = async (p) => {
    if (!(await p.locator('#io').evaluate((d) => d.open))) await p.locator('#io summary').click();
    await p.click('[data-export="grid"]');
    return p.inputValue('#io-text');
  };
  const fresh = await open();
  assert.equal(await grid(early), await grid(fresh));
  await fresh.close();
  await early.context().close();

  // an engine that fails to load, its wasm or its glue file: the verdict's line says so
  // and what to do, and stays (it said "Loading the engine…" for ever, the error under
  // it went at the first click, and with the glue missing nothing was said at all); the
  // other controls are off, inputs throw nothing, and Theme still works
  for (const file of ['c4lab_wasm_bg.wasm', 'c4lab_wasm.js']) {
    const failed = await page();
    await failed.route(`**/pkg/${file}`, (route) => route.abort());
    await failed.goto(url);
    const said = /^The engine did not load \(.+\)\. Reload the page; if it fails again, start the Lab with c4lab serve/;
    await failed.waitForFunction((re) => new RegExp(re).test(document.querySelector('#verdict').textContent), said.source);
    await failed.click('nav button[data-mode="position"]', { force: true });
    await failed.keyboard.press('4');
    await failed.click('#clear', { force: true });
    await failed.locator('#board .cell').first().click();
    assert.match(await failed.locator('#verdict').textContent(), said, file);
    // (the held inputs said the engine was "still loading" under its failure)
    assert.doesNotMatch(await failed.locator('#message').textContent(), /still loading/, file);
    assert.equal(await failed.locator('#clear').getAttribute('aria-disabled'), 'true', file);
    assert.match(await failed.locator('#clear').getAttribute('title'), /^Off: the engine did not load\./, file);
    // a text field takes no typing there (it took it, and nothing came of it)
    assert.equal(await failed.locator('#moves').isEditable(), false, file);
    const before = await failed.evaluate(() => document.documentElement.dataset.theme ?? '');
    await failed.click('#theme');
    assert.notEqual(await failed.evaluate(() => document.documentElement.dataset.theme ?? ''), before, file);
    assert.deepEqual(failed.errors, [], file);
    await failed.context().close();
  }
});

test('tenth round (the keyboard): a button that is off is reached and says why, the focused control\'s title shown', async () => {
  const page = await open();
  await importText(page, WIN);
  const focused = () => page.evaluate(() => document.activeElement.id);
  const tip = async () => ((await page.locator('#tip').isVisible()) ? page.locator('#tip').textContent() : null);
  // the levels are one Tab stop (eleven put the buttons after them eleven Tabs further),
  // and the arrows move the pick
  const pressed = () => page.evaluate(() => document.querySelector('#palette [aria-pressed="true"]').dataset.level);
  await page.locator('#board').focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.level), await pressed());
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'clear');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Home');
  assert.equal(await pressed(), '0');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowDown');
  assert.equal(await pressed(), '2');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.level), '2');
  await page.keyboard.press('End');
  assert.equal(await pressed(), '?');
  await page.keyboard.press('ArrowRight');
  assert.equal(await pressed(), '0', 'from ? the pick wraps to 0');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await pressed(), '?', 'and back');
  await page.keyboard.press('Control+ArrowRight'); // with a modifier, not the levels' key
  assert.equal(await pressed(), '?');
  await page.keyboard.press('3'); // a digit picks as before, and the focus follows
  assert.equal(await pressed(), '3');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.level), '3');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focused(), 'board');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.dataset.level), '3');
  // Redo (nothing to redo) was disabled: Tab went past it, and its reason was a tooltip
  // the mouse alone could bring up; it is off, reached, and its title shows
  await page.locator('#undo-levels').focus();
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'redo-levels');
  assert.equal(await page.locator('#redo-levels').isDisabled(), true);
  assert.equal(await tip(), 'Off: nothing to redo. Redo what Undo took back (Ctrl+Y or Ctrl+Shift+Z)');
  // its focus ring is as clear as an on button's (faded by opacity, it was 2.2:1)
  const ring = await page.evaluate(() => {
    const s = getComputedStyle(document.activeElement);
    return { opacity: s.opacity, outline: s.outlineColor, focus: getComputedStyle(document.querySelector('#theme')).getPropertyValue('--focus') };
  });
  assert.equal(ring.opacity, '1');
  assert.equal(ring.outline, 'rgb(179, 71, 0)', JSON.stringify(ring)); // --focus, #b34700
  // a press does nothing, and the focus stays where the user put it
  const n = await count(page);
  const grid = await href(page);
  await page.keyboard.press('Enter');
  await page.keyboard.press(' ');
  assert.equal(await href(page), grid);
  assert.equal(await count(page), n);
  assert.equal(await focused(), 'redo-levels');
  // Escape puts the tip away; the next control's comes with the focus
  await page.keyboard.press('Escape');
  assert.equal(await tip(), null);
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'fill');
  assert.match(await tip(), /^Off: no \? cells to fill: /);
  // a checkbox shows its label's title
  await page.locator('#dsat-discard').focus();
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'dsat-fewest');
  assert.match(await tip(), /^Keep the \? cells to as few levels as can win/);
  // the mouse's focus has the browser's tooltip, not this one, and a click on a button
  // that is off does nothing
  await page.locator('#redo-levels').click({ force: true });
  assert.equal(await tip(), null);
  assert.equal(await href(page), grid);
  // Solve whole root with nothing to fill, by keyboard: Run hands the focus to Stop,
  // which the solve's end turns off; the focus stays there (it went to Keep, and then
  // to the board, or stayed on Keep, off)
  await page.locator('#fill-discard').focus();
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'dsat');
  await page.keyboard.press('Enter');
  // (the verdict's report may come a moment before the worker's end, which turns Stop
  // off: on a slow first start the tip was read between the two)
  await page.waitForFunction(() => /nothing to fill/.test(document.querySelector('#dsat-status').textContent)
    && document.querySelector('#dsat-stop').getAttribute('aria-disabled') === 'true', null, { timeout: 60_000 });
  assert.equal(await focused(), 'dsat-stop');
  assert.match(await tip(), /^Off: no search is running[.]/);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'dsat-discard');
  await page.keyboard.press('Enter');
  // a search's answer below its buttons is not hidden by the tip of the button that has
  // the focus when it comes (Keep)
  await importText(page, WIN.replace('R65', 'R??'));
  await page.locator('#undo-levels').focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'fill');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('#fill-keep').ariaDisabled !== 'true', null, { timeout: 60_000 });
  assert.match(await page.locator('#fill-status').textContent(), /^Found /);
  // the search's end turned Stop off: the focus stays there (it moved to Keep, where an
  // Enter meant for Stop kept the answer)
  assert.equal(await focused(), 'fill-stop');
  const found = await href(page);
  await page.keyboard.press('Enter');
  assert.equal(await href(page), found);
  assert.equal(await page.locator('#fill-keep').isDisabled(), false);
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'fill-keep');
  const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  const box = (p, sel) => p.locator(sel).boundingBox();
  assert.ok(!overlaps(await box(page, '#tip'), await box(page, '#fill-status')), 'the tip hides the answer');
  // a checkbox is off while a solve runs: reached, it says why, and Space leaves it
  // (the empty board with every cell ?: a solve that runs on)
  await emptyBoardAllUndecided(page);
  await page.locator('#fill-discard').focus();
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'dsat');
  await page.keyboard.press('Enter');
  await page.locator('#dsat-discard').focus();
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'dsat-fewest');
  assert.equal(await page.locator('#dsat-fewest').isDisabled(), true);
  assert.match(await tip(), /^Off: a search is running; the setting is read when one starts[.]/);
  await page.keyboard.press(' ');
  assert.equal(await page.locator('#dsat-fewest').isChecked(), true);
  // a screen reader has the reason as the box's description (a label's title is none)
  assert.match(await page.locator('#dsat-local').getAttribute('title'), /^Off: a search is running/);
  // the tip leaves the checkbox's label and the solve's status line to be read (it sat
  // beside the box itself, over its label, centred down over the status)
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'dsat-local');
  for (const sel of ['label:has(> #dsat-local)', '#dsat-status']) {
    assert.ok(!overlaps(await box(page, '#tip'), await box(page, sel)), `the tip hides ${sel}`);
  }
  assert.equal(await page.locator('#dsat-stop').isEnabled(), true, 'the solve runs on');
  await page.click('#dsat-stop');
  await page.click('#dsat-discard');
  assert.deepEqual(page.errors, []);

  // Play: Undo's tip leaves the move log above it to be read, and follows Undo as an
  // error line above it pushes it down
  const play = await open('', { width: 700, height: 900 });
  await importText(play, WIN);
  await play.click('nav button[data-mode="play"]');
  await play.locator('#board').focus();
  await play.keyboard.press('1'); // Red wins at once
  assert.equal(await play.locator('#message').textContent(), '');
  await play.locator('#model-file').focus();
  await play.keyboard.press('Shift+Tab');
  await play.keyboard.press('Shift+Tab');
  assert.equal(await play.evaluate(() => document.activeElement.id), 'undo-play');
  assert.ok(!overlaps(await box(play, '#tip'), await box(play, '#log')), 'the tip hides the move log');
  const before = await box(play, '#undo-play');
  await play.keyboard.press('1'); // the game is over: refused, said under the board
  await play.waitForFunction((y) => document.querySelector('#undo-play').getBoundingClientRect().y !== y, before.y);
  await play.waitForFunction(() => {
    const [t, u] = ['#tip', '#undo-play'].map((s) => document.querySelector(s).getBoundingClientRect());
    return Math.abs(t.bottom - u.bottom) < 1;
  });
  // scrolled out of the window, the button takes its tip along (it stayed at the top)
  await play.evaluate(() => scrollTo(0, 0));
  assert.ok(await play.evaluate(() => document.querySelector('#undo-play').getBoundingClientRect().top > innerHeight), 'Undo is out of the window');
  await play.waitForFunction(() => getComputedStyle(document.querySelector('#tip')).visibility === 'hidden');
  await play.close();

  // an import on a small window shows its word and the verdict (the page moved after the
  // scroll, and both were above the window)
  const small = await open('', { width: 700, height: 700 });
  await small.locator('#io summary').click();
  await small.fill('#io-text', WIN);
  await small.locator('#import').focus();
  await small.keyboard.press('Enter');
  await small.waitForFunction(() => /^Read: /.test(document.querySelector('#message').textContent));
  await small.waitForFunction(() => ['#message', '#verdict'].every((sel) => {
    const r = document.querySelector(sel).getBoundingClientRect();
    return r.top > -1 && r.bottom < innerHeight + 1; // (a scroll leaves fractions)
  }), null, { timeout: 5_000 });
  await small.close();
  await page.close();

  // on a phone-sized page the tip of a button at the right stays within the window
  const narrow = await open('', { width: 360, height: 740 });
  await importText(narrow, WIN);
  await narrow.locator('#dsat-stop').focus();
  await narrow.keyboard.press('Tab');
  assert.equal(await narrow.evaluate(() => document.activeElement.id), 'dsat-keep');
  const shown = await box(narrow, '#tip');
  assert.ok(shown && shown.x >= 0 && shown.x + shown.width <= 360, JSON.stringify(shown));
  assert.match(await narrow.locator('#tip').textContent(), /^Off: no search has found a diagram[.]/);
  await narrow.close();
});

test('eleventh round: a wide screen gives the board the room, the panel beside it, its labels whole', async () => {
  // the board stopped at 42rem (630 px), half a 1920-px page left empty
  for (const [width, height, least] of [[1920, 1080, 900], [1400, 1200, 800]]) {
    const page = await open('', { width, height });
    const board = await page.locator('#board').boundingBox();
    const panel = await page.locator('#panel').boundingBox();
    const at = `${width}x${height}`;
    assert.ok(board.width >= least, `${at}: the board is ${board.width} px wide`);
    // the whole board in the window, the panel to its right and inside it
    assert.ok(board.y + board.height <= height, `${at}: the board runs past the window's foot`);
    assert.ok(panel.x >= board.x + board.width && panel.x + panel.width <= width, `${at}: the panel is not beside the board`);
    // a level's label on one line (a narrow panel broke "undecided" mid-word)
    const lines = await page.locator('#palette .label').evaluateAll((ls) => ls.filter((l) => l.textContent.trim()).map((l) => {
      const r = document.createRange();
      r.selectNodeContents(l);
      return [l.textContent, new Set([...r.getClientRects()].map((b) => Math.round(b.top))).size];
    }));
    assert.ok(lines.length >= 3, `${at}: ${lines.length} labels`);
    for (const [label, n] of lines) assert.equal(n, 1, `${at}: "${label}" takes ${n} lines`);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
});
