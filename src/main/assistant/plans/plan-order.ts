/**
 * A planner's answer to `create_plan`, read and put in order: the tasks it lists, each after the
 * tasks it depends on (a stable topological order: among tasks that are ready, the planner's
 * priority, then its order). A plan that names a dependency it does not list, or whose tasks
 * depend on each other in a circle, is refused with the tasks named.
 */
import { z } from 'zod';
import type { PlanTask } from '../../../shared/assistant';
import { failure, type Outcome } from '../../../shared/failures';

const TaskSchema = z.object({
  id: z.union([z.string().min(1), z.number()]).transform(String),
  description: z.string().min(1),
  type: z.string().optional(),
  dependencies: z
    .array(z.union([z.string(), z.number()]).transform(String))
    .optional()
    .default([]),
  priority: z.number().optional(),
});

const PlanAnswer = z.object({
  plan: z.object({
    tasks: z.array(TaskSchema).min(1).max(50),
    explanation: z.string().optional(),
  }),
});

export function readPlan(result: unknown): Outcome<{ tasks: PlanTask[]; explanation?: string }> {
  const parsed = PlanAnswer.safeParse(result);
  if (!parsed.success) {
    const where = parsed.error.issues[0];
    return failure(
      'malformed_response',
      `the planner's plan could not be read: ${where ? `${where.path.join('.') || 'result'}: ${where.message}` : 'not a plan'}`,
      { data: result },
    );
  }
  const { tasks, explanation } = parsed.data.plan;
  const ids = new Set<string>();
  for (const t of tasks) {
    if (ids.has(t.id)) return failure('malformed_response', `the planner's plan lists task ${t.id} twice`);
    ids.add(t.id);
  }
  for (const t of tasks) {
    const missing = t.dependencies.filter((d) => !ids.has(d));
    if (missing.length)
      return failure(
        'malformed_response',
        `task ${t.id} depends on ${missing.join(', ')}, which the plan does not list`,
      );
  }
  const ordered = order(tasks);
  if (!ordered.ok) return ordered;
  const out = ordered.tasks.map((t): PlanTask => ({
    id: t.id,
    description: t.description,
    ...(t.type ? { type: t.type } : {}),
    dependencies: t.dependencies,
    status: 'pending',
  }));
  return { ok: true, tasks: out, ...(explanation ? { explanation } : {}) };
}

type Task = z.infer<typeof TaskSchema>;

function order(tasks: Task[]): Outcome<{ tasks: Task[] }> {
  const done = new Set<string>();
  const out: Task[] = [];
  const left = tasks.map((t, i) => ({ t, i }));
  while (left.length > 0) {
    const ready = left.filter(({ t }) => t.dependencies.every((d) => done.has(d)));
    if (ready.length === 0)
      return failure(
        'malformed_response',
        `the plan's tasks depend on each other in a circle: ${left.map(({ t }) => t.id).join(', ')}`,
      );
    ready.sort((a, b) => (a.t.priority ?? Infinity) - (b.t.priority ?? Infinity) || a.i - b.i);
    const next = ready[0] as { t: Task; i: number };
    out.push(next.t);
    done.add(next.t.id);
    left.splice(left.indexOf(next), 1);
  }
  return { ok: true, tasks: out };
}
