// The Lab's page: state, rendering and input; board.js draws the board. The engine (Rust
// compiled to WebAssembly) answers every question about the game; verification runs in
// a worker (verify.js).
import { autoComplete } from './complete.js';
import { buildCells, drops, paintCells, redCell, renderLegend, renderLog, verdictText } from './board.js';
import { wholeRoot } from './dsat.js';
import { modelHint } from './model.js';
import { showHints, solverHints } from './hints.js';
import { keyHandler } from './keys.js';
import { engineFailed, holdInputs } from './loading.js';
import { inView, say } from './message.js';
import { changedReplyCut, cutNote, redReplies } from './lines.js';
import { buildPalette, renderPalette } from './palette.js';
import { holdOffClicks, isOff, markOff, offByItsPress, renderButtons } from './buttons.js';
import { wireTheme } from './theme.js';
import { wireTips } from './tips.js';
import { verifier } from './verify.js';

performance.mark('app');
const W = 7, H = 6, N = 42;
const LEVELS = '0123456789';
const $ = (sel) => document.querySelector(sel);
const call = (fn, ...args) => JSON.parse(fn(...args));
/** The board's 42 cells in grid order (top row first), as `buildBoard` made them. */
const boardCells = [];

const state = {
  mode: 'levels',
  levels: Array(N).fill('9'), // the level layer, grid order (top row first); kept under stones
  root: '',                    // the root's move sequence
  yellow: '',                  // Yellow's moves in Play mode
  level: '0',                  // the palette's selection
  focus: null,                 // the keyboard focus ring's cell
  history: [],                 // Levels-mode undo stack: {levels, root, yellow}
  future: [],                  // what Levels-mode Undo took back, for Redo (newest last)
  verdict: null,
  simplify: null,
  hints: null,                 // the solver's answers in Play mode
};
const lab = { firstVerdictMs: null, verdicts: 0, ready: false, engine: null }; // the test hook
let fill = null; // auto-complete (complete.js)
let whole = null; // the whole-root solve (dsat.js)
let engine = null; // the engine's bindings (pkg/c4lab_wasm.js), once main has imported them
let hint = null; // the model's hint in Play mode (model.js)
let tapped = null; // shows a control's tip for a tap on it while it is off (tips.js)
window.__lab = lab;

// ---- derived facts ----------------------------------------------------------------

function rootStones() {
  const p = call(engine.position, state.root);
  return p.ok ? p.stones : '.'.repeat(N);
}

/** The diagram as the engine reads it: root stones over the level layer. */
function grid() {
  const stones = rootStones();
  let s = '';
  for (let i = 0; i < N; i++) {
    s += stones[i] !== '.' ? stones[i] : state.levels[i];
    if (i % W === W - 1) s += '\n';
  }
  return s;
}

// ---- verification (verify.js) ------------------------------------------------------

let verification = null;
let lastHash = ''; // the fragment this page wrote last; any other is a link to load
function requestVerify(opts) {
  state.verdict = null;
  state.simplify = null;
  verification.request(opts);
}

// ---- solver hints (Play mode) ------------------------------------------------------

const hints = solverHints((h) => { state.hints = h; lab.hints = h; }, () => renderHints());
function requestHints(game) {
  state.hints = null;
  if (state.mode !== 'play') return;
  hints.ask(game, state.root);
}

function renderHints() {
  const playing = state.mode === 'play';
  // the cell a Yellow stone in column x would take (the replay made only when asked)
  let game;
  const cellOf = (x) => {
    game ??= call(engine.play, grid(), state.yellow);
    return game.ok ? drops(game.stones, String(x))[0] : undefined;
  };
  showHints({ line: $('#hints'), board: $('#board'), legend: $('#legend'), cells: boardCells }, playing, state.hints, cellOf);
}

// ---- edits ------------------------------------------------------------------------

