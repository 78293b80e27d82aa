/**
 * A secret setting must not show anywhere Plugboard shows things: the attack is a real plugin
 * (test/fixtures/hostile/leaky-args) that takes its API key on the command line and in its
 * environment, prints both back on stderr and exits before its handshake. Its failure (message,
 * command, stderr lines), its log, its health events and the audit log are searched for the key.
 * The install preview warns that the manifest puts the key in the command line, where every user
 * of the machine reads it with `ps`; `plugboard check` warns the same and shows the key nowhere.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPlugin } from '../../src/main/plugins/check';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';

const LEAKY = path.join(FIXTURES, 'hostile', 'leaky-args');
const KEY = 'sk-live-7f3a9c1e5b';

afterAll(() => cleanupFixtures());

describe('a plugin that prints its secret back', () => {
  it('is warned about at install, and its key shows nowhere: failure, log, health, audit', async () => {
    const data = path.join(tmpDir('secrets-shown'), 'data');
    const registry = await PluginRegistry.open({ dataDir: data, sandbox: false });
    const seen: string[] = [];
    registry.onDidLog((l) => seen.push(JSON.stringify(l)));
    registry.onDidChangeHealth((h) => seen.push(JSON.stringify(h)));
    try {
      const preview = await registry.installer.preview(LEAKY);
      expect(preview.ok && preview.preview.warnings).toEqual([
        'the secret setting token is passed in the command line: other users of this computer can read it (ps); a plugin should read it from its environment',
      ]);
      expect((await registry.installer.install(LEAKY, { grant: ['secrets'] })).ok).toBe(true);
      expect((await registry.decisions.configure('leaky-args', { token: KEY })).ok).toBe(true);

      const outcome = await registry.call('leaky-args', 'ping', {}).done;
      expect(outcome.ok).toBe(false);
      const shown = JSON.stringify(outcome);
      // The failure still says what happened, with the key's place named instead of its value.
      expect(!outcome.ok && outcome.details?.command).toEqual(expect.arrayContaining(['--api-key', '[secret token]']));
      expect(!outcome.ok && outcome.details?.stderrTail).toEqual(
        expect.arrayContaining([
          expect.stringContaining('--api-key [secret token]'),
          'error: the key [secret token] was refused by the service',
        ]),
      );
      expect(shown).not.toContain(KEY);
      await expect.poll(() => seen.some((s) => s.includes('[secret token]'))).toBe(true);
      expect(seen.join('\n')).not.toContain(KEY);
      expect(readFileSync(path.join(data, 'audit.log'), 'utf8')).not.toContain(KEY);
    } finally {
      await registry.shutdown();
      registry.dispose();
    }
  });

  it('is warned about by check, whose report shows the key nowhere', async () => {
    const r = await checkPlugin(LEAKY, { set: { token: KEY }, allowedCapabilities: ['secrets'] });
    const manifest = r.items.find((i) => i.name === 'manifest');
    expect(manifest).toEqual(
      expect.objectContaining({
        status: 'warn',
        detail: expect.stringContaining('the secret setting token is passed in the command line'),
      }),
    );
    expect(r.items.find((i) => i.name === 'handshake')?.status).toBe('fail');
    expect(JSON.stringify(r.items)).toContain('[secret token]');
    expect(JSON.stringify(r.items)).not.toContain(KEY);
  });
});
