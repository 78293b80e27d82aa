// Types of diff.mjs, for the TypeScript tests.
export interface Edit {
  op: ' ' | '-' | '+';
  line: string;
}
export function diffLines(aText: string, bText: string): Edit[];
export function unifiedDiff(
  aText: string,
  bText: string,
  names?: { from?: string; to?: string },
): { text: string; added: number; removed: number };
