/**
 * A model's answer: markdown as it is written (a caret where the next word goes), then which
 * model answered and what it cost, discreetly, under it. A failed answer shows the failure and
 * Retry; a stopped one says so. A plan's message shows its checklist in place of its markdown. Very long answers are shown plain while they stream, where
 * parsing markdown every frame would stall the window.
 */
import { memo, type JSX } from 'react';
import type { ChatMessage } from '../../../../shared/contract';
import { Button } from '../../components/Button';
import { CopyButton } from '../../components/CopyButton';
import { regenerateAnswer } from '../../stores/chat/model-actions';
import { hasRunningTurn } from '../../stores/chat/running';
import { useChat } from '../../stores/chat/state';
import { FailureBlock } from '../../components/FailureBlock';
import { Icon } from '../../components/Icon';
import { usageText } from './answer-text';
import { Markdown } from './LazyMarkdown';
import { PlainText } from './PlainText';
import { PlanChecklist } from './PlanChecklist';
import { MARKDOWN_MAX_CHARS } from './PluginOutput';
import { RequestDetails } from './RequestDetails';
import { RetryBar } from './RetryBar';
import { Timestamp } from './Timestamp';

/** Past this, a streaming answer is shown plain until it ends. */
const LIVE_MARKDOWN_MAX_CHARS = 24_000;

function Body({ m }: { m: ChatMessage }): JSX.Element | null {
  const streaming = m.status === 'streaming';
  if (m.plan) return <PlanChecklist plan={m.plan} streaming={streaming} />;
  if (!m.text) return null;
  if (streaming ? m.text.length > LIVE_MARKDOWN_MAX_CHARS : m.text.length > MARKDOWN_MAX_CHARS)
    return <PlainText text={m.text} streaming={streaming} />;
  return <Markdown text={m.text} streaming={streaming} />;
}

/**
 * Whether `id` is the conversation's last answer of a model (not an earlier version), with no turn
 * running: the one Regenerate writes again.
 */
function useIsLastAnswer(id: string): string | null {
  return useChat((s) => {
    const c = s.activeId ? s.convs[s.activeId] : undefined;
    if (!c || !s.activeId || hasRunningTurn(s.running, s.activeId)) return null;
    for (let i = c.ids.length - 1; i >= 0; i--) {
      const m = s.messages[c.ids[i] as string];
      if (!m || m.replaced || m.role === 'system') continue;
      if (m.role === 'assistant') return m.id === id ? s.activeId : null;
      if (m.role === 'user') return null;
    }
    return null;
  });
}

export const AssistantMessage = memo(function AssistantMessage({ m }: { m: ChatMessage }): JSX.Element {
  const status = m.status ?? 'done';
  const regenerateIn = useIsLastAnswer(m.id);
  const usage = usageText(m.usage);
  return (
    <article
      className="group flex gap-2"
      aria-label={`Answer${m.model ? ` from ${m.model}` : ''}`}
      data-message-id={m.id}
      data-role="assistant"
      data-status={status}
    >
      <span
        className="mt-0.5 grid h-5 w-5 shrink-0 place-items-center rounded-md bg-accent-soft text-accent"
        aria-hidden="true"
      >
        <Icon name="sparkle" size={12} />
      </span>
      <div className="min-w-0 flex-1 space-y-2 text-[13.5px] leading-relaxed" data-answer>
        <Body m={m} />
        {m.failure && <FailureBlock failure={m.failure} />}
        {status === 'cancelled' && !m.failure && <p className="text-xs text-fg-subtle">Stopped.</p>}
        {status !== 'streaming' && (
          <footer className="flex min-h-6 flex-wrap items-center gap-x-1.5 text-[11px] text-fg-subtle">
            {m.model && <span title="The model that answered">{m.model}</span>}
            {m.model && <span aria-hidden="true">·</span>}
            {usage && (
              <>
                <span
                  className="tabular-nums"
                  title={`Tokens the model read (the conversation and the tools) and wrote${m.usage?.estimated ? '; estimated (about 4 characters a token): the provider gave no counts' : ''}`}
                  data-usage
                >
                  {usage} tokens
                </span>
                <span aria-hidden="true">·</span>
              </>
            )}
            <Timestamp at={m.createdAt} />
            {m.request && (
              <>
                <span aria-hidden="true">·</span>
                <RequestDetails request={m.request} id={m.id} />
              </>
            )}
            {(m.text || regenerateIn) && (
              <span className="flex items-center opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100">
                {m.text && <CopyButton text={() => m.text} title="Copy the answer" />}
                {regenerateIn && !m.replaced && (
                  <Button
                    size="sm"
                    variant="ghost"
                    icon="restart"
                    title="Write this answer again (this one stays, as an earlier version)"
                    onClick={() => void regenerateAnswer(regenerateIn)}
                  >
                    Regenerate
                  </Button>
                )}
              </span>
            )}
          </footer>
        )}
        <RetryBar m={m} />
      </div>
    </article>
  );
});
