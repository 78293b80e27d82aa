/**
 * Conversations around calls that are still running: a conversation deleted mid-call, the app
 * closing mid-call, output past the size cap, and a second Plugboard on the same data directory.
 * Real registry, real plugin processes, real SQLite file.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../src/main/service/backend';
import { PluginRegistry } from '../../src/main/plugins/registry/registry';
import { KEEP_HEAD_CHARS, KEEP_TAIL_CHARS } from '../../src/shared/bounded-text';
import type { ChatMessage } from '../../src/shared/contract';
import { cleanupFixtures, fixturePlugin, REPO, tmpDir } from '../helpers/plugins';
import { finalMessage, openApp, type TestApp } from '../helpers/app';
import { leftovers } from '../helpers/processes';

let data: string;
let app: TestApp;
let registry: PluginRegistry;
let backend: Backend;

async function open(): Promise<void> {
  app = await openApp(data);
  ({ registry, backend } = app);
}

const close = (): Promise<void> => app.close();

beforeAll(async () => {
  data = path.join(tmpDir('chat-lifecycle'), 'data');
  await open();
  expect((await registry.installer.install(fixturePlugin({ script: 'gassist', id: 'talker' }))).ok).toBe(true);
});

afterAll(async () => {
  await close();
  expect(await leftovers()).toEqual([]);
  cleanupFixtures();
});

/** Starts a slash command in a new conversation and resolves once the plugin has streamed. */
async function startStreaming(command: string): Promise<{ conversationId: string; turnId: string }> {
  const c = await backend.invoke('chat.create', {});
  // Waits for a few lines of output (the first piece may come alone, at once).
  const streamed = new Promise<void>((resolve) => {
    let text = '';
    const sub = backend.onDidEvent((e) => {
      if (e.name !== 'chat.turn' || e.payload.type !== 'stream' || e.payload.conversationId !== c.id) return;
      text += e.payload.text;
      if (text.split('\n').length <= 3) return;
      sub.dispose();
      resolve();
    });
  });
  const sent = await backend.invoke('chat.send', { conversationId: c.id, text: command });
  if (!sent.ok || !sent.turnId) throw new Error(`not started: ${JSON.stringify(sent)}`);
  await streamed;
  return { conversationId: c.id, turnId: sent.turnId };
}

/** Resolves with the final message of a turn. */
function turnEnd(turnId: string): Promise<ChatMessage> {
  return finalMessage(backend, turnId);
}

function storedBytes(): string {
  backend.flush();
  return readFileSync(path.join(data, 'conversations.sqlite')).toString('latin1');
}

describe('conversations and running calls', () => {
  it('deleting a conversation stops its call and leaves nothing of it in the store file', async () => {
    const { conversationId, turnId } = await startStreaming('/talker:count n=100000 delay_ms=5');
    const pid = registry.host.healthOf('talker')?.pid;
    expect(await backend.invoke('chat.delete', { id: conversationId })).toEqual({ ok: true, detail: 'deleted' });
    // The call was cancelled: the plugin (which cannot stop a command) is restarted, freeing it.
    await expect.poll(() => registry.host.healthOf('talker')?.pid, { timeout: 10_000 }).not.toBe(pid);
    expect(await backend.invoke('chat.get', { id: conversationId })).toBeNull();
    expect(storedBytes()).not.toContain(turnId);
    expect(storedBytes()).not.toContain(conversationId);
  });

  it('closing the app mid-call keeps the output so far, marked cancelled, for the next start', async () => {
    const { conversationId, turnId } = await startStreaming('/talker:count n=100000 delay_ms=5');
    await close();
    await open();
    const c = await backend.invoke('chat.get', { id: conversationId });
    const m = c?.messages.find((x) => x.turnId === turnId);
    expect(m?.status).toBe('cancelled');
    expect(m?.failure?.message).toBe('Plugboard closed while this ran');
    expect(m?.text).toMatch(/^1\n2\n/);
  });

  it('keeps the head and the tail of output past 2 MiB, saying how much was left out', async () => {
    const c = await backend.invoke('chat.create', {});
    const sent = await backend.invoke('chat.send', { conversationId: c.id, text: '/talker:blast n=700 size=4096' });
    if (!sent.ok || !sent.turnId) throw new Error('not started');
    const m = await turnEnd(sent.turnId);
    expect(m.status).toBe('done');
    // 700 chunks of 4 KiB, then the completion text `done` after a blank line.
    const total = 700 * 4096 + '\n\ndone'.length;
    const left = total - KEEP_HEAD_CHARS - KEEP_TAIL_CHARS;
    expect(m.text).toContain(`[${left} characters of output not kept]`);
    expect(m.text.startsWith('x'.repeat(1000))).toBe(true);
    // The completion text comes after the kept tail.
    expect(m.text.endsWith('done')).toBe(true);
    const again = await backend.invoke('chat.get', { id: c.id });
    expect(again?.messages.find((x) => x.turnId === sent.turnId)?.text).toBe(m.text);
  });
});

describe('one Plugboard per data directory', () => {
  it('refuses a second one while the first runs, naming it, and takes over from one that died', async () => {
    const dir = path.join(tmpDir('two-writers'), 'data');
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    const reg = await PluginRegistry.open({ dataDir: dir, bundledDir: path.join(REPO, 'plugins') });
    try {
      // Another Plugboard (a live process) holds the conversations; a bare pid, as older versions wrote.
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'conversations.sqlite.owner'), `${other.pid}\n`);
      await expect(Backend.create({ registry: reg, version: 'test', transport: 'websocket' })).rejects.toThrow(
        new RegExp(`open in another Plugboard \\(process ${other.pid}\\)`),
      );
      other.kill();
      await new Promise((r) => other.once('exit', r));
      // It is gone: the next start takes the store over.
      const b = await Backend.create({ registry: reg, version: 'test', transport: 'websocket' });
      expect(JSON.parse(readFileSync(path.join(dir, 'conversations.sqlite.owner'), 'utf8'))).toEqual(
        expect.objectContaining({ pid: process.pid }),
      );
      b.dispose();
    } finally {
      other.kill();
      await reg.shutdown();
      reg.dispose();
    }
  });
});
