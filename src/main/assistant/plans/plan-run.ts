/**
 * A plan turn (`/plan <request>`): a planner plugin's `create_plan` gives the tasks, shown as a
 * checklist that changes as they run; each task then runs as a tool-call card of the executor's
 * `execute_task`, in dependency order, under the same policies and approvals as a model's call
 * (its stream shown live); a task whose dependency did not finish is skipped, and says why.
 * Plugins that declare `update_context` hear the plan, then each task's outcome. Stop ends the
 * running task and skips the rest.
 */
import { randomUUID } from 'node:crypto';
import type { PlanTask, PlanTaskStatus, PlanView } from '../../../shared/assistant';
import type { Failure } from '../../../shared/failures';
import type { CallHandle } from '../../plugins';
import type { LiveMessage } from '../live-messages';
import type { Offered } from '../loop/offered';
import { runCall, startCard, type CallContext } from '../loop/tool-calls';
import { readPlan } from './plan-order';

export interface PlanOptions extends Omit<CallContext, 'stopped' | 'track'> {
  request: string;
  planner: string;
  /** The executor's `execute_task`, as a model would be offered it. */
  executor: Offered;
  /** Plugins that take `update_context`. */
  listeners: string[];
}

const MARK: Record<PlanTaskStatus, string> = {
  pending: '[ ]',
  running: '[ ]',
  done: '[x]',
  failed: '[ ]',
  denied: '[ ]',
  skipped: '[ ]',
  cancelled: '[ ]',
};
const SAID: Partial<Record<PlanTaskStatus, string>> = {
  running: ' (running)',
  failed: ' (failed)',
  denied: ' (denied)',
  skipped: ' (skipped)',
  cancelled: ' (stopped)',
};

export class PlanRun {
  private stopped = false;
  private readonly calls = new Set<CallHandle>();

  constructor(private readonly o: PlanOptions) {}

  stop(reason: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.o.approvals.cancel({ turnId: this.o.turnId });
    for (const h of this.calls) h.cancel(reason);
  }

  async run(): Promise<void> {
    const { o } = this;
    const plan: PlanView = { planner: o.planner, executor: o.executor.plugin, tasks: [] };
    const live = o.messages.start(o.conversationId, {
      id: randomUUID(),
      role: 'assistant',
      createdAt: Date.now(),
      text: 'Planning…',
      turnId: o.turnId,
      status: 'streaming',
      plan,
    });
    const asked = await this.call(o.planner, 'create_plan', {
      user_request: o.request,
      current_state: { completed_tasks: [], pending_tasks: [], context: {} },
      constraints: { max_tasks: 10, time_limit_seconds: 300 },
    });
    if (!asked.ok) return this.fail(live, this.stopped ? 'cancelled' : 'error', asked);
    const read = readPlan(asked.value.data);
    if (!read.ok) return this.fail(live, 'error', read);
    plan.tasks = read.tasks;
    if (read.explanation) plan.explanation = read.explanation;
    this.show(live, plan);
    await this.tell({
      action: 'add',
      context_type: 'state',
      data: {
        plan: { tasks: plan.tasks.map(({ id, description, dependencies }) => ({ id, description, dependencies })) },
      },
    });
    for (const task of plan.tasks) {
      await this.runTask(task, plan, live);
      await this.tell({
        action: 'modify',
        context_type: 'state',
        data: { task_id: task.id, status: task.status, ...(task.note ? { note: task.note } : {}) },
      });
    }
    this.show(live, plan);
    o.messages.finish(live, { status: this.stopped ? 'cancelled' : 'done' });
  }

  private fail(live: LiveMessage, status: 'error' | 'cancelled', why: Failure): void {
    this.o.messages.replace(live, '');
    this.o.messages.finish(live, { status, failure: why });
  }

  private async runTask(task: PlanTask, plan: PlanView, live: LiveMessage): Promise<void> {
    const { o } = this;
    const blocker = task.dependencies
      .map((d) => plan.tasks.find((t) => t.id === d))
      .find((t) => t && t.status !== 'done');
    if (this.stopped || blocker) {
      task.status = this.stopped ? 'cancelled' : 'skipped';
      if (blocker)
        task.note = `needs ${blocker.id}, which ${blocker.status === 'skipped' ? 'was skipped' : `ended ${blocker.status}`}`;
      return this.show(live, plan);
    }
    task.status = 'running';
    this.show(live, plan);
    const done = plan.tasks.filter((t) => t.status === 'done').map((t) => t.id);
    const input = {
      prompt: task.description,
      ...(this.takesType(task.type) ? { task_type: task.type } : {}),
      context: { task_id: task.id, completed_tasks: done },
    };
    const call = { toolCallId: randomUUID(), toolName: o.executor.qualifiedName, input };
    const ctx: CallContext = { ...o, stopped: () => this.stopped, track: (h) => this.track(h) };
    const { live: card } = startCard(ctx, call, [o.executor]);
    task.cardId = card.message.id;
    // Shown again with its card: the checklist can say when the task waits for the person's answer.
    this.show(live, plan);
    await runCall(ctx, call, card, o.executor);
    const m = card.message;
    task.status =
      m.status === 'done'
        ? 'done'
        : m.call?.approval.state === 'denied'
          ? 'denied'
          : m.status === 'cancelled'
            ? 'cancelled'
            : 'failed';
    if (m.failure && task.status !== 'done') task.note = m.failure.message;
    this.show(live, plan);
  }

  /** Whether the executor's schema takes the planner's task type as it is. */
  private takesType(type: string | undefined): boolean {
    if (!type) return false;
    const prop = (this.o.executor.parameters as { properties?: Record<string, { enum?: unknown[] }> }).properties
      ?.task_type;
    return prop !== undefined && (!prop.enum || prop.enum.includes(type));
  }

  private show(live: LiveMessage, plan: PlanView): void {
    this.o.messages.replace(live, checklist(plan), { plan: { ...plan, tasks: plan.tasks.map((t) => ({ ...t })) } });
  }

  /** Tells every plugin that takes update_context; a plugin that fails it is noted in its log only. */
  private async tell(params: Record<string, unknown>): Promise<void> {
    for (const id of this.o.listeners) await this.call(id, 'update_context', params);
  }

  private call(plugin: string, tool: string, args: Record<string, unknown>): CallHandle['done'] {
    const handle = this.o.registry.call(plugin, tool, args, { owner: this.o.conversationId });
    const untrack = this.track(handle);
    return handle.done.finally(untrack);
  }

  private track(handle: CallHandle): () => void {
    this.calls.add(handle);
    if (this.stopped) handle.cancel('stopped by the user');
    return () => this.calls.delete(handle);
  }
}

/** The plan as markdown: what any view of the conversation (and a later model) reads. */
export function checklist(plan: PlanView): string {
  const lines = plan.tasks.map(
    (t) => `- ${MARK[t.status]} ${t.description}${SAID[t.status] ?? ''}${t.note ? `: ${t.note}` : ''}`,
  );
  const done = plan.tasks.filter((t) => t.status === 'done').length;
  const head = plan.explanation ? `${plan.explanation}\n\n` : '';
  return `${head}${lines.join('\n')}\n\n${done} of ${plan.tasks.length} task${plan.tasks.length === 1 ? '' : 's'} done.`;
}
