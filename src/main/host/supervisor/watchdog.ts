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
 */
import type { Disposable } from '../../../shared/lifecycle';
import type { Timeouts } from '../../../shared/model';
import type { DialectSession } from '../dialects/types';

export interface WatchdogHooks {
  lastLifeAt(): number;
  answered(rttMs: number): void;
  unresponsive(reason: string): void;
}

export class Watchdog implements Disposable {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The ping exchange under way, if any (resolves after its verdict is recorded). */
  private inflight: Promise<void> | null = null;
  private misses = 0;
  private scheduling = false;
  private off = false;

  constructor(
    private readonly session: DialectSession,
    private readonly t: Pick<Timeouts, 'pingIntervalMs' | 'pingTimeoutMs' | 'maxMissedPings'>,
    private readonly hooks: WatchdogHooks,
  ) {}

  /** Start (or resume) pinging; the next ping goes after one interval. */
  resume(): void {
    if (this.off || this.scheduling || this.t.pingIntervalMs <= 0) return;
    this.scheduling = true;
    if (!this.inflight) this.schedule(this.t.pingIntervalMs);
  }

  /**
   * Stops starting new pings, and resolves once no verdict is pending: at once when the plugin
   * is above suspicion, after the answer (or the kill) when a ping is out or a miss is counted.
   */
  async pause(): Promise<void> {
    this.scheduling = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.inflight) await this.inflight;
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.ping();
    }, ms);
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
      this.off = true;
      return false;
    }
    if (outcome.type === 'answered' || this.hooks.lastLifeAt() >= sentAt) {
      // A pong, or any other message: both are signs of life.
      this.misses = 0;
      const rtt = Date.now() - sentAt;
      if (outcome.type === 'answered') this.hooks.answered(rtt);
      if (this.scheduling) this.schedule(Math.max(0, this.t.pingIntervalMs - rtt));
      return false;
    }
    this.misses++;
    if (this.misses >= this.t.maxMissedPings) {
      this.off = true;
      this.hooks.unresponsive(`missed ${this.misses} pings in a row (${this.t.pingTimeoutMs} ms deadline each) while idle`);
      return false;
    }
    // Suspect: ask again at once, and keep asking until a verdict, even if a call is waiting.
    return true;
  }

  dispose(): void {
    this.off = true;
    this.scheduling = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
