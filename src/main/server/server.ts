/**
 * `plugboard serve`: the built renderer over HTTP and the contract over WebSocket, so the whole UI
 * runs in a plain browser. Loopback by default; every API request carries a random token (in the
 * URL the server prints); WebSocket and upload requests must come from the server's own origin
 * and name it in their Host header, which defeats cross-site requests and DNS rebinding.
 *
 * No request can take the server down: a handler that throws answers 500 and is logged, and each
 * WebSocket's errors close only that socket (see websocket.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Backend } from '../service';
import { createAccess, describeError, requestUrl, send, type Log } from './http';
import { serveAppFrames } from './app-frames';
import { serveStatic } from './static-files';
import { receiveUpload } from './upload';
import { DEFAULT_UPLOAD_MAX_AGE_MS, DEFAULT_UPLOAD_QUOTA_BYTES, UploadQuota } from './upload-quota';
import { attachWebSocketApi } from './websocket';

export { MAX_MESSAGE_BYTES, WS_BAD_TOKEN } from './websocket';

export interface ServeOptions {
  backend: Backend;
  /** The built renderer (out/renderer). */
  staticDir: string;
  host?: string;
  port?: number;
  token?: string;
  /** Largest upload accepted (a dropped .zip or .mcpb). */
  maxUploadBytes?: number;
  /**
   * Where uploads wait until the backend installs or drops them: give the Backend the same folder
   * as its `uploadsDir`, so it deletes each one when done. Made when needed. The server owns it
   * and removes it when it stops (or fails to start). Default: a fresh folder in the temp dir.
   */
  uploadsDir?: string;
  /** All uploads waiting to be installed together, at most (default 512 MiB). */
  uploadQuotaBytes?: number;
  /** An upload not installed within this long is removed (default 30 minutes). */
  uploadMaxAgeMs?: number;
  /** Where the server reports failures on its side, one line each (default: stderr). */
  log?: Log;
  /**
   * The MCP server for other apps, at `/mcp` (mcp-server/http.ts, which checks the bearer token).
   * The server in front refuses a request from a web page of another origin, and on loopback one
   * that names another host (DNS rebinding).
   */
  mcp?: { handle(req: IncomingMessage, res: ServerResponse): Promise<void>; close(): Promise<void> };
  /** Serve HTTPS with this certificate and key (PEM): needed to listen beyond loopback, unless the network is trusted. */
  tls?: { cert: string | Buffer; key: string | Buffer };
}

/** Addresses only this computer reaches. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  /** Stops serving, cuts every connection and removes the uploads folder. */
  close(): Promise<void>;
}

export const DEFAULT_MAX_UPLOAD_BYTES = 128 * 1024 * 1024;

export async function serve(opts: ServeOptions): Promise<RunningServer> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const host = opts.host ?? '127.0.0.1';
  const log: Log = opts.log ?? ((line) => process.stderr.write(`${line}\n`));
  // A given folder need not exist yet: each upload makes it if missing.
  const uploadsDir = opts.uploadsDir ?? mkdtempSync(path.join(os.tmpdir(), 'plugboard-uploads-'));
  const quota = new UploadQuota(
    uploadsDir,
    opts.uploadQuotaBytes ?? DEFAULT_UPLOAD_QUOTA_BYTES,
    opts.uploadMaxAgeMs ?? DEFAULT_UPLOAD_MAX_AGE_MS,
    log,
  );
  const removeUploads = (): void => {
    quota.dispose();
    rmSync(uploadsDir, { recursive: true, force: true });
  };
  let port = 0;
  const scheme = opts.tls ? 'https' : 'http';
  const access = createAccess(token, host, () => port, scheme);

  function route(req: IncomingMessage, res: ServerResponse): void {
    const url = requestUrl(req);
    if (!url) return send(res, 400, 'bad request: the request target is not a valid URL');
    if (url.pathname === '/mcp' && opts.mcp) {
      const foreign = isLoopback(host)
        ? !access.sameSite(req)
        : req.headers.origin !== undefined && !access.sameSite(req);
      if (foreign) return send(res, 403, { error: 'cross-origin request refused' });
      opts.mcp.handle(req, res).catch((e: unknown) => {
        log(`plugboard serve: ${req.method} /mcp: ${describeError(e)}`);
        send(res, 500, { error: 'internal error: the server logged the details' });
      });
      return;
    }
    if (req.method === 'POST' && url.pathname === '/upload') {
      return receiveUpload(req, res, {
        access,
        uploadsDir,
        maxBytes: opts.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES,
        register: (file, purpose) => opts.backend.registerUpload(file, purpose),
        quota,
        log,
      });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed');
    return serveStatic(req, res, url.pathname, opts.staticDir, log, frames?.origin);
  }
  // MCP Apps are framed from a port of their own (app-frames.ts), started before the page is served.
  let frames: Awaited<ReturnType<typeof serveAppFrames>> | undefined;

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    try {
      route(req, res);
    } catch (e) {
      log(`plugboard serve: ${req.method} ${req.url}: ${describeError(e)}`);
      try {
        send(res, 500, 'internal error: the server logged the details');
      } catch {
        res.destroy();
      }
    }
  };
  const server = opts.tls
    ? https.createServer({ cert: opts.tls.cert, key: opts.tls.key }, handler)
    : http.createServer(handler);
  const sockets = attachWebSocketApi(server, { backend: opts.backend, access, log });

  try {
    frames = await serveAppFrames(opts.backend.frames, host, log);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (e) {
    sockets.dispose();
    removeUploads();
    await frames?.close();
    throw e;
  }
  // After listening, a server error (there is no usual one) is logged rather than thrown at nobody.
  server.on('error', (e) => log(`plugboard serve: ${describeError(e)}`));
  port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const pageOrigins = [shownHost, '127.0.0.1', 'localhost'].map((h) => `http://${h}:${port}`);
  opts.backend.frames.serveAt(frames.origin, pageOrigins);
  const frameServer = frames;
  return {
    url: `${scheme}://${shownHost}:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      sockets.dispose();
      await opts.mcp?.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await Promise.all([closed, frameServer.close()]);
      removeUploads();
    },
  };
}
