/**
 * A G-Assist V2 plugin: commands registered by name, then `run()` serves the engine over stdio
 * until `shutdown` or the end of stdin.
 *
 * Wire behaviour (PROTOCOLS.md): `initialize` lists the commands (with `on_input` when an input
 * handler exists); `ping` is answered at once, even while commands run; `execute` is answered
 * only by `stream` / `complete` / `error` notifications carrying the request id, and an unknown
 * function by an `error` notification with code -32601 (as NVIDIA's Node SDK does); `input` is
 * acknowledged, then completed the same way; `shutdown` is a notification nobody answers.
 */
import { Connection, type StopReason } from './connection.js';
import { toChatMessages, toText, type CommandContext } from './context.js';
import { classify, ErrorCode, type RequestId } from './jsonrpc.js';
import { writeLog, type LogLevel } from './log.js';
import { runTurn } from './turn.js';

export const PROTOCOL_VERSION = '2.0';

export interface PluginInfo {
  name: string;
  version?: string;
  description?: string;
}

export interface CommandOptions {
  /** Shown to the engine in `initialize`. */
  description?: string;
}

/**
 * A command. `args` is what the engine sent, typed as the handler declares: the SDK does not
 * check it (Plugboard validates arguments against the manifest's schema before calling).
 */
export type CommandHandler<A extends object = Record<string, unknown>> = (args: A, ctx: CommandContext) => unknown;

/** Handles one passthrough turn: the user's text, as typed. */
export type InputHandler = (text: string, ctx: CommandContext) => unknown;

export interface RunOptions {
  /** Default process.stdin. */
  input?: NodeJS.ReadableStream;
  /** Default process.stdout, guarded so that stray writes go to stderr. */
  output?: NodeJS.WritableStream;
  /** Exit the process once stopped (default: true when serving process.stdout). */
  exit?: boolean;
  /** Stop cleanly on SIGTERM and SIGINT (default: true when serving process.stdout). */
  handleSignals?: boolean;
  /** How long the onShutdown hooks may take together (default 1000 ms). */
  shutdownGraceMs?: number;
}

export interface RunResult {
  reason: StopReason;
  /** 0 after shutdown, the end of stdin or a signal; non-zero after a protocol error. */
  exitCode: number;
}

interface Registered {
  handler: CommandHandler;
  description: string;
}

export class Plugin {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  private readonly commands = new Map<string, Registered>();
  private inputHandler: { handler: InputHandler; description: string } | null = null;
  private readonly hooks: Array<() => unknown> = [];
  private readonly lifetime = new AbortController();
  private connection: Connection | null = null;
  private running: Promise<RunResult> | null = null;
  private stopping = false;

  constructor(info: PluginInfo) {
    if (!info.name) throw new Error('a plugin needs a name');
    this.name = info.name;
    this.version = info.version ?? '1.0.0';
    this.description = info.description ?? '';
  }

  /** Aborted when the plugin starts shutting down. */
  get signal(): AbortSignal {
    return this.lifetime.signal;
  }

  command<A extends object = Record<string, unknown>>(
    name: string,
    handler: CommandHandler<A>,
    options: CommandOptions = {},
  ): this {
    if (!name) throw new Error('a command needs a name');
    if (this.commands.has(name) || (name === 'on_input' && this.inputHandler))
      throw new Error(`command "${name}" is registered twice`);
    this.commands.set(name, { handler: handler as unknown as CommandHandler, description: options.description ?? '' });
    return this;
  }

  /** The passthrough handler (announced to the engine as the `on_input` command). */
  onInput(handler: InputHandler, options: CommandOptions = {}): this {
    if (this.inputHandler || this.commands.has('on_input')) throw new Error('the input handler is registered twice');
    this.inputHandler = { handler, description: options.description ?? 'Handles user input in passthrough mode' };
    return this;
  }

  /** Runs when the plugin stops (shutdown, end of stdin, signal): release what you hold. */
  onShutdown(hook: () => unknown): this {
    this.hooks.push(hook);
    return this;
  }

  log(message: string, level: LogLevel = 'info'): void {
    writeLog(this.name, message, level);
  }

  /** Serves the engine; resolves when it stops. Calling it twice returns the same promise. */
  run(options: RunOptions = {}): Promise<RunResult> {
    if (this.running) return this.running;
    const output = options.output ?? process.stdout;
    const stdio = output === process.stdout;
    const exit = options.exit ?? stdio;
    const grace = options.shutdownGraceMs ?? 1000;
    this.running = new Promise<RunResult>((resolve) => {
      const onSignal = (signal: NodeJS.Signals): void => void stop('signal', 0, `received ${signal}`);
      const stop = async (reason: StopReason, exitCode: number, detail: string): Promise<void> => {
        if (this.stopping) return;
        this.stopping = true;
        if (exitCode !== 0) this.log(`stopping: ${detail}`, 'error');
        this.connection?.stopReading();
        this.lifetime.abort(new Error(`the plugin is stopping (${detail})`));
        await this.runHooks(grace);
        await this.connection?.flush(500);
        this.connection?.dispose();
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
        resolve({ reason, exitCode });
        // After the caller's continuation, so `await plugin.run(); cleanup()` still runs.
        if (exit) setImmediate(() => process.exit(exitCode));
      };
      this.stopNow = (reason, detail) => void stop(reason, 0, detail);
      this.connection = new Connection(options.input ?? process.stdin, output, {
        message: (value) => this.dispatch(value),
        invalidFrame: (text, reason) => {
          this.log(`ignored a frame that is not JSON (${reason}): ${text}`, 'error');
          this.respondError(null, ErrorCode.ParseError, `Parse error: ${reason}`);
        },
        ended: (reason, exitCode, detail) => void stop(reason, exitCode, detail),
      });
      if (options.handleSignals ?? stdio) {
        process.on('SIGTERM', onSignal);
        process.on('SIGINT', onSignal);
      }
    });
    return this.running;
  }

