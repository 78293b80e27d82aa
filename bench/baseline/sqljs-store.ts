/**
 * The conversation store as it was before better-sqlite3 (sql.js: the database in memory, the
 * whole file rewritten 300 ms after a change), kept as the baseline of `npm run bench` and to
 * write files in the old format for the migration test. Not used by the app. The claim on the
 * data directory is left out: the bench and the tests give it a folder of its own.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import initSqlJs, { type Database } from 'sql.js';
import type { ChatMessage, Conversation, ConversationSummary } from '../../src/shared/contract';
import type { IDisposable } from '../../src/shared/lifecycle';

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

export class SqlJsConversationStore implements IDisposable {
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private dirty = false;

  private constructor(
    private readonly db: Database,
    private readonly file: string,
  ) {}

  static async open(file: string): Promise<SqlJsConversationStore> {
    const require = createRequire(import.meta.url);
    const wasmDir = path.dirname(require.resolve('sql.js/dist/sql-wasm.wasm'));
    const SQL = await initSqlJs({ locateFile: (f: string) => path.join(wasmDir, f) });
    const db = existsSync(file) ? new SQL.Database(readFileSync(file)) : new SQL.Database();
    db.exec(SCHEMA);
    return new SqlJsConversationStore(db, file);
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
    this.db.run('INSERT INTO conversations (id, title, created_at, updated_at) VALUES (?, ?, ?, ?)', [
      id,
      title,
      at,
      at,
    ]);
    this.changed();
  }

  get(id: string): Omit<Conversation, 'passthrough' | 'runningTurns' | 'tokens'> | null {
    const c = this.db.exec('SELECT id, title, updated_at FROM conversations WHERE id = ?', [id])[0]?.values[0];
    if (!c) return null;
    const rows =
      this.db.exec('SELECT body FROM messages WHERE conversation_id = ? ORDER BY seq', [id])[0]?.values ?? [];
    const messages = rows.map(([body]) => JSON.parse(String(body)) as ChatMessage);
    return {
      id: String(c[0]),
      title: String(c[1]),
      updatedAt: Number(c[2]),
      messageCount: messages.length,
      messages,
      model: null,
    };
  }

  rename(id: string, title: string): boolean {
    this.db.run('UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?', [title, Date.now(), id]);
    const changed = this.db.getRowsModified() > 0;
    if (changed) this.changed();
    return changed;
  }

  delete(id: string): boolean {
    // Deleted means gone from the file too, not left in free pages. Set each time, and delete
    // explicitly rather than ON DELETE CASCADE: sql.js's export() resets connection pragmas.
    this.db.run('PRAGMA secure_delete = ON');
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
    // A conversation deleted while a call was still finishing takes no new rows.
    if (!this.db.exec('SELECT 1 FROM conversations WHERE id = ?', [conversationId])[0]) return;
    const stored = message.passthrough ? { ...message, text: '', result: undefined } : message;
    const existing = this.db.exec('SELECT seq FROM messages WHERE id = ?', [message.id])[0]?.values[0];
    if (existing) {
      this.db.run('UPDATE messages SET body = ? WHERE id = ?', [JSON.stringify(stored), message.id]);
    } else {
      const seq = Number(
        this.db.exec('SELECT COALESCE(MAX(seq), 0) + 1 FROM messages WHERE conversation_id = ?', [conversationId])[0]
          ?.values[0]?.[0] ?? 1,
      );
      this.db.run('INSERT INTO messages (id, conversation_id, seq, body) VALUES (?, ?, ?, ?)', [
        message.id,
        conversationId,
        seq,
        JSON.stringify(stored),
      ]);
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
    try {
      this.flush();
    } finally {
      this.db.close();
    }
  }
}
