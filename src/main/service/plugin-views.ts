/**
 * What the UI shows of plugins, computed from the registry's records and decisions: the list row
 * (PluginView), the expanded detail (tools, capabilities, settings), and the `/` palette. Icons
 * are shown only as the icon resolver made them safe (icons.ts): never a server's URL.
 */
import {
  autoApprovedTools,
  declarationTokens,
  exposedDeclarations,
  exposedUserCommands,
  type ToolDeclaration,
} from '../assistant';
import {
  capabilityHere,
  capabilityInfo,
  GRANTABLE_UNREQUESTED,
  requestedCapabilities,
} from '../../shared/capabilities';
import type { IconView } from '../../shared/apps';
import { scanTools } from '../../shared/tool-scan';
import type { CapabilityView, PaletteEntry, PluginDetail, PluginView } from '../../shared/contract';
import { limitsView, previousVersion, type PluginRegistry } from '../plugins';
import type { IconResolver } from './icons';
import { asUser } from './sandbox-status';

/** A capability as it is enforced here: by the sandbox where plugins run in one. */
export function capabilityView(name: string, registry: PluginRegistry): Omit<CapabilityView, 'requested' | 'granted'> {
  const info = capabilityInfo(name);
  const here = capabilityHere(name, registry.sandboxSupport.available, asUser(registry.sandboxSupport));
  return {
    name,
    title: info.title,
    description: info.description,
    enforcement: here.enforcement,
    enforcementNote: here.note,
    enforced: here.enforced,
  };
}

/** The version the last update of `id` replaced, which a rollback puts back. */
function previousView(registry: PluginRegistry, id: string): PluginDetail['previous'] {
  if (registry.record(id)?.source !== 'installed') return null;
  const p = previousVersion(registry.paths, id);
  return p ? { version: p.record.version, replacedAt: p.replacedAt } : null;
}

export class PluginViews {
  constructor(
    private readonly registry: PluginRegistry,
    private readonly icons?: IconResolver,
  ) {}

  /** A plugin's server icon, ready to show. */
  private serverIcon(id: string): { icon?: IconView } {
    const icon = this.icons?.view(id, this.registry.host.serverIcons(id));
    return icon ? { icon } : {};
  }

  /** A tool's own icon, else its server's. */
  toolIcon(id: string, tool: string): { icon?: IconView } {
    const own = this.icons?.view(id, this.registry.tools(id).find((t) => t.name === tool)?.icons);
    return own ? { icon: own } : this.serverIcon(id);
  }

  list(): PluginView[] {
    return this.registry.list().map((r) => this.view(r.id));
  }

  view(id: string): PluginView {
    const { registry } = this;
    const rec = registry.record(id);
    const spec = rec?.spec;
    const state = registry.decisions.pluginState(id);
    const tools = registry.tools(id);
    return {
      id,
      name: spec?.name ?? id,
      version: spec?.version ?? null,
      description: spec?.description ?? '',
      source: rec?.source ?? 'installed',
      dialect: spec?.dialect ?? null,
      persistent: spec?.persistent ?? false,
      ...(spec ? { callInactivityMs: spec.timeouts.callInactivityMs } : {}),
      error: rec?.error ?? null,
      enabled: state.enabled,
      exposed: state.exposed,
      toolCount: tools.length,
      exposedCount: tools.filter((t) => t.exposed).length,
      requested: spec ? requestedCapabilities(spec) : [],
      granted: state.grants,
      needsSettings: registry.missingSettings(id),
      health: registry.host.healthOf(id) ?? {
        pluginId: id,
        state: 'failed',
        reason: rec?.error ?? 'not loaded',
        pingRttMs: null,
        restarts: 0,
        pid: null,
        at: Date.now(),
      },
      ...this.serverIcon(id),
    };
  }

  async detail(id: string): Promise<PluginDetail | null> {
    const { registry } = this;
    const rec = registry.record(id);
    if (!rec) return null;
    const spec = rec.spec;
    const auto = new Set(spec?.autoApprovedTools ?? []);
    const commands = new Set(spec?.userCommands.map((c) => c.name) ?? []);
    const requested = spec ? requestedCapabilities(spec) : [];
    const granted = registry.decisions.pluginState(id).grants;
    const tools = registry.tools(id);
    const flags = scanTools(id, tools, registry.everyTool());
    return {
      ...this.view(id),
      dir: rec.dir,
      manifestPath: spec?.manifestPath ?? null,
      // A remote MCP server shows where it is reached.
      command: spec?.remote ? [spec.remote.url] : (spec?.command ?? []),
      tools: tools.map(({ icons: _given, serverInstructions: _said, ...t }) => {
        const { policy, defaultPolicy } = registry.decisions.toolPolicy(id, t.name);
        const change = registry.definitions.change(id, t.name);
        return {
          ...t,
          ...this.toolIcon(id, t.name),
          autoApproved: auto.has(t.name),
          userCommand: commands.has(t.name),
          policy,
          defaultPolicy,
          ...(change ? { change } : {}),
          flags: flags.filter((f) => f.tool === t.name),
          // What offering it adds to every request; a user command is never offered.
          declarationTokens: commands.has(t.name)
            ? 0
            : declarationTokens({
                qualifiedName: `${id}__${t.name}`,
                description: t.description,
                parameters: t.parameters,
              }),
        };
      }),
      // What it requested, what it was granted, and what may be granted to any plugin (the network).
      capabilities: [...new Set([...requested, ...granted, ...(spec?.remote ? [] : GRANTABLE_UNREQUESTED)])].map(
        (c) => ({
          ...capabilityView(c, registry),
          requested: requested.includes(c),
          granted: granted.includes(c),
        }),
      ),
      folders: registry.decisions.pluginState(id).folders ?? [],
      settings: spec ? await registry.settings.view(id, spec.settings) : [],
      previous: previousView(registry, id),
      limits: limitsView(spec, registry.decisions.pluginState(id), registry.sandboxSupport),
    };
  }

  /** Tools as palette entries (the suggestions of the "Connect a model" card). */
  entries(decls: readonly ToolDeclaration[]): PaletteEntry[] {
    const { registry } = this;
    return decls.map((d) => ({
      kind: 'tool',
      plugin: d.plugin,
      pluginName: registry.record(d.plugin)?.spec?.name ?? d.plugin,
      name: d.tool,
      description: d.description,
      parameters: d.parameters,
      autoApproved: registry.decisions.toolPolicy(d.plugin, d.tool).policy === 'allow',
      ...this.toolIcon(d.plugin, d.tool),
    }));
  }

  palette(): PaletteEntry[] {
    const { registry } = this;
    const auto = new Set(autoApprovedTools(registry));
    const name = (id: string): string => registry.record(id)?.spec?.name ?? id;
    const tools: PaletteEntry[] = exposedDeclarations(registry).map((d) => ({
      kind: 'tool',
      plugin: d.plugin,
      pluginName: name(d.plugin),
      name: d.tool,
      description: d.description,
      parameters: d.parameters,
      autoApproved: auto.has(d.qualifiedName),
      ...this.toolIcon(d.plugin, d.tool),
    }));
    const commands: PaletteEntry[] = exposedUserCommands(registry).map((c) => ({
      kind: 'command',
      plugin: c.plugin,
      pluginName: name(c.plugin),
      name: c.name,
      description: c.description,
      parameters: registry.tools(c.plugin).find((t) => t.name === c.name)?.parameters ?? {
        type: 'object',
        properties: {},
      },
      autoApproved: false,
      ...this.toolIcon(c.plugin, c.name),
    }));
    return [...commands, ...tools];
  }
}
