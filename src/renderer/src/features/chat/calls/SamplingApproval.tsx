/**
 * The prompt before an MCP server's sampling request reaches the conversation's model: what the
 * server sends (its system prompt and messages, in full), the token cap and the model, and two
 * answers, Allow once or Deny: a server's request is never allowed for good. Styled as the
 * approval card of a tool call; like it, it takes focus once and no key answers it by itself.
 */
import { useRef, useState, type JSX } from 'react';
import type { ApprovalDecision, SamplingView } from '../../../../../shared/assistant';
import type { ChatMessage } from '../../../../../shared/contract';
import { Button } from '../../../components/Button';
import { Icon } from '../../../components/Icon';
import { Spinner } from '../../../components/Spinner';
import { approveCall } from '../../../stores/chat/model-actions';
import { useFocusOnce } from './focus-once';

const ANSWERS: Array<{ decision: ApprovalDecision; label: string; variant: 'primary' | 'danger' }> = [
  { decision: 'once', label: 'Allow once', variant: 'primary' },
  { decision: 'deny', label: 'Deny', variant: 'danger' },
];

function Block({ label, children }: { label: string; children: string }): JSX.Element {
  return (
    <div role="group" aria-label={label}>
      <p className="mb-0.5 text-[11px] font-medium tracking-wide text-fg-subtle uppercase">{label}</p>
      <p className="max-h-48 overflow-auto rounded-md border border-line bg-subtle px-2.5 py-1.5 text-[12.5px] leading-relaxed break-words whitespace-pre-wrap text-fg">{children}</p>
    </div>
  );
}

export function SamplingApproval({ m, view }: { m: ChatMessage; view: SamplingView }): JSX.Element {
  const [busy, setBusy] = useState<ApprovalDecision | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const card = useRef<HTMLDivElement>(null);
  const callId = m.call?.id ?? '';
  useFocusOnce(m.id, card);

  const answer = async (decision: ApprovalDecision): Promise<void> => {
    setBusy(decision);
    setRefusal(null);
    const r = await approveCall(callId, decision);
    setBusy(null);
    if (!r.ok) setRefusal(r.message);
  };

  const title = `Allow ${view.from} to ask ${view.model} for a reply?`;
  return (
    <div
      ref={card}
      tabIndex={-1}
      role="group"
      aria-label={title}
      data-approval-card
      data-sampling-card
      className="overflow-hidden rounded-lg border border-accent/60 bg-bg shadow-[0_0_0_3px_var(--accent-soft)] outline-none focus-visible:border-accent"
    >
      <div className="flex items-start gap-2.5 px-3.5 pt-3">
        <span className="mt-0.5 grid h-6 w-6 shrink-0 place-items-center rounded-md bg-accent-soft text-accent" aria-hidden="true">
          <Icon name="shield" size={14} />
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-[13px] font-semibold text-fg">{title}</p>
          <p className="text-xs text-fg-muted">The server wants the conversation’s model to write a reply to the messages below. Nothing is sent to the model until you answer.</p>
        </div>
      </div>
      <div className="space-y-2.5 px-3.5 py-3">
        {view.systemPrompt && <Block label="System prompt">{view.systemPrompt}</Block>}
        {view.messages.map((msg, i) => (
          <Block key={i} label={msg.role === 'user' ? 'Message' : 'Earlier reply'}>
            {msg.text}
          </Block>
        ))}
        <p className="text-xs text-fg-muted" data-max-tokens>
          At most {view.maxTokens} tokens, written by {view.model}.
        </p>
        {refusal && (
          <p role="alert" className="rounded-md border border-bad/30 bg-bad-soft px-2.5 py-1.5 text-xs text-fg">
            {refusal}
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-1.5 border-t border-line bg-subtle px-3.5 py-2.5">
        {ANSWERS.map((a) => (
          <Button key={a.decision} size="md" variant={a.variant} disabled={busy !== null} className={a.decision === 'deny' ? 'sm:ml-auto' : ''} onClick={() => void answer(a.decision)}>
            {busy === a.decision && <Spinner size={11} />}
            {a.label}
          </Button>
        ))}
      </div>
    </div>
  );
}
