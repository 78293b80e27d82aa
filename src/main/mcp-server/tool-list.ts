/**
 * The tools Plugboard offers another app: every tool a model in the app would be offered (the
 * exposed tools of enabled plugins, of every protocol, but not the person's own commands, agent
 * plugins or prompt enrichers), named as the assistant names them for a model (`hello__say_hello`),
 * with the plugin's description, schema, and where it gives them, its annotations, title and icons.
 *
 * A name that is not offered is looked up among every tool of every plugin, so that calling a
 * switched-off or disabled one says why instead of "unknown tool".
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { failure, type Failure } from '../../shared/failures';
import type { ToolSpec } from '../../shared/plugin';
import { exposedDeclarations, pairKey, qualifiedNames, type ToolDeclaration } from '../assistant';
import type { PluginRegistry } from '../plugins';

export interface ToolPair {
  plugin: string;
  tool: string;
}

export interface OfferedTools {
  tools: Tool[];
  byName: Map<string, ToolPair & { parameters: Record<string, unknown> }>;
}

/** Made again only when the declarations change (they are the same frozen array until then). */
const made = new WeakMap<readonly ToolDeclaration[], OfferedTools>();

export function offeredTools(registry: PluginRegistry): OfferedTools {
  const declarations = exposedDeclarations(registry);
  const kept = made.get(declarations);
  if (kept) return kept;
  const tools: Tool[] = [];
  const byName: OfferedTools['byName'] = new Map();
  for (const d of declarations) {
    const spec = registry.tools(d.plugin).find((t) => t.name === d.tool);
    tools.push(toolOf(d, spec));
    byName.set(d.qualifiedName, { plugin: d.plugin, tool: d.tool, parameters: d.parameters });
  }
  const offered = { tools, byName };
  made.set(declarations, offered);
  return offered;
}

function toolOf(d: ToolDeclaration, spec: ToolSpec | undefined): Tool {
  const title = spec?.title ?? spec?.annotations?.title;
  const { title: _, ...hints } = spec?.annotations ?? {};
  return {
    name: d.qualifiedName,
    ...(title ? { title } : {}),
    description: d.description,
    inputSchema: objectSchema(d.parameters),
    ...(spec?.annotations ? { annotations: { ...(title ? { title } : {}), ...hints } } : {}),
    ...(spec?.icons?.length ? { icons: spec.icons } : {}),
  };
}

/** MCP wants an object schema at the top; a plugin's empty or type-less schema is made one. */
function objectSchema(schema: Record<string, unknown>): Tool['inputSchema'] {
  return { ...schema, type: 'object' } as Tool['inputSchema'];
}

/**
 * What a name an app calls stands for: an offered tool, or why it cannot be called. Every tool of
 * every plugin is named the way the assistant would name it, to tell "switched off" from "no such
 * tool"; a tool that is exposed but not offered (a person's command) is refused as such.
 */
export function resolveTool(
  registry: PluginRegistry,
  name: string,
): (ToolPair & { parameters: Record<string, unknown> }) | Failure {
  const offered = offeredTools(registry).byName.get(name);
  if (offered) return offered;
  const pairs: ToolPair[] = [];
  for (const r of registry.list()) {
    if (!r.spec) continue;
    for (const t of registry.tools(r.id)) pairs.push({ plugin: r.id, tool: t.name });
  }
  const names = qualifiedNames(pairs);
  const pair = pairs.find((p) => names.get(pairKey(p.plugin, p.tool)) === name);
  if (!pair) return failure('not_found', `no tool is named "${name}": tools/list names the tools Plugboard offers`);
  return whyNotOffered(registry, pair);
}

function whyNotOffered(registry: PluginRegistry, { plugin, tool }: ToolPair): Failure {
  if (!registry.isEnabled(plugin)) return failure('disabled', `${plugin} is disabled in Plugboard; enable it first`);
  if (!registry.decisions.pluginState(plugin).exposed)
    return failure('tool_not_exposed', `${plugin} is switched off in Plugboard (not exposed): nothing ran`);
  if (!registry.isExposed(plugin, tool))
    return failure('tool_not_exposed', `${plugin}:${tool} is switched off in Plugboard: nothing ran`);
  return failure(
    'tool_not_exposed',
    `${plugin}:${tool} is not offered to other apps (it is a command for people, or the plugin is an agent)`,
  );
}
