/**
 * The life of one plugin: start, health, calls, passthrough, watchdog and restarts, following the
 * supervision defaults of ARCHITECTURE.md (all configurable per plugin through its timeouts).
 *
 * Persistent plugins keep one instance up (the held instance); the others start one per call and
 * keep it only while a passthrough session is open. A call in flight when its plugin dies fails at
 * once with the cause of death, keeping the chunks it already streamed; cancel ends a call at any
 * moment. What to spawn is not decided here: the owner (the registry, or a CLI run from a folder)
 * hands over a launch binding it computed, and hands a new one when settings or grants change.
 */
import { randomUUID } from 'node:crypto';
import { CancelSource } from '../../../shared/cancel';
import { failure, ok, type Failure, type Result } from '../../../shared/failures';
import { Disposable, Emitter, MutableDisposable, timeoutDisposable, toDisposable } from '../../../shared/lifecycle';
import type { HealthEvent, HealthState, LogEvent, LogLevel, LogSource, PluginSpec, ToolSpec } from '../../../shared/model';
import { abortedFailure, type CallOutcome, type DialectFactory } from '../dialects/types';
import { RateGate } from '../process/ring';
import { CallRunner, type CallKind, type CallOptions } from './call-runner';
import { HealthReporter } from './health';
import { Instance, type LaunchBinding } from './instance';
import { InstancePool } from './instances';
import { PassthroughSession, type PassthroughChange } from './passthrough';
import { RestartPolicy } from './restart-policy';
import { Slots } from './slots';
import { ToolSet, type ToolsChange } from './tool-set';
import { Watchdog } from './watchdog';

export type { CallOptions } from './call-runner';
export type { LaunchBinding } from './instance';

export interface SupervisorOptions {
  spec: PluginSpec;
  dialect: DialectFactory;
  binding: LaunchBinding;
  enabled?: boolean;
  /** Log lines per second per plugin before the rest are counted instead of emitted. */
  logRatePerSecond?: number;
}

export interface CallHandle {
  readonly callId: string;
  readonly done: Promise<CallOutcome>;
  cancel(reason?: string): void;
}

/** The held instance and the watchdog that pings it while idle. */
interface Held {
  inst: Instance;
  watchdog: Watchdog;
  dispose(): void;
}

export class PluginSupervisor extends Disposable {
  readonly spec: PluginSpec;
  private binding: LaunchBinding;
  private readonly healthReporter: HealthReporter;
  private readonly restartPolicy: RestartPolicy;
  private readonly toolSet: ToolSet;
  private readonly passthrough: PassthroughSession;
  private readonly pool: InstancePool;
  private readonly held = this._register(new MutableDisposable<Held>());
  private readonly restartTimer = this._register(new MutableDisposable());
  private readonly slots: Slots;
  private readonly runner: CallRunner;
  private readonly logGate: RateGate;
  private enabled: boolean;
  /** Set by a user stop: nothing restarts the plugin until a start or a call. */
  private userStopped = false;
  /** Bumped by every stop: a launch that began before it is discarded when it completes. */
  private generation = 0;
  private starting: Promise<Result<Instance>> | null = null;
  /** Every call not yet finished, queued or running: a stop cancels them all. */
  private readonly live = new Set<CancelSource>();

  private readonly _onDidLog = this._register(new Emitter<LogEvent>());
  readonly onDidLog = this._onDidLog.event;
  readonly onDidChangeHealth: HealthReporter['onDidChange'];
  readonly onDidChangeTools: ToolSet['onDidChange'];
  readonly onDidChangePassthrough: PassthroughSession['onDidChange'];

