// A G-Assist V2 plugin written against the raw wire protocol, with switchable misbehaviour.
// It behaves like NVIDIA's Node SDK by default (unknown function => `error` notification) and
// like the Python SDK with GASSIST_UNKNOWN=response (=> JSON-RPC -32601 response).
// Modes (env FIXTURE_MODE, comma-separated): hang-before-handshake, exit-before-handshake,
// wrong-version, ignore-term, ignore-shutdown, no-ping.
import { spawn } from 'node:child_process';

const modes = new Set((process.env.FIXTURE_MODE ?? '').split(',').filter(Boolean));
const unknownStyle = process.env.GASSIST_UNKNOWN ?? 'notification';

if (modes.has('ignore-term')) process.on('SIGTERM', () => {});
if (modes.has('ignore-shutdown')) setInterval(() => {}, 1 << 30);
if (modes.has('exit-before-handshake')) {
  process.stderr.write('Traceback (most recent call last):\n  fixture: refusing to start\n');
  process.exit(1);
}

function send(msg) {
  const body = Buffer.from(JSON.stringify(msg), 'utf8');
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length, 0);
  process.stdout.write(Buffer.concat([head, body]));
}
const notify = (method, params) => send({ jsonrpc: '2.0', method, params });
const stream = (id, data) => notify('stream', { request_id: id, data });
const complete = (id, data, keep = false, success = true) => notify('complete', { request_id: id, success, data, keep_session: keep });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Blocks the whole process, like a single-threaded SDK stuck in a handler. */
const block = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const functions = {
  async echo(id, args) {
    complete(id, args.text ?? '');
  },
  async count(id, args) {
    const n = args.n ?? 5;
    for (let i = 1; i <= n; i++) {
      stream(id, `${i}\n`);
      if (args.delay_ms) await sleep(args.delay_ms);
    }
    complete(id, `counted to ${n}`);
  },
  async blast(id, args) {
    // Stream throughput: n chunks of `size` bytes, no pauses.
    const chunk = 'x'.repeat(args.size ?? 64);
    for (let i = 0; i < (args.n ?? 1000); i++) {
      stream(id, chunk);
      if (i % 256 === 255 && !process.stdout.writableNeedDrain) continue;
      if (process.stdout.writableNeedDrain) await new Promise((r) => process.stdout.once('drain', r));
    }
    complete(id, 'done');
  },
  async slow_stream(id, args) {
    // Busy for longer than two ping intervals, but streaming: must not be killed.
    const end = Date.now() + (args.ms ?? 3000);
    let i = 0;
    while (Date.now() < end) {
      stream(id, `tick ${++i}\n`);
      block(args.interval_ms ?? 400);
    }
    complete(id, `ticked ${i} times`);
  },
  async hang() {
    block(1e9);
  },
  async hang_streaming(id) {
    stream(id, 'starting…\n');
    stream(id, 'still going…\n');
    await sleep(10);
    block(1e9);
  },
  async crash_mid_stream(id, args) {
    for (let i = 1; i <= (args.after ?? 3); i++) stream(id, `chunk ${i}\n`);
    await sleep(20);
    process.stderr.write('fatal: something broke mid-stream\n');
    process.exit(3);
  },
  async exit0() {
    process.exit(0);
  },
  async junk(id) {
    const text = Buffer.from('print debugging, not JSON');
    const head = Buffer.alloc(4);
    head.writeUInt32BE(text.length, 0);
    process.stdout.write(Buffer.concat([head, text]));
    complete(id, 'survived junk');
  },
  async oversize() {
    const len = 11 * 1024 * 1024;
    const head = Buffer.alloc(4);
    head.writeUInt32BE(len, 0);
    process.stdout.write(head);
    process.stdout.write(Buffer.alloc(len, 0x20));
    block(1e9);
  },
  async huge_frame() {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(0xffffffff, 0);
    process.stdout.write(head);
    process.stdout.write(Buffer.from('{"jsonrpc":"2.0"'));
    block(1e9);
  },
  async wrong_id(id) {
    stream(id + 1000, 'for someone else');
    complete(id + 1000, 'wrong id');
  },
  async duplicate_id(id) {
    complete(id, 'first');
    complete(id, 'second');
  },
  async flood_notifications(id, args) {
    for (let i = 0; i < (args.n ?? 100000); i++) notify('log', { level: 'info', message: `flood ${i}` });
    complete(id, 'flooded');
  },
  async flood_stderr(id, args) {
    const line = `${'e'.repeat(100)}\n`;
    for (let i = 0; i < (args.n ?? 100000); i++) {
      if (!process.stderr.write(line)) await new Promise((r) => process.stderr.once('drain', r));
    }
    complete(id, 'flooded stderr');
  },
  async spawn_grandchild(id) {
    const child = spawn('sleep', ['1000'], { stdio: 'ignore' });
    complete(id, { grandchild: child.pid });
  },
  async start_conversation(id, args) {
    complete(id, `Talking about ${args.topic ?? 'anything'}. Say "exit" to leave.`, true);
  },
  async fail(id) {
    notify('error', { request_id: id, code: -1, message: 'API rate limit exceeded' });
  },
  async context_echo(id, _args, params) {
    complete(id, { context: params.context, system_info: params.system_info });
  },
};

async function handle(msg) {
  const { id, method, params } = msg;
  if (method === 'initialize') {
    if (modes.has('hang-before-handshake')) return block(1e9);
    const commands = [...Object.keys(functions), 'on_input'].map((name) => ({ name, description: `fixture ${name}` }));
    return send({ jsonrpc: '2.0', id, result: { name: 'fixture', version: '1.0.0', description: 'fixture', protocol_version: modes.has('wrong-version') ? '3.0' : '2.0', commands } });
  }
  if (method === 'ping') {
    if (modes.has('no-ping')) return;
    return send({ jsonrpc: '2.0', id, result: { timestamp: params?.timestamp } });
  }
  if (method === 'shutdown') {
    if (modes.has('ignore-shutdown')) return;
    process.exit(0);
  }
  if (method === 'input') {
    const text = String(params?.content ?? '');
    if (text === 'hang') return block(1e9);
    send({ jsonrpc: '2.0', id, result: { acknowledged: true } });
    if (text === 'exit') return complete(id, 'Bye!', false);
    stream(id, 'you said: ');
    return complete(id, text, true);
  }
  if (method === 'execute') {
    const fn = functions[params.function];
    if (!fn) {
      if (unknownStyle === 'response') {
        return send({ jsonrpc: '2.0', id, error: { code: -32601, message: `Unknown command: ${params.function}` } });
      }
      return notify('error', { request_id: id, code: -32601, message: `Unknown function: ${params.function}` });
    }
    return fn(id, params.arguments ?? {}, params);
  }
  if (id !== undefined) send({ jsonrpc: '2.0', id, error: { code: -32601, message: `Unknown method: ${method}` } });
}

// Read length-prefixed frames from stdin, one handler at a time (single-threaded, like the SDKs).
let buf = Buffer.alloc(0);
let busy = Promise.resolve();
process.stdin.on('data', (chunk) => {
  buf = Buffer.concat([buf, chunk]);
  while (buf.length >= 4) {
    const len = buf.readUInt32BE(0);
    if (buf.length < 4 + len) break;
    const msg = JSON.parse(buf.subarray(4, 4 + len).toString('utf8'));
    buf = buf.subarray(4 + len);
    busy = busy.then(() => handle(msg));
  }
});
process.stdin.on('end', () => {
  if (!modes.has('ignore-shutdown')) busy.then(() => process.exit(0));
});
