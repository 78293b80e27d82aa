/**
 * Sign-in to a remote MCP server (OAuth 2.1), end to end below the screen: a real authorization
 * server (oidc-provider, test/fixtures/oauth/auth-server.mjs) and a real MCP server behind its
 * bearer check (the SDK's v2 server), each its own process on loopback; the registry and its
 * secret store on a scratch data folder, as the app and `plugboard serve` have them. The browser's
 * part is played by plain HTTP (the authorization server consents on its own here; the e2e has
 * Chromium fill the real forms).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import type { OAuthRecord } from '../../src/main/host';
import type { LogEvent } from '../../src/shared/plugin';
import { followToCallback, jwtClaims, remoteManifest, startSignInServers, type SignInServers } from '../helpers/oauth';
import { REPO, tmpDir } from '../helpers/plugins';
import { plugboard } from '../helpers/cli';

let servers: SignInServers;
const opened: PluginRegistry[] = [];

beforeAll(async () => {
  servers = await startSignInServers(['--auto-consent', '--access-ttl', '600']);
});
afterAll(() => servers.stop());
afterEach(async () => {
  for (const r of opened.splice(0)) {
    await r.shutdown();
    r.dispose();
  }
});

async function openWithRemote(
  id = 'signed',
): Promise<{ registry: PluginRegistry; dataDir: string; logs: LogEvent[]; src: string }> {
  const root = tmpDir('sign-in');
  const src = path.join(root, 'src');
  const dataDir = path.join(root, 'data');
  mkdirSync(src);
  writeFileSync(path.join(src, 'plugboard.json'), remoteManifest(id, servers.mcpUrl, { capabilities: ['net'] }));
  const registry = await PluginRegistry.open({ dataDir, env: { PLUGBOARD_TEST_RUN: String(process.pid) } });
  opened.push(registry);
  const logs: LogEvent[] = [];
  registry.onDidLog((l) => logs.push(l));
  const installed = await registry.installer.install(src);
  expect(installed.ok, JSON.stringify(installed)).toBe(true);
  return { registry, dataDir, logs, src };
}

async function stored(registry: PluginRegistry, id: string): Promise<OAuthRecord | undefined> {
  return registry.signIns.vault(id).read();
}

async function call(registry: PluginRegistry, id: string, tool: string, args: Record<string, unknown> = {}) {
  return registry.call(id, tool, args).done;
}

/** Every file of the data folder but the secret store, as text. */
function dataFolderText(dir: string): string {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else if (s.isFile() && name !== 'secrets.json') out.push(readFileSync(p, 'latin1'));
    }
  };
  walk(dir);
  return out.join('\n');
}

