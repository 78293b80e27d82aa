/**
 * The plugin registry: what is installed and bundled, and what the person decided about each
 * plugin (enabled, exposed tools, granted capabilities), persisted, applied at once to the running
 * host, and audited. Calls pass its checks before they reach a plugin. It owns the settings
 * (PluginSettings) and the installer (Installer), and it is the only one that tells the host what
 * to launch: it computes each plugin's launch binding and hands it over whenever it changes.
 * The back end of the plugin panel, drag-and-drop and `plugboard plugins`. Node only.
 */
import path from 'node:path';
import { requestedCapabilities } from '../../../shared/capabilities';
import { failure, type Failure, type Outcome, type Result } from '../../../shared/failures';
import { Emitter, type IDisposable } from '../../../shared/lifecycle';
import type { HealthEvent, PluginSpec, ToolSpec } from '../../../shared/model';
import { PluginHost, refusedCall } from '../host';
import type { InstallLimits } from './install/limits';
import type { CallHandle, CallOptions, LaunchBinding } from '../supervisor/supervisor';
import { AuditLog, type AuditAction } from './audit';
import { discover, loadRecord, type PluginRecord } from './discovery';
import { Installer, type GrantChoice, type InstallOutcome, type InstallPreview } from './installer';
import { DataPaths } from './paths';
import { PluginSettings } from './plugin-settings';
import { FileSecretStore, type SecretStore } from './secrets';
import { defaultPluginState, StateStore, type PluginState } from './state';

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
}

/** What a decision answers: what it did, or why it refused (audited either way). */
export type Done = Outcome<{ detail: string }>;

export class PluginRegistry implements IDisposable {
  readonly paths: DataPaths;
  readonly secrets: SecretStore;
  readonly state: StateStore;
  readonly settings: PluginSettings;
  private readonly host: PluginHost;
  private readonly installer: Installer;
  private readonly audit: AuditLog;
  private records = new Map<string, PluginRecord>();
  private readonly _onDidChange = new Emitter<{ id: string; reason: string }>();
  /** Something about a plugin changed (installed, removed, exposure, grants, settings, tools). */
  readonly onDidChange = this._onDidChange.event;

  private constructor(private readonly opts: RegistryOptions) {
    this.paths = new DataPaths(path.resolve(opts.dataDir));
    this.secrets = opts.secrets ?? new FileSecretStore(this.paths.secrets);
    this.state = new StateStore(this.paths.state);
    this.audit = new AuditLog(this.paths.audit);
    this.settings = new PluginSettings({ state: this.state, secrets: this.secrets, pluginState: (id) => this.pluginState(id), update: (id, fn) => this.update(id, fn) });
    this.installer = new Installer(this.paths, this.state, this.secrets, opts.limits);
    this.host = new PluginHost({
      parentEnv: opts.parentEnv ?? process.env,
      ...(opts.execPath ? { execPath: opts.execPath } : {}),
      ...(opts.isElectron !== undefined ? { isElectron: opts.isElectron } : {}),
    });
  }

  static async open(opts: RegistryOptions): Promise<PluginRegistry> {
    const r = new PluginRegistry(opts);
    await r.reload();
    if (opts.autostart) {
      // A plugin that still needs a setting waits for it, stopped, instead of failing to start.
      for (const rec of r.list()) if (rec.spec?.persistent && r.isEnabled(rec.id) && r.missingSettings(rec.id).length === 0) void r.host.start(rec.id);
    }
    return r;
  }

  get onDidChangeHealth() {
    return this.host.onDidChangeHealth;
  }
  get onDidLog() {
    return this.host.onDidLog;
  }
  get onDidChangeTools() {
    return this.host.onDidChangeTools;
  }
  get onDidChangePassthrough() {
    return this.host.onDidChangePassthrough;
  }

  /** Re-reads the plugin folders and (re)binds every plugin to the host. */
  async reload(): Promise<void> {
    const found = discover(this.opts.bundledDir, this.paths.plugins);
    const next = new Map(found.map((r) => [r.id, r]));
    for (const id of this.records.keys()) if (!next.has(id)) await this.host.remove(id);
    this.records = next;
    for (const r of found) if (r.spec) await this.bind(r.spec);
  }

  list(): PluginRecord[] {
    return [...this.records.values()];
  }

  record(id: string): PluginRecord | undefined {
    return this.records.get(id);
  }

