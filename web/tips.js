// The focused control's title, shown next to it while the keyboard has put the focus
// there. A browser shows a title only under the mouse, so a keyboard's user could not
// read what a button does, nor why one is off. (A screen reader reads the title as the
// control's description already: the tip is hidden from it.)

/** The lines the tip must leave to be read: status lines and messages with words in them, Play's move log. */
function readLines() {
  return [...document.querySelectorAll('[role=status], [role=alert], #log')]
    .filter((el) => el.textContent.trim() && el.getClientRects().length > 0)
    .map((el) => el.getBoundingClientRect());
}

const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * Where the tip goes: the first of these places that keeps within the window and off
 * the lines being read (`readLines`) and the control's label: beside the control (a
 * checkbox's label) to the right, where the window has room, its foot level with the
 * control's, then its head; above it; below it. With none free, the first that fits.
 * Out of view while its control is out of the window.
 */
function place(tip, control) {
  const label = control.closest('label');
  const r = (label ?? control).getBoundingClientRect();
  tip.style.visibility = r.bottom < 0 || r.top > innerHeight ? 'hidden' : 'visible';
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const gap = 6;
  const widest = Math.min(24 * rem, innerWidth - 2 * gap);
  const room = innerWidth - r.right - 2 * gap;
  // the tip's size at a width: measured at the window's corner, where nothing squeezes it
  const size = (max) => {
    tip.style.maxWidth = `${max}px`;
    tip.style.left = '0px';
    tip.style.top = '0px';
    return { width: tip.offsetWidth, height: tip.offsetHeight, max };
  };
  const places = [];
  if (room >= 12 * rem) {
    // (wider beside than above: a line more is a line more over the rows around)
    const s = size(Math.min(36 * rem, room));
    places.push({ ...s, left: r.right + gap, top: r.bottom - s.height }, { ...s, left: r.right + gap, top: r.top });
  }
  const s = size(widest);
  const left = Math.max(gap, Math.min(r.left, innerWidth - s.width - gap));
  places.push({ ...s, left, top: r.top - gap - s.height }, { ...s, left, top: r.bottom + gap });
  const box = (p) => ({ left: p.left, top: p.top, right: p.left + p.width, bottom: p.top + p.height });
  const inWindow = (p) => p.top >= gap && p.top + p.height <= innerHeight - gap;
  const kept = [...readLines(), ...(label ? [r] : [])];
  const free = (p) => inWindow(p) && !kept.some((k) => overlap(box(p), k));
  const chosen = places.find(free) ?? places.find(inWindow) ?? places[0];
  tip.style.maxWidth = `${chosen.max}px`;
  tip.style.left = `${chosen.left}px`;
  tip.style.top = `${Math.max(gap, Math.min(chosen.top, innerHeight - gap - chosen.height))}px`;
}

/** The words a control's tip shows: its title, or its label's (a checkbox's). */
function words(control) {
  return control.title || control.closest('label')?.title || '';
}

/**
 * Shows the title of the control the keyboard focuses in a tip next to it. Returns
 * `tapped(control)`, which shows a control's tip for a touch's tap (a touch has no hover
 * for the browser's tooltip and no focus ring for this tip): it stays until the focus
 * moves on or Escape.
 */
export function wireTips() {
  const tip = document.createElement('div');
  tip.id = 'tip';
  tip.setAttribute('aria-hidden', 'true');
  tip.hidden = true;
  document.body.append(tip);
  let control = null;
  // where the control and the lines to be read were when the tip was placed, checked
  // every frame while it shows: a message or a status line growing above the control
  // moves it, with no event to say so
  let at = '';
  let frame = 0;
  // (and the lines it must leave to be read: a status line gets words, a log grows)
  const where = () => [control, ...readLines()].map((x) => {
    const r = x instanceof Element ? x.getBoundingClientRect() : x;
    return `${r.left},${r.top},${r.right},${r.bottom}`;
  }).join(';') + `;${innerWidth},${innerHeight}`;
  const follow = () => {
    if (!control || tip.hidden) {
      frame = 0;
      return;
    }
    if (!shown()) tip.hidden = true;
    else if (where() !== at) {
      place(tip, control);
      at = where();
    }
    frame = requestAnimationFrame(follow);
  };
  // (a control hidden with its panel keeps the focus in some browsers: no tip for it)
  const shown = () => control.isConnected && control.getClientRects().length > 0;
  const show = () => {
    const text = control && shown() && words(control);
    tip.hidden = !text;
    if (!text) return;
    tip.textContent = text;
    place(tip, control);
    at = where();
    if (!frame) frame = requestAnimationFrame(follow);
  };
  const hide = () => {
    control = null;
    tip.hidden = true;
  };
  // its words change while it has the focus (a search starts, a button goes off)
  const watch = new MutationObserver(show);
  addEventListener('focusin', (e) => {
    const target = e.target;
    watch.disconnect();
    // the mouse's focus has the browser's own tooltip
    if (!(target instanceof HTMLElement) || !target.matches('button, input[type=checkbox]') || !target.matches(':focus-visible')) return hide();
    watchTitle(target);
  });
  // shows `target`'s tip and keeps it to the words the target's title has
  const watchTitle = (target) => {
    control = target;
    watch.observe(control, { attributeFilter: ['title'] });
    const label = control.closest('label');
    if (label) watch.observe(label, { attributeFilter: ['title'] });
    show();
  };
  addEventListener('focusout', () => {
    watch.disconnect();
    hide();
  });
  const tapped = (target) => {
    watch.disconnect();
    watchTitle(target);
  };
  // the next touch elsewhere puts a tapped tip away (Safari focuses no button a tap
  // lands on, so no focus event would)
  addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'touch' && control && !control.matches(':focus-visible') && !control.contains(e.target)) {
      watch.disconnect();
      hide();
    }
  }, true);
  // dismissed by Escape without moving the focus
  addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && control) {
      watch.disconnect();
      hide();
    }
  });
  return tapped;
}
