/**
 * "Shut down" is remembered (issue 21): a persistent plugin a person shut down stays down when
 * Plugboard opens its data folder again (the app autostarts the others), says why, and their start
 * ends it. A real registry on a real data folder, with a real plugin process.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { SHUT_DOWN_KEPT } from '../../src/main/plugins/registry/shut-down';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';

const opened: PluginRegistry[] = [];

function persistentPlugin(id: string): string {
  const dir = path.join(tmpDir('shut-down-src'), id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'plugin.mjs'), readFileSync(path.join(FIXTURES, 'lib', 'gassist.mjs')));
  writeFileSync(
    path.join(dir, 'plugboard.json'),
    JSON.stringify({
      id,
      version: '1.0.0',
      protocol: 'gassist-v2',
      command: ['node', 'plugin.mjs'],
      persistent: true,
      functions: [{ name: 'echo' }],
    }),
  );
  return dir;
}

async function open(dataDir: string): Promise<PluginRegistry> {
  const r = await PluginRegistry.open({ dataDir, bundledDir: path.join(tmpDir('no-bundled')), autostart: true });
  opened.push(r);
  return r;
}

async function closeAll(): Promise<void> {
  for (const r of opened.splice(0)) {
    await r.shutdown();
    r.dispose();
  }
}

/** Waits for a plugin's health to reach a state (a condition, not a time). */
async function reaches(r: PluginRegistry, id: string, state: string): Promise<void> {
  for (;;) {
    if (r.host.healthOf(id)?.state === state) return;
    await new Promise((res) => setTimeout(res, 20));
  }
}

afterAll(async () => {
  await closeAll();
  cleanupFixtures();
});

it('keeps a person’s Shut down across a restart of Plugboard, until they start the plugin', async () => {
  const dataDir = path.join(tmpDir('shut-down'), 'data');
  let r = await open(dataDir);
  expect((await r.installer.install(persistentPlugin('kept'))).ok).toBe(true);
  expect((await r.installer.install(persistentPlugin('other'))).ok).toBe(true);
  await closeAll();

  r = await open(dataDir);
  await reaches(r, 'kept', 'ready');
  await reaches(r, 'other', 'ready');
  expect((await r.stop('kept')).ok).toBe(true);
  expect(r.decisions.pluginState('kept').shutDown).toBe(true);
  await closeAll();

  r = await open(dataDir);
  await reaches(r, 'other', 'ready');
  // Not started, and the reason says why; the other came back as before.
  expect(r.host.healthOf('kept')).toMatchObject({ state: 'stopped', reason: SHUT_DOWN_KEPT, pid: null });
  expect((await r.start('kept')).ok).toBe(true);
  await reaches(r, 'kept', 'ready');
  expect(r.decisions.pluginState('kept').shutDown).toBeUndefined();
  await closeAll();

  r = await open(dataDir);
  await reaches(r, 'kept', 'ready');
}, 120_000);
