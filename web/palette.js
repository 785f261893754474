// The level palette: a button per level and `?`, one Tab stop (the picked level's
// button), the arrows, Home and End moving the pick as in a group of radio buttons.

/** Builds the palette's buttons in `p`; `pick(level)` is called with each new pick. */
export function buildPalette(p, levels, pick) {
  for (const l of levels + '?') {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.level = l;
    const label = document.createElement('span');
    label.className = 'label';
    label.textContent = l === '?' ? ' undecided' : l === '0' ? ' strongest' : l === '9' ? ' blank' : '';
    // the name holds the words shown ("0 strongest"), for voice control
    b.setAttribute('aria-label', l === '?' ? '? undecided' : `Level ${l}${label.textContent}`);
    b.append(l, label);
    b.addEventListener('click', () => pick(l));
    p.append(b);
  }
  // eleven Tab stops made the buttons after the palette eleven Tabs further
  p.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return; // (Alt+arrows go back and forth)
    const all = [...p.querySelectorAll('button')];
    const at = all.indexOf(e.target);
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[e.key];
    const to = e.key === 'Home' ? 0 : e.key === 'End' ? all.length - 1 : step === undefined ? null : (at + step + all.length) % all.length;
    if (at < 0 || to === null) return;
    e.preventDefault();
    pick(all[to].dataset.level); // (renderPalette moves the focus along)
  });
}

/** Shows `level` as the pick in `p`: pressed, the one Tab stop, and the focus if the palette had it. */
export function renderPalette(p, level) {
  for (const b of p.querySelectorAll('button')) {
    b.setAttribute('aria-pressed', String(b.dataset.level === level));
    b.tabIndex = b.dataset.level === level ? 0 : -1;
  }
  // a digit picked another level while the levels had the focus: it follows the pick, the
  // levels' one Tab stop (left behind, Shift+Tab went to the picked level)
  if (document.activeElement?.parentElement === p && document.activeElement.dataset.level !== level) {
    p.querySelector(`button[data-level="${level}"]`).focus();
  }
}
