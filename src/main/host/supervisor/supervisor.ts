/**
 * The life of one plugin: start, health, calls, passthrough, watchdog and restarts, following the
 * supervision defaults of docs/ARCHITECTURE.md (all configurable per plugin through its timeouts).
 *
 * Persistent plugins keep one instance up (the held instance); the others start one per call and
 * keep it only while a passthrough session is open. A call in flight when its plugin dies fails at
 * once with the cause of death, keeping the chunks it already streamed; cancel ends a call at any
 * moment. What to spawn is not decided here: the owner (the registry, or a CLI run from a folder)
 * hands over a launch binding it computed, and hands a new one when settings or grants change.
 */
/* eslint-disable max-lines -- until the supervisor and the registry are split by ownership (issue 16, item 2) */
import { randomUUID } from 'node:crypto';
import { cancelOnAbort, CancelSource } from '../../../shared/cancel';
import { failure, ok, type Failure, type Result } from '../../../shared/failures';
import { Disposable } from '../../../shared/lifecycle';
import type { ServerAsks } from '../asks';
import type { HealthEvent, HealthState, LogLevel, LogSource, PluginSpec, ToolSpec } from '../../../shared/plugin';
import { abortedFailure, type CallOutcome, type DialectFactory, type DialectSession } from '../dialects/types';
import { CallRunner, type CallHandle, type CallKind, type CallOptions } from './call-runner';
import { PluginClientSide } from './client-side';
import { HealthReporter } from './health';
import { isNoted, logTransition } from './health-states';
import type { Instance, LaunchBinding } from './instance';
import { InstanceKeeper } from './keeper';
import { PassthroughSession } from './passthrough';
import { PluginLog } from './plugin-log';
import { Slots } from './slots';
import { ToolSet } from './tool-set';

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
  private readonly toolSet: ToolSet;
  private readonly passthrough: PassthroughSession;
  private readonly keeper: InstanceKeeper;
  private readonly slots: Slots;
  private readonly runner: CallRunner;
  private readonly pluginLog: PluginLog;
  private enabled: boolean;
  private readonly exitsAfterCall: boolean;
  /** Every call not yet finished, queued or running: a stop cancels them all. */
  private readonly live = new Set<CancelSource>();
  /** Calls past the queue (launching, waiting for a verdict, running): the plugin is not idle. */
  private active = 0;

  readonly onDidLog: PluginLog['onDidLog'];
  readonly onDidChangeHealth: HealthReporter['onDidChange'];
  readonly onDidTransition: HealthReporter['onDidTransition'];
  readonly onDidChangeTools: ToolSet['onDidChange'];
  readonly onDidChangePassthrough: PassthroughSession['onDidChange'];
  /** An MCP server's requests, and its prompts or resources changing (onDidChangeFeatures). */
  readonly clientSide: PluginClientSide;

  constructor(opts: SupervisorOptions) {
    super();
    this.spec = opts.spec;
    this.enabled = opts.enabled !== false;
    this.exitsAfterCall = opts.dialect.exitsAfterCall === true;
    this.pluginLog = this._register(new PluginLog(this.spec.id, opts.logRatePerSecond));
    this.onDidLog = this.pluginLog.onDidLog;
    const log = (source: LogSource, level: LogLevel, m: string): void => this.pluginLog.log(source, level, m);
    const pid = (): number | null => this.keeper.heldInstance?.pid ?? this.keeper.pool.oneShots[0]?.pid ?? null;
    const illegal = (from: HealthState, to: HealthState, why: string): void =>
      log('host', 'error', `internal: refused an illegal health change ${from} → ${to} (${why})`);
    this.healthReporter = this._register(
      new HealthReporter(this.spec.id, pid, this.enabled ? 'stopped' : 'disabled', illegal, (t) =>
        isNoted(this.spec, t),
      ),
    );
    this.onDidChangeHealth = this.healthReporter.onDidChange;
    this.onDidTransition = this.healthReporter.onDidTransition;
    this._register(this.onDidTransition((t) => logTransition(this.spec, t, log)));
    this.toolSet = this._register(new ToolSet(this.spec.tools));
    this.onDidChangeTools = this.toolSet.onDidChange;
    this.passthrough = this._register(new PassthroughSession(this.spec.id, this.spec.timeouts.callHardCapMs));
    this.onDidChangePassthrough = this.passthrough.onDidChange;
    this._register(this.passthrough.onDidChange((e) => !e.active && this.releaseAfterPassthrough()));
    this.runner = new CallRunner(this.spec);
    this.clientSide = this._register(new PluginClientSide(this.spec.id, this.runner, opts.asks ?? (() => undefined)));
    this.keeper = this._register(
      new InstanceKeeper(this.spec, opts.dialect, opts.binding, {
        health: this.healthReporter,
        log,
        toolsAnnounced: (tools) => this.toolSet.announce(tools),
        instructions: (text) => (this.instructions = text),
        died: (inst, cause) => this.runner.abortFor(inst, cause),
        heldDied: (cause) => this.passthrough.end(`the plugin died: ${cause.code}`),
        settle: () => this.settleIdleState(),
        client: this.clientSide,
      }),
    );
    this.slots = new Slots(opts.dialect.maxConcurrentCalls);
  }

  get health(): HealthEvent {
    return this.healthReporter.snapshot;
  }

  /** Declared tools, completed by what the running plugin announced. */
  get tools(): ToolSpec[] {
    return this.toolSet.all;
  }

  /** The server's instructions for a model, from its last handshake (MCP). */
  instructions: string | undefined;
  get announcedTools(): ToolSpec[] | undefined {
    return this.toolSet.announcedTools;
  }

  /** Whether a passthrough session is open, and who holds it (a conversation id). */
  get inPassthrough(): boolean {
    return this.passthrough.isOpen;
  }
  passthroughOwner = (): string | undefined => this.passthrough.owner;

  /** Protocol entries still waiting, across instances (leak checks). */
  get pendingCount(): number {
    return this.keeper.pendingCount + this.runner.runningCount + this.slots.waiting;
  }

  /** Its limits and what its held process uses of them, where it runs with limits. */
  get limits(): InstanceKeeper['limits'] {
    return this.keeper.limits;
  }

  /** A new launch binding (settings or grants changed): used from the next launch on. */
  rebind = (binding: LaunchBinding): void => this.keeper.rebind(binding);

  /** Starts a persistent plugin (user action: clears a user stop and the restart budget). */
  async start(): Promise<Result<void>> {
    if (!this.enabled) return failure('disabled', `${this.spec.id} is disabled; enable it first`);
    this.keeper.reset();
    if (!this.spec.persistent) return ok(undefined);
    const r = await this.keeper.ensure();
    return r.ok ? ok(undefined) : r;
  }

  /** A persistent plugin's live protocol session, started if need be (MCP resources and prompts). */
  session = (): Promise<Result<DialectSession>> => this.keeper.session(this.enabled);

  /** User stop: nothing restarts it until the user starts it or calls it again. */
  async stop(reason = 'stopped by the user'): Promise<void> {
    this.keeper.userStopped = true;
    this.passthrough.end(reason);
    // Queued calls too: one waiting for a slot must not bring the plugin back behind the stop.
    for (const c of [...this.live]) c.cancel(failure('cancelled', `${this.spec.id} was ${reason}`));
    await this.keeper.stopAll();
    if (this.enabled) this.healthReporter.set('stopped', reason);
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
      this.healthReporter.set('disabled', 'disabled by the user');
      return;
    }
    this.enabled = true;
    this.healthReporter.set('stopped', 'enabled');
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
  endPassthrough = (reason = 'ended by the user'): void => void this.passthrough.end(reason);

  private begin(kind: CallKind, opts: CallOptions): CallHandle {
    const callId = randomUUID();
    const cancel = new CancelSource();
    const unlink = cancelOnAbort(opts.signal, cancel, failure('cancelled', 'cancelled'));
    this.live.add(cancel);
    const done = this.runCall(callId, kind, opts, cancel).then((o) => {
      this.live.delete(cancel);
      unlink();
      return this.runner.report(callId, o, opts);
    });
    return this.runner.handle(callId, done, (reason) =>
      cancel.cancel(failure('cancelled', reason ?? 'cancelled by the user')),
    );
  }

  private async runCall(callId: string, kind: CallKind, opts: CallOptions, cancel: CancelSource): Promise<CallOutcome> {
    if (!this.enabled) return failure('disabled', `${this.spec.id} is disabled; enable it first`);
    // Arguments are checked before anything starts when the schema is known, and again once the
    // running plugin has announced a better one (MCP tools/list).
    let checked = kind.type === 'call' ? this.runner.checkArguments(this.toolSet, kind) : undefined;
    if (checked && !checked.ok) return checked;
    if (kind.type === 'input' && (!this.passthrough.isOpen || !this.keeper.alive()))
      return failure('invalid_state', `no passthrough session is open with ${this.spec.id}`);
    if (!this.slots.tryAcquire() && !(await this.slots.acquire(cancel.token))) {
      return abortedFailure(cancel, failure('cancelled', 'cancelled while waiting for the plugin'));
    }
    this.active++;
    try {
      if (cancel.isCancelled)
        return abortedFailure(cancel, failure('cancelled', 'cancelled while waiting for the plugin'));
      if (!this.enabled) return failure('disabled', `${this.spec.id} is disabled; enable it first`);
      const got = await this.keeper.instanceFor(kind.type === 'input');
      if (!got.ok) return got;
      const inst = got.value;
      if (kind.type === 'call' && checked?.ok && checked.schema !== this.toolSet.find(kind.tool)?.parameters) {
        checked = this.runner.checkArguments(this.toolSet, kind);
        if (!checked.ok) {
          if (inst !== this.keeper.heldInstance) void this.keeper.pool.retire(inst);
          return checked;
        }
      }
      // A verdict on the plugin's health may be pending (a ping out while it was idle): wait for it.
      const verdict = inst === this.keeper.heldInstance ? this.keeper.watchdog?.pause() : undefined;
      if (verdict) await verdict;
      if (inst.isDead) return inst.deathCause ?? failure('crashed', 'the plugin died before the call started');
      if (cancel.isCancelled) return abortedFailure(cancel, failure('cancelled', 'cancelled before it started'));
      this.healthReporter.set('busy', kind.type === 'input' ? 'passthrough turn' : `running ${kind.tool}`);
      let outcome = await this.runner.run(callId, inst, kind, opts, cancel);
      if (outcome.ok && this.exitsAfterCall && inst !== this.keeper.heldInstance)
        outcome = await this.keeper.exitAfterCall(inst, outcome);
      outcome = this.afterCall(inst, kind, outcome, opts);
      // A stop is no failure of the plugin: its stderr says nothing about it (issue 12).
      return !outcome.ok && outcome.code === 'cancelled' ? outcome : this.runner.withStderr(outcome, inst);
    } finally {
      this.active--;
      this.slots.release();
      this.settleIdleState();
    }
  }

  /** Settles the instance after a call; the outcome says when stopping it meant a restart. */
  private afterCall(inst: Instance, kind: CallKind, outcome: CallOutcome, opts: CallOptions): CallOutcome {
    const held = inst === this.keeper.heldInstance;
    if (!outcome.ok) {
      if (kind.type === 'input' || outcome.code !== 'cancelled')
        this.passthrough.end(`the turn failed: ${outcome.code}`);
      if (inst.isDead) return outcome;
      if (outcome.code === 'timeout') {
        inst.die(this.runner.withStderr(outcome, inst) as Failure, 'stop');
      } else if (outcome.code === 'cancelled' && !inst.session.cancelStopsWork && held) {
        // The plugin cannot be told to stop: restart it, or the next call queues behind the old one.
        void this.keeper.recycle(
          inst,
          `${kind.type === 'call' ? kind.tool : 'a passthrough turn'} was stopped, and the plugin cannot cancel a call it started`,
        );
        return { ...outcome, details: { ...outcome.details, restarted: true } };
      } else if (!held) {
        void this.keeper.pool.retire(inst);
      }
      return outcome;
    }
    // A turn can only continue a session that is still open: one ended meanwhile stays ended.
    const keep =
      outcome.value.keepSession &&
      inst.session.input !== undefined &&
      opts.allowPassthrough !== false &&
      (kind.type === 'call' || this.passthrough.isOpen);
    if (keep) {
      if (!held) this.keeper.hold(inst);
      this.passthrough.open(opts.owner, 'the plugin kept the session');
      return outcome;
    }
    if (this.passthrough.isOpen) this.passthrough.end('the plugin ended the session');
    else if (!held) void this.keeper.pool.retire(inst);
    return outcome;
  }

  /** A one-shot plugin's instance was held only for its session: let it go, now or after its turn. */
  private releaseAfterPassthrough(): void {
    if (this.spec.persistent) return;
    const inst = this.keeper.release();
    if (!inst) return;
    this.keeper.pool.addOneShot(inst);
    if (!this.runner.hasCallsOn(inst)) void this.keeper.pool.retire(inst).then(() => this.settleIdleState());
  }

  /** After a call or a launch: ready when an instance is held, stopped when a one-shot plugin is idle. */
  private settleIdleState(): void {
    if (this.isDisposed || this.active > 0 || this.keeper.isStarting) return;
    const state = this.healthReporter.state;
    if (this.keeper.alive()) {
      if (state === 'disabled') return;
      this.healthReporter.set('ready', this.passthrough.isOpen ? 'in passthrough' : 'idle');
      this.keeper.watchdog?.resume();
    } else if (!this.spec.persistent && (state === 'busy' || state === 'ready')) {
      this.healthReporter.set('stopped', 'idle (starts on the next call)');
    }
  }

  /** Stops everything and waits until no process of this plugin runs. */
  async shutdown(): Promise<void> {
    await this.stop('host shutting down');
    this.dispose();
  }

  override dispose(): void {
    if (this.isDisposed) return;
    for (const c of [...this.live]) c.cancel(failure('cancelled', 'the host is shutting down'));
    super.dispose();
  }
}