  constructor(private readonly opts: SupervisorOptions) {
    super();
    this.spec = opts.spec;
    this.binding = opts.binding;
    this.enabled = opts.enabled !== false;
    const pid = (): number | null => this.held.value?.inst.pid ?? this.pool.oneShots[0]?.pid ?? null;
    const illegal = (from: HealthState, to: HealthState, reason: string): void =>
      this.log('host', 'error', `internal: refused an illegal health change ${from} → ${to} (${reason})`);
    this.healthReporter = this._register(new HealthReporter(this.spec.id, pid, this.enabled ? 'stopped' : 'disabled', illegal));
    this.onDidChangeHealth = this.healthReporter.onDidChange;
    this.toolSet = this._register(new ToolSet(this.spec.tools));
    this.onDidChangeTools = this.toolSet.onDidChange;
    this.passthrough = this._register(new PassthroughSession(this.spec.id, this.spec.timeouts.callHardCapMs));
    this.onDidChangePassthrough = this.passthrough.onDidChange;
    this._register(this.passthrough.onDidChange((e) => !e.active && this.releaseAfterPassthrough()));
    this.pool = this._register(new InstancePool((inst, cause) => this.onDeath(inst, cause)));
    this.restartPolicy = new RestartPolicy(this.spec.timeouts);
    this.slots = new Slots(opts.dialect.maxConcurrentCalls);
    this.logGate = new RateGate(opts.logRatePerSecond ?? 200);
    this.runner = new CallRunner(this.spec);
  }

  get health(): HealthEvent {
    return this.healthReporter.snapshot;
  }

  /** Declared tools, completed by what the running plugin announced. */
  get tools(): ToolSpec[] {
    return this.toolSet.all;
  }

  get announcedTools(): ToolSpec[] | undefined {
    return this.toolSet.announcedTools;
  }

  get inPassthrough(): boolean {
    return this.passthrough.isOpen;
  }

  /** Who holds the passthrough session (a conversation id), when one is open. */
  get passthroughOwner(): string | undefined {
    return this.passthrough.owner;
  }

  /** Protocol entries still waiting, across instances (leak checks). */
  get pendingCount(): number {
    let n = this.held.value?.inst.session.pendingCount ?? 0;
    for (const e of this.pool.oneShots) n += e.session.pendingCount;
    return n + this.runner.runningCount + this.slots.waiting;
  }

  /** A new launch binding (settings or grants changed): used from the next launch on. */
  rebind(binding: LaunchBinding): void {
    this.binding = binding;
  }

  /** Starts a persistent plugin (user action: clears a user stop and the restart budget). */
  async start(): Promise<Result<void>> {
    if (!this.enabled) return failure('disabled', `${this.spec.id} is disabled; enable it first`);
    this.userStopped = false;
    this.healthReporter.restarts = 0;
    this.restartPolicy.reset();
    if (!this.spec.persistent) return ok(undefined);
    const r = await this.ensureInstance();
    return r.ok ? ok(undefined) : r;
  }

