/**
 * One request to a model: the conversation so far and the offered tools go out, text streams into
 * the answer as it comes, and each tool call the model asks for is handed over as soon as it is
 * whole (valid ones, and invalid ones the SDK refused: an unknown or switched-off tool, arguments
 * that are not JSON or fail the schema), so it can start while the answer goes on. What comes
 * back is the tokens it cost, or why it failed. The SDK's retries are off: a rate
 * limit or a failure goes to the person, with Retry, instead of a silent wait.
 */
import { NoSuchToolError, streamText, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import type { TokenUsage } from '../../../shared/assistant';
import { describeModelError, type ModelProblem } from '../models/errors';

export interface StepCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  /** Set when the SDK refused the call: the model gets an error result, nothing runs. */
  invalid?: { kind: 'unknown-tool' | 'bad-input'; message: string };
}

export type StepResult =
  | { kind: 'answered'; usage: TokenUsage }
  | { kind: 'failed'; problem: ModelProblem; usage: TokenUsage }
  | { kind: 'stopped'; usage: TokenUsage };

export interface StepInput {
  model: LanguageModel;
  /** Names the model in failures ("Local Llama (http://…)"). */
  where: string;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  signal: AbortSignal;
  onText(delta: string): void;
  onToolCall(call: StepCall): void;
}

/** Tokens a model may write in one answer (Anthropic requires a figure). */
const MAX_OUTPUT_TOKENS = 4096;
/** A model that sends nothing for this long mid-answer is stopped: the person sees why. */
const CHUNK_TIMEOUT_MS = 120_000;

/** The request settings every step uses (the benchmark's SDK-alone baseline uses them too). */
export const STEP_SETTINGS = {
  // A rate limit or a failure goes to the person, with Retry, instead of a silent wait.
  maxRetries: 0,
  maxOutputTokens: MAX_OUTPUT_TOKENS,
  timeout: { chunkMs: CHUNK_TIMEOUT_MS },
} as const;

export async function runStep(input: StepInput): Promise<StepResult> {
  let usage: TokenUsage = { inputTokens: null, outputTokens: null };
  const result = streamText({
    model: input.model,
    system: input.system,
    messages: input.messages,
    tools: input.tools,
    abortSignal: input.signal,
    ...STEP_SETTINGS,
    // The default logs to the console; failures come as parts below.
    onError: () => undefined,
  });
  try {
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          input.onText(part.text);
          break;
        case 'tool-call':
          if (part.invalid) {
            const unknown = NoSuchToolError.isInstance(part.error);
            input.onToolCall({
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              input: part.input,
              invalid: { kind: unknown ? 'unknown-tool' : 'bad-input', message: messageOf(part.error) },
            });
          } else input.onToolCall({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
          break;
        case 'finish':
          usage = {
            inputTokens: part.totalUsage.inputTokens ?? null,
            outputTokens: part.totalUsage.outputTokens ?? null,
          };
          break;
        case 'error':
          return { kind: 'failed', problem: describeModelError(part.error, input.where), usage };
        case 'abort':
          // Stop, or a model gone quiet past the chunk timeout.
          if (input.signal.aborted) return { kind: 'stopped', usage };
          return {
            kind: 'failed',
            problem: describeModelError({ message: `sent nothing for ${CHUNK_TIMEOUT_MS / 1000} s` }, input.where),
            usage,
          };
      }
    }
  } catch (e) {
    // A connection cut mid-answer throws from the iterator: no error part comes for it.
    if (input.signal.aborted) return { kind: 'stopped', usage };
    return { kind: 'failed', problem: describeModelError(e, input.where), usage };
  }
  return { kind: 'answered', usage };
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : typeof e === 'string' ? e : 'the call could not be read';
}
