/**
 * `plugboard serve` as a browser meets it: the page, the WebSocket API with its token, Origin and
 * Host checks, uploads for drag-and-drop (deleted once installed or dropped), and events pushed to
 * every client.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningServer } from '../../src/main/server/server';
import type { WsServerMessage } from '../../src/shared/contract';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { serveApp, type ServedApp } from '../helpers/app';
import { folderItems, writeZip } from '../helpers/zips';

let app: ServedApp;
let server: RunningServer;
let uploadsDir: string;

beforeAll(async () => {
  app = await serveApp('server');
  ({ server, uploadsDir } = app);
});

afterAll(async () => {
  await app.close();
  cleanupFixtures();
});

const base = () => `http://127.0.0.1:${server.port}`;

function connect(opts: { token?: string; origin?: string; host?: string } = {}): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${opts.token ?? server.token}`, {
    origin: opts.origin ?? base(),
    headers: opts.host ? { host: opts.host } : {},
  });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

type EventMessage = Extract<WsServerMessage, { kind: 'event' }>;

function rpc(ws: WebSocket) {
  let id = 0;
  const pending = new Map<number, (m: WsServerMessage) => void>();
  const events: EventMessage[] = [];
  const waiters = new Set<{ match: (e: EventMessage) => boolean; resolve: (e: EventMessage) => void }>();
  ws.on('message', (d) => {
    const m = JSON.parse(String(d)) as WsServerMessage;
    if (m.kind === 'result') return pending.get(m.id)?.(m);
    events.push(m);
    for (const w of waiters) {
      if (!w.match(m)) continue;
      waiters.delete(w);
      w.resolve(m);
    }
  });
  return {
    events,
    /** The first event, already received or still to come, that matches (the test's timeout is the deadline). */
    event: (match: (e: EventMessage) => boolean) =>
      new Promise<EventMessage>((resolve) => {
        const seen = events.find(match);
        if (seen) resolve(seen);
        else waiters.add({ match, resolve });
      }),
    call: (name: string, input: unknown) =>
      new Promise<WsServerMessage>((resolve) => {
        const i = ++id;
        pending.set(i, resolve);
        ws.send(JSON.stringify({ kind: 'invoke', id: i, name, input }));
      }),
  };
}

