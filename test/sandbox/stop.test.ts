/**
 * Stopping a sandboxed plugin keeps every promise of the unsandboxed stop sequence: a graceful
 * exit on stdin closing, SIGTERM that reaches the plugin itself with its grace to finish, SIGKILL
 * for one that ignores it, and nothing left running, grandchildren included. The host spawns
 * bwrap, so these are real bwrap processes in real namespaces.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createCodec } from '../../src/main/host/framing';
import { PluginProcess } from '../../src/main/host/process/child';
import { planLaunch } from '../../src/main/host/process/launch';
import { specOf } from '../helpers/calls';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { leftovers, TEST_RUN_MARK } from '../helpers/processes';
import { describeSandboxed } from '../helpers/sandbox';

const STOP = { graceMs: 500, termGraceMs: 2000 };

async function start(mode: string): Promise<{ proc: PluginProcess; events: () => string[] }> {
  const data = path.join(tmpDir('sandbox-stop'), 'data');
  const own = path.join(data, 'plugin-data', 'lingering');
  mkdirSync(own, { recursive: true });
  const [key, value] = TEST_RUN_MARK.split('=') as [string, string];
  const plan = planLaunch({
    spec: specOf(path.join(FIXTURES, 'hostile', 'lingering')),
    hostEnv: { PLUGBOARD_DATA_DIR: own, LINGER_MODE: mode, [key]: value },
    sandbox: { grants: [], dataDir: own, hiddenRoot: data },
  });
  if (!plan.ok) throw new Error(plan.message);
  expect(plan.sandbox).toEqual({ active: true });
  const codec = createCodec('ndjson', { message: () => undefined, junk: () => undefined });
  const proc = await PluginProcess.start({ ...plan, launchMs: 5000, decoder: codec.decoder, sandboxed: true });
  if (!(proc instanceof PluginProcess)) throw new Error(proc.message);
  const log = path.join(own, 'events.log');
  const events = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
  // Wait until the plugin itself runs (not only bwrap) before stopping it.
  await expect.poll(() => events()[0], { timeout: 10_000 }).toBe('started');
  if (mode.includes('child'))
    await expect.poll(() => events().some((e) => e.startsWith('child ')), { timeout: 5000 }).toBe(true);
  return { proc, events };
}

describeSandboxed('stopping a sandboxed plugin', () => {
  afterAll(() => cleanupFixtures());

  it('ends gracefully when stdin closes, and leaves nothing of the sandbox running', async () => {
    const { proc, events } = await start('');
    const r = await proc.stop(STOP);
    expect(r).toMatchObject({ stage: 'graceful', orphans: false, exit: { code: 0, signal: null } });
    expect(events()).toEqual(['started', 'stdin end']);
    proc.dispose();
    expect(await leftovers()).toEqual([]);
  });

  it('delivers SIGTERM to the plugin itself, which gets its grace to finish', async () => {
    const { proc, events } = await start('handle-term,ignore-stdin');
    const r = await proc.stop(STOP);
    expect(r).toMatchObject({ stage: 'terminated', orphans: false, exit: { code: 0, signal: null } });
    expect(events()).toEqual(['started', 'stdin end', 'term', 'term done']);
    proc.dispose();
    expect(await leftovers()).toEqual([]);
  });

  it('kills a plugin that ignores SIGTERM, and says it needed SIGKILL', async () => {
    const { proc, events } = await start('ignore-term,ignore-stdin');
    const r = await proc.stop(STOP);
    expect(r).toMatchObject({ stage: 'killed', exit: { code: null, signal: 'SIGKILL' } });
    expect(events()).toContain('term ignored');
    proc.dispose();
    expect(await leftovers()).toEqual([]);
  });

  it('takes down what the plugin started when the plugin exits, even a child that ignores SIGTERM', async () => {
    const { proc } = await start('child');
    const r = await proc.stop(STOP);
    expect(r).toMatchObject({ stage: 'graceful', exit: { code: 0 } });
    proc.dispose();
    expect(await leftovers()).toEqual([]);
  });

  it('ends the whole sandbox when bwrap alone is killed (--die-with-parent)', async () => {
    const { proc } = await start('child,ignore-stdin,ignore-term');
    process.kill(proc.pid as number, 'SIGKILL');
    expect(await proc.exit).toMatchObject({ signal: 'SIGKILL' });
    expect(await leftovers()).toEqual([]);
    proc.dispose();
  });

  it('reports a crash by signal as the plugin’s signal, not bwrap’s exit code', async () => {
    const { proc } = await start('segv');
    expect(await proc.exit).toMatchObject({ code: null, signal: 'SIGSEGV', expected: false });
    proc.dispose();
    expect(await leftovers()).toEqual([]);
  });
});
