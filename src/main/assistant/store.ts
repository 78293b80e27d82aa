/**
 * Conversations, kept across restarts in SQLite (better-sqlite3, WAL): each change is one
 * transaction written when the call returns, so an acknowledged message survives a kill of the
 * app (store-db.ts says what survives a power loss, and why). Nothing rewrites the whole file.
 *
 * When the disk refuses a write (full, read-only, failing), the change is kept in memory, in
 * order, and retried with a growing delay; the call returns an `io_error` failure the chat can
 * show, reads include the unsaved changes, and the app keeps running. `flush()` retries at once;
 * `dispose()` retries a last time and reports what could not be saved.
 *
 * One Plugboard process owns a data directory's conversations at a time (store-owner.ts). A damaged
 * file is moved aside and an empty store started (store-db.ts). Text is indexed (store-search.ts).
 */
import type Database from 'better-sqlite3';
import type { TokenTotals } from '../../shared/assistant';
import type { ChatMessage, ConversationSummary, SaveState } from '../../shared/contract';
import { failure, type Failure, type Outcome } from '../../shared/failures';
import { Emitter, type IDisposable } from '../../shared/lifecycle';
import { Checkpointer } from './store-checkpointer';
import type { StoredFile } from './store-attachments';
import { allowedOf, openDatabase, statements } from './store-db';
import { claim, release } from './store-owner';
import { isIoError, PendingWrites, retryDelay, type StoredConversation, type WriteOp } from './store-pending';
import { ConversationSearch, type SearchHit } from './store-search';

export { StoreOpenError } from './store-owner';
export type { SearchHit } from './store-search';
export type { StoredFile } from './store-attachments';

export interface StoreOptions {
  /** Where notices go (a damaged file moved aside, changes lost at close). Default: stderr. */
  report?: (line: string) => void;
  /** Caps the file at this many pages: past it writes fail as on a full disk (SQLITE_FULL). */
  maxPageCount?: number;
}

export type { SaveState } from '../../shared/contract';

const OK: Outcome = { ok: true };

export class ConversationStore implements IDisposable {
  private readonly pending = new PendingWrites();
  private readonly sql: ReturnType<typeof statements>;
  private readonly finder: ConversationSearch;
  private readonly checkpointer: Checkpointer;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private attempts = 0;
  private lastFailure: Failure | null = null;
  /** A conversation was deleted and the WAL still holds earlier versions of its pages. */
  private scrubWanted = false;
  private disposed = false;
  private readonly _onDidChangeSaveState = new Emitter<SaveState>();
  /** Fires when writes start failing, when more fail, and when everything is saved again. */
  readonly onDidChangeSaveState = this._onDidChangeSaveState.event;

