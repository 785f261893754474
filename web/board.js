// How the Lab draws what it knows: the board's cells, the legend under it, the verdict
// line and Play's move log. Drawing and the board's pointer events only: app.js holds the
// state and passes it in, and handles what the pointer does.
import { REASONS } from './complete.js';

const W = 7, H = 6, N = 42;

/** `n` and `word`, plural unless `n` is one (`1 position`, `2,048 positions`). */
export const plural = (n, word) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;

/** Cells (grid indices) where each move of `line` lands, dropped onto `stones`. */
export function drops(stones, line) {
  const height = Array(W).fill(0);
  for (let i = 0; i < N; i++) if (stones[i] !== '.') height[i % W] = Math.max(height[i % W], H - Math.floor(i / W));
  const cells = [];
  for (const ch of line) {
    const x = ch.charCodeAt(0) - 49;
    if (x < 0 || x >= W || height[x] >= H) break;
    cells.push((H - 1 - height[x]) * W + x);
    height[x]++;
  }
  return cells;
}

/** The cell of Red's latest move in a played `game`: the last Red stone of its line. */
export function redCell(rootStones, game) {
  const line = game.log.filter((m) => m.column).map((m) => String(m.column)).join('');
  const cells = drops(rootStones, line);
  const reds = game.log.filter((m) => m.column).map((m, k) => (m.player === 'Red' ? cells[k] : -1)).filter((c) => c >= 0);
  return reds.length ? reds[reds.length - 1] : -1;
}

/** The verdict line for verifier answer `v` (null while verifying) in `mode`, `blank` if every empty cell is level 9: [text, class]. */
export function verdictText(v, mode, blank = false) {
  if (!v) return ['Verifying…', ''];
  if (!v.ok) return [sentence(v.error), 'loss'];
  switch (v.verdict) {
    case 'win': return [`Win: Red makes four on every line (${plural(v.positions, 'position')} searched).`, 'win'];
    case 'loss': {
      // (a weak level named as the board writes it: 10..13 are a..d)
      const name = (l) => (l >= 10 ? 'abcd'[l - 10] : l);
      const tied = v.tied && v.tied.length ? ` (tied levels: ${v.tied.map(name).join(', ')})` : '';
      const line = v.line ? `after ${v.line}` : 'at the root';
      // a blank diagram (a first visit's) loses at once: where to start, not an alarm
      if (blank && mode === 'levels' && v.reason === 'no-move' && !v.line) {
        return [`Every empty cell is blank (level 9), so the diagram names no move at the root. Paint levels (pick one, click cells), import a link, or mark cells ? (Undecide all) for Fill undecided cells or Solve whole root to decide.`, ''];
      }
      return [`Loss: ${REASONS[v.reason]}${tied} ${line}.${v.line && mode !== 'play' ? ' The numbered ghost stones show the line.' : ''}`, 'loss'];
    }
    case 'incomplete': return [`Incomplete: ${v.undecided === 1 ? '1 undecided cell (?); no verdict until it is' : `${v.undecided} undecided cells (?); no verdict until they are`} decided.`, ''];
    case 'root-terminal': return [`The root already holds a four (${v.winner}): there is nothing to verify.`, 'loss'];
    case 'bad-root': return [`Bad root: ${sentence(v.message).replace(/^./, (c) => c.toLowerCase())}`, 'loss'];
    case 'budget': return [`Gave up after ${plural(v.positions, 'position')}.`, ''];
  }
  return ['', ''];
}

/**
 * Draws the 42 `cells` (grid order) and gives each its label. `view` holds the root's
 * `stones`, the stones `shown` (the game's in Play), the `levels`, the counterexample's
 * `ghost` cells, a search's `preview` (its candidate levels), the `selected` cell, the
 * winning `four`, the keyboard `focus`, the `mode` and `why` Red plays the selected cell
 * (its rule's name). Returns what the legend must name.
 */
export function paintCells(cells, view) {
  const { stones, shown, levels, ghost, preview, selected, four, focus } = view;
  const legend = new Set();
  for (let i = 0; i < N; i++) {
    const c = cells[i];
    const x = i % W, y = H - Math.floor(i / W);
    const candidate = preview && levels[i] === '?' && stones[i] === '.';
    const level = candidate ? preview.cells[i] : levels[i];
    const stone = shown[i];
    const g = ghost.indexOf(i);
    c.className = 'cell';
    c.textContent = '';
    let label = `column ${x + 1}, row ${y}: `;
    if (stone !== '.') {
      c.classList.add('stone-' + stone);
      label += (stone === 'R' ? 'Red' : 'Yellow') + ' stone';
      if (stones[i] === '.') { // played after the root: the level stays underneath
        const u = document.createElement('span');
        u.className = 'under';
        u.textContent = level === '9' ? '' : level;
        c.append(u);
        label += `, level ${level} underneath`;
      }
    } else if (g >= 0) {
      c.classList.add(g % 2 === 0 ? 'ghost-R' : 'ghost-Y');
      const n = document.createElement('span');
      n.className = 'num';
      n.textContent = String(g + 1);
      c.append(n);
      // the level stays readable in a corner (a candidate's too: a long line would
      // otherwise hide every level the status line says the board shows)
      // (a candidate's 9 too: the search decided it, and it is marked as such)
      if (level !== '9' || candidate) {
        const u = document.createElement('span');
        u.className = candidate ? 'under candidate' : 'under';
        u.textContent = level;
        c.append(u);
      }
      if (candidate) legend.add('candidate');
      label += `counterexample move ${g + 1} (${g % 2 === 0 ? 'Red' : 'Yellow'}), ${candidate ? 'candidate ' : ''}level ${level}`;
      legend.add('ghost');
    } else {
      c.textContent = level === '9' && !candidate ? '' : level;
      if (level === '?') c.classList.add('undecided');
      if (candidate) { c.classList.add('candidate'); legend.add('candidate'); }
      label += level === '?' ? 'undecided' : candidate ? `candidate level ${level} (undecided)` : `level ${level}`;
    }
    if (i === selected) {
      c.classList.add('selected');
      legend.add('selected');
      label += `, ${selectedText(view)}`;
    }
    if (four.includes(i)) { c.classList.add('four'); legend.add('four'); label += ', in the winning four'; }
    if (i === focus) c.classList.add('focus');
    // the tooltip names the cell for the mouse (its description is empty: buildCells)
    c.title = label;
    c.setAttribute('aria-label', label);
  }
  return legend;
}

