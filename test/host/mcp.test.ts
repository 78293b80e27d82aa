import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect, expectFailure, settledPending } from '../helpers/calls';
import { useTestHost } from '../helpers/host';
import { FIXTURES } from '../helpers/plugins';

const host = useTestHost();

describe('MCP dialect (official SDK client over the supervised process)', () => {
  it('lists tools with their schemas and calls one', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mcp-echo'));
    expect((await collect(sup, 'echo', { text: 'hi' })).outcome).toEqual({
      ok: true,
      value: { success: true, data: 'hi', keepSession: false },
    });
    const echo = sup.tools.find((t) => t.name === 'echo');
    expect(echo?.parameters).toEqual(expect.objectContaining({ type: 'object', required: ['text'] }));
    expect(sup.tools.map((t) => t.name).sort()).toEqual(['echo', 'fail', 'progress', 'slow']);
  });

  it('turns every progress notification into a stream chunk, in order, none dropped', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mcp-echo'));
    const r = await collect(sup, 'progress', { steps: 200 });
    // Each report its own line, so the text reads step 1, step 2… one under the other.
    expect(r.chunks).toEqual(Array.from({ length: 200 }, (_, i) => `step ${i + 1}\n`));
    expect(r.outcome).toEqual({ ok: true, value: expect.objectContaining({ data: 'did 200 steps' }) });
    expect(await settledPending(sup)).toBe(0);
  });

  it('reports a result with isError as plugin_error', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mcp-echo'));
    const f = expectFailure((await collect(sup, 'fail', {})).outcome);
    expect(f).toEqual(expect.objectContaining({ code: 'plugin_error', message: 'the tool could not do it' }));
  });

  it('validates arguments against the announced schema before calling', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mcp-echo'));
    await sup.start();
    const f = expectFailure((await collect(sup, 'echo', { text: 42 })).outcome);
    expect(f).toEqual(
      expect.objectContaining({
        code: 'invalid_arguments',
        message: 'arguments for echo do not match its schema: arguments.text must be string',
      }),
    );
  });

  it('cancels a running call at once and the server keeps serving', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mcp-echo'));
    await sup.start();
    const pid = sup.health.pid;
    // The tool would run for ten minutes. Ended as `cancelled` with the user's reason, the call was
    // ended by the cancel: a deadline would have made it `timeout`.
    const h = sup.call('slow', { ms: 600_000 });
    setTimeout(() => h.cancel('user pressed Stop'), 100);
    const f = expectFailure(await h.done);
    expect(f.code).toBe('cancelled');
    expect(f.message).toBe('user pressed Stop');
    expect((await collect(sup, 'echo', { text: 'still here' })).outcome.ok).toBe(true);
    expect(sup.health.pid).toBe(pid);
  });

  it('runs an MCPB bundle with user_config substituted into args and env', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mcpb-echo'), {
      settings: { greeting: 'Ahoy', token: 'secret' },
    });
    expect((await collect(sup, 'greet', { name: 'Ada' })).outcome).toEqual({
      ok: true,
      value: expect.objectContaining({ data: 'Ahoy, Ada!' }),
    });
    const who = await collect(sup, 'whoami', {});
    expect(who.outcome.ok && who.outcome.value.data).toEqual(
      expect.objectContaining({ greeting: 'Ahoy', hasToken: true, cwd: path.join(FIXTURES, 'mcpb-echo') }),
    );
  });
});
