/**
 * MCP tools that run only as tasks (`execution.taskSupport: "required"`): called as tasks, their
 * status messages streamed, failures and cancellation carried through (tasks/cancel reaches the
 * server), and hidden with a reason when the server does not announce task support.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, expectFailure, specOf } from '../helpers/calls';
import { useTestHost } from '../helpers/host';
import { FIXTURES, tmpDir } from '../helpers/plugins';

const host = useTestHost();
const DIR = path.join(FIXTURES, 'mcp-tasks');

describe('MCP tools that run as tasks', () => {
  it('runs a task-only tool: streams its status messages and returns its result', async () => {
    const sup = await host.addDir(DIR);
    const r = await collect(sup, 'research', { topic: 'tides' });
    expect(r.outcome).toEqual({ ok: true, value: expect.objectContaining({ data: 'a report on tides' }) });
    // Each new status message once, in order (a poll may miss one on a busy machine, never reorder).
    const stages = (r.chunks as string[]).map((c) => Number(/\((\d+)\)\n$/.exec(c)?.[1]));
    expect(stages).toEqual([...stages].sort((a, b) => a - b));
    expect(new Set(stages).size).toBe(stages.length);
    expect(r.chunks.at(-1)).toBe('writing the report (3)\n');
    // Plain tools of the same server still run as plain calls.
    expect((await collect(sup, 'echo', { text: 'plain' })).outcome).toEqual({
      ok: true,
      value: expect.objectContaining({ data: 'plain' }),
    });
  });

  it('fails with the task’s own status message', async () => {
    const sup = await host.addDir(DIR);
    const f = expectFailure((await collect(sup, 'research', { topic: 'fail' })).outcome);
    expect([f.code, f.message]).toEqual(['plugin_error', 'the task failed: the sources were unreachable']);
  });

  it('cancels the task on the server when the call is cancelled', async () => {
    const file = path.join(tmpDir('tasks-cancel'), 'cancelled.log');
    const spec = { ...specOf(DIR), env: { CANCEL_FILE: file } };
    const sup = await host.addSpec(spec);
    const handle = sup.call(
      'research',
      { topic: 'forever' },
      {
        onEvent: (e) => {
          if (e.type === 'stream') handle.cancel('enough');
        },
      },
    );
    const f = expectFailure(await handle.done);
    expect(f.code).toBe('cancelled');
    // The server writes the line once it sees tasks/cancel; wait for the whole line.
    const written = (): string => (existsSync(file) ? readFileSync(file, 'utf8') : '');
    const until = Date.now() + 5000;
    while (!written().endsWith('\n') && Date.now() < until) await new Promise((res) => setTimeout(res, 20));
    expect(written()).toMatch(/^cancelled \S+\n$/);
  });

  it('does not offer a task-only tool of a server without task support, and says why', async () => {
    const sup = await host.addSpec({ ...specOf(DIR), id: 'mcp-no-tasks', env: { NO_TASKS: '1' } });
    await sup.start();
    expect(sup.tools.map((t) => t.name)).toEqual(['echo']);
    expect(host.logs.map((l) => l.message)).toContainEqual(
      'tool research is not offered: it can only run as an MCP task, and the server does not announce task support for tools/call (capabilities.tasks.requests.tools.call)',
    );
  });
});
