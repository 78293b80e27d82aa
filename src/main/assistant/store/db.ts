/**
 * The conversations database: how it is opened, checked, recovered when it is damaged, and
 * brought to the current schema. The store (store.ts) only runs statements on what this returns.
 *
 * Durability. WAL journal, `synchronous = NORMAL`. Each write is one transaction, and when the
 * statement returns its pages are in the WAL file (a write(2) into the OS's cache of the file):
 *  - a kill -9, a crash or an OOM kill of Plugboard loses nothing acknowledged, since the OS
 *    holds the file's data and SQLite replays the WAL at the next open;
 *  - a power loss or an OS crash can lose the writes since the last checkpoint (the WAL is synced
 *    only when checkpointed), and never corrupts the file.
 * `synchronous = FULL` would fsync the WAL at every commit and survive a power loss as well. It
 * was measured here (`npm run bench -- --only store`, a 40 MB store, a shared two-core machine):
 * a bare insert took p50 0.5–4.8 ms and p99 5–57 ms with FULL, against p50 0.03–0.2 ms with
 * NORMAL, whose slow writes are the checkpoints (which store/checkpointer.ts moves off the main
 * thread). better-sqlite3 runs on the main thread, so every HTTP request and UI event would wait
 * for each of those fsyncs. For a chat a person is watching, the moments before a power cut are
 * worth less than that; a kill of the app, which is what happens, loses nothing either way.
 */
