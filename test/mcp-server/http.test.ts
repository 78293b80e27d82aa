/**
 * The same MCP server over Streamable HTTP at `/mcp` of `plugboard serve`: the server, back end
 * and endpoint as the serve command wires them, on loopback, reached by the MCP SDK's own
 * Streamable HTTP client. Without the bearer token nothing is served; with it, several apps at
 * once, each with its own session; a page of another site and a request naming another host are
 * refused. A call that asks shows its card in the served app itself (its back end's approvals).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpHttpEndpoint, McpHub } from '../../src/main/mcp-server';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { serve, type RunningServer } from '../../src/main/server/server';
import { Backend, type BackendEvent } from '../../src/main/service/backend';
import { cleanupFixtures, REPO, tmpDir } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';
import { textOf } from './helpers';

let registry: PluginRegistry;
let backend: Backend;
let hub: McpHub;
let endpoint: McpHttpEndpoint;
let server: RunningServer;
let mcpUrl: URL;
const clients: Client[] = [];

async function connect(name: string, onListChanged?: () => void): Promise<{ client: Client; session: string }> {
  const transport = new StreamableHTTPClientTransport(mcpUrl, {
    requestInit: { headers: { authorization: `Bearer ${server.token}` } },
  });
  const client = new Client({ name, version: '1.0.0' });
  if (onListChanged) client.setNotificationHandler(ToolListChangedNotificationSchema, onListChanged);
  await client.connect(transport);
  clients.push(client);
  return { client, session: transport.sessionId as string };
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
};

/** A POST to /mcp with exactly these headers (node:http: fetch will not send Host or Origin as given). */
function post(
  headers: Record<string, string>,
  body: unknown = initialize,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      mcpUrl,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

beforeAll(async () => {
  const root = tmpDir('mcp-http');
  const staticDir = path.join(root, 'renderer');
  mkdirSync(staticDir);
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Plugboard</title>');
  registry = await PluginRegistry.open({
    dataDir: path.join(root, 'data'),
    bundledDir: path.join(REPO, 'plugins'),
    nodeModules: path.join(REPO, 'node_modules'),
    env: { PLUGBOARD_TEST_RUN: String(process.pid) },
  });
  backend = await Backend.create({ registry, version: 'test', transport: 'websocket', approvalInbox: true });
  hub = new McpHub({ registry, version: 'test', log: () => undefined });
  const token = 'a-token-for-the-test-of-enough-length';
  endpoint = new McpHttpEndpoint({ hub, token, log: () => undefined });
  server = await serve({ backend, staticDir, port: 0, token, mcp: endpoint, log: () => undefined });
  mcpUrl = new URL('/mcp', server.url);
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await server.close();
  hub.dispose();
  backend.dispose();
  await registry.shutdown();
  registry.dispose();
  expect(await leftovers()).toEqual([]);
  cleanupFixtures();
});

describe('/mcp', () => {
  it('answers 401 without the token, or with a wrong one, and serves nothing', async () => {
    const tries: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: server.token },
    ];
    for (const headers of tries) {
      const r = await post(headers);
      expect(r.status).toBe(401);
      expect(r.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(JSON.parse(r.text)).toEqual({ error: expect.stringMatching(/^missing or wrong token/) });
    }
    expect(endpoint.sessionCount).toBe(0);
    const noToken = new Client({ name: 'no-token', version: '1' });
    await expect(noToken.connect(new StreamableHTTPClientTransport(mcpUrl))).rejects.toThrow(/missing or wrong token/);
    // The same request with the token opens a session: the refusals above were the token's.
    expect((await post({ authorization: `Bearer ${server.token}` })).status).toBe(200);
    expect(endpoint.sessionCount).toBe(1);
    await endpoint.close();
  });

  it('refuses a web page of another site, and a request that names another host', async () => {
    const bearer = { authorization: `Bearer ${server.token}` };
    expect((await post({ ...bearer, origin: 'https://evil.example' })).status).toBe(403);
    expect((await post({ ...bearer, host: `attacker.example:${server.port}` })).status).toBe(403);
    expect(endpoint.sessionCount).toBe(0);
  });

  it('serves several apps at once, each in its own session, and tells each when the tools change', async () => {
    let changesA = 0;
    let changesB = 0;
    const a = await connect('app-a', () => void (changesA += 1));
    const b = await connect('app-b', () => void (changesB += 1));
    expect(a.session).not.toBe(b.session);
    expect(endpoint.sessionCount).toBe(2);
    for (const { client } of [a, b]) {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['hello__say_hello', 'hello__count', 'todo__add']));
      const r = await client.callTool({ name: 'hello__say_hello', arguments: { name: 'Ada' } });
      expect(textOf(r)).toMatch(/Ada/);
    }
    expect((await registry.decisions.setExposed('hello', 'count', false)).ok).toBe(true);
    await expect.poll(() => [changesA, changesB], { timeout: 10_000 }).toEqual([1, 1]);
    expect((await a.client.listTools()).tools.map((t) => t.name)).not.toContain('hello__count');
    expect((await registry.decisions.setExposed('hello', 'count', true)).ok).toBe(true);
    await expect.poll(() => [changesA, changesB], { timeout: 10_000 }).toEqual([2, 2]);
    // Requests of an ended session are refused; the other session goes on.
    await (a.client.transport as StreamableHTTPClientTransport).terminateSession();
    expect(endpoint.sessionCount).toBe(1);
    const stale = await post(
      { authorization: `Bearer ${server.token}`, 'mcp-session-id': a.session },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    );
    expect(stale.status).toBe(404);
    expect((await b.client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('shows a call that asks as a card in the served app, and runs it once allowed there', async () => {
    const events: BackendEvent[] = [];
    const sub = backend.onDidEvent((e) => events.push(e));
    try {
      const { client } = await connect('app-c');
      // todo:add asks under the default policy; this client shows no forms: the app is asked.
      const call = client.callTool({ name: 'todo__add', arguments: { title: 'milk' } });
      await expect
        .poll(async () => (await backend.invoke('approvals.external', {})).length, { timeout: 15_000 })
        .toBe(1);
      const [card] = await backend.invoke('approvals.external', {});
      expect(card).toMatchObject({ plugin: 'todo', tool: 'add', args: { title: 'milk' }, client: 'app-c 1.0.0' });
      expect(await backend.invoke('approvals.answerExternal', { id: card!.id, decision: 'once' })).toEqual({
        ok: true,
        detail: 'allowed once',
      });
      expect(textOf(await call)).toMatch(/milk/);
      expect(events.filter((e) => e.name === 'approvals.external').map((e) => e.payload)).toEqual([
        { pending: [card] },
        { pending: [] },
      ]);
    } finally {
      sub.dispose();
    }
  });
});
