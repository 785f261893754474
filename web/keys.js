// The Lab's keyboard: Undo and Redo as editors spell them, the focus ring on the board
// (arrows move it, Enter or Space clicks its cell, a digit or ? paints it), Backspace
// takes a step back, and in Play and Position the digits 1-7 drop a stone in their column.

/**
 * The page's keydown handler. `lab` gives: `state` (the page's state, changed in place),
 * the board's width `W` and height `H`, `LEVELS` (the level digits), `undo()`,
 * `redo()`, `render()`, `paint(cell, level)`, `column(x)` (a stone in column x: Yellow's move in Play, the root's next in Position),
 * `press(cell)` (a click on the cell), and
 * `lastClicked()` (the cell last clicked, or where the focus ring was last, or null),
 * `dropRing()` (hides the focus ring, keeping its place).
 */
export function keyHandler(lab) {
  const { state, W, H, LEVELS } = lab;
  return function onKey(e) {
    // a text field keeps its keys; a file chooser or a checkbox with the focus does not
    // (the digits did nothing after a model file was chosen)
    if (e.target.closest('textarea, input:not([type=file]):not([type=checkbox])')) return;
    // Levels mode's Undo and Redo as editors spell them: Ctrl+Z, and Ctrl+Y or Ctrl+Shift+Z
    // (Cmd on a Mac); the browser keeps every other shortcut
    if (e.ctrlKey || e.metaKey || e.altKey) {
      if (e.altKey) return;
      // the letter the layout gives; on a layout whose letters are not Latin (Cyrillic,
      // Greek...), the keys where US Z and Y sit; a Latin layout's other keys (Dvorak's
      // `;` where US has Z) are no shortcut
      const latin = /^[a-z]$/i.test(e.key);
      const otherScript = /^\p{L}$/u.test(e.key) && !/\p{Script=Latin}/u.test(e.key);
      const key = latin ? e.key.toLowerCase() : otherScript ? { KeyZ: 'z', KeyY: 'y' }[e.code] : undefined;
      const redoKey = (key === 'y' && !e.shiftKey) || (key === 'z' && e.shiftKey);
      // never the browser's: with nothing of the page's to undo it undid the last value
      // set in a text box (the import box emptied) and moved the focus there
      // (Cmd+Y stays the browser's History on a Mac, but where it redoes)
      if (key === 'z' || (key === 'y' && !e.shiftKey && !e.metaKey)) e.preventDefault();
      // in Position mode Ctrl+Z takes the last stone off, as Backspace and Undo stone do
      if (state.mode === 'position') {
        if (key === 'z' && !e.shiftKey) lab.undo();
        return;
      }
      // in Play, Ctrl+Z takes back Yellow's last move, as Backspace does (left to the
      // browser, it undid a text box's paste and took the focus there)
      if (state.mode === 'play') {
        if (key === 'z' && !e.shiftKey && state.yellow) lab.undo();
        return;
      }
      if (redoKey && state.future.length) { e.preventDefault(); lab.redo(); }
      else if (key === 'z' && !e.shiftKey && state.history.length) lab.undo();
      return;
    }
    const k = e.key;
    if (k === 'Backspace') { e.preventDefault(); lab.undo(); return; }
    // the focus ring belongs to the board: away from it, arrows scroll the page and a
    // digit only picks the level
    const onBoard = e.target.closest && e.target.closest('#board');
    // the focus ring in every mode: a screen reader's user explores the board with it,
    // and Enter or Space is a click on its cell (a paint, or a stone in its column)
    if (k.startsWith('Arrow')) {
      if (!onBoard) return;
      e.preventDefault();
      const f = state.focus ?? lab.lastClicked() ?? 0;
      const [x, y] = [f % W, Math.floor(f / W)];
      const nx = Math.min(W - 1, Math.max(0, x + (k === 'ArrowRight') - (k === 'ArrowLeft')));
      const ny = Math.min(H - 1, Math.max(0, y + (k === 'ArrowDown') - (k === 'ArrowUp')));
      state.focus = state.focus === null ? (lab.lastClicked() ?? 0) : ny * W + nx;
      lab.render();
      // on a short screen the ring could leave the window, and the arrows cannot scroll it
      document.getElementById(`cell-${state.focus}`)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    } else if (k === 'Escape') lab.dropRing();
    else if ((k === 'Enter' || k === ' ') && onBoard && state.focus !== null) {
      e.preventDefault();
      if (!e.repeat) lab.press(state.focus);
    } else if (state.mode === 'levels') {
      if (LEVELS.includes(k) || k === '?') {
        state.level = k;
        if (state.focus !== null && onBoard) lab.paint(state.focus, k);
        lab.render(); // the palette shows the level picked, even where the paint was refused or changed nothing
      }
    } else if (k >= '1' && k <= '7') {
      // one move a press: a held digit's repeats played on (a game lost to one key)
      if (!e.repeat) lab.column(Number(k) - 1);
    }
  };
}
