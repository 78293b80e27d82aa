/**
 * Plan turns by conversation: which plugins plan and execute (the first usable plugin that
 * answers `create_plan`, and the one whose exposed `execute_task` a model could call, the
 * planner's own first), starting a plan, and stopping it.
 */
import { failure, type Outcome } from '../../../shared/failures';
import type { PluginRegistry } from '../../plugins';
import { offeredTools } from '../loop/offered';
import { usable } from '../tools';
import { PlanRun, type PlanOptions } from './plan-run';

type Context = Omit<PlanOptions, 'request' | 'planner' | 'executor' | 'listeners'>;

export class Plans {
  private readonly running = new Map<string, { turnId: string; run: PlanRun }>();

  constructor(
    private readonly registry: PluginRegistry,
    private readonly turnRunning: (conversationId: string, turnId: string, running: boolean) => void,
  ) {}

  isBusy(conversationId: string): boolean {
    return this.running.has(conversationId);
  }

  /** The plugins a plan would use now, or why there are none. */
  choose(): Outcome<Pick<PlanOptions, 'planner' | 'executor' | 'listeners'>> {
    const planner = usable(this.registry).find((id) =>
      this.registry.tools(id).some((t) => t.name === 'create_plan' && t.exposed),
    );
    if (!planner)
      return failure(
        'not_found',
        'no plugin makes plans: install one that answers create_plan (examples/planner), or switch its create_plan on',
      );
    const executors = offeredTools(this.registry).filter((t) => t.tool === 'execute_task');
    const executor = executors.find((t) => t.plugin === planner) ?? executors[0];
    if (!executor)
      return failure(
        'not_found',
        'no plugin runs tasks: install one that answers execute_task, or switch its execute_task on',
      );
    const listeners = usable(this.registry).filter((id) =>
      this.registry.tools(id).some((t) => t.name === 'update_context'),
    );
    return { ok: true, planner, executor, listeners };
  }

  /** Starts a plan for `request` with the plugins chosen; `ctx` is the call context of a new turn. */
  start(request: string, chosen: Pick<PlanOptions, 'planner' | 'executor' | 'listeners'>, ctx: Context): Promise<void> {
    const run = new PlanRun({ ...ctx, ...chosen, request });
    this.running.set(ctx.conversationId, { turnId: ctx.turnId, run });
    this.turnRunning(ctx.conversationId, ctx.turnId, true);
    return run.run().finally(() => {
      this.running.delete(ctx.conversationId);
      this.turnRunning(ctx.conversationId, ctx.turnId, false);
    });
  }

  stop(turnId: string, reason: string): boolean {
    for (const r of this.running.values()) {
      if (r.turnId !== turnId) continue;
      r.run.stop(reason);
      return true;
    }
    return false;
  }

  stopConversation(conversationId: string, reason: string): void {
    this.running.get(conversationId)?.run.stop(reason);
  }

  stopAll(reason: string): void {
    for (const r of this.running.values()) r.run.stop(reason);
  }
}
