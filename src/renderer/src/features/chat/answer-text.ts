/** The words under a model's answer: what it cost, and how long the provider asked to wait. */
import type { TokenUsage } from '../../../../shared/assistant';

/** "1,234 in · 56 out"; null when the provider said nothing about tokens. */
export function usageText(u: TokenUsage | undefined): string | null {
  if (!u || (u.inputTokens === null && u.outputTokens === null)) return null;
  const n = (x: number | null): string => (x === null ? '?' : x.toLocaleString('en-US'));
  return `${n(u.inputTokens)} in · ${n(u.outputTokens)} out`;
}

/** A rate limit's wait, counting down while `secondsLeft` is above zero. */
export function waitText(afterMs: number, secondsLeft: number): string {
  const asked = afterMs >= 1000 ? `${Math.round(afterMs / 1000)} s` : `${afterMs} ms`;
  return secondsLeft > 0 ? `The provider asked to wait ${asked} before the next request: ${secondsLeft} s left.` : `The provider asked to wait ${asked} before the next request.`;
}
