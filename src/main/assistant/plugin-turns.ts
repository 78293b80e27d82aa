/**
 * Plugin turns: one call (or one passthrough input) whose output streams into one message of a
 * conversation, from the call's events (live-messages.ts does the storing and streaming). A turn
 * ended here (its conversation deleted, the app closing) ignores whatever the call does later.
 */
import { chunkText, resultText } from '../../shared/chunks';
import type { ChatMessage } from '../../shared/contract';
import { failure } from '../../shared/failures';
import type { CallEvent } from '../../shared/plugin';
import type { CallHandle } from '../plugins';
import type { LiveMessage, LiveMessages } from './live-messages';

/** What a call's final event makes of its message: status, result, failure. */
export function completion(
  m: LiveMessage,
  e: Exclude<CallEvent, { type: 'stream' }>,
): Partial<ChatMessage> & { appended?: string } {
  if (e.type === 'error') return { status: e.failure.code === 'cancelled' ? 'cancelled' : 'error', failure: e.failure };
  const out: Partial<ChatMessage> & { appended?: string } = {
    status: e.success ? 'done' : 'error',
    keepSession: e.keepSession,
  };
  if (typeof e.data === 'string' || e.data === null || e.data === undefined) {
    const body = resultText(e.data);
    const sofar = m.body.toString();
    if (body) out.appended = sofar && !sofar.endsWith('\n') ? `\n\n${body}` : body;
  } else out.result = e.data;
  // An MCP tool with an App: the App gets the result as it came (it is rendered again from it after a reload).
  if (e.app) out.app = e.app;
  if (!e.success) out.failure = failure('plugin_error', 'the plugin reported success: false');
  return out;
}

export class PluginTurns {
  private readonly running = new Map<
    string,
    { conversationId: string; handle: CallHandle | null; live: LiveMessage }
  >();

  constructor(private readonly messages: LiveMessages) {}

  /** Starts a turn for `message` (a streaming plugin message with a turnId); `call` makes the call. */
  start(conversationId: string, message: ChatMessage, call: (onEvent: (e: CallEvent) => void) => CallHandle): void {
    const live = this.messages.start(conversationId, message);
    const turnId = message.turnId as string;
    const run = { conversationId, handle: null as CallHandle | null, live };
    this.running.set(turnId, run);
    run.handle = call((e) => {
      if (live.ended) return;
      if (e.type === 'stream') return this.messages.append(live, chunkText(e.data));
      const { appended, ...change } = completion(live, e);
      if (appended) this.messages.append(live, appended);
      this.running.delete(turnId);
      this.messages.finish(live, change);
    });
  }

  isRunning(turnId: string): boolean {
    return this.running.has(turnId);
  }

  cancel(turnId: string, reason: string): boolean {
    const r = this.running.get(turnId);
    if (!r) return false;
    r.handle?.cancel(reason);
    return true;
  }

  /** Ends a conversation's turns here (it was deleted) and stops their calls. */
  stopAll(conversationId: string, reason: string): void {
    for (const [turnId, r] of [...this.running]) {
      if (r.conversationId !== conversationId) continue;
      this.running.delete(turnId);
      r.handle?.cancel(reason);
    }
  }

  /** The app is closing: every call still running is stopped (its message is closed by LiveMessages). */
  cancelAll(reason: string): void {
    for (const r of this.running.values()) r.handle?.cancel(reason);
    this.running.clear();
  }
}
