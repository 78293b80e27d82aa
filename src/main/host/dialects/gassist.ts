/**
 * NVIDIA G-Assist Plugin Protocol V2, as the real SDKs speak it (see PROTOCOLS.md):
 * length-prefixed JSON-RPC; `execute` completed by `stream`/`complete`/`error` notifications that
 * carry the request id, never by a response; the unknown-function error as a -32601 response
 * (Python SDK) or as an `error` notification (Node and C++ SDKs); `input` acknowledged, then
 * streamed and completed the same way; `shutdown` a notification nobody answers.
 */
import type { CancelToken } from '../../../shared/cancel';
import { failure, ok, type Failure, type Result } from '../../../shared/failures';
import type { ToolSpec } from '../../../shared/plugin';
import { rpcErrorDetails } from '../rpc/codes';
import { RpcPeer, type PendingRequest, type RpcId, type RpcOutcome } from '../rpc/peer';
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

export const GASSIST_PROTOCOL_VERSION = '2.0';
export const ENGINE_VERSION = '1.0.0';

interface Turn {
  sink: CallSink;
  resolve(outcome: CallOutcome): void;
}

class GAssistSession extends SessionBase implements DialectSession {
  readonly cancelStopsWork = false;
  private readonly peer: RpcPeer;
  /** Turns (execute or input) waiting for their completion notification, by request id. */
  private readonly turns = new Map<RpcId, Turn>();
  /** The commands the plugin announced in its initialize answer. */
  private announced: string[] = [];

  constructor(ctx: SessionContext) {
    super(ctx);
    this.peer = new RpcPeer((m) => ctx.send(m), {
      notification: (method, params) => this.onNotification(method, params),
      stray: (id, outcome, why) => this.onStray(id, outcome, why),
      invalid: (_v, why) => ctx.diagnostic('warn', `ignored a message that is not JSON-RPC: ${why}`),
    });
  }

  get pendingCount(): number {
    return this.peer.pendingCount + this.turns.size;
  }

  receive(value: unknown): void {
    this.peer.receive(value);
  }

  async handshake(timeoutMs: number): Promise<Result<HandshakeInfo>> {
    const req = this.peer.request(
      'initialize',
      {
        protocol_version: GASSIST_PROTOCOL_VERSION,
        engine_version: ENGINE_VERSION,
        capabilities: ['streaming', 'passthrough'],
      },
      { timeoutMs },
    );
    const outcome = await req.outcome;
    if (outcome.type === 'timeout')
      return failure('handshake_failed', `no answer to initialize within ${timeoutMs} ms`);
    if (outcome.type === 'error') {
      return failure('handshake_failed', `initialize failed: ${outcome.error.message} (${outcome.error.code})`);
    }
    if (outcome.type !== 'result') return failure('handshake_failed', `initialize ended: ${outcome.type}`);
    const result = asRecord(outcome.value);
    if (!result)
      return failure('handshake_failed', `initialize returned ${describeValue(outcome.value)}, expected an object`);
    const pv = typeof result.protocol_version === 'string' ? result.protocol_version : undefined;
    if (pv !== undefined && pv.split('.')[0] !== GASSIST_PROTOCOL_VERSION.split('.')[0]) {
      return failure(
        'protocol_version_mismatch',
        `the plugin speaks protocol ${pv}; Plugboard speaks ${GASSIST_PROTOCOL_VERSION}`,
      );
    }
    const tools: ToolSpec[] = [];
    if (Array.isArray(result.commands)) {
      for (const c of result.commands) {
        const cmd = asRecord(c);
        const name = typeof c === 'string' ? c : typeof cmd?.name === 'string' ? cmd.name : undefined;
        // on_input is the passthrough handler, not a tool.
        if (!name || name === 'on_input') continue;
        tools.push({
          name,
          description: typeof cmd?.description === 'string' ? cmd.description : '',
          parameters: { type: 'object', properties: {} },
        });
      }
    }
    this.announced = tools.map((t) => t.name);
    const info: HandshakeInfo = { raw: outcome.value, tools };
    if (typeof result.name === 'string') info.name = result.name;
    if (typeof result.version === 'string') info.version = result.version;
    if (pv !== undefined) info.protocolVersion = pv;
    return ok(info);
  }

