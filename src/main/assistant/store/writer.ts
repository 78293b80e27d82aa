/**
 * How the conversation store's changes reach the file: now (one transaction each, written when
 * the call returns), soon (a live message's change, written at the next turn of the event loop),
 * or, when the disk refused, later: kept in memory in order (store/pending.ts), retried with a
 * growing delay, and reported through the save state until everything is written again.
 */
import type Database from 'better-sqlite3';
import type { SaveState } from '../../../shared/contract';
import { failure, type Failure, type Outcome } from '../../../shared/failures';
import { Emitter } from '../../../shared/lifecycle';
import type { statements } from './db';
import { isIoError, PendingWrites, retryDelay, type WriteOp } from './pending';

const OK: Outcome = { ok: true };

export class StoreWriter {
  /** Changes not in the file yet: refused by the disk, or waiting for their moment. Reads apply them on top. */
  readonly pending = new PendingWrites();
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private attempts = 0;
  private lastFailure: Failure | null = null;
  /** A conversation was deleted and the WAL still holds earlier versions of its pages. */
  private scrubWanted = false;
  /** A `soon` write waits for the next turn of the event loop. */
  private soonQueued = false;
  private closed = false;
  private readonly _onDidChangeSaveState = new Emitter<SaveState>();
  /** Fires when writes start failing, when more fail, and when everything is saved again. */
  readonly onDidChangeSaveState = this._onDidChangeSaveState.event;

  constructor(
    private readonly db: Database.Database,
    private readonly sql: ReturnType<typeof statements>,
    private readonly file: string,
    private readonly report: (line: string) => void,
  ) {}

  get saveState(): SaveState {
    // Writes that only wait for their moment are not "unsaved" until the disk refuses one.
    return { unsaved: this.lastFailure ? this.pending.count : 0, failure: this.lastFailure };
  }

  /** Writes `op` now, after whatever waits (order is kept); `{ ok: true }` once it is in the file. */
  write(op: WriteOp): Outcome {
    if (this.closed) throw new Error('the conversation store is closed');
    if (!this.pending.isEmpty) {
      if (!this.pending.push(op)) {
        return failure(
          'io_error',
          `a change to the conversations was not kept: ${this.pending.count} unsaved changes already wait for ${this.file} to be writable`,
        );
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

  /**
   * Writes `op` at the next turn of the event loop instead of now. For messages still being
   * written: a model's tool round trip stores a card as it starts and as it ends, and those
   * writes (a transaction each, the full-text index included) would otherwise sit between the
   * tool's result and the model's next request. Reads see the change at once; a later write of
   * any kind keeps the order; a kill in that moment loses only this change of a live message.
   */
  soon(op: WriteOp): void {
    if (this.closed) throw new Error('the conversation store is closed');
    // Past the bound of waiting writes, `write` refuses it as it refuses any other change.
    if (!this.pending.push(op)) return void this.write(op);
    if (this.soonQueued || this.retryTimer) return; // a retry of refused writes takes it along
    this.soonQueued = true;
    setImmediate(() => {
      this.soonQueued = false;
      this.settle();
    });
  }

  /** Writes what waits only for its moment, before a read that does not apply waiting writes. */
  settle(): void {
    if (!this.closed && !this.retryTimer && !this.pending.isEmpty) this.drain();
  }

  /** Retries unsaved changes now, and moves the WAL into the main file. */
  flush(): Outcome {
    const o = this.drain();
    if (o.ok) this.scrubWanted = !this.checkpoint();
    return o;
  }

  /** A last flush; reports what is lost. Later writes throw. */
  close(): void {
    if (this.closed) return;
    const o = this.flush();
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (!o.ok) this.report(`${this.pending.count} unsaved change(s) to the conversations are lost: ${o.message}`);
    this._onDidChangeSaveState.dispose();
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
      // The retry must not keep a finished process alive: close() makes the last attempt.
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
}
