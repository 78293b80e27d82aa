/**
 * Which turns run in each conversation, announced as `turn` events when one begins and ends: what
 * the UI's Stop button follows, and what a conversation's snapshot lists after a reconnect.
 */
import type { TokenUsage } from '../../shared/assistant';
import type { TurnEvent } from '../../shared/contract';

export class RunningTurns {
  private readonly byConversation = new Map<string, Set<string>>();

  constructor(private readonly announce: (e: Extract<TurnEvent, { type: 'turn' }>) => void) {}

  of(conversationId: string): string[] {
    return [...(this.byConversation.get(conversationId) ?? [])];
  }

  /** Marks a turn running or over (a model's, with the tokens it took); says so only when that changes. */
  set(conversationId: string, turnId: string, running: boolean, usage?: TokenUsage): void {
    const set = this.byConversation.get(conversationId) ?? new Set<string>();
    if (running === set.has(turnId)) return;
    if (running) set.add(turnId);
    else set.delete(turnId);
    if (set.size > 0) this.byConversation.set(conversationId, set);
    else this.byConversation.delete(conversationId);
    this.announce({ type: 'turn', conversationId, turnId, running, ...(usage ? { usage } : {}) });
  }
}