  call(req: CallRequest, sink: CallSink): Promise<CallOutcome> {
    // A function neither the manifest declares nor the plugin announced is never sent: the SDKs
    // would run whatever name they are given, and the person never saw it to switch it off.
    const unknown = this.unknownFunction(req.tool);
    if (unknown) return Promise.resolve(unknown);
    // Never null for context or arguments: the Python SDK fails on null.
    const pending = this.peer.request(
      'execute',
      { function: req.tool, arguments: req.args ?? {}, context: req.context ?? [], system_info: req.systemInfo ?? '' },
      { cancel: req.cancel },
    );
    return this.runTurn(pending, sink, req.cancel, (outcome) => {
      if (outcome.type === 'result') return completionFromResult(outcome.value);
      return undefined;
    });
  }

  private unknownFunction(name: string): Failure | null {
    const { spec } = this.ctx;
    if (this.announced.includes(name) || spec.tools.some((t) => t.name === name)) return null;
    if (spec.userCommands.some((c) => c.name === name)) return null;
    return failure(
      'unknown_tool',
      `${spec.id} has no function "${name}": its manifest declares ${spec.tools.map((t) => t.name).join(', ') || 'none'}${this.announced.length > 0 ? ` and it announced ${this.announced.join(', ')}` : ''}`,
    );
  }

  async input(text: string, sink: CallSink, cancel: CancelToken, ackMs: number): Promise<CallOutcome> {
    const pending = this.peer.request('input', { content: text, timestamp: Date.now() }, { cancel });
    let acked = false;
    const ackTimer = setTimeout(() => {
      if (!acked)
        this.finishTurn(pending.id, failure('timeout', `the plugin did not acknowledge input within ${ackMs} ms`));
    }, ackMs);
    try {
      return await this.runTurn(pending, sink, cancel, (outcome) => {
        if (outcome.type !== 'result') return undefined;
        acked = true;
        clearTimeout(ackTimer);
        const r = asRecord(outcome.value);
        if (r && r.acknowledged === true) return null; // keep waiting for the completion notification
        // A plugin that answers input with a full result instead of an ack: take it as the completion.
        return completionFromResult(outcome.value);
      });
    } finally {
      clearTimeout(ackTimer);
    }
  }

  /**
   * Waits for a turn to end: by a completion notification, by the JSON-RPC response (the
   * unknown-function error, or a plugin that answers directly), or by abort. `onResponse` maps
   * a response to an outcome, or returns null to keep waiting after an ack.
   */
  private runTurn(
    pending: PendingRequest,
    sink: CallSink,
    cancel: CancelToken,
    onResponse: (outcome: RpcOutcome) => CallOutcome | null | undefined,
  ): Promise<CallOutcome> {
    return new Promise<CallOutcome>((resolve) => {
      const id = pending.id;
      // A method, not an arrow property: one turn is made per call.
      this.turns.set(id, {
        sink,
        resolve(outcome) {
          pending.settle();
          resolve(outcome);
        },
      });
      pending.outcome.then((outcome) => {
        if (!this.turns.has(id)) return;
        if (outcome.type === 'settled') return;
        if (outcome.type === 'error') {
          return this.finishTurn(id, this.errorFailure(outcome.error.code, outcome.error.message, outcome.error.data));
        }
        if (outcome.type === 'aborted' || outcome.type === 'closed' || outcome.type === 'timeout') {
          const reason = outcome.type === 'closed' ? `connection closed: ${outcome.reason}` : `call ${outcome.type}`;
          return this.finishTurn(id, abortedFailure(cancel, failure('cancelled', reason)));
        }
        const mapped = onResponse(outcome);
        if (mapped === null) return; // acknowledged; the completion comes by notification
        if (mapped) return this.finishTurn(id, mapped);
      });
    });
  }

