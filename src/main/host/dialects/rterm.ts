/**
 * `rterm.plugin.v1`: one process per call, one JSON object per line, typed by `type`.
 * core → `handshake`, plugin → `handshake {manifest}`, core → `request`, plugin → `response`.
 * Strict on purpose, as the protocol is: anything that is not one full JSON object is
 * `malformed_response`, and the handshake manifest is checked field by field, including the
 * plugin's capabilities against the core-owned allow-list. The failure codes follow rune-terminal's
 * own runtime (core/plugins/runtime.go and its chaos tests): a handshake line of another `type` is
 * `handshake_failed`, a handshake past its deadline `timeout`, and a response that breaks its
 * status's shape (`ok` with an `error`, `error` without a message) `malformed_response`.
 */
import type { CancelToken } from '../../../shared/cancel';
import { failure, ok, type Failure, type Result } from '../../../shared/failures';
import { SessionBase } from './session-base';
import { asRecord, describeValue } from './values';
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

export const RTERM_PROTOCOL = 'rterm.plugin.v1';

type Reply = { kind: 'message'; msg: Record<string, unknown> } | { kind: 'failure'; failure: Failure };
type Waiter = (value: Reply) => void;

/**
 * Checks the capabilities a handshake declares against the core-owned allow-list.
 * Exported for the registry and tests: the rule is the protocol's, not this session's.
 */
export function checkCapabilities(declared: unknown, allowList: readonly string[]): Failure | undefined {
  if (declared === undefined || declared === null) {
    if (allowList.length > 0) {
      return failure(
        'capability_not_declared',
        'the handshake manifest declares no capabilities, but this plugin binding grants some: the plugin must name the ones it requests',
      );
    }
    return undefined;
  }
  if (!Array.isArray(declared))
    return failure(
      'capability_not_declared',
      `manifest.capabilities must be an array of strings, got ${describeValue(declared)}`,
    );
  const seen = new Set<string>();
  for (let i = 0; i < declared.length; i++) {
    const c: unknown = declared[i];
    if (typeof c !== 'string') return failure('capability_not_declared', `manifest.capabilities[${i}] is not a string`);
    if (c.trim() === '') return failure('capability_not_declared', `manifest.capabilities[${i}] is empty`);
    if (c.trim() !== c)
      return failure(
        'capability_not_declared',
        `manifest.capabilities[${i}] ${JSON.stringify(c)} has surrounding whitespace`,
      );
    if (seen.has(c))
      return failure('capability_not_declared', `manifest.capabilities[${i}] ${JSON.stringify(c)} is a duplicate`);
    seen.add(c);
  }
  for (const c of seen) {
    if (!allowList.includes(c)) {
      const allowed = allowList.length > 0 ? allowList.join(', ') : 'none';
      return failure(
        'capability_not_allowed',
        `the plugin requests capability "${c}", which is not allowed for it (allowed: ${allowed})`,
      );
    }
  }
  return undefined;
}

class RtermSession extends SessionBase implements DialectSession {
  readonly cancelStopsWork = true;
  private waiter: Waiter | null = null;
  private exposed: string[] = [];
  private nextRequest = 1;
  private fatal: Failure | null = null;

  constructor(ctx: SessionContext) {
    super(ctx);
  }

  get pendingCount(): number {
    return this.waiter ? 1 : 0;
  }

  receive(value: unknown): void {
    const msg = asRecord(value);
    if (!msg || typeof msg.type !== 'string') {
      this.failWith(
        failure('malformed_response', `the plugin sent ${describeValue(value)}, not a typed protocol message`),
      );
      return;
    }
    const w = this.waiter;
    if (!w) {
      this.failWith(failure('malformed_response', `unexpected "${msg.type}" message: nothing was asked`));
      return;
    }
    this.waiter = null;
    w({ kind: 'message', msg });
  }

  override junk(text: string, reason: string): Failure | undefined {
    const f = failure('malformed_response', `the plugin wrote a line that is not one JSON object (${reason}): ${text}`);
    this.failWith(f);
    return f;
  }

