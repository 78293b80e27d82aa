/**
 * A manifest cannot choose the folders it sees. The hostile plugin's folder setting is given a
 * default (a folder of the person's, as `${HOME}` or `~/.ssh` would be) and the plugin is
 * installed the CLI's way, granted what it requests (fs.read among it): the folder stays out of
 * its sandbox until the person sets it. Real registry, real bwrap, real files.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { describeFailure } from '../../src/shared/failures';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';
import { describeSandboxed } from '../helpers/sandbox';

let registry: PluginRegistry;
let folder: string;

async function read(file: string): Promise<{ ok: boolean; value?: string; code?: string }> {
  const o = await registry.call('hostile', 'read_file', { path: file }).done;
  if (!o.ok) throw new Error(describeFailure(o));
  return o.value.data as { ok: boolean; value?: string; code?: string };
}

describeSandboxed('a folder named by the manifest alone', () => {
  beforeAll(async () => {
    const root = tmpDir('default-folders');
    folder = path.join(root, 'persons-folder');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'private.txt'), 'not for a plugin to choose\n');
    const plugin = path.join(root, 'hostile');
    cpSync(path.join(FIXTURES, 'hostile', 'node'), plugin, { recursive: true });
    const m = JSON.parse(readFileSync(path.join(plugin, 'plugboard.json'), 'utf8')) as {
      settings: Record<string, Record<string, unknown>>;
    };
    (m.settings.folders as Record<string, unknown>).default = [folder];
    writeFileSync(path.join(plugin, 'plugboard.json'), JSON.stringify(m));
    registry = await PluginRegistry.open({
      dataDir: path.join(root, 'data'),
      env: { PLUGBOARD_TEST_RUN: String(process.pid) },
    });
    const r = await registry.installer.install(plugin);
    expect(r.ok && r.granted).toEqual(expect.arrayContaining(['fs.read']));
  });

  afterAll(async () => {
    await registry?.shutdown();
    registry?.dispose();
    expect(await leftovers()).toEqual([]);
    cleanupFixtures();
  });

  it('is not in the sandbox, though fs.read is granted, until the person sets it', async () => {
    expect(await read(path.join(folder, 'private.txt'))).toEqual(
      expect.objectContaining({ ok: false, code: 'ENOENT' }),
    );
    expect((await registry.decisions.configure('hostile', { folders: [folder] })).ok).toBe(true);
    expect(await read(path.join(folder, 'private.txt'))).toEqual({ ok: true, value: 'not for a plugin to choose\n' });
  });
});