describe('plugboard serve', () => {
  it('prints a loopback URL with the token, and serves the page with a strict CSP', async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    const res = await fetch(`${base()}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await res.text()).toContain('<title>Plugboard</title>');
    const escape = await fetch(`${base()}/..%2f..%2f..%2fetc/passwd`);
    expect(escape.status).toBe(404);
    expect(await escape.text()).not.toContain('root:');
  });

  it('refuses a WebSocket without the token, from another origin, or for another host name', async () => {
    const stale = await connect({ token: 'wrong' });
    const closed = await new Promise<[number, string]>((resolve) =>
      stale.once('close', (code, reason) => resolve([code, String(reason)])),
    );
    expect(closed).toEqual([4401, 'wrong or missing token: open the URL plugboard serve printed']);
    await expect(connect({ origin: 'https://evil.example' })).rejects.toThrow('refused 403');
    await expect(connect({ host: `attacker.example:${server.port}` })).rejects.toThrow('refused 403');
  });

  it('answers contract commands, and names what was wrong with a bad one', async () => {
    const ws = await connect();
    const c = rpc(ws);
    const list = await c.call('plugins.list', {});
    expect(list).toEqual(expect.objectContaining({ kind: 'result', ok: true }));
    expect(await c.call('plugins.nuke', {})).toEqual(
      expect.objectContaining({ ok: false, code: 'invalid_input', message: 'unknown command "plugins.nuke"' }),
    );
    expect(await c.call('plugins.setEnabled', { id: 'hello' })).toEqual(
      expect.objectContaining({
        ok: false,
        code: 'invalid_input',
        message: expect.stringMatching(/^plugins\.setEnabled: enabled: /),
      }),
    );
    ws.close();
  });

  it('pushes events to every client as they happen', async () => {
    const a = rpc(await connect());
    const b = await connect();
    const bRpc = rpc(b);
    const conv = (await a.call('chat.create', {})) as { value: { id: string } };
    const sent = (await a.call('chat.send', { conversationId: conv.value.id, text: '/hello:say_hello name=web' })) as {
      ok: boolean;
    };
    expect(sent.ok).toBe(true);
    const end = await bRpc.event((e) => e.name === 'chat.turn' && (e.payload as { type: string }).type === 'end');
    expect(JSON.stringify(end)).toContain('web');
    expect(await bRpc.event((e) => e.name === 'health')).toEqual(expect.objectContaining({ name: 'health' }));
    b.close();
  });

  it('takes an upload from the page and previews it', async () => {
    const src = tmpDir('upload');
    const bundle = await writeZip(path.join(src, 'echo.mcpb'), folderItems(path.join(FIXTURES, 'mcpb-echo')));
    const headers = { 'x-plugboard-token': server.token, 'x-file-name': 'echo.mcpb', origin: base() };
    const refused = await fetch(`${base()}/upload`, {
      method: 'POST',
      headers: { ...headers, 'x-plugboard-token': 'nope' },
      body: readFileSync(bundle),
    });
    expect(refused.status).toBe(401);
    const cross = await fetch(`${base()}/upload`, {
      method: 'POST',
      headers: { ...headers, origin: 'https://evil.example' },
      body: readFileSync(bundle),
    });
    expect(cross.status).toBe(403);
    const res = await fetch(`${base()}/upload`, { method: 'POST', headers, body: readFileSync(bundle) });
    expect(res.status).toBe(200);
    const { uploadId } = (await res.json()) as { uploadId: string };
    expect(readdirSync(uploadsDir)).toHaveLength(1);
    const c = rpc(await connect());
    const preview = (await c.call('install.preview', { source: { kind: 'upload', uploadId } })) as {
      value: { token: string };
    };
    expect(preview).toEqual(
      expect.objectContaining({
        ok: true,
        value: expect.objectContaining({ ok: true, preview: expect.objectContaining({ id: 'mcpb-echo' }) }),
      }),
    );
    // Dropping the preview deletes the upload.
    expect(await c.call('install.cancel', { token: preview.value.token })).toEqual(
      expect.objectContaining({ ok: true }),
    );
    expect(readdirSync(uploadsDir)).toEqual([]);
  });

  it('deletes an upload once it is installed', async () => {
    const src = tmpDir('upload');
    const bundle = await writeZip(path.join(src, 'echo.mcpb'), folderItems(path.join(FIXTURES, 'mcpb-echo')));
    const res = await fetch(`${base()}/upload`, {
      method: 'POST',
      headers: { 'x-plugboard-token': server.token, 'x-file-name': 'echo.mcpb', origin: base() },
      body: readFileSync(bundle),
    });
    const { uploadId } = (await res.json()) as { uploadId: string };
    const c = rpc(await connect());
    const preview = (await c.call('install.preview', { source: { kind: 'upload', uploadId } })) as {
      value: { token: string };
    };
    const done = await c.call('install.commit', { token: preview.value.token, grants: [], replace: true });
    expect(done).toEqual(
      expect.objectContaining({ ok: true, value: expect.objectContaining({ ok: true, id: 'mcpb-echo' }) }),
    );
    expect(readdirSync(uploadsDir)).toEqual([]);
  });

  it('deletes an upload the preview refuses', async () => {
    const res = await fetch(`${base()}/upload`, {
      method: 'POST',
      headers: { 'x-plugboard-token': server.token, 'x-file-name': 'broken.zip', origin: base() },
      body: 'not a zip at all',
    });
    const { uploadId } = (await res.json()) as { uploadId: string };
    expect(readdirSync(uploadsDir)).toHaveLength(1);
    const c = rpc(await connect());
    const preview = (await c.call('install.preview', { source: { kind: 'upload', uploadId } })) as {
      value: { ok: boolean; message: string };
    };
    expect(preview.value.ok).toBe(false);
    expect(preview.value.message).toMatch(/broken\.zip/);
    expect(readdirSync(uploadsDir)).toEqual([]);
  });
});
