/**
 * The prompt before an MCP server's sampling request reaches the conversation's model: what the
 * server sends (its system prompt and messages, in full), the token cap and the model, and two
 * answers, Allow once or Deny: a server's request is never allowed for good. Styled as the
 * approval card of a tool call; like it, it takes focus once and no key answers it by itself.
 */
import { useRef, useState, type JSX } from 'react';
import type { ApprovalDecision, SamplingView } from '../../../../../shared/assistant';
import type { ChatMessage } from '../../../../../shared/contract';
import { approveCall } from '../../../stores/chat/model-actions';
import { ApprovalFrame, type Answer } from './ApprovalFrame';
import { useFocusOnce } from './focus-once';

const ANSWERS: Answer[] = [
  { decision: 'once', label: 'Allow once', variant: 'primary' },
  { decision: 'deny', label: 'Deny', variant: 'danger' },
];

function Block({ label, children }: { label: string; children: string }): JSX.Element {
  return (
    <div role="group" aria-label={label}>
      <p className="mb-0.5 text-[11px] font-medium tracking-wide text-fg-subtle uppercase">{label}</p>
      <p className="max-h-48 overflow-auto rounded-md border border-line bg-subtle px-2.5 py-1.5 text-[12.5px] leading-relaxed break-words whitespace-pre-wrap text-fg">
        {children}
      </p>
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
    <ApprovalFrame
      cardRef={card}
      title={title}
      subtitle="The server wants the conversation’s model to write a reply to the messages below. Nothing is sent to the model until you answer."
      data={{ 'data-sampling-card': true }}
      refusal={refusal}
      answers={ANSWERS}
      busy={busy}
      onAnswer={(d) => void answer(d)}
    >
      {view.systemPrompt && <Block label="System prompt">{view.systemPrompt}</Block>}
      {view.messages.map((msg, i) => (
        <Block key={i} label={msg.role === 'user' ? 'Message' : 'Earlier reply'}>
          {msg.text}
        </Block>
      ))}
      <p className="text-xs text-fg-muted" data-max-tokens>
        At most {view.maxTokens} tokens, written by {view.model}.
      </p>
    </ApprovalFrame>
  );
}
