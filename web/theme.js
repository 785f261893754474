// The light or dark theme: the system's until the Theme button picks one, which is kept
// for the next visit.

/** Where the chosen theme is kept between visits. */
const THEME_KEY = 'c4lab-theme';

/** Applies the kept theme, if any, and makes `button` switch between the two. */
export function wireTheme(button) {
  const root = document.documentElement;
  // (storage can be off: a browser blocking sites' data throws here, and the page then
  // failed to start, reading "The engine failed to load")
  let kept = null;
  try { kept = localStorage.getItem(THEME_KEY); } catch { /* storage off: the system's theme */ }
  if (kept === 'light' || kept === 'dark') root.dataset.theme = kept;
  const dark = () => (root.dataset.theme ? root.dataset.theme === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches);
  // the button's name says which theme is on and what a press does
  const name = () => button.setAttribute('aria-label', `Theme: ${dark() ? 'dark' : 'light'} (switch to ${dark() ? 'light' : 'dark'})`);
  name();
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', name);
  button.addEventListener('click', () => {
    root.dataset.theme = dark() ? 'light' : 'dark';
    try { localStorage.setItem(THEME_KEY, root.dataset.theme); } catch { /* storage off: kept for this visit only */ }
    name();
  });
}
