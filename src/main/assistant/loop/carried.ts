/**
 * Results are data: a model's call whose arguments carry a long run of text that came from
 * another plugin's result in this conversation is held for the person's approval, naming where
 * the text came from, whatever the tool's policy (tool-calls.ts). That is the shape of the red
 * team's chain: a file read by an auto-allowed tool, its secret handed by the model, on an
 * injected instruction, to a plugin that was never granted the folder.
 *
 * A run counts when it is at least CARRIED_MIN letters and digits long (fold), comes from a
 * result of another plugin than the one called, and is not something the person wrote themselves
 * in this conversation (they may well ask to pass on what they typed). Finding it: each result is
 * indexed by its windows of W = CARRIED_MIN / 2 characters at every W-th position; any common run
 * of CARRIED_MIN characters contains one whole indexed window, so sliding over the arguments'
 * windows finds every candidate, which is then extended both ways and measured. The index of a
 * result is kept (results do not change once done), so a call costs a slide over its arguments.
 * Written by hand: no library answers "longest common run above a length" across many texts.
 */
import { resultText } from '../../../shared/chunks';
import type { ChatMessage } from '../../../shared/contract';
import { stringsOf } from '../../../shared/visible-text';

/** Characters a run must have to hold a call (a key, a password line, a sentence). */
export const CARRIED_MIN = 32;
const W = CARRIED_MIN / 2;
/** Results whose index is kept, most recent use last. */
const KEPT = 256;

export interface Carried {
  plugin: string;
  tool: string;
  /** The message the text came from. */
  messageId: string;
  /** How many characters of it the arguments carry (the longest run). */
  chars: number;
  /** The run, shortened for a card. */
  excerpt: string;
}

interface Indexed {
  text: string;
  /** Each indexed window's rolling hash (windowHash): numbers, not a string per window. */
  windows: Map<number, number[]>;
}

/** Rabin–Karp over UTF-16 units: a window's hash, and how to slide it (a number, no substring). */
const BASE = 131;
const MOD = 1_000_000_007;
let dropFactor = 1;
for (let k = 1; k < W; k++) dropFactor = (dropFactor * BASE) % MOD;

function windowHash(t: string, at: number): number {
  let h = 0;
  for (let k = at; k < at + W; k++) h = (h * BASE + t.charCodeAt(k)) % MOD;
  return h;
}

const indexes = new Map<string, Indexed>();

/**
 * One form for the same text however it is dressed: compatibility forms made plain (fullwidth
 * letters) and accents taken apart (NFKD, the same whether sent composed or not), one case, and
 * only letters and digits (accents, spaces, punctuation, line breaks, zero-width and bidi
 * characters dropped). The red team carried a result past the check upper-cased, with a
 * zero-width space every 20 characters, and split with new lines (C02–C06).
 */
