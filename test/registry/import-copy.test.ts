/**
 * A server that runs from the person's own folder (`node /abs/project/dist/index.js` in a Claude
 * Desktop config), copied into Plugboard at its import (issue 17, item 3): the preview offers it
 * where the folder holds everything the server loads, the copy runs from the plugin's own folder
 * in the sandbox with none of the person's folders granted, and goes on answering once the
 * original is gone; where it cannot be copied the preview says why, and asking anyway is refused.
 * A real project on disk, a real server process, the real sandbox.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { installImported, readMcpConfig } from '../../src/main/plugins/import';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, REPO, tmpDir } from '../helpers/plugins';
import { TEST_RUN_MARK } from '../helpers/processes';
import { describeSandboxed } from '../helpers/sandbox';

/** A tiny MCP server over stdio that greets with a function from its own node_modules. */
const SERVER = `
const { createRequire } = require('node:module');
const greet = createRequire(__filename)('greeter');
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...m }) + '\\n');
let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  for (let i; (i = buf.indexOf('\\n')) >= 0; ) {
    const msg = JSON.parse(buf.slice(0, i));
    buf = buf.slice(i + 1);
    if (msg.method === 'initialize')
      send({ id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'greeter', version: '1.0.0' } } });
    else if (msg.method === 'tools/list')
      send({ id: msg.id, result: { tools: [{ name: 'greet', description: 'Greet', inputSchema: { type: 'object', properties: { name: { type: 'string' } } } }] } });
    else if (msg.method === 'tools/call')
      send({ id: msg.id, result: { content: [{ type: 'text', text: greet(msg.params.arguments.name) }] } });
    else if (msg.method === 'ping') send({ id: msg.id, result: {} });
    else if (msg.id !== undefined) send({ id: msg.id, error: { code: -32601, message: 'no ' + msg.method } });
  }
});
process.stdin.on('end', () => process.exit(0));
`;

/** A person's project: package.json, its dependency installed in it, the built server, and its history. */
function project(root: string, name: string, withModules = true): string {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, 'dist'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, dependencies: { greeter: '1.0.0' } }));
  writeFileSync(path.join(dir, 'dist', 'index.js'), SERVER);
  if (withModules) {
    mkdirSync(path.join(dir, 'node_modules', 'greeter'), { recursive: true });
    writeFileSync(path.join(dir, 'node_modules', 'greeter', 'index.js'), "module.exports = (n) => 'Hello, ' + n;\n");
  }
  mkdirSync(path.join(dir, '.git'), { recursive: true });
  writeFileSync(path.join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  return dir;
}

let root: string;
let registry: PluginRegistry;

beforeAll(async () => {
  root = tmpDir('import-copy');
  const [mark = '', value = ''] = TEST_RUN_MARK.split('=');
  registry = await PluginRegistry.open({
    dataDir: path.join(root, 'data'),
    bundledDir: path.join(REPO, 'plugins'),
    env: { [mark]: value },
  });
});

afterAll(async () => {
  await registry.shutdown();
  registry.dispose();
  cleanupFixtures();
});

describeSandboxed('a server run from a folder of the person’s, copied into Plugboard', () => {
  it('is offered, runs from its copy with no folder of theirs granted, and answers once the original is gone', async () => {
    const dir = project(root, 'greeter-server');
    const config = path.join(root, 'claude_desktop_config.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          greeter: {
            command: 'node',
            args: [path.join(dir, 'dist', 'index.js')],
            env: { GREETER_CONFIG: path.join(dir, 'greeter.json'), GREETER_STYLE: 'warm' },
          },
        },
      }),
    );
    const c = readMcpConfig(config);
    if (!c.ok) throw new Error(c.message);
    expect(c.previews[0]?.copy).toEqual({ folder: dir, offered: true });

    const r = await installImported(registry, c, { copy: ['greeter'] });
    if (!r.ok) throw new Error(r.message);
    expect(r.results[0]?.outcome).toMatchObject({ ok: true, id: 'greeter' });
    const plugin = path.join(root, 'data', 'plugins', 'greeter');
    const manifest = JSON.parse(readFileSync(path.join(plugin, 'plugboard.json'), 'utf8'));
    expect(manifest.command).toEqual(['node', '${__dirname}/server/dist/index.js']);
    // A variable naming a file of the folder names it in the copy; another stays as it was.
    expect(manifest.env).toEqual({ GREETER_CONFIG: '${__dirname}/server/greeter.json', GREETER_STYLE: 'warm' });
    // Its own copy: no folder setting, no read grant, and no history of the project.
    expect(manifest.settings).toBeUndefined();
    expect(manifest.capabilities).toBeUndefined();
    expect(registry.decisions.pluginState('greeter').folders ?? []).toEqual([]);
    expect(existsSync(path.join(plugin, 'server', 'node_modules', 'greeter', 'index.js'))).toBe(true);
    expect(existsSync(path.join(plugin, 'server', '.git'))).toBe(false);

    rmSync(dir, { recursive: true, force: true });
    const call = await registry.call('greeter', 'greet', { name: 'Ada' }).done;
    if (!call.ok) throw new Error(call.message);
    expect(JSON.stringify(call.value)).toContain('Hello, Ada');
  });

  it('says why a server whose packages are outside its folder cannot be copied, and refuses the copy', async () => {
    const dir = project(root, 'monorepo-server', false);
    const config = path.join(root, 'mono.json');
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { mono: { command: 'node', args: [path.join(dir, 'dist', 'index.js')] } } }),
    );
    const c = readMcpConfig(config);
    if (!c.ok) throw new Error(c.message);
    expect(c.previews[0]?.copy).toEqual({
      folder: dir,
      offered: false,
      why: 'its packages are not inside the folder (a node_modules above it, as in a monorepo)',
    });
    const r = await installImported(registry, c, { copy: ['mono'] });
    if (!r.ok) throw new Error(r.message);
    expect(r.results[0]?.outcome).toEqual({
      ok: false,
      code: 'invalid_input',
      message:
        'mono cannot be copied into Plugboard: its packages are not inside the folder (a node_modules above it, as in a monorepo)',
    });
    expect(existsSync(path.join(root, 'data', 'plugins', 'mono'))).toBe(false);
  });
});
