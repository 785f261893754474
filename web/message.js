// The message line under the board: what an action did, or why it was refused.
import { sentence } from './board.js';

const $ = (sel) => document.querySelector(sel);

/** Shows `text` under the board; an error (often the engine's words) as a sentence; `stay`: no scroll to it. */
export function say(text, error = false, stay = false) {
  const m = $('#message');
  m.textContent = error && text ? sentence(text) : text;
  m.classList.toggle('error', error);
  // on a small screen the line under the board may be far from what spoke (Import,
  // Export, a refused key): it comes into view with the verdict above it (an alert, it
  // is read out either way), once the edit it speaks of is drawn (measured before, the
  // page moved after: the verdict shrank above it, and both were out of view), if it
  // still says the same then
  const said = m.textContent;
  if (text && !stay) {
    requestAnimationFrame(() => {
      if (m.textContent !== said) return;
      inView($('#verdict'));
      inView(m);
    });
  }
  return false;
}

/** Scrolls `el` into view when it is out of the window (the least scroll that shows it). */
export function inView(el) {
  const r = el.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight) el.scrollIntoView({ block: 'nearest' });
}
