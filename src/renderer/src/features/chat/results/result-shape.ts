/**
 * How a tool's structured result is shown, decided from its shape alone: an array of flat objects
 * is a table, any other object or array a collapsible tree, a string or number as it is. Also
 * reads a command's exit status out of a result (the terminal plugin's `exit_code` and `signal`,
 * and the spellings other plugins use), so a card can say "exit 3" however the call went.
 */

export type Scalar = string | number | boolean | null;

export interface Table {
  columns: string[];
  rows: Record<string, Scalar>[];
}

/** `title`: the one key of an object around the rows (MCP structuredContent must be an object). */
export type ResultView =
  { kind: 'text'; text: string } | { kind: 'table'; table: Table; title?: string } | { kind: 'tree' };

/** Past these a table stops being readable at a glance; the tree shows it instead. */
export const TABLE_MAX_COLUMNS = 12;
export const TABLE_MAX_ROWS = 1000;

export function isScalar(v: unknown): v is Scalar {
  return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An array of objects whose values are all scalars (missing keys allowed), as a table; else null. */
export function tableOf(v: unknown): Table | null {
  if (!Array.isArray(v) || v.length === 0 || v.length > TABLE_MAX_ROWS) return null;
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const row of v) {
    if (!isPlainObject(row)) return null;
    for (const [key, value] of Object.entries(row)) {
      if (!isScalar(value)) return null;
      if (seen.has(key)) continue;
      seen.add(key);
      columns.push(key);
      if (columns.length > TABLE_MAX_COLUMNS) return null;
    }
  }
  if (columns.length === 0) return null;
  return { columns, rows: v as Record<string, Scalar>[] };
}

export function resultView(v: unknown): ResultView {
  if (isScalar(v)) return { kind: 'text', text: scalarText(v) };
  const table = tableOf(v);
  if (table) return { kind: 'table', table };
  const keys = isPlainObject(v) ? Object.keys(v) : [];
  const only = keys.length === 1 ? tableOf((v as Record<string, unknown>)[keys[0] as string]) : null;
  if (only) return { kind: 'table', table: only, title: keys[0] as string };
  return { kind: 'tree' };
}

/** A scalar as a cell or leaf shows it: strings as they are, the rest as JSON writes them. */
export function scalarText(v: Scalar): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** What a collapsed object or array holds, in a few words: `3 items`, `5 keys`. */
export function summaryOf(v: object): string {
  const n = Array.isArray(v) ? v.length : Object.keys(v).length;
  const noun = Array.isArray(v) ? 'item' : 'key';
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export interface ExitStatus {
  /** The exit code, or null when the command was killed by a signal. */
  code: number | null;
  signal: string | null;
}

const CODE_KEYS = ['exit_code', 'exitCode', 'returncode', 'return_code'];

/** A command's exit status in a result, if it has one: an integer code, or a signal it died of. */
export function exitStatusOf(result: unknown): ExitStatus | null {
  if (!isPlainObject(result)) return null;
  const key = CODE_KEYS.find((k) => k in result);
  if (key === undefined) return null;
  const raw = result[key];
  const code = typeof raw === 'number' && Number.isInteger(raw) ? raw : null;
  const signal = typeof result.signal === 'string' && result.signal ? result.signal : null;
  if (code === null && signal === null) return null;
  return { code, signal };
}

/** `exit 0`, `exit 3`, `killed by SIGKILL`; `warn` when the command did not succeed. */
export function exitText(s: ExitStatus): { text: string; warn: boolean } {
  if (s.code === null) return { text: `killed by ${s.signal ?? 'a signal'}`, warn: true };
  return { text: `exit ${s.code}`, warn: s.code !== 0 };
}

/** For an accessible name: `, exit 3` when the result has an exit status, else nothing. */
export function exitLabel(result: unknown): string {
  const s = exitStatusOf(result);
  return s ? `, ${exitText(s).text}` : '';
}
