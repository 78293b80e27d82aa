/**
 * The life of one plugin: start, health, calls, passthrough, watchdog and restarts, following the
 * supervision defaults of ARCHITECTURE.md (all configurable per plugin through its timeouts).
 *
 * Persistent plugins keep one instance up; the others start one per call (and keep it only while
 * a passthrough session is open). A call in flight when its plugin dies fails at once with the
 * cause of death, keeping the chunks it already streamed; cancel ends a call at any moment.
 */
import { randomUUID } from 'node:crypto';
import { CancelSource } from '../../../shared/cancel';
import { failure, ok, type Failure, type Result } from '../../../shared/failures';
import { Emitter, type IDisposable } from '../../../shared/lifecycle';
import type { CallEvent, ContextMessage, HealthEvent, HealthState, LogEvent, LogLevel, LogSource, PluginSpec, ToolSpec } from '../../../shared/model';
import { abortedFailure, type CallOutcome, type DialectFactory } from '../dialects/types';
import type { LaunchPlan } from '../process/launch';
import { RateGate } from '../process/ring';
import { validateArguments } from '../validate';
import { CallRunner, type CallKind } from './call-runner';
import { HealthReporter } from './health';
import { Instance } from './instance';
import { RestartPolicy } from './restart-policy';
import { Slots } from './slots';
import { Watchdog } from './watchdog';

export interface SupervisorOptions {
  spec: PluginSpec;
  dialect: DialectFactory;
  /** The core-owned capability allow-list for this plugin binding, read at every launch. */
  allowedCapabilities(): readonly string[];
  /** Computes what to spawn, at every start (settings and grants may have changed). */
  plan(): Promise<LaunchPlan | Failure>;
  enabled?: boolean;
  /** Log lines per second per plugin before the rest are counted instead of emitted. */
  logRatePerSecond?: number;
}

export interface CallOptions {
  context?: ContextMessage[];
  systemInfo?: string;
  signal?: AbortSignal;
  /** Overrides the plugin's call inactivity timeout. */
  inactivityMs?: number;
  /** Whether a `keep_session` answer may open a passthrough session (capability gate). */
  allowPassthrough?: boolean;
  onEvent?(event: CallEvent): void;
}

export interface CallHandle {
  readonly callId: string;
  readonly done: Promise<CallOutcome>;
  cancel(reason?: string): void;
}

export interface PassthroughEvent {
  pluginId: string;
  active: boolean;
  reason: string;
}

export class PluginSupervisor implements IDisposable {
  readonly spec: PluginSpec;
  private readonly healthReporter: HealthReporter;
  private readonly restartPolicy: RestartPolicy;
  private userStopped = false;
  /** Bumped by every stop: a launch that began before it is discarded when it completes. */
  private stopGeneration = 0;
  private disposed = false;
  private enabled: boolean;

  /** The held instance: always for persistent plugins, during passthrough for the others. */
  private instance: Instance | null = null;
  private starting: Promise<Result<Instance>> | null = null;
  private watchdog: Watchdog | null = null;
  private restartTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly ephemeral = new Set<Instance>();
  /** Instances running their stop sequence, each once, until nothing of them runs. */
  private readonly retiring = new Map<Instance, Promise<void>>();
  /** Instances whose death this supervisor listens to (once each, whatever role they have). */
  private readonly watched = new WeakSet<Instance>();
  /** Every call not yet finished, queued or running: a stop cancels them all. */
  private readonly live = new Set<CancelSource>();
  private readonly slots: Slots;
  private readonly runner: CallRunner;
  private announced: ToolSpec[] | undefined;
  private toolCache: ToolSpec[] | null = null;
  /** The open passthrough session's cap timer. */
  private passthrough: ReturnType<typeof setTimeout> | null = null;
  private readonly logGate: RateGate;

  private readonly _onDidLog = new Emitter<LogEvent>();
  private readonly _onDidCallEvent = new Emitter<CallEvent>();
  private readonly _onDidChangeTools = new Emitter<ToolSpec[]>();
  private readonly _onDidChangePassthrough = new Emitter<PassthroughEvent>();
  readonly onDidChangeHealth: HealthReporter['onDidChange'];
  readonly onDidLog = this._onDidLog.event;
  readonly onDidCallEvent = this._onDidCallEvent.event;
  readonly onDidChangeTools = this._onDidChangeTools.event;
  readonly onDidChangePassthrough = this._onDidChangePassthrough.event;

