/**
 * Anthropic Messages on the wire: named SSE events (message_start, content_block_start for text
 * and tool_use blocks, content_block_delta with text_delta or input_json_delta pieces,
 * content_block_stop, message_delta with the stop reason and output usage, message_stop, ping
 * after the first block opens), the non-streaming `message`, `/v1/models` in Anthropic's shape,
 * and Anthropic's error bodies (`{type:'error', error:{type, message}, request_id}`).
 */
import { randomBytes } from 'node:crypto';
import type { Frame, JsonAnswer, Plan } from './plan';
import type { FailureStep } from './steps';

export interface AnthropicContext {
  id: string;
  model: string;
}

const STOP = { stop: 'end_turn', 'tool-calls': 'tool_use', length: 'max_tokens' } as const;

function event(type: string, value: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...value })}\n\n`;
}

export function anthropicStream(plan: Plan, ctx: AnthropicContext): { frames: Frame[]; errorFrame: string } {
  const frames: Frame[] = [];
  const push = (type: string, value: Record<string, unknown>, chunk = false) =>
    frames.push({ data: event(type, value), chunk });
  push('message_start', {
    message: {
      id: ctx.id,
      type: 'message',
      role: 'assistant',
      model: ctx.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: plan.usage.input,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 1,
      },
    },
  });
  let index = 0;
  let pinged = false;
  const open = (block: Record<string, unknown>) => {
    push('content_block_start', { index, content_block: block });
    // The real API sends its first ping right after the first block opens.
    if (!pinged) push('ping', {});
    pinged = true;
  };
  if (plan.textChunks.length > 0) {
    open({ type: 'text', text: '' });
    for (const text of plan.textChunks)
      push('content_block_delta', { index, delta: { type: 'text_delta', text } }, true);
    push('content_block_stop', { index });
    index++;
  }
  for (const call of plan.toolCalls) {
    open({ type: 'tool_use', id: call.id, name: call.name, input: {} });
    push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } });
    for (const piece of call.fragments)
      push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: piece } }, true);
    push('content_block_stop', { index });
    index++;
  }
  if (!pinged) push('ping', {});
  push('message_delta', {
    delta: { stop_reason: STOP[plan.finish], stop_sequence: null },
    usage: { output_tokens: plan.usage.output },
  });
  push('message_stop', {});
  return { frames, errorFrame: event('error', { error: { type: 'overloaded_error', message: 'Overloaded' } }) };
}

function parsedOrRaw(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function anthropicMessage(plan: Plan, ctx: AnthropicContext): JsonAnswer {
  const text = plan.textChunks.join('');
  const content = [
    ...(text === '' ? [] : [{ type: 'text', text }]),
    // Outside a stream the input is an object; arguments scripted as malformed JSON stay a string.
    ...plan.toolCalls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: parsedOrRaw(c.argumentsText) })),
  ];
  return {
    status: 200,
    body: {
      id: ctx.id,
      type: 'message',
      role: 'assistant',
      model: ctx.model,
      content,
      stop_reason: STOP[plan.finish],
      stop_sequence: null,
      usage: {
        input_tokens: plan.usage.input,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: plan.usage.output,
      },
    },
  };
}

function errorAnswer(status: number, type: string, message: string, headers: Record<string, string> = {}): JsonAnswer {
  return {
    status,
    headers,
    body: { type: 'error', error: { type, message }, request_id: `req_${randomBytes(12).toString('hex')}` },
  };
}

/** The status and body Anthropic answers each kind of failure with. */
export function anthropicFailure(step: FailureStep): JsonAnswer {
  const headers: Record<string, string> = {};
  if (step.retryAfter !== undefined) headers['retry-after'] = String(step.retryAfter);
  const said = (usual: string) => step.message ?? usual;
  switch (step.error) {
    case 'unauthorized':
      return errorAnswer(step.status ?? 401, 'authentication_error', said('invalid x-api-key'), headers);
    case 'forbidden':
      return errorAnswer(
        step.status ?? 403,
        'permission_error',
        said('Your API key does not have permission to use the specified resource.'),
        headers,
      );
    case 'rate-limited':
      Object.assign(headers, {
        'anthropic-ratelimit-requests-limit': '50',
        'anthropic-ratelimit-requests-remaining': '0',
      });
      return errorAnswer(
        step.status ?? 429,
        'rate_limit_error',
        said(
          'Number of request tokens has exceeded your per-minute rate limit (https://docs.claude.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.',
        ),
        headers,
      );
    case 'server-error':
      return errorAnswer(step.status ?? 500, 'api_error', said('Internal server error'), headers);
    case 'overloaded':
      // Anthropic's "overloaded" status is 529, not 503.
      return errorAnswer(step.status ?? 529, 'overloaded_error', said('Overloaded'), headers);
    case 'context-too-long':
      return errorAnswer(
        step.status ?? 400,
        'invalid_request_error',
        said('prompt is too long: 208310 tokens > 200000 maximum'),
        headers,
      );
  }
}

/** Anthropic's answers to a request without the version header, or without a key it knows. */
export function anthropicMissingVersion(): JsonAnswer {
  return errorAnswer(400, 'invalid_request_error', 'anthropic-version: header is required');
}

export function anthropicUnauthorized(apiKey: string | undefined): JsonAnswer {
  return errorAnswer(
    401,
    'authentication_error',
    apiKey === undefined ? 'x-api-key header is required' : 'invalid x-api-key',
  );
}

export function anthropicBadRequest(message: string): JsonAnswer {
  return errorAnswer(400, 'invalid_request_error', message);
}

export function anthropicNotFound(): JsonAnswer {
  return errorAnswer(404, 'not_found_error', 'Not Found');
}

export function anthropicModels(models: readonly string[]): JsonAnswer {
  const data = models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }));
  return {
    status: 200,
    body: { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null },
  };
}
