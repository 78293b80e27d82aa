/**
 * The plugin registry: what is installed and bundled, and what the person decided about each
 * plugin (enabled, exposed tools, granted capabilities), persisted, applied at once to the running
 * host, and audited. Calls pass its checks before they reach a plugin. It owns its parts and lets
 * the layers above use them directly, with nothing in between: the decisions (`decisions`:
 * enable, expose, grant, configure, tool policies), the installer (`installer`), the settings
 * (`settings`), and a view of the host that answers questions but runs no call (`host`). What it
 * adds itself: the records, the checks a call passes, starts that rebind first, and the merged
 * views of a plugin's tools. It is the only one that tells the host what to launch: it computes
 * each plugin's launch binding and hands it over whenever it changes. The back end of the plugin
 * panel, drag-and-drop and `plugboard plugins`. Node only.
 */
/* eslint-disable max-lines -- one whole concern: the records and the checks every call passes, with the wiring of the parts that own the decisions, definitions, settings and installs */
import path from 'node:path';
import { failure, type Done, type Failure } from '../../../shared/failures';
import type { IDisposable } from '../../../shared/lifecycle';
import type { PluginSpec, ToolSpec } from '../../../shared/plugin';
import {
  PluginHost,
  refusedCall,
  sandboxSupport,
  type CallHandle,
  type CallOptions,
  type SandboxSupport,
} from '../../host';
import type { InstallLimits } from '../install/limits';
import { PluginBindings } from './bindings';
import { Decisions } from './decisions';
import { DefinitionDecisions } from './definition-decisions';
import { RecordBook } from './records';
import { AuditLog } from '../audit';
import { discover, type PluginRecord } from './discovery';
import { syncWithDisk } from './disk-sync';
import { Installer } from '../install/installer';
import { DataPaths } from '../data-paths';
import { PluginSettings } from './plugin-settings';
import { SignIns } from './sign-ins';
import { FileSecretStore, type SecretStore } from '../secrets';
import { startupHousekeeping } from './startup';
import { explainFailure } from '../grants/missing';
import { offeredPaths } from '../install/describe';
import { exposedIn, StateStore } from './state';

export interface RegistryOptions {
  dataDir: string;
  /** The app's bundled plugins folder. */
  bundledDir?: string;
  secrets?: SecretStore;
  limits?: Partial<InstallLimits>;
  parentEnv?: NodeJS.ProcessEnv;
  execPath?: string;
  isElectron?: boolean;
  /** The app's node_modules, for bundled plugins that need a native module (node-pty). */
  nodeModules?: string;
  /** Start enabled persistent plugins when the registry opens (the app does; the CLI does not). */
  autostart?: boolean;
  /** Extra environment for every plugin (tests mark their processes with it). */
  env?: Record<string, string>;
  /** `false`: run plugins unsandboxed even where the sandbox works. Default: sandboxed where it works. */
  sandbox?: boolean;
  /**
   * Plugboard's OAuth Client ID Metadata Document (an https URL), used to sign in to remote
   * servers that accept one. Default: `PLUGBOARD_OAUTH_CLIENT_ID_URL`, else none (dynamic registration).
   */
  oauthClientMetadataUrl?: string;
}

/**
 * What the layers above may ask the host through the registry: questions about the running
 * plugins, leaving a passthrough session, and who answers what MCP servers ask. No call and no
 * start passes here: those pass the registry's checks (`call`, `input`, `start`).
 */
export type HostView = Pick<
  PluginHost,
  | 'healthOf'
  | 'pids'
  | 'features'
  | 'serverIcons'
  | 'endPassthrough'
  | 'passthroughSessions'
  | 'asks'
  | 'announcedTools'
>;

