/**
 * No pending-entry leaks: 10,000 calls of each kind through real plugin processes, then every
 * protocol map (JSON-RPC pending requests, G-Assist turns, planner streams, the MCP SDK's
 * handlers), every running-call entry and every queue is empty. Timeouts, crashes and cancels,
 * which each cost a process restart, run a few dozen times each.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIALECT_FACTORIES } from '../../src/main/host/dialects';
import type { CallOutcome, DialectFactory, DialectSession } from '../../src/main/host/dialects/types';
import { planLaunch } from '../../src/main/host/process/launch';
import { PluginSupervisor } from '../../src/main/host/supervisor/supervisor';
import { RecordingHost, settledPending, specOf } from '../helpers/calls';
import { cleanupFixtures, FIXTURES, fixturePlugin } from '../helpers/plugins';
import { leftovers, TEST_RUN_MARK } from '../helpers/processes';

const N = 10_000;
const host = new RecordingHost();
afterAll(async () => {
  await host.shutdown();
  host.dispose();
  expect(await leftovers()).toEqual([]);
  cleanupFixtures();
});

async function many(
  _sup: PluginSupervisor,
  n: number,
  make: (i: number) => Promise<CallOutcome>,
): Promise<CallOutcome[]> {
  const out: CallOutcome[] = [];
  for (let i = 0; i < n; i++) out.push(await make(i));
  return out;
}

const okCount = (xs: CallOutcome[]) => xs.filter((o) => o.ok).length;
const codes = (xs: CallOutcome[]) => new Set(xs.map((o) => (o.ok ? 'ok' : o.code)));
const codeOf = (o: CallOutcome): string => (o.ok ? 'ok' : `${o.code}: ${o.message}`);

interface Tracked {
  session: DialectSession;
  disposed: boolean;
}

/**
 * The real dialect, keeping every session it creates (one per plugin process) and whether it was
 * disposed, so a leak check can look at the sessions of processes that are gone, not only at the
 * running one.
 */
function trackingDialect(real: DialectFactory): { dialect: DialectFactory; sessions: Tracked[] } {
  const sessions: Tracked[] = [];
  const dialect: DialectFactory = {
    maxConcurrentCalls: real.maxConcurrentCalls,
    create(ctx) {
      const session = real.create(ctx);
      const tracked: Tracked = { session, disposed: false };
      const dispose = session.dispose.bind(session);
      session.dispose = () => {
        tracked.disposed = true;
        dispose();
      };
      sessions.push(tracked);
      return session;
    },
  };
  return { dialect, sessions };
}

async function until(what: string, cond: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe(`no pending-entry leaks after ${N} calls of every kind`, { timeout: 120_000 }, () => {
  it('G-Assist: executes completed by notification, unknown functions in both forms, plugin errors, passthrough turns', async () => {
    const node = await host.addDir(fixturePlugin({ script: 'gassist', id: 'leak-ga-node' }));
    const py = await host.addDir(
      fixturePlugin({ script: 'gassist', id: 'leak-ga-resp', env: { GASSIST_UNKNOWN: 'response' } }),
    );
    expect(okCount(await many(node, N, (i) => node.call('echo', { text: String(i) }).done))).toBe(N);
    // A function the manifest does not declare is refused before the plugin sees it (issue 17).
    expect(codes(await many(node, N, () => node.call('nope', {}).done))).toEqual(new Set(['unknown_tool']));
    expect(codes(await many(py, N, () => py.call('nope', {}).done))).toEqual(new Set(['unknown_tool']));
    expect(codes(await many(node, N, () => node.call('fail', {}).done))).toEqual(new Set(['plugin_error']));
    await node.call('start_conversation', {}).done;
    expect(okCount(await many(node, N, (i) => node.input(`turn ${i}`).done))).toBe(N);
    node.endPassthrough();
    expect(await settledPending(node)).toBe(0);
    expect(await settledPending(py)).toBe(0);
  });

  it('JSON-RPC: results, results carrying {error}, error responses and planner streams', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'jsonrpc', id: 'leak-jr' }));
    const planner = await host.addDir(path.join(FIXTURES, 'planner-executor'));
    expect(okCount(await many(sup, N, (i) => sup.call('echo', { i }).done))).toBe(N);
    expect(codes(await many(sup, N, () => sup.call('result_error', {}).done))).toEqual(new Set(['plugin_error']));
    expect(codes(await many(sup, N, () => sup.call('missing_method', {}).done))).toEqual(new Set(['plugin_error']));
    expect(okCount(await many(planner, N, () => planner.call('execute_task', { prompt: 'p', chunks: 2 }).done))).toBe(
      N,
    );
    expect(await settledPending(sup)).toBe(0);
    expect(await settledPending(planner)).toBe(0);
  });

  it('MCP: tool calls with progress and tool errors', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mcp-echo'));
    expect(okCount(await many(sup, N, (i) => sup.call('echo', { text: String(i) }).done))).toBe(N);
    expect(codes(await many(sup, 1000, () => sup.call('fail', {}).done))).toEqual(new Set(['plugin_error']));
    expect(okCount(await many(sup, 1000, () => sup.call('progress', { steps: 3 }).done))).toBe(1000);
    expect(await settledPending(sup)).toBe(0);
  });

  it('timeouts, crashes and cancels, each of which restarts the plugin', async () => {
    // Built here rather than through the host, to see every protocol session of every process.
    const spec = specOf(
      fixturePlugin({
        script: 'gassist',
        id: 'leak-ga-bad',
        manifest: { timeouts: { restartDelaysMs: [0, 0, 0, 0] } },
      }),
    );
    const { dialect, sessions } = trackingDialect(DIALECT_FACTORIES[spec.dialect]);
    const [markName, markValue] = TEST_RUN_MARK.split('=') as [string, string];
    const sup = new PluginSupervisor({
      spec,
      dialect,
      binding: {
        allowedCapabilities: spec.capabilities,
        plan: planLaunch({ spec, parentEnv: process.env, hostEnv: { [markName]: markValue } }),
      },
    });
    const rounds = 30;
    try {
      expect((await sup.start()).ok).toBe(true);
      for (let i = 0; i < rounds; i++) {
        expect(codeOf(await sup.call('hang', {}, { inactivityMs: 20 }).done)).toMatch(/^timeout: /);
        expect(codeOf(await sup.call('crash_mid_stream', { after: 1 }).done)).toMatch(/^crashed: /);
        // Cancelled while the plugin is stuck in the call: it cannot stop that work, so it is restarted.
        const h = sup.call('hang', {});
        await until('the hang running', () => sup.health.state === 'busy');
        h.cancel('stop it');
        expect(codeOf(await h.done)).toBe('cancelled: stop it');
        // Each round needs a start (the budget resets on user start).
        expect((await sup.start()).ok).toBe(true);
      }
      expect(await settledPending(sup)).toBe(0);
      // A process per timeout, crash and cancel, plus the first: each had a session of its own.
      expect(sessions.length).toBeGreaterThanOrEqual(1 + 3 * rounds);
      // Every session but the running plugin's is disposed once its process's stop has run…
      await until('sessions of stopped processes disposed', () => sessions.filter((t) => !t.disposed).length === 1);
      // …and none, disposed or running, holds an entry (the running one's idle ping is allowed to land).
      await until('no session holding an entry', () => sessions.every((t) => t.session.pendingCount === 0), 5000).catch(
        () => undefined,
      );
      expect(sessions.map((t) => t.session.pendingCount)).toEqual(sessions.map(() => 0));
    } finally {
      await sup.shutdown();
      sup.dispose();
    }
  });
});
