/**
 * A call running on an instance (call-runner.ts): its two deadlines (inactivity, which every
 * message for the call resets, and the hard cap), the sink its dialect reports to, and the one
 * timer that watches the deadlines of all of a plugin's running calls.
 *
 * Why one timer: a timer set and cleared per call was a sizeable part of a call's cost in the host.
 * The timer is set for the earliest deadline; a call that starts with a later one (the usual case,
 * calls one after another) costs no timer work, and activity only records a time. When the timer
 * fires, calls past a deadline end with `timeout` and it is set again for the next one. It keeps
 * the process alive only while a call runs.
 */
import type { CancelSource } from '../../../shared/cancel';
import { failure } from '../../../shared/failures';
import type { CallEvent } from '../../../shared/plugin';
import type { CallSink } from '../dialects/types';
import type { Instance } from './instance';

export interface RunningCallOptions {
  owner: string | undefined;
  inactivityMs: number;
  hardCapMs: number;
  /** Read at each chunk, as the caller's options hold it. */
  events: { onEvent?(event: CallEvent): void };
}

/** One running call: a handful of fields and methods, not closures made per call. */
export class RunningCall implements CallSink {
  /** Its outcome is decided: late chunks are dropped. */
  finished = false;
  readonly owner: string | undefined;
  private lastActivity: number;
  private capAt: number;
  /** Since when the host holds the call (CallHandle.hold), or null. */
  private heldSince: number | null = null;
  /** When a held call is looked at again (its deadlines stand still meanwhile). */
  private recheckAt = 0;

  constructor(
    private readonly deadlines: Deadlines,
    readonly callId: string,
    readonly inst: Instance,
    readonly cancel: CancelSource,
    private readonly o: RunningCallOptions,
  ) {
    this.owner = o.owner;
    this.lastActivity = Date.now();
    this.capAt = this.lastActivity + o.hardCapMs;
  }

  stream(data: unknown): void {
    if (this.finished) return;
    this.lastActivity = Date.now();
    this.o.events.onEvent?.({ type: 'stream', callId: this.callId, data });
  }

  activity(): void {
    this.lastActivity = Date.now();
  }

  /** While held, the deadlines stand still; the time held moves both on. */
  hold(held: boolean): void {
    if (held === (this.heldSince !== null)) return;
    const now = Date.now();
    if (held) {
      this.heldSince = now;
      this.recheckAt = now + this.o.inactivityMs;
      return;
    }
    this.capAt += now - (this.heldSince as number);
    this.lastActivity = now;
    this.heldSince = null;
    this.deadlines.wake(this.dueAt());
  }

  /** When its deadlines must next be looked at, if nothing happens meanwhile. */
  dueAt(): number {
    if (this.heldSince !== null) return this.recheckAt;
    return Math.min(this.lastActivity + this.o.inactivityMs, this.capAt);
  }

  /** Ends the call with `timeout` if a deadline has passed; else returns when to look again. */
  check(now: number): number | null {
    if (this.heldSince !== null) {
      if (now >= this.recheckAt) this.recheckAt = now + this.o.inactivityMs;
      return this.recheckAt;
    }
    if (now >= this.capAt) {
      this.cancel.cancel(failure('timeout', `the call passed its ${this.o.hardCapMs} ms cap`));
      return null;
    }
    if (now - this.lastActivity >= this.o.inactivityMs) {
      this.cancel.cancel(failure('timeout', `no answer or stream chunk from the plugin for ${this.o.inactivityMs} ms`));
      return null;
    }
    return this.dueAt();
  }
}

/** The one timer over the deadlines of a plugin's running calls (those `calls` lists). */
export class Deadlines {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;

  constructor(private readonly calls: ReadonlyMap<string, RunningCall>) {}

  /** A call starts (it is in `calls` already): its deadlines are watched while it is listed. */
  add(call: RunningCall): void {
    if (this.calls.size === 1) this.timer?.ref();
    this.wake(call.dueAt());
  }

  /** A call ended (it is out of `calls`); with none left, the timer keeps nothing alive. */
  ended(): void {
    if (this.calls.size === 0) this.timer?.unref();
  }

  /** Makes sure the timer fires by `at`. */
  wake(at: number): void {
    if (at >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.sweep(), Math.max(0, at - Date.now()));
    if (this.calls.size === 0) this.timer.unref();
  }

  private sweep(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const call of [...this.calls.values()]) {
      const at = call.finished ? null : call.check(now);
      if (at !== null && at < next) next = at;
    }
    if (next !== Infinity) this.wake(next);
  }
}
