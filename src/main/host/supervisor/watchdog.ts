/**
 * Idle-time liveness: ping every interval while the plugin has nothing to do, count a miss when a
 * ping's deadline passes with no sign of life at all, and report the plugin unresponsive after
 * `maxMissedPings` misses in a row.
 *
 * No new ping starts during a call: the G-Assist SDKs are single-threaded and answer a ping only
 * after the running command ends. But a call that arrives while a verdict is pending (a ping out,
 * or a miss already counted) waits for that verdict first: a ping sent while idle reaches the
 * plugin before the call does, so waiting is safe, and a frozen plugin then fails the call with
 * `unresponsive` instead of swallowing it until the call's own deadline.
 *
 * One repeating timer runs while the watchdog is on; a tick during a call does nothing. Pausing
 * and resuming for every call therefore costs no timer work on the hot path.
 */
import type { IDisposable } from '../../../shared/lifecycle';
import type { Timeouts } from '../../../shared/plugin';
import type { DialectSession } from '../dialects/types';

export interface WatchdogHooks {
  lastLifeAt(): number;
  answered(rttMs: number): void;
  unresponsive(reason: string): void;
}

export class Watchdog implements IDisposable {
  private interval: ReturnType<typeof setInterval> | undefined;
  /** The ping exchange under way, if any (resolves after its verdict is recorded). */
  private inflight: Promise<void> | null = null;
  private misses = 0;
  private idle = false;
  private off = false;
  /** When the plugin last became idle: the first ping waits a full interval after a call. */
  private idleSince = 0;

  constructor(
    private readonly session: DialectSession,
    private readonly t: Pick<Timeouts, 'pingIntervalMs' | 'pingTimeoutMs' | 'maxMissedPings'>,
    private readonly hooks: WatchdogHooks,
  ) {
    if (t.pingIntervalMs > 0) {
      this.interval = setInterval(() => this.tick(), t.pingIntervalMs);
      this.interval.unref?.();
    }
  }

  /** The plugin is idle: pings may go. */
  resume(): void {
    if (this.idle) return;
    this.idle = true;
    this.idleSince = Date.now();
  }

  /**
   * The plugin is about to get work: no new pings. Returns a promise only when a verdict is
   * pending (a ping out, or the plugin suspect); it resolves after the answer or the kill.
   */
  pause(): Promise<void> | undefined {
    this.idle = false;
    return this.inflight ? this.settle() : undefined;
  }

  private async settle(): Promise<void> {
    while (this.inflight) await this.inflight;
  }

  private tick(): void {
    if (this.off || !this.idle || this.inflight) return;
    // Right after a call the plugin has just shown it is alive: wait for a full interval.
    if (Date.now() - this.idleSince < this.t.pingIntervalMs * 0.9) return;
    this.ping();
  }

  private ping(): void {
    if (this.off || this.inflight) return;
    this.inflight = this.exchange().then((again) => {
      this.inflight = null;
      if (again) this.ping();
    });
  }

  /** One ping and its verdict; true when the plugin is suspect and must be asked again at once. */
  private async exchange(): Promise<boolean> {
    const sentAt = Date.now();
    const outcome = await this.session.ping(this.t.pingTimeoutMs);
    if (this.off) return false;
    if (outcome.type === 'unsupported') {
      this.stop();
      return false;
    }
    if (outcome.type === 'answered' || this.hooks.lastLifeAt() >= sentAt) {
      // A pong, or any other message: both are signs of life.
      this.misses = 0;
      if (outcome.type === 'answered') this.hooks.answered(Date.now() - sentAt);
      return false;
    }
    this.misses++;
    if (this.misses >= this.t.maxMissedPings) {
      this.stop();
      this.hooks.unresponsive(
        `missed ${this.misses} pings in a row (${this.t.pingTimeoutMs} ms deadline each) while idle`,
      );
      return false;
    }
    // Suspect: ask again at once, and keep asking until a verdict, even if a call is waiting.
    return true;
  }

  private stop(): void {
    this.off = true;
    if (this.interval) clearInterval(this.interval);
    this.interval = undefined;
  }

  dispose(): void {
    this.stop();
  }
}
