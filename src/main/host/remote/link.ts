/**
 * A remote MCP server reached over Streamable HTTP, in the place a plugin process has for a local
 * one: the supervisor sends it messages, hears what it says, and learns when it is lost. The HTTP
 * side (POSTs, the SSE streams of answers and of server-sent messages, the session id, resumption)
 * is the official SDK's client transport; what is Plugboard's is how failures are classified:
 *   - the server answered a request with an HTTP error (a 500, a 401): that request fails with
 *     the status, as a JSON-RPC error, and the server stays up;
 *   - the server could not be reached (refused, reset, DNS): the link is lost, which the
 *     supervisor treats as a crash (restarts with its usual back-off, health shows it);
 *   - the server wants a sign-in (a 401 the stored OAuth tokens could not answer, oauth.ts): that
 *     request fails as "sign-in required", naming how to sign in, and the server stays up.
 * Both protocol eras pass through unchanged: the 2026-07-28 era's per-request headers come from
 * each message's `_meta` envelope, and its cancellation aborts the request's own stream (the
 * send options the dialect's SDK client passes along).
 */
import {
  SdkHttpError,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type JSONRPCMessage,
  type TransportSendOptions,
} from '@modelcontextprotocol/client';
import { failure, type Failure } from '../../../shared/failures';
import { Emitter, type IDisposable } from '../../../shared/lifecycle';
import type { ExitInfo, StopOptions, StopResult } from '../process/child';
import { LineRing } from '../process/ring';
import { PlugboardOAuthProvider, type TokenVault } from './oauth';

/** How a remote server's OAuth sign-in is kept (the plugin service's secret store) and who Plugboard is to it. */
export interface RemoteOAuth {
  vault: TokenVault;
  /** Plugboard's Client ID Metadata Document, where one is published. */
  clientMetadataUrl?: string;
}

/** A JSON-RPC error code for "the HTTP request carrying this one failed" (implementation-defined range). */
const HTTP_REQUEST_FAILED = -32001;
/** Marks the error data of a request the server refused for want of a sign-in (signInFailure reads it). */
const SIGN_IN_REQUIRED = 'plugboard/sign-in-required';

/**
 * A request the server refused for want of a sign-in (marked by the link below, whoever carried
 * the error on: the SDK's client or the tasks extension's package), as the failure that says how to
 * sign in; undefined for any other error.
 */
export function signInFailure(e: unknown): Failure | undefined {
  const data = (e as { data?: unknown } | null)?.data;
  if (typeof data !== 'object' || data === null || (data as Record<string, unknown>)[SIGN_IN_REQUIRED] !== true)
    return undefined;
  return failure('sign_in_required', e instanceof Error ? e.message : String(e));
}
/** How long a goodbye (the DELETE that ends the session) may take before the link is closed anyway. */
const DELETE_MS = 2000;

export interface RemoteOptions {
  url: string;
  headers: Record<string, string>;
  /** The plugin's id, for the sign-in command a refusal names. */
  pluginId?: string;
  /** OAuth for this server (oauth.ts); absent when its headers carry the credentials. */
  oauth?: RemoteOAuth;
  /** Each message the server sends, parsed JSON (still `unknown` to the dialect). */
  message(value: unknown): void;
}

function statusOf(e: unknown): number | undefined {
  return e instanceof SdkHttpError ? (e.data as { status?: number } | undefined)?.status : undefined;
}

export class RemoteLink implements IDisposable {
  /** Transport diagnostics, as a process's stderr is kept: the tail goes into failure messages. */
  readonly stderr = new LineRing(200);
  private readonly _onDidReceive = new Emitter<void>();
  private readonly _onDidStderr = new Emitter<string>();
  private readonly _onDidFramingError = new Emitter<string>();
  private readonly _onDidExit = new Emitter<ExitInfo>();
  readonly onDidReceive = this._onDidReceive.event;
  readonly onDidStderr = this._onDidStderr.event;
  /** Never fires: HTTP has no framing of ours to break. Kept so the link stands where a process does. */
  readonly onDidFramingError = this._onDidFramingError.event;
  readonly onDidExit = this._onDidExit.event;
  readonly pid = null;
  private readonly transport: StreamableHTTPClientTransport;
  private closed = false;
  private lostReason: string | null = null;
  /** The id of our `initialize`, to take the protocol version from its answer. */
  private initializeId: string | number | undefined;

  /** The server's OAuth, outside any sign-in: stored tokens used and refreshed, nothing more. */
  private readonly oauth: PlugboardOAuthProvider | undefined;

  private constructor(private readonly opts: RemoteOptions) {
    this.oauth = opts.oauth
      ? new PlugboardOAuthProvider(opts.oauth.vault, {
          mode: 'background',
          serverUrl: opts.url,
          ...(opts.oauth.clientMetadataUrl ? { clientMetadataUrl: opts.oauth.clientMetadataUrl } : {}),
        })
      : undefined;
    this.transport = new StreamableHTTPClientTransport(new URL(opts.url), {
      requestInit: { headers: opts.headers },
      ...(this.oauth ? { authProvider: this.oauth } : {}),
    });
    this.transport.onmessage = (m) => this.received(m);
    // A send's error is also thrown to failed(), which says it better for a sign-in.
    this.transport.onerror = (e) => {
      if (!this.isAboutSignIn(e)) this.note(`${e.message}`);
    };
    this.transport.onclose = () => this.lose('the connection was closed');
  }

