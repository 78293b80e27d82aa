/**
 * The tools declared to a model are kept between steps (assistant/tools.ts) and must never be
 * stale: a tool switched off here, in another process on the same data folder (the CLI beside the
 * app), or gone with its plugin is not declared at the next step. Real registries on real files.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exposedDeclarations } from '../../src/main/assistant/tools';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { cleanupFixtures, FIXTURES, REPO, tmpDir } from '../helpers/plugins';

let app: PluginRegistry;
let cli: PluginRegistry;
const names = (): string[] => exposedDeclarations(app).map((d) => d.qualifiedName);
/** The next turn of the event loop: the registry checks the decisions file once per turn. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

beforeAll(async () => {
  const dataDir = path.join(tmpDir('declarations'), 'data');
  app = await PluginRegistry.open({ dataDir, bundledDir: path.join(REPO, 'plugins') });
  expect((await app.installer.install(path.join(FIXTURES, 'mcpb-echo'))).ok).toBe(true);
  cli = await PluginRegistry.open({ dataDir, bundledDir: path.join(REPO, 'plugins') });
});

afterAll(async () => {
  for (const r of [app, cli]) {
    await r.shutdown();
    r.dispose();
  }
  cleanupFixtures();
});

describe('the declarations a model is sent', () => {
  it('are the same objects from step to step while nothing changes', async () => {
    const first = exposedDeclarations(app);
    await nextTurn();
    expect(exposedDeclarations(app)).toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first[0])).toBe(true);
  });

  it('leave out a tool switched off here, and take it back when it is on again', async () => {
    expect(names()).toContain('hello__say_hello');
    expect((await app.decisions.setExposed('hello', 'say_hello', false)).ok).toBe(true);
    expect(names()).not.toContain('hello__say_hello');
    expect((await app.decisions.setExposed('hello', 'say_hello', true)).ok).toBe(true);
    expect(names()).toContain('hello__say_hello');
  });

  it('leave out a plugin disabled by another process on the same data folder', async () => {
    expect(names().some((n) => n.startsWith('todo__'))).toBe(true);
    expect((await cli.decisions.setEnabled('todo', false)).ok).toBe(true);
    await nextTurn();
    expect(names().some((n) => n.startsWith('todo__'))).toBe(false);
    expect((await cli.decisions.setEnabled('todo', true)).ok).toBe(true);
    await nextTurn();
    expect(names().some((n) => n.startsWith('todo__'))).toBe(true);
  });

  it('lose a plugin that is uninstalled', async () => {
    expect(names().some((n) => n.startsWith('mcpb_echo__'))).toBe(true);
    expect((await app.installer.uninstall('mcpb-echo')).ok).toBe(true);
    expect(names().some((n) => n.startsWith('mcpb_echo__'))).toBe(false);
  });
});
