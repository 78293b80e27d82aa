/**
 * MCP servers, through the official SDK's `Client` over a transport of ours: the supervised
 * process, its framing caps and its watchdog stay Plugboard's, while the protocol (initialize,
 * capabilities, tools/list, tools/call, progress, cancellation) stays the SDK's.
 *
 * Both protocol eras, through the SDK's v2 client (`@modelcontextprotocol/client`): at connect it
 * asks `server/discover` (the 2026-07-28 revision: stateless, no `initialize`, the client's
 * capabilities in every request's `_meta`) and falls back to the `initialize` handshake of
 * 2025-11-25 with a server that does not answer it as a 2026 server would. A question a 2026
 * server asks with an "input required" result is answered by the same handlers as a 2025 server's
 * requests (mcp-client-side.ts), so the person sees the same form either way.
 */
/* eslint-disable max-lines -- one whole concern: an MCP session over the SDK's Client (handshake, calls, the server's notifications) */
import { Client, ProtocolError, SdkError, SdkErrorCode, type TransportSendOptions } from '@modelcontextprotocol/client';
import { failure, ok, type Result } from '../../../shared/failures';
import { signInFailure } from '../remote/link';
import type { ToolAnnotations, ToolSpec } from '../../../shared/plugin';
import type { PromptFilled, PromptView, ResourceContent, ResourceView } from '../../../shared/mcp-features';
import { getPrompt, listPrompts, listResources, readResource } from './mcp-features';
import { iconsOf, readUiResource, toolUiOf, type UiResource } from './mcp-apps';
import { answersOf, CLIENT_CAPABILITIES, NO_CLIENT_SIDE, serveClientSide, type ClientAnswers } from './mcp-client-side';
import { offersTasks2026, Tasks2026 } from './mcp-tasks-2026';
import { toolOutcome } from './mcp-results';
import { callAsTask } from './mcp-tasks';
import { RemoteShapedTransport, StdioShapedTransport, type SupervisedTransport } from './mcp-transport';
import { SessionBase } from './session-base';
import { asRecord, describeValue, logLevelOf } from './values';
import { mcpSchemaValidator } from '../validate';
import {
  abortedFailure,
  type CallOutcome,
  type CallRequest,
  type CallSink,
  type DialectFactory,
  type DialectSession,
  type HandshakeInfo,
  type PingOutcome,
  type SessionContext,
} from './types';

const CLIENT_INFO = { name: 'plugboard', version: '0.1.0' };
/**
 * How much of the handshake deadline the `server/discover` probe may take on stdio, where a
 * server that stays silent is taken for a 2025 server (over HTTP silence is an outage instead).
 */
const PROBE_SHARE = 0.6;

class McpSession extends SessionBase implements DialectSession {
  readonly cancelStopsWork = true;
  private nextToken = 1;
  /** Tools whose `execution.taskSupport` is `required`: they run as MCP tasks (mcp-tasks.ts). */
  private readonly taskTools = new Set<string>();
  /** A 2026 server with the tasks extension: every call goes through it (mcp-tasks-2026.ts). */
  private tasks2026: Tasks2026 | undefined;
  /** The server's `instructions` of this session, part of each of its tools' definitions. */
  private instructions: string | undefined;
  /**
   * Tools the server lists but that cannot be called, each with the reason: a task-only tool of a
   * server that does not announce task support for tools/call. Not offered as tools.
   */
  readonly hiddenTools = new Map<string, string>();
  /** Tools with an App, by name: their `ui://` resource (mcp-apps.ts). */
  private readonly appTools = new Map<string, string>();
  /** App pages read during this session, by URI (the extension lets a host keep them). */
  private readonly uiPages = new Map<string, Promise<Result<UiResource>>>();
  private readonly transport: SupervisedTransport;
  private readonly client: Client;
  private readonly answers: ClientAnswers;

