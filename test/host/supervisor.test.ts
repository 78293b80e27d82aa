import { describe, expect, it } from 'vitest';
import { collect, expectFailure } from '../helpers/calls';
import { useTestHost } from '../helpers/host';
import { fixturePlugin } from '../helpers/plugins';
import { gone, isAlive, leftovers } from '../helpers/processes';

const host = useTestHost();

const QUICK = { restartDelaysMs: [100, 200, 300], pingIntervalMs: 200, pingTimeoutMs: 200 };

describe('supervisor', () => {
  it('notices a crash at once and restarts with back-off, counting restarts', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', manifest: { timeouts: QUICK } }));
    await sup.start();
    const pid = sup.health.pid as number;
    const mark = host.health.length;
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    const crashed = await host.waitFor(sup.spec.id, 'crashed', 5000, mark);
    // How fast: measured by `npm run bench` (crash → noticed), not asserted here.
    expect(crashed.at).toBeGreaterThanOrEqual(killedAt);
    expect(crashed.failure?.code).toBe('crashed');
    expect(crashed.reason).toMatch(/killed by SIGKILL/);
    const restarting = await host.waitFor(sup.spec.id, 'restarting', 2000, host.after(crashed));
    expect(restarting.reason).toMatch(/restart 1 of 3 in 100 ms/);
    const ready = await host.waitFor(sup.spec.id, 'ready', 3000, host.after(restarting));
    expect(ready.restarts).toBe(1);
    expect(ready.pid).not.toBe(pid);
  });

  it('gives up after the restart budget and reports failed', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', manifest: { timeouts: QUICK } }));
    await sup.start();
    for (let i = 0; i < 3; i++) {
      const mark = host.health.length;
      process.kill(sup.health.pid as number, 'SIGKILL');
      const crashed = await host.waitFor(sup.spec.id, 'crashed', 3000, mark);
      await host.waitFor(sup.spec.id, 'ready', 3000, host.after(crashed));
    }
    const mark = host.health.length;
    process.kill(sup.health.pid as number, 'SIGKILL');
    const failed = await host.waitFor(sup.spec.id, 'failed', 3000, mark);
    expect(failed.reason).toMatch(/gave up after 3 restarts/);
    expect(failed.restarts).toBe(3);
    // A user start clears it.
    expect((await sup.start()).ok).toBe(true);
    expect(sup.health.state).toBe('ready');
    expect(sup.health.restarts).toBe(0);
  });

  it('never restarts after a user stop', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', id: 'ga-user-stop', manifest: { timeouts: QUICK } }));
    await sup.start();
    const pid = sup.health.pid as number;
    await sup.stop();
    expect(isAlive(pid)).toBe(false);
    await new Promise((r) => setTimeout(r, 500));
    expect(sup.health.state).toBe('stopped');
    expect(host.states(sup.spec.id)).not.toContain('restarting');
    expect(host.states(sup.spec.id)).not.toContain('crashed');
  });

  it('leaves nothing running when stopped while it is still starting', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', id: 'ga-stop-starting', manifest: { timeouts: QUICK } }));
    const starting = sup.start();
    await new Promise((r) => setTimeout(r, 5));
    await sup.stop();
    await starting;
    expect(sup.health.state).toBe('stopped');
    expect(sup.health.pid).toBeNull();
    expect(await leftovers(2000)).toEqual([]);
  });

  it('kills a plugin that freezes while idle (two missed pings) and restarts it', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', manifest: { timeouts: QUICK } }));
    await sup.start();
    await new Promise((r) => setTimeout(r, 300));
    expect(sup.health.pingRttMs).not.toBeNull();
    const pid = sup.health.pid as number;
    const mark = host.health.length;
    process.kill(pid, 'SIGSTOP');
    const frozenAt = Date.now();
    const dead = await host.waitFor(sup.spec.id, 'unresponsive', 3000, mark);
    expect(dead.failure?.code).toBe('unresponsive');
    expect(dead.reason).toMatch(/missed 2 pings in a row/);
    // Never before two full deadlines of silence (how fast after that: `npm run bench`).
    expect(dead.at - frozenAt).toBeGreaterThanOrEqual(2 * 200);
    expect(await gone(pid)).toBe(true);
    await host.waitFor(sup.spec.id, 'ready', 3000, mark);
  });

  it('fails a call that meets a frozen plugin with unresponsive, as soon as the watchdog knows', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', manifest: { timeouts: { ...QUICK, pingIntervalMs: 100 } } }));
    await sup.start();
    await new Promise((r) => setTimeout(r, 250));
    process.kill(sup.health.pid as number, 'SIGSTOP');
    // Let the watchdog send its first unanswered ping, then call: the call waits for the verdict.
    await new Promise((r) => setTimeout(r, 150));
    const r = await collect(sup, 'echo', { text: 'x' }, { inactivityMs: 10_000 });
    const f = expectFailure(r.outcome);
    // unresponsive, not timeout: the call did not wait out its 10 s inactivity deadline.
    expect(f.code).toBe('unresponsive');
  });

  it('cancels at any moment, also during a hang, and recycles a plugin that cannot stop its work', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', manifest: { timeouts: QUICK } }));
    await sup.start();
    const pid = sup.health.pid as number;
    const h = sup.call('hang', {});
    await new Promise((r) => setTimeout(r, 100));
    const t0 = performance.now();
    h.cancel('user pressed Stop');
    const f = expectFailure(await h.done);
    expect(f.code).toBe('cancelled');
    expect(f.message).toBe('user pressed Stop');
    // The hang never ends and the deadline is 30 s: the cancel itself ended the call.
    expect(performance.now() - t0).toBeLessThan(10_000);
    await host.waitFor(sup.spec.id, 'ready', 5000, host.health.length);
    expect(isAlive(pid)).toBe(false);
    expect((await collect(sup, 'echo', { text: 'back' })).outcome.ok).toBe(true);
    expect(sup.health.restarts).toBe(0);
  });

  it('cancels a call still waiting for its turn without disturbing the running one', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist' }));
    const first = sup.call('count', { n: 3, delay_ms: 100 });
    const second = sup.call('echo', { text: 'queued' });
    second.cancel('changed my mind');
    expect(expectFailure(await second.done).code).toBe('cancelled');
    expect((await first.done).ok).toBe(true);
    expect(sup.pendingCount).toBe(0);
  });

  it('never starts a disabled plugin and refuses its calls', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', id: 'ga-disabled' }), { enabled: false });
    expect(sup.health.state).toBe('disabled');
    const f = expectFailure((await collect(sup, 'echo', { text: 'x' })).outcome);
    expect(f.code).toBe('tool_not_exposed');
    expect(f.message).toMatch(/is disabled/);
    expect(sup.health.pid).toBeNull();
    await sup.setEnabled(true);
    expect((await collect(sup, 'echo', { text: 'x' })).outcome.ok).toBe(true);
  });

  it('checks arguments against the declared schema before starting anything', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', id: 'ga-schema', manifest: { functions: [{ name: 'echo', parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false } }] } }));
    const f = expectFailure((await collect(sup, 'echo', { txt: 'typo' })).outcome);
    expect(f.code).toBe('invalid_arguments');
    expect(f.message).toBe('arguments for echo do not match its schema: arguments.text is required; arguments.txt is not allowed');
    expect(host.states(sup.spec.id)).toEqual([]);
  });
});
