/**
 * `plugboard check` judging real plugin behaviour fairly: children that need a moment to exit
 * after their parent, MCP tools that come from the server, one-shot rterm plugins closed after a
 * handshake, and `--set` values checked as `plugins config` checks them.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPlugin, ORPHAN_GRACE_MS, type CheckItem } from '../../src/main/plugins/check';
import { cleanupFixtures, FIXTURES, fixturePlugin, tmpDir } from '../helpers/plugins';
import { startMcpHttp } from '../helpers/mcp-http';

afterAll(cleanupFixtures);

const item = (items: CheckItem[], name: CheckItem['name']): CheckItem | undefined => items.find((i) => i.name === name);

/** A G-Assist plugin that starts a helper process living `lingerMs` past the plugin (-1: forever). */
function parentWithChild(lingerMs: number): string {
  const dir = tmpDir('lingering');
  writeFileSync(
    path.join(dir, 'plugboard.json'),
    JSON.stringify({ id: 'lingering', protocol: 'gassist-v2', command: ['node', 'plugin.mjs'] }),
  );
  // The parent's pid comes as an argument: on a busy machine the child may only start running
  // after its parent is gone, when process.ppid is already someone else.
  const child = `const p = Number(process.argv[1]); setInterval(() => { if (process.ppid !== p && ${lingerMs} >= 0) setTimeout(() => process.exit(0), ${lingerMs}); }, 50);`;
  writeFileSync(
    path.join(dir, 'plugin.mjs'),
    [
      "import { spawn } from 'node:child_process';",
      // A helper that takes a while to notice its parent is gone, as servers' workers do.
      `spawn(process.execPath, ['-e', ${JSON.stringify(child)}, String(process.pid)], { stdio: 'ignore' });`,
      `await import(${JSON.stringify(path.join(FIXTURES, 'lib', 'gassist.mjs'))});`,
    ].join('\n'),
  );
  return dir;
}

function echoManifest(): Record<string, unknown> & { user_config: Record<string, unknown> } {
  return JSON.parse(readFileSync(path.join(FIXTURES, 'mcpb-echo', 'manifest.json'), 'utf8'));
}

describe('check', () => {
  it('gives a plugin’s children a grace period to exit before calling them orphans', async () => {
    const { items } = await checkPlugin(parentWithChild(1400));
    expect(item(items, 'cleanup')).toEqual({
      name: 'cleanup',
      status: 'pass',
      detail: 'nothing of the plugin is left running',
    });
  }, 30_000);

  it('still fails children that outlive the grace period', async () => {
    const { items } = await checkPlugin(parentWithChild(-1));
    expect(item(items, 'cleanup')?.status).toBe('fail');
    expect(item(items, 'cleanup')?.detail).toBe(
      `processes the plugin started were still running ${ORPHAN_GRACE_MS} ms after it exited (Plugboard killed them); stop your children on exit`,
    );
  }, 30_000);

  it('takes an MCP server’s tools from tools/list without warning about ones the manifest does not list', async () => {
    const dir = tmpDir('mcpb-fewer');
    cpSync(path.join(FIXTURES, 'mcpb-echo'), dir, { recursive: true });
    const m = echoManifest();
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ ...m, tools: [{ name: 'greet' }] }));
    const { items } = await checkPlugin(dir);
    expect(item(items, 'tools')).toEqual({
      name: 'tools',
      status: 'pass',
      detail: "2 announced by the server's tools/list: greet, whoami",
    });
  });

  it('does not judge the exit code of a one-shot rterm plugin closed after its handshake', async () => {
    const dir = fixturePlugin({
      script: 'rterm',
      id: 'rt-eof',
      mode: 'exit-1-on-eof',
      env: { CAPS: 'fs.read' },
      manifest: { capabilities: ['fs.read'] },
    });
    const { items } = await checkPlugin(dir);
    const shutdown = item(items, 'shutdown');
    expect(shutdown?.status).toBe('pass');
    expect(shutdown?.detail).toMatch(
      /^exited \d+ ms after stdin closed on a handshake-only session \(code 1, not judged: it was sent no request\)$/,
    );
  });

  it('checks --set values against the plugin’s settings, with the messages of plugins config', async () => {
    const dir = tmpDir('mcpb-settings');
    cpSync(path.join(FIXTURES, 'mcpb-echo'), dir, { recursive: true });
    const m = echoManifest();
    const userConfig = {
      ...m.user_config,
      count: { type: 'number', title: 'Count', min: 1 },
      folder: { type: 'directory', title: 'Folder' },
    };
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ ...m, user_config: userConfig }));
    const launch = async (set: Record<string, unknown>): Promise<string | undefined> =>
      item((await checkPlugin(dir, { set })).items, 'launch')?.detail;
    expect(await launch({ count: 'abc' })).toBe('--set count: expected a number, got "abc"');
    expect(await launch({ count: '0' })).toBe('--set count: 0 is below the minimum 1');
    expect(await launch({ folder: '/no/such/dir' })).toBe('--set folder: /no/such/dir does not exist');
    expect(await launch({ nope: '1' })).toBe(
      '--set mcpb-echo has no setting "nope" (it has: greeting, token, count, folder)',
    );
    const ok = await checkPlugin(dir, { set: { count: '3', folder: dir, greeting: 'Servus' } });
    expect(ok.items.every((i) => i.status !== 'fail')).toBe(true);
  });

  it('passes an MCP server that stays up after stdin closes and exits on SIGTERM, as MCP’s stdio shutdown allows', async () => {
    const dir = tmpDir('mcp-sigterm');
    cpSync(path.join(FIXTURES, 'mcp-echo'), dir, { recursive: true });
    // Something keeps its event loop busy: the end of stdin alone does not end it.
    writeFileSync(path.join(dir, 'busy.mjs'), "import './server.mjs';\nsetInterval(() => {}, 1 << 30);\n");
    const m = JSON.parse(readFileSync(path.join(dir, 'plugboard.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(path.join(dir, 'plugboard.json'), JSON.stringify({ ...m, command: ['node', 'busy.mjs'] }));
    const { items } = await checkPlugin(dir);
    expect(item(items, 'shutdown')).toEqual({
      name: 'shutdown',
      status: 'pass',
      detail: expect.stringMatching(/after stdin closed, and exited on SIGTERM, as MCP's stdio shutdown allows/),
    });
    expect(items.every((i) => i.status !== 'fail')).toBe(true);
  }, 30_000);

  it('checks a remote MCP server: its handshake, tools and pings, and nothing run here', async () => {
    const server = await startMcpHttp();
    try {
      const dir = tmpDir('remote-check');
      writeFileSync(
        path.join(dir, 'plugboard.json'),
        JSON.stringify({ id: 'docs', protocol: 'mcp', url: server.url, capabilities: ['net'] }),
      );
      const { items } = await checkPlugin(dir);
      expect(items.map((i) => [i.name, i.status])).toEqual([
        ['manifest', 'pass'],
        ['launch', 'pass'],
        ['handshake', 'pass'],
        ['tools', 'pass'],
        ['ping', 'pass'],
        ['shutdown', 'pass'],
        ['cleanup', 'pass'],
      ]);
      expect(item(items, 'launch')?.detail).toBe(
        `a remote MCP server at ${server.url} (Streamable HTTP): nothing runs here`,
      );
    } finally {
      server.proc.kill();
    }
  }, 30_000);
});