  constructor(private readonly opts: SupervisorOptions) {
    this.spec = opts.spec;
    this.enabled = opts.enabled !== false;
    this.healthReporter = new HealthReporter(this.spec.id, () => this.instance?.pid ?? [...this.ephemeral][0]?.pid ?? null, this.enabled ? 'stopped' : 'disabled');
    this.onDidChangeHealth = this.healthReporter.onDidChange;
    this.restartPolicy = new RestartPolicy(this.spec.timeouts);
    this.slots = new Slots(opts.dialect.maxConcurrentCalls);
    this.logGate = new RateGate(opts.logRatePerSecond ?? 200);
    this.runner = new CallRunner(this.spec, (e) => this._onDidCallEvent.fire(e));
  }

  get health(): HealthEvent {
    return this.healthReporter.snapshot;
  }

  /** Declared tools, completed by what the running plugin announced (MCP schemas, G-Assist commands). */
  get tools(): ToolSpec[] {
    if (this.toolCache) return this.toolCache;
    const out = new Map<string, ToolSpec>();
    for (const t of this.spec.tools) out.set(t.name, t);
    for (const t of this.announced ?? []) {
      const d = out.get(t.name);
      if (!d || isEmptySchema(d.parameters)) out.set(t.name, d ? { ...d, parameters: t.parameters } : t);
    }
    this.toolCache = [...out.values()];
    return this.toolCache;
  }

  get announcedTools(): ToolSpec[] | undefined {
    return this.announced;
  }

  get inPassthrough(): boolean {
    return this.passthrough !== null;
  }

  /** Protocol entries still waiting, across instances (leak checks). */
  get pendingCount(): number {
    let n = this.instance?.session.pendingCount ?? 0;
    for (const e of this.ephemeral) n += e.session.pendingCount;
    return n + this.runner.runningCount + this.slots.waiting;
  }

  /** Starts a persistent plugin (user action: clears a user stop and the restart budget). */
  async start(): Promise<Result<void>> {
    if (!this.enabled) return failure('tool_not_exposed', `${this.spec.id} is disabled`);
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
    this.stopGeneration++;
    this.clearRestart();
    this.endPassthrough(reason);
    // Queued calls too: one waiting for a slot must not bring the plugin back behind the stop.
    this.cancelAll(failure('cancelled', `${this.spec.id} was ${reason}`));
    const all = [this.instance, ...this.ephemeral].filter((i): i is Instance => i !== null);
    this.instance = null;
    this.disposeWatchdog();
    await Promise.all(all.map((i) => this.retire(i)));
    // A launch under way sees the new generation and retires what it started; wait for it.
    if (this.starting) await this.starting;
    await Promise.all([...this.retiring.values()]);
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
    const cap = this.passthrough;
    if (!cap) return;
    this.passthrough = null;
    clearTimeout(cap);
    this._onDidChangePassthrough.fire({ pluginId: this.spec.id, active: false, reason });
    if (!this.spec.persistent && this.instance) {
      // The instance was held only for the session: let it go, now or when its turn ends.
      const inst = this.instance;
      this.instance = null;
      this.disposeWatchdog();
      this.ephemeral.add(inst);
      if (!this.runner.hasCallsOn(inst)) void this.retire(inst).then(() => this.settleIdleState());
    }
  }

  private begin(kind: CallKind, opts: CallOptions): CallHandle {
    const callId = randomUUID();
    const cancel = new CancelSource();
    const outer = opts.signal;
    let unlink: (() => void) | undefined;
    if (outer) {
      const onAbort = (): void => cancel.cancel(failure('cancelled', 'cancelled'));
      if (outer.aborted) onAbort();
      else {
        outer.addEventListener('abort', onAbort, { once: true });
        unlink = () => outer.removeEventListener('abort', onAbort);
      }
    }
    this.live.add(cancel);
    const done = this.runCall(callId, kind, opts, cancel).then((o) => {
      this.live.delete(cancel);
      unlink?.();
      return this.runner.report(callId, o, opts);
    });
    return { callId, done, cancel: (reason) => cancel.cancel(failure('cancelled', reason ?? 'cancelled by the user')) };
  }

