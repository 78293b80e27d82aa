/**
 * A message's text in the page, held to the bound the main process keeps (shared/bounded-text.ts):
 * an endless stream cannot fill the page's memory. Chunks are appended once per frame, and the
 * kept end is trimmed in steps of TRIM_STEP, so a long stream rewrites it once per step rather
 * than every frame. Texts that come whole (a final message, a snapshot) are held to the same
 * bound; one the main process already bounded is left as it is.
 */
import { appendBounded, MAX_TEXT_CHARS } from '../../../../shared/bounded-text';
import type { ChatMessage } from '../../../../shared/contract';

const TRIM_STEP = 65_536;

/** `text + added`, within the bound. */
export function appendCapped(text: string, added: string): string {
  return appendBounded(text, added, TRIM_STEP);
}

/** A message as it arrived, its text held to the bound. */
export function withCappedText(m: ChatMessage): ChatMessage {
  return m.text.length > MAX_TEXT_CHARS ? { ...m, text: appendCapped(m.text, '') } : m;
}
