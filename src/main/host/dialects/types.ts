/**
 * What every protocol adapter offers the supervisor. A session lives as long as one plugin
 * process; it owns the protocol state (pending ids, open streams) and nothing else: processes,
 * timers for deadlines and restarts belong to the supervisor.
 */
import type { IconSpec } from '../../../shared/apps';
import type { CancelToken } from '../../../shared/cancel';
import type { TransportSendOptions } from '@modelcontextprotocol/client';
import type { ClientSide } from '../asks';
import type { Failure, Result } from '../../../shared/failures';
import type { IDisposable } from '../../../shared/lifecycle';
import type { PromptFilled, PromptView, ResourceContent, ResourceView } from '../../../shared/mcp-features';
import type { CallCompletion, ContextMessage, LogLevel, PluginSpec, ToolSpec } from '../../../shared/plugin';
import type { UiResource } from './mcp-apps';

export interface CallRequest {
  tool: string;
  args: Record<string, unknown>;
  /** The conversation so far; empty unless the plugin may read it. */
  context: ContextMessage[];
  systemInfo: string;
  /** Cancelled by the supervisor on cancel, deadline or death. The session must clean up then. */
  cancel: CancelToken;
}

export interface CallSink {
  /** One stream chunk, in order. */
  stream(data: unknown): void;
  /** A message that belongs to this call arrived (resets the inactivity timer). */
  activity(): void;
}

export type CallOutcome = { ok: true; value: CallCompletion } | Failure;

export interface HandshakeInfo {
  name?: string;
  version?: string;
  protocolVersion?: string;
  /** Tools the plugin announced, when its protocol announces any. */
  tools?: ToolSpec[];
  /** What the server says a model should know about its tools (MCP `instructions`). */
  instructions?: string;
  /** Capabilities the plugin asked for in its handshake (rterm). */
  capabilities?: string[];
  /** The server's icons, as it gave them (MCP `serverInfo.icons`, SEP-973). */
  icons?: IconSpec[];
  raw: unknown;
}

export type PingOutcome =
  | { type: 'answered'; error?: string }
  | { type: 'timeout' }
  /** The plugin has shown it does not answer pings at all; idle freeze detection is off. */
  | { type: 'unsupported' };

export interface SessionContext {
  spec: PluginSpec;
  /** Core-owned capability allow-list for this plugin binding. */
  allowedCapabilities: readonly string[];
  /**
   * Writes a message to the plugin. `options` are the MCP SDK's send options of the message (a
   * request's own stream and its cancel signal), which only a remote link uses.
   */
  send(message: unknown, options?: TransportSendOptions): void;
  /** The plugin is a remote server (Streamable HTTP), not a process on stdio. */
  remote?: boolean;
  /** A diagnostic of the host about this plugin (stray ids, junk, protocol slips). */
  diagnostic(level: LogLevel, message: string): void;
  /** A log message the plugin sent through its protocol. */
  pluginLog(level: LogLevel, message: string): void;
  /** The announced tool list changed at run time (MCP list_changed). */
  toolsChanged(tools: ToolSpec[]): void;
  /** What an MCP server may ask of the host (roots, elicitation, sampling); absent: nothing granted, nobody to ask. */
  client?: ClientSide;
}

export interface DialectSession extends IDisposable {
  /** A decoded message from the plugin. */
  receive(value: unknown): void;
  /**
   * A line or frame that is not JSON. Most dialects log it and carry on; strict ones return the
   * failure that ends the plugin.
   */
  junk(text: string, reason: string): Failure | undefined;
  handshake(timeoutMs: number): Promise<Result<HandshakeInfo>>;
  call(req: CallRequest, sink: CallSink): Promise<CallOutcome>;
  /** An MCP server's resources and prompts, read when asked (mcp-features.ts). Absent elsewhere. */
  resources?(timeoutMs: number): Promise<Result<ResourceView[]>>;
  prompts?(timeoutMs: number): Promise<Result<PromptView[]>>;
  getPrompt?(name: string, args: Record<string, string>, timeoutMs: number): Promise<Result<PromptFilled>>;
  /** An MCP App's page (`resources/read` of its `ui://` resource, mcp-apps.ts). Absent elsewhere. */
  readUi?(uri: string, timeoutMs: number): Promise<Result<UiResource>>;
  readResource?(uri: string, timeoutMs: number): Promise<Result<ResourceContent[]>>;
  /** Passthrough input (G-Assist). Absent when the protocol has none. */
  input?(text: string, sink: CallSink, cancel: CancelToken, ackMs: number): Promise<CallOutcome>;
  ping(timeoutMs: number): Promise<PingOutcome>;
  /**
   * A request the host sends while a call runs, as part of it (Mehrhof's `agent.tool_result`
   * answering an agent's `tool_use`). Absent when the protocol has none.
   */
  request?(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<Result<unknown>>;
  /** The folders granted to the plugin changed (MCP `notifications/roots/list_changed`). */
  rootsChanged?(): void;
  /** The protocol's goodbye (`shutdown`), sent before stdin closes. */
  farewell(): void;
  /** Protocol-level entries waiting for an answer. Zero when idle. */
  readonly pendingCount: number;
  /** Whether a cancelled call stops in the plugin (MCP) or runs on (G-Assist, JSON-RPC). */
  readonly cancelStopsWork: boolean;
}

export interface DialectFactory {
  create(ctx: SessionContext): DialectSession;
  /** Calls a running plugin may take at once. */
  maxConcurrentCalls: number;
  /**
   * One process per call, which must exit cleanly after its response (rterm): the call succeeds
   * only once it has, and a non-zero exit or none within the stop grace is `crashed`.
   */
  exitsAfterCall?: boolean;
}

/** The failure a cancelled call ends with: the supervisor's reason (cancel, deadline, death). */
export function abortedFailure(cancel: CancelToken, fallback: Failure): Failure {
  const r: unknown = cancel.reason;
  if (typeof r === 'object' && r !== null && (r as Failure).ok === false) return r as Failure;
  return fallback;
}
