/**
 * What a conversation is doing, read from its messages and running turns: whether a turn runs
 * with nothing on screen to show for it (a model thinking before its first token, or between two
 * rounds of tool calls), and which message a Retry would run again. Pure functions of the store's
 * data, so the list and the rows select them cheaply and tests read them without a page.
 */
import type { ChatMessage } from '../../../../shared/contract';
import { runningTurns, type RunningIndex } from './running';

type Messages = Readonly<Record<string, ChatMessage | undefined>>;

/**
 * A turn of the conversation runs and none of its messages streams: the person sees nothing
 * happen unless the list says that the model is at work.
 */
export function isThinking(
  running: RunningIndex,
  conversationId: string,
  ids: readonly string[],
  messages: Messages,
): boolean {
  const turns = runningTurns(running, conversationId);
  if (turns.length === 0) return false;
  for (let i = ids.length - 1; i >= 0; i--) {
    const m = messages[ids[i] as string];
    if (m?.status === 'streaming' && m.turnId !== undefined && turns.includes(m.turnId)) return false;
  }
  return true;
}

/**
 * Whether the server would run this message's turn again (`chat.retry`): a model's answer that
 * failed or was stopped, or a tool card of a model's turn that did not finish. The server retries
 * only the conversation's last message (system notes aside): see `retryable`.
 */
export function canRetry(m: ChatMessage): boolean {
  if (m.role === 'assistant') return m.status === 'error' || m.status === 'cancelled';
  return m.role === 'plugin' && m.call !== undefined && m.status !== 'done' && m.status !== 'streaming';
}

/** The id of the message that offers Retry, if any: the last one that is not a system note. */
export function retryable(ids: readonly string[], messages: Messages): string | null {
  for (let i = ids.length - 1; i >= 0; i--) {
    const m = messages[ids[i] as string];
    if (!m || m.role === 'system') continue;
    return canRetry(m) ? m.id : null;
  }
  return null;
}