export class PluginRegistry implements IDisposable {
  readonly paths: DataPaths;
  readonly secrets: SecretStore;
  readonly state: StateStore;
  readonly settings: PluginSettings;
  /** The host's answers about running plugins (health, pids, features, passthrough sessions). */
  readonly host: HostView;
  /** The same host, whole: calls and starts go to it once they passed the registry's checks. */
  private readonly pluginHost: PluginHost;
  readonly installer: Installer;
  readonly decisions: Decisions;
  /** Tool definitions and the hashes the person's decisions apply to (how one changed, accepting it). */
  readonly definitions: DefinitionDecisions;
  /** Sign-ins to remote MCP servers (OAuth): their state, sign-in and sign-out. */
  readonly signIns: SignIns;
  private readonly bindings: PluginBindings;
  readonly audit: AuditLog; // one open log for the registry and the assistant's calls
  private readonly records = new RecordBook();
  /** What opening the data directory tidied (modes tightened, leftovers stopped), one line each. */
  startupNotes: string[] = [];
  /** Something about a plugin changed (installed, removed, exposure, grants, settings). */
  readonly onDidChange = this.records.onDidChange;
  readonly onDidChangeHealth: PluginHost['onDidChangeHealth'];
  readonly onDidLog: PluginHost['onDidLog'];
  readonly onDidChangeTools: PluginHost['onDidChangeTools'];
  readonly onDidChangePassthrough: PluginHost['onDidChangePassthrough'];
  readonly onDidChangeFeatures: PluginHost['onDidChangeFeatures'];

  private constructor(private readonly opts: RegistryOptions) {
    this.paths = new DataPaths(path.resolve(opts.dataDir));
    this.secrets = opts.secrets ?? new FileSecretStore(this.paths.secrets);
    this.state = new StateStore(this.paths.state);
    this.audit = new AuditLog(this.paths.audit);
    this.host = this.pluginHost = new PluginHost({
      parentEnv: opts.parentEnv ?? process.env,
      ...(opts.execPath ? { execPath: opts.execPath } : {}),
      ...(opts.isElectron !== undefined ? { isElectron: opts.isElectron } : {}),
    });
    // A failure for want of a grant names it (grants/missing.ts), wherever it is shown.
    this.onDidChangeHealth = (listener) =>
      this.pluginHost.onDidChangeHealth((e) =>
        listener(e.failure ? { ...e, failure: this.explain(e.pluginId, e.failure) } : e),
      );
    ({
      onDidLog: this.onDidLog,
      onDidChangeTools: this.onDidChangeTools,
      onDidChangePassthrough: this.onDidChangePassthrough,
      onDidChangeFeatures: this.onDidChangeFeatures,
    } = this.pluginHost);
    this.decisions = new Decisions({
      state: this.state,
      audit: this.audit,
      records: this.records,
      host: this.pluginHost,
      bindings: () => this.bindings,
      settings: () => this.settings,
      tools: (id) => this.tools(id),
    });
    this.definitions = new DefinitionDecisions({
      records: this.records,
      audit: this.audit,
      tools: (id) => this.tools(id),
      pluginState: (id) => this.decisions.pluginState(id),
      update: (id, fn, audit) => this.decisions.update(id, fn, audit),
    });
    // A plugin's first tool list is recorded as the definitions the person's decisions apply to.
    this.pluginHost.onDidChangeTools((e) => {
      if (e.initial) void this.definitions.recordFirst(e.pluginId);
    });
    this.settings = new PluginSettings({
      state: this.state,
      secrets: this.secrets,
      pluginState: (id) => this.decisions.pluginState(id),
      update: (id, fn, audit) => this.decisions.update(id, fn, audit),
    });
    this.bindings = new PluginBindings(
      this.pluginHost,
      this.paths,
      this.settings,
      (id) => this.decisions.pluginState(id),
      opts,
    );
    const clientMetadataUrl =
      opts.oauthClientMetadataUrl ?? (opts.parentEnv ?? process.env).PLUGBOARD_OAUTH_CLIENT_ID_URL;
    this.signIns = new SignIns({
      secrets: this.secrets,
      audit: this.audit,
      plan: async (spec) => (await this.bindings.binding(spec)).plan,
      applied: (spec) => this.afterSignIn(spec),
      ...(clientMetadataUrl ? { clientMetadataUrl } : {}),
    });
    this.bindings.oauth = (id, plan) => this.signIns.withOAuth(id, plan);
    this.installer = new Installer(this.paths, this.state, this.secrets, this.audit, this.records, this.bindings, {
      ...(opts.limits ? { limits: opts.limits } : {}),
      ...(opts.parentEnv ? { parentEnv: opts.parentEnv } : {}),
      ...(opts.sandbox === false ? { sandbox: false } : {}),
      ...(opts.autostart ? { autostart: true } : {}),
    });
  }

