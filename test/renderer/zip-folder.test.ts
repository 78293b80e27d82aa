/**
 * The web UI packs a chosen folder into a zip before uploading it (api/zip-folder.ts). The zip is
 * read back by the install's own unpacker (yauzl, with its CRC and size checks) and by Python's
 * zipfile, and installs the files a folder install would: the bundle exclusions and the folder's
 * .mcpbignore apply. Node's File stands in for the browser's; `webkitRelativePath`, which only a
 * browser's folder picker sets, is set on each as the picker would.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packFolder } from '../../src/renderer/src/api/zip-folder';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, FIXTURES, REPO, tmpDir } from '../helpers/plugins';

afterAll(() => cleanupFixtures());

/** The files of `dir` as a browser's folder picker hands them over: named `folder/rel/path`. */
function picked(dir: string, extra: Record<string, string> = {}): File[] {
  const folder = path.basename(dir);
  const out: File[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(dir, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      if (statSync(path.join(dir, r)).isDirectory()) walk(r);
      else out.push(withPath(new File([readFileSync(path.join(dir, r))], name), `${folder}/${r}`));
    }
  };
  walk('');
  for (const [r, text] of Object.entries(extra))
    out.push(withPath(new File([text], path.basename(r)), `${folder}/${r}`));
  return out;
}

function withPath(f: File, rel: string): File {
  Object.defineProperty(f, 'webkitRelativePath', { value: rel });
  return f;
}

describe('packing a chosen folder in the web UI', () => {
  it('makes a zip that installs the folder, leaving out what a folder install leaves out', async () => {
    const files = picked(path.join(FIXTURES, 'mcpb-echo'), {
      '.git/config': '[core]',
      'node_modules/.bin/tool': '#!/bin/sh',
      'notes/private.txt': 'not for the bundle',
      '.mcpbignore': '# mine\nnotes/\n',
      'server/ünïcode.txt': 'names are UTF-8',
    });
    const r = await packFolder(files);
    if (!r.ok) throw new Error(r.message);
    expect(r.zip.name).toBe('mcpb-echo.zip');
    const zip = path.join(tmpDir('packed'), 'mcpb-echo.zip');
    writeFileSync(zip, Buffer.from(await r.zip.arrayBuffer()));

    // Python's zipfile checks every CRC.
    const names = spawnSync(
      'python3',
      [
        '-c',
        'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print("\\n".join(z.namelist()))',
        zip,
      ],
      { encoding: 'utf8' },
    );
    expect(names.stderr).toBe('');
    const listed = names.stdout.trim().split('\n').sort();
    expect(listed).toContain('mcpb-echo/manifest.json');
    expect(listed).toContain('mcpb-echo/server/ünïcode.txt');
    expect(listed.filter((n) => /\.git\/|node_modules\/\.bin|notes\//.test(n))).toEqual([]);

    const registry = await PluginRegistry.open({
      dataDir: path.join(tmpDir('packed-data'), 'data'),
      bundledDir: path.join(REPO, 'plugins'),
    });
    try {
      const preview = await registry.installer.preview(zip);
      expect(preview.ok && preview.preview.trial).toMatchObject({ status: 'ok', tools: 2 });
      const installed = await registry.installer.install(zip);
      expect(installed.ok).toBe(true);
      const dir = registry.record('mcpb-echo')?.dir ?? '';
      expect(readFileSync(path.join(dir, 'server', 'index.mjs'), 'utf8')).toBe(
        readFileSync(path.join(FIXTURES, 'mcpb-echo', 'server', 'index.mjs'), 'utf8'),
      );
    } finally {
      await registry.shutdown();
      registry.dispose();
    }
  });

  it('says so when the folder is empty', async () => {
    expect(await packFolder([])).toEqual({
      ok: false,
      code: 'invalid_input',
      message: 'The folder is empty: pick a plugin folder, with its manifest inside.',
    });
  });
});
