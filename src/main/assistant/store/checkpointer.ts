/**
 * Moves the WAL into the main file from a worker thread, so the main thread never waits for it.
 *
 * With synchronous = NORMAL a commit only appends to the WAL; the fsyncs happen when the WAL is
 * copied back into the main file (a checkpoint). SQLite runs that, by default, inside whichever
 * commit passes 1000 pages, on the main thread (better-sqlite3 is synchronous): measured with a
 * steady stream of writes, that put a write's p99 at 16–24 ms (2–9 ms with this worker), and every
 * HTTP request waited behind it. Here a second connection in a worker runs PASSIVE checkpoints
 * (they never block a writer) and the main connection's own checkpoints are turned off. A checkpoint's fsyncs still slow down writes made
 * while they run (the file system commits its journal), so the worker waits for a pause in the
 * writing (200 ms without a change to the WAL) and only checkpoints mid-burst past 4 MiB.
 *
 * If the worker cannot start or dies, the main connection checkpoints again as SQLite does by
 * default: slower writes now and then, but the WAL never grows without bound.
 * The worker's code is plain CommonJS run with `eval`, not a file of its own: it then needs no
 * bundler setup in electron-vite, and loads better-sqlite3 from the path the main thread resolved.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { IDisposable } from '../../../shared/lifecycle';
import { nativeOptions } from './native';

const IDLE_MS = 200;
const MAX_WAL_BYTES = 4 * 1024 * 1024;
const POLL_MS = 50;
const STOP_DEADLINE_MS = 2000;

const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const Database = require(workerData.module);
const { file, options, idleMs, maxBytes, pollMs, done } = workerData;
const db = new Database(file, options);
const flag = new Int32Array(done);
let seen = -1;
let changedAt = 0;
let folded = -1;
const timer = setInterval(() => {
  try {
    const st = fs.statSync(file + '-wal');
    const now = Date.now();
    if (st.mtimeMs !== seen) {
      seen = st.mtimeMs;
      changedAt = now;
    }
    const idle = now - changedAt >= idleMs && folded !== seen && st.size > 0;
    if (idle || st.size >= maxBytes) {
      db.pragma('wal_checkpoint(PASSIVE)');
      folded = seen;
    }
  } catch {
    // no WAL right now, or the disk refused: the next poll tries again
  }
}, pollMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
  parentPort.close();
});
`;

export class Checkpointer implements IDisposable {
  private readonly worker: Worker;
  private readonly done = new Int32Array(new SharedArrayBuffer(4));
  private stopped = false;

  constructor(
    private readonly db: Database.Database,
    file: string,
  ) {
    db.pragma('wal_autocheckpoint = 0');
    const { nativeBinding } = nativeOptions();
    this.worker = new Worker(WORKER, {
      eval: true,
      workerData: {
        module: createRequire(import.meta.url).resolve('better-sqlite3'),
        file,
        options: nativeBinding ? { nativeBinding } : {},
        idleMs: IDLE_MS,
        maxBytes: MAX_WAL_BYTES,
        pollMs: POLL_MS,
        done: this.done.buffer,
      },
    });
    this.worker.unref();
    this.worker.on('error', () => this.fallBack());
    this.worker.on('exit', () => this.fallBack());
  }

  private fallBack(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
  }

  /** Stops the worker and waits (up to 2 s) until its connection is closed. */
  dispose(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.worker.postMessage('stop');
    // Blocking on purpose: the store closes its own connection next, and the last connection to
    // close is the one that folds the WAL in and deletes it.
    if (Atomics.wait(this.done, 0, 0, STOP_DEADLINE_MS) === 'timed-out') void this.worker.terminate();
  }
}
