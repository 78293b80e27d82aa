/**
 * MCP servers, through the official SDK's `Client` over a transport of ours: the supervised
 * process, its framing caps and its watchdog stay Plugboard's, while the protocol (initialize,
 * capabilities, tools/list, tools/call, progress, cancellation) stays the SDK's.
 */
/* eslint-disable max-lines -- one whole concern: an MCP session over the SDK's Client (handshake, calls, the server's notifications) */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import type { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
  ToolListChangedNotificationSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import { failure, ok, type Result } from '../../../shared/failures';
import type { ToolAnnotations, ToolIcon, ToolSpec } from '../../../shared/plugin';
import type { PromptFilled, PromptView, ResourceContent, ResourceView } from '../../../shared/mcp-features';
import { getPrompt, listPrompts, listResources, readResource } from './mcp-features';
import { CLIENT_CAPABILITIES, NO_CLIENT_SIDE, serveClientSide } from './mcp-client-side';
import { toolOutcome } from './mcp-results';
import { callAsTask } from './mcp-tasks';
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
/** JSON-RPC "request cancelled" (LSP's code), for the local answer to a cancelled call. */
const REQUEST_CANCELLED = -32800;
const LOOSE_RESULT = z.looseObject({}) as unknown as typeof CallToolResultSchema;

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

  constructor(private readonly write: (message: unknown) => void) {}

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('the plugin process is gone');
    const m = message as { id?: string | number; method?: string; params?: { _meta?: { progressToken?: unknown } } };
    if (m.id !== undefined && m.method !== undefined) this.waiting.add(m.id);
    const token = m.params?._meta?.progressToken;
    if (m.id !== undefined && typeof token === 'string') {
      const call = this.calls.get(token);
      if (call) call.requestId = m.id;
    }
    this.write(message);
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
    this.transport = new SupervisedTransport((m) => ctx.send(m));
    this.client = new Client(CLIENT_INFO, {
      capabilities: CLIENT_CAPABILITIES,
      jsonSchemaValidator: mcpSchemaValidator,
    });
    this.client.onerror = (e) => ctx.diagnostic('warn', `MCP: ${e.message}`);
    serveClientSide(this.client, ctx.client ?? NO_CLIENT_SIDE);
    this.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      const data = n.params.data;
      ctx.pluginLog(
        logLevelOf(n.params.level),
        `${n.params.logger ? `${n.params.logger}: ` : ''}${typeof data === 'string' ? data : describeValue(data)}`,
      );
    });
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
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
    try {
      await this.client.connect(this.transport, { timeout: timeoutMs });
    } catch (e) {
      const msg = (e as Error).message;
      if (/protocol version/i.test(msg)) return failure('protocol_version_mismatch', msg);
      return failure('handshake_failed', `initialize failed: ${msg}`);
    }
    const tools = await this.listTools(timeoutMs);
    if (!tools.ok) return failure('handshake_failed', tools.message);
    const server = this.client.getServerVersion();
    const info: HandshakeInfo = { raw: server ?? null, tools: tools.value };
    if (server?.name) info.name = server.name;
    if (server?.version) info.version = server.version;
    const instructions = this.client.getInstructions();
    if (instructions?.trim()) info.instructions = instructions;
    return ok(info);
  }

  private async listTools(timeoutMs: number): Promise<Result<ToolSpec[]>> {
    const caps = this.client.getServerCapabilities();
    if (!caps?.tools) return ok([]);
    const serverRunsTasks = asRecord(asRecord(asRecord(caps.tasks)?.requests)?.tools)?.call !== undefined;
    const out: ToolSpec[] = [];
    let cursor: string | undefined;
    this.taskTools.clear();
    this.hiddenTools.clear();
    try {
      do {
        const page = await this.client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
        for (const t of page.tools) {
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
            ...(t.title ? { title: t.title } : {}),
            description: t.description ?? '',
            parameters: t.inputSchema as Record<string, unknown>,
            ...(t.annotations ? { annotations: annotationsOf(t.annotations) } : {}),
            ...(t.title ? { title: t.title } : {}),
            ...(t.icons?.length ? { icons: t.icons.map(iconOf) } : {}),
          });
        }
        cursor = page.nextCursor;
      } while (cursor);
    } catch (e) {
      return failure('handshake_failed', `tools/list failed: ${(e as Error).message}`);
    }
    return ok(out);
  }

  async call(req: CallRequest, sink: CallSink): Promise<CallOutcome> {
    // Our own progress token, so the server streams progress and the transport routes it here.
    const progressToken = `plugboard-${this.nextToken++}`;
    this.transport.calls.set(progressToken, {
      progress: (p) => {
        sink.activity();
        // Each progress report is a line of its own: joined as they come, "step 1step 2" read as one.
        sink.stream(progressLine(p));
      },
    });
    // A task is cancelled with tasks/cancel by its own loop; a plain call like this.
    const offCancel = this.taskTools.has(req.tool)
      ? () => {}
      : req.cancel.onCancel((reason) => {
          const text =
            typeof reason === 'object' && reason !== null && 'message' in reason ? String(reason.message) : 'cancelled';
          this.transport.cancel(progressToken, text);
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
        // A loose result schema: the SDK's deep parse of every result costs more than it buys
        // here; the fields Plugboard reads are checked below.
        result = await this.client.callTool(
          { name: req.tool, arguments: req.args ?? {}, _meta: { progressToken } },
          LOOSE_RESULT,
          {
            // Plugboard's own inactivity timer and hard cap decide; the SDK's must never fire first.
            timeout: this.ctx.spec.timeouts.callHardCapMs + 60_000,
          },
        );
      }
      sink.activity();
      return toolOutcome(result);
    } catch (e) {
      if (req.cancel.isCancelled) return abortedFailure(req.cancel, failure('cancelled', 'call cancelled'));
      if (e instanceof McpError) {
        if (e.code === ErrorCode.ConnectionClosed) return failure('cancelled', 'connection closed');
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
      await this.client.ping({ timeout: timeoutMs });
      return { type: 'answered' };
    } catch (e) {
      if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) return { type: 'timeout' };
      if (e instanceof McpError && e.code === ErrorCode.ConnectionClosed) return { type: 'timeout' };
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

/** An icon as the server gave it, its known fields only. */
function iconOf(i: { src: string; mimeType?: string; sizes?: string[]; theme?: 'light' | 'dark' }): ToolIcon {
  return {
    src: i.src,
    ...(i.mimeType ? { mimeType: i.mimeType } : {}),
    ...(i.sizes ? { sizes: i.sizes } : {}),
    ...(i.theme ? { theme: i.theme } : {}),
  };
}

/** The hints of an MCP tool, booleans and title only (anything else the server sent is dropped). */
function annotationsOf(a: Record<string, unknown>): ToolAnnotations {
  const out: ToolAnnotations = {};
  if (typeof a.title === 'string') out.title = a.title;
  for (const k of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const)
    if (typeof a[k] === 'boolean') out[k] = a[k];
  return out;
}

/** A progress notification as one line of output: its message, else `[progress/total]`. */
export function progressLine(p: Record<string, unknown>): string {
  const text =
    typeof p.message === 'string'
      ? p.message
      : typeof p.total === 'number'
        ? `[${String(p.progress)}/${p.total}]`
        : `[${String(p.progress)}]`;
  return text.endsWith('\n') ? text : `${text}\n`;
}
