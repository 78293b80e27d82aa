/**
 * Nothing a plugin chooses runs outside its sandbox (issue 18, item 1). A plugin whose manifest
 * puts a folder first on its PATH, where a `python3` and a `node` were planted (they would write a
 * marker and copy another plugin's secrets.json out of the data directory), is tried in the
 * install preview, installed and called, and checked with `plugboard check`, sandboxed and not:
 * the planted programs never run, and the plugin runs with the interpreter Plugboard finds itself.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkPlugin } from '../../src/main/plugins/check';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { describeFailure } from '../../src/shared/failures';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';
import { describeSandboxed } from '../helpers/sandbox';

const SECRET = `sk-planted-${process.pid}`;
let root: string;
let data: string;
let marker: string;
let planted: string;
let registry: PluginRegistry;

/** A copy of a hostile fixture whose manifest puts `dirs` first on its PATH. */
function withPath(fixture: 'node' | 'python', id: string, dirs: string[]): string {
  const dir = path.join(root, id);
  cpSync(path.join(FIXTURES, 'hostile', fixture), dir, { recursive: true });
  const file = path.join(dir, 'plugboard.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...manifest, id, env: { PATH: [...dirs, '/usr/bin', '/bin'].join(':') } }));
  return dir;
}

/** A program that, run on the host, leaves the marker and takes the secrets with it. */
function plant(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  for (const name of ['python3', 'python', 'node']) {
    const f = path.join(dir, name);
    writeFileSync(
      f,
      `#!/bin/sh\necho "ran $0" >> '${marker}'\ncat '${data}/secrets.json' >> '${marker}' 2>&1\nexit 1\n`,
    );
    chmodSync(f, 0o755);
  }
}

function assertNeverRan(): void {
  expect(existsSync(marker) ? readFileSync(marker, 'utf8') : 'never ran').toBe('never ran');
}

describeSandboxed('a program planted on the PATH a manifest sets', () => {
  beforeAll(async () => {
    root = tmpDir('planted');
    chmodSync(root, 0o755);
    data = path.join(root, 'data');
    marker = path.join(root, 'ran-on-the-host');
    planted = path.join(root, 'planted-bin');
    plant(planted);
    registry = await PluginRegistry.open({ dataDir: data, env: { PLUGBOARD_TEST_RUN: String(process.pid) } });
    // Another plugin's secret, in the data directory's secrets.json: what the planted program is after.
    const victim = withPath('node', 'victim', []);
    expect((await registry.installer.install(victim, { grant: 'none' })).ok).toBe(true);
    expect((await registry.decisions.configure('victim', { api_key: SECRET })).ok).toBe(true);
    expect(readFileSync(path.join(data, 'secrets.json'), 'utf8')).toContain(SECRET);
  });

  afterAll(async () => {
    await registry?.shutdown();
    registry?.dispose();
    expect(await leftovers()).toEqual([]);
    cleanupFixtures();
  });

  it('is not run by the install preview’s trial, which runs the plugin with Plugboard’s python3', async () => {
    const dir = withPath('python', 'planted-python', [planted]);
    const r = await registry.installer.preview(dir);
    if (!r.ok) throw new Error(describeFailure(r));
    expect(r.preview.trial).toMatchObject({ status: 'ok' });
    expect(r.preview.command[0]).not.toContain(planted);
    assertNeverRan();
  });

  it('is not run at launch, and the plugin runs with the real interpreter', async () => {
    const dir = withPath('python', 'planted-python', [planted]);
    expect((await registry.installer.install(dir, { grant: 'none' })).ok).toBe(true);
    const o = await registry.call('planted-python', 'whoami', {}).done;
    if (!o.ok) throw new Error(describeFailure(o));
    const me = o.value.data as { executable: string };
    expect(me.executable).not.toContain(planted);
    expect(me.executable).not.toContain('/shims/');
    assertNeverRan();
  });

  it('is not run by plugboard check, sandboxed or not, nor one the plugin ships in its own folder', async () => {
    const dir = withPath('node', 'planted-node', [planted, '${__dirname}/bin']);
    plant(path.join(dir, 'bin'));
    const sandboxed = await checkPlugin(dir, { sandbox: { hiddenRoot: data } });
    expect(sandboxed.items.find((i) => i.name === 'handshake')?.status, JSON.stringify(sandboxed.items)).toBe('pass');
    const plain = await checkPlugin(dir);
    expect(plain.items.find((i) => i.name === 'handshake')?.status, JSON.stringify(plain.items)).toBe('pass');
    assertNeverRan();
  });
});
