/**
 * Inline tool invocation as people type it: `/tool key=value …` or `/plugin:tool key=value …`.
 *
 * Words are read the way a shell reads them (issue 12: `key="multi-line value"` kept its quotes):
 * - whitespace outside quotes separates words; a newline inside quotes is part of the value;
 * - 'single quotes' keep everything literally, up to the next single quote;
 * - "double quotes" keep everything but `\"` and `\\`, which stand for `"` and `\`;
 * - outside quotes a backslash makes the next character plain (`a\ b` is one word);
 * - quoted and unquoted parts next to each other join (`name="Ada "Lovelace` is `Ada Lovelace`).
 * A value with any quoted part is text. An unquoted value reads as JSON when it parses (numbers,
 * true/false, null) and as text otherwise; one that starts with `[` or `{` runs to its closing
 * bracket, spaces and quotes included, and must be JSON. No library is used: shell-quote and
 * friends split words but know nothing of `key=` or of JSON brackets, and the rules above are
 * short. Errors say what was wrong and where.
 */
import { failure, type Outcome } from '../../shared/failures';

export interface SlashCall {
  plugin: string | null;
  tool: string;
  args: Record<string, unknown>;
}

export type Parsed = Outcome<{ call: SlashCall }>;

interface Word {
  text: string;
  /** Index in `text` of the first `=` that was neither quoted nor escaped; -1 when none. */
  eq: number;
  /** Whether anything after that `=` (or anywhere, without one) was quoted or escaped. */
  quoted: boolean;
  /** Whether the value is a JSON list or object in brackets. */
  bracketed: boolean;
}

/** Reads a bracketed JSON value from `start` (at `[` or `{`) to its matching bracket; returns the end index. */
function bracketEnd(text: string, start: number): number | string {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') depth++;
    else if (ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return `unbalanced brackets in the value that starts at character ${start + 1}`;
}

/** Splits the text into words; a string is the error. */
export function words(text: string): Word[] | string {
  const out: Word[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
    if (i >= text.length) break;
    const w: Word = { text: '', eq: -1, quoted: false, bracketed: false };
    while (i < text.length && !/\s/.test(text[i] as string)) {
      const ch = text[i] as string;
      if (ch === "'") {
        const close = text.indexOf("'", i + 1);
        if (close === -1) return `unclosed ' quote at character ${i + 1}`;
        w.text += text.slice(i + 1, close);
        w.quoted = true;
        i = close + 1;
      } else if (ch === '"') {
        let j = i + 1;
        for (; j < text.length && text[j] !== '"'; j++) {
          const c = text[j] as string;
          if (c === '\\' && (text[j + 1] === '"' || text[j + 1] === '\\')) w.text += text[++j];
          else w.text += c;
        }
        if (j >= text.length) return `unclosed " quote at character ${i + 1}`;
        w.quoted = true;
        i = j + 1;
      } else if (ch === '\\' && i + 1 < text.length) {
        w.text += text[i + 1];
        w.quoted = true;
        i += 2;
      } else if ((ch === '[' || ch === '{') && w.eq !== -1 && w.eq === w.text.length - 1 && !w.quoted) {
        const end = bracketEnd(text, i);
        if (typeof end === 'string') return end;
        w.text += text.slice(i, end);
        w.bracketed = true;
        i = end;
      } else {
        if (ch === '=' && w.eq === -1) {
          w.eq = w.text.length;
          w.quoted = false; // quotes in the key do not make the value text
        }
        w.text += ch;
        i++;
      }
    }
    out.push(w);
  }
  return out;
}

function value(w: Word, raw: string): unknown {
  if (w.quoted) return raw;
  try {
    return JSON.parse(raw);
  } catch {
    if (w.bracketed) throw new Error(`is not valid JSON: ${raw}`);
    return raw;
  }
}

export function parseSlash(text: string): Parsed {
  const t = words(text.trim().replace(/^\//, ''));
  if (typeof t === 'string') return failure('invalid_input', `could not read the command: ${t}`);
  const [first, ...rest] = t;
  const head = first?.text;
  if (!head) return failure('invalid_input', 'type a tool name after /');
  const colon = head.indexOf(':');
  const plugin = colon === -1 ? null : head.slice(0, colon);
  const tool = colon === -1 ? head : head.slice(colon + 1);
  if (!tool || plugin === '')
    return failure('invalid_input', `"${head}" is not a tool name (use /tool or /plugin:tool)`);
  const args: Record<string, unknown> = {};
  for (const w of rest) {
    if (w.eq <= 0)
      return failure('invalid_input', `"${w.text}" is not key=value (quote a value that has spaces: key="two words")`);
    const key = w.text.slice(0, w.eq);
    try {
      args[key] = value(w, w.text.slice(w.eq + 1));
    } catch (e) {
      return failure('invalid_input', `the value of ${key} ${(e as Error).message}`);
    }
  }
  return { ok: true, call: { plugin, tool, args } };
}
