/**
 * MCP prompts as palette entries (issue 9), the pure part: each prompt of a running, enabled MCP
 * plugin is a command for the person, never a tool for a model. Its arguments become a schema of
 * strings, so the palette's form machinery asks for them. Tested without a page.
 */
import type { PaletteEntry, PluginView } from '../../../shared/contract';
import type { PromptView } from '../../../shared/mcp-features';

/** The JSON Schema of a prompt's arguments: MCP prompt arguments are strings, some required. */
export function promptSchema(p: PromptView): Record<string, unknown> {
  const properties = Object.fromEntries(
    p.arguments.map((a) => [a.name, { type: 'string', ...(a.description ? { description: a.description } : {}) }]),
  );
  const required = p.arguments.filter((a) => a.required).map((a) => a.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

export function promptEntry(plugin: Pick<PluginView, 'id' | 'name'>, p: PromptView): PaletteEntry {
  return {
    kind: 'prompt',
    plugin: plugin.id,
    pluginName: plugin.name,
    name: p.name,
    description: p.description ?? p.title ?? '',
    parameters: promptSchema(p),
    autoApproved: false,
    ...(p.icon ? { icon: p.icon } : {}),
  };
}

/**
 * Prompts are read from a running server only: listing them must not start a plugin the person
 * stopped, and a persistent MCP server runs from the app's start anyway.
 */
export function promptSources(plugins: readonly PluginView[]): PluginView[] {
  return plugins.filter(
    (p) => p.dialect === 'mcp' && p.enabled && (p.health.state === 'ready' || p.health.state === 'busy'),
  );
}

/** The form's values as prompt arguments: strings, the empty ones left out. */
export function promptArgs(args: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(args))
    if (v !== undefined && v !== null && v !== '') out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return out;
}

/**
 * The prompt a typed `/plugin:name` stands for (Tab completes a prompt's name like a tool's): a
 * prompt is not a call the server could run, so the text never goes to it.
 */
export function typedPrompt(text: string, entries: readonly PaletteEntry[]): PaletteEntry | undefined {
  const m = /^\/([^\s:]+):(\S+)(?:\s|$)/.exec(text.trim());
  if (!m) return undefined;
  return entries.find((e) => e.kind === 'prompt' && e.plugin === m[1] && e.name === m[2]);
}
