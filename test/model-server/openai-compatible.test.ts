/**
 * The real AI SDK (`ai` 6 with @ai-sdk/openai-compatible, the provider for Ollama, LM Studio,
 * llama.cpp, vLLM, Jan and OpenRouter) against the scripted server speaking Chat Completions. The
 * server stands in for a language model, which cannot run on these machines; the SDK, its HTTP
 * client and the wire format are real.
 */
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { Ajv } from 'ajv';
import { generateText, jsonSchema, stepCountIs, streamText, tool, type ModelMessage } from 'ai';
import { expect } from 'vitest';
import { test } from './fixture';
import { offeredTools, toolResults } from './requests';
import { drain, ofType, PATH_SCHEMA, pathInput, textOf } from './sdk';
import type { ModelServer } from './server';
import { text, toolCalls } from './steps';

function provider(
  server: ModelServer,
  extra: { includeUsage?: boolean; apiKey?: string; headers?: Record<string, string> } = {},
) {
  return createOpenAICompatible({ name: 'ollama', baseURL: server.baseURL, includeUsage: true, ...extra });
}

const noLog = () => {};

test('streams text deltas in order while the answer is still arriving, with usage', async ({ modelServer }) => {
  modelServer.script({
    type: 'reply',
    text: ['The ', 'answer ', 'is ', '42.'],
    chunkDelayMs: 150,
    usage: { input: 31, output: 4 },
  });
  const result = streamText({
    model: provider(modelServer)('llama3.2'),
    prompt: 'What is the answer?',
    onError: noLog,
  });
  let outcomeAtFirstDelta: string | undefined;
  const { parts, thrown } = await drain(result.fullStream, (p) => {
    if (p.type === 'text-delta' && outcomeAtFirstDelta === undefined)
      outcomeAtFirstDelta = modelServer.modelCalls[0]!.outcome;
  });
  expect(thrown).toBeUndefined();
  expect(textOf(parts)).toEqual(['The ', 'answer ', 'is ', '42.']);
  // The first delta reached the SDK before the server had finished answering: it really streams.
  expect(outcomeAtFirstDelta).toBe('pending');
  const finish = ofType(parts, 'finish')[0]!;
  expect(finish.finishReason).toBe('stop');
  expect(finish.totalUsage).toMatchObject({ inputTokens: 31, outputTokens: 4, totalTokens: 35 });
  expect(modelServer.modelCalls[0]!.body).toMatchObject({
    model: 'llama3.2',
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: 'user', content: 'What is the answer?' }],
  });
});

test('without includeUsage the provider asks for no usage, and usage is unknown', async ({ modelServer }) => {
  modelServer.script(text('hi'));
  const result = streamText({
    model: provider(modelServer, { includeUsage: false })('m'),
    prompt: 'x',
    onError: noLog,
  });
  expect(await result.totalUsage).toMatchObject({ inputTokens: undefined, outputTokens: undefined });
  expect(modelServer.modelCalls[0]!.body).not.toHaveProperty('stream_options');
});

test('a tool call streamed in fragments arrives whole and parsed, with the tool offered as declared', async ({
  modelServer,
}) => {
  modelServer.script(
    toolCalls({ id: 'call_1', name: 'read_file', arguments: { path: '/tmp/notes.txt' }, fragments: 4 }),
  );
  const result = streamText({
    model: provider(modelServer)('m'),
    prompt: 'Read my notes',
    tools: { read_file: tool({ description: 'Read a text file', inputSchema: pathInput }) },
    onError: noLog,
  });
  const { parts } = await drain(result.fullStream);
  expect(ofType(parts, 'tool-input-delta').map((p) => p.delta)).toHaveLength(4);
  expect(
    ofType(parts, 'tool-input-delta')
      .map((p) => p.delta)
      .join(''),
  ).toBe('{"path":"/tmp/notes.txt"}');
  expect(ofType(parts, 'tool-call')).toEqual([
    expect.objectContaining({ toolCallId: 'call_1', toolName: 'read_file', input: { path: '/tmp/notes.txt' } }),
  ]);
  expect(ofType(parts, 'finish')[0]!.finishReason).toBe('tool-calls');
  expect(offeredTools(modelServer.modelCalls[0]!)).toEqual([
    { name: 'read_file', description: 'Read a text file', schema: PATH_SCHEMA },
  ]);
});

