/** The words under a model's answer: what it cost, what its request carried, how long the provider asked to wait. */
import type { RequestInfo, TokenTotals, TokenUsage } from '../../../../shared/assistant';

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

/** A sum of tokens (a conversation, a model), "≈2,578 tokens": "≈" when any count in it was an estimate. */
export function tokenTotal(t: TokenTotals): string {
  return `${t.estimated ? '≈' : ''}${(t.inputTokens + t.outputTokens).toLocaleString('en-US')} tokens`;
}

/** The same with its parts: "≈2,578 tokens (2,573 in · 5 out)". */
export function totalsText(t: TokenTotals): string {
  return `${tokenTotal(t)} (${count(t.inputTokens)} in · ${count(t.outputTokens)} out)`;
}

/** The assistant's own tools, offered beside the plugins' (not counted among the exposed). */
const BUILTINS = new Set(['ask_user', 'find_tools']);

/** "12 tools offered", or "40 of 200 tools offered" when the budget chose among them. */
export function requestSummary(r: RequestInfo): string {
  const plugins = r.tools.filter((t) => !BUILTINS.has(t)).length;
  const chose = plugins < r.toolsTotal;
  return `${chose ? `${plugins} of ${r.toolsTotal}` : plugins} tool${(chose ? r.toolsTotal : plugins) === 1 ? '' : 's'} offered`;
}

/** A rate limit's wait, counting down while `secondsLeft` is above zero. */
export function waitText(afterMs: number, secondsLeft: number): string {
  const asked = afterMs >= 1000 ? `${Math.round(afterMs / 1000)} s` : `${afterMs} ms`;
  return secondsLeft > 0
    ? `The provider asked to wait ${asked} before the next request: ${secondsLeft} s left.`
    : `The provider asked to wait ${asked} before the next request.`;
}
