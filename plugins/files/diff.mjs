// Line diffs in unified format. Hand-written rather than a dependency: bundled plugins run with
// plain `node` and the SDK alone (no npm install in a plugin folder), and a Myers diff with
// hunks is about a hundred lines. Common prefix and suffix are trimmed first, which makes the
// usual edit (a few lines changed in a large file) cheap; a change too large to diff line by
// line within MAX_EDITS is shown as a whole replacement instead of using unbounded memory.

const CONTEXT = 3;
const MAX_EDITS = 1000;
/** Marks a last line without a newline, so that "x" and "x\n" compare as different lines. */
const NO_EOL = '\u0000';

function toLines(text) {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  else lines[lines.length - 1] += NO_EOL;
  return lines;
}

/**
 * Myers' O(ND) shortest edit script between line arrays a and b.
 * @returns {Array<{op: ' '|'-'|'+', line: string}>|null} null past maxEdits
 */
function myers(a, b, maxEdits) {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace = [];
  let found = -1;
  for (let d = 0; d <= Math.min(max, maxEdits); d++) {
    // V as it was before step d, for k in [-d-1, d+1]: what the backtrack needs.
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    if (found !== -1) break;
  }
  if (found === -1) return null;
  const script = [];
  let x = n;
  let y = m;
  for (let d = found; d >= 0; d--) {
    const snap = trace[d];
    const at = (k) => snap[k + d + 1];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      script.push({ op: ' ', line: a[x] });
    }
    if (d > 0) {
      if (x === prevX) script.push({ op: '+', line: b[--y] });
      else script.push({ op: '-', line: a[--x] });
    }
  }
  return script.reverse();
}

/** The edit script from text a to text b. */
export function diffLines(aText, bText) {
  const a = toLines(aText);
  const b = toLines(bText);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const middle = myers(midA, midB, MAX_EDITS) ?? [
    ...midA.map((line) => ({ op: '-', line })),
    ...midB.map((line) => ({ op: '+', line })),
  ];
  return [
    ...a.slice(0, start).map((line) => ({ op: ' ', line })),
    ...middle,
    ...a.slice(endA).map((line) => ({ op: ' ', line })),
  ];
}

function range(start, count) {
  // Unified format: 1-based start; an empty range names the line before it.
  const first = count === 0 ? start : start + 1;
  return count === 1 ? `${first}` : `${first},${count}`;
}

/**
 * A unified diff (`--- from`, `+++ to`, `@@` hunks with 3 lines of context).
 * @returns {{text: string, added: number, removed: number}} text is '' when nothing changed
 */
export function unifiedDiff(aText, bText, { from = 'a', to = 'b' } = {}) {
  const script = diffLines(aText, bText);
  let added = 0;
  let removed = 0;
  const changes = [];
  script.forEach((e, i) => {
    if (e.op === '+') added++;
    if (e.op === '-') removed++;
    if (e.op !== ' ') changes.push(i);
  });
  if (changes.length === 0) return { text: '', added, removed };

  // Line numbers before each script entry, in a and in b.
  const posA = [];
  const posB = [];
  let ia = 0;
  let ib = 0;
  for (const e of script) {
    posA.push(ia);
    posB.push(ib);
    if (e.op !== '+') ia++;
    if (e.op !== '-') ib++;
  }

  const out = [`--- ${from}`, `+++ ${to}`];
  let i = 0;
  while (i < changes.length) {
    let last = i;
    while (last + 1 < changes.length && changes[last + 1] - changes[last] <= 2 * CONTEXT + 1) last++;
    const lo = Math.max(0, changes[i] - CONTEXT);
    const hi = Math.min(script.length, changes[last] + CONTEXT + 1);
    const body = script.slice(lo, hi);
    const countA = body.filter((e) => e.op !== '+').length;
    const countB = body.filter((e) => e.op !== '-').length;
    out.push(`@@ -${range(posA[lo], countA)} +${range(posB[lo], countB)} @@`);
    for (const e of body) {
      if (e.line.endsWith(NO_EOL)) out.push(`${e.op}${e.line.slice(0, -1)}`, '\\ No newline at end of file');
      else out.push(`${e.op}${e.line}`);
    }
    i = last + 1;
  }
  return { text: `${out.join('\n')}\n`, added, removed };
}