function edited({ verify = true, first = false, keepHash = false, undone = false } = {}) {
  if (state.yellow) {
    // the Yellow moves the changed diagram still answers: a link to the rest would not open
    const g = call(engine.play, grid(), state.yellow);
    if (g.ok && g.yellow !== state.yellow) {
      say(`Play's Yellow line ${state.yellow} was cut to ${g.yellow || 'nothing'}: the changed diagram no longer answers the rest as it did (${undone ? 'Redo' : 'Undo'} restores it).`);
    }
    if (g.ok) state.yellow = g.yellow;
  }
  fill?.diagramChanged(grid());
  whole?.diagramChanged(grid());
  if (verify) requestVerify({ first });
  const link = call(engine.link_encode, grid(), state.yellow);
  // a root with Yellow to move is a step while a root is built stone by stone: it keeps
  // the last link, so a reload loses that step, not the diagram; any other diagram no
  // link can carry (a four at the root) leaves no stale link
  const building = !link.ok && call(engine.position, state.root).to_move === 'Yellow';
  if (!keepHash && !building) {
    lastHash = link.ok ? '#' + link.link : '';
    history.replaceState(null, '', lastHash || location.pathname + location.search);
    keepForTab(lastHash);
  }
  render();
}
/** Saves what Levels-mode Undo restores (`prev`, by default the state now): Mirror and Import change the root too. */
function remember(prev = { levels: state.levels.slice(), root: state.root, yellow: state.yellow }) {
  state.history.push(prev);
  if (state.history.length > 200) state.history.shift();
  state.future = []; // a new edit ends what Redo could bring back
}
const snapshot = () => ({ levels: state.levels.slice(), root: state.root, yellow: state.yellow });
/** Whether the diagram, root and Yellow line are those of snapshot `prev`. */
const unchangedSince = (prev) => state.levels.join('') === prev.levels.join('') && state.root === prev.root && state.yellow === prev.yellow;
function editLevels(change, mirrored = false) {
  say(''); // a message about an earlier action no longer applies
  const prev = { levels: state.levels.slice(), root: state.root, yellow: state.yellow };
  const before = state.yellow ? replies() : null; // (no line in Play: nothing to compare)
  change();
  // an edit that changed nothing (Clear on a clear board) leaves no Undo step
  if (unchangedSince(prev)) {
    render();
    return;
  }
  // (Mirror's Undo brings the line back as it was, not as moves played since)
  const step = mirrored ? { ...prev, replaced: true } : prev;
  remember(step);
  // Mirror mirrors Play's line too: its game is to be the mirror image of the line's
  if (state.yellow && mirrored) cutAtChangedReply(before?.map((r) => ({ ...r, column: r.column && 8 - r.column })), prev.yellow);
  else if (state.yellow && state.yellow === prev.yellow && state.root === prev.root) step.cut = cutAtChangedReply(before);
  edited();
}
/** Red's replies along Play's Yellow line as the diagram is now (see lines.js). */
const replies = () => redReplies(call(engine.play, grid(), state.yellow));
/** Cuts Play's Yellow line where Red's replies differ from `before` (see lines.js), and says so; whether it cut. */
function cutAtChangedReply(before, mirroredFrom = null) {
  const cut = changedReplyCut(before, replies(), state.yellow, mirroredFrom);
  if (!cut) return false;
  state.yellow = cut.yellow;
  say(cut.said);
  return true;
}
function paint(i, level) {
  if (rootStones()[i] !== '.') return say(`That cell holds a root stone; switch to Position mode to change the root.`, true);
  if (state.levels[i] === level) return;
  editLevels(() => { state.levels[i] = level; });
}
/** Sets the root to `moves`, saying why not where it cannot (then undefined); on success `{dropped}`, the sentence on Play's dropped line ('' for none). */
function setRoot(moves) {
  const p = call(engine.position, moves);
  if (!p.ok) return say(p.error, true);
  if (p.over) return say(`After ${moves} ${p.winner} has four in a row, so the game is over: a root must have no four.`, true);
  if (!p.stones.includes('.')) return say(`After ${moves} the board is full (a draw): a root needs an empty cell for Red's move.`, true);
  // the root it is already: nothing changes (Play's Yellow line was dropped unsaid,
  // with no Undo step to bring it back)
  if (p.moves === state.root) return say(`The root is ${p.moves || 'the empty board'} already: nothing changed.`);
  remember(); // Levels-mode Undo steps back through root changes too
  // a Yellow line played from the old root means nothing from the new one: said, not
  // dropped unsaid
  const dropped = state.yellow
    ? ` Play's Yellow line ${state.yellow} was played from the old root, so it was left out (Undo in Levels mode brings both back).`
    : '';
  state.root = p.moves;
  state.yellow = '';
  const lastCell = p.stones.split('.').length - 1 === 1; // one more stone would fill the board
  say(((p.to_move === 'Red' ? '' : lastCell
    ? 'Yellow is to move here with one cell left, and a full board has no Red move: take a stone back (Undo stone), since Red moves at a steady-state root.'
    : 'Yellow is to move here: add one more stone, since Red moves at a steady-state root.') + dropped).trim());
  edited();
  return { dropped: dropped.trim() };
}
/**
 * The level layer of a diagram read whole (a link, an import): its cells, and 9 under
 * its root's stones. A level kept there from the diagram before (the layer keeps levels
 * under stones for Undo stone) came back once a stone was taken off, so one link gave
 * two diagrams, by what the tab held before.
 */
