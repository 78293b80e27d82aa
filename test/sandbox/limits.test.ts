/**
 * Limits per plugin (issue 18, item 3), attacked by a real sandboxed hostile plugin: a fork bomb, a
 * memory bomb, filling its /tmp and filling its data folder. Each is stopped, the plugin fails with
 * `limit_exceeded` naming the limit, nothing of it is left running, and the machine is as it was.
 * Then the same bombs where there are no control groups (PLUGBOARD_CGROUPS=off): rlimits and the
 * limit watch hold them instead.
 *
 * Bounded for a shared 2-core box: the limits are small (64 processes, 160 MiB, 16 MiB of /tmp,
 * 8 MiB of data) and every attack stops itself at a bound (300 processes, 1 GiB, 256 MiB), so a
 * limit that did not hold would show as an attack that finished, never as a machine in trouble.
 */
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskUse, NAME_MIN_BYTES, nextDataWalkMs } from '../../src/main/host/process/limit-watch';
import { sandboxSupport } from '../../src/main/host/process/sandbox-probe';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import type { Failure } from '../../src/shared/failures';
import type { HealthEvent } from '../../src/shared/plugin';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';
import { describeSandboxed } from '../helpers/sandbox';

const LIMITS = { processes: 64, memory: '160M', tmp: '16M', data: '8M' };

function useRegistry(label: string): () => PluginRegistry {
  let registry: PluginRegistry;
  beforeAll(async () => {
    registry = await PluginRegistry.open({
      dataDir: path.join(tmpDir(`sandbox-limits-${label}`), 'data'),
      env: { PLUGBOARD_TEST_RUN: String(process.pid) },
    });
    expect((await registry.installer.install(path.join(FIXTURES, 'hostile', 'node'), { grant: 'none' })).ok).toBe(true);
    expect((await registry.decisions.setLimits('hostile', LIMITS)).ok).toBe(true);
  });
  afterAll(async () => {
    await registry?.shutdown();
    registry?.dispose();
    expect(await leftovers()).toEqual([]);
  });
  return () => registry;
}

/** The plugin's health once it is `failed`, waited for as an event, not for a time. */
function failedHealth(registry: PluginRegistry): Promise<HealthEvent> {
  const now = registry.host.healthOf('hostile');
  if (now?.state === 'failed') return Promise.resolve(now);
  return new Promise((resolve) => {
    const sub = registry.onDidChangeHealth((h) => {
      if (h.pluginId !== 'hostile' || h.state !== 'failed') return;
      sub.dispose();
      resolve(h);
    });
  });
}

/** Runs an attack; answers the failure that stopped the plugin. */
async function attack(registry: PluginRegistry, tool: string, args: Record<string, unknown>): Promise<Failure> {
  expect((await registry.start('hostile')).ok).toBe(true);
  const failed = failedHealth(registry);
  const o = await registry.call('hostile', tool, args).done;
  // Stopped in the middle of the call, or (a write refused first) right after it.
  if (!o.ok && o.code === 'limit_exceeded') return o;
  // The attack reached its own bound: the limit did not hold.
  if (o.ok && (o.value.data as { ok?: boolean }).ok === true)
    throw new Error(`${tool} finished unhindered: ${JSON.stringify(o.value.data)}`);
  const h = await failed;
  if (!h.failure) throw new Error(`failed without a cause: ${h.reason}`);
  return h.failure;
}

/** The plugin's data folder, emptied of what an earlier attack left (it would be over at once). */
function emptied(registry: PluginRegistry): string {
  const dataDir = registry.paths.pluginData('hostile');
  for (const name of readdirSync(dataDir)) rmSync(path.join(dataDir, name), { recursive: true, force: true });
  return dataDir;
}

function expectStopped(f: Failure, limit: string, words: RegExp): void {
  expect(f.code, f.message).toBe('limit_exceeded');
  expect((f.details?.data as { limit?: string } | undefined)?.limit).toBe(limit);
  expect(f.message).toMatch(words);
}

describe('the data folder watch', () => {
  it('walks a folder at most a twentieth of the time, however long a walk takes', () => {
    expect(nextDataWalkMs(10)).toBe(1000);
    // 300,000 names took the red team's host some 10 s a walk: the next one waits 200 s.
    expect(nextDataWalkMs(10_000)).toBeGreaterThanOrEqual(200_000);
  });

  it('counts a name as at least 4 KiB, and stops counting past the bound it is given', async () => {
    const dir = tmpDir('data-walk');
    for (let i = 0; i < 300; i++) writeFileSync(path.join(dir, `empty-${i}`), '');
    expect(await diskUse(dir)).toBeGreaterThanOrEqual(300 * NAME_MIN_BYTES);
    // Past the bound the walk stops: at most one name beyond it is counted.
    expect(await diskUse(dir, 10 * NAME_MIN_BYTES)).toBeLessThanOrEqual(12 * NAME_MIN_BYTES + 8192);
  });
});