  static async open(opts: RegistryOptions): Promise<PluginRegistry> {
    const r = new PluginRegistry(opts);
    r.startupNotes = await startupHousekeeping(r.paths, r.bindings.processes);
    await r.reload();
    if (opts.autostart) {
      // A plugin that still needs a setting waits for it, stopped, instead of failing to start.
      for (const rec of r.list())
        if (rec.spec?.persistent && r.isEnabled(rec.id) && r.missingSettings(rec.id).length === 0)
          void r.pluginHost.start(rec.id);
    }
    return r;
  }

  /** Whether plugins run sandboxed here, and why not where they do not (the same for every plugin). */
  get sandboxSupport(): SandboxSupport {
    return this.opts.sandbox === false
      ? { available: false, reason: 'turned off for this Plugboard (sandbox: false)' }
      : sandboxSupport();
  }

  /**
   * Catches up with what another process on the data folder installed, removed, enabled or
   * disabled (disk-sync.ts): unchanged plugins keep running. Answers the ids that changed.
   */
  syncWithDisk = (): Promise<string[]> =>
    syncWithDisk({
      bundledDir: this.opts.bundledDir,
      installedDir: this.paths.plugins,
      records: this.records,
      host: this.pluginHost,
      bindings: this.bindings,
      isEnabled: (id) => this.isEnabled(id),
    });

  /** Re-reads the plugin folders and (re)binds every plugin to the host. */
  async reload(): Promise<void> {
    const found = discover(this.opts.bundledDir, this.paths.plugins);
    for (const id of this.records.replaceAll(found)) await this.pluginHost.remove(id);
    for (const r of found) if (r.spec) await this.bindings.bind(r.spec);
  }

  list = (): PluginRecord[] => this.records.list();
  record = (id: string): PluginRecord | undefined => this.records.get(id);

  isEnabled(id: string): boolean {
    return this.decisions.pluginState(id).enabled;
  }

  isExposed(id: string, tool?: string): boolean {
    return exposedIn(this.decisions.pluginState(id), tool);
  }

  granted(id: string, capability: string): boolean {
    return this.decisions.pluginState(id).grants.includes(capability);
  }

  /** A cache key for what `tools` and `isExposed` answer (objects new whenever they change): the decisions read now, each record, its tools. */
  toolsStamp = (): unknown[] => [
    this.state.read(),
    ...this.records.list().flatMap((r) => [r, this.pluginHost.tools(r.id)]),
  ];

  /** Every tool of a plugin (declared, completed by what it announced) with its exposure. */
  tools(id: string): Array<ToolSpec & { exposed: boolean }> {
    const tools = this.pluginHost.tools(id) ?? this.records.get(id)?.spec?.tools ?? [];
    // One read of the state for all the tools: the assistant asks at every step of a turn.
    const state = this.decisions.pluginState(id);
    return tools.map((t) => ({ ...t, exposed: exposedIn(state, t.name) }));
  }

  /** Every plugin's tools, by name (what a tool name may shadow, or a description name: tool-scan.ts). */
  everyTool = (): Array<{ plugin: string; tool: string }> =>
    this.records.list().flatMap((r) => this.tools(r.id).map((t) => ({ plugin: r.id, tool: t.name })));

  /** What the plugin tells a model: its manifest's instructions, else its MCP server's (initialize). */
  instructions(id: string): string | undefined {
    return this.records.get(id)?.spec?.systemInstructions ?? this.pluginHost.instructions(id);
  }

  missingSettings(id: string): string[] {
    const spec = this.records.get(id)?.spec;
    return spec ? this.settings.missing(id, spec.settings) : [];
  }

  // ---- calls -------------------------------------------------------------------------------

  /**
   * Calls a tool the way the person allowed: refused before anything starts when the plugin is
   * unknown (`not_found`), disabled (`disabled`), or it or the tool is switched off
   * (`tool_not_exposed`); the chat context only with `conversation.read`; a passthrough session
   * only with `passthrough`.
   */
  call(id: string, tool: string, args: Record<string, unknown>, opts: CallOptions = {}): CallHandle {
    const refused = this.refusal(id, tool);
    return refused
      ? refusedCall(refused, opts)
      : this.explained(id, this.pluginHost.call(id, tool, args, this.gate(id, opts)));
  }

  input(id: string, text: string, opts: CallOptions = {}): CallHandle {
    const refused = this.refusal(id, undefined);
    return refused
      ? refusedCall(refused, opts)
      : this.explained(id, this.pluginHost.input(id, text, this.gate(id, opts)));
  }

