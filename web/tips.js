// The focused control's title, shown next to it while the keyboard has put the focus
// there. A browser shows a title only under the mouse, so a keyboard's user could not
// read what a button does, nor why one is off. (A screen reader reads the title as the
// control's description already: the tip is hidden from it.)

/**
 * Where the tip goes: above its control (below it are the searches' status lines, which
 * a press of the control changes), or below where the window ends first; moved left as
 * the window needs.
 */
function place(tip, control) {
  const r = control.getBoundingClientRect();
  const gap = 6;
  const width = tip.offsetWidth;
  const height = tip.offsetHeight;
  const left = Math.max(gap, Math.min(r.left, innerWidth - width - gap));
  const above = r.top - gap - height;
  const top = above >= gap ? above : Math.min(r.bottom + gap, innerHeight - gap - height);
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
  const show = () => {
    const text = control && words(control);
    tip.hidden = !text;
    if (!text) return;
    tip.textContent = text;
    place(tip, control);
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
  // dismissed by Escape without moving the focus; the window's changes move it on
  addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && control) {
      watch.disconnect();
      hide();
    }
  });
  addEventListener('resize', () => control && show());
  addEventListener('scroll', () => control && show(), true);
}
