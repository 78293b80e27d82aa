/**
 * A plugin's health as the supervisor reports it: the state and why, the failure behind it, the
 * last ping round trip, the restart count and the pid. Changes are published as events, with one
 * exception: busy ⇄ ready flips once per call, and a plugin called 10,000 times a second must not
 * send 20,000 events to the UI, so within a quiet window only the latest of those is sent. Every
 * other state is sent at once (after a pending one would have been, it replaces it).
 */
import type { Failure } from '../../../shared/failures';
import { Emitter, type IDisposable } from '../../../shared/lifecycle';
import type { HealthEvent, HealthState } from '../../../shared/model';

const QUIET_WINDOW_MS = 50;

export class HealthReporter implements IDisposable {
  state: HealthState;
  reason = '';
  cause: Failure | undefined;
  pingRttMs: number | null = null;
  restarts = 0;
  private window: ReturnType<typeof setTimeout> | undefined;
  private dirty = false;
  private disposed = false;
  private readonly _onDidChange = new Emitter<HealthEvent>();
  readonly onDidChange = this._onDidChange.event;

  constructor(
    private readonly pluginId: string,
    private readonly pid: () => number | null,
    initial: HealthState,
  ) {
    this.state = initial;
  }

  get snapshot(): HealthEvent {
    const h: HealthEvent = {
      pluginId: this.pluginId,
      state: this.state,
      reason: this.reason,
      pingRttMs: this.pingRttMs,
      restarts: this.restarts,
      pid: this.pid(),
      at: Date.now(),
    };
    if (this.cause) h.failure = this.cause;
    return h;
  }

  set(state: HealthState, reason: string, cause?: Failure): void {
    if (state === this.state && reason === this.reason) return;
    this.state = state;
    this.reason = reason;
    this.cause = state === 'ready' ? undefined : cause;
    if ((state === 'busy' || state === 'ready') && this.window) {
      this.dirty = true;
      return;
    }
    this.publish();
  }

  private publish(): void {
    this.dirty = false;
    this._onDidChange.fire(this.snapshot);
    if (this.window || this.disposed) return;
    this.window = setTimeout(() => {
      this.window = undefined;
      if (this.dirty) this.publish();
    }, QUIET_WINDOW_MS);
    this.window.unref?.();
  }

  dispose(): void {
    this.disposed = true;
    if (this.window) clearTimeout(this.window);
    this._onDidChange.dispose();
  }
}
