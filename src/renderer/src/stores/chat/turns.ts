/**
 * Applying `chat.turn`, `chat.passthrough` and `chat.updated` events. A turn's messages arrive as
 * `start` (the message, usually empty and streaming), any number of `stream` chunks, and `end`
 * (the final message). Events for conversations that are not loaded only touch the list: opening
 * the conversation later fetches it whole.
 */
import type { ChatMessage, ConversationSummary, Events, TurnEvent } from '../../../../shared/contract';
import { setStreaming } from '../../perf/probe';
import { reconcile } from './sync';
import { convOf, patchConv, setRunning, sortList, useChat } from './state';
import { flushChunks, pushChunk } from './stream-buffer';
import { withCappedText } from './text-cap';

/** Messages streaming now, across conversations: the perf probe times frames while any is. */
const streaming = new Set<string>();
/**
 * Turns seen in events, oldest first, so a late `chat.send` answer does not mark an ended turn as
 * running. Only an answer still on its way needs its turn here, so the set keeps the latest
 * SEEN_TURNS_MAX turns (an answer comes back long before that many more turns have begun) and
 * is emptied after a reconnect, where every answer still on its way has failed.
 */
const seenTurns = new Set<string>();
const SEEN_TURNS_MAX = 256;

function noteSeen(turnId: string): void {
  if (seenTurns.has(turnId)) return;
  seenTurns.add(turnId);
  if (seenTurns.size > SEEN_TURNS_MAX) {
    const oldest = seenTurns.values().next();
    if (!oldest.done) seenTurns.delete(oldest.value);
  }
}

function trackStreaming(m: ChatMessage): void {
  if (m.status === 'streaming') streaming.add(m.id);
  else streaming.delete(m.id);
  setStreaming(streaming.size > 0);
}

/**
 * Messages are kept even for conversations that are not loaded: a turn streaming in the
 * background then has its text when the conversation opens, and its snapshot (which may hold
 * text not yet sent as events) does not have to be trusted. Only loaded ones get the id listed.
 */
function upsert(conversationId: string, message: ChatMessage): void {
  const m = withCappedText(message);
  const s = useChat.getState();
  const conv = s.convs[conversationId];
  const messages = { ...s.messages, [m.id]: m };
  if (!conv?.loaded || conv.ids.includes(m.id)) {
    useChat.setState({ messages });
    return;
  }
  useChat.setState({ messages, convs: { ...s.convs, [conversationId]: { ...conv, ids: [...conv.ids, m.id] } } });
}

/** The server now has the user's message: the optimistic copy of it goes. */
function dropOptimistic(conversationId: string): void {
  const s = useChat.getState();
  const conv = s.convs[conversationId];
  if (!conv) return;
  const id = conv.ids.find((i) => s.local[i]?.conversationId === conversationId && s.local[i]?.state !== 'failed');
  if (!id) return;
  const messages = { ...s.messages };
  const local = { ...s.local };
  delete messages[id];
  delete local[id];
  useChat.setState({ messages, local, convs: { ...s.convs, [conversationId]: { ...conv, ids: conv.ids.filter((i) => i !== id) } } });
}

function turnStreams(turnId: string): boolean {
  const { messages } = useChat.getState();
  for (const id of streaming) if (messages[id]?.turnId === turnId) return true;
  return false;
}

export function applyTurn(ev: TurnEvent): void {
  if (ev.type === 'stream') {
    // The hot path: a map lookup and an array push; the flush does the rest.
    pushChunk(ev.messageId, ev.text);
    return;
  }
  noteSeen(ev.turnId);
  // The server's copy of the user's message (as `start` or `end`) replaces the optimistic one.
  if (ev.message.role === 'user') dropOptimistic(ev.conversationId);
  if (ev.type === 'start') {
    upsert(ev.conversationId, ev.message);
    trackStreaming(ev.message);
    if (ev.message.status === 'streaming') setRunning(ev.conversationId, (t) => (t.includes(ev.turnId) ? t : [...t, ev.turnId]));
    return;
  }
  flushChunks();
  const local = useChat.getState().messages[ev.message.id];
  // The final message is authoritative; if it carries no text, what streamed in is the text.
  const final = ev.message.text === '' && local?.text ? { ...ev.message, text: local.text } : ev.message;
  upsert(ev.conversationId, final);
  trackStreaming(final);
  if (!turnStreams(ev.turnId)) setRunning(ev.conversationId, (t) => t.filter((x) => x !== ev.turnId));
}

/** A `chat.send`/`chat.invoke` answer names its turn: running until its messages end. */
export function noteTurnStarted(conversationId: string, turnId: string): void {
  if (seenTurns.has(turnId)) return;
  setRunning(conversationId, (t) => (t.includes(turnId) ? t : [...t, turnId]));
  // A turn that never produces a message (refused before it began) must not hold Stop forever.
  // (A snapshot after a reconnect can show it streaming without any event: that counts too.)
  setTimeout(() => {
    if (!seenTurns.has(turnId) && !turnStreams(turnId)) setRunning(conversationId, (t) => t.filter((x) => x !== turnId));
  }, 15_000);
}

export function applyPassthrough(ev: Events['chat.passthrough']): void {
  patchConv(ev.conversationId, () => ({ passthrough: ev.active ? { pluginId: ev.pluginId, pluginName: ev.pluginName } : null }));
}

export function applyUpdated(summary: ConversationSummary): void {
  const s = useChat.getState();
  const others = s.list.filter((c) => c.id !== summary.id);
  useChat.setState({ list: sortList([...others, summary]) });
  const conv = s.convs[summary.id];
  if (!conv?.loaded) return;
  const serverKnown = conv.ids.filter((id) => !s.local[id]).length;
  // Messages we have not seen (a system note, a message from another window): fetch them.
  if (summary.messageCount !== serverKnown) scheduleReconcile(summary.id);
}

const timers = new Map<string, ReturnType<typeof setTimeout>>();

export function scheduleReconcile(conversationId: string): void {
  if (timers.has(conversationId)) return;
  timers.set(
    conversationId,
    setTimeout(() => {
      timers.delete(conversationId);
      if (convOf(useChat.getState(), conversationId).loaded) void reconcile(conversationId);
    }, 150),
  );
}

/** After a reconnect nothing streaming is known until snapshots say so. */
export function resetStreaming(): void {
  streaming.clear();
  seenTurns.clear();
  setStreaming(false);
}

/** After a reconnect, or when a snapshot brings streaming messages, keep the probe honest. */
export function retrack(messages: Iterable<ChatMessage>): void {
  for (const m of messages) trackStreaming(m);
}
