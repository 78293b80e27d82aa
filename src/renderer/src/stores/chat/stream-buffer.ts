/**
 * Stream chunks are kept outside React and applied at most once per animation frame: a turn can
 * send 100,000 tiny chunks, and one state update per chunk would drown the UI. Each flush joins a
 * message's pending pieces and replaces that one message object.
 */
import { noteChunksApplied } from '../../perf/probe';
import { createFrameBatcher } from '../frame-batcher';
import { useChat } from './state';

interface Chunk {
  messageId: string;
  text: string;
}

const batch = createFrameBatcher<Chunk>((chunks) => {
  const pieces = new Map<string, string[]>();
  for (const c of chunks) {
    const list = pieces.get(c.messageId);
    if (list) list.push(c.text);
    else pieces.set(c.messageId, [c.text]);
  }
  const current = useChat.getState().messages;
  const messages = { ...current };
  for (const [id, parts] of pieces) {
    const m = current[id];
    if (m) messages[id] = { ...m, text: m.text + parts.join('') };
  }
  useChat.setState({ messages });
  noteChunksApplied(chunks.length);
});

export function pushChunk(messageId: string, text: string): void {
  batch.push({ messageId, text });
}

/** Applies every pending chunk now: the `end` of a message must land after all its chunks. */
export function flushChunks(): void {
  batch.flushNow();
}
