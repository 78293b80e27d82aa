/**
 * One turn (an `execute` or a passthrough `input`): the handler runs with its context, its
 * stream chunks go out as they come, then exactly one `complete` or `error` notification.
 */
import type { ChatMessage, CommandContext } from './context.js';
import { PluginError } from './errors.js';
import { ErrorCode, type RequestId } from './jsonrpc.js';
import type { LogLevel } from './log.js';

export interface TurnOptions {
  requestId: RequestId;
  command: string;
  context: ChatMessage[];
  systemInfo: string;
  signal: AbortSignal;
  /** Sends a notification; throws when the params cannot be framed. */
  notify(method: string, params: Record<string, unknown>): void;
  log(message: string, level?: LogLevel): void;
  invoke(ctx: CommandContext): unknown;
}

export async function runTurn(opts: TurnOptions): Promise<void> {
  const { requestId, command } = opts;
  let keep = false;
  let finished = false;
  const ctx: CommandContext = {
    requestId,
    command,
    context: opts.context,
    systemInfo: opts.systemInfo,
    signal: opts.signal,
    stream(data: unknown): void {
      if (finished) {
        // A late timer must not crash the plugin, nor reach a turn the engine already closed.
        opts.log(`stream() after ${command} (request ${requestId}) finished; ignored`, 'warning');
        return;
      }
      opts.notify('stream', { request_id: requestId, data });
    },
    keepSession(value = true): void {
      keep = value;
    },
    log: (message, level) => opts.log(message, level),
  };

  let result: unknown;
  try {
    result = await opts.invoke(ctx);
  } catch (e) {
    finished = true;
    if (!(e instanceof PluginError))
      opts.log(`${command} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`, 'error');
    sendError(opts, errorParams(e));
    return;
  }
  finished = true;
  try {
    opts.notify('complete', {
      request_id: requestId,
      success: true,
      data: result === undefined ? '' : result,
      keep_session: keep,
    });
  } catch (e) {
    sendError(opts, {
      code: ErrorCode.PluginError,
      message: `the result of ${command} cannot be sent: ${(e as Error).message}`,
    });
  }
}

interface ErrorParams {
  code: number;
  message: string;
  data?: unknown;
}

function errorParams(e: unknown): ErrorParams {
  if (e instanceof PluginError)
    return e.data === undefined
      ? { code: e.code, message: e.message }
      : { code: e.code, message: e.message, data: e.data };
  if (e instanceof Error) return { code: ErrorCode.PluginError, message: e.message || e.name };
  return { code: ErrorCode.PluginError, message: String(e) };
}

function sendError(opts: TurnOptions, p: ErrorParams): void {
  try {
    opts.notify('error', { request_id: opts.requestId, ...p });
  } catch {
    // The data could not be framed; the code and message always can.
    opts.notify('error', { request_id: opts.requestId, code: p.code, message: p.message });
  }
}
