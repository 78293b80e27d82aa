/**
 * The install preview tries the package before the person confirms (issue 12, item 5): a real
 * launch and handshake from the staged copy, bounded by a deadline, its process stopped on every
 * path, the source left as it was and installable afterwards. Before the person has said yes,
 * the trial runs only in the sandbox and with nothing granted: a package asking for the network
 * cannot reach this computer's loopback from its trial, and where plugins run unsandboxed
 * nothing of it runs at all.
 */
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, FIXTURES, fixturePlugin, REPO, tmpDir } from '../helpers/plugins';
import { leftovers, TEST_RUN_MARK } from '../helpers/processes';
import { describeSandboxed } from '../helpers/sandbox';
import { snapshot } from '../helpers/snapshot';

let registry: PluginRegistry;
let data: string;

beforeAll(async () => {
  data = path.join(tmpDir('trial'), 'data');
  const [name = '', value = ''] = TEST_RUN_MARK.split('=');
  registry = await PluginRegistry.open({
    dataDir: data,
    bundledDir: path.join(REPO, 'plugins'),
    env: { [name]: value },
  });
});

afterEach(async () => {
  // Nothing of a trial outlives its preview.
  expect(await leftovers(3000)).toEqual([]);
});

afterAll(async () => {
  await registry.shutdown();
  registry.dispose();
  cleanupFixtures();
});

async function previewOf(source: string, trialMs?: number) {
  const r = await registry.installer.preview(source, trialMs === undefined ? {} : { trialMs });
  if (!r.ok) throw new Error(r.message);
  return r.preview;
}

describeSandboxed('the trial launch of an install preview', () => {
  it('starts a good MCP bundle, counts the tools its server announces and times the handshake; the source stays and installs', async () => {
    const source = path.join(FIXTURES, 'mcpb-echo');
    const before = snapshot(source);
    const p = await previewOf(source);
    expect(p.trial).toMatchObject({ status: 'ok', tools: 2 });
    if (p.trial.status !== 'ok') return;
    expect(p.trial.handshakeMs).toBeGreaterThan(0);
    expect(p.trial.handshakeMs).toBeLessThan(10_000);
    // The command as it will run: the staged copy's script, the default greeting filled in.
    expect(p.command[0]).toMatch(/node$/);
    expect(p.command.join(' ')).toContain('--greeting Hello');
    // As it will run once installed: from its folder in the data directory, not the staging copy.
    expect(p.command.join(' ')).toContain(path.join(data, 'plugins', 'mcpb-echo', 'server', 'index.mjs'));
    expect(p.command.join(' ')).not.toContain('.staging');
    expect(snapshot(source)).toEqual(before);
    const installed = await registry.installer.install(source);
    expect(installed.ok).toBe(true);
  });

  it('reports a plugin that exits before its handshake as handshake_failed, with the command it ran', async () => {
    const dir = fixturePlugin({
      script: 'gassist',
      id: 'quitter',
      mode: 'exit-before-handshake',
      manifest: { functions: [{ name: 'echo', description: 'Echo' }] },
    });
    const p = await previewOf(dir);
    expect(p.trial.status).toBe('failed');
    if (p.trial.status !== 'failed') return;
    expect(p.trial.code).toBe('handshake_failed');
    expect(p.trial.message).toMatch(/exited during the handshake/);
    expect(p.command.join(' ')).toMatch(/node .*plugin\.mjs$/);
  });

  it('gives up on a plugin that never answers at the trial deadline, saying how long it waited, and kills it', async () => {
    const dir = fixturePlugin({
      script: 'gassist',
      id: 'sleeper',
      mode: 'hang-before-handshake',
      manifest: { functions: [{ name: 'echo', description: 'Echo' }] },
    });
    const t0 = Date.now();
    const p = await previewOf(dir, 800);
    expect(Date.now() - t0).toBeLessThan(8000);
    expect(p.trial).toMatchObject({
      status: 'failed',
      code: 'handshake_failed',
      message: 'no answer to initialize within 800 ms (the trial waits 1 s; installed, it gets 5 s)',
    });
  });

  it('does not try a plugin whose required settings have no value, and says which', async () => {
    const dir = fixturePlugin({
      script: 'jsonrpc',
      id: 'keyless',
      manifest: {
        persistent: true,
        settings: { token: { type: 'string', title: 'Token', required: true } },
        functions: [{ name: 'provider.fetch' }],
      },
    });
    const p = await previewOf(dir);
    expect(p.trial).toEqual({
      status: 'skipped',
      message: expect.stringMatching(/^Not tried: required settings are not set: .*[Tt]oken/),
    });
    expect(p.requiredSettings.map((s) => s.key)).toEqual(['token']);
  });
});

