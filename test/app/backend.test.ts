/**
 * The backend behind the contract, over a real registry and real plugins: chat turns (slash
 * commands, palette invocations, passthrough, cancel, failures), conversations kept across a
 * restart in SQLite, install previews and commits, and the contract's input checks.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend, BackendEvent } from '../../src/main/service/backend';
import type { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { parseInput, type ChatMessage, type TurnEvent } from '../../src/shared/contract';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { finalMessage, openApp, type TestApp } from '../helpers/app';
import { leftovers } from '../helpers/processes';
import { folderItems, writeZip } from '../helpers/zips';

let data: string;
let registry: PluginRegistry;
let backend: Backend;
const events: BackendEvent[] = [];

let app: TestApp;

async function open(): Promise<void> {
  app = await openApp(data);
  ({ registry, backend } = app);
  backend.onDidEvent((e) => events.push(e));
}

const close = (): Promise<void> => app.close();

beforeAll(async () => {
  data = path.join(tmpDir('backend'), 'data');
  await open();
});
afterAll(async () => {
  await close();
  expect(await leftovers()).toEqual([]);
  cleanupFixtures();
});

/** Resolves with the final message of a turn. */
function turnEnd(turnId: string): Promise<ChatMessage> {
  return finalMessage(backend, turnId);
}

