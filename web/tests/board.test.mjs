// The board: serving the page, verdicts, painting, the keyboard, Position mode, themes, odd input, workers that fail.
// The Lab in a real browser (see lab.mjs); run by scripts/test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useLab, href, repo, shots, bin, upstream, url, browser, open, verdict, settled, count, cell, importText, upstreamDiagrams, withContrast, WIN, LOSS } from './lab.mjs';

useLab();

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
    } else {
      console.log(`skipped: serve on port 80 as another user was not refused for privilege (exit ${low.status}: ${low.stderr.trim()})`);
    }
  } else {
    console.log('skipped: the privileged port needs root and setpriv to be tried as another user');
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
  // a first visit's blank diagram says where to start, not an alarm in red
  assert.match(await verdict(page), /^Every empty cell is blank \(level 9\), so the diagram names no move at the root\. Paint levels .*import a link/);
  assert.equal(await page.locator('#verdict').getAttribute('class'), '');
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
  // one painted cell: the diagram is no longer blank, and its loss is a loss again
  assert.match(after, /^Loss: the diagram names no move \(tied levels: 9\) after /);
  assert.equal(await page.locator('#verdict').getAttribute('class'), 'loss');
  assert.match(await cell(page, 4, 1).getAttribute('title'), /column 4, row 1: .*level 0/);
  // right-click marks the cell undecided: no verdict
  n = await count(page);
  await cell(page, 3, 1).click({ button: 'right' });
  assert.match(await settled(page, n), /^Incomplete: 1 undecided cell \(\?\); no verdict until it is decided[.]$/);
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
  // weak levels (10..13) are named as the board writes them, a..d (the verdict said
  // "tied levels: 10, 11, 13" and Play's log "level 12" of cells drawn a, b, d and c)
  await importText(page, '#1.655433534337221121.dda*Hda*Ddbbcd');
  assert.match(await verdict(page), /Loss: the diagram names no move \(tied levels: a, b, d\) after 67/);
  await page.click('nav button[data-mode="play"]');
  assert.match(await page.locator('#log').textContent(), /Red 6 · level c, lower levels tied: a in columns 1, 3/);
  assert.deepEqual(page.errors, []);
});

