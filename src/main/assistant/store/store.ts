/**
 * Conversations, kept across restarts in SQLite (better-sqlite3, WAL): each change is one
 * transaction written when the call returns, so an acknowledged message survives a kill of the
 * app (store/db.ts says what survives a power loss, and why). Nothing rewrites the whole file.
 * A message still being written (a model's answer, a tool-call card) is the exception: its
 * changes are written at the next turn of the event loop (`putMessageSoon`).
 *
 * When the disk refuses a write (full, read-only, failing), the change is kept in memory, in
 * order, and retried with a growing delay (store/writer.ts); the call returns an `io_error`
 * failure the chat can show, reads include the unsaved changes, and the app keeps running.
 * `flush()` retries at once; `dispose()` retries a last time and reports what could not be saved.
 *
 * One Plugboard process owns a data directory's conversations at a time (store/owner.ts). A damaged
 * file is moved aside and an empty store started (store/db.ts). Text is indexed (store/search.ts).
 */
import type Database from 'better-sqlite3';
import type { TokenTotals } from '../../../shared/assistant';
import type { ChatMessage, ConversationSummary, SaveState } from '../../../shared/contract';
import type { Outcome } from '../../../shared/failures';
import type { IDisposable } from '../../../shared/lifecycle';
import { Checkpointer } from './checkpointer';
import type { StoredFile } from './attachments';
import { allowedOf, openDatabase, statements } from './db';
import { claim, release } from './owner';
import type { StoredConversation } from './pending';
import { ConversationSearch, type SearchHit } from './search';
import { StoreWriter } from './writer';

export { StoreOpenError } from './owner';
export type { SearchHit } from './search';
export type { StoredFile } from './attachments';

export interface StoreOptions {
  /** Where notices go (a damaged file moved aside, changes lost at close). Default: stderr. */
  report?: (line: string) => void;
  /** Caps the file at this many pages: past it writes fail as on a full disk (SQLITE_FULL). */
  maxPageCount?: number;
}

/** Whether every change is on disk; when not, how many wait and why. */
export type { SaveState } from '../../../shared/contract';

export class ConversationStore implements IDisposable {
  private readonly sql: ReturnType<typeof statements>;
  private readonly finder: ConversationSearch;
  private readonly checkpointer: Checkpointer;
  private readonly writer: StoreWriter;
  private disposed = false;

