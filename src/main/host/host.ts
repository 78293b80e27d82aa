/**
 * The plugin host: one supervisor per plugin, reached by plugin id, their events gathered in one
 * place. Used alike by the registry (the app and `plugboard serve`), the `plugboard` CLI when it
 * runs a plugin from a folder, and the tests. Node only; knows nothing of Electron. Nobody outside
 * the host holds a supervisor: everything goes through here by id.
 */
import { featuresOf, type ServerFeatures } from './features';
import { planRemote } from './remote/plan';
import { failure, type Result } from '../../shared/failures';
import { DisposableStore, Emitter, relay, type IDisposable } from '../../shared/lifecycle';
import type { HealthEvent, LogEvent, PluginSpec, ToolSpec } from '../../shared/plugin';
import type { IconSpec } from '../../shared/apps';
import type { ServerAsks } from './asks';
import { DIALECT_FACTORIES } from './dialects';
import type { LaunchPlan, SettingValue } from './process/launch';
import { planLaunchWithShellPath } from './process/plan-with-shell';
import type { SandboxRequest } from './process/sandbox-prepare';
import type { Failure } from '../../shared/failures';
import {
  PluginSupervisor,
  type CallHandle,
  type CallOptions,
  type LaunchBinding,
  type PassthroughChange,
  type ToolsChange,
} from './supervisor/supervisor';

export interface HostOptions {
  parentEnv?: NodeJS.ProcessEnv;
  /** The runtime to run `.js` plugins with when no `node` is on PATH (Electron's binary in the app). */
  execPath?: string;
  isElectron?: boolean;
}

export interface AddOptions {
  binding: LaunchBinding;
  enabled?: boolean;
}

export type ToolsChangeEvent = ToolsChange & { pluginId: string };
/** An MCP server said its prompts or resources changed (list_changed). */
export interface FeaturesChangeEvent {
  pluginId: string;
  kind: 'prompts' | 'resources';
}

export class PluginHost implements IDisposable {
  private readonly supervisors = new Map<string, { sup: PluginSupervisor; subs: DisposableStore }>();
  private readonly _onDidChangeHealth = new Emitter<HealthEvent>();
  private readonly _onDidLog = new Emitter<LogEvent>();
  private readonly _onDidChangeTools = new Emitter<ToolsChangeEvent>();
  private readonly _onDidChangePassthrough = new Emitter<PassthroughChange>();
  private readonly _onDidChangeFeatures = new Emitter<FeaturesChangeEvent>();
  readonly onDidChangeFeatures = this._onDidChangeFeatures.event;
  /** Who answers what MCP servers ask (elicitation, sampling); unset: declined and refused. */
  asks: ServerAsks | undefined;
  readonly onDidChangeHealth = this._onDidChangeHealth.event;
  readonly onDidLog = this._onDidLog.event;
  readonly onDidChangeTools = this._onDidChangeTools.event;
  readonly onDidChangePassthrough = this._onDidChangePassthrough.event;

  constructor(private readonly options: HostOptions = {}) {}

  /**
   * What to spawn for `spec` with these settings, on this host (its parent environment and
   * runtime), plus the variables the caller adds (PLUGBOARD_*), in the sandbox asked for (none:
   * unsandboxed). A command that is not on this process's PATH is looked up on the login shell's
   * too: an app started from a dock or menu does not get the shell's PATH.
   */
  plan(
    spec: PluginSpec,
    settings: Record<string, SettingValue>,
    hostEnv: Record<string, string>,
    sandbox?: SandboxRequest,
  ): Promise<LaunchPlan | Failure> {
    if (spec.remote)
      return Promise.resolve(planRemote({ ...spec, remote: spec.remote }, settings, this.options.parentEnv?.HOME));
    return planLaunchWithShellPath({
      spec,
      settings,
      parentEnv: this.options.parentEnv ?? process.env,
      hostEnv,
      ...(sandbox ? { sandbox } : {}),
      ...(this.options.execPath ? { execPath: this.options.execPath } : {}),
      ...(this.options.isElectron !== undefined ? { isElectron: this.options.isElectron } : {}),
    });
  }

