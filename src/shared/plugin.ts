/**
 * A plugin as Plugboard knows it: the spec every manifest format is normalized into, and the
 * states and events the host reports. Pure types and constants; imports nothing from node, DOM or
 * electron. (A "model" in this codebase is always a language model.)
 */
import type { AppCard, IconSpec, ToolUi } from './apps';
import type { PluginLimits } from './limits';
import type { Failure } from './failures';

export const DIALECTS = ['gassist-v2', 'jsonrpc', 'rterm-v1', 'mcp'] as const;
export type Dialect = (typeof DIALECTS)[number];

export const FRAMINGS = ['ndjson', 'length-prefixed'] as const;
export type Framing = (typeof FRAMINGS)[number];

export type ManifestFormat = 'gassist' | 'mehrhof' | 'rterm' | 'mcpb' | 'plugboard';

/** How JSON-RPC error codes -32000..-32099 are read: each system gives them its own meanings. */
export type RpcFlavor = 'mehrhof' | 'planner' | 'generic';

export type JsonSchema = Record<string, unknown>;

export interface ToolSpec {
  name: string;
  /** A person-readable name (MCP `title`), where the plugin gives one besides its annotations' title. */
  title?: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: JsonSchema;
  tags?: string[];
  /** Hints a plugin gives about the tool (MCP tool annotations). Hints, not guarantees. */
  annotations?: ToolAnnotations;
  /** An MCP tool's App and who may call it (`_meta.ui`, the Apps extension). MCP only. */
  ui?: ToolUi;
  /** Icons its server gives it (SEP-973), as given: shown only once resolved (service/icons.ts). */
  icons?: IconSpec[];
  /**
   * What its server says a model should know of all its tools (MCP `instructions`), which goes
   * into the system prompt: part of each tool's definition, so a change of them asks again.
   */
  serverInstructions?: string;
}

/** One picture of a tool, as its server gave it (SEP-973): the same shape as a server's icons. */
export type ToolIcon = IconSpec;

export interface ToolAnnotations {
  /** A person-readable name. */
  title?: string;
  /**
   * The plugin says it changes nothing. A hint shown on the card, never a grant: only bundled
   * plugins' read-only tools run unasked by default (plugins/registry/decisions.ts).
   */
  readOnlyHint?: boolean;
  /** It may change or delete things irreversibly. */
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  /** It reaches the world outside (the web, other services). */
  openWorldHint?: boolean;
}

/** A user setting a plugin declares (MCPB user_config, Mehrhof env, plugboard.json settings). */
export interface SettingSpec {
  key: string;
  type: 'string' | 'number' | 'boolean' | 'directory' | 'file';
  title: string;
  description: string;
  required: boolean;
  sensitive: boolean;
  multiple: boolean;
  default?: string | number | boolean | string[];
  min?: number;
  max?: number;
  /** Environment variable the value is passed in, when the manifest maps it to one. */
  env?: string;
}

