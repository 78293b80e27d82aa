/**
 * What happens around a plugin's life in the registry: secrets a plugin needs before it can
 * start, a secret typed wrong, an uninstall others are told about, a fresh install that does not
 * inherit what an earlier one left, and the names a model sees.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qualifiedNames } from '../../src/main/assistant/tools';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { FileSecretStore } from '../../src/main/plugins/secrets';
import { cleanupFixtures, FIXTURES, REPO, tmpDir } from '../helpers/plugins';

let data: string;
let registry: PluginRegistry;

/** A JSON-RPC plugin whose key setting is a required secret number. */
function keyedPlugin(id: string): string {
  const dir = path.join(tmpDir('keyed'), id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'plugin.mjs'), readFileSync(path.join(FIXTURES, 'lib', 'jsonrpc.mjs')));
  writeFileSync(
    path.join(dir, 'plugboard.json'),
    JSON.stringify({
      id,
      version: '1.0.0',
      protocol: 'jsonrpc',
      command: ['node', 'plugin.mjs'],
      capabilities: ['secrets'],
      settings: { pin: { type: 'number', required: true, sensitive: true, title: 'PIN' } },
      functions: [{ name: 'echo' }],
    }),
  );
  return dir;
}

beforeAll(async () => {
  data = path.join(tmpDir('lifecycle'), 'data');
  registry = await PluginRegistry.open({ dataDir: data, bundledDir: path.join(REPO, 'plugins') });
});

afterAll(async () => {
  await registry.shutdown();
  registry.dispose();
  cleanupFixtures();
});

describe('plugin lifecycle in the registry', () => {
  it('names a required secret as missing until it is set', async () => {
    expect((await registry.installer.install(keyedPlugin('keyed'))).ok).toBe(true);
    expect(registry.missingSettings('keyed')).toEqual(['pin']);
    expect((await registry.decisions.configure('keyed', { pin: '4711' })).ok).toBe(true);
    expect(registry.missingSettings('keyed')).toEqual([]);
  });

  it('never repeats a secret typed wrong, in its answer or in the audit log', async () => {
    const r = await registry.decisions.configure('keyed', { pin: 'hunter2-not-a-number' });
    expect(r).toEqual({
      ok: false,
      code: 'invalid_input',
      message: 'pin: the value given is not a valid number (not shown: the setting is secret)',
    });
    expect(readFileSync(path.join(data, 'audit.log'), 'utf8')).not.toContain('hunter2');
  });

  it('tells listeners about an uninstall, and a later install of the same id starts without old secrets', async () => {
    const changes: Array<{ id: string; reason: string }> = [];
    const sub = registry.onDidChange((c) => changes.push(c));
    expect((await registry.installer.uninstall('keyed')).ok).toBe(true);
    sub.dispose();
    expect(changes).toContainEqual({ id: 'keyed', reason: 'uninstalled' });
    // Another Plugboard on this data directory (the app, with its own secret store) left one behind.
    await new FileSecretStore(path.join(data, 'secrets.json')).set('keyed', 'pin', '1234');
    expect((await registry.installer.install(keyedPlugin('keyed'))).ok).toBe(true);
    expect(registry.missingSettings('keyed')).toEqual(['pin']);
    expect(
      (await registry.settings.view('keyed', registry.record('keyed')?.spec?.settings ?? [])).find(
        (s) => s.key === 'pin',
      )?.isSet,
    ).toBe(false);
  });
});

describe('the names a model sees', () => {
  it('are unique even where plugin and tool names collide once made safe, and do not depend on order', () => {
    const pairs = [
      { plugin: 'my-plugin', tool: 'run' },
      { plugin: 'my_plugin', tool: 'run' },
      { plugin: 'a__b', tool: 'c' },
      { plugin: 'a', tool: 'b__c' },
      { plugin: 'hello', tool: 'say_hello' },
      { plugin: 'long', tool: 'x'.repeat(80) },
    ];
    const names = qualifiedNames(pairs);
    const all = [...names.values()];
    expect(new Set(all).size).toBe(pairs.length);
    for (const n of all) expect(n).toMatch(/^[a-zA-Z0-9_]{1,64}$/);
    expect(names.get('hello\u0000say_hello')).toBe('hello__say_hello');
    expect(qualifiedNames([...pairs].reverse())).toEqual(names);
  });
});
