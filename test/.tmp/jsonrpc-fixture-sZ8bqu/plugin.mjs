// A JSON-RPC 2.0 plugin over NDJSON (or length-prefixed with FRAMING=length-prefixed) that
// speaks Mehrhof's provider/agent/workflow methods and the planner/executor method set, with
// switchable misbehaviour. Modes (env FIXTURE_MODE, comma-separated): ping-error, ping-silent,
// ping-in-result, ignore-shutdown, ignore-term, hang-init, init-error, junk-at-start.
const modes = new Set((process.env.FIXTURE_MODE ?? '').split(',').filter(Boolean));
const lengthPrefixed = process.env.FRAMING === 'length-prefixed';

if (modes.has('ignore-term')) process.on('SIGTERM', () => {});
if (modes.has('ignore-shutdown')) setInterval(() => {}, 1 << 30);

function write(value) {
  const json = JSON.stringify(value);
  if (!lengthPrefixed) return process.stdout.write(`${json}\n`);
  const body = Buffer.from(json);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length, 0);
  return process.stdout.write(Buffer.concat([head, body]));
}
const reply = (id, result) => write({ jsonrpc: '2.0', id, result });
const fail = (id, code, message, data) => write({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } });
const notify = (method, params) => write({ jsonrpc: '2.0', method, params });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const block = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const methods = {
  'provider.init': () => ({ capabilities: ['read', 'snapshot', 'list'] }),
  'agent.init': () => ({ name: 'fixture-agent', model: 'none', capabilities: ['streaming'] }),
  'workflow.init': () => ({ phases: [], guards: [{ name: 'requiresApproval' }], effects: [{ name: 'notify' }] }),
  'provider.match': (p) => ({ matches: String(p.input ?? '').startsWith('fx:') }),
  'provider.parse': (p) => (String(p.input ?? '').startsWith('fx:') ? { id: p.input.slice(3) } : { error: 'Invalid format' }),
  'provider.fetch': (p) => ({ id: p.id, externalId: p.id, title: `Task ${p.id}`, status: 'open', provider: 'fixture' }),
  'provider.snapshot': (p) => ({ content: `# Task ${p.id}\n` }),
  'provider.list': () => ({ items: [{ id: 'FX-1', title: 'One' }], total: 1, hasMore: false }),
  'agent.available': () => ({ available: true }),
  async 'agent.run'(p, id) {
    const words = String(p.prompt ?? 'hello world').split(' ');
    for (const w of words) notify('stream', { type: 'text', data: `${w} ` });
    notify('stream', { type: 'file', data: { path: 'out.txt', content: 'x' } });
    notify('stream', { type: 'complete', data: null });
    if (p.delay_ms) await sleep(p.delay_ms);
    reply(id, { status: 'complete', tokens_used: words.length });
  },
  'workflow.evaluateGuard': (p) => ({ allowed: !(p.context?.labels ?? []).includes('critical'), reason: 'Critical tasks need approval' }),
  'workflow.executeEffect': () => ({ success: true, message: 'Notification sent' }),
  echo: (p) => p,
  async execute_task(p, id) {
    // Planner/executor streaming: stream_start, numbered stream_data, stream_end, then the result.
    const n = p.chunks ?? 3;
    const skip = p.skip_sequence;
    const stream_id = `stream_${id}`;
    notify('stream_start', { stream_id, task_id: id });
    for (let seq = 1; seq <= n; seq++) {
      if (seq === skip) continue;
      notify('stream_data', { stream_id, chunk: `part ${seq} `, sequence: seq });
    }
    notify('stream_end', { stream_id, total_chunks: n });
    await sleep(5);
    reply(id, { status: 'success', output: { code: 'done', explanation: p.prompt ?? '' } });
  },
  async blast(p, id) {
    const chunk = 'x'.repeat(p.size ?? 64);
    for (let i = 0; i < (p.n ?? 1000); i++) {
      if (!notify('stream', { type: 'text', data: chunk })) await new Promise((r) => process.stdout.once('drain', r));
    }
    reply(id, 'done');
  },
  validate_code: (p) => ({ valid: !String(p.code ?? '').includes('var '), issues: [] }),
  plan_fail: (_p, id) => {
    fail(id, -32000, 'Execution failed', { type: 'TIMEOUT', details: 'model took too long' });
  },
  result_error: () => ({ error: 'Invalid URL' }),
  error_null_id: () => {
    write({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  },
  string_id: (_p, id) => {
    write({ jsonrpc: '2.0', id: String(id), result: 'stringly' });
  },
  junk: (_p, id) => {
    process.stdout.write('DEBUG: this is print debugging\n');
    reply(id, 'after junk');
  },
  oversize: () => {
    process.stdout.write('x'.repeat(2 * 1024 * 1024));
    block(1e9);
  },
  hang: () => block(1e9),
  crash: () => {
    notify('stream', { type: 'text', data: 'about to crash' });
    setTimeout(() => process.exit(7), 10);
  },
};

async function handle(msg) {
  const { id, method, params = {} } = msg;
  if (method === 'ping') {
    if (modes.has('ping-silent')) return;
    if (modes.has('ping-error')) return fail(id, -32601, 'Method not found');
    if (modes.has('ping-in-result')) return reply(id, { error: { code: -32601, message: 'Method not found' } });
    return reply(id, { pong: true });
  }
  if (method === 'shutdown') {
    if (modes.has('ignore-shutdown')) return;
    reply(id, { status: 'shutting_down' });
    return setTimeout(() => process.exit(0), 5);
  }
  if (method.endsWith('.init') && modes.has('hang-init')) return block(1e9);
  if (method.endsWith('.init') && modes.has('init-error')) return fail(id, -32003, 'Authentication error: API key not set');
  const fn = methods[method];
  if (!fn) return id === undefined ? undefined : fail(id, -32601, `Method not found: ${method}`);
  const out = await fn(params, id);
  if (out !== undefined && id !== undefined) reply(id, out);
}

async function dispatch(value) {
  if (Array.isArray(value)) {
    // A batch: answer with one array, in order.
    const answers = [];
    for (const m of value) {
      const fn = methods[m.method];
      if (m.id === undefined) continue;
      answers.push(fn ? { jsonrpc: '2.0', id: m.id, result: await fn(m.params ?? {}, m.id) } : { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
    }
    return write(answers);
  }
  return handle(value);
}

if (modes.has('junk-at-start')) process.stdout.write('hello from a print statement\n');

let queue = Promise.resolve();
if (lengthPrefixed) {
  let buf = Buffer.alloc(0);
  process.stdin.on('data', (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    while (buf.length >= 4) {
      const len = buf.readUInt32BE(0);
      if (buf.length < 4 + len) break;
      const msg = JSON.parse(buf.subarray(4, 4 + len).toString('utf8'));
      buf = buf.subarray(4 + len);
      queue = queue.then(() => dispatch(msg));
    }
  });
} else {
  let pending = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    pending += chunk;
    let nl;
    while ((nl = pending.indexOf('\n')) !== -1) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (line.trim()) {
        const msg = JSON.parse(line);
        queue = queue.then(() => dispatch(msg));
      }
    }
  });
}
process.stdin.on('end', () => {
  if (!modes.has('ignore-shutdown')) queue.then(() => process.exit(0));
});
