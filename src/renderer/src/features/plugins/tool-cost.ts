/**
 * What a plugin's declarations cost every model request (issue 9: the cost of "too many tools" is
 * shown where it is decided, beside the exposure switches). Pure, so it is tested without a page.
 */
import type { ToolView } from '../../../../shared/contract';

/** The tokens the exposed tools' declarations add to each request; user commands are never offered. */
export function exposedTokens(tools: readonly ToolView[]): number {
  return tools.reduce((sum, t) => (t.exposed && !t.userCommand ? sum + t.declarationTokens : sum), 0);
}

/** "~1,240 tokens": an estimate, so it says "about" with its tilde. */
export function tokensText(n: number): string {
  return `~${n.toLocaleString('en-US')} token${n === 1 ? '' : 's'}`;
}

/** The line at the top of the Tools tab, after "Exposed tools". */
export function costLine(tools: readonly ToolView[]): string {
  const n = exposedTokens(tools);
  return n === 0 ? 'add nothing to requests (none is exposed)' : `add ${tokensText(n)} to every request`;
}
