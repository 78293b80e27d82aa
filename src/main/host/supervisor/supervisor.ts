/**
 * The life of one plugin, following the supervision defaults of docs/ARCHITECTURE.md (all
 * configurable per plugin through its timeouts). The supervisor owns the plugin's lifecycle and
 * health: whether it is enabled, whether a person stopped it, its health state, and its restarts
 * with back-off after a death. Its two parts each own the rest: the running instances
 * (running.ts: launching, holding, stopping processes, the watchdog) and the calls (calls.ts:
 * queueing, deadlines, passthrough). They report what happens; only the supervisor moves the health.
 *
 * Persistent plugins keep one instance up (the held instance); the others start one per call and
 * keep it only while a passthrough session is open. What to spawn is not decided here: the owner
 * (the registry, or a CLI run from a folder) hands over a launch binding it computed, and hands a
 * new one when settings or grants change.
 */
import { failure, ok, type Failure, type Result } from '../../../shared/failures';
import { Disposable, MutableDisposable, timeoutDisposable } from '../../../shared/lifecycle';
import type { IconSpec } from '../../../shared/apps';
import type { HealthEvent, HealthState, LogLevel, LogSource, PluginSpec, ToolSpec } from '../../../shared/plugin';
import type { ServerAsks } from '../asks';
import type { DialectFactory, DialectSession } from '../dialects/types';
import type { CallHandle, CallOptions } from './call-runner';
import { Calls } from './calls';
import { HealthReporter } from './health';
import { isNoted, logTransition } from './health-states';
import type { Instance, LaunchBinding } from './instance';
import { PluginLog } from './plugin-log';
import { RestartPolicy } from './restart-policy';
import { RunningInstances } from './running';

export type { CallHandle, CallOptions } from './call-runner';
export type { LaunchBinding } from './instance';
export type { PassthroughChange } from './passthrough';
export type { ToolsChange } from './tool-set';

export interface SupervisorOptions {
  spec: PluginSpec;
  dialect: DialectFactory;
  binding: LaunchBinding;
  enabled?: boolean;
  /** Log lines per second per plugin before the rest are counted instead of emitted. */
  logRatePerSecond?: number;
  /** Who answers what an MCP server asks (the assistant); none: declined, refused. */
  asks?: () => ServerAsks | undefined;
}

export class PluginSupervisor extends Disposable {
  readonly spec: PluginSpec;
  private readonly healthReporter: HealthReporter;
  private readonly pluginLog: PluginLog;
  private readonly running: RunningInstances;
  private readonly calls: Calls;
  private readonly restartPolicy: RestartPolicy;
  private readonly restartTimer = this._register(new MutableDisposable());
  private enabled: boolean;
  /** Set by a person's stop: nothing restarts the plugin until a start or a call. */
  private userStopped = false;

  readonly onDidLog: PluginLog['onDidLog'];
  readonly onDidChangeHealth: HealthReporter['onDidChange'];
  readonly onDidTransition: HealthReporter['onDidTransition'];
  readonly onDidChangeTools: RunningInstances['tools']['onDidChange'];
  readonly onDidChangePassthrough: Calls['passthrough']['onDidChange'];
  /** An MCP server's requests, and its prompts or resources changing (onDidChangeFeatures). */
  readonly clientSide: Calls['clientSide'];

