/**
 * A conversation's tokens, summed from its answers' usage: the server's `Conversation.tokens`,
 * and the renderer's live total while a turn streams (the same sum on both sides of the wire).
 */
import type { TokenTotals } from './assistant';
import type { ChatMessage } from './contract';

/** The tokens the answers among `messages` took (an estimate where any count was one). */
export function tokensOf(messages: Iterable<ChatMessage | undefined>): TokenTotals {
  const t: TokenTotals = { inputTokens: 0, outputTokens: 0, estimated: false };
  for (const m of messages) {
    if (!m?.usage) continue;
    t.inputTokens += m.usage.inputTokens ?? 0;
    t.outputTokens += m.usage.outputTokens ?? 0;
    t.estimated ||= m.usage.estimated === true;
  }
  return t;
}
