/**
 * A model's answer: markdown as it is written (a caret where the next word goes), then which
 * model answered and what it cost, discreetly, under it. A failed answer shows the failure and
 * Retry; a stopped one says so. A plan's message shows its checklist in place of its markdown. Very long answers are shown plain while they stream, where
 * parsing markdown every frame would stall the window.
 */
import { memo, type JSX } from 'react';
import type { ChatMessage } from '../../../../shared/contract';
import { CopyButton } from '../../components/CopyButton';
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

export const AssistantMessage = memo(function AssistantMessage({ m }: { m: ChatMessage }): JSX.Element {
  const status = m.status ?? 'done';
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
            {m.text && (
              <span className="opacity-0 transition-opacity group-focus-within:opacity-100 group-hover:opacity-100">
                <CopyButton text={() => m.text} title="Copy the answer" />
              </span>
            )}
          </footer>
        )}
        <RetryBar m={m} />
      </div>
    </article>
  );
});
