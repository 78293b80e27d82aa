/**
 * OpenAI Chat Completions on the wire, as OpenAI and the OpenAI-compatible servers (Ollama's /v1,
 * LM Studio, llama.cpp's server, vLLM, Jan, OpenRouter) send it: `chat.completion.chunk` SSE
 * lines with `choices[0].delta`, tool calls announced by index with their arguments streamed in
 * pieces, a usage chunk when `stream_options.include_usage` asks for one, then `[DONE]`; the
 * non-streaming `chat.completion`; `/v1/models`; and OpenAI's error bodies.
 */
import type { Frame, JsonAnswer, Plan } from './plan';
import type { FailureStep } from './steps';

export interface OpenAIContext {
  id: string;
  model: string;
  created: number;
  includeUsage: boolean;
}

const FINISH = { stop: 'stop', 'tool-calls': 'tool_calls', length: 'length' } as const;

function usage(plan: Plan) {
  const { input, output } = plan.usage;
  return {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function sse(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

export function openaiStream(plan: Plan, ctx: OpenAIContext): { frames: Frame[]; errorFrame: string } {
  const chunk = (choice: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) => ({
    id: ctx.id,
    object: 'chat.completion.chunk',
    created: ctx.created,
    model: ctx.model,
    system_fingerprint: 'fp_scripted',
    choices: choice ? [{ index: 0, logprobs: null, finish_reason: null, ...choice }] : [],
    // With include_usage, every chunk but the last carries `usage: null`.
    ...(ctx.includeUsage ? { usage: null } : {}),
    ...extra,
  });
  const frames: Frame[] = [
    { data: sse(chunk({ delta: { role: 'assistant', content: '', refusal: null } })), chunk: false },
  ];
  for (const text of plan.textChunks) frames.push({ data: sse(chunk({ delta: { content: text } })), chunk: true });
  // OpenAI streams parallel calls one after the other: each opens with its id and name and empty
  // arguments, then the arguments follow in pieces under the same index.
  for (const call of plan.toolCalls) {
    const open = { index: call.index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
    frames.push({ data: sse(chunk({ delta: { tool_calls: [open] } })), chunk: false });
    for (const piece of call.fragments) {
      frames.push({
        data: sse(chunk({ delta: { tool_calls: [{ index: call.index, function: { arguments: piece } }] } })),
        chunk: true,
      });
    }
  }
  frames.push({ data: sse(chunk({ delta: {}, finish_reason: FINISH[plan.finish] })), chunk: false });
  if (ctx.includeUsage && !plan.noUsage)
    frames.push({ data: sse(chunk(undefined, { usage: usage(plan) })), chunk: false });
  frames.push({ data: 'data: [DONE]\n\n', chunk: false });
  const errorFrame = sse({
    error: {
      message: 'The server had an error while processing your request. Sorry about that!',
      type: 'server_error',
      param: null,
      code: null,
    },
  });
  return { frames, errorFrame };
}

export function openaiCompletion(plan: Plan, ctx: OpenAIContext): JsonAnswer {
  const text = plan.textChunks.join('');
  const toolCalls = plan.toolCalls.map((c) => ({
    id: c.id,
    type: 'function',
    function: { name: c.name, arguments: c.argumentsText },
  }));
  const message = {
    role: 'assistant',
    content: text === '' && toolCalls.length > 0 ? null : text,
    refusal: null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
  return {
    status: 200,
    body: {
      id: ctx.id,
      object: 'chat.completion',
      created: ctx.created,
      model: ctx.model,
      system_fingerprint: 'fp_scripted',
      choices: [{ index: 0, message, logprobs: null, finish_reason: FINISH[plan.finish] }],
      usage: usage(plan),
    },
  };
}

function errorBody(message: string, type: string, code: string | null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

/** The status and body OpenAI answers each kind of failure with. */
export function openaiFailure(step: FailureStep, model: string): JsonAnswer {
  const headers: Record<string, string> = {};
  if (step.retryAfter !== undefined) headers['retry-after'] = String(step.retryAfter);
  const said = (usual: string) => step.message ?? usual;
  switch (step.error) {
    case 'unauthorized':
      return {
        status: step.status ?? 401,
        headers,
        body: errorBody(
          said(
            'Incorrect API key provided: sk-scr***ted. You can find your API key at https://platform.openai.com/account/api-keys.',
          ),
          'invalid_request_error',
          'invalid_api_key',
        ),
      };
    case 'forbidden':
      return {
        status: step.status ?? 403,
        headers,
        body: errorBody(
          said(`Project \`proj_scripted\` does not have access to model \`${model}\``),
          'invalid_request_error',
          'model_not_found',
        ),
      };
    case 'rate-limited':
      Object.assign(headers, {
        'x-ratelimit-limit-requests': '3',
        'x-ratelimit-remaining-requests': '0',
        'x-ratelimit-reset-requests': '20s',
      });
      return {
        status: step.status ?? 429,
        headers,
        body: errorBody(
          said(
            `Rate limit reached for ${model} in organization org-scripted on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
          ),
          'requests',
          'rate_limit_exceeded',
        ),
      };
    case 'server-error':
      return {
        status: step.status ?? 500,
        headers,
        body: errorBody(
          said('The server had an error while processing your request. Sorry about that!'),
          'server_error',
          null,
        ),
      };
    case 'overloaded':
      return {
        status: step.status ?? 503,
        headers,
        body: errorBody(said('The engine is currently overloaded, please try again later.'), 'server_error', null),
      };
    case 'context-too-long':
      return {
        status: step.status ?? 400,
        headers,
        body: errorBody(
          said(
            "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
          ),
          'invalid_request_error',
          'context_length_exceeded',
          'messages',
        ),
      };
  }
}

/** What OpenAI answers a key it does not know, or a request with none. */
export function openaiUnauthorized(authorization: string | undefined): JsonAnswer {
  if (authorization === undefined || !authorization.startsWith('Bearer ')) {
    return {
      status: 401,
      body: errorBody(
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
        'invalid_request_error',
        null,
      ),
    };
  }
  const key = authorization.slice('Bearer '.length);
  const shown = key.length > 8 ? `${key.slice(0, 3)}***${key.slice(-4)}` : '***';
  return {
    status: 401,
    body: errorBody(
      `Incorrect API key provided: ${shown}. You can find your API key at https://platform.openai.com/account/api-keys.`,
      'invalid_request_error',
      'invalid_api_key',
    ),
  };
}

export function openaiBadRequest(message: string, param: string | null = null): JsonAnswer {
  return { status: 400, body: errorBody(message, 'invalid_request_error', null, param) };
}

/** OpenAI's answer to a path it does not serve (the Responses API here, say). */
export function openaiNotFound(method: string, path: string): JsonAnswer {
  return { status: 404, body: errorBody(`Invalid URL (${method} ${path})`, 'invalid_request_error', null) };
}

export function openaiModels(models: readonly string[]): JsonAnswer {
  return {
    status: 200,
    body: {
      object: 'list',
      data: models.map((id) => ({ id, object: 'model', created: 1_735_689_600, owned_by: 'scripted' })),
    },
  };
}
