/**
 * Remote MCP servers over Streamable HTTP: a real server of ours (test/fixtures/mcp-http, the
 * SDK's server side on loopback, in its own process) reached through a plugboard.json with `url`
 * and `headers`, the bearer token a secret setting. Calls, failures, cancel and deadlines are the
 * supervisor's as for a local server; health follows reachability (a stopped server is a crash,
 * the usual restarts bring it back when it is up again).
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadManifest } from '../../src/main/plugins/manifests';
import { collect } from '../helpers/calls';
import { useTestHost } from '../helpers/host';
import { startMcpHttp, type HttpServer } from '../helpers/mcp-http';
import { tmpDir } from '../helpers/plugins';

const host = useTestHost();
const servers: ChildProcess[] = [];

afterEach(() => {
  for (const s of servers.splice(0)) s.kill('SIGKILL');
});

async function startServer(args: string[] = []): Promise<HttpServer> {
  const s = await startMcpHttp(args);
  servers.push(s.proc);
  return s;
}

function exited(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) =>
    proc.exitCode !== null || proc.signalCode !== null ? resolve() : proc.once('exit', () => resolve()),
  );
}

function remotePlugin(url: string, extra: Record<string, unknown> = {}): ReturnType<typeof specOrThrow> {
  const dir = tmpDir('remote');
  writeFileSync(
    path.join(dir, 'plugboard.json'),
    JSON.stringify({
      id: 'remote',
      name: 'Remote',
      protocol: 'mcp',
      url,
      headers: { Authorization: 'Bearer ${user_config.token}' },
      settings: { token: { title: 'Access token', sensitive: true, required: true } },
      ...extra,
    }),
  );
  return specOrThrow(dir);
}

function specOrThrow(dir: string) {
  const m = loadManifest(dir);
  if (!m.ok) throw new Error(m.errors.join('\n'));
  return m.spec;
}

describe('remote MCP servers over Streamable HTTP', () => {
  it('calls the server with the bearer token from a secret setting, with its tools, hints and log messages', async () => {
    const { url } = await startServer(['--token', 's3cret']);
    const spec = remotePlugin(url);
    expect(spec.remote).toEqual({ url, headers: { Authorization: 'Bearer ${user_config.token}' } });
    const sup = await host.addSpec(spec, { settings: { token: 's3cret' } });
    expect((await sup.start()).ok).toBe(true);
    expect(sup.health.state).toBe('ready');
    expect(sup.tools.map((t) => t.name)).toEqual(['echo', 'whoami', 'slow', 'fail', 'boom', 'log', 'add_prompt']);
    expect(sup.tools[0]?.annotations).toEqual({ readOnlyHint: true });

    expect((await collect(sup, 'echo', { text: 'over http' })).outcome).toEqual({
      ok: true,
      value: { success: true, data: 'over http', keepSession: false },
    });
    const who = await collect(sup, 'whoami');
    const seen = JSON.parse((who.outcome as { value: { data: string } }).value.data) as Record<string, string>;
    // The token reached the server in its header, and later requests carry the negotiated version.
    expect(seen).toEqual({
      authorization: 'Bearer s3cret',
      protocolVersion: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });

    expect((await collect(sup, 'log', { text: 'from afar' })).outcome.ok).toBe(true);
    expect(
      host.logs.some((l) => l.pluginId === 'remote' && l.level === 'warn' && l.message.includes('remote: from afar')),
    ).toBe(true);
  });

  it('lists its resources and prompts, and fills a prompt for the composer', async () => {
    const { url } = await startServer();
    await host.addSpec(remotePlugin(url, { headers: {}, settings: {} }));
    const features = host.features('remote');
    if (!features) throw new Error('no prompts and resources');
    // Asked of the server, which is started for it.
    expect(await features.resources()).toEqual({
      ok: true,
      value: [
        {
          uri: 'notes://today',
          name: 'today',
          title: 'Today’s notes',
          description: 'What happened today',
          mimeType: 'text/plain',
        },
      ],
    });
    expect(await features.prompts()).toEqual({
      ok: true,
      value: [
        {
          name: 'summarize',
          title: 'Summarize',
          description: 'Summarize a topic from the notes',
          arguments: [{ name: 'topic', description: 'What to summarize', required: true }],
        },
      ],
    });
    const filled = await features.getPrompt('summarize', { topic: 'the import' });
    expect(filled).toEqual({
      ok: true,
      value: {
        messages: [
          { role: 'user', text: 'Summarize what the notes say about the import.' },
          { role: 'user', text: 'Met Ada; shipped the import.' },
        ],
        text: 'Summarize what the notes say about the import.\n\nMet Ada; shipped the import.',
      },
    });
    const missing = await features.getPrompt('nope', {});
    expect(missing.ok === false && missing.code).toBe('plugin_error');
  });

  it('hears prompts/list_changed from the server outside any request, and the list read then has the new prompt', async () => {
    const { url } = await startServer();
    const sup = await host.addSpec(remotePlugin(url, { headers: {}, settings: {} }));
    const changed = new Promise<string>((resolve) =>
      host.onDidChangeFeatures((e) => resolve(`${e.pluginId}:${e.kind}`)),
    );
    expect((await collect(sup, 'add_prompt', { name: 'recap' })).outcome.ok).toBe(true);
    expect(await changed).toBe('remote:prompts');
    const prompts = await host.features('remote')?.prompts();
    expect(prompts?.ok && prompts.value.map((p) => p.name)).toEqual(['summarize', 'recap']);
  });

  it('fails with the same codes as a local server: tool errors, a wrong token, a missing secret', async () => {
    const { url } = await startServer(['--token', 's3cret']);
    const sup = await host.addSpec(remotePlugin(url), { settings: { token: 's3cret' } });
    expect(await collect(sup, 'fail').then((r) => r.outcome)).toEqual(
      expect.objectContaining({ ok: false, code: 'plugin_error', message: 'the remote tool could not do it' }),
    );
    const boom = (await collect(sup, 'boom')).outcome;
    expect(boom.ok === false && boom.code === 'plugin_error' && boom.message).toMatch(/kaboom/);
    await sup.stop();

    const wrong = await host.addSpec(remotePlugin(url), { settings: { token: 'nope' } });
    const refused = await wrong.start();
    expect(refused).toEqual(expect.objectContaining({ ok: false, code: 'handshake_failed' }));
    expect(!refused.ok && refused.message).toMatch(
      /HTTP 401: the server refused the credentials; check the token or headers in the plugin's settings/,
    );

    const missing = await host.addSpec(remotePlugin(url), {});
    expect(await missing.start()).toEqual(
      expect.objectContaining({
        ok: false,
        code: 'settings_missing',
        message: 'required settings are not set: token (Access token)',
      }),
    );
  });

  it('cancels a call and enforces its deadline on the server too', async () => {
    const record = path.join(tmpDir('remote-cancel'), 'seen.log');
    const { url } = await startServer(['--record', record]);
    const sup = await host.addSpec(
      remotePlugin(url, { headers: {}, settings: {}, timeouts: { callInactivityMs: 400 } }),
    );
    const seen = (): string => (existsSync(record) ? readFileSync(record, 'utf8') : '');
    const handle = sup.call('slow', { ms: 30_000 });
    // Cancelled once the server is at work on it: the cancellation must reach the server.
    await expect.poll(seen, { timeout: 10_000 }).toBe('started slow 30000\n');
    handle.cancel('enough');
    expect(await handle.done).toEqual(expect.objectContaining({ ok: false, code: 'cancelled' }));
    await expect.poll(seen, { timeout: 5000 }).toBe('started slow 30000\ncancelled slow 30000\n');
    const late = await collect(sup, 'slow', { ms: 29_000 });
    expect(late.outcome).toEqual(expect.objectContaining({ ok: false, code: 'timeout' }));
    await expect.poll(seen, { timeout: 5000 }).toContain('started slow 29000\ncancelled slow 29000\n');
    // Still usable afterwards, and a stop ends the session on the server.
    expect((await collect(sup, 'echo', { text: 'still here' })).outcome.ok).toBe(true);
    await sup.stop();
    await expect.poll(() => readFileSync(record, 'utf8'), { timeout: 5000 }).toContain('session ended\n');
  });

  it('is unhealthy while the server cannot be reached, and comes back when it is up again', async () => {
    const first = await startServer();
    const port = new URL(first.url).port;
    const sup = await host.addSpec(
      remotePlugin(first.url, {
        headers: {},
        settings: {},
        timeouts: { pingIntervalMs: 100, pingTimeoutMs: 1000, restartDelaysMs: [200, 200, 200, 200, 200] },
      }),
    );
    expect((await sup.start()).ok).toBe(true);
    const since = host.health.length;
    first.proc.kill('SIGKILL');
    await exited(first.proc);
    const crashed = await host.waitFor('remote', 'crashed', 10_000, since);
    expect(crashed.failure?.message).toMatch(
      new RegExp(
        // Refused, or cut off when a request (a ping) was on its way as the server died.
        `^${first.url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} could not be reached: fetch failed \\((ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET)\\)`,
      ),
    );
    // A call meanwhile fails at once with a reason, rather than hanging.
    const during = (await collect(sup, 'echo', { text: 'anyone?' })).outcome;
    expect(during.ok).toBe(false);
    // The restarts find nobody there either, and give up saying why.
    const failed = await host.waitFor('remote', 'failed', 15_000, host.after(crashed));
    expect(failed.failure?.message).toMatch(/could not be reached: fetch failed \(ECONNREFUSED\)/);

    // Up again: starting it (what the panel's Start does) reaches it.
    await startServer(['--port', port]);
    expect((await sup.start()).ok).toBe(true);
    expect((await collect(sup, 'echo', { text: 'back' })).outcome).toEqual(expect.objectContaining({ ok: true }));
  });

  it('refuses a manifest that mixes a command and a url, or gives headers without one', () => {
    const dir = tmpDir('remote-bad');
    writeFileSync(
      path.join(dir, 'plugboard.json'),
      JSON.stringify({ id: 'x', protocol: 'mcp', command: ['node', 's.js'], url: 'http://127.0.0.1:1/mcp' }),
    );
    expect(loadManifest(dir)).toEqual(
      expect.objectContaining({
        ok: false,
        errors: ['url: give either "command" (a local server) or "url" (a remote one), not both'],
      }),
    );
    writeFileSync(path.join(dir, 'plugboard.json'), JSON.stringify({ id: 'x', protocol: 'jsonrpc', url: 'ftp://h/x' }));
    const r = loadManifest(dir);
    expect(!r.ok && r.errors.join('\n')).toMatch(/url: must be an http:\/\/ or https:\/\/ URL/);
  });
});