  constructor(ctx: SessionContext) {
    super(ctx);
    const write = (m: unknown, o?: TransportSendOptions): void => ctx.send(m, o);
    this.transport = ctx.remote ? new RemoteShapedTransport(write) : new StdioShapedTransport(write);
    this.client = new Client(CLIENT_INFO, {
      capabilities: CLIENT_CAPABILITIES,
      versionNegotiation: { mode: 'auto' },
      jsonSchemaValidator: mcpSchemaValidator,
    });
    this.client.onerror = (e) => ctx.diagnostic('warn', `MCP: ${e.message}`);
    this.answers = answersOf(ctx.client ?? NO_CLIENT_SIDE);
    serveClientSide(this.client, ctx.client ?? NO_CLIENT_SIDE);
    this.client.setNotificationHandler('notifications/message', (n) => {
      const data = n.params.data;
      ctx.pluginLog(
        logLevelOf(n.params.level),
        `${n.params.logger ? `${n.params.logger}: ` : ''}${typeof data === 'string' ? data : describeValue(data)}`,
      );
    });
    this.client.setNotificationHandler('notifications/tools/list_changed', () => {
      this.listTools(this.ctx.spec.timeouts.handshakeMs).then((r) => {
        if (r.ok) ctx.toolsChanged(r.value);
        else ctx.diagnostic('warn', `tools/list after list_changed failed: ${r.message}`);
      });
    });
  }

  /** Requests sent and not answered yet, as the wire shows them, plus our calls' progress routes. */
  get pendingCount(): number {
    return this.transport.unanswered + this.transport.calls.size;
  }

  receive(value: unknown): void {
    this.transport.deliver(value);
  }

  async handshake(timeoutMs: number): Promise<Result<HandshakeInfo>> {
    this.client.setVersionNegotiation({
      mode: 'auto',
      probe: { timeoutMs: this.ctx.remote ? timeoutMs : Math.round(timeoutMs * PROBE_SHARE) },
    });
    try {
      await this.client.connect(this.transport, { timeout: timeoutMs });
    } catch (e) {
      const signIn = signInFailure(e);
      if (signIn) return signIn;
      const msg = (e as Error).message;
      if (/protocol version/i.test(msg)) return failure('protocol_version_mismatch', msg);
      return failure('handshake_failed', `${this.ctx.remote ? 'connecting' : 'initialize'} failed: ${msg}`);
    }
    // Before the tools: each carries them in its definition (shared/definitions.ts).
    this.instructions = this.client.getInstructions()?.trim() || undefined;
    const tools = await this.listTools(timeoutMs);
    if (!tools.ok) return tools.code === 'sign_in_required' ? tools : failure('handshake_failed', tools.message);
    const server = this.client.getServerVersion();
    const protocolVersion = this.client.getNegotiatedProtocolVersion();
    const info: HandshakeInfo = { raw: server ?? null, tools: tools.value };
    if (server?.name) info.name = server.name;
    if (server?.version) info.version = server.version;
    if (protocolVersion) info.protocolVersion = protocolVersion;
    const instructions = this.client.getInstructions();
    if (instructions?.trim()) info.instructions = instructions;
    this.ctx.diagnostic('info', `MCP ${protocolVersion ?? '(version unknown)'}, the ${this.era} era`);
    if (this.era === 'modern') this.listenForChanges();
    if (offersTasks2026(this.client))
      this.tasks2026 = new Tasks2026({
        client: this.client,
        raw: (r, signal, ms) => this.transport.raw(r, signal, ms),
        clientInfo: CLIENT_INFO,
        capabilities: CLIENT_CAPABILITIES,
        answers: this.answers,
        endpointId: this.ctx.spec.id,
      });
    const icons = iconsOf(server?.icons);
    if (icons) info.icons = icons;
    return ok(info);
  }

  /** `modern` for the 2026-07-28 revision, `legacy` for 2025-11-25 and earlier. */
  get era(): 'modern' | 'legacy' {
    return this.client.getProtocolEra() === 'modern' ? 'modern' : 'legacy';
  }

