/**
 * Text as it is: the characters a screen does not show, or shows as something else, found and
 * made visible. A model reads every code point of a tool's name, description, arguments and
 * result; a person reading the same text on a card sees only what the font draws. What hides:
 *
 * - Unicode tag characters (U+E0000–E007F): invisible, and they spell ASCII (U+E0041 is a hidden
 *   "A"), so whole sentences ride along unseen. Shown decoded: ⟦hidden text: "…"⟧.
 * - zero-width and other invisible characters (U+200B ZWSP, U+2060 WJ, U+FEFF, soft hyphens,
 *   fillers, variation selectors other than the emoji ones). Shown as ⟦U+200B⟧.
 * - bidi controls (U+202A–202E, U+2066–2069, LRM/RLM/ALM): they reorder what is drawn, so the
 *   text shown is not the text read. Shown as ⟦U+202E⟧.
 * - control characters (C0 but tab and newline, DEL, C1). Shown as ⟦U+001B⟧.
 * - HTML comments (`<!-- … -->`): a Markdown view hides them, a model reads them. Marked, their
 *   words kept.
 * - look-alikes: letters of another script inside a Latin word (Cyrillic "а" in "reаd"), and any
 *   letter that is not ASCII in a name (names are identifiers). Marked, with the code point.
 *
 * Pure: the main process, the renderer and the CLI share it. Written by hand: the sets are small
 * and fixed, and a confusables library would bring a large table to every screen for the one
 * thing that matters here (a mixed-script word stands out; which letter it imitates does not).
 */

export type HiddenKind = 'tag' | 'invisible' | 'bidi' | 'control' | 'comment' | 'look-alike';

export interface Segment {
  /** The text itself. */
  text: string;
  /** Set for text a screen does not show as it is read. */
  hidden?: HiddenKind;
  /** How it is shown instead (hidden segments only). */
  shown?: string;
}

export const HIDDEN_TITLES: Record<HiddenKind, string> = {
  tag: 'Unicode tag characters: invisible, and they spell hidden text a model reads',
  invisible: 'an invisible character (zero-width, filler or selector)',
  bidi: 'a bidirectional control: it reorders what is drawn',
  control: 'a control character',
  comment: 'an HTML comment: hidden where text is shown as Markdown, read by a model',
  'look-alike': 'a letter that looks like another (a different script, or not ASCII in a name)',
};

const TAG = /[\u{E0000}-\u{E007F}]/u;
/* eslint-disable no-control-regex, no-misleading-character-class -- finding invisible, combining and control characters is the point */
const INVISIBLE =
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200D\u2060-\u2064\u206A-\u206F\u3164\uFE00-\uFE0D\uFEFF\uFFA0\u{1BCA0}-\u{1BCA3}\u{E0100}-\u{E01EF}]/u;
const BIDI = /[\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u;
/** Anything worth a closer look: one test decides whether a text needs segmenting at all. */
const SUSPECT =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2069\u206A-\u206F\u3164\uFE00-\uFE0D\uFEFF\uFFA0\u{1BCA0}-\u{1BCA3}\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]|<!--/u;
/* eslint-enable no-control-regex, no-misleading-character-class */
/** A word with a Latin letter and a letter of a script that imitates Latin ones. */
const MIXED_WORD = /[\p{L}\p{M}]*\p{Script=Latin}[\p{L}\p{M}]*/gu;
const IMITATING =
  /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}\uFF21-\uFF3A\uFF41-\uFF5A]/u;
const NOT_ASCII_LETTER = /[^\x20-\x7E]/u;

