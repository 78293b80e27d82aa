/**
 * What the UI shows of plugins, as the contract carries it: the app's facts, a plugin's row and
 * detail (tools, capabilities, settings), process figures, an install preview, palette entries,
 * and the one result shape of an operation. Types only; re-exported by contract.ts.
 */
import type { IconView } from './apps';
import type { ToolPolicy } from './assistant';
import type { Enforcement, FolderGrant } from './capabilities';
import type { DefinitionChange } from './definitions';
import type { ToolFlag } from './tool-scan';
import type { FailureCode } from './failures';
import type { LimitName, LimitUsage } from './limits';
import type { Dialect, HealthEvent, SettingSpec, ToolSpec } from './plugin';
import type { PreviousVersionView, ToolChangesView } from './tool-changes';

export interface AppInfo {
  version: string;
  platform: string;
  transport: 'ipc' | 'websocket';
  dataDir: string;
  /** Where sensitive settings are kept, in words. */
  secretStore: string;
}

/** Whether plugins run sandboxed here, and what that means for each capability. */
export interface SandboxStatusView {
  platform: string;
  available: boolean;
  /** The sandbox used (`bubblewrap`), and its path and version, where there is one. */
  tool: { name: string; path: string; version: string | null } | null;
  /** Why plugins run unsandboxed, where they do. */
  reason: string | null;
  /** Each capability, and what holds of it here. */
  capabilities: Array<{ name: string; title: string; enforced: boolean; note: string }>;
  /** How each platform Plugboard runs on is sandboxed, for comparison. */
  platforms: Array<{ platform: string; how: string }>;
  /** Plugboard runs as root: what that means for plugins here, in words; null when it does not. */
  root: string | null;
  /** How plugins' limits (processes, memory, CPU, /tmp, data folder) are held here; null when unsandboxed. */
  limits: string | null;
}

export interface PluginView {
  id: string;
  name: string;
  version: string | null;
  description: string;
  source: 'bundled' | 'installed';
  dialect: Dialect | null;
  persistent: boolean;
  /** How long a call may go without a message before it fails with `timeout` (a hung call shows it). */
  callInactivityMs?: number;
  /** Set when the plugin failed to load: it is listed, never hidden. */
  error: string | null;
  enabled: boolean;
  exposed: boolean;
  toolCount: number;
  exposedCount: number;
  requested: string[];
  granted: string[];
  /** Required settings with no value yet. */
  needsSettings: string[];
  health: HealthEvent;
  /** Its MCP server's icon (SEP-973), once the server has run and the icon is safe to show. */
  icon?: IconView;
}

export interface ToolView extends Omit<ToolSpec, 'icons'> {
  /** Its icon as its server gave it, safe to show (`data:` URIs only). */
  icon?: IconView;
  exposed: boolean;
  autoApproved: boolean;
  /** What happens when a model calls it, and what that would be without the person's choice. */
  policy: ToolPolicy;
  defaultPolicy: ToolPolicy;
  /** Its definition differs from the one the person's decisions apply to: it asks until accepted. */
  change?: DefinitionChange;
  /** What the scan of its name and description found (tool-scan.ts): information, not a block. */
  flags: ToolFlag[];
  /** The tool is one of the plugin's user commands. */
  userCommand: boolean;
  /** About how many tokens its declaration adds to every model request that offers it (an estimate). */
  declarationTokens: number;
}

export interface CapabilityView {
  name: string;
  title: string;
  description: string;
  /** How it is enforced on this machine (the plugin sandbox works here or not). */
  enforcement: Enforcement;
  /** What that means, in one sentence. */
  enforcementNote: string;
  /** `enforcement` is not `none`. */
  enforced: boolean;
  requested: boolean;
  granted: boolean;
}

export type SettingView = SettingSpec & { value: string | null; isSet: boolean };

/** A remote MCP server's OAuth sign-in, as the plugin panel shows it. */
export interface SignInView {
  state: 'signed_in' | 'signed_out';
  /** The authorization server that issued the tokens. */
  issuer?: string;
  /** When the access token expires (it is refreshed before), ms since the epoch. */
  expiresAt?: number;
  /** A sign-in is waiting for the browser. */
  pending?: boolean;
  /** How the last sign-in ended, when it failed. */
  error?: string;
}

export interface PluginDetail extends PluginView {
  dir: string;
  manifestPath: string | null;
  command: string[];
  tools: ToolView[];
  capabilities: CapabilityView[];
  /** Folders and files granted by path. */
  folders: FolderGrant[];
  settings: SettingView[];
  /** The version the last update replaced, which a rollback puts back. */
  previous: PreviousVersionView | null;
  /** For a remote MCP server that signs in with OAuth. */
  signIn?: SignInView;
  /** What it may consume (shared/limits.ts). */
  limits: LimitsView;
}

export interface ProcessStats {
  /** The process Plugboard launched (in the sandbox, bubblewrap's): the pid health events carry. */
  pid: number;
  /** The plugin's own first process (inside the sandbox, the program bubblewrap runs). */
  pluginPid: number;
  /** How many of the plugin's processes the figures add up (the sandbox's wrapper not among them). */
  processes: number;
  /** Share of one core, summed over the plugin's processes. */
  cpuPercent: number;
  /** Resident memory of the plugin's processes, summed. */
  memoryBytes: number;
  /** Round trip of the last answered idle ping (health events carry it only on state changes). */
  pingRttMs: number | null;
  /** What it uses of its limits (its whole sandbox: every process of it), where it runs under them. */
  limitUsage?: LimitUsage;
}

