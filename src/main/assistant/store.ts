/**
 * Conversations, kept across restarts in SQLite. sql.js (SQLite compiled to WebAssembly) rather
 * than a native binding: the same store then runs in Node 20 (CLI, server, tests) and in
 * Electron with no native rebuild per runtime. The database lives in memory and is written to
 * <data>/conversations.sqlite atomically (temp file + rename), a moment after each change and at
 * shutdown, so a crash loses at most that moment.
 *
 * Because each writer writes the whole database, only one process may hold it: the first to open
 * it records its pid next to it, and another Plugboard on the same data directory is refused with
 * a message that says so, instead of the two silently overwriting each other's conversations.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import initSqlJs, { type Database } from 'sql.js';
import type { ChatMessage, Conversation, ConversationSummary } from '../../shared/contract';
import type { IDisposable } from '../../shared/lifecycle';
import { withFileLock } from '../fs';

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

export class ConversationStore implements IDisposable {
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private dirty = false;

  private constructor(
    private readonly db: Database,
    private readonly file: string,
  ) {}

  static async open(file: string): Promise<ConversationStore> {
    await claim(file);
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
    try {
      this.flush();
    } finally {
      this.db.close();
      release(this.file);
    }
  }
}

function ownerFile(file: string): string {
  return `${file}.owner`;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Becomes the one process using the store, or throws naming the one that is. */
async function claim(file: string): Promise<void> {
  const owner = ownerFile(file);
  await withFileLock(owner, () => {
    const pid = existsSync(owner) ? Number(readFileSync(owner, 'utf8').trim()) : NaN;
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isRunning(pid)) {
      throw new Error(
        `the conversations in ${path.dirname(file)} are open in another Plugboard (process ${pid}): close it, or give this one another data directory. ` +
          `If no Plugboard is running, delete ${owner}.`,
      );
    }
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(owner, `${process.pid}\n`);
  });
}

function release(file: string): void {
  const owner = ownerFile(file);
  try {
    if (Number(readFileSync(owner, 'utf8').trim()) === process.pid) rmSync(owner, { force: true });
  } catch {
    // gone already
  }
}
