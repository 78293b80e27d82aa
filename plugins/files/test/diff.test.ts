/**
 * The hand-written unified diff, in process: each diff, applied by the small patcher below,
 * must turn the old text into the new one exactly (final newlines included).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffLines, unifiedDiff } from '../diff.mjs';

const NO_EOL = '\u0000';
const toLines = (text: string): string[] => {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  else lines[lines.length - 1] += NO_EOL;
  return lines;
};
const fromLines = (lines: string[]): string =>
  lines.map((l) => (l.endsWith(NO_EOL) ? l.slice(0, -1) : `${l}\n`)).join('');

/** Applies a unified diff strictly: every context and removed line must match the old text. */
function applyPatch(oldText: string, patch: string): string {
  const old = toLines(oldText);
  const body = patch.split('\n').slice(2, -1); // without the ---/+++ lines and the final ''
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < body.length;) {
    const header = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@$/.exec(body[i] as string);
    if (!header) throw new Error(`expected a hunk header, got ${body[i]}`);
    const start = header[2] === '0' ? Number(header[1]) : Number(header[1]) - 1;
    while (at < start) out.push(old[at++] as string);
    for (i++; i < body.length && !(body[i] as string).startsWith('@@'); i++) {
      const line = body[i] as string;
      let text = line.slice(1);
      if (body[i + 1] === '\\ No newline at end of file') {
        text += NO_EOL;
        i++;
      }
      if (line[0] === '+') {
        out.push(text);
        continue;
      }
      if (old[at] !== text)
        throw new Error(`old line ${at + 1} is ${JSON.stringify(old[at])}, the diff says ${JSON.stringify(text)}`);
      at++;
      if (line[0] === ' ') out.push(text);
    }
  }
  while (at < old.length) out.push(old[at++] as string);
  return fromLines(out);
}

describe('unifiedDiff', () => {
  it('is empty for identical texts', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n')).toEqual({ text: '', added: 0, removed: 0 });
  });

  it('shows a one-line change with three lines of context and GNU-style ranges', () => {
    const a = 'l1\nl2\nl3\nl4\nl5\nl6\nl7\n';
    const b = 'l1\nl2\nl3\nL4\nl5\nl6\nl7\n';
    expect(unifiedDiff(a, b, { from: 'old', to: 'new' }).text).toBe(
      '--- old\n+++ new\n@@ -1,7 +1,7 @@\n l1\n l2\n l3\n-l4\n+L4\n l5\n l6\n l7\n',
    );
  });

  it('marks a missing final newline', () => {
    expect(unifiedDiff('a\nb', 'a\nb\n').text).toBe(
      '--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n',
    );
  });

  it('splits distant changes into separate hunks', () => {
    const a = Array.from({ length: 30 }, (_, i) => `${i + 1}`).join('\n') + '\n';
    const b = a.replace('\n3\n', '\nthree\n').replace('\n27\n', '\ntwenty-seven\n');
    const hunks = unifiedDiff(a, b).text.match(/^@@/gm);
    expect(hunks).toHaveLength(2);
  });

  it('finds a shortest edit script', () => {
    const script = diffLines('a\nb\nc\na\nb\nb\na\n', 'c\nb\na\nb\na\nc\n');
    expect(script.filter((e) => e.op !== ' ')).toHaveLength(5); // Myers' classic example: D = 5
  });

  it('round-trips: applying the diff to the old text gives the new text', () => {
    const text = fc
      .tuple(fc.array(fc.constantFrom('a', 'b', 'c', '', 'dd'), { maxLength: 25 }), fc.boolean())
      .map(([lines, eol]) => (lines.length === 0 ? '' : lines.join('\n') + (eol ? '\n' : '')));
    fc.assert(
      fc.property(text, text, (a, b) => {
        const d = unifiedDiff(a, b);
        expect(d.text === '').toBe(a === b);
        if (d.text) expect(applyPatch(a, d.text)).toBe(b);
      }),
      { numRuns: 400 },
    );
  });
});