/** What a plugin may consume here, each limit with where its value comes from (the plugin panel). */
export interface LimitsView {
  /** How limits are held on this computer, in words; null where plugins run unsandboxed (none are). */
  enforcement: string | null;
  items: Array<{
    name: LimitName;
    /** The name people type (`memory`, as a manifest's `limits` writes it: `"memory": "2G"`). */
    key: string;
    title: string;
    value: number;
    /** The value as a person reads it (`4 GiB`). */
    shown: string;
    source: 'default' | 'manifest' | 'yours';
  }>;
}

/**
 * A folder or file a server is given in its arguments or environment, offered as a grant: the
 * path to show in its sandbox, and whether the person is offered it read-write.
 */
export interface PathGrantView {
  path: string;
  kind: 'folder' | 'file';
  /** Offered read-write (the person may choose read-only). */
  write: boolean;
  /** Where it was found: `argument 2`, `--repository`, `environment MEMORY_FILE_PATH`. */
  from: string;
  /** The file the server was given, when the grant is the folder holding it. */
  named?: string;
  exists: boolean;
  /** A word of caution: the whole home folder, a path that does not exist yet. */
  note?: string;
}

/** The package a server's runner fetches (npx, uvx…), installed once into the plugin's folder. */
export interface PackageView {
  ecosystem: 'npm' | 'pypi';
  /** As the command asks for it (`@modelcontextprotocol/server-memory`, `mcp-server-time==1.0`). */
  spec: string;
  runner: string;
  /**
   * `installed`: in the staged copy, pinned (version and integrity hash); `later`: installed when
   * the person confirms (no sandbox here to run it in before that).
   */
  status: 'installed' | 'later';
  version?: string;
  integrity?: string | null;
  packages?: number;
  message: string;
}

export interface InstallPreviewView {
  id: string;
  name: string;
  version: string;
  description: string;
  /** Who made it and under which terms, with its picture (`data:` URI) where its package has one. */
  about?: { author?: string; license?: string; homepage?: string; icon?: IconView };
  dialect: Dialect;
  tools: ToolSpec[];
  requested: CapabilityView[];
  requiredSettings: SettingSpec[];
  /** Every setting it declares (the preview's form), and the defaults as they would be used (paths resolved; no secrets). */
  settings?: SettingSpec[];
  settingDefaults?: Record<string, string | number | boolean | string[]>;
  replaces: { version: string } | null;
  warnings: string[];
  /** What the scan of its tools found: descriptions that address the model, hidden text, names that shadow. */
  flags: ToolFlag[];
  /** The command that will run (secrets hidden), or the server's URL for a remote one. */
  command: string[];
  /** How launching it here and shaking hands went, before it is installed. */
  trial: InstallTrialView;
  /** The package its runner fetches, installed into the staged copy (or when confirmed). */
  package: PackageView | null;
  /** Folders and files named in its arguments and environment, offered as grants. */
  paths: PathGrantView[];
  /** Capabilities it did not request that may be granted anyway (`net`), described. */
  unrequested: CapabilityView[];
  /** Over an installed plugin: what changes in its tools. */
  changes: ToolChangesView | null;
}

/** An install as confirmed: what was granted, and the package as pinned in the plugin's folder. */
export interface InstallDoneView {
  id: string;
  detail: string;
  version: string;
  /** It replaced an installed version. */
  upgraded: boolean;
  granted: string[];
  /** Folders and files granted by path. */
  folders: FolderGrant[];
  /** Capabilities the new version requests that were not granted before. */
  newlyRequested: string[];
  /** The package its runner fetches, as installed and pinned. */
  pinned?: { spec: string; version: string; integrity: string | null; packages: number };
  /** What the checks of the package warned about (a secret passed in the command line…). */
  warnings?: string[];
}

/**
 * A trial launch of a package before it is installed: it started and shook hands (with the tools
 * it offers, and how long the handshake took), it failed (how), or it could not be tried yet
 * (required settings without a value).
 */
export type InstallTrialView =
  | { status: 'ok'; handshakeMs: number; tools: number; server?: string }
  | { status: 'failed'; code: FailureCode; message: string; stderrTail: string[] }
  | { status: 'skipped'; message: string };

export interface PaletteEntry {
  /** A prompt is an MCP server's prompt (`prompts/list`): it fills the composer, and no model sees it. */
  kind: 'tool' | 'command' | 'prompt';
  plugin: string;
  pluginName: string;
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  autoApproved: boolean;
  /** The tool's (or prompt's) icon, else its server's (`data:` URIs only). */
  icon?: IconView;
}

/** One app's MCP config entry for `plugboard mcp` on this data folder (Settings → Use your plugins in other apps). */
export interface McpClientSnippet {
  app: 'claude' | 'cursor' | 'vscode';
  /** The app's name, as people know it. */
  label: string;
  /** Where that app keeps its MCP config, in words. */
  file: string;
  /** What to put there (JSON), the command with its absolute path and the data folder. */
  text: string;
}

/** One entry of a folder, for the path picker. */
export interface FolderEntry {
  name: string;
  kind: 'directory' | 'file';
}

/** A folder's entries (folders first), its parent (null at the root) and the person's home. */
export interface FolderListing {
  path: string;
  parent: string | null;
  home: string;
  entries: FolderEntry[];
  /** Entries past those listed. */
  more: number;
}
