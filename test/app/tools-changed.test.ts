/**
 * A plugin whose tool list changes while it runs (MCP `notifications/tools/list_changed`): the
 * change reaches the contract as an event naming what was added and removed, the palette and the
 * plugin's tools follow without a reload, and the plugin's log says what changed.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BackendEvent } from '../../src/main/service/backend';
import { finalMessage, openApp, type TestApp } from '../helpers/app';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';

let app: TestApp;
const events: BackendEvent[] = [];

beforeAll(async () => {
  app = await openApp(path.join(tmpDir('tools-changed'), 'data'));
  app.backend.onDidEvent((e) => events.push(e));
  const installed = await app.registry.installer.install(path.join(FIXTURES, 'mcp-dynamic'));
  if (!installed.ok) throw new Error(installed.message);
});

afterAll(async () => {
  await app.close();
  expect(await leftovers()).toEqual([]);
  cleanupFixtures();
});

const paletteNames = async (): Promise<string[]> =>
  (await app.backend.invoke('palette.list', {}))
    .filter((e) => e.plugin === 'mcp-dynamic')
    .map((e) => e.name)
    .sort();

async function call(tool: string, args: Record<string, unknown>): Promise<string> {
  const c = await app.backend.invoke('chat.create', {});
  const t = await app.backend.invoke('chat.invoke', { conversationId: c.id, plugin: 'mcp-dynamic', tool, args });
  if (!t.ok) throw new Error(t.message);
  const m = await finalMessage(app.backend, t.turnId);
  return m.text;
}

it('follows a tool list that changes at run time', async () => {
  expect(await call('add_tool', { name: 'fresh' })).toBe('added fresh');
  await expect.poll(paletteNames).toEqual(['add_tool', 'fresh', 'list_added', 'remove_tool']);
  const changes = events.filter(
    (e) => e.name === 'plugins.changed' && e.payload.id === 'mcp-dynamic' && e.payload.reason === 'tools',
  );
  expect(changes.map((e) => e.payload)).toContainEqual({
    id: 'mcp-dynamic',
    reason: 'tools',
    tools: { added: ['fresh'], removed: [] },
  });
  expect((await app.backend.invoke('plugins.detail', { id: 'mcp-dynamic' }))?.tools.map((t) => t.name)).toContain(
    'fresh',
  );
  expect(await call('fresh', {})).toBe('I am fresh');
  const log = await app.backend.invoke('plugins.logs', { id: 'mcp-dynamic' });
  // The first announcement (at launch) is not a change worth a log line; this one is.
  expect(log.map((l) => l.message).filter((m) => m.startsWith('tools changed'))).toEqual([
    'tools changed: added fresh',
  ]);

  expect(await call('remove_tool', { name: 'fresh' })).toBe('removed fresh');
  await expect.poll(paletteNames).toEqual(['add_tool', 'list_added', 'remove_tool']);
  expect(events.some((e) => e.name === 'plugins.changed' && e.payload.tools?.removed.includes('fresh'))).toBe(true);
});
