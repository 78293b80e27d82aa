/**
 * Installing plugins as they come in practice: a folder right after `npm install` (links in
 * node_modules, more than 4,096 entries, `.git`), GitHub release archives wrapped in a
 * `<name>-<version>` folder. Real folders, real zips, a real registry with its default limits.
 */
import { cpSync, lstatSync, mkdirSync, readlinkSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, FIXTURES, REPO, tmpDir } from '../helpers/plugins';
import { TEST_RUN_MARK } from '../helpers/processes';
import { folderItems, writeZip } from '../helpers/zips';

let registry: PluginRegistry;
let data: string;
let src: string;

beforeAll(async () => {
  const sandbox = tmpDir('install-compat');
  data = path.join(sandbox, 'data');
  src = path.join(sandbox, 'src');
  mkdirSync(src);
  const [k, v] = TEST_RUN_MARK.split('=') as [string, string];
  registry = await PluginRegistry.open({ dataDir: data, bundledDir: path.join(REPO, 'plugins'), env: { [k]: v } });
});

afterAll(async () => {
  await registry.shutdown();
  registry.dispose();
  cleanupFixtures();
});

/** The mcpb-echo bundle as a folder looks after `npm install`: node_modules with npm's links. */
function npmInstalledFolder(name: string): string {
  const dir = path.join(src, name);
  cpSync(path.join(FIXTURES, 'mcpb-echo'), dir, { recursive: true });
  const pkg = path.join(dir, 'node_modules', 'left-pad');
  mkdirSync(path.join(pkg, 'bin'), { recursive: true });
  writeFileSync(path.join(pkg, 'bin', 'cli.js'), '#!/usr/bin/env node\n');
  writeFileSync(path.join(pkg, 'index.js'), 'module.exports = (s) => s;\n');
  mkdirSync(path.join(dir, 'node_modules', '.bin'));
  symlinkSync('../left-pad/bin/cli.js', path.join(dir, 'node_modules', '.bin', 'left-pad'));
  // A nested package's own .bin, and a link to a folder inside the plugin (workspaces do this).
  const nested = path.join(dir, 'node_modules', 'outer', 'node_modules');
  mkdirSync(path.join(nested, '.bin'), { recursive: true });
  symlinkSync('../../../left-pad/bin/cli.js', path.join(nested, '.bin', 'left-pad'));
  symlinkSync(pkg, path.join(dir, 'node_modules', 'left-pad-alias'));
  mkdirSync(path.join(dir, '.git', 'objects'), { recursive: true });
  writeFileSync(path.join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(path.join(dir, 'package-lock.json'), '{}');
  mkdirSync(path.join(dir, 'docs'));
  writeFileSync(path.join(dir, 'docs', 'guide.md'), '# guide');
  writeFileSync(path.join(dir, '.mcpbignore'), '# what the bundle leaves out\ndocs/\n');
  return dir;
}

describe('folders as npm leaves them', () => {
  it('installs links that stay inside, as relative links into the copy, and leaves out what mcpb pack leaves out', async () => {
    const dir = npmInstalledFolder('npm-folder');
    const r = await registry.installer.install(dir);
    expect(r).toEqual(expect.objectContaining({ ok: true, id: 'mcpb-echo' }));
    const installed = path.join(data, 'plugins', 'mcpb-echo');
    for (const gone of ['.git', 'node_modules/.bin', 'package-lock.json', 'docs', '.mcpbignore']) {
      expect([gone, existsSync(path.join(installed, gone))]).toEqual([gone, false]);
    }
    const nestedLink = path.join(installed, 'node_modules', 'outer', 'node_modules', '.bin', 'left-pad');
    expect(lstatSync(nestedLink).isSymbolicLink()).toBe(true);
    expect(readlinkSync(nestedLink)).toBe('../../../left-pad/bin/cli.js');
    // An absolute link into the source folder now points into the installed copy.
    expect(readlinkSync(path.join(installed, 'node_modules', 'left-pad-alias'))).toBe('left-pad');
    const o = await registry.call('mcpb-echo', 'greet', { name: 'npm' }).done;
    expect(o).toEqual({ ok: true, value: expect.objectContaining({ data: 'Hello, npm!' }) });
    await registry.installer.uninstall('mcpb-echo');
  });

  it('refuses a link that points outside the folder, or nowhere, naming it', async () => {
    const out = npmInstalledFolder('link-out');
    symlinkSync('/etc', path.join(out, 'node_modules', 'etc'));
    const r = await registry.installer.install(out);
    expect(!r.ok && r.message).toBe(
      '"node_modules/etc" is a symbolic link to /etc, outside the plugin folder; plugins may only link inside themselves',
    );
    const dangling = npmInstalledFolder('link-nowhere');
    symlinkSync('./missing.js', path.join(dangling, 'server', 'gone.js'));
    const d = await registry.installer.install(dangling);
    expect(!d.ok && d.message).toBe('"server/gone.js" is a symbolic link to something that does not exist');
  });

  it('installs a real-sized bundle: more than 4,096 entries fit the default limits', async () => {
    const dir = path.join(src, 'big');
    cpSync(path.join(FIXTURES, 'mcpb-echo'), dir, { recursive: true });
    // 5,000 files in 100 packages, about what @modelcontextprotocol/server-filesystem brings (4,730 entries).
    for (let p = 0; p < 100; p++) {
      const pkg = path.join(dir, 'node_modules', `pkg-${p}`);
      mkdirSync(pkg, { recursive: true });
      for (let f = 0; f < 50; f++) writeFileSync(path.join(pkg, `f${f}.js`), '');
    }
    const r = await registry.installer.install(dir, { replace: true });
    expect(r).toEqual(expect.objectContaining({ ok: true, id: 'mcpb-echo' }));
    expect(r.ok && r.detail).toMatch(/\(folder, 51\d\d entries, /);
    await registry.installer.uninstall('mcpb-echo');
  });
});

describe('archives wrapped in a versioned folder', () => {
  it('installs a G-Assist plugin under its name without the version, and an MCPB bundle under its manifest name', async () => {
    const gassist = await writeZip(
      path.join(src, 'weather-1.2.0.zip'),
      folderItems(path.join(FIXTURES, 'gassist-python'), 'weather-1.2.0/'),
    );
    const r = await registry.installer.install(gassist);
    expect(r).toEqual(expect.objectContaining({ ok: true, id: 'weather' }));
    expect(await registry.call('weather', 'say_hello', { name: 'release' }).done).toEqual({
      ok: true,
      value: expect.objectContaining({ data: 'Hello, release!' }),
    });
    const bundle = await writeZip(
      path.join(src, 'echo-v1.0.0.zip'),
      folderItems(path.join(FIXTURES, 'mcpb-echo'), 'mcpb-echo-1.0.0/'),
    );
    expect(await registry.installer.install(bundle)).toEqual(expect.objectContaining({ ok: true, id: 'mcpb-echo' }));
  });
});