export interface Timeouts {
  /** Spawn to a running process. */
  launchMs: number;
  /** initialize / handshake / init call. */
  handshakeMs: number;
  /** Idle ping interval; 0 disables pings. */
  pingIntervalMs: number;
  pingTimeoutMs: number;
  maxMissedPings: number;
  /** A call fails with `timeout` after this long without any message for it. */
  callInactivityMs: number;
  /** No call or passthrough session lasts longer than this. */
  callHardCapMs: number;
  /** Passthrough `input` must be acknowledged within this. */
  inputAckMs: number;
  /** Stop: after shutdown + stdin close, wait this long before SIGTERM. */
  stopGraceMs: number;
  /** Stop: after SIGTERM, wait this long before SIGKILL. */
  termGraceMs: number;
  /** Back-off before each automatic restart; its length is the number of tries. */
  restartDelaysMs: number[];
  /** Running this long without a crash resets the restart budget. */
  restartBudgetResetMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = {
  launchMs: 2000,
  handshakeMs: 5000,
  // docs/ARCHITECTURE.md says 1 s. A freeze is seen only at the deadline of the first ping sent after
  // it, so with 1 s between pings a frozen plugin dies 2 to 3 s after freezing (two 1 s deadlines
  // plus up to one interval), past the 2.5 s target. At 500 ms the worst case is the target
  // itself, which a busy machine's timer lag overruns; at 400 ms a frozen plugin dies 2.0 to 2.4 s
  // after freezing. It is still killed only after two full deadlines of silence: no false kills.
  pingIntervalMs: 400,
  pingTimeoutMs: 1000,
  maxMissedPings: 2,
  callInactivityMs: 30_000,
  callHardCapMs: 300_000,
  inputAckMs: 2000,
  stopGraceMs: 500,
  termGraceMs: 2000,
  restartDelaysMs: [1000, 5000, 30_000],
  restartBudgetResetMs: 60_000,
};

/** The reference deadlines of `rterm.plugin.v1`: handshake 2 s, whole call 5 s, exit 0.5 s. */
export const RTERM_TIMEOUTS: Partial<Timeouts> = {
  handshakeMs: 2000,
  callInactivityMs: 5000,
  callHardCapMs: 5000,
  stopGraceMs: 500,
  pingIntervalMs: 0,
};

/** Who made a plugin and under which terms, as its manifest says (an MCPB bundle's author, license, icon). */
export interface PluginAbout {
  author?: string;
  license?: string;
  homepage?: string;
  /** A picture in the plugin's folder, by its path there. */
  icon?: string;
}

export interface PluginSpec {
  id: string;
  name: string;
  version: string;
  description: string;
  about?: PluginAbout;
  dialect: Dialect;
  framing: Framing;
  manifestFormat: ManifestFormat;
  /** Absolute path of the manifest file. */
  manifestPath: string;
  /** Absolute path of the plugin folder. */
  dir: string;
  /**
   * The command and its arguments as the manifest gives them. `${…}` placeholders (MCPB) are
   * substituted, and the command resolved to an absolute path, at launch.
   */
  command: string[];
  /** Working directory, absolute, inside `dir`. */
  cwd: string;
  env: Record<string, string>;
  persistent: boolean;
  tools: ToolSpec[];
  /** Capabilities the manifest requests. */
  capabilities: string[];
  timeouts: Timeouts;
  settings: SettingSpec[];
  /** JSON-RPC dialect: the call made first (Mehrhof `<type>.init`), if any. */
  init?: { method: string; params: unknown };
  rpcFlavor: RpcFlavor;
  /** G-Assist `protocol_version`, rterm `protocol_version`; informative elsewhere. */
  protocolVersion?: string;
  /** jaato-style registry facts, where the manifest gives them. */
  userCommands: UserCommandSpec[];
  autoApprovedTools: string[];
  systemInstructions?: string;
  /** The function that enriches the person's messages before a model reads them (plugboard.json). */
  promptEnricher?: string;
  /**
   * A remote MCP server, reached over Streamable HTTP instead of run as a process (`command` is
   * empty then). Header values may hold `${user_config.KEY}` (a bearer token kept as a secret).
   */
  remote?: { url: string; headers: Record<string, string> };
  /** What it may consume where its manifest says other than the defaults (shared/limits.ts). */
  limits?: Partial<PluginLimits>;
  /**
   * It loads libraries from Plugboard's own node_modules (node-pty, the AI SDK): only such a
   * plugin is told where they are (PLUGBOARD_NODE_MODULES) and shown them, read-only
   * (`app_modules` in plugboard.json and plugin.yaml).
   */
  appModules?: boolean;
}

export interface UserCommandSpec {
  name: string;
  description: string;
  /** Whether the command's output goes into the conversation a model sees. */
  shareWithModel: boolean;
}

export const HEALTH_STATES = [
  'stopped',
  'starting',
  'ready',
  'busy',
  'unresponsive',
  'crashed',
  'restarting',
  'failed',
  'disabled',
] as const;
export type HealthState = (typeof HEALTH_STATES)[number];

export interface HealthEvent {
  pluginId: string;
  state: HealthState;
  /** Why the state changed, in words. */
  reason: string;
  /** Round trip of the last answered ping, in milliseconds. */
  pingRttMs: number | null;
  /** Automatic restarts since the last user start. */
  restarts: number;
  pid: number | null;
  /** The failure that caused this state, when one did. */
  failure?: Failure;
  at: number;
  /** The last crashes, watchdog kills, restarts and stops, oldest first (the full record is the log). */
  recent?: HealthNote[];
}

/** One moment worth remembering in a plugin's health: what it became, why, and when. */
export interface HealthNote {
  state: HealthState;
  reason: string;
  at: number;
}

export type LogSource = 'stderr' | 'plugin' | 'host';
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogEvent {
  pluginId: string;
  source: LogSource;
  level: LogLevel;
  message: string;
  at: number;
}

/** One message of the conversation as plugins receive it (G-Assist `context`, rterm `context.conversation`). */
export interface ContextMessage {
  role: string;
  content: string;
}

/** The outcome of a call or a passthrough turn that the plugin completed. */
export interface CallCompletion {
  success: boolean;
  data: unknown;
  /** The plugin asks to keep talking to the user directly (G-Assist passthrough). */
  keepSession: boolean;
  /** An MCP tool with an App: its resource and the result as received, for the App. */
  app?: AppCard;
}

export type CallEvent =
  | { type: 'stream'; callId: string; data: unknown }
  | ({ type: 'complete'; callId: string } & CallCompletion)
  | { type: 'error'; callId: string; failure: Failure };
