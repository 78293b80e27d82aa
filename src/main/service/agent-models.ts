/**
 * Installed agent plugins are models too (assistant/agent/agents.ts), listed by `models.list`; a
 * window learns that its list changed from `models.changed`. The model store fires that for the
 * models it keeps, and this fires it when the agent plugins change: one installed, uninstalled,
 * enabled or disabled shows in (or leaves) every window's model menu without a reload (issue 21).
 */
import type { IDisposable } from '../../shared/lifecycle';
import { agentModels } from '../assistant';
import type { PluginRegistry } from '../plugins';

function agentKey(registry: PluginRegistry): string {
  return agentModels(registry)
    .map((m) => `${m.name}\0${m.model}`)
    .join('\n');
}

/** Calls `changed` after each registry change that changes the list of agent models. */
export function watchAgentModels(registry: PluginRegistry, changed: (reason: string) => void): IDisposable {
  let last = agentKey(registry);
  return registry.onDidChange((c) => {
    const now = agentKey(registry);
    if (now === last) return;
    last = now;
    changed(`agent plugin ${c.id}: ${c.reason}`);
  });
}
