// The time before the engine is in: inputs held (their handlers call the engine), and
// an engine that does not load said on the verdict's line with every control off.
import { setOff } from './buttons.js';

const $ = (sel) => document.querySelector(sel);
/** What a held input says, on the message line. */
const LOADING = 'The engine is still loading: that did nothing; try again once the verdict shows.';
const INPUTS = ['click', 'contextmenu', 'keydown', 'change'];

/**
 * Holds every input but Theme's click until the engine is in (their handlers threw, some
 * half way through an edit); a held click or key is said through `say`, not dropped
 * unsaid (Tab and the modifier keys move or prepare, and say nothing). Returns the
 * release, which also clears the line where it still says so.
 */
export function holdInputs(say) {
  const early = (e) => {
    if (e.type === 'click' && e.target.closest?.('#theme')) return;
    e.stopImmediatePropagation();
    const moves = e.type === 'keydown' && ['Tab', 'Shift', 'Control', 'Alt', 'Meta'].includes(e.key);
    if (e.type !== 'change' && !moves) say(LOADING);
  };
  for (const type of INPUTS) addEventListener(type, early, true);
  return () => {
    for (const type of INPUTS) removeEventListener(type, early, true);
    if ($('#message').textContent === LOADING) say('');
  };
}

/**
 * The engine did not load: the line where the verdict goes says so and what to do (the
 * message line under it is cleared by the next click), and every control but Theme is
 * off: their handlers call the engine (the inputs stay held), and a text field or
 * file picker takes nothing.
 */
export function engineFailed(e) {
  // (a held input's word is moot now)
  if ($('#message').textContent === LOADING) $('#message').textContent = '';
  const v = $('#verdict');
  v.textContent = `The engine did not load (${e}). Reload the page; if it fails again, start the Lab with c4lab serve and open the address it prints.`;
  v.classList.add('loss');
  for (const c of document.querySelectorAll('button, input, textarea, select')) {
    if (c.id === 'theme') continue;
    setOff(c, 'the engine did not load');
    if (c.matches('input:not([type=checkbox]), textarea, select')) c.disabled = true;
  }
}
