/**
 * Idle-time liveness: ping every interval while the plugin has nothing to do, count a miss when a
 * ping's deadline passes with no sign of life at all, and report the plugin unresponsive after
 * `maxMissedPings` misses in a row. Never runs during a call: the G-Assist SDKs are
 * single-threaded and answer a ping only after the running command ends.
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
  /** Bumped on every pause: a ping answered after a pause belongs to a past generation. */
  private generation = 0;
  private misses = 0;
  private running = false;
  private off = false;

  constructor(
    private readonly session: DialectSession,
    private readonly t: Pick<Timeouts, 'pingIntervalMs' | 'pingTimeoutMs' | 'maxMissedPings'>,
    private readonly hooks: WatchdogHooks,
  ) {}

  /** Start (or resume) pinging; the first ping goes after one interval. */
  resume(): void {
    if (this.off || this.running || this.t.pingIntervalMs <= 0) return;
    this.running = true;
    this.misses = 0;
    this.schedule(this.t.pingIntervalMs);
  }

  pause(): void {
    this.running = false;
    this.generation++;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number): void {
    const gen = this.generation;
    this.timer = setTimeout(() => void this.tick(gen), ms);
  }

  private async tick(gen: number): Promise<void> {
    if (gen !== this.generation || !this.running) return;
    const sentAt = Date.now();
    const outcome = await this.session.ping(this.t.pingTimeoutMs);
    if (gen !== this.generation || !this.running) return;
    if (outcome.type === 'unsupported') {
      this.off = true;
      this.running = false;
      return;
    }
    if (outcome.type === 'answered') {
      this.misses = 0;
      const rtt = Date.now() - sentAt;
      this.hooks.answered(rtt);
      this.schedule(Math.max(0, this.t.pingIntervalMs - rtt));
      return;
    }
    if (this.hooks.lastLifeAt() >= sentAt) {
      // No pong, but the plugin said something: any message is a sign of life.
      this.misses = 0;
      this.schedule(Math.max(0, this.t.pingIntervalMs - (Date.now() - sentAt)));
      return;
    }
    this.misses++;
    if (this.misses >= this.t.maxMissedPings) {
      this.running = false;
      this.hooks.unresponsive(`missed ${this.misses} pings in a row (${this.t.pingTimeoutMs} ms deadline each) while idle`);
      return;
    }
    this.schedule(0);
  }

  dispose(): void {
    this.pause();
    this.off = true;
  }
}
