/**
 * The sign-in fixtures (test/fixtures/oauth): a real authorization server (oidc-provider) and a
 * remote MCP server behind it (the SDK's v2 server with bearer auth), each its own process on
 * loopback; and a stand-in for the browser's part where no browser runs (the unit tests): it
 * follows the redirects, with the cookies, from the authorization URL to Plugboard's loopback
 * callback, where the authorization server's `--auto-consent` lets the person "ada" in.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startListening, type HttpServer } from './mcp-http';
import { FIXTURES, tmpDir } from './plugins';

export type Running = HttpServer;

/** Starts a fixture script of test/fixtures/oauth; resolves with the URL it prints once it listens. */
export function startFixture(script: string, args: string[]): Promise<Running> {
  return startListening(path.join(FIXTURES, 'oauth', script), args);
}

export interface SignInServers {
  issuer: string;
  mcpUrl: string;
  /** One JSON line per event of the authorization server (no token values). */
  asEvents(): Array<{ event: string; clientId?: string }>;
  /** One JSON line per call the MCP server took: tool, era, token id. */
  calls(): Array<{ tool: string; era: string; jti: string }>;
  /** POSTs a test control of the MCP server (reject-seen, reject-all, accept-all). */
  control(what: 'reject-seen' | 'reject-all' | 'accept-all'): Promise<void>;
  stop(): void;
}

function lines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

export async function startSignInServers(asArgs: string[] = ['--auto-consent']): Promise<SignInServers> {
  const dir = tmpDir('oauth');
  const asLog = path.join(dir, 'as.jsonl');
  const mcpLog = path.join(dir, 'mcp.jsonl');
  const as = await startFixture('auth-server.mjs', [...asArgs, '--record', asLog]);
  let mcp: Running;
  try {
    mcp = await startFixture('mcp-server.mjs', ['--issuer', as.url, '--record', mcpLog]);
  } catch (e) {
    as.proc.kill('SIGKILL');
    throw e;
  }
  return {
    issuer: as.url,
    mcpUrl: mcp.url,
    asEvents: () => lines(asLog),
    calls: () => lines(mcpLog),
    control: async (what) => {
      const res = await fetch(new URL(`/control/${what}`, mcp.url), { method: 'POST' });
      if (res.status !== 204) throw new Error(`control ${what}: HTTP ${res.status}`);
    },
    stop: () => {
      mcp.proc.kill('SIGKILL');
      as.proc.kill('SIGKILL');
    },
  };
}

/**
 * The browser's part, for an authorization server that consents on its own: follows the
 * redirects with their cookies until the loopback callback has answered. Resolves with the
 * callback page's text.
 */
export async function followToCallback(url: string): Promise<string> {
  const jar = new Map<string, string>();
  let next = url;
  for (let i = 0; i < 20; i++) {
    const res = await fetch(next, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = (pair ?? '').indexOf('=');
      if (at > 0) jar.set((pair as string).slice(0, at), (pair as string).slice(at + 1));
    }
    const location = res.headers.get('location');
    if (!location) return res.text();
    await res.body?.cancel();
    next = new URL(location, next).href;
  }
  throw new Error(`too many redirects from ${url}`);
}

/** A remote plugin (plugboard.json with its URL and nothing else) for `url`. */
export function remoteManifest(id: string, url: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ id, name: 'Signed-in server', version: '1.0.0', protocol: 'mcp', url, ...extra });
}

/** The claims of a JWT (its middle part), to tell tokens apart by their id without keeping them. */
export function jwtClaims(token: string): Record<string, unknown> {
  const part = token.split('.')[1] ?? '';
  return JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
}
