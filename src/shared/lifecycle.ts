/**
 * Disposables and typed events, after VS Code's `lifecycle.ts`: whatever owns a process, timer or
 * listener is disposable, and its owner disposes it. Events broadcast state (`onDid…`); they do
 * not drive control flow.
 */

export interface Disposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

export class DisposableStore implements Disposable {
  private items = new Set<Disposable>();
  private disposed = false;

  add<T extends Disposable>(d: T): T {
    if (this.disposed) d.dispose();
    else this.items.add(d);
    return d;
  }

  delete(d: Disposable): void {
    if (this.items.delete(d)) d.dispose();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const items = [...this.items];
    this.items.clear();
    for (const d of items) d.dispose();
  }
}

export type Listener<T> = (value: T) => void;
export type Event<T> = (listener: Listener<T>) => Disposable;

/**
 * One event source. A throwing listener does not stop the others; the error is reported to
 * `onListenerError` (console by default) so a bug in a UI subscriber cannot break the host.
 */
export class Emitter<T> implements Disposable {
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
