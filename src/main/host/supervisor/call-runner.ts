/**
 * Runs one call or passthrough turn on an instance under its deadlines: an inactivity timer that
 * every message for the call resets, a hard cap, cancellation, and the instance's death. Whatever
 * ends the call first decides its outcome, at once; chunks already streamed stay delivered, and
 * nothing is emitted for the call after its final event.
 */
import { type CancelSource } from '../../../shared/cancel';
import { failure, type Failure, type Result } from '../../../shared/failures';
import type { CallEvent, ContextMessage, PluginSpec } from '../../../shared/plugin';
import { abortedFailure, type CallOutcome } from '../dialects/types';
import type { Instance } from './instance';
import { Deadlines, RunningCall } from './running-call';

export type CallKind = { type: 'call'; tool: string; args: Record<string, unknown> } | { type: 'input'; text: string };

export interface CallOptions {
  /**
   * The conversation so far; the registry empties it unless the plugin may read it. A function
   * is called only for a plugin that may (most may not, and reading it costs a store read).
   */
  context?: ContextMessage[] | (() => ContextMessage[]);
  systemInfo?: string;
  signal?: AbortSignal;
  /** Overrides the plugin's call inactivity timeout. */
  inactivityMs?: number;
  /** Whether a `keep_session` answer may open a passthrough session (capability gate). */
  allowPassthrough?: boolean;
  /** Who makes the call (a conversation id): it holds the passthrough session if the plugin keeps one. */
  owner?: string;
  onEvent?(event: CallEvent): void;
}

export interface CallHandle {
  readonly callId: string;
  readonly done: Promise<CallOutcome>;
  cancel(reason?: string): void;
  /**
   * Sends a request that belongs to this running call (an agent's tool result), outside the
   * plugin's call slots. Absent on calls that never started.
   */
  request?(method: string, params: Record<string, unknown>): Promise<Result<unknown>>;
  /**
   * While held, the call's deadlines stand still: the plugin waits on the host (a tool the
   * agent asked for runs, or waits for the person's approval), not the other way round.
   */
  hold?(held: boolean): void;
}

type RunOptions = Pick<CallOptions, 'context' | 'systemInfo' | 'inactivityMs' | 'onEvent' | 'owner'>;

export class CallRunner {
  private readonly running = new Map<string, RunningCall>();
  /** Calls held before they began running (still queued or launching). */
  private readonly heldEarly = new Set<string>();
  /** Told after each call ends (client-side.ts ends a server's question when its call is gone). */
  private readonly ended = new Set<() => void>();
  private readonly deadlines = new Deadlines(this.running);

  constructor(private readonly spec: PluginSpec) {}

  get runningCount(): number {
    return this.running.size;
  }

  async run(
    callId: string,
    inst: Instance,
    kind: CallKind,
    opts: RunOptions,
    cancel: CancelSource,
  ): Promise<CallOutcome> {
    const t = this.spec.timeouts;
    const call = new RunningCall(this.deadlines, callId, inst, cancel, {
      owner: opts.owner,
      inactivityMs: opts.inactivityMs ?? t.callInactivityMs,
      hardCapMs: t.callHardCapMs,
      events: opts,
    });
    this.running.set(callId, call);
    if (this.heldEarly.delete(callId)) call.hold(true);
    this.deadlines.add(call);
    // Whichever comes first: the session's outcome, or the cancel (a stop, a deadline, a death),
    // listened to before the session starts, as the session's own cancel listeners come after it.
    let settle!: (outcome: CallOutcome) => void;
    let fail!: (e: unknown) => void;
    const outcome = new Promise<CallOutcome>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    const offCancel = cancel.onCancel(() => settle(abortedFailure(cancel, failure('cancelled', 'cancelled'))));
    try {
      const token = cancel.token;
      const work =
        kind.type === 'call'
          ? inst.session.call(
              {
                tool: kind.tool,
                args: kind.args,
                context: (typeof opts.context === 'function' ? opts.context() : opts.context) ?? [],
                systemInfo: opts.systemInfo ?? '',
                cancel: token,
              },
              call,
            )
          : inst.session.input
            ? inst.session.input(kind.text, call, token, t.inputAckMs)
            : Promise.resolve<CallOutcome>(failure('plugin_error', `${this.spec.id} has no passthrough input`));
      work.then(settle, fail);
      return await outcome;
    } finally {
      call.finished = true;
      offCancel();
      this.running.delete(callId);
      this.deadlines.ended();
      this.heldEarly.delete(callId);
      if (this.ended.size > 0) for (const fn of [...this.ended]) fn();
    }
  }

