/**
 * The health a person reads: the reporter publishes each change and refuses the ones that would
 * say something untrue; then real plugins driven through the flows that produce each state, the
 * transitions they went through recorded as they happened.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HealthEvent, HealthState } from '../../src/shared/plugin';
import { HealthReporter } from '../../src/main/host/supervisor/health';
import type { HealthTransition } from '../../src/main/host/supervisor/health-states';
import type { PluginSupervisor } from '../../src/main/host/supervisor/supervisor';
import { collect, expectFailure } from '../helpers/calls';
import { useTestHost } from '../helpers/host';
import { FIXTURES, fixturePlugin } from '../helpers/plugins';

/** A reporter already in `from` (reached along allowed edges from `stopped`). */
function reporterIn(from: HealthState): { reporter: HealthReporter; refused: string[]; events: HealthEvent[] } {
  const refused: string[] = [];
  const reporter = new HealthReporter(
    'p',
    () => null,
    'stopped',
    (a, b) => refused.push(`${a} → ${b}`),
  );
  const path: Record<HealthState, HealthState[]> = {
    stopped: [],
    starting: ['starting'],
    ready: ['starting', 'ready'],
    busy: ['starting', 'busy'],
    crashed: ['starting', 'ready', 'crashed'],
    unresponsive: ['starting', 'ready', 'unresponsive'],
    restarting: ['starting', 'ready', 'crashed', 'restarting'],
    failed: ['starting', 'failed'],
    disabled: ['disabled'],
  };
  for (const s of path[from]) expect(reporter.set(s, `to ${s}`)).toBe(true);
  const events: HealthEvent[] = [];
  reporter.onDidChange((e) => events.push(e));
  return { reporter, refused, events };
}

describe('the health reporter', () => {
  it('publishes a change: its listeners hear the transition and the state, with the reason', () => {
    const { reporter, refused, events } = reporterIn('ready');
    const moved: HealthTransition[] = [];
    reporter.onDidTransition((t) => moved.push(t));
    expect(reporter.set('crashed', 'why')).toBe(true);
    expect(reporter.state).toBe('crashed');
    expect(moved).toEqual([expect.objectContaining({ from: 'ready', to: 'crashed', reason: 'why' })]);
    expect(events.at(-1)).toEqual(expect.objectContaining({ state: 'crashed', reason: 'why' }));
    expect(refused).toEqual([]);
    reporter.dispose();
  });

  // Changes that would tell a person something untrue, written out here rather than read from the
  // code's table: a plugin is never ready without having started, never back from disabled or
  // failed without a person's start, and never restarting without having died.
  it.each([
    ['stopped', 'ready'],
    ['stopped', 'busy'],
    ['disabled', 'ready'],
    ['disabled', 'starting'],
    ['failed', 'ready'],
    ['ready', 'restarting'],
    ['restarting', 'ready'],
  ] as const)('refuses %s → %s, reports it and stays', (from, to) => {
    const { reporter, refused, events } = reporterIn(from);
    expect(reporter.set(to, 'why')).toBe(false);
    expect(reporter.state).toBe(from);
    expect(refused).toEqual([`${from} → ${to}`]);
    expect(events).toEqual([]);
    reporter.dispose();
  });

  it('takes a new reason in the same state as no transition', () => {
    const { reporter, events } = reporterIn('busy');
    const moved: HealthTransition[] = [];
    reporter.onDidTransition((t) => moved.push(t));
    expect(reporter.set('busy', 'running count')).toBe(true);
    expect(moved).toEqual([]);
    expect(events.length).toBeLessThanOrEqual(1);
    reporter.dispose();
  });
});

const host = useTestHost();
const QUICK = { restartDelaysMs: [50, 50], pingIntervalMs: 150, pingTimeoutMs: 150 };

/** Records the transitions of a supervisor as `from>to`, in order. */
function record(sup: PluginSupervisor): string[] {
  const seen: string[] = [];
  sup.onDidTransition((t) => seen.push(`${t.from}>${t.to}`));
  return seen;
}

/** Waits until `seen` holds these transitions in this order (others may come between). */
async function reached(seen: string[], steps: string[]): Promise<void> {
  const inOrder = (): boolean => {
    let i = 0;
    for (const s of seen) if (s === steps[i]) i++;
    return i === steps.length;
  };
  await expect.poll(inOrder, { timeout: 15_000 }).toBe(true);
}

