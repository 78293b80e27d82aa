/** Reading a planner's plan: tasks in dependency order, and plans that cannot run refused by name. */
import { describe, expect, it } from 'vitest';
import { readPlan } from '../../src/main/assistant/plans/plan-order';

const plan = (tasks: unknown[], explanation?: string) => ({ plan: { tasks, ...(explanation ? { explanation } : {}) } });
const task = (id: string | number, dependencies: Array<string | number> = [], priority?: number) => ({
  id,
  description: `do ${id}`,
  dependencies,
  ...(priority === undefined ? {} : { priority }),
});

describe('readPlan', () => {
  it('puts each task after the tasks it depends on; among ready ones, priority, then the planner’s order', () => {
    const r = readPlan(plan([task('c', ['a', 'b']), task('b', ['a']), task('a'), task('d', [], 0)], 'why'));
    expect(r.ok && r.tasks.map((t) => t.id)).toEqual(['d', 'a', 'b', 'c']);
    expect(r.ok && r.explanation).toBe('why');
    expect(r.ok && r.tasks.every((t) => t.status === 'pending')).toBe(true);
  });

  it('takes numeric ids, as JSON planners write them', () => {
    const r = readPlan(plan([task(2, [1]), task(1)]));
    expect(r.ok && r.tasks.map((t) => [t.id, t.dependencies])).toEqual([
      ['1', []],
      ['2', ['1']],
    ]);
  });

  it.each([
    ['no plan at all', { tasks: [] }, /plan: Invalid input|plan.*expected object/],
    ['an empty task list', plan([]), /plan\.tasks: Too small/],
    ['a task without a description', plan([{ id: 'a' }]), /plan\.tasks\.0\.description/],
    ['a task listed twice', plan([task('a'), task('a')]), /lists task a twice/],
    ['a dependency it does not list', plan([task('a', ['z'])]), /task a depends on z, which the plan does not list/],
    [
      'tasks in a circle',
      plan([task('a', ['b']), task('b', ['a']), task('c')]),
      /depend on each other in a circle: a, b/,
    ],
  ])('refuses %s, saying what is wrong', (_what, answer, says) => {
    const r = readPlan(answer);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.code).toBe('malformed_response');
    expect(!r.ok && r.message).toMatch(says);
  });
});
