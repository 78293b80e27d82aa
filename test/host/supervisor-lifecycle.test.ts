/**
 * Supervisor edges where a user action meets work in progress: stop and disable with calls
 * queued, passthrough ended in the middle of a turn, a held plugin frozen in passthrough, and
 * overlapping registrations of one id.
 */
import { describe, expect, it } from 'vitest';
import { collect, expectFailure, specOf } from '../helpers/calls';
import { useTestHost } from '../helpers/host';
import { fixturePlugin } from '../helpers/plugins';
import { gone, isAlive } from '../helpers/processes';

const host = useTestHost();

const QUICK = { restartDelaysMs: [100, 200, 300], pingIntervalMs: 200, pingTimeoutMs: 200 };

describe('supervisor lifecycle', () => {
  it('a user stop cancels the calls queued behind the running one and the plugin stays stopped', async () => {
    const sup = await host.addDir(
      fixturePlugin({ script: 'gassist', id: 'ga-stop-queue', manifest: { timeouts: QUICK } }),
    );
    await sup.start();
    const pid = sup.health.pid as number;
    const running = sup.call('count', { n: 1000, delay_ms: 20 });
    const queued = sup.call('echo', { text: 'must not run' });
    await host.waitFor(sup.spec.id, 'busy', 5000);
    await sup.stop();
    expect(expectFailure(await running.done).code).toBe('cancelled');
    const q = expectFailure(await queued.done);
    expect(q.code).toBe('cancelled');
    expect(q.message).toMatch(/stopped by the user/);
    expect(sup.health.state).toBe('stopped');
    expect(sup.health.pid).toBeNull();
    expect(isAlive(pid)).toBe(false);
  });

  it('disabling with a call queued never starts the plugin again', async () => {
    const sup = await host.addDir(
      fixturePlugin({ script: 'gassist', id: 'ga-disable-queue', manifest: { timeouts: QUICK } }),
    );
    await sup.start();
    const running = sup.call('count', { n: 1000, delay_ms: 20 });
    const queued = sup.call('echo', { text: 'must not run' });
    await host.waitFor(sup.spec.id, 'busy', 5000);
    const mark = host.health.length;
    await sup.setEnabled(false);
    expect(expectFailure(await running.done).code).toBe('cancelled');
    expect(expectFailure(await queued.done).code).toBe('cancelled');
    expect(sup.health.state).toBe('disabled');
    expect(sup.health.pid).toBeNull();
    expect(host.states(sup.spec.id, mark)).not.toContain('starting');
  });

  it('ending passthrough during a turn ends it for good, and lets the plugin go when the turn is done', async () => {
    const sup = await host.addDir(
      fixturePlugin({ script: 'gassist', id: 'ga-pt-midturn', manifest: { persistent: false, timeouts: QUICK } }),
    );
    const opened = await collect(sup, 'start_conversation', { topic: 'tea' });
    expect(opened.outcome.ok && opened.outcome.value.keepSession).toBe(true);
    expect(sup.inPassthrough).toBe(true);
    const pid = sup.health.pid as number;
    const mark = host.health.length;
    // The turn answers keep_session, after the user has already left.
    const turn = sup.input('wait 300');
    await host.waitFor(sup.spec.id, 'busy', 5000, mark);
    sup.endPassthrough('ended by the user');
    const done = await turn.done;
    expect(done.ok && done.value.data).toBe('waited');
    expect(sup.inPassthrough).toBe(false);
    expect(await gone(pid)).toBe(true);
    expect(expectFailure(await sup.input('hello').done).message).toMatch(/no passthrough session is open/);
  });

  it('a plugin frozen during passthrough is reported unresponsive, once, not crashed', async () => {
    const sup = await host.addDir(
      fixturePlugin({ script: 'gassist', id: 'ga-pt-frozen', manifest: { persistent: false, timeouts: QUICK } }),
    );
    await collect(sup, 'start_conversation', {});
    expect(sup.inPassthrough).toBe(true);
    const pid = sup.health.pid as number;
    const mark = host.health.length;
    process.kill(pid, 'SIGSTOP');
    const dead = await host.waitFor(sup.spec.id, 'unresponsive', 5000, mark);
    expect(dead.failure?.code).toBe('unresponsive');
    expect(await gone(pid)).toBe(true);
    expect(sup.inPassthrough).toBe(false);
    const after = host.states(sup.spec.id, host.after(dead));
    expect(after).not.toContain('crashed');
    expect(after.filter((s) => s === 'unresponsive')).toEqual([]);
  });

  it('of two registrations of one id at once, the last wins and the first can never run a process', async () => {
    const spec = specOf(fixturePlugin({ script: 'gassist', id: 'ga-double-add' }));
    const [first, second] = await Promise.all([host.addSpec(spec), host.addSpec(spec)]);
    expect(host.get(spec.id)).toBe(second);
    expect((await first.start()).ok).toBe(false);
    expect(first.health.pid).toBeNull();
    expect((await second.start()).ok).toBe(true);
  });
});