/** Resolves once a turn has streamed at least `text` (rejects after a generous `ms`). */
function streamed(turnId: string, text: string, ms = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    if (streamsOf(turnId).startsWith(text)) return resolve();
    const timer = setTimeout(() => {
      sub.dispose();
      reject(
        new Error(
          `turn ${turnId} did not stream ${JSON.stringify(text)} within ${ms} ms (got ${JSON.stringify(streamsOf(turnId))})`,
        ),
      );
    }, ms);
    const sub = backend.onDidEvent(() => {
      if (!streamsOf(turnId).startsWith(text)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
}

function streamsOf(turnId: string): string {
  return events
    .filter((e): e is Extract<BackendEvent, { name: 'chat.turn' }> => e.name === 'chat.turn')
    .map((e) => e.payload)
    .filter((p): p is Extract<TurnEvent, { type: 'stream' }> => p.type === 'stream' && p.turnId === turnId)
    .map((p) => p.text)
    .join('');
}

describe('chat', () => {
  it('runs /plugin:tool with key=value arguments and streams its output', async () => {
    const c = await backend.invoke('chat.create', {});
    const sent = await backend.invoke('chat.send', { conversationId: c.id, text: '/hello:count to=3 delay_ms=1' });
    if (!sent.ok || !sent.turnId) throw new Error('not started');
    const end = await turnEnd(sent.turnId);
    expect(end).toEqual(expect.objectContaining({ role: 'plugin', pluginId: 'hello', tool: 'count', status: 'done' }));
    // Every piece streamed before the end, the final message included.
    expect(end.text.startsWith('1\n2\n3\n')).toBe(true);
    expect(streamsOf(sent.turnId)).toBe(end.text);
    const conv = await backend.invoke('chat.get', { id: c.id });
    // Named by what it did, not by the command text (issue 12).
    expect(conv?.title).toBe('Hello: count — to 3, delay ms 1');
    expect(conv?.messages.map((m) => m.role)).toEqual(['user', 'plugin']);
  });

  it('finds a tool by name when only one plugin has it, and says when the name is unknown or ambiguous', async () => {
    const c = await backend.invoke('chat.create', {});
    const ok = await backend.invoke('chat.send', { conversationId: c.id, text: '/say_hello name="Grace Hopper"' });
    if (!ok.ok || !ok.turnId) throw new Error('not started');
    expect((await turnEnd(ok.turnId)).text).toMatch(/Grace Hopper/);
    expect(await backend.invoke('chat.send', { conversationId: c.id, text: '/no_such_tool' })).toEqual({
      ok: false,
      code: 'not_found',
      message: 'no exposed tool is called "no_such_tool"; type / to see them',
    });
    expect(await backend.invoke('chat.send', { conversationId: c.id, text: '/say_hello name="unclosed' })).toEqual({
      ok: false,
      code: 'invalid_input',
      message: 'could not read the command: unclosed " quote at character 16',
    });
  });

  it('answers plain text with a note while no model is connected', async () => {
    const c = await backend.invoke('chat.create', {});
    expect(await backend.invoke('chat.send', { conversationId: c.id, text: 'hello?' })).toEqual({
      ok: true,
      turnId: null,
    });
    const conv = await backend.invoke('chat.get', { id: c.id });
    expect(conv?.messages.at(-1)).toEqual(
      expect.objectContaining({ role: 'system', text: expect.stringMatching(/No model is connected yet/) }),
    );
  });

  it('holds a passthrough conversation, never storing what the user typed, until the plugin ends it', async () => {
    const c = await backend.invoke('chat.create', {});
    const start = await backend.invoke('chat.invoke', {
      conversationId: c.id,
      plugin: 'hello',
      tool: 'start_conversation',
      args: { topic: 'tea' },
    });
    if (!start.ok) throw new Error(start.message);
    expect((await turnEnd(start.turnId)).keepSession).toBe(true);
    expect((await backend.invoke('chat.get', { id: c.id }))?.passthrough).toEqual({
      pluginId: 'hello',
      pluginName: 'Hello',
    });
    const turn = await backend.invoke('chat.send', { conversationId: c.id, text: 'my api key is sk-12345' });
    if (!turn.ok || !turn.turnId) throw new Error('not routed');
    await turnEnd(turn.turnId);
    const stored = readStore();
    expect(stored).not.toContain('sk-12345');
    const bye = await backend.invoke('chat.send', { conversationId: c.id, text: 'bye' });
    if (!bye.ok || !bye.turnId) throw new Error('not routed');
    await turnEnd(bye.turnId);
    await expect.poll(async () => (await backend.invoke('chat.get', { id: c.id }))?.passthrough).toBeNull();
    expect(
      events.some((e) => e.name === 'chat.passthrough' && e.payload.conversationId === c.id && !e.payload.active),
    ).toBe(true);
  });

  it('leaves passthrough when the user exits', async () => {
    const c = await backend.invoke('chat.create', {});
    const start = await backend.invoke('chat.invoke', {
      conversationId: c.id,
      plugin: 'hello',
      tool: 'start_conversation',
      args: {},
    });
    if (!start.ok) throw new Error(start.message);
    await turnEnd(start.turnId);
    expect((await backend.invoke('chat.exitPassthrough', { conversationId: c.id })).ok).toBe(true);
    await expect.poll(async () => (await backend.invoke('chat.get', { id: c.id }))?.passthrough).toBeNull();
  });

  it('stops a running turn at once, keeping what it streamed', async () => {
    const c = await backend.invoke('chat.create', {});
    // 100 numbers 200 ms apart: the count is far from done when it is stopped after two.
    const t = await backend.invoke('chat.invoke', {
      conversationId: c.id,
      plugin: 'hello',
      tool: 'count',
      args: { to: 100, delay_ms: 200 },
    });
    if (!t.ok) throw new Error(t.message);
    const ended = turnEnd(t.turnId);
    await streamed(t.turnId, '1\n2\n');
    expect((await backend.invoke('chat.cancel', { turnId: t.turnId })).ok).toBe(true);
    const m = await ended;
    expect(m.status).toBe('cancelled');
    expect(m.failure?.message).toBe('stopped by the user');
    expect(m.text).toMatch(/^1\n2\n/);
  });

  it('shows a failure with its code, message and stderr lines', async () => {
    const c = await backend.invoke('chat.create', {});
    const t = await backend.invoke('chat.invoke', {
      conversationId: c.id,
      plugin: 'files',
      tool: 'list',
      args: { path: '/' },
    });
    if (!t.ok) throw new Error(t.message);
    const m = await turnEnd(t.turnId);
    expect(m.status).toBe('error');
    expect(m.failure).toEqual(
      expect.objectContaining({
        code: 'settings_missing',
        message: expect.stringMatching(/required settings are not set: roots/),
      }),
    );
  });

  it('keeps conversations across a restart', async () => {
    const before = await backend.invoke('chat.list', {});
    await close();
    await open();
    const after = await backend.invoke('chat.list', {});
    expect(after.map((c) => c.id).sort()).toEqual(before.map((c) => c.id).sort());
    const full = await backend.invoke('chat.get', { id: before[before.length - 1]?.id as string });
    expect(full?.messages.length).toBeGreaterThan(0);
  });
});

describe('plugins and installs through the contract', () => {
  it('lists plugins with health and counts, and details one with its capabilities and settings', async () => {
    const list = await backend.invoke('plugins.list', {});
    const hello = list.find((p) => p.id === 'hello');
    expect(hello).toEqual(
      expect.objectContaining({
        source: 'bundled',
        toolCount: 3,
        exposedCount: 3,
        requested: ['passthrough'],
        granted: ['passthrough'],
      }),
    );
    const files = await backend.invoke('plugins.detail', { id: 'files' });
    expect(files?.needsSettings).toEqual(['roots']);
    expect(files?.capabilities.map((c) => [c.name, c.requested, c.granted])).toEqual([
      ['fs.read', true, true],
      ['fs.write', true, true],
      // Not requested, not granted, but offered: a person may give any plugin the network.
      ['net', false, false],
    ]);
  });

  it('previews and installs a dropped bundle with the grants the user checked', async () => {
    const src = tmpDir('drop');
    mkdirSync(src, { recursive: true });
    const bundle = await writeZip(path.join(src, 'echo.mcpb'), folderItems(path.join(FIXTURES, 'mcpb-echo')));
    const p = await backend.invoke('install.preview', { source: { kind: 'path', path: bundle } });
    if (!p.ok) throw new Error(p.message);
    expect(p.preview).toEqual(
      expect.objectContaining({
        id: 'mcpb-echo',
        dialect: 'mcp',
        requested: [expect.objectContaining({ name: 'secrets', title: 'Receive secrets' })],
      }),
    );
    const done = await backend.invoke('install.commit', { token: p.token, grants: [], replace: false });
    expect(done).toEqual(expect.objectContaining({ ok: true, id: 'mcpb-echo' }));
    expect(registry.decisions.pluginState('mcpb-echo').grants).toEqual([]);
    expect(await backend.invoke('install.commit', { token: p.token, grants: [], replace: false })).toEqual({
      ok: false,
      code: 'invalid_state',
      message: 'this preview has expired; drop the plugin again',
    });
    const again = await backend.invoke('install.preview', { source: { kind: 'path', path: bundle } });
    expect(again.ok && again.preview.replaces).toEqual({ version: '1.0.0' });
  });

  it('lists the tools an MCP server announced at its trial, when its manifest names none', async (ctx) => {
    const p = await backend.invoke('install.preview', {
      source: { kind: 'path', path: path.join(FIXTURES, 'mcp-echo') },
    });
    if (!p.ok) throw new Error(p.message);
    if (p.preview.trial.status === 'skipped')
      return ctx.skip(`the trial could not run here: ${p.preview.trial.message}`);
    expect(p.preview.trial).toEqual(expect.objectContaining({ status: 'ok', tools: p.preview.tools.length }));
    expect(p.preview.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'progress', 'fail', 'slow']));
    await backend.invoke('install.cancel', { token: p.token });
  });

  it('refuses a bad input with a message naming the field', () => {
    expect(parseInput('plugins.setExposed', { id: 'x', exposed: 'yes' })).toEqual({
      ok: false,
      code: 'invalid_input',
      message: 'plugins.setExposed: exposed: Invalid input: expected boolean, received string',
    });
    expect(parseInput('chat.send', { conversationId: 'c', text: '' }).ok).toBe(false);
    expect(parseInput('install.preview', { source: { kind: 'upload', uploadId: '../../etc' } }).ok).toBe(false);
  });
});

function readStore(): string {
  backend.flush();
  const file = path.join(data, 'conversations.sqlite');
  return readFileSync(file).toString('latin1');
}
