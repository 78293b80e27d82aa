/**
 * A valid save of a plugin's settings brings back a plugin that could not run for want of them
 * (issue 12, item 4): the failure goes and the plugin runs, with no other step. Real plugin
 * processes (the JSON-RPC and G-Assist fixtures), a real data directory.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthEvent, HealthState } from '../../src/shared/plugin';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, fixturePlugin, REPO, tmpDir } from '../helpers/plugins';

let registry: PluginRegistry;

const TOKEN = { token: { type: 'string', title: 'Token', required: true, env: 'FIXTURE_TOKEN' } };

beforeAll(async () => {
  registry = await PluginRegistry.open({
    dataDir: path.join(tmpDir('settings-start'), 'data'),
    bundledDir: path.join(REPO, 'plugins'),
    sandbox: false,
  });
});

afterAll(async () => {
  await registry.shutdown();
  registry.dispose();
  cleanupFixtures();
});

/** Resolves with the plugin's health once `ok` holds for it (now or in an event to come). */
function healthWhere(id: string, ok: (h: HealthEvent) => boolean, ms = 10_000): Promise<HealthEvent> {
  return new Promise((resolve, reject) => {
    const now = registry.host.healthOf(id);
    if (now && ok(now)) return resolve(now);
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`${id}: no such health within ${ms} ms (last: ${JSON.stringify(registry.host.healthOf(id))})`));
    }, ms);
    const sub = registry.onDidChangeHealth((h) => {
      if (h.pluginId !== id || !ok(h)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(h);
    });
  });
}

const inState = (state: HealthState) => (h: HealthEvent) => h.state === state;

describe('saving settings a plugin lacked', () => {
  it('starts a persistent plugin that failed for a missing setting, and its failure is gone', async () => {
    const dir = fixturePlugin({
      script: 'jsonrpc',
      id: 'needs-token',
      manifest: { persistent: true, settings: TOKEN, functions: [{ name: 'provider.fetch' }] },
    });
    expect((await registry.installer.install(dir)).ok).toBe(true);
    const started = await registry.start('needs-token');
    expect(started).toMatchObject({ ok: false, code: 'settings_missing' });
    const failed = await healthWhere('needs-token', inState('failed'));
    expect(failed.failure?.code).toBe('settings_missing');

    const saved = await registry.decisions.configure('needs-token', { token: 'abc' });
    expect(saved).toEqual({ ok: true, detail: 'set token; starting it' });
    const ready = await healthWhere('needs-token', inState('ready'));
    expect(ready.failure).toBeUndefined();
    expect(ready.pid).toBeGreaterThan(0);
    // And it answers.
    const r = await registry.call('needs-token', 'provider.fetch', { id: 'X-1' }).done;
    expect(r).toMatchObject({ ok: true });
  });

  it('a second save while the first one is still starting the plugin wins: no launch keeps the old values', async () => {
    // Its handshake never comes: the start the first save makes is still under way at the second.
    const dir = fixturePlugin({
      script: 'gassist',
      id: 'quick-saves',
      mode: 'hang-before-handshake',
      manifest: { persistent: true, settings: TOKEN, functions: [{ name: 'echo', description: 'Echo' }] },
    });
    expect((await registry.installer.install(dir)).ok).toBe(true);
    await registry.start('quick-saves');
    expect(await registry.decisions.configure('quick-saves', { token: 'abc' })).toEqual({
      ok: true,
      detail: 'set token; starting it',
    });
    // At once, while that start is under way: the setting goes again.
    expect((await registry.decisions.configure('quick-saves', { token: null })).ok).toBe(true);
    const last = await healthWhere('quick-saves', (h) => h.state === 'failed' || h.state === 'ready');
    expect(last.state).toBe('failed');
    expect(last.failure?.code).toBe('settings_missing');
    expect(registry.host.healthOf('quick-saves')?.pid).toBeNull();
  });

  it('clears the failure of a one-shot plugin, which then runs on its next call', async () => {
    const dir = fixturePlugin({
      script: 'gassist',
      id: 'oneshot-token',
      manifest: { persistent: false, settings: TOKEN, functions: [{ name: 'echo', description: 'Echo' }] },
    });
    expect((await registry.installer.install(dir)).ok).toBe(true);
    const first = await registry.call('oneshot-token', 'echo', { text: 'hi' }).done;
    expect(first).toMatchObject({ ok: false, code: 'settings_missing' });
    await healthWhere('oneshot-token', inState('failed'));

    expect(await registry.decisions.configure('oneshot-token', { token: 'abc' })).toEqual({
      ok: true,
      detail: 'set token; the old error is cleared',
    });
    const rest = await healthWhere('oneshot-token', inState('stopped'));
    expect(rest.failure).toBeUndefined();
    expect(rest.reason).toBe('settings saved: it starts on its next call');
    const again = await registry.call('oneshot-token', 'echo', { text: 'hi' }).done;
    expect(again).toMatchObject({ ok: true });
  });

  it('leaves a plugin the person shut down stopped, and does not start a disabled one', async () => {
    const dir = fixturePlugin({
      script: 'jsonrpc',
      id: 'stopped-on-purpose',
      manifest: { persistent: true, settings: TOKEN, functions: [{ name: 'provider.fetch' }] },
    });
    expect((await registry.installer.install(dir)).ok).toBe(true);
    expect((await registry.decisions.configure('stopped-on-purpose', { token: 'one' })).ok).toBe(true);
    await healthWhere('stopped-on-purpose', inState('ready'));
    await registry.stop('stopped-on-purpose');
    expect(await registry.decisions.configure('stopped-on-purpose', { token: 'two' })).toEqual({
      ok: true,
      detail: 'set token',
    });
    expect(registry.host.healthOf('stopped-on-purpose')?.state).toBe('stopped');

    const off = fixturePlugin({
      script: 'jsonrpc',
      id: 'disabled-token',
      manifest: { persistent: true, settings: TOKEN, functions: [{ name: 'provider.fetch' }] },
    });
    expect((await registry.installer.install(off)).ok).toBe(true);
    expect((await registry.decisions.setEnabled('disabled-token', false)).ok).toBe(true);
    expect(await registry.decisions.configure('disabled-token', { token: 'abc' })).toEqual({
      ok: true,
      detail: 'set token',
    });
    expect(registry.host.healthOf('disabled-token')?.state).toBe('disabled');
  });
});