describeSandboxed('a preview tried again with the person’s values and choices', () => {
  /** A G-Assist plugin that refuses to start unless its secret token starts with tk-. */
  const keyed = (): string =>
    fixturePlugin({
      script: 'gassist',
      id: 'keyed-trial',
      mode: 'check-token',
      manifest: {
        functions: [{ name: 'echo', description: 'Echo' }],
        settings: { token: { type: 'string', title: 'Token', required: true, sensitive: true, env: 'FIXTURE_TOKEN' } },
      },
    });

  it('starts with the values typed in the form, a secret only where secrets are granted, and the preview still installs', async () => {
    const r = await registry.installer.preview(keyed());
    if (!r.ok) throw new Error(r.message);
    expect(r.preview.trial.status).toBe('skipped');
    const again = (values: Record<string, string>, grants: string[] = []) =>
      registry.installer.tryAgain(r.token, { values, grants });
    // A secret without the secrets grant does not reach it, as it would not installed.
    expect(await again({ token: 'tk-1' })).toMatchObject({
      ok: true,
      trial: { status: 'skipped', message: expect.stringMatching(/^Not tried: required settings are not set/) },
    });
    // A value it refuses is its own failure, with its own words.
    expect(await again({ token: 'wrong' }, ['secrets'])).toMatchObject({
      ok: true,
      trial: {
        status: 'failed',
        code: 'handshake_failed',
        message: expect.stringContaining('tried in the sandbox with what you chose: secrets'),
        stderrTail: expect.arrayContaining(['error: token malformed (it must start with tk-)']),
      },
    });
    expect(await again({ token: 'tk-1' }, ['secrets'])).toMatchObject({ ok: true, trial: { status: 'ok' } });
    const done = await registry.installer.commitPreview(r.token, { grant: ['secrets'] });
    expect(done.ok).toBe(true);
    expect(await registry.installer.tryAgain(r.token, { values: {} })).toMatchObject({
      ok: false,
      code: 'invalid_state',
    });
    expect((await registry.installer.uninstall('keyed-trial')).ok).toBe(true);
  });
});

/** A package that asks for the network and, as it starts, calls this computer's loopback. */
function phonesHome(port: number): string {
  const dir = tmpDir('phones-home');
  writeFileSync(
    path.join(dir, 'plugboard.json'),
    JSON.stringify({
      id: 'phones-home',
      name: 'Phones home',
      version: '1.0.0',
      protocol: 'mcp',
      command: ['node', 'server.mjs'],
      capabilities: ['net'],
    }),
  );
  // It waits for its call to end either way, then exits: the trial fails, which is beside the point.
  const call = `fetch('http://127.0.0.1:${port}/trial').catch(() => undefined).finally(() => process.exit(3));`;
  writeFileSync(path.join(dir, 'server.mjs'), call);
  return dir;
}

describeSandboxed('a package on trial, granted nothing yet', () => {
  it('cannot reach this computer over the network, though it asks for net', async () => {
    let hits = 0;
    const server = http.createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const p = await previewOf(phonesHome(port));
      expect(p.requested).toContain('net');
      expect(p.trial).toMatchObject({
        status: 'failed',
        message: expect.stringMatching(/tried in the sandbox with nothing granted/),
      });
      expect(hits).toBe(0);
    } finally {
      server.close();
    }
  });
});

describe('where plugins run unsandboxed', () => {
  it('nothing of a package runs before it is installed: the trial is skipped and says why', async () => {
    const plain = await PluginRegistry.open({
      dataDir: path.join(tmpDir('trial-plain'), 'data'),
      bundledDir: path.join(REPO, 'plugins'),
      sandbox: false,
    });
    try {
      const r = await plain.installer.preview(path.join(FIXTURES, 'mcpb-echo'));
      if (!r.ok) throw new Error(r.message);
      expect(r.preview.trial).toEqual({
        status: 'skipped',
        message: expect.stringMatching(
          /^Not tried: plugins run unsandboxed here.*nothing of a package runs before you install it/,
        ),
      });
    } finally {
      await plain.shutdown();
      plain.dispose();
    }
  });
});
