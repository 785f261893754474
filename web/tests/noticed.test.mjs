// What users noticed, round by round (rounds one to five; noticed-6-10.test.mjs has the
// later ones): each test holds the fixes of one round of use.
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
  // (and the race's end, which turns Stop off: a search's first report may be its verdict)
  await page.waitForFunction(() => /nothing to fill/.test(document.querySelector('#dsat-status').textContent)
    && document.querySelector('#dsat-stop').getAttribute('aria-disabled') === 'true', null, { timeout: 30_000 });
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
  // one that loses says where the loss is shown (the command line prints its line)
  await importText(page, LOSS);
  await page.click('#dsat');
  await page.waitForFunction(() => /nothing to fill/.test(document.querySelector('#dsat-status').textContent)
    && document.querySelector('#dsat-stop').getAttribute('aria-disabled') === 'true', null, { timeout: 30_000 });
  assert.match(await page.locator('#dsat-status').textContent(), /does not win, and the verdict under the board says where it loses/);
  assert.match(await page.locator('#verdict').textContent(), /after 67711132/);
  await importText(page, WIN);
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
  // a set-aside line goes with the next edit; a search still running says it stopped
  // (it said "Set aside", as if the run could come back)
  await page.click('#fill');
  await page.click('#dsat');
  assert.match(await page.locator('#fill-status').textContent(), /^Stopped: Solve whole root started, and one search runs at a time[.]$/);
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
  assert.match(await page.locator('#dsat-status').textContent(), /^Discarded: Fill undecided cells started, and the board previews one answer at a time[.]$/);
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
  // several: said in the plural (the status named five columns, the line one cell)
  await importText(page, '#1.-.*Z?*L?');
  await page.click('nav button[data-mode="play"]');
  await page.keyboard.press('1');
  assert.match(await page.locator('#message').textContent(), /^No move can follow: give the \? cells Red waits on levels in Levels mode[.]$/);
  await importText(page, '#1.4453.0123456*Y9?*A9');
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
  assert.match(await page.locator('#message').textContent(), /^The stones already hold a four \(Yellow's\), so the game is over there/);
  assert.deepEqual(page.errors, []);
  await page.close();
});
