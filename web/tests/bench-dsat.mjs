// Whole-root solving in the browser's engine against the native command line, on the
// same diagrams: the WebAssembly dsat (BatSat, single thread, run by Node's V8, the
// engine Chromium uses) and `c4lab dsat --backend batsat --widen-after 0` (the same one
// search; natively a second runs beside it by default), one after the other.
//
//   c4lab bench dsat --write-grids /tmp/roots      # the bench's roots, every cell ?
//   C4LAB_BIN=target/release/c4lab node web/tests/bench-dsat.mjs [--cap S] /tmp/roots/*.txt
//
// Needs the engine built (scripts/build-web). Prints a Markdown table.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { basename } from 'node:path';
import init, { DsatSession } from '../pkg/c4lab_wasm_synth.js';

const args = process.argv.slice(2);
let cap = 60;
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--cap') cap = Number(args[++i]);
  else files.push(args[i]);
}
const bin = process.env.C4LAB_BIN;
if (!bin || files.length === 0 || !(cap > 0)) {
  console.error('usage: C4LAB_BIN=path/to/c4lab node bench-dsat.mjs [--cap SECONDS] GRID...');
  process.exit(2);
}
await init({ module_or_path: readFileSync(new URL('../pkg/c4lab_wasm_synth_bg.wasm', import.meta.url)) });

// The engine's solve, stepped as the page's worker steps it, stopped after `cap` seconds.
function browser(grid) {
  const session = DsatSession.start(grid, 16, 2_000_000, 1);
  const start = performance.now();
  for (;;) {
    const r = JSON.parse(session.step(4096));
    const s = (performance.now() - start) / 1000;
    if (!r.ok) return { verdict: `error: ${r.error}`, s };
    if (!['mapping', 'searching'].includes(r.state)) return { verdict: r.state, s };
    if (s > cap) return { verdict: `stopped (${cap} s)`, s: NaN };
  }
}

function native(grid) {
  const r = spawnSync(bin, ['dsat', '--json', '--backend', 'batsat', '--widen-after', '0', '--max-seconds', String(cap)], {
    input: grid,
    encoding: 'utf8',
  });
  const j = JSON.parse(r.stdout);
  const stopped = j.verdict === 'stopped';
  return { verdict: stopped ? `stopped (${cap} s)` : j.verdict, s: stopped ? NaN : j.seconds };
}

const fmt = (x) => (Number.isFinite(x) ? x.toFixed(2) : '-');
console.log('| root | native verdict | native s | browser verdict | browser s | browser / native |');
console.log('| --- | --- | ---: | --- | ---: | ---: |');
for (const f of files) {
  const grid = readFileSync(f, 'utf8');
  const n = native(grid);
  const b = browser(grid);
  console.log(`| ${basename(f, '.txt')} | ${n.verdict} | ${fmt(n.s)} | ${b.verdict} | ${fmt(b.s)} | ${fmt(b.s / n.s)} |`);
}