test('the ringed cell says why Red plays it: an immediate win or a block comes before the levels', async () => {
  // every empty cell blank (level 9): it said "the cell the diagram selects" of a move
  // no level chose
  for (const [link, col, row, why] of [
    ['#1.141312.*Z9*F9', 1, 4, "Red's move: it wins at once, whatever the levels"],
    ['#1.737261.*Z9*F9', 4, 1, "Red's move: it blocks Yellow's four, whatever the levels"],
    ['#1.-.*Z9*H90*A9', 4, 1, 'the cell the diagram selects'],
  ]) {
    const page = await open(link);
    await page.click('nav button[data-mode="levels"]');
    assert.match(await cell(page, col, row).getAttribute('aria-label'), new RegExp(`, ${why}$`), link);
    assert.match(await page.locator('#legend').textContent(), new RegExp(why), link);
    assert.deepEqual(page.errors, []);
    await page.close();
  }
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
  await page.fill('#moves', '1212121');
  await page.click('#set-moves');
  assert.match(await page.locator('#message').textContent(), /^After 1212121 Red has four in a row, so the game is over: a root must have no four[.]$/);
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
  assert.match(await verdict(page), /Until Red is to move, no link, export or reload keeps this diagram: add a stone in Position mode[.]$/);
  // with one cell left it says what the message says: take a stone back (it said to add
  // one, which fills the board, and the page then refuses that root)
  await page.click('nav button[data-mode="position"]');
  await page.fill('#moves', '12661343145647546733334152721561222554677');
  n = await count(page);
  await page.click('#set-moves');
  await settled(page, n);
  assert.match(await page.locator('#message').textContent(), /one cell left, .*take a stone back \(Undo stone\)/);
  await page.click('nav button[data-mode="levels"]');
  assert.match(await verdict(page), /keeps this diagram: take a stone back \(Undo stone in Position mode\)[.]$/);
  // a root of unequal counts: its sentence ends before the note starts (it ran on:
  // "the counts must be equal Until Red is to move")
  await page.click('nav button[data-mode="position"]');
  await page.fill('#moves', '44533');
  const before = await count(page);
  await page.click('#set-moves');
  await settled(page, before);
  await page.click('nav button[data-mode="levels"]');
  // (the engine's sentence, not the placeholder while it verifies)
  assert.doesNotMatch(await verdict(page), /^Verifying/);
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

test('upstream diagrams verify as wins in the worker, one in five of them (their times printed, not judged)', async (t) => {
  const blocks = upstreamDiagrams();
  if (!blocks) return t.skip(`upstream's solution is not at ${upstream}`);
  const page = await open();
  const grids = await page.evaluate((bs) => bs.map((b) => {
    const r = JSON.parse(window.__lab.engine.read_any(b));
    return r.cells.match(/.{7}/g).join('\n');
  }), blocks.filter((_, i) => i % 5 === 0));
  const times = await page.evaluate((g) => window.__lab.benchVerify(g), grids);
  // (an empty answer passed this)
  assert.ok(grids.length >= 100 && times.length === grids.length, `${times.length} verdicts for ${grids.length} diagrams`);
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
  await withContrast(page);
  const contrast = await page.locator('nav button[aria-pressed="true"]').evaluate((b) => window.__contrast(getComputedStyle(b).color, getComputedStyle(b).backgroundColor));
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
  // quoted as typed: the address bar's encoding undone (it read #%20my%20diagram)
  const spaced = await open('#%20my%20diagram');
  assert.match(await spaced.locator('#message').textContent(), /refused: # my diagram is no c4lab share link/);
  await spaced.close();
  // a link whose version digit is percent-encoded opens, as Import and `c4lab verify` read
  // it (the address bar refused it as no link)
  const encoded = await open('#%31.655433534337221121.990*H90*D96579');
  assert.doesNotMatch(await encoded.locator('#message').textContent(), /refused/);
  assert.match(await settled(encoded, 0), /^Win: Red makes four on every line \(25 positions searched\)/);
  await encoded.close();
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
  // Yellow to move at the root: Play says there is nothing to hint at instead of thinking
  // on (why, its game status says)
  await setMoves('4');
  await page.click('nav button[data-mode="play"]');
  await page.waitForFunction(() => document.querySelector('#hints').textContent === 'Solver: no game to judge here.');
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

test('a verifier or solver worker whose engine traps is replaced, not asked again', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  // the first verifier and the first solver worker get an engine that traps on every
  // call, as a WebAssembly instance does once it has trapped; later workers, the real one
  const trapped = [];
  for (const [name, calls] of [['verify.worker.js', 'verify, simplify'], ['solve.worker.js', 'analyze, score']]) {
    await page.route(`**/${name}`, async (r) => {
      const response = await r.fetch();
      let body = await response.text();
      if (!trapped.includes(name)) {
        const real = body;
        // (the worker imports its engine into `let` bindings: they get the traps)
        body = body.replace(/^const ready = import\('\.\/pkg\/c4lab_wasm\.js'\)[^]*?^\}\);$/m,
          `const trap = () => { throw new WebAssembly.RuntimeError('unreachable'); }; const ready = Promise.resolve().then(() => { [${calls}] = [trap, trap]; });`);
        assert.notEqual(body, real, `${name}: its engine import was not replaced`);
        trapped.push(name);
      }
      await r.fulfill({ response, body });
    });
  }
  await page.goto(url);
  await page.waitForFunction(() => window.__lab && window.__lab.verdicts > 0);
  // whichever request met the trapped worker failed; the one after it is answered
  await importText(page, LOSS);
  await importText(page, WIN);
  assert.match(await verdict(page), /^Win: Red makes four on every line/);
  assert.ok(trapped.includes('verify.worker.js'));
  // Play's first question meets the trapped solver; Yellow's next move asks a fresh one
  await page.click('nav button[data-mode="play"]');
  await page.waitForFunction(() => /the solver failed/.test(document.querySelector('#hints').textContent), null, { timeout: 20_000 });
  await page.keyboard.press('7');
  await page.waitForFunction(() => /Yellow moves that lose: /.test(document.querySelector('#hints').textContent), null, { timeout: 20_000 });
  assert.ok(trapped.includes('solve.worker.js'));
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
  // (and says whose four it is, as c4lab verify does)
  assert.match(await page.locator('#message').textContent(), /^The stones already hold a four \(Yellow's\)/);
  assert.match(await verdict(page), /^Win/, 'the diagram before stays');
  assert.equal(new URL(await href(page)).hash, link);
  await page.close();
});

test('Clear ? with its ? cells under the root stones alone says where they are', async () => {
  const page = await open();
  // one ? cell, then root stones put over it in Position mode: the level layer keeps
  // the ? under the stone (a diagram imported or a link opened sets 9 there)
  await cell(page, 1, 1).click({ button: 'right' });
  await page.click('nav button[data-mode="position"]');
  await cell(page, 1, 1).click();
  await cell(page, 1, 1).click();
  await page.click('nav button[data-mode="levels"]');
  assert.equal(await page.locator('#clear-undecided').isDisabled(), false);
  assert.match(await page.locator('#clear-undecided').getAttribute('title'),
    /^Set every \? cell to 9 \(every \? cell is under a root stone: it shows again once the stone is taken back\)$/);
  await page.click('#clear-undecided');
  assert.equal(await page.locator('#clear-undecided').isDisabled(), true);
  assert.deepEqual(page.errors, []);
  await page.close();
});