  /** The person's decisions about a plugin; defaults for one never touched. */
  pluginState(id: string): PluginState {
    const saved = this.state.plugin(id);
    if (saved) return saved;
    const rec = this.records.get(id);
    // Bundled plugins ship with the app: what they request is granted until the person revokes it.
    return defaultPluginState(rec?.source === 'bundled' && rec.spec ? requestedCapabilities(rec.spec) : []);
  }

  isEnabled(id: string): boolean {
    return this.pluginState(id).enabled;
  }

  isExposed(id: string, tool?: string): boolean {
    const s = this.pluginState(id);
    if (!s.enabled || !s.exposed) return false;
    return tool === undefined || s.tools[tool] !== false;
  }

  granted(id: string, capability: string): boolean {
    return this.pluginState(id).grants.includes(capability);
  }

  /** Every tool of a plugin (declared, completed by what it announced) with its exposure. */
  tools(id: string): Array<ToolSpec & { exposed: boolean }> {
    const tools = this.host.tools(id) ?? this.records.get(id)?.spec?.tools ?? [];
    return tools.map((t) => ({ ...t, exposed: this.isExposed(id, t.name) }));
  }

  health(id: string): HealthEvent | undefined {
    return this.host.healthOf(id);
  }

  /** Every plugin with a process, by pid (for resource figures). */
  pids(): Map<number, string> {
    const out = new Map<number, string>();
    for (const id of this.host.ids()) {
      const pid = this.host.healthOf(id)?.pid;
      if (pid) out.set(pid, id);
    }
    return out;
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
    return refused ? refusedCall(refused, opts) : this.host.call(id, tool, args, this.gate(id, opts));
  }

  input(id: string, text: string, opts: CallOptions = {}): CallHandle {
    const refused = this.refusal(id, undefined);
    return refused ? refusedCall(refused, opts) : this.host.input(id, text, this.gate(id, opts));
  }

  endPassthrough(id: string, reason?: string): void {
    this.host.endPassthrough(id, reason);
  }

  passthroughSessions(): Array<{ pluginId: string; owner: string | undefined }> {
    return this.host.passthroughSessions();
  }

  private refusal(id: string, tool: string | undefined): Failure | undefined {
    const rec = this.records.get(id);
    if (!rec) return failure('not_found', `no plugin "${id}" is installed or bundled`);
    if (!rec.spec || !this.host.has(id)) return failure('launch_failed', `${id} could not be loaded: ${rec.error ?? 'unknown error'}`);
    if (!this.isEnabled(id)) return failure('disabled', `${id} is disabled; enable it first`);
    if (!this.pluginState(id).exposed) return failure('tool_not_exposed', `${id} is switched off (not exposed)`);
    if (tool !== undefined && !this.isExposed(id, tool)) return failure('tool_not_exposed', `${id}:${tool} is switched off`);
    return undefined;
  }

  private gate(id: string, opts: CallOptions): CallOptions {
    const out: CallOptions = { ...opts, allowPassthrough: this.granted(id, 'passthrough') };
    if (!this.granted(id, 'conversation.read')) out.context = [];
    return out;
  }

  // ---- lifecycle ---------------------------------------------------------------------------

  /** A person's start: the launch binding is computed afresh (settings may have changed elsewhere). */
  async start(id: string): Promise<Done> {
    const spec = this.loaded(id);
    if (!spec.ok) return spec;
    if (!this.isEnabled(id)) return failure('disabled', `${id} is disabled; enable it first`);
    await this.rebind(spec.value);
    const r = await this.host.start(id);
    return r.ok ? { ok: true, detail: spec.value.persistent ? 'started' : 'starts on its next call' } : r;
  }

  async stop(id: string): Promise<Done> {
    const spec = this.loaded(id);
    if (!spec.ok) return spec;
    await this.host.stop(id);
    return { ok: true, detail: 'stopped' };
  }

  async restart(id: string): Promise<Done> {
    const spec = this.loaded(id);
    if (!spec.ok) return spec;
    if (!this.isEnabled(id)) return failure('disabled', `${id} is disabled; enable it first`);
    await this.rebind(spec.value);
    const r = await this.host.restart(id);
    return r.ok ? { ok: true, detail: 'restarted' } : r;
  }

