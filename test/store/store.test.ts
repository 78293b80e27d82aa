/**
 * The conversation store on real SQLite files: what is kept across a restart, what is never kept
 * (passthrough text, deleted conversations), full-text search with anything a person may type,
 * the schema version, and files written by the sql.js store of earlier versions.
 */
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { ConversationStore, StoreOpenError } from '../../src/main/assistant/store/store';
import { SCHEMA_VERSION } from '../../src/main/assistant/store/db';
import type { ChatMessage } from '../../src/shared/contract';
import { SqlJsConversationStore } from '../../bench/baseline/sqljs-store';
import { cleanupFixtures, tmpDir } from '../helpers/plugins';
import { fileBytes, filesIn } from './helpers';

afterAll(() => cleanupFixtures());

const user = (id: string, text: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  role: 'user',
  createdAt: 1,
  text,
  ...extra,
});

function storeFile(): string {
  return path.join(tmpDir('store'), 'conversations.sqlite');
}

describe('conversations on disk', () => {
  it('are the owner’s alone: the file and its WAL are 0600, and an older 0644 file is tightened', async () => {
    const file = storeFile();
    const a = await ConversationStore.open(file);
    a.create('c1', 'First', 100);
    a.putMessage('c1', user('m1', 'private'));
    const mode = (p: string): string => (statSync(p).mode & 0o777).toString(8);
    expect([mode(file), mode(`${file}-wal`)]).toEqual(['600', '600']);
    a.dispose();
    chmodSync(file, 0o644);
    const b = await ConversationStore.open(file);
    expect(mode(file)).toBe('600');
    b.dispose();
  });

  it('are all there after a restart, in order, with titles, counts and updates', async () => {
    const file = storeFile();
    const a = await ConversationStore.open(file);
    a.create('c1', 'First', 100);
    a.create('c2', 'Second', 200);
    expect(a.putMessage('c1', user('m1', 'hello'))).toEqual({ ok: true });
    a.putMessage('c1', {
      id: 'm2',
      role: 'plugin',
      createdAt: 2,
      text: 'partial',
      status: 'streaming',
      pluginId: 'p',
      tool: 't',
      args: { n: 1 },
    });
    a.putMessage('c1', {
      id: 'm2',
      role: 'plugin',
      createdAt: 2,
      text: 'all of it',
      status: 'done',
      pluginId: 'p',
      tool: 't',
      args: { n: 1 },
      result: { rows: [1, 2] },
    });
    expect(a.rename('c2', 'Renamed')).toBe(true);
    expect(a.rename('nope', 'x')).toBe(false);
    a.putMessage('gone', user('m3', 'to a conversation that does not exist'));
    const before = { list: a.list(), c1: a.get('c1'), c2: a.get('c2') };
    a.dispose();
    // Closed cleanly: the WAL is folded in, nothing is left beside the file.
    expect(filesIn(path.dirname(file))).toEqual(['conversations.sqlite']);

    const b = await ConversationStore.open(file);
    expect(b.list()).toEqual(before.list);
    expect(b.get('c1')).toEqual(before.c1);
    expect(b.get('c1')?.messages.map((m) => m.text)).toEqual(['hello', 'all of it']);
    expect(b.get('c1')?.messages[1]).toEqual(
      expect.objectContaining({ status: 'done', result: { rows: [1, 2] }, args: { n: 1 } }),
    );
    expect(b.get('c2')).toEqual(expect.objectContaining({ title: 'Renamed', messageCount: 0 }));
    expect(b.get('gone')).toBeNull();
    b.dispose();
  });

  it('stores a passthrough exchange without its text, on either side', async () => {
    const file = storeFile();
    const s = await ConversationStore.open(file);
    s.create('c', 'Setup', 1);
    s.putMessage('c', user('in', 'my key is sk-live-SECRET-4242', { passthrough: true }));
    s.putMessage('c', {
      id: 'out',
      role: 'plugin',
      createdAt: 1,
      text: 'saved sk-live-SECRET-4242',
      result: { key: 'sk-live-SECRET-4242' },
      passthrough: true,
    });
    expect(fileBytes(file)).not.toContain('SECRET-4242');
    expect(s.get('c')?.messages.map((m) => [m.text, m.result])).toEqual([
      ['', undefined],
      ['', undefined],
    ]);
    s.dispose();
  });

  it('wipes a deleted conversation from the files: rows, title and the words in the index', async () => {
    const file = storeFile();
    const s = await ConversationStore.open(file);
    s.create('doomed-conversation', 'Quetzalcoatlus notes', 1);
    s.create('kept', 'Kept', 1);
    s.putMessage('doomed-conversation', user('doomed-message', 'the wingspan of azhdarchids was enormous'));
    s.putMessage('kept', user('k1', 'azhdarchids stay here'));
    // Written through to the main file, so the delete has old pages to wipe there too.
    expect(s.flush()).toEqual({ ok: true });
    expect(fileBytes(file)).toContain('wingspan');
    expect(s.delete('doomed-conversation')).toBe(true);
    expect(s.delete('doomed-conversation')).toBe(false);
    const bytes = fileBytes(file);
    for (const gone of [
      'doomed-conversation',
      'doomed-message',
      'Quetzalcoatlus',
      'quetzalcoatlus',
      'wingspan',
      'enormous',
    ])
      expect(bytes).not.toContain(gone);
    expect(s.search('wingspan')).toEqual([]);
    expect(s.search('azhdarchids').map((h) => h.conversationId)).toEqual(['kept']);
    s.dispose();
  });
});

