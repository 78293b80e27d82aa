/**
 * Questions a model asked the person (`ask_user`), waiting for the answer on their card. Like an
 * approval prompt, a question ends only with an answer, or refused when its turn is stopped or the
 * app closes; it is still there for a window that reloads meanwhile.
 */
import type { Question } from '../../../shared/assistant';
import { failure, type Outcome } from '../../../shared/failures';

interface Waiting {
  turnId: string;
  question: Question;
  resolve(answer: string | null): void;
}

export class Questions {
  private readonly open = new Map<string, Waiting>();

  /** Resolves with the answer's text, or null when the turn ended first. */
  ask(callId: string, turnId: string, question: Question): Promise<string | null> {
    return new Promise((resolve) => this.open.set(callId, { turnId, question, resolve }));
  }

  /** The person's answer: text, or the choices picked. Refused when it does not fit the question. */
  answer(callId: string, answer: string | string[]): Outcome {
    const w = this.open.get(callId);
    if (!w) return failure('invalid_state', 'that question is not waiting for an answer (it was answered, or its turn ended)');
    const picked = Array.isArray(answer) ? answer : [answer];
    const { choices, multiple } = w.question;
    if (picked.length === 0 || picked.some((a) => !a.trim())) return failure('invalid_input', 'the answer is empty');
    if (choices?.length) {
      const unknown = picked.filter((a) => !choices.includes(a));
      if (unknown.length > 0) return failure('invalid_input', `not one of the choices: ${unknown.join(', ')}`);
      if (!multiple && picked.length > 1) return failure('invalid_input', 'pick one of the choices');
    } else if (picked.length > 1) return failure('invalid_input', 'this question takes one answer in words');
    this.open.delete(callId);
    w.resolve(picked.join(', '));
    return { ok: true };
  }

  /** Ends the questions of a turn (Stop), or all of them (the app closes), unanswered. */
  cancel(turnId?: string): void {
    for (const [id, w] of [...this.open]) {
      if (turnId !== undefined && w.turnId !== turnId) continue;
      this.open.delete(id);
      w.resolve(null);
    }
  }
}
