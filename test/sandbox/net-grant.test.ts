/**
 * A G-Assist manifest cannot request the network, yet weather, stock and discord plugins need it.
 * The person may grant any plugin `net` (the preview offers it, saying it was not requested); a
 * plugin granted it reaches a service on this computer's loopback, and without it fails with a
 * failure that names the missing grant, however the plugin words its own error.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CallEvent } from '../../src/shared/plugin';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { TEST_RUN_MARK } from '../helpers/processes';
import { describeSandboxed } from '../helpers/sandbox';

let registry: PluginRegistry;
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((_req, res) => res.end('the service is up'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/status`;
  const [name = '', value = ''] = TEST_RUN_MARK.split('=');
  registry = await PluginRegistry.open({ dataDir: path.join(tmpDir('net-grant'), 'data'), env: { [name]: value } });
});

afterAll(async () => {
  await registry.shutdown();
  registry.dispose();
  server.close();
  cleanupFixtures();
});

describeSandboxed('the network, granted whatever the manifest requested', () => {
  it('is offered unrequested; without it the call fails naming the grant, with it the loopback service answers', async () => {
    const source = path.join(FIXTURES, 'gassist-fetch');
    const p = await registry.installer.preview(source);
    if (!p.ok) throw new Error(p.message);
    expect(p.preview.requested).not.toContain('net');
    expect(p.preview.unrequested).toEqual(['net']);
    const installed = await registry.installer.commitPreview(p.token, { grant: 'requested' });
    expect(installed).toEqual(expect.objectContaining({ ok: true, granted: ['conversation.read', 'passthrough'] }));

    // The chat reads the failure from the call's final event: that names the grant too.
    const events: CallEvent[] = [];
    const without = await registry.call('gassist-fetch', 'fetch_status', { url }, { onEvent: (e) => events.push(e) })
      .done;
    const last = events.at(-1);
    expect(last?.type === 'error' ? last.failure.details?.missingGrant : last).toEqual({ kind: 'net' });
    expect(without).toEqual(
      expect.objectContaining({
        ok: false,
        code: 'plugin_error',
        details: expect.objectContaining({ missingGrant: { kind: 'net' } }),
      }),
    );
    if (!without.ok) {
      expect(without.message).toMatch(/^Could not get the status: fetch failed ECONNREFUSED/);
      expect(without.message).toContain('plugboard plugins grant gassist-fetch net');
    }

    expect(await registry.decisions.grant('gassist-fetch', ['net'])).toEqual({ ok: true, detail: 'granted net' });
    const withNet = await registry.call('gassist-fetch', 'fetch_status', { url }).done;
    expect(withNet).toEqual({ ok: true, value: expect.objectContaining({ data: '200 the service is up' }) });

    // Revoked, it is gone again: the sandbox's network is its own loopback, where nothing listens.
    expect((await registry.decisions.revoke('gassist-fetch', ['net'])).ok).toBe(true);
    const again = await registry.call('gassist-fetch', 'fetch_status', { url }).done;
    expect(again.ok ? null : again.details?.missingGrant).toEqual({ kind: 'net' });
  }, 60_000);

  it('refuses to grant what may only be granted when requested', async () => {
    const r = await registry.decisions.grant('gassist-fetch', ['fs.write']);
    expect(r).toEqual(expect.objectContaining({ ok: false, code: 'invalid_input' }));
  });
});