  private loaded(id: string): Result<PluginSpec> {
    const rec = this.records.get(id);
    if (!rec) return failure('not_found', `no plugin "${id}" is installed or bundled`);
    if (!rec.spec) return failure('launch_failed', `${id} could not be loaded: ${rec.error ?? 'unknown error'}`);
    return { ok: true, value: rec.spec };
  }

  // ---- install -----------------------------------------------------------------------------

  preview(source: string): Promise<Outcome<{ preview: InstallPreview }>> {
    return this.installer.preview(source, (id) => this.records.get(id));
  }

  async install(source: string, opts: { replace?: boolean; grant?: GrantChoice } = {}): Promise<InstallOutcome | Failure> {
    const prepared = await this.installer.prepare(source, (id) => this.records.get(id), opts.replace === true);
    if (!prepared.ok) return this.refused('install', prepared.id, prepared.failure, source);
    const { staged, upgrading } = prepared;
    const id = staged.spec.id;
    const existing = this.records.get(id);
    if (upgrading) await this.host.remove(id);
    const outcome = await this.installer.commit(staged, source, opts.grant ?? 'requested', upgrading);
    if (!outcome.ok) {
      if (upgrading && existing?.spec) await this.bind(existing.spec);
      return this.refused(upgrading ? 'upgrade' : 'install', id, outcome, source);
    }
    const rec = loadRecord(this.paths.plugin(id), 'installed');
    this.records.set(id, rec);
    if (rec.spec) await this.bind(rec.spec);
    this.audit.append({ action: upgrading ? 'upgrade' : 'install', plugin: id, ok: true, detail: outcome.detail, source: path.resolve(source), capabilities: outcome.granted });
    this._onDidChange.fire({ id, reason: upgrading ? 'upgraded' : 'installed' });
    return outcome;
  }

  async uninstall(id: string): Promise<Done> {
    const rec = this.records.get(id);
    if (!rec) return this.refused('uninstall', id, failure('not_found', `no plugin "${id}" is installed`));
    if (rec.source === 'bundled') {
      return this.refused('uninstall', id, failure('invalid_state', `${id} is bundled with the app and cannot be uninstalled; disable it instead`));
    }
    await this.host.remove(id);
    const r = await this.installer.uninstall(rec);
    if (!r.ok) {
      // Still installed: put it back in the host as it was.
      if (rec.spec) await this.bind(rec.spec);
      return this.refused('uninstall', id, r);
    }
    this.records.delete(id);
    this.settings.forget(id);
    this._onDidChange.fire({ id, reason: 'uninstalled' });
    return this.ok('uninstall', id, r.detail);
  }

  // ---- decisions ----------------------------------------------------------------------------

  async setEnabled(id: string, enabled: boolean): Promise<Done> {
    const action: AuditAction = enabled ? 'enable' : 'disable';
    if (!this.records.has(id)) return this.refused(action, id, failure('not_found', `no plugin "${id}"`));
    await this.update(id, (s) => {
      s.enabled = enabled;
    });
    const spec = this.records.get(id)?.spec;
    if (enabled && spec) await this.rebind(spec);
    await this.host.setEnabled(id, enabled);
    return this.ok(action, id, enabled ? 'enabled' : 'disabled');
  }

  async setExposed(id: string, tool: string | undefined, exposed: boolean): Promise<Done> {
    const action: AuditAction = exposed ? 'expose' : 'unexpose';
    if (!this.records.has(id)) return this.refused(action, id, failure('not_found', `no plugin "${id}"`));
    if (tool !== undefined) {
      const known = this.tools(id).map((t) => t.name);
      if (known.length > 0 && !known.includes(tool)) {
        return this.refused(action, id, failure('not_found', `${id} has no tool "${tool}" (it has: ${known.join(', ')})`), undefined, tool);
      }
    }
    await this.update(id, (s) => {
      if (tool === undefined) s.exposed = exposed;
      else if (exposed) delete s.tools[tool];
      else s.tools[tool] = false;
    });
    return this.ok(action, id, `${tool === undefined ? id : `${id}:${tool}`} ${exposed ? 'exposed' : 'unexposed'}`, tool);
  }

  grant(id: string, capabilities: string[]): Promise<Done> {
    return this.changeGrants(id, capabilities, true);
  }

  revoke(id: string, capabilities: string[]): Promise<Done> {
    return this.changeGrants(id, capabilities, false);
  }

