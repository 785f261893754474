// Whole-root solving in the browser's engine against the native command line, on the
// same diagrams, one after the other. By default: the WebAssembly dsat (BatSat, single
// thread, run by Node's V8, the engine Chromium uses) against `c4lab dsat --backend
// batsat --widen-after 0` (the same one search). With --page: the Lab's Solve whole root in
// Debian's Chromium (its two searches raced in two workers) against `c4lab dsat`'s
// default race of the same two searches on two threads.
//
//   c4lab bench dsat --write-grids /tmp/roots      # the bench's roots, every cell ?
//   C4LAB_BIN=target/release/c4lab node web/tests/bench-dsat.mjs [--cap S] [--page] /tmp/roots/*.txt
//
// Needs the engine built (scripts/build-web; for --page, C4LAB_BIN built after it, as
// `c4lab serve` carries the page). Prints a Markdown table.
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { startLab } from './serve.mjs';
import { basename } from 'node:path';
import init, { DsatSession } from '../pkg/c4lab_wasm_synth.js';

const args = process.argv.slice(2);
let cap = 60;
let page = false;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--cap') cap = Number(args[++i]);
  else if (args[i] === '--page') page = true;
  else files.push(args[i]);
}
const bin = process.env.C4LAB_BIN;
if (!bin || files.length === 0 || !(cap > 0)) {
  console.error('usage: C4LAB_BIN=path/to/c4lab node bench-dsat.mjs [--cap SECONDS] [--page] GRID...');
  process.exit(2);
}
const missing = files.filter((f) => !existsSync(f));
if (missing.length) {
  console.error(`bench-dsat: no such grid file: ${missing.join(', ')}`);
  process.exit(2);
}

// The engine's solve, stepped as the page's worker steps it, stopped after `cap` seconds.
async function engine() {
  await init({ module_or_path: readFileSync(new URL('../pkg/c4lab_wasm_synth_bg.wasm', import.meta.url)) });
  return {
    solve(grid) {
      const session = DsatSession.start(grid, 16, 2_000_000, 1, 0, 0);
      const start = performance.now();
      try {
        for (;;) {
          const r = JSON.parse(session.step(4096));
          const s = (performance.now() - start) / 1000;
          if (!r.ok) return { verdict: `error: ${r.error}`, s };
          if (!['mapping', 'searching'].includes(r.state)) return { verdict: r.state, s };
          if (s > cap) return { verdict: `stopped (${cap} s)`, s: NaN };
        }
      } finally {
        // a session holds its whole map: freed at once, not whenever the GC runs, so a
        // long run of roots does not fill the module's 4 GB
        session.free();
      }
    },
    close() {},
  };
}

// The Lab's Solve whole root in Chromium, against `c4lab serve`, stopped after `cap` seconds.
async function lab() {
  const { chromium } = await import('playwright-core');
  const { server, url } = await startLab(bin);
  const executablePath = process.env.CHROMIUM || ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  const tab = await browser.newPage();
  await tab.goto(url);
  await tab.waitForFunction(() => window.__lab && window.__lab.verdicts > 0);
  return {
    async solve(grid) {
      const n = await tab.evaluate(() => window.__lab.verdicts);
      if (!(await tab.locator('#io').evaluate((d) => d.open))) await tab.locator('#io summary').click();
      await tab.fill('#io-text', grid);
      await tab.click('#import');
      await tab.waitForFunction((n) => window.__lab.verdicts > n, n);
      await tab.click('#dsat');
      const done = () => {
        const r = window.__lab.dsat();
        // (and the race's end, Stop off: a search's verdict may show while the other runs)
        return r && (!r.ok || !['mapping', 'searching', 'waiting'].includes(r.state))
          && document.querySelector('#dsat-stop').getAttribute('aria-disabled') === 'true';
      };
      try {
        await tab.waitForFunction(done, null, { timeout: cap * 1000, polling: 20 });
      } catch {
        await tab.click('#dsat-stop');
        return { verdict: `stopped (${cap} s)`, s: NaN };
      }
      const r = await tab.evaluate(() => window.__lab.dsat());
      if (!r.ok) return { verdict: `error: ${r.error}`, s: NaN };
      return { verdict: r.state, s: r.ms / 1000, winner: r.winner };
    },
    async close() {
      await browser.close();
      server.kill();
    },
  };
}

function native(grid) {
  const flags = page ? [] : ['--backend', 'batsat', '--widen-after', '0'];
  const r = spawnSync(bin, ['dsat', '--json', ...flags, '--max-seconds', String(cap)], {
    input: grid,
    encoding: 'utf8',
  });
  const j = JSON.parse(r.stdout);
  const stopped = j.verdict === 'stopped';
  return { verdict: stopped ? `stopped (${cap} s)` : j.verdict, s: stopped ? NaN : j.seconds, winner: j.winner };
}

const fmt = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');
const by = (r) => (page && r.winner != null ? ` (${r.winner === 0 ? 'first' : 'second'})` : '');
const browser = page ? await lab() : await engine();
console.log('| root | native verdict | native s | browser verdict | browser s | browser / native |');
console.log('| --- | --- | ---: | --- | ---: | ---: |');
try {
  for (const f of files) {
    const grid = readFileSync(f, 'utf8');
    const n = native(grid);
    const b = await browser.solve(grid);
    console.log(`| ${basename(f, '.txt')} | ${n.verdict}${by(n)} | ${fmt(n.s)} | ${b.verdict}${by(b)} | ${fmt(b.s)} | ${fmt(b.s / n.s)} |`);
  }
} finally {
  await browser.close();
}
