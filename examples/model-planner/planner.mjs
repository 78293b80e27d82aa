// A planner and executor (the planner/executor JSON-RPC method set, NDJSON on stdio) whose work is
// done by a model on any OpenAI-compatible server, through the AI SDK. create_plan asks the model
// for a short task list as JSON; execute_task asks it to do one task, streaming the answer as
// numbered chunks (stream_start, stream_data, stream_end); update_context keeps what is done, so
// later tasks build on earlier ones.
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';

async function load(name) {
  const nodeModules = process.env.PLUGBOARD_NODE_MODULES;
  if (nodeModules) {
    try {
      return createRequire(path.join(nodeModules, 'noop.js'))(name);
    } catch {
      // a checkout: the usual lookup below
    }
  }
  return import(name);
}

const { generateText, streamText } = await load('ai');
const { createOpenAICompatible } = await load('@ai-sdk/openai-compatible');

const baseURL = process.env.PLANNER_BASE_URL || 'http://127.0.0.1:11434/v1';
const modelId = process.env.PLANNER_MODEL || 'llama3.2';
const apiKey = process.env.PLANNER_API_KEY || undefined;
const model = createOpenAICompatible({ name: 'planner', baseURL, ...(apiKey ? { apiKey } : {}) })(modelId);

const send = (m) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
/** What the plan has done so far, from update_context: task id → status. */
const progress = new Map();
const results = new Map();

const PLAN_PROMPT = `Split the user's request into 2 to 6 tasks. Answer with JSON only, in this shape:
{"tasks":[{"id":"t1","description":"…","dependencies":[]},{"id":"t2","description":"…","dependencies":["t1"]}],"explanation":"…"}`;

/** The first JSON object in a model's answer (models like to wrap it in prose or fences). */
function firstObject(text) {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error(`the model's plan was not JSON: ${text.slice(0, 200)}`);
  return JSON.parse(text.slice(start, end + 1));
}

async function createPlan(p) {
  const { text } = await generateText({
    model,
    system: PLAN_PROMPT,
    prompt: String(p.user_request ?? ''),
    maxRetries: 0,
  });
  const plan = firstObject(text);
  return { plan: { tasks: plan.tasks, explanation: plan.explanation ?? '' } };
}

async function executeTask(id, p) {
  // Earlier results count once Plugboard says their task is done (update_context).
  const done = [...results]
    .filter(([task]) => progress.get(task) === 'done')
    .map(([task, out]) => `Task ${task} gave:\n${out}`)
    .join('\n\n');
  const stream_id = `stream_${id}`;
  send({ method: 'stream_start', params: { stream_id, task_id: id } });
  const r = streamText({
    model,
    system: `You carry out one task of a plan. Be brief.${done ? `\n\nWhat earlier tasks gave:\n${done}` : ''}`,
    prompt: String(p.prompt ?? ''),
    maxRetries: 0,
  });
  let sequence = 0;
  let all = '';
  for await (const part of r.fullStream) {
    if (part.type === 'error') throw part.error;
    if (part.type !== 'text-delta' || !part.text) continue;
    all += part.text;
    send({ method: 'stream_data', params: { stream_id, chunk: part.text, sequence: ++sequence } });
  }
  send({ method: 'stream_end', params: { stream_id, total_chunks: sequence } });
  const taskId = p.context?.task_id;
  if (taskId !== undefined) results.set(String(taskId), all);
  return { status: 'success', output: { explanation: all }, metadata: { model: modelId } };
}

const methods = {
  create_plan: (_id, p) => createPlan(p),
  execute_task: (id, p) => executeTask(id, p),
  update_context: (_id, p) => {
    if (p.data?.task_id !== undefined) progress.set(String(p.data.task_id), p.data.status);
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
  if (m.method === 'shutdown') {
    send({ id: m.id, result: { status: 'shutting_down' } });
    return setTimeout(() => process.exit(0), 5);
  }
  if (m.id === undefined) return;
  const fn = methods[m.method];
  if (!fn) return send({ id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } });
  try {
    send({ id: m.id, result: await fn(m.id, m.params ?? {}) });
  } catch (e) {
    send({ id: m.id, error: { code: -32000, message: `${modelId} at ${baseURL}: ${e?.message ?? e}` } });
  }
});
