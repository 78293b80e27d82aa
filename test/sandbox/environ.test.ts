/**
 * The host's own environment never reaches a sandboxed plugin: a real `plugboard` process,
 * started with an API key in its environment, runs a hostile plugin that looks for the key in
 * /proc/<parent>/environ, /proc/1/environ and every process it can see. Unsandboxed
 * (PLUGBOARD_SANDBOX=off) the same plugin finds it, which shows the attempt is real.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, FIXTURES, REPO, tmpDir } from '../helpers/plugins';
import { describeSandboxed } from '../helpers/sandbox';

const KEY = `sk-live-marker-${process.pid}-${Date.now()}`;

interface Hunt {
  ok: boolean;
  direct: Record<string, { pid: number; readable: boolean; found: boolean }>;
  pids: number[];
  foundIn: number[];
}

let data: string;

/** `plugboard call hostile hunt_secret --json` with the key in the host's environment; the result's data. */
function hunt(extraEnv: Record<string, string>): Promise<Hunt> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [
        path.join(REPO, 'bin', 'plugboard.mjs'),
        'call',
        'hostile',
        'hunt_secret',
        '--args',
        JSON.stringify({ needle: KEY }),
        '--data-dir',
        data,
        '--json',
      ],
      { cwd: REPO, timeout: 25_000, env: { ...process.env, OPENAI_API_KEY: KEY, ...extraEnv } },
      (err, stdout, stderr) => {
        const last = stdout.trim().split('\n').pop() ?? '';
        try {
          const line = JSON.parse(last) as { type: string; data?: Hunt };
          if (line.type === 'complete' && line.data) return resolve(line.data);
        } catch {
          // reported below
        }
        reject(new Error(`plugboard call gave no result (${err?.message ?? 'no error'}):\n${stdout}\n${stderr}`));
      },
    );
  });
}

describeSandboxed('the host’s environment', () => {
  beforeAll(async () => {
    data = path.join(tmpDir('sandbox-environ'), 'data');
    const registry = await PluginRegistry.open({ dataDir: data });
    expect((await registry.installer.install(path.join(FIXTURES, 'hostile', 'node'), { grant: 'none' })).ok).toBe(true);
    await registry.shutdown();
    registry.dispose();
  });

  afterAll(() => cleanupFixtures());

  it('is not readable from the sandbox: not the parent’s, not PID 1’s, not any process’s', async () => {
    const r = await hunt({});
    expect(r.ok).toBe(false);
    expect(r.foundIn).toEqual([]);
    // Inside, the parent and PID 1 are bwrap's reaper, started with the plugin's own environment.
    expect(r.direct.parent).toMatchObject({ pid: 1, readable: true, found: false });
    expect(r.direct.init).toMatchObject({ readable: true, found: false });
    expect(r.pids.length).toBeLessThan(10);
  });

  it('is readable without the sandbox (the attempt works when nothing stops it)', async () => {
    const r = await hunt({ PLUGBOARD_SANDBOX: 'off' });
    expect(r.ok).toBe(true);
    expect(r.direct.parent).toMatchObject({ readable: true, found: true });
  });
});
