/**
 * Disposables and typed events, after VS Code's `base/common/lifecycle.ts`: whatever owns a
 * process, timer or listener is disposable, and its owner disposes it. A class that owns several
 * extends `Disposable` and hands each to `_register`, so one `dispose()` releases them all, in
 * reverse order of registration; a slot that holds one thing at a time (a watchdog, a timer) is a
 * `MutableDisposable`, which disposes the old value when given a new one. Events broadcast state
 * (`onDid…`); they do not drive control flow.
 */

export interface IDisposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): IDisposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/**
 * A disposable for a timer: clears it when disposed. `unref` (Node only) lets the process exit
 * while the timer is pending, for timers that only tidy up.
 */
export function timeoutDisposable(fn: () => void, ms: number, opts: { unref?: boolean } = {}): IDisposable {
  const t = setTimeout(fn, ms);
  if (opts.unref) (t as { unref?: () => void }).unref?.();
  return toDisposable(() => clearTimeout(t));
}

export class DisposableStore implements IDisposable {
  private items = new Set<IDisposable>();
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Adds `d`; disposes it at once when the store is already disposed. */
  add<T extends IDisposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.items.add(d);
    return d;
  }

  /** Removes `d` and disposes it. */
  delete(d: IDisposable): void {
    if (this.items.delete(d)) d.dispose();
  }

  /** Disposes everything held (last added first), and stays usable. */
  clear(): void {
    const items = [...this.items].reverse();
    this.items.clear();
    for (const d of items) d.dispose();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.clear();
  }
}

/**
 * Base class of anything that owns resources: `_register` them, and `dispose()` releases them.
 * Subclasses that need more than that override `dispose` and call `super.dispose()`.
 */
export abstract class Disposable implements IDisposable {
  private readonly _store = new DisposableStore();

  protected get isDisposed(): boolean {
    return this._store.isDisposed;
  }

  protected _register<T extends IDisposable>(d: T): T {
    return this._store.add(d);
  }

  dispose(): void {
    this._store.dispose();
  }
}

/** Holds at most one disposable; setting another (or undefined) disposes the one held. */
export class MutableDisposable<T extends IDisposable> implements IDisposable {
  private current: T | undefined;
  private disposed = false;

  get value(): T | undefined {
    return this.current;
  }

  set value(next: T | undefined) {
    if (this.disposed) {
      next?.dispose();
      return;
    }
    if (next === this.current) return;
    const old = this.current;
    this.current = next;
    old?.dispose();
  }

  /** Disposes the value held, leaving the slot empty. */
  clear(): void {
    this.value = undefined;
  }

  dispose(): void {
    this.clear();
    this.disposed = true;
  }
}

export type Listener<T> = (value: T) => void;
export type Event<T> = (listener: Listener<T>) => IDisposable;

/**
 * One event source. A throwing listener does not stop the others; the error is reported to
 * `onListenerError` (console by default) so a bug in a UI subscriber cannot break the host.
 */
export class Emitter<T> implements IDisposable {
  private listeners: Listener<T>[] = [];
  private disposed = false;

  constructor(private readonly onListenerError: (e: unknown) => void = (e) => console.error(e)) {}

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return toDisposable(() => {});
    this.listeners.push(listener);
    return toDisposable(() => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    });
  };

  get hasListeners(): boolean {
    return this.listeners.length > 0;
  }

  fire(value: T): void {
    for (const l of this.listeners) {
      try {
        l(value);
      } catch (e) {
        this.onListenerError(e);
      }
    }
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}

/** Forwards every event of `source` to `target` while the returned disposable lives. */
export function relay<T>(source: Event<T>, target: Emitter<T>): IDisposable {
  return source((v) => target.fire(v));
}

/** Resolves after `ms`, or at once when the signal aborts. The timer never outlives the wait. */
export function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