test('two parallel tool calls with execute: both run, both results go back, the model answers', async ({
  modelServer,
}) => {
  modelServer.script(
    toolCalls(
      { id: 'call_a', name: 'read_file', arguments: { path: '/a' } },
      { id: 'call_b', name: 'read_file', arguments: { path: '/b' } },
    ),
    (req) =>
      text(
        `Read: ${toolResults(req)
          .map((r) => `${r.id}=${r.text}`)
          .join(', ')}`,
      ),
  );
  const ran: string[] = [];
  const result = streamText({
    model: provider(modelServer)('m'),
    prompt: 'Read both',
    tools: {
      read_file: tool({ inputSchema: pathInput, execute: async ({ path }) => (ran.push(path), `contents of ${path}`) }),
    },
    stopWhen: stepCountIs(5),
    onError: noLog,
  });
  const { parts } = await drain(result.fullStream);
  expect(ran.sort()).toEqual(['/a', '/b']);
  expect(ofType(parts, 'tool-result').map((p) => [p.toolCallId, p.output])).toEqual([
    ['call_a', 'contents of /a'],
    ['call_b', 'contents of /b'],
  ]);
  expect(textOf(parts).join('')).toBe('Read: call_a=contents of /a, call_b=contents of /b');
  expect(ofType(parts, 'finish-step')).toHaveLength(2);
  const second = modelServer.modelCalls[1]!.body as { messages: unknown[] };
  expect(second.messages.slice(1)).toEqual([
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '{"path":"/a"}' } },
        { id: 'call_b', type: 'function', function: { name: 'read_file', arguments: '{"path":"/b"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_a', content: 'contents of /a' },
    { role: 'tool', tool_call_id: 'call_b', content: 'contents of /b' },
  ]);
});

