/**
 * Applying `chat.turn`, `chat.passthrough` and `chat.updated` events. A turn's messages arrive as
 * `start` (the message, usually empty and streaming), any number of `stream` chunks, and `end`
 * (the final message); a `start` is sent again when a message's other fields change (a tool call's
 * approval). Events for conversations that are not loaded do not list the message in the
 * conversation: opening it later fetches it whole. Which turns run follows the `turn` frames
 * around them (running.ts).
 */
import type { ChatMessage, ConversationSummary, Events, TurnEvent } from '../../../../shared/contract';
import { announceResult } from '../announce-result';
import { withFrame } from './running';
import { convOf, patchConv, sortList, useChat } from './state';
import { flushChunks, pushChunk } from './stream-buffer';
import { reconcile } from './sync';
import { withCappedText } from './text-cap';

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
  useChat.setState({
    messages,
    local,
    convs: { ...s.convs, [conversationId]: { ...conv, ids: conv.ids.filter((i) => i !== id) } },
  });
}

export function applyTurn(ev: TurnEvent): void {
  if (ev.type === 'stream') {
    // The hot path: a map lookup and an array push; the flush does the rest.
    pushChunk(ev.messageId, ev.text);
    return;
  }
  if (ev.type === 'turn') {
    const s = useChat.getState();
    const running = withFrame(s.running, ev.conversationId, ev.turnId, ev.running);
    if (running !== s.running) useChat.setState({ running });
    return;
  }
  // The server's copy of the user's message (as `start` or `end`) replaces the optimistic one.
  if (ev.message.role === 'user') dropOptimistic(ev.conversationId);
  // Every chunk sent before this event lands first. A `start` sent again (an approval changed)
  // carries the text so far, so chunks applied after it would show twice.
  flushChunks();
  if (ev.type === 'start') {
    upsert(ev.conversationId, ev.message);
    return;
  }
  const local = useChat.getState().messages[ev.message.id];
  // The final message is authoritative; if it carries no text (none was given, or the server
  // left out a long text this page received as it streamed), what streamed in is the text.
  const streamed = ev.message.text === '' && local?.text;
  const final = streamed ? { ...ev.message, text: local.text } : ev.message;
  upsert(ev.conversationId, final);
  // Left out, but this page does not hold what streamed (it should): fetch the stored text.
  if (ev.textStreamed && !streamed) scheduleReconcile(ev.conversationId);
  if (ev.conversationId === useChat.getState().activeId) announceResult(local, final);
}

export function applyPassthrough(ev: Events['chat.passthrough']): void {
  patchConv(ev.conversationId, () => ({
    passthrough: ev.active ? { pluginId: ev.pluginId, pluginName: ev.pluginName } : null,
  }));
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
