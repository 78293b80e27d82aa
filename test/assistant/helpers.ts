/**
 * The assistant's tests drive the real app back end (registry, bundled plugins, conversation
 * store) against a scripted model server speaking the providers' real wire formats over loopback
 * HTTP: no language model can run on these machines, so the server plays one, and records every
 * request so a test can assert exactly what the model was sent.
 */
import path from 'node:path';
import type { BackendEvent } from '../../src/main/service/backend';
import type { ChatMessage, Conversation } from '../../src/shared/contract';
import type { ProviderKind } from '../../src/shared/assistant';
import { expect } from 'vitest';
import { openApp, type TestApp } from '../helpers/app';
import { cleanupFixtures, FIXTURES, tmpDir } from '../helpers/plugins';
import { leftovers } from '../helpers/processes';
import type { ModelServer } from '../model-server/server';

export interface AssistantApp extends TestApp {
  dataDir: string;
  events: BackendEvent[];
  /** Connects the scripted server as the default model. */
  connect(server: ModelServer, opts?: { provider?: ProviderKind; apiKey?: string; name?: string }): Promise<void>;
  conversation(): Promise<string>;
  /** Sends text and resolves with the turn's id (throws on a refusal). */
  say(conversationId: string, text: string): Promise<string>;
  /** Resolves once the turn ends, with the conversation as stored then. */
  turnEnded(conversationId: string, turnId: string): Promise<Conversation>;
  /** The next card of this conversation that waits for the person's answer. */
  prompt(conversationId: string): Promise<ChatMessage>;
  /** The first event, seen already or to come, that `pick` accepts (fails after `ms`). */
  waitEvent<T>(pick: (e: BackendEvent) => T | undefined, what: string, ms?: number): Promise<T>;
}

export async function assistantApp(name: string, opts: { dataDir?: string } = {}): Promise<AssistantApp> {
  const dataDir = opts.dataDir ?? path.join(tmpDir(name), 'data');
  const app = await openApp(dataDir);
  const events: BackendEvent[] = [];
  app.backend.onDidEvent((e) => events.push(e));
  /** Prompts already handed to the test: the next call waits for a new one. */
  const prompted = new Set<string>();
  const waitEvent = <T>(pick: (e: BackendEvent) => T | undefined, what: string, ms = 20_000): Promise<T> =>
    new Promise((resolve, reject) => {
      for (const e of events) {
        const hit = pick(e);
        if (hit !== undefined) return resolve(hit);
      }
      const timer = setTimeout(() => {
        sub.dispose();
        reject(new Error(`no ${what} within ${ms} ms`));
      }, ms);
      const sub = app.backend.onDidEvent((e) => {
        const hit = pick(e);
        if (hit === undefined) return;
        clearTimeout(timer);
        sub.dispose();
        resolve(hit);
      });
    });
  return {
    ...app,
    dataDir,
    events,
    waitEvent,
    async connect(server, opts = {}) {
      const r = await app.backend.invoke('models.save', {
        name: opts.name ?? 'Scripted',
        provider: opts.provider ?? 'openai-compatible',
        baseURL: server.baseURL,
        model: 'scripted-model',
        ...(opts.apiKey ? { apiKey: opts.apiKey } : {}),
        makeDefault: true,
      });
      if (!r.ok) throw new Error(r.message);
    },
    async conversation() {
      return (await app.backend.invoke('chat.create', {})).id;
    },
    async say(conversationId, text) {
      const r = await app.backend.invoke('chat.send', { conversationId, text });
      if (!r.ok) throw new Error(`${r.code}: ${r.message}`);
      if (!r.turnId) throw new Error('no turn started');
      return r.turnId;
    },
    async turnEnded(conversationId, turnId) {
      await waitEvent(
        (e) =>
          e.name === 'chat.turn' && e.payload.type === 'turn' && e.payload.turnId === turnId && !e.payload.running
            ? true
            : undefined,
        `end of turn ${turnId}`,
      );
      return (await app.backend.invoke('chat.get', { id: conversationId })) as Conversation;
    },
    async prompt(conversationId) {
      return waitEvent((e) => {
        if (e.name !== 'chat.turn' || e.payload.type !== 'start' || e.payload.conversationId !== conversationId)
          return undefined;
        const m = e.payload.message;
        if (m.call?.approval.state !== 'pending' || prompted.has(m.id)) return undefined;
        prompted.add(m.id);
        return m;
      }, 'approval prompt');
    },
  };
}

/** Installs test fixtures (by folder name) with the capabilities they request. */
export async function installFixtures(app: TestApp, ...names: string[]): Promise<void> {
  for (const name of names) {
    const r = await app.registry.installer.install(path.join(FIXTURES, name), { grant: 'requested' });
    expect(r.ok, `${name}: ${r.ok ? '' : r.message}`).toBe(true);
  }
}

/** Closes the app and the model servers, and checks that no plugin process was left behind. */
export async function closeAll(app: TestApp, ...servers: ModelServer[]): Promise<void> {
  await app.close();
  for (const s of servers) await s.close();
  expect(await leftovers()).toEqual([]);
  cleanupFixtures();
}
