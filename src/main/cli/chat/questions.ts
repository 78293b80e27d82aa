/**
 * A model's question (ask_user) as `plugboard chat` asks it on a terminal: the question with its
 * choices numbered, and the line typed read back as the answer chat.answer takes. A choice is
 * picked by its number or its text (case aside); several, where the question allows them, are
 * separated by commas. A line that fits no choice is refused here with what to type, so the
 * person can try again before anything reaches the back end.
 */
import type { Question } from '../../../shared/assistant';
import { failure, type Outcome } from '../../../shared/failures';

/** The lines shown before the answer prompt. */
export function questionText(q: Question): string {
  const lines = [`? ${q.question}`];
  q.choices?.forEach((c, i) => lines.push(`  ${i + 1}. ${c}`));
  return `${lines.join('\n')}\n`;
}

/** The prompt the answer is typed after. */
export function answerPrompt(q: Question): string {
  if (!q.choices?.length) return 'answer › ';
  return q.multiple ? `numbers or choices, separated by commas › ` : `number or choice › `;
}

export type ReadAnswer = Outcome<{ answer: string | string[] }>;

export function readAnswer(q: Question, line: string): ReadAnswer {
  const typed = line.trim();
  if (!typed) return failure('invalid_input', 'the answer is empty');
  const choices = q.choices ?? [];
  if (choices.length === 0) return { ok: true, answer: typed };
  // A choice may itself contain a comma: the whole line is tried as one choice first.
  const whole = pick(choices, typed);
  if (whole !== undefined) return { ok: true, answer: q.multiple ? [whole] : whole };
  if (!q.multiple) return failure('invalid_input', `type a number from 1 to ${choices.length}, or one of the choices`);
  const parts = typed
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const picked: string[] = [];
  for (const p of parts) {
    const c = pick(choices, p);
    if (c === undefined)
      return failure(
        'invalid_input',
        `"${p}" is not one of the choices: type numbers from 1 to ${choices.length}, or the choices, separated by commas`,
      );
    if (!picked.includes(c)) picked.push(c);
  }
  return { ok: true, answer: picked };
}

function pick(choices: readonly string[], typed: string): string | undefined {
  if (/^\d+$/.test(typed)) return choices[Number(typed) - 1];
  const lower = typed.toLowerCase();
  return choices.find((c) => c.toLowerCase() === lower);
}