  private stopNow: (reason: StopReason, detail: string) => void = () => {};

  private dispatch(value: unknown): void {
    if (this.stopping) return;
    const m = classify(value);
    if (m.kind === 'invalid') return this.respondError(m.id, ErrorCode.InvalidRequest, `Invalid Request: ${m.reason}`);
    if (m.kind === 'response') return; // the engine answers nothing we ask
    if (m.method === 'shutdown') return this.stopNow('shutdown', 'shutdown requested');
    if (m.kind === 'notification') return; // unknown notifications are ignored
    const { id, method, params } = m;
    switch (method) {
      case 'initialize':
        return this.respond(id, {
          name: this.name,
          version: this.version,
          description: this.description,
          protocol_version: PROTOCOL_VERSION,
          commands: this.announcedCommands(),
        });
      case 'ping':
        return this.respond(id, { timestamp: params.timestamp ?? null });
      case 'execute':
        return this.execute(id, params);
      case 'input':
        return this.input(id, params);
      default:
        return this.respondError(id, ErrorCode.MethodNotFound, `Unknown method: ${method}`);
    }
  }

  private announcedCommands(): Array<{ name: string; description: string }> {
    const list = [...this.commands].map(([name, c]) => ({ name, description: c.description }));
    if (this.inputHandler) list.push({ name: 'on_input', description: this.inputHandler.description });
    return list;
  }

  private execute(id: RequestId, params: Record<string, unknown>): void {
    const fn = params.function;
    const args =
      typeof params.arguments === 'object' && params.arguments !== null && !Array.isArray(params.arguments)
        ? (params.arguments as Record<string, unknown>)
        : {};
    const turn = { context: toChatMessages(params.context), systemInfo: toText(params.system_info) };
    const cmd = typeof fn === 'string' ? this.commands.get(fn) : undefined;
    if (cmd) return this.turn(id, fn as string, turn, (ctx) => cmd.handler(args, ctx));
    const input = this.inputHandler;
    if (fn === 'on_input' && input)
      return this.turn(id, 'on_input', turn, (ctx) => input.handler(toText(args.content), ctx));
    // The Node SDK's way (PROTOCOLS.md): an error notification, not an error response.
    this.notify('error', { request_id: id, code: ErrorCode.MethodNotFound, message: `Unknown command: ${toText(fn)}` });
  }

  private input(id: RequestId, params: Record<string, unknown>): void {
    const text = toText(params.content);
    this.respond(id, { acknowledged: true });
    const none = { context: [], systemInfo: '' };
    const input = this.inputHandler;
    if (input) return this.turn(id, 'on_input', none, (ctx) => input.handler(text, ctx));
    const cmd = this.commands.get('on_input');
    if (cmd) return this.turn(id, 'on_input', none, (ctx) => cmd.handler({ content: text }, ctx));
    this.notify('complete', { request_id: id, success: true, data: `Received: ${text}`, keep_session: false });
  }

  private turn(
    id: RequestId,
    command: string,
    turn: { context: ReturnType<typeof toChatMessages>; systemInfo: string },
    invoke: (ctx: CommandContext) => unknown,
  ): void {
    void runTurn({
      requestId: id,
      command,
      ...turn,
      signal: this.lifetime.signal,
      notify: (method, params) => this.notify(method, params),
      log: (message, level) => this.log(message, level),
      invoke,
    });
  }

  private async runHooks(graceMs: number): Promise<void> {
    if (this.hooks.length === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    const all = Promise.allSettled(this.hooks.map(async (hook) => hook())).then((results) => {
      for (const r of results)
        if (r.status === 'rejected') this.log(`a shutdown hook failed: ${String(r.reason)}`, 'error');
    });
    await Promise.race([all, deadline]);
    clearTimeout(timer);
  }

  private respond(id: RequestId, result: unknown): void {
    this.send({ jsonrpc: '2.0', id, result });
  }

  private respondError(id: RequestId | null, code: number, message: string): void {
    this.send({ jsonrpc: '2.0', id, error: { code, message } });
  }

  /** Throws when params cannot be framed (turn.ts reports that as the turn's error). */
  private notify(method: string, params: Record<string, unknown>): void {
    this.connection?.send({ jsonrpc: '2.0', method, params });
  }

  private send(message: unknown): void {
    try {
      this.connection?.send(message);
    } catch (e) {
      this.log(`could not send a message: ${(e as Error).message}`, 'error');
    }
  }
}

export function createPlugin(info: PluginInfo): Plugin {
  return new Plugin(info);
}
