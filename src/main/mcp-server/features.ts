/**
 * The prompts and resources of the MCP servers Plugboard hosts, offered to another app under each
 * server's name: a prompt as `<plugin>__<prompt>` (named as tools are), a resource by its own URI
 * with `<plugin>__` before its name and the plugin's name before its title. Only the servers whose
 * tools are offered (enabled and switched on) are asked; a server that fails to answer is left
 * out of the list and said so on stderr, never failing the whole list. Lists are read when asked,
 * so a server's list_changed needs no cache here to go stale; each list remembers which server a
 * name or URI belongs to, for the get or read that follows it.
 */
import {
  ErrorCode,
  McpError,
  type GetPromptResult,
  type Prompt,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import type { PromptView, ResourceView } from '../../shared/mcp-features';
import type { Result } from '../../shared/failures';
import { pairKey, qualifiedNames, usable } from '../assistant';
import type { PluginRegistry } from '../plugins';

export class HostedFeatures {
  private promptOwners = new Map<string, { plugin: string; prompt: string }>();
  private resourceOwners = new Map<string, string>();

  constructor(
    private readonly registry: PluginRegistry,
    private readonly log: (line: string) => void,
  ) {}

  /** The MCP servers whose prompts and resources are offered. */
  servers(): string[] {
    return usable(this.registry).filter((id) => this.registry.record(id)?.spec?.dialect === 'mcp');
  }

  async prompts(): Promise<Prompt[]> {
    const lists = await this.each('prompts', (f) => f.prompts());
    const pairs = lists.flatMap(({ plugin, items }) => items.map((p) => ({ plugin, tool: p.name, view: p })));
    const names = qualifiedNames(pairs);
    const owners = new Map<string, { plugin: string; prompt: string }>();
    const out = pairs.map(({ plugin, tool, view }) => {
      const name = names.get(pairKey(plugin, tool)) as string;
      owners.set(name, { plugin, prompt: tool });
      return promptOf(name, this.pluginName(plugin), view);
    });
    this.promptOwners = owners;
    return out;
  }

  async getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
    if (!this.promptOwners.has(name)) await this.prompts();
    const owner = this.promptOwners.get(name);
    if (!owner) throw new McpError(ErrorCode.InvalidParams, `no prompt is named "${name}": prompts/list names them`);
    const r = await this.registry.host.features(owner.plugin)?.getPrompt(owner.prompt, args);
    if (!r?.ok) throw new McpError(ErrorCode.InternalError, r?.message ?? `${owner.plugin} is not running here`);
    return {
      ...(r.value.description ? { description: r.value.description } : {}),
      messages: r.value.messages.map((m) => ({ role: m.role, content: { type: 'text', text: m.text } })),
    };
  }

  async resources(): Promise<Resource[]> {
    const lists = await this.each('resources', (f) => f.resources());
    const owners = new Map<string, string>();
    const out: Resource[] = [];
    for (const { plugin, items } of lists) {
      for (const r of items) {
        const taken = owners.get(r.uri);
        if (taken) {
          this.log(`resource ${r.uri} of ${plugin} is not offered: ${taken} offers the same URI`);
          continue;
        }
        owners.set(r.uri, plugin);
        out.push(resourceOf(plugin, this.pluginName(plugin), r));
      }
    }
    this.resourceOwners = owners;
    return out;
  }

  async readResource(uri: string): Promise<ReadResourceResult> {
    if (!this.resourceOwners.has(uri)) await this.resources();
    const plugin = this.resourceOwners.get(uri);
    if (!plugin)
      throw new McpError(ErrorCode.InvalidParams, `no resource has the URI ${uri}: resources/list names them`);
    const r = await this.registry.host.features(plugin)?.readResource(uri);
    if (!r?.ok) throw new McpError(ErrorCode.InternalError, r?.message ?? `${plugin} is not running here`);
    return {
      contents: r.value.map((c) =>
        c.blob !== undefined
          ? { uri: c.uri, blob: c.blob, ...(c.mimeType ? { mimeType: c.mimeType } : {}) }
          : { uri: c.uri, text: c.text ?? '', ...(c.mimeType ? { mimeType: c.mimeType } : {}) },
      ),
    };
  }

  private pluginName(id: string): string {
    return this.registry.record(id)?.spec?.name ?? id;
  }

  /** One list from every offered server, in parallel; one that fails is left out and named. */
  private async each<T>(
    what: string,
    read: (f: NonNullable<ReturnType<PluginRegistry['host']['features']>>) => Promise<Result<T[]>>,
  ): Promise<Array<{ plugin: string; items: T[] }>> {
    const got = await Promise.all(
      this.servers().map(async (plugin) => {
        const f = this.registry.host.features(plugin);
        const r = f ? await read(f) : undefined;
        if (r?.ok) return { plugin, items: r.value };
        this.log(`the ${what} of ${plugin} are not offered: ${r ? `${r.code}: ${r.message}` : 'it is not loaded'}`);
        return { plugin, items: [] };
      }),
    );
    return got;
  }
}

function promptOf(name: string, pluginName: string, p: PromptView): Prompt {
  return {
    name,
    title: `${pluginName}: ${p.title ?? p.name}`,
    ...(p.description ? { description: p.description } : {}),
    arguments: p.arguments.map((a) => ({
      name: a.name,
      required: a.required,
      ...(a.description ? { description: a.description } : {}),
    })),
  };
}

function resourceOf(plugin: string, pluginName: string, r: ResourceView): Resource {
  return {
    uri: r.uri,
    name: `${plugin}__${r.name}`,
    title: `${pluginName}: ${r.title ?? r.name}`,
    ...(r.description ? { description: r.description } : {}),
    ...(r.mimeType ? { mimeType: r.mimeType } : {}),
  };
}
