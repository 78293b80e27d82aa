/**
 * Messages that are being written while the UI watches: a plugin's streamed output, a model's
 * answer, a tool-call card. Each is stored when it starts and when it ends (at the next turn of
 * the event loop: `putMessageSoon`, off a tool round trip's path); in between its text
 * grows in memory, bounded (past 2 MiB the middle is cut: bounded-text.ts), and reaches the UI as
 * `chat.turn` stream events: a piece after a quiet spell at once, the pieces behind it batched
 * every 16 ms. `snapshot` gives a conversation's live copies with every piece sent so far, so a
 * client merging a snapshot with events never sees a piece twice.
 */
import { BoundedText } from '../../shared/bounded-text';
import type { ChatMessage, TurnEvent } from '../../shared/contract';
import { Disposable, MutableDisposable, timeoutDisposable } from '../../shared/lifecycle';
import type { ConversationStore } from './store';

/** Stream text reaches the UI in batches at most this often (the UI coalesces per frame too). */
const STREAM_BATCH_MS = 16;

/** The most text one stream event carries; more goes out as several. */
export const STREAM_EVENT_MAX_CHARS = 64 * 1024;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export interface TurnSink {
  turn(e: TurnEvent): void;
  /** A message ended: its conversation changed. */
  ended(conversationId: string): void;
}

export interface LiveMessage {
  readonly conversationId: string;
  /** The message as last written out; `text` is brought up to date from `body` when read. */
  readonly message: ChatMessage;
  body: BoundedText;
  pending: string;
  ended: boolean;
}

export class LiveMessages extends Disposable {
  private readonly live = new Map<string, LiveMessage>();
  private readonly flushTimer = this._register(new MutableDisposable());
  private lastFlushAt = 0;
  /** Set by closeAll: the store is about to close, and a turn still winding down writes nothing. */
  private closed = false;

  constructor(
    private readonly store: ConversationStore,
    private readonly sink: TurnSink,
  ) {
    super();
  }

  /** Stores `message` (streaming, with a turnId) and announces it. */
  start(conversationId: string, message: ChatMessage): LiveMessage {
    const m: LiveMessage = {
      conversationId,
      message,
      body: new BoundedText(message.text),
      pending: '',
      ended: this.closed,
    };
    // A turn stopped by closing the app may still end its answer after the store closed: that
    // message is born ended, and nothing of it is written.
    if (this.closed) return m;
    this.live.set(message.id, m);
    this.store.putMessageSoon(conversationId, message);
    this.sink.turn({ type: 'start', conversationId, turnId: message.turnId as string, message: { ...message } });
    return m;
  }

  append(m: LiveMessage, text: string): void {
    if (m.ended || !text) return;
    m.body.append(text);
    m.pending += text;
    if (this.flushTimer.value) return;
    // A piece after a quiet spell goes out at once (a model's tokens come tens of ms apart, and
    // each should reach the screen within a frame); pieces close behind it wait for one batch.
    const now = Date.now();
    if (now - this.lastFlushAt >= STREAM_BATCH_MS) {
      this.lastFlushAt = now;
      this.flush(m);
    }
    this.flushTimer.value = timeoutDisposable(() => {
      this.flushTimer.clear();
      this.lastFlushAt = Date.now();
      for (const x of this.live.values()) this.flush(x);
    }, STREAM_BATCH_MS);
  }

  /** Stores and announces a change of a live message other than its text (an approval, say). */
  update(m: LiveMessage, change: Partial<ChatMessage>): void {
    if (m.ended) return;
    this.flush(m);
    Object.assign(m.message, change);
    const full = { ...m.message, text: m.body.toString() };
    this.store.putMessageSoon(m.conversationId, full);
    this.sink.turn({
      type: 'start',
      conversationId: m.conversationId,
      turnId: m.message.turnId as string,
      message: full,
    });
  }

  /** Replaces a live message's whole text (a plan's checklist as it changes), with other changes. */
  replace(m: LiveMessage, text: string, change: Partial<ChatMessage> = {}): void {
    if (m.ended) return;
    m.pending = '';
    m.body = new BoundedText(text);
    this.update(m, change);
  }

  /** Ends a message with its final fields; later appends and updates are ignored. */
  finish(m: LiveMessage, change: Partial<ChatMessage>): void {
    if (m.ended) return;
    // Every piece goes out as a stream event before the end, so a client may follow either.
    this.flush(m);
    Object.assign(m.message, change);
    m.message.text = m.body.toString();
    this.settle(m);
    this.store.putMessageSoon(m.conversationId, m.message);
    this.sink.turn({
      type: 'end',
      conversationId: m.conversationId,
      turnId: m.message.turnId as string,
      message: { ...m.message },
    });
    this.sink.ended(m.conversationId);
  }

  /** A conversation's live messages, every piece sent so far included. */
  snapshot(conversationId: string): Map<string, ChatMessage> {
    const out = new Map<string, ChatMessage>();
    for (const m of this.live.values()) {
      if (m.conversationId !== conversationId) continue;
      this.flush(m);
      out.set(m.message.id, { ...m.message, text: m.body.toString() });
    }
    return out;
  }

  /** Forgets a conversation's live messages (it was deleted): nothing more is written for them. */
  drop(conversationId: string): void {
    for (const m of [...this.live.values()]) if (m.conversationId === conversationId) this.settle(m);
  }

  private flush(m: LiveMessage): void {
    if (!m.pending) return;
    const text = m.pending;
    m.pending = '';
    // A busy event loop lets pieces pile up to a megabyte; as one event, the page spent 50 ms on
    // it in one go (decoding, parsing), and keys typed meanwhile waited. Pieces of at most
    // STREAM_EVENT_MAX_CHARS are the same text in tasks short enough to interleave with typing.
    for (let at = 0; at < text.length;) {
      let end = Math.min(text.length, at + STREAM_EVENT_MAX_CHARS);
      // Never between the halves of a surrogate pair.
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
      this.sink.turn({
        type: 'stream',
        conversationId: m.conversationId,
        turnId: m.message.turnId as string,
        messageId: m.message.id,
        text: text.slice(at, end),
      });
      at = end;
    }
  }

  private settle(m: LiveMessage): void {
    m.ended = true;
    this.live.delete(m.message.id);
  }

  /** Ends every live message as cancelled, stored so, before the store closes. */
  closeAll(reason: ChatMessage['failure']): void {
    this.closed = true;
    for (const m of [...this.live.values()]) {
      m.message.text = m.body.toString();
      m.message.status = 'cancelled';
      m.message.failure = reason;
      if (m.message.call?.approval.state === 'pending')
        m.message.call = { ...m.message.call, approval: { state: 'denied', by: 'policy' } };
      this.settle(m);
      this.store.putMessage(m.conversationId, m.message);
    }
  }
}
