/**
 * Plugboard as an MCP server, over one registry: every connected app gets a server of its own
 * (the SDK's `Server`: one per stdio process, one per Streamable HTTP session), all of them over
 * the same plugins, decisions, approvals and audit log as the app's. A server lists the offered
 * tools (tool-list.ts), runs calls (calls.ts), offers the hosted MCP servers' prompts and
 * resources (features.ts), and says `list_changed` when the offer changes (changes.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type Implementation,
} from '@modelcontextprotocol/sdk/types.js';
import { Disposable, toDisposable } from '../../shared/lifecycle';
import type { PluginRegistry } from '../plugins';
import type { Caller } from './approval';
import { callTool } from './calls';
import { ChangeFeed } from './changes';
import { HostedFeatures } from './features';
import { offeredTools } from './tool-list';

export interface HubOptions {
  registry: PluginRegistry;
  version: string;
  /** Where the server's own notes go (stderr for `plugboard mcp`: stdout is the protocol's). */
  log(line: string): void;
  /**
   * Start the plugins whose tools are known only once they run (MCP servers that declare none),
   * so the first tools/list has them: `plugboard mcp` does; `plugboard serve` started them already.
   */
  warm?: boolean;
}

/** A person answers a form in their own time: the calling app's form waits this long at most. */
const FORM_TIMEOUT_MS = 15 * 60_000;
/** The first tools/list waits this long at most for plugins still starting; later ones come as list_changed. */
const WARM_CAP_MS = 15_000;

export class McpHub extends Disposable {
  readonly features: HostedFeatures;
  readonly changes: ChangeFeed;
  private readonly ready: Promise<void>;
  private readonly servers = new Set<Server>();

  constructor(private readonly opts: HubOptions) {
    super();
    this.features = new HostedFeatures(opts.registry, opts.log);
    this.changes = this._register(new ChangeFeed(opts.registry, this.features, opts.log));
    this._register(this.changes.onDidChange((kind) => this.announce(kind)));
    // A plugin another process installed: started like the others, when its tools are known only running.
    this._register(this.changes.onDidSync((ids) => void this.startSilent(ids)));
    this.ready = opts.warm ? this.warm() : Promise.resolve();
  }

  /** An MCP server for one app; `via` names the connection (`stdio`, `http <session>`) for the audit log. */
  createServer(via: string): Server {
    const { registry } = this.opts;
    const server = new Server(
      { name: 'plugboard', title: 'Plugboard', version: this.opts.version },
      {
        capabilities: {
          tools: { listChanged: true },
          prompts: { listChanged: true },
          resources: { listChanged: true },
        },
        instructions:
          'The tools of the plugins Plugboard runs on this computer, of every protocol, under the approvals, sandbox and audit log set in Plugboard. A tool is named <plugin>__<tool>.',
      },
    );
    const owner = `mcp:${via}`;
    server.setRequestHandler(ListToolsRequestSchema, async () => {
      await this.ready;
      return { tools: offeredTools(registry).tools };
    });
    server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
      await this.ready;
      const token = req.params._meta?.progressToken;
      const caller: Caller = {
        client: describeClient(server.getClientVersion()),
        ...(server.getClientCapabilities()?.elicitation?.form
          ? {
              elicit: (params, signal) =>
                extra.sendRequest(
                  { method: 'elicitation/create', params: { mode: 'form', ...params } },
                  ElicitResultSchema,
                  {
                    signal,
                    timeout: FORM_TIMEOUT_MS,
                  },
                ),
            }
          : {}),
      };
      // Progress goes out before the result: the SDK's client drops progress that it reads after the result.
      const sent: Array<Promise<void>> = [];
      const result = await callTool({ registry, caller, via, owner }, req.params.name, req.params.arguments ?? {}, {
        signal: extra.signal,
        ...(token !== undefined
          ? {
              progress: (p) =>
                void sent.push(
                  extra
                    .sendNotification({ method: 'notifications/progress', params: { progressToken: token, ...p } })
                    .catch(() => undefined),
                ),
            }
          : {}),
      });
      await Promise.all(sent);
      if (sent.length > 0) await new Promise((r) => setImmediate(r));
      return result;
    });
    server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: await this.features.prompts() }));
    server.setRequestHandler(GetPromptRequestSchema, (req) =>
      this.features.getPrompt(req.params.name, req.params.arguments ?? {}),
    );
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await this.features.resources() }));
    server.setRequestHandler(ReadResourceRequestSchema, (req) => this.features.readResource(req.params.uri));
    // The first request a server sends has id 0, and the SDK's own client ignores a cancel of
    // request 0 (`if (!requestId) return`): a withdrawn approval form would stay open in such an
    // app. A ping, answered by every client, takes id 0 instead.
    server.oninitialized = () => void server.ping().catch(() => undefined);
    this.servers.add(server);
    const previous = server.onclose;
    server.onclose = () => {
      this.servers.delete(server);
      previous?.();
    };
    return server;
  }

  /** Closes every app's server. */
  override dispose(): void {
    for (const s of [...this.servers]) void s.close().catch(() => undefined);
    this.servers.clear();
    super.dispose();
  }

  private announce(kind: 'tools' | 'prompts' | 'resources'): void {
    for (const s of this.servers) {
      if (!s.transport || !s.getClientVersion()) continue;
      const sent =
        kind === 'tools'
          ? s.sendToolListChanged()
          : kind === 'prompts'
            ? s.sendPromptListChanged()
            : s.sendResourceListChanged();
      void sent.catch((e: unknown) => this.opts.log(`${kind} list_changed not sent: ${(e as Error).message}`));
    }
  }

  /** Starts the plugins whose tools are known only once they run, under a cap. */
  private async warm(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, WARM_CAP_MS)));
    this._register(toDisposable(() => clearTimeout(timer)));
    await Promise.race([this.startSilent(), cap]);
    clearTimeout(timer);
    this.changes.compare();
  }

  /**
   * Starts (all, or those of `ids`) the enabled, switched-on persistent plugins with their settings
   * whose tools are known only once they run: MCP servers (whose prompts and resources are offered
   * too) and plugins that declare no tools. Agent plugins are models, not tools. Failures are noted.
   */
  private async startSilent(ids?: string[]): Promise<void> {
    const { registry } = this.opts;
    const silent = registry.list().filter((r) => {
      const s = r.spec;
      if (!s?.persistent || (ids && !ids.includes(r.id))) return false;
      if (!registry.isExposed(r.id) || s.init?.method === 'agent.init') return false;
      if (registry.missingSettings(r.id).length > 0) return false;
      return s.dialect === 'mcp' || s.tools.length === 0;
    });
    await Promise.all(
      silent.map(async (r) => {
        const done = await registry.start(r.id);
        if (!done.ok)
          this.opts.log(`${r.id} did not start, so its tools are not offered (${done.code}: ${done.message})`);
      }),
    );
  }
}

/** The app as it named itself: title or name, and version. */
export function describeClient(info: Implementation | undefined): string {
  if (!info) return 'an MCP client';
  const name = info.title ?? info.name;
  return info.version ? `${name} ${info.version}` : name;
}
