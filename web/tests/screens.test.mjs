// The Lab on a phone, a tablet and a short screen, touched rather than clicked: what a
// user found there (see lab.mjs); run by scripts/test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useLab, url, browser, withContrast } from './lab.mjs';

useLab();

/** A page on the Lab at `hash` in a touch screen of `width` x `height`, once its first verdict is in. */
async function touchScreen(hash, width, height) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  await page.goto(url + hash);
  await page.waitForFunction(() => window.__lab && window.__lab.verdicts > 0);
  page.done = () => context.close();
  return page;
}

test('on a phone: the game under the board, the board in view, a tap on an off button says why, no hover ring left by a finger', async () => {
  const page = await touchScreen('#1.655433534337221121.990*H90*D96579', 375, 667);
  // Play's status sits under the board, beside the verdict (in the panel it was a
  // screen below the move just made)
  assert.equal(await page.locator('#game-status').isVisible(), false, 'no game in Levels mode');
  await page.tap('nav button[data-mode="play"]');
  await page.tap('#cell-6');
  await page.waitForFunction(() => /^Red played \d\./.test(document.querySelector('#game-status').textContent));
  const status = await page.locator('#game-status').boundingBox();
  assert.ok(status.y >= 0 && status.y + status.height <= 667, `the game's status at ${status.y}..${status.y + status.height}`);
  // a finger's tap leaves no hover ring on the column it touched (a mouse's hover shows
  // one): seen where the tap changed nothing, a move after the game's end
  await page.tap('#cell-3');
  await page.waitForFunction(() => /Red wins/.test(document.querySelector('#game-status').textContent));
  await page.tap('#cell-0');
  assert.match(await page.locator('#message').textContent(), /the game stops here/);
  assert.equal(await page.locator('#board .cell.drop').count(), 0);
  // a tap on a button that is off shows why, in the tip a keyboard's focus shows
  await page.tap('nav button[data-mode="levels"]');
  await page.locator('#redo-levels').scrollIntoViewIfNeeded();
  await page.tap('#redo-levels', { force: true }); // (Playwright waits for a control that is off)
  const tip = page.locator('#tip');
  assert.ok(await tip.isVisible(), 'a tip for the tap');
  assert.match(await tip.textContent(), /^Off: nothing to redo\. Redo what Undo took back/);
  // and goes once the finger moves on
  await page.tap('#undecide-all');
  assert.equal(await tip.isVisible(), false);
  assert.deepEqual(page.errors, []);
  await page.done();
  // a phone on its side and a laptop at 200 %: the board's last row in view on load
  // (it was cut: the header and the page's padding were not allowed for)
  for (const [width, height] of [[667, 375], [640, 400]]) {
    const short = await touchScreen('', width, height);
    const board = await short.locator('#board').boundingBox();
    assert.ok(board.y + board.height <= height, `${width}x${height}: the board ends at ${board.y + board.height}`);
    await short.done();
  }
});

test('in both themes: a candidate level on a faded stone is readable, and the browser draws its own controls in the theme', async () => {
  const page = await touchScreen('', 768, 1024);
  await withContrast(page);
  for (const theme of ['light', 'dark']) {
    await page.evaluate((t) => { document.documentElement.dataset.theme = t; }, theme);
    const seen = await page.evaluate(() => {
      const ratio = window.__contrast;
      // the losing line's faded stones with a candidate's level in their corner, as
      // Fill undecided cells shows them (3.2:1 on the faded red, 2.9 on the faded yellow)
      const candidate = (ghost) => {
        const c = document.createElement('div');
        c.className = `cell ${ghost}`;
        const under = document.createElement('span');
        under.className = 'under candidate';
        under.textContent = '3';
        c.append(under);
        document.querySelector('#board').append(c);
        const r = ratio(getComputedStyle(under).color, getComputedStyle(c).backgroundColor);
        c.remove();
        return r;
      };
      return { red: candidate('ghost-R'), yellow: candidate('ghost-Y'), scheme: getComputedStyle(document.documentElement).colorScheme };
    });
    assert.ok(seen.red >= 4.5 && seen.yellow >= 4.5, `${theme}: ${JSON.stringify(seen)}`);
    assert.equal(seen.scheme, theme);
  }
  assert.deepEqual(page.errors, []);
  await page.done();
});
