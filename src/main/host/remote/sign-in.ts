/**
 * A person signs in to a remote MCP server: the server is asked once without a token, and its
 * 401 with protected-resource metadata starts the SDK's flow (oauth.ts); the authorization URL
 * goes to the person's browser (the app opens it, the web UI opens a tab, the CLI prints it);
 * the authorization server sends the browser back to a loopback port of Plugboard's own
 * (`http://127.0.0.1:<port>/callback`, RFC 8252), where the `state` is checked and the code is
 * handed to the SDK, which checks the `iss`, redeems the code with the PKCE verifier and the
 * resource indicator, and stores the tokens in the vault. Signing out revokes them where the
 * authorization server can (RFC 7009) and forgets them.
 *
 * The loopback listener is written here: it is a dozen lines of node:http that only takes one
 * GET, and no library does that job better.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth, extractWWWAuthenticateParams, IssuerMismatchError } from '@modelcontextprotocol/client';
import { failure, ok, type Result } from '../../../shared/failures';
import { PlugboardOAuthProvider, type TokenVault } from './oauth';

export interface SignInOptions {
  serverUrl: string;
  vault: TokenVault;
  /** The authorization URL is ready: send the person there. */
  open(url: string): void | Promise<void>;
  /** Plugboard's Client ID Metadata Document, where one is published. */
  clientMetadataUrl?: string;
  /** How long the person has to consent (default 5 minutes). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export interface SignedIn {
  /** The authorization server that issued the tokens. */
  issuer: string | undefined;
  /** No sign-in was needed: the server answered without a token. */
  notNeeded?: boolean;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/** https, or http to this computer (a local authorization server, as in development). */
function isWebAddress(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** What the browser shows on the loopback page: plain words, nothing from the query. */
function page(title: string, text: string): string {
  return `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font:16px system-ui;margin:3em"><h1>${title}</h1><p>${text}</p></body>`;
}

interface Callback {
  params: URLSearchParams;
}

/**
 * Listens on 127.0.0.1 (the port of the last registration when it is free) for the callback that
 * carries this sign-in's `state`. Any other request there is answered and ignored: one forged
 * visit (any web page can send the browser to a loopback port) neither ends the sign-in nor is
 * told it did (red team O04).
 */
async function listen(
  preferredPort: number | undefined,
  state: string,
): Promise<{ server: Server; port: number; next: Promise<Callback> }> {
  let deliver!: (c: Callback) => void;
  const next = new Promise<Callback>((r) => (deliver = r));
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/callback') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (url.searchParams.get('state') !== state) {
      res
        .writeHead(400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(
          page(
            'Not this sign-in',
            'This answer does not belong to the sign-in Plugboard is waiting for, and was ignored. You can close this tab.',
          ),
        );
      return;
    }
    const failed = url.searchParams.has('error');
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(
        failed
          ? page(
              'Sign-in not completed',
              'The authorization server did not grant access. You can close this tab and return to Plugboard.',
            )
          : page('Signed in', 'Plugboard has the answer. You can close this tab.'),
      );
    deliver({ params: url.searchParams });
  });
  const tryPort = (port: number): Promise<boolean> =>
    new Promise((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
  if (!(preferredPort && (await tryPort(preferredPort))) && !(await tryPort(0)))
    throw new Error('no loopback port could be opened for the sign-in callback');
  return { server, port: (server.address() as AddressInfo).port, next };
}

/**
 * Asks the server once without a token: a 401's `WWW-Authenticate` names the protected-resource
 * metadata and the scope. Any other answer means the server does not ask for a sign-in.
 */
async function challenge(
  serverUrl: string,
): Promise<{ needed: false } | { needed: true; resourceMetadataUrl?: URL; scope?: string }> {
  const res = await fetch(serverUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'plugboard-sign-in', method: 'ping' }),
  });
  await res.body?.cancel().catch(() => undefined);
  if (res.status !== 401 && res.status !== 403) return { needed: false };
  const p = extractWWWAuthenticateParams(res);
  return {
    needed: true,
    ...(p.resourceMetadataUrl ? { resourceMetadataUrl: p.resourceMetadataUrl } : {}),
    ...(p.scope ? { scope: p.scope } : {}),
  };
}

