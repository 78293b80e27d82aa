/**
 * Which turns are running, as a pure function of what the server said. A turn runs from its
 * `start` (always a plugin message with status 'streaming' and the turn's id; the server sends it
 * before it answers `chat.send` or `chat.invoke`) until the `end` of its last streaming message.
 * So the store keeps an index of the streaming messages it holds, with the conversation and turn
 * of each, and changes it only where a message arrives: an event, a snapshot (`chat.get`, the
 * truth after a reconnect), or a conversation or message the page lets go of. Nothing is guessed
 * from command answers and nothing expires on a timer.
 *
 * The index is keyed by message id, not kept per conversation: a conversation that is not loaded
 * still shows that it runs (its events carry the conversation), and the messages of one turn end
 * one by one. Every function returns the index it was given when nothing changed, so a store
 * update that does not touch it does not re-render what selects it.
 */
import type { ChatMessage } from '../../../../shared/contract';

export interface StreamingRef {
  conversationId: string;
  turnId: string;
}

/** Streaming messages by message id. */
export type StreamingIndex = Readonly<Record<string, StreamingRef>>;

export const NO_STREAMING: StreamingIndex = Object.freeze({});

function streamingTurn(m: ChatMessage): string | null {
  return m.status === 'streaming' && m.turnId ? m.turnId : null;
}

/** `before` when `after` holds the same entries, so selectors see no change; else `after`. */
function unlessSame(before: StreamingIndex, after: StreamingIndex): StreamingIndex {
  if (Object.keys(before).length !== Object.keys(after).length) return after;
  for (const [id, ref] of Object.entries(after)) {
    const old = before[id];
    if (!old || old.conversationId !== ref.conversationId || old.turnId !== ref.turnId) return after;
  }
  return before;
}

function without(index: StreamingIndex, drop: (id: string, ref: StreamingRef) => boolean): StreamingIndex {
  let out: Record<string, StreamingRef> | null = null;
  for (const [id, ref] of Object.entries(index)) {
    if (!drop(id, ref)) continue;
    out ??= { ...index };
    delete out[id];
  }
  return out ?? index;
}

/** After an event (`start` or `end`) brought `message` of `conversationId`. */
export function withMessage(index: StreamingIndex, conversationId: string, message: ChatMessage): StreamingIndex {
  const turnId = streamingTurn(message);
  const now = index[message.id];
  if (turnId === null) return now ? without(index, (id) => id === message.id) : index;
  if (now && now.conversationId === conversationId && now.turnId === turnId) return index;
  return { ...index, [message.id]: { conversationId, turnId } };
}

/**
 * After a snapshot of `conversationId` was folded in: that conversation's entries become exactly
 * the streaming messages among `messages` (what the page now holds for it).
 */
export function withSnapshot(index: StreamingIndex, conversationId: string, messages: Iterable<ChatMessage>): StreamingIndex {
  const fresh: Record<string, StreamingRef> = {};
  for (const m of messages) {
    const turnId = streamingTurn(m);
    if (turnId !== null) fresh[m.id] = { conversationId, turnId };
  }
  return unlessSame(index, { ...withoutConversation(index, conversationId), ...fresh });
}

/** Keeps only the entries whose message the page still holds, and holds as streaming. */
export function heldIn(index: StreamingIndex, messages: Readonly<Record<string, ChatMessage | undefined>>): StreamingIndex {
  return without(index, (id, ref) => {
    const m = messages[id];
    return !m || streamingTurn(m) !== ref.turnId;
  });
}

/** A conversation the page let go of (deleted): nothing of it runs here any more. */
export function withoutConversation(index: StreamingIndex, conversationId: string): StreamingIndex {
  return without(index, (_id, ref) => ref.conversationId === conversationId);
}

/** The conversation's running turns, each once, in the order their messages were indexed. */
export function runningTurns(index: StreamingIndex, conversationId: string): string[] {
  const turns: string[] = [];
  for (const ref of Object.values(index)) if (ref.conversationId === conversationId && !turns.includes(ref.turnId)) turns.push(ref.turnId);
  return turns;
}

export function hasRunningTurn(index: StreamingIndex, conversationId: string): boolean {
  for (const ref of Object.values(index)) if (ref.conversationId === conversationId) return true;
  return false;
}

/** Whether any message streams, in any conversation (the perf probe times frames meanwhile). */
export function anyStreaming(index: StreamingIndex): boolean {
  return Object.keys(index).length > 0;
}
