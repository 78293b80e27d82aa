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
  const access = createAccess(token, host, () => port);

  function route(req: IncomingMessage, res: ServerResponse): void {
    const url = requestUrl(req);
    if (!url) return send(res, 400, 'bad request: the request target is not a valid URL');
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

  const server = http.createServer((req, res) => {
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
  });
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
    url: `http://${shownHost}:${port}/?token=${token}`,
    port,
    token,
    close: async () => {
      sockets.dispose();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await Promise.all([closed, frameServer.close()]);
      removeUploads();
    },
  };
}
