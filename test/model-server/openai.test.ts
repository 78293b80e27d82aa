/**
 * The real AI SDK with @ai-sdk/openai against the scripted server. `.chat(id)` speaks Chat
 * Completions; the provider's default model speaks the Responses API, which the scripted server
 * (like every OpenAI-compatible local server) does not serve. The server stands in for OpenAI,
 * which cannot be reached from these machines.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { APICallError, streamText, tool } from 'ai';
import { expect } from 'vitest';
import { test } from './fixture';
import { drain, ofType, pathInput, textOf } from './sdk';
import type { ModelServer } from './server';

const noLog = () => {};

function openai(server: ModelServer) {
  return createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-openai-test', organization: 'org-plugboard' });
}

test('.chat() streams text and a tool call over Chat Completions, always asking for usage', async ({ modelServer }) => {
  modelServer.script({
    type: 'reply',
    text: ['Checking', '…'],
    toolCalls: [{ id: 'call_9', name: 'read_file', arguments: { path: '/x' } }],
    usage: { input: 50, output: 9 },
  });
  const result = streamText({
    model: openai(modelServer).chat('gpt-4.1-mini'),
    prompt: 'x',
    tools: { read_file: tool({ inputSchema: pathInput }) },
    onError: noLog,
  });
  const { parts, thrown } = await drain(result.fullStream);
  expect(thrown).toBeUndefined();
  expect(textOf(parts)).toEqual(['Checking', '…']);
  expect(ofType(parts, 'tool-call')).toEqual([
    expect.objectContaining({ toolCallId: 'call_9', input: { path: '/x' } }),
  ]);
  expect(ofType(parts, 'finish')[0]!.totalUsage).toMatchObject({ inputTokens: 50, outputTokens: 9 });
  const call = modelServer.modelCalls[0]!;
  expect(call.path).toBe('/v1/chat/completions');
  expect(call.headers).toMatchObject({
    authorization: 'Bearer sk-openai-test',
    'openai-organization': 'org-plugboard',
  });
  // Unlike openai-compatible, the OpenAI provider asks for the usage chunk without being told to.
  expect(call.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
});

test('the default model id goes to /v1/responses, which a Chat Completions server answers with 404', async ({
  modelServer,
}) => {
  const result = streamText({ model: openai(modelServer)('gpt-4.1-mini'), prompt: 'x', maxRetries: 0, onError: noLog });
  const { parts } = await drain(result.fullStream);
  const error = ofType(parts, 'error')[0]!.error;
  expect(APICallError.isInstance(error)).toBe(true);
  expect(error).toMatchObject({ statusCode: 404, isRetryable: false, message: 'Invalid URL (POST /v1/responses)' });
  expect(modelServer.requests.map((r) => r.path)).toEqual(['/v1/responses']);
  expect(modelServer.modelCalls).toEqual([]);
});
