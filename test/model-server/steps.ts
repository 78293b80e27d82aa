/**
 * What the scripted model answers: one step per model request. A step is plain JSON, so another
 * process can send it over the control endpoint or in a script file; in-process a step may also be
 * a function of the recorded request (to answer the tool result it was sent, say).
 *
 * The step says what the model "generates" in provider-neutral terms (text chunks, tool calls,
 * usage, a finish reason) or how the call fails; each wire module renders it in its provider's
 * own format, so one script serves OpenAI, OpenAI-compatible and Anthropic clients alike.
 */
import { z } from 'zod';
import type { RecordedRequest } from './requests';

const usageSchema = z.strictObject({
  input: z.number().int().nonnegative(),
  output: z.number().int().nonnegative(),
});

const toolCallSchema = z.strictObject({
  /** The call's id on the wire; generated in the provider's style when absent. */
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  /** An object is sent as its JSON text; a string is sent as it is (so it can be malformed JSON). */
  arguments: z.union([z.record(z.string(), z.unknown()), z.string()]),
  /** How many pieces the arguments text is streamed in. Default 3. */
  fragments: z.number().int().positive().optional(),
});

const chunkCount = z.number().int().nonnegative();

const replySchema = z.strictObject({
  type: z.literal('reply'),
  /**
   * Text, streamed one chunk per element. `{{last_tool_result}}` and `{{last_user_text}}` are
   * replaced with what the request carried, so a JSON script can echo a tool's result.
   */
  text: z.union([z.string(), z.array(z.string())]).optional(),
  /** One or several (parallel) tool calls, after the text. */
  toolCalls: z.array(toolCallSchema).optional(),
  /** Default: 'tool-calls' when there are tool calls, else 'stop'. */
  finish: z.enum(['stop', 'tool-calls', 'length']).optional(),
  /** Default: input = request bytes / 4, output = number of chunks. */
  usage: usageSchema.optional(),
  /**
   * Send no token counts even when asked (OpenAI-compatible servers that ignore
   * `stream_options.include_usage`). Anthropic's format always carries them: there it is ignored.
   */
  noUsage: z.boolean().optional(),
  /** Pause before every chunk after the first (text chunks and tool-argument fragments alike). */
  chunkDelayMs: z.number().int().nonnegative().optional(),
  /** Stream this many chunks, then send nothing more until the client goes away (Stop). */
  stallAfterChunks: chunkCount.optional(),
  /** Stream this many chunks, then destroy the socket (a dropped connection). */
  cutAfterChunks: chunkCount.optional(),
  /** Stream this many chunks, then an in-stream error event (an overloaded server), and end. */
  errorAfterChunks: chunkCount.optional(),
});

export const FAILURE_KINDS = [
  'unauthorized',
  'forbidden',
  'rate-limited',
  'server-error',
  'overloaded',
  'context-too-long',
] as const;

const failureSchema = z.strictObject({
  type: z.literal('error'),
  /** Rendered as the provider's own status and error body (see the wire modules). */
  error: z.enum(FAILURE_KINDS),
  /** Overrides the kind's usual status (500 vs 503, say). */
  status: z.number().int().min(400).max(599).optional(),
  /** Sent as the `retry-after` header: seconds, or an HTTP date. */
  retryAfter: z.union([z.number().nonnegative(), z.string().min(1)]).optional(),
  /** Overrides the provider's usual message. */
  message: z.string().min(1).optional(),
});

/** Never answers; the request stays open until the client aborts or the server closes. */
const hangSchema = z.strictObject({ type: z.literal('hang') });

export const stepSchema = z.discriminatedUnion('type', [replySchema, failureSchema, hangSchema]);

export type Step = z.infer<typeof stepSchema>;
export type ReplyStep = z.infer<typeof replySchema>;
export type FailureStep = z.infer<typeof failureSchema>;
export type FailureKind = FailureStep['error'];
export type StepFn = (request: RecordedRequest) => Step | Promise<Step>;
export type ScriptStep = Step | StepFn;

/** What the control endpoint and script files accept. */
export const scriptSchema = z.strictObject({
  steps: z.array(stepSchema).default([]),
  /** Answer for requests that find the queue empty; without one they get a 500 that says so. */
  fallback: stepSchema.optional(),
  /** Clear the queue (and the fallback) before adding these steps. */
  replace: z.boolean().optional(),
});

export type ScriptInput = z.input<typeof scriptSchema>;

/** Shorthand for the common case: a text reply streamed in the given chunks. */
export function text(...chunks: string[]): ReplyStep {
  return { type: 'reply', text: chunks };
}

/** Shorthand: a reply that calls the given tools (in parallel when several). */
export function toolCalls(...calls: NonNullable<ReplyStep['toolCalls']>): ReplyStep {
  return { type: 'reply', toolCalls: calls };
}

/** Shorthand: a failure rendered in the provider's format. */
export function fail(error: FailureKind, extra: Omit<FailureStep, 'type' | 'error'> = {}): FailureStep {
  return { type: 'error', error, ...extra };
}
