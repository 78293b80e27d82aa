/**
 * What a model gets back from a tool, bounded: a long output keeps its head and its tail with a
 * line between them that says how much was cut, so the model sees both what the tool set out to
 * do and how it ended, and one tool cannot fill the model's context. The card in the chat keeps
 * the full (2 MiB-bounded) output.
 */

/** Characters of a tool's output a model gets at most. */
export const MODEL_RESULT_CHARS = 16_000;

export function boundForModel(text: string, max = MODEL_RESULT_CHARS): { text: string; cut: number } {
  if (text.length <= max) return { text, cut: 0 };
  const head = Math.floor(max * 0.75);
  const tail = max - head;
  const cut = text.length - head - tail;
  return {
    text: `${text.slice(0, head)}\n… [${cut} characters cut from the tool's output] …\n${text.slice(text.length - tail)}`,
    cut,
  };
}