test('a tool without execute: the host runs the call and continues the conversation itself', async ({
  modelServer,
}) => {
  modelServer.script(
    {
      type: 'reply',
      text: ['Let me look.'],
      toolCalls: [{ id: 'call_7', name: 'read_file', arguments: { path: '/etc/hostname' } }],
    },
    (req) => text(`It says ${toolResults(req)[0]!.text}`),
  );
  const model = provider(modelServer)('m');
  const tools = { read_file: tool({ inputSchema: pathInput }) };
  const history: ModelMessage[] = [{ role: 'user', content: 'What is my hostname?' }];

  const first = streamText({ model, messages: history, tools, onError: noLog });
  const calls = ofType((await drain(first.fullStream)).parts, 'tool-call');
  expect(calls.map((c) => [c.toolCallId, c.input])).toEqual([['call_7', { path: '/etc/hostname' }]]);
  // The assistant message (text + tool call) comes back ready to append; the host adds the result.
  history.push(...(await first.response).messages);
  history.push({
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'call_7', toolName: 'read_file', output: { type: 'text', value: 'plugbox' } },
    ],
  });

  const second = streamText({ model, messages: history, tools, onError: noLog });
  expect(await second.text).toBe('It says plugbox');
  expect((modelServer.modelCalls[1]!.body as { messages: unknown[] }).messages).toEqual([
    { role: 'user', content: 'What is my hostname?' },
    {
      role: 'assistant',
      content: 'Let me look.',
      tool_calls: [
        { id: 'call_7', type: 'function', function: { name: 'read_file', arguments: '{"path":"/etc/hostname"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_7', content: 'plugbox' },
  ]);
});

test('needsApproval stops at an approval request; the answer resumes it, a denial reaches the model', async ({
  modelServer,
}) => {
  modelServer.script(
    toolCalls(
      { id: 'call_ok', name: 'read_file', arguments: { path: '/ok' } },
      { id: 'call_no', name: 'read_file', arguments: { path: '/no' } },
    ),
    (req) =>
      text(
        toolResults(req)
          .map((r) => r.text)
          .join(' | '),
      ),
  );
  const tools = {
    read_file: tool({
      inputSchema: pathInput,
      needsApproval: true,
      execute: async ({ path }) => `contents of ${path}`,
    }),
  };
  const model = provider(modelServer)('m');
  const history: ModelMessage[] = [{ role: 'user', content: 'Read them' }];
  const first = streamText({ model, messages: history, tools, stopWhen: stepCountIs(5), onError: noLog });
  const requests = ofType((await drain(first.fullStream)).parts, 'tool-approval-request');
  expect(requests.map((r) => r.toolCall.toolCallId)).toEqual(['call_ok', 'call_no']);
  expect(modelServer.modelCalls).toHaveLength(1);
  history.push(...(await first.response).messages);
  history.push({
    role: 'tool',
    content: [
      { type: 'tool-approval-response', approvalId: requests[0]!.approvalId, approved: true },
      {
        type: 'tool-approval-response',
        approvalId: requests[1]!.approvalId,
        approved: false,
        reason: 'The person declined.',
      },
    ],
  });
  const second = streamText({ model, messages: history, tools, stopWhen: stepCountIs(5), onError: noLog });
  const { parts } = await drain(second.fullStream);
  expect(ofType(parts, 'tool-output-denied').map((p) => p.toolCallId)).toEqual(['call_no']);
  expect(textOf(parts).join('')).toBe('contents of /ok | The person declined.');
});

test('malformed tool arguments: an invalid tool-call and a tool-error, and the error is what the model is told', async ({
  modelServer,
}) => {
  modelServer.script(toolCalls({ id: 'call_bad', name: 'read_file', arguments: '{"path": "/a' }), (req) =>
    text(`error seen: ${toolResults(req)[0]!.text}`),
  );
  const result = streamText({
    model: provider(modelServer)('m'),
    prompt: 'x',
    tools: { read_file: tool({ inputSchema: pathInput, execute: async () => 'never' }) },
    stopWhen: stepCountIs(3),
    onError: noLog,
  });
  const { parts, thrown } = await drain(result.fullStream);
  expect(thrown).toBeUndefined();
  const call = ofType(parts, 'tool-call')[0]!;
  expect(call).toMatchObject({ toolCallId: 'call_bad', input: '{"path": "/a', invalid: true, dynamic: true });
  expect((call as { error?: Error }).error?.name).toBe('AI_InvalidToolInputError');
  expect(ofType(parts, 'tool-error')[0]).toMatchObject({
    toolCallId: 'call_bad',
    error: expect.stringContaining('JSON parsing failed'),
  });
  expect(textOf(parts).join('')).toMatch(/^error seen: Invalid input for tool read_file: JSON parsing failed/);
  // The replayed call carries `{}` in place of the text that did not parse.
  expect(
    (
      modelServer.modelCalls[1]!.body as {
        messages: Array<{ tool_calls?: Array<{ function: { arguments: string } }> }>;
      }
    ).messages[1]!.tool_calls![0]!.function.arguments,
  ).toBe('{}');
});

test('jsonSchema() alone does not check arguments against the schema; a validate function does', async ({
  modelServer,
}) => {
  modelServer.script(
    toolCalls({ name: 'read_file', arguments: { file: 3 } }),
    toolCalls({ name: 'read_file', arguments: { file: 3 } }),
  );
  const model = provider(modelServer)('m');
  const unchecked = streamText({
    model,
    prompt: 'x',
    tools: { read_file: tool({ inputSchema: pathInput }) },
    onError: noLog,
  });
  expect(ofType((await drain(unchecked.fullStream)).parts, 'tool-call')[0]).toMatchObject({ input: { file: 3 } });
  expect(ofType((await drain(unchecked.fullStream)).parts, 'tool-call')[0]).not.toHaveProperty('invalid');

  const check = new Ajv({ allErrors: true }).compile(PATH_SCHEMA);
  const validated = jsonSchema<{ path: string }>(PATH_SCHEMA, {
    validate: (value) =>
      check(value)
        ? { success: true, value: value as { path: string } }
        : { success: false, error: new Error(JSON.stringify(check.errors)) },
  });
  const checked = streamText({
    model,
    prompt: 'x',
    tools: { read_file: tool({ inputSchema: validated }) },
    onError: noLog,
  });
  const parts = (await drain(checked.fullStream)).parts;
  expect(ofType(parts, 'tool-call')[0]).toMatchObject({ invalid: true });
  expect(ofType(parts, 'tool-error')[0]!.error).toMatch(/required property 'path'/);
});

test('abort mid-stream: an abort part, no error, and the server sees the client leave', async ({ modelServer }) => {
  modelServer.script({ type: 'reply', text: ['one ', 'two ', 'three'], stallAfterChunks: 2 });
  const stop = new AbortController();
  const aborted: number[] = [];
  const result = streamText({
    model: provider(modelServer)('m'),
    prompt: 'x',
    abortSignal: stop.signal,
    onError: noLog,
    onAbort: ({ steps }) => void aborted.push(steps.length),
  });
  const { parts, thrown } = await drain(result.fullStream, (p) => {
    if (p.type === 'text-delta' && p.text === 'two ') stop.abort();
  });
  expect(thrown).toBeUndefined();
  expect(textOf(parts)).toEqual(['one ', 'two ']);
  expect(parts.at(-1)).toMatchObject({ type: 'abort' });
  expect(ofType(parts, 'error')).toEqual([]);
  expect(aborted).toEqual([0]);
  await modelServer.waitFor(
    () => modelServer.modelCalls[0]!.outcome === 'client-closed',
    'the client to close the stream',
  );
  await expect(result.text).rejects.toMatchObject({ name: 'AbortError' });
});

test('apiKey and headers reach the server; images go as data URLs', async ({ modelServer }) => {
  modelServer.script(text('a cat'));
  const model = provider(modelServer, { apiKey: 'sk-local', headers: { 'x-plugboard': 'provider' } })('llava');
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const result = await generateText({
    model,
    headers: { 'x-turn': 'call' },
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', image: png, mediaType: 'image/png' },
        ],
      },
    ],
  });
  expect(result.text).toBe('a cat');
  const call = modelServer.modelCalls[0]!;
  expect(call.headers).toMatchObject({ authorization: 'Bearer sk-local', 'x-plugboard': 'provider', 'x-turn': 'call' });
  expect(call.headers['user-agent']).toContain('ai/6.0.326');
  // generateText sends no `stream` field at all: the whole answer comes back as one JSON body.
  expect(call.body).not.toHaveProperty('stream');
  expect(call.body).toMatchObject({
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from(png).toString('base64')}` } },
        ],
      },
    ],
  });
});