function setLevels(read) {
  const p = call(engine.position, read.root);
  if (!p.ok) return;
  for (let i = 0; i < N; i++) state.levels[i] = p.stones[i] === '.' ? read.cells[i] : '9';
}
function apply(read) {
  const prev = { ...snapshot(), replaced: true };
  setLevels(read);
  state.root = read.root;
  state.yellow = read.line || '';
  if (!unchangedSince(prev)) remember(prev); // the same diagram again leaves no Undo step
  edited();
}

// ---- rendering --------------------------------------------------------------------

function render() {
  if (!lab.ready) return;
  // a button its own press turned off hands the focus on, below; one the user moved to
  // while it was off keeps it, as does one something else turned off
  const focused = document.activeElement;
  const focusedWasOn = !isOff(focused);
  const stones = rootStones();
  const board = $('#board');
  let shown = stones, ghost = [], selected = -1, four = [];
  const game = call(engine.play, grid(), state.mode === 'play' ? state.yellow : '');
  if (game.ok) {
    const first = game.log[0];
    if (state.mode === 'play') {
      [shown, four, selected] = [game.stones, game.four, redCell(stones, game)];
    } else if (first && first.column) {
      selected = drops(stones, String(first.column))[0];
    }
  }
  const preview = state.mode === 'levels' ? (fill?.preview() || whole?.preview()) : null;
  if (preview) {
    ghost = drops(stones, preview.line);
  } else if (state.mode !== 'play' && state.verdict && state.verdict.verdict === 'loss') {
    ghost = drops(stones, state.verdict.line);
  }
  const view = { stones, shown, levels: state.levels, ghost, preview, selected, four, focus: state.focus, mode: state.mode, why: game.ok && game.log[0]?.rule?.name };
  const legend = paintCells(boardCells, view);
  if (state.focus !== null) board.setAttribute('aria-activedescendant', `cell-${state.focus}`);
  else board.removeAttribute('aria-activedescendant');
  renderLegend($('#legend'), legend, view);
  const [text, cls] = verdictText(state.verdict, state.mode, state.levels.every((l, i) => l === '9' || stones[i] !== '.'));
  const v = $('#verdict');
  const root = call(engine.position, state.root);
  // a root with Yellow to move is a step while a root is built: no link carries it, so
  // what is painted meanwhile lives in this page alone (a reload lost it unsaid); with
  // one cell left a stone comes off, as one more would fill the board
  const building = root.ok && !root.over && root.to_move === 'Yellow';
  const fix = root.ok && root.stones.split('.').length === 2 ? 'take a stone back (Undo stone in Position mode)' : 'add a stone in Position mode';
  // (the engine's sentences may end without a full stop, "...must be equal Until"; an ellipsis ends one)
  v.textContent = building ? `${text.replace(/([^.!?…])$/, '$1.')} Until Red is to move, no link, export or reload keeps this diagram: ${fix}.` : text;
  v.className = cls;
  const simp = $('#simplify');
  if (state.simplify && state.simplify.ok) {
    const n = state.simplify.cleared;
    markOff(simp, n === 0);
    simp.textContent = n === 0 ? 'Simplify (already minimal)' : `Simplify (clears ${n})`;
  } else {
    markOff(simp, true);
    simp.textContent = 'Simplify';
  }
  const won = state.verdict && state.verdict.ok && state.verdict.verdict === 'win';
  const simpTitle = state.simplify && !state.simplify.ok ? `Off: ${state.simplify.error.replace(/\.$/, '')}.`
    : !state.simplify ? (won ? 'Off: counting the cells Simplify would clear…' : 'Off: Simplify needs a diagram that verifies as a win.')
    : state.simplify.cleared === 0
      ? 'Off: no cell can be blanked without losing the win.'
      : 'Blank (level 9) every cell that is not load-bearing, keeping the win';
  // (set only when it changes: the focused button's tip is redrawn on each change)
  if (simp.title !== simpTitle) simp.title = simpTitle;
  const playable = renderButtons($, state, root, grid());
  fill?.render(playable && grid().includes('?'));
  whole?.render(playable);
  renderLog($('#log'), $('#game-status'), game);
  if (state.mode === 'play' && lab.hintsFor !== state.root + '|' + state.yellow + '|' + grid()) {
    lab.hintsFor = state.root + '|' + state.yellow + '|' + grid();
    requestHints(game);
  }
  renderHints();
  hint?.render(game, state.root, state.mode === 'play');
  renderPalette($('#palette'), state.level);
  $('#moves').placeholder = state.root || 'e.g. 4453';
  // once the root changes (set from the field or any other way) the field empties, so its
  // placeholder shows the root in force rather than an older sequence
  if (state.root !== shownRoot) {
    shownRoot = state.root;
    $('#moves').value = '';
  }
  // a button its own click turned off (Clear, Redo, Back to root...) would leave the
  // keyboard on a button that does nothing: the board takes the focus (the searches
  // move it on themselves) (scrolled to only when it is out of the window, where its
  // focus could not be seen)
  if (document.activeElement === focused && offByItsPress(focused, focusedWasOn)) {
    $('#board').focus({ preventScroll: true });
    inView($('#board'));
  }
}
let shownRoot = null;

