/**
 * Questions waiting for the person's answer on their card: a model's (`ask_user`), answered in
 * words or by picking choices, and an MCP server's form (elicitation), sent filled or refused.
 * Like an approval prompt, a question ends only with an answer, or refused when its turn is
 * stopped, its call ends or the app closes (fail closed); it is still there for a window that
 * reloads meanwhile.
 */
import type { Question } from '../../../shared/assistant';
import { failure, type Outcome } from '../../../shared/failures';

/** A form's outcome: the fields sent, or refused (declined by the person, or cancelled). */
export type FormReply = { content: Record<string, unknown> } | { refused: 'decline' | 'cancel' };

type Reply = { text: string } | FormReply;

interface Waiting {
  turnId: string;
  question: Question;
  resolve(reply: Reply | null): void;
  /** A form's check of the fields sent: a message when they do not fit its schema. */
  check?(content: Record<string, unknown>): string | undefined;
}

export type AnswerInput = string | string[] | Record<string, unknown>;

export class Questions {
  private readonly open = new Map<string, Waiting>();

  /** Resolves with the answer's text, or null when the turn ended first. */
  async ask(callId: string, turnId: string, question: Question): Promise<string | null> {
    const r = await new Promise<Reply | null>((resolve) => this.open.set(callId, { turnId, question, resolve }));
    return r && 'text' in r ? r.text : null;
  }

  /** A form (question.form): resolves with the fields sent, or refused ('cancel' when ended unanswered). */
  async askForm(
    callId: string,
    turnId: string,
    question: Question & { form: Record<string, unknown> },
    check: Waiting['check'],
  ): Promise<FormReply> {
    const r = await new Promise<Reply | null>((resolve) => this.open.set(callId, { turnId, question, resolve, check }));
    return r && !('text' in r) ? r : { refused: 'cancel' };
  }

  /** The person's answer: text, the choices picked, or a form's fields; or a form refused. Refused when it does not fit the question. */
  answer(callId: string, answer: AnswerInput | undefined, refuse?: 'decline' | 'cancel'): Outcome {
    const w = this.open.get(callId);
    if (!w)
      return failure(
        'invalid_state',
        'that question is not waiting for an answer (it was answered, or its turn ended)',
      );
    const reply = w.question.form ? formReply(w, answer, refuse) : textReply(w.question, answer, refuse);
    if (!reply.ok) return reply;
    this.open.delete(callId);
    w.resolve(reply.reply);
    return { ok: true };
  }

  /** Ends one question unanswered (its call ended, or its server withdrew it). */
  cancelOne(callId: string): void {
    const w = this.open.get(callId);
    if (!w) return;
    this.open.delete(callId);
    w.resolve(null);
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

function formReply(
  w: Waiting,
  answer: AnswerInput | undefined,
  refuse: 'decline' | 'cancel' | undefined,
): Outcome<{ reply: Reply }> {
  if (refuse) return { ok: true, reply: { refused: refuse } };
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer))
    return failure('invalid_input', 'this question is a form: send its fields, or decline');
  const bad = w.check?.(answer);
  if (bad) return failure('invalid_input', bad);
  return { ok: true, reply: { content: answer } };
}

function textReply(
  q: Question,
  answer: AnswerInput | undefined,
  refuse: 'decline' | 'cancel' | undefined,
): Outcome<{ reply: Reply }> {
  if (refuse || answer === undefined)
    return failure('invalid_input', 'this question waits for an answer; Stop ends it');
  if (typeof answer === 'object' && !Array.isArray(answer))
    return failure('invalid_input', 'this question takes words or choices, not a form');
  const picked = Array.isArray(answer) ? answer : [answer];
  const { choices, multiple } = q;
  if (picked.length === 0 || picked.some((a) => !a.trim())) return failure('invalid_input', 'the answer is empty');
  if (choices?.length) {
    const unknown = picked.filter((a) => !choices.includes(a));
    if (unknown.length > 0) return failure('invalid_input', `not one of the choices: ${unknown.join(', ')}`);
    if (!multiple && picked.length > 1) return failure('invalid_input', 'pick one of the choices');
  } else if (picked.length > 1) return failure('invalid_input', 'this question takes one answer in words');
  return { ok: true, reply: { text: picked.join(', ') } };
}
