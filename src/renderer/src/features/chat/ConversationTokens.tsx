/**
 * The open conversation's tokens, summed over its answers ("≈" when any count was an estimate),
 * beside the composer. Summed here from the messages shown, as the server sums
 * `Conversation.tokens`, so it moves when an answer ends rather than when the list is refetched.
 */
import type { JSX } from 'react';
import { useChat } from '../../stores/chat/state';
import { tokensOf } from '../../../../shared/token-totals';
import { totalsText } from './answer-text';

function* messagesOf(ids: readonly string[], messages: ReturnType<typeof useChat.getState>['messages']) {
  for (const id of ids) yield messages[id];
}

export function ConversationTokens(): JSX.Element | null {
  // A string: the row re-renders only when the sum changes, not on every chunk.
  const text = useChat((s) => {
    const conv = s.activeId ? s.convs[s.activeId] : undefined;
    if (!conv) return null;
    const t = tokensOf(messagesOf(conv.ids, s.messages));
    return t.inputTokens + t.outputTokens === 0 ? null : totalsText(t);
  });
  if (!text) return null;
  return (
    <span className="shrink-0 text-[11px] whitespace-nowrap text-fg-subtle tabular-nums @max-lg:hidden" title={`This conversation: ${text}`} data-conversation-tokens>
      {text.replace(/ \(.*\)$/, '')}
    </span>
  );
}
