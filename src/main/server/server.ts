/**
 * `plugboard serve`: the built renderer over HTTP and the contract over WebSocket, so the whole UI
 * runs in a plain browser. Loopback by default; every API request carries a random token (in the
 * URL the server prints); WebSocket and upload requests must come from the server's own origin
 * and name it in their Host header, which defeats cross-site requests and DNS rebinding.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, statSync, createWriteStream, rmSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { isCommandName, parseInput, type WsClientMessage, type WsServerMessage } from '../../shared/contract';
import type { Backend } from '../assistant/backend';
import { PRODUCTION_CSP } from '../../shared/csp';

export interface ServeOptions {
  backend: Backend;
  /** The built renderer (out/renderer). */
  staticDir: string;
  host?: string;
  port?: number;
  token?: string;
  /** Largest upload accepted (a dropped .zip or .mcpb). */
  maxUploadBytes?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

/** Close code for a WebSocket opened with a wrong token (4000-4999: application codes). */
export const WS_BAD_TOKEN = 4401;

/** A client that falls this far behind is disconnected (it reconnects and reloads its state). */
const MAX_BUFFERED = 64 * 1024 * 1024;

export async function serve(opts: ServeOptions): Promise<RunningServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const host = opts.host ?? '127.0.0.1';
  const uploads = mkdtempSync(path.join(os.tmpdir(), 'plugboard-uploads-'));
  let port = 0;
  const allowedHosts = (): string[] => [`${host}:${port}`, `127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  const origins = (): string[] => allowedHosts().map((h) => `http://${h}`);
  const sameSite = (req: IncomingMessage): boolean => allowedHosts().includes(req.headers.host ?? '') && (!req.headers.origin || origins().includes(req.headers.origin));
  const tokenOk = (given: string | null | undefined): boolean => {
    if (!given) return false;
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'POST' && url.pathname === '/upload') return upload(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed');
    return staticFile(url.pathname, res);
  });

  function send(res: ServerResponse, status: number, body: string | object): void {
    const json = typeof body !== 'string';
    res.writeHead(status, { 'content-type': json ? 'application/json' : 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(json ? JSON.stringify(body) : body);
  }

  function staticFile(pathname: string, res: ServerResponse): void {
    const rel = decodeURIComponent(pathname).replace(/^\/+/, '') || 'index.html';
    let file = path.resolve(opts.staticDir, rel);
    if (!file.startsWith(path.resolve(opts.staticDir) + path.sep)) return send(res, 404, 'not found');
    if (!existsSync(file) || !statSync(file).isFile()) file = path.join(opts.staticDir, 'index.html'); // single-page app
    if (!existsSync(file)) return send(res, 503, 'the UI is not built: run `npm run build` first');
    res.writeHead(200, {
      'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
      'content-security-policy': PRODUCTION_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': file.endsWith('index.html') ? 'no-store' : 'public, max-age=31536000, immutable',
    });
    createReadStream(file).pipe(res);
  }

  function upload(req: IncomingMessage, res: ServerResponse): void {
    if (!sameSite(req)) return send(res, 403, { error: 'cross-origin request refused' });
    if (!tokenOk(req.headers['x-plugboard-token'] as string | undefined)) return send(res, 401, { error: 'missing or wrong token' });
    const name = path.basename(decodeURIComponent(String(req.headers['x-file-name'] ?? ''))).replace(/[^\w.() -]/g, '_');
    if (!/\.(zip|mcpb|dxt)$/i.test(name)) return send(res, 400, { error: `"${name || '(no name)'}" is not a .zip, .mcpb or .dxt file` });
    const max = opts.maxUploadBytes ?? 128 * 1024 * 1024;
    const dir = mkdtempSync(path.join(uploads, 'u-'));
    const file = path.join(dir, name);
    const out = createWriteStream(file);
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        req.destroy();
        out.destroy();
        rmSync(dir, { recursive: true, force: true });
        send(res, 413, { error: `the file is larger than ${Math.round(max / 1024 / 1024)} MiB` });
      }
    });
    req.pipe(out);
    out.on('finish', () => {
      if (size <= max) send(res, 200, { uploadId: opts.backend.registerUpload(file) });
    });
    out.on('error', (e) => send(res, 500, { error: e.message }));
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 * 1024 * 1024 });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/ws' || !sameSite(req)) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    if (!tokenOk(url.searchParams.get('token'))) {
      // Same origin but a stale or missing token (an old tab after a restart): say so with a
      // close code the page can show, instead of a refusal it cannot tell from a dead server.
      wss.handleUpgrade(req, socket, head, (ws) => ws.close(WS_BAD_TOKEN, 'wrong or missing token: open the URL plugboard serve printed'));
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  const clients = new Set<WebSocket>();
  const sendTo = (ws: WebSocket, msg: WsServerMessage): void => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED) {
      ws.close(1013, 'client too slow');
      return;
    }
    ws.send(JSON.stringify(msg));
  };
  const events = opts.backend.onDidEvent((e) => {
    const msg: WsServerMessage = { kind: 'event', name: e.name, payload: e.payload };
    const text = JSON.stringify(msg);
    for (const ws of clients) {
      if (ws.readyState !== ws.OPEN) continue;
      if (ws.bufferedAmount > MAX_BUFFERED) ws.close(1013, 'client too slow');
      else ws.send(text);
    }
  });

  wss.on('connection', (ws) => {
    clients.add(ws);
    ws.on('close', () => clients.delete(ws));
    ws.on('message', async (raw) => {
      let msg: WsClientMessage;
      try {
        msg = JSON.parse(String(raw)) as WsClientMessage;
      } catch {
        return;
      }
      if (msg?.kind !== 'invoke' || typeof msg.id !== 'number') return;
      if (!isCommandName(msg.name)) return sendTo(ws, { kind: 'result', id: msg.id, ok: false, error: `unknown command "${String(msg.name)}"` });
      const input = parseInput(msg.name, msg.input);
      if (!input.ok) return sendTo(ws, { kind: 'result', id: msg.id, ok: false, error: input.message });
      try {
        const value = await opts.backend.invoke(msg.name, input.value as never);
        sendTo(ws, { kind: 'result', id: msg.id, ok: true, value });
      } catch (e) {
        sendTo(ws, { kind: 'result', id: msg.id, ok: false, error: (e as Error).message });
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  mkdirSync(uploads, { recursive: true });
  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      events.dispose();
      for (const ws of clients) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(uploads, { recursive: true, force: true });
    },
  };
}
