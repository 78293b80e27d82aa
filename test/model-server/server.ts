/**
 * The scripted model server: node:http on 127.0.0.1 (port 0 by default), a queue of script steps
 * taken one per model call, a record of every request, and a close that ends every connection,
 * stalled and hanging ones included. No framework: the routing is a handful of exact paths, and
 * the streaming needs the raw response anyway (frame-by-frame writes, deliberate socket cuts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDisposable } from '../../src/shared/lifecycle';
import { handleControl } from './control';
import type { RecordedRequest } from './requests';
import { sendJson } from './respond';
import { classify, route, type RouteContext } from './routes';
import type { ScriptStep } from './steps';

export interface ModelServerOptions {
  /** The models the list endpoints name. Default ['scripted-model']. */
  models?: string[];
  /** When set, requests must carry this key (Bearer for OpenAI, x-api-key for Anthropic). */
  apiKey?: string;
  /** Answer for model calls that find the queue empty. */
  fallback?: ScriptStep;
  /** Default 0: a free port. */
  port?: number;
}

/** Request bodies beyond this are refused; images in a prompt stay far below it. */
const MAX_BODY = 32 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (d: Buffer) => {
      size += d.length;
      if (size > MAX_BODY) req.destroy(new Error(`request body over ${MAX_BODY} bytes`));
      else parts.push(d);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function parseJson(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

export class ModelServer implements IDisposable, RouteContext {
  private queue: ScriptStep[] = [];
  private fallback: ScriptStep | undefined;
  private records: RecordedRequest[] = [];
  private seq = 0;
  private readonly inFlight = new Set<AbortController>();
  private readonly watchers = new Set<() => void>();
  private closing: Promise<void> | undefined;
  readonly models: readonly string[];
  readonly apiKey: string | undefined;

  private constructor(
    private readonly http: Server,
    /** `http://127.0.0.1:<port>`, no trailing slash. */
    readonly url: string,
    options: ModelServerOptions,
  ) {
    this.models = options.models ?? ['scripted-model'];
    this.apiKey = options.apiKey;
    this.fallback = options.fallback;
  }

  static async start(options: ModelServerOptions = {}): Promise<ModelServer> {
    const http = createServer();
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    });
    const { port } = http.address() as AddressInfo;
    const server = new ModelServer(http, `http://127.0.0.1:${port}`, options);
    http.on('request', (req, res) => void server.onRequest(req, res));
    return server;
  }

  /** The base URL the provider packages take (`baseURL`): the same `/v1` for every wire. */
  get baseURL(): string {
    return `${this.url}/v1`;
  }

  /** Queues steps; each model call takes the next one. */
  script(...steps: ScriptStep[]): this {
    this.queue.push(...steps);
    return this;
  }

  setFallback(step: ScriptStep | undefined): void {
    this.fallback = step;
  }

  get queued(): number {
    return this.queue.length;
  }

  clearQueue(): void {
    this.queue = [];
    this.fallback = undefined;
  }

  /** Forgets the queue, the fallback and the record. */
  reset(): void {
    this.clearQueue();
    this.records = [];
    this.changed();
  }

  takeStep(): ScriptStep | undefined {
    return this.queue.shift() ?? this.fallback;
  }

  /** Every request, control ones excepted, in arrival order. */
  get requests(): readonly RecordedRequest[] {
    return this.records;
  }

  /** Only the chat completions and messages calls. */
  get modelCalls(): RecordedRequest[] {
    return this.records.filter((r) => r.isModelCall);
  }

  /**
   * Resolves with the probe's first truthy value, re-checked whenever a request arrives or ends;
   * rejects after `timeoutMs` saying what it waited for.
   */
  waitFor<T>(probe: () => T | undefined | null | false, what: string, timeoutMs = 10_000): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.watchers.delete(check);
      };
      const check = () => {
        const v = probe();
        if (v === undefined || v === null || v === false) return;
        done();
        resolve(v);
      };
      const timer = setTimeout(() => {
        done();
        const seen = this.records.map((r) => `#${r.seq} ${r.method} ${r.path} ${r.outcome}`).join('; ') || 'none';
        reject(new Error(`model server: no ${what} within ${timeoutMs} ms (requests: ${seen})`));
      }, timeoutMs);
      this.watchers.add(check);
      check();
    });
  }

  /** Waits until `n` model calls have arrived; returns them. */
  waitForModelCalls(n: number, timeoutMs?: number): Promise<RecordedRequest[]> {
    return this.waitFor(() => this.modelCalls.length >= n && this.modelCalls, `${n} model call(s)`, timeoutMs);
  }

  /** Stops listening and ends every connection, stalled and hanging ones included. */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      this.http.close(() => resolve());
      for (const c of this.inFlight) c.abort();
      this.http.closeAllConnections();
    });
    return this.closing;
  }

  dispose(): void {
    void this.close();
  }

  private changed(): void {
    for (const w of [...this.watchers]) w();
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const closed = new AbortController();
    this.inFlight.add(closed);
    let record: RecordedRequest | undefined;
    res.on('finish', () => {
      if (record) record.answeredAt = performance.now();
    });
    res.on('close', () => {
      closed.abort();
      this.inFlight.delete(closed);
      if (record === undefined) return;
      if (record.outcome === 'pending') record.outcome = res.writableFinished ? 'answered' : 'client-closed';
      this.changed();
    });
    try {
      const raw = await readBody(req);
      const url = new URL(req.url ?? '/', this.url);
      const method = req.method ?? 'GET';
      if (url.pathname.startsWith('/__')) return handleControl(this, method, url.pathname, raw, res);
      const headers = flatHeaders(req);
      record = {
        seq: ++this.seq,
        method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers,
        body: parseJson(raw),
        rawBody: raw,
        ...classify(method, url.pathname, headers),
        outcome: 'pending',
        receivedAt: performance.now(),
        chunksSentAt: [],
      };
      this.records.push(record);
      this.changed();
      await route(this, { req, res, record, closed: closed.signal });
    } catch (e) {
      // A bug in the server or a broken request: say so if the answer has not started.
      if (!res.headersSent)
        sendJson(res, { status: 500, body: { error: `scripted model server: ${(e as Error).message}` } });
      else res.destroy();
    }
  }
}
