/**
 * Settings → Sandbox reads the host's probe and the capability table: what it shows for a Linux
 * with bubblewrap, for macOS (no sandbox), and for this machine through the contract.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxStatus } from '../../src/main/service/sandbox-status';
import { CAPABILITIES, capabilityHere } from '../../src/shared/capabilities';
import { openApp, type TestApp } from '../helpers/app';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';

describe('the sandbox status view', () => {
  it('on Linux with bubblewrap: the tool and its version, and the capabilities the sandbox enforces', () => {
    const v = sandboxStatus('linux', { available: true, bwrap: '/usr/bin/bwrap', version: '0.8.0' });
    expect(v).toMatchObject({
      platform: 'linux',
      available: true,
      tool: { name: 'bubblewrap', path: '/usr/bin/bwrap', version: '0.8.0' },
      reason: null,
    });
    expect(v.capabilities.find((c) => c.name === 'net')).toMatchObject({ enforced: true });
    expect(v.capabilities).toHaveLength(CAPABILITIES.length);
  });

  it('on macOS: unsandboxed, with the reason, and net and fs not enforced', () => {
    const reason = 'the plugin sandbox uses bubblewrap, which exists on Linux only (this is darwin)';
    const v = sandboxStatus('darwin', { available: false, reason });
    expect(v).toMatchObject({ available: false, tool: null, reason });
    for (const name of ['net', 'fs.read', 'fs.write'])
      expect(v.capabilities.find((c) => c.name === name)).toMatchObject({
        enforced: false,
        note: capabilityHere(name, false).note,
      });
    expect(v.capabilities.find((c) => c.name === 'passthrough')?.enforced).toBe(true);
    expect(v.platforms.find((p) => p.platform === 'darwin')?.how).toMatch(/unsandboxed/);
  });
});

describe('app.sandbox and app.openDataFolder over the contract', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await openApp(path.join(tmpDir('sandbox-status'), 'data'));
  });
  afterAll(async () => {
    await app.close();
    cleanupFixtures();
  });

  it('says what this machine does, as the registry launches plugins', async () => {
    const v = await app.backend.invoke('app.sandbox', {});
    const support = app.registry.sandboxSupport;
    expect(v.platform).toBe(process.platform);
    expect(v.available).toBe(support.available);
    expect(v.reason).toBe(support.available ? null : support.reason);
  });

  it('refuses to open the data folder where no window can (plugboard serve)', async () => {
    expect(await app.backend.invoke('app.openDataFolder', {})).toMatchObject({
      ok: false,
      code: 'invalid_state',
      message: 'only the desktop app can open a folder; copy the path instead',
    });
  });
});
