/**
 * Stream chunks are kept outside React and applied at most once per animation frame: a turn can
 * send 100,000 tiny chunks, and one state update per chunk would drown the UI. Each flush joins a
 * message's pending pieces and replaces that one message object. A message's text is capped the
 * way the server caps it (text-cap.ts), so an endless stream cannot fill the page's memory.
 */
import { noteChunksApplied } from '../../perf/probe';
import { createFrameBatcher } from '../frame-batcher';
import { useChat } from './state';
import { appendCapped } from './text-cap';

interface Chunk {
  messageId: string;
  text: string;
}

const batch = createFrameBatcher<Chunk>(
  (chunks) => {
    const pieces = new Map<string, string[]>();
    for (const c of chunks) {
      const list = pieces.get(c.messageId);
      if (list) list.push(c.text);
      else pieces.set(c.messageId, [c.text]);
    }
    const current = useChat.getState().messages;
    const messages = { ...current };
    let applied = 0;
    let chars = 0;
    for (const [id, parts] of pieces) {
      const m = current[id];
      // A chunk for a message this page does not hold (forgotten after a reconnect) is dropped.
      if (!m) continue;
      const added = parts.join('');
      messages[id] = { ...m, text: appendCapped(m.text, added) };
      applied += parts.length;
      chars += added.length;
    }
    if (applied === 0) return;
    useChat.setState({ messages });
    noteChunksApplied(applied, chars);
  },
  { inputFirst: true },
);

export function pushChunk(messageId: string, text: string): void {
  batch.push({ messageId, text });
}

/** Applies every pending chunk now: the `end` of a message must land after all its chunks. */
export function flushChunks(): void {
  batch.flushNow();
}