  /** A link ready to send. Nothing is sent yet: the handshake's `initialize` is the first request. */
  static async open(opts: RemoteOptions): Promise<RemoteLink | Failure> {
    let url: URL;
    try {
      url = new URL(opts.url);
    } catch {
      return failure('launch_failed', `"${opts.url}" is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return failure('launch_failed', `${opts.url}: a remote MCP server is reached over http:// or https://`);
    const link = new RemoteLink(opts);
    await link.transport.start();
    return link;
  }

  /** Why the link ended, for the failure the supervisor reports. */
  describeExit(): string {
    return this.lostReason
      ? `${this.opts.url} could not be reached: ${this.lostReason}`
      : `the connection to ${this.opts.url} ended`;
  }

  send(message: unknown, options?: TransportSendOptions): void {
    if (this.closed) return;
    const m = message as { id?: string | number; method?: string; result?: { protocolVersion?: unknown } };
    if (m.method === 'initialize') this.initializeId = m.id;
    this.transport.send(message as JSONRPCMessage, options).catch((e: unknown) => this.failed(m, e, options));
  }

  private received(m: JSONRPCMessage): void {
    const r = m as { id?: string | number; result?: { protocolVersion?: unknown } };
    // Later requests carry the negotiated version in their headers, as the protocol asks.
    if (r.id !== undefined && r.id === this.initializeId && typeof r.result?.protocolVersion === 'string')
      this.transport.setProtocolVersion(r.result.protocolVersion);
    this._onDidReceive.fire();
    this.opts.message(m);
  }

  /** A message that could not be delivered: its request fails, or the whole link is lost. */
  private failed(m: { id?: string | number; method?: string }, e: unknown, options?: TransportSendOptions): void {
    if (this.closed || options?.requestSignal?.aborted) return;
    const status = statusOf(e);
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    if (this.isAboutSignIn(e)) {
      const text = this.signInText(status);
      this.note(text);
      if (m.id !== undefined && m.method !== undefined)
        this.opts.message({
          jsonrpc: '2.0',
          id: m.id,
          error: {
            code: HTTP_REQUEST_FAILED,
            message: text,
            data: { [SIGN_IN_REQUIRED]: true, status: status ?? 401 },
          },
        });
      return;
    }
    let text = this.hide(e instanceof Error ? e.message : String(e));
    if (e instanceof SdkHttpError || status !== undefined || /HTTP \d{3}|Unauthorized/i.test(text)) {
      if (status === 401 || status === 403)
        text = `HTTP ${status}: the server refused the credentials; check the token or headers in the plugin's settings (${text})`;
      else if (status !== undefined) text = `HTTP ${status}: ${text}`;
      this.note(text);
      // The server is there and said no: only this request fails.
      if (m.id !== undefined && m.method !== undefined)
        this.opts.message({ jsonrpc: '2.0', id: m.id, error: { code: HTTP_REQUEST_FAILED, message: text } });
      return;
    }
    this.lose(cause?.code ? `${text} (${cause.code})` : text);
  }

  /**
   * Whether an error means the server wants a sign-in: its 401 (or 403), or the SDK, led by one
   * into a sign-in it may not start here (no token to refresh, no registration), throwing
   * whatever it threw then, unless the network itself failed. Only where OAuth is in use.
   */
  private isAboutSignIn(e: unknown): boolean {
    if (!this.oauth) return false;
    const status = statusOf(e);
    const network = (e as { cause?: { code?: string } }).cause?.code !== undefined;
    return e instanceof UnauthorizedError || status === 401 || status === 403 || (this.oauth.signInNeeded && !network);
  }

  /** What a refusal for want of a sign-in says: who refused, and how to sign in. */
  private signInText(status: number | undefined): string {
    const how = this.opts.pluginId
      ? `run \`plugboard plugins signin ${this.opts.pluginId}\`, or use its Sign in button in the app`
      : 'sign in to it first';
    const had = (this.oauth?.secretStrings().length ?? 0) > 0;
    return `${new URL(this.opts.url).host} ${had ? `refused the sign-in it was given${status === 403 ? ' (it needs more access)' : ''}, and it could not be renewed` : 'needs you to sign in first'}: ${how}`;
  }

  /** Text about this server with the tokens of its sign-in hidden. */
  private hide(text: string): string {
    let out = text;
    for (const s of this.oauth?.secretStrings() ?? []) out = out.split(s).join('[token]');
    return out;
  }

  private note(line: string): void {
    for (const l of this.stderr.write(`${this.hide(line)}\n`)) this._onDidStderr.fire(l);
  }

  private lose(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.lostReason = reason;
    this.note(reason);
    void this.transport.close().catch(() => undefined);
    this._onDidExit.fire({ code: null, signal: null, expected: false });
  }

  /** Ends the session (DELETE, as the protocol asks of a client that is done) and closes. */
  async stop(options: StopOptions): Promise<StopResult> {
    const t0 = performance.now();
    const already = this.closed;
    if (!already) {
      this.closed = true;
      options.farewell?.();
      const bye = this.transport.terminateSession().catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        bye,
        new Promise<void>((r) => (timer = setTimeout(r, Math.min(DELETE_MS, options.graceMs + options.termGraceMs)))),
      ]);
      clearTimeout(timer);
      await this.transport.close().catch(() => undefined);
    }
    return {
      exit: { code: 0, signal: null, expected: true },
      stage: already ? 'already-exited' : 'graceful',
      orphans: false,
      ms: performance.now() - t0,
    };
  }

  kill(): void {
    if (this.closed) return;
    this.closed = true;
    void this.transport.close().catch(() => undefined);
  }

  dispose(): void {
    this.kill();
    this._onDidReceive.dispose();
    this._onDidStderr.dispose();
    this._onDidFramingError.dispose();
    this._onDidExit.dispose();
  }
}
