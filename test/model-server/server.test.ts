/**
 * The scripted model server seen with plain fetch: the model lists each client reads, the checks
 * the real services make (keys, Anthropic's version header), the raw stream framing, the record,
 * the control endpoint, and a close that ends hanging requests. (A scripted server stands in for
 * a language model, which cannot run on these machines; see index.ts.)
 */
import { expect } from 'vitest';
import { startModelServer, test } from './fixture';
import { fail, text } from './steps';

async function getJson(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const res = await fetch(url, { headers });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

test('lists models in OpenAI, Anthropic and Ollama shapes', async () => {
  const server = await startModelServer({ models: ['llama3.2:latest', 'qwen3:8b'] });
  const openai = await getJson(`${server.baseURL}/models`, { authorization: 'Bearer anything' });
  expect(openai.body).toEqual({
    object: 'list',
    data: [
      { id: 'llama3.2:latest', object: 'model', created: expect.any(Number), owned_by: 'scripted' },
      { id: 'qwen3:8b', object: 'model', created: expect.any(Number), owned_by: 'scripted' },
    ],
  });
  // Anthropic's list is told apart by the headers its clients send.
  const anthropic = await getJson(`${server.baseURL}/models`, { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' });
  expect(anthropic.body).toMatchObject({
    data: [{ type: 'model', id: 'llama3.2:latest', display_name: 'llama3.2:latest' }, { id: 'qwen3:8b' }],
    has_more: false,
    first_id: 'llama3.2:latest',
    last_id: 'qwen3:8b',
  });
  const tags = await getJson(`${server.url}/api/tags`);
  expect(tags.body).toMatchObject({
    models: [{ name: 'llama3.2:latest', model: 'llama3.2:latest', details: { format: 'gguf' } }, { name: 'qwen3:8b' }],
  });
  expect((await getJson(`${server.url}/api/version`)).body).toEqual({
    version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
  });
  expect(server.requests.map((r) => [r.api, r.path, r.isModelCall])).toEqual([
    ['openai', '/v1/models', false],
    ['anthropic', '/v1/models', false],
    ['ollama', '/api/tags', false],
    ['ollama', '/api/version', false],
  ]);
});

test('with a key set, refuses other keys in each provider’s own error format', async () => {
  const server = await startModelServer({ apiKey: 'sk-right-key-1234' });
  const wrong = await getJson(`${server.baseURL}/models`, { authorization: 'Bearer sk-wrong-key-9999' });
  expect(wrong.status).toBe(401);
  expect(wrong.body).toEqual({
    error: {
      message: expect.stringContaining('Incorrect API key provided: sk-***9999'),
      type: 'invalid_request_error',
      param: null,
      code: 'invalid_api_key',
    },
  });
  expect((await getJson(`${server.baseURL}/models`)).body).toMatchObject({
    error: { message: expect.stringContaining("You didn't provide an API key") },
  });
  expect((await getJson(`${server.baseURL}/models`, { authorization: 'Bearer sk-right-key-1234' })).status).toBe(200);
  const anthropic = await getJson(`${server.baseURL}/models`, {
    'x-api-key': 'nope',
    'anthropic-version': '2023-06-01',
  });
  expect(anthropic.status).toBe(401);
  expect(anthropic.body).toEqual({
    type: 'error',
    error: { type: 'authentication_error', message: 'invalid x-api-key' },
    request_id: expect.stringMatching(/^req_/),
  });
  // The record keeps the keys, so a test can check which key a client sent.
  expect(server.requests.map((r) => r.headers.authorization ?? r.headers['x-api-key'])).toEqual([
    'Bearer sk-wrong-key-9999',
    undefined,
    'Bearer sk-right-key-1234',
    'nope',
  ]);
});

test('Anthropic requests without the version header get Anthropic’s 400', async ({ modelServer }) => {
  const res = await post(
    `${modelServer.baseURL}/messages`,
    { model: 'm', max_tokens: 10, messages: [] },
    { 'x-api-key': 'k' },
  );
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({
    type: 'error',
    error: { type: 'invalid_request_error', message: 'anthropic-version: header is required' },
  });
});

test('streams OpenAI chunks, with the usage chunk only when asked, then [DONE]', async ({ modelServer }) => {
  modelServer.script({ ...text('Hi', ' there'), usage: { input: 7, output: 2 } }, text('again'));
  const withUsage = await (
    await post(`${modelServer.baseURL}/chat/completions`, {
      model: 'm',
      messages: [],
      stream: true,
      stream_options: { include_usage: true },
    })
  ).text();
  const events = withUsage.split('\n\n').filter(Boolean);
  expect(events.at(-1)).toBe('data: [DONE]');
  const chunks = events.slice(0, -1).map(
    (e) =>
      JSON.parse(e.slice('data: '.length)) as {
        choices: Array<{ delta: { content?: string }; finish_reason: string | null }>;
        usage: unknown;
      },
  );
  expect(chunks.flatMap((c) => c.choices.map((ch) => ch.delta.content ?? ''))).toEqual(['', 'Hi', ' there', '']);
  expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
  expect(chunks.at(-1)).toMatchObject({
    object: 'chat.completion.chunk',
    choices: [],
    usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 },
  });
  const without = await (
    await post(`${modelServer.baseURL}/chat/completions`, { model: 'm', messages: [], stream: true })
  ).text();
  expect(without).not.toContain('"usage"');
  expect(without.trimEnd().endsWith('data: [DONE]')).toBe(true);
});

test('records when each streamed chunk left, on the wall clock, for latency figures in other processes', async ({
  modelServer,
}) => {
  modelServer.script({ type: 'reply', text: ['a', 'b', 'c'], chunkDelayMs: 20 });
  const before = Date.now();
  await (await post(`${modelServer.baseURL}/chat/completions`, { model: 'm', messages: [], stream: true })).text();
  const sent = modelServer.modelCalls.at(-1)!.chunksSentAt;
  expect(sent).toHaveLength(3);
  expect(sent[0]).toBeGreaterThanOrEqual(before);
  expect(sent[2]! - sent[0]!).toBeGreaterThanOrEqual(35);
  expect([...sent].sort((x, y) => x - y)).toEqual(sent);
});

test('a model call with no step left gets a 400 that says so, and is recorded', async ({ modelServer }) => {
  const res = await post(
    `${modelServer.baseURL}/chat/completions`,
    { model: 'm', messages: [{ role: 'user', content: 'hello' }] },
    { authorization: 'Bearer sk-test' },
  );
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({
    error: { message: 'scripted model server: no step is scripted for request #1 (POST /v1/chat/completions)' },
  });
  const [call] = modelServer.modelCalls;
  expect(call).toMatchObject({
    api: 'openai',
    isModelCall: true,
    outcome: 'answered',
    headers: { authorization: 'Bearer sk-test' },
    body: { messages: [{ role: 'user', content: 'hello' }] },
  });
});

test('a fallback answers once the queue is empty', async () => {
  const server = await startModelServer({ fallback: text('always this') });
  server.script(text('first'));
  const ask = async () =>
    (
      (await (await post(`${server.baseURL}/chat/completions`, { model: 'm', messages: [] })).json()) as {
        choices: Array<{ message: { content: string } }>;
      }
    ).choices[0]!.message.content;
  expect([await ask(), await ask(), await ask()]).toEqual(['first', 'always this', 'always this']);
});

test('the control endpoint queues JSON steps and refuses bad ones with the reason', async ({ modelServer }) => {
  const bad = await post(`${modelServer.url}/__script`, { steps: [{ type: 'reply', text: 5 }] });
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as { error: string }).error).toMatch(/^POST \/__script: .*text/s);
  const ok = await post(`${modelServer.url}/__script`, { steps: [text('one'), fail('server-error')] });
  expect(await ok.json()).toEqual({ queued: 2 });
  const answer = await post(`${modelServer.baseURL}/chat/completions`, { model: 'm', messages: [] });
  expect(
    ((await answer.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content,
  ).toBe('one');
  const failed = await post(`${modelServer.baseURL}/chat/completions`, { model: 'm', messages: [] });
  expect(failed.status).toBe(500);
  const record = (await getJson(`${modelServer.url}/__requests`)).body as { requests: Array<{ path: string }> };
  // Control requests are not part of the record.
  expect(record.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
  await post(`${modelServer.url}/__reset`, {});
  expect(modelServer.requests).toEqual([]);
});

test('close ends a request that hangs, and the record shows it never got an answer', async () => {
  const server = await startModelServer();
  server.script({ type: 'hang' });
  const pending = post(`${server.baseURL}/chat/completions`, { model: 'm', messages: [] }).then(
    () => 'answered',
    (e: Error) => `failed: ${e.message}`,
  );
  await server.waitForModelCalls(1);
  await server.close();
  expect(await pending).toBe('failed: fetch failed');
  expect(server.modelCalls[0]!.outcome).toBe('client-closed');
});
