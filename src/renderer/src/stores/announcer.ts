/**
 * What the polite live region says next (issue 12: a finished result was not announced). Only a
 * turn seen running that ends is announced, and only in the conversation on screen: a reload or
 * another conversation's background work stays quiet.
 */
import { create } from 'zustand';
import type { ChatMessage } from '../../../shared/contract';

export const useAnnouncer = create<{ text: string; seq: number }>(() => ({ text: '', seq: 0 }));

export function announce(text: string): void {
  useAnnouncer.setState((s) => ({ text, seq: s.seq + 1 }));
}

const SAID_CHARS = 160;

/** The sentence for a finished plugin call or model answer; null when nothing finished. */
export function resultAnnouncement(
  before: ChatMessage | undefined,
  after: ChatMessage,
  pluginName: (id: string) => string,
): string | null {
  if (before?.status !== 'streaming' || after.status === 'streaming') return null;
  if (after.role !== 'plugin' && after.role !== 'assistant') return null;
  const who =
    after.role === 'assistant'
      ? 'The assistant'
      : `${after.pluginId ? pluginName(after.pluginId) : 'The plugin'}${after.tool ? ` ${after.tool}` : ''}`;
  // Markdown's marks are noise when read aloud. Only the start is said, so only the start is
  // cleaned: a 2 MB output went through these replacements whole, in the frame the stream ended.
  const text = after.text
    .slice(0, SAID_CHARS * 4)
    .replace(/[*`#~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const said = text.length > SAID_CHARS ? `${text.slice(0, SAID_CHARS)}…` : text;
  if (after.status === 'error') return `${who} failed${after.failure ? `: ${after.failure.message}` : ''}.`;
  if (after.status === 'cancelled') return `${who} stopped.${said ? ` ${said}` : ''}`;
  return `${who} finished.${said ? ` ${said}` : ''}`;
}