  private async changeGrants(id: string, caps: string[], grant: boolean): Promise<Done> {
    const action: AuditAction = grant ? 'grant' : 'revoke';
    const spec = this.loaded(id);
    if (!spec.ok) return this.refused(action, id, spec);
    const requested = requestedCapabilities(spec.value);
    const unknown = grant ? caps.filter((c) => !requested.includes(c)) : [];
    if (unknown.length > 0) {
      const why = failure('invalid_input', `${id} does not request ${unknown.join(', ')} (it requests: ${requested.join(', ') || 'nothing'})`);
      return this.refused(action, id, why, undefined, undefined, caps);
    }
    await this.update(id, (s) => {
      s.grants = grant ? [...new Set([...s.grants, ...caps])] : s.grants.filter((g) => !caps.includes(g));
    });
    // Grants are read at launch (handshake checks, secrets in the environment): restart a running plugin.
    await this.applyToRunning(spec.value);
    return this.ok(action, id, `${grant ? 'granted' : 'revoked'} ${caps.join(', ')}`, undefined, caps);
  }

  /** Sets settings (see PluginSettings.configure); a running plugin restarts with them. */
  async configure(id: string, values: Record<string, unknown>): Promise<Done> {
    const spec = this.loaded(id);
    if (!spec.ok) return this.refused('configure', id, spec);
    const r = await this.settings.configure(id, spec.value.settings, values);
    if (!r.ok) return this.refused('configure', id, r);
    await this.applyToRunning(spec.value);
    return this.ok('configure', id, r.detail);
  }

  // ---- host binding -------------------------------------------------------------------------

  /** The launch binding of a plugin, from its settings, secrets and grants as they are now. */
  private async binding(spec: PluginSpec): Promise<LaunchBinding> {
    const id = spec.id;
    const allowedCapabilities = this.pluginState(id).grants;
    const withheld = this.settings.withheld(id, spec.settings);
    if (withheld.length > 0) {
      const plan = failure(
        'capability_not_allowed',
        `${id} needs the secret setting${withheld.length > 1 ? 's' : ''} ${withheld.join(', ')}, but the secrets capability is not granted: grant it in the plugin's Permissions (plugboard plugins grant ${id} secrets)`,
      );
      return { plan, allowedCapabilities };
    }
    const env = { ...(this.opts.env ?? {}), ...this.paths.pluginEnv(id, spec.dir, this.opts.nodeModules) };
    return { plan: this.host.plan(spec, await this.settings.launchValues(id, spec.settings), env), allowedCapabilities };
  }

  private async bind(spec: PluginSpec): Promise<void> {
    await this.settings.noteSecrets(spec.id, spec.settings);
    await this.host.add(spec, { binding: await this.binding(spec), enabled: this.isEnabled(spec.id) });
  }

  private async rebind(spec: PluginSpec): Promise<void> {
    this.host.rebind(spec.id, await this.binding(spec));
  }

  /** After a change of settings or grants: the next launch uses them, and a running plugin restarts. */
  private async applyToRunning(spec: PluginSpec): Promise<void> {
    await this.rebind(spec);
    if (spec.persistent && this.host.healthOf(spec.id)?.pid) await this.host.restart(spec.id);
  }

  private async update(id: string, fn: (s: PluginState) => void): Promise<void> {
    const fallback = this.pluginState(id);
    await this.state.update((state) => {
      const s = state.plugins[id] ?? structuredClone(fallback);
      fn(s);
      state.plugins[id] = s;
    });
    this._onDidChange.fire({ id, reason: 'state' });
  }

  private ok(action: AuditAction, id: string, detail: string, tool?: string, capabilities?: string[]): Done {
    this.audit.append({ action, plugin: id, ok: true, detail, ...(tool ? { tool } : {}), ...(capabilities ? { capabilities } : {}) });
    return { ok: true, detail };
  }

  private refused(action: AuditAction, id: string, why: Failure, source?: string, tool?: string, capabilities?: string[]): Failure {
    this.audit.append({
      action,
      plugin: id,
      ok: false,
      detail: why.message,
      ...(source ? { source: path.resolve(source) } : {}),
      ...(tool ? { tool } : {}),
      ...(capabilities ? { capabilities } : {}),
    });
    return why;
  }

  async shutdown(): Promise<void> {
    await this.host.shutdown();
  }

  dispose(): void {
    this.host.dispose();
    this._onDidChange.dispose();
  }
}
