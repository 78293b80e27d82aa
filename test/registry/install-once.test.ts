/**
 * Issue 16, item 6: an install is checked once. The preview's token names the staged copy, and
 * confirming installs exactly that copy, never the source again: a folder changed between the
 * preview and the confirmation installs as it was previewed. And a newly installed persistent
 * plugin starts, as it would at the next start of the app.
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/main/service/backend';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import type { HealthEvent } from '../../src/shared/plugin';
import { cleanupFixtures, FIXTURES, REPO, tmpDir } from '../helpers/plugins';
import { TEST_RUN_MARK } from '../helpers/processes';

let registry: PluginRegistry;
let backend: Backend;
let root: string;

beforeAll(async () => {
  root = tmpDir('install-once');
  const [name = '', value = ''] = TEST_RUN_MARK.split('=');
  // As the app and `plugboard serve` open it: enabled persistent plugins start.
  registry = await PluginRegistry.open({
    dataDir: path.join(root, 'data'),
    bundledDir: path.join(REPO, 'plugins'),
    autostart: true,
    env: { [name]: value },
  });
  backend = await Backend.create({ registry, version: 'test', transport: 'websocket' });
});

afterAll(async () => {
  backend.dispose();
  await registry.shutdown();
  registry.dispose();
  cleanupFixtures();
});

describe('install.preview then install.commit', () => {
  it('installs the previewed copy even when the folder changed in between, and starts it', async () => {
    const source = path.join(root, 'mcpb-echo');
    cpSync(path.join(FIXTURES, 'mcpb-echo'), source, { recursive: true });
    const p = await backend.invoke('install.preview', { source: { kind: 'path', path: source } });
    if (!p.ok) throw new Error(p.message);
    expect(p.preview.version).toBe('1.0.0');

    // The person (or anything else) changes the folder after looking at the preview.
    const manifest = path.join(source, 'manifest.json');
    const m = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, unknown>;
    writeFileSync(manifest, JSON.stringify({ ...m, version: '6.6.6', description: 'changed after the preview' }));
    const script = path.join(source, 'server', 'index.mjs');
    writeFileSync(script, `${readFileSync(script, 'utf8')}\n// changed after the preview\n`);
    rmSync(path.join(source, 'README.md'), { force: true });

    const started = new Promise<HealthEvent>((resolve) => {
      const sub = registry.onDidChangeHealth((h) => {
        if (h.pluginId === 'mcpb-echo' && h.state === 'ready') {
          sub.dispose();
          resolve(h);
        }
      });
    });
    const c = await backend.invoke('install.commit', { token: p.token, grants: ['secrets'], replace: false });
    expect(c).toEqual(
      expect.objectContaining({
        ok: true,
        id: 'mcpb-echo',
        detail: expect.stringContaining('installed mcpb-echo 1.0.0'),
        version: '1.0.0',
        upgraded: false,
        granted: ['secrets'],
      }),
    );
    const installed = registry.paths.plugin('mcpb-echo');
    expect(JSON.parse(readFileSync(path.join(installed, 'manifest.json'), 'utf8'))).toEqual(m);
    expect(readFileSync(path.join(installed, 'server', 'index.mjs'), 'utf8')).toBe(
      readFileSync(path.join(FIXTURES, 'mcpb-echo', 'server', 'index.mjs'), 'utf8'),
    );
    // Persistent and needing no setting: it starts now, not at the next start of the app.
    expect((await started).pid).toBeGreaterThan(0);

    // The token is spent: a second confirmation installs nothing.
    expect(await backend.invoke('install.commit', { token: p.token, grants: [], replace: true })).toEqual(
      expect.objectContaining({ ok: false, code: 'invalid_state' }),
    );
  }, 60_000);

  it('a cancelled preview leaves nothing in the staging area', async () => {
    const p = await backend.invoke('install.preview', {
      source: { kind: 'path', path: path.join(FIXTURES, 'gassist-python') },
    });
    if (!p.ok) throw new Error(p.message);
    expect(readdirOr(registry.paths.staging)).toHaveLength(1);
    expect((await backend.invoke('install.cancel', { token: p.token })).ok).toBe(true);
    expect(readdirOr(registry.paths.staging)).toEqual([]);
  });
});

function readdirOr(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
