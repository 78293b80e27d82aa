/**
 * A folder granted that holds Plugboard's own data directory (the study's `npx mcp-server-sqlite-npx
 * /tmp/f4/x.db` with the data directory in /tmp/f4/d): the plugin runs from its folder inside the
 * data directory's mask, which under root it must still be able to pass through, and the rest of the
 * data directory (other plugins' secrets, the state) stays hidden behind the mask.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { describeFailure } from '../../src/shared/failures';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';
import { describeSandboxed } from '../helpers/sandbox';

let registry: PluginRegistry;
let root: string;
let data: string;

async function attempt(tool: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const o = await registry.call('hostile', tool, args).done;
  if (!o.ok) throw new Error(`${tool}: ${describeFailure(o)}`);
  return o.value.data as Record<string, unknown>;
}

describeSandboxed('a granted folder that holds the data directory', () => {
  beforeAll(async () => {
    root = tmpDir('parent-grant');
    // Under root the plugin runs as nobody: the person's folder lets others write, as it must.
    if (process.getuid?.() === 0) chmodSync(root, 0o777);
    data = path.join(root, 'data');
    registry = await PluginRegistry.open({ dataDir: data, env: { PLUGBOARD_TEST_RUN: String(process.pid) } });
    const installed = await registry.installer.install(path.join(FIXTURES, 'hostile', 'node'), {
      grant: [],
      folders: [{ path: root, write: true }],
    });
    expect(installed.ok, JSON.stringify(installed)).toBe(true);
    mkdirSync(path.join(data, 'plugin-data', 'other'), { recursive: true });
    writeFileSync(path.join(data, 'secrets.json'), '{"other":{"token":"sk-parent-grant"}}\n');
  });

  afterAll(async () => {
    await registry?.shutdown();
    registry?.dispose();
    expect(await leftovers()).toEqual([]);
    cleanupFixtures();
  });

  it('starts and answers, writes the granted folder, and sees nothing of the data directory but its own', async () => {
    // Its own code, under the mask (under root, through folders bwrap made for the way there).
    expect(await attempt('write_file', { path: path.join(root, 'made.txt'), content: 'made' })).toMatchObject({
      ok: true,
    });
    const secrets = await attempt('read_file', { path: path.join(data, 'secrets.json') });
    expect(secrets.ok).toBe(false);
    expect(JSON.stringify(secrets)).not.toContain('sk-parent-grant');
    const listing = await attempt('list_dir', { path: data });
    expect(JSON.stringify(listing)).not.toContain('secrets.json');
    expect(JSON.stringify(listing)).not.toContain('state.json');
  });
});
