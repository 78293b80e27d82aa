/**
 * Generic JSON-RPC 2.0 plugins, over NDJSON or length-prefixed frames: Mehrhof providers, agents
 * and workflows, and the planner/executor method set. A tool is named by its wire method.
 *
 * - Mehrhof `agent.run` streams `stream {type, data}` notifications, then sends the final
 *   response; only the response ends the call, and every chunk before it is kept in order.
 * - A result that carries `{error}` is a failure, whatever the envelope says.
 * - Planner streams (`stream_start` / `stream_data` / `stream_end`) are checked: sequence numbers
 *   must run without gaps and the announced total must match; a gap names the missing chunk.
 * - `ping` answered with an error still proves the process alive. Real plugins may also ignore
 *   ping entirely, which while idle looks exactly like a freeze: a plugin whose first two pings go
 *   unanswered is taken for one of those, noted once, and not pinged again. Its crashes and its
 *   calls' deadlines are still watched; a freeze while idle shows at its next call's deadline.
 */
import type { CancelToken } from '../../../shared/cancel';
import { failure, ok, type Failure, type Result } from '../../../shared/failures';
import type { RpcFlavor } from '../../../shared/plugin';
import { rpcCodeMeaning, rpcErrorDetails } from '../rpc/codes';
import { RpcPeer, type PendingRequest, type RpcError, type RpcId, type RpcOutcome } from '../rpc/peer';
import { PlannerStreams } from './planner-streams';
import { SessionBase } from './session-base';
import { asRecord, describeValue, logLevelOf } from './values';
import {
  abortedFailure,
  type CallOutcome,
  type CallRequest,
  type CallSink,
  type DialectFactory,
  type DialectSession,
  type HandshakeInfo,
  type PingOutcome,
  type SessionContext,
} from './types';

export interface BatchCall {
  tool: string;
  args: Record<string, unknown>;
}

interface ActiveCall {
  sink: CallSink;
  end(outcome: CallOutcome): void;
}

class JsonRpcSession extends SessionBase implements DialectSession {
  readonly cancelStopsWork = false;
  private readonly peer: RpcPeer;
  private readonly flavor: RpcFlavor;
  private readonly active = new Map<RpcId, ActiveCall>();
  private readonly streams: PlannerStreams;
  private pingSupport: 'unknown' | 'yes' | 'no' = 'unknown';
  private unansweredPings = 0;

  constructor(ctx: SessionContext) {
    super(ctx);
    this.flavor = ctx.spec.rpcFlavor;
    this.peer = new RpcPeer((m) => ctx.send(m), {
      notification: (method, params) => this.onNotification(method, params),
      stray: (id, outcome, why) => this.onStray(id, outcome, why),
      invalid: (_v, why) => ctx.diagnostic('warn', `ignored a message that is not JSON-RPC: ${why}`),
    });
    this.streams = new PlannerStreams({
      callFor: (taskId) => this.callFor(taskId),
      chunk: (call, data) => {
        const a = this.active.get(call);
        if (!a) return;
        a.sink.activity();
        a.sink.stream(data);
      },
      broken: (call, message) => this.active.get(call)?.end(failure('malformed_response', message)),
      diagnostic: (message) => ctx.diagnostic('warn', message),
    });
  }

  get pendingCount(): number {
    return this.peer.pendingCount + this.active.size + this.streams.openCount;
  }

  receive(value: unknown): void {
    this.peer.receive(value);
  }

  async handshake(timeoutMs: number): Promise<Result<HandshakeInfo>> {
    const init = this.ctx.spec.init;
    if (!init) return ok({ raw: null });
    const outcome = await this.peer.request(init.method, init.params, { timeoutMs }).outcome;
    if (outcome.type === 'timeout')
      return failure('handshake_failed', `no answer to ${init.method} within ${timeoutMs} ms`);
    if (outcome.type === 'error') {
      return failure(
        'handshake_failed',
        `${init.method} failed: ${this.errorText(outcome.error)}`,
        this.errorDetails(outcome.error),
      );
    }
    if (outcome.type !== 'result') return failure('handshake_failed', `${init.method} ended: ${outcome.type}`);
    const inner = resultError(outcome.value);
    if (inner !== undefined) return failure('handshake_failed', `${init.method} returned an error: ${inner}`);
    const r = asRecord(outcome.value);
    const info: HandshakeInfo = { raw: outcome.value };
    if (typeof r?.name === 'string') info.name = r.name;
    if (Array.isArray(r?.capabilities))
      info.capabilities = r.capabilities.filter((c): c is string => typeof c === 'string');
    return ok(info);
  }

