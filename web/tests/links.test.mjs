// Share links and imports: upstream diagrams, exact restores, hostile and refused links.
// The Lab in a real browser (see lab.mjs); run by scripts/test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { useLab, href, shots, upstream, url, browser, open, verdict, cell, count, settled, importText, upstreamDiagrams, WIN } from './lab.mjs';

useLab();

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

test('a link or an import brings no level of the diagram before under its stones', async () => {
  // the root's stones taken off: the cells under them are 9, whatever the tab held
  // before (a level painted there earlier came back, into the verdict and the link)
  const emptied = async (page) => {
    await page.click('nav button[data-mode="position"]');
    const n = await count(page);
    await page.click('#clear-root');
    await settled(page, n);
    return page.evaluate(() => location.hash);
  };
  const fresh = await open();
  await importText(fresh, WIN);
  const winLink = await fresh.evaluate(() => location.hash);
  const want = await emptied(fresh);
  assert.match(await cell(fresh, 1, 1).getAttribute('aria-label'), /level 9/);
  // a level 0 painted under a stone of WIN's root (column 1, row 1), then WIN read
  const painted = async () => {
    const page = await open();
    await page.click('#palette button[data-level="0"]');
    await cell(page, 1, 1).click();
    return page;
  };
  const imported = await painted();
  await importText(imported, WIN);
  assert.equal(await emptied(imported), want);
  const linked = await painted();
  const n = await count(linked);
  await linked.evaluate((h) => { location.hash = h; }, winLink);
  await settled(linked, n);
  assert.equal(await emptied(linked), want);
  for (const page of [fresh, imported, linked]) await page.close();
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
