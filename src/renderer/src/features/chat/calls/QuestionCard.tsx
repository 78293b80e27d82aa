/**
 * A question to the person, as a card in the chat: a model's (the built-in `ask_user`), with its
 * choices as buttons (one click answers; with several allowed, they toggle and "Send answer"
 * sends them) or a box for an answer in words; or an MCP server's form (elicitation), with the
 * fields it asks for, sent or declined (FormAnswer). The asker waits for it, like an approval
 * card; the answer goes back (to the model as the tool's result, to the server as its reply), and
 * the card then shows it.
 */
import { memo, useRef, useState, type JSX, type RefObject } from 'react';
import type { Question } from '../../../../../shared/assistant';
import type { ChatMessage } from '../../../../../shared/contract';
import { Button } from '../../../components/Button';
import { FailureBlock } from '../../../components/FailureBlock';
import { Icon } from '../../../components/Icon';
import { Spinner } from '../../../components/Spinner';
import { answerQuestion, declineForm, type Answered } from '../../../stores/chat/model-actions';
import { RetryBar } from '../RetryBar';
import { FormAnswer } from './FormAnswer';
import { PageAnswer } from './PageAnswer';
import { useFocusOnce } from './focus-once';

function Choices({
  q,
  busy,
  send,
}: {
  q: Question;
  busy: boolean;
  send: (answer: string | string[]) => void;
}): JSX.Element {
  const [picked, setPicked] = useState<string[]>([]);
  const choices = q.choices ?? [];
  if (!q.multiple) {
    return (
      <div className="flex flex-wrap gap-1.5" role="group" aria-label="Choices">
        {choices.map((c) => (
          <Button key={c} disabled={busy} onClick={() => send(c)}>
            {c}
          </Button>
        ))}
      </div>
    );
  }
  const toggle = (c: string): void => setPicked((p) => (p.includes(c) ? p.filter((x) => x !== c) : [...p, c]));
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-1.5" role="group" aria-label="Choices (pick any)">
        {choices.map((c) => {
          const on = picked.includes(c);
          return (
            <Button
              key={c}
              aria-pressed={on}
              disabled={busy}
              className={on ? 'border-accent bg-accent-soft text-accent' : ''}
              onClick={() => toggle(c)}
            >
              {on && <Icon name="check" size={12} />}
              {c}
            </Button>
          );
        })}
      </div>
      <Button
        variant="primary"
        disabled={busy || picked.length === 0}
        onClick={() => send(choices.filter((c) => picked.includes(c)))}
      >
        Send answer
      </Button>
    </div>
  );
}

function Words({
  busy,
  send,
  box,
}: {
  busy: boolean;
  send: (answer: string) => void;
  box: RefObject<HTMLTextAreaElement | null>;
}): JSX.Element {
  const [text, setText] = useState('');
  const ready = text.trim() !== '';
  return (
    <div className="space-y-2">
      <textarea
        ref={box}
        aria-label="Your answer"
        rows={2}
        value={text}
        disabled={busy}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          // As in the composer: Enter sends, Shift+Enter starts a new line.
          if (e.key !== 'Enter' || e.shiftKey) return;
          e.preventDefault();
          if (ready) send(text.trim());
        }}
        className="block w-full resize-y rounded-md border border-line-strong bg-bg px-2 py-1.5 text-[13px] text-fg focus-visible:border-accent"
      />
      <Button variant="primary" disabled={busy || !ready} onClick={() => send(text.trim())}>
        Answer
      </Button>
    </div>
  );
}

