/**
 * Installed Mehrhof agent plugins (`type: agent`, first call `agent.init`) as models a
 * conversation can use, listed beside the configured ones. Their names are `agent:<plugin id>`:
 * stable while the plugin is installed, and never taken by a model the person names.
 */
import type { AgentModelRow, ModelView } from '../../../shared/assistant';
import { AGENT_MODEL_PREFIX } from '../../../shared/assistant';
import type { PluginRegistry } from '../../plugins';

export function isAgentPlugin(registry: PluginRegistry, id: string): boolean {
  return registry.record(id)?.spec?.init?.method === 'agent.init';
}

/** The plugin an `agent:<id>` model name stands for, when it is an installed, enabled agent. */
export function agentPluginOf(registry: PluginRegistry, modelName: string | null | undefined): string | undefined {
  if (!modelName?.startsWith(AGENT_MODEL_PREFIX)) return undefined;
  const id = modelName.slice(AGENT_MODEL_PREFIX.length);
  return isAgentPlugin(registry, id) && registry.isEnabled(id) ? id : undefined;
}

export function agentModels(registry: PluginRegistry): ModelView[] {
  return registry
    .list()
    .filter((r) => r.spec?.init?.method === 'agent.init' && registry.isEnabled(r.id))
    .map((r) => ({
      name: `${AGENT_MODEL_PREFIX}${r.id}`,
      provider: 'agent-plugin',
      baseURL: null,
      model: r.spec?.name ?? r.id,
      hasKey: false,
      isDefault: false,
    }));
}

/**
 * Every installed agent plugin, enabled or not: what keeps one from answering is cheap to know
 * here (switched off, a required setting missing), and saying it beats leaving it out.
 */
export function agentModelRows(registry: PluginRegistry): AgentModelRow[] {
  return registry
    .list()
    .filter((r) => isAgentPlugin(registry, r.id))
    .map((r) => {
      const row: AgentModelRow = {
        name: `${AGENT_MODEL_PREFIX}${r.id}`,
        kind: 'agent',
        plugin: r.id,
        title: r.spec?.name ?? r.id,
        available: true,
      };
      const missing = registry.missingSettings(r.id);
      if (!registry.isEnabled(r.id))
        return { ...row, available: false, reason: `disabled (plugboard plugins enable ${r.id})` };
      if (missing.length > 0)
        return {
          ...row,
          available: false,
          reason: `needs settings: ${missing.join(', ')} (plugboard plugins config ${r.id} KEY=VALUE)`,
        };
      return row;
    });
}
