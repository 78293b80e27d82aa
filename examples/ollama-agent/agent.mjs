// A Mehrhof agent plugin (JSON-RPC 2.0 over NDJSON on stdio) whose model is any OpenAI-compatible
// server, through the AI SDK. It runs its own tool loop inside one agent.run: each tool call the
// model makes goes to the host as a `tool_use` stream event, and the host's `agent.tool_result`
// request brings the result back, after which the model goes on.
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** The AI SDK: from the app's node_modules when Plugboard gives them, else resolved as usual. */
async function load(name) {
  const nodeModules = process.env.PLUGBOARD_NODE_MODULES;
  if (nodeModules) {
    try {
      return createRequire(path.join(nodeModules, 'noop.js'))(name);
    } catch {
      // fall through to the usual lookup (a checkout)
    }
  }
  return import(name);
}

const { jsonSchema, streamText, tool } = await load('ai');
const { createOpenAICompatible } = await load('@ai-sdk/openai-compatible');

const MAX_STEPS = 8;
const config = {
  baseURL: process.env.AGENT_BASE_URL || 'http://127.0.0.1:11434/v1',
  model: process.env.AGENT_MODEL || 'llama3.2',
  apiKey: process.env.AGENT_API_KEY || undefined,
};
const model = createOpenAICompatible({
  name: 'agent',
  baseURL: config.baseURL,
  includeUsage: true,
  ...(config.apiKey ? { apiKey: config.apiKey } : {}),
})(config.model);

const send = (m) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
const event = (type, data) => send({ method: 'stream', params: { type, data } });
/** Tool calls waiting for the host's agent.tool_result, by id. */
const waiting = new Map();

function askHost(call) {
  event('tool_use', { id: call.toolCallId, name: call.toolName, input: call.input });
  return new Promise((resolve) => waiting.set(call.toolCallId, resolve));
}

async function run(id, { prompt, context, tools }) {
  const declared = Object.fromEntries(
    (Array.isArray(tools) ? tools : []).map((t) => [
      t.name,
      tool({ description: t.description ?? '', inputSchema: jsonSchema(t.input_schema ?? { type: 'object' }) }),
    ]),
  );
  const history = Array.isArray(context?.conversation)
    ? context.conversation.filter((m) => m.role === 'user' || m.role === 'assistant')
    : [];
  const messages = [
    ...history.map((m) => ({ role: m.role, content: String(m.content) })),
    { role: 'user', content: String(prompt ?? '') },
  ];
  const used = { input: 0, output: 0 };
  try {
    for (let step = 1; step <= MAX_STEPS; step++) {
      const result = streamText({ model, system: context?.system, messages, tools: declared, maxRetries: 0 });
      const calls = [];
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') event('text', part.text);
        else if (part.type === 'reasoning-delta') event('thinking', part.text);
        else if (part.type === 'tool-call') calls.push(part);
        else if (part.type === 'error') throw part.error;
      }
      const usage = await result.totalUsage;
      used.input += usage.inputTokens ?? 0;
      used.output += usage.outputTokens ?? 0;
      messages.push(...(await result.response).messages);
      if (calls.length === 0) break;
      // One call at a time: the host asks the person about each in turn.
      const results = [];
      for (const call of calls) {
        const output = await askHost(call);
        results.push({
          type: 'tool-result',
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          output: { type: 'text', value: output },
        });
      }
      messages.push({ role: 'tool', content: results });
    }
    event('usage', { input_tokens: used.input, output_tokens: used.output });
    event('complete', null);
    send({ id, result: { status: 'complete', tokens_used: used.input + used.output } });
  } catch (e) {
    const message = `${config.model} at ${config.baseURL}: ${e?.message ?? String(e)}`;
    event('error', { message });
    send({ id, error: { code: -32000, message } });
  }
}

async function available() {
  try {
    const r = await fetch(`${config.baseURL.replace(/\/+$/, '')}/models`, {
      headers: config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {},
      signal: AbortSignal.timeout(2000),
    });
    return r.ok ? { available: true } : { available: false, reason: `${config.baseURL} answered ${r.status}` };
  } catch (e) {
    return {
      available: false,
      reason: `no model server answers at ${config.baseURL} (${e?.cause?.code ?? e?.message ?? e}): start it, or set AGENT_BASE_URL`,
    };
  }
}

const methods = {
  'agent.init': () => ({ name: 'ollama-agent', model: config.model, capabilities: ['streaming', 'tool_use'] }),
  'agent.available': available,
  'agent.tool_result': ({ tool_id, result }) => {
    const resolve = waiting.get(tool_id);
    if (!resolve) return { acknowledged: false };
    waiting.delete(tool_id);
    resolve(typeof result === 'string' ? result : JSON.stringify(result));
    return { acknowledged: true };
  },
  ping: () => ({ pong: true }),
};

createInterface({ input: process.stdin }).on('line', async (line) => {
  let m;
  try {
    m = JSON.parse(line);
  } catch {
    return send({ id: null, error: { code: -32700, message: 'Parse error' } });
  }
  if (m.method === 'agent.run') return void run(m.id, m.params ?? {});
  if (m.method === 'shutdown') {
    send({ id: m.id, result: { status: 'shutting_down' } });
    return setTimeout(() => process.exit(0), 5);
  }
  if (m.id === undefined) return;
  const fn = methods[m.method];
  if (!fn) return send({ id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } });
  send({ id: m.id, result: await fn(m.params ?? {}) });
});
