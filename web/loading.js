// The time before the engine is in: inputs held (their handlers call the engine), and
// an engine that does not load said on the verdict's line with every control off.
import { setOff } from './buttons.js';

const $ = (sel) => document.querySelector(sel);
/** What a held input says, on the message line. */
const LOADING = 'The engine is still loading: that did nothing; try again once the verdict shows.';
const INPUTS = ['click', 'contextmenu', 'keydown', 'change'];

/** Set once the engine failed to load: the inputs stay held, and say nothing more. */
let failed = false;

/**
 * Holds every input but Theme's until the engine is in (their handlers threw, some half
 * way through an edit); a held click, or a key that types (a digit, `?`, Backspace), is
 * said through `say`, not dropped unsaid: keys the browser acts on itself (Tab, arrows,
 * Space and Enter, which press the focused button: its click is said) say nothing.
 * Returns the release, which also clears the line where it still says so.
 */
export function holdInputs(say) {
  const early = (e) => {
    // (Theme's own keys go on to its click, which passes)
    if (e.target.closest?.('#theme') && e.type === 'click') return;
    e.stopImmediatePropagation();
    if (failed || e.target.closest?.('#theme')) return;
    const types = e.type === 'keydown' && ((e.key.length === 1 && e.key !== ' ') || e.key === 'Backspace');
    if (e.type === 'click' || e.type === 'contextmenu' || types) say(LOADING);
  };
  for (const type of INPUTS) addEventListener(type, early, true);
  return () => {
    for (const type of INPUTS) removeEventListener(type, early, true);
    if ($('#message').textContent === LOADING) say('');
  };
}

/**
 * The engine did not load: the line where the verdict goes says so and what to do, and
 * every control but Theme is off: their handlers call the engine (the inputs stay
 * held, silently now), and a text field or file picker takes nothing.
 */
export function engineFailed(e) {
  // (a held input's word is moot now, and is said no more)
  failed = true;
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
