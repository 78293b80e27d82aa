/**
 * A plugin's health as the supervisor reports it: the state and why, the failure behind it, the
 * last ping round trip, the restart count and the pid. Every change is checked against the state
 * machine (health-states.ts). Changes are published as events, with one exception: busy ⇄ ready
 * flips once per call, and a plugin called 10,000 times a second must not send 20,000 events to
 * the UI, so within a quiet window only the latest of those is sent. Every other state is sent at
 * once (after a pending one would have been, it replaces it).
 */
import type { Failure } from '../../../shared/failures';
import { Disposable, Emitter, MutableDisposable, timeoutDisposable } from '../../../shared/lifecycle';
import type { HealthEvent, HealthNote, HealthState } from '../../../shared/plugin';
import { canTransition, type HealthTransition } from './health-states';

const QUIET_WINDOW_MS = 50;
/** How many of the last noted moves travel with each health event: enough for a glance. */
export const RECENT_NOTES = 5;

export class HealthReporter extends Disposable {
  private current: HealthState;
  private why = '';
  private cause: Failure | undefined;
  private pingRttMs: number | null = null;
  private restarts = 0;
  /** The last noted moves (crashes, kills, restarts, stops), oldest first. */
  private readonly recent: HealthNote[] = [];
  private readonly window = this._register(new MutableDisposable());
  private dirty = false;
  private readonly _onDidChange = this._register(new Emitter<HealthEvent>());
  /** State changes as published (busy ⇄ ready coalesced). */
  readonly onDidChange = this._onDidChange.event;
  private readonly _onDidTransition = this._register(new Emitter<HealthTransition>());
  /** Every move from one state to another, none coalesced: the plugin's health history. */
  readonly onDidTransition = this._onDidTransition.event;

  constructor(
    private readonly pluginId: string,
    private readonly pid: () => number | null,
    initial: HealthState,
    /** A change the state machine does not allow: a supervisor bug, reported, not shown. */
    private readonly illegal: (from: HealthState, to: HealthState, reason: string) => void,
    /** Which moves are kept in `recent`. */
    private readonly noted: (t: HealthTransition) => boolean = () => false,
  ) {
    super();
    this.current = initial;
  }

  get state(): HealthState {
    return this.current;
  }

  get snapshot(): HealthEvent {
    const h: HealthEvent = {
      pluginId: this.pluginId,
      state: this.current,
      reason: this.why,
      pingRttMs: this.current === 'ready' || this.current === 'busy' ? this.pingRttMs : null,
      restarts: this.restarts,
      pid: this.pid(),
      at: Date.now(),
    };
    if (this.cause) h.failure = this.cause;
    if (this.recent.length > 0) h.recent = [...this.recent];
    return h;
  }

  /** The watchdog's last ping round trip (shown while the plugin is ready or busy). */
  pinged(rttMs: number): void {
    this.pingRttMs = rttMs;
  }

  /** A restart, automatic or a recycle: counted, and shown with the state. */
  countRestart(): void {
    this.restarts++;
  }

  /** A person's start: the count begins again. */
  resetRestarts(): void {
    this.restarts = 0;
  }

  /** Moves to `state`; returns false (and reports it) when the state machine forbids the move. */
  set(state: HealthState, reason: string, cause?: Failure): boolean {
    if (state === this.current && reason === this.why) return true;
    if (!canTransition(this.current, state)) {
      this.illegal(this.current, state, reason);
      return false;
    }
    // A new process has not been pinged yet: no figure of the old one survives a restart.
    if (state === 'starting' || state === 'stopped' || state === 'disabled') this.pingRttMs = null;
    const from = this.current;
    this.current = state;
    this.why = reason;
    this.cause = state === 'ready' ? undefined : cause;
    if (from !== state) {
      const t: HealthTransition = { from, to: state, reason, ...(cause ? { cause } : {}), at: Date.now() };
      if (this.noted(t)) {
        this.recent.push({ state, reason, at: t.at });
        if (this.recent.length > RECENT_NOTES) this.recent.shift();
      }
      this._onDidTransition.fire(t);
    }
    if ((state === 'busy' || state === 'ready') && this.window.value) {
      this.dirty = true;
      return true;
    }
    this.publish();
    return true;
  }

  private publish(): void {
    this.dirty = false;
    this._onDidChange.fire(this.snapshot);
    if (this.window.value || this.isDisposed) return;
    this.window.value = timeoutDisposable(
      () => {
        this.window.clear();
        if (this.dirty) this.publish();
      },
      QUIET_WINDOW_MS,
      { unref: true },
    );
  }
}
