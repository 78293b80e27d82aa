/**
 * How each failure a model service can send surfaces through the real AI SDK, for the three
 * provider packages alike: HTTP errors in each provider's real format (the SDK's APICallError with
 * statusCode, isRetryable, responseHeaders, data), the SDK's own retries, a stream cut mid-way, an
 * error event inside a stream, and a request that never answers until the client stops it. The
 * scripted server stands in for the model services, which cannot be reached from these machines.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, RetryError, streamText, type LanguageModel } from 'ai';
import { describe, expect } from 'vitest';
import { test } from './fixture';
import { drain, ofType, textOf } from './sdk';
import type { ModelServer } from './server';
import { fail, text } from './steps';

interface Provider {
  name: string;
  model(server: ModelServer): LanguageModel;
  /** Status of the "overloaded" failure: 503 for OpenAI, 529 for Anthropic. */
  overloaded: number;
  contextMessage: RegExp;
}

const PROVIDERS: Provider[] = [
  {
    name: 'openai-compatible',
    model: (s) => createOpenAICompatible({ name: 'lmstudio', baseURL: s.baseURL, includeUsage: true })('qwen3'),
    overloaded: 503,
    contextMessage: /maximum context length is 128000 tokens/,
  },
  {
    name: 'openai',
    model: (s) => createOpenAI({ baseURL: s.baseURL, apiKey: 'sk-t' }).chat('gpt-4.1'),
    overloaded: 503,
    contextMessage: /maximum context length/,
  },
  {
    name: 'anthropic',
    model: (s) => createAnthropic({ baseURL: s.baseURL, apiKey: 'sk-ant-t' })('claude-sonnet-4-5'),
    overloaded: 529,
    contextMessage: /^prompt is too long/,
  },
];

/** Runs one streamText call and returns what the stream and onError saw. */
async function run(server: ModelServer, p: Provider, options: { maxRetries?: number; abortSignal?: AbortSignal } = {}) {
  const errors: unknown[] = [];
  const result = streamText({
    model: p.model(server),
    prompt: 'hello',
    maxOutputTokens: 256,
    onError: ({ error }) => void errors.push(error),
    ...options,
  });
  return { ...(await drain(result.fullStream)), errors };
}

function apiError(value: unknown): APICallError {
  expect(APICallError.isInstance(value), `expected an APICallError, got ${String(value)}`).toBe(true);
  return value as APICallError;
}