/** `⟦U+200B⟧` for one code point. */
export function codePointLabel(ch: string): string {
  return `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** What a run of tag characters spells (U+E0041 → "A"; the rest as their code points). */
export function decodeTags(run: string): string {
  let out = '';
  for (const ch of run) {
    const cp = (ch.codePointAt(0) ?? 0) - 0xe0000;
    out += cp >= 0x20 && cp <= 0x7e ? String.fromCharCode(cp) : `⟦${codePointLabel(ch)}⟧`;
  }
  return out;
}

function kindOf(ch: string): HiddenKind | undefined {
  if (TAG.test(ch)) return 'tag';
  if (BIDI.test(ch)) return 'bidi';
  if (INVISIBLE.test(ch)) return 'invisible';
  if (CONTROL.test(ch)) return 'control';
  return undefined;
}

/** Whether anything in `text` needs showing differently (cheap: one regular expression). */
export function hasHidden(text: string, opts: { name?: boolean } = {}): boolean {
  if (SUSPECT.test(text)) return true;
  if (opts.name) return NOT_ASCII_LETTER.test(text);
  return lookAlikes(text).length > 0;
}

/** Positions of letters that imitate Latin ones inside Latin words. */
function lookAlikes(text: string): number[] {
  if (!IMITATING.test(text)) return [];
  const at: number[] = [];
  for (const m of text.matchAll(MIXED_WORD)) {
    const word = m[0];
    let i = m.index;
    for (const ch of word) {
      if (IMITATING.test(ch)) at.push(i);
      i += ch.length;
    }
  }
  return at;
}

/**
 * `text` cut into what shows as it is and what does not. `name`: a tool's name, where any letter
 * that is not ASCII is a look-alike. Newlines and tabs are text; a `\r` before a `\n` too.
 */
export function segments(text: string, opts: { name?: boolean } = {}): Segment[] {
  if (!hasHidden(text, opts)) return text ? [{ text }] : [];
  const marks = new Set(opts.name ? [] : lookAlikes(text));
  const out: Segment[] = [];
  let plain = '';
  const flush = (): void => {
    if (plain) out.push({ text: plain });
    plain = '';
  };
  const push = (s: Segment): void => {
    flush();
    out.push(s);
  };
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      const stop = end === -1 ? text.length : end + 3;
      const inner = text.slice(i, stop);
      push({ text: inner, hidden: 'comment', shown: inner });
      i = stop;
      continue;
    }
    const cp = text.codePointAt(i) ?? 0;
    const ch = String.fromCodePoint(cp);
    const kind = kindOf(ch);
    if (ch === '\r' && text[i + 1] === '\n') {
      plain += ch;
    } else if (kind === 'tag') {
      let j = i;
      while (j < text.length && TAG.test(String.fromCodePoint(text.codePointAt(j) ?? 0))) j += 2;
      const run = text.slice(i, j);
      push({ text: run, hidden: 'tag', shown: `⟦hidden text: "${decodeTags(run)}"⟧` });
      i = j;
      continue;
    } else if (kind) {
      push({ text: ch, hidden: kind, shown: `⟦${codePointLabel(ch)}⟧` });
    } else if (marks.has(i) || (opts.name && NOT_ASCII_LETTER.test(ch))) {
      push({ text: ch, hidden: 'look-alike', shown: `${ch}⟦${codePointLabel(ch)}⟧` });
    } else {
      plain += ch;
    }
    i += ch.length;
  }
  flush();
  return out;
}

/** The text with what hides made visible (⟦…⟧ marks), for places that show plain strings. */
export function revealed(text: string, opts: { name?: boolean } = {}): string {
  if (!hasHidden(text, opts)) return text;
  return segments(text, opts)
    .map((s) => (s.hidden && s.hidden !== 'comment' ? s.shown : s.text))
    .join('');
}

/** What hides in a text, counted by kind: `{tag: 1, bidi: 2}` (a run of tag characters counts once). */
export function hiddenCounts(text: string, opts: { name?: boolean } = {}): Partial<Record<HiddenKind, number>> {
  const out: Partial<Record<HiddenKind, number>> = {};
  if (!hasHidden(text, opts)) return out;
  for (const s of segments(text, opts)) if (s.hidden) out[s.hidden] = (out[s.hidden] ?? 0) + 1;
  return out;
}

/** One sentence for what hides, or '' for nothing: "2 bidi controls, hidden text (tag characters)". */
export function hiddenSummary(counts: Partial<Record<HiddenKind, number>>): string {
  const words: Record<HiddenKind, [string, string]> = {
    tag: ['run of hidden text (tag characters)', 'runs of hidden text (tag characters)'],
    invisible: ['invisible character', 'invisible characters'],
    bidi: ['bidi control', 'bidi controls'],
    control: ['control character', 'control characters'],
    comment: ['HTML comment', 'HTML comments'],
    'look-alike': ['look-alike letter', 'look-alike letters'],
  };
  return (Object.entries(counts) as Array<[HiddenKind, number]>)
    .map(([k, n]) => `${n} ${words[k][n === 1 ? 0 : 1]}`)
    .join(', ');
}

/** Every string inside a value (arguments, a result), with where it is (`path.to[2]`). */
export function stringsOf(value: unknown, at = '', out: Array<{ at: string; text: string }> = []): typeof out {
  if (typeof value === 'string') out.push({ at, text: value });
  else if (Array.isArray(value)) value.forEach((v, i) => stringsOf(v, `${at}[${i}]`, out));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      stringsOf(k, at ? `${at}.${k} (key)` : `${k} (key)`, out);
      stringsOf(v, at ? `${at}.${k}` : k, out);
    }
  return out;
}
