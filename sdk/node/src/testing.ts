/**
 * A G-Assist V2 engine in miniature, for testing plugins: starts a plugin as a real child
 * process and speaks the raw protocol to it. Every wait has a deadline, and a failed wait says
 * what it waited for and shows the plugin's last stderr lines.
 *
 *   const p = PluginClient.start('node', ['plugin.mjs'], { cwd: dir });
 *   await p.initialize();
 *   const turn = await p.call('say_hello', { name: 'Ada' });
 *   await p.stop();
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { encodeFrame, FrameReader } from './framing.js';

export interface WireMessage {
  jsonrpc?: string;
  id?: number | string | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

export interface TurnResult {
  requestId: number;
  /** The data of each `stream` notification, in order. */
  streams: unknown[];
  /** The message that ended the turn: a `complete` or `error` notification, or an error response. */
  end: WireMessage;
  /** Set when the turn completed. */
  complete?: { success: boolean; data: unknown; keep_session: boolean };
  /** Set when the turn failed, by notification or by response. */
  error?: { code: number; message: string; data?: unknown; via: 'notification' | 'response' };
}

export interface StartOptions {
  cwd?: string;
  /** The child's whole environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
  /** Default deadline of every wait, in ms (default 5000). */
  timeoutMs?: number;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class PluginClient {
  readonly child: ChildProcessWithoutNullStreams;
  private readonly reader = new FrameReader();
  private readonly inbox: WireMessage[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly timeoutMs: number;
  private stderrText = '';
  private nextId = 0;
  private exit: ExitInfo | null = null;
  private readonly exitPromise: Promise<ExitInfo>;
  private broken: string | null = null;

  private constructor(child: ChildProcessWithoutNullStreams, timeoutMs: number) {
    this.child = child;
    this.timeoutMs = timeoutMs;
    child.stdout.on('data', (chunk: Buffer) => this.onStdout(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => (this.stderrText += text));
    child.stdin.on('error', () => {}); // EPIPE after the plugin exits: the exit is what tests check
    this.exitPromise = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
        this.wake();
      });
    });
  }

  /** Starts a plugin in its own process group, so `kill()` reaches its children too. */
  static start(command: string, args: string[], options: StartOptions = {}): PluginClient {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    return new PluginClient(child, options.timeoutMs ?? 5000);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** Everything the plugin wrote to stderr so far. */
  get stderr(): string {
    return this.stderrText;
  }

  get exitInfo(): ExitInfo | null {
    return this.exit;
  }

  /** Messages received and not yet taken by a wait. */
  get unread(): readonly WireMessage[] {
    return this.inbox;
  }

  send(message: unknown): void {
    this.writeRaw(encodeFrame(message));
  }

  writeRaw(bytes: Uint8Array): void {
    if (!this.child.stdin.writable) return;
    this.child.stdin.write(bytes);
  }

  request(method: string, params: Record<string, unknown> = {}): number {
    const id = ++this.nextId;
    this.send({ jsonrpc: '2.0', id, method, params });
    return id;
  }

  notify(method: string, params: Record<string, unknown> = {}): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** The first message (received or to come) that matches; it is taken from the inbox. */
  next(
    match: (m: WireMessage) => boolean = () => true,
    timeoutMs = this.timeoutMs,
    what = 'a message',
  ): Promise<WireMessage> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const at = this.inbox.findIndex(match);
        if (at !== -1) {
          done();
          resolve(this.inbox.splice(at, 1)[0] as WireMessage);
          return true;
        }
        const why = this.broken ?? (this.exit ? `the plugin exited (${describeExit(this.exit)})` : null);
        if (why) {
          done();
          reject(new Error(`${why} while waiting for ${what}${this.stderrTail()}`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${what} within ${timeoutMs} ms${this.stderrTail()}`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      const listener = (): void => void check();
      if (!check()) this.listeners.add(listener);
    });
  }

  /** The JSON-RPC response to a request. */
  response(id: number, timeoutMs = this.timeoutMs): Promise<WireMessage> {
    return this.next((m) => m.id === id && m.method === undefined, timeoutMs, `the response to request ${id}`);
  }

  /** The stream chunks and the end of one turn (call after taking an `input` acknowledgement). */
  async turn(id: number, timeoutMs = this.timeoutMs): Promise<TurnResult> {
    const deadline = Date.now() + timeoutMs;
    const streams: unknown[] = [];
    for (;;) {
      const m = await this.next(
        (x) => (x.method === undefined && x.id === id) || (x.method !== undefined && x.params?.request_id === id),
        Math.max(1, deadline - Date.now()),
        `the end of turn ${id}`,
      );
      if (m.method === 'stream') {
        streams.push(m.params?.data);
        continue;
      }
      const result: TurnResult = { requestId: id, streams, end: m };
      const p = m.params ?? {};
      if (m.method === 'complete') {
        result.complete = { success: p.success as boolean, data: p.data, keep_session: p.keep_session as boolean };
      } else if (m.method === 'error') {
        result.error = {
          code: p.code as number,
          message: p.message as string,
          via: 'notification',
          ...('data' in p ? { data: p.data } : {}),
        };
      } else if (m.error) {
        result.error = { ...m.error, via: 'response' };
      }
      return result;
    }
  }

  async initialize(): Promise<Record<string, unknown>> {
    const id = this.request('initialize', {
      protocol_version: '2.0',
      engine_version: '1.0.0',
      capabilities: ['streaming', 'passthrough'],
    });
    const m = await this.response(id);
    if (m.error) throw new Error(`initialize failed: ${m.error.message}`);
    return m.result as Record<string, unknown>;
  }

  execute(
    fn: string,
    args: Record<string, unknown> = {},
    opts: { context?: unknown[]; systemInfo?: string } = {},
  ): number {
    return this.request('execute', {
      function: fn,
      arguments: args,
      context: opts.context ?? [],
      system_info: opts.systemInfo ?? '',
    });
  }

  call(
    fn: string,
    args: Record<string, unknown> = {},
    opts: { context?: unknown[]; systemInfo?: string; timeoutMs?: number } = {},
  ): Promise<TurnResult> {
    return this.turn(this.execute(fn, args, opts), opts.timeoutMs);
  }

  /** One passthrough turn: the acknowledgement, then the turn. */
  async input(text: string, timeoutMs = this.timeoutMs): Promise<{ ack: WireMessage; turn: TurnResult }> {
    const id = this.request('input', { content: text, timestamp: Date.now() });
    const ack = await this.response(id, timeoutMs);
    return { ack, turn: await this.turn(id, timeoutMs) };
  }

  /** Waits for the plugin to exit. */
  async exited(timeoutMs = this.timeoutMs): Promise<ExitInfo> {
    if (this.exit) return this.exit;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the plugin was still running after ${timeoutMs} ms${this.stderrTail()}`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.exitPromise, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** The engine's stop: `shutdown`, close stdin, wait; SIGKILL to the group if it lingers. */
  async stop(timeoutMs = 3000): Promise<ExitInfo> {
    if (this.exit) return this.exit;
    try {
      this.notify('shutdown');
      this.child.stdin.end();
      return await this.exited(timeoutMs);
    } catch {
      this.kill();
      return this.exitPromise;
    }
  }

  /** SIGKILL to the plugin's process group (its children included). */
  kill(): void {
    const pid = this.child.pid;
    if (pid === undefined || this.exit) return;
    try {
      process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
  }

  private onStdout(chunk: Buffer): void {
    if (this.broken) return;
    try {
      for (const f of this.reader.push(chunk)) {
        if (!f.ok) {
          this.broken = `stdout carried a frame that is not JSON (${f.reason}): ${f.text}`;
          break;
        }
        this.inbox.push(f.value as WireMessage);
      }
    } catch (e) {
      this.broken = `stdout broke its framing: ${(e as Error).message}`;
    }
    this.wake();
  }

  private wake(): void {
    for (const l of [...this.listeners]) l();
  }

  private stderrTail(): string {
    const lines = this.stderrText.trimEnd().split('\n').slice(-15).join('\n');
    return lines ? `\n--- plugin stderr (last lines) ---\n${lines}` : '';
  }
}

function describeExit(e: ExitInfo): string {
  return e.signal ? `signal ${e.signal}` : `code ${e.code}`;
}