  /**
   * A 2026 server sends list changes only on a `subscriptions/listen` stream; they reach the same
   * handlers as a 2025 server's unsolicited notifications.
   */
  private listenForChanges(): void {
    const caps = this.client.getServerCapabilities();
    const filter = {
      ...(caps?.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(caps?.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(caps?.resources?.listChanged ? { resourcesListChanged: true } : {}),
    };
    if (Object.keys(filter).length === 0) return;
    this.client
      .listen(filter, { timeout: this.ctx.spec.timeouts.handshakeMs })
      .catch((e: unknown) => this.ctx.diagnostic('warn', `subscriptions/listen failed: ${(e as Error).message}`));
  }

  private async listTools(timeoutMs: number): Promise<Result<ToolSpec[]>> {
    const caps = this.client.getServerCapabilities();
    if (!caps?.tools) return ok([]);
    const serverRunsTasks = asRecord(asRecord(asRecord(caps.tasks)?.requests)?.tools)?.call !== undefined;
    const out: ToolSpec[] = [];
    this.taskTools.clear();
    this.hiddenTools.clear();
    this.appTools.clear();
    try {
      // Every page, followed by the SDK; always read again (a list_changed must not meet a cache).
      const { tools } = await this.client.listTools(undefined, { timeout: timeoutMs, cacheMode: 'refresh' });
      for (const t of tools) {
        if (t.execution?.taskSupport === 'required') {
          if (!serverRunsTasks) {
            const reason =
              'it can only run as an MCP task, and the server does not announce task support for tools/call (capabilities.tasks.requests.tools.call)';
            this.hiddenTools.set(t.name, reason);
            this.ctx.diagnostic('warn', `tool ${t.name} is not offered: ${reason}`);
            continue;
          }
          this.taskTools.add(t.name);
        }
        const ui = toolUiOf(t, (m) => this.ctx.diagnostic('warn', m));
        if (ui?.resourceUri) this.appTools.set(t.name, ui.resourceUri);
        const icons = iconsOf(t.icons);
        out.push({
          name: t.name,
          ...(t.title ? { title: t.title } : {}),
          description: t.description ?? '',
          parameters: t.inputSchema as Record<string, unknown>,
          ...(t.annotations ? { annotations: annotationsOf(t.annotations) } : {}),
          ...(ui ? { ui } : {}),
          ...(icons ? { icons } : {}),
          ...(this.instructions ? { serverInstructions: this.instructions } : {}),
        });
      }
    } catch (e) {
      return signInFailure(e) ?? failure('handshake_failed', `tools/list failed: ${(e as Error).message}`);
    }
    return ok(out);
  }

  async call(req: CallRequest, sink: CallSink): Promise<CallOutcome> {
    // Our own progress token, so the server streams progress and the transport routes it here.
    const progressToken = `plugboard-${this.nextToken++}`;
    this.transport.calls.set(progressToken, {
      progress(p) {
        sink.activity();
        // A progress message is a line of its own (joined as they come, "step 1step 2" read as
        // one); a server's bare numbers stay numbers, its progress and not its output.
        sink.stream(typeof p.message === 'string' ? progressLine(p.message) : { progress: p.progress, total: p.total });
      },
    });
    if (this.tasks2026) return this.callAs2026(req, sink, progressToken);
    // A task is cancelled with tasks/cancel by its own loop. A 2025 call is cancelled here, on
    // the wire, without the cost of an AbortController; a 2026 call through the SDK's signal (it
    // cancels the way the era and the transport want: the request's own stream over HTTP).
    const modern = this.era === 'modern';
    const abort = modern ? new AbortController() : undefined;
    const offCancel = this.taskTools.has(req.tool)
      ? () => {}
      : req.cancel.onCancel((reason) => {
          const text =
            typeof reason === 'object' && reason !== null && 'message' in reason ? String(reason.message) : 'cancelled';
          if (abort) abort.abort(new Error(text));
          else this.transport.cancel(progressToken, text);
        });
    try {
      let result: unknown;
      if (this.taskTools.has(req.tool)) {
        const r = await callAsTask(
          this.client,
          {
            name: req.tool,
            args: req.args ?? {},
            progressToken,
            cancel: req.cancel,
            requestTimeoutMs: this.ctx.spec.timeouts.callInactivityMs,
          },
          sink,
        );
        if (!r.ok) return r.code === 'cancelled' ? abortedFailure(req.cancel, r) : r;
        result = r.result;
      } else {
        result = await this.client.callTool(
          { name: req.tool, arguments: req.args ?? {}, _meta: { progressToken } },
          {
            // Plugboard's own inactivity timer and hard cap decide; the SDK's must never fire first.
            timeout: this.ctx.spec.timeouts.callHardCapMs + 60_000,
            ...(abort ? { signal: abort.signal } : {}),
          },
        );
      }
      sink.activity();
      return toolOutcome(result, this.appTools.get(req.tool));
    } catch (e) {
      if (req.cancel.isCancelled) return abortedFailure(req.cancel, failure('cancelled', 'call cancelled'));
      const signIn = signInFailure(e);
      if (signIn) return signIn;
      if (e instanceof SdkError && e.code === SdkErrorCode.ConnectionClosed)
        return failure('cancelled', 'connection closed');
      if (e instanceof ProtocolError) {
        return failure('plugin_error', e.message, {
          rpcCode: e.code,
          ...(e.data !== undefined ? { data: e.data } : {}),
        });
      }
      return failure('plugin_error', (e as Error).message);
    } finally {
      offCancel();
      this.transport.calls.delete(progressToken);
    }
  }

  /** A call to a 2026 server with the tasks extension: a task or not, as the server decides. */
  private async callAs2026(req: CallRequest, sink: CallSink, progressToken: string): Promise<CallOutcome> {
    try {
      const r = await this.tasks2026!.call(
        req.tool,
        req.args ?? {},
        progressToken,
        req.cancel,
        this.ctx.spec.timeouts.callHardCapMs + 60_000,
        sink,
      );
      if (!r.ok) return r.code === 'cancelled' ? abortedFailure(req.cancel, r) : r;
      sink.activity();
      return toolOutcome(r.result);
    } finally {
      this.transport.calls.delete(progressToken);
    }
  }

  resources = (timeoutMs: number): Promise<Result<ResourceView[]>> => listResources(this.client, timeoutMs);
  /** An App's page; a failed read is not kept, so the next one asks again. */
  readUi = (uri: string, timeoutMs: number): Promise<Result<UiResource>> => {
    const kept = this.uiPages.get(uri);
    if (kept) return kept;
    const read = readUiResource(this.client, uri, timeoutMs).then((r) => {
      if (!r.ok) this.uiPages.delete(uri);
      return r;
    });
    this.uiPages.set(uri, read);
    return read;
  };
  prompts = (timeoutMs: number): Promise<Result<PromptView[]>> => listPrompts(this.client, timeoutMs);
  getPrompt = (name: string, args: Record<string, string>, timeoutMs: number): Promise<Result<PromptFilled>> =>
    getPrompt(this.client, name, args, timeoutMs);
  readResource = (uri: string, timeoutMs: number): Promise<Result<ResourceContent[]>> =>
    readResource(this.client, uri, timeoutMs);

  /** The person's grants changed: the server may ask for its roots again. */
  rootsChanged(): void {
    this.client
      .sendRootsListChanged()
      .catch((e: unknown) => this.ctx.diagnostic('warn', `roots list_changed not sent: ${(e as Error).message}`));
  }

  async ping(timeoutMs: number): Promise<PingOutcome> {
    try {
      // The 2026 revision has no ping: `server/discover`, which every such server answers, stands in.
      if (this.era === 'modern') await this.client.discover({ timeout: timeoutMs });
      else await this.client.ping({ timeout: timeoutMs });
      return { type: 'answered' };
    } catch (e) {
      if (e instanceof SdkError && e.code === SdkErrorCode.RequestTimeout) return { type: 'timeout' };
      if (e instanceof SdkError && e.code === SdkErrorCode.ConnectionClosed) return { type: 'timeout' };
      return { type: 'answered', error: (e as Error).message };
    }
  }

  dispose(): void {
    this.tasks2026?.dispose();
    void this.transport.close();
  }
}

export const mcpDialect: DialectFactory = {
  create: (ctx) => new McpSession(ctx),
  maxConcurrentCalls: 8,
};

/** The hints of an MCP tool, booleans and title only (anything else the server sent is dropped). */
function annotationsOf(a: Record<string, unknown>): ToolAnnotations {
  const out: ToolAnnotations = {};
  if (typeof a.title === 'string') out.title = a.title;
  for (const k of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
    if (typeof a[k] === 'boolean') out[k] = a[k];
  return out;
}

/** A progress notification's message as one line of output. */
export function progressLine(message: string): string {
  return message.endsWith('\n') ? message : `${message}\n`;
}
