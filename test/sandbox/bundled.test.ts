/**
 * The bundled plugins do their work inside the sandbox, run the way the app runs them (a real
 * registry on a real data directory, default grants: what they request), and the sandbox holds
 * them to their grants: the files plugin sees only its shared folders, the terminal's shell
 * only what the terminal may see.
 */
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { describeFailure } from '../../src/shared/failures';
import type { CallEvent } from '../../src/shared/plugin';
import { cleanupFixtures, REPO, tmpDir } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';
import { describeSandboxed } from '../helpers/sandbox';

let registry: PluginRegistry;
let shared: string;
let elsewhere: string;

/** What a call showed: its stream chunks and its final data, as text; throws on a failed call. */
async function shown(id: string, tool: string, args: Record<string, unknown> = {}): Promise<string> {
  const events: CallEvent[] = [];
  const o = await registry.call(id, tool, args, { onEvent: (e) => events.push(e) }).done;
  if (!o.ok) throw new Error(`${id}:${tool}: ${describeFailure(o)}`);
  const chunks = events.flatMap((e) =>
    e.type === 'stream' ? [typeof e.data === 'string' ? e.data : JSON.stringify(e.data)] : [],
  );
  const data = o.value.data;
  return chunks.join('') + (typeof data === 'string' ? data : JSON.stringify(data));
}

async function refusal(id: string, tool: string, args: Record<string, unknown>): Promise<string> {
  const o = await registry.call(id, tool, args).done;
  expect(o.ok, `${id}:${tool} ${JSON.stringify(args)} should have failed`).toBe(false);
  return o.ok ? '' : o.message;
}

describeSandboxed('bundled plugins in the sandbox', () => {
  beforeAll(async () => {
    const root = realpathSync(tmpDir('sandbox-bundled'));
    shared = path.join(root, 'shared');
    mkdirSync(shared);
    elsewhere = path.join(root, 'elsewhere.txt');
    writeFileSync(elsewhere, 'not shared\n');
    writeFileSync(path.join(shared, 'readme.txt'), 'shared with the files plugin\n');
    registry = await PluginRegistry.open({
      dataDir: path.join(root, 'data'),
      bundledDir: path.join(REPO, 'plugins'),
      nodeModules: path.join(REPO, 'node_modules'),
      env: { PLUGBOARD_TEST_RUN: String(process.pid) },
    });
    expect((await registry.decisions.configure('files', { roots: [shared] })).ok).toBe(true);
  });

  afterAll(async () => {
    await registry?.shutdown();
    registry?.dispose();
    expect(await leftovers()).toEqual([]);
    cleanupFixtures();
  });

  it('hello greets and counts', async () => {
    expect(await shown('hello', 'say_hello', { name: 'Ada' })).toContain('Ada');
    expect(await shown('hello', 'count', { to: 3, delay_ms: 0 })).toMatch(/1[\s\S]*2[\s\S]*3/);
  });

  it('todo keeps its plan in its own data folder', async () => {
    expect(await shown('todo', 'add', { title: 'sandbox the plugins' })).toContain('sandbox the plugins');
    expect(readFileSync(path.join(registry.paths.pluginData('todo'), 'todo.json'), 'utf8')).toContain(
      'sandbox the plugins',
    );
    expect(await shown('todo', 'list')).toContain('sandbox the plugins');
  });

  it('files reads and writes its shared folder, and nothing else exists for it', async () => {
    expect(await shown('files', 'read', { path: path.join(shared, 'readme.txt') })).toContain(
      'shared with the files plugin',
    );
    expect(
      await shown('files', 'write', { path: path.join(shared, 'new.txt'), content: 'written in the sandbox\n' }),
    ).toContain('written in the sandbox');
    expect(readFileSync(path.join(shared, 'new.txt'), 'utf8')).toBe('written in the sandbox\n');
    expect(await refusal('files', 'read', { path: elsewhere })).toMatch(/outside the folders shared/);
    expect(await shown('files', 'undo', { path: path.join(shared, 'new.txt') })).toBeTruthy();
  });

  it('files with fs.write revoked reads its folder but cannot change it', async () => {
    expect((await registry.decisions.revoke('files', ['fs.write'])).ok).toBe(true);
    expect(await shown('files', 'read', { path: path.join(shared, 'readme.txt') })).toContain(
      'shared with the files plugin',
    );
    expect(await refusal('files', 'write', { path: path.join(shared, 'readme.txt'), content: 'changed\n' })).toMatch(
      /EROFS: read-only file system/,
    );
    expect(readFileSync(path.join(shared, 'readme.txt'), 'utf8')).toBe('shared with the files plugin\n');
    expect((await registry.decisions.grant('files', ['fs.write'])).ok).toBe(true);
  });

  it('the terminal runs commands in a shell (node-pty), inside the same sandbox', async () => {
    const out = await shown('terminal', 'run', {
      command: 'echo "pid $$"; echo "home $HOME"; cat /proc/1/cmdline | tr "\\0" " "; echo',
    });
    expect(out).toContain(`home ${registry.paths.pluginData('terminal')}`);
    expect(out).toContain('bwrap');
    const probe = await shown('terminal', 'run', {
      command: `cat ${registry.paths.state} ${elsewhere} 2>&1; echo "exit $?"`,
    });
    expect(probe).toContain('No such file or directory');
    expect(probe).not.toContain('not shared');
  });
});
