/**
 * Keeps a plugin's processes: launches them with the binding it was handed, holds the one that
 * serves calls (with a watchdog pinging it while idle), restarts it after a death with back-off,
 * and runs every instance's stop sequence. Calls and passthrough belong to the supervisor; this
 * part only answers "give me a live instance" and reports what happens to instances.
 */
/* eslint-disable max-lines -- until the supervisor and the registry are split by ownership (issue 16, item 2) */
import { failure, ok, type Failure, type Result } from '../../../shared/failures';
import { Disposable, MutableDisposable, timeoutDisposable } from '../../../shared/lifecycle';
import type { HealthState, LogLevel, PluginSpec, ToolSpec } from '../../../shared/plugin';
import type { ClientSide } from '../asks';
import type { CallOutcome, DialectFactory, DialectSession } from '../dialects/types';
import type { HealthReporter } from './health';
import { Instance, type LaunchBinding } from './instance';
import { InstancePool } from './instances';
import { RestartPolicy } from './restart-policy';
import { Watchdog } from './watchdog';

export interface KeeperHooks {
  health: HealthReporter;
  log(source: 'host' | 'plugin' | 'stderr', level: LogLevel, message: string): void;
  toolsAnnounced(tools: ToolSpec[]): void;
  /** The handshake carried instructions for a model (MCP). */
  instructions(text: string): void;
  /** An instance died: fail its calls with the cause. */
  died(inst: Instance, cause: Failure): void;
  /** The held instance died: its passthrough session (if any) is over. */
  heldDied(cause: Failure): void;
  /** An instance came up or went: the supervisor settles its idle state. */
  settle(): void;
  /** What an MCP server may ask, but its roots: those come from the launch binding, kept here. */
  client: Omit<ClientSide, 'roots'>;
}

/** The held instance and the watchdog that pings it while idle. */
interface Held {
  inst: Instance;
  watchdog: Watchdog;
  dispose(): void;
}

export class InstanceKeeper extends Disposable {
  private readonly held = this._register(new MutableDisposable<Held>());
  private readonly restartTimer = this._register(new MutableDisposable());
  private readonly restartPolicy: RestartPolicy;
  readonly pool: InstancePool;
  /** Set by a user stop: nothing restarts the plugin until a start or a call. */
  userStopped = false;
  /** Bumped by every stop: a launch that began before it is discarded when it completes. */
  private generation = 0;
  private starting: Promise<Result<Instance>> | null = null;

  constructor(
    private readonly spec: PluginSpec,
    private readonly dialect: DialectFactory,
    private binding: LaunchBinding,
    private readonly hooks: KeeperHooks,
  ) {
    super();
    this.restartPolicy = new RestartPolicy(spec.timeouts);
    this.pool = this._register(new InstancePool((inst, cause) => this.onDeath(inst, cause)));
  }

  get isStarting(): boolean {
    return this.starting !== null;
  }

  get heldInstance(): Instance | undefined {
    return this.held.value?.inst;
  }

  /** Protocol entries still waiting, in the held instance and the one-shot ones. */
  get pendingCount(): number {
    let n = this.held.value?.inst.session.pendingCount ?? 0;
    for (const e of this.pool.oneShots) n += e.session.pendingCount;
    return n;
  }

  get watchdog(): Watchdog | undefined {
    return this.held.value?.watchdog;
  }

  /** The held instance, if it is alive. */
  alive(): Instance | null {
    const inst = this.held.value?.inst;
    return inst && !inst.isDead ? inst : null;
  }

  /** A new binding; a running server whose granted folders changed is told (MCP roots). */
  rebind(binding: LaunchBinding): void {
    const before = (this.binding.roots ?? []).join('\0');
    this.binding = binding;
    if ((binding.roots ?? []).join('\0') !== before) this.alive()?.session.rootsChanged?.();
  }

  /** A user start: the restart budget is fresh again. */
  reset(): void {
    this.userStopped = false;
    this.hooks.health.restarts = 0;
    this.restartPolicy.reset();
  }

