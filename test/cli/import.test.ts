/**
 * `plugboard plugins import` as a user runs it, on a real claude_desktop_config.json naming two
 * MCP servers of ours (real child processes): the preview, the install of both, secrets kept out
 * of every file, each server called by id; `--only` and `--secret`; a malformed file refused with
 * its line and field.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plugboard } from '../helpers/cli';
import { IMPORT_TOKEN as TOKEN, serverProject, writeClaudeConfig } from '../helpers/import-config';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';

let root: string;
let config: string;
let ECHO: string;
let GREETER: string;

beforeAll(() => {
  root = tmpDir('cli-import');
  ECHO = serverProject(root, 'echo');
  GREETER = serverProject(root, 'greeter');
  config = writeClaudeConfig(root, {
    echo: { command: 'node', args: [ECHO] },
    'Greeter Server': {
      command: 'node',
      args: [GREETER, '--greeting', 'Ahoy'],
      env: { ECHO_TOKEN: TOKEN, ECHO_HOME: '/home/ada' },
    },
    remote: { url: 'https://mcp.example.com/mcp', disabled: true },
  });
});
afterAll(cleanupFixtures);

describe('plugboard plugins import', () => {
  it('previews every server without a single secret value', async () => {
    const data = path.join(root, 'preview-data');
    const r = await plugboard(['plugins', 'import', config, '--preview', '--data-dir', data]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`3 MCP servers in ${config} (Claude Desktop):`);
    expect(r.stdout).toContain(`● echo  line 3\n    command: node ${ECHO}\n`);
    expect(r.stdout).toContain('● greeter-server (“Greeter Server”)  line 9\n');
    expect(r.stdout).toContain('    env: ECHO_TOKEN (secret: the name contains TOKEN), ECHO_HOME\n');
    expect(r.stdout).toContain('○ remote  line 21\n');
    expect(r.stdout).not.toContain(TOKEN);
    // A preview installs nothing.
    expect(readdirSync(data).includes('plugins') ? readdirSync(path.join(data, 'plugins')) : []).toEqual([]);
  });

  it('installs the servers that can run, keeps the secret in the secret store, and each answers by id', async () => {
    const data = path.join(root, 'data');
    const r = await plugboard(['plugins', 'import', config, '--json', '--data-dir', data]);
    expect(r.code).toBe(0);
    const installed = r.lines.filter((l) => l.type === 'installed');
    expect(installed.map((l) => [l.key, l.ok, l.id])).toEqual([
      ['echo', true, 'echo'],
      ['Greeter Server', true, 'greeter-server'],
    ]);
    expect(r.stdout).not.toContain(TOKEN);
    const manifest = readFileSync(path.join(data, 'plugins', 'greeter-server', 'plugboard.json'), 'utf8');
    expect(manifest).not.toContain(TOKEN);
    expect(readFileSync(path.join(data, 'state.json'), 'utf8')).not.toContain(TOKEN);
    expect(readFileSync(path.join(data, 'secrets.json'), 'utf8')).toContain(TOKEN);

    // The sandbox shows each server its own project folder, read-only, and nothing else of the disk.
    const echo = await plugboard(['call', 'echo', 'greet', '--args', '{"name":"Ada"}', '--data-dir', data]);
    expect([echo.code, echo.stdout, echo.stderr]).toEqual([0, 'Hi, Ada!\n', '']);
    const list = await plugboard(['plugins', 'list', '--json', '--data-dir', data]);
    const echoRow = (list.lines[0] as unknown as Array<Record<string, unknown>>).find((x) => x.id === 'echo');
    expect(echoRow).toEqual(
      expect.objectContaining({
        granted: ['fs.read'],
        settings: [expect.objectContaining({ key: 'server_folder', default: path.join(root, 'code', 'echo') })],
      }),
    );
    const who = await plugboard(['call', 'greeter-server', 'whoami', '--json', '--data-dir', data]);
    expect(who.code).toBe(0);
    expect(who.lines.at(-1)).toEqual(
      expect.objectContaining({
        type: 'complete',
        success: true,
        data: expect.objectContaining({ greeting: 'Ahoy', home: '/home/ada', hasToken: true }),
      }),
    );
  });

  it('installs only the servers named, with the secrets named', async () => {
    const data = path.join(root, 'only-data');
    const r = await plugboard([
      'plugins',
      'import',
      config,
      '--only',
      'greeter-server',
      '--secret=',
      '--data-dir',
      data,
    ]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/\ninstalled greeter-server 0\.0\.0 \(folder, 1 entries, \d+ bytes\)\n$/);
    expect(readdirSync(path.join(data, 'plugins'))).toEqual(['greeter-server']);
    // --secret= keeps nothing secret: the person chose to leave the value in the plugin's env.
    expect(
      JSON.parse(readFileSync(path.join(data, 'plugins', 'greeter-server', 'plugboard.json'), 'utf8')).env,
    ).toEqual({ ECHO_TOKEN: TOKEN, ECHO_HOME: '/home/ada' });

    // Imported again, a server whose id is taken is offered the next free one.
    const wrong = await plugboard(['plugins', 'import', config, '--only', 'nope', '--data-dir', data]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(
      'refused: claude_desktop_config.json has no server "nope"; it has: echo, greeter-server-2 (“Greeter Server”), remote\n',
    );
    const again = await plugboard([
      'plugins',
      'import',
      config,
      '--only',
      'Greeter Server',
      '--secret=',
      '--data-dir',
      data,
    ]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      '"greeter-server" is taken by an installed plugin: this one installs as greeter-server-2',
    );
    expect(again.stdout).toMatch(/\ninstalled greeter-server-2 0\.0\.0 /);
    const named = await plugboard([
      'plugins',
      'import',
      config,
      '--only',
      'Greeter Server',
      '--id',
      'Greeter Server=greeter-server',
      '--data-dir',
      data,
    ]);
    // The id of another plugin is never taken over: refused, and that plugin stays as it was.
    expect(named.code).toBe(1);
    expect(named.stderr).toMatch(/refused Greeter Server: a plugin "greeter-server" is installed already/);
    expect(readdirSync(path.join(data, 'plugins')).sort()).toEqual(['greeter-server', 'greeter-server-2']);
  });

  it('with --copy, runs a server from its copy in Plugboard, needing no folder of the person’s', async () => {
    const data = path.join(root, 'copy-data');
    const preview = await plugboard(['plugins', 'import', config, '--preview', '--data-dir', data]);
    expect(preview.stdout).toContain(
      `    runs from ${path.join(root, 'code', 'echo')} (shown read-only), or from a copy in Plugboard with --copy echo\n`,
    );
    const wrong = await plugboard(['plugins', 'import', config, '--copy', 'nope', '--data-dir', data]);
    expect([wrong.code, wrong.stderr]).toEqual([2, expect.stringContaining(`--copy: ${config} has no server "nope"`)]);
    const r = await plugboard(['plugins', 'import', config, '--only', 'echo', '--copy', 'echo', '--data-dir', data]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const manifest = JSON.parse(readFileSync(path.join(data, 'plugins', 'echo', 'plugboard.json'), 'utf8'));
    expect(manifest.command).toEqual(['node', '${__dirname}/server/build/index.js']);
    const list = await plugboard(['plugins', 'list', '--json', '--data-dir', data]);
    const row = (list.lines[0] as unknown as Array<Record<string, unknown>>).find((x) => x.id === 'echo');
    expect(row).toEqual(expect.objectContaining({ granted: [], settings: [] }));
    const echo = await plugboard(['call', 'echo', 'greet', '--args', '{"name":"Ada"}', '--data-dir', data]);
    expect([echo.code, echo.stdout, echo.stderr]).toEqual([0, 'Hi, Ada!\n', '']);
  });

  it('refuses a malformed file with the line and field, and installs nothing', async () => {
    const bad = path.join(root, 'mcp.json');
    writeFileSync(
      bad,
      '{\n  "mcpServers": {\n    "x": {\n      "command": "npx",\n      "env": { "A": ["b"] }\n    }\n  }\n}\n',
    );
    const data = path.join(root, 'bad-data');
    const r = await plugboard(['plugins', 'import', bad, '--data-dir', data]);
    expect([r.code, r.stderr]).toEqual([
      1,
      'refused: mcp.json line 5: mcpServers.x.env.A: expected a string, got a list\n',
    ]);
    const j = await plugboard(['plugins', 'import', bad, '--json', '--data-dir', data]);
    expect(j.lines).toEqual([
      {
        ok: false,
        code: 'invalid_input',
        error: 'mcp.json line 5: mcpServers.x.env.A: expected a string, got a list',
        at: { file: bad, line: 5, column: 16, field: 'mcpServers.x.env.A' },
      },
    ]);
  });
});