  async handshake(timeoutMs: number): Promise<Result<HandshakeInfo>> {
    const got = await this.next({ type: 'handshake', protocol_version: RTERM_PROTOCOL }, timeoutMs, 'handshake');
    if (got.kind === 'failure') return got.failure;
    const reply = got.msg;
    if (reply.type !== 'handshake')
      return failure('handshake_failed', `expected a handshake, got a "${String(reply.type)}" message`);
    const m = asRecord(reply.manifest);
    if (!m) return failure('handshake_failed', 'the handshake has no manifest object');
    for (const field of ['plugin_id', 'plugin_version', 'protocol_version'] as const) {
      if (typeof m[field] !== 'string' || (m[field] as string) === '') {
        return failure('handshake_failed', `handshake manifest.${field} is missing or not a string`);
      }
    }
    if (
      !Array.isArray(m.exposed_tools) ||
      m.exposed_tools.length === 0 ||
      !m.exposed_tools.every((t) => typeof t === 'string')
    ) {
      return failure('handshake_failed', 'handshake manifest.exposed_tools must be a non-empty array of tool names');
    }
    if (m.protocol_version !== RTERM_PROTOCOL) {
      return failure(
        'protocol_version_mismatch',
        `the plugin speaks ${String(m.protocol_version)}; Plugboard asked for ${RTERM_PROTOCOL}`,
      );
    }
    if (m.plugin_id !== this.ctx.spec.id) {
      return failure(
        'handshake_failed',
        `the plugin says it is "${String(m.plugin_id)}", but its bundle is "${this.ctx.spec.id}"`,
      );
    }
    const capFailure = checkCapabilities(m.capabilities, this.ctx.allowedCapabilities);
    if (capFailure) return capFailure;
    this.exposed = m.exposed_tools as string[];
    const declared = this.ctx.spec.tools;
    const info: HandshakeInfo = {
      raw: reply,
      name: m.plugin_id as string,
      version: m.plugin_version as string,
      protocolVersion: m.protocol_version as string,
      tools: this.exposed.map((name) => {
        const d = declared.find((t) => t.name === name);
        return d ?? { name, description: '', parameters: { type: 'object', properties: {} } };
      }),
      capabilities: Array.isArray(m.capabilities) ? (m.capabilities as string[]) : [],
    };
    return ok(info);
  }

  async call(req: CallRequest, sink: CallSink): Promise<CallOutcome> {
    if (!this.exposed.includes(req.tool)) {
      return failure(
        'tool_not_exposed',
        `the plugin does not expose "${req.tool}" (it exposes: ${this.exposed.join(', ') || 'nothing'})`,
      );
    }
    const requestId = `req-${this.nextRequest++}`;
    const context: Record<string, unknown> = { plugin_id: this.ctx.spec.id };
    if (req.context.length > 0) context.conversation = req.context;
    const got = await this.next(
      { type: 'request', request_id: requestId, tool_name: req.tool, context, input: req.args ?? {} },
      undefined,
      'response',
      req.cancel,
    );
    if (got.kind === 'failure') return got.failure;
    const reply = got.msg;
    sink.activity();
    if (reply.type !== 'response')
      return failure('malformed_response', `expected a response, got a "${String(reply.type)}" message`);
    if (reply.request_id !== requestId) {
      return failure(
        'malformed_response',
        `the response is for request ${describeValue(reply.request_id)}, not ${requestId}`,
      );
    }
    if (reply.status === 'ok') {
      if (reply.error !== undefined && reply.error !== null) {
        return failure(
          'malformed_response',
          `a response with status "ok" must not carry an error, got ${describeValue(reply.error)}`,
        );
      }
      return { ok: true, value: { success: true, data: reply.output ?? null, keepSession: false } };
    }
    if (reply.status === 'error') {
      const e = asRecord(reply.error);
      if (typeof e?.message !== 'string' || e.message.trim() === '') {
        return failure(
          'malformed_response',
          `a response with status "error" must carry error.message, got ${describeValue(reply.error)}`,
        );
      }
      const code = typeof e?.code === 'string' || typeof e?.code === 'number' ? String(e.code) : 'error';
      const message = e.message;
      return failure('plugin_error', `${code}: ${message}`, { data: reply.error });
    }
    return failure('malformed_response', `response status must be "ok" or "error", got ${describeValue(reply.status)}`);
  }

  ping(): Promise<PingOutcome> {
    return Promise.resolve({ type: 'unsupported' });
  }

  dispose(): void {
    this.failWith(failure('cancelled', 'plugin stopped'));
  }

  /** Sends a message and waits for the next one, bounded by a deadline and/or a signal. */
  private next(message: unknown, timeoutMs: number | undefined, what: string, cancel?: CancelToken): Promise<Reply> {
    if (this.fatal) return Promise.resolve({ kind: 'failure', failure: this.fatal });
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let offCancel: (() => void) | undefined;
      const finish: Waiter = (v) => {
        if (timer) clearTimeout(timer);
        offCancel?.();
        if (this.waiter === finish) this.waiter = null;
        resolve(v);
      };
      this.waiter = finish;
      if (timeoutMs !== undefined) {
        timer = setTimeout(
          () => finish({ kind: 'failure', failure: failure('timeout', `no ${what} within ${timeoutMs} ms`) }),
          timeoutMs,
        );
      }
      if (cancel) {
        offCancel = cancel.onCancel(() =>
          finish({ kind: 'failure', failure: abortedFailure(cancel, failure('cancelled', 'call cancelled')) }),
        );
        if (cancel.isCancelled) return;
      }
      this.ctx.send(message);
    });
  }

  private failWith(f: Failure): void {
    this.fatal ??= f;
    const w = this.waiter;
    this.waiter = null;
    w?.({ kind: 'failure', failure: f });
  }
}

export const rtermDialect: DialectFactory = {
  create: (ctx) => new RtermSession(ctx),
  maxConcurrentCalls: 4,
  exitsAfterCall: true,
};
