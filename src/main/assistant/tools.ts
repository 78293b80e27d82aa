/**
 * What the assistant needs from the registry, in jaato's model: for every exposed tool its JSON
 * Schema declaration and its model-facing name; the user commands; the auto-approved tools. A
 * plugin's prompt enricher is a hook, not a tool: it is neither offered nor listed. Everything
 * here follows the user's decisions: a disabled plugin or an unexposed tool contributes nothing.
 */
import { createHash } from 'node:crypto';
import { visibleToModel } from '../../shared/apps';
import type { PluginRegistry } from '../plugins';

export interface ToolDeclaration {
  /** `plugin__tool`: unique across plugins, safe as a model function name. */
  qualifiedName: string;
  plugin: string;
  tool: string;
  description: string;
  parameters: Record<string, unknown>;
  /** G-Assist `tags`: words people use for the tool. */
  tags?: string[];
}

export interface UserCommandView {
  plugin: string;
  name: string;
  description: string;
  shareWithModel: boolean;
}

const UNSAFE = /[^a-zA-Z0-9_]/g;

/** Longest function name the model APIs accept. */
const MAX_NAME = 64;

/**
 * The function names a model sees for (plugin, tool) pairs: `[a-zA-Z0-9_]` only, at most 64
 * characters, and unique. `<plugin>__<tool>` with other characters made `_` is the readable
 * name; where two pairs would get the same one (`my-plugin` and `my_plugin`, or `a__b`:`c` and
 * `a`:`b__c`) or it is too long, each of them gets a short hash of its real pair appended. The
 * result depends only on the set of pairs, not on their order.
 */
export function qualifiedNames(pairs: ReadonlyArray<{ plugin: string; tool: string }>): Map<string, string> {
  const bases = pairs.map((p) => `${p.plugin}__${p.tool}`.replace(UNSAFE, '_'));
  const uses = new Map<string, number>();
  for (const b of bases) uses.set(b, (uses.get(b) ?? 0) + 1);
  const out = new Map<string, string>();
  for (const [i, p] of pairs.entries()) {
    const b = bases[i] as string;
    const key = pairKey(p.plugin, p.tool);
    if (uses.get(b) === 1 && b.length <= MAX_NAME) out.set(key, b);
    else out.set(key, `${b.slice(0, MAX_NAME - 9)}_${createHash('sha256').update(key).digest('hex').slice(0, 8)}`);
  }
  return out;
}

/** The key `qualifiedNames` answers by. */
export function pairKey(plugin: string, tool: string): string {
  return `${plugin}\u0000${tool}`;
}

/** Plugins whose tools may be used: found, enabled and exposed. */
export function usable(registry: PluginRegistry): string[] {
  return registry
    .list()
    .filter((r) => r.spec && registry.isExposed(r.id))
    .map((r) => r.id);
}

/** Every exposed tool of every usable plugin, user commands included, with its model-facing name. */
function exposedTools(registry: PluginRegistry): Array<ToolDeclaration & { userCommand: boolean }> {
  const found: Array<Omit<ToolDeclaration, 'qualifiedName'> & { userCommand: boolean }> = [];
  for (const id of usable(registry)) {
    const spec = registry.record(id)?.spec;
    // An agent plugin is a model (agent/agents.ts), not a tool of another model.
    if (spec?.init?.method === 'agent.init') continue;
    const commands = new Set(spec?.userCommands.map((c) => c.name));
    for (const t of registry.tools(id)) {
      // A tool only its App may call (MCP Apps visibility ["app"]) is offered to no model and listed in no palette.
      if (t.exposed && t.name !== spec?.promptEnricher && visibleToModel(t.ui))
        found.push({
          plugin: id,
          tool: t.name,
          description: t.description,
          parameters: t.parameters,
          ...(t.tags ? { tags: t.tags } : {}),
          userCommand: commands.has(t.name),
        });
    }
  }
  // Named over the whole set, so a tool keeps its name whichever list it appears in.
  const names = qualifiedNames(found);
  return found.map((d) => ({ qualifiedName: names.get(pairKey(d.plugin, d.tool)) as string, ...d }));
}

/**
 * The tools declared to a model: exposed ones that are not user commands. Asked at every step of
 * every turn, and the same until a decision, a plugin or its tool list changes: kept per registry
 * against `toolsStamp`, so a step between changes gets the very same (frozen) declarations.
 */
export function exposedDeclarations(registry: PluginRegistry): readonly ToolDeclaration[] {
  const stamp = registry.toolsStamp();
  const kept = declared.get(registry);
  if (kept && sameItems(kept.stamp, stamp)) return kept.tools;
  const tools = Object.freeze(
    exposedTools(registry)
      .filter((t) => !t.userCommand)
      .map(({ userCommand: _, ...d }) => Object.freeze(d)),
  );
  declared.set(registry, { stamp, tools });
  return tools;
}

const declared = new WeakMap<PluginRegistry, { stamp: unknown[]; tools: readonly ToolDeclaration[] }>();

function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export function exposedUserCommands(registry: PluginRegistry): UserCommandView[] {
  const out: UserCommandView[] = [];
  for (const id of usable(registry)) {
    for (const c of registry.record(id)?.spec?.userCommands ?? []) {
      if (registry.isExposed(id, c.name))
        out.push({ plugin: id, name: c.name, description: c.description, shareWithModel: c.shareWithModel });
    }
  }
  return out;
}

/**
 * The exposed tools a model's call runs without asking first (their policy is allow: a bundled
 * plugin's read-only tool, or one the person allowed), by their qualified names.
 */
export function autoApprovedTools(registry: PluginRegistry): string[] {
  return exposedTools(registry)
    .filter((d) => registry.decisions.toolPolicy(d.plugin, d.tool).policy === 'allow')
    .map((d) => d.qualifiedName);
}
