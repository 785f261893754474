// What users noticed, round by round: each test holds the fixes of one round of use.
// The Lab in a real browser (see lab.mjs); run by scripts/test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { useLab, href, bin, url, browser, open, verdict, settled, count, cell, emptyBoardAllUndecided, importText, WIN, LOSS } from './lab.mjs';

useLab();

test('what a user noticed: stale messages, a palette that follows the keys, failed exports, a search lost to an edit, an answer set aside by one, Solve whole root with nothing to fill, keys away from the board, a steady panel', async () => {
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
  assert.equal(await mirrorTitle(), "Mirror the levels, the root and Play's Yellow line left to right");
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
  // Solve whole root on a diagram with no ? cells: nothing to fill, nothing to keep
  await page.click('#dsat');
  await page.waitForFunction(() => /nothing to fill/.test(document.querySelector('#dsat-status').textContent), null, { timeout: 30_000 });
  assert.equal(await page.locator('#dsat-keep').isDisabled(), true);
  // no ? cell, no level budget (as `c4lab dsat --json`; the page's report said 1)
  const report = await page.evaluate(() => window.__lab.dsat());
  assert.deepEqual([report.levels, report.least_levels], [null, null]);
  // the search's buttons say why they are off, as the others do
  assert.match(await off('#dsat-keep'), /^Off: the diagram has no \? cell for it to fill[.] Write the found levels/);
  assert.match(await off('#dsat-stop'), /^Off: no search is running[.] End the search now/);
  await page.click('#dsat-discard');
  assert.match(await off('#dsat-discard'), /^Off: there is no search result to forget[.] Forget the solve/);
  assert.match(await off('#dsat-keep'), /^Off: no search has found a diagram[.]/);
  // the panel does not move when a candidate's legend line appears
  const x0 = (await page.locator('#panel').boundingBox()).x;
  await page.click('#undecide-all');
  await page.click('#dsat');
  await page.waitForFunction(() => document.querySelector('#dsat-keep').ariaDisabled !== 'true', null, { timeout: 60_000 });
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
  // Fill undecided cells stopped before its first report says so
  await page.click('nav button[data-mode="levels"]');
  await page.click('#undecide-all');
  await page.evaluate(() => { document.querySelector('#fill').click(); document.querySelector('#fill-stop').click(); });
  assert.match(await page.locator('#fill-status').textContent(), /^Stopped after [0-9.]+ s, before the first candidate/);
  // a set-aside line goes with the next edit
  await page.click('#fill');
  await page.click('#dsat');
  assert.match(await page.locator('#fill-status').textContent(), /^Set aside: Solve whole root started/);
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

test('what a user noticed, fourth round: a set-aside answer lost to the other search, the keyboard focus through a search, Stop with nothing to restart, an unsat Fill undecided cells, errors as sentences, settings held while a solve runs', async () => {
  const page = await open();
  await importText(page, WIN);
  await page.click('#undecide-all');
  // Solve whole root's answer, set aside by an edit, promises Undo or Redo; Fill undecided cells started
  // after it throws that answer away, and the line says so rather than keep the promise
  await page.click('#dsat');
  await page.waitForFunction(() => document.querySelector('#dsat-keep').ariaDisabled !== 'true', null, { timeout: 60_000 });
  await page.click('#palette button[data-level="5"]');
  let n = await count(page);
  await cell(page, 1, 6).click();
  await settled(page, n);
  assert.match(await page.locator('#dsat-status').textContent(), /Undo \(or Redo\) back to that diagram brings the answer back[.]$/);
  // by keyboard: Enter on Fill undecided cells leaves the focus on Stop (Fill undecided cells turns itself off),
  // and Enter on Stop on a button still on, not on the page
  await page.focus('#fill');
  await page.keyboard.down('Enter');
  assert.match(await page.locator('#dsat-status').textContent(), /^Set aside: Fill undecided cells started[.]/);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'fill-stop');
  // a held Enter's repeat does not press Stop, which took the focus
  await page.keyboard.down('Enter');
  await page.keyboard.up('Enter');
  assert.doesNotMatch(await page.locator('#fill-status').textContent(), /^Stopped/);
  await page.keyboard.press('Enter');
  // Stop, pressed, hands the focus on; a search that ended before the press turned Stop
  // off and left the focus on it, where the press did nothing
  const at = await page.evaluate(() => document.activeElement.id);
  if (at === 'fill-stop') assert.doesNotMatch(await page.locator('#fill-status').textContent(), /^Stopped/);
  else assert.match(at, /^fill(-keep|-discard)?$/);
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
  // a Fill undecided cells that proves no completion wins shows no candidate: none of them won
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
  // Solve whole root's settings are read at its start: off while it runs, and the title says why
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
  await page.waitForFunction(() => document.querySelector('#simplify').ariaDisabled !== 'true', null, { timeout: 20_000 });
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
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => { document.documentElement.dataset.theme = t; }, theme);
    const ratios = await page.evaluate(() => {
      // a colour as computed: rgb(...) or, from color-mix, color(srgb ...)
      const rgb = (c) => (c.startsWith('color(') ? c.match(/[\d.]+/g).slice(0, 3).map((v) => Number(v) * 255) : c.match(/\d+/g).slice(0, 3).map(Number));
      const lum = (c) => {
        const [r, g, b] = rgb(c).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
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
  // level 0 (it said "levels 0–2" for cells at 1 and 2)
  const pinned = await open();
  await importText(pinned, '9909999\n99R9999\n09Y9999\nYRY9R??\nYYYRR?9\nRRRYYRY\n');
  await pinned.click('#dsat');
  await pinned.waitForFunction(() => /^Found a diagram/.test(document.querySelector('#dsat-status').textContent), null, { timeout: 60_000 });
  const cells = (await pinned.evaluate(() => window.__lab.dsat().cells)).split('');
  const filled = [26, 27, 33].map((i) => Number(cells[i]));
  const [low, top] = [Math.min(...filled), Math.max(...filled)];
  assert.match(await pinned.locator('#dsat-status').textContent(), new RegExp(`its \\? cells take ${low === top ? `level ${top}` : `levels ${low}–${top}`}[,.]`));
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
  const refusing = await page([['solve.worker.js', 'JSON.parse(analyze(moves, BUDGET))', "({ ok: false, error: 'the engine refused it' })"]]);
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
  await early.keyboard.press('5');
  letIn();
  await ready(early);
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

  // an engine that fails to load leaves the rest of the page (the inputs held back for it
  // are let go)
  const failed = await page();
  await failed.route('**/c4lab_wasm_bg.wasm', (route) => route.abort());
  await failed.goto(url);
  await failed.waitForFunction(() => /^The engine failed to load/.test(document.querySelector('#message').textContent));
  const before = await failed.evaluate(() => document.documentElement.dataset.theme ?? '');
  await failed.click('#theme');
  assert.notEqual(await failed.evaluate(() => document.documentElement.dataset.theme ?? ''), before);
  await failed.context().close();
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
  await page.waitForFunction(() => /nothing to fill/.test(document.querySelector('#dsat-status').textContent), null, { timeout: 60_000 });
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
