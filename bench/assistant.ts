/**
 * The assistant, against what it adds to, measured in the same run:
 *   tool round trip  from the model's answer asking for a tool (its last byte handed to the
 *                    socket by the scripted model server) to the next model request carrying the
 *                    tool's result (its last byte in), against a direct registry call of the same
 *                    tool on the same plugin. The difference is the assistant's overhead: the SDK
 *                    reading the stream, the decision, the card, the history rebuilt, the request
 *                    built and sent. Two more in the same run, to tell the shares apart: the AI
 *                    SDK alone (the same two requests through streamText: the system prompt and
 *                    tools Plugboard sends, built beforehand; the tool's result a constant: no
 *                    plugin, no Plugboard), and the HTTP floor (node:http and a
 *                    minimal SSE reader). Plugboard's overhead is the round trip less the SDK's
 *                    and less the direct call. Target: at most 1 ms at p50.
 *   opening          `chat.get` of a conversation of 1,000 messages with tool cards, the back
 *                    end's share of opening it in the app (the page's share is an e2e figure).
 *   request build    a step's request (tool selection, instructions, history, the SDK's tool
 *                    set; no enrichers) with 10, 100 and 1,000 exposed tools: under 20 ms with
 *                    1,000, and growing no faster than the number of tools.
 * The model is the scripted server in this process (no model can run on these machines); the
 * plugin is the bundled hello plugin, a real process.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  buildRequest,
  carriedInto,
  ConversationStore,
  languageModel,
  offeredTools,
  STEP_SETTINGS,
  systemPrompt,
  ToolChooser,
} from '../src/main/assistant';
import { definitionHash, PluginRegistry } from '../src/main/plugins';
import { Backend } from '../src/main/service';
import { streamText, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import { DEFAULT_ASSISTANT_SETTINGS } from '../src/shared/assistant';
import type { ChatMessage } from '../src/shared/contract';
import { median, percentile } from '../src/shared/stats';
import type { RecordedRequest } from '../test/model-server/requests';
import { ModelServer } from '../test/model-server/server';
import { text, toolCalls } from '../test/model-server/steps';
import type { Report } from './lib/report';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Whether the request's last message is a tool result (the model's next step in a turn). */
function answersTool(req: RecordedRequest): boolean {
  const messages = (req.body as { messages?: Array<{ role?: string }> }).messages ?? [];
  return messages.at(-1)?.role === 'tool';
}

