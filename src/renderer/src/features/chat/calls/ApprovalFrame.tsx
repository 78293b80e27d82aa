/**
 * The frame every approval prompt in the chat shares (a model's tool call, an MCP server's
 * sampling request): the accent border, the shield and the question, the body the prompt fills
 * in, a refusal from the server, and the answer buttons, Deny set apart at the end.
 */
import type { JSX, ReactNode, RefObject } from 'react';
import type { ApprovalDecision } from '../../../../../shared/assistant';
import { Button } from '../../../components/Button';
import { Icon } from '../../../components/Icon';
import { Spinner } from '../../../components/Spinner';

export interface Answer {
  decision: ApprovalDecision;
  label: string;
  variant: 'primary' | 'secondary' | 'danger';
}

export function ApprovalFrame(p: {
  cardRef: RefObject<HTMLDivElement | null>;
  /** The question as read out (the card's accessible name). */
  title: string;
  /** The question as shown, where it marks up names; the title otherwise. */
  heading?: ReactNode;
  subtitle: ReactNode;
  /** Data attributes that name the kind of card (tests and styles find it by them). */
  data?: Record<`data-${string}`, string | boolean>;
  /** The body's own group name, when it is one (the arguments). */
  bodyLabel?: string;
  refusal: string | null;
  answers: readonly Answer[];
  busy: ApprovalDecision | null;
  onAnswer(decision: ApprovalDecision): void;
  children: ReactNode;
}): JSX.Element {
  return (
    <div
      ref={p.cardRef}
      tabIndex={-1}
      role="group"
      aria-label={p.title}
      data-approval-card
      {...p.data}
      className="overflow-hidden rounded-lg border border-accent/60 bg-bg shadow-[0_0_0_3px_var(--accent-soft)] outline-none focus-visible:border-accent"
    >
      <div className="flex items-start gap-2.5 px-3.5 pt-3">
        <span
          className="mt-0.5 grid h-6 w-6 shrink-0 place-items-center rounded-md bg-accent-soft text-accent"
          aria-hidden="true"
        >
          <Icon name="shield" size={14} />
        </span>
        <div className="min-w-0 flex-1">
          <p className="text-[13px] font-semibold text-fg">{p.heading ?? p.title}</p>
          <p className="text-xs text-fg-muted">{p.subtitle}</p>
        </div>
      </div>
      <div className="space-y-2.5 px-3.5 py-3" {...(p.bodyLabel ? { role: 'group', 'aria-label': p.bodyLabel } : {})}>
        {p.children}
        {p.refusal && (
          <p role="alert" className="rounded-md border border-bad/30 bg-bad-soft px-2.5 py-1.5 text-xs text-fg">
            {p.refusal}
          </p>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-1.5 border-t border-line bg-subtle px-3.5 py-2.5">
        {p.answers.map((a) => (
          <Button
            key={a.decision}
            size="md"
            variant={a.variant}
            disabled={p.busy !== null}
            className={a.decision === 'deny' ? 'sm:ml-auto' : ''}
            onClick={() => p.onAnswer(a.decision)}
          >
            {p.busy === a.decision && <Spinner size={11} />}
            {a.label}
          </Button>
        ))}
      </div>
    </div>
  );
}
