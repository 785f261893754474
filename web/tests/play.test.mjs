// Play: Yellow against the diagram, its line as the diagram changes, the solver and model hints.
// The Lab in a real browser (see lab.mjs); run by scripts/test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useLab, href, shots, bin, browser, open, verdict, settled, count, cell, importText, WIN } from './lab.mjs';

useLab();

test('playing Yellow names the rule behind each Red move', async () => {
  const page = await open();
  await importText(page, WIN);
  assert.match(await verdict(page), /^Win: Red makes four on every line/);
  await page.click('nav button[data-mode="play"]');
  assert.match(await page.locator('#log').textContent(), /Red 6 · level 7, lower levels tied: 0 in columns 1, 3/);
  // Red's opening move is announced too (it said only "Yellow to move.")
  assert.equal(await page.locator('#game-status').textContent(), 'Red played 6. Yellow to move.');
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
  // Red's winning move is said to keep the win (at once: a four needs no solver)
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
  // what the status line said on the way: the reading first (it said nothing while a
  // large model was read and checked)
  await page.evaluate(() => {
    window.__said = [];
    const el = document.querySelector('#model-status');
    new MutationObserver(() => window.__said.push(el.textContent)).observe(el, { childList: true, characterData: true, subtree: true });
  });
  await page.setInputFiles('#model-file', model);
  await page.waitForFunction(() => /^Model loaded/.test(document.querySelector('#model-status').textContent));
  const said = await page.evaluate(() => window.__said);
  assert.match(said[0], /^Reading m\.c4m \(\d+\.\d MB\)…$/, said.join(' | '));
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
  // the same file picked again, mended on disk meanwhile (as a retrain to the same name
  // does), is read again: the page kept the refusal, since picking the same name again
  // changed nothing in the file field
  writeFileSync(junk, readFileSync(model));
  await page.setInputFiles('#model-file', junk);
  await page.waitForFunction(() => /^Model loaded: junk\.c4m/.test(document.querySelector('#model-status').textContent));
  assert.equal(await page.locator('#model-hint').getAttribute('data-column'), column);
  // a finished game has no hint
  await page.keyboard.press('Backspace');
  await page.keyboard.press('1');
  await page.waitForFunction(() => /Red wins/.test(document.querySelector('#game-status').textContent));
  assert.equal(await page.locator('#model-hint').textContent(), '');
  assert.deepEqual(page.errors, []);
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

test('Play on a root where Red names no move judges the root for Red', async () => {
  const page = await open(); // every level 9: the rule names no move at the root
  await page.click('nav button[data-mode="play"]');
  // (the empty board is past the solver's budget; it said "nothing to judge here")
  await page.waitForFunction(() => /^Solver: Where the diagram names no move, Red's best move is unknown within the solver's budget[.]$/.test(document.querySelector('#hints').textContent), null, { timeout: 20_000 });
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
  // imported over Play's line 4, it says once that the line is gone, and how to get it back
  const over = await open('#1.4453.0123456*Y90*A9.4');
  assert.equal(await over.locator('#message').textContent(), '');
  await importText(over, '1.4453.0123456*Y9?*A9.4');
  assert.equal(await over.locator('#message').textContent(),
    "Read: share link. The link's Yellow line (1 move) was left out: Red's first move depends on a ? cell. Undo in Levels mode restores Play's line 4.");
  await over.close();
});

test('leaving Play ends the solver\'s question within one call, not after all of them', async () => {
  // Red opens in column 4 from the empty board: Yellow's seven replies, each past the
  // solver's budget there, make a question of seconds
  const page = await open();
  await importText(page, '9999999\n9999999\n9999999\n9999999\n9999999\n9990999\n');
  const started = new Map(), ended = new Map();
  page.on('worker', (w) => {
    if (!w.url().endsWith('solve.worker.js')) return;
    started.set(w, Date.now());
    w.on('close', () => ended.set(w, Date.now()));
  });
  await page.click('nav button[data-mode="play"]');
  for (let i = 0; i < 50 && started.size === 0; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(started.size, 1, 'the solver worker started');
  // well into the question (its engine loaded, the first column being solved)
  await new Promise((r) => setTimeout(r, 1200));
  assert.equal(ended.size, 0, 'the question is still being worked out');
  const left = Date.now();
  await page.click('nav button[data-mode="levels"]');
  for (let i = 0; i < 30 && ended.size === 0; i++) await new Promise((r) => setTimeout(r, 100));
  assert.equal(ended.size, 1, 'the worker still runs 3 s after Play was left');
  // (the seven columns were one call: Chromium let it run on up to 2 s)
  const after = [...ended.values()][0] - left;
  assert.ok(after < 1500, `the worker ended ${after} ms after Play was left`);
  // and back in Play the question is asked again and answered
  await page.click('nav button[data-mode="play"]');
  await page.waitForFunction(() => /^Solver: (?!thinking)/.test(document.querySelector('#hints').textContent), null, { timeout: 30_000 });
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('Play on a root with Yellow to move says why once, not in every line', async () => {
  const page = await open();
  await page.click('nav button[data-mode="position"]');
  await cell(page, 4, 1).click(); // one Red stone: Yellow to move, no game for the diagram
  await page.click('nav button[data-mode="play"]');
  const status = await page.locator('#game-status').textContent();
  assert.match(status, /^Bad root: 1 Red and 0 Yellow stones/);
  // the solver's line and a click's message point to it rather than repeat it
  await page.waitForFunction(() => document.querySelector('#hints').textContent === 'Solver: no game to judge here.', null, { timeout: 20_000 });
  await cell(page, 3, 1).click();
  assert.equal(await page.locator('#message').textContent(), 'No move: there is no game from this root (the game status says why).');
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

test("the solver judges Red's last move against Red's best move there", async () => {
  const judged = async (hash) => {
    const page = await open(`#${hash}`);
    await page.click('nav button[data-mode="play"]');
    await page.waitForFunction(() => /^Solver: (Red's last move|Where)/.test(document.querySelector('#hints').textContent));
    const said = (await page.locator('#hints').textContent()).split(/[;.]/)[0];
    assert.deepEqual(page.errors, []);
    await page.close();
    return said;
  };
  // a move that dropped the win, the only move left (a draw), a block where every move loses
  assert.equal(await judged('1.3231.920119680927*A975761493909965989972794.12'), "Solver: Red's last move only draws: a winning move was there");
  assert.equal(await judged('1.676735342311.4049*A064072094256378923831779.163324554244177'), "Solver: Red's last move holds the draw: no move wins there");
  assert.equal(await judged('1.741312.*Z?*F?'), "Solver: Red's last move loses, as every move there does");
  // where the diagram names no move, that position is judged, not Red's move before it
  // (examples/loss.txt with Yellow's line 7112: "Red's last move keeps the win" was said
  // of Red's 3, under "Red: no move")
  assert.equal(await judged('1.655433534337221121.990*H90*E9579.7112'), 'Solver: Where the diagram names no move, Red had a winning move');
});

test('a held digit plays one move, and a verdict being worked out ends with its ellipsis', async () => {
  const page = await open('#1.655433534337221121.990*H90*D96579');
  await page.click('nav button[data-mode="play"]');
  assert.equal(await page.locator('#log li').count(), 1);
  // the key held down: one press, then the keyboard's repeats (each a move for Yellow,
  // and Red's answer, until the game was lost)
  await page.keyboard.down('7');
  await page.keyboard.down('7');
  await page.keyboard.down('7');
  await page.keyboard.up('7');
  assert.deepEqual(await page.locator('#log li').allTextContents().then((l) => l.slice(1).map((t) => t.split(' ·')[0])), ['Yellow 7', 'Red 7']);
  // a stone dropped in Position mode leaves Yellow to move: the verdict line says so
  // after its sentence, which "Verifying…" ends as it stands ("Verifying…." had two)
  await page.click('nav button[data-mode="position"]');
  await page.evaluate(() => {
    window.__said = [];
    const el = document.querySelector('#verdict');
    new MutationObserver(() => window.__said.push(el.textContent)).observe(el, { childList: true, characterData: true, subtree: true });
  });
  await page.keyboard.press('4');
  await page.waitForFunction(() => window.__said.some((t) => !/^Verifying/.test(t)));
  const said = await page.evaluate(() => window.__said);
  assert.ok(said.some((t) => t.startsWith('Verifying… Until Red is to move')), said.join(' | '));
  assert.ok(said.every((t) => !t.includes('….')), said.join(' | '));
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("leaving Play ends the solver's question, and coming back asks it again", async () => {
  const page = await open();
  // the solver's workers, and whether each is still running
  await page.evaluate(() => {
    const Real = window.Worker;
    window.__solvers = [];
    window.Worker = class extends Real {
      constructor(source, options) {
        super(source, options);
        this.live = true;
        if (String(source).includes('solve.worker')) window.__solvers.push(this);
      }
      terminate() {
        this.live = false;
        super.terminate();
      }
    };
  });
  // an early root: the solver takes seconds over Red's move and Yellow's replies
  await page.click('nav button[data-mode="position"]');
  await page.fill('#moves', '44');
  await page.click('#set-moves');
  await page.click('nav button[data-mode="levels"]');
  await page.click('#palette button[data-level="0"]');
  const n = await count(page);
  await cell(page, 4, 3).click();
  await settled(page, n);
  await page.click('nav button[data-mode="play"]');
  assert.match(await page.locator('#hints').textContent(), /thinking/);
  // it went on using a core for about five seconds, in the way of the verifier
  await page.click('nav button[data-mode="levels"]');
  assert.deepEqual(await page.evaluate(() => window.__solvers.map((w) => w.live)), [false]);
  await page.click('nav button[data-mode="play"]');
  // (the question asked afresh: here the answers run past the solver's budget)
  await page.waitForFunction(() => /^Solver: Red's last move/.test(document.querySelector('#hints').textContent), null, { timeout: 60_000 });
  assert.deepEqual(page.errors, []);
  await page.close();
});
