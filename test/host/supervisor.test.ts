import { describe, expect, it } from 'vitest';
import { collect, expectFailure, settledPending } from '../helpers/calls';
import { useTestHost } from '../helpers/host';
import { fixturePlugin, recorded, recorderPlugin } from '../helpers/plugins';
import { gone, isAlive, leftovers } from '../helpers/processes';

const host = useTestHost();

const QUICK = { restartDelaysMs: [100, 200, 300], pingIntervalMs: 200, pingTimeoutMs: 200 };

/** Polls until `cond` holds; fails, naming `what`, only after a deadline no healthy run comes near. */
async function until(what: string, cond: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

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
    // The health history travels with the event: the crash and the restart, with reason and time.
    expect(ready.recent?.map((n) => n.state)).toEqual(['crashed', 'restarting']);
    expect(ready.recent?.[0]?.reason).toMatch(/killed by SIGKILL/);
    expect(ready.recent?.[0]?.at).toBeGreaterThanOrEqual(killedAt);
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
    const sup = await host.addDir(
      fixturePlugin({ script: 'gassist', id: 'ga-user-stop', manifest: { timeouts: QUICK } }),
    );
    await sup.start();
    const pid = sup.health.pid as number;
    await sup.stop();
    expect(isAlive(pid)).toBe(false);
    // stop() resolves once the death is handled, and a restart is announced ('restarting') the
    // moment a death is handled, before its timer: there is nothing left to wait for.
    expect(sup.health.state).toBe('stopped');
    expect(host.states(sup.spec.id)).not.toContain('restarting');
    expect(host.states(sup.spec.id)).not.toContain('crashed');
  });

  it('leaves nothing running when stopped while it is still starting', async () => {
    const sup = await host.addDir(
      fixturePlugin({ script: 'gassist', id: 'ga-stop-starting', manifest: { timeouts: QUICK } }),
    );
    // Stopped the moment it is said to be starting, before the handshake can have answered.
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
    expect(sup.health.state).toBe('stopped');
    expect(sup.health.pid).toBeNull();
    expect(await leftovers(2000)).toEqual([]);
  });

  it('kills a plugin that freezes while idle (two missed pings) and restarts it', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', manifest: { timeouts: QUICK } }));
    await sup.start();
    // The watchdog runs: a ping has had its answer.
    await until('a ping round trip', () => sup.health.pingRttMs !== null);
    // Freeze it right after a call: the first ping comes a full interval after a call, so none is
    // in flight at the freeze and every ping from here on goes unanswered.
    expect((await collect(sup, 'echo', { text: 'last words' })).outcome.ok).toBe(true);
    const pid = sup.health.pid as number;
    const mark = host.health.length;
    process.kill(pid, 'SIGSTOP');
    const dead = await host.waitFor(sup.spec.id, 'unresponsive', 15_000, mark);
    expect(dead.failure?.code).toBe('unresponsive');
    expect(dead.reason).toMatch(/missed 2 pings in a row/);
    expect(await gone(pid, 5000)).toBe(true);
    const ready = await host.waitFor(sup.spec.id, 'ready', 15_000, host.after(dead));
    expect(ready.pid).not.toBe(pid);
    expect(ready.restarts).toBe(1);
    expect(ready.recent?.[0]).toMatchObject({ state: 'unresponsive', reason: expect.stringMatching(/missed 2 pings/) });
    // And the plugin's log has the kill, with its reason.
    expect(host.logs.filter((l) => l.pluginId === sup.spec.id).map((l) => l.message)).toContainEqual(
      expect.stringMatching(/^unresponsive \(was ready\): .*missed 2 pings/),
    );
  });

  it('gives up on a silent plugin only after a second ping, sent after the first missed, also went unanswered', async () => {
    // Alive and reading, but it never answers a ping and writes nothing: no sign of life at all.
    // It writes down every ping it receives; no restart comes within the test.
    const { dir, record } = recorderPlugin(
      'ga-deaf',
      { DEAF: '1' },
      { pingIntervalMs: 200, pingTimeoutMs: 1000, restartDelaysMs: [600_000] },
    );
    const sup = await host.addDir(dir);
    await sup.start();
    const pid = sup.health.pid as number;
    const dead = await host.waitFor(sup.spec.id, 'unresponsive', 15_000);
    expect(dead.failure?.code).toBe('unresponsive');
    expect(dead.reason).toMatch(/missed 2 pings in a row/);
    expect(await gone(pid, 5000)).toBe(true);
    // The plugin received exactly two pings, distinct requests: the host asked again after the
    // first one's deadline passed, and killed it only after the second one's.
    const pings = recorded(record, pid).filter((l) => l.startsWith('ping '));
    expect(pings).toHaveLength(2);
    expect(pings[0]).not.toBe(pings[1]);
  });

  it('fails a call that meets a frozen plugin with unresponsive, as soon as the watchdog knows', async () => {
    // Ping deadlines of 2 s leave the test seconds to place its call while the verdict is pending.
    const sup = await host.addDir(
      fixturePlugin({
        script: 'gassist',
        manifest: { timeouts: { ...QUICK, pingIntervalMs: 100, pingTimeoutMs: 2000 } },
      }),
    );
    await sup.start();
    await until('a ping round trip', () => sup.health.pingRttMs !== null);
    // Frozen right after a call, with no ping in flight: the next ping goes unanswered.
    expect((await collect(sup, 'echo', { text: 'x' })).outcome.ok).toBe(true);
    process.kill(sup.health.pid as number, 'SIGSTOP');
    // Idle, the only protocol entry that can be waiting is a ping: wait until one is out.
    await until('a ping out to the frozen plugin', () => sup.pendingCount > 0);
    const r = await collect(sup, 'echo', { text: 'x' }, { inactivityMs: 30_000 });
    const f = expectFailure(r.outcome);
    // unresponsive, not timeout: the call did not wait out its inactivity deadline.
    expect(f.code).toBe('unresponsive');
  });

  it('cancels at any moment, also during a hang, and recycles a plugin that cannot stop its work', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', manifest: { timeouts: QUICK } }));
    await sup.start();
    const pid = sup.health.pid as number;
    const h = sup.call('hang', {});
    // Busy: the request is with the plugin, which now blocks for good.
    await until('the call running', () => sup.health.state === 'busy');
    h.cancel('user pressed Stop');
    const f = expectFailure(await h.done);
    // The hang never ends and no deadline of the call is near: the cancel itself ended it.
    expect(f.code).toBe('cancelled');
    expect(f.message).toBe('user pressed Stop');
    // The card says the plugin was restarted to stop it, and shows no stderr: a stop is no failure.
    expect(f.details?.restarted).toBe(true);
    expect(f.details?.stderrTail).toBeUndefined();
    await host.waitFor(sup.spec.id, 'ready', 5000, host.health.length);
    expect(isAlive(pid)).toBe(false);
    expect((await collect(sup, 'echo', { text: 'back' })).outcome.ok).toBe(true);
    // Counted with the restarts and written in the plugin's log, with the reason.
    expect(sup.health.restarts).toBe(1);
    expect(sup.health.recent?.map((n) => n.state)).toEqual(['restarting']);
    expect(host.logs.filter((l) => l.pluginId === sup.spec.id).map((l) => l.message)).toContainEqual(
      expect.stringMatching(/restarting \(was busy\): hang was stopped, and the plugin cannot cancel/),
    );
  });

  it('cancels a call still waiting for its turn without disturbing the running one', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist' }));
    const first = sup.call('count', { n: 3, delay_ms: 100 });
    const second = sup.call('echo', { text: 'queued' });
    second.cancel('changed my mind');
    expect(expectFailure(await second.done).code).toBe('cancelled');
    expect((await first.done).ok).toBe(true);
    expect(await settledPending(sup)).toBe(0);
  });

  it('never starts a disabled plugin and refuses its calls', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', id: 'ga-disabled' }), { enabled: false });
    expect(sup.health.state).toBe('disabled');
    const f = expectFailure((await collect(sup, 'echo', { text: 'x' })).outcome);
    expect(f.code).toBe('disabled');
    expect(f.message).toMatch(/is disabled/);
    expect(sup.health.pid).toBeNull();
    await sup.setEnabled(true);
    expect((await collect(sup, 'echo', { text: 'x' })).outcome.ok).toBe(true);
  });

  it('checks arguments against the declared schema before starting anything', async () => {
    const sup = await host.addDir(
      fixturePlugin({
        script: 'gassist',
        id: 'ga-schema',
        manifest: {
          functions: [
            {
              name: 'echo',
              parameters: {
                type: 'object',
                properties: { text: { type: 'string' } },
                required: ['text'],
                additionalProperties: false,
              },
            },
          ],
        },
      }),
    );
    const f = expectFailure((await collect(sup, 'echo', { txt: 'typo' })).outcome);
    expect(f.code).toBe('invalid_arguments');
    expect(f.message).toBe(
      'arguments for echo do not match its schema: arguments.text is required; arguments.txt is not allowed',
    );
    expect(host.states(sup.spec.id)).toEqual([]);
  });
});
