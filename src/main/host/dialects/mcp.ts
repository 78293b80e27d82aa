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
import {
  Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { failure, ok, type Failure, type Result } from '../../../shared/failures';
import { SIGN_IN_REQUIRED } from '../remote/link';
import type { ToolAnnotations, ToolSpec } from '../../../shared/plugin';
import type { PromptFilled, PromptView, ResourceView } from '../../../shared/mcp-features';
import { getPrompt, listPrompts, listResources } from './mcp-features';
import { CLIENT_CAPABILITIES, NO_CLIENT_SIDE, serveClientSide } from './mcp-client-side';
import { toolOutcome } from './mcp-results';
import { callAsTask } from './mcp-tasks';
import { SessionBase } from './session-base';
import { asRecord, describeValue, logLevelOf } from './values';
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
/** JSON-RPC "request cancelled" (LSP's code), for the local answer to a cancelled call. */
const REQUEST_CANCELLED = -32800;
/**
 * How much of the handshake deadline the `server/discover` probe may take on stdio, where a
 * server that stays silent is taken for a 2025 server (over HTTP silence is an outage instead).
 */
const PROBE_SHARE = 0.6;

/**
 * The SDK's transport contract over a process the supervisor owns.
 *
 * Progress notifications for our calls are taken here, synchronously, instead of going through
 * the SDK: the SDK dispatches notifications on a later microtask but responses at once, so the
 * last progress of a call that arrives in the same read as its result would be dropped as
 * "unknown token". Stream chunks must never be dropped or reordered.
 */
class SupervisedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private closed = false;
  /** Ids of requests sent to the server that no response has answered yet. */
  private readonly waiting = new Set<string | number>();
  /** Our calls by progress token: where their progress goes, and their request id once sent. */
  readonly calls = new Map<string, { progress(params: Record<string, unknown>): void; requestId?: string | number }>();

  constructor(private readonly write: (message: unknown, options?: TransportSendOptions) => void) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.closed) throw new Error('the plugin process is gone');
    const m = message as { id?: string | number; method?: string; params?: { _meta?: { progressToken?: unknown } } };
    if (m.id !== undefined && m.method !== undefined) this.waiting.add(m.id);
    const token = m.params?._meta?.progressToken;
    if (m.id !== undefined && typeof token === 'string') {
      const call = this.calls.get(token);
      if (call) call.requestId = m.id;
    }
    this.write(message, options);
  }

  /**
   * Cancels one of our calls the way the SDK would (notifications/cancelled to the server), and
   * settles the SDK's pending request with a local error response, which removes its handler and
   * timer. This spares every call an AbortController, which costs several µs to make in Node 20.
   */
  cancel(token: string, reason: string): void {
    const id = this.calls.get(token)?.requestId;
    if (id === undefined || this.closed) return;
    this.write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } });
    this.waiting.delete(id);
    this.onmessage?.({ jsonrpc: '2.0', id, error: { code: REQUEST_CANCELLED, message: reason } } as JSONRPCMessage);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Nothing will answer now; the SDK fails what it was waiting for.
    this.waiting.clear();
    this.onclose?.();
  }

  get unanswered(): number {
    return this.waiting.size;
  }

  deliver(value: unknown): void {
    const msg = asRecord(value);
    const id = msg?.id;
    if ((typeof id === 'string' || typeof id === 'number') && msg?.method === undefined) this.waiting.delete(id);
    if (msg?.method === 'notifications/progress') {
      const params = asRecord(msg.params);
      const call = typeof params?.progressToken === 'string' ? this.calls.get(params.progressToken) : undefined;
      if (call && params) return call.progress(params);
    }
    // The SDK sorts requests, responses and notifications itself and reports anything else via onerror.
    this.onmessage?.(value as JSONRPCMessage);
  }
}

/**
 * A local server's transport, shaped like the SDK's stdio transport (a `stderr` and a `pid`) so
 * the SDK takes a server that stays silent on `server/discover` for a 2025 server.
 */
class StdioShapedTransport extends SupervisedTransport {
  readonly stderr = null;
  readonly pid = null;
}

/**
 * A remote server's transport: each request has its own HTTP stream (the link's), which the SDK
 * aborts to cancel a call in the 2026 era.
 */
class RemoteShapedTransport extends SupervisedTransport {
  readonly hasPerRequestStream = true;
}

class McpSession extends SessionBase implements DialectSession {
  readonly cancelStopsWork = true;
  private nextToken = 1;
  /** Tools whose `execution.taskSupport` is `required`: they run as MCP tasks (mcp-tasks.ts). */
  private readonly taskTools = new Set<string>();
  /**
   * Tools the server lists but that cannot be called, each with the reason: a task-only tool of a
   * server that does not announce task support for tools/call. Not offered as tools.
   */
  readonly hiddenTools = new Map<string, string>();
  private readonly transport: SupervisedTransport;
  private readonly client: Client;

  constructor(ctx: SessionContext) {
    super(ctx);
    const write = (m: unknown, o?: TransportSendOptions): void => ctx.send(m, o);
    this.transport = ctx.remote ? new RemoteShapedTransport(write) : new StdioShapedTransport(write);
    this.client = new Client(CLIENT_INFO, {
      capabilities: CLIENT_CAPABILITIES,
      versionNegotiation: { mode: 'auto' },
    });
    this.client.onerror = (e) => ctx.diagnostic('warn', `MCP: ${e.message}`);
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
        out.push({
          name: t.name,
          description: t.description ?? '',
          parameters: t.inputSchema as Record<string, unknown>,
          ...(t.annotations ? { annotations: annotationsOf(t.annotations) } : {}),
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
      progress: (p) => {
        sink.activity();
        sink.stream(typeof p.message === 'string' ? p.message : { progress: p.progress, total: p.total });
      },
    });
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
      return toolOutcome(result);
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

  resources = (timeoutMs: number): Promise<Result<ResourceView[]>> => listResources(this.client, timeoutMs);
  prompts = (timeoutMs: number): Promise<Result<PromptView[]>> => listPrompts(this.client, timeoutMs);
  getPrompt = (name: string, args: Record<string, string>, timeoutMs: number): Promise<Result<PromptFilled>> =>
    getPrompt(this.client, name, args, timeoutMs);

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
    void this.transport.close();
  }
}

export const mcpDialect: DialectFactory = {
  create: (ctx) => new McpSession(ctx),
  maxConcurrentCalls: 8,
};

/**
 * A request a remote server refused for want of a sign-in (remote/link.ts marks it), as the
 * failure that says how to sign in; undefined for any other error.
 */
function signInFailure(e: unknown): Failure | undefined {
  const data = e instanceof ProtocolError ? asRecord(e.data) : undefined;
  if (data?.[SIGN_IN_REQUIRED] !== true) return undefined;
  return failure('sign_in_required', e instanceof Error ? e.message : String(e));
}

/** The hints of an MCP tool, booleans and title only (anything else the server sent is dropped). */
function annotationsOf(a: Record<string, unknown>): ToolAnnotations {
  const out: ToolAnnotations = {};
  if (typeof a.title === 'string') out.title = a.title;
  for (const k of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
    if (typeof a[k] === 'boolean') out[k] = a[k];
  return out;
}