export async function signIn(opts: SignInOptions): Promise<Result<SignedIn>> {
  let asked: Awaited<ReturnType<typeof challenge>>;
  try {
    asked = await challenge(opts.serverUrl);
  } catch (e) {
    return failure('plugin_error', `${opts.serverUrl} could not be reached: ${(e as Error).message}`);
  }
  if (!asked.needed) return ok({ issuer: undefined, notNeeded: true });

  const stored = await opts.vault.read();
  const preferred = stored?.redirectUri ? Number(new URL(stored.redirectUri).port) || undefined : undefined;
  const state = randomBytes(24).toString('base64url');
  let loop: Awaited<ReturnType<typeof listen>>;
  try {
    loop = await listen(preferred, state);
  } catch (e) {
    return failure('io_error', (e as Error).message);
  }
  let authorizationUrl: URL | undefined;
  const provider = new PlugboardOAuthProvider(opts.vault, {
    mode: 'interactive',
    serverUrl: opts.serverUrl,
    redirectUrl: `http://127.0.0.1:${loop.port}/callback`,
    state,
    onRedirect: (url) => {
      authorizationUrl = url;
    },
    ...(opts.clientMetadataUrl ? { clientMetadataUrl: opts.clientMetadataUrl } : {}),
  });
  const common = {
    serverUrl: opts.serverUrl,
    ...(asked.resourceMetadataUrl ? { resourceMetadataUrl: asked.resourceMetadataUrl } : {}),
    ...(asked.scope ? { scope: asked.scope } : {}),
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    const first = await auth(provider, common);
    if (first === 'AUTHORIZED') return ok({ issuer: issuerOf(await provider.current()) });
    if (!authorizationUrl) return failure('plugin_error', 'the authorization server gave no address to sign in at');
    // Only a web address is opened or printed (red team O03: `file:///etc/passwd` was).
    if (!isWebAddress(authorizationUrl))
      return failure(
        'plugin_error',
        `the authorization server gave an address to sign in at that is not https (${authorizationUrl.protocol}): nothing was opened`,
      );
    await opts.open(authorizationUrl.href);
    const ended = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `no answer from the browser within ${Math.round((opts.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s`,
            ),
          ),
        opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      );
      opts.signal?.addEventListener('abort', () => reject(new Error('the sign-in was cancelled')), { once: true });
    });
    const { params } = await Promise.race([loop.next, ended]);
    const code = params.get('code');
    if (!code) {
      // The error text comes from whoever sent the browser here: only the standard code is named.
      const error = params.get('error');
      return failure(
        'cancelled',
        error === 'access_denied'
          ? 'access was not granted at the authorization server'
          : `the authorization server answered ${error ? `"${error.replace(/[^\w.-]/g, '')}"` : 'without a code'}`,
      );
    }
    const iss = params.get('iss');
    await auth(provider, { ...common, authorizationCode: code, ...(iss !== null ? { iss } : {}) });
    return ok({ issuer: issuerOf(await provider.current()) });
  } catch (e) {
    if (e instanceof IssuerMismatchError)
      return failure(
        'plugin_error',
        `the sign-in was refused: the authorization server is not the one the server named (${e.kind === 'metadata' ? 'its metadata' : 'its answer'} names another issuer)`,
      );
    return failure('plugin_error', `the sign-in failed: ${(e as Error).message}`);
  } finally {
    clearTimeout(timer);
    loop.server.close();
    loop.server.closeAllConnections();
  }
}

/** One revocation request (RFC 7009): 'ok', or the OAuth error code or HTTP status it got. */
async function revoke(
  endpoint: string,
  client: { client_id: string; client_secret?: string },
  token: string,
  hint: string,
): Promise<string> {
  const body = new URLSearchParams({ token, token_type_hint: hint });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (client.client_secret)
    headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`;
  else body.set('client_id', client.client_id);
  const res = await fetch(endpoint, { method: 'POST', headers, body });
  if (res.ok) {
    await res.body?.cancel().catch(() => undefined);
    return 'ok';
  }
  const error = ((await res.json().catch(() => ({}))) as { error?: unknown }).error;
  return typeof error === 'string' ? error.replace(/[^\w.-]/g, '') : `HTTP ${res.status}`;
}

function issuerOf(
  r: { tokens?: { issuer?: string }; discovery?: { authorizationServerMetadata?: { issuer?: string } } } | undefined,
): string | undefined {
  return r?.tokens?.issuer ?? r?.discovery?.authorizationServerMetadata?.issuer;
}

/**
 * Forgets the tokens of a server, revoking them first where its authorization server has a
 * revocation endpoint (RFC 7009): the refresh token, then the access token. The SDK has no
 * revocation call, so this one POST is written here. Returns what was done, in words.
 */
export async function signOut(vault: TokenVault): Promise<{ revoked: boolean; detail: string }> {
  const r = await vault.read();
  const tokens = r?.tokens;
  if (!r || !tokens) return { revoked: false, detail: 'was not signed in' };
  const meta = r.discovery?.authorizationServerMetadata as
    { revocation_endpoint?: string; issuer?: string } | undefined;
  const client = tokens.issuer ? r.clients?.[tokens.issuer] : undefined;
  let revoked = false;
  let note = '';
  if (meta?.revocation_endpoint && client) {
    try {
      // The refresh token first: revoking it ends the grant, and with it what was issued under it.
      for (const [token, hint] of [
        [tokens.refresh_token, 'refresh_token'],
        [tokens.access_token, 'access_token'],
      ] as const) {
        if (!token) continue;
        const answer = await revoke(meta.revocation_endpoint, client, token, hint);
        // A self-contained (JWT) access token may be one the server cannot revoke: it ends at its expiry.
        if (answer === 'unsupported_token_type' && hint === 'access_token') continue;
        if (answer !== 'ok') throw new Error(answer);
      }
      revoked = true;
    } catch (e) {
      note = ` (the authorization server did not confirm the revocation: ${(e as Error).message})`;
    }
  } else note = ' (the authorization server offers no revocation, so the tokens were only forgotten here)';
  const { tokens: _gone, expiresAt: _e, issuedAt: _i, verifier: _v, ...kept } = r;
  await vault.write(kept);
  return { revoked, detail: `${revoked ? 'revoked and forgot' : 'forgot'} the tokens${note}` };
}
