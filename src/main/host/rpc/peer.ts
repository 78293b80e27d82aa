/**
 * A small JSON-RPC 2.0 peer over any message transport.
 *
 * Why not vscode-jsonrpc: the plugins Plugboard runs break its assumptions. G-Assist completes an
 * `execute` request with notifications and never sends the response, so a library request would
 * stay pending until cancelled, and cancelling sends `$/cancelRequest`, which no G-Assist plugin
 * understands. Batch arrays (planner/executor) are not supported there at all, and an error with
 * `id: null` is dropped. The part we need is small: id correlation with exact id equality, a
 * pending entry that every exit path removes (answer, settle, deadline, abort, close), batches
 * both ways, and strays surfaced instead of swallowed.
 */

import type { CancelToken } from '../../../shared/cancel';

export type RpcId = number | string;

export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export type RpcOutcome =
  | { type: 'result'; value: unknown }
  | { type: 'error'; error: RpcError }
  | { type: 'timeout' }
  | { type: 'aborted' }
  | { type: 'settled' }
  | { type: 'closed'; reason: string };

export interface PendingRequest {
  readonly id: RpcId;
  readonly outcome: Promise<RpcOutcome>;
  /** Stop waiting for the response (it came another way, G-Assist style). Removes the entry. */
  settle(): void;
}

export interface RequestOptions {
  timeoutMs?: number;
  cancel?: CancelToken;
}

export interface BatchEntry {
  method: string;
  params?: unknown;
  /** Send as a notification: no id, no answer expected. */
  notification?: boolean;
}

export type RequestReply = { result: unknown } | { error: RpcError };

export interface RpcHandlers {
  notification(method: string, params: unknown): void;
  /** A request from the plugin. Answer synchronously; the default answer is -32601. */
  request?(method: string, params: unknown, id: RpcId): RequestReply | undefined;
  /** A response that matches no pending request: wrong, duplicate or late id, or `id: null`. */
  stray(id: RpcId | null, outcome: RpcOutcome, why: string): void;
  /** A JSON value that is not a JSON-RPC message. */
  invalid(value: unknown, why: string): void;
}

interface Entry {
  resolve(outcome: RpcOutcome): void;
  timer: ReturnType<typeof setTimeout> | undefined;
  offCancel: (() => void) | undefined;
}

export class RpcPeer {
  private nextId = 1;
  private readonly pending = new Map<RpcId, Entry>();
  private closedReason: string | null = null;
  /** Ends a request's entry without an answer (PendingRequest.settle); one function for all. */
  private readonly settler = (id: RpcId): void => void this.finish(id, { type: 'settled' });

  constructor(
    private readonly write: (message: unknown) => void,
    private readonly handlers: RpcHandlers,
  ) {}

  /** Requests waiting for an answer. Zero when idle: tests hold the peer to that. */
  get pendingCount(): number {
    return this.pending.size;
  }

  request(method: string, params: unknown, options: RequestOptions = {}): PendingRequest {
    const id = this.nextId++;
    const outcome = this.track(id, options);
    if (this.closedReason === null) this.write({ jsonrpc: '2.0', id, method, params });
    return pendingRequest(id, outcome, this.settler);
  }

  notify(method: string, params: unknown): void {
    if (this.closedReason !== null) return;
    this.write({ jsonrpc: '2.0', method, params });
  }

  /** Sends one batch array. Returns a pending request for each entry that is not a notification. */
  batch(entries: BatchEntry[], options: RequestOptions = {}): PendingRequest[] {
    const wire: unknown[] = [];
    const out: PendingRequest[] = [];
    for (const e of entries) {
      if (e.notification) {
        wire.push({ jsonrpc: '2.0', method: e.method, params: e.params });
        continue;
      }
      const id = this.nextId++;
      const outcome = this.track(id, options);
      out.push(pendingRequest(id, outcome, this.settler));
      wire.push({ jsonrpc: '2.0', id, method: e.method, params: e.params });
    }
    if (this.closedReason === null && wire.length > 0) this.write(wire);
    return out;
  }

