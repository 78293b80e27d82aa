/**
 * `plugboard serve` against clients that misbehave, over real sockets and real HTTP: broken
 * WebSocket frames with and without the token, a message over the size limit, a request path
 * that is not valid percent-encoding, an upload cut off half-way and uploads over the limit.
 * After each one the server must still serve the next client, and no partial upload may remain.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { MAX_MESSAGE_BYTES, WS_BAD_TOKEN, type RunningServer } from '../../src/main/server/server';
import type { WsServerMessage } from '../../src/shared/contract';
import { cleanupFixtures } from '../helpers/plugins';
import { serveApp, type ServedApp } from '../helpers/app';

const MAX_UPLOAD = 64 * 1024;

let app: ServedApp;
let server: RunningServer;
let uploadsDir: string;
const logged: string[] = [];

beforeAll(async () => {
  app = await serveApp('server-robust', { maxUploadBytes: MAX_UPLOAD, log: (line) => logged.push(line) });
  ({ server, uploadsDir } = app);
});

afterAll(async () => {
  await app.close();
  cleanupFixtures();
});

const base = (): string => `http://127.0.0.1:${server.port}`;

/** Resolves once `check` holds; the test's timeout is the deadline. For effects with no event to wait on. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
}

function connect(token = server.token): Promise<WebSocket> {
  const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${token}`, { origin: base() });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
}

/** A fresh authenticated client gets an answer to a command: the server is still serving. */
async function stillServes(): Promise<void> {
  const ws = await connect();
  const answer = new Promise<WsServerMessage>((resolve) =>
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as WsServerMessage;
      if (m.kind === 'result') resolve(m);
    }),
  );
  ws.send(JSON.stringify({ kind: 'invoke', id: 1, name: 'app.info', input: {} }));
  expect(await answer).toEqual(expect.objectContaining({ kind: 'result', id: 1, ok: true }));
  ws.close();
  const page = await fetch(`${base()}/`);
  expect(page.status).toBe(200);
}

