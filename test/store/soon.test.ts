/**
 * Changes of a message still being written (`putMessageSoon`): off the model's tool round trip,
 * yet read back at once, written at the next turn of the event loop, in order with every other
 * write, and never lost by closing the store. Real SQLite files; a second connection reads what
 * is in the file.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/main/assistant/store/store';
import type { ChatMessage } from '../../src/shared/contract';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';

afterAll(() => cleanupFixtures());

const card = (text: string, status: ChatMessage['status']): ChatMessage => ({
  id: 'card',
  role: 'plugin',
  createdAt: 2,
  text,
  status,
  pluginId: 'p',
  tool: 't',
  args: {},
});

/** What the file itself holds for message `id` (another connection: the store's reads apply waiting writes). */
function inFile(file: string, id: string): string | undefined {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT text FROM messages WHERE id = ?').get(id) as { text: string } | undefined)?.text;
  } finally {
    db.close();
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function opened(): Promise<{ store: ConversationStore; file: string }> {
  const file = path.join(tmpDir('store-soon'), 'conversations.sqlite');
  const store = await ConversationStore.open(file);
  store.create('c', 'A turn', 1);
  return { store, file };
}

describe('a live message written soon', () => {
  it('is read back at once, and is in the file after the turn of the event loop', async () => {
    const { store, file } = await opened();
    store.putMessageSoon('c', card('running', 'streaming'));
    expect(store.get('c')?.messages.map((m) => m.text)).toEqual(['running']);
    expect(store.list()[0]?.messageCount).toBe(1);
    expect(store.saveState).toEqual({ unsaved: 0, failure: null });
    expect(inFile(file, 'card')).toBeUndefined();
    await nextTurn();
    expect(inFile(file, 'card')).toBe('running');
    store.dispose();
  });

  it('keeps its order with writes made now: the later version wins in the file', async () => {
    const { store, file } = await opened();
    store.putMessageSoon('c', card('first', 'streaming'));
    store.putMessage('c', card('second', 'done'));
    await nextTurn();
    expect(inFile(file, 'card')).toBe('second');
    expect(store.get('c')?.messages.map((m) => m.status)).toEqual(['done']);
    store.dispose();
  });

  it('is found by search at once', async () => {
    const { store } = await opened();
    store.putMessageSoon('c', card('a zebra crossed', 'done'));
    expect(store.search('zebra').map((h) => h.conversationId)).toEqual(['c']);
    store.dispose();
  });

  it('is written by a store closed before that turn comes', async () => {
    const { store, file } = await opened();
    store.putMessageSoon('c', card('last words', 'done'));
    store.dispose();
    expect(inFile(file, 'card')).toBe('last words');
    const again = await ConversationStore.open(file);
    expect(again.get('c')?.messages.map((m) => m.text)).toEqual(['last words']);
    again.dispose();
  });
});
