/**
 * Folding a server snapshot of a conversation (`chat.get`) into what the UI already shows. The
 * server's order and messages win, except: a message still streaming here keeps its local text
 * (chunks after the snapshot are already applied), and optimistic user messages still being sent
 * or refused stay visible after the server's messages.
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
): MergeResult {
  const out: Record<string, ChatMessage> = {};
  const ids: string[] = [];
  for (const s of snapshot.messages) {
    const l = messages[s.id];
    out[s.id] = l && l.status === 'streaming' && s.status === 'streaming' && l.text.length >= s.text.length ? l : s;
    ids.push(s.id);
  }
  const known = new Set(ids);
  const dropped: string[] = [];
  for (const id of localIds) {
    if (known.has(id)) continue;
    const m = messages[id];
    const l = local[id];
    if (m && ((l && l.state !== 'sent') || (!l && m.status === 'streaming'))) {
      out[id] = m;
      ids.push(id);
    } else if (l) {
      dropped.push(id);
    }
  }
  return { ids, messages: out, dropped };
}
