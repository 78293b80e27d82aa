import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NEVER_CANCELLED } from '../../src/shared/cancel';
import { DIALECT_FACTORIES } from '../../src/main/host/dialects';
import type { JsonRpcSession } from '../../src/main/host/dialects/jsonrpc';
import { planLaunch } from '../../src/main/host/process/launch';
import { Instance } from '../../src/main/host/supervisor/instance';
import { collect, expectFailure, specOf } from '../helpers/calls';
import { useTestHost } from '../helpers/host';
import { FIXTURES, fixturePlugin } from '../helpers/plugins';

const host = useTestHost();

describe('JSON-RPC dialect: Mehrhof', () => {
  it('runs a Python provider from plugin.yaml: init first, tools by wire method, env defaults passed', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mehrhof-provider'));
    const fetched = await collect(sup, 'provider.fetch', { id: 'PROJ-1' });
    expect(fetched.outcome).toEqual({
      ok: true,
      value: {
        success: true,
        data: { id: 'PROJ-1', title: 'Task PROJ-1', status: 'open', provider: 'fixture-provider' },
        keepSession: false,
      },
    });
    expect((await collect(sup, 'provider.match', { input: 'fx:1' })).outcome).toEqual({
      ok: true,
      value: expect.objectContaining({ data: { matches: true } }),
    });
  });

  it('treats a result that carries {error} as a failure', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mehrhof-provider'));
    const f = expectFailure((await collect(sup, 'provider.parse', { input: 'nope' })).outcome);
    expect(f.code).toBe('plugin_error');
    expect(f.message).toBe('Invalid format');
  });

  it('keeps every agent.run stream event in order and ends only with the response', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mehrhof-agent'));
    const r = await collect(sup, 'agent.run', { prompt: 'one two three', delay_ms: 100 });
    expect(r.chunks).toEqual([
      { type: 'text', data: 'one ' },
      { type: 'text', data: 'two ' },
      { type: 'text', data: 'three ' },
      { type: 'file', data: { path: 'out.txt', content: 'x' } },
      { type: 'complete', data: null },
    ]);
    // The `complete` stream event did not end the call: the response the plugin sent after it
    // (100 ms later) did, and its result is the call's result.
    expect(r.outcome).toEqual({
      ok: true,
      value: { success: true, data: { status: 'complete', tokens_used: 3 }, keepSession: false },
    });
    expect(r.events.map((e) => e.type)).toEqual(['stream', 'stream', 'stream', 'stream', 'stream', 'complete']);
    expect(r.events.at(-1)).toEqual(
      expect.objectContaining({ type: 'complete', data: { status: 'complete', tokens_used: 3 } }),
    );
  });

  it('reads error codes in the plugin’s own dialect (Mehrhof -32003 = authentication error)', async () => {
    const sup = await host.addDir(
      fixturePlugin({
        script: 'jsonrpc',
        mode: 'init-error',
        manifest: { init: { method: 'provider.init' }, rpc_flavor: 'mehrhof' },
      }),
    );
    const f = expectFailure((await collect(sup, 'echo', {})).outcome);
    expect(f.code).toBe('handshake_failed');
    expect(f.message).toMatch(
      /provider\.init failed: Authentication error: API key not set \[-32003 authentication error\]/,
    );
  });

  it('counts a ping answered with an error, or with an error inside its result, as alive', async () => {
    for (const mode of ['ping-error', 'ping-in-result']) {
      const dir = fixturePlugin({
        script: 'jsonrpc',
        mode,
        id: `jr-${mode}`,
        manifest: { timeouts: { pingIntervalMs: 100 } },
      });
      const sup = await host.addDir(dir);
      // A plugin with no init call counts as up once its process runs, before Node has read its
      // script: pings would go unanswered until it has. One answered call first, then the pings.
      expect((await collect(sup, 'echo', { text: 'up' })).outcome.ok).toBe(true);
      // An answered ping shows as a round trip; the plugin is still there, never restarted.
      await expect.poll(() => sup.health.pingRttMs, { timeout: 10_000 }).not.toBeNull();
      expect(sup.health.state).toBe('ready');
      expect(sup.health.restarts).toBe(0);
    }
  });

  it('notes once that a plugin never answers ping, and does not kill it', async () => {
    const dir = fixturePlugin({
      script: 'jsonrpc',
      mode: 'ping-silent',
      manifest: { timeouts: { pingIntervalMs: 100, pingTimeoutMs: 100 } },
    });
    const sup = await host.addDir(dir);
    await sup.start();
    const noted = () => host.logs.filter((l) => l.pluginId === sup.spec.id && /does not answer ping/.test(l.message));
    await expect.poll(() => noted().length, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(sup.health.state).toBe('ready');
    expect(noted()).toHaveLength(1);
    expect((await collect(sup, 'echo', { a: 1 })).outcome.ok).toBe(true);
  });

  it('speaks length-prefixed framing when the manifest says so', async () => {
    const dir = fixturePlugin({
      script: 'jsonrpc',
      env: { FRAMING: 'length-prefixed' },
      manifest: { framing: 'length-prefixed' },
    });
    const sup = await host.addDir(dir);
    expect((await collect(sup, 'echo', { hello: 'world' })).outcome).toEqual({
      ok: true,
      value: expect.objectContaining({ data: { hello: 'world' } }),
    });
  });
});

