/**
 * Issue 17's "done when", for packages and paths: the MCP servers people run most, imported as
 * they are from a Claude Desktop, a Cursor and a VS Code config, with only the grants the preview
 * offers, answer real calls in the sandbox, and still answer with the package registries
 * unreachable: filesystem (its folder list), memory (a file on disk, MEMORY_FILE_PATH),
 * everything, time (uvx), git (uvx, --repository) and a `${workspaceFolder}` server.
 *
 * The packages are the real ones from the npm registry and PyPI, fetched through the loopback
 * registry cache of test/helpers/package-registry.ts, which the install step reaches through the
 * person's own .npmrc and pip.conf (the cache lives outside the checkout, so later runs need no
 * network). Each server is installed once, pinned, into its own folder; the calls run in the
 * sandbox without the network, and after the registry is closed they run again, restarted.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installImported, readMcpConfig } from '../../src/main/plugins';
import { readRecord } from '../../src/main/plugins/packages/record';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { startPackageRegistry, type PackageRegistry } from '../helpers/package-registry';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';
import { TEST_RUN_MARK } from '../helpers/processes';
import { describeSandboxed } from '../helpers/sandbox';

/** A cold cache fetches ~300 packages; a loaded two-core machine installs Python packages slowly. */
const INSTALL_MS = 20 * 60_000;

let root: string;
let registryCache: PackageRegistry;
let registry: PluginRegistry;
let parentEnv: NodeJS.ProcessEnv;
const dirs = { files: '', memory: '', workspace: '' };

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, { cwd, stdio: 'ignore', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
}

beforeAll(async () => {
  root = tmpDir('real-servers');
  registryCache = await startPackageRegistry();
  parentEnv = { ...process.env, ...registryCache.configure(path.join(root, 'person')) };
  dirs.files = path.join(root, 'Documents');
  dirs.memory = path.join(root, 'memory');
  dirs.workspace = path.join(root, 'project');
  mkdirSync(dirs.files, { recursive: true });
  mkdirSync(dirs.memory, { recursive: true });
  mkdirSync(path.join(dirs.workspace, '.vscode'), { recursive: true });
  // Under root the sandbox runs plugins as nobody, who writes a granted folder only where its
  // owner lets others write (docs/ARCHITECTURE.md, the sandbox): the tests' folders let them.
  if (process.getuid?.() === 0) for (const d of Object.values(dirs)) chmodSync(d, 0o777);
  writeFileSync(path.join(dirs.files, 'hello.txt'), 'hello from the person’s Documents\n');
  writeFileSync(path.join(dirs.workspace, 'README.md'), '# The project\n');
  git(dirs.workspace, 'init', '-q', '-b', 'main');
  git(dirs.workspace, '-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', 'add', 'README.md');
  git(dirs.workspace, '-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', 'commit', '-q', '-m', 'first');
  // The repository stays root's, as a person's is theirs: under root the plugin runs as nobody,
  // and git, which refuses a repository another user owns, must still answer (sandbox-inner.ts).

  const claude = path.join(root, 'Claude', 'claude_desktop_config.json');
  mkdirSync(path.dirname(claude), { recursive: true });
  writeFileSync(
    claude,
    JSON.stringify({
      mcpServers: {
        filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', dirs.files] },
        memory: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-memory'],
          env: { MEMORY_FILE_PATH: path.join(dirs.memory, 'memory.json') },
        },
      },
    }),
  );
  const cursor = path.join(root, 'home', '.cursor', 'mcp.json');
  mkdirSync(path.dirname(cursor), { recursive: true });
  writeFileSync(
    cursor,
    JSON.stringify({
      mcpServers: {
        everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] },
        time: { command: 'uvx', args: ['mcp-server-time', '--local-timezone', 'UTC'] },
      },
    }),
  );
  const vscode = path.join(dirs.workspace, '.vscode', 'mcp.json');
  writeFileSync(
    vscode,
    JSON.stringify({
      servers: {
        git: { type: 'stdio', command: 'uvx', args: ['mcp-server-git', '--repository', '${workspaceFolder}'] },
        workspace: {
          type: 'stdio',
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '${workspaceFolder}'],
        },
      },
    }),
  );
  configs.push(claude, cursor, vscode);
  const [name = '', value = ''] = TEST_RUN_MARK.split('=');
  registry = await PluginRegistry.open({
    dataDir: path.join(root, 'data'),
    parentEnv,
    env: { [name]: value },
  });
}, 60_000);

const configs: string[] = [];

afterAll(async () => {
  await registry?.shutdown();
  registry?.dispose();
  await registryCache?.close();
  cleanupFixtures();
}, 120_000);