export const QuestionCard = memo(function QuestionCard({ m }: { m: ChatMessage }): JSX.Element {
  const q = m.call?.question;
  const callId = m.call?.id ?? '';
  const waiting = m.status === 'streaming';
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const card = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  // A question in words focuses its box, so the answer can be typed at once; choices or a form, the card.
  useFocusOnce(m.id, q?.choices?.length || q?.form ? card : box, waiting);
  const form = q?.form ? { ...q, form: q.form } : undefined;
  const asker = q?.from ?? 'the model';

  const sent = async (r: Promise<Answered>): Promise<void> => {
    setBusy(true);
    setRefusal(null);
    const a = await r;
    setBusy(false);
    if (!a.ok) setRefusal(a.message);
  };
  const send = (answer: string | string[] | Record<string, unknown>): Promise<void> =>
    sent(answerQuestion(callId, answer));

  return (
    <article
      className="pl-7"
      aria-label={`Question from ${asker}: ${waiting ? 'waits for your answer' : (m.status ?? 'done')}`}
      data-message-id={m.id}
      data-role="plugin"
      data-call-id={callId}
      data-question-card={waiting ? 'waiting' : m.status}
    >
      <div
        ref={card}
        tabIndex={-1}
        role="group"
        aria-label={q?.question ?? `The question of ${asker}`}
        className={`overflow-hidden rounded-lg border outline-none ${waiting ? 'border-accent/60 bg-bg shadow-[0_0_0_3px_var(--accent-soft)]' : 'border-line bg-subtle'}`}
      >
        {/* Compact once answered, like a finished tool call: the question and the answer. */}
        <div className={`flex items-start gap-2.5 px-3.5 ${waiting ? 'py-3' : 'py-2'}`}>
          <span
            className="mt-0.5 grid h-6 w-6 shrink-0 place-items-center rounded-md bg-accent-soft text-accent"
            aria-hidden="true"
          >
            <Icon name="help" size={14} />
          </span>
          <div className={`min-w-0 flex-1 ${waiting ? 'space-y-2.5' : 'space-y-0.5'}`}>
            <div>
              {waiting && (
                <p className="text-[11px] font-medium tracking-wide text-fg-subtle uppercase">
                  {q?.from ? `${q.from} asks` : 'The model asks'}
                </p>
              )}
              <p
                className={`leading-relaxed font-medium break-words whitespace-pre-wrap text-fg ${waiting ? 'text-[13.5px]' : 'text-[13px]'}`}
              >
                {q?.question ?? '(the question was not valid)'}
              </p>
            </div>
            {waiting &&
              q &&
              (q.page ? (
                <PageAnswer
                  page={q.page}
                  busy={busy}
                  open={() => void send({})}
                  decline={() => void sent(declineForm(callId))}
                />
              ) : form ? (
                <FormAnswer
                  q={form}
                  busy={busy}
                  send={(a) => void send(a)}
                  decline={() => void sent(declineForm(callId))}
                />
              ) : q.choices?.length ? (
                <Choices q={q} busy={busy} send={(a) => void send(a)} />
              ) : (
                <Words busy={busy} box={box} send={(a) => void send(a)} />
              ))}
            {busy && (
              <p className="flex items-center gap-1.5 text-xs text-fg-muted">
                <Spinner size={11} /> Sending…
              </p>
            )}
            {refusal && (
              <p role="alert" className="rounded-md border border-bad/30 bg-bad-soft px-2.5 py-1.5 text-xs text-fg">
                {refusal}
              </p>
            )}
            {m.status === 'done' && (
              <p className="flex items-start gap-1.5 text-[13px] text-fg" data-answer-given>
                <Icon name="check" size={13} className="mt-1 shrink-0 text-ok" />
                <span className="min-w-0 break-words whitespace-pre-wrap">
                  <span className="text-fg-muted">You answered: </span>
                  {m.text}
                </span>
              </p>
            )}
            {m.status === 'cancelled' && (
              <p className="text-xs text-fg-subtle" data-answer-refused>
                {form && m.failure?.message === 'you declined'
                  ? 'You declined.'
                  : form && m.failure
                    ? `Not answered: ${m.failure.message}.`
                    : 'Stopped before you answered.'}
              </p>
            )}
            {m.status === 'error' && m.failure && <FailureBlock failure={m.failure} />}
          </div>
        </div>
      </div>
      <RetryBar m={m} />
    </article>
  );
});
