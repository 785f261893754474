// The Lab in a real browser: Debian's Chromium driven by playwright-core, against
// `c4lab serve`. Run by scripts/test after the engine and the binary are built.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startLab } from './serve.mjs';

// the page's address as the page sees it: Playwright's `page.url()` learns of a
// `history.replaceState` from an event that may still be on its way after a click
const href = (page) => page.evaluate(() => location.href);

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const shots = join(repo, 'web', 'test-results');
const bin = process.env.C4LAB_BIN || join(process.env.CARGO_TARGET_DIR || join(repo, 'target'), 'debug', 'c4lab');
const upstream = join(repo, '..', 'shared', 'data', 'upstream', 'steady_states.txt');
const chromePath = process.env.CHROMIUM || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);

let server, url, browser;

before(async () => {
  mkdirSync(shots, { recursive: true });
  ({ server, url } = await startLab(bin));
  assert.ok(chromePath, 'Chromium is not installed (apt-get install chromium)');
  browser = await chromium.launch({
    executablePath: chromePath,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-quic'],
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

async function open(hash = '', viewport = { width: 1280, height: 860 }) {
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.errors = errors;
  await page.goto(url + hash);
  await page.waitForFunction(() => window.__lab && window.__lab.verdicts > 0);
  return page;
}

const verdict = (page) => page.locator('#verdict').textContent();
async function settled(page, before) {
  await page.waitForFunction((n) => window.__lab.verdicts > n, before);
  return verdict(page);
}
const count = (page) => page.evaluate(() => window.__lab.verdicts);
const cell = (page, col, rowFromBottom) => page.locator(`#board .cell[data-index="${(6 - rowFromBottom) * 7 + (col - 1)}"]`);

/** The empty board with every cell undecided, back in Levels mode: a search's widest scope. */
async function emptyBoardAllUndecided(page) {
  await page.click('nav button[data-mode="position"]');
  // (each button is off where its click would change nothing)
  if (await page.locator('#clear-root').isEnabled()) {
    const n = await count(page);
    await page.click('#clear-root');
    await settled(page, n);
  }
  await page.click('nav button[data-mode="levels"]');
  if (await page.locator('#undecide-all').isEnabled()) await page.click('#undecide-all');
}

async function importText(page, text) {
  const n = await count(page);
  if (!(await page.locator('#io').evaluate((d) => d.open))) await page.locator('#io summary').click();
  await page.fill('#io-text', text);
  await page.click('#import');
  await settled(page, n);
}

function upstreamDiagrams() {
  if (!existsSync(upstream)) return null;
  const blocks = [];
  let rows = [];
  for (const line of readFileSync(upstream, 'utf8').split('\n')) {
    if (line.startsWith('#')) continue;
    if (line.length === 7) rows.push(line);
    else if (rows.length) { blocks.push(rows.join('\n')); rows = []; }
  }
  if (rows.length) blocks.push(rows.join('\n'));
  return blocks;
}

const WIN = readFileSync(join(repo, 'examples', 'win.txt'), 'utf8');
const LOSS = readFileSync(join(repo, 'examples', 'loss.txt'), 'utf8');

test('serve on a busy port or a foreign host says which flag to change', () => {
  const port = new URL(url).port;
  const busy = spawnSync(bin, ['serve', '--port', port], { encoding: 'utf8', timeout: 10000 });
  assert.equal(busy.status, 2, busy.stderr);
  assert.match(busy.stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: .*try --port, or --port 0`));
  // 192.0.2.1 is a documentation address, never one of this machine's
  const foreign = spawnSync(bin, ['serve', '--host', '192.0.2.1', '--port', '0'], { encoding: 'utf8', timeout: 10000 });
  assert.equal(foreign.status, 2, foreign.stderr);
  assert.match(foreign.stderr, /cannot listen on 192\.0\.2\.1:0: .*check --host/);
  // a port given with the host is named as such, not taken for an IPv6 address
  const withPort = spawnSync(bin, ['serve', '--host', '127.0.0.1:9999'], { encoding: 'utf8', timeout: 10000 });
  assert.equal(withPort.status, 2, withPort.stderr);
  assert.match(withPort.stderr, /--host 127\.0\.0\.1:9999 holds a port: .*\(--host 127\.0\.0\.1 --port 9999\)/);
  // a privileged port, as a user without the privilege: the port is named, not the host
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find(existsSync);
  if (process.getuid?.() === 0 && setpriv) {
    const low = spawnSync(setpriv, ['--reuid=65534', '--regid=65534', '--clear-groups', bin, 'serve', '--port', '80'], { encoding: 'utf8', timeout: 10000 });
    if (low.status === 2 && /Permission denied/.test(low.stderr)) {
      assert.match(low.stderr, /ports below 1024 need privileges/);
    }
  }
});

test('serve --open says so when no browser could be opened', async () => {
  // an xdg-open (open on macOS) that fails, as it does on a machine without a browser
  const dir = mkdtempSync(join(tmpdir(), 'c4lab-opener-'));
  for (const name of ['xdg-open', 'open']) {
    writeFileSync(join(dir, name), '#!/bin/sh\nexit 3\n', { mode: 0o755 });
  }
  const child = spawn(bin, ['serve', '--port', '0', '--open'], { env: { ...process.env, PATH: `${dir}:${process.env.PATH}` } });
  let stderr = '';
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no word of the failed opener in 10 s: ${stderr}`)), 10000);
      child.stderr.on('data', (d) => {
        stderr += d;
        if (/could not open a browser .*yourself\n/.test(stderr)) { clearTimeout(timer); resolve(); }
      });
      child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`serve ended (${code}): ${stderr}`)); });
    });
    assert.match(stderr, /could not open a browser \((xdg-)?open ended with exit status: 3\); open http:\/\/127\.0\.0\.1:\d+\/ yourself/);
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the page loads and gives a first verdict', async () => {
  const page = await open();
  const ms = await page.evaluate(() => window.__lab.firstVerdictMs);
  const marks = await page.evaluate(() => performance.getEntriesByType('mark').map((m) => `${m.name} ${m.startTime.toFixed(0)} ms`).join(', '));
  console.log(`# page load to first verdict: ${ms.toFixed(0)} ms (${marks})`);
  assert.match(await verdict(page), /Loss: the diagram names no move \(tied levels: 9\) at the root/);
  assert.equal(await page.locator('#board .cell').count(), 42);
  await page.screenshot({ path: join(shots, 'levels-empty.png') });
  assert.deepEqual(page.errors, []);
});

