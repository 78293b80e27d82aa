/**
 * The misbehaving-plugin suite: each case gets the right failure code, the host stays up, a
 * healthy neighbour keeps working with the same process, nothing is left running, and memory
 * stays bounded.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PluginSupervisor } from '../../src/main/host/supervisor/supervisor';
import type { LogEvent } from '../../src/shared/plugin';
import { collect, expectFailure, RecordingHost, settledPending } from '../helpers/calls';
import { cleanupFixtures, FIXTURES, fixturePlugin, recorded, recorderPlugin, tmpDir } from '../helpers/plugins';
import { gone, isAlive, leftovers, pluginProcesses } from '../helpers/processes';

const host = new RecordingHost();
let neighbour: PluginSupervisor;
let neighbourPid: number | null;
const FAST = { pingIntervalMs: 1000, restartDelaysMs: [50, 50, 50] };

beforeAll(async () => {
  neighbour = await host.addDir(path.join(FIXTURES, 'gassist-node'));
  expect((await neighbour.start()).ok).toBe(true);
  neighbourPid = neighbour.health.pid;
});

let before: string[] = [];
beforeEach(() => {
  before = host.list().map((s) => s.spec.id);
});

/** After each case: remove the case's plugins, check nothing of them runs, check the neighbour. */
async function settle(): Promise<void> {
  for (const s of host.list()) if (s !== neighbour && !before.includes(s.spec.id)) await host.remove(s.spec.id);
  const left = await leftovers(3000, (p) => p.pid === neighbourPid);
  expect(left).toEqual([]);
  const ok = await collect(neighbour, 'echo', { text: 'still fine' });
  expect(ok.outcome).toEqual({ ok: true, value: expect.objectContaining({ data: 'still fine' }) });
  expect(neighbour.health.pid).toBe(neighbourPid);
}

afterAll(async () => {
  await host.shutdown();
  host.dispose();
  expect(await leftovers()).toEqual([]);
  cleanupFixtures();
});

/** Resolves with the first log event from now on that matches (rejects after a generous `ms`). */
function nextLog(what: string, match: (l: LogEvent) => boolean, ms = 15_000): Promise<LogEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`no log line ${what} within ${ms} ms`));
    }, ms);
    const sub = host.onDidLog((l) => {
      if (!match(l)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(l);
    });
  });
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

