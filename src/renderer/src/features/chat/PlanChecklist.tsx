/**
 * A plan (`/plan`) as a checklist: the planner's explanation, then each task with a box that
 * fills as it runs and ticks when it is done, the word for its state (colour is never the only
 * signal), why it failed or was skipped, and the count done. The message's text keeps the same
 * plan as markdown for copies, exports and later models.
 */
import type { JSX } from 'react';
import type { PlanTask, PlanTaskStatus, PlanView } from '../../../../shared/assistant';
import { Icon } from '../../components/Icon';
import { Spinner } from '../../components/Spinner';
import { useChat } from '../../stores/chat/state';
import { usePlugins } from '../../stores/plugins';

const WORD: Record<PlanTaskStatus, string> = {
  pending: 'to do',
  running: 'running',
  done: 'done',
  failed: 'failed',
  denied: 'denied',
  skipped: 'skipped',
  cancelled: 'stopped',
};

const TONE: Record<PlanTaskStatus, string> = {
  pending: 'text-fg-subtle',
  running: 'text-info',
  done: 'text-ok',
  failed: 'text-bad',
  denied: 'text-bad',
  skipped: 'text-fg-subtle',
  cancelled: 'text-fg-subtle',
};

function Box({ status }: { status: PlanTaskStatus }): JSX.Element {
  if (status === 'running') return <Spinner size={14} className="text-info" />;
  if (status === 'done')
    return (
      <span className="grid h-3.5 w-3.5 place-items-center rounded-[4px] bg-ok text-bg" aria-hidden="true">
        <Icon name="check" size={10} />
      </span>
    );
  if (status === 'failed' || status === 'denied')
    return (
      <span className="grid h-3.5 w-3.5 place-items-center rounded-[4px] border border-bad text-bad" aria-hidden="true">
        <Icon name="x" size={10} />
      </span>
    );
  return (
    <span
      className={`h-3.5 w-3.5 rounded-[4px] border ${status === 'pending' ? 'border-line-strong' : 'border-dashed border-line-strong'}`}
      aria-hidden="true"
    />
  );
}

function Task({ t }: { t: PlanTask }): JSX.Element {
  // A running task whose card asks the person first is waiting for them, not working.
  const asks = useChat(
    (s) => t.status === 'running' && t.cardId !== undefined && s.messages[t.cardId]?.call?.approval.state === 'pending',
  );
  const word = asks ? 'waits for you' : WORD[t.status];
  const faded = t.status === 'skipped' || t.status === 'cancelled';
  return (
    <li
      className="flex items-start gap-2 px-3 py-1.5"
      data-task-id={t.id}
      data-task-status={t.status}
      aria-label={`${t.description}: ${word}`}
    >
      <span className="mt-[3px] grid w-3.5 shrink-0 place-items-center">
        {asks ? (
          <span className="h-3.5 w-3.5 rounded-[4px] border border-warn" aria-hidden="true" />
        ) : (
          <Box status={t.status} />
        )}
      </span>
      <span className="min-w-0 flex-1">
        <span
          className={`text-[13px] ${faded ? 'text-fg-subtle line-through' : t.status === 'done' ? 'text-fg-muted' : 'text-fg'}`}
        >
          {t.description}
        </span>
        {t.note && <span className="block text-[11.5px] text-fg-muted">{t.note}</span>}
      </span>
      <span className={`shrink-0 pt-px text-[11px] ${asks ? 'text-warn' : TONE[t.status]}`}>{word}</span>
    </li>
  );
}

export function PlanChecklist({ plan, streaming }: { plan: PlanView; streaming: boolean }): JSX.Element {
  const planner = usePlugins((s) => s.byId[plan.planner]?.name ?? plan.planner);
  const done = plan.tasks.filter((t) => t.status === 'done').length;
  const total = plan.tasks.length;
  return (
    <section className="overflow-hidden rounded-lg border border-line bg-bg" aria-label="Plan" data-plan>
      <header className="flex items-center gap-2 border-b border-line bg-subtle px-3 py-1.5 text-[11.5px] text-fg-muted">
        <span className="flex-1">Plan by {planner}</span>
        {total > 0 && (
          <span className="tabular-nums" data-plan-progress>
            {done} of {total} done
          </span>
        )}
      </header>
      {plan.explanation && (
        <p className="border-b border-line px-3 py-2 text-[12.5px] text-fg-muted">{plan.explanation}</p>
      )}
      {total === 0 ? (
        <p className="flex items-center gap-2 px-3 py-2 text-xs text-fg-subtle">
          {streaming && <Spinner />}
          {streaming ? 'Planning…' : 'No tasks.'}
        </p>
      ) : (
        <ol className="divide-y divide-line" aria-label="Tasks">
          {plan.tasks.map((t) => (
            <Task key={t.id} t={t} />
          ))}
        </ol>
      )}
    </section>
  );
}