/** What the ringed cell is in `view`: Red's last move in Play, else Red's move at the root and why. */
function selectedText({ mode, why }) {
  if (mode === 'play') return "Red's last move";
  if (why === 'win') return "Red's move: it wins at once, whatever the levels";
  if (why === 'block') return "Red's move: it blocks Yellow's four, whatever the levels";
  return 'the cell the diagram selects';
}

/** Fills the legend list `ul` with the `items` the board shows in `view`. */
export function renderLegend(ul, items, view) {
  ul.textContent = '';
  const add = (cls, color, text) => {
    const li = document.createElement('li');
    li.className = cls;
    const s = document.createElement('span');
    s.className = 'swatch';
    s.style.boxShadow = `0 0 0 3px ${color}`;
    li.append(s, text);
    ul.append(li);
  };
  if (items.has('selected')) add('legend-selected', 'var(--accent)', selectedText(view));
  if (items.has('four')) add('legend-four', 'var(--win)', 'the winning four');
  if (items.has('ghost')) add('legend-ghost', 'var(--muted)', 'faded numbered stones: the losing line (the level in the corner)');
  if (items.has('candidate')) add('legend-candidate', 'var(--accent)', 'underlined: candidate levels for the ? cells (Fill undecided cells or Solve whole root)');
}

/** `text` with a capital first letter and a closing full stop (kept if it has one). */
export function sentence(text) {
  if (!text) return text;
  const t = text[0].toUpperCase() + text.slice(1);
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** Writes Play's move log into `ol` and the game's state into the live region `status`. */
export function renderLog(ol, status, game) {
  ol.textContent = '';
  if (!game.ok) { status.textContent = sentence(game.error); return; }
  for (const m of game.log) {
    const li = document.createElement('li');
    li.className = m.player === 'Red' ? 'red' : 'yellow';
    li.textContent = m.player === 'Red'
      ? (m.column ? `Red ${m.column} · ${m.rule.text}` : `Red: ${m.rule.text}`)
      : `Yellow ${m.column}`;
    ol.append(li);
  }
  // the newest move in view (the box scrolls once the game outgrows it)
  ol.scrollTop = ol.scrollHeight;
  const text = sentence(game.status_text);
  // Red's latest move first, its opening move too: the status line (under the board) is
  // the live region a screen reader announces, and the log is not
  const last = game.log[game.log.length - 1];
  const reply = last && last.player === 'Red' && last.column ? `Red played ${last.column}. ` : '';
  status.textContent = reply + text + (game.error ? ` ${sentence(game.error)}` : '');
}

/**
 * Builds the board's cells into `board` (and the list `cells`) as six rows of seven, and
 * wires the pointer: `on.click(i)`, `on.undecide(i)` (a right-click; true when it
 * acted, which keeps the browser's menu away), `on.dropCell(x)` (the cell a stone in
 * column x would take, shown on hover; undefined for none) and `on.blur()`.
 */
export function buildCells(board, cells, on) {
  // rows for assistive technology (`display: contents` leaves the CSS grid as it was);
  // the keyboard's focus ring is the grid's active descendant, so it is announced
  for (let y = 0; y < H; y++) {
    const row = document.createElement('div');
    row.className = 'board-row';
    row.setAttribute('role', 'row');
    for (let x = 0; x < W; x++) {
      const c = document.createElement('div');
      c.className = 'cell';
      c.id = `cell-${y * W + x}`;
      c.setAttribute('role', 'gridcell');
      // a screen reader has the cell's name once, not again from its tooltip as the
      // description (an empty one stops that where aria-description is known, as in
      // Chromium; elsewhere the tooltip is read twice, as before)
      c.setAttribute('aria-description', '');
      c.dataset.index = String(y * W + x);
      row.append(c);
      cells.push(c);
    }
    board.append(row);
  }
  const cellOf = (e) => e.target.closest('.cell');
  const unmark = () => { for (const d of board.querySelectorAll('.drop')) d.classList.remove('drop'); };
  board.addEventListener('click', (e) => { const c = cellOf(e); if (c) on.click(Number(c.dataset.index)); });
  board.addEventListener('blur', on.blur);
  board.addEventListener('contextmenu', (e) => {
    const c = cellOf(e);
    if (c && on.undecide(Number(c.dataset.index))) e.preventDefault();
  });
  // a mouse's or a pen's hover: a finger's tap left the ring on its column after it
  board.addEventListener('pointerover', (e) => {
    const c = cellOf(e);
    unmark();
    if (!c || e.pointerType === 'touch') return;
    const cell = on.dropCell(Number(c.dataset.index) % W);
    if (cell !== undefined) cells[cell].classList.add('drop');
  });
  board.addEventListener('pointerleave', unmark);
}