describe('JSON-RPC dialect: planner/executor', () => {
  it('delivers sequenced stream chunks in order', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'planner-executor'));
    const r = await collect(sup, 'execute_task', { prompt: 'p', chunks: 5 });
    expect(r.chunks).toEqual(['part 1 ', 'part 2 ', 'part 3 ', 'part 4 ', 'part 5 ']);
    expect(r.outcome.ok).toBe(true);
  });

  it('fails a stream with a gap with malformed_response naming the missing chunk, keeping the chunks before it', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'planner-executor'));
    const r = await collect(sup, 'execute_task', { prompt: 'p', chunks: 4, skip_sequence: 2 });
    const f = expectFailure(r.outcome);
    expect(f.code).toBe('malformed_response');
    expect(f.message).toMatch(/chunk 2 is missing \(chunk 3 arrived after 1\)/);
    expect(r.chunks).toEqual(['part 1 ']);
    // The plugin is still healthy for the next call.
    expect((await collect(sup, 'validate_code', { code: 'let a' })).outcome.ok).toBe(true);
  });

  it('maps planner error data (TIMEOUT) and its own -32000 meaning', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'planner-executor'));
    const f = expectFailure((await collect(sup, 'plan_fail', {})).outcome);
    expect(f.code).toBe('plugin_error');
    expect(f.message).toBe('TIMEOUT: Execution failed (model took too long) [-32000 execution timeout]');
  });

  it('sends batches as one array and reads each answer', async () => {
    const spec = specOf(path.join(FIXTURES, 'planner-executor'));
    const plan = planLaunch({ spec });
    if (!plan.ok) throw new Error(plan.message);
    const noop = () => {};
    const inst = await Instance.launch({
      spec,
      plan,
      dialect: DIALECT_FACTORIES.jsonrpc,
      allowedCapabilities: [],
      hooks: { diagnostic: noop, pluginLog: noop, stderr: noop, toolsChanged: noop },
    });
    if (!(inst instanceof Instance)) throw new Error(inst.message);
    const session = inst.session as JsonRpcSession;
    const out = await session.callBatch(
      [
        { tool: 'validate_code', args: { code: 'var x' } },
        { tool: 'no_such_method', args: {} },
        { tool: 'validate_code', args: { code: 'const x' } },
      ],
      NEVER_CANCELLED,
    );
    expect(out[0]).toEqual({ ok: true, value: expect.objectContaining({ data: { valid: false, issues: [] } }) });
    expect(out[1]).toEqual(expect.objectContaining({ ok: false, code: 'plugin_error' }));
    expect(out[2]).toEqual({ ok: true, value: expect.objectContaining({ data: { valid: true, issues: [] } }) });
    expect(session.pendingCount).toBe(0);
    await inst.stop();
    inst.dispose();
  });
});

