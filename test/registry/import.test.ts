/**
 * Importing another app's MCP config through the contract, as the app does when such a file is
 * dropped on the window: `import.preview` names every server with no value in it, `import.commit`
 * installs the chosen ones into a real registry (real plugin folders, real child processes), a
 * refusal of one server leaves the others installed, and the secrets end in the secret store.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp, type TestApp } from '../helpers/app';
import { IMPORT_TOKEN, serverProject, writeClaudeConfig } from '../helpers/import-config';
import { startMcpHttp } from '../helpers/mcp-http';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';

let app: TestApp;
let root: string;
let config: string;

beforeAll(async () => {
  root = tmpDir('registry-import');
  config = writeClaudeConfig(root, {
    weather: {
      command: 'node',
      args: [serverProject(root, 'weather'), '--greeting', 'Sunny'],
      env: { WEATHER_API_KEY: IMPORT_TOKEN },
    },
    notes: { command: 'node', args: [serverProject(root, 'notes'), '--greeting', 'Noted'] },
    // Named like a bundled plugin: it is offered another id, never the bundled plugin's.
    hello: { command: 'node', args: [serverProject(root, 'hello')] },
  });
  app = await openApp(path.join(root, 'data'));
});
afterAll(async () => {
  await app.close();
  cleanupFixtures();
});

describe('import.preview and import.commit', () => {
  it('previews the servers, installs the chosen ones, and each answers', async () => {
    const { backend, registry } = app;
    const p = await backend.invoke('import.preview', { source: { kind: 'path', path: config } });
    if (!p.ok) throw new Error(p.message);
    expect(p.preview.appName).toBe('Claude Desktop');
    expect(p.preview.servers.map((s) => [s.key, s.id, s.runnable, s.env.map((e) => [e.name, e.secret])])).toEqual([
      ['weather', 'weather', true, [['WEATHER_API_KEY', true]]],
      ['notes', 'notes', true, []],
      ['hello', 'hello-2', true, []],
    ]);
    expect(p.preview.servers[2]?.idTaken).toBe('hello');
    expect(JSON.stringify(p)).not.toContain(IMPORT_TOKEN);
    // A config preview is not a package preview.
    expect(await backend.invoke('install.commit', { token: p.token, grants: [], replace: false })).toEqual(
      expect.objectContaining({ ok: false, code: 'invalid_input' }),
    );

    // An id chosen for a server that another plugin has is refused: nothing is replaced, and the
    // other servers go in anyway.
    const r = await backend.invoke('import.commit', {
      token: p.token,
      only: ['weather', 'notes', 'hello'],
      secret: ['WEATHER_API_KEY'],
      ids: { hello: 'notes' },
    });
    if (!r.ok) throw new Error(r.message);
    expect(r.results.map((x) => [x.key, x.ok])).toEqual([
      ['weather', true],
      ['notes', true],
      ['hello', false],
    ]);
    expect(r.results[2]).toEqual(
      expect.objectContaining({
        code: 'install_refused',
        message: expect.stringContaining('a plugin "notes" is installed already'),
      }),
    );
    expect(readFileSync(path.join(root, 'data', 'plugins', 'weather', 'plugboard.json'), 'utf8')).not.toContain(
      IMPORT_TOKEN,
    );
    expect(await registry.secrets.get('weather')).toEqual({ WEATHER_API_KEY: IMPORT_TOKEN });

    const weather = await registry.call('weather', 'greet', { name: 'Ada' }).done;
    expect(weather).toEqual({ ok: true, value: expect.objectContaining({ data: 'Sunny, Ada!' }) });
    const notes = await registry.call('notes', 'greet', { name: 'Bo' }).done;
    expect(notes).toEqual({ ok: true, value: expect.objectContaining({ data: 'Noted, Bo!' }) });

    // Partly done: the preview stays for what was refused, which goes in under the id offered.
    const again = await backend.invoke('import.commit', { token: p.token, only: ['hello'], secret: [] });
    expect(again).toEqual({ ok: true, results: [expect.objectContaining({ key: 'hello', ok: true, id: 'hello-2' })] });
    expect(registry.record('hello')?.source).toBe('bundled');
    // Once every server is in, the preview is gone.
    expect(await backend.invoke('import.commit', { token: p.token, only: ['hello'], secret: [] })).toEqual({
      ok: false,
      code: 'invalid_state',
      message: 'this preview has expired; drop the config file again',
    });
  });

  it('imports a remote server (Streamable HTTP) with its bearer token kept as a secret, and calls it', async () => {
    const server = await startMcpHttp(['--token', IMPORT_TOKEN]);
    try {
      const file = writeClaudeConfig(tmpDir('registry-import-remote'), {
        'Docs (remote)': {
          type: 'http',
          url: server.url,
          headers: { Authorization: `Bearer ${IMPORT_TOKEN}`, 'X-Client': 'plugboard-test' },
        },
      });
      const p = await app.backend.invoke('import.preview', { source: { kind: 'path', path: file } });
      if (!p.ok) throw new Error(p.message);
      expect(p.preview.servers[0]).toEqual(
        expect.objectContaining({ id: 'docs-remote', transport: 'http', url: server.url, runnable: true }),
      );
      expect(p.preview.servers[0]?.headers).toEqual([
        { name: 'Authorization', secret: true, reason: 'Authorization carries credentials' },
        { name: 'X-Client', secret: false },
      ]);
      const r = await app.backend.invoke('import.commit', {
        token: p.token,
        only: ['Docs (remote)'],
        secret: ['Authorization'],
      });
      expect(r.ok && r.results.map((x) => [x.key, x.ok && x.id])).toEqual([['Docs (remote)', 'docs-remote']]);
      const manifest = JSON.parse(
        readFileSync(path.join(root, 'data', 'plugins', 'docs-remote', 'plugboard.json'), 'utf8'),
      ) as Record<string, unknown>;
      expect(manifest).toEqual(
        expect.objectContaining({
          url: server.url,
          headers: { Authorization: 'Bearer ${user_config.authorization}', 'X-Client': 'plugboard-test' },
        }),
      );
      expect(await app.registry.secrets.get('docs-remote')).toEqual({ authorization: IMPORT_TOKEN });
      // The network was not ticked (the CLI's --net): installed, it contacts nothing, and a call
      // says which grant it lacks (red team M02). Granted, it answers.
      const before = await app.registry.call('docs-remote', 'whoami', {}).done;
      expect(before.ok).toBe(false);
      expect(JSON.stringify(before)).toMatch(/\bnet\b/);
      expect((await app.registry.decisions.grant('docs-remote', ['net'])).ok).toBe(true);
      const who = await app.registry.call('docs-remote', 'whoami', {}).done;
      expect(who.ok && JSON.parse(who.value.data as string)).toEqual(
        expect.objectContaining({ authorization: `Bearer ${IMPORT_TOKEN}` }),
      );

      // Its resources and prompts, through the contract (the composer fills in a prompt's text).
      const res = await app.backend.invoke('plugins.resources', { id: 'docs-remote' });
      expect(res.ok && res.resources.map((x) => x.uri)).toEqual(['notes://today']);
      const prompts = await app.backend.invoke('plugins.prompts', { id: 'docs-remote' });
      expect(prompts.ok && prompts.prompts.map((x) => x.name)).toEqual(['summarize']);
      const filled = await app.backend.invoke('prompts.get', {
        id: 'docs-remote',
        name: 'summarize',
        args: { topic: 'Ada' },
      });
      expect(filled.ok && filled.prompt.text).toBe(
        'Summarize what the notes say about Ada.\n\nMet Ada; shipped the import.',
      );
      expect(await app.backend.invoke('plugins.prompts', { id: 'hello' })).toEqual({ ok: true, prompts: [] });
      expect(await app.backend.invoke('plugins.resources', { id: 'nope' })).toEqual({
        ok: false,
        code: 'not_found',
        message: 'no plugin "nope"',
      });
    } finally {
      server.proc.kill('SIGKILL');
    }
  });

  it('refuses a malformed file with its line and field', async () => {
    const bad = path.join(root, 'mcp.json');
    writeFileSync(bad, '{\n  "mcpServers": {\n    "x": { "command": 42 }\n  }\n}\n');
    expect(await app.backend.invoke('import.preview', { source: { kind: 'path', path: bad } })).toEqual({
      ok: false,
      code: 'invalid_input',
      message: 'mcp.json line 3: mcpServers.x.command: expected a string, got number',
      details: { data: { file: bad, line: 3, column: 12, field: 'mcpServers.x.command' } },
    });
  });
});
