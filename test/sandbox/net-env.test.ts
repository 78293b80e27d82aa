/**
 * The environment a network-using plugin needs (issue 17, item 5), and nothing else of
 * Plugboard's: with `net` granted a sandboxed plugin gets the proxy and certificate variables of
 * Plugboard's environment and sees the certificate file they name, read-only; without `net` it
 * gets neither; an API key or any other variable of Plugboard's never reaches it, nor does
 * PLUGBOARD_NODE_MODULES (or the app's node_modules) for a plugin that did not ask for them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { describeFailure } from '../../src/shared/failures';
import { cleanupFixtures, FIXTURES, REPO, tmpDir } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';
import { describeSandboxed } from '../helpers/sandbox';

let registry: PluginRegistry;
let caFile: string;
const KEY = `sk-net-env-${process.pid}`;

async function attempt(tool: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const o = await registry.call('hostile', tool, args).done;
  if (!o.ok) throw new Error(`${tool}: ${describeFailure(o)}`);
  return o.value.data as Record<string, unknown>;
}

describeSandboxed('the environment of a plugin granted the network', () => {
  beforeAll(async () => {
    const root = tmpDir('net-env');
    // A company's certificate authority, outside the system folders, as SSL_CERT_FILE names it.
    mkdirSync(path.join(root, 'ca'), { mode: 0o755 });
    caFile = path.join(root, 'ca', 'company-ca.pem');
    writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\nMIIB…\n-----END CERTIFICATE-----\n', { mode: 0o644 });
    registry = await PluginRegistry.open({
      dataDir: path.join(root, 'data'),
      nodeModules: path.join(REPO, 'node_modules'),
      env: { PLUGBOARD_TEST_RUN: String(process.pid) },
      parentEnv: {
        ...process.env,
        HTTPS_PROXY: 'http://proxy.example:3128',
        NO_PROXY: 'localhost,127.0.0.1',
        SSL_CERT_FILE: caFile,
        NODE_EXTRA_CA_CERTS: caFile,
        REQUESTS_CA_BUNDLE: caFile,
        OPENAI_API_KEY: KEY,
        PLUGBOARD_SECRET_THING: KEY,
      },
    });
    expect((await registry.installer.install(path.join(FIXTURES, 'hostile', 'node'), { grant: 'none' })).ok).toBe(true);
  });

  afterAll(async () => {
    await registry?.shutdown();
    registry?.dispose();
    expect(await leftovers()).toEqual([]);
    cleanupFixtures();
  });

  it('without net: no proxy, no certificate variables, no certificate file', async () => {
    const env = (await attempt('whoami')).env as Record<string, string>;
    for (const k of ['HTTPS_PROXY', 'NO_PROXY', 'SSL_CERT_FILE', 'NODE_EXTRA_CA_CERTS', 'REQUESTS_CA_BUNDLE'])
      expect(env[k], k).toBeUndefined();
    expect(await attempt('read_file', { path: caFile })).toMatchObject({ ok: false, code: 'ENOENT' });
  });

  it('with net: the proxy and certificate variables, and the file they name, read-only', async () => {
    expect((await registry.decisions.grant('hostile', ['net'])).ok).toBe(true);
    const env = (await attempt('whoami')).env as Record<string, string>;
    expect(env).toMatchObject({
      HTTPS_PROXY: 'http://proxy.example:3128',
      NO_PROXY: 'localhost,127.0.0.1',
      SSL_CERT_FILE: caFile,
      NODE_EXTRA_CA_CERTS: caFile,
      REQUESTS_CA_BUNDLE: caFile,
    });
    expect(await attempt('read_file', { path: caFile })).toMatchObject({ ok: true });
    expect((await attempt('write_file', { path: caFile, content: 'replaced' })).ok).toBe(false);
  });

  it('never gets the rest of Plugboard’s environment, nor the app’s node_modules it did not ask for', async () => {
    const env = (await attempt('whoami')).env as Record<string, string>;
    expect(JSON.stringify(env)).not.toContain(KEY);
    expect(env.PLUGBOARD_NODE_MODULES).toBeUndefined();
    expect(
      Object.keys(env)
        .filter((k) => k.startsWith('PLUGBOARD_'))
        .sort(),
    ).toEqual(['PLUGBOARD_DATA_DIR', 'PLUGBOARD_PLUGIN_DIR', 'PLUGBOARD_PLUGIN_ID', 'PLUGBOARD_TEST_RUN']);
    expect(await attempt('list_dir', { path: path.join(REPO, 'node_modules') })).toMatchObject({
      ok: false,
      code: 'ENOENT',
    });
  });
});
