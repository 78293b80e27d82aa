/**
 * Loading conversations from the server and folding snapshots into local state. Events are
 * applied in turns.ts, which calls in here; nothing here calls back (no import cycle).
 */
import { getApi } from '../../api';
import { errorText } from '../toasts';
import { mergeSnapshot } from './merge';
import { withSnapshot } from './running';
import { convOf, patchConv, sortList, useChat } from './state';
import { flushChunks } from './stream-buffer';
import { withCappedText } from './text-cap';

export async function loadList(): Promise<void> {
  try {
    const list = await getApi().invoke('chat.list', {});
    useChat.setState({ list: sortList(list), listLoaded: true, listError: null });
  } catch (e) {
    useChat.setState({ listLoaded: true, listError: errorText(e) });
  }
}

/** Fetches a conversation and merges it with what is shown (see merge.ts). */
export async function reconcile(conversationId: string, trustServer = false): Promise<void> {
  let snapshot;
  try {
    snapshot = await getApi().invoke('chat.get', { id: conversationId });
  } catch (e) {
    if (!convOf(useChat.getState(), conversationId).loaded)
      patchConv(conversationId, () => ({ loadError: errorText(e) }));
    return;
  }
  if (!snapshot) {
    patchConv(conversationId, () => ({ loaded: true, loadError: 'This conversation no longer exists.' }));
    return;
  }
  // Chunks still waiting for the next frame arrived before the snapshot, so its text holds them.
  // Applied now, they land on the copies the merge then replaces (or keeps, still streaming
  // here): applied after it, they would be added a second time to the snapshot's text.
  flushChunks();
  const s = useChat.getState();
  const conv = convOf(s, conversationId);
  const merged = mergeSnapshot(snapshot, conv.ids, s.messages, s.local, trustServer);
  const messages: typeof s.messages = { ...s.messages };
  for (const [id, m] of Object.entries(merged.messages)) messages[id] = withCappedText(m);
  const local = { ...s.local };
  for (const id of merged.dropped) {
    delete messages[id];
    delete local[id];
  }
  useChat.setState({
    messages,
    local,
    convs: {
      ...s.convs,
      [conversationId]: {
        ids: merged.ids,
        loaded: true,
        loadError: null,
        passthrough: snapshot.passthrough,
        model: snapshot.model,
      },
    },
    list: sortList([
      ...s.list.filter((c) => c.id !== snapshot.id),
      { id: snapshot.id, title: snapshot.title, updatedAt: snapshot.updatedAt, messageCount: snapshot.messageCount },
    ]),
    // The snapshot says which of its turns run: events before it are in it, events after it
    // arrive after it (one ordered link).
    running: withSnapshot(s.running, conversationId, snapshot.runningTurns),
  });
}