function text(o: Awaited<ReturnType<PluginRegistry['call']>['done']>): string {
  if (!o.ok) throw new Error(`${o.code}: ${o.message}`);
  return typeof o.value.data === 'string' ? o.value.data : JSON.stringify(o.value.data);
}

/** One real call to each server, and what a person would check in its answer. */
async function callEach(): Promise<void> {
  const listing = text(await registry.call('filesystem', 'list_directory', { path: dirs.files }).done);
  expect(listing).toContain('hello.txt');
  const read = text(
    await registry.call('filesystem', 'read_text_file', { path: path.join(dirs.files, 'hello.txt') }).done,
  );
  expect(read).toContain('hello from the person’s Documents');

  const who = `Ada-${Date.now()}`;
  text(
    await registry.call('memory', 'create_entities', {
      entities: [{ name: who, entityType: 'person', observations: ['writes programs'] }],
    }).done,
  );
  // The memory is the person's file on disk, written through the granted folder.
  expect(readFileSync(path.join(dirs.memory, 'memory.json'), 'utf8')).toContain(who);

  expect(text(await registry.call('everything', 'echo', { message: 'hi there' }).done)).toContain('hi there');

  const now = JSON.parse(text(await registry.call('time', 'get_current_time', { timezone: 'UTC' }).done)) as {
    timezone: string;
    datetime: string;
  };
  expect(now.timezone).toBe('UTC');
  expect(Math.abs(Date.parse(now.datetime) - Date.now())).toBeLessThan(10 * 60_000);

  const status = text(await registry.call('git', 'git_status', { repo_path: dirs.workspace }).done);
  expect(status).toMatch(/On branch main/);
  const log = text(await registry.call('git', 'git_log', { repo_path: dirs.workspace }).done);
  expect(log).toContain('first');

  const readme = text(
    await registry.call('workspace', 'read_text_file', { path: path.join(dirs.workspace, 'README.md') }).done,
  );
  expect(readme).toContain('# The project');
}

describeSandboxed('servers people run, imported as they are from Claude Desktop, Cursor and VS Code', () => {
  it(
    'installs each once, pinned, offering exactly the paths they are given; all answer sandboxed without the network, and again with the registries gone',
    async () => {
      const installed: string[] = [];
      for (const file of configs) {
        const config = readMcpConfig(file, undefined, (id) => registry.record(id) !== undefined);
        if (!config.ok) throw new Error(config.message);
        const offered = Object.fromEntries(
          config.previews.map((p) => [p.key, p.paths.map((g) => [g.path, g.write, g.named ?? null])]),
        );
        if (config.app === 'claude-desktop') {
          expect(offered).toEqual({
            filesystem: [[dirs.files, true, null]],
            // A file the server writes: its folder, where it writes the new file and renames it.
            memory: [[dirs.memory, true, path.join(dirs.memory, 'memory.json')]],
          });
        } else if (config.app === 'vscode') {
          // ${workspaceFolder} is the folder holding .vscode.
          expect(offered).toEqual({ git: [[dirs.workspace, true, null]], workspace: [[dirs.workspace, true, null]] });
        } else {
          expect(config.app).toBe('cursor');
          expect(offered).toEqual({ everything: [], time: [] });
        }
        const lines: string[] = [];
        const r = await installImported(registry, config, { onProgress: (l) => lines.push(l) });
        if (!r.ok) throw new Error(r.message);
        for (const one of r.results) {
          if (!one.outcome.ok) throw new Error(`${one.key}: ${one.outcome.message}\n${lines.slice(-20).join('\n')}`);
          installed.push(one.outcome.id);
        }
        // The package step's progress, line by line, as the preview shows it.
        expect(lines.some((l) => /installing .* in the sandbox, with the network/.test(l))).toBe(true);
      }
      expect(installed.sort()).toEqual(['everything', 'filesystem', 'git', 'memory', 'time', 'workspace']);

      for (const id of installed) {
        // Pinned: a version and the registry's integrity hash, and the lock of everything installed.
        const rec = readRecord(registry.paths.plugin(id));
        expect(rec?.version_installed).toMatch(/^\d+\.\d+/);
        expect(rec?.integrity).toMatch(id === 'time' || id === 'git' ? /^sha256:[0-9a-f]{64}$/ : /^sha512-/);
        expect(existsSync(path.join(registry.paths.plugin(id), rec?.lock ?? 'none'))).toBe(true);
        // Only the grants the preview offered: no network for any of them.
        expect(registry.decisions.pluginState(id).grants).not.toContain('net');
      }

      await callEach();

      // The registries are gone (the cache closed: its port refuses), and the servers start again
      // from their folders: nothing is downloaded at a start.
      await registryCache.close();
      for (const id of installed) expect((await registry.restart(id)).ok).toBe(true);
      await callEach();
    },
    INSTALL_MS,
  );
});
