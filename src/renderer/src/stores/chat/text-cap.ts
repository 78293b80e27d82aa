/**
 * The cap on a message's text, by the rule the server applies to the text it keeps: once a text
 * would pass TEXT_MAX characters, it keeps its first HEAD characters, one line saying how many
 * characters were left out, and its last (about) TEXT_MAX - HEAD characters. A plugin that streams
 * without end then costs the page a bounded amount of memory and layout.
 *
 * Here the tail is trimmed in steps: when it passes its limit it is cut back to TRIM_STEP below
 * it, so a long stream rewrites the tail once per step, not once per frame. The head is exactly
 * the server's, so the final text from the server leaves it as it is. Texts that come whole (a
 * final message, a snapshot) are held to the same cap, in case a server sends more.
 */
import type { ChatMessage } from '../../../../shared/contract';

export const TEXT_MAX = 2_097_152;
export const HEAD = 1_048_576;
const TAIL_MAX = TEXT_MAX - HEAD;
const TRIM_STEP = 65_536;

export function omissionLine(n: number): string {
  return `\n… [${n} characters of output not kept] …\n`;
}

const OMISSION = /\n… \[(\d+) characters of output not kept\] …\n/y;

interface Capped {
  head: string;
  omitted: number;
  tail: string;
}

/** A text already capped, taken apart; null for a text that is whole. */
function parts(text: string): Capped | null {
  if (text.length <= HEAD || !text.startsWith('\n… [', HEAD)) return null;
  OMISSION.lastIndex = HEAD;
  const m = OMISSION.exec(text);
  if (!m) return null;
  return { head: text.slice(0, HEAD), omitted: Number(m[1]), tail: text.slice(OMISSION.lastIndex) };
}

/** `text + added`, within the cap. */
export function appendCapped(text: string, added: string): string {
  const capped = parts(text);
  let c: Capped;
  if (capped) {
    if (capped.tail.length + added.length <= TAIL_MAX) return text + added;
    c = { ...capped, tail: capped.tail + added };
  } else {
    if (text.length + added.length <= TEXT_MAX) return text + added;
    const whole = text + added;
    c = { head: whole.slice(0, HEAD), omitted: 0, tail: whole.slice(HEAD) };
  }
  let cut = c.tail.length - (TAIL_MAX - TRIM_STEP);
  // Never start the tail with the second half of a surrogate pair.
  const code = c.tail.charCodeAt(cut);
  if (code >= 0xdc00 && code <= 0xdfff) cut += 1;
  return c.head + omissionLine(c.omitted + cut) + c.tail.slice(cut);
}

/** A message as it arrived, its text held to the cap. */
export function withCappedText(m: ChatMessage): ChatMessage {
  return m.text.length > TEXT_MAX ? { ...m, text: appendCapped(m.text, '') } : m;
}
