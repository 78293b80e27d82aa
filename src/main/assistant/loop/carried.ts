/**
 * Results are data: a model's call whose arguments carry a long run of text that came from
 * another plugin's result in this conversation is held for the person's approval, naming where
 * the text came from, whatever the tool's policy (tool-calls.ts). That is the shape of the red
 * team's chain: a file read by an auto-allowed tool, its secret handed by the model, on an
 * injected instruction, to a plugin that was never granted the folder.
 *
 * A run counts when it is at least CARRIED_MIN characters long (spaces folded), comes from a
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
  windows: Map<string, number[]>;
}

const indexes = new Map<string, Indexed>();

function fold(s: string): string {
  return s.replace(/\s+/g, ' ');
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
  const text = fold(m.text || (m.result === undefined ? '' : resultText(m.result)));
  const windows = new Map<string, number[]>();
  for (let i = 0; i + W <= text.length; i += W) {
    const w = text.slice(i, i + W);
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
  for (let i = 0; i + W <= a.length; i++) {
    const at = src.windows.get(a.slice(i, i + W));
    if (!at) continue;
    for (const j of at) {
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
  const values = stringsOf(args)
    .map((s) => fold(s.text))
    .filter((s) => s.length >= CARRIED_MIN);
  // Short arguments (most calls) carry nothing worth holding: the conversation is not even read.
  if (values.length === 0) return null;
  const stored = conversation();
  const sources = stored.filter(
    (m) =>
      m.role === 'plugin' &&
      m.pluginId &&
      m.pluginId !== plugin &&
      !m.passthrough &&
      (m.text || m.result !== undefined),
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
      const run = longestRun(v, src);
      if (!run || (best && run.length <= best.chars)) continue;
      const text = v.slice(run.start, run.start + run.length).trim();
      // The person wrote it: passing it on is theirs to ask for.
      if (written().includes(text)) continue;
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