function fold(s: string): string {
  return s
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * `fold`, with where each folded character was in `s`: a card's excerpt is the text as it was sent.
 * ASCII, nearly all of what models send, is folded by its code; other characters one by one.
 */
function foldMapped(s: string): { text: string; at: Int32Array } {
  // Typed arrays, not a string grown a character at a time: a megabyte of arguments is common.
  let units = new Uint16Array(s.length + 16);
  let at = new Int32Array(s.length + 16);
  let n = 0;
  const put = (unit: number, from: number): void => {
    if (n === units.length) {
      const grown = new Uint16Array(units.length * 2);
      grown.set(units);
      units = grown;
      const grownAt = new Int32Array(at.length * 2);
      grownAt.set(at);
      at = grownAt;
    }
    units[n] = unit;
    at[n++] = from;
  };
  for (let i = 0; i < s.length;) {
    const code = s.charCodeAt(i);
    if (code < 0x80) {
      if ((code >= 48 && code <= 57) || (code >= 97 && code <= 122)) put(code, i);
      else if (code >= 65 && code <= 90) put(code + 32, i);
      i++;
      continue;
    }
    const ch = String.fromCodePoint(s.codePointAt(i) as number);
    for (const c of ch.normalize('NFKD').toLowerCase())
      if (/[\p{L}\p{N}]/u.test(c)) for (let k = 0; k < c.length; k++) put(c.charCodeAt(k), i);
    i += ch.length;
  }
  return { text: new TextDecoder('utf-16le').decode(units.subarray(0, n)), at: at.subarray(0, n) };
}

/** `s` backwards, by code point (a Buffer's reverse where it is one byte a character, most texts). */
function reversed(s: string): string {
  // eslint-disable-next-line no-control-regex -- the range is the test: one byte a character
  if (/^[\u0000-\u00ff]*$/.test(s)) return Buffer.from(s, 'latin1').reverse().toString('latin1');
  return [...s].reverse().join('');
}

/** Printable enough to be text (a decoded value that is not is no carried text). */
const TEXTLIKE = /^[\p{L}\p{N}\p{P}\p{S}\s]*$/u;

/**
 * The ways the arguments may carry a text: each string as it is, all of them joined (a run split
 * over several arguments or an array's items), the joined text reversed, and each string decoded
 * where it is base64, hex or URL-encoded (the red team's other dresses of a secret).
 */
function carriers(args: unknown): string[] {
  const strings = stringsOf(args).map((x) => x.text);
  const joined = strings.join('');
  const out = [...strings, ...(strings.length > 1 ? [joined] : []), reversed(joined)];
  for (const v of strings) {
    const bare = v.replace(/\s+/g, '');
    const decoded: string[] = [];
    if (bare.length >= 24 && /^[A-Za-z0-9+/_-]+={0,2}$/.test(bare))
      decoded.push(Buffer.from(bare.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('utf8'));
    if (bare.length >= 48 && /^(?:[0-9a-fA-F]{2})+$/.test(bare))
      decoded.push(Buffer.from(bare, 'hex').toString('utf8'));
    if (/%[0-9a-fA-F]{2}/.test(v))
      try {
        decoded.push(decodeURIComponent(v));
      } catch {
        // not URL-encoded after all
      }
    for (const d of decoded) if (TEXTLIKE.test(d)) out.push(d);
  }
  return out;
}

function indexOf(m: ChatMessage): Indexed {
  // Keyed before any work: a result's message does not change once it has ended.
  const key = `${m.id}:${m.status ?? ''}:${m.text.length}`;
  const kept = indexes.get(key);
  if (kept) {
    indexes.delete(key);
    indexes.set(key, kept);
    return kept;
  }
  // An error result's words reach the model too (red team C08).
  const text = fold(
    [m.text || (m.result === undefined ? '' : resultText(m.result)), m.failure?.message ?? ''].join('\n'),
  );
  const windows = new Map<number, number[]>();
  for (let i = 0; i + W <= text.length; i += W) {
    const w = windowHash(text, i);
    const at = windows.get(w);
    if (at) at.push(i);
    else windows.set(w, [i]);
  }
  const made = { text, windows };
  indexes.set(key, made);
  if (indexes.size > KEPT) indexes.delete(indexes.keys().next().value as string);
  return made;
}

/** The longest run of `a` found in the indexed text, at least CARRIED_MIN long. */
function longestRun(a: string, src: Indexed): { start: number; length: number } | null {
  let best: { start: number; length: number } | null = null;
  if (a.length < W) return null;
  let h = windowHash(a, 0);
  for (let i = 0; i + W <= a.length; i++) {
    if (i > 0) {
      h = (h - ((a.charCodeAt(i - 1) * dropFactor) % MOD) + MOD) % MOD;
      h = (h * BASE + a.charCodeAt(i + W - 1)) % MOD;
    }
    const at = src.windows.get(h);
    if (!at) continue;
    for (const j of at) {
      // A hash may collide: the window itself must match.
      if (a.slice(i, i + W) !== src.text.slice(j, j + W)) continue;
      let left = 0;
      while (i - left > 0 && j - left > 0 && a[i - left - 1] === src.text[j - left - 1]) left++;
      let right = W;
      while (i + right < a.length && j + right < src.text.length && a[i + right] === src.text[j + right]) right++;
      const length = left + right;
      if (length >= CARRIED_MIN && (!best || length > best.length)) best = { start: i - left, length };
    }
  }
  return best;
}

/**
 * What of another plugin's result the arguments carry, the longest run first; null when nothing
 * long enough does. `conversation` gives the messages so far; `plugin` is the plugin called.
 */
export function carriedInto(args: unknown, plugin: string, conversation: () => readonly ChatMessage[]): Carried | null {
  const values = carriers(args)
    .map((raw) => ({ raw, ...foldMapped(raw) }))
    .filter((v) => v.text.length >= CARRIED_MIN);
  // Short arguments (most calls) carry nothing worth holding: the conversation is not even read.
  if (values.length === 0) return null;
  const stored = conversation();
  const sources = stored.filter(
    (m) =>
      m.role === 'plugin' &&
      m.pluginId &&
      m.pluginId !== plugin &&
      !m.passthrough &&
      (m.text || m.result !== undefined || m.failure?.message),
  );
  if (sources.length === 0) return null;
  // What the person wrote, read only when a run is found (most calls carry none).
  let said: string | undefined;
  const written = (): string =>
    (said ??= fold(
      stored
        .filter((m) => m.role === 'user' && !m.passthrough)
        .map((m) => m.text)
        .join('\n'),
    ));
  let best: Carried | null = null;
  for (const m of sources) {
    const src = indexOf(m);
    for (const v of values) {
      const run = longestRun(v.text, src);
      if (!run || (best && run.length <= best.chars)) continue;
      // The person wrote it: passing it on is theirs to ask for.
      if (written().includes(v.text.slice(run.start, run.start + run.length))) continue;
      const end = run.start + run.length - 1;
      const text = v.raw.slice(v.at[run.start], (v.at[end] ?? v.raw.length - 1) + 1).trim();
      best = {
        plugin: m.pluginId as string,
        tool: m.tool ?? '?',
        messageId: m.id,
        chars: run.length,
        excerpt: text.length > 200 ? `${text.slice(0, 140)}…${text.slice(-50)}` : text,
      };
    }
  }
  return best;
}