// ---- input -----------------------------------------------------------------------

function setMode(mode) {
  // away from Play its question goes unanswered: the next visit asks it again
  if (mode !== 'play' && hints.cancel()) lab.hintsFor = null;
  state.mode = mode;
  for (const b of document.querySelectorAll('nav button')) b.setAttribute('aria-pressed', String(b.dataset.mode === mode));
  for (const s of document.querySelectorAll('[data-panel], [data-mode-only]')) s.hidden = (s.dataset.panel ?? s.dataset.modeOnly) !== mode;
  say('');
  render();
}

function column(x) {
  if (state.mode === 'play') {
    const g = call(engine.play, grid(), state.yellow + (x + 1));
    // with no game at all the game's status says why (each click said it once more)
    if (!g.ok) return say(call(engine.play, grid(), '').ok ? g.error : 'No move: there is no game from this root (the game status says why).', true);
    // a move after the end, or where Red's move waits on a ? cell: say how to go on
    if (g.error) {
      // (the status names the ? cells and the fix: the engine's error said it again)
      if (g.status === 'undecided') {
        const many = g.waits_on.length > 1;
        return say(`No move can follow: give the ? cell${many ? 's' : ''} Red waits on ${many ? 'levels' : 'a level'} in Levels mode.`, true);
      }
      const on = g.yellow ? 'Undo takes a move back, Back to root starts again' : '';
      return say(on ? `${g.error}; ${on}.` : g.error, true);
    }
    state.yellow = g.yellow;
    state.future = []; // Redo's snapshots hold the line before: they would take this move back
    say('');
    edited({ verify: false });
  } else if (state.mode === 'position') {
    setRoot(state.root + (x + 1));
  }
}