  /** Feed one decoded JSON value (a message or a batch array). */
  receive(value: unknown): void {
    if (Array.isArray(value)) {
      if (value.length === 0) {
        this.handlers.invalid(value, 'empty batch array');
        return;
      }
      const replies: unknown[] = [];
      for (const item of value) {
        const reply = this.receiveOne(item);
        if (reply !== undefined) replies.push(reply);
      }
      if (replies.length > 0 && this.closedReason === null) this.write(replies);
      return;
    }
    const reply = this.receiveOne(value);
    if (reply !== undefined && this.closedReason === null) this.write(reply);
  }

  /** Ends every pending request with `closed` and refuses new ones. Idempotent. */
  close(reason: string): void {
    if (this.closedReason !== null) return;
    this.closedReason = reason;
    for (const id of [...this.pending.keys()]) this.finish(id, { type: 'closed', reason });
  }

  private track(id: RpcId, options: RequestOptions): Promise<RpcOutcome> {
    return new Promise<RpcOutcome>((resolve) => {
      if (this.closedReason !== null) {
        resolve({ type: 'closed', reason: this.closedReason });
        return;
      }
      if (options.cancel?.isCancelled) {
        resolve({ type: 'aborted' });
        return;
      }
      const entry: Entry = { resolve, timer: undefined, offCancel: undefined };
      if (options.timeoutMs !== undefined) {
        entry.timer = setTimeout(() => this.finish(id, { type: 'timeout' }), options.timeoutMs);
      }
      this.pending.set(id, entry);
      if (options.cancel) entry.offCancel = options.cancel.onCancel(() => this.finish(id, { type: 'aborted' }));
    });
  }

  private finish(id: RpcId, outcome: RpcOutcome): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.delete(id);
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.offCancel?.();
    entry.resolve(outcome);
    return true;
  }

  private receiveOne(value: unknown): unknown {
    if (typeof value !== 'object' || value === null) {
      this.handlers.invalid(value, 'not a JSON object');
      return undefined;
    }
    const msg = value as Record<string, unknown>;
    const id = msg.id;
    if (typeof msg.method === 'string') {
      if (id === undefined || id === null) {
        this.handlers.notification(msg.method, msg.params);
        return undefined;
      }
      if (typeof id !== 'string' && typeof id !== 'number') {
        this.handlers.invalid(value, `request id must be a string or a number, got ${typeof id}`);
        return undefined;
      }
      const reply = this.handlers.request?.(msg.method, msg.params, id) ?? {
        error: { code: -32601, message: `Method not found: ${msg.method}` },
      };
      return { jsonrpc: '2.0', id, ...reply };
    }
    const hasResult = 'result' in msg;
    const hasError = 'error' in msg;
    if (!hasResult && !hasError) {
      this.handlers.invalid(value, 'neither a request, a notification nor a response');
      return undefined;
    }
    const outcome: RpcOutcome = hasError
      ? { type: 'error', error: readError(msg.error) }
      : { type: 'result', value: msg.result };
    if (id === null || id === undefined) {
      this.handlers.stray(null, outcome, 'response with id null');
      return undefined;
    }
    if (typeof id !== 'string' && typeof id !== 'number') {
      this.handlers.stray(null, outcome, `response id of type ${typeof id}`);
      return undefined;
    }
    if (!this.finish(id, outcome)) {
      this.handlers.stray(id, outcome, `no request is waiting for id ${JSON.stringify(id)}`);
    }
    return undefined;
  }
}

/** A request's handle; `settle` is a method, not an arrow property: one is made per request. */
function pendingRequest(id: RpcId, outcome: Promise<RpcOutcome>, settler: (id: RpcId) => void): PendingRequest {
  return {
    id,
    outcome,
    settle() {
      settler(id);
    },
  };
}

function readError(raw: unknown): RpcError {
  if (typeof raw === 'object' && raw !== null) {
    const e = raw as Record<string, unknown>;
    const code = typeof e.code === 'number' ? e.code : 0;
    const message = typeof e.message === 'string' ? e.message : JSON.stringify(raw);
    return 'data' in e ? { code, message, data: e.data } : { code, message };
  }
  return { code: 0, message: typeof raw === 'string' ? raw : JSON.stringify(raw) };
}