  /** The held instance, launching it if there is none (one launch at a time). */
  /** The held instance's protocol session, launched if need be; only a persistent, enabled plugin holds one. */
  async session(enabled: boolean): Promise<Result<DialectSession>> {
    if (!enabled || !this.spec.persistent)
      return failure('invalid_state', `${this.spec.id} is ${enabled ? 'not a persistent server' : 'disabled'}`);
    const r = await this.ensure();
    return r.ok ? ok(r.value.session) : r;
  }

  ensure(): Promise<Result<Instance>> {
    const alive = this.alive();
    if (alive) return Promise.resolve(ok(alive));
    if (!this.starting) {
      this.restartTimer.clear();
      this.userStopped = false;
      this.starting = this.launch().then((r) => {
        this.starting = null;
        if (r.ok) this.hold(r.value);
        // A launch a stop discarded did not fail: the stop says what happened.
        else if (r.code !== 'cancelled') this.setState('failed', r.message, r);
        return r;
      });
    }
    return this.starting;
  }

  /** The instance a call runs on: the held one, else a new one (held if persistent). Passthrough input needs the held one. */
  instanceFor(input: boolean): Promise<Result<Instance>> {
    const held = this.alive();
    if (held) return Promise.resolve(ok(held));
    if (input) return Promise.resolve(failure('invalid_state', 'the passthrough session has ended'));
    return this.spec.persistent ? this.ensure() : this.launchOneShot();
  }

  /** A process for one call of a one-shot plugin. */
  async launchOneShot(): Promise<Result<Instance>> {
    const r = await this.launch();
    if (!r.ok) {
      if (r.code !== 'cancelled') this.setState('failed', r.message, r);
      return r;
    }
    this.pool.addOneShot(r.value);
    return r;
  }

  /** Makes an instance the held one (a one-shot kept for a passthrough session, or a launch). */
  hold(inst: Instance): void {
    this.pool.forget(inst);
    this.restartPolicy.ready();
    this.pool.watch(inst);
    const watchdog = new Watchdog(inst.session, this.spec.timeouts, {
      lastLifeAt: () => inst.lastLifeAt,
      answered: (rtt) => (this.hooks.health.pingRttMs = rtt),
      unresponsive: (why) => inst.die(failure('unresponsive', `the plugin stopped responding: ${why}`), 'kill'),
    });
    this.held.value = { inst, watchdog, dispose: () => watchdog.dispose() };
    this.hooks.settle();
  }

  /** Takes the held instance out of its role (its watchdog stops); returns it. */
  release(): Instance | undefined {
    const inst = this.held.value?.inst;
    this.held.clear();
    return inst;
  }

  /**
   * A one-shot process that answered must also exit cleanly (rterm): its stdin closes, and the
   * answer stands only if it exits with code 0 within the stop grace; otherwise it is `crashed`.
   */
  async exitAfterCall(inst: Instance, outcome: CallOutcome): Promise<CallOutcome> {
    const r = await this.pool.retire(inst);
    if (!r) return outcome;
    const grace = this.spec.timeouts.stopGraceMs;
    if (r.stage === 'terminated' || r.stage === 'killed') {
      return failure(
        'crashed',
        `the plugin answered but did not exit within ${grace} ms of its response (it needed ${r.stage === 'killed' ? 'SIGKILL' : 'SIGTERM'})`,
        inst.details(r.exit),
      );
    }
    if (r.exit.signal)
      return failure('crashed', `the plugin answered, then was killed by ${r.exit.signal}`, inst.details(r.exit));
    if (r.exit.code !== 0 && r.exit.code !== null)
      return failure('crashed', `the plugin answered, then exited with code ${r.exit.code}`, inst.details(r.exit));
    return outcome;
  }

  /** Stops every process of the plugin and waits for them; a launch under way is discarded. */
  async stopAll(): Promise<void> {
    this.userStopped = true;
    this.generation++;
    this.restartTimer.clear();
    const inst = this.release();
    if (inst) void this.pool.retire(inst);
    await this.pool.retireAll();
    // A launch under way sees the new generation and retires what it started; wait for it.
    if (this.starting) await this.starting;
    await this.pool.retireAll();
  }

