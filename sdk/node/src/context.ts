/**
 * What a command handler receives besides its arguments: the turn's context object.
 */
import type { RequestId } from './jsonrpc.js';
import { isRecord } from './jsonrpc.js';
import type { LogLevel } from './log.js';

/** One chat message of the conversation (`execute` params.context), oldest first. */
export interface ChatMessage {
  role: string;
  content: string;
  [key: string]: unknown;
}

export interface CommandContext {
  /** The id of the `execute` or `input` request this turn answers. */
  readonly requestId: RequestId;
  /** The command running (`on_input` for passthrough input). */
  readonly command: string;
  /** The conversation so far (empty for passthrough input, and when the host shares none). */
  readonly context: readonly ChatMessage[];
  /** The engine's description of the user's machine; '' when it gives none. */
  readonly systemInfo: string;
  /** Aborted when the plugin is shutting down: stop work and return. */
  readonly signal: AbortSignal;
  /** Sends part of the result now (ignored, with a warning, once the turn has ended). */
  stream(data: unknown): void;
  /** Keep (true) or end (false) the passthrough session after this turn. Decided anew each turn. */
  keepSession(keep?: boolean): void;
  /** A line on stderr. */
  log(message: string, level?: LogLevel): void;
}

/** The context param as chat messages: never null, content always a string. */
export function toChatMessages(value: unknown): ChatMessage[] {
  if (!Array.isArray(value)) return [];
  return value.map((m): ChatMessage => {
    if (!isRecord(m)) return { role: 'user', content: m == null ? '' : String(m) };
    const content = m.content;
    return {
      ...m,
      role: typeof m.role === 'string' ? m.role : 'user',
      content: typeof content === 'string' ? content : content == null ? '' : JSON.stringify(content),
    };
  });
}

export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return JSON.stringify(value);
}
