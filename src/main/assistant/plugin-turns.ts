/**
 * Plugin turns: one call (or one passthrough input) whose output streams into one message of a
 * conversation. Stream text reaches the UI as `chat.turn` stream events, batched; the message is
 * stored when the turn starts and when it ends, bounded (a plugin that never stops must not fill
 * memory), and a turn ended here (its conversation deleted, the app closing) ignores whatever the
 * call does later.
 */
import { BoundedText } from '../../shared/bounded-text';
import { chunkText, resultText } from '../../shared/chunks';
import type { ChatMessage, TurnEvent } from '../../shared/contract';
import { failure, type Failure } from '../../shared/failures';
import { Disposable, MutableDisposable, timeoutDisposable } from '../../shared/lifecycle';
import type { CallEvent } from '../../shared/model';
import type { CallHandle } from '../host';
import type { ConversationStore } from './store';

/** Stream text reaches the UI in batches at most this often (the UI coalesces per frame too). */
const STREAM_BATCH_MS = 16;

interface Running {
  conversationId: string;
  /** The message as last written out; its text is brought up to date from `body` when read. */
  message: ChatMessage;
  body: BoundedText;
  handle: CallHandle | null;
  pending: string;
  ended: boolean;
}

export interface TurnSink {
  turn(e: TurnEvent): void;
  /** The turn ended: its conversation changed. */
  ended(conversationId: string): void;
}

export class PluginTurns extends Disposable {
  private readonly running = new Map<string, Running>();
  private readonly flushTimer = this._register(new MutableDisposable());

  constructor(
    private readonly store: ConversationStore,
    private readonly sink: TurnSink,
  ) {
    super();
  }

  /** Starts a turn for `message` (a streaming plugin message with a turnId); `call` makes the call. */
  start(conversationId: string, message: ChatMessage, call: (onEvent: (e: CallEvent) => void) => CallHandle): void {
    const run: Running = { conversationId, message, body: new BoundedText(message.text), handle: null, pending: '', ended: false };
    this.running.set(message.turnId as string, run);
    this.store.putMessage(conversationId, message);
    this.sink.turn({ type: 'start', conversationId, turnId: message.turnId as string, message });
    run.handle = call((e) => this.onCallEvent(run, e));
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

  /** The live copy of a running turn's message, with every chunk sent so far (flushed first). */
  live(conversationId: string): Map<string, ChatMessage> {
    const out = new Map<string, ChatMessage>();
    for (const run of this.running.values()) {
      if (run.conversationId !== conversationId) continue;
      // Send what is batched first: a snapshot then holds exactly the text already streamed, so
      // a client merging it with stream events never sees a piece twice.
      this.flushOne(run);
      out.set(run.message.turnId as string, { ...run.message, text: run.body.toString() });
    }
    return out;
  }

  /** Ends a conversation's turns here (it was deleted) and stops their calls. */
  stopAll(conversationId: string, reason: string): void {
    for (const run of [...this.running.values()]) {
      if (run.conversationId !== conversationId) continue;
      this.settle(run);
      run.handle?.cancel(reason);
    }
  }

  private onCallEvent(run: Running, e: CallEvent): void {
    if (run.ended) return;
    if (e.type === 'stream') {
      const text = chunkText(e.data);
      run.body.append(text);
      run.pending += text;
      this.scheduleFlush();
      return;
    }
    this.flushOne(run);
    const m = run.message;
    if (e.type === 'complete') {
      const body = resultText(e.data);
      if (typeof e.data === 'string' || e.data === null || e.data === undefined) {
        const sofar = run.body.toString();
        if (body) run.body.append(sofar && !sofar.endsWith('\n') ? `\n\n${body}` : body);
      } else m.result = e.data;
      m.status = e.success ? 'done' : 'error';
      if (!e.success) m.failure = failure('plugin_error', 'the plugin reported success: false');
      m.keepSession = e.keepSession;
    } else {
      m.status = e.failure.code === 'cancelled' ? 'cancelled' : 'error';
      m.failure = e.failure;
    }
    this.finish(run);
  }

  private finish(run: Running): void {
    const m = run.message;
    m.text = run.body.toString();
    this.settle(run);
    this.store.putMessage(run.conversationId, m);
    this.sink.turn({ type: 'end', conversationId: run.conversationId, turnId: m.turnId as string, message: { ...m } });
    this.sink.ended(run.conversationId);
  }

  private scheduleFlush(): void {
    if (this.flushTimer.value) return;
    this.flushTimer.value = timeoutDisposable(() => {
      this.flushTimer.clear();
      for (const run of this.running.values()) this.flushOne(run);
    }, STREAM_BATCH_MS);
  }

  private flushOne(run: Running): void {
    if (!run.pending) return;
    const text = run.pending;
    run.pending = '';
    this.sink.turn({ type: 'stream', conversationId: run.conversationId, turnId: run.message.turnId as string, messageId: run.message.id, text });
  }

  /** A turn is over here; nothing the call does later changes its message. */
  private settle(run: Running): void {
    run.ended = true;
    this.running.delete(run.message.turnId as string);
  }

  /**
   * Ends every turn still running as cancelled and stores it so, before the store closes: the
   * cancels below complete asynchronously, after the store is gone.
   */
  override dispose(): void {
    const closing: Failure = failure('cancelled', 'Plugboard closed while the call was running');
    for (const run of [...this.running.values()]) {
      const m = run.message;
      m.text = run.body.toString();
      m.status = 'cancelled';
      m.failure = closing;
      this.settle(run);
      this.store.putMessage(run.conversationId, m);
      run.handle?.cancel('the app is closing');
    }
    super.dispose();
  }
}