describe.each(PROVIDERS)('$name', (p) => {
  test.for([
    ['unauthorized', 401],
    ['forbidden', 403],
  ] as const)(
    '%s: an APICallError with status %i, not retried even with the default retries',
    async ([kind, status], { modelServer }) => {
      modelServer.script(fail(kind));
      const { parts, thrown, errors } = await run(modelServer, p);
      expect(thrown).toBeUndefined();
      const error = apiError(ofType(parts, 'error')[0]!.error);
      expect(error).toMatchObject({ statusCode: status, isRetryable: false });
      expect(errors).toEqual([error]);
      expect(modelServer.modelCalls).toHaveLength(1);
    },
  );

  test('rate-limited: 429, retryable, with retry-after readable from responseHeaders', async ({ modelServer }) => {
    modelServer.script(fail('rate-limited', { retryAfter: 7 }));
    const error = apiError(ofType((await run(modelServer, p, { maxRetries: 0 })).parts, 'error')[0]!.error);
    expect(error).toMatchObject({ statusCode: 429, isRetryable: true });
    expect(error.responseHeaders?.['retry-after']).toBe('7');
  });

  test('server errors: 500 and the provider’s overloaded status, both retryable', async ({ modelServer }) => {
    modelServer.script(fail('server-error'), fail('overloaded'));
    const first = apiError(ofType((await run(modelServer, p, { maxRetries: 0 })).parts, 'error')[0]!.error);
    const second = apiError(ofType((await run(modelServer, p, { maxRetries: 0 })).parts, 'error')[0]!.error);
    expect([first.statusCode, first.isRetryable, second.statusCode, second.isRetryable]).toEqual([
      500,
      true,
      p.overloaded,
      true,
    ]);
  });

  test('context too long: a 400 in the provider’s words, not retryable', async ({ modelServer }) => {
    modelServer.script(fail('context-too-long'));
    const error = apiError(ofType((await run(modelServer, p)).parts, 'error')[0]!.error);
    expect(error).toMatchObject({ statusCode: 400, isRetryable: false });
    expect(error.message).toMatch(p.contextMessage);
    expect(error.data).toMatchObject(
      p.name === 'anthropic'
        ? { type: 'error', error: { type: 'invalid_request_error' } }
        : { error: { code: 'context_length_exceeded' } },
    );
    expect(modelServer.modelCalls).toHaveLength(1);
  });

  test('by default the SDK retries a retryable failure twice, honouring retry-after, then gives up with a RetryError', async ({
    modelServer,
  }) => {
    modelServer.script(...[1, 2, 3].map(() => fail('rate-limited', { retryAfter: 0 })));
    const { parts } = await run(modelServer, p);
    const error = ofType(parts, 'error')[0]!.error;
    expect(RetryError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      reason: 'maxRetriesExceeded',
      errors: [expect.anything(), expect.anything(), expect.anything()],
    });
    expect(apiError((error as RetryError).lastError).statusCode).toBe(429);
    expect(modelServer.modelCalls).toHaveLength(3);
  });

  test('a retry that then succeeds shows no error at all', async ({ modelServer }) => {
    modelServer.script(fail('overloaded', { retryAfter: 0 }), text('fine now'));
    const { parts, errors } = await run(modelServer, p);
    expect(textOf(parts)).toEqual(['fine now']);
    expect(errors).toEqual([]);
    expect(modelServer.modelCalls).toHaveLength(2);
  });

  test('a stream cut mid-way: the chunks before arrive, then iterating fullStream throws', async ({ modelServer }) => {
    modelServer.script({ type: 'reply', text: ['one ', 'two ', 'three'], cutAfterChunks: 2 });
    const { parts, thrown } = await run(modelServer, p);
    expect(textOf(parts)).toEqual(['one ', 'two ']);
    // Not an error part: the read of the body fails, and the iterator rethrows it.
    expect(apiError(thrown)).toMatchObject({
      message: 'Failed to process successful response',
      statusCode: 200,
      isRetryable: true,
    });
    expect(String((thrown as Error).cause)).toMatch(/terminated/);
    expect(modelServer.modelCalls[0]!.outcome).toBe('cut');
  });

  test('an error event inside the stream: an error part, then a finish with reason error', async ({ modelServer }) => {
    modelServer.script({ type: 'reply', text: ['partial ', 'answer'], errorAfterChunks: 1 });
    const { parts, thrown } = await run(modelServer, p);
    expect(thrown).toBeUndefined();
    expect(textOf(parts)).toEqual(['partial ']);
    expect(ofType(parts, 'error')).toHaveLength(1);
    expect(ofType(parts, 'finish')[0]).toMatchObject({ finishReason: 'error' });
  });

  test('a model that never answers: Stop aborts it, the stream ends with an abort part', async ({ modelServer }) => {
    modelServer.script({ type: 'hang' });
    const stop = new AbortController();
    const pending = run(modelServer, p, { abortSignal: stop.signal });
    await modelServer.waitForModelCalls(1);
    stop.abort();
    const { parts, thrown, errors } = await pending;
    expect(thrown).toBeUndefined();
    expect(parts.map((x) => x.type)).toEqual(['start', 'abort']);
    expect(errors).toEqual([]);
    await modelServer.waitFor(() => modelServer.modelCalls[0]!.outcome === 'client-closed', 'the client to hang up');
  });
});
