/**
 * The open conversation's tokens, summed over its answers ("≈" when any count was an estimate),
 * beside the composer. Summed here from the messages shown, as the server sums
 * `Conversation.tokens`, so it moves when an answer ends rather than when the list is refetched.
 */
import type { JSX } from 'react';
import { useChat } from '../../stores/chat/state';
import { tokensOf } from '../../../../shared/token-totals';
import { tokenTotal, totalsText } from './answer-text';

function* messagesOf(ids: readonly string[], messages: ReturnType<typeof useChat.getState>['messages']) {
  for (const id of ids) yield messages[id];
}

export function ConversationTokens(): JSX.Element | null {
  // A plain key (no number formatting here: this runs on every change of the store, each streamed
  // frame included): the row re-renders only when the sum changes.
  const key = useChat((s) => {
    const conv = s.activeId ? s.convs[s.activeId] : undefined;
    if (!conv) return '';
    const t = tokensOf(messagesOf(conv.ids, s.messages));
    return t.inputTokens + t.outputTokens === 0 ? '' : `${t.inputTokens} ${t.outputTokens} ${t.estimated ? 1 : 0}`;
  });
  if (!key) return null;
  const [inputTokens = 0, outputTokens = 0, estimated] = key.split(' ').map(Number);
  const t = { inputTokens, outputTokens, estimated: estimated === 1 };
  return (
    <span
      className="shrink-0 text-[11px] whitespace-nowrap text-fg-subtle tabular-nums @max-lg:hidden"
      title={`This conversation: ${totalsText(t)}`}
      data-conversation-tokens
    >
      {tokenTotal(t)}
    </span>
  );
}
