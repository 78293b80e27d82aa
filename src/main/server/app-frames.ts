/**
 * The frame origin of `plugboard serve`: a second HTTP server, on its own loopback port, that
 * serves MCP App pages staged by the service (service/app-frames.ts) at `/app/<name>`, each with
 * its own Content-Security-Policy, and nothing else: no UI, no API, no token, no cookies. An App
 * framed from here is on another origin than the page (another port is another origin), and the
 * page frames it sandboxed without `allow-same-origin`, so it runs in an opaque origin of its own:
 * it can reach neither the page nor this server's other pages. See docs/ARCHITECTURE.md.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pageHeaders, type AppFrames } from '../service';
import { describeError, requestUrl, send, type Log } from './http';

export interface FrameServer {
  /** `http://127.0.0.1:43121`: what the page's `frame-src` names. */
  origin: string;
  close(): Promise<void>;
}

export async function serveAppFrames(frames: AppFrames, host: string, log: Log): Promise<FrameServer> {
  const server = http.createServer((req, res) => {
    try {
      const url = requestUrl(req);
      if (!url) return send(res, 400, 'bad request');
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed');
      const page = frames.take(url.pathname);
      if (!page) return send(res, 404, 'not found');
      res.writeHead(200, pageHeaders(page));
      res.end(req.method === 'HEAD' ? undefined : page.html);
    } catch (e) {
      log(`plugboard serve: App frame ${req.url}: ${describeError(e)}`);
      send(res, 500, 'internal error');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (e) => log(`plugboard serve: App frames: ${describeError(e)}`));
  const { port } = server.address() as AddressInfo;
  // A page served on every interface is framed from loopback (the browser on this machine).
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return {
    origin: `http://${shown}:${port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