describe('health transitions of real plugins', () => {
  it('a persistent plugin: started, called, killed, restarted, stopped', async () => {
    const sup = await host.addDir(
      fixturePlugin({ script: 'gassist', id: 'hs-persistent', manifest: { timeouts: QUICK } }),
    );
    const seen = record(sup);
    expect((await sup.start()).ok).toBe(true);
    expect((await collect(sup, 'echo', { text: 'x' })).outcome.ok).toBe(true);
    process.kill(sup.health.pid as number, 'SIGKILL');
    await reached(seen, [
      'stopped>starting',
      'starting>ready',
      'ready>busy',
      'busy>ready',
      'ready>crashed',
      'crashed>restarting',
      'restarting>starting',
      'starting>ready',
    ]);
    await sup.stop();
    expect(seen.at(-1)).toBe('ready>stopped');
  });

  it('a plugin that keeps dying: crashed, then failed; a person starts it again', async () => {
    const sup = await host.addDir(
      fixturePlugin({ script: 'gassist', id: 'hs-failing', manifest: { timeouts: QUICK } }),
    );
    const seen = record(sup);
    await sup.start();
    const crashes = (): number => seen.filter((t) => t === 'ready>crashed').length;
    for (let i = 1; i <= 3; i++) {
      await expect.poll(() => sup.health.state, { timeout: 10_000 }).toBe('ready');
      process.kill(sup.health.pid as number, 'SIGKILL');
      await expect.poll(crashes, { timeout: 10_000 }).toBe(i);
    }
    await reached(seen, ['crashed>failed']);
    expect((await sup.start()).ok).toBe(true);
    await reached(seen, ['crashed>failed', 'failed>starting', 'starting>ready']);
  });

  it('frozen while idle: unresponsive, then restarting', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', id: 'hs-frozen', manifest: { timeouts: QUICK } }));
    const seen = record(sup);
    await sup.start();
    process.kill(sup.health.pid as number, 'SIGSTOP');
    await reached(seen, ['ready>unresponsive', 'unresponsive>restarting', 'restarting>starting', 'starting>ready']);
  });

  it('a call past its deadline: busy, then unresponsive', async () => {
    const sup = await host.addDir(
      fixturePlugin({ script: 'gassist', id: 'hs-deadline', manifest: { timeouts: QUICK } }),
    );
    const seen = record(sup);
    await sup.start();
    expect(expectFailure((await collect(sup, 'hang', {}, { inactivityMs: 100 })).outcome).code).toBe('timeout');
    await reached(seen, ['ready>busy', 'busy>unresponsive']);
  });

  it('a call it cannot stop: cancelled, so the plugin is recycled (busy, then restarting)', async () => {
    const sup = await host.addDir(
      fixturePlugin({ script: 'gassist', id: 'hs-recycle', manifest: { timeouts: QUICK } }),
    );
    const seen = record(sup);
    await sup.start();
    const h = sup.call('hang', {});
    await expect.poll(() => sup.health.state).toBe('busy');
    h.cancel('stop it');
    expect(expectFailure(await h.done).code).toBe('cancelled');
    await reached(seen, ['ready>busy', 'busy>restarting', 'restarting>starting', 'starting>ready']);
  });

  it('a one-shot plugin: starting and busy for each call, stopped between; two at once', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'rterm-echo'));
    const seen = record(sup);
    expect((await collect(sup, 'upper', { text: 'a' })).outcome.ok).toBe(true);
    await reached(seen, ['stopped>starting', 'starting>busy', 'busy>stopped']);
    const both = await Promise.all([collect(sup, 'upper', { text: 'b' }), collect(sup, 'upper', { text: 'c' })]);
    expect(both.every((r) => r.outcome.ok)).toBe(true);
    expect(sup.health.state).toBe('stopped');
  });

  it('a plugin that cannot launch: starting, then failed; a stop from failed', async () => {
    const sup = await host.addDir(
      fixturePlugin({ script: 'gassist', id: 'hs-nolaunch', manifest: { command: ['no-such-program-anywhere'] } }),
    );
    const seen = record(sup);
    expect((await sup.start()).ok).toBe(false);
    await sup.stop();
    expect(seen).toEqual(['stopped>starting', 'starting>failed', 'failed>stopped']);
  });

  it('stopped while starting; disabled and enabled', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', id: 'hs-toggle', manifest: { timeouts: QUICK } }));
    const seen = record(sup);
    // Stopped the moment it starts starting.
    const stopped = new Promise<void>((resolve) => {
      const sub = sup.onDidTransition((t) => {
        if (t.to !== 'starting') return;
        sub.dispose();
        resolve(sup.stop());
      });
    });
    const starting = sup.start();
    await stopped;
    await starting;
    expect(seen.slice(0, 2)).toEqual(['stopped>starting', 'starting>stopped']);
    await sup.start();
    await sup.setEnabled(false);
    await sup.setEnabled(true);
    await reached(seen, ['starting>ready', 'ready>disabled', 'disabled>stopped', 'stopped>starting', 'starting>ready']);
  });
});
