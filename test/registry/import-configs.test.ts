/**
 * Importing MCP servers from other apps' config files: the shapes each app writes (fixtures in
 * test/fixtures/import modelled on each app's documented or exported format), refusals that
 * name line and field, the preview a person sees, and a written plugin that really runs.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readMcpConfig, writeImportedPlugin, type ServerPreview } from '../../src/main/plugins/import';
import { guessSecret, secretByValue } from '../../src/main/plugins/import/secrets';
import { loadManifest } from '../../src/main/plugins/manifests';
import { collect } from '../helpers/calls';
import { useTestHost } from '../helpers/host';
import { FIXTURES, tmpDir } from '../helpers/plugins';

const host = useTestHost();
const DIR = path.join(FIXTURES, 'import');

function read(rel: string): Extract<ReturnType<typeof readMcpConfig>, { ok: true }> {
  const r = readMcpConfig(path.join(DIR, rel));
  if (!r.ok) throw new Error(r.message);
  return r;
}

const byKey = (previews: ServerPreview[], key: string): ServerPreview => {
  const p = previews.find((x) => x.key === key);
  if (!p) throw new Error(`no ${key}`);
  return p;
};

describe('reading other apps’ MCP configs', () => {
  it('reads Claude Desktop’s config: commands as written, env names only, secrets flagged by name or by value', () => {
    const c = read('claude_desktop_config.json');
    expect(c.app).toBe('claude-desktop');
    expect(c.previews.map((p) => [p.key, p.id, p.command, p.runnable])).toEqual([
      ['filesystem', 'filesystem', 'npx', true],
      ['github', 'github', 'docker', true],
      ['time', 'time', 'uvx', true],
      ['weather', 'weather', 'node', true],
    ]);
    const weather = byKey(c.previews, 'weather');
    expect(weather.args).toEqual(['/Users/ada/code/weather/build/index.js']);
    expect(weather.env).toEqual([
      { name: 'WEATHER_UNITS', secret: false, source: 'value' },
      { name: 'OPENWEATHER_KEY', secret: true, reason: 'the name contains KEY', source: 'value' },
      { name: 'UPSTREAM_HINT', secret: true, reason: 'the value looks like a random key', source: 'value' },
      { name: 'LOG_LEVEL', secret: false, source: 'value' },
    ]);
    // The preview never carries a value.
    expect(JSON.stringify(c.previews)).not.toContain('9f8e7d6c5b4a39281706f5e4d3c2b1a0');
    expect(byKey(c.previews, 'github').env).toEqual([
      { name: 'GITHUB_PERSONAL_ACCESS_TOKEN', secret: true, reason: 'the name contains TOKEN', source: 'value' },
    ]);
  });

  it('reads VS Code’s mcp.json with comments and trailing commas, its inputs, placeholders and remote servers', () => {
    const c = read('.vscode/mcp.json');
    expect(c.app).toBe('vscode');
    const perplexity = byKey(c.previews, 'perplexity');
    expect(perplexity.env).toEqual([
      { name: 'PERPLEXITY_API_KEY', secret: true, reason: 'VS Code asks for it as a password', source: 'asked' },
    ]);
    const notes = byKey(c.previews, 'notes');
    expect(notes.warnings).toEqual(['"envFile" is not imported; set what it provides as settings after the import']);
    const remote = byKey(c.previews, 'github-remote');
    expect(remote).toEqual(
      expect.objectContaining({
        transport: 'http',
        url: 'https://api.githubcopilot.com/mcp/',
        headers: [
          { name: 'Authorization', secret: true, reason: 'Authorization carries credentials' },
          { name: 'X-Client', secret: false },
        ],
        // Streamable HTTP: a remote plugin (test/host/mcp-remote.test.ts).
        runnable: true,
      }),
    );
    expect(remote.problem).toBeUndefined();
  });

  it('reads Cursor, Cherry Studio and 5ire files, with their remote, built-in and switched-off servers', () => {
    const cursor = read('.cursor/mcp.json');
    expect(cursor.app).toBe('cursor');
    expect(cursor.previews.map((p) => [p.id, p.transport, p.runnable])).toEqual([
      ['context7', 'stdio', true],
      ['linear', 'sse', false],
    ]);
    // DEFAULT_MINIMUM_TOKENS holds a number of tokens, not a token: the name test goes by words.
    expect(byKey(cursor.previews, 'context7').env[0]).toEqual(
      expect.objectContaining({ name: 'DEFAULT_MINIMUM_TOKENS' }),
    );

    const cherry = read('cherry-studio/mcp-export.json');
    expect(cherry.app).toBe('cherry-studio');
    // Cherry Studio keys are random ids; the id comes from the server's name.
    expect(cherry.previews.map((p) => [p.name, p.id, p.transport, p.disabled, p.runnable])).toEqual([
      ['@cherry/fetch', 'cherry-fetch', 'in-memory', false, false],
      ['Brave Search', 'brave-search', 'stdio', true, true],
      ['Remote docs', 'remote-docs', 'http', false, true],
    ]);
    expect(byKey(cherry.previews, 'hQ7vM2xJ0aS').url).toBe('https://docs.example.com/mcp');

    const fire = read('5ire/mcp.json');
    expect(fire.app).toBe('5ire');
    expect(fire.previews.map((p) => [p.id, p.description ?? null, p.runnable, p.disabled])).toEqual([
      ['sqlite', 'Query a local database', true, false],
      ['remote-tools', null, false, true],
    ]);
  });

  it('refuses a malformed file with the line, column and field', () => {
    const dir = tmpDir('import-bad');
    const bad = (name: string, text: string): string => {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      const r = readMcpConfig(file);
      return r.ok ? 'ok' : r.message;
    };
    expect(bad('a.json', '{\n  "mcpServers": {\n    "x": { "command": "npx" \n    "y": {}\n  }\n}')).toBe(
      'a.json line 4, column 5: not valid JSON (comma expected)',
    );
    expect(
      bad('b.json', '{\n  "mcpServers": {\n    "x": {\n      "command": "npx",\n      "args": "-y pkg"\n    }\n  }\n}'),
    ).toBe('b.json line 5: mcpServers.x.args: expected a list of strings');
    expect(
      bad(
        'c.json',
        '{\n  "mcpServers": {\n    "x": {\n      "command": "npx",\n      "args": ["-y", 3]\n    }\n  }\n}',
      ),
    ).toBe('c.json line 5: mcpServers.x.args[1]: expected a string, got number');
    expect(bad('d.json', '{ "servers": { "x": { "type": "websocket", "url": "ws://h" } } }')).toBe(
      'd.json line 1: servers.x.type: "websocket" is not a transport Plugboard knows (stdio, http, streamableHttp, sse)',
    );
    expect(bad('e.json', '{ "mcpServers": { "x": { "args": ["a"] } } }')).toBe(
      'e.json line 1: mcpServers.x.command: missing: a local server needs the command that starts it',
    );
    expect(bad('f.json', '{ "theme": "dark" }')).toMatch(/^f\.json line 1: \(top level\): no MCP servers here/);
    expect(bad('g.json', '')).toBe('g.json line 1, column 1: not valid JSON (value expected)');
  });

  it('guesses secrets by name and by value, and leaves ordinary values alone', () => {
    expect(guessSecret('AWS_ACCESS_KEY_ID', `AKIA${'ABCDEFGHIJKLMNOP'}`)).toEqual({
      secret: true,
      reason: 'the value looks like an AWS access key',
    });
    expect(secretByValue(`ghp_${'a1B2c3D4e5'.repeat(4)}`).reason).toBe('the value looks like a GitHub token');
    expect(secretByValue('postgres://app:hunter2@db.local/app').reason).toBe(
      'the value is a URL with a password in it',
    );
    expect(guessSecret('apiKey', 'x').secret).toBe(true);
    for (const [name, value] of [
      ['ALLOWED_DIRS', '/Users/ada/Documents/projects/2024'],
      ['KEYBOARD_LAYOUT', 'us'],
      ['SSH_KEY_PATH', '/home/ada/.ssh/id_ed25519'],
      ['LOG_LEVEL', 'debug'],
      ['MODEL', 'claude-3-5-sonnet-20241022'],
    ] as const) {
      expect([name, guessSecret(name, value).secret]).toEqual([name, false]);
    }
  });
});

describe('writing a plugin for an imported server', () => {
  it('writes plugboard.json with secrets as sensitive settings and their values handed back, and the plugin runs', async () => {
    const dir = tmpDir('import-run');
    const server = path.join(FIXTURES, 'mcpb-echo', 'server', 'index.mjs');
    const file = path.join(dir, 'claude_desktop_config.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          'Echo Server': {
            command: 'node',
            args: [server, '--greeting', 'Ahoy'],
            env: { ECHO_TOKEN: 'tok-42-secret-value', ECHO_HOME: '/home/ada' },
          },
        },
      }),
    );
    const c = readMcpConfig(file);
    if (!c.ok) throw new Error(c.message);
    expect(c.previews[0]?.env).toEqual([
      { name: 'ECHO_TOKEN', secret: true, reason: 'the name contains TOKEN', source: 'value' },
      { name: 'ECHO_HOME', secret: false, source: 'value' },
    ]);
    const dest = path.join(dir, 'plugin');
    const w = writeImportedPlugin(c, 'Echo Server', dest);
    if (!w.ok) throw new Error(w.message);
    expect(w.secrets).toEqual({ ECHO_TOKEN: 'tok-42-secret-value' });
    const text = readFileSync(w.manifestPath, 'utf8');
    expect(text).not.toContain('tok-42-secret-value');
    const m = loadManifest(dest);
    if (!m.ok) throw new Error(m.errors.join('\n'));
    expect(m.spec).toEqual(
      expect.objectContaining({
        id: 'echo-server',
        name: 'Echo Server',
        dialect: 'mcp',
        command: ['node', server, '--greeting', 'Ahoy'],
        env: { ECHO_HOME: '/home/ada' },
      }),
    );
    expect(m.spec.settings).toEqual([
      expect.objectContaining({ key: 'ECHO_TOKEN', sensitive: true, required: true, env: 'ECHO_TOKEN' }),
      // The script's project (the nearest folder with a package.json): shown read-only in the sandbox.
      expect.objectContaining({ key: 'server_folder', type: 'directory', default: path.resolve(FIXTURES, '..', '..') }),
    ]);
    expect(m.spec.capabilities).toEqual(['fs.read']);

    // The registry would put the secret in the store and hand it over at launch.
    const sup = await host.addSpec(m.spec, { settings: w.secrets });
    const r = await collect(sup, 'whoami', {});
    expect(r.outcome).toEqual({
      ok: true,
      value: expect.objectContaining({
        data: expect.objectContaining({ greeting: 'Ahoy', home: '/home/ada', hasToken: true }),
      }),
    });
  });

  it('turns VS Code inputs and placeholders into settings and Plugboard placeholders', () => {
    const c = read('.vscode/mcp.json');
    const dest = tmpDir('import-vscode');
    const w = writeImportedPlugin(c, 'perplexity', path.join(dest, 'p'));
    if (!w.ok) throw new Error(w.message);
    expect(w.secrets).toEqual({});
    const m = loadManifest(w.dir);
    if (!m.ok) throw new Error(m.errors.join('\n'));
    expect(m.spec.settings).toEqual([
      expect.objectContaining({
        key: 'perplexity_key',
        title: 'PERPLEXITY_API_KEY',
        description: 'Perplexity API Key',
        sensitive: true,
        required: true,
        env: 'PERPLEXITY_API_KEY',
      }),
    ]);
    expect(m.spec.timeouts.handshakeMs).toBe(120_000);

    const notes = writeImportedPlugin(c, 'notes', path.join(dest, 'n'));
    if (!notes.ok) throw new Error(notes.message);
    const spec = loadManifest(notes.dir);
    if (!spec.ok) throw new Error(spec.errors.join('\n'));
    expect(spec.spec.command).toEqual([
      'python',
      '-m',
      'notes_server',
      '--root',
      `${path.join(DIR)}/notes`,
      '--cache',
      '${HOME}/.cache/notes',
    ]);
  });

  it('refuses what cannot run, a key that is not there, and a folder that is not empty', () => {
    const c = read('cherry-studio/mcp-export.json');
    const dest = tmpDir('import-refuse');
    const sse = writeImportedPlugin(read('.cursor/mcp.json'), 'linear', path.join(dest, 'a'));
    expect(!sse.ok && sse.message).toMatch(
      /^linear cannot be imported: this server speaks the older HTTP\+SSE transport at https:\/\/mcp\.linear\.app\/sse/,
    );
    const missing = writeImportedPlugin(c, 'nope', path.join(dest, 'b'));
    expect(!missing.ok && missing.message).toBe(
      'mcp-export.json has no server "nope" (it has: kN3dX9_pLq2, Zr4tW8mB1cY, hQ7vM2xJ0aS)',
    );
    writeFileSync(path.join(dest, 'keep.txt'), 'x');
    const full = writeImportedPlugin(c, 'Zr4tW8mB1cY', dest);
    expect(!full.ok && full.message).toMatch(/is not empty/);
    expect(existsSync(path.join(dest, 'plugboard.json'))).toBe(false);
    // The person may keep a flagged value as plain env instead.
    const plain = writeImportedPlugin(c, 'Zr4tW8mB1cY', path.join(dest, 'c'), { secret: [] });
    if (!plain.ok) throw new Error(plain.message);
    expect(JSON.parse(readFileSync(plain.manifestPath, 'utf8')).env).toEqual({
      BRAVE_API_KEY: 'BSAb1C2d3E4f5G6h7I8j9K0lMnOpQrStUv',
    });
  });
});
