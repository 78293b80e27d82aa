/**
 * A cancellation token for the call hot path.
 *
 * Why not AbortController: in Node 20 creating one costs about 4 µs and each EventTarget
 * listener a few more; a call used to create one and attach three listeners, a sizeable part of
 * a 60 µs round trip. This is a flag and a short callback list.
 */
export interface CancelToken {
  readonly isCancelled: boolean;
  /** Why it was cancelled (a Failure, in the host). */
  readonly reason: unknown;
  /** Runs `fn` once on cancel (at once if already cancelled); returns the unsubscribe. */
  onCancel(fn: (reason: unknown) => void): () => void;
}

const noop = (): void => {};

/** The owner's side: hand out `token`, keep `cancel`. */
export class CancelSource implements CancelToken {
  private cancelled = false;
  private why: unknown;
  private listeners: Array<(reason: unknown) => void> | null = null;

  get token(): CancelToken {
    return this;
  }

  get isCancelled(): boolean {
    return this.cancelled;
  }

  get reason(): unknown {
    return this.why;
  }

  onCancel(fn: (reason: unknown) => void): () => void {
    if (this.cancelled) {
      fn(this.why);
      return noop;
    }
    (this.listeners ??= []).push(fn);
    return () => {
      const l = this.listeners;
      if (!l) return;
      const i = l.indexOf(fn);
      if (i === -1) return;
      // In place, keeping the order (listeners run in the order they came); splice would make an
      // array of the removed one, on every call's hot path.
      for (let j = i + 1; j < l.length; j++) l[j - 1] = l[j] as (reason: unknown) => void;
      l.pop();
    };
  }

  /** Cancels with a reason; later calls do nothing. */
  cancel(reason: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.why = reason;
    const l = this.listeners;
    this.listeners = null;
    if (l) for (const fn of l) fn(reason);
  }
}

export const NEVER_CANCELLED: CancelToken = { isCancelled: false, reason: undefined, onCancel: () => noop };

/**
 * Cancels `source` when `signal` aborts (at once if it has); returns the unlink, which removes
 * the listener so a long-lived signal does not collect one per call.
 */
export function cancelOnAbort(signal: AbortSignal | undefined, source: CancelSource, reason: unknown): () => void {
  if (!signal) return noop;
  if (signal.aborted) {
    source.cancel(reason);
    return noop;
  }
  const onAbort = (): void => source.cancel(reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
