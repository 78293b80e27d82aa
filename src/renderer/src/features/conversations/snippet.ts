/**
 * A search hit's snippet without markdown's emphasis and code marks (`*`, `_` at word edges,
 * backticks), which read as noise in a one-line excerpt; the matched ranges move with the text.
 */
export interface Snippet {
  text: string;
  marks: [number, number][];
}

function isMarkup(text: string, i: number): boolean {
  const ch = text[i];
  if (ch === '*' || ch === '`') return true;
  // An underscore inside a word (snake_case) is part of it; at a word's edge it is emphasis.
  if (ch === '_') return !/\w/.test(text[i - 1] ?? '') || !/\w/.test(text[i + 1] ?? '');
  return false;
}

export function plainSnippet(s: Snippet): Snippet {
  const newIndex: number[] = [];
  let text = '';
  for (let i = 0; i < s.text.length; i++) {
    newIndex.push(text.length);
    if (!isMarkup(s.text, i)) text += s.text[i];
  }
  newIndex.push(text.length);
  const marks = s.marks
    .map(([a, b]): [number, number] => [newIndex[a] ?? text.length, newIndex[b] ?? text.length])
    .filter(([a, b]) => b > a);
  return { text, marks };
}
