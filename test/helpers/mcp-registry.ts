/**
 * An MCP registry on loopback for the catalog and update tests, speaking the real `v0` API:
 * `GET /v0/servers?search&limit&cursor&version=latest` and
 * `GET /v0/servers/{name}/versions/{version|latest}`, serving server.json documents (the fixtures
 * in test/fixtures/mcp-registry, written in the registry's published shape) wrapped as the API
 * wraps them, with its `_meta` (status, isLatest). It records the paths it was asked for. Tests
 * publish new versions while they run. The npm packages its entries name are served by
 * test/helpers/npm-registry.ts.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { FIXTURES } from './plugins';

type Doc = Record<string, unknown> & { name: string; version: string };

export interface TestRegistry {
  url: string;
  /** Paths with their query, as asked. */
  asked: string[];
  /** Adds a version of a server (it becomes the latest of its name). */
  publish(doc: Doc, status?: string): void;
  /** An entry of the list that is not a server.json at all (a registry serving junk). */
  addJunk(item: unknown): void;
  close(): Promise<void>;
}

export function registryDoc(file: string): Doc {
  return JSON.parse(readFileSync(path.join(FIXTURES, 'mcp-registry', file), 'utf8')) as Doc;
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const a = server.address();
      resolve(`http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`);
    }),
  );
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export async function startMcpRegistry(docs: Doc[]): Promise<TestRegistry> {
  const versions: Array<{ doc: Doc; status: string; at: string }> = [];
  const junk: unknown[] = [];
  const asked: string[] = [];
  const item = (v: (typeof versions)[number]): unknown => ({
    server: v.doc,
    _meta: {
      'io.modelcontextprotocol.registry/official': {
        status: v.status,
        publishedAt: v.at,
        updatedAt: v.at,
        isLatest: latestOf(v.doc.name) === v,
      },
    },
  });
  const latestOf = (name: string): (typeof versions)[number] | undefined =>
    versions.filter((v) => v.doc.name === name).at(-1);
  const publish = (doc: Doc, status = 'active'): void =>
    void versions.push({ doc, status, at: new Date().toISOString() });
  for (const d of docs) publish(d);

  const server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    asked.push(`${u.pathname}${u.search}`);
    if (req.method !== 'GET') return send(res, 405, { error: 'method not allowed' });
    if (u.pathname === '/v0/servers') {
      const search = (u.searchParams.get('search') ?? '').toLowerCase();
      const limit = Number(u.searchParams.get('limit') ?? '30');
      const cursor = u.searchParams.get('cursor');
      const names = [...new Set(versions.map((v) => v.doc.name))]
        .sort()
        .filter((n) => n.toLowerCase().includes(search));
      const start = cursor ? names.findIndex((n) => `${n}:${latestOf(n)?.doc.version}` === cursor) + 1 : 0;
      const page = names.slice(start, start + limit);
      const latest = page.map((n) => latestOf(n) as (typeof versions)[number]).filter((v) => v.status !== 'deleted');
      const last = page.at(-1);
      const more = start + limit < names.length && last;
      return send(res, 200, {
        servers: [...latest.map(item), ...(start === 0 ? junk : [])],
        metadata: { count: latest.length, ...(more ? { nextCursor: `${last}:${latestOf(last)?.doc.version}` } : {}) },
      });
    }
    const m = /^\/v0\/servers\/([^/]+)\/versions\/([^/]+)$/.exec(u.pathname);
    if (m) {
      const name = decodeURIComponent(m[1] as string);
      const version = decodeURIComponent(m[2] as string);
      const v =
        version === 'latest' ? latestOf(name) : versions.find((x) => x.doc.name === name && x.doc.version === version);
      return v ? send(res, 200, item(v)) : send(res, 404, { error: 'Server not found' });
    }
    send(res, 404, { error: 'Not found' });
  });
  const url = await listen(server);
  return {
    url,
    asked,
    publish,
    addJunk: (x) => void junk.push(x),
    close: () => new Promise((r) => server.close(() => r())),
  };
}
