/**
 * The built renderer over HTTP: files under the static folder, `index.html` for any other path
 * (a single-page app), with the production CSP. A path that is not valid percent-encoding is a
 * 400, never an exception.
 */
import { createReadStream, realpathSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream';
import { appHostCsp, PRODUCTION_CSP } from '../../shared/csp';
import { isInside } from '../fs';
import { describeError, send, type Log } from './http';

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

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The file's real path is inside the root's real path (links followed on both sides). */
function inside(root: string, file: string): boolean {
  try {
    return isInside(realpathSync(root), realpathSync(file));
  } catch {
    return false;
  }
}

export function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  staticDir: string,
  log: Log,
  /** The origin MCP App frames come from (app-frames.ts), which the page's policy lets it frame. */
  frameOrigin?: string,
): void {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return send(res, 400, 'bad request: the path is not valid percent-encoded UTF-8');
  }
  const root = path.resolve(staticDir);
  const rel = decoded.replace(/^\/+/, '') || 'index.html';
  let file = path.resolve(root, rel);
  if (!file.startsWith(root + path.sep)) return send(res, 404, 'not found');
  // A link inside the folder may point out of it (a build step's symlink, or one planted there):
  // what is served is where it leads, and that must be inside the folder too.
  if (isFile(file) && !inside(root, file)) return send(res, 404, 'not found');
  if (!isFile(file)) file = path.join(root, 'index.html');
  if (!isFile(file)) return send(res, 503, 'the UI is not built: run `npm run build` first');
  res.writeHead(200, {
    'content-type': MIME[path.extname(file)] ?? 'application/octet-stream',
    'content-security-policy': frameOrigin ? appHostCsp(frameOrigin) : PRODUCTION_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': file.endsWith('index.html') ? 'no-store' : 'public, max-age=31536000, immutable',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  pipeline(createReadStream(file), res, (err) => {
    // A client that goes away mid-file is not worth a line; a file that cannot be read is.
    if (err && (err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE')
      log(`plugboard serve: reading ${file}: ${describeError(err)}`);
  });
}