  /** Calls `fn` after each call ends, until the returned function is called. */
  onCallEnded(fn: () => void): () => void {
    this.ended.add(fn);
    return () => this.ended.delete(fn);
  }

  /** Whether a call of this conversation is running. */
  hasCallsOf(owner: string): boolean {
    for (const r of this.running.values()) if (r.owner === owner) return true;
    return false;
  }

  /** The handle a caller holds for a call begun here. */
  handle(callId: string, done: Promise<CallOutcome>, cancel: (reason?: string) => void): CallHandle {
    return handleOf(this, callId, done, cancel);
  }

  /** A request within a running call (CallHandle.request); it counts as the call's activity. */
  async request(callId: string, method: string, params: Record<string, unknown>): Promise<Result<unknown>> {
    const r = this.running.get(callId);
    if (!r) return failure('invalid_state', `the call is not running: ${method} has nothing to answer`);
    if (!r.inst.session.request)
      return failure('invalid_state', `${this.spec.id}'s protocol has no requests within a call`);
    r.activity();
    const out = await r.inst.session.request(method, params, this.spec.timeouts.callInactivityMs);
    r.activity();
    return out;
  }

  /**
   * The conversation a server's request most likely belongs to: that of the call started last.
   * MCP over stdio does not say which call a request is part of, and a server asks while it works.
   */
  latestOwner(): string | undefined {
    let owner: string | undefined;
    for (const r of this.running.values()) owner = r.owner ?? owner;
    return owner;
  }

  /** Holds or releases the deadlines of every running call (the server waits on the person). */
  holdAll(held: boolean): void {
    for (const r of this.running.values()) r.hold(held);
  }

  /** Holds or releases a running call's deadlines (CallHandle.hold). */
  hold(callId: string, held: boolean): void {
    const r = this.running.get(callId);
    if (r) return r.hold(held);
    if (held) this.heldEarly.add(callId);
    else this.heldEarly.delete(callId);
  }

  /** Emits the call's final event and hands the outcome back. */
  report(callId: string, outcome: CallOutcome, opts: RunOptions): CallOutcome {
    if (outcome.ok) this.emit({ type: 'complete', callId, ...outcome.value }, opts);
    else this.emit({ type: 'error', callId, failure: outcome }, opts);
    return outcome;
  }

  /** Fails every call running on an instance with its cause of death. */
  abortFor(inst: Instance, cause: Failure): void {
    for (const r of this.running.values()) if (r.inst === inst) r.cancel.cancel(cause);
  }

  /** Whether any call is still running on an instance. */
  hasCallsOn(inst: Instance): boolean {
    for (const r of this.running.values()) if (r.inst === inst) return true;
    return false;
  }

  private emit(e: CallEvent, opts: RunOptions): void {
    opts.onEvent?.(e);
  }
}

/**
 * A call's handle. Its functions are methods, not arrow properties (one handle is made per call),
 * and own properties: wrappers copy a handle whole (`{ ...handle, done }`).
 */
function handleOf(
  runner: CallRunner,
  callId: string,
  done: Promise<CallOutcome>,
  cancel: (reason?: string) => void,
): CallHandle {
  return {
    callId,
    done,
    cancel,
    request(method, params) {
      return runner.request(callId, method, params);
    },
    hold(held) {
      runner.hold(callId, held);
    },
  };
}
