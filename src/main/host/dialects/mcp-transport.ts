/**
 * The transport the MCP SDK's client talks through (mcp.ts): the supervised process's stdin and
 * stdout, or a remote link, in the shape the SDK's transport contract asks for; plus what the SDK
 * cannot do for us on the wire: progress routed to its call synchronously, a cheap local cancel
 * for 2025 calls, and requests sent past the SDK as they are (the 2026 tasks extension's).
 */
import type { JsonRpcResponse } from '@modelcontextprotocol/ext-tasks/client';
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { asRecord } from './values';

/** JSON-RPC "request cancelled" (LSP's code), for the local answer to a cancelled call. */
export const REQUEST_CANCELLED = -32800;

/**
 * The SDK's transport contract over a process the supervisor owns.
 *
 * Progress notifications for our calls are taken here, synchronously, instead of going through
 * the SDK: the SDK dispatches notifications on a later microtask but responses at once, so the
 * last progress of a call that arrives in the same read as its result would be dropped as
 * "unknown token". Stream chunks must never be dropped or reordered.
 */
export class SupervisedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private closed = false;
  /** Ids of requests sent to the server that no response has answered yet. */
  private readonly waiting = new Set<string | number>();
  /** Our calls by progress token: where their progress goes, and their request id once sent. */
  readonly calls = new Map<string, { progress(params: Record<string, unknown>): void; requestId?: string | number }>();
  /** Requests sent on the wire as they are (raw), by id, waiting for their answer. */
  private readonly rawWaiting = new Map<string, (answer: JsonRpcResponse) => void>();
  private nextRaw = 1;

  constructor(private readonly write: (message: unknown, options?: TransportSendOptions) => void) {}

  /** Each request has its own stream (HTTP), whose end cancels it. */
  protected get perRequestStream(): boolean {
    return false;
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.closed) throw new Error('the plugin process is gone');
    const m = message as { id?: string | number; method?: string; params?: { _meta?: { progressToken?: unknown } } };
    if (m.id !== undefined && m.method !== undefined) this.waiting.add(m.id);
    const token = m.params?._meta?.progressToken;
    if (m.id !== undefined && typeof token === 'string') {
      const call = this.calls.get(token);
      if (call) call.requestId = m.id;
    }
    this.write(message, options);
  }

  /**
   * Cancels one of our calls the way the SDK would (notifications/cancelled to the server), and
   * settles the SDK's pending request with a local error response, which removes its handler and
   * timer. This spares every call an AbortController, which costs several µs to make in Node 20.
   */
  cancel(token: string, reason: string): void {
    const id = this.calls.get(token)?.requestId;
    if (id === undefined || this.closed) return;
    this.write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } });
    this.waiting.delete(id);
    this.onmessage?.({ jsonrpc: '2.0', id, error: { code: REQUEST_CANCELLED, message: reason } } as JSONRPCMessage);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Nothing will answer now; the SDK fails what it was waiting for, and so is every raw request.
    this.waiting.clear();
    for (const answer of this.rawWaiting.values())
      answer({ kind: 'error', error: { code: REQUEST_CANCELLED, message: 'the plugin process is gone' } });
    this.rawWaiting.clear();
    this.onclose?.();
  }

  /**
   * A request sent as it is, past the SDK (the 2026 tasks extension's, mcp-tasks-2026.ts): its
   * answer is taken here before the SDK could see it. An abort or the deadline answers it locally.
   */
  raw(request: unknown, signal?: AbortSignal, timeoutMs?: number): Promise<JsonRpcResponse> {
    const id = `plugboard-raw-${this.nextRaw++}`;
    return new Promise((resolve) => {
      if (this.closed)
        return resolve({ kind: 'error', error: { code: REQUEST_CANCELLED, message: 'the plugin process is gone' } });
      let timer: NodeJS.Timeout | undefined;
      const done = (answer: JsonRpcResponse): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', aborted);
        this.rawWaiting.delete(id);
        resolve(answer);
      };
      const aborted = (): void => {
        // Over HTTP the aborted stream tells the server; on stdio the server is told in words,
        // with the 2026 envelope its request carried.
        if (!this.perRequestStream && !this.closed) {
          const meta = asRecord(asRecord(asRecord(request)?.params)?._meta) ?? {};
          const envelope = Object.fromEntries(
            Object.entries(meta).filter(([k]) => k.startsWith('io.modelcontextprotocol/')),
          );
          this.write({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason: 'cancelled', _meta: envelope },
          });
        }
        done({ kind: 'error', error: { code: REQUEST_CANCELLED, message: 'cancelled' } });
      };
      if (timeoutMs)
        timer = setTimeout(
          () => done({ kind: 'error', error: { code: -32001, message: `no answer within ${timeoutMs} ms` } }),
          timeoutMs,
        );
      signal?.addEventListener('abort', aborted, { once: true });
      this.rawWaiting.set(id, done);
      this.write({ ...(request as object), jsonrpc: '2.0', id }, signal ? { requestSignal: signal } : undefined);
    });
  }

  get unanswered(): number {
    return this.waiting.size;
  }

  deliver(value: unknown): void {
    const msg = asRecord(value);
    const id = msg?.id;
    if ((typeof id === 'string' || typeof id === 'number') && msg?.method === undefined) {
      const raw = typeof id === 'string' ? this.rawWaiting.get(id) : undefined;
      if (raw && msg)
        return raw(
          msg.error !== undefined
            ? { kind: 'error', error: msg.error as { code: number; message: string } }
            : { kind: 'result', result: msg.result as never },
        );
      this.waiting.delete(id);
    }
    if (msg?.method === 'notifications/progress') {
      const params = asRecord(msg.params);
      const call = typeof params?.progressToken === 'string' ? this.calls.get(params.progressToken) : undefined;
      if (call && params) return call.progress(params);
    }
    // The SDK sorts requests, responses and notifications itself and reports anything else via onerror.
    this.onmessage?.(value as JSONRPCMessage);
  }
}

/**
 * A local server's transport, shaped like the SDK's stdio transport (a `stderr` and a `pid`) so
 * the SDK takes a server that stays silent on `server/discover` for a 2025 server.
 */
export class StdioShapedTransport extends SupervisedTransport {
  readonly stderr = null;
  readonly pid = null;
}

/**
 * A remote server's transport: each request has its own HTTP stream (the link's), which the SDK
 * aborts to cancel a call in the 2026 era.
 */
export class RemoteShapedTransport extends SupervisedTransport {
  readonly hasPerRequestStream = true;
  protected override get perRequestStream(): boolean {
    return true;
  }
}