  private constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    report: (line: string) => void,
  ) {
    this.sql = statements(db);
    this.finder = new ConversationSearch(db);
    this.checkpointer = new Checkpointer(db, file);
    this.writer = new StoreWriter(db, this.sql, file, report);
  }

  /** Fires when writes start failing, when more fail, and when everything is saved again. */
  get onDidChangeSaveState(): StoreWriter['onDidChangeSaveState'] {
    return this.writer.onDidChangeSaveState;
  }

  /** Changes not in the file yet; reads apply them on top of what the file holds. */
  private get pending(): StoreWriter['pending'] {
    return this.writer.pending;
  }

  /** Claims the store for this process and opens it; throws a StoreOpenError (one line) when it cannot. */
  static async open(file: string, options: StoreOptions = {}): Promise<ConversationStore> {
    const report = options.report ?? ((line: string) => process.stderr.write(`plugboard: ${line}\n`));
    await claim(file);
    try {
      const db = openDatabase(file, report);
      if (options.maxPageCount !== undefined) db.pragma(`max_page_count = ${Math.floor(options.maxPageCount)}`);
      return new ConversationStore(db, file, report);
    } catch (e) {
      release(file);
      throw e;
    }
  }

  get saveState(): SaveState {
    return this.writer.saveState;
  }

  list(): ConversationSummary[] {
    const rows = this.sql.list
      .all()
      .map((r) => ({ id: r.id, title: r.title, updatedAt: r.updated_at, messageCount: r.n }));
    if (this.pending.isEmpty) return rows;
    const touched = this.pending.touched();
    const out = rows.filter((r) => !touched.has(r.id));
    for (const id of touched) {
      const s = this.summary(id);
      if (s) out.push(s);
    }
    return out.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** One conversation's summary, without listing them all. */
  summary(id: string): ConversationSummary | null {
    if (this.pending.isEmpty) {
      const r = this.sql.summary.get(id);
      return r ? { id: r.id, title: r.title, updatedAt: r.updated_at, messageCount: r.n } : null;
    }
    const c = this.get(id);
    return c && { id: c.id, title: c.title, updatedAt: c.updatedAt, messageCount: c.messageCount };
  }

  /** Whether the conversation exists, without reading its messages. */
  has(id: string): boolean {
    return this.pending.isEmpty ? this.sql.exists.get(id) !== undefined : this.get(id) !== null;
  }

  get(id: string): StoredConversation | null {
    const c = this.sql.conversation.get(id);
    let stored: StoredConversation | null = null;
    if (c) {
      const messages = this.sql.messages
        .all(id)
        .map((r) => ({ ...(JSON.parse(r.body) as Omit<ChatMessage, 'text'>), text: r.text }));
      stored = {
        id: c.id,
        title: c.title,
        updatedAt: c.updated_at,
        messageCount: messages.length,
        messages,
        model: c.model ?? null,
        allowed: allowedOf(c.allowed),
      };
    }
    return this.pending.isEmpty ? stored : this.pending.overlay(id, stored);
  }

  /** Tokens each model's answers took, over every conversation (writes still waiting left out). */
  usageByModel(): Array<TokenTotals & { model: string }> {
    this.writer.settle();
    return this.sql.usage
      .all()
      .map((r) => ({ model: r.model, inputTokens: r.i ?? 0, outputTokens: r.o ?? 0, estimated: r.e === 1 }));
  }

  /** Conversations whose title or messages hold every word of `query` (typed text, not FTS syntax). */
  search(query: string, limit = 20): SearchHit[] {
    this.writer.settle();
    return this.finder.search(query, limit);
  }

  create(id: string, title: string, at: number): Outcome {
    return this.write({ kind: 'create', id, title, at });
  }

  /** False when there is no such conversation. A failure to save shows in `saveState`. */
  rename(id: string, title: string): boolean {
    if (!this.has(id)) return false;
    this.write({ kind: 'rename', id, title, at: Date.now() });
    return true;
  }

  /**
   * False when there is no such conversation. Deleted means gone from the files too: the rows'
   * pages are zeroed (secure_delete), the index forgets the words, and the WAL, which still holds
   * earlier versions of those pages, is checkpointed and emptied.
   */
  delete(id: string): boolean {
    if (!this.has(id)) return false;
    this.write({ kind: 'delete', id });
    return true;
  }

  /** The conversation's model (a configured model's name; null: the default). False when there is no such conversation. */
  setModel(id: string, model: string | null): boolean {
    if (!this.has(id)) return false;
    this.write({ kind: 'model', id, model });
    return true;
  }

  /** The tools (`plugin:tool`) the person allowed for this conversation ("Allow for this conversation"). */
  setAllowed(id: string, allowed: string[]): boolean {
    if (!this.has(id)) return false;
    this.write({ kind: 'allowed', id, allowed });
    return true;
  }

  /**
   * Inserts or replaces a message; `{ ok: true }` once it is in the file. A passthrough exchange
   * is never stored with its text, on either side: people paste API keys into setup wizards, and
   * plugins echo them back. A conversation deleted while a call was still finishing takes no new
   * rows. The caller bounds the text (2 MiB).
   */
  putMessage(conversationId: string, message: ChatMessage, files?: readonly StoredFile[]): Outcome {
    const stored = message.passthrough ? { ...message, text: '', result: undefined } : message;
    return this.write({
      kind: 'put',
      conversationId,
      message: stored,
      at: Date.now(),
      ...(files?.length ? { files } : {}),
    });
  }

  /** An attached file with its bytes (store/attachments.ts), or null. */
  attachment(id: string): StoredFile | null {
    return this.pending.file(id) ?? this.sql.file(id);
  }

  /**
   * `putMessage` for a message still being written, at the next turn of the event loop rather
   * than now (store/writer.ts says why). Reads see it at once.
   */
  putMessageSoon(conversationId: string, message: ChatMessage): void {
    const stored = message.passthrough ? { ...message, text: '', result: undefined } : message;
    this.writer.soon({ kind: 'put', conversationId, message: stored, at: Date.now() });
  }

  /** Retries unsaved changes now, and moves the WAL into the main file. */
  flush(): Outcome {
    return this.writer.flush();
  }

  private write(op: Parameters<StoreWriter['write']>[0]): Outcome {
    if (this.disposed) throw new Error('the conversation store is closed');
    return this.writer.write(op);
  }

  /** Retries what is unsaved a last time and reports what is lost; closes the file and gives it up. */
  dispose(): void {
    if (this.disposed) return;
    this.checkpointer.dispose();
    this.writer.close();
    this.disposed = true;
    try {
      this.db.close();
    } finally {
      release(this.file);
    }
  }
}