  /** Adds a plugin, replacing (and stopping) one with the same id. */
  async add(spec: PluginSpec, opts: AddOptions): Promise<PluginSupervisor> {
    // Two adds of one id may overlap (reloads): each waits until the id is free, and what follows
    // up to the set below is synchronous, so the last one wins and the others are shut down.
    do await this.remove(spec.id);
    while (this.supervisors.has(spec.id));
    const sup = new PluginSupervisor({
      spec,
      dialect: DIALECT_FACTORIES[spec.dialect],
      binding: opts.binding,
      enabled: opts.enabled ?? true,
      asks: () => this.asks,
    });
    const subs = new DisposableStore();
    subs.add(relay(sup.onDidChangeHealth, this._onDidChangeHealth));
    subs.add(relay(sup.onDidLog, this._onDidLog));
    subs.add(relay(sup.onDidChangePassthrough, this._onDidChangePassthrough));
    subs.add(sup.onDidChangeTools((change) => this._onDidChangeTools.fire({ pluginId: spec.id, ...change })));
    subs.add(sup.clientSide.onDidChangeFeatures((kind) => this._onDidChangeFeatures.fire({ pluginId: spec.id, kind })));
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
  }

  has(id: string): boolean {
    return this.supervisors.has(id);
  }

  /** The supervisor of a plugin: for the host's own tests only (everyone else goes by id). */
  get(id: string): PluginSupervisor | undefined {
    return this.supervisors.get(id)?.sup;
  }

  ids(): string[] {
    return [...this.supervisors.keys()];
  }

  rebind(id: string, binding: LaunchBinding): void {
    this.supervisors.get(id)?.sup.rebind(binding);
  }

  healthOf(id: string): HealthEvent | undefined {
    return this.get(id)?.health;
  }

  tools(id: string): ToolSpec[] | undefined {
    return this.get(id)?.tools;
  }

  announcedTools(id: string): ToolSpec[] | undefined {
    return this.get(id)?.announcedTools;
  }

  /** What the plugin's server said a model should know (MCP `instructions`), once it has run. */
  instructions(id: string): string | undefined {
    return this.get(id)?.instructions;
  }

  /** The icons its server gave (MCP), once it has run. */
  serverIcons(id: string): IconSpec[] | undefined {
    return this.get(id)?.icons;
  }

  /** An MCP plugin's resources and prompts (features.ts); undefined for an unknown id. */
  features(id: string): ServerFeatures | undefined {
    const sup = this.get(id);
    return sup ? featuresOf(sup) : undefined;
  }

  call(id: string, tool: string, args: Record<string, unknown>, opts: CallOptions = {}): CallHandle {
    const sup = this.get(id);
    return sup ? sup.call(tool, args, opts) : refusedCall(failure('not_found', `no plugin "${id}"`), opts);
  }

  input(id: string, text: string, opts: CallOptions = {}): CallHandle {
    const sup = this.get(id);
    return sup ? sup.input(text, opts) : refusedCall(failure('not_found', `no plugin "${id}"`), opts);
  }

  async start(id: string): Promise<Result<void>> {
    return this.get(id)?.start() ?? failure('not_found', `no plugin "${id}"`);
  }

  async stop(id: string, reason?: string): Promise<void> {
    await this.get(id)?.stop(reason);
  }

  async restart(id: string): Promise<Result<void>> {
    return this.get(id)?.restart() ?? failure('not_found', `no plugin "${id}"`);
  }

  /** Every plugin with a process, by pid (for resource figures). */
  pids(): Map<number, string> {
    const out = new Map<number, string>();
    for (const id of this.ids()) {
      const pid = this.healthOf(id)?.pid;
      if (pid) out.set(pid, id);
    }
    return out;
  }

  async setEnabled(id: string, enabled: boolean): Promise<void> {
    await this.get(id)?.setEnabled(enabled);
  }

  endPassthrough(id: string, reason?: string): void {
    this.get(id)?.endPassthrough(reason);
  }

  /** Plugins whose passthrough session is open, with who holds each. */
  passthroughSessions(): Array<{ pluginId: string; owner: string | undefined }> {
    const out: Array<{ pluginId: string; owner: string | undefined }> = [];
    for (const [pluginId, { sup }] of this.supervisors)
      if (sup.inPassthrough) out.push({ pluginId, owner: sup.passthroughOwner() });
    return out;
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
    this._onDidChangeTools.dispose();
    this._onDidChangePassthrough.dispose();
    this._onDidChangeFeatures.dispose();
  }
}

/** A call refused before anything started: already done, with its error event sent. */
export function refusedCall(f: Failure, opts: CallOptions): CallHandle {
  const callId = `refused-${Math.random().toString(36).slice(2)}`;
  opts.onEvent?.({ type: 'error', callId, failure: f });
  return { callId, done: Promise.resolve(f), cancel: () => {} };
}