test('painting levels changes the verdict', async () => {
  const page = await open();
  const before = await verdict(page);
  const firstLink = new URL(await href(page)).hash;
  await page.click('#palette button[data-level="0"]');
  let n = await count(page);
  await cell(page, 4, 1).click();
  const after = await settled(page, n);
  assert.notEqual(after, before);
  assert.match(await cell(page, 4, 1).getAttribute('title'), /column 4, row 1: .*level 0/);
  // right-click marks the cell undecided: no verdict
  n = await count(page);
  await cell(page, 3, 1).click({ button: 'right' });
  assert.match(await settled(page, n), /Incomplete: 1 undecided cell/);
  const link = new URL(await href(page)).hash;
  assert.match(link, /^#1\.-\./);
  assert.notEqual(link, firstLink, 'the share link follows the edits');
  assert.match(decodeURIComponent(link), /\?/, 'the link holds the ? cell');
});

test('a losing diagram draws its counterexample line', async () => {
  const page = await open();
  // the same 42 cells on one line are read as that form, not as a grid
  await importText(page, LOSS.split('\n').filter((l) => l.trim() && !l.startsWith('#')).join(''));
  assert.match(await page.locator('#message').textContent(), /Read: 42 cells on one line/);
  await importText(page, LOSS);
  assert.match(await page.locator('#message').textContent(), /Read: level grid/);
  assert.match(await verdict(page), /Loss: the diagram names no move \(tied levels: 9\) after 67711132/);
  const ghosts = page.locator('#board .cell .num');
  assert.equal(await ghosts.count(), 8);
  const nums = (await ghosts.allTextContents()).map(Number).sort((a, b) => a - b);
  assert.deepEqual(nums, [1, 2, 3, 4, 5, 6, 7, 8]);
  assert.match(await page.locator('#legend').textContent(), /the losing line/);
  // Simplify is off, and says why
  assert.equal(await page.locator('#simplify').isDisabled(), true);
  assert.match(await page.locator('#simplify').getAttribute('title'), /needs a diagram that verifies as a win/);
  await page.screenshot({ path: join(shots, 'levels-counterexample.png') });
});

test('playing Yellow names the rule behind each Red move', async () => {
  const page = await open();
  await importText(page, WIN);
  assert.match(await verdict(page), /^Win: Red makes four on every line/);
  await page.click('nav button[data-mode="play"]');
  assert.match(await page.locator('#log').textContent(), /Red 6 · level 7, lower levels tied: 0 in columns 1, 3/);
  await cell(page, 1, 4).click(); // column 1
  const log = await page.locator('#log li').allTextContents();
  assert.deepEqual(log.slice(1), ['Yellow 1', 'Red 7 · win']);
  // Red's reply is in the status line, the live region a screen reader announces
  assert.match(await page.locator('#game-status').textContent(), /^Red played 7\. Red wins/);
  assert.equal(await page.locator('#board .cell.four').count(), 4);
  assert.match(await page.locator('#legend').textContent(), /the winning four/);
  // Red's winning move keeps the last move's ring (the legend names it) beside the four's,
  // and says both to a screen reader
  const winning = page.locator('#board .cell.selected.four');
  assert.equal(await winning.count(), 1);
  assert.match(await winning.getAttribute('aria-label'), /column 7, .*Red's last move, in the winning four$/);
  assert.match(await winning.evaluate((c) => getComputedStyle(c).boxShadow), /,/);
  await page.screenshot({ path: join(shots, 'play.png') });
  // a move after the end names its count and its column (the count read as a column)
  await page.keyboard.press('4');
  assert.match(await page.locator('#message').textContent(), /Yellow's move 2 \(column 4\): the game stops here \(Red wins\), so no move can follow; Undo takes a move back/);
  // the solver judges Red's winning move
  await page.waitForFunction(() => /keeps the win/.test(document.querySelector('#hints').textContent));
  await page.keyboard.press('Backspace');
  assert.equal(await page.locator('#log li').count(), 1);
  await page.keyboard.press('7'); // the only block of Red's four
  assert.equal(await page.locator('#log li').nth(1).textContent(), 'Yellow 7');
  assert.match(await page.locator('#game-status').textContent(), /^Red played \d\. Yellow to move/);
  // Ctrl+Z takes the move back as Backspace does (the browser's own undo emptied the
  // Import box), then Yellow plays 7 again
  const box = await page.locator('#io-text').inputValue();
  await page.keyboard.press('Control+z');
  assert.equal(await page.locator('#log li').count(), 1);
  assert.equal(await page.locator('#io-text').inputValue(), box);
  await page.keyboard.press('7');
  assert.equal(await page.locator('#log li').nth(1).textContent(), 'Yellow 7');
  // Yellow to move again: the solver marks the losing replies (this root is a Red win, so all lose)
  await page.waitForFunction(() => /Yellow moves that lose: /.test(document.querySelector('#hints').textContent));
  const hints = await page.locator('#hints').textContent();
  assert.match(hints, /Red's last move keeps the win/);
  assert.ok((await page.locator('#board .cell.losing').count()) > 0);
  await page.screenshot({ path: join(shots, 'play-hints.png') });
});

test('an edit that cuts Play\'s Yellow line says so', async () => {
  const page = await open('#1.655433534337221121.990*H90*D96579.71122');
  await page.click('nav button[data-mode="levels"]');
  await page.click('#undecide-all');
  assert.match(await page.locator('#message').textContent(), /Yellow line 71122 was cut to nothing/);
  await page.click('#undo-levels');
  await page.click('nav button[data-mode="play"]');
  assert.ok((await page.locator('#log li').count()) >= 10, 'Undo brings the line back');
  assert.deepEqual(page.errors, []);
});

test('Undo after a link returns to the diagram before it with its own line; the same link written otherwise adds no step', async () => {
  const first = '#1.655433534337221121.990*H90*D96579';
  const page = await open(first);
  // another diagram of the same root, with a Yellow line, opened from the address bar
  const n = await count(page);
  await page.evaluate(() => { location.hash = '#1.655433534337221121.990*H90*E9579.7112'; });
  await settled(page, n);
  await page.click('nav button[data-mode="levels"]');
  await page.click('#undo-levels');
  // the diagram before, without the link's line (it was taken for moves played since),
  // and again after Redo and Undo
  await page.waitForFunction((h) => location.hash === h, first);
  await page.click('#redo-levels');
  await page.waitForFunction(() => location.hash.endsWith('.7112'));
  await page.click('#undo-levels');
  await page.waitForFunction((h) => location.hash === h, first);
  // the first link again, percent-encoded: nothing changes, so nothing to undo
  assert.equal(await page.locator('#undo-levels').isDisabled(), true);
  await page.evaluate(() => { location.hash = '#1.655433534337221121.990%2AH90%2AD96579'; });
  await page.waitForFunction(() => !/%2A/.test(location.hash));
  assert.equal(await page.locator('#undo-levels').isDisabled(), true);
  assert.deepEqual(page.errors, []);
});

test('an edit that changes Red\'s answers cuts Play\'s Yellow line where they change', async () => {
  // the line is still playable after each edit, but Red answers it otherwise: it was
  // kept whole and silently meant another game
  const page = await open('#1.5753556341.40310029911*A9403952993109409529.1243');
  await page.click('nav button[data-mode="levels"]');
  await page.click('#palette button[data-level="0"]');
  await page.click('#cell-16');
  assert.match(await page.locator('#message').textContent(),
    /Yellow line 1243 was cut to 12: with the changed diagram Red's answer to Yellow's move 2 is column 6, not column 2 \(Undo restores it\)/);
  assert.ok((await page.evaluate(() => location.hash)).endsWith('.12'));
  await page.click('#undo-levels');
  assert.ok((await page.evaluate(() => location.hash)).endsWith('.1243'), 'Undo brings the line back');
  await page.click('#palette button[data-level="9"]');
  await page.click('#cell-34');
  assert.match(await page.locator('#message').textContent(),
    /Yellow line 1243 was cut to nothing: with the changed diagram Red's first move is column 3, not column 7/);
  // a move that now turns on a ? cell is named as that, not as "no move"
  await page.click('#undo-levels');
  await page.click('#cell-23', { button: 'right' });
  assert.match(await page.locator('#message').textContent(),
    /Yellow line 1243 was cut to nothing: with the changed diagram Red's first move is none \(Red's move depends on the undecided \(\?\) cell in column 3/);
  await page.click('nav button[data-mode="play"]');
  assert.equal(await page.locator('#log li').count(), 0);
  assert.deepEqual(page.errors, []);
});

test('a long game\'s log shows whole move numbers and keeps the newest move in view', async () => {
  const page = await open('#1.655433534337221121.990*H90*D96579.71122', { width: 400, height: 800 });
  await page.waitForFunction(() => document.querySelectorAll('#log li').length >= 10);
  const log = await page.locator('#log').evaluate((ol) => {
    // the widest marker a game can need, as the list draws it ("42. ")
    const probe = document.createElement('span');
    probe.style.font = getComputedStyle(ol.children[0]).font;
    probe.textContent = '42.\u00a0';
    document.body.append(probe);
    const marker = probe.getBoundingClientRect().width;
    probe.remove();
    return { marker, room: parseFloat(getComputedStyle(ol).paddingLeft), top: ol.scrollTop, height: ol.clientHeight, full: ol.scrollHeight };
  });
  assert.ok(log.room > log.marker, `numbers clipped: ${log.room}px of room for ${log.marker}px`);
  assert.ok(log.full > log.height, 'the log outgrows its box here');
  assert.ok(log.top + log.height >= log.full - 2, `the newest move out of view: ${JSON.stringify(log)}`);
  assert.deepEqual(page.errors, []);
});

test('an upstream diagram imports in the old language and verifies', async (t) => {
  const blocks = upstreamDiagrams();
  if (!blocks) return t.skip(`upstream's solution is not at ${upstream}`);
  const page = await open();
  await importText(page, blocks[0]);
  assert.match(await page.locator('#message').textContent(), /Read: old seven-marker grid/);
  assert.match(await verdict(page), /^Win/);
  await page.waitForFunction(() => !document.querySelector('#simplify').textContent.endsWith('Simplify'));
  assert.match(await page.locator('#simplify').textContent(), /Simplify \((clears \d+|already minimal)\)/);
  await page.screenshot({ path: join(shots, 'levels-upstream.png') });
});

test('a share link restores the exact state', async () => {
  const page = await open();
  await importText(page, WIN);
  await page.click('nav button[data-mode="play"]');
  await cell(page, 2, 4).click();
  const link = await href(page);
  assert.match(link, /#1\.655433534337221121\..*\.2$/);
  const copy = await open(link.slice(url.length));
  assert.equal(await copy.evaluate(() => location.hash), new URL(link).hash);
  assert.equal(await copy.locator('nav button[aria-pressed="true"]').textContent(), 'Play');
  assert.deepEqual(await copy.locator('#log li').allTextContents(), await page.locator('#log li').allTextContents());
  const grid = async (p) => { await p.click('[data-export="grid"]'); return p.inputValue('#io-text'); };
  await copy.locator('#io summary').click();
  assert.equal(await grid(copy), WIN);
  assert.equal(await grid(page), WIN);
});

test('keyboard only: arrows move the focus ring and a digit paints', async () => {
  const page = await open();
  await page.focus('#board');
  let n = await count(page);
  await page.keyboard.press('ArrowDown'); // focus appears on the top-left cell
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('0'); // column 4, bottom row
  await settled(page, n);
  assert.match(await cell(page, 4, 1).getAttribute('title'), /column 4, row 1: .*level 0/);
  assert.equal(await page.locator('#board .cell.focus').count(), 1);
  // for a screen reader: six rows of seven cells, the focus ring the active descendant
  assert.deepEqual(await page.$$eval('#board > [role="row"]', (rows) => rows.map((r) => r.querySelectorAll('[role="gridcell"]').length)), [7, 7, 7, 7, 7, 7]);
  const active = await page.locator('#board').getAttribute('aria-activedescendant');
  assert.equal(active, await page.locator('#board .cell.focus').getAttribute('id'));
  assert.match(await page.locator(`#${active}`).getAttribute('aria-label'), /column 4, row 1: .*level 0/);
  n = await count(page);
  await page.keyboard.press('Backspace');
  await settled(page, n);
  assert.match(await cell(page, 4, 1).getAttribute('title'), /column 4, row 1: level 9/);
  // Redo brings the edit back, by key and by button, until a new edit
  for (const redo of [() => page.keyboard.press('Control+y'), () => page.click('#redo-levels'), () => page.keyboard.press('Control+Shift+Z')]) {
    n = await count(page);
    await redo();
    await settled(page, n);
    assert.match(await cell(page, 4, 1).getAttribute('title'), /column 4, row 1: .*level 0/);
    n = await count(page);
    await page.keyboard.press('Control+z');
    await settled(page, n);
    assert.match(await cell(page, 4, 1).getAttribute('title'), /column 4, row 1: level 9/);
  }
  assert.equal(await page.locator('#redo-levels').isDisabled(), false);
  await page.click('#undecide-all');
  assert.equal(await page.locator('#redo-levels').isDisabled(), true, 'a new edit ends Redo');
  await page.click('#undo-levels');
  // every control is a labelled button
  const unlabelled = await page.$$eval('button', (bs) => bs.filter((b) => !(b.textContent.trim() || b.getAttribute('aria-label'))).length);
  assert.equal(unlabelled, 0);
  await page.click('nav button[data-mode="position"]');
  await page.screenshot({ path: join(shots, 'position.png') });
});

test('a hostile share link is refused and injects nothing', async () => {
  const page = await browser.newPage();
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await page.goto(url + '#' + encodeURIComponent('<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'));
  await page.waitForFunction(() => window.__lab && window.__lab.verdicts > 0);
  assert.match(await page.locator('#message').textContent(), /The share link was refused/);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('img, body script').count(), 0);
  assert.deepEqual(dialogs, []);
  await page.goto(url + '#1.4.9');
  await page.waitForFunction(() => window.__lab && window.__lab.verdicts > 0);
  assert.match(await page.locator('#message').textContent(), /is no root: after its 1 move Yellow is to move/);
});

test('position mode: stones only, and illegal input is named', async () => {
  const page = await open();
  await page.click('nav button[data-mode="position"]');
  await page.fill('#stones', '.......\n.......\n.......\n.......\n...Y...\n..YRR..\n');
  let n = await count(page);
  await page.click('#set-stones');
  await settled(page, n);
  assert.match(await page.locator('#message').textContent(), /Root loaded from stones; a legal order is \d{4}/);
  await page.fill('#moves', '1111111');
  await page.click('#set-moves');
  assert.match(await page.locator('#message').textContent(), /^Move 7: column 1 is already full[.]$/);
  await page.fill('#stones', '.......\n.......\n.......\n.......\n...R...\n..Y....\n');
  await page.click('#set-stones');
  assert.match(await page.locator('#message').textContent(), /floats above an empty cell/);
  // Yellow to move: taken as the moves box takes it, with the word that Red needs the move
  // (it was refused: "the counts must be equal")
  await page.fill('#stones', '.......\n.......\n.......\n.......\n.......\n...R...\n');
  n = await count(page);
  await page.click('#set-stones');
  await settled(page, n);
  assert.match(await page.locator('#message').textContent(), /Yellow is to move here: add one more stone/);
  assert.equal(await page.locator('#moves').getAttribute('placeholder'), '4');
  // in Levels the verdict says nothing painted there is kept (a reload lost it unsaid)
  await page.click('nav button[data-mode="levels"]');
  assert.match(await verdict(page), /Until Red is to move, no link, export or reload keeps this diagram/);
  // a root of unequal counts: its sentence ends before the note starts (it ran on:
  // "the counts must be equal Until Red is to move")
  await page.click('nav button[data-mode="position"]');
  await page.fill('#moves', '44533');
  await page.click('#set-moves');
  await page.click('nav button[data-mode="levels"]');
  assert.match(await verdict(page), /[.] Until Red is to move/);
  assert.doesNotMatch(await verdict(page), /[^.] Until Red/);
  // a root changed under Play's Yellow line says the line was left out (it went unsaid)
  const played = await open('#1.655433534337221121.990*H90*E9579.7112');
  const hash = async () => new URL(await played.evaluate(() => location.href)).hash;
  await played.click('nav button[data-mode="position"]');
  // the root it is already, typed again, or an empty box: nothing changes, the line
  // stays (it was dropped unsaid, with no Undo step; an empty box set the empty board)
  for (const typed of ['655433534337221121', '']) {
    await played.fill('#moves', typed);
    await played.click('#set-moves');
    assert.match(await hash(), /[.]7112$/, typed);
    assert.match(await played.locator('#message').textContent(), typed ? /is 655433534337221121 already: nothing changed/ : /Type a move sequence first/);
  }
  n = await count(played);
  await played.click('#board .cell >> nth=3');
  await settled(played, n);
  assert.match(await played.locator('#message').textContent(), /Play's Yellow line 7112 was played from the old root, so it was left out/);
  await played.close();
});

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
  assert.match(await verdict(page), /^Incomplete: 10 undecided cells/);
  await page.click('#fill');
  await page.waitForFunction(() => !document.querySelector('#fill-keep').disabled, null, { timeout: 60_000 });
  assert.match(await page.locator('#fill-status').textContent(), /^Found a completion that verifies as a win/);
  assert.equal(await page.locator('#board .cell.candidate').count(), 10);
  // each shows its level, a 9 too (drawn as a plain empty cell, it looked undecided-free)
  assert.ok(await page.$$eval('#board .cell.candidate', (cs) => cs.every((c) => c.textContent !== '')));
  await page.screenshot({ path: join(shots, 'fill-found.png') });
  const n = await count(page);
  await page.click('#fill-keep');
  assert.match(await settled(page, n), /^Win/);
  assert.equal(await page.locator('#board .cell.candidate').count(), 0);
  await page.waitForFunction(() => !document.querySelector('#simplify').disabled || /minimal/.test(document.querySelector('#simplify').textContent));
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
  // the empty board, every cell undecided: a wide scope that runs until stopped
  await emptyBoardAllUndecided(page);
  assert.equal(await page.locator('#clear-root').getAttribute('title'), 'Off: the root is the empty board already. Take every root stone off');
  assert.equal(await page.locator('#clear-root').isDisabled(), true);
  await page.click('#fill');
  assert.match(await page.locator('#fill-status').textContent(), /wide scope/);
  await page.waitForFunction(() => /^Searching… [1-9]/.test(document.querySelector('#fill-status').textContent), null, { timeout: 30_000 });
  assert.ok(await page.locator('#board .cell.candidate').count() > 0, 'the live candidate is drawn');
  await page.waitForFunction(() => /Deepest loss/.test(document.querySelector('#fill-status').textContent), null, { timeout: 30_000 });
  await page.click('#fill-stop');
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

// Runs the page's Solve root on the diagram in `text` and returns the final report.
async function solveRoot(page, text) {
  await importText(page, text);
  await page.click('#dsat');
  await page.waitForFunction(() => {
    const r = window.__lab.dsat();
    return r && (!r.ok || !['mapping', 'searching'].includes(r.state));
  }, null, { timeout: 120_000 });
  return page.evaluate(() => window.__lab.dsat());
}

// `c4lab dsat --json` natively on the same diagram.
function nativeDsat(text, backend, ...flags) {
  const r = spawnSync(bin, ['dsat', '--json', '--backend', backend, ...flags], { input: text, encoding: 'utf8' });
  assert.ok(r.stdout, `c4lab dsat printed nothing: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

test('Solve root agrees with the native dsat on small roots, and Keep applies a found diagram', async (t) => {
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

test('Solve root races two searches as c4lab dsat does: the same winner, dead ends and diagram', async () => {
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

test('Solve root runs a local search in each worker, as c4lab dsat does: the second\'s stream can win', async () => {
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

test('Solve root says what its local search did when stopped there, and runs a clock from the start', async () => {
  const page = await open();
  await emptyBoardAllUndecided(page);
  await page.click('#dsat');
  // the start's words stand with a clock until the first report (seconds near the empty board)
  assert.match(await page.locator('#dsat-status').textContent(), /^A local search first, then mapping every position .* \(\d+\.\d s\)$/);
  await page.waitForFunction(() => /^Local search before mapping: /.test(document.querySelector('#dsat-status').textContent), null, { timeout: 60_000 });
  assert.equal(await page.locator('#dsat-gauge').getAttribute('aria-label'), "Share of the local search's work budget spent");
  await page.click('#dsat-stop');
  // (it said "0 positions, 0 dead ends": the local search's work was lost)
  assert.match(await page.locator('#dsat-status').textContent(), /^Stopped after [0-9.]+ s, in the local search before mapping: [\d,]+ repair steps?, [\d,]+ of 25,000,000 units of work\.$/);
  assert.deepEqual(page.errors, []);
});

test('Solve root shows its mapping gauge on a wide root and stops at once', async () => {
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

test('the model hint in Play mode: a file from c4lab train, the same move as c4lab hint', async (t) => {
  // a small model trained natively on a small generated corpus
  const dir = mkdtempSync(join(tmpdir(), 'c4lab-model-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const run = (args) => {
    const r = spawnSync(bin, args, { encoding: 'utf8' });
    assert.equal(r.status, 0, `c4lab ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  run(['corpus', 'generate', '--games', '200', '--holdout', '20', '--seed', '5', '--out', dir]);
  const model = join(dir, 'm.c4m');
  run(['train', '--load-corpus', join(dir, 'train', 'corpus_200.txt'),
    '--perply-targets', join(dir, 'train', 'perply_targets.npz'), '--steps', '500', '--out', model]);
  const junk = join(dir, 'junk.c4m');
  writeFileSync(junk, 'not a model');

  const page = await open();
  await importText(page, WIN);
  const root = await page.evaluate((w) => JSON.parse(window.__lab.engine.read_any(w)).root, WIN);
  await page.click('nav button[data-mode="play"]');
  await page.setInputFiles('#model-file', junk);
  await page.waitForFunction(() => /not a c4lab model/.test(document.querySelector('#model-status').textContent));
  assert.doesNotMatch(await page.locator('#model-status').textContent(), /not a c4lab model.*not a c4lab model/);
  assert.equal(await page.locator('#model-hint').textContent(), '');
  await page.setInputFiles('#model-file', model);
  await page.waitForFunction(() => /^Model loaded/.test(document.querySelector('#model-status').textContent));
  const line = async () => (await page.locator('#log li').allTextContents())
    .map((t) => (t.match(/^(?:Red|Yellow) (\d)/) || [])[1]).filter(Boolean).join('');
  // Yellow to move (after Red's first move, then after Yellow blocks and Red answers):
  // the page names the column the native model names for the same position
  for (const reply of [null, '7']) {
    if (reply) {
      await page.keyboard.press(reply);
      await page.waitForFunction(() => document.querySelectorAll('#log li').length >= 3);
    }
    const moves = root + (await line());
    const native = JSON.parse(run(['hint', '--json', '--model', model, moves]));
    assert.equal(native.moves, moves);
    assert.equal(await page.locator('#model-hint').getAttribute('data-column'), String(native.column), moves);
    assert.equal(await page.locator('#model-hint').textContent(), `Model: Yellow plays column ${native.column}.`);
  }
  // a refused file after a good one leaves the good one giving the hint
  const column = await page.locator('#model-hint').getAttribute('data-column');
  await page.setInputFiles('#model-file', junk);
  await page.waitForFunction(() => /still gives the hint/.test(document.querySelector('#model-status').textContent));
  assert.match(await page.locator('#model-status').textContent(), /^junk\.c4m: not a c4lab model.*The model loaded before, m\.c4m, still gives the hint\.$/);
  assert.equal(await page.locator('#model-hint').getAttribute('data-column'), column);
  // a finished game has no hint
  await page.keyboard.press('Backspace');
  await page.keyboard.press('1');
  await page.waitForFunction(() => /Red wins/.test(document.querySelector('#game-status').textContent));
  assert.equal(await page.locator('#model-hint').textContent(), '');
  assert.deepEqual(page.errors, []);
});

test('speed: verification in the worker over upstream diagrams', async (t) => {
  const blocks = upstreamDiagrams();
  if (!blocks) return t.skip(`upstream's solution is not at ${upstream}`);
  const page = await open();
  const grids = await page.evaluate((bs) => bs.map((b) => {
    const r = JSON.parse(window.__lab.engine.read_any(b));
    return r.cells.match(/.{7}/g).join('\n');
  }), blocks.filter((_, i) => i % 5 === 0));
  const times = await page.evaluate((g) => window.__lab.benchVerify(g), grids);
  assert.ok(times.every((r) => r.verdict === 'win'), 'every upstream diagram wins in the browser');
  const ms = times.map((r) => r.ms).sort((a, b) => a - b);
  const wasm = statSync(join(repo, 'web', 'pkg', 'c4lab_wasm_bg.wasm')).size;
  console.log(`# browser verify over ${ms.length} upstream diagrams: median ${ms[ms.length >> 1].toFixed(3)} ms, max ${ms[ms.length - 1].toFixed(2)} ms`);
  console.log(`# engine size: ${(wasm / 1024).toFixed(0)} KB`);
});

test('narrow screen and dark theme', async () => {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(url);
  await page.waitForFunction(() => window.__lab && window.__lab.verdicts > 0);
  // the board stacks above the panel and stays usable (cells at least ~36 px)
  const board = await page.locator('#board').boundingBox();
  const panel = await page.locator('#panel').boundingBox();
  assert.ok(panel.y > board.y + board.height - 1, 'the panel sits below the board');
  const cellBox = await page.locator('#board .cell').first().boundingBox();
  assert.ok(cellBox.width >= 36, `cells are ${cellBox.width} px wide`);
  // a Position-mode refusal shows in view, under the board (it sat at the panel's end,
  // below the import box, off screen)
  await page.click('nav button[data-mode="position"]');
  await page.fill('#moves', '4444444');
  await page.click('#set-moves');
  const said = await page.locator('#message').boundingBox();
  assert.match(await page.locator('#message').textContent(), /column 4 is already full/);
  assert.ok(said.y >= 0 && said.y + said.height <= 844, `the message spans ${said.y}-${said.y + said.height} px of the 844 in view`);
  await page.click('nav button[data-mode="levels"]');
  const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.click('#theme');
  const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(light, dark);
  // a pressed button's text stays readable on the accent (white on it was 2.6:1)
  const contrast = await page.locator('nav button[aria-pressed="true"]').evaluate((b) => {
    const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
    const lum = (c) => rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
      .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    const [a, b2] = [lum(getComputedStyle(b).color), lum(getComputedStyle(b).backgroundColor)];
    return (Math.max(a, b2) + 0.05) / (Math.min(a, b2) + 0.05);
  });
  assert.ok(contrast >= 4.5, `contrast ${contrast.toFixed(2)}:1`);
  // and the theme chosen is kept after a reload
  await page.reload();
  await page.waitForFunction(() => window.__lab && window.__lab.verdicts > 0);
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), dark);
  // a 42-move losing line wraps in the verdict (it widened the page past the screen)
  await importText(page, '3150109\n7038205\n4149000\n4520713\n1354577\n6664641\n');
  assert.match(await page.locator('#verdict').textContent(), /a draw \(the board fills\) after \d{42}/);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 390, `the page is ${wide} px wide`);
  await page.screenshot({ path: join(shots, 'narrow-dark.png'), fullPage: true });
});

test('Solve root by default keeps the ? cells to as few levels as the native dsat, with no gap', async (t) => {
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

test('odd input leaves the page saying what it did: truncated links, Yellow-to-move and full roots, Undo after Mirror, ? under stones', async () => {
  // a truncated link is read as a link (not as a grid) and stays in the address bar
  let page = await open('#1');
  const message = () => page.locator('#message').textContent();
  assert.match(await message(), /The share link was refused/);
  assert.doesNotMatch(await message(), /six rows/);
  assert.ok((await href(page)).endsWith('#1'), (await href(page)));
  // a fragment that is no link at all is named as such, not as a grid of the wrong shape
  const garbage = await open('#garbage');
  assert.match(await garbage.locator('#message').textContent(), /#garbage is no c4lab share link/);
  await garbage.close();
  // Share link then puts the diagram's own link there, as it says
  if (!(await page.locator('#io').evaluate((d) => d.open))) await page.locator('#io summary').click();
  await page.click('[data-export="link"]');
  assert.match(await message(), /also in the address bar/);
  assert.equal(new URL(await href(page)).hash, new URL(await page.locator('#io-text').inputValue()).hash);
  await page.close();

  page = await open();
  const root = () => page.locator('#moves').getAttribute('placeholder');
  const setMoves = async (moves) => {
    await page.click('nav button[data-mode="position"]');
    await page.fill('#moves', moves);
    await page.click('#set-moves');
  };
  // Yellow to move at the root: Play says why there are no hints instead of thinking on
  await setMoves('4');
  await page.click('nav button[data-mode="play"]');
  await page.waitForFunction(() => /no hints here/.test(document.querySelector('#hints').textContent));
  // the searches' buttons are off, and their titles say why
  for (const id of ['#fill', '#dsat']) {
    assert.equal(await page.locator(id).isDisabled(), true);
    assert.match(await page.locator(id).getAttribute('title'), /^Off: Yellow is to move at the root/);
  }
  // a full board (42 moves, no four) is refused as a root
  await setMoves('257771314744647214154617633623313656555222');
  assert.match(await message(), /the board is full/);
  assert.equal(await root(), '4');
  // Undo after Mirror restores the root with the levels
  await setMoves('12');
  await page.click('nav button[data-mode="levels"]');
  await page.click('#mirror');
  assert.equal(await root(), '76');
  await page.click('#undo-levels');
  assert.equal(await root(), '12');
  // a root changed in Position is one Levels Undo step, not lost with the edit before it
  await page.click(`#palette button[data-level="3"]`);
  await cell(page, 5, 1).click();
  await setMoves('1244');
  await page.click('nav button[data-mode="levels"]');
  await page.click('#undo-levels');
  assert.equal(await root(), '12');
  assert.match(await cell(page, 5, 1).getAttribute('title'), /level 3/, 'the paint before the root change stays');
  // ? cells kept under root stones are not counted as undecided
  await page.click('#undecide-all');
  await setMoves('1234');
  await page.click('nav button[data-mode="levels"]');
  await page.click('#fill');
  assert.match(await page.locator('#fill-status').textContent(), /for 38 undecided cells/);
  await page.click('#fill-stop');
  assert.doesNotMatch(await page.locator('#fill-status').textContent(), /^Searching/, 'a stopped search is not said to search');
  assert.deepEqual(page.errors, []);
});

test('Fill ? says so when its engine cannot load, instead of searching forever', async () => {
  const page = await open();
  // the synthesis engine is fetched only by the auto-complete and dsat workers
  await page.route('**/c4lab_wasm_synth_bg.wasm', (r) => r.abort());
  await importText(page, WIN);
  await page.click('#undecide-all');
  await page.click('#fill');
  await page.waitForFunction(() => /did not load|failed/.test(document.querySelector('#fill-status').textContent), null, { timeout: 20_000 });
  // a failure, not a refusal of the diagram: said as a sentence
  assert.match(await page.locator('#fill-status').textContent(), /^Auto-complete failed: the engine did not load: .*[.]$/);
  assert.equal(await page.locator('#fill-stop').isDisabled(), true);
});

test('a verifier or solver worker that cannot load is named, not waited on', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  // both workers' scripts refused: the page's own engine still loads
  await page.route('**/verify.worker.js', (r) => r.abort());
  await page.route('**/solve.worker.js', (r) => r.abort());
  await page.goto(url);
  await page.waitForFunction(() => /Verification failed/.test(document.querySelector('#verdict').textContent), null, { timeout: 20_000 });
  // Play asks the solver for hints: its failure is said in the hints line
  await page.click('nav button[data-mode="play"]');
  await page.waitForFunction(() => /the solver stopped/.test(document.querySelector('#hints').textContent), null, { timeout: 20_000 });
  assert.match(await page.locator('#hints').textContent(), /^Solver: no hints here: the solver stopped/);
  await page.close();
});

test('a diagram whose root already holds a four is refused on import, as a link with it is', async () => {
  const page = await open();
  await importText(page, WIN);
  const link = new URL(await href(page)).hash;
  assert.notEqual(link, '');
  // (it was taken, with the address bar emptied: a reload lost it without a word)
  await page.fill('#io-text', '9999999\n9999999\n9999999\n9999999\nR999999\nYYYYRRR\n');
  await page.click('#import');
  assert.match(await page.locator('#message').textContent(), /^The stones already hold a four/);
  assert.match(await verdict(page), /^Win/, 'the diagram before stays');
  assert.equal(new URL(await href(page)).hash, link);
  await page.close();
});

test('a Levels edit after moves in Play keeps a share link that opens', async () => {
  const page = await open();
  await importText(page, WIN);
  await page.click('nav button[data-mode="play"]');
  await cell(page, 7, 2).click(); // Yellow on column 7; Red answers from the diagram
  assert.match(new URL(await href(page)).hash, /\.7$/);
  // every level 9: Red names no move at the root, so Yellow's 7 is no longer played
  await page.click('nav button[data-mode="levels"]');
  const n = await count(page);
  await page.click('#clear');
  await settled(page, n);
  const link = new URL(await href(page)).hash;
  assert.doesNotMatch(link, /\.7$/, link);
  // the link in the address bar opens
  const other = await open(link);
  assert.doesNotMatch(await other.locator('#message').textContent(), /refused/);
  await other.close();
  await page.close();
});

test('Play on a root where Red names no move says there is nothing to judge', async () => {
  const page = await open(); // every level 9: the rule names no move at the root
  await page.click('nav button[data-mode="play"]');
  await page.waitForFunction(() => /nothing to judge/.test(document.querySelector('#hints').textContent), null, { timeout: 20_000 });
  await page.close();
  // every cell `?`: Red's move turns on levels not given yet, so Play stops and says so
  // (it used to say the diagram names no move, as if a `?` could never be played)
  const undecided = await open('#1.-.*Z?*L?');
  await undecided.click('nav button[data-mode="play"]');
  assert.match(await undecided.locator('#game-status').textContent(),
    /^Red's move depends on the undecided \(\?\) cells in columns 1, 2, 3, 4, 5, 6, 7: give them a level to play on[.]$/);
  assert.equal(await undecided.locator('#log li').count(), 0);
  await undecided.close();
  // a link whose Yellow line runs past such a stop opens cut there, and says so
  const cut = await open('#1.4453.0123456*Y9?*A9.41');
  assert.match(await cut.locator('#message').textContent(),
    /The link's Yellow line \(2 moves\) was left out: Red's first move depends on a \? cell[.]$/);
  await cut.close();
});

test('starting one search sets the other aside, so the board previews what Keep applies', async () => {
  const page = await open();
  await importText(page, WIN);
  await page.click('#undecide-all');
  await page.click('#dsat');
  await page.waitForFunction(() => !document.querySelector('#dsat-keep').disabled, null, { timeout: 60_000 });
  await page.click('#fill');
  assert.match(await page.locator('#dsat-status').textContent(), /^Set aside: Fill \? started/);
  assert.equal(await page.locator('#dsat-keep').isDisabled(), true);
  // and the other way round, once Fill ? has reported
  await page.waitForFunction(() => /^(Searching… [1-9]|Found)/.test(document.querySelector('#fill-status').textContent), null, { timeout: 30_000 });
  await page.click('#dsat');
  assert.match(await page.locator('#fill-status').textContent(), /^Set aside: Solve root started/);
  await page.evaluate(() => document.querySelector('#dsat-stop').click()); // a no-op if it has ended
  // once that solve is discarded, nothing stands behind the line: it goes
  await page.click('#dsat-discard');
  assert.equal(await page.locator('#fill-status').textContent(), '');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('importing a link with a Yellow line opens it in Play, as opening it does', async () => {
  const page = await open();
  await importText(page, WIN);
  await page.click('nav button[data-mode="play"]');
  await cell(page, 7, 2).click();
  const link = await href(page);
  assert.match(link, /\.7$/);
  const other = await open();
  await importText(other, link);
  assert.equal(await other.locator('nav button[data-mode="play"]').getAttribute('aria-pressed'), 'true');
  assert.match(await other.locator('#message').textContent(), /Yellow's moves 7/);
  assert.match((await other.locator('#log li').allTextContents()).join(' | '), /Yellow 7/);
  await other.close();
  await page.close();
});

test('what a user noticed: stale messages, a palette that follows the keys, failed exports, a search lost to an edit, an answer set aside by one, Solve root with nothing to fill, keys away from the board, a steady panel', async () => {
  const page = await open();
  await importText(page, WIN);
  // a refused paint's message goes with the next edit
  await page.click('#palette button[data-level="3"]');
  await cell(page, 1, 1).click(); // a root stone
  assert.match(await page.locator('#message').textContent(), /holds a root stone/);
  // a level picked by key shows in the palette, even where its paint is refused
  await page.focus('#board');
  await page.keyboard.press('ArrowRight'); // the focus ring starts on the cell clicked last
  await page.keyboard.press('4');
  assert.match(await page.locator('#message').textContent(), /holds a root stone/);
  assert.equal(await page.locator('#palette button[data-level="4"]').getAttribute('aria-pressed'), 'true');
  await page.keyboard.press('Escape');
  await page.click('#palette button[data-level="3"]');
  let n = await count(page);
  await cell(page, 7, 6).click();
  await settled(page, n);
  assert.equal(await page.locator('#message').textContent(), '');
  // a button whose click would change nothing is off and says why (Clear on a clear
  // diagram left no Undo step, but looked as if it did something)
  if (!(await page.locator('#io').evaluate((d) => d.open))) await page.locator('#io summary').click();
  const grid = async () => { await page.click('[data-export="grid"]'); return page.inputValue('#io-text'); };
  const painted = await grid();
  const off = async (id) => (await page.locator(id).isDisabled()) && (await page.locator(id).getAttribute('title'));
  assert.equal(await off('#clear'), false);
  assert.match(await off('#clear-undecided'), /^Off: there is no \? cell\. Set every \? cell to 9$/);
  await page.click('#clear');
  assert.match(await off('#clear'), /^Off: every cell is at level 9 already\./);
  assert.equal(await off('#mirror'), false, 'the root is no mirror image of itself');
  // a fresh page (every cell 9, the empty board) is its own mirror image: Mirror would
  // change nothing; one cell painted off the middle column turns it on
  const fresh = await open();
  const mirrorTitle = () => fresh.locator('#mirror').getAttribute('title');
  assert.equal(await fresh.locator('#mirror').isDisabled(), true);
  assert.match(await mirrorTitle(), /^Off: the levels, the root and the Yellow line are their own mirror image[.] Mirror the levels/);
  await fresh.click('#palette button[data-level="2"]');
  await cell(fresh, 1, 1).click();
  assert.equal(await fresh.locator('#mirror').isDisabled(), false);
  assert.equal(await mirrorTitle(), 'Mirror the levels and the root left to right');
  await fresh.close();
  await page.click('#undecide-all');
  assert.match(await off('#undecide-all'), /^Off: every cell is \? already\./);
  assert.equal(await off('#clear'), false);
  await page.click('#clear-undecided');
  assert.match(await off('#clear'), /level 9 already/, 'Clear ? set every cell to 9');
  assert.match(await off('#redo-levels'), /^Off: nothing to redo[.]/);
  for (let i = 0; i < 3; i++) await page.click('#undo-levels');
  assert.equal(await grid(), painted, 'an Undo for each of the three edits');
  assert.equal(await off('#clear'), false);
  assert.equal(await off('#redo-levels'), false);
  // a failed export empties the box rather than leave the last one there to be copied
  await importText(page, WIN);
  await page.click('[data-export="json"]');
  assert.match(await page.inputValue('#io-text'), /^\[/);
  await page.click('[data-export="old"]');
  assert.match(await page.locator('#message').textContent(), /no old-language marker/);
  assert.equal(await page.inputValue('#io-text'), '');
  // Solve root on a diagram with no ? cells: nothing to fill, nothing to keep
  await page.click('#dsat');
  await page.waitForFunction(() => /nothing to fill/.test(document.querySelector('#dsat-status').textContent), null, { timeout: 30_000 });
  assert.equal(await page.locator('#dsat-keep').isDisabled(), true);
  // the search's buttons say why they are off, as the others do
  assert.match(await off('#dsat-keep'), /^Off: the diagram has no \? cell for it to fill[.] Write the found levels/);
  assert.match(await off('#dsat-stop'), /^Off: no search is running[.]$/);
  await page.click('#dsat-discard');
  assert.match(await off('#dsat-discard'), /^Off: there is no search result to forget[.] Forget the solve/);
  assert.match(await off('#dsat-keep'), /^Off: no search has found a diagram[.]/);
  // the panel does not move when a candidate's legend line appears
  const x0 = (await page.locator('#panel').boundingBox()).x;
  await page.click('#undecide-all');
  await page.click('#dsat');
  await page.waitForFunction(() => !document.querySelector('#dsat-keep').disabled, null, { timeout: 60_000 });
  assert.match(await page.locator('#legend').textContent(), /candidate levels/);
  assert.equal((await page.locator('#panel').boundingBox()).x, x0);
  // an edit after a find sets its answer aside and says so; Undo brings both back
  await cell(page, 7, 6).click();
  assert.match(await page.locator('#dsat-status').textContent(), /^Set aside: the diagram changed after the search ended/);
  assert.equal(await page.locator('#dsat-keep').isDisabled(), true);
  await page.click('#undo-levels');
  assert.match(await page.locator('#dsat-status').textContent(), /^Found a diagram/);
  assert.equal(await page.locator('#dsat-keep').isDisabled(), false);
  await page.click('#dsat-discard');
  // an edit while a search runs ends it, and says so
  await emptyBoardAllUndecided(page);
  await page.click('#palette button[data-level="5"]');
  await page.click('#dsat');
  assert.match(await off('#dsat-discard'), /^Off: the search is running; Stop it first[.]/);
  assert.match(await off('#dsat'), /^Off: a search is running; Stop ends it[.]/);
  await cell(page, 4, 1).click(); // at once: the empty board's map takes many seconds
  assert.match(await page.locator('#dsat-status').textContent(), /^Stopped: the diagram changed/);
  assert.equal(await page.locator('#dsat-stop').isDisabled(), true);
  // away from the board, arrows scroll and a digit only picks the level
  await page.evaluate(() => document.activeElement.blur());
  const before = await grid();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('2');
  assert.equal(await page.locator('#board .cell.focus').count(), 0);
  assert.equal(await grid(), before);
  assert.equal(await page.locator('#palette button[data-level="2"]').getAttribute('aria-pressed'), 'true');
  // Enter in the move-sequence field sets the root, as the button does
  await page.click('nav button[data-mode="position"]');
  n = await count(page);
  await page.fill('#moves', '4453');
  await page.press('#moves', 'Enter');
  await settled(page, n);
  assert.equal(await page.getAttribute('#moves', 'placeholder'), '4453');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('what a user noticed, second round: a tablet width, stale set-aside lines, a root being built, encoded links, an early Stop, Mirror in Play, buttons with nothing to do', async () => {
  // a tablet: the panel wraps under the board rather than squeeze, and nothing scrolls sideways
  const tablet = await browser.newPage({ viewport: { width: 768, height: 1024 } });
  await tablet.goto(url);
  await tablet.waitForFunction(() => window.__lab && window.__lab.verdicts > 0);
  assert.ok(await tablet.evaluate(() => document.documentElement.scrollWidth <= innerWidth));
  assert.ok((await tablet.locator('#panel').boundingBox()).width >= 300);
  await tablet.close();

  const page = await open();
  // nothing to undo: the Undo buttons are off
  assert.equal(await page.locator('#undo-levels').isDisabled(), true);
  await importText(page, WIN);
  await page.click('nav button[data-mode="play"]');
  assert.equal(await page.locator('#undo-play').isDisabled(), true);
  assert.equal(await page.locator('#to-root').isDisabled(), true);
  // Mirror keeps the Yellow line, mirrored
  await cell(page, 7, 2).click();
  assert.match(new URL(await href(page)).hash, /\.7$/);
  await page.click('nav button[data-mode="levels"]');
  let n = await count(page);
  await page.click('#mirror');
  await settled(page, n);
  assert.match(new URL(await href(page)).hash, /\.1$/);
  await page.click('#mirror');
  // a root being built stone by stone: Yellow to move keeps the last link, and neither
  // search can start there
  await page.click('nav button[data-mode="position"]');
  const link = new URL(await href(page)).hash;
  n = await count(page);
  await cell(page, 4, 3).click();
  await settled(page, n);
  assert.match(await page.locator('#message').textContent(), /Yellow is to move/);
  assert.equal(new URL(await href(page)).hash, link);
  assert.equal(await page.locator('#fill').isDisabled(), true);
  assert.equal(await page.locator('#dsat').isDisabled(), true);
  // nor is it exported, since Import would refuse what it wrote
  if (!(await page.locator('#io').evaluate((d) => d.open))) await page.locator('#io summary').click();
  await page.click('[data-export="grid"]');
  assert.match(await page.locator('#message').textContent(), /export once the root has Red to move/);
  assert.equal(await page.inputValue('#io-text'), '');
  // the move field empties once the root changes, so its placeholder shows the root
  n = await count(page);
  await page.fill('#moves', '4453');
  await page.press('#moves', 'Enter');
  await settled(page, n);
  n = await count(page);
  await cell(page, 1, 1).click();
  await settled(page, n);
  assert.equal(await page.inputValue('#moves'), '');
  assert.equal(await page.getAttribute('#moves', 'placeholder'), '44531');
  // a full board is no root, imported or linked, as in Position mode
  const fullMoves = '257771314744647214154617633623313656555222';
  if (!(await page.locator('#io').evaluate((d) => d.open))) await page.locator('#io summary').click();
  await page.fill('#io-text', `${url}#1.${fullMoves}.`);
  await page.click('#import');
  assert.match(await page.locator('#message').textContent(), /is no root: the board is full; a root has Red to move, no four and a cell left for Red's move[.]$/);
  await page.fill('#io-text', 'YYRRRYY\nRRRYYYR\nRYYYRYY\nRRRYRRR\nYYYRYYY\nYRRRYRR\n');
  await page.click('#import');
  assert.match(await page.locator('#message').textContent(), /The board is full/);
  // a percent-encoded link reads as from the address bar
  await importText(page, `${url}#1.-.%3F*Z9*K9`);
  assert.match(await verdict(page), /^Incomplete: 1 undecided cell/);
  // Fill ? stopped before its first report says so
  await page.click('nav button[data-mode="levels"]');
  await page.click('#undecide-all');
  await page.evaluate(() => { document.querySelector('#fill').click(); document.querySelector('#fill-stop').click(); });
  assert.match(await page.locator('#fill-status').textContent(), /^Stopped after [0-9.]+ s, before the first candidate/);
  // a set-aside line goes with the next edit
  await page.click('#fill');
  await page.click('#dsat');
  assert.match(await page.locator('#fill-status').textContent(), /^Set aside: Solve root started/);
  await page.click('#dsat-stop');
  await page.click('#palette button[data-level="4"]');
  n = await count(page);
  await cell(page, 1, 6).click();
  await settled(page, n);
  assert.equal(await page.locator('#fill-status').textContent(), '');
  assert.deepEqual(page.errors, []);
  await page.close();
  // a refused link's message goes once the address is cleared by hand
  const refused = await open('#1.448.9');
  assert.match(await refused.locator('#message').textContent(), /share link was refused/);
  n = await count(refused);
  await refused.evaluate(() => { location.hash = ''; });
  await settled(refused, n);
  assert.equal(await refused.locator('#message').textContent(), '');
  await refused.close();
});

test('what a user noticed, third round: Undo and Redo after Play moves, the undo keys on a non-Latin layout, a doubly encoded link', async () => {
  const page = await open();
  await importText(page, WIN);
  const topLeft = () => cell(page, 1, 6).getAttribute('title');
  await page.click('#palette button[data-level="4"]');
  let n = await count(page);
  await cell(page, 1, 6).click();
  await settled(page, n);
  // Ctrl+Z and Ctrl+Y on a layout whose Z and Y keys give Cyrillic letters
  const press = (key, code) => page.evaluate(([key, code]) => document.body.dispatchEvent(
    new KeyboardEvent('keydown', { key, code, ctrlKey: true, bubbles: true, cancelable: true })), [key, code]);
  n = await count(page);
  await press('я', 'KeyZ');
  await settled(page, n);
  assert.match(await topLeft(), /level 9/);
  n = await count(page);
  await press('н', 'KeyY');
  await settled(page, n);
  assert.match(await topLeft(), /level 4/);
  // a Latin layout's other keys are left alone: Dvorak gives `;` where US has Z
  assert.equal(await press(';', 'KeyZ'), true, 'the browser keeps Ctrl+;');
  assert.match(await topLeft(), /level 4/);
  n = await count(page);
  await page.click('#undo-levels');
  await settled(page, n);
  assert.equal(await page.locator('#redo-levels').isDisabled(), false);
  // Backspace in Play with no move to take back leaves Redo alone
  await page.click('nav button[data-mode="play"]');
  await page.keyboard.press('Backspace');
  await page.click('nav button[data-mode="levels"]');
  assert.equal(await page.locator('#redo-levels').isDisabled(), false);
  // a Yellow move in Play ends Redo, whose snapshot holds the line before the move
  await page.click('nav button[data-mode="play"]');
  await cell(page, 7, 2).click();
  assert.match(new URL(await href(page)).hash, /\.7$/);
  await page.click('nav button[data-mode="levels"]');
  assert.equal(await page.locator('#redo-levels').isDisabled(), true);
  await page.keyboard.press('Control+y');
  assert.match(new URL(await href(page)).hash, /\.7$/, 'Redo took no move back');
  assert.match(await topLeft(), /level 9/);
  // nor does Undo: an edit, a move in Play, then Undo in Levels keeps the move
  n = await count(page);
  await cell(page, 1, 6).click();
  await settled(page, n);
  await page.click('nav button[data-mode="play"]');
  await cell(page, 7, 2).click();
  assert.match(new URL(await href(page)).hash, /\.77$/);
  await page.click('nav button[data-mode="levels"]');
  n = await count(page);
  await page.click('#undo-levels');
  await settled(page, n);
  assert.match(await topLeft(), /level 9/);
  assert.match(new URL(await href(page)).hash, /\.77$/, 'Undo kept the moves played since the edit');
  // and an edit that cut the line (every level 9: Red names no move) gives it back on Undo
  n = await count(page);
  await page.click('#clear');
  await settled(page, n);
  assert.doesNotMatch(new URL(await href(page)).hash, /\.77$/);
  n = await count(page);
  await page.click('#undo-levels');
  await settled(page, n);
  assert.match(new URL(await href(page)).hash, /\.77$/, 'Undo gave back the line the edit cut');
  assert.deepEqual(page.errors, []);
  await page.close();
  // the percent-encoding of a link is undone once, as `c4lab` does: `%253F` is no `?`
  const once = await open('#1.-.%3F*Z9*K9');
  assert.match(await verdict(once), /^Incomplete: 1 undecided cell/);
  await once.close();
  const twice = await open('#1.-.%253F*Z9*K9');
  assert.match(await twice.locator('#message').textContent(), /share link was refused/);
  await twice.close();
  const cli = spawnSync(bin, ['verify', '-'], { input: '1.-.%253F*Z9*K9\n', encoding: 'utf8' });
  assert.equal(cli.status, 2, cli.stderr);
});

test('what a user noticed, fourth round: a set-aside answer lost to the other search, the keyboard focus through a search, Stop with nothing to restart, an unsat Fill ?, errors as sentences, settings held while a solve runs', async () => {
  const page = await open();
  await importText(page, WIN);
  await page.click('#undecide-all');
  // Solve root's answer, set aside by an edit, promises Undo or Redo; Fill ? started
  // after it throws that answer away, and the line says so rather than keep the promise
  await page.click('#dsat');
  await page.waitForFunction(() => !document.querySelector('#dsat-keep').disabled, null, { timeout: 60_000 });
  await page.click('#palette button[data-level="5"]');
  let n = await count(page);
  await cell(page, 1, 6).click();
  await settled(page, n);
  assert.match(await page.locator('#dsat-status').textContent(), /Undo \(or Redo\) back to that diagram brings the answer back[.]$/);
  // by keyboard: Enter on Fill ? leaves the focus on Stop (Fill ? turns itself off),
  // and Enter on Stop on a button still on, not on the page
  await page.focus('#fill');
  await page.keyboard.down('Enter');
  assert.match(await page.locator('#dsat-status').textContent(), /^Set aside: Fill \? started[.]/);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'fill-stop');
  // a held Enter's repeat does not press Stop, which took the focus
  await page.keyboard.down('Enter');
  await page.keyboard.up('Enter');
  assert.doesNotMatch(await page.locator('#fill-status').textContent(), /^Stopped/);
  await page.keyboard.press('Enter');
  assert.match(await page.evaluate(() => document.activeElement.id), /^fill(-keep|-discard)?$/);
  await page.click('#fill-discard');
  // an edit stops a running search: "Start it again" only where Run is on
  await emptyBoardAllUndecided(page);
  await page.click('#fill');
  await page.click('nav button[data-mode="position"]');
  await cell(page, 4, 1).click(); // Yellow to move: neither search can start
  assert.equal(await page.locator('#fill-status').textContent(), 'Stopped: the diagram changed while the search ran, so its answer would not fit it.');
  assert.equal(await page.locator('#fill').isDisabled(), true);
  await page.click('#undo-position');
  await page.click('nav button[data-mode="levels"]');
  await page.click('#fill');
  await page.click('#palette button[data-level="3"]');
  await cell(page, 2, 1).click();
  assert.match(await page.locator('#fill-status').textContent(), /Start it again to search the new diagram[.]$/);
  // a Fill ? that proves no completion wins shows no candidate: none of them won
  await importText(page, LOSS);
  n = await count(page);
  await cell(page, 4, 3).click({ button: 'right' });
  await settled(page, n);
  const ghosts = () => page.locator('#board .ghost-R, #board .ghost-Y').count();
  const before = await ghosts();
  await page.click('#fill');
  await page.waitForFunction(() => /^No completion/.test(document.querySelector('#fill-status').textContent), null, { timeout: 60_000 });
  assert.doesNotMatch(await page.locator('#legend').textContent(), /candidate/);
  assert.equal(await ghosts(), before, 'no losing line of a refuted candidate');
  // Solve root's settings are read at its start: off while it runs, and the title says why
  await emptyBoardAllUndecided(page);
  await page.click('#dsat');
  assert.equal(await page.locator('#dsat-fewest').isDisabled(), true);
  assert.match(await page.locator('#dsat-local').locator('xpath=..').getAttribute('title'), /^Off: a search is running; the setting is read when one starts[.] Before mapping/);
  await page.click('#dsat-stop');
  assert.equal(await page.locator('#dsat-fewest').isDisabled(), false);
  assert.deepEqual(page.errors, []);
  await page.close();
  // the engine's words in the message line are a sentence, as the page's own are
  const cut = await open('#1.-.*Z?*L');
  assert.match(await cut.locator('#message').textContent(), /^The share link was refused: the link's cells: .*[.]$/);
  await cut.close();
});

test('what a user noticed, fifth round: Ctrl+Z with nothing to undo, a line cut by Simplify or an import, the focus ring and the focus after a button turns off, keys after a checkbox, sentences in Play, a root with a four', async () => {
  const page = await open();
  await importText(page, '9909999\n99R9999\n09Y9099\nYRY9R65\nYYYRR79\nRRRYYRY\n');
  await page.click('nav button[data-mode="play"]');
  await page.focus('#board');
  await page.keyboard.press('7');
  // the status line is a sentence
  assert.match(await page.locator('#game-status').textContent(), /^Red played \d\. Yellow to move[.]$/);
  for (const k of ['1', '3', '1']) await page.keyboard.press(k);
  assert.match(await page.locator('#game-status').textContent(), /^Red played \d\. Red wins[.]$/);
  // Ctrl+Z past Play's line takes nothing from a text box and keeps the focus on the board
  for (let i = 0; i < 5; i++) await page.keyboard.press('Control+z');
  assert.equal(await page.locator('#log li').count(), 1);
  assert.notEqual(await page.locator('#io-text').inputValue(), '');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'board');
  for (const k of ['7', '1', '3', '1']) await page.keyboard.press(k);
  // Simplify's word on its own edit keeps the word that Play's line was cut
  await page.click('nav button[data-mode="levels"]');
  await page.waitForFunction(() => !document.querySelector('#simplify').disabled, null, { timeout: 20_000 });
  let n = await count(page);
  await page.click('#simplify');
  await settled(page, n);
  assert.match(await page.locator('#message').textContent(), /^Simplify cleared 3 cells[.] Play's Yellow line 7131 was cut to 713/);
  // an import without a line says that Play's line went
  await importText(page, WIN);
  assert.match(await page.locator('#message').textContent(), /^Read: level grid[.] Play's Yellow line 713 was left out \(Undo in Levels mode restores it\)[.]$/);
  // Clear turns itself off: the focus goes to the board, not to the page
  await page.focus('#clear');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#clear').isDisabled(), true);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'board');
  // the focus ring follows a click once it shows
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  n = await count(page);
  await cell(page, 1, 6).click(); // the top left cell: painted with the palette's level
  await settled(page, n);
  n = await count(page);
  await page.keyboard.press('5');
  await settled(page, n);
  await page.click('[data-export="grid"]');
  assert.match(await page.inputValue('#io-text'), /^5/, 'the digit painted the cell clicked');
  // a checkbox with the focus leaves the digits to the page (they did nothing)
  await page.focus('#dsat-fewest');
  await page.keyboard.press('3');
  assert.equal(await page.locator('#palette button[data-level="3"]').getAttribute('aria-pressed'), 'true');
  // a ? cell stops Play: said once, with its fix
  await importText(page, '#1.4453.0123456*Y9?*A9');
  await page.click('nav button[data-mode="play"]');
  await page.keyboard.press('1');
  assert.match(await page.locator('#message').textContent(), /^No move can follow: give the \? cell Red waits on a level in Levels mode[.]$/);
  // in Position mode Ctrl+Z takes the last stone off, as Backspace does (it did nothing)
  await page.click('nav button[data-mode="position"]');
  await page.focus('#board');
  n = await count(page);
  await page.keyboard.press('Control+z');
  await settled(page, n);
  assert.equal(await page.locator('#moves').getAttribute('placeholder'), '445');
  // a root whose stones hold a four is refused on import, as a link with it is
  await page.fill('#io-text', '9999999\n9999999\n9Y99999\nRY99999\nRY99999\nRYR9999\n');
  await page.click('#import');
  assert.match(await page.locator('#message').textContent(), /^The stones already hold a four, so the game is over there/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('what a user noticed, sixth round: a phone-sized page, the focus ring kept through Escape, names that hold the words shown, live model status, contrast', async () => {
  const page = await open('', { width: 360, height: 640 });
  // an import's refusal, said under the board far above the import box, comes into view
  await page.click('#io summary');
  await page.fill('#io-text', 'hello');
  await page.locator('#import').scrollIntoViewIfNeeded();
  await page.click('#import');
  const box = await page.locator('#message').boundingBox();
  assert.ok(box.y >= 0 && box.y + box.height <= 640, `the message at ${box.y}`);
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

test('a reload of a refused link shows the diagram the tab had, not the default board', async () => {
  const page = await open();
  await importText(page, WIN);
  await page.click('[data-export="grid"]');
  const mine = await page.inputValue('#io-text');
  // a link damaged by hand is refused; the address bar keeps it to inspect
  await page.evaluate(() => { location.hash = '#1.4453.zz'; });
  await page.waitForFunction(() => /refused/.test(document.querySelector('#message').textContent));
  await page.reload();
  await page.waitForFunction(() => window.__lab && window.__lab.verdicts > 0);
  assert.match(await page.locator('#message').textContent(), /^The share link was refused: .*This tab's last diagram is shown[.]$/);
  assert.equal(await page.evaluate(() => location.hash), '#1.4453.zz');
  if (!(await page.locator('#io').evaluate((d) => d.open))) await page.locator('#io summary').click();
  await page.click('[data-export="grid"]');
  assert.equal(await page.inputValue('#io-text'), mine);
  assert.deepEqual(page.errors, []);
  await page.close();
});