  private constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    private readonly report: (line: string) => void,
  ) {
    this.sql = statements(db);
    this.finder = new ConversationSearch(db);
    this.checkpointer = new Checkpointer(db, file);
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
    return { unsaved: this.pending.count, failure: this.lastFailure };
  }

  list(): ConversationSummary[] {
    const rows = this.sql.list.all().map((r) => ({ id: r.id, title: r.title, updatedAt: r.updated_at, messageCount: r.n }));
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
      const messages = this.sql.messages.all(id).map((r) => ({ ...(JSON.parse(r.body) as Omit<ChatMessage, 'text'>), text: r.text }));
      stored = { id: c.id, title: c.title, updatedAt: c.updated_at, messageCount: messages.length, messages, model: c.model ?? null, allowed: allowedOf(c.allowed) };
    }
    return this.pending.isEmpty ? stored : this.pending.overlay(id, stored);
  }

  /** Tokens each model's answers took, over every conversation (writes still waiting left out). */
  usageByModel(): Array<TokenTotals & { model: string }> {
    return this.sql.usage.all().map((r) => ({ model: r.model, inputTokens: r.i ?? 0, outputTokens: r.o ?? 0, estimated: r.e === 1 }));
  }

  /** Conversations whose title or messages hold every word of `query` (typed text, not FTS syntax). */
  search(query: string, limit = 20): SearchHit[] {
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
    return this.write({ kind: 'put', conversationId, message: stored, at: Date.now(), ...(files?.length ? { files } : {}) });
  }

  /** An attached file with its bytes (store-attachments.ts), or null. */
  attachment(id: string): StoredFile | null {
    return this.pending.file(id) ?? this.sql.file(id);
  }

  /** Retries unsaved changes now, and moves the WAL into the main file. */
  flush(): Outcome {
    const o = this.drain();
    if (o.ok) this.scrubWanted = !this.checkpoint();
    return o;
  }

  private write(op: WriteOp): Outcome {
    if (this.disposed) throw new Error('the conversation store is closed');
    if (!this.pending.isEmpty) {
      if (!this.pending.push(op)) {
        return failure('io_error', `a change to the conversations was not kept: ${this.pending.count} unsaved changes already wait for ${this.file} to be writable`);
      }
      return this.drain();
    }
    try {
      this.apply(op);
    } catch (e) {
      if (!isIoError(e)) throw e;
      this.pending.push(op);
      return this.failed(e);
    }
    if (this.scrubWanted) this.scrubWanted = !this.checkpoint();
    return OK;
  }

  /** Writes the waiting changes in order, each in its own transaction, until one fails. */
  private drain(): Outcome {
    for (let op = this.pending.peek(); op; op = this.pending.peek()) {
      try {
        this.apply(op);
      } catch (e) {
        if (isIoError(e)) return this.failed(e);
        this.report(`a change to the conversations could not be written and was dropped: ${(e as Error).message}`);
      }
      this.pending.shift();
    }
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.attempts = 0;
    if (this.scrubWanted) this.scrubWanted = !this.checkpoint();
    if (this.lastFailure) {
      this.lastFailure = null;
      this._onDidChangeSaveState.fire(this.saveState);
    }
    return OK;
  }

  /** Copies the WAL into the main file and empties it; false when the disk refused. */
  private checkpoint(): boolean {
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
      return true;
    } catch (e) {
      if (!isIoError(e)) throw e;
      return false; // the WAL still holds every change: nothing is lost, the next write retries
    }
  }

  private failed(e: unknown): Failure {
    const n = this.pending.count;
    this.lastFailure = failure(
      'io_error',
      `conversations could not be saved to ${this.file} (${(e as Error).message}): ${n} unsaved change${n === 1 ? ' is' : 's are'} kept in memory and retried`,
    );
    if (!this.retryTimer) {
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.drain();
      }, retryDelay(this.attempts++));
      // The retry must not keep a finished process alive: dispose() makes the last attempt.
      this.retryTimer.unref();
    }
    this._onDidChangeSaveState.fire(this.saveState);
    return this.lastFailure;
  }

  private apply(op: WriteOp): void {
    switch (op.kind) {
      case 'create':
        this.sql.create.run(op.id, op.title, op.at, op.at);
        return;
      case 'rename':
        this.sql.rename.run(op.title, op.at, op.id);
        return;
      case 'delete':
        this.sql.delete(op.id);
        this.scrubWanted = true;
        return;
      case 'put':
        this.sql.put(op.conversationId, op.message, op.at, op.files);
        return;
      case 'model':
        this.sql.setModel.run(op.model, op.id);
        return;
      case 'allowed':
        this.sql.setAllowed.run(JSON.stringify(op.allowed), op.id);
        return;
    }
  }

  /** Retries what is unsaved a last time and reports what is lost; closes the file and gives it up. */
  dispose(): void {
    if (this.disposed) return;
    this.checkpointer.dispose();
    const o = this.flush();
    this.disposed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (!o.ok) this.report(`${this.pending.count} unsaved change(s) to the conversations are lost: ${o.message}`);
    try {
      this.db.close();
    } finally {
      release(this.file);
      this._onDidChangeSaveState.dispose();
    }
  }
}