describe('search', () => {
  it('finds titles and messages, title matches first, one hit per conversation, with the words marked', async () => {
    const s = await ConversationStore.open(storeFile());
    s.create('garden', 'Planning the garden', 1);
    s.create('chat', 'New conversation', 2);
    s.create('other', 'Other', 3);
    s.putMessage('chat', user('a', 'Which tomatoes grow in a shady garden?'));
    s.putMessage('chat', user('b', 'tomatoes again, and tomatoes'));
    s.putMessage('other', user('c', 'Crème brûlée needs a torch'));
    const hits = s.search('garden');
    expect(hits.map((h) => h.conversationId)).toEqual(['garden', 'chat']);
    expect(hits[0]?.snippet).toEqual({ text: 'Planning the garden', marks: [[13, 19]] });
    const chat = s.search('tomato')[0];
    expect(chat?.conversationId).toBe('chat');
    const [start, end] = chat?.snippet.marks[0] ?? [0, 0];
    expect(chat?.snippet.text.slice(start, end)).toBe('tomatoes'); // the last word matches as a prefix
    expect(s.search('creme brulee').map((h) => h.conversationId)).toEqual(['other']); // accents folded
    expect(s.search('garden tomatoes').map((h) => h.conversationId)).toEqual(['chat']); // every word
    expect(s.search('garden', 1)).toHaveLength(1);
    s.dispose();
  });

  it('shows each conversation’s own message as its snippet', async () => {
    const s = await ConversationStore.open(storeFile());
    s.create('first', 'First', 1);
    s.putMessage('first', user('f', 'count to one hundred'));
    s.create('second', 'Second', 2);
    s.putMessage('second', user('s', 'ask me to count to five'));
    const hits = s.search('count to');
    expect(hits.map((h) => [h.conversationId, h.snippet.text]).sort()).toEqual([
      ['first', 'count to one hundred'],
      ['second', 'ask me to count to five'],
    ]);
    s.dispose();
  });

  it('takes anything typed as plain words: no query syntax, no error', async () => {
    const s = await ConversationStore.open(storeFile());
    s.create('c', 'Notes', 1);
    s.putMessage('c', user('m', 'AND OR NOT near "quoted" col:value (paren) star* a^b'));
    for (const q of [
      '"',
      '""',
      'AND',
      'OR NOT',
      '(',
      ')',
      '*',
      'NEAR(a b)',
      'col:value',
      '^',
      "don't",
      '',
      '   ',
      '\u0000',
      '-x',
      '+',
      '{a b}',
    ]) {
      expect(() => s.search(q)).not.toThrow();
    }
    expect(s.search('AND').map((h) => h.conversationId)).toEqual(['c']);
    expect(s.search('col:value').map((h) => h.conversationId)).toEqual(['c']);
    expect(s.search('"quoted').map((h) => h.conversationId)).toEqual(['c']);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.integer({ min: -5, max: 500 }), (q, limit) => {
        const hits = s.search(q, limit);
        return Array.isArray(hits) && hits.length <= 100;
      }),
      { numRuns: 300 },
    );
    s.dispose();
  });
});

describe('schema', () => {
  it('records its version, and refuses a file from a newer Plugboard without touching it', async () => {
    const file = storeFile();
    (await ConversationStore.open(file)).dispose();
    const db = new Database(file);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.pragma('user_version = 99');
    db.close();
    const err = await ConversationStore.open(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreOpenError);
    expect((err as Error).message).toBe(
      `${file} was written by a newer Plugboard (schema 99; this one reads up to ${SCHEMA_VERSION}): update Plugboard, or move the file away to start afresh.`,
    );
    expect(filesIn(path.dirname(file))).toEqual(['conversations.sqlite']);
  });

  it('opens a file written by the sql.js store of earlier versions, keeping every conversation and message', async () => {
    const file = storeFile();
    const old = await SqlJsConversationStore.open(file);
    old.create('c1', 'Old chat', 10);
    old.create('c2', 'Another', 20);
    old.putMessage('c1', user('m1', 'from before the migration'));
    old.putMessage('c1', {
      id: 'm2',
      role: 'plugin',
      createdAt: 3,
      text: 'the answer',
      status: 'done',
      pluginId: 'p',
      result: { a: 1 },
    });
    old.putMessage('c2', user('m3', 'typed into a wizard', { passthrough: true }));
    old.putMessage('c2', user('m4', 'x'.repeat(100_000)));
    const before = { list: old.list(), c1: old.get('c1'), c2: old.get('c2') };
    old.dispose();
    writeFileSync(path.join(path.dirname(file), 'marker'), ''); // the folder holds other files too

    const s = await ConversationStore.open(file);
    expect(s.list()).toEqual(before.list);
    // The old schema had no per-conversation model or allowed tools: none, then.
    expect(s.get('c1')).toEqual({ ...before.c1, allowed: [] });
    expect(s.get('c2')).toEqual({ ...before.c2, allowed: [] });
    expect(s.search('migration').map((h) => h.conversationId)).toEqual(['c1']);
    expect(s.putMessage('c1', user('m5', 'after it'))).toEqual({ ok: true });
    s.dispose();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });
});