describe('signing in to a remote MCP server', () => {
  it('refuses calls until signed in, naming the command; signs in by discovery, registration and PKCE; calls; refreshes; signs out', async () => {
    const { registry, dataDir, logs, src } = await openWithRemote();
    const spec = registry.record('signed')?.spec;
    if (!spec) throw new Error('not installed');
    expect(await registry.signIns.state(spec)).toEqual({ state: 'signed_out' });
    // Its install preview does not try it: a remote server is never contacted before install and net.
    const preview = await registry.installer.preview(src);
    if (!preview.ok) throw new Error(preview.message);
    expect(preview.preview.trial).toEqual({
      status: 'skipped',
      message: expect.stringMatching(
        /^Not tried: a remote server is contacted only once you install it and grant it the network \(net\)/,
      ),
    });

    // Not signed in: the start fails as sign_in_required, and so does a call, naming the way in.
    const refused = await call(registry, 'signed', 'whoami');
    expect(refused).toMatchObject({ ok: false, code: 'sign_in_required' });
    expect((refused as { message: string }).message).toContain('plugboard plugins signin signed');
    expect(servers.calls()).toEqual([]);

    // The sign-in: a 401 names the protected-resource metadata, which names the authorization
    // server; its OpenID configuration is read (its issuer checked); a client is registered; the
    // browser is sent to consent with PKCE and the resource; the code comes back to our loopback.
    const seen: string[] = [];
    const r = await registry.signIns.signIn(spec, async (url) => {
      seen.push(url);
      expect(await followToCallback(url)).toContain('Signed in');
    });
    expect(r).toEqual({ ok: true, detail: `signed in at ${servers.issuer}` });
    const auth = new URL(seen[0] as string);
    expect(`${auth.origin}${auth.pathname}`).toBe(`${servers.issuer}/auth`);
    expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(auth.searchParams.get('resource')).toBe(servers.mcpUrl);
    expect(auth.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(servers.asEvents().map((e) => e.event)).toContain('registration_create.success');

    const first = await stored(registry, 'signed');
    expect(first?.tokens?.access_token).toBeTruthy();
    expect(first?.tokens?.refresh_token).toBeTruthy();
    expect(await registry.signIns.state(spec)).toMatchObject({ state: 'signed_in', issuer: servers.issuer });
    const firstJti = jwtClaims(first?.tokens?.access_token as string).jti;

    // Signed in: the call goes through with the token, for this resource only.
    const who = await call(registry, 'signed', 'whoami');
    expect(who.ok, JSON.stringify(who)).toBe(true);
    const said = JSON.parse((who as { value: { data: string } }).value.data) as { sub: string; jti: string };
    expect(said.sub).toBe('ada');
    expect(said.jti).toBe(firstJti);
    // Over Streamable HTTP, in the 2026-07-28 era (the server serves both; Plugboard found the newer).
    expect(servers.calls().at(-1)).toMatchObject({ tool: 'whoami', era: 'modern' });

    // Refreshed before it expires: once the token is close to its end, the next request renews it first.
    await registry.signIns
      .vault('signed')
      .write({ ...first, expiresAt: Date.now() + 1000, issuedAt: Date.now() - 599_000 });
    await registry.restart('signed');
    const after = await call(registry, 'signed', 'whoami');
    expect(after.ok, JSON.stringify(after)).toBe(true);
    const renewed = await stored(registry, 'signed');
    expect(renewed?.tokens?.access_token).not.toBe(first?.tokens?.access_token);
    const renewedJti = jwtClaims(renewed?.tokens?.access_token as string).jti;
    expect(JSON.parse((after as { value: { data: string } }).value.data).jti).toBe(renewedJti);
    expect(servers.asEvents().map((e) => e.event)).toContain('refresh_token.consumed');

    // Refused mid-conversation: the server stops accepting the token; the SDK renews it and the call goes through.
    await servers.control('reject-seen');
    const again = await call(registry, 'signed', 'whoami');
    expect(again.ok, JSON.stringify(again)).toBe(true);
    expect(JSON.parse((again as { value: { data: string } }).value.data).jti).not.toBe(renewedJti);

    // Refused for good (every token): the call fails as sign_in_required, saying how to sign in again.
    await servers.control('reject-all');
    const gone = await call(registry, 'signed', 'echo', { text: 'hi' });
    expect(gone, JSON.stringify(gone)).toMatchObject({ ok: false, code: 'sign_in_required' });
    expect((gone as { message: string }).message).toMatch(
      /refused the sign-in it was given, and it could not be renewed: run `plugboard plugins signin signed`/,
    );
    await servers.control('accept-all');

    // Every token this sign-in ever had, kept out of the state file, the logs and the audit log.
    const last = await stored(registry, 'signed');
    const tokens = [first, renewed, last]
      .flatMap((t) => [t?.tokens?.access_token, t?.tokens?.refresh_token])
      .filter((t): t is string => !!t);
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    const everywhere = `${dataFolderText(dataDir)}\n${logs.map((l) => l.message).join('\n')}`;
    for (const t of tokens) expect(everywhere.includes(t), 'a token was written outside the secret store').toBe(false);
    expect(readFileSync(path.join(dataDir, 'audit.log'), 'utf8')).toContain(`"action":"sign-in"`);

    // Signed out: revoked at the authorization server (the grant goes), forgotten here.
    const out = await registry.signIns.signOut(spec);
    expect(out).toEqual({ ok: true, detail: 'revoked and forgot the tokens' });
    expect(servers.asEvents().map((e) => e.event)).toContain('grant.revoked');
    expect((await stored(registry, 'signed'))?.tokens).toBeUndefined();
    expect(await registry.signIns.state(spec)).toEqual({ state: 'signed_out' });
    expect(await call(registry, 'signed', 'whoami')).toMatchObject({ ok: false, code: 'sign_in_required' });
  });

  it('registers by a Client ID Metadata Document where the authorization server supports one', async () => {
    // The document shipped in docs/, as a real authorization server reads it (its fetch of the
    // https address is answered from the file: no network here).
    const doc = path.join(REPO, 'docs', 'oauth-client-metadata.json');
    const docUrl = JSON.parse(readFileSync(doc, 'utf8')).client_id as string;
    const cimd = await startSignInServers(['--auto-consent', '--cimd', '--cimd-doc', `${docUrl}=${doc}`]);
    try {
      const root = tmpDir('cimd-data');
      const src = path.join(root, 'src');
      mkdirSync(src);
      writeFileSync(path.join(src, 'plugboard.json'), remoteManifest('cimd', cimd.mcpUrl, { capabilities: ['net'] }));
      const registry = await PluginRegistry.open({
        dataDir: path.join(root, 'data'),
        env: { PLUGBOARD_TEST_RUN: String(process.pid) },
        oauthClientMetadataUrl: docUrl,
      });
      opened.push(registry);
      expect((await registry.installer.install(src)).ok).toBe(true);
      const spec = registry.record('cimd')?.spec;
      if (!spec) throw new Error('not installed');
      const r = await registry.signIns.signIn(spec, async (url) => {
        expect(new URL(url).searchParams.get('client_id')).toBe(docUrl);
        await followToCallback(url);
      });
      expect(r.ok, JSON.stringify(r)).toBe(true);
      // No registration: the authorization server read the document instead.
      expect(cimd.asEvents().map((e) => e.event)).not.toContain('registration_create.success');
      expect(cimd.asEvents().find((e) => e.event === 'access_token.issued')?.clientId).toBe(docUrl);
      expect((await call(registry, 'cimd', 'echo', { text: 'by document' })).ok).toBe(true);
    } finally {
      cimd.stop();
    }
  });
});

describe('sign-in attacks', () => {
  let evil: Server;
  let evilUrl: string;
  /**
   * What the authorization server the evil server names says of itself: by default that it is
   * someone else (a mix-up); `fileEndpoint`, that it is itself, with a sign-in address on disk.
   */
  let fileEndpoint = false;
  beforeAll(async () => {
    evil = createServer((req, res) => {
      const base = `http://127.0.0.1:${(evil.address() as AddressInfo).port}`;
      if (req.url === '/register' && req.method === 'POST') {
        let body = '';
        req.on('data', (d: Buffer) => (body += String(d)));
        req.on('end', () => {
          const asked = JSON.parse(body) as { redirect_uris: string[] };
          res
            .writeHead(201, { 'content-type': 'application/json' })
            .end(JSON.stringify({ client_id: 'evil-client', redirect_uris: asked.redirect_uris }));
        });
      } else if (req.url === '/.well-known/oauth-protected-resource/mcp') {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ resource: `${base}/mcp`, authorization_servers: [`${base}/as`] }));
      } else if (
        req.url?.startsWith('/.well-known/oauth-authorization-server/as') ||
        req.url?.startsWith('/as/.well-known')
      ) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify(
            fileEndpoint
              ? {
                  issuer: `${base}/as`,
                  authorization_endpoint: 'file:///etc/passwd',
                  token_endpoint: `${base}/steal`,
                  registration_endpoint: `${base}/register`,
                  response_types_supported: ['code'],
                  code_challenge_methods_supported: ['S256'],
                }
              : {
                  issuer: servers.issuer,
                  authorization_endpoint: `${servers.issuer}/auth`,
                  token_endpoint: `${base}/steal`,
                  response_types_supported: ['code'],
                  code_challenge_methods_supported: ['S256'],
                },
          ),
        );
      } else {
        res
          .writeHead(401, {
            'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
          })
          .end();
      }
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r));
    evilUrl = `http://127.0.0.1:${(evil.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => evil.close());

  it('refuses an authorization server whose metadata names another issuer, and sends the person nowhere', async () => {
    const root = tmpDir('mixup');
    const src = path.join(root, 'src');
    mkdirSync(src);
    writeFileSync(path.join(src, 'plugboard.json'), remoteManifest('mixup', evilUrl, { capabilities: ['net'] }));
    const registry = await PluginRegistry.open({
      dataDir: path.join(root, 'data'),
      env: { PLUGBOARD_TEST_RUN: String(process.pid) },
    });
    opened.push(registry);
    expect((await registry.installer.install(src)).ok).toBe(true);
    const spec = registry.record('mixup')?.spec;
    if (!spec) throw new Error('not installed');
    const sent: string[] = [];
    const r = await registry.signIns.signIn(spec, (url) => void sent.push(url));
    expect(r).toMatchObject({ ok: false });
    expect((r as { message: string }).message).toMatch(/issuer/);
    expect(sent).toEqual([]);
    expect((await registry.signIns.vault('mixup').read())?.tokens).toBeUndefined();
  });

  it('ignores an answer at the loopback port that does not carry the sign-in’s state, and goes on waiting', async () => {
    const { registry } = await openWithRemote('forged');
    const spec = registry.record('forged')?.spec;
    if (!spec) throw new Error('not installed');
    const forged: { status: number; text: string }[] = [];
    const r = await registry.signIns.signIn(spec, async (url) => {
      // A forged visit first (any web page can send the browser to the port), then the real one.
      const callback = new URL(new URL(url).searchParams.get('redirect_uri') as string);
      callback.searchParams.set('code', 'a-code-from-someone-else');
      callback.searchParams.set('state', 'not-the-state');
      const res = await fetch(callback);
      forged.push({ status: res.status, text: await res.text() });
      expect(await followToCallback(url)).toContain('Signed in');
    });
    expect(forged).toEqual([{ status: 400, text: expect.stringContaining('does not belong to the sign-in') }]);
    expect(forged[0]?.text).not.toContain('Signed in');
    expect(r).toEqual({ ok: true, detail: `signed in at ${servers.issuer}` });
    // The forged code was never exchanged: the tokens are the real sign-in's.
    expect((await registry.signIns.vault('forged').read())?.tokens?.access_token).toBeTruthy();
  });

  it('opens and prints no sign-in address that is not a web address', async () => {
    fileEndpoint = true;
    try {
      const root = tmpDir('file-endpoint');
      const src = path.join(root, 'src');
      mkdirSync(src);
      writeFileSync(path.join(src, 'plugboard.json'), remoteManifest('fileauth', evilUrl, { capabilities: ['net'] }));
      const registry = await PluginRegistry.open({
        dataDir: path.join(root, 'data'),
        env: { PLUGBOARD_TEST_RUN: String(process.pid) },
      });
      opened.push(registry);
      expect((await registry.installer.install(src)).ok).toBe(true);
      const spec = registry.record('fileauth')?.spec;
      if (!spec) throw new Error('not installed');
      const sent: string[] = [];
      const r = await registry.signIns.signIn(spec, (url) => void sent.push(url));
      expect(r).toMatchObject({ ok: false, code: 'plugin_error' });
      expect((r as { message: string }).message).toMatch(/not https \(file:\): nothing was opened/);
      expect(sent).toEqual([]);
    } finally {
      fileEndpoint = false;
    }
  });
});

describe('plugboard plugins signin / signout', () => {
  it('prints the address, waits for the browser, and signs out', async () => {
    const { registry, dataDir } = await openWithRemote('cli');
    await registry.shutdown();
    const cli = plugboardLive(['plugins', 'signin', 'cli', '--no-browser', '--data-dir', dataDir]);
    const url = await cli.urlPrinted;
    expect(url).toContain(`${servers.issuer}/auth?`);
    await followToCallback(url);
    const done = await cli.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`cli: signed in at ${servers.issuer}`);
    const called = await plugboard(['call', 'cli', 'echo', '--args', '{"text":"from the cli"}', '--data-dir', dataDir]);
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout).toContain('from the cli');
    const out = await plugboard(['plugins', 'signout', 'cli', '--data-dir', dataDir]);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain('cli: revoked and forgot the tokens');
    const refused = await plugboard(['call', 'cli', 'echo', '--args', '{"text":"again"}', '--data-dir', dataDir]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr + refused.stdout).toContain('plugboard plugins signin cli');
    // Four runs of the CLI, each starting Node and the plugin host: slow on a busy machine.
  }, 120_000);
});

/** `plugboard …` as a running child: resolves `urlPrinted` once it prints the sign-in address. */
function plugboardLive(args: string[]): { urlPrinted: Promise<string>; done: ReturnType<typeof plugboard> } {
  let found!: (url: string) => void;
  const urlPrinted = new Promise<string>((r) => (found = r));
  const done = new Promise<Awaited<ReturnType<typeof plugboard>>>((resolve) => {
    const child = spawn(process.execPath, [path.join(REPO, 'bin', 'plugboard.mjs'), ...args], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)/.exec(stdout);
      if (m) found(m[1] as string);
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr, lines: [] }));
  });
  return { urlPrinted, done };
}
