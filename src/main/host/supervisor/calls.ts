/**
 * A plugin's calls: each one checked against the tool's schema, queued for a free slot, run on an
 * instance the running part hands over (call-runner.ts keeps its deadlines), and settled after:
 * the instance kept, let go or stopped, and the passthrough session opened or ended. A stop cancels
 * every call not yet finished, queued or running. What a call does to the plugin's health (busy,
 * a recycle after a cancel it could not honour) is asked of the supervisor, which owns it.
 */
import { randomUUID } from 'node:crypto';
import { cancelOnAbort, CancelSource } from '../../../shared/cancel';
import { failure, type Failure } from '../../../shared/failures';
import { Disposable } from '../../../shared/lifecycle';
import type { PluginSpec } from '../../../shared/plugin';
import type { ServerAsks } from '../asks';
import { abortedFailure, type CallOutcome } from '../dialects/types';
import { CallRunner, type CallHandle, type CallKind, type CallOptions } from './call-runner';
import { PluginClientSide } from './client-side';
import type { Instance } from './instance';
import { PassthroughSession } from './passthrough';
import type { RunningInstances } from './running';
import { Slots } from './slots';

/** What a call asks of the supervisor. */
export interface CallsHooks {
  enabled(): boolean;
  /** A call starts running: the plugin is busy. */
  busy(reason: string): void;
  /** A call ended (or an instance was let go): the plugin may be idle again. */
  settle(): void;
  /** A cancelled call the plugin cannot stop: its instance is restarted, counted as a restart. */
  recycle(inst: Instance, reason: string): void;
  asks(): ServerAsks | undefined;
}

/**
 * Call ids: unique in this process and across processes (a random part drawn once), and cheaper
 * than a UUID per call.
 */
const CALL_ID_PREFIX = randomUUID();
let callCount = 0;
const nextCallId = (): string => `${CALL_ID_PREFIX}-${++callCount}`;

export class Calls extends Disposable {
  private readonly runner: CallRunner;
  private readonly slots: Slots;
  readonly passthrough: PassthroughSession;
  /** An MCP server's requests, and its prompts or resources changing (onDidChangeFeatures). */
  readonly clientSide: PluginClientSide;
  /** Every call not yet finished, queued or running: a stop cancels them all. */
  private readonly live = new Set<CancelSource>();
  /** Calls past the queue (launching, waiting for a verdict, running): the plugin is not idle. */
  private active = 0;

  constructor(
    private readonly spec: PluginSpec,
    maxConcurrentCalls: number,
    /** The dialect's one-shot processes exit after each answer, and must exit cleanly (rterm). */
    private readonly exitsAfterCall: boolean,
    private readonly running: RunningInstances,
    private readonly hooks: CallsHooks,
  ) {
    super();
    this.runner = new CallRunner(spec);
    this.slots = new Slots(maxConcurrentCalls);
    this.passthrough = this._register(new PassthroughSession(spec.id, spec.timeouts.callHardCapMs));
    this._register(this.passthrough.onDidChange((e) => !e.active && this.releaseAfterPassthrough()));
    this.clientSide = this._register(new PluginClientSide(spec.id, this.runner, hooks.asks));
  }

  /** Whether a call is past the queue: the plugin is not idle. */
  get isActive(): boolean {
    return this.active > 0;
  }

  /** Calls running or waiting for a slot (leak checks). */
  get pendingCount(): number {
    return this.runner.runningCount + this.slots.waiting;
  }

  call(tool: string, args: Record<string, unknown>, opts: CallOptions = {}): CallHandle {
    return this.begin({ type: 'call', tool, args }, opts);
  }

  /** One passthrough turn: the user's text goes to the plugin as `input`. Never logged. */
  input(text: string, opts: CallOptions = {}): CallHandle {
    return this.begin({ type: 'input', text }, opts);
  }

  /** Cancels every call not yet finished, queued ones too, and ends the passthrough session (a stop). */
  cancelAll(reason: string, message: string): void {
    this.passthrough.end(reason);
    // Queued calls too: one waiting for a slot must not bring the plugin back behind the stop.
    for (const c of [...this.live]) c.cancel(failure('cancelled', message));
  }

  /** Leaves passthrough (the user's Exit, the cap, the plugin's death). */
  endPassthrough(reason: string): void {
    this.passthrough.end(reason);
  }

  /** An instance died: the calls running on it fail with the cause of its death. */
  lost(inst: Instance, cause: Failure): void {
    this.runner.abortFor(inst, cause);
  }

  private begin(kind: CallKind, opts: CallOptions): CallHandle {
    const callId = nextCallId();
    const cancel = new CancelSource();
    const unlink = opts.signal ? cancelOnAbort(opts.signal, cancel, failure('cancelled', 'cancelled')) : undefined;
    this.live.add(cancel);
    const done = this.runCall(callId, kind, opts, cancel).then((o) => {
      this.live.delete(cancel);
      unlink?.();
      return this.runner.report(callId, o, opts);
    });
    return this.runner.handle(callId, done, (reason) =>
      cancel.cancel(failure('cancelled', reason ?? 'cancelled by the user')),
    );
  }

