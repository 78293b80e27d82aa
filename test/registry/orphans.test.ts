/**
 * No orphans. A real Plugboard (a registry in a child process, test/registry/orphan-host.ts) is
 * killed with SIGKILL during a call to a Python plugin that sleeps and has a child of its own:
 * both must be gone soon after, unsandboxed (the reaper kills the groups) and sandboxed (bwrap's
 * --die-with-parent). Then a start after a run whose reaper died too: the pid registry's file of a
 * dead host names one live process recorded with its real start time (killed) and one whose
 * start time differs, as a pid reused by another program would (left alone).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bootId, startTimeOf } from '../../src/main/fs';
import { PluginRegistry } from '../../src/main/plugins';
import { cleanupFixtures, REPO, tmpDir } from '../helpers/plugins';
import { gone, isAlive, leftovers, pluginProcesses } from '../helpers/processes';
import { support } from '../helpers/sandbox';
import { startChild } from '../store/helpers';

const HOST = path.join(REPO, 'test', 'registry', 'orphan-host.ts');
const started: ChildProcess[] = [];

afterAll(() => {
  for (const c of started) c.kill('SIGKILL');
  cleanupFixtures();
});

/** Kills a host during a nap, once the plugin and its child run; returns the plugin processes it had. */
async function killDuringNap(mode: 'sandbox' | 'no-sandbox', expected: RegExp): Promise<string[]> {
  const data = tmpDir('orphans');
  const host = startChild([data, mode], HOST, { ...process.env, ORPHAN_MARK: String(process.pid) });
  started.push(host.proc);
  await host.waitFor((l) => l.some((x) => x.startsWith('napping')), 30_000);
  expect(host.lines.find((l) => l.startsWith('napping'))).toContain(`"available":${mode === 'sandbox'}`);
  const running = (): string[] => pluginProcesses().map((p) => p.args);
  await expect
    .poll(running, { timeout: 10_000 })
    .toEqual(expect.arrayContaining([expect.stringMatching(expected), 'sleep 600']));
  const before = running();
  host.proc.kill('SIGKILL');
  expect((await host.closed(10_000)).signal).toBe('SIGKILL');
  return before;
}

describe('a host killed during a call', () => {
  it('leaves no plugin process behind, unsandboxed: the reaper kills the plugin and its child', async () => {
    const running = await killDuringNap('no-sandbox', /python3 .*plugin\.py$/);
    expect(running.some((a) => a.includes('bwrap'))).toBe(false);
    expect(await leftovers(10_000)).toEqual([]);
  });

  it.skipIf(!support.available)(
    `leaves no plugin process behind, sandboxed: bwrap's --die-with-parent${support.available ? '' : ` (skipped: ${support.reason})`}`,
    async () => {
      await killDuringNap('sandbox', /^\S*bwrap .* -- \S*python3 .*plugin\.py$/);
      expect(await leftovers(10_000)).toEqual([]);
    },
  );
});

/** A process of our own in a group of its own, as a plugin is. */
function sleeper(): ChildProcess {
  const p = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
  started.push(p);
  return p;
}

/** A pid that no process has now: one that ran and exited. */
async function deadPid(): Promise<number> {
  const p = spawn('true');
  await new Promise((r) => p.on('exit', r));
  return p.pid as number;
}

describe('a start after a run whose reaper died too', () => {
  it('stops the recorded processes whose start time matches, and never one whose pid was reused', async () => {
    const data = tmpDir('leftovers');
    const ours = sleeper();
    const reused = sleeper();
    await expect.poll(() => startTimeOf(ours.pid as number) && startTimeOf(reused.pid as number)).toBeTruthy();
    const start = startTimeOf(ours.pid as number) as string;
    const wrongStart = String(Number(startTimeOf(reused.pid as number)) - 500);
    mkdirSync(path.join(data, 'processes'));
    const leftBy = { pid: await deadPid(), start: '12345', boot: bootId() };
    const processes = [
      { pid: ours.pid, pgid: ours.pid, start, plugin: 'napper' },
      { pid: reused.pid, pgid: reused.pid, start: wrongStart, plugin: 'other' },
    ];
    writeFileSync(
      path.join(data, 'processes', `${leftBy.pid}-0a0b0c0d.json`),
      JSON.stringify({ host: leftBy, processes }),
    );

    const registry = await PluginRegistry.open({ dataDir: data });
    try {
      expect(await gone(ours.pid as number, 5000)).toBe(true);
      expect(isAlive(reused.pid as number)).toBe(true);
      expect(registry.startupNotes).toEqual(
        expect.arrayContaining([
          `stopped plugin processes a previous Plugboard left running: napper (pid ${ours.pid})`,
          `left alone, as their pids now belong to other programs: other (pid ${reused.pid})`,
        ]),
      );
      // The dead host's file is gone; this registry has none until it starts a plugin.
      expect(readdirSync(path.join(data, 'processes'))).toEqual([]);
    } finally {
      registry.dispose();
      reused.kill('SIGKILL');
    }
  });

  it('leaves the file of a host that still runs alone, with its processes', async () => {
    const data = tmpDir('leftovers-live');
    const plugin = sleeper();
    await expect.poll(() => startTimeOf(plugin.pid as number)).toBeTruthy();
    mkdirSync(path.join(data, 'processes'));
    const me = { pid: process.pid, start: startTimeOf(process.pid), boot: bootId() };
    const file = path.join(data, 'processes', `${process.pid}-01020304.json`);
    writeFileSync(
      file,
      JSON.stringify({
        host: me,
        processes: [{ pid: plugin.pid, pgid: plugin.pid, start: startTimeOf(plugin.pid as number), plugin: 'p' }],
      }),
    );
    const registry = await PluginRegistry.open({ dataDir: data });
    try {
      expect(isAlive(plugin.pid as number)).toBe(true);
      expect(readdirSync(path.join(data, 'processes'))).toEqual([path.basename(file)]);
    } finally {
      registry.dispose();
      plugin.kill('SIGKILL');
    }
  });
});

describe('the pid registry while a host runs', () => {
  it('names each running plugin process with its start time, and forgets it once it is gone', async () => {
    const data = tmpDir('pid-registry');
    const registry = await PluginRegistry.open({
      dataDir: data,
      bundledDir: path.join(REPO, 'test', 'fixtures', 'orphans'),
      sandbox: false,
    });
    try {
      expect((await registry.start('napper')).ok).toBe(true);
      const pid = registry.host.healthOf('napper')?.pid as number;
      const files = readdirSync(path.join(data, 'processes'));
      expect(files).toEqual([expect.stringMatching(new RegExp(`^${process.pid}-[0-9a-f]{8}\\.json$`))]);
      const rec = JSON.parse(readFileSync(path.join(data, 'processes', files[0] as string), 'utf8')) as {
        host: { pid: number };
        processes: unknown[];
      };
      expect(rec.host.pid).toBe(process.pid);
      expect(rec.processes).toEqual([{ pid, pgid: pid, start: startTimeOf(pid), plugin: 'napper' }]);
      await registry.stop('napper');
      expect(readdirSync(path.join(data, 'processes'))).toEqual([]);
    } finally {
      await registry.shutdown();
      registry.dispose();
    }
  });
});
