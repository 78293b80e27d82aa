/**
 * Folding a server snapshot of a conversation (`chat.get`) into what the UI already shows. The
 * server's order and messages win, except:
 * - a message streaming here keeps its local copy: the snapshot's text can hold chunks that are
 *   still on their way as events, and taking it would show them twice. Its `end` event settles it.
 *   After a reconnect (`trustServer`) events were lost, so the snapshot wins there too.
 * - passthrough messages are stored without their text (it is private to the session), but the
 *   live events carried it: what was shown stays shown until the conversation is reloaded.
 * - optimistic user messages still being sent, or refused, stay visible after the server's.
 */
import type { ChatMessage, Conversation } from '../../../../shared/contract';
import type { LocalSend } from './state';

export interface MergeResult {
  ids: string[];
  messages: Record<string, ChatMessage>;
  /** Optimistic messages the snapshot makes obsolete. */
  dropped: string[];
}

export function mergeSnapshot(
  snapshot: Conversation,
  localIds: readonly string[],
  messages: Readonly<Record<string, ChatMessage | undefined>>,
  local: Readonly<Record<string, LocalSend | undefined>>,
  trustServer = false,
): MergeResult {
  const out: Record<string, ChatMessage> = {};
  const ids: string[] = [];
  for (const s of snapshot.messages) {
    const l = messages[s.id];
    if (l && l.status === 'streaming' && !trustServer) out[s.id] = l;
    else if (l && s.passthrough && s.text === '' && l.text !== '') out[s.id] = { ...s, text: l.text };
    else out[s.id] = s;
    ids.push(s.id);
  }
  const known = new Set(ids);
  const dropped: string[] = [];
  for (const id of localIds) {
    if (known.has(id)) continue;
    const m = messages[id];
    const l = local[id];
    if (m && ((l && l.state !== 'sent') || (!l && m.status === 'streaming' && !trustServer))) {
      out[id] = m;
      ids.push(id);
    } else if (l) {
      dropped.push(id);
    }
  }
  return { ids, messages: out, dropped };
}