describeSandboxed('limits per plugin, with the enforcement this machine has', () => {
  const registry = useRegistry('kernel');
  afterAll(() => cleanupFixtures());

  it('says how limits are held here', () => {
    const s = sandboxSupport();
    expect(s.available && s.limits?.enforcement).toMatch(/^(cgroup1|cgroup2|rlimit)$/);
  });

  it('stops a fork bomb at its process limit, and nothing of it is left', async () => {
    const f = await attack(registry(), 'fork_bomb', { max: 300 });
    expectStopped(f, 'processes', /process limit of 64/);
    expect(registry().host.healthOf('hostile')?.state).toBe('failed');
    expect(await leftovers()).toEqual([]);
  });

  it('stops a memory bomb at its memory limit', async () => {
    const f = await attack(registry(), 'memory_bomb', { max_mib: 1024, chunk_mib: 8 });
    expectStopped(f, 'memoryBytes', /memory limit of 160 MiB/);
  });

  it('stops a plugin that fills its /tmp, which never grows past its size', async () => {
    const f = await attack(registry(), 'fill_file', { path: '/tmp/fill.bin', max_mib: 256 });
    expectStopped(f, 'tmpBytes', /\/tmp size limit of 16 MiB/);
  });

  it('stops a plugin that fills its data folder', async () => {
    const dataDir = emptied(registry());
    const f = await attack(registry(), 'fill_folder', { path: dataDir, max_mib: 256, pause_ms: 20 });
    expectStopped(f, 'dataBytes', /data folder size limit of 8 MiB/);
    // Stopped well before its own bound of 256 MiB.
    expect(existsSync(path.join(dataDir, 'fill-255.bin'))).toBe(false);
  });

  it('counts what it holds open after unlinking it in its data folder (no name shows it)', async () => {
    const dataDir = emptied(registry());
    const f = await attack(registry(), 'fill_unlinked', { path: dataDir, max_mib: 256, pause_ms: 20 });
    expectStopped(f, 'dataBytes', /data folder size limit of 8 MiB/);
  });

  it('counts every name in its data folder: a folder of empty files is not free', async () => {
    const dataDir = emptied(registry());
    // At most 5,000 names a second: its bound of 200,000 is 40 s away, time for the watch, which
    // walks a folder at most a twentieth of the time, to see it on a busy machine too.
    const f = await attack(registry(), 'fill_names', { path: dataDir, max: 200_000, batch: 100, pause_ms: 20 });
    // At 4 KiB a name, 8 MiB is some 2,000 of them; attack() fails the test had it reached its bound.
    expectStopped(f, 'dataBytes', /data folder size limit of 8 MiB/);
    expect(readdirSync(dataDir).length).toBeLessThan(200_000);
  }, 60_000);
});

describeSandboxed('limits per plugin without control groups (rlimits and the watch)', () => {
  beforeAll(() => {
    process.env.PLUGBOARD_CGROUPS = 'off';
    const s = sandboxSupport({ refresh: true });
    expect(s.available && s.limits?.enforcement).toBe('rlimit');
  });
  afterAll(() => {
    delete process.env.PLUGBOARD_CGROUPS;
    sandboxSupport({ refresh: true });
    cleanupFixtures();
  });
  const registry = useRegistry('rlimit');

  it('stops a fork bomb: the watch at its limit, or the kernel refusing the fork before it', async () => {
    // rlimits count every process of the plugin's user: under root that is every plugin's
    // (they all run as nobody), so with other plugins running (a test file beside this one) the
    // kernel may refuse a fork before the bomb alone reaches 64, and the watch has nothing to
    // stop. Either way the bomb never gets past its limit.
    const reg = registry();
    expect((await reg.start('hostile')).ok).toBe(true);
    const o = await reg.call('hostile', 'fork_bomb', { max: 300 }).done;
    if (o.ok) {
      const bomb = o.value.data as { ok: boolean; started: number; code: string | null };
      expect(bomb).toEqual({ ok: false, started: expect.any(Number), code: 'EAGAIN' });
      expect(bomb.started).toBeLessThan(64);
      expect((await reg.stop('hostile')).ok).toBe(true);
    } else {
      const f = o.code === 'limit_exceeded' ? o : (await failedHealth(reg)).failure;
      if (!f) throw new Error(`failed without a cause: ${o.message}`);
      expectStopped(f, 'processes', /process limit of 64/);
    }
    expect(await leftovers()).toEqual([]);
  });

  it('stops a memory bomb', async () => {
    const f = await attack(registry(), 'memory_bomb', { max_mib: 1024, chunk_mib: 8 });
    expectStopped(f, 'memoryBytes', /memory limit of 160 MiB/);
  });
});