export async function assistantBench(report: Report, quick: boolean): Promise<void> {
  await requestBuild(report, quick ? 20 : 100);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'plugboard-bench-assistant-'));
  const registry = await PluginRegistry.open({ dataDir: dir, bundledDir: path.join(ROOT, 'plugins') });
  const long = await seedLongConversation(registry.paths.conversations);
  const backend = await Backend.create({ registry, version: 'bench', transport: 'websocket' });
  // A turn: the model asks for say_hello, then answers once the result is back.
  const model = await ModelServer.start({
    fallback: (req) =>
      answersTool(req) ? text('ok') : toolCalls({ name: 'hello__say_hello', arguments: { name: 'bench' } }),
  });
  try {
    const saved = await backend.invoke('models.save', {
      name: 'bench',
      provider: 'openai-compatible',
      baseURL: model.baseURL,
      model: 'scripted-model',
      makeDefault: true,
    });
    if (!saved.ok) throw new Error(saved.message);
    await roundTrips(report, backend, registry, model, quick ? 60 : 300);
    await opening(report, backend, long, quick ? 5 : 20);
  } finally {
    backend.dispose();
    await registry.shutdown();
    registry.dispose();
    await model.close();
    agent.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The two requests of a turn through the AI SDK alone, with the assistant's settings, system
 * prompt and tools as Plugboard sends them; the tool's result is made up, at once. */
async function sdkAlone(
  lm: LanguageModel,
  { system, tools }: { system: string; tools: ToolSet },
  model: ModelServer,
  i: number,
): Promise<number> {
  const before = model.modelCalls.length;
  const messages: ModelMessage[] = [{ role: 'user', content: `turn ${i}` }];
  const first = streamText({ model: lm, system, messages, tools, ...STEP_SETTINGS });
  const calls: Array<{ toolCallId: string; toolName: string; input: unknown }> = [];
  for await (const part of first.fullStream) if (part.type === 'tool-call') calls.push(part);
  messages.push({ role: 'assistant', content: calls.map((c) => ({ type: 'tool-call' as const, ...c })) });
  messages.push({
    role: 'tool',
    content: calls.map((c) => ({
      type: 'tool-result' as const,
      toolCallId: c.toolCallId,
      toolName: c.toolName,
      output: { type: 'text' as const, value: 'Hello, bench!' },
    })),
  });
  for await (const _ of streamText({ model: lm, system, messages, tools, ...STEP_SETTINGS }).fullStream);
  const [asked, answered] = model.modelCalls.slice(before);
  if (!asked?.answeredAt || !answered) throw new Error('the SDK alone did not make two requests');
  return answered.receivedAt - asked.answeredAt;
}

/** The same two requests with node:http and the least SSE reading that finds the tool call. */
async function httpFloor(model: ModelServer, toolSpec: unknown[], i: number): Promise<number> {
  const before = model.modelCalls.length;
  const post = (body: unknown): Promise<string> =>
    new Promise((resolve, reject) => {
      const req = http.request(
        `${model.baseURL}/chat/completions`,
        { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('end', () => resolve(text));
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  const messages: unknown[] = [{ role: 'user', content: `turn ${i}` }];
  const sse = await post({ model: 'scripted-model', stream: true, messages, tools: toolSpec });
  const call = sse
    .split('\n')
    .filter((l) => l.startsWith('data: {'))
    .map(
      (l) =>
        JSON.parse(l.slice(6)) as {
          choices: Array<{
            delta: { tool_calls?: Array<{ id?: string; function: { name?: string; arguments?: string } }> };
          }>;
        },
    )
    .flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
  const id = call.find((c) => c.id)?.id;
  const args = call.map((c) => c.function.arguments ?? '').join('');
  messages.push(
    {
      role: 'assistant',
      tool_calls: [{ id, type: 'function', function: { name: 'hello__say_hello', arguments: args } }],
    },
    { role: 'tool', tool_call_id: id, content: 'Hello, bench!' },
  );
  await post({ model: 'scripted-model', stream: true, messages, tools: toolSpec });
  const [asked, answered] = model.modelCalls.slice(before);
  if (!asked?.answeredAt || !answered) throw new Error('the HTTP floor did not make two requests');
  return answered.receivedAt - asked.answeredAt;
}

const agent = new http.Agent({ keepAlive: true });

async function roundTrips(
  report: Report,
  backend: Backend,
  registry: PluginRegistry,
  model: ModelServer,
  turns: number,
): Promise<void> {
  const direct: number[] = [];
  const viaModel: number[] = [];
  const sdk: number[] = [];
  const floor: number[] = [];
  const lm = languageModel(
    { name: 'bench', provider: 'openai-compatible', baseURL: model.baseURL, model: 'scripted-model' },
    undefined,
  );
  // What Plugboard's first request of a turn carries (instructions, built-in tools included),
  // built once here: building it is Plugboard's work, which the baseline must not include.
  const stored: ChatMessage[] = [{ id: 'u', role: 'user', createdAt: 0, text: 'turn' }];
  const request = buildRequest({
    registry,
    chooser: new ToolChooser(),
    settings: DEFAULT_ASSISTANT_SETTINGS,
    baseSystem: systemPrompt(),
    stored,
    found: new Set(),
    pluginName: (id) => id,
  });
  const toolSpec = offeredTools(registry).map((t) => ({
    type: 'function',
    function: { name: t.qualifiedName, description: t.description, parameters: t.parameters },
  }));
  const turnEnded = (turnId: string): Promise<void> =>
    new Promise((resolve) => {
      const sub = backend.onDidEvent((e) => {
        if (e.name === 'chat.turn' && e.payload.type === 'turn' && e.payload.turnId === turnId && !e.payload.running) {
          sub.dispose();
          resolve();
        }
      });
    });
  // Warm both paths (the plugin's process, the SDK's modules, the JIT).
  for (let i = 0; i < 20; i++) await registry.call('hello', 'say_hello', { name: 'bench' }).done;
  for (let i = 0; i < turns + 10; i++) {
    // A fresh conversation each time: the same history as the baselines send.
    const conversationId = (await backend.invoke('chat.create', {})).id;
    const t0 = performance.now();
    await registry.call('hello', 'say_hello', { name: 'bench' }).done;
    const d = performance.now() - t0;
    const before = model.modelCalls.length;
    const sent = await backend.invoke('chat.send', { conversationId, text: `turn ${i}` });
    if (!sent.ok || !sent.turnId) throw new Error(sent.ok ? 'no turn' : sent.message);
    await turnEnded(sent.turnId);
    const [asked, answered] = model.modelCalls.slice(before);
    if (!asked?.answeredAt || !answered) throw new Error('the turn did not take two model calls');
    const alone = await sdkAlone(lm, request, model, i);
    const bare = await httpFloor(model, toolSpec, i);
    if (i < 10) continue;
    direct.push(d * 1000);
    viaModel.push((answered.receivedAt - asked.answeredAt) * 1000);
    sdk.push(alone * 1000);
    floor.push(bare * 1000);
  }
  report.section(
    `Assistant: a model's tool call to the result back at the model (${turns} turns, each against a direct call of the same tool)`,
  );
  const base = { name: 'direct call', value: median(direct) };
  report.add({ name: 'direct registry call of hello:say_hello, p50', value: median(direct), unit: 'us' });
  report.add({
    name: 'model tool call → result at the model, p50',
    value: median(viaModel),
    unit: 'us',
    baseline: base,
  });
  report.add({ name: 'model tool call → result at the model, p95', value: percentile(viaModel, 95), unit: 'us' });
  report.add({ name: '  the same through the AI SDK alone (no plugin), p50', value: median(sdk), unit: 'us' });
  report.add({ name: '  the same over node:http (no SDK, no plugin), p50', value: median(floor), unit: 'us' });
  report.add({
    name: "  the SDK's share (SDK alone − node:http), p50",
    value: (median(sdk) - median(floor)) / 1000,
    unit: 'ms',
  });
  report.add({
    name: "Plugboard's overhead (round trip − SDK alone − direct call), p50",
    value: (median(viaModel) - median(sdk) - median(direct)) / 1000,
    unit: 'ms',
    target: { maxValue: 1, text: '≤ 1 ms over the direct call' },
  });
  await definitionBinding(report, registry, median(viaModel));
}

/**
 * What binding approvals to definitions adds to a call (issue 18 item 4), against the round trip
 * measured above in the same run: per call, the policy with its definition check, the
 * definition's hash (kept per tool object), and the look for another plugin's result in the
 * arguments (carried.ts), for an installed plugin whose definitions are recorded; and what a
 * definition's first hash costs (once per tool list a plugin announces). The round trip above
 * goes through all of it; this says how much of it that is.
 */
async function definitionBinding(report: Report, registry: PluginRegistry, roundTripUs: number): Promise<void> {
  const installed = await registry.installer.install(path.join(ROOT, 'test', 'fixtures', 'hostile', 'poisoned-tools'), {
    grant: 'none',
  });
  if (!installed.ok) throw new Error(installed.message);
  const id = installed.id;
  await registry.definitions.recordFirst(id);
  const tool = 'get_weather';
  // A conversation with another plugin's results in it: twenty outputs of 16 KB.
  const stored: ChatMessage[] = Array.from({ length: 20 }, (_, i) => ({
    id: `r${i}`,
    role: 'plugin',
    createdAt: i,
    pluginId: 'hello',
    tool: 'count',
    text: `result ${i} `.repeat(1600),
  }));
  const args = { city: 'Paris', notes: 'Weather for the trip next week, with the wind and the rain if there is any.' };
  const perCall: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const t0 = performance.now();
    registry.decisions.toolPolicy(id, tool);
    registry.definitions.hash(id, tool);
    carriedInto(args, id, () => stored);
    perCall.push((performance.now() - t0) * 1000);
  }
  const spec = registry.tools(id).find((t) => t.name === tool);
  if (!spec) throw new Error(`${id} has no ${tool}`);
  const firstHash: number[] = [];
  for (let i = 0; i < 500; i++) {
    const copy = { ...spec };
    const t0 = performance.now();
    definitionHash(copy);
    firstHash.push((performance.now() - t0) * 1000);
  }
  report.section('Approvals bound to definitions: what a call pays for them, against the round trip above');
  report.add({
    name: 'per call: policy, definition check and hash, carried-text check, p50',
    value: median(perCall),
    unit: 'us',
  });
  report.add({ name: 'per call, p95', value: percentile(perCall, 95), unit: 'us' });
  report.add({
    name: "a definition's first hash (once per announced tool list), p50",
    value: median(firstHash),
    unit: 'us',
  });
  report.add({
    name: 'share of the round trip, p50',
    value: Math.round((median(perCall) / roundTripUs) * 10_000) / 100,
    unit: '%',
    target: { maxValue: 1, text: 'no measurable change: under 1 % of the round trip' },
  });
}

/** 1,000 messages: the person, a tool card with its call and output, the model's answer, … */
async function seedLongConversation(file: string): Promise<string> {
  const store = await ConversationStore.open(file, { report: () => {} });
  const c = 'long';
  store.create(c, 'A long one', 0);
  for (let i = 0; i < 1000; i++) {
    const base = { id: `m${i}`, createdAt: i, turnId: `t${Math.floor(i / 3)}` };
    const kind = i % 3;
    const m: ChatMessage =
      kind === 0
        ? { ...base, role: 'user', text: `Question ${i}: what does the plugin say about item ${i}?` }
        : kind === 1
          ? {
              ...base,
              role: 'plugin',
              pluginId: 'hello',
              tool: 'count',
              args: { to: 20 },
              status: 'done',
              text: Array.from({ length: 20 }, (_, k) => String(k + 1)).join('\n'),
              call: {
                id: `call${i}`,
                name: 'hello__count',
                approval: { state: 'allowed', by: 'policy' },
                durationMs: 12,
              },
            }
          : {
              ...base,
              role: 'assistant',
              status: 'done',
              model: 'bench',
              usage: { inputTokens: 1200, outputTokens: 80 },
              text: `The count went **from 1 to 20**, as asked. Item ${i} is fine.\n\n- one\n- two\n`,
            };
    store.putMessage(c, m);
  }
  store.dispose();
  return c;
}

async function opening(report: Report, backend: Backend, c: string, runs: number): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    const t0 = performance.now();
    const conv = await backend.invoke('chat.get', { id: c });
    const ms = performance.now() - t0;
    if (conv?.messages.length !== 1000) throw new Error(`expected 1,000 messages, got ${conv?.messages.length}`);
    if (i >= 2) times.push(ms);
  }
  report.section('Assistant: opening a conversation of 1,000 messages with tool cards (the back end’s share)');
  report.add({
    name: 'chat.get of 1,000 messages, p50',
    value: median(times),
    unit: 'ms',
    target: { maxValue: 300, text: '< 300 ms (with the page: e2e figure)' },
  });
  report.add({ name: 'chat.get of 1,000 messages, worst', value: Math.max(...times), unit: 'ms' });
}

/** A folder holding a G-Assist plugin that declares `n` tools. */
function pluginWithTools(root: string, n: number): string {
  const dir = path.join(root, `tools-${n}`);
  mkdirSync(dir, { recursive: true });
  const functions = Array.from({ length: n }, (_, i) => ({
    name: `tool_${i}`,
    description: `Does task ${i} of the ${['build', 'media', 'files', 'network', 'office'][i % 5]} set, with a note on what it needs`,
    parameters: {
      type: 'object',
      properties: {
        target: { type: 'string', description: 'What to act on' },
        level: { type: 'integer', minimum: 0, maximum: 10 },
      },
      required: ['target'],
    },
  }));
  writeFileSync(
    path.join(dir, 'plugboard.json'),
    JSON.stringify({
      id: `tools-${n}`,
      name: `Tools ${n}`,
      version: '1.0.0',
      protocol: 'gassist-v2',
      command: ['node', 'plugin.mjs'],
      functions,
    }),
  );
  writeFileSync(path.join(dir, 'plugin.mjs'), '');
  return dir;
}

async function requestBuild(report: Report, runs: number): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'plugboard-bench-request-'));
  const empty = path.join(root, 'no-bundled');
  mkdirSync(empty);
  const stored: ChatMessage[] = [
    { id: 'u1', role: 'user', createdAt: 1, text: 'Find the media files I changed this week and convert them' },
    { id: 'a1', role: 'assistant', createdAt: 2, text: 'Which folder?', status: 'done' },
    { id: 'u2', role: 'user', createdAt: 3, text: 'The one with the holiday videos, and also check the network share' },
  ];
  const p50: Record<number, number> = {};
  report.section('Assistant: building a step’s request (tool selection, instructions, history; no enrichers)');
  try {
    for (const n of [10, 100, 1000]) {
      const registry = await PluginRegistry.open({ dataDir: path.join(root, `data-${n}`), bundledDir: empty });
      const installed = await registry.installer.install(pluginWithTools(root, n));
      if (!installed.ok) throw new Error(installed.message);
      const chooser = new ToolChooser();
      const input = {
        registry,
        chooser,
        settings: DEFAULT_ASSISTANT_SETTINGS,
        baseSystem: systemPrompt(),
        stored,
        found: new Set<string>(),
        pluginName: (id: string) => id,
      };
      const t0 = performance.now();
      const first = buildRequest(input);
      const cold = performance.now() - t0;
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        buildRequest(input);
        times.push(performance.now() - t);
      }
      p50[n] = median(times);
      report.add({
        name: `${n} tools (${first.info.tools.length} offered), first build (index made)`,
        value: cold,
        unit: 'ms',
      });
      report.add({
        name: `${n} tools, p50`,
        value: p50[n] as number,
        unit: 'ms',
        ...(n === 1000 ? { target: { maxValue: 20, text: '< 20 ms' } } : {}),
      });
      registry.dispose();
    }
    const growth = (p50[1000] as number) / (p50[100] as number);
    report.add({
      name: 'growth from 100 to 1,000 tools (×10 tools)',
      value: Number(growth.toFixed(2)),
      unit: 'x',
      target: { maxValue: 10, text: '≤ 10× (linear)' },
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
