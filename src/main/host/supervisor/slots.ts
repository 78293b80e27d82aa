import type { CancelToken } from '../../../shared/cancel';

/** A counting semaphore whose waits can be abandoned: calls queue for a plugin's free slots. */
export class Slots {
  private free: number;
  private readonly waiters: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  get waiting(): number {
    return this.waiters.length;
  }

  /** Takes a free slot at once, if there is one. */
  tryAcquire(): boolean {
    if (this.free > 0 && this.waiters.length === 0) {
      this.free--;
      return true;
    }
    return false;
  }

  /** Resolves true with a slot, or false when cancelled first (no slot is held then). */
  acquire(cancel: CancelToken): Promise<boolean> {
    if (cancel.isCancelled) return Promise.resolve(false);
    if (this.free > 0) {
      this.free--;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const grant = (): void => {
        off();
        resolve(true);
      };
      this.waiters.push(grant);
      const off = cancel.onCancel(() => {
        const i = this.waiters.indexOf(grant);
        if (i !== -1) this.waiters.splice(i, 1);
        resolve(false);
      });
    });
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.free++;
  }
}
