/**
 * The plugin registry: what is installed and bundled, and everything the user decides about each
 * plugin (enabled, exposed tools, granted capabilities, settings and secrets), persisted, applied
 * at once to the running host, and audited. The back end of the plugin panel, drag-and-drop and
 * `plugboard plugins`. Node only.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { requestedCapabilities } from '../../../shared/capabilities';
import { failure, type Failure } from '../../../shared/failures';
import { Emitter, type IDisposable } from '../../../shared/lifecycle';
import type { PluginSpec, SettingSpec, ToolSpec } from '../../../shared/model';
import { PluginHost } from '../host';
import type { SettingValue } from '../process/launch';
import { appReadOnlyFolders, type SandboxRequest } from '../process/sandbox-prepare';
import { sandboxSupport, type SandboxSupport } from '../process/sandbox-probe';
import type { CallHandle, CallOptions, PluginSupervisor } from '../supervisor/supervisor';
import { AuditLog, type AuditAction } from './audit';
import { discover, loadRecord, type PluginRecord } from './discovery';
import { installStaged, removeInstalled, type InstallOutcome } from './install/commit';
import { DEFAULT_LIMITS, type InstallLimits } from './install/limits';
import { stage, type Staged } from './install/stage';
import { DataPaths } from './paths';
import { FileSecretStore, type SecretStore } from './secrets';
import { coerceSetting, displayValue } from './settings';
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
  /** `false`: run plugins unsandboxed even where the sandbox works. Default: sandboxed where it works. */
  sandbox?: boolean;
}

/** What a registry operation answers: what it did, or why it refused (already audited). */
export type Done = { ok: true; detail: string } | Refused;
export interface Refused {
  ok: false;
  message: string;
}

export interface InstallPreview {
  ok: true;
  id: string;
  name: string;
  version: string;
  description: string;
  dialect: PluginSpec['dialect'];
  tools: ToolSpec[];
  requested: string[];
  requiredSettings: SettingSpec[];
  /** Set when a plugin with this id is installed already. */
  replaces?: { version: string };
  warnings: string[];
}

export interface ToolDeclaration {
  /** `plugin__tool`: unique across plugins, safe as a model function name. */
  qualifiedName: string;
  plugin: string;
  tool: string;
  description: string;
  parameters: Record<string, unknown>;
}

export class PluginRegistry implements IDisposable {
  readonly paths: DataPaths;
  readonly host: PluginHost;
  readonly secrets: SecretStore;
  readonly state: StateStore;
  private readonly audit: AuditLog;
  private readonly limits: InstallLimits;
  private records = new Map<string, PluginRecord>();
  /**
   * Which secret settings have a value, per plugin: kept here so the plugin list can name a
   * missing secret without reading the secret store (the OS keychain in the app) every time.
   */
  private readonly secretKeys = new Map<string, Set<string>>();
  private readonly _onDidChange = new Emitter<{ id: string; reason: string }>();
  /** Something about a plugin changed (installed, removed, exposure, grants, settings). */
  readonly onDidChange = this._onDidChange.event;

  private constructor(private readonly opts: RegistryOptions) {
    this.paths = new DataPaths(path.resolve(opts.dataDir));
    this.secrets = opts.secrets ?? new FileSecretStore(this.paths.secrets);
    this.state = new StateStore(this.paths.state);
    this.audit = new AuditLog(this.paths.audit);
    this.limits = { ...DEFAULT_LIMITS, ...(opts.limits ?? {}) };
    this.host = new PluginHost({
      parentEnv: opts.parentEnv ?? process.env,
      ...(opts.execPath ? { execPath: opts.execPath } : {}),
      ...(opts.isElectron !== undefined ? { isElectron: opts.isElectron } : {}),
      hostEnv: (spec) => this.hostEnv(spec),
      sandbox: (spec) => (opts.sandbox === false ? undefined : this.sandbox(spec)),
    });
  }

  static async open(opts: RegistryOptions): Promise<PluginRegistry> {
    const r = new PluginRegistry(opts);
    await r.reload();
    if (opts.autostart) {
      // A plugin that still needs a setting waits for it, stopped, instead of failing to start.
      for (const s of r.host.list()) if (s.spec.persistent && r.isEnabled(s.spec.id) && r.missingSettings(s.spec.id).length === 0) void s.start();
    }
    return r;
  }

