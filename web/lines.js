// Play's Yellow line when the diagram or the link under it changes: an edit cuts it after
// the Yellow move whose answer changed, and a link's line cut at a ? cell is said.

/**
 * Red's moves along the replay `g` of the Yellow line (null when it is no game): each
 * `{column, text}`, the column null where Red makes none (no level unique, or a move that
 * turns on a `?` cell), the text saying why.
 */
export function redReplies(g) {
  if (!g.ok) return null;
  const replies = g.log.filter((m) => m.player === 'Red').map((m) => ({ column: m.column ?? null, text: m.rule.text }));
  if (g.status === 'undecided') replies.push({ column: null, text: g.status_text });
  return replies;
}

/**
 * After an edit: the Yellow line `yellow` was played against Red's old replies `before`,
 * now `after`, so it is cut after the Yellow move whose reply changed (to nothing when
 * Red's first move did): `{ yellow, said }`, or null when nothing is cut. `mirroredFrom`:
 * the edit was Mirror, of this line (`before` mirrored too), whose answers part only
 * where Red takes the leftmost of two columns.
 */
export function changedReplyCut(before, after, yellow, mirroredFrom = null) {
  if (!before || !after) return null;
  const k = before.findIndex((r, i) => after[i]?.column !== r.column);
  // (a changed answer to the line's last move cuts nothing: the log shows it)
  if (k < 0 || k >= yellow.length) return null;
  const cut = yellow.slice(0, k);
  const what = k === 0 ? "Red's first move" : `Red's answer to Yellow's move ${k}`;
  // a move Red no longer makes is named by the rule that stops it (a ? cell, no level)
  const named = (r) => (r?.column ? `column ${r.column}` : r ? `none (${r.text})` : 'none');
  return {
    yellow: cut,
    said: mirroredFrom
      ? `Play's Yellow line ${mirroredFrom}, mirrored to ${yellow}, was cut to ${cut || 'nothing'}: in the mirror image ${what} is ${named(after[k])}, not ${named(before[k])} (with two columns to win or block in, Red takes the leftmost; Undo restores the line).`
      : `Play's Yellow line ${yellow} was cut to ${cut || 'nothing'}: with the changed diagram ${what} is ${named(after[k])}, not ${named(before[k])} (Undo restores it).`,
  };
}

/** What reading a link (`r`) left out of its Yellow line, as a sentence ('' when nothing). */
export function cutNote(r) {
  if (!r.dropped) return '';
  const n = r.dropped;
  const moves = `${n} move${n === 1 ? '' : 's'}`;
  if (!r.line.length) return ` The link's Yellow line (${moves}) was left out: Red's first move depends on a ? cell.`;
  return ` The link's Yellow line stops after ${r.line.length} move${r.line.length === 1 ? '' : 's'}, where Red's move depends on a ? cell; its last ${n === 1 ? 'move was' : `${moves} were`} left out.`;
}
