/** The contract's doors to an MCP plugin's resources and prompts (host/features.ts). */
import type { IconSpec, IconView } from '../../shared/apps';
import type { CommandOutput } from '../../shared/contract';
import { failure, ok, type Result } from '../../shared/failures';
import type { ServerFeatures, PluginRegistry } from '../plugins';

/** An enabled plugin's prompts and resources; a disabled or unknown one is refused. */
function featuresOf(registry: PluginRegistry, id: string): Result<ServerFeatures> {
  if (!registry.record(id)) return failure('not_found', `no plugin "${id}"`);
  if (!registry.isEnabled(id)) return failure('disabled', `${id} is disabled; enable it first`);
  const c = registry.host.features(id);
  return c ? ok(c) : failure('not_found', `${id} is not running in this host`);
}

export async function resourcesOf(registry: PluginRegistry, id: string): Promise<CommandOutput<'plugins.resources'>> {
  const c = featuresOf(registry, id);
  if (!c.ok) return c;
  const r = await c.value.resources();
  return r.ok ? { ok: true, resources: r.value } : r;
}

/** `icon`: a prompt's icons made safe to show (icons.ts); the server's own `icons` never reach the screen. */
export async function promptsOf(
  registry: PluginRegistry,
  id: string,
  icon: (icons: IconSpec[] | undefined) => IconView | undefined = () => undefined,
): Promise<CommandOutput<'plugins.prompts'>> {
  const c = featuresOf(registry, id);
  if (!c.ok) return c;
  const r = await c.value.prompts();
  if (!r.ok) return r;
  const prompts = r.value.map(({ icons, ...p }) => {
    const shown = icon(icons);
    return shown ? { ...p, icon: shown } : p;
  });
  return { ok: true, prompts };
}

export async function fillPrompt(
  registry: PluginRegistry,
  id: string,
  name: string,
  args: Record<string, string>,
): Promise<CommandOutput<'prompts.get'>> {
  const c = featuresOf(registry, id);
  if (!c.ok) return c;
  const r = await c.value.getPrompt(name, args);
  return r.ok ? { ok: true, prompt: r.value } : r;
}
