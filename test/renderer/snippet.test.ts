/** Search snippets read as text: markdown marks go, matched words stay marked. */
import { describe, expect, it } from 'vitest';
import { plainSnippet } from '../../src/renderer/src/features/conversations/snippet';

const marked = (s: { text: string; marks: [number, number][] }): string[] =>
  s.marks.map(([a, b]) => s.text.slice(a, b));

describe('search snippets', () => {
  it('drops emphasis and code marks and keeps the matched words marked', () => {
    const text = 'Ask me to *count to 5*, or `files:list`';
    const s = plainSnippet({
      text,
      marks: [
        [11, 16],
        [17, 19],
        [28, 33],
      ],
    });
    expect(s.text).toBe('Ask me to count to 5, or files:list');
    expect(marked(s)).toEqual(['count', 'to', 'files']);
  });

  it('keeps underscores inside words and drops those at their edges', () => {
    expect(plainSnippet({ text: 'call say_hello _now_', marks: [] }).text).toBe('call say_hello now');
  });
});
