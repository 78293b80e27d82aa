/**
 * The real AI SDK with @ai-sdk/anthropic against the scripted server speaking Anthropic Messages
 * (named SSE events, tool_use blocks, input_json_delta pieces). The server stands in for Claude,
 * which cannot be reached from these machines; the SDK, its HTTP client and the wire are real.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { generateText, stepCountIs, streamText, tool, type ModelMessage } from 'ai';
import { expect } from 'vitest';
import { test } from './fixture';
import { offeredTools, toolResults } from './requests';
import { drain, ofType, PATH_SCHEMA, pathInput, textOf } from './sdk';
import type { ModelServer } from './server';
import { text, toolCalls } from './steps';

// maxOutputTokens is given on every call: without it the provider falls back to 4096 for a model
// id it does not know, and logs a warning saying so.
const MAX = 1024;
const noLog = () => {};

function claude(server: ModelServer, headers?: Record<string, string>) {
  return createAnthropic({ baseURL: server.baseURL, apiKey: 'sk-ant-test', headers })('claude-sonnet-4-5');
}

test('streams text deltas in order, with usage and the headers Anthropic requires', async ({ modelServer }) => {
  modelServer.script({ type: 'reply', text: ['Bonjour', ', ', 'monde'], usage: { input: 12, output: 3 } });
  const result = streamText({
    model: claude(modelServer, { 'x-plugboard': 'yes' }),
    system: 'Be brief.',
    prompt: 'Say hello in French',
    maxOutputTokens: MAX,
    onError: noLog,
  });
  const { parts, thrown } = await drain(result.fullStream);
  expect(thrown).toBeUndefined();
  expect(textOf(parts)).toEqual(['Bonjour', ', ', 'monde']);
  const finish = ofType(parts, 'finish')[0]!;
  expect(finish).toMatchObject({ finishReason: 'stop', rawFinishReason: 'end_turn' });
  expect(finish.totalUsage).toMatchObject({ inputTokens: 12, outputTokens: 3 });
  const call = modelServer.modelCalls[0]!;
  expect(call.headers).toMatchObject({
    'x-api-key': 'sk-ant-test',
    'anthropic-version': '2023-06-01',
    'x-plugboard': 'yes',
  });
  expect(call.headers.authorization).toBeUndefined();
  expect(call.body).toMatchObject({
    model: 'claude-sonnet-4-5',
    max_tokens: MAX,
    stream: true,
    system: [{ type: 'text', text: 'Be brief.' }],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello in French' }] }],
  });
});

test('a tool_use block streamed as input_json_delta pieces arrives parsed; the tool is offered as declared', async ({
  modelServer,
}) => {
  modelServer.script(
    toolCalls({ id: 'toolu_1', name: 'read_file', arguments: { path: '/home/me/todo.md' }, fragments: 5 }),
  );
  const result = streamText({
    model: claude(modelServer),
    prompt: 'x',
    maxOutputTokens: MAX,
    tools: { read_file: tool({ description: 'Read a text file', inputSchema: pathInput }) },
    onError: noLog,
  });
  const { parts } = await drain(result.fullStream);
  expect(
    ofType(parts, 'tool-input-delta')
      .map((p) => p.delta)
      .join(''),
  ).toBe('{"path":"/home/me/todo.md"}');
  expect(ofType(parts, 'tool-call')).toEqual([
    expect.objectContaining({ toolCallId: 'toolu_1', toolName: 'read_file', input: { path: '/home/me/todo.md' } }),
  ]);
  expect(ofType(parts, 'finish')[0]).toMatchObject({ finishReason: 'tool-calls', rawFinishReason: 'tool_use' });
  expect(offeredTools(modelServer.modelCalls[0]!)).toEqual([
    { name: 'read_file', description: 'Read a text file', schema: PATH_SCHEMA },
  ]);
});

test('parallel tool calls run, and their results go back as tool_result blocks in one user message', async ({
  modelServer,
}) => {
  modelServer.script(
    {
      type: 'reply',
      text: ['Reading both.'],
      toolCalls: [
        { id: 'toolu_a', name: 'read_file', arguments: { path: '/a' } },
        { id: 'toolu_b', name: 'read_file', arguments: { path: '/b' } },
      ],
    },
    (req) =>
      text(
        toolResults(req)
          .map((r) => `${r.id}:${r.text}`)
          .join(' '),
      ),
  );
  const result = streamText({
    model: claude(modelServer),
    prompt: 'Read /a and /b',
    maxOutputTokens: MAX,
    tools: { read_file: tool({ inputSchema: pathInput, execute: async ({ path }) => `text of ${path}` }) },
    stopWhen: stepCountIs(4),
    onError: noLog,
  });
  const { parts } = await drain(result.fullStream);
  expect(textOf(parts).join('')).toBe('Reading both.toolu_a:text of /a toolu_b:text of /b');
  const messages = (modelServer.modelCalls[1]!.body as { messages: unknown[] }).messages;
  expect(messages.slice(1)).toEqual([
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading both.' },
        { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: { path: '/a' } },
        { type: 'tool_use', id: 'toolu_b', name: 'read_file', input: { path: '/b' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_a', content: 'text of /a' },
        { type: 'tool_result', tool_use_id: 'toolu_b', content: 'text of /b' },
      ],
    },
  ]);
});

test('a host-run call: error results are sent with is_error, images as base64 blocks', async ({ modelServer }) => {
  modelServer.script(
    toolCalls({ id: 'toolu_x', name: 'read_file', arguments: { path: '/missing' } }),
    text('It is missing.'),
  );
  const model = claude(modelServer);
  const tools = { read_file: tool({ inputSchema: pathInput }) };
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);
  const history: ModelMessage[] = [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Look at this and read /missing' },
        { type: 'image', image: png, mediaType: 'image/png' },
      ],
    },
  ];
  const first = streamText({ model, messages: history, tools, maxOutputTokens: MAX, onError: noLog });
  await drain(first.fullStream);
  history.push(...(await first.response).messages);
  history.push({
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'toolu_x',
        toolName: 'read_file',
        output: { type: 'error-text', value: 'ENOENT: no such file' },
      },
    ],
  });
  const second = await generateText({ model, messages: history, tools, maxOutputTokens: MAX });
  expect(second.text).toBe('It is missing.');
  const body = modelServer.modelCalls[1]!.body as { messages: unknown[]; stream?: boolean };
  expect(body.stream).toBeUndefined();
  expect(body.messages).toEqual([
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Look at this and read /missing' },
        {
          type: 'image',
          source: { type: 'base64', media_type: 'image/png', data: Buffer.from(png).toString('base64') },
        },
      ],
    },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_x', name: 'read_file', input: { path: '/missing' } }],
    },
    {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_x', content: 'ENOENT: no such file', is_error: true }],
    },
  ]);
});

test('malformed input_json: an invalid tool-call and a tool-error naming the parse failure', async ({
  modelServer,
}) => {
  modelServer.script(toolCalls({ id: 'toolu_bad', name: 'read_file', arguments: '{"path": ' }));
  const result = streamText({
    model: claude(modelServer),
    prompt: 'x',
    maxOutputTokens: MAX,
    tools: { read_file: tool({ inputSchema: pathInput }) },
    onError: noLog,
  });
  const { parts, thrown } = await drain(result.fullStream);
  expect(thrown).toBeUndefined();
  expect(ofType(parts, 'tool-call')[0]).toMatchObject({ toolCallId: 'toolu_bad', invalid: true, input: '{"path": ' });
  expect(ofType(parts, 'tool-error')[0]).toMatchObject({
    toolCallId: 'toolu_bad',
    error: expect.stringContaining('JSON parsing failed'),
  });
});