  private finishTurn(id: RpcId, outcome: CallOutcome): void {
    const turn = this.turns.get(id);
    if (!turn) return;
    this.turns.delete(id);
    turn.resolve(outcome);
  }

  async ping(timeoutMs: number): Promise<PingOutcome> {
    const outcome = await this.peer.request('ping', { timestamp: Date.now() }, { timeoutMs }).outcome;
    if (outcome.type === 'result') return { type: 'answered' };
    if (outcome.type === 'error') return { type: 'answered', error: outcome.error.message };
    return { type: 'timeout' };
  }

  override farewell(): void {
    this.peer.notify('shutdown', {});
  }

  dispose(): void {
    this.peer.close('plugin stopped');
    for (const id of [...this.turns.keys()]) this.finishTurn(id, failure('cancelled', 'plugin stopped'));
  }

  private onNotification(method: string, params: unknown): void {
    const p = asRecord(params) ?? {};
    if (method === 'log') {
      this.ctx.pluginLog(logLevelOf(p.level), typeof p.message === 'string' ? p.message : describeValue(p.message));
      return;
    }
    if (method !== 'stream' && method !== 'complete' && method !== 'error') {
      this.ctx.diagnostic('debug', `ignored notification "${method}"`);
      return;
    }
    const id = this.turnFor(p.request_id, method);
    if (id === undefined) return;
    const turn = this.turns.get(id) as Turn;
    turn.sink.activity();
    if (method === 'stream') {
      turn.sink.stream(p.data);
    } else if (method === 'complete') {
      this.finishTurn(id, {
        ok: true,
        value: { success: p.success !== false, data: p.data ?? null, keepSession: p.keep_session === true },
      });
    } else {
      const code = typeof p.code === 'number' ? p.code : -1;
      const message = typeof p.message === 'string' ? p.message : describeValue(p.message ?? p);
      this.finishTurn(id, this.errorFailure(code, message, p.data));
    }
  }

  /** The turn a notification belongs to; the only open turn when the id is missing. */
  private turnFor(raw: unknown, method: string): RpcId | undefined {
    if (typeof raw === 'number' || typeof raw === 'string') {
      if (this.turns.has(raw)) return raw;
      // Some plugins echo the id as a string; match it only when that is unambiguous.
      const asNumber = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : undefined;
      if (asNumber !== undefined && this.turns.has(asNumber)) return asNumber;
      this.ctx.diagnostic(
        'warn',
        `"${method}" for request ${JSON.stringify(raw)}, which is not running (late or wrong id)`,
      );
      return undefined;
    }
    if (this.turns.size === 1) return this.turns.keys().next().value as RpcId;
    this.ctx.diagnostic('warn', `"${method}" notification without a request_id ignored`);
    return undefined;
  }

  private onStray(id: RpcId | null, outcome: RpcOutcome, why: string): void {
    if (outcome.type === 'error') {
      this.ctx.diagnostic(
        'error',
        `plugin reported an error not tied to a running request (${why}): ${outcome.error.message} (${outcome.error.code})`,
      );
    } else {
      this.ctx.diagnostic('warn', `ignored a response (${why})${id === null ? '' : ''}`);
    }
  }

  private errorFailure(code: number, message: string, data: unknown): Failure {
    const text = code === -32601 ? `the plugin has no such function: ${message}` : message;
    return failure('plugin_error', text, rpcErrorDetails('gassist', { code, message, data }));
  }
}

function completionFromResult(value: unknown): CallOutcome {
  const r = asRecord(value);
  if (!r) return { ok: true, value: { success: true, data: value, keepSession: false } };
  return {
    ok: true,
    value: { success: r.success !== false, data: 'data' in r ? r.data : value, keepSession: r.keep_session === true },
  };
}

export const gassistDialect: DialectFactory = {
  create: (ctx) => new GAssistSession(ctx),
  maxConcurrentCalls: 1,
};