describe('JSON-RPC dialect: Mehrhof workflow', () => {
  it('initializes with workflow.init and answers guards and effects (a blocked guard is an answer, not a failure)', async () => {
    const dir = fixturePlugin({ script: 'jsonrpc', id: 'wf' });
    writeFileSync(
      path.join(dir, 'plugin.yaml'),
      'version: "1"\nname: wf\ntype: workflow\nexecutable:\n  command: ["node", "./plugin.mjs"]\n',
    );
    rmSync(path.join(dir, 'plugboard.json'));
    const sup = await host.addDir(dir);
    expect(sup.spec.init?.method).toBe('workflow.init');
    const blocked = await collect(sup, 'workflow.evaluateGuard', {
      guard: 'requiresApproval',
      context: { labels: ['critical'] },
    });
    expect(blocked.outcome).toEqual({
      ok: true,
      value: expect.objectContaining({ data: { allowed: false, reason: 'Critical tasks need approval' } }),
    });
    const effect = await collect(sup, 'workflow.executeEffect', { effect: 'notify' });
    expect(effect.outcome).toEqual({
      ok: true,
      value: expect.objectContaining({ data: { success: true, message: 'Notification sent' } }),
    });
  });
});

describe('JSON-RPC dialect: requests within a running call (an agent’s tool results)', () => {
  const TIMEOUTS = { callInactivityMs: 300, callHardCapMs: 60_000 };

  it('sends a request while the call runs, outside the call slots, and hands back its answer', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mehrhof-tool-agent'));
    const run = sup.call('agent.run', { prompt: 'hang' });
    // The plugin takes one call at a time: a second call would queue behind `stall`. Until the
    // call runs (the plugin launching), a request has nothing to belong to and is refused.
    let answer: unknown;
    await expect
      .poll(async () => (answer = await run.request!('agent.tool_result', { tool_id: 'call_9', result: 'r' })).ok, {
        timeout: 20_000,
      })
      .toBe(true);
    // The agent answered it (it waits on no call_9, and says so).
    expect(answer).toEqual({ ok: true, value: { acknowledged: false } });
    run.cancel('done');
    expect(expectFailure(await run.done).code).toBe('cancelled');
    // Once the call has ended, there is nothing for a request to belong to.
    const late = await run.request!('agent.tool_result', { tool_id: 'call_9', result: 'r' });
    expect(late).toEqual(
      expect.objectContaining({ ok: false, code: 'invalid_state', message: expect.stringMatching(/not running/) }),
    );
  });

  it('a held call’s deadlines stand still: it outlives an unheld one started with it, and times out once released', async () => {
    const held = await host.addDir(
      fixturePlugin({ script: 'jsonrpc', id: 'jr-held', manifest: { timeouts: TIMEOUTS } }),
    );
    const free = await host.addDir(
      fixturePlugin({ script: 'jsonrpc', id: 'jr-free', manifest: { timeouts: TIMEOUTS } }),
    );
    const a = held.call('stall', {});
    a.hold?.(true);
    const b = free.call('stall', {});
    expect(expectFailure(await b.done).code).toBe('timeout');
    // The unheld call timed out, so its deadline passed for both: the held one still runs.
    let aDone = false;
    void a.done.then(() => (aDone = true));
    await free.call('echo', {}).done;
    expect(aDone).toBe(false);
    a.hold?.(false);
    const f = expectFailure(await a.done);
    expect(f.code).toBe('timeout');
    expect(f.message).toMatch(/no answer or stream chunk from the plugin for 300 ms/);
  });
});