  /** A failure with the grant it seems to lack named (grants/missing.ts). */
  explain(id: string, f: Failure): Failure {
    const spec = this.records.get(id)?.spec;
    if (!spec || spec.remote) return f;
    const state = this.decisions.pluginState(id);
    return explainFailure(f, {
      id,
      sandboxed: this.sandboxSupport.available,
      net: state.grants.includes('net'),
      offered: offeredPaths(spec, this.paths.root),
      folders: state.folders ?? [],
    });
  }

  private explained(id: string, h: CallHandle): CallHandle {
    const done = h.done.then((o) => (o.ok ? o : this.explain(id, o)));
    return { ...h, done };
  }

  private refusal(id: string, tool: string | undefined): Failure | undefined {
    const rec = this.records.get(id);
    if (!rec) return failure('not_found', `no plugin "${id}" is installed or bundled`);
    if (!rec.spec || !this.pluginHost.has(id))
      return failure('manifest_invalid', `${id} could not be loaded: ${rec.error ?? 'unknown error'}`);
    if (!this.isEnabled(id)) return failure('disabled', `${id} is disabled; enable it first`);
    if (!this.decisions.pluginState(id).exposed)
      return failure('tool_not_exposed', `${id} is switched off (not exposed)`);
    if (tool !== undefined && !this.isExposed(id, tool))
      return failure('tool_not_exposed', `${id}:${tool} is switched off`);
    return undefined;
  }

  private gate(id: string, opts: CallOptions): CallOptions {
    // A caller with no way to hold a session (another app, through MCP) says so: false stays false.
    const out: CallOptions = {
      ...opts,
      allowPassthrough: opts.allowPassthrough !== false && this.granted(id, 'passthrough'),
    };
    if (!this.granted(id, 'conversation.read')) out.context = [];
    // The chat reads a call's failure from its final event: it names the missing grant too.
    const onEvent = opts.onEvent;
    if (onEvent) out.onEvent = (e) => onEvent(e.type === 'error' ? { ...e, failure: this.explain(id, e.failure) } : e);
    return out;
  }

  // ---- lifecycle ---------------------------------------------------------------------------

  /** A person's start: the launch binding is computed afresh (settings may have changed elsewhere). */
  async start(id: string): Promise<Done> {
    const spec = this.decisions.loaded(id);
    if (!spec.ok) return spec;
    if (!this.isEnabled(id)) return failure('disabled', `${id} is disabled; enable it first`);
    await this.bindings.rebind(spec.value);
    const r = await this.pluginHost.start(id);
    return r.ok
      ? { ok: true, detail: spec.value.persistent ? 'started' : 'starts on its next call' }
      : this.explain(id, r);
  }

  async stop(id: string): Promise<Done> {
    const spec = this.decisions.loaded(id);
    if (!spec.ok) return spec;
    await this.pluginHost.stop(id);
    return { ok: true, detail: 'stopped' };
  }

  async restart(id: string): Promise<Done> {
    const spec = this.decisions.loaded(id);
    if (!spec.ok) return spec;
    if (!this.isEnabled(id)) return failure('disabled', `${id} is disabled; enable it first`);
    await this.bindings.rebind(spec.value);
    const r = await this.pluginHost.restart(id);
    return r.ok ? { ok: true, detail: 'restarted' } : r;
  }

  /**
   * After a sign-in or sign-out: a running server is reached again with the tokens as they are
   * now (a link keeps the ones it read), and one that failed for want of a sign-in starts.
   */
  private async afterSignIn(spec: PluginSpec): Promise<void> {
    await this.bindings.rebind(spec);
    const h = this.pluginHost.healthOf(spec.id);
    if (!h || !this.isEnabled(spec.id)) return;
    if (['ready', 'busy', 'starting', 'unresponsive'].includes(h.state)) await this.pluginHost.restart(spec.id);
    else if (spec.persistent && ['failed', 'crashed'].includes(h.state))
      void this.pluginHost.start(spec.id).catch(() => undefined);
  }

  async shutdown(): Promise<void> {
    await this.pluginHost.shutdown();
  }

  dispose(): void {
    this.installer.dispose();
    this.pluginHost.dispose();
    this.records.dispose();
    this.bindings.dispose();
    this.audit.dispose();
  }
}