  private async runCall(callId: string, kind: CallKind, opts: CallOptions, cancel: CancelSource): Promise<CallOutcome> {
    if (!this.hooks.enabled()) return failure('disabled', `${this.spec.id} is disabled; enable it first`);
    const { tools } = this.running;
    // Arguments are checked before anything starts when the schema is known, and again once the
    // running plugin has announced a better one (MCP tools/list).
    let checked = kind.type === 'call' ? tools.checkArguments(kind.tool, kind.args) : undefined;
    if (checked && !checked.ok) return checked;
    if (kind.type === 'input' && (!this.passthrough.isOpen || !this.running.alive()))
      return failure('invalid_state', `no passthrough session is open with ${this.spec.id}`);
    if (!this.slots.tryAcquire() && !(await this.slots.acquire(cancel.token))) {
      return abortedFailure(cancel, failure('cancelled', 'cancelled while waiting for the plugin'));
    }
    this.active++;
    try {
      if (cancel.isCancelled)
        return abortedFailure(cancel, failure('cancelled', 'cancelled while waiting for the plugin'));
      if (!this.hooks.enabled()) return failure('disabled', `${this.spec.id} is disabled; enable it first`);
      const got = await this.running.instanceFor(kind.type === 'input');
      if (!got.ok) return got;
      const inst = got.value;
      if (kind.type === 'call' && checked?.ok && checked.schema !== tools.find(kind.tool)?.parameters) {
        checked = tools.checkArguments(kind.tool, kind.args);
        if (!checked.ok) {
          if (inst !== this.running.heldInstance) void this.running.retire(inst);
          return checked;
        }
      }
      const verdict = this.running.busy(inst);
      if (verdict) await verdict;
      if (inst.isDead) return inst.deathCause ?? failure('crashed', 'the plugin died before the call started');
      if (cancel.isCancelled) return abortedFailure(cancel, failure('cancelled', 'cancelled before it started'));
      this.hooks.busy(kind.type === 'input' ? 'passthrough turn' : `running ${kind.tool}`);
      let outcome = await this.runner.run(callId, inst, kind, opts, cancel);
      if (outcome.ok && this.exitsAfterCall && inst !== this.running.heldInstance)
        outcome = await this.running.exitAfterCall(inst, outcome);
      outcome = this.afterCall(inst, kind, outcome, opts);
      // A stop is no failure of the plugin: its stderr says nothing about it (issue 12).
      return !outcome.ok && outcome.code === 'cancelled' ? outcome : inst.withStderr(outcome);
    } finally {
      this.active--;
      this.slots.release();
      this.hooks.settle();
    }
  }

  /** Settles the instance after a call; the outcome says when stopping it meant a restart. */
  private afterCall(inst: Instance, kind: CallKind, outcome: CallOutcome, opts: CallOptions): CallOutcome {
    const held = inst === this.running.heldInstance;
    if (!outcome.ok) {
      if (kind.type === 'input' || outcome.code !== 'cancelled')
        this.passthrough.end(`the turn failed: ${outcome.code}`);
      if (inst.isDead) return outcome;
      if (outcome.code === 'timeout') {
        inst.die(inst.withStderr(outcome), 'stop');
      } else if (outcome.code === 'cancelled' && !inst.session.cancelStopsWork && held) {
        // The plugin cannot be told to stop: restart it, or the next call queues behind the old one.
        this.hooks.recycle(
          inst,
          `${kind.type === 'call' ? kind.tool : 'a passthrough turn'} was stopped, and the plugin cannot cancel a call it started`,
        );
        return { ...outcome, details: { ...outcome.details, restarted: true } };
      } else if (!held) {
        void this.running.retire(inst);
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
      if (!held) this.running.hold(inst);
      this.passthrough.open(opts.owner, 'the plugin kept the session');
      return outcome;
    }
    if (this.passthrough.isOpen) this.passthrough.end('the plugin ended the session');
    else if (!held) void this.running.retire(inst);
    return outcome;
  }

  /** A one-shot plugin's instance was held only for its session: let it go, now or after its turn. */
  private releaseAfterPassthrough(): void {
    if (this.spec.persistent) return;
    const inst = this.running.letGo();
    if (!inst) return;
    if (!this.runner.hasCallsOn(inst)) void this.running.retire(inst).then(() => this.hooks.settle());
  }

  /** The host is going away: every call still live ends. */
  override dispose(): void {
    if (this.isDisposed) return;
    for (const c of [...this.live]) c.cancel(failure('cancelled', 'the host is shutting down'));
    super.dispose();
  }
}
