/**
 * Small pieces every HTTP handler of the server shares: the answer helper, a request URL that
 * cannot throw, the same-origin and token checks, and how sizes and errors are put in words.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Where the server reports problems on its side, one line each. */
export type Log = (line: string) => void;

export function send(
  res: ServerResponse,
  status: number,
  body: string | object,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    // Too late for a status: cut the response short so the client sees it failed.
    res.destroy();
    return;
  }
  const json = typeof body !== 'string';
  res.writeHead(status, {
    'content-type': json ? 'application/json' : 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(json ? JSON.stringify(body) : body);
}

/** The request target as a URL, or null when it does not parse (say `GET http://[ HTTP/1.1`). */
export function requestUrl(req: IncomingMessage): URL | null {
  try {
    return new URL(req.url ?? '/', 'http://localhost');
  } catch {
    return null;
  }
}

export interface Access {
  /** The request names this server in Host and, if it has an Origin, comes from this server's pages. */
  sameSite(req: IncomingMessage): boolean;
  tokenOk(given: unknown): boolean;
}

export function createAccess(
  token: string,
  host: string,
  port: () => number,
  scheme: 'http' | 'https' = 'http',
): Access {
  const named = host.includes(':') ? `[${host}]` : host;
  const hosts = (): string[] => {
    const p = port();
    return [`${named}:${p}`, `127.0.0.1:${p}`, `localhost:${p}`, `[::1]:${p}`];
  };
  const expected = Buffer.from(token);
  return {
    sameSite(req) {
      const allowed = hosts();
      const origin = req.headers.origin;
      return (
        allowed.includes(req.headers.host ?? '') && (!origin || allowed.some((h) => origin === `${scheme}://${h}`))
      );
    },
    tokenOk(given) {
      if (typeof given !== 'string' || given === '') return false;
      const actual = Buffer.from(given);
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}

export function describeSize(bytes: number): string {
  const MiB = 1024 * 1024;
  if (bytes >= MiB) return `${Number((bytes / MiB).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}

export function describeError(e: unknown): string {
  if (e instanceof Error) return e.stack ?? e.message;
  return String(e);
}
