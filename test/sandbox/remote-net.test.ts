/**
 * Remote MCP servers need `net` (issue 18, item 7), shown with loopback HTTP servers that count
 * every request they get: a remote server with nothing granted is never contacted, the install
 * preview's trial never contacts a package's URL, a granted one connects (the real MCP server of
 * test/fixtures/mcp-http behind a counting proxy), and a redirect to another origin is refused,
 * its target never reached.
 */
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { describeFailure } from '../../src/shared/failures';
import { startMcpHttp } from '../helpers/mcp-http';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';

interface Counter {
  url: string;
  hits: number;
  close(): Promise<void>;
}

/** A loopback server that counts requests and answers each with `answer`. */
async function counting(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Counter> {
  const c = { hits: 0 } as Counter;
  const server = http.createServer((req, res) => {
    c.hits++;
    answer(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  c.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  c.close = () => new Promise((r) => server.close(() => r()));
  return c;
}

/** A counting proxy in front of the real MCP server. */
function proxyTo(target: string): Promise<Counter> {
  const t = new URL(target);
  return counting((req, res) => {
    const up = http.request(
      { host: t.hostname, port: t.port, path: t.pathname, method: req.method, headers: req.headers },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    req.pipe(up);
  });
}

function remotePackage(id: string, url: string): string {
  const dir = path.join(tmpDir(`remote-${id}`), id);
  mkdirSync(dir);
  writeFileSync(
    path.join(dir, 'plugboard.json'),
    JSON.stringify({ id, protocol: 'mcp', url, headers: { Authorization: 'Bearer from-the-package' } }),
  );
  return dir;
}

let registry: PluginRegistry;
let server: ChildProcess;
let mcpUrl: string;

beforeAll(async () => {
  registry = await PluginRegistry.open({ dataDir: path.join(tmpDir('remote-net'), 'data') });
  const s = await startMcpHttp();
  server = s.proc;
  mcpUrl = s.url;
});

afterAll(async () => {
  await registry?.shutdown();
  registry?.dispose();
  server?.kill('SIGKILL');
  cleanupFixtures();
});

describe('remote MCP servers and the network', () => {
  it('the install preview’s trial never contacts the package’s URL', async () => {
    const c = await counting((_req, res) => res.writeHead(500).end());
    const r = await registry.installer.preview(remotePackage('trial-remote', c.url));
    if (!r.ok) throw new Error(describeFailure(r));
    expect(r.preview.requested).toContain('net');
    expect(r.preview.trial).toMatchObject({
      status: 'skipped',
      message: expect.stringMatching(/grant it the network/),
    });
    expect(c.hits).toBe(0);
    await c.close();
  });

  it('a remote server without net is never contacted; with net it connects and answers', async () => {
    const c = await proxyTo(mcpUrl);
    expect((await registry.installer.install(remotePackage('gated', c.url), { grant: 'none' })).ok).toBe(true);
    const refused = await registry.call('gated', 'echo', { text: 'hi' }).done;
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.code).toBe('capability_not_allowed');
    expect(!refused.ok && refused.message).toMatch(/net capability is not granted.*plugboard plugins grant gated net/);
    expect(c.hits).toBe(0);

    expect((await registry.decisions.grant('gated', ['net'])).ok).toBe(true);
    const o = await registry.call('gated', 'echo', { text: 'over the network' }).done;
    expect(o).toMatchObject({ ok: true, value: { data: 'over the network' } });
    expect(c.hits).toBeGreaterThan(0);
    await registry.stop('gated');
    await c.close();
  });

  it('a redirect to another origin is refused, and its target never reached', async () => {
    const elsewhere = await counting((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
    );
    const redirecting = await counting((_req, res) => res.writeHead(307, { location: elsewhere.url }).end());
    expect(
      (await registry.installer.install(remotePackage('redirected', redirecting.url), { grant: 'requested' })).ok,
    ).toBe(true);
    expect(registry.decisions.pluginState('redirected').grants).toContain('net');
    const o = await registry.call('redirected', 'echo', { text: 'hi' }).done;
    expect(o.ok).toBe(false);
    expect(redirecting.hits).toBeGreaterThan(0);
    expect(elsewhere.hits).toBe(0);
    await registry.stop('redirected');
    await Promise.all([redirecting.close(), elsewhere.close()]);
  });
});
