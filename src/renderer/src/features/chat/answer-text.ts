/** The words under a model's answer: what it cost, and how long the provider asked to wait. */
import type { TokenTotals, TokenUsage } from '../../../../shared/assistant';

const count = (x: number | null): string => (x === null ? '?' : x.toLocaleString('en-US'));

/**
 * "1,234 in · 56 out", or "≈1,234 in · ≈56 out" when the provider gave no counts and these are
 * the server's estimates; null when there is nothing to say.
 */
export function usageText(u: TokenUsage | undefined): string | null {
  if (!u || (u.inputTokens === null && u.outputTokens === null)) return null;
  const about = u.estimated ? '≈' : '';
  return `${about}${count(u.inputTokens)} in · ${about}${count(u.outputTokens)} out`;
}

/** A sum of tokens (a conversation, a model): "≈" in front when any count in it was an estimate. */
export function totalsText(t: TokenTotals): string {
  return `${t.estimated ? '≈' : ''}${(t.inputTokens + t.outputTokens).toLocaleString('en-US')} tokens (${count(t.inputTokens)} in · ${count(t.outputTokens)} out)`;
}

/** A rate limit's wait, counting down while `secondsLeft` is above zero. */
export function waitText(afterMs: number, secondsLeft: number): string {
  const asked = afterMs >= 1000 ? `${Math.round(afterMs / 1000)} s` : `${afterMs} ms`;
  return secondsLeft > 0 ? `The provider asked to wait ${asked} before the next request: ${secondsLeft} s left.` : `The provider asked to wait ${asked} before the next request.`;
}