/* eslint-disable max-lines -- one whole concern: opening, checking, recovering and migrating the database, and why each choice was made */
import { chmodSync, closeSync, existsSync, openSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { ChatMessage } from '../../../shared/contract';
import { failure } from '../../../shared/failures';
import { fileStatements, FROM_V2, type StoredFile } from './attachments';
import { StoreOpenError } from './owner';
import { connect } from './native';

/** Triggers that keep an external-content FTS5 index in step with its table. */
function indexTriggers(table: string, fts: string, column: string): string {
  return `
CREATE TRIGGER ${table}_ai AFTER INSERT ON ${table} BEGIN
  INSERT INTO ${fts}(rowid, ${column}) VALUES (new.rid, new.${column});
END;
CREATE TRIGGER ${table}_ad AFTER DELETE ON ${table} BEGIN
  INSERT INTO ${fts}(${fts}, rowid, ${column}) VALUES ('delete', old.rid, old.${column});
END;
CREATE TRIGGER ${table}_au AFTER UPDATE OF ${column} ON ${table} WHEN old.${column} IS NOT new.${column} BEGIN
  INSERT INTO ${fts}(${fts}, rowid, ${column}) VALUES ('delete', old.rid, old.${column});
  INSERT INTO ${fts}(rowid, ${column}) VALUES (new.rid, new.${column});
END;`;
}

/** The schema this code reads and writes (PRAGMA user_version). 0 is the sql.js era's file. */
export const SCHEMA_VERSION = 3;

/**
 * Version 1. Both tables have an explicit integer key: the full-text indexes refer to rows by it,
 * and an implicit rowid may change on VACUUM. A message's text has its own column (the rest of it
 * is JSON in `body`) so that the index reads it where it is, without a second copy.
 */
const SCHEMA_V1 = `
CREATE TABLE conversations (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE messages (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  conversation_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  body TEXT NOT NULL,
  text TEXT NOT NULL
);
CREATE INDEX messages_in_conversation ON messages(conversation_id, seq);
CREATE VIRTUAL TABLE titles_fts USING fts5(title, content='conversations', content_rowid='rid', tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE messages_fts USING fts5(text, content='messages', content_rowid='rid', tokenize='unicode61 remove_diacritics 2');
-- Deleting from the index removes the words themselves, not only marks them deleted: a deleted
-- conversation leaves nothing of its words in the file.
INSERT INTO titles_fts(titles_fts, rank) VALUES ('secure-delete', 1);
INSERT INTO messages_fts(messages_fts, rank) VALUES ('secure-delete', 1);
${indexTriggers('conversations', 'titles_fts', 'title')}
${indexTriggers('messages', 'messages_fts', 'text')}
`;

/**
 * From the sql.js era (version 0: the same two tables, a message's text inside its JSON body, no
 * index) or from nothing, to version 1. sql.js wrote an ordinary SQLite file, so better-sqlite3
 * opens it as it is; the rows are copied into the new tables in one transaction.
 */
const FROM_V0 = `
CREATE TABLE IF NOT EXISTS conversations (id TEXT PRIMARY KEY, title TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS messages (id TEXT PRIMARY KEY, conversation_id TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT NULL);
DROP INDEX IF EXISTS messages_by_conversation;
ALTER TABLE conversations RENAME TO conversations_v0;
ALTER TABLE messages RENAME TO messages_v0;
${SCHEMA_V1}
INSERT INTO conversations (id, title, created_at, updated_at)
  SELECT id, title, created_at, updated_at FROM conversations_v0 ORDER BY rowid;
-- The old code wrote every body with JSON.stringify; json_valid only keeps a damaged row from
-- stopping the migration.
INSERT INTO messages (id, conversation_id, seq, body, text)
  SELECT id, conversation_id, seq, json_remove(body, '$.text'), coalesce(json_extract(body, '$.text'), '')
  FROM messages_v0 WHERE json_valid(body) ORDER BY conversation_id, seq;
DROP TABLE conversations_v0;
DROP TABLE messages_v0;
`;

/**
 * Version 2: a conversation's own settings, its model (a configured model's name; null: the
 * default) and the tools the person allowed for it ("Allow for this conversation", a JSON list).
 */
const FROM_V1 = `
ALTER TABLE conversations ADD COLUMN model TEXT;
ALTER TABLE conversations ADD COLUMN allowed TEXT NOT NULL DEFAULT '[]';
`;

/** Error codes of better-sqlite3 that mean the file is not a sound database. */
function isDamage(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

function configure(db: Database.Database): void {
  // Reading the journal mode is the first read of the file: a file that is not a database, or
  // is cut short, fails here.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL'); // see the header: what NORMAL and FULL each guarantee
  db.pragma('secure_delete = ON'); // freed pages are zeroed: deleted text does not linger
  db.pragma('temp_store = MEMORY'); // no temporary files beside the store or in /tmp
  db.pragma(`journal_size_limit = ${8 * 1024 * 1024}`); // the WAL shrinks back after a checkpoint
}

/**
 * Why the file at `file` is not a sound database, or null when it is. Read-only: a read-write
 * connection that fails on a damaged file deletes its WAL when it closes, and the WAL may hold the
 * latest conversations (a read-only one leaves every file as it was, and also reads the WAL, which
 * can hold good copies of damaged pages).
 */
function damage(file: string): string | null {
  let db: Database.Database | undefined;
  try {
    db = connect(file, { readonly: true, fileMustExist: true });
    const rows = db.pragma('quick_check') as { quick_check: string }[];
    return rows.length === 1 && rows[0]?.quick_check === 'ok'
      ? null
      : rows
          .map((r) => r.quick_check)
          .join('; ')
          .slice(0, 300);
  } catch (e) {
    if (isDamage(e)) return (e as Error).message;
    throw e;
  } finally {
    db?.close();
  }
}

function migrate(db: Database.Database, file: string): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version === SCHEMA_VERSION) return;
  if (version > SCHEMA_VERSION) {
    throw new StoreOpenError(
      failure(
        'invalid_state',
        `${file} was written by a newer Plugboard (schema ${version}; this one reads up to ${SCHEMA_VERSION}): update Plugboard, or move the file away to start afresh.`,
      ),
    );
  }
  const fromOldFile =
    version === 0 &&
    (db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'messages'").get() as { n: number }).n > 0;
  db.transaction(() => {
    if (version < 1) db.exec(FROM_V0);
    if (version < 2) db.exec(FROM_V1);
    if (version < 3) db.exec(FROM_V2); // attached files: store/attachments.ts
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
  if (!fromOldFile) return;
  // The copy left the old tables' pages free (zeroed: secure_delete), as large as the data: give
  // them back once. Safe for the indexes: every table has an explicit integer key.
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
}

function openChecked(file: string): Database.Database {
  const db = connect(file, { timeout: 2000 });
  try {
    configure(db);
    migrate(db, file);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/** A file name for the damaged store, beside it: `conversations.sqlite.corrupt-20260101T120000Z`. */
function asideName(file: string, now: Date): string {
  return `${file}.corrupt-${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}`;
}

/**
 * The sql.js store wrote `<file>.<pid>.tmp` and renamed it over the file; one that failed midway
 * (a full disk) left it behind, up to the size of the whole database. This process owns the store
 * now (claimed before opening), so any such file is a leftover.
 */
function removeOldTempFiles(file: string): void {
  const dir = path.dirname(file);
  const pattern = new RegExp(`^${path.basename(file).replace(/\./g, '\\.')}\\.\\d+\\.tmp$`);
  for (const name of existsSync(dir) ? readdirSync(dir) : [])
    if (pattern.test(name)) rmSync(path.join(dir, name), { force: true });
}

/**
 * Opens the store at `file`, creating it if missing. A damaged file (not a database, cut short,
 * garbage inside) is moved aside with its WAL, never deleted, and an empty store is started; the
 * line given to `report` names both files.
 */
export function openDatabase(file: string, report: (line: string) => void, now = new Date()): Database.Database {
  try {
    removeOldTempFiles(file);
    const why = existsSync(file) ? damage(file) : null;
    if (why !== null) {
      const aside = asideName(file, now);
      renameSync(file, aside);
      // The WAL goes with it when it holds anything; the -shm is an index of the WAL, rebuilt on open.
      if (existsSync(`${file}-wal`) && statSync(`${file}-wal`).size > 0) renameSync(`${file}-wal`, `${aside}-wal`);
      rmSync(`${file}-wal`, { force: true });
      rmSync(`${file}-shm`, { force: true });
      report(
        `The conversations file ${file} is damaged (${why}); it was moved to ${aside} and an empty one started. ` +
          `Nothing was deleted: keep ${path.basename(aside)} if you want to try to recover it.`,
      );
    }
    // Conversations are the person's alone: the file is made owner-only before SQLite opens it,
    // and SQLite gives its -wal and -shm the main file's mode.
    closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
    return openChecked(file);
  } catch (e) {
    if (e instanceof StoreOpenError) throw e;
    throw new StoreOpenError(
      failure(
        'io_error',
        `cannot open the conversations in ${file} (${(e as Error).message}): check the disk and the folder's permissions.`,
      ),
    );
  }
}

interface MessageRow {
  body: string;
  text: string;
}

interface ConversationRow {
  id: string;
  title: string;
  updated_at: number;
  model?: string | null;
  allowed?: string;
}

/** The statements the store runs, prepared once. */
export function statements(db: Database.Database) {
  const upsert = db.prepare(
    `INSERT INTO messages (id, conversation_id, seq, body, text)
       VALUES (@id, @cid, (SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE conversation_id = @cid), @body, @text)
     ON CONFLICT(id) DO UPDATE SET body = excluded.body, text = excluded.text`,
  );
  const exists = db.prepare<[string], { 1: number }>('SELECT 1 FROM conversations WHERE id = ?');
  const touch = db.prepare('UPDATE conversations SET updated_at = ? WHERE id = ?');
  const deleteMessages = db.prepare('DELETE FROM messages WHERE conversation_id = ?');
  const deleteConversation = db.prepare('DELETE FROM conversations WHERE id = ?');
  const files = fileStatements(db);
  return {
    list: db.prepare<[], ConversationRow & { n: number }>(
      `SELECT c.id, c.title, c.updated_at, (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id) AS n
         FROM conversations c ORDER BY c.updated_at DESC`,
    ),
    conversation: db.prepare<[string], ConversationRow>(
      'SELECT id, title, updated_at, model, allowed FROM conversations WHERE id = ?',
    ),
    setModel: db.prepare('UPDATE conversations SET model = ? WHERE id = ?'),
    setAllowed: db.prepare('UPDATE conversations SET allowed = ? WHERE id = ?'),
    summary: db.prepare<[string], ConversationRow & { n: number }>(
      'SELECT c.id, c.title, c.updated_at, (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id) AS n FROM conversations c WHERE c.id = ?',
    ),
    messages: db.prepare<[string], MessageRow>(
      'SELECT body, text FROM messages WHERE conversation_id = ? ORDER BY seq',
    ),
    exists,
    usage: db.prepare<[], { model: string; i: number | null; o: number | null; e: number | null }>(
      `SELECT json_extract(body, '$.model') AS model, SUM(json_extract(body, '$.usage.inputTokens')) AS i,
              SUM(json_extract(body, '$.usage.outputTokens')) AS o, MAX(json_extract(body, '$.usage.estimated')) AS e
         FROM messages WHERE json_extract(body, '$.model') IS NOT NULL GROUP BY 1 ORDER BY 1`,
    ),
    create: db.prepare('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)'),
    rename: db.prepare('UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?'),
    file: files.get,
    delete: db.transaction((id: string) => {
      files.dropConversation(id);
      deleteMessages.run(id);
      deleteConversation.run(id);
    }),
    put: db.transaction((cid: string, message: ChatMessage, at: number, added?: readonly StoredFile[]) => {
      if (!exists.get(cid)) return;
      const { text, ...rest } = message;
      upsert.run({ id: message.id, cid, body: JSON.stringify(rest), text });
      if (added) files.add(cid, message.id, added);
      touch.run(at, cid);
    }),
  };
}

/** The stored list of allowed tools; anything unreadable allows nothing (fail closed). */
export function allowedOf(raw: string | undefined): string[] {
  try {
    const v: unknown = JSON.parse(raw ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}