function undo() {
  say('');
  if (state.mode === 'play') {
    if (!state.yellow) return; // nothing to take back (Backspace at the root)
    state.yellow = state.yellow.slice(0, -1);
    state.future = [];
    edited({ verify: false });
  }
  else if (state.mode === 'position') { if (state.root) setRoot(state.root.slice(0, -1)); }
  else if (state.history.length) {
    const prev = state.history.pop();
    // (Redo's step keeps whether it replaced the line, for the Undo after it)
    state.future.push({ ...snapshot(), replaced: prev.replaced, cut: prev.cut });
    // the snapshot's Yellow line comes back when the edit cut it (`cut`), unless moves
    // were played in Play since (a line that is no prefix of the snapshot's); the line
    // as Play left it stays when the edit did not touch it (moves taken back in Play
    // stay taken back), cut where the restored diagram stops
    // (after an Import or a link, which replaced the line with their own (`replaced`),
    // or a root change, the snapshot's line comes back)
    const kept = !prev.replaced && prev.root === state.root && (!prev.cut || !prev.yellow.startsWith(state.yellow));
    ({ levels: state.levels, root: state.root } = prev);
    if (!kept) state.yellow = prev.yellow;
    edited({ undone: true });
  }
}
/** Levels mode: brings back what Undo took back, until the next edit. */
function redo() {
  if (state.mode !== 'levels' || !state.future.length) return;
  say('');
  const next = state.future.pop();
  state.history.push({ ...snapshot(), replaced: next.replaced, cut: next.cut });
  ({ levels: state.levels, root: state.root, yellow: state.yellow } = next);
  edited();
}

/** A click on cell `i`: in Levels mode it paints the picked level, else a stone drops in its column. */
const press = (i) => (state.mode === 'levels' ? paint(i, state.level) : column(i % W));
function buildBoard() {
  buildCells($('#board'), boardCells, {
    click(i) {
      lastClicked = i; // the keyboard's focus ring starts here
      if (state.focus !== null) state.focus = i; // (or moves here, where it shows)
      press(i);
    },
    undecide: (i) => state.mode === 'levels' && (paint(i, '?'), true),
    dropCell(x) {
      if (state.mode === 'levels') return undefined;
      const stones = state.mode === 'play' ? call(engine.play, grid(), state.yellow).stones : rootStones();
      return drops(stones || rootStones(), String(x + 1))[0];
    },
    // the focus ring lives only while the board has the keyboard (digits paint it only then)
    blur: () => dropRing(),
  });
}

let lastClicked = null;

/** Hides the board's focus ring; the next arrow brings it back where it was. */
function dropRing() {
  if (state.focus === null) return;
  lastClicked = state.focus;
  state.focus = null;
  render();
}

