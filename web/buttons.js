// Which of the Lab's buttons are on (Simplify's is set with its count, in app.js's
// render). A button whose click would change nothing is off (Clear on a clear diagram,
// Empty board on the empty board, an Undo with nothing to take back), and the searches'
// buttons say in their titles why they are off.
//
// A button (or a checkbox) is turned off with aria-disabled, not the disabled attribute:
// a disabled control takes no focus, so a keyboard's user could never reach it to read
// why it is off (tips.js shows the focused control's title). A click on a control that
// is off is stopped before its handlers (`holdOffClicks`), and a checkbox's before it
// changes.

/** Whether `button` (or a checkbox) is off (aria-disabled). */
export function isOff(button) {
  return button?.getAttribute?.('aria-disabled') === 'true';
}

/** Turns `button` (or a checkbox) off (`off` true) or on, leaving its title as it is. */
export function markOff(button, off) {
  button.setAttribute('aria-disabled', String(Boolean(off)));
}

/** Turns `button` off when `why` names a reason (its title then says it) or on. */
export function setOff(button, why) {
  markOff(button, why);
  titled(button, why);
}

// the button being pressed, while its click is handled (every handler renders at once):
// only a button its own press turned off hands the focus on (one that something else
// turned off, a search's end, keeps it: an Enter meant for Stop as a search ended
// pressed Keep)
let pressed = null;

/**
 * Whether `button`, which had the focus and was on (`wasOn`) when the render began, is
 * off now by its own press: the render then hands the focus on.
 */
export function offByItsPress(button, wasOn) {
  return Boolean(button) && button === pressed && wasOn && isOff(button);
}

/**
 * Stops every click on a button or checkbox that is off before its handlers see it, and
 * notes the button of every other click while it is handled (`offByItsPress`). A tap
 * (a touch) on one that is off calls `tapped(control)`: the tip that says why (a mouse
 * has the browser's tooltip, a keyboard the focused control's tip; a tap had nothing).
 */
export function holdOffClicks(tapped) {
  let touch = false;
  addEventListener('pointerdown', (e) => { touch = e.pointerType === 'touch'; }, true);
  addEventListener('click', (e) => {
    // (a click on a checkbox's label reaches the checkbox as a click of its own)
    const control = e.target.closest?.('button, input[type=checkbox]');
    if (isOff(control)) {
      e.preventDefault();
      e.stopImmediatePropagation();
      if (touch) tapped?.(control);
    } else if (control?.matches('button')) {
      pressed = control;
      // (forgotten once the click is handled: a key's edit later is no press of it)
      setTimeout(() => { if (pressed === control) pressed = null; });
    }
  }, true);
}

/** Sets `button`'s title to its own words, led by "Off: why." when `off` names a reason. */
export function titled(button, off) {
  button.dataset.base ??= button.title;
  const base = button.dataset.base;
  // (set only when it changes: a search's every tick renders, and the focused button's
  // tip is redrawn on each change of its title)
  const title = off ? `Off: ${off}.${base ? ` ${base}` : ''}` : base;
  if (button.title !== title) button.title = title;
}

/**
 * Turns the buttons on or off for the page's `state` (its levels, root, Yellow line and
 * history), `root` (the engine's description of the root) and `levelGrid` (the diagram
 * as text); `$` finds an element. Returns whether Red is to move at a root that is not
 * over, which the searches need (their own modules turn their buttons on).
 */
export function renderButtons($, state, root, levelGrid) {
  // both searches refuse a root Red cannot play from: their titles say why
  const playable = root.ok && !root.over && root.to_move === 'Red' && root.stones.includes('.');
  const rootOff = playable ? ''
    : !root.ok || root.over || !root.stones.includes('.') ? 'the game at the root is over'
      : 'Yellow is to move at the root; the diagram plays Red';
  titled($('#fill'), rootOff || (levelGrid.includes('?') ? '' : 'no ? cells to fill: right-click cells (or press ?) to undecide them'));
  titled($('#dsat'), rootOff);
  // the edits that would change nothing; the levels under root stones count, as an
  // edit keeps them and they show again once a stone is taken back
  const every = (level) => state.levels.every((l) => l === level);
  // column c's mirror is 8 - c; cell i's is in the same row, at the other end
  const mirrored = (moves) => moves.split('').map((c) => String(8 - Number(c))).join('');
  const selfMirror = mirrored(state.root) === state.root && mirrored(state.yellow) === state.yellow
    && state.levels.every((l, i) => l === state.levels[i - (i % 7) + (6 - (i % 7))]);
  const edits = [
    ['#mirror', selfMirror && 'the levels, the root and the Yellow line are their own mirror image'],
    ['#clear', every('9') && 'every cell is at level 9 already'],
    ['#clear-undecided', !state.levels.includes('?') && 'there is no ? cell'],
    ['#undecide-all', every('?') && 'every cell is ? already'],
    ['#clear-root', !state.root && 'the root is the empty board already'],
    // nothing to take back
    ['#undo-play', !state.yellow && 'Yellow has made no move'],
    ['#to-root', !state.yellow && 'the game is at the root'],
    ['#undo-levels', state.history.length === 0 && 'nothing to undo'],
    ['#redo-levels', state.future.length === 0 && 'nothing to redo'],
    ['#undo-position', !state.root && 'the root holds no stone'],
  ];
  for (const [id, off] of edits) setOff($(id), off);
  // ? cells under the root's stones alone: Clear ? is on with none on the board, so its
  // title says where they are
  const hidden = root.ok && state.levels.includes('?') && state.levels.every((l, i) => l !== '?' || root.stones[i] !== '.');
  if (hidden) $('#clear-undecided').title += ' (every ? cell is under a root stone: it shows again once the stone is taken back)';
  return playable;
}
