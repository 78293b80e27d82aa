/**
 * What the assistant needs from the registry, in jaato's model: for every exposed tool its JSON
 * Schema declaration; the user commands; the auto-approved tools; the system instructions; and a
 * prompt-enrichment pipeline over the plugins that subscribe to it. Everything here follows the
 * user's decisions: a disabled plugin or an unexposed tool contributes nothing.
 */
import type { PluginRegistry, ToolDeclaration } from './registry';

export interface UserCommandView {
  plugin: string;
  name: string;
  description: string;
  shareWithModel: boolean;
}

export interface EnrichmentResult {
  prompt: string;
  /** What each subscriber did, for the transcript; failures are noted and skipped. */
  notes: Array<{ plugin: string; ok: boolean; note: string }>;
}

/** The function name a model sees: unique across plugins, `[a-zA-Z0-9_]` only. */
export function qualifiedName(plugin: string, tool: string): string {
  return `${plugin}__${tool}`.replace(/[^a-zA-Z0-9_]/g, '_');
}

function usable(registry: PluginRegistry): string[] {
  return registry
    .list()
    .filter((r) => r.spec && registry.isExposed(r.id))
    .map((r) => r.id);
}

export function exposedDeclarations(registry: PluginRegistry): ToolDeclaration[] {
  const out: ToolDeclaration[] = [];
  for (const id of usable(registry)) {
    const commands = new Set(registry.record(id)?.spec?.userCommands.map((c) => c.name));
    for (const t of registry.tools(id)) {
      if (!t.exposed || commands.has(t.name)) continue;
      out.push({ qualifiedName: qualifiedName(id, t.name), plugin: id, tool: t.name, description: t.description, parameters: t.parameters });
    }
  }
  return out;
}

export function exposedUserCommands(registry: PluginRegistry): UserCommandView[] {
  const out: UserCommandView[] = [];
  for (const id of usable(registry)) {
    for (const c of registry.record(id)?.spec?.userCommands ?? []) {
      if (registry.isExposed(id, c.name)) out.push({ plugin: id, name: c.name, description: c.description, shareWithModel: c.shareWithModel });
    }
  }
  return out;
}

export function autoApprovedTools(registry: PluginRegistry): string[] {
  const out: string[] = [];
  for (const id of usable(registry)) {
    for (const t of registry.record(id)?.spec?.autoApprovedTools ?? []) {
      if (registry.isExposed(id, t)) out.push(qualifiedName(id, t));
    }
  }
  return out;
}

export function systemInstructions(registry: PluginRegistry): string {
  return usable(registry)
    .map((id) => {
      const text = registry.record(id)?.spec?.systemInstructions;
      return text ? `## ${id}\n${text.trim()}` : '';
    })
    .filter(Boolean)
    .join('\n\n');
}

/**
 * Runs the prompt through every exposed plugin that subscribes to enrichment, in order. A
 * subscriber implements `enrich_prompt {prompt}` and answers `{prompt}` (and may add `note`).
 */
export async function enrichPrompt(registry: PluginRegistry, prompt: string): Promise<EnrichmentResult> {
  const notes: EnrichmentResult['notes'] = [];
  let current = prompt;
  for (const id of usable(registry)) {
    if (!registry.record(id)?.spec?.promptEnrichment) continue;
    const outcome = await registry.call(id, 'enrich_prompt', { prompt: current }).done;
    if (!outcome.ok) {
      notes.push({ plugin: id, ok: false, note: `${outcome.code}: ${outcome.message}` });
      continue;
    }
    const data = outcome.value.data as { prompt?: unknown; note?: unknown } | null;
    if (data && typeof data.prompt === 'string') {
      current = data.prompt;
      notes.push({ plugin: id, ok: true, note: typeof data.note === 'string' ? data.note : 'enriched the prompt' });
    } else {
      notes.push({ plugin: id, ok: false, note: 'enrich_prompt did not answer {prompt: string}; ignored' });
    }
  }
  return { prompt: current, notes };
}
