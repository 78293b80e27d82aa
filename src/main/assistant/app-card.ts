/**
 * Which cards show an MCP App: a call of an MCP plugin's tool whose `_meta.ui` names one (the
 * registry knows it once the server has listed its tools). Other protocols' plugins never have
 * Apps, whatever their manifests say.
 */
import type { AppCard } from '../../shared/apps';
import type { PluginRegistry } from '../plugins';

/** The App a call's card shows, where its tool has one. */
export function appCardOf(registry: PluginRegistry, plugin: string, tool: string): { app?: AppCard } {
  if (registry.record(plugin)?.spec?.dialect !== 'mcp') return {};
  const uri = registry.tools(plugin).find((t) => t.name === tool)?.ui?.resourceUri;
  return uri ? { app: { resourceUri: uri } } : {};
}
