/**
 * Conversations, kept across restarts in SQLite. sql.js (SQLite compiled to WebAssembly) rather
 * than a native binding: the same store then runs in Node 20 (CLI, server, tests) and in
 * Electron with no native rebuild per runtime. The database lives in memory and is written to
 * <data>/conversations.sqlite atomically (temp file + rename), a moment after each change and at
 * shutdown, so a crash loses at most that moment.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import initSqlJs, { type Database } from 'sql.js';
import type { ChatMessage, Conversation, ConversationSummary } from '../../shared/contract';
import type { Disposable } from '../../shared/lifecycle';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS conversations (
  id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
  id TEXT PRIMARY KEY,
  conversation_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_by_conversation ON messages(conversation_id, seq);
`;

const SAVE_DELAY_MS = 300;

export class ConversationStore implements Disposable {
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private dirty = false;

  private constructor(
    private readonly db: Database,
    private readonly file: string,
  ) {}

  static async open(file: string): Promise<ConversationStore> {
    const require = createRequire(import.meta.url);
    const wasmDir = path.dirname(require.resolve('sql.js/dist/sql-wasm.wasm'));
    const SQL = await initSqlJs({ locateFile: (f: string) => path.join(wasmDir, f) });
    const db = existsSync(file) ? new SQL.Database(readFileSync(file)) : new SQL.Database();
    db.exec(SCHEMA);
    return new ConversationStore(db, file);
  }

  list(): ConversationSummary[] {
    const rows = this.db.exec(
      `SELECT c.id, c.title, c.updated_at, (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id)
         FROM conversations c ORDER BY c.updated_at DESC`,
    );
    return (rows[0]?.values ?? []).map(([id, title, updatedAt, count]) => ({
      id: String(id),
      title: String(title),
      updatedAt: Number(updatedAt),
      messageCount: Number(count),
    }));
  }

  create(id: string, title: string, at: number): void {
    this.db.run('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)', [id, title, at, at]);
    this.changed();
  }

  get(id: string): Omit<Conversation, 'passthrough'> | null {
    const c = this.db.exec('SELECT id, title, updated_at FROM conversations WHERE id = ?', [id])[0]?.values[0];
    if (!c) return null;
    const rows = this.db.exec('SELECT body FROM messages WHERE conversation_id = ? ORDER BY seq', [id])[0]?.values ?? [];
    const messages = rows.map(([body]) => JSON.parse(String(body)) as ChatMessage);
    return { id: String(c[0]), title: String(c[1]), updatedAt: Number(c[2]), messageCount: messages.length, messages };
  }

  rename(id: string, title: string): boolean {
    this.db.run('UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?', [title, Date.now(), id]);
    const changed = this.db.getRowsModified() > 0;
    if (changed) this.changed();
    return changed;
  }

  delete(id: string): boolean {
    // Explicit, not ON DELETE CASCADE: sql.js's export() resets connection pragmas such as foreign_keys.
    this.db.run('DELETE FROM messages WHERE conversation_id = ?', [id]);
    this.db.run('DELETE FROM conversations WHERE id = ?', [id]);
    const changed = this.db.getRowsModified() > 0;
    if (changed) this.changed();
    return changed;
  }

  /**
   * Inserts or replaces a message. A passthrough exchange is never stored with its text, on either
   * side: people paste API keys into setup wizards, and plugins echo them back.
   */
  putMessage(conversationId: string, message: ChatMessage): void {
    const stored = message.passthrough ? { ...message, text: '', result: undefined } : message;
    const existing = this.db.exec('SELECT seq FROM messages WHERE id = ?', [message.id])[0]?.values[0];
    if (existing) {
      this.db.run('UPDATE messages SET body = ? WHERE id = ?', [JSON.stringify(stored), message.id]);
    } else {
      const seq = Number(this.db.exec('SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE conversation_id = ?', [conversationId])[0]?.values[0]?.[0] ?? 1);
      this.db.run('INSERT INTO messages (id, conversation_id, seq, body) VALUES (?, ?, ?, ?)', [message.id, conversationId, seq, JSON.stringify(stored)]);
    }
    this.db.run('UPDATE conversations SET updated_at = ? WHERE id = ?', [Date.now(), conversationId]);
    this.changed();
  }

  private changed(): void {
    this.dirty = true;
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      this.flush();
    }, SAVE_DELAY_MS);
  }

  /** Writes the database to disk now, if anything changed. */
  flush(): void {
    if (!this.dirty) return;
    this.dirty = false;
    mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, this.db.export());
    renameSync(tmp, this.file);
  }

  dispose(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.flush();
    this.db.close();
  }
}
