/**
 * Approval prompts: a model's call that its tool's policy says to ask about waits here for the
 * person's answer (the card's four buttons), one prompt at a time per conversation, the turn
 * waiting meanwhile. Nothing is ever approved by default: a prompt ends only with an answer, or
 * refused when its turn is stopped or the app closes (fail closed).
 */
import type { ApprovalDecision } from '../../../shared/assistant';
import { failure, type Outcome } from '../../../shared/failures';

export interface Answer {
  decision: ApprovalDecision | 'cancelled';
  /** Arguments the person edited on the card. */
  args?: Record<string, unknown>;
}

interface Prompt {
  conversationId: string;
  turnId: string;
  resolve(a: Answer): void;
  /** Checks edited arguments; a message when they do not fit the tool's schema. */
  check(args: Record<string, unknown>): string | undefined;
}

export class Approvals {
  private readonly open = new Map<string, Prompt>();
  /** Per conversation, the end of the last prompt asked: the next one waits for it. */
  private readonly queue = new Map<string, Promise<unknown>>();

  /**
   * Asks about call `callId` once every earlier prompt of the conversation is answered;
   * `showing` runs when this one is the prompt on screen, unless `stopped` says its turn ended.
   */
  ask(callId: string, p: Omit<Prompt, 'resolve'>, showing: () => void, stopped: () => boolean): Promise<Answer> {
    const before = this.queue.get(p.conversationId) ?? Promise.resolve();
    const answered = before.then(
      () =>
        new Promise<Answer>((resolve) => {
          // Its turn was stopped while it waited behind another prompt: it is never shown.
          if (stopped()) return resolve({ decision: 'cancelled' });
          this.open.set(callId, { ...p, resolve });
          showing();
        }),
    );
    const tail = answered.catch(() => undefined);
    this.queue.set(p.conversationId, tail);
    void tail.then(() => {
      if (this.queue.get(p.conversationId) === tail) this.queue.delete(p.conversationId);
    });
    return answered;
  }

  /** The person's answer. Refused when no prompt waits for that call, or edited arguments do not fit. */
  answer(callId: string, decision: ApprovalDecision, args?: Record<string, unknown>): Outcome {
    const p = this.open.get(callId);
    if (!p)
      return failure('invalid_state', 'that call is not waiting for an answer (it was answered, or its turn ended)');
    if (args !== undefined && decision !== 'deny') {
      const bad = p.check(args);
      if (bad) return failure('invalid_arguments', bad);
    }
    this.open.delete(callId);
    p.resolve({ decision, ...(args !== undefined && decision !== 'deny' ? { args } : {}) });
    return { ok: true };
  }

  /** Refuses every prompt of a turn (Stop) or of a conversation (deleted): never an approval. */
  cancel(match: { turnId?: string; conversationId?: string }): void {
    for (const [id, p] of [...this.open]) {
      if (
        (match.turnId && p.turnId === match.turnId) ||
        (match.conversationId && p.conversationId === match.conversationId)
      ) {
        this.open.delete(id);
        p.resolve({ decision: 'cancelled' });
      }
    }
  }

  cancelAll(): void {
    for (const [id, p] of [...this.open]) {
      this.open.delete(id);
      p.resolve({ decision: 'cancelled' });
    }
  }
}
