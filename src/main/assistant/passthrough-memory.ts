/**
 * What was said in passthrough, kept in this process's memory only: the store never writes it
 * (people paste keys into setup wizards: store/store.ts), but a page reloaded during a session
 * should still show its earlier turns. So the texts live here while Plugboard runs, are put back
 * into the conversations `chat.get` returns, and go with the process (or the conversation).
 */
import type { ChatMessage } from '../../shared/contract';

interface Kept {
  text: string;
  result?: unknown;
}

export class PassthroughMemory {
  private readonly kept = new Map<string, Map<string, Kept>>();

  /** Notes a passthrough message as it ended. */
  note(conversationId: string, m: ChatMessage): void {
    if (!m.passthrough || (m.text === '' && m.result === undefined)) return;
    let conv = this.kept.get(conversationId);
    if (!conv) this.kept.set(conversationId, (conv = new Map()));
    conv.set(m.id, { text: m.text, ...(m.result !== undefined ? { result: m.result } : {}) });
  }

  /** The messages with their passthrough text put back, where this process saw it. */
  fill(conversationId: string, messages: ChatMessage[]): ChatMessage[] {
    const conv = this.kept.get(conversationId);
    if (!conv) return messages;
    return messages.map((m) => {
      const k = m.passthrough && m.text === '' ? conv.get(m.id) : undefined;
      return k ? { ...m, ...k } : m;
    });
  }

  drop(conversationId: string): void {
    this.kept.delete(conversationId);
  }
}