  private async runCall(callId: string, kind: CallKind, opts: CallOptions, cancel: CancelSource): Promise<CallOutcome> {
    if (!this.enabled) return failure('tool_not_exposed', `${this.spec.id} is disabled`);
    // Check arguments before anything starts when the schema is known; again once the running
    // plugin has announced a better one (MCP tools/list).
    let checked: ToolSpec['parameters'] | undefined;
    if (kind.type === 'call') {
      const known = this.tools.find((t) => t.name === kind.tool);
      if (known && !isEmptySchema(known.parameters)) {
        checked = known.parameters;
        const invalid = validateArguments(kind.tool, checked, kind.args);
        if (invalid) return invalid;
      }
    } else if (!this.passthrough || !this.instance || this.instance.isDead) {
      return failure('cancelled', `no passthrough session is open with ${this.spec.id}`);
    }
    if (!this.slots.tryAcquire() && !(await this.slots.acquire(cancel.token))) {
      return abortedFailure(cancel, failure('cancelled', 'cancelled while waiting for the plugin'));
    }
    try {
      if (cancel.isCancelled) return abortedFailure(cancel, failure('cancelled', 'cancelled while waiting for the plugin'));
      if (!this.enabled) return failure('tool_not_exposed', `${this.spec.id} is disabled`);
      const held = this.instance && !this.instance.isDead ? this.instance : null;
      const got =
        kind.type === 'input'
          ? this.heldInstance()
          : held
            ? ok(held)
            : this.spec.persistent
              ? await this.ensureInstance()
              : await this.launchEphemeral();
      if (!got.ok) return got;
      const inst = got.value;
      if (kind.type === 'call') {
        const known = this.tools.find((t) => t.name === kind.tool);
        const invalid = known && known.parameters !== checked && validateArguments(kind.tool, known.parameters, kind.args);
        if (invalid) {
          if (inst !== this.instance) void this.retire(inst);
          return invalid;
        }
      }
      // A verdict on the plugin's health may be pending (a ping out while it was idle): wait for it.
      const verdict = this.watchdog?.pause();
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

  private afterCall(inst: Instance, kind: CallKind, outcome: CallOutcome, opts: CallOptions): void {
    const held = inst === this.instance;
    if (!outcome.ok) {
      if (kind.type === 'input' || outcome.code !== 'cancelled') this.endPassthrough(`the turn failed: ${outcome.code}`);
      if (inst.isDead) return;
      if (outcome.code === 'timeout') {
        inst.die(this.runner.withStderr(outcome, inst) as Failure, 'stop');
      } else if (outcome.code === 'cancelled' && !inst.session.cancelStopsWork && held) {
        // The plugin cannot be told to stop: restart it, or the next call queues behind the old one.
        void this.recycle(inst, 'restarted to stop a cancelled call');
      } else if (!held) {
        void this.retire(inst);
      }
      return;
    }
    // A turn can only continue a session that is still open: one ended meanwhile stays ended.
    const keep =
      outcome.value.keepSession &&
      inst.session.input !== undefined &&
      opts.allowPassthrough !== false &&
      (kind.type === 'call' || this.passthrough !== null);
    if (keep) {
      if (!held) {
        this.ephemeral.delete(inst);
        this.hold(inst);
      }
      if (!this.passthrough) this.openPassthrough();
      return;
    }
    if (this.passthrough) this.endPassthrough('the plugin ended the session');
    else if (!held) void this.retire(inst);
  }

  private openPassthrough(): void {
    this.passthrough = setTimeout(() => this.endPassthrough('session cap reached'), this.spec.timeouts.callHardCapMs);
    this._onDidChangePassthrough.fire({ pluginId: this.spec.id, active: true, reason: 'the plugin kept the session' });
  }

  private heldInstance(): Result<Instance> {
    return this.instance && !this.instance.isDead ? ok(this.instance) : failure('cancelled', 'the passthrough session has ended');
  }

  private ensureInstance(): Promise<Result<Instance>> {
    if (this.instance && !this.instance.isDead) return Promise.resolve(ok(this.instance));
    if (!this.starting) {
      this.clearRestart();
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

  private async launchEphemeral(): Promise<Result<Instance>> {
    const r = await this.launch();
    if (!r.ok) {
      this.setState('failed', r.message, r);
      return r;
    }
    this.ephemeral.add(r.value);
    this.watchDeath(r.value);
    return r;
  }

  private async launch(): Promise<Result<Instance>> {
    const generation = this.stopGeneration;
    this.setState('starting', 'launching');
    const plan = await this.opts.plan();
    if (!plan.ok) return plan;
    const inst = await Instance.launch({
      spec: this.spec,
      plan,
      dialect: this.opts.dialect,
      allowedCapabilities: this.opts.allowedCapabilities(),
      hooks: {
        diagnostic: (level, m) => this.log('host', level, m),
        pluginLog: (level, m) => this.log('plugin', level, m),
        stderr: (line) => this.log('stderr', 'info', line),
        toolsChanged: (tools) => this.setAnnounced(tools),
      },
    });
    if (!(inst instanceof Instance)) return inst;
    if (this.disposed || generation !== this.stopGeneration) {
      // Stopped while it was starting: it must not come up behind the stop.
      await this.retire(inst);
      return failure('cancelled', this.disposed ? 'the host is shutting down' : `${this.spec.id} was stopped while it was starting`);
    }
    if (inst.handshake?.tools) this.setAnnounced(inst.handshake.tools);
    return ok(inst);
  }

  private hold(inst: Instance): void {
    this.instance = inst;
    this.restartPolicy.ready();
    this.watchDeath(inst);
    this.watchdog = new Watchdog(inst.session, this.spec.timeouts, {
      lastLifeAt: () => inst.lastLifeAt,
      answered: (rtt) => (this.healthReporter.pingRttMs = rtt),
      unresponsive: (why) => inst.die(failure('unresponsive', `the plugin stopped responding: ${why}`), 'kill'),
    });
    this.settleIdleState();
  }

  private watchDeath(inst: Instance): void {
    if (this.watched.has(inst)) return;
    this.watched.add(inst);
    inst.onDidDie((f) => this.onDeath(inst, f));
  }

  private onDeath(inst: Instance, cause: Failure): void {
    this.runner.abortFor(inst, cause);
    this.ephemeral.delete(inst);
    void this.retire(inst);
    const state: HealthState = cause.code === 'unresponsive' || cause.code === 'timeout' ? 'unresponsive' : 'crashed';
    if (inst !== this.instance) {
      if (!this.instance && !this.userStopped && !this.disposed) this.setState(state, cause.message, cause);
      return;
    }
    this.instance = null;
    this.disposeWatchdog();
    this.endPassthrough(`the plugin died: ${cause.code}`);
    if (this.userStopped || this.disposed) return;
    this.setState(state, cause.message, cause);
    if (this.spec.persistent) this.scheduleRestart(cause);
  }

  private scheduleRestart(cause: Failure): void {
    const next = this.restartPolicy.next();
    if (!next.restart) {
      this.setState('failed', `gave up after ${next.attempts} restarts; last cause: ${cause.message}`, cause);
      return;
    }
    const wait = next.delayMs;
    this.healthReporter.restarts++;
    this.setState('restarting', `restart ${next.attempt} of ${next.of} in ${wait} ms, after: ${cause.message}`, cause);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.userStopped || this.disposed || (this.instance && !this.instance.isDead)) return;
      this.starting = this.launch().then((r) => {
        this.starting = null;
        if (r.ok) this.hold(r.value);
        else if (!this.userStopped && !this.disposed) this.scheduleRestart(r);
        return r;
      });
    }, wait);
  }

  /** Stops and starts again without touching the restart budget (not a crash). */
  private async recycle(inst: Instance, reason: string): Promise<void> {
    if (inst === this.instance) {
      this.instance = null;
      this.disposeWatchdog();
    }
    this.setState('restarting', reason);
    await this.retire(inst);
    if (this.spec.persistent && !this.userStopped && !this.disposed) await this.ensureInstance();
    else this.settleIdleState();
  }

  /** Runs the stop sequence of an instance and remembers it until it ends. */
  private retire(inst: Instance): Promise<void> {
    this.ephemeral.delete(inst);
    const already = this.retiring.get(inst);
    if (already) return already;
    const p = inst
      .stop()
      .catch(() => undefined)
      .then(() => {
        inst.dispose();
        this.retiring.delete(inst);
      });
    this.retiring.set(inst, p);
    return p;
  }

  private settleIdleState(): void {
    if (this.disposed || this.runner.runningCount > 0 || this.starting) return;
    const state = this.healthReporter.state;
    if (state === 'restarting' || state === 'failed' || state === 'crashed' || state === 'unresponsive') {
      if (!this.instance) return;
    }
    if (this.instance && !this.instance.isDead) {
      this.setState('ready', this.passthrough ? 'in passthrough' : 'idle');
      this.watchdog?.resume();
    } else if (!this.spec.persistent && (state === 'busy' || state === 'ready')) {
      this.setState('stopped', 'idle (starts on the next call)');
    }
  }

  private setAnnounced(tools: ToolSpec[]): void {
    this.announced = tools;
    this.toolCache = null;
    this._onDidChangeTools.fire(this.tools);
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

  private cancelAll(cause: Failure): void {
    for (const c of [...this.live]) c.cancel(cause);
  }

  private clearRestart(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
  }

  private disposeWatchdog(): void {
    this.watchdog?.dispose();
    this.watchdog = null;
  }

  /** Stops everything and waits until no process of this plugin runs. */
  async shutdown(): Promise<void> {
    await this.stop('host shutting down');
    this.disposed = true;
  }

  dispose(): void {
    this.disposed = true;
    this.clearRestart();
    this.disposeWatchdog();
    this.cancelAll(failure('cancelled', 'the host is shutting down'));
    for (const i of [this.instance, ...this.ephemeral]) {
      if (!i) continue;
      i.kill();
      i.dispose();
    }
    this.instance = null;
    this.ephemeral.clear();
    this.healthReporter.dispose();
    this._onDidLog.dispose();
    this._onDidCallEvent.dispose();
    this._onDidChangeTools.dispose();
    this._onDidChangePassthrough.dispose();
  }
}

function isEmptySchema(s: Record<string, unknown>): boolean {
  const props = s.properties as Record<string, unknown> | undefined;
  return !props || Object.keys(props).length === 0;
}
