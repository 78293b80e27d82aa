/**
 * Token estimates, where a provider gives no counts and for what a request will carry before it
 * is sent. About four characters a token is the rule of thumb for English text and JSON under the
 * BPE tokenizers of OpenAI and Anthropic; each provider (and most local models) has a tokenizer of
 * its own, so an exact count would need one per model. Every estimate is shown as one.
 */
import type { TokenUsage } from '../../../shared/assistant';
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** Two requests' tokens together; a count neither reported stays unknown, an estimate taints the sum. */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const add = (x: number | null, y: number | null): number | null => (x === null ? y : y === null ? x : x + y);
  const estimated = a.estimated === true || b.estimated === true;
  return {
    inputTokens: add(a.inputTokens, b.inputTokens),
    outputTokens: add(a.outputTokens, b.outputTokens),
    ...(estimated ? { estimated } : {}),
  };
}

/** Characters of each schema as JSON, by the schema object (the registry hands out the same one). */
const schemaChars = new WeakMap<object, number>();

/** What a tool's declaration adds to every request that offers it: its name, description and schema. */
export function declarationTokens(t: {
  qualifiedName: string;
  description: string;
  parameters: Record<string, unknown>;
}): number {
  let chars = schemaChars.get(t.parameters);
  if (chars === undefined) {
    chars = JSON.stringify(t.parameters).length;
    schemaChars.set(t.parameters, chars);
  }
  // The envelope around each function in the wire formats ({"type":"function","function":{…}}).
  return estimateTokens(chars + t.qualifiedName.length + t.description.length + 48);
}

/** The tokens a conversation's answers took, summed: one sum for the server and the renderer. */
export { tokensOf } from '../../../shared/token-totals';