describe('misbehaving plugins', () => {
  it('a G-Assist plugin still starting a program of its own past the deadline is waited for', async () => {
    // The deadline 400 ms; the child it starts first runs 1.5 s (NVIDIA's mcp-stdio-example, whose
    // `npx -y` download took 14 s, could never start at 5 s).
    const sup = await host.addDir(
      fixturePlugin({
        script: 'gassist',
        mode: 'child-before-handshake',
        manifest: { timeouts: { handshakeMs: 400 } },
      }),
    );
    const r = await collect(sup, 'echo', { text: 'started' });
    expect(r.outcome).toMatchObject({ ok: true });
    expect(sup.health.state).toBe('ready');
    await settle();
  });

  it('hang before the handshake → handshake_failed', async () => {
    const sup = await host.addDir(
      fixturePlugin({ script: 'gassist', mode: 'hang-before-handshake', manifest: { timeouts: { handshakeMs: 400 } } }),
    );
    const f = expectFailure((await collect(sup, 'echo', { text: 'x' })).outcome);
    expect(f.code).toBe('handshake_failed');
    expect(f.message).toMatch(/no answer to initialize within 400 ms/);
    expect(sup.health.state).toBe('failed');
    await settle();
  });

  it('hang in a call without streaming → timeout, plugin killed and restarted', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', manifest: { timeouts: FAST } }));
    await sup.start();
    const pid = sup.health.pid as number;
    const r = await collect(sup, 'hang', {}, { inactivityMs: 300 });
    expect(expectFailure(r.outcome).code).toBe('timeout');
    await host.waitFor(sup.spec.id, 'ready', 5000, host.health.length);
    expect(await gone(pid, 4000)).toBe(true);
    expect(sup.health.pid).not.toBe(pid);
    await settle();
  });

  it('hang in a call with streaming → timeout, the chunks before it kept', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', manifest: { timeouts: FAST } }));
    const r = await collect(sup, 'hang_streaming', {}, { inactivityMs: 300 });
    expect(expectFailure(r.outcome).code).toBe('timeout');
    expect(r.chunks).toEqual(['starting…\n', 'still going…\n']);
    await settle();
  });

  it('a busy plugin streaming slowly for longer than two ping intervals is not killed', async () => {
    const sup = await host.addDir(
      fixturePlugin({ script: 'gassist', manifest: { timeouts: { pingIntervalMs: 200, pingTimeoutMs: 200 } } }),
    );
    await sup.start();
    const pid = sup.health.pid;
    const mark = host.health.length;
    // The plugin blocks 300 ms after each chunk, unable to answer anything.
    const r = await collect(sup, 'slow_stream', { ms: 2100, interval_ms: 300 }, { inactivityMs: 10_000 });
    expect(r.outcome.ok).toBe(true);
    // Four chunks or more: blocked for three intervals of 300 ms at least, longer than two ping
    // intervals with their deadlines (4 × 200 ms), and the same process all along.
    expect(r.chunks.length).toBeGreaterThanOrEqual(4);
    expect(sup.health.pid).toBe(pid);
    const states = host.health
      .slice(mark)
      .filter((h) => h.pluginId === sup.spec.id)
      .map((h) => h.state);
    expect(states).not.toContain('unresponsive');
    expect(sup.health.restarts).toBe(0);
    await settle();
  });

  it('crash mid-stream → crashed at once, chunks kept, exit code and stderr in the failure', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', manifest: { timeouts: FAST } }));
    const r = await collect(sup, 'crash_mid_stream', { after: 3 });
    const f = expectFailure(r.outcome);
    expect(f.code).toBe('crashed');
    expect(f.details?.exitCode).toBe(3);
    expect(f.details?.stderrTail).toContain('fatal: something broke mid-stream');
    expect(r.chunks).toEqual(['chunk 1\n', 'chunk 2\n', 'chunk 3\n']);
    expect(r.events.at(-1)?.type).toBe('error');
    await host.waitFor(sup.spec.id, 'ready', 5000, host.health.length);
    expect(sup.health.restarts).toBe(1);
    await settle();
  });

  it('exit 0 without answering → crashed', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', manifest: { timeouts: FAST } }));
    const f = expectFailure((await collect(sup, 'exit0')).outcome);
    expect(f.code).toBe('crashed');
    expect(f.message).toMatch(/exited \(code 0\) without finishing/);
    await settle();
  });

  it('junk lines and junk frames are recorded, and the call goes on', async () => {
    const jr = await host.addDir(fixturePlugin({ script: 'jsonrpc', mode: 'junk-at-start' }));
    expect((await collect(jr, 'junk', {})).outcome).toEqual({
      ok: true,
      value: expect.objectContaining({ data: 'after junk' }),
    });
    const ga = await host.addDir(fixturePlugin({ script: 'gassist' }));
    expect((await collect(ga, 'junk', {})).outcome).toEqual({
      ok: true,
      value: expect.objectContaining({ data: 'survived junk' }),
    });
    const junk = host.logs.filter((l) => l.source === 'host' && /ignored/.test(l.message)).map((l) => l.message);
    expect(junk.some((m) => m.includes('hello from a print statement'))).toBe(true);
    expect(junk.some((m) => m.includes('DEBUG: this is print debugging'))).toBe(true);
    expect(junk.some((m) => m.includes('print debugging, not JSON'))).toBe(true);
    await settle();
  });

  it('an oversize line → malformed_response at once', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'jsonrpc', manifest: { timeouts: FAST } }));
    const before = heapMb();
    const r = await collect(sup, 'oversize', {});
    const f = expectFailure(r.outcome);
    expect(f.code).toBe('malformed_response');
    expect(f.message).toMatch(/1048576-byte cap/);
    expect(heapMb() - before).toBeLessThan(20);
    await settle();
  });

  it('an announced 4 GiB frame → malformed_response at once, nothing allocated', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', manifest: { timeouts: FAST } }));
    const before = process.memoryUsage().arrayBuffers;
    const r = await collect(sup, 'huge_frame', {});
    const f = expectFailure(r.outcome);
    expect(f.code).toBe('malformed_response');
    // malformed_response, not timeout: the header alone ended the call, before any deadline.
    expect(f.message).toMatch(/announced 4294967295 bytes/);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
    await settle();
  });

  it('a frame past the 10 MiB cap → malformed_response', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', manifest: { timeouts: FAST } }));
    expect(expectFailure((await collect(sup, 'oversize', {})).outcome).code).toBe('malformed_response');
    await settle();
  });

  it('wrong ids are reported and never completes someone else’s call', async () => {
    const mark = host.logs.length;
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', id: 'ga-wrong-id' }));
    const r = await collect(sup, 'wrong_id', {}, { inactivityMs: 300 });
    expect(expectFailure(r.outcome).code).toBe('timeout');
    expect(r.chunks).toEqual([]);
    const mine = (id: string) => host.logs.slice(mark).filter((l) => l.pluginId === id);
    expect(mine('ga-wrong-id').some((l) => /not running \(late or wrong id\)/.test(l.message))).toBe(true);
    const jr = await host.addDir(fixturePlugin({ script: 'jsonrpc', id: 'jr-string-id' }));
    // A JSON-RPC plugin with no init call counts as up once its process runs, before Node has read
    // its script: one answered call first, so the 300 ms below measure the wrong id, not a busy machine.
    expect((await collect(jr, 'echo', { text: 'up' })).outcome.ok).toBe(true);
    const s = await collect(jr, 'string_id', {}, { inactivityMs: 300 });
    expect(expectFailure(s.outcome).code).toBe('timeout');
    expect(mine('jr-string-id').some((l) => /no request is waiting for id "\d+"/.test(l.message))).toBe(true);
    await settle();
  });

  it('duplicate ids: the first answer counts, the second is reported', async () => {
    // A plugin of its own and the log from this case only: the wrong-id case above logs the same words.
    const id = 'ga-duplicate-id';
    const mark = host.logs.length;
    const sup = await host.addDir(fixturePlugin({ script: 'gassist', id }));
    const stray = /^"complete" for request \d+, which is not running/;
    const reported = nextLog('about the second "complete"', (l) => l.pluginId === id && stray.test(l.message));
    const r = await collect(sup, 'duplicate_id', {});
    // The second completion has arrived and been dealt with once it is reported.
    await reported;
    const first = { success: true, data: 'first', keepSession: false };
    expect(r.outcome).toEqual({ ok: true, value: first });
    // One final event for the call, the first answer, and nothing for it after that.
    expect(r.events).toEqual([{ type: 'complete', callId: expect.any(String), ...first }]);
    expect(host.logs.slice(mark).filter((l) => l.pluginId === id && stray.test(l.message))).toHaveLength(1);
    expect(await settledPending(sup)).toBe(0);
    await settle();
  });

  it('an error with id null is surfaced', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'jsonrpc' }));
    expect((await collect(sup, 'error_null_id', {})).outcome.ok).toBe(true);
    expect(
      host.logs.some(
        (l) =>
          l.level === 'error' && /not tied to a running request \(response with id null\): Parse error/.test(l.message),
      ),
    ).toBe(true);
    await settle();
  });

  it('a flood of notifications is rate-limited, memory stays bounded, the call completes', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist' }));
    const logsBefore = host.logs.length;
    const before = heapMb();
    const r = await collect(sup, 'flood_notifications', { n: 100_000 });
    expect(r.outcome).toEqual({ ok: true, value: expect.objectContaining({ data: 'flooded' }) });
    const emitted = host.logs.length - logsBefore;
    expect(emitted).toBeLessThan(5000);
    expect(heapMb() - before).toBeLessThan(30);
    await settle();
  });

  it('a flood of stderr keeps a bounded ring and the call completes', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist' }));
    const before = heapMb();
    const r = await collect(sup, 'flood_stderr', { n: 100_000 });
    expect(r.outcome.ok).toBe(true);
    expect(heapMb() - before).toBeLessThan(30);
    const f = expectFailure((await collect(sup, 'crash_mid_stream', { after: 0 })).outcome);
    expect(f.details?.stderrTail?.length).toBeLessThanOrEqual(20);
    expect(f.details?.stderrTail?.at(-1)).toBe('fatal: something broke mid-stream');
    await settle();
  });

  it('a plugin ignoring shutdown, the end of its input and SIGTERM is still stopped, with SIGKILL', async () => {
    const { dir, record } = recorderPlugin('ga-stubborn', { STUBBORN: '1' });
    const sup = await host.addDir(dir);
    await sup.start();
    const pid = sup.health.pid as number;
    await sup.stop();
    expect(isAlive(pid)).toBe(false);
    expect(sup.health.state).toBe('stopped');
    // It was asked politely first, in order: shutdown, stdin closed, then SIGTERM. It ignored
    // all three and kept running, so what ended it came after SIGTERM: the SIGKILL.
    const steps = recorded(record, pid).filter((l) => !/^(initialize|ping) /.test(l));
    expect(steps).toEqual(['shutdown', 'stdin closed', 'SIGTERM']);
    await settle();
  });

  it('grandchildren die with their plugin', async () => {
    const sup = await host.addDir(fixturePlugin({ script: 'gassist' }));
    const r = await collect(sup, 'spawn_grandchild', {});
    const grandchild = (r.outcome.ok && (r.outcome.value.data as { grandchild: number }).grandchild) as number;
    expect(isAlive(grandchild)).toBe(true);
    await sup.stop();
    expect(isAlive(grandchild)).toBe(false);
    expect(pluginProcesses().filter((p) => p.args.includes('sleep 1000'))).toEqual([]);
    await settle();
  });

  it('a missing interpreter → launch_failed naming the command and the PATH searched', async () => {
    const dir = tmpDir('nointerp');
    writeFileSync(
      path.join(dir, 'plugboard.json'),
      JSON.stringify({ id: 'nointerp', protocol: 'jsonrpc', command: ['python9.9', 'main.py'] }),
    );
    const sup = await host.addDir(dir);
    const f = expectFailure((await collect(sup, 'x', {})).outcome);
    expect(f.code).toBe('launch_failed');
    // Looked for on this process's PATH, then on the login shell's (an app started from a dock has a shorter one).
    expect(f.message).toMatch(/^"python9\.9" was not found on PATH \(nor on the PATH of the login shell .+\)$/);
    // The PATH searched is named, and holds every folder of this process's PATH (the login shell's too).
    const searched = (f.details?.pathSearched ?? '').split(':');
    for (const dir of (process.env.PATH ?? '').split(':').filter(Boolean)) expect(searched).toContain(dir);
    expect(f.details?.cwd).toBe(dir);
    await settle();
  });

  it('a file that is not executable → launch_failed with its mode', async () => {
    const dir = tmpDir('noexec');
    writeFileSync(path.join(dir, 'run'), '#!/bin/sh\necho hi\n');
    chmodSync(path.join(dir, 'run'), 0o644);
    writeFileSync(
      path.join(dir, 'plugboard.json'),
      JSON.stringify({ id: 'noexec', protocol: 'jsonrpc', command: ['./run'] }),
    );
    const sup = await host.addDir(dir);
    const f = expectFailure((await collect(sup, 'x', {})).outcome);
    expect(f.code).toBe('launch_failed');
    expect(f.message).toMatch(/not executable \(mode 0644\)/);
    await settle();
  });

  it('a stream with a missing sequence number → malformed_response naming the chunk', async () => {
    const sup = await host.addDir(path.join(FIXTURES, 'planner-executor'));
    const r = await collect(sup, 'execute_task', { prompt: 'p', chunks: 3, skip_sequence: 3 });
    const f = expectFailure(r.outcome);
    expect(f.code).toBe('malformed_response');
    expect(f.message).toMatch(/stream_end announced 3 chunks but 2 arrived; chunk 3 is missing/);
    expect(r.chunks).toEqual(['part 1 ', 'part 2 ']);
    await settle();
  });

  it('a handshake with a wrong protocol version or extra capabilities is refused', async () => {
    const a = await host.addDir(
      fixturePlugin({
        script: 'rterm',
        id: 'rt-v',
        mode: 'wrong-version',
        manifest: { capabilities: ['fs.read'] },
        env: { CAPS: 'fs.read' },
      }),
    );
    expect(expectFailure((await collect(a, 'echo', { text: 'x' })).outcome).code).toBe('protocol_version_mismatch');
    const b = await host.addDir(
      fixturePlugin({
        script: 'rterm',
        id: 'rt-c',
        mode: 'extra-capability',
        manifest: { capabilities: ['fs.read'] },
        env: { CAPS: 'fs.read' },
      }),
    );
    expect(expectFailure((await collect(b, 'echo', { text: 'x' })).outcome).code).toBe('capability_not_allowed');
    const c = await host.addDir(fixturePlugin({ script: 'gassist', id: 'ga-v', mode: 'wrong-version' }));
    expect(expectFailure((await collect(c, 'echo', { text: 'x' })).outcome).code).toBe('protocol_version_mismatch');
    await settle();
  });
});
