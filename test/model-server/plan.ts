/**
 * Turns a reply step into a plan both wires render: the text chunks, the tool calls with their
 * argument text cut into fragments, the finish reason and the usage numbers, with every default
 * filled in, so the wire modules only decide how each piece looks on the wire.
 */
import { randomBytes } from 'node:crypto';
import { fillTemplates, type RecordedRequest } from './requests';
import type { ReplyStep } from './steps';

export interface PlannedToolCall {
  index: number;
  id: string;
  name: string;
  /** The whole arguments text, exactly as the model "wrote" it (possibly malformed). */
  argumentsText: string;
  fragments: string[];
}

export interface Plan {
  textChunks: string[];
  toolCalls: PlannedToolCall[];
  finish: 'stop' | 'tool-calls' | 'length';
  usage: { input: number; output: number };
  /** The OpenAI wire leaves the usage chunk out. */
  noUsage: boolean;
  chunkDelayMs: number;
  stallAfterChunks?: number;
  cutAfterChunks?: number;
  errorAfterChunks?: number;
}

/** Provider-style random ids: `call_…` for OpenAI, `toolu_…` for Anthropic. */
export function wireId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}

/** Cuts `text` into `n` nearly equal non-empty pieces (fewer when it is shorter than `n`). */
export function fragment(text: string, n: number): string[] {
  if (text.length <= 1 || n <= 1) return [text];
  const count = Math.min(n, text.length);
  const size = Math.ceil(text.length / count);
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

export function planReply(step: ReplyStep, req: RecordedRequest, idPrefix: string): Plan {
  const raw = step.text === undefined ? [] : typeof step.text === 'string' ? [step.text] : step.text;
  const textChunks = raw.map((t) => fillTemplates(t, req));
  const toolCalls = (step.toolCalls ?? []).map((c, index) => {
    const argumentsText = typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments);
    return {
      index,
      id: c.id ?? wireId(idPrefix),
      name: c.name,
      argumentsText,
      fragments: fragment(argumentsText, c.fragments ?? 3),
    };
  });
  const chunks = textChunks.length + toolCalls.reduce((n, c) => n + c.fragments.length, 0);
  return {
    textChunks,
    toolCalls,
    finish: step.finish ?? (toolCalls.length > 0 ? 'tool-calls' : 'stop'),
    // Roughly four bytes a token: plausible numbers when a test does not care about them.
    usage: step.usage ?? { input: Math.ceil(req.rawBody.length / 4), output: chunks },
    noUsage: step.noUsage === true,
    chunkDelayMs: step.chunkDelayMs ?? 0,
    stallAfterChunks: step.stallAfterChunks,
    cutAfterChunks: step.cutAfterChunks,
    errorAfterChunks: step.errorAfterChunks,
  };
}

/** One piece of a streamed answer; `chunk` marks the pieces that count as generated chunks. */
export interface Frame {
  data: string;
  chunk: boolean;
}

/** An HTTP answer that is not a stream: a status, extra headers and a JSON body. */
export interface JsonAnswer {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}
