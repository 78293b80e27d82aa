/**
 * When to restart a plugin that died on its own: after 1 s, 5 s, 30 s (the delays are per
 * plugin), at most that many tries, the budget given back after a stable stretch of running
 * (60 s by default). A user start resets it; a user stop or a disable means no restart at all,
 * which the supervisor decides before asking.
 */
import type { Timeouts } from '../../../shared/plugin';

export type RestartDecision =
  { restart: true; delayMs: number; attempt: number; of: number } | { restart: false; attempts: number };

export class RestartPolicy {
  private attempts = 0;
  private readyAt = 0;

  constructor(private readonly t: Pick<Timeouts, 'restartDelaysMs' | 'restartBudgetResetMs'>) {}

  /** The plugin is up; a later crash this long after it does not count against the budget. */
  ready(at = Date.now()): void {
    this.readyAt = at;
  }

  reset(): void {
    this.attempts = 0;
  }

  /** Asked once per death: the stable stretch ends there, so failed relaunches keep counting. */
  next(now = Date.now()): RestartDecision {
    if (this.readyAt > 0 && now - this.readyAt >= this.t.restartBudgetResetMs) this.attempts = 0;
    this.readyAt = 0;
    const delays = this.t.restartDelaysMs;
    if (this.attempts >= delays.length) return { restart: false, attempts: this.attempts };
    const delayMs = delays[this.attempts++] as number;
    return { restart: true, delayMs, attempt: this.attempts, of: delays.length };
  }
}
