/**
 * No pending-entry leaks: 10,000 calls of each kind through real plugin processes, then every
 * protocol map (JSON-RPC pending requests, G-Assist turns, planner streams, the MCP SDK's
 * handlers), every running-call entry and every queue is empty. Timeouts, crashes and cancels,
 * which each cost a process restart, run a few dozen times each.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CallOutcome } from '../../src/main/host/dialects/types';
import type { PluginSupervisor } from '../../src/main/host/supervisor/supervisor';
import { RecordingHost } from '../helpers/calls';
import { cleanupFixtures, FIXTURES, fixturePlugin } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';

const N = 10_000;
const host = new RecordingHost();
afterAll(async () => {
  await host.shutdown();
  host.dispose();
  expect(await leftovers()).toEqual([]);
  cleanupFixtures();
});

async function many(_sup: PluginSupervisor, n: number, make: (i: number) => Promise<CallOutcome>): Promise<CallOutcome[]> {
  const out: CallOutcome[] = [];
  for (let i = 0; i < n; i++) out.push(await make(i));
  return out;
}

const okCount = (xs: CallOutcome[]) => xs.filter((o) => o.ok).length;
const codes = (xs: CallOutcome[]) => new Set(xs.map((o) => (o.ok ? 'ok' : o.code)));

describe(`no pending-entry leaks after ${N} calls of every kind`, { timeout: 120_000 }, () => {
  it('G-Assist: executes completed by notification, unknown functions in both forms, plugin errors, passthrough turns', async () => {
    const node = await host.addDir(fixturePlugin({ script: 'gassist', id: 'leak-ga-node' }));
    const py = await host.addDir(fixturePlugin({ script: 'gassist', id: 'leak-ga-resp', env: { GASSIST_UNKNOWN: 'response' } }));
    expect(okCount(await many(node, N, (i) => node.call('echo', { text: String(i) }).done))).toBe(N);
    expect(codes(await many(node, N, () => node.call('nope', {}).done))).toEqual(new Set(['plugin_error']));
    expect(codes(await many(py, N, () => py.call('nope', {}).done))).toEqual(new Set(['plugin_error']));
    expect(codes(await many(node, N, () => node.call('fail', {}).done))).toEqual(new Set(['plugin_error']));
    await node.call('start_conversation', {}).done;
    expect(okCount(await many(node, N, (i) => node.input(`turn ${i}`).done))).toBe(N);
    node.endPassthrough();
    expect(node.pendingCount).toBe(0);
    expect(py.pendingCount).toBe(0);
  });

  it('JSON-RPC: results, results carrying {error}, error responses and planner streams', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'jsonrpc', id: 'leak-jr' }));
    const planner = await host.addDir(path.join(FIXTURES, 'planner-executor'));
    expect(okCount(await many(sup, N, (i) => sup.call('echo', { i }).done))).toBe(N);
    expect(codes(await many(sup, N, () => sup.call('result_error', {}).done))).toEqual(new Set(['plugin_error']));
    expect(codes(await many(sup, N, () => sup.call('missing_method', {}).done))).toEqual(new Set(['plugin_error']));
    expect(okCount(await many(planner, N, () => planner.call('execute_task', { prompt: 'p', chunks: 2 }).done))).toBe(N);
    expect(sup.pendingCount).toBe(0);
    expect(planner.pendingCount).toBe(0);
  });

  it('MCP: tool calls with progress and tool errors', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'mcp-echo'));
    expect(okCount(await many(sup, N, (i) => sup.call('echo', { text: String(i) }).done))).toBe(N);
    expect(codes(await many(sup, 1000, () => sup.call('fail', {}).done))).toEqual(new Set(['plugin_error']));
    expect(okCount(await many(sup, 1000, () => sup.call('progress', { steps: 3 }).done))).toBe(1000);
    expect(sup.pendingCount).toBe(0);
  });

  it('timeouts, crashes and cancels, each of which restarts the plugin', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', id: 'leak-ga-bad', manifest: { timeouts: { restartDelaysMs: [0, 0, 0, 0] } } }));
    const rounds = 30;
    for (let i = 0; i < rounds; i++) {
      expect((await sup.call('hang', {}, { inactivityMs: 20 }).done).ok).toBe(false);
      expect((await sup.call('crash_mid_stream', { after: 1 }).done).ok).toBe(false);
      const h = sup.call('hang', {});
      setTimeout(() => h.cancel(), 5);
      expect((await h.done).ok).toBe(false);
      // Each round needs a start (the budget resets on user start).
      await sup.start();
    }
    expect(sup.pendingCount).toBe(0);
  });
});
