// Shared by the browser tests (*.test.mjs): the Lab served by `c4lab serve` and driven in
// Debian's Chromium by playwright-core, with the helpers the tests have in common.
import { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startLab } from './serve.mjs';

// the page's address as the page sees it: Playwright's `page.url()` learns of a
// `history.replaceState` from an event that may still be on its way after a click
export const href = (page) => page.evaluate(() => location.href);

const here = dirname(fileURLToPath(import.meta.url));
export const repo = join(here, '..', '..');
export const shots = join(repo, 'web', 'test-results');
export const bin = process.env.C4LAB_BIN || join(process.env.CARGO_TARGET_DIR || join(repo, 'target'), 'debug', 'c4lab');
export const upstream = join(repo, '..', 'shared', 'data', 'upstream', 'steady_states.txt');
const chromePath = process.env.CHROMIUM || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);

let server;
/** The Lab's address and the browser, set by the hooks `useLab` registers. */
export let url, browser;

/** Registers the hooks that start `c4lab serve` and Chromium before a file's tests and stop them after. */
export function useLab() {
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
}

/** A new page on the Lab at `hash`, once its first verdict is in; `page.errors` collects the page's uncaught errors. */
export async function open(hash = '', viewport = { width: 1280, height: 860 }) {
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.errors = errors;
  await page.goto(url + hash);
  await page.waitForFunction(() => window.__lab && window.__lab.verdicts > 0);
  return page;
}

/** Gives `page` `window.__contrast(a, b)`: the WCAG contrast ratio of two computed colours. */
export const withContrast = (page) => page.evaluate(() => {
  // a colour as computed: rgb(...) or, from color-mix, color(srgb ...)
  const rgb = (c) => (c.startsWith('color(') ? c.match(/[\d.]+/g).slice(0, 3).map((v) => Number(v) * 255) : c.match(/\d+/g).slice(0, 3).map(Number));
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  window.__contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
});

/** The verdict line's text. */
export const verdict = (page) => page.locator('#verdict').textContent();
/** Waits for a verdict after the `before`th and returns its text. */
export async function settled(page, before) {
  await page.waitForFunction((n) => window.__lab.verdicts > n, before);
  return verdict(page);
}
/** How many verdicts the page has given. */
export const count = (page) => page.evaluate(() => window.__lab.verdicts);
/** The board cell at `col` (1-7) and `rowFromBottom` (1-6). */
export const cell = (page, col, rowFromBottom) => page.locator(`#board .cell[data-index="${(6 - rowFromBottom) * 7 + (col - 1)}"]`);

/** The empty board with every cell undecided, back in Levels mode: a search's widest scope. */
export async function emptyBoardAllUndecided(page) {
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

/** Imports `text` through the Import/Export panel and waits for its verdict. */
export async function importText(page, text) {
  const n = await count(page);
  if (!(await page.locator('#io').evaluate((d) => d.open))) await page.locator('#io summary').click();
  await page.fill('#io-text', text);
  await page.click('#import');
  await settled(page, n);
}

/** Upstream's diagrams as grids, or null when the data is absent. */
export function upstreamDiagrams() {
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

/** The example diagrams: one that wins, one that loses. */
export const WIN = readFileSync(join(repo, 'examples', 'win.txt'), 'utf8');
export const LOSS = readFileSync(join(repo, 'examples', 'loss.txt'), 'utf8');
