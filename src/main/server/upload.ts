/**
 * `POST /upload`: a package the web UI's user dropped (a browser cannot hand the server a path).
 * The body goes to a fresh folder under the uploads folder, at most `maxBytes` of it; the backend
 * refers to the file by id and deletes its folder once it has installed or dropped it.
 *
 * A body over the limit gets a 413 naming the limit, and the connection closes once that answer
 * is out (closing first would leave the client with a reset and no reason). An aborted or failed
 * upload leaves no file behind. The request stays outside the file pipeline on purpose: a failing
 * file must not destroy the connection before the client has been told why.
 */
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { finished, pipeline, Transform } from 'node:stream';
import { describeError, describeSize, send, type Access, type Log } from './http';
import type { UploadQuota } from './upload-quota';

export interface UploadOptions {
  access: Access;
  /** Each upload gets a folder of its own in here. */
  uploadsDir: string;
  maxBytes: number;
  /** Hands a complete upload to the backend; returns the id the page uses for it. */
  register(file: string, purpose: 'install' | 'attachment'): string;
  /** What all waiting uploads may take together, and how long each may wait (upload-quota.ts). */
  quota: UploadQuota;
  log: Log;
}

/** Plugin packages, and other apps' MCP config files (claude_desktop_config.json, mcp.json) to import. */
const PACKAGE = /\.(zip|mcpb|dxt|json)$/i;

/** Stored names are ASCII (see fileName), so characters are bytes: well under the 255 a folder allows. */
const MAX_NAME_CHARS = 200;

/** The file name the page sent (percent-encoded, see src/renderer/src/api/upload.ts), made safe; null when it does not decode. */
function fileName(header: unknown): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(typeof header === 'string' ? header : '');
  } catch {
    return null;
  }
  const safe = path.basename(decoded).replace(/[^\w.() -]/g, '_');
  // A longer name is cut, its extension kept (the file's type is read from it).
  if (safe.length <= MAX_NAME_CHARS) return safe;
  const ext = path.extname(safe).slice(0, 16);
  return `${safe.slice(0, MAX_NAME_CHARS - ext.length)}${ext}`;
}

export function receiveUpload(req: IncomingMessage, res: ServerResponse, opts: UploadOptions): void {
  if (!opts.access.sameSite(req)) return send(res, 403, { error: 'cross-origin request refused' });
  if (!opts.access.tokenOk(req.headers['x-plugboard-token']))
    return send(res, 401, { error: 'missing or wrong token' });
  const name = fileName(req.headers['x-file-name']);
  if (name === null) return send(res, 400, { error: 'the x-file-name header is not valid percent-encoded UTF-8' });
  // A file attached to a message (`x-upload-purpose: attachment`) may be any file: chat.send checks its bytes.
  const purpose = req.headers['x-upload-purpose'] === 'attachment' ? 'attachment' : 'install';
  if (purpose === 'install' && !PACKAGE.test(name))
    return send(res, 400, {
      error: `"${name || '(no name)'}" is not a .zip, .mcpb or .dxt file, nor an MCP config (.json)`,
    });
  if (!name) return send(res, 400, { error: 'the x-file-name header is empty' });

  opts.quota.sweep();
  const room = opts.quota.room();
  // The quota of waiting uploads binds before the size limit when they take most of it.
  const cap = Math.min(opts.maxBytes, room.bytes);
  const why =
    cap < opts.maxBytes ? room.refusal : `the file is larger than the upload limit of ${describeSize(opts.maxBytes)}`;
  const refuseTooLarge = (): void => send(res, 413, { error: why }, { connection: 'close' });
  // A declared length over the limit is refused before a byte is stored.
  if (Number(req.headers['content-length']) > cap) return refuseTooLarge();

  // Made again if it went (temp cleaners remove old folders under /tmp while a server runs for days).
  mkdirSync(opts.uploadsDir, { recursive: true, mode: 0o700 });
  const dir = mkdtempSync(path.join(opts.uploadsDir, 'u-'));
  opts.quota.arrived(dir, 0);
  const file = path.join(dir, name);
  let size = 0;
  let over = false;
  let aborted = false;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      opts.quota.arrived(dir, chunk.length);
      if (size <= cap) return done(null, chunk);
      over = true;
      refuseTooLarge();
      // Fails the file side, which removes the partial file; the request is left alone (see above).
      done(new Error(`upload over ${opts.maxBytes} bytes`));
    },
  });
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  const remove = (): void => {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch (e) {
      opts.log(`plugboard serve: removing the partial upload ${dir}: ${describeError(e)}`);
    }
  };
  // Once the file's descriptor is closed: Windows refuses to delete an open file.
  const discard = (): void => {
    out.destroy();
    if (out.closed) remove();
    else out.once('close', remove);
  };
  pipeline(counter, out, (err) => {
    // Complete (counted on disk from now on) or removed: either way no longer arriving.
    opts.quota.done(dir);
    try {
      if (!err) return send(res, 200, { uploadId: opts.register(file, purpose) });
      discard();
      // Whatever is still coming is read and dropped while the answer goes out; the server closes
      // the connection after it (every answer from here on says `connection: close`).
      req.unpipe(counter);
      req.resume();
      if (over || aborted) return; // answered already, or nobody left to answer
      opts.log(`plugboard serve: saving upload ${name}: ${describeError(err)}`);
      send(res, 500, { error: `could not save ${name}: ${err.message}` }, { connection: 'close' });
    } catch (e) {
      opts.log(`plugboard serve: upload ${name}: ${describeError(e)}`);
      discard();
      send(res, 500, { error: 'internal error' }, { connection: 'close' });
    }
  });
  // The client went away before the body ended: fail the file side, which removes the partial file.
  finished(req, (err) => {
    if (!err) return;
    aborted = true;
    counter.destroy(err);
  });
  req.pipe(counter);
}