function wire() {
  for (const b of document.querySelectorAll('nav button')) b.addEventListener('click', () => setMode(b.dataset.mode));
  wireTheme($('#theme'));
  tapped = wireTips();
  $('#clear').addEventListener('click', () => editLevels(() => state.levels.fill('9')));
  $('#clear-undecided').addEventListener('click', () => editLevels(() => { state.levels = state.levels.map((l) => (l === '?' ? '9' : l)); }));
  $('#undecide-all').addEventListener('click', () => editLevels(() => state.levels.fill('?')));
  $('#mirror').addEventListener('click', () => {
    // a move sequence's mirror image: column c becomes 8 - c
    const mirror = (moves) => moves.split('').map((c) => String(8 - Number(c))).join('');
    editLevels(() => {
      const l = state.levels.slice();
      for (let i = 0; i < N; i++) state.levels[i] = l[i - (i % W) + (W - 1 - (i % W))];
      state.root = mirror(state.root);
      state.yellow = mirror(state.yellow);
    }, true);
  });
  $('#simplify').addEventListener('click', () => {
    // the worker's answer for this very diagram (the button is enabled only once it came):
    // simplifying again here would block the page for as long as the worker took
    const s = state.simplify;
    if (!s || !s.ok) return;
    const line = state.yellow;
    editLevels(() => { for (let i = 0; i < N; i++) if ('RY'.indexOf(s.cells[i]) < 0) state.levels[i] = s.cells[i]; });
    // the edit's word on Play's Yellow line, when it cut it, stays after this one
    const cut = state.yellow !== line ? ` ${$('#message').textContent}` : '';
    say(`Simplify cleared ${s.cleared} cell${s.cleared === 1 ? '' : 's'}.${cut}`);
  });
  $('#undo-levels').addEventListener('click', undo);
  $('#redo-levels').addEventListener('click', redo);
  $('#undo-play').addEventListener('click', undo);
  $('#to-root').addEventListener('click', () => { say(''); state.yellow = ''; state.future = []; edited({ verify: false }); });
  $('#undo-position').addEventListener('click', undo);
  $('#clear-root').addEventListener('click', () => setRoot(''));
  // an empty box (it empties after each root set, showing that root) keeps the root: it
  // set the empty board
  const setMoves = () => {
    const moves = $('#moves').value.trim();
    if (!moves) return say('Type a move sequence first (digits 1-7); Empty board takes every stone off.', true);
    setRoot(moves);
  };
  $('#set-moves').addEventListener('click', setMoves);
  $('#moves').addEventListener('keydown', (e) => { if (e.key === 'Enter') setMoves(); });
  $('#set-stones').addEventListener('click', () => {
    const p = call(engine.position_from_stones, $('#stones').value);
    if (!p.ok) return say(p.error, true);
    // (with Yellow to move, setRoot's own word stands: a root needs one more stone)
    // (setRoot's word on Play's line, when it dropped one, follows)
    const set = setRoot(p.moves);
    if (set && p.to_move === 'Red') say(`Root loaded from stones; a legal order is ${p.moves || 'the empty board'}. ${set.dropped}`.trim());
  });
  $('#import').addEventListener('click', () => {
    // (a link pasted from a mail or chat may be percent-encoded: the engine reads it so)
    const r = call(engine.read_any, $('#io-text').value);
    if (!r.ok) return say(r.error, true);
    // as in Position mode (and a link): a full board leaves Red no move to name
    const full = call(engine.position, r.root);
    // (the link would be refused, so the address bar could not keep the diagram; a four
    // is named first, as a full board's last stone may have made one)
    if (full.ok && full.over) return say(`The stones already hold a four (${full.winner}'s), so the game is over there: a root needs play to go on.`, true);
    if (full.ok && !full.stones.includes('.')) return say(`The board is full (a draw): a root needs an empty cell for Red's move.`, true);
    const line = state.yellow;
    apply(r);
    if (r.line) setMode('play'); // a link with a Yellow line opens in Play, as from the address bar
    // a form without a line replaces Play's, as a new root does in Position mode
    // (when the link's own line was left out, that sentence says the line is gone)
    const lost = !line || r.line ? '' : r.dropped ? ` Undo in Levels mode restores Play's line ${line}.` : ` Play's Yellow line ${line} was left out (Undo in Levels mode restores it).`;
    say(`Read: ${r.form}${r.line ? `, with Yellow's moves ${r.line} (shown in Play)` : ''}.${cutNote(r)}${lost}`);
  });
  for (const b of document.querySelectorAll('[data-export]')) {
    b.addEventListener('click', () => {
      const form = b.dataset.export;
      if (form === 'link') {
        const l = call(engine.link_encode, grid(), state.yellow);
        if (!l.ok) { $('#io-text').value = ''; return say(l.error, true); }
        $('#io-text').value = location.href.split('#')[0] + '#' + l.link;
        // the address bar too (it may still hold a refused link, kept to inspect)
        lastHash = '#' + l.link;
        history.replaceState(null, '', lastHash);
        // (what it says is in the box beside the button: the page stays there)
        return say('Share link written in the import/export box; it is also in the address bar.', false, true);
      }
      const r = call(engine.export_diagram, grid(), form);
      // an older export left in the box would read as this one
      if (!r.ok) { $('#io-text').value = ''; return say(r.error, true); }
      $('#io-text').value = r.text;
      say('');
    });
  }
  document.addEventListener('keydown', keyHandler({ state, W, H, LEVELS, undo, redo, render, paint, column, press, dropRing, lastClicked: () => lastClicked }));
}

/** Loads the share link in the address bar, if any; false when it is refused. */
function loadHash({ undoable = false } = {}) {
  // the engine undoes the percent-encoding itself, once, as `c4lab` does for a pasted
  // link: decoding here as well read a doubly encoded `%252A` as `*`
  const h = location.hash.slice(1);
  if (!h) {
    say(''); // an address cleared by hand: a refusal said before no longer applies
    return;
  }
  // a fragment that is no link at all would be read as a grid, and refused as one (its
  // digits and dot may be percent-encoded, as Import and `c4lab` read them)
  if (!/^(\d|%3\d)+(\.|%2E|$)/i.test(h)) {
    // quoted as typed, not as the address bar encodes it (`# hello` read `#%20hello`)
    let shown = h;
    try { shown = decodeURIComponent(h); } catch { /* a stray % left as it is */ }
    say(`The share link was refused: #${shown.length > 40 ? `${shown.slice(0, 40)}…` : shown} is no c4lab share link (one reads #1.<root>.<cells>, as Share link writes it).`, true);
    lastHash = location.hash;
    return false;
  }
  // always read as a link (a truncated one would otherwise be parsed as a grid)
  const r = call(engine.read_any, '#' + h);
  if (!r.ok) {
    say(`The share link was refused: ${r.error}`, true);
    lastHash = location.hash; // kept in the address bar to inspect, until the next edit
    return false;
  }
  openLink(r, undoable);
}

/** Shows the diagram of link `r` (read by the engine); `undoable`: Undo returns to the one before. */
function openLink(r, undoable) {
  const prev = { ...snapshot(), replaced: true };
  setLevels(r);
  state.root = r.root;
  state.yellow = r.line;
  // a link opened from the address bar: Undo returns to the diagram before (none when
  // it holds the same diagram, written another way)
  if (undoable && !unchangedSince(prev)) remember(prev);
  if (r.line) setMode('play');
  say(cutNote(r).trim());
}

/** Where this tab keeps its last share link: a reload of a refused link shows it. */
const TAB_KEY = 'c4lab-tab-link';

/** Keeps `link` (the one the address bar now shows) for this tab. */
function keepForTab(link) {
  try { sessionStorage.setItem(TAB_KEY, link); } catch { /* storage off: nothing kept */ }
}

/** After a refused link at load, shows this tab's last diagram (a reload of the refused address opened the default board). */
function restoreTab() {
  let kept = null;
  try { kept = sessionStorage.getItem(TAB_KEY); } catch { /* storage off */ }
  const r = kept ? call(engine.read_any, kept) : null;
  if (!r || !r.ok) return;
  const refusal = $('#message').textContent.replace(/[.]$/, '');
  openLink(r, false);
  say(`${refusal}. This tab's last diagram is shown.`, true);
}

async function main() {
  buildBoard();
  buildPalette($('#palette'), LEVELS, (l) => { state.level = l; render(); });
  holdOffClicks((control) => tapped?.(control));
  wire();
  // until the engine is in, inputs are held (loading.js)
  const release = holdInputs(say);
  const host = {
    grid,
    levels: () => state.levels,
    undecided: () => [...grid()].filter((c) => c === '?').length, // not under a root stone
    fixed: () => [...grid()].filter((c) => /[0-9a-d]/.test(c)).length, // empty cells with a level (a weak a-d too)
    render,
    // one search at a time: the board previews one, and Keep applies what it shows
    starting: (who) => (who === 'fill' ? whole : fill)?.giveWayTo(who === 'fill' ? 'Fill undecided cells' : 'Solve whole root'),
    ended: (who) => (who === 'fill' ? whole : fill)?.otherEnded(),
    keep: (cells) => editLevels(() => {
      for (let i = 0; i < N; i++) if (state.levels[i] === '?' && LEVELS.includes(cells[i])) state.levels[i] = cells[i];
    }),
  };
  fill = autoComplete(host);
  whole = wholeRoot(host);
  lab.dsat = () => whole.report();
  try {
    // imported here, not at the top: a glue file that does not load is said as the
    // engine's failure (a static import that fails stops the module before it runs)
    engine = await import('./pkg/c4lab_wasm.js');
    lab.engine = engine;
    // its worker loads its engine while this thread loads its own
    verification = verifier(engine, lab, grid, (kind, result) => {
      if (kind === 'verdict') state.verdict = result;
      else state.simplify = result;
      render();
    });
    hint = modelHint(engine, render);
    await engine.default();
  } catch (e) {
    return engineFailed(e);
  }
  release();
  performance.mark('engine-ready');
  lab.ready = true;
  const refused = loadHash() === false;
  if (refused) restoreTab();
  edited({ first: true, keepHash: refused });
  addEventListener('hashchange', () => {
    if (location.hash !== lastHash) edited({ keepHash: loadHash({ undoable: true }) === false });
  });
}

main().catch((e) => say(`The page failed to start: ${e}`, true));
