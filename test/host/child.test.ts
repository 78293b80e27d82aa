/** The plugin process wrapper on its own: what a grandchild that outlives its parent does to it. */
import { describe, expect, it } from 'vitest';
import { createCodec } from '../../src/main/host/framing';
import { PluginProcess } from '../../src/main/host/process/child';
import { groupAlive } from '../../src/main/host/process/group';
import { tmpDir } from '../helpers/plugins';
import { TEST_RUN_MARK, leftovers } from '../helpers/processes';

describe('plugin process', () => {
  it('reports its exit once, even when a grandchild holds stdout open and writes after it', async () => {
    const junk: string[] = [];
    const codec = createCodec('ndjson', { message: () => undefined, junk: (text) => junk.push(text) });
    const [key, value] = TEST_RUN_MARK.split('=') as [string, string];
    const proc = await PluginProcess.start({
      file: '/bin/sh',
      args: ['-c', '(sleep 0.3; echo written-after-exit) & exit 0'],
      cwd: tmpDir('child'),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', [key]: value },
      launchMs: 5000,
      decoder: codec.decoder,
      displayCommand: ['sh'],
      pathSearched: '',
    });
    if (!(proc instanceof PluginProcess)) throw new Error(proc.message);
    const pid = proc.pid as number;
    const exits: unknown[] = [];
    proc.onDidExit((e) => exits.push(e));
    expect(await proc.exit).toMatchObject({ code: 0, expected: false });
    // The grandchild's line still reaches the decoder, and its end of stdout changes nothing.
    await expect.poll(() => junk, { timeout: 5000 }).toEqual(['written-after-exit']);
    await expect.poll(() => groupAlive(pid), { timeout: 5000 }).toBe(false);
    await new Promise((r) => setImmediate(r));
    expect(exits).toHaveLength(1);
    proc.dispose();
    expect(await leftovers()).toEqual([]);
  });

  it('counts a group alive while a member outlives its leader, and not once it is gone', async () => {
    // groupAlive answers "no" from a signal-0 probe without reading /proc: that answer must never
    // come while a member still runs.
    const codec = createCodec('ndjson', { message: () => undefined, junk: () => undefined });
    const [key, value] = TEST_RUN_MARK.split('=') as [string, string];
    const proc = await PluginProcess.start({
      file: '/bin/sh',
      args: ['-c', 'sleep 60 >/dev/null 2>&1 & exit 0'],
      cwd: tmpDir('child'),
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', [key]: value },
      launchMs: 5000,
      decoder: codec.decoder,
      displayCommand: ['sh'],
      pathSearched: '',
    });
    if (!(proc instanceof PluginProcess)) throw new Error(proc.message);
    const pid = proc.pid as number;
    await proc.exit;
    expect(await groupAlive(pid)).toBe(true);
    const r = await proc.stop({ graceMs: 100, termGraceMs: 100 });
    expect(r.orphans).toBe(true);
    expect(await groupAlive(pid)).toBe(false);
    proc.dispose();
    expect(await leftovers()).toEqual([]);
  });
});
