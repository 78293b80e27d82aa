/**
 * Which plugin a typed `/tool` or `/plugin:tool` (slash.ts) runs: a bare tool name is the one
 * exposed tool or user command of that name (several are named, none is refused); a named
 * plugin's tool must be one it has, else the closest names it has are offered. A plugin whose
 * tools are not known yet (not running) is left to answer for itself.
 */
import { failure, type Outcome } from '../../shared/failures';
import type { PluginRegistry } from '../plugins';
import { closestTools } from './closest-tools';
import { exposedDeclarations, exposedUserCommands } from './tools';

export function slashTarget(
  registry: PluginRegistry,
  plugin: string | null,
  tool: string,
): Outcome<{ plugin: string }> {
  if (plugin) return knownTool(registry, plugin, tool);
  const owners = new Set([
    ...exposedDeclarations(registry)
      .filter((d) => d.tool === tool)
      .map((d) => d.plugin),
    ...exposedUserCommands(registry)
      .filter((c) => c.name === tool)
      .map((c) => c.plugin),
  ]);
  if (owners.size === 1) return { ok: true, plugin: [...owners][0] as string };
  if (owners.size > 1)
    return failure(
      'invalid_input',
      `several plugins have a tool "${tool}": ${[...owners].map((p) => `/${p}:${tool}`).join(', ')}`,
    );
  return failure('not_found', `no exposed tool is called "${tool}"; type / to see them`);
}

function knownTool(registry: PluginRegistry, plugin: string, tool: string): Outcome<{ plugin: string }> {
  const spec = registry.record(plugin)?.spec;
  const names = [...registry.tools(plugin).map((t) => t.name), ...(spec?.userCommands.map((c) => c.name) ?? [])];
  if (!spec || names.length === 0 || names.includes(tool)) return { ok: true, plugin };
  const near = closestTools(tool, names);
  return failure(
    'unknown_tool',
    `${spec.name} has no tool "${tool}"${near.length ? `; did you mean ${near.map((n) => `/${plugin}:${n}`).join(', ')}?` : `; its tools: ${names.map((n) => `/${plugin}:${n}`).join(', ')}`}`,
  );
}
