// The focused control's title, shown next to it while the keyboard has put the focus
// there. A browser shows a title only under the mouse, so a keyboard's user could not
// read what a button does, nor why one is off. (A screen reader reads the title as the
// control's description already: the tip is hidden from it.)

/**
 * Where the tip goes: beside its control, to the right, where the window has room (above
 * and below a control are the lines a press of it changes: a search's status, Play's
 * move log), else above it, or below where the window ends first.
 */
function place(tip, control) {
  const r = control.getBoundingClientRect();
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const gap = 6;
  const widest = Math.min(24 * rem, innerWidth - 2 * gap);
  const room = innerWidth - r.right - 2 * gap;
  const beside = room >= 12 * rem;
  tip.style.maxWidth = `${beside ? Math.min(widest, room) : widest}px`;
  // measured at the window's corner, where nothing squeezes it
  tip.style.left = '0px';
  tip.style.top = '0px';
  const width = tip.offsetWidth;
  const height = tip.offsetHeight;
  let left, top;
  if (beside) {
    left = r.right + gap;
    top = r.top + (r.height - height) / 2;
  } else {
    left = Math.max(gap, Math.min(r.left, innerWidth - width - gap));
    top = r.top - gap - height >= gap ? r.top - gap - height : r.bottom + gap;
  }
  top = Math.max(gap, Math.min(top, innerHeight - gap - height));
  tip.style.left = `${left}px`;
  tip.style.top = `${top}px`;
}

/** The words a control's tip shows: its title, or its label's (a checkbox's). */
function words(control) {
  return control.title || control.closest('label')?.title || '';
}

/** Shows the title of the control the keyboard focuses in a tip next to it. */
export function wireTips() {
  const tip = document.createElement('div');
  tip.id = 'tip';
  tip.setAttribute('aria-hidden', 'true');
  tip.hidden = true;
  document.body.append(tip);
  let control = null;
  // the control's place when the tip was put by it, checked every frame while it shows:
  // a message or a status line growing above it moves it, with no event to say so
  let at = '';
  let frame = 0;
  const where = () => {
    const r = control.getBoundingClientRect();
    return `${r.left},${r.top},${r.right},${r.bottom},${innerWidth},${innerHeight}`;
  };
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
    control = target;
    watch.observe(control, { attributeFilter: ['title'] });
    const label = control.closest('label');
    if (label) watch.observe(label, { attributeFilter: ['title'] });
    show();
  });
  addEventListener('focusout', () => {
    watch.disconnect();
    hide();
  });
  // dismissed by Escape without moving the focus
  addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && control) {
      watch.disconnect();
      hide();
    }
  });
}