  constructor(opts: SupervisorOptions) {
    super();
    const spec = (this.spec = opts.spec);
    this.enabled = opts.enabled !== false;
    this.restartPolicy = new RestartPolicy(spec.timeouts);
    this.pluginLog = this._register(new PluginLog(spec.id, opts.logRatePerSecond));
    this.onDidLog = this.pluginLog.onDidLog;
    const log = (source: LogSource, level: LogLevel, m: string): void => this.pluginLog.log(source, level, m);
    const illegal = (from: HealthState, to: HealthState, why: string): void =>
      log('host', 'error', `internal: refused an illegal health change ${from} → ${to} (${why})`);
    this.healthReporter = this._register(
      new HealthReporter(
        spec.id,
        () => this.running.pid,
        this.enabled ? 'stopped' : 'disabled',
        illegal,
        (t) => isNoted(spec, t),
      ),
    );
    this.onDidChangeHealth = this.healthReporter.onDidChange;
    this.onDidTransition = this.healthReporter.onDidTransition;
    this._register(this.onDidTransition((t) => logTransition(spec, t, log)));
    this.running = this._register(
      new RunningInstances(spec, opts.dialect, opts.binding, {
        log,
        wanted: () => {
          this.restartTimer.clear();
          this.userStopped = false;
        },
        launching: (note) => this.setState('starting', note),
        launchFailed: (cause) => this.setState('failed', cause.message, cause),
        up: () => {
          this.restartPolicy.ready();
          this.settle();
        },
        pinged: (rtt) => this.healthReporter.pinged(rtt),
        dying: (inst, cause) => this.calls.lost(inst, cause),
        died: (cause, held) => this.died(cause, held),
        client: () => this.calls.clientSide,
      }),
    );
    this.onDidChangeTools = this.running.tools.onDidChange;
    this.calls = this._register(
      new Calls(spec, opts.dialect.maxConcurrentCalls, opts.dialect.exitsAfterCall === true, this.running, {
        enabled: () => this.enabled,
        busy: (reason) => this.setState('busy', reason),
        settle: () => this.settle(),
        recycle: (inst, reason) => void this.recycle(inst, reason),
        asks: opts.asks ?? (() => undefined),
      }),
    );
    this.onDidChangePassthrough = this.calls.passthrough.onDidChange;
    this.clientSide = this.calls.clientSide;
  }

  get health(): HealthEvent {
    return this.healthReporter.snapshot;
  }

  /** Declared tools, completed by what the running plugin announced. */
  get tools(): ToolSpec[] {
    return this.running.tools.all;
  }

  get announcedTools(): ToolSpec[] | undefined {
    return this.running.tools.announcedTools;
  }

  /** The server's instructions for a model, from its last handshake (MCP). */
  get instructions(): string | undefined {
    return this.running.instructions;
  }

  /** The server's icons, from its last handshake (MCP). */
  get icons(): IconSpec[] | undefined {
    return this.running.icons;
  }

  /** Whether a passthrough session is open, and who holds it (a conversation id). */
  get inPassthrough(): boolean {
    return this.calls.passthrough.isOpen;
  }
  passthroughOwner = (): string | undefined => this.calls.passthrough.owner;

  /** Protocol entries still waiting, across instances, and calls not yet finished (leak checks). */
  get pendingCount(): number {
    return this.running.pendingCount + this.calls.pendingCount;
  }

  /** A new launch binding (settings or grants changed): used from the next launch on. */
  rebind = (binding: LaunchBinding): void => this.running.rebind(binding);

  call = (tool: string, args: Record<string, unknown>, opts?: CallOptions): CallHandle =>
    this.calls.call(tool, args, opts);

  /** One passthrough turn: the user's text goes to the plugin as `input`. Never logged. */
  input = (text: string, opts?: CallOptions): CallHandle => this.calls.input(text, opts);

  /** Leaves passthrough (the user's Exit, the cap, or the plugin's own choice). */
  endPassthrough = (reason = 'ended by the user'): void => this.calls.endPassthrough(reason);

  /** Starts a persistent plugin (a person's start: clears their stop and the restart budget). */
  async start(): Promise<Result<void>> {
    if (!this.enabled) return failure('disabled', `${this.spec.id} is disabled; enable it first`);
    this.userStopped = false;
    this.healthReporter.resetRestarts();
    this.restartPolicy.reset();
    if (!this.spec.persistent) return ok(undefined);
    const r = await this.running.ensure();
    return r.ok ? ok(undefined) : r;
  }

  /** A persistent plugin's live protocol session, started if need be (MCP resources and prompts). */
  async session(): Promise<Result<DialectSession>> {
    if (!this.enabled || !this.spec.persistent)
      return failure('invalid_state', `${this.spec.id} is ${this.enabled ? 'not a persistent server' : 'disabled'}`);
    const r = await this.running.ensure();
    return r.ok ? ok(r.value.session) : r;
  }

