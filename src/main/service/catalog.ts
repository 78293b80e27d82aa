/** The contract's doors to an MCP plugin's resources and prompts (host/catalog.ts). */
import type { CommandOutput } from '../../shared/contract';
import { failure, ok, type Result } from '../../shared/failures';
import type { PluginCatalog, PluginRegistry } from '../plugins';

/** An enabled plugin's catalog; a disabled or unknown one is refused. */
function catalog(registry: PluginRegistry, id: string): Result<PluginCatalog> {
  if (!registry.record(id)) return failure('not_found', `no plugin "${id}"`);
  if (!registry.isEnabled(id)) return failure('disabled', `${id} is disabled; enable it first`);
  const c = registry.catalog(id);
  return c ? ok(c) : failure('not_found', `${id} is not running in this host`);
}

export async function resourcesOf(registry: PluginRegistry, id: string): Promise<CommandOutput<'plugins.resources'>> {
  const c = catalog(registry, id);
  if (!c.ok) return c;
  const r = await c.value.resources();
  return r.ok ? { ok: true, resources: r.value } : r;
}

export async function promptsOf(registry: PluginRegistry, id: string): Promise<CommandOutput<'plugins.prompts'>> {
  const c = catalog(registry, id);
  if (!c.ok) return c;
  const r = await c.value.prompts();
  return r.ok ? { ok: true, prompts: r.value } : r;
}

export async function fillPrompt(
  registry: PluginRegistry,
  id: string,
  name: string,
  args: Record<string, string>,
): Promise<CommandOutput<'prompts.get'>> {
  const c = catalog(registry, id);
  if (!c.ok) return c;
  const r = await c.value.getPrompt(name, args);
  return r.ok ? { ok: true, prompt: r.value } : r;
}
