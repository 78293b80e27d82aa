/**
 * The plugin host: one supervisor per plugin, their events gathered in one place. Used alike by
 * the Electron app, the `plugboard` CLI and the web server. Node only; knows nothing of Electron.
 */
import type { Failure } from '../../shared/failures';
import { Emitter, DisposableStore, type IDisposable } from '../../shared/lifecycle';
import type { CallEvent, HealthEvent, LogEvent, PluginSpec, ToolSpec } from '../../shared/model';
import { DIALECT_FACTORIES } from './dialects';
import { planLaunch, type SettingValue } from './process/launch';
import type { SandboxRequest } from './process/sandbox-prepare';
import { PluginSupervisor, type PassthroughEvent } from './supervisor/supervisor';

export interface HostOptions {
  parentEnv?: NodeJS.ProcessEnv;
  /** The runtime to run `.js` plugins with when no `node` is on PATH (Electron's binary in the app). */
  execPath?: string;
  isElectron?: boolean;
  /** Extra environment per plugin (PLUGBOARD_* variables). */
  hostEnv?(spec: PluginSpec): Record<string, string>;
  /** The plugin's sandbox (process/sandbox.ts), read at every launch; none: unsandboxed. */
  sandbox?(spec: PluginSpec): SandboxRequest | undefined;
}

export interface AddOptions {
  /** Core-owned capability allow-list, read at every launch. Default: what the manifest declares. */
  allowedCapabilities?(): readonly string[];
  /** The user's setting values, read at every launch. */
  settings?(): Record<string, SettingValue> | Promise<Record<string, SettingValue>>;
  /** A last check before launch (a withheld secret, say); a failure stops the launch. */
  preflight?(): Promise<Failure | undefined> | Failure | undefined;
  enabled?: boolean;
}

export class PluginHost implements IDisposable {
  private readonly supervisors = new Map<string, { sup: PluginSupervisor; subs: DisposableStore }>();
  private readonly _onDidChangeHealth = new Emitter<HealthEvent>();
  private readonly _onDidLog = new Emitter<LogEvent>();
  private readonly _onDidCallEvent = new Emitter<CallEvent>();
  private readonly _onDidChangeTools = new Emitter<{ pluginId: string; tools: ToolSpec[] }>();
  private readonly _onDidChangePassthrough = new Emitter<PassthroughEvent>();
  readonly onDidChangeHealth = this._onDidChangeHealth.event;
  readonly onDidLog = this._onDidLog.event;
  readonly onDidCallEvent = this._onDidCallEvent.event;
  readonly onDidChangeTools = this._onDidChangeTools.event;
  readonly onDidChangePassthrough = this._onDidChangePassthrough.event;

  constructor(private readonly options: HostOptions = {}) {}

  /** Adds a plugin, replacing (and stopping) one with the same id. */
  async add(spec: PluginSpec, opts: AddOptions = {}): Promise<PluginSupervisor> {
    // Two adds of one id may overlap (reloads): each waits until the id is free, and what follows
    // up to the set below is synchronous, so the last one wins and the others are shut down.
    do await this.remove(spec.id);
    while (this.supervisors.has(spec.id));
    const sup = new PluginSupervisor({
      spec,
      dialect: DIALECT_FACTORIES[spec.dialect],
      allowedCapabilities: opts.allowedCapabilities ?? (() => spec.capabilities),
      enabled: opts.enabled ?? true,
      plan: async () => {
        const refused = await opts.preflight?.();
        if (refused) return refused;
        const sandbox = this.options.sandbox?.(spec);
        return planLaunch({
          spec,
          settings: (await opts.settings?.()) ?? {},
          parentEnv: this.options.parentEnv ?? process.env,
          hostEnv: this.options.hostEnv?.(spec) ?? {},
          ...(sandbox ? { sandbox } : {}),
          ...(this.options.execPath ? { execPath: this.options.execPath } : {}),
          ...(this.options.isElectron !== undefined ? { isElectron: this.options.isElectron } : {}),
        });
      },
    });
    const subs = new DisposableStore();
    subs.add(sup.onDidChangeHealth((e) => this._onDidChangeHealth.fire(e)));
    subs.add(sup.onDidLog((e) => this._onDidLog.fire(e)));
    subs.add(sup.onDidCallEvent((e) => this._onDidCallEvent.fire(e)));
    subs.add(sup.onDidChangeTools((tools) => this._onDidChangeTools.fire({ pluginId: spec.id, tools })));
    subs.add(sup.onDidChangePassthrough((e) => this._onDidChangePassthrough.fire(e)));
    this.supervisors.set(spec.id, { sup, subs });
    return sup;
  }

  /** Stops a plugin, waits until none of its processes runs, and forgets it. */
  async remove(id: string): Promise<void> {
    const entry = this.supervisors.get(id);
    if (!entry) return;
    this.supervisors.delete(id);
    await entry.sup.shutdown();
    entry.subs.dispose();
    entry.sup.dispose();
  }

  get(id: string): PluginSupervisor | undefined {
    return this.supervisors.get(id)?.sup;
  }

  list(): PluginSupervisor[] {
    return [...this.supervisors.values()].map((e) => e.sup);
  }

  /** Stops every plugin and waits for all of them. */
  async shutdown(): Promise<void> {
    await Promise.all([...this.supervisors.keys()].map((id) => this.remove(id)));
  }

  dispose(): void {
    for (const { sup, subs } of this.supervisors.values()) {
      subs.dispose();
      sup.dispose();
    }
    this.supervisors.clear();
    this._onDidChangeHealth.dispose();
    this._onDidLog.dispose();
    this._onDidCallEvent.dispose();
    this._onDidChangeTools.dispose();
    this._onDidChangePassthrough.dispose();
  }
}