/** A WebSocket handshake by hand, so the test can then write frames no proper client would. */
function rawUpgrade(token: string): Promise<{ socket: net.Socket; closed: Promise<void> }> {
  const socket = net.connect(server.port, '127.0.0.1');
  const done = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined); // the server may reset us; 'close' still follows
  return new Promise((resolve, reject) => {
    let head = '';
    const onData = (d: Buffer): void => {
      head += d.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (head.startsWith('HTTP/1.1 101')) resolve({ socket, closed: done });
      else reject(new Error(`no upgrade: ${head.split('\r\n')[0]}`));
    };
    socket.on('data', onData);
    socket.write(
      [
        `GET /ws?token=${token} HTTP/1.1`,
        `Host: 127.0.0.1:${server.port}`,
        `Origin: ${base()}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        '',
        '',
      ].join('\r\n'),
    );
  });
}

/** A text frame sent without the mask every client frame must carry (RFC 6455 §5.1). */
const unmaskedFrame = Buffer.concat([Buffer.from([0x81, 5]), Buffer.from('hello')]);
/** All reserved bits and a reserved opcode, masked, then noise. */
const garbageFrame = Buffer.concat([Buffer.from([0xff, 0x84]), randomBytes(4), randomBytes(64)]);

/** Sends `parts` as a chunked POST /upload, one write each; resolves with the answer, if one comes. */
function chunkedUpload(
  parts: Buffer[],
  opts: { abortAfter?: number } = {},
): { response: Promise<{ status: number; body: string } | null>; request: http.ClientRequest } {
  const request = http.request(`${base()}/upload`, {
    method: 'POST',
    headers: {
      'x-plugboard-token': server.token,
      'x-file-name': 'big.zip',
      origin: base(),
      'transfer-encoding': 'chunked',
    },
  });
  const response = new Promise<{ status: number; body: string } | null>((resolve) => {
    let answered = false;
    // Our own abort, or a reset before any answer came; one after the answer is expected (the
    // server closes the connection while we may still be writing) and changes nothing.
    request.on('error', () => {
      if (!answered) resolve(null);
    });
    request.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('error', () => undefined);
      res.on('close', () => resolve({ status: res.statusCode ?? 0, body }));
    });
  });
  parts.forEach((p, i) => {
    if (opts.abortAfter !== undefined && i >= opts.abortAfter) return;
    request.write(p);
  });
  if (opts.abortAfter === undefined) request.end();
  return { response, request };
}

/** Every file below the uploads folder. */
function uploadedFiles(): string[] {
  if (!existsSync(uploadsDir)) return [];
  return readdirSync(uploadsDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe('plugboard serve with misbehaving clients', () => {
  it('survives an unmasked frame from a client with a wrong token, which it has closed with 4401', async () => {
    const before = logged.length;
    const { socket, closed: gone } = await rawUpgrade('wrong');
    socket.write(unmaskedFrame);
    await gone;
    await until(() => logged.length > before);
    expect(logged.slice(before).join('\n')).toMatch(/wrong token: .*MASK/i);
    await stillServes();
  });

  it('survives a garbage frame from a client with a wrong token', async () => {
    const { socket, closed: gone } = await rawUpgrade('wrong');
    socket.write(garbageFrame);
    await gone;
    await stillServes();
  });

  it('still tells a proper client with a wrong token why it was closed', async () => {
    const ws = await connect('wrong');
    expect(await closed(ws)).toEqual({
      code: WS_BAD_TOKEN,
      reason: 'wrong or missing token: open the URL plugboard serve printed',
    });
  });

  it('closes an authenticated client that sends garbage, and serves the next one', async () => {
    const before = logged.length;
    const { socket, closed: gone } = await rawUpgrade(server.token);
    socket.write(garbageFrame);
    await gone;
    await until(() => logged.length > before);
    await stillServes();
  });

  it('closes a client whose message is over the limit with a reason naming it, and serves the next one', async () => {
    const ws = await connect();
    const end = closed(ws);
    ws.send('x'.repeat(MAX_MESSAGE_BYTES + 1));
    expect(await end).toEqual({ code: 1009, reason: 'message too large: the limit is 4 MiB' });
    await stillServes();
  });

  it('answers a path that is not valid percent-encoding with 400', async () => {
    const res = await fetch(`${base()}/%E0`);
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('bad request: the path is not valid percent-encoded UTF-8');
    const asset = await fetch(`${base()}/assets/%E0%A4.js`);
    expect(asset.status).toBe(400);
    await stillServes();
  });

  it('answers a file name that is not valid percent-encoding with 400', async () => {
    const res = await fetch(`${base()}/upload`, {
      method: 'POST',
      headers: { 'x-plugboard-token': server.token, 'x-file-name': '%E0.zip', origin: base() },
      body: 'PK',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'the x-file-name header is not valid percent-encoded UTF-8' });
    expect(uploadedFiles()).toEqual([]);
  });

  it('leaves no file behind when an upload is cut off half-way', async () => {
    const { request, response } = chunkedUpload([randomBytes(16 * 1024), randomBytes(16 * 1024)], { abortAfter: 2 });
    // The partial file exists while the body is still coming…
    await until(() => uploadedFiles().length === 1);
    request.destroy();
    expect(await response).toBeNull();
    // …and is gone once the server has seen the connection drop.
    await until(() => uploadedFiles().length === 0);
    expect(readdirSync(uploadsDir)).toEqual([]);
    await stillServes();
  });

  it('refuses an upload whose declared length is over the limit with 413 naming the limit', async () => {
    const res = await fetch(`${base()}/upload`, {
      method: 'POST',
      headers: { 'x-plugboard-token': server.token, 'x-file-name': 'big.zip', origin: base() },
      body: randomBytes(4 * MAX_UPLOAD),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: 'the file is larger than the upload limit of 64 KiB' });
    expect(readdirSync(uploadsDir)).toEqual([]);
    await stillServes();
  });

  it('refuses a streamed upload that grows over the limit with 413 naming the limit, and keeps none of it', async () => {
    const parts = Array.from({ length: 16 }, () => randomBytes(16 * 1024));
    const { response } = chunkedUpload(parts);
    expect(await response).toEqual({
      status: 413,
      body: JSON.stringify({ error: 'the file is larger than the upload limit of 64 KiB' }),
    });
    await until(() => readdirSync(uploadsDir).length === 0);
    await stillServes();
  });

  it('answers 500 and logs it when a handler fails, then carries on', async () => {
    // A file where the uploads folder should be: the upload handler throws.
    rmSync(uploadsDir, { recursive: true, force: true });
    writeFileSync(uploadsDir, 'not a folder');
    const before = logged.length;
    const res = await fetch(`${base()}/upload`, {
      method: 'POST',
      headers: { 'x-plugboard-token': server.token, 'x-file-name': 'a.zip', origin: base() },
      body: 'PK',
    });
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('internal error: the server logged the details');
    expect(logged.slice(before).join('\n')).toMatch(/POST \/upload: .*(EEXIST|ENOTDIR)/);
    rmSync(uploadsDir);
    await stillServes();
  });

  it('makes the uploads folder again if something removed it', async () => {
    rmSync(uploadsDir, { recursive: true, force: true });
    const res = await fetch(`${base()}/upload`, {
      method: 'POST',
      headers: { 'x-plugboard-token': server.token, 'x-file-name': 'a.zip', origin: base() },
      body: 'PK',
    });
    expect(res.status).toBe(200);
    expect(uploadedFiles()).toHaveLength(1);
    rmSync(uploadsDir, { recursive: true, force: true });
  });

  it('takes an upload exactly at the limit', async () => {
    const { response } = chunkedUpload([randomBytes(MAX_UPLOAD / 2), randomBytes(MAX_UPLOAD / 2)]);
    const answer = await response;
    expect(answer?.status).toBe(200);
    expect(JSON.parse(answer?.body ?? '{}')).toEqual({ uploadId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(uploadedFiles()).toHaveLength(1);
  });
});
