/**
 * The sandbox holds when Plugboard runs as root (containers, CI, many servers; this machine): a
 * real hostile plugin, installed and run by a real registry, tries what the red team did as root
 * (write kernel.core_pattern, read /etc/shadow, list the keyrings) and each attempt fails. Run as
 * an ordinary user the same attempts must fail too; the checks of who the plugin runs as apply
 * under root only, and say so where they are skipped.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rootNotice, runningAsRoot } from '../../src/main/host/process/root';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { describeFailure } from '../../src/shared/failures';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';
import { describeSandboxed, support } from '../helpers/sandbox';

interface Attempt {
  ok: boolean;
  value?: unknown;
  code?: string;
}

let registry: PluginRegistry;

async function attempt(tool: string, args: Record<string, unknown> = {}): Promise<Attempt & Record<string, unknown>> {
  const o = await registry.call('hostile', tool, args).done;
  if (!o.ok) throw new Error(`${tool}: ${describeFailure(o)}`);
  return o.value.data as Attempt & Record<string, unknown>;
}

const asRoot = runningAsRoot();
if (!asRoot) console.warn('root-only checks of who the plugin runs as are skipped: this test runs as an ordinary user');

describeSandboxed('the sandbox, with Plugboard running as root', () => {
  beforeAll(async () => {
    const data = path.join(tmpDir('sandbox-root'), 'data');
    registry = await PluginRegistry.open({ dataDir: data, env: { PLUGBOARD_TEST_RUN: String(process.pid) } });
    // Every capability it asks for but the folders: it still must not reach the host's secrets.
    expect((await registry.installer.install(path.join(FIXTURES, 'hostile', 'node'), { grant: 'none' })).ok).toBe(true);
    expect((await registry.decisions.grant('hostile', ['net', 'process.spawn'])).ok).toBe(true);
  });

  afterAll(async () => {
    await registry?.shutdown();
    registry?.dispose();
    expect(await leftovers()).toEqual([]);
    cleanupFixtures();
  });

  it('cannot write kernel.core_pattern: the write fails and the value is unchanged', async () => {
    const file = '/proc/sys/kernel/core_pattern';
    const before = readFileSync(file, 'utf8');
    // The value it read, written back: harmless if it got through, and the red team's exact attempt.
    const r = await attempt('write_file', { path: file, content: before });
    expect(r.ok).toBe(false);
    expect(['EROFS', 'EACCES', 'EPERM']).toContain(r.code);
    expect(readFileSync(file, 'utf8')).toBe(before);
    // Nor anything else under /proc/sys.
    expect((await attempt('write_file', { path: '/proc/sys/vm/drop_caches', content: '1' })).ok).toBe(false);
  });

  it('cannot read /etc/shadow or /etc/gshadow, itself or through a program it starts', async () => {
    for (const file of ['/etc/shadow', '/etc/gshadow'])
      expect(await attempt('read_file', { path: file }), file).toMatchObject({ ok: false, code: 'EACCES' });
    expect((await attempt('spawn_cat', { path: '/etc/shadow' })).ok).toBe(false);
    // /etc itself is there: what any user may read still is.
    expect((await attempt('read_file', { path: '/etc/passwd' })).ok).toBe(true);
  });

  it('cannot list the keyrings in /proc/keys or /proc/key-users', async () => {
    for (const file of ['/proc/keys', '/proc/key-users']) {
      const r = await attempt('read_file', { path: file });
      expect(r.ok, `${file}: ${JSON.stringify(r)}`).toBe(false);
    }
  });

  it.skipIf(!asRoot)('runs as an unprivileged user, with no capability, and says so', async () => {
    const me = await attempt('whoami');
    expect(support.available && support.root).toMatchObject({ uid: 65534 });
    expect(me.uid).toBe(65534);
    expect(me.uid).not.toBe(0);
    expect(me.capabilities).toBe('0000000000000000');
    // Its own data folder is its to write, as before.
    const own = path.join(registry.paths.pluginData('hostile'), 'mine.txt');
    expect((await attempt('write_file', { path: own, content: 'mine\n' })).ok).toBe(true);
    expect(readFileSync(own, 'utf8')).toBe('mine\n');
    // And the app and the CLI say what running as root means.
    expect(rootNotice(true, support.available ? support.root : null)).toMatch(
      /^Plugboard runs as root: each plugin runs in its sandbox as the unprivileged user nobody/,
    );
    expect(rootNotice(false, null)).toMatch(/plugins run unsandboxed: every plugin can do anything root can/);
  });
});