  call(req: CallRequest, sink: CallSink): Promise<CallOutcome> {
    const pending = this.peer.request(req.tool, req.args ?? {}, { cancel: req.cancel });
    return new Promise<CallOutcome>((resolve) => {
      const entry = activeCall(pending, sink, this.active, this.streams, resolve);
      pending.outcome.then((outcome) => {
        if (outcome.type === 'result') {
          this.streams.noteUnended(pending.id);
          const inner = resultError(outcome.value);
          if (inner !== undefined) return entry.end(failure('plugin_error', inner, { data: outcome.value }));
          return entry.end({ ok: true, value: { success: true, data: outcome.value, keepSession: false } });
        }
        if (outcome.type === 'error') {
          return entry.end(failure('plugin_error', this.errorText(outcome.error), this.errorDetails(outcome.error)));
        }
        if (outcome.type === 'settled') return;
        const reason = outcome.type === 'closed' ? `connection closed: ${outcome.reason}` : `call ${outcome.type}`;
        entry.end(abortedFailure(req.cancel, failure('cancelled', reason)));
      });
    });
  }

  async request(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<Result<unknown>> {
    const outcome = await this.peer.request(method, params, { timeoutMs }).outcome;
    if (outcome.type === 'result') {
      const inner = resultError(outcome.value);
      return inner === undefined ? ok(outcome.value) : failure('plugin_error', `${method}: ${inner}`);
    }
    if (outcome.type === 'error')
      return failure('plugin_error', `${method}: ${this.errorText(outcome.error)}`, this.errorDetails(outcome.error));
    if (outcome.type === 'timeout') return failure('timeout', `no answer to ${method} within ${timeoutMs} ms`);
    return failure(
      'cancelled',
      `${method}: ${outcome.type === 'closed' ? `connection closed: ${outcome.reason}` : outcome.type}`,
    );
  }

  /** Several calls in one batch array; each answer is read like a single call's. */
  async callBatch(calls: BatchCall[], cancel: CancelToken): Promise<CallOutcome[]> {
    const pending = this.peer.batch(
      calls.map((c) => ({ method: c.tool, params: c.args ?? {} })),
      { cancel },
    );
    return Promise.all(
      pending.map(async (p): Promise<CallOutcome> => {
        const outcome = await p.outcome;
        if (outcome.type === 'result') {
          const inner = resultError(outcome.value);
          if (inner !== undefined) return failure('plugin_error', inner, { data: outcome.value });
          return { ok: true, value: { success: true, data: outcome.value, keepSession: false } };
        }
        if (outcome.type === 'error')
          return failure('plugin_error', this.errorText(outcome.error), this.errorDetails(outcome.error));
        return abortedFailure(cancel, failure('cancelled', `batch entry ${outcome.type}`));
      }),
    );
  }

  async ping(timeoutMs: number): Promise<PingOutcome> {
    if (this.pingSupport === 'no') return { type: 'unsupported' };
    const outcome = await this.peer.request('ping', {}, { timeoutMs }).outcome;
    if (outcome.type === 'result' || outcome.type === 'error') {
      this.pingSupport = 'yes';
      this.unansweredPings = 0;
      return outcome.type === 'error' ? { type: 'answered', error: outcome.error.message } : { type: 'answered' };
    }
    // Real Mehrhof plugins may ignore ping entirely. A plugin still starting up misses its first
    // ping too (a plugin with no init call counts as up once its process runs), so it is taken
    // for one that ignores ping only when a second one in a row goes unanswered; the first miss
    // is an ordinary miss, and the watchdog asks again at once.
    if (this.pingSupport === 'unknown' && ++this.unansweredPings >= 2) {
      this.pingSupport = 'no';
      this.ctx.diagnostic(
        'warn',
        'the plugin does not answer ping; freeze detection while idle is off for it (crashes and call deadlines still apply)',
      );
      return { type: 'unsupported' };
    }
    return { type: 'timeout' };
  }

  override farewell(): void {
    // Mehrhof's shutdown is a request; the answer is not awaited: stop never depends on it.
    this.peer.request('shutdown', {}, { timeoutMs: 1000 });
  }

  dispose(): void {
    this.peer.close('plugin stopped');
    for (const a of [...this.active.values()]) a.end(failure('cancelled', 'plugin stopped'));
  }

  private onNotification(method: string, params: unknown): void {
    const p = asRecord(params) ?? {};
    switch (method) {
      case 'stream': {
        // Mehrhof stream events carry no request id: they belong to the one running call.
        const call = this.callFor(undefined);
        if (call === undefined) {
          this.ctx.diagnostic('warn', 'stream notification with no call running');
          return;
        }
        const a = this.active.get(call) as ActiveCall;
        a.sink.activity();
        a.sink.stream(params);
        return;
      }
      case 'stream_start':
        return this.streams.start(p);
      case 'stream_data':
        return this.streams.data(p);
      case 'stream_end':
        return this.streams.end(p);
      case 'log': {
        this.ctx.pluginLog(logLevelOf(p.level), typeof p.message === 'string' ? p.message : describeValue(params));
        return;
      }
      default:
        for (const a of this.active.values()) a.sink.activity();
        this.ctx.diagnostic('debug', `ignored notification "${method}"`);
    }
  }

  /** The running call a stream belongs to: by task id when it names one, else the only one. */
  private callFor(taskId: unknown): RpcId | undefined {
    if ((typeof taskId === 'number' || typeof taskId === 'string') && this.active.has(taskId)) return taskId;
    if (this.active.size === 1) return this.active.keys().next().value as RpcId;
    return undefined;
  }

  private onStray(id: RpcId | null, outcome: RpcOutcome, why: string): void {
    if (outcome.type === 'error') {
      this.ctx.diagnostic(
        'error',
        `plugin reported an error not tied to a running request (${why}): ${this.errorText(outcome.error)}`,
      );
    } else if (id !== null) {
      this.ctx.diagnostic('warn', `ignored a response (${why})`);
    } else {
      this.ctx.diagnostic('warn', `ignored a result with id null`);
    }
  }

  private errorText(e: RpcError): string {
    const meaning = rpcCodeMeaning(this.flavor, e.code);
    const data = asRecord(e.data);
    const type = typeof data?.type === 'string' ? `${data.type}: ` : '';
    const detail = typeof data?.details === 'string' ? ` (${data.details})` : '';
    return `${type}${e.message}${detail} [${e.code}${meaning ? ` ${meaning}` : ''}]`;
  }

  private errorDetails(e: RpcError): Failure['details'] {
    return rpcErrorDetails(this.flavor, e);
  }
}

/** A running call's entry, registered, ended once; `end` a method, not an arrow (one per call). */
function activeCall(
  pending: PendingRequest,
  sink: CallSink,
  active: Map<RpcId, ActiveCall>,
  streams: PlannerStreams,
  resolve: (outcome: CallOutcome) => void,
): ActiveCall {
  const entry: ActiveCall = {
    sink,
    end(outcome) {
      if (!active.delete(pending.id)) return;
      streams.closeFor(pending.id);
      pending.settle();
      resolve(outcome);
    },
  };
  active.set(pending.id, entry);
  return entry;
}

/** A failure carried inside `result` (`{"error": "Invalid URL"}`), as Mehrhof plugins do. */
function resultError(value: unknown): string | undefined {
  const r = asRecord(value);
  if (!r || !('error' in r) || r.error === null || r.error === undefined || r.error === false) return undefined;
  const e = r.error;
  if (typeof e === 'string') return e;
  const er = asRecord(e);
  if (er && typeof er.message === 'string')
    return typeof er.code === 'number' ? `${er.message} (${er.code})` : er.message;
  return describeValue(e);
}

export type { JsonRpcSession };

export const jsonrpcDialect: DialectFactory = {
  create: (ctx) => new JsonRpcSession(ctx),
  maxConcurrentCalls: 1,
};
