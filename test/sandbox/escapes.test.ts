/**
 * A hostile plugin, installed into a real data directory and run by a real registry, tries every
 * escape a plugin without grants has tried on an unsandboxed Plugboard: the data directory's
 * secrets, conversations, state and audit log, another plugin's code, files outside its own
 * folder, the host's processes, the network. Each must fail; each granted thing must work.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConversationStore } from '../../src/main/assistant/store/store';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { describeFailure } from '../../src/shared/failures';
import { cleanupFixtures, FIXTURES, REPO, tmpDir } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';
import { describeSandboxed } from '../helpers/sandbox';

interface Attempt {
  ok: boolean;
  value?: unknown;
  code?: string;
}

const SECRET = `sk-hostile-test-${process.pid}`;
const CONVERSATION = `a conversation about plan ${process.pid}`;

let root: string;
let data: string;
let outside: string;
let registry: PluginRegistry;
let server: net.Server;
let port: number;

async function attempt(
  tool: string,
  args: Record<string, unknown> = {},
  id = 'hostile',
): Promise<Attempt & Record<string, unknown>> {
  const o = await registry.call(id, tool, args).done;
  if (!o.ok) throw new Error(`${tool}: ${describeFailure(o)}`);
  return o.value.data as Attempt & Record<string, unknown>;
}

describeSandboxed('a hostile plugin in the sandbox', () => {
  beforeAll(async () => {
    root = tmpDir('sandbox-escapes');
    data = path.join(root, 'data');
    outside = path.join(root, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'notes.txt'), 'the person’s own notes\n');
    registry = await PluginRegistry.open({
      dataDir: data,
      bundledDir: path.join(REPO, 'plugins'),
      env: { PLUGBOARD_TEST_RUN: String(process.pid) },
    });
    expect(registry.sandboxSupport.available).toBe(true);
    expect((await registry.installer.install(path.join(FIXTURES, 'hostile', 'node'), { grant: 'none' })).ok).toBe(true);
    // A second installed plugin, whose code the hostile one will try to replace.
    const victim = path.join(tmpDir('victim'), 'victim');
    cpSync(path.join(FIXTURES, 'hostile', 'node'), victim, { recursive: true });
    const manifest = JSON.parse(readFileSync(path.join(victim, 'plugboard.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(path.join(victim, 'plugboard.json'), JSON.stringify({ ...manifest, id: 'victim' }));
    expect((await registry.installer.install(victim, { grant: 'none' })).ok).toBe(true);
    // A secret (kept in secrets.json by the CLI's store) and a conversation on disk.
    expect((await registry.decisions.configure('victim', { api_key: SECRET })).ok).toBe(true);
    const store = await ConversationStore.open(registry.paths.conversations);
    store.create('c1', CONVERSATION, Date.now());
    store.dispose();
    server = net.createServer((s) => s.end('hello from the host\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as net.AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await registry?.shutdown();
    registry?.dispose();
    expect(await leftovers()).toEqual([]);
    cleanupFixtures();
  });

  it('runs with its own folder, its own data folder as HOME, and nothing of the home folder or /run', async () => {
    const me = await attempt('whoami');
    expect(me.home).toBe(registry.paths.pluginData('hostile'));
    expect(me.root).not.toContain('root');
    expect(me.root).not.toContain('home');
    expect(me.root).not.toContain('run');
    expect(me.root).not.toContain('var');
    expect((await attempt('list_dir', { path: os.homedir() })).ok).toBe(false);
    expect(
      (await attempt('read_file', { path: path.join(registry.record('hostile')?.dir ?? '', 'plugboard.json') })).ok,
    ).toBe(true);
  });

  it('cannot read the secrets, the conversations or the state in the data directory', async () => {
    // The files are there, holding what the plugin is after.
    expect(readFileSync(registry.paths.secrets, 'utf8')).toContain(SECRET);
    expect(readFileSync(registry.paths.conversations).toString('latin1')).toContain(CONVERSATION);
    for (const file of [
      registry.paths.secrets,
      registry.paths.conversations,
      registry.paths.state,
      registry.paths.audit,
    ]) {
      expect(await attempt('read_file', { path: file }), file).toEqual({ ok: false, code: 'ENOENT' });
    }
    expect(await attempt('list_dir', { path: data })).toEqual({
      ok: true,
      value: expect.not.arrayContaining(['secrets.json', 'state.json', 'audit.log']),
    });
  });

  it('cannot grant itself capabilities in state.json, nor erase its lines from audit.log', async () => {
    const state = readFileSync(registry.paths.state, 'utf8');
    const audit = readFileSync(registry.paths.audit, 'utf8');
    const forged = JSON.stringify({
      plugins: {
        hostile: {
          enabled: true,
          exposed: true,
          tools: {},
          grants: ['fs.read', 'fs.write', 'net', 'secrets'],
          settings: {},
        },
      },
    });
    expect((await attempt('write_file', { path: registry.paths.state, content: forged })).ok).toBe(false);
    expect((await attempt('truncate_file', { path: registry.paths.audit })).ok).toBe(false);
    expect(readFileSync(registry.paths.state, 'utf8')).toBe(state);
    expect(readFileSync(registry.paths.audit, 'utf8')).toBe(audit);
    expect(registry.decisions.pluginState('hostile').grants).toEqual([]);
  });

  it('cannot see or rewrite another plugin’s code or data', async () => {
    const code = path.join(registry.paths.plugin('victim'), 'plugin.mjs');
    const before = readFileSync(code, 'utf8');
    expect(await attempt('list_dir', { path: registry.paths.plugins })).toEqual({ ok: true, value: ['hostile'] });
    expect((await attempt('write_file', { path: code, content: 'process.exit(1)' })).ok).toBe(false);
    expect(
      (await attempt('write_file', { path: path.join(registry.paths.pluginData('victim'), 'planted.txt') })).ok,
    ).toBe(false);
    expect(readFileSync(code, 'utf8')).toBe(before);
    expect(existsSync(path.join(registry.paths.pluginData('victim'), 'planted.txt'))).toBe(false);
  });

  it('writes its own data folder and nothing else: not its code, not the host’s /tmp, not the person’s folders', async () => {
    const own = path.join(registry.paths.pluginData('hostile'), 'state.txt');
    expect((await attempt('write_file', { path: own, content: 'mine\n' })).ok).toBe(true);
    expect(readFileSync(own, 'utf8')).toBe('mine\n');
    expect(await attempt('write_file', { path: path.join(registry.paths.plugin('hostile'), 'plugin.mjs') })).toEqual({
      ok: false,
      code: 'EROFS',
    });
    expect((await attempt('write_file', { path: path.join(outside, 'planted.txt') })).ok).toBe(false);
    // Its /tmp is its own: a file written there never reaches the host's.
    const tmpFile = path.join(os.tmpdir(), `plugboard-hostile-${process.pid}.txt`);
    expect((await attempt('write_file', { path: tmpFile })).ok).toBe(true);
    expect(existsSync(tmpFile)).toBe(false);
    expect(existsSync(path.join(outside, 'planted.txt'))).toBe(false);
  });

  it('sees none of the host’s processes, and cannot signal them', async () => {
    const hunt = await attempt('hunt_secret', { needle: SECRET, pid: process.pid });
    expect(hunt.ok).toBe(false);
    expect(hunt.pids).not.toContain(process.pid);
    expect((hunt.pids as number[]).length).toBeLessThan(10);
    expect(await attempt('signal_pid', { pid: process.pid })).toEqual({ ok: false, code: 'ESRCH' });
  });

  it('has no network without net, not even this computer’s loopback', async () => {
    const r = await attempt('connect', { port });
    expect(r.ok).toBe(false);
    expect(r.code).toBe('ECONNREFUSED');
  });

  it('keeps the programs it starts in the same sandbox', async () => {
    expect((await attempt('spawn_cat', { path: registry.paths.secrets })).ok).toBe(false);
    expect(
      (await attempt('spawn_cat', { path: path.join(registry.record('hostile')?.dir ?? '', 'plugboard.json') })).ok,
    ).toBe(true);
  });

  it('does not see the folders in its settings until fs.read or fs.write is granted', async () => {
    const notes = path.join(outside, 'notes.txt');
    expect((await registry.decisions.configure('hostile', { folders: [outside] })).ok).toBe(true);
    expect(await attempt('read_file', { path: notes })).toEqual({ ok: false, code: 'ENOENT' });

    expect((await registry.decisions.grant('hostile', ['fs.read'])).ok).toBe(true);
    expect(await attempt('read_file', { path: notes })).toEqual({ ok: true, value: 'the person’s own notes\n' });
    expect(await attempt('write_file', { path: notes })).toEqual({ ok: false, code: 'EROFS' });

    expect((await registry.decisions.grant('hostile', ['fs.write'])).ok).toBe(true);
    expect((await attempt('write_file', { path: path.join(outside, 'made.txt'), content: 'granted\n' })).ok).toBe(true);
    expect(readFileSync(path.join(outside, 'made.txt'), 'utf8')).toBe('granted\n');
    // A granted folder never opens the data directory.
    expect(await attempt('read_file', { path: registry.paths.secrets })).toEqual({ ok: false, code: 'ENOENT' });
    expect((await registry.decisions.revoke('hostile', ['fs.read', 'fs.write'])).ok).toBe(true);
  });

  it('reaches the network once net is granted', async () => {
    expect((await registry.decisions.grant('hostile', ['net'])).ok).toBe(true);
    expect(await attempt('connect', { port })).toEqual({ ok: true, value: 'hello from the host\n' });
    expect((await registry.decisions.revoke('hostile', ['net'])).ok).toBe(true);
  });

  it('a Python plugin (the interpreter a shim or prefix away) is held the same way', async () => {
    expect((await registry.installer.install(path.join(FIXTURES, 'hostile', 'python'), { grant: 'none' })).ok).toBe(
      true,
    );
    const me = await attempt('whoami', {}, 'hostile-python');
    expect(me.home).toBe(registry.paths.pluginData('hostile-python'));
    // A pyenv shim is a bash script whose machinery lives in the home folder: the real interpreter runs.
    expect(me.executable).not.toContain('/shims/');
    expect(me.pids).not.toContain(process.pid);
    expect((await attempt('read_file', { path: registry.paths.secrets }, 'hostile-python')).ok).toBe(false);
    expect(
      (
        await attempt(
          'write_file',
          { path: path.join(registry.paths.plugin('hostile-python'), 'plugin.py') },
          'hostile-python',
        )
      ).ok,
    ).toBe(false);
    expect(
      (
        await attempt(
          'write_file',
          { path: path.join(registry.paths.pluginData('hostile-python'), 'ok.txt') },
          'hostile-python',
        )
      ).ok,
    ).toBe(true);
  });
});

describeSandboxed('the same plugin unsandboxed (the attempts are real)', () => {
  let plain: PluginRegistry;

  beforeAll(async () => {
    const dir = path.join(tmpDir('sandbox-off'), 'data');
    plain = await PluginRegistry.open({
      dataDir: dir,
      env: { PLUGBOARD_TEST_RUN: String(process.pid) },
      sandbox: false,
    });
    expect(plain.sandboxSupport).toEqual({ available: false, reason: expect.stringContaining('turned off') });
    expect((await plain.installer.install(path.join(FIXTURES, 'hostile', 'node'), { grant: 'none' })).ok).toBe(true);
    expect((await plain.decisions.configure('hostile', { api_key: SECRET })).ok).toBe(true);
  });

  afterAll(async () => {
    await plain?.shutdown();
    plain?.dispose();
  });

  it('reads secrets.json and rewrites state.json', async () => {
    const read = await plain.call('hostile', 'read_file', { path: plain.paths.secrets }).done;
    expect(read.ok && (read.value.data as Attempt).value).toContain(SECRET);
    const write = await plain.call('hostile', 'write_file', { path: plain.paths.state, content: '{}' }).done;
    expect(write.ok && (write.value.data as Attempt).ok).toBe(true);
  });
});