  /**
   * Stops and starts again without touching the restart budget (not a crash), and logged and
   * listed with the recent events (the state change is): a pid that changes with nothing said is a
   * mystery. Not counted with the restarts: a person stopping a call is no failure of the plugin,
   * and the count is what tells a plugin that keeps dying (issue 21).
   */
  async recycle(inst: Instance, reason: string): Promise<void> {
    if (inst === this.held.value?.inst) this.release();
    this.setState('restarting', reason);
    await this.pool.retire(inst);
    if (this.spec.persistent && !this.userStopped && !this.isDisposed) await this.ensure();
    else if (!this.isDisposed) this.setState('stopped', 'idle (starts on the next call)');
  }

  private async launch(): Promise<Result<Instance>> {
    const generation = this.generation;
    const { plan, allowedCapabilities, record } = this.binding;
    this.setState('starting', plan.ok ? (plan.note ?? 'launching') : 'launching');
    if (!plan.ok) return plan;
    const { log } = this.hooks;
    const inst = await Instance.launch({
      spec: this.spec,
      plan,
      dialect: this.dialect,
      allowedCapabilities,
      ...(record ? { record } : {}),
      hooks: {
        diagnostic: (level, m) => log('host', level, m),
        pluginLog: (level, m) => log('plugin', level, m),
        stderr: (line) => log('stderr', 'info', line),
        toolsChanged: (tools) => this.hooks.toolsAnnounced(tools),
        client: { ...this.hooks.client, roots: () => this.binding.roots ?? [] },
      },
    });
    if (!(inst instanceof Instance)) return inst;
    if (this.isDisposed || generation !== this.generation) {
      // Stopped while it was starting: it must not come up behind the stop.
      await this.pool.retire(inst);
      return failure(
        'cancelled',
        this.isDisposed ? 'the host is shutting down' : `${this.spec.id} was stopped while it was starting`,
      );
    }
    if (inst.handshake?.tools) this.hooks.toolsAnnounced(inst.handshake.tools);
    if (inst.handshake?.instructions) this.hooks.instructions(inst.handshake.instructions);
    return ok(inst);
  }

  private onDeath(inst: Instance, cause: Failure): void {
    this.hooks.died(inst, cause);
    void this.pool.retire(inst);
    const state: HealthState = cause.code === 'unresponsive' || cause.code === 'timeout' ? 'unresponsive' : 'crashed';
    if (inst !== this.held.value?.inst) {
      if (!this.held.value && !this.userStopped && !this.isDisposed) this.setState(state, cause.message, cause);
      return;
    }
    this.release();
    this.hooks.heldDied(cause);
    if (this.userStopped || this.isDisposed) return;
    this.setState(state, cause.message, cause);
    if (this.spec.persistent) this.scheduleRestart(cause);
  }

  private scheduleRestart(cause: Failure): void {
    const next = this.restartPolicy.next();
    if (!next.restart) {
      this.setState('failed', `gave up after ${next.attempts} restarts; last cause: ${cause.message}`, cause);
      return;
    }
    this.hooks.health.restarts++;
    this.setState(
      'restarting',
      `restart ${next.attempt} of ${next.of} in ${next.delayMs} ms, after: ${cause.message}`,
      cause,
    );
    this.restartTimer.value = timeoutDisposable(() => {
      this.restartTimer.clear();
      if (this.userStopped || this.isDisposed || this.alive()) return;
      this.starting = this.launch().then((r) => {
        this.starting = null;
        if (r.ok) this.hold(r.value);
        else if (!this.userStopped && !this.isDisposed) this.scheduleRestart(r);
        return r;
      });
    }, next.delayMs);
  }

  private setState(state: HealthState, reason: string, cause?: Failure): void {
    this.hooks.health.set(state, reason, cause);
  }

  /** The host is going away without waiting: kill what runs. */
  override dispose(): void {
    if (this.isDisposed) return;
    const inst = this.release();
    if (inst) {
      inst.kill();
      inst.dispose();
    }
    super.dispose();
  }
}
