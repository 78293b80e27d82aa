/**
 * Plugins' system instructions (plugboard.json `system_instructions`, an MCP server's
 * `instructions`), in the system prompt only for plugins with a tool offered in this request,
 * ordered by plugin id so the prompt is the same from one step to the next (providers cache a
 * stable prefix), and within a token budget: a plugin whose instructions do not fit is left out
 * whole, and the request's details say so.
 */
import type { PluginRegistry } from '../../plugins';
import type { Offered } from './offered';
import { estimateTokens } from './tokens';

export interface Instructions {
  text: string;
  from: string[];
  leftOut: string[];
}

export function instructionsFor(
  registry: PluginRegistry,
  offered: readonly Offered[],
  budgetTokens: number,
): Instructions {
  const plugins = [...new Set(offered.map((t) => t.plugin))].sort();
  const parts: string[] = [];
  const from: string[] = [];
  const leftOut: string[] = [];
  let used = 0;
  for (const id of plugins) {
    const said = registry.instructions(id)?.trim();
    if (!said) continue;
    const part = `## ${registry.record(id)?.spec?.name ?? id} (tools named ${id.replace(/[^a-zA-Z0-9_]/g, '_')}__…)\n${said}`;
    const cost = estimateTokens(part.length);
    if (used + cost > budgetTokens) {
      leftOut.push(id);
      continue;
    }
    used += cost;
    parts.push(part);
    from.push(id);
  }
  return {
    text: parts.length ? `\n\nWhat the plugins say about their tools:\n\n${parts.join('\n\n')}` : '',
    from,
    leftOut,
  };
}
