// The model's hint in Play mode: a model exported by `c4lab train`, loaded into the
// engine from a file the user picks. Its forward pass is integer table lookups, so it
// answers on the page's thread at once.

/**
 * Wires the model file picker. `engine` is the loaded wasm module; `render()` redraws
 * the page. Returns { render(game, root, playing) }, which writes the hint for the
 * game's position (when Yellow is to move) into #model-hint.
 */
export function modelHint(engine, render) {
  const $ = (s) => document.querySelector(s);
  const call = (fn, ...args) => JSON.parse(fn(...args));
  let loaded = ''; // the loaded model's file name

  $('#model-file').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
    let r;
    if (file.size > engine.model_max_bytes()) {
      // refused before reading: no model is that large, and reading it could exhaust memory
      r = { ok: false, error: `${mb(file.size)} is larger than any c4lab model (at most ${mb(engine.model_max_bytes())})` };
    } else {
      // a model of some MB takes a moment to read and check, on this thread: said first,
      // and drawn before the check holds the thread
      $('#model-status').textContent = `Reading ${file.name} (${mb(file.size)})…`;
      await new Promise((drawn) => requestAnimationFrame(() => setTimeout(drawn)));
      try {
        r = call(engine.model_load, new Uint8Array(await file.arrayBuffer()));
      } catch (err) {
        r = { ok: false, error: `could not read it (${err})` };
      }
    }
    // a refused file leaves the model loaded before it (the engine keeps it too)
    const kept = !r.ok && loaded ? ` The model loaded before, ${loaded}, still gives the hint.` : '';
    if (r.ok) loaded = file.name;
    $('#model-status').textContent = r.ok ? `Model loaded: ${file.name} (${mb(r.bytes)}).` : `${file.name}: ${r.error.replace(/\.$/, '')}.${kept}`;
    // emptied, so that picking the same file again (retrained, or mended after a
    // refusal) is a change the page hears; the status line names the file loaded
    e.target.value = '';
    render();
  });

  return {
    render(game, root, playing) {
      const el = $('#model-hint');
      delete el.dataset.column;
      if (!loaded || !playing || !game.ok || game.status !== 'yellow-to-move') {
        el.textContent = '';
        return;
      }
      const played = game.log.filter((m) => m.column).map((m) => String(m.column)).join('');
      const h = call(engine.model_move, root + played);
      if (!h.ok) {
        el.textContent = 'Model: ' + h.error;
        return;
      }
      el.dataset.column = String(h.column);
      el.textContent = `Model: Yellow plays column ${h.column}.`;
    },
  };
}