  /** User stop: nothing restarts it until the user starts it or calls it again. */
  async stop(reason = 'stopped by the user'): Promise<void> {
    this.userStopped = true;
    this.generation++;
    this.restartTimer.clear();
    this.passthrough.end(reason);
    // Queued calls too: one waiting for a slot must not bring the plugin back behind the stop.
    for (const c of [...this.live]) c.cancel(failure('cancelled', `${this.spec.id} was ${reason}`));
    const inst = this.release();
    if (inst) void this.pool.retire(inst);
    await this.pool.retireAll();
    // A launch under way sees the new generation and retires what it started; wait for it.
    if (this.starting) await this.starting;
    await this.pool.retireAll();
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

  call(tool: string, args: Record<string, unknown>, opts: CallOptions = {}): CallHandle {
    return this.begin({ type: 'call', tool, args }, opts);
  }

  /** One passthrough turn: the user's text goes to the plugin as `input`. Never logged. */
  input(text: string, opts: CallOptions = {}): CallHandle {
    return this.begin({ type: 'input', text }, opts);
  }

  /** Leaves passthrough (the user's Exit, the cap, or the plugin's own choice). */
  endPassthrough(reason = 'ended by the user'): void {
    this.passthrough.end(reason);
  }

  private begin(kind: CallKind, opts: CallOptions): CallHandle {
    const callId = randomUUID();
    const cancel = new CancelSource();
    const outer = opts.signal;
    let unlink = toDisposable(() => {});
    if (outer) {
      const onAbort = (): void => cancel.cancel(failure('cancelled', 'cancelled'));
      if (outer.aborted) onAbort();
      else {
        outer.addEventListener('abort', onAbort, { once: true });
        unlink = toDisposable(() => outer.removeEventListener('abort', onAbort));
      }
    }
    this.live.add(cancel);
    const done = this.runCall(callId, kind, opts, cancel).then((o) => {
      this.live.delete(cancel);
      unlink.dispose();
      return this.runner.report(callId, o, opts);
    });
    return { callId, done, cancel: (reason) => cancel.cancel(failure('cancelled', reason ?? 'cancelled by the user')) };
  }

  private async runCall(callId: string, kind: CallKind, opts: CallOptions, cancel: CancelSource): Promise<CallOutcome> {
    if (!this.enabled) return failure('disabled', `${this.spec.id} is disabled; enable it first`);
    // Arguments are checked before anything starts when the schema is known, and again once the
    // running plugin has announced a better one (MCP tools/list).
    let checked = kind.type === 'call' ? this.runner.checkArguments(this.toolSet, kind) : undefined;
    if (checked && !checked.ok) return checked;
    if (kind.type === 'input' && (!this.passthrough.isOpen || !this.heldAlive())) return failure('invalid_state', `no passthrough session is open with ${this.spec.id}`);
    if (!this.slots.tryAcquire() && !(await this.slots.acquire(cancel.token))) {
      return abortedFailure(cancel, failure('cancelled', 'cancelled while waiting for the plugin'));
    }
    try {
      if (cancel.isCancelled) return abortedFailure(cancel, failure('cancelled', 'cancelled while waiting for the plugin'));
      if (!this.enabled) return failure('disabled', `${this.spec.id} is disabled; enable it first`);
      const got = await this.instanceFor(kind);
      if (!got.ok) return got;
      const inst = got.value;
      if (kind.type === 'call' && checked?.ok && checked.schema !== this.toolSet.find(kind.tool)?.parameters) {
        checked = this.runner.checkArguments(this.toolSet, kind);
        if (checked && !checked.ok) {
          if (inst !== this.held.value?.inst) void this.pool.retire(inst);
          return checked;
        }
      }
      // A verdict on the plugin's health may be pending (a ping out while it was idle): wait for it.
      const verdict = this.held.value?.inst === inst ? this.held.value.watchdog.pause() : undefined;
      if (verdict) await verdict;
      if (inst.isDead) return inst.deathCause ?? failure('crashed', 'the plugin died before the call started');
      if (cancel.isCancelled) return abortedFailure(cancel, failure('cancelled', 'cancelled before it started'));
      this.setState('busy', kind.type === 'input' ? 'passthrough turn' : `running ${kind.tool}`);
      const outcome = await this.runner.run(callId, inst, kind, opts, cancel);
      this.afterCall(inst, kind, outcome, opts);
      return this.runner.withStderr(outcome, inst);
    } finally {
      this.slots.release();
      this.settleIdleState();
    }
  }

  /** The instance a call runs on: the held one, else a new one (held if persistent). */
  private instanceFor(kind: CallKind): Promise<Result<Instance>> {
    const held = this.heldAlive();
    if (kind.type === 'input') return Promise.resolve(held ? ok(held) : failure('invalid_state', 'the passthrough session has ended'));
    if (held) return Promise.resolve(ok(held));
    return this.spec.persistent ? this.ensureInstance() : this.launchOneShot();
  }

  private heldAlive(): Instance | null {
    const inst = this.held.value?.inst;
    return inst && !inst.isDead ? inst : null;
  }

  private afterCall(inst: Instance, kind: CallKind, outcome: CallOutcome, opts: CallOptions): void {
    const held = inst === this.held.value?.inst;
    if (!outcome.ok) {
      if (kind.type === 'input' || outcome.code !== 'cancelled') this.passthrough.end(`the turn failed: ${outcome.code}`);
      if (inst.isDead) return;
      if (outcome.code === 'timeout') {
        inst.die(this.runner.withStderr(outcome, inst) as Failure, 'stop');
      } else if (outcome.code === 'cancelled' && !inst.session.cancelStopsWork && held) {
        // The plugin cannot be told to stop: restart it, or the next call queues behind the old one.
        void this.recycle(inst, 'restarted to stop a cancelled call');
      } else if (!held) {
        void this.pool.retire(inst);
      }
      return;
    }
    // A turn can only continue a session that is still open: one ended meanwhile stays ended.
    const keep =
      outcome.value.keepSession &&
      inst.session.input !== undefined &&
      opts.allowPassthrough !== false &&
      (kind.type === 'call' || this.passthrough.isOpen);
    if (keep) {
      if (!held) {
        this.pool.forget(inst);
        this.hold(inst);
      }
      this.passthrough.open(opts.owner, 'the plugin kept the session');
      return;
    }
    if (this.passthrough.isOpen) this.passthrough.end('the plugin ended the session');
    else if (!held) void this.pool.retire(inst);
  }

  /** A one-shot plugin's instance was held only for its session: let it go, now or after its turn. */
  private releaseAfterPassthrough(): void {
    if (this.spec.persistent) return;
    const inst = this.release();
    if (!inst) return;
    this.pool.addOneShot(inst);
    if (!this.runner.hasCallsOn(inst)) void this.pool.retire(inst).then(() => this.settleIdleState());
  }

  private ensureInstance(): Promise<Result<Instance>> {
    const alive = this.heldAlive();
    if (alive) return Promise.resolve(ok(alive));
    if (!this.starting) {
      this.restartTimer.clear();
      this.userStopped = false;
      this.starting = this.launch().then((r) => {
        this.starting = null;
        if (r.ok) this.hold(r.value);
        else this.setState('failed', r.message, r);
        return r;
      });
    }
    return this.starting;
  }

  private async launchOneShot(): Promise<Result<Instance>> {
    const r = await this.launch();
    if (!r.ok) {
      this.setState('failed', r.message, r);
      return r;
    }
    this.pool.addOneShot(r.value);
    return r;
  }

  private async launch(): Promise<Result<Instance>> {
    const generation = this.generation;
    const { plan, allowedCapabilities } = this.binding;
    this.setState('starting', plan.ok ? (plan.note ?? 'launching') : 'launching');
    if (!plan.ok) return plan;
    const inst = await Instance.launch({
      spec: this.spec,
      plan,
      dialect: this.opts.dialect,
      allowedCapabilities,
      hooks: {
        diagnostic: (level, m) => this.log('host', level, m),
        pluginLog: (level, m) => this.log('plugin', level, m),
        stderr: (line) => this.log('stderr', 'info', line),
        toolsChanged: (tools) => this.announce(tools),
      },
    });
    if (!(inst instanceof Instance)) return inst;
    if (this.isDisposed || generation !== this.generation) {
      // Stopped while it was starting: it must not come up behind the stop.
      await this.pool.retire(inst);
      return failure('cancelled', this.isDisposed ? 'the host is shutting down' : `${this.spec.id} was stopped while it was starting`);
    }
    if (inst.handshake?.tools) this.announce(inst.handshake.tools);
    return ok(inst);
  }

  private announce(tools: ToolSpec[]): void {
    this.toolSet.announce(tools);
  }

  private hold(inst: Instance): void {
    this.restartPolicy.ready();
    this.pool.watch(inst);
    const watchdog = new Watchdog(inst.session, this.spec.timeouts, {
      lastLifeAt: () => inst.lastLifeAt,
      answered: (rtt) => (this.healthReporter.pingRttMs = rtt),
      unresponsive: (why) => inst.die(failure('unresponsive', `the plugin stopped responding: ${why}`), 'kill'),
    });
    this.held.value = { inst, watchdog, dispose: () => watchdog.dispose() };
    this.settleIdleState();
  }

  /** Takes the held instance out of its role (its watchdog stops); returns it. */
  private release(): Instance | undefined {
    const inst = this.held.value?.inst;
    this.held.clear();
    return inst;
  }

  private onDeath(inst: Instance, cause: Failure): void {
    this.runner.abortFor(inst, cause);
    void this.pool.retire(inst);
    const state: HealthState = cause.code === 'unresponsive' || cause.code === 'timeout' ? 'unresponsive' : 'crashed';
    if (inst !== this.held.value?.inst) {
      if (!this.held.value && !this.userStopped && !this.isDisposed) this.setState(state, cause.message, cause);
      return;
    }
    this.release();
    this.passthrough.end(`the plugin died: ${cause.code}`);
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
    this.healthReporter.restarts++;
    this.setState('restarting', `restart ${next.attempt} of ${next.of} in ${next.delayMs} ms, after: ${cause.message}`, cause);
    this.restartTimer.value = timeoutDisposable(() => {
      this.restartTimer.clear();
      if (this.userStopped || this.isDisposed || this.heldAlive()) return;
      this.starting = this.launch().then((r) => {
        this.starting = null;
        if (r.ok) this.hold(r.value);
        else if (!this.userStopped && !this.isDisposed) this.scheduleRestart(r);
        return r;
      });
    }, next.delayMs);
  }

  /** Stops and starts again without touching the restart budget (not a crash). */
  private async recycle(inst: Instance, reason: string): Promise<void> {
    if (inst === this.held.value?.inst) this.release();
    this.setState('restarting', reason);
    await this.pool.retire(inst);
    if (this.spec.persistent && !this.userStopped && !this.isDisposed) await this.ensureInstance();
    else if (!this.isDisposed) this.setState('stopped', 'idle (starts on the next call)');
  }

  /** After a call or a launch: ready when an instance is held, stopped when a one-shot plugin is idle. */
  private settleIdleState(): void {
    if (this.isDisposed || this.runner.runningCount > 0 || this.starting) return;
    const state = this.healthReporter.state;
    const inst = this.heldAlive();
    if (inst) {
      if (state === 'disabled') return;
      this.setState('ready', this.passthrough.isOpen ? 'in passthrough' : 'idle');
      this.held.value?.watchdog.resume();
    } else if (!this.spec.persistent && (state === 'busy' || state === 'ready')) {
      this.setState('stopped', 'idle (starts on the next call)');
    }
  }

  private setState(state: HealthState, reason: string, cause?: Failure): void {
    this.healthReporter.set(state, reason, cause);
  }

  private log(source: LogSource, level: LogLevel, message: string): void {
    const gate = this.logGate.take();
    if (gate.suppressedBefore > 0) {
      this._onDidLog.fire({ pluginId: this.spec.id, source: 'host', level: 'warn', message: `${gate.suppressedBefore} log lines suppressed (rate limit)`, at: Date.now() });
    }
    if (gate.pass) this._onDidLog.fire({ pluginId: this.spec.id, source, level, message, at: Date.now() });
  }

  /** Stops everything and waits until no process of this plugin runs. */
  async shutdown(): Promise<void> {
    await this.stop('host shutting down');
    this.dispose();
  }

  override dispose(): void {
    if (this.isDisposed) return;
    for (const c of [...this.live]) c.cancel(failure('cancelled', 'the host is shutting down'));
    const inst = this.release();
    if (inst) {
      inst.kill();
      inst.dispose();
    }
    super.dispose();
  }
}

export type { PassthroughChange, ToolsChange };