  /** A person's stop: nothing restarts it until they start it or call it again. */
  async stop(reason = 'stopped by the user'): Promise<void> {
    this.userStopped = true;
    this.restartTimer.clear();
    this.calls.cancelAll(reason, `${this.spec.id} was ${reason}`);
    await this.running.stopAll();
    if (this.enabled) this.setState('stopped', reason);
  }

  async restart(): Promise<Result<void>> {
    await this.stop('restarting at the user’s request');
    return this.start();
  }

  async setEnabled(enabled: boolean): Promise<void> {
    if (enabled === this.enabled) return;
    if (!enabled) {
      // Off first, so nothing that is still finishing can start the plugin again.
      this.enabled = false;
      await this.stop('disabled');
      this.setState('disabled', 'disabled by the user');
      return;
    }
    this.enabled = true;
    this.setState('stopped', 'enabled');
    if (this.spec.persistent) await this.start();
  }

  /** Stops everything and waits until no process of this plugin runs. */
  async shutdown(): Promise<void> {
    await this.stop('host shutting down');
    this.dispose();
  }

  /** After a call or a launch: ready when an instance is held, stopped when a one-shot plugin is idle. */
  private settle(): void {
    if (this.isDisposed || this.calls.isActive || this.running.isStarting) return;
    const state = this.healthReporter.state;
    if (this.running.alive()) {
      if (state === 'disabled') return;
      this.setState('ready', this.calls.passthrough.isOpen ? 'in passthrough' : 'idle');
      this.running.idle();
    } else if (!this.spec.persistent && (state === 'busy' || state === 'ready')) {
      this.setState('stopped', 'idle (starts on the next call)');
    }
  }

  /** An instance died and was let go: its state, and a restart for a persistent plugin's held one. */
  private died(cause: Failure, held: boolean): void {
    if (held) this.calls.endPassthrough(`the plugin died: ${cause.code}`);
    if (this.userStopped || this.isDisposed) return;
    const state: HealthState = cause.code === 'unresponsive' || cause.code === 'timeout' ? 'unresponsive' : 'crashed';
    // A one-shot process of one call died: that is the plugin's state only while nothing is held.
    if (!held) {
      if (!this.running.heldInstance) this.setState(state, cause.message, cause);
      return;
    }
    this.setState(state, cause.message, cause);
    if (this.spec.persistent) this.scheduleRestart(cause);
  }

  private scheduleRestart(cause: Failure): void {
    const next = this.restartPolicy.next();
    if (!next.restart) {
      this.setState('failed', `gave up after ${next.attempts} restarts; last cause: ${cause.message}`, cause);
      return;
    }
    this.healthReporter.countRestart();
    this.setState(
      'restarting',
      `restart ${next.attempt} of ${next.of} in ${next.delayMs} ms, after: ${cause.message}`,
      cause,
    );
    this.restartTimer.value = timeoutDisposable(() => {
      this.restartTimer.clear();
      if (this.userStopped || this.isDisposed || this.running.alive()) return;
      void this.running.relaunch().then((r) => {
        if (!r.ok && !this.userStopped && !this.isDisposed) this.scheduleRestart(r);
      });
    }, next.delayMs);
  }

  /**
   * Stops and starts again without touching the restart budget (not a crash), but counted with
   * the restarts and logged (the state change is): a pid that changes with nothing said is a mystery.
   */
  private async recycle(inst: Instance, reason: string): Promise<void> {
    const retired = this.running.retire(inst);
    this.healthReporter.countRestart();
    this.setState('restarting', reason);
    await retired;
    if (this.spec.persistent && !this.userStopped && !this.isDisposed) await this.running.ensure();
    else if (!this.isDisposed) this.setState('stopped', 'idle (starts on the next call)');
  }

  private setState(state: HealthState, reason: string, cause?: Failure): void {
    this.healthReporter.set(state, reason, cause);
  }
}