  /** Re-reads the plugin folders and (re)binds every plugin to the host. */
  async reload(): Promise<void> {
    const found = discover(this.opts.bundledDir, this.paths.plugins);
    const next = new Map(found.map((r) => [r.id, r]));
    for (const id of this.records.keys()) if (!next.has(id)) await this.host.remove(id);
    this.records = next;
    for (const r of found) {
      if (!r.spec) continue;
      if (r.spec.settings.some((x) => x.sensitive)) await this.readSecrets(r.id).catch(() => undefined);
      await this.bind(r.spec);
    }
  }

  /** A plugin's secrets, noting which are set. */
  private async readSecrets(id: string): Promise<Record<string, string>> {
    const values = await this.secrets.get(id);
    this.secretKeys.set(id, new Set(Object.keys(values)));
    return values;
  }

  list(): PluginRecord[] {
    return [...this.records.values()];
  }

  record(id: string): PluginRecord | undefined {
    return this.records.get(id);
  }

  supervisor(id: string): PluginSupervisor | undefined {
    return this.host.get(id);
  }

  /** The user's decisions about a plugin; defaults for one never touched. */
  pluginState(id: string): PluginState {
    const saved = this.state.plugin(id);
    if (saved) return saved;
    const rec = this.records.get(id);
    // Bundled plugins ship with the app: what they request is granted until the user revokes it.
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

  /** Every tool of a plugin with its exposure. */
  tools(id: string): Array<ToolSpec & { exposed: boolean }> {
    const sup = this.host.get(id);
    const tools = sup ? sup.tools : (this.records.get(id)?.spec?.tools ?? []);
    return tools.map((t) => ({ ...t, exposed: this.isExposed(id, t.name) }));
  }

  // ---- calls -------------------------------------------------------------------------------

  /**
   * Calls a tool the way the user allowed: refused with `tool_not_exposed` before anything starts
   * when the plugin is disabled or the tool unexposed; the chat context only with
   * `conversation.read`; a passthrough session only with `passthrough`.
   */
  call(id: string, tool: string, args: Record<string, unknown>, opts: CallOptions = {}): CallHandle {
    const sup = this.host.get(id);
    const refused = this.refusal(id, tool, sup);
    if (refused || !sup) return refusedHandle(refused ?? failure('tool_not_exposed', `no plugin "${id}"`), opts);
    return sup.call(tool, args, this.gate(id, opts));
  }

  input(id: string, text: string, opts: CallOptions = {}): CallHandle {
    const sup = this.host.get(id);
    const refused = this.refusal(id, undefined, sup);
    if (refused || !sup) return refusedHandle(refused ?? failure('tool_not_exposed', `no plugin "${id}"`), opts);
    return sup.input(text, this.gate(id, opts));
  }

  private refusal(id: string, tool: string | undefined, sup: PluginSupervisor | undefined): Failure | undefined {
    const rec = this.records.get(id);
    if (!rec) return failure('tool_not_exposed', `no plugin "${id}" is installed or bundled`);
    if (!rec.spec || !sup) return failure('launch_failed', `${id} could not be loaded: ${rec.error ?? 'unknown error'}`);
    if (!this.isEnabled(id)) return failure('tool_not_exposed', `${id} is disabled; enable it first`);
    if (!this.pluginState(id).exposed) return failure('tool_not_exposed', `${id} is not exposed`);
    if (tool !== undefined && !this.isExposed(id, tool)) return failure('tool_not_exposed', `${id}:${tool} is switched off`);
    return undefined;
  }

  private gate(id: string, opts: CallOptions): CallOptions {
    const out: CallOptions = { ...opts, allowPassthrough: this.granted(id, 'passthrough') };
    if (!this.granted(id, 'conversation.read')) out.context = [];
    return out;
  }

  // ---- install ----------------------------------------------------------------------------

  async preview(source: string): Promise<InstallPreview | Refused> {
    const staged = await stage(source, this.paths, this.limits);
    if (!staged.ok) return staged;
    try {
      return this.describeStaged(staged);
    } finally {
      staged.discard();
    }
  }

  async install(source: string, opts: { replace?: boolean; grant?: 'requested' | 'none' | string[] } = {}): Promise<InstallOutcome | Refused> {
    const staged = await stage(source, this.paths, this.limits);
    if (!staged.ok) return this.refused('install', '?', source, staged.message);
    const id = staged.spec.id;
    const existing = this.records.get(id);
    if (existing?.source === 'bundled') {
      staged.discard();
      return this.refused('install', id, source, `"${id}" is the id of a bundled plugin; choose another id`);
    }
    const upgrading = existing !== undefined && existing.source === 'installed';
    if (upgrading && !opts.replace) {
      staged.discard();
      return this.refused('install', id, source, `a plugin "${id}" is installed already (version ${existing.spec?.version ?? '?'}); replace it to upgrade`);
    }
    const requested = requestedCapabilities(staged.spec);
    const grants = opts.grant === 'none' ? [] : Array.isArray(opts.grant) ? opts.grant.filter((g) => requested.includes(g)) : requested;
    if (upgrading) await this.host.remove(id);
    const outcome = await installStaged(staged, {
      paths: this.paths,
      state: this.state,
      source: path.resolve(source),
      grants,
      upgrade: upgrading,
    });
    if (!outcome.ok) {
      if (upgrading && existing.spec) await this.bind(existing.spec);
      return this.refused(upgrading ? 'upgrade' : 'install', id, source, outcome.message);
    }
    // A fresh install starts without secrets, even ones an earlier uninstall elsewhere left behind.
    if (!upgrading) await this.secrets.removeAll(id).catch(() => undefined);
    await this.readSecrets(id).catch(() => undefined);
    const rec = loadRecord(this.paths.plugin(id), 'installed');
    this.records.set(id, rec);
    if (rec.spec) await this.bind(rec.spec);
    this.audit.append({ action: upgrading ? 'upgrade' : 'install', plugin: id, ok: true, detail: outcome.detail, source: path.resolve(source), capabilities: outcome.granted });
    this._onDidChange.fire({ id, reason: upgrading ? 'upgraded' : 'installed' });
    return outcome;
  }

  private describeStaged(staged: Staged): InstallPreview {
    const s = staged.spec;
    const existing = this.records.get(s.id);
    const p: InstallPreview = {
      ok: true,
      id: s.id,
      name: s.name,
      version: s.version,
      description: s.description,
      dialect: s.dialect,
      tools: s.tools,
      requested: requestedCapabilities(s),
      requiredSettings: s.settings.filter((x) => x.required && x.default === undefined),
      warnings: staged.warnings,
    };
    if (existing?.spec) p.replaces = { version: existing.spec.version };
    return p;
  }

  async uninstall(id: string): Promise<Done> {
    const rec = this.records.get(id);
    if (!rec) return this.refused('uninstall', id, undefined, `no plugin "${id}" is installed`);
    if (rec.source === 'bundled') return this.refused('uninstall', id, undefined, `${id} is bundled with the app and cannot be uninstalled; disable it instead`);
    await this.host.remove(id);
    const r = await removeInstalled(id, rec.dir, { paths: this.paths, state: this.state, secrets: this.secrets });
    if (!r.ok) {
      // Still installed: put it back in the host as it was.
      if (rec.spec) await this.bind(rec.spec);
      return this.refused('uninstall', id, undefined, r.message);
    }
    this.records.delete(id);
    this.secretKeys.delete(id);
    this._onDidChange.fire({ id, reason: 'uninstalled' });
    return this.ok('uninstall', id, `removed ${rec.dir}, its settings, secrets and data`);
  }

  // ---- decisions ----------------------------------------------------------------------------

  async setEnabled(id: string, enabled: boolean): Promise<Done> {
    const action: AuditAction = enabled ? 'enable' : 'disable';
    if (!this.records.has(id)) return this.refused(action, id, undefined, `no plugin "${id}"`);
    await this.update(id, (s) => {
      s.enabled = enabled;
    });
    await this.host.get(id)?.setEnabled(enabled);
    return this.ok(action, id, enabled ? 'enabled' : 'disabled');
  }

  async setExposed(id: string, tool: string | undefined, exposed: boolean): Promise<Done> {
    const action: AuditAction = exposed ? 'expose' : 'unexpose';
    if (!this.records.has(id)) return this.refused(action, id, undefined, `no plugin "${id}"`);
    if (tool !== undefined) {
      const known = this.tools(id).map((t) => t.name);
      if (known.length > 0 && !known.includes(tool)) {
        return this.refused(action, id, undefined, `${id} has no tool "${tool}" (it has: ${known.join(', ')})`, tool);
      }
    }
    await this.update(id, (s) => {
      if (tool === undefined) s.exposed = exposed;
      else if (exposed) delete s.tools[tool];
      else s.tools[tool] = false;
    });
    return this.ok(action, id, `${tool === undefined ? id : `${id}:${tool}`} ${exposed ? 'exposed' : 'unexposed'}`, tool);
  }

  async grant(id: string, capabilities: string[]): Promise<Done> {
    return this.changeGrants(id, capabilities, true);
  }

  async revoke(id: string, capabilities: string[]): Promise<Done> {
    return this.changeGrants(id, capabilities, false);
  }

  private async changeGrants(id: string, caps: string[], grant: boolean): Promise<Done> {
    const action: AuditAction = grant ? 'grant' : 'revoke';
    const rec = this.records.get(id);
    if (!rec?.spec) return this.refused(action, id, undefined, rec ? `${id} could not be loaded` : `no plugin "${id}"`);
    const requested = requestedCapabilities(rec.spec);
    const unknown = grant ? caps.filter((c) => !requested.includes(c)) : [];
    if (unknown.length > 0) {
      return this.refused(action, id, undefined, `${id} does not request ${unknown.join(', ')} (it requests: ${requested.join(', ') || 'nothing'})`, undefined, caps);
    }
    await this.update(id, (s) => {
      s.grants = grant ? [...new Set([...s.grants, ...caps])] : s.grants.filter((g) => !caps.includes(g));
    });
    // Grants are read at launch (handshake checks, secrets in the environment): restart a running plugin.
    const sup = this.host.get(id);
    if (sup && sup.health.pid !== null && sup.spec.persistent) await sup.restart();
    return this.ok(action, id, `${grant ? 'granted' : 'revoked'} ${caps.join(', ')}`, undefined, caps);
  }

  /**
   * Sets settings from text (`KEY=VALUE`) or values; `null` unsets. Sensitive values go to the
   * secret store, never to the settings file. Every value is checked before any is stored.
   */
  async configure(id: string, values: Record<string, unknown>): Promise<Done> {
    const rec = this.records.get(id);
    if (!rec?.spec) return this.refused('configure', id, undefined, rec ? `${id} could not be loaded` : `no plugin "${id}"`);
    const specs = rec.spec.settings;
    const plain: Record<string, SettingValue | null> = {};
    const secret: Record<string, string | null> = {};
    for (const [key, raw] of Object.entries(values)) {
      const spec = specs.find((s) => s.key === key);
      if (!spec) {
        return this.refused('configure', id, undefined, `${id} has no setting "${key}" (it has: ${specs.map((s) => s.key).join(', ') || 'none'})`);
      }
      if (raw === null) {
        (spec.sensitive ? secret : plain)[key] = null;
        continue;
      }
      const c = coerceSetting(spec, raw);
      if (!c.ok) {
        // The error would quote the value: a secret's value must not reach the audit log or a screen.
        const message = spec.sensitive ? `${key}: the value given is not a valid ${spec.type} (not shown: the setting is secret)` : c.message;
        return this.refused('configure', id, undefined, message);
      }
      if (spec.sensitive) secret[key] = Array.isArray(c.value) ? JSON.stringify(c.value) : String(c.value);
      else plain[key] = c.value;
    }
    for (const [k, v] of Object.entries(secret)) await this.secrets.set(id, k, v);
    if (Object.keys(secret).length > 0) await this.readSecrets(id);
    await this.update(id, (s) => {
      for (const [k, v] of Object.entries(plain)) {
        if (v === null) delete s.settings[k];
        else s.settings[k] = v;
      }
    });
    const keys = Object.keys(values);
    const sup = this.host.get(id);
    if (sup && sup.health.pid !== null && sup.spec.persistent) await sup.restart();
    return this.ok('configure', id, `set ${keys.join(', ')}${Object.keys(secret).length ? ` (secrets in ${this.secrets.description})` : ''}`);
  }

  /** Required settings that have neither a value nor a default, secret ones included. */
  missingSettings(id: string): string[] {
    const spec = this.records.get(id)?.spec;
    if (!spec) return [];
    const stored = this.pluginState(id).settings;
    const secrets = this.secretKeys.get(id);
    const isSet = (key: string, sensitive: boolean): boolean => (sensitive ? (secrets?.has(key) ?? false) : stored[key] !== undefined);
    return spec.settings.filter((s) => s.required && s.default === undefined && !isSet(s.key, s.sensitive)).map((s) => s.key);
  }

  /** Each setting with what a person may see of its value (secrets masked) and whether it is set. */
  async settingsView(id: string): Promise<Array<SettingSpec & { value: string | null; isSet: boolean }>> {
    const spec = this.records.get(id)?.spec;
    if (!spec) return [];
    const stored = this.pluginState(id).settings;
    const secrets = spec.settings.some((s) => s.sensitive) ? await this.readSecrets(id) : {};
    return spec.settings.map((s) => {
      const raw = s.sensitive ? secrets[s.key] : stored[s.key];
      return { ...s, value: displayValue(s, raw), isSet: raw !== undefined };
    });
  }

  /** Setting values for a launch: stored values, then secrets when `secrets` is granted. */
  async launchSettings(id: string): Promise<Record<string, SettingValue>> {
    const out: Record<string, SettingValue> = { ...this.pluginState(id).settings };
    if (!this.granted(id, 'secrets')) return out;
    const spec = this.records.get(id)?.spec;
    for (const [k, v] of Object.entries(await this.secrets.get(id))) {
      const s = spec?.settings.find((x) => x.key === k);
      out[k] = s?.multiple && v.startsWith('[') ? (JSON.parse(v) as string[]) : v;
    }
    return out;
  }

  // ---- host binding -------------------------------------------------------------------------

  private async bind(spec: PluginSpec): Promise<void> {
    const id = spec.id;
    await this.host.add(spec, {
      enabled: this.isEnabled(id),
      allowedCapabilities: () => this.pluginState(id).grants,
      settings: () => this.launchSettings(id),
      preflight: async () => {
        if (this.granted(id, 'secrets')) return undefined;
        const withheld = spec.settings.filter((s) => s.sensitive && s.required && s.default === undefined).map((s) => s.key);
        if (withheld.length === 0) return undefined;
        return failure(
          'capability_not_allowed',
          `${id} needs the secret setting${withheld.length > 1 ? 's' : ''} ${withheld.join(', ')}, but the secrets capability is not granted: plugboard plugins grant ${id} secrets`,
        );
      },
    });
  }

  private hostEnv(spec: PluginSpec): Record<string, string> {
    const data = this.paths.pluginData(spec.id);
    mkdirSync(data, { recursive: true });
    const env: Record<string, string> = {
      PLUGBOARD_PLUGIN_ID: spec.id,
      PLUGBOARD_PLUGIN_DIR: spec.dir,
      PLUGBOARD_DATA_DIR: data,
    };
    if (this.opts.nodeModules) env.PLUGBOARD_NODE_MODULES = this.opts.nodeModules;
    return { ...(this.opts.env ?? {}), ...env };
  }

  /** Whether plugins run sandboxed here, and why not where they do not (the same for every plugin). */
  get sandboxSupport(): SandboxSupport {
    return this.opts.sandbox === false ? { available: false, reason: 'turned off for this Plugboard (sandbox: false)' } : sandboxSupport();
  }

  /** The sandbox of a launch: the grants of now, its own data folder, the data directory hidden. */
  private sandbox(spec: PluginSpec): SandboxRequest {
    return {
      grants: this.pluginState(spec.id).grants,
      dataDir: this.paths.pluginData(spec.id),
      hiddenRoot: this.paths.root,
      extraReadOnly: appReadOnlyFolders(this.opts),
    };
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

  private refused(action: AuditAction, id: string, source: string | undefined, message: string, tool?: string, capabilities?: string[]): Refused {
    this.audit.append({
      action,
      plugin: id,
      ok: false,
      detail: message,
      ...(source ? { source: path.resolve(source) } : {}),
      ...(tool ? { tool } : {}),
      ...(capabilities ? { capabilities } : {}),
    });
    return { ok: false, message };
  }

  async shutdown(): Promise<void> {
    await this.host.shutdown();
  }

  dispose(): void {
    this.host.dispose();
    this._onDidChange.dispose();
  }
}

/** A call refused before anything started: already done, with its error event sent. */
function refusedHandle(f: Failure, opts: CallOptions): CallHandle {
  const callId = `refused-${Math.random().toString(36).slice(2)}`;
  opts.onEvent?.({ type: 'error', callId, failure: f });
  return { callId, done: Promise.resolve(f), cancel: () => {} };
}
