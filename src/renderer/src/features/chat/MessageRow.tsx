/**
 * One row of the message list, chosen by role. Selects its own message by id, so a streaming
 * chunk re-renders this row only.
 */
import { memo, type JSX } from 'react';
import type { ChatMessage } from '../../../../shared/contract';
import { useChat } from '../../stores/chat/state';
import { AssistantMessage } from './AssistantMessage';
import { QuestionCard } from './calls/QuestionCard';
import { ToolCallCard } from './calls/ToolCallCard';
import { ConnectModelCard } from './ConnectModelCard';
import { EarlierVersion } from './EarlierVersion';
import { Markdown } from './LazyMarkdown';
import { PluginMessage } from './PluginMessage';
import { UserMessage } from './UserMessage';

export const MessageRow = memo(function MessageRow({ id }: { id: string }): JSX.Element | null {
  const m = useChat((s) => s.messages[id]);
  if (!m) return null;
  if (m.replaced)
    return (
      <EarlierVersion m={m}>
        <Row m={m} />
      </EarlierVersion>
    );
  return <Row m={m} />;
});

function Row({ m }: { m: ChatMessage }): JSX.Element {
  if (m.role === 'user') return <UserMessage m={m} />;
  if (m.role === 'assistant') return <AssistantMessage m={m} />;
  // A question card for the model's ask_user and for a server's form (elicitation) alike.
  if (m.role === 'plugin')
    return m.call?.builtin === 'ask_user' || m.call?.question?.form ? (
      <QuestionCard m={m} />
    ) : m.call ? (
      <ToolCallCard m={m} />
    ) : (
      <PluginMessage m={m} />
    );
  if (m.card?.type === 'connect-model') return <ConnectModelCard m={m} />;
  return (
    <article
      className="flex gap-2 rounded-md border border-dashed border-line px-3 py-2 text-xs text-fg-muted"
      aria-label="Note"
      data-message-id={m.id}
      data-role="system"
    >
      <div className="min-w-0 flex-1">
        <Markdown text={m.text} />
      </div>
    </article>
  );
}
